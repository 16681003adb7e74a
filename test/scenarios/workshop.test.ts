// The workshop flow of docs/workshop.md, command by command, as an attendee types it: against
// the test run's emulator (LAB_ENDPOINT), on resources of its own (LAB_PREFIX), remembering its
// state in a folder of its own (LAB_HOME).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { labCommand, workshopEnv } from "./workshop-commands.js";

const env = workshopEnv("lab-workshop-test");
const lab = labCommand(env);

describe("the workshop flow", () => {
  // A guard file's part of the flow runs in workshop-guard-file.test.ts, beside this one.
  test("up, send 10 with the guard off, insights, guard 1, send again, status, logs, report, reset, down", () => {
    expect(lab("up")).toContain(`lab is up: endpoint`);

    const sent = lab("send", "--order-id", "ORDER-003", "--copies", "10");
    expect(sent.match(/MessageId [0-9a-f-]{36}/g)).toHaveLength(10);
    expect(sent).toContain("all 10 ended");

    const off = lab("insights");
    expect(off).toMatch(/│ charge_applied\s+│ 10\s+│/);
    expect(off).toMatch(/│ 10\s+│ 1\s+│ 10\s+│/); // charges, orders, messages
    expect(off).toContain("count_distinct(orderId)");

    expect(lab("guard", "1")).toContain("guard is now claim (the article's IDEMPOTENCY=1)");
    lab("send", "--order-id", "ORDER-003", "--copies", "10");

    const status = lab("status");
    expect(status).toMatch(/│ ORDER-003 │ COMPLETED │/);
    expect(status).toMatch(/│ claim_lost\s+│ 9\s+│/);
    expect(status).toMatch(/│ charge_applied\s+│ 1\s+│/);
    expect(status).toContain("11 charge(s)"); // 10 without the guard, then 1 with it

    expect(lab("logs", "--order-id", "ORDER-003")).toContain("claim_won");
    const page = path.join(env.LAB_HOME, "report.html");
    expect(lab("report", "--html", page)).toContain(`wrote ${page}`);
    expect(readFileSync(page, "utf8").match(/class="lane"/g)).toHaveLength(10);

    // reset: an experiment starts again from empty tables, without down and up.
    expect(lab("reset")).toContain(
      "items removed: lab-workshop-test 1, lab-workshop-test-charges 11, ",
    );
    const after = lab("status");
    expect(after).toContain("0 charge(s)");
    expect(after).not.toContain("ORDER-003");

    expect(lab("down")).toContain("it is yours, so it keeps running");
  }, 180_000);
});
