// setMappingIfNeeded: one read of the event source mapping, at most one update, and the wait for
// its state only when it was turned on or off. A fake Lambda client stands in for the emulator.
import {
  GetEventSourceMappingCommand,
  UpdateEventSourceMappingCommand,
} from "@aws-sdk/client-lambda";
import { describe, expect, test } from "vitest";
import type { Connection } from "../../harness/aws/connection.js";
import { setMappingIfNeeded } from "../../harness/aws/switches.js";

interface Mapping {
  State: string;
  BatchSize: number;
}

/** A mapping that applies updates at once, and the calls made to it. */
function fakeMapping(mapping: Mapping) {
  const calls: { name: string; input: object }[] = [];
  const conn = {
    lambda: {
      send: async (command: GetEventSourceMappingCommand | UpdateEventSourceMappingCommand) => {
        calls.push({ name: command.constructor.name, input: command.input });
        if (command instanceof UpdateEventSourceMappingCommand) {
          const { Enabled, BatchSize } = command.input;
          if (Enabled !== undefined) mapping.State = Enabled ? "Enabled" : "Disabled";
          if (BatchSize !== undefined) mapping.BatchSize = BatchSize;
        }
        return { ...mapping };
      },
    },
  } as unknown as Connection;
  const named = (name: string) => calls.filter((c) => c.name === name);
  return {
    conn,
    calls,
    gets: () => named(GetEventSourceMappingCommand.name).length,
    updates: () => named(UpdateEventSourceMappingCommand.name).map((c) => c.input),
  };
}

describe("setMappingIfNeeded", () => {
  test("already as wanted: one read, no update", async () => {
    const fake = fakeMapping({ State: "Enabled", BatchSize: 1 });
    await setMappingIfNeeded(fake.conn, "m", { enabled: true, batchSize: 1 });
    expect(fake.calls).toHaveLength(1);
    expect(fake.updates()).toEqual([]);
  });

  test("only the batch size differs: one read, one update, no wait for a state", async () => {
    const fake = fakeMapping({ State: "Enabled", BatchSize: 1 });
    await setMappingIfNeeded(fake.conn, "m", { enabled: true, batchSize: 10 });
    expect(fake.gets()).toBe(1);
    expect(fake.updates()).toEqual([{ UUID: "m", BatchSize: 10 }]);
  });

  test("only on/off differs: one update, then reads until the state is reached", async () => {
    const fake = fakeMapping({ State: "Enabled", BatchSize: 1 });
    await setMappingIfNeeded(fake.conn, "m", { enabled: false, batchSize: 1 });
    expect(fake.updates()).toEqual([{ UUID: "m", Enabled: false }]);
    // The read before, and the wait's read after, which sees Disabled.
    expect(fake.gets()).toBe(2);
  });

  test("both differ: one update carries Enabled and BatchSize together", async () => {
    const fake = fakeMapping({ State: "Disabled", BatchSize: 10 });
    await setMappingIfNeeded(fake.conn, "m", { enabled: true, batchSize: 1 });
    expect(fake.updates()).toEqual([{ UUID: "m", Enabled: true, BatchSize: 1 }]);
    expect(fake.gets()).toBe(2);
    expect(fake.calls.map((c) => c.name)).toEqual([
      GetEventSourceMappingCommand.name,
      UpdateEventSourceMappingCommand.name,
      GetEventSourceMappingCommand.name,
    ]);
  });

  test("a mapping still Enabling counts as off: it is turned on again and waited for", async () => {
    const fake = fakeMapping({ State: "Enabling", BatchSize: 1 });
    await setMappingIfNeeded(fake.conn, "m", { enabled: true, batchSize: 1 });
    expect(fake.updates()).toEqual([{ UUID: "m", Enabled: true }]);
  });
});
