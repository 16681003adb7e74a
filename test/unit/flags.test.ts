// The command line's vocabulary, read by the one program `npx lab` runs: each command's flags
// and their defaults as its action receives them, and a bad value refused naming the flag. The
// actions are replaced here, so nothing starts; test/unit/lab-cli.test.ts and cli.test.ts run the
// real command line.
import type { Command } from "commander";
import { describe, expect, test } from "vitest";
import { GUARDS } from "../../contract/settings.js";
import { labProgram } from "../../harness/cli/program.js";

/** What the action of the command at `path` (e.g. ["bench", "load"]) receives for `args`. */
async function parsed(path: string[], args: string[]): Promise<unknown[]> {
  const program = labProgram();
  let command: Command = program;
  for (const name of path) {
    const next = command.commands.find((c) => c.name() === name);
    if (!next) throw new Error(`no command ${path.join(" ")}`);
    command = next;
  }
  let received: unknown[] = [];
  command.action((...given: unknown[]) => {
    received = given.slice(0, -1); // the last is the command itself
  });
  // Commander's own messages would go to stderr; the error it throws carries them.
  for (let c: Command | null = command; c; c = c.parent)
    c.configureOutput({ writeErr: () => {}, writeOut: () => {} });
  await program.parseAsync([...path, ...args], { from: "user" });
  return received;
}

const refused = (path: string[], args: string[]) =>
  parsed(path, args).then(
    () => "accepted",
    (err: Error) => err.message,
  );

describe("npx lab bench load", () => {
  test("defaults: 200 orders, 5 copies, every guard, text", async () => {
    expect(await parsed(["bench", "load"], [])).toEqual([
      { orders: 200, copies: 5, guards: [...GUARDS], json: false },
    ]);
  });

  test("each flag; a guard named twice runs once; 0 and 1 are the article's off and claim", async () => {
    expect(
      await parsed(
        ["bench", "load"],
        ["--orders", "20", "--copies", "3", "--guards", "lease, off,lease,1", "--json"],
      ),
    ).toEqual([{ orders: 20, copies: 3, guards: ["lease", "off", "claim"], json: true }]);
  });

  test.each([
    [["--orders", "0"], /--orders must be a whole number from 1 to 10000, got "0"/],
    [["--copies", "2.5"], /--copies must be a whole number from 1 to 100,/],
    [
      ["--guards", "claim,nope"],
      /"nope" is not a guard; use off, naive, claim, lease, powertools, 0, 1$/,
    ],
    [["--guards", ""], /"" is not a guard/],
    [["--order", "5"], /unknown option '--order'/],
  ])("%j is refused, naming the flag", async (args, message) => {
    expect(await refused(["bench", "load"], args)).toMatch(message);
  });
});

describe("one whole-number rule for every count, seed and limit", () => {
  test.each([
    [["scenario"], "--repeat", 1, 100],
    [["send"], "--copies", 1, 1000],
    [["explore"], "--copies", 2, 3],
    [["explore"], "--seed", 0, 2 ** 31 - 1],
    [["grade"], "--seed", 0, 2 ** 31 - 1],
    [["guard"], "--work-ms", 0, 10_000],
  ])("%j %s takes %i to %i and nothing else", async (path, flag, min, max) => {
    const args = (value: string) => (path[0] === "guard" ? ["off", flag, value] : [flag, value]);
    const optionsOf = async (value: string) => (await parsed(path, args(value))).at(-1);
    const key = flag.slice(2).replace(/-(.)/g, (_, c: string) => c.toUpperCase());
    expect(await optionsOf(String(min))).toMatchObject({ [key]: min });
    expect(await optionsOf(` ${max} `)).toMatchObject({ [key]: max });
    for (const bad of [String(min - 1), String(max + 1), "2.5", "1e1", "ten", "", "0x10"]) {
      expect(await refused(path, args(bad))).toContain(
        `${flag} must be a whole number from ${min} to ${max}, got "${bad}"`,
      );
    }
  });
});

describe("the explorer's budgets, one table for explore and grade", () => {
  test("grade offers small and default; explore full, deep and small", async () => {
    expect(await parsed(["grade"], ["x.ts"])).toMatchObject(["x.ts", [], { budget: "default" }]);
    expect(await parsed(["explore"], [])).toMatchObject([{ budget: "full" }]);
    expect(await refused(["grade"], ["--budget", "full"])).toMatch(
      /Allowed choices are small, default/,
    );
    expect(await refused(["explore"], ["--budget", "default"])).toMatch(
      /Allowed choices are full, deep, small/,
    );
  });
});

describe("npx lab guide, the guides' check behind the one command line", () => {
  test("its flags reach the runner as npm run guide took them", async () => {
    expect(await parsed(["guide"], [])).toEqual([{}]);
    expect(await parsed(["guide"], ["--update", "--replay", "--until-part", "3"])).toEqual([
      { update: true, replay: true, untilPart: "3" },
    ]);
    expect(await refused(["guide"], ["--until"])).toMatch(/unknown option '--until'/);
  });
});
