// The workshop command's answers to bad input: one line, exit code 2, before any emulator is
// touched. (The flow itself runs against the emulator in test/scenarios/workshop.test.ts.)
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { npxLab } from "../node-tsx.js";
import { tempFolder } from "../temp-folder.js";

const home = tempFolder("lab-cli-"); // no lab is up here
// UTF-16 that lost its byte-order mark: refused before any emulator is touched.
const utf16NoBom = path.join(home, "body.json");
writeFileSync(utf16NoBom, Buffer.from('{"orderId":"ORDER-001"}', "utf16le"));

/**
 * `npx lab <args>` in a child process, not waiting on it synchronously: the cases run side by
 * side (describe.concurrent), each a Node process that mostly loads modules, so the file keeps
 * both cores busy once the other unit files are done, instead of one.
 */
const labIn = (labHome: string, ...args: string[]) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(...npxLab(args), {
      env: { ...process.env, LAB_HOME: labHome },
      timeout: 30_000,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
const lab = (...args: string[]) => labIn(home, ...args);

describe.concurrent("npx lab <command> with bad input", () => {
  test.each([
    [["guard", "maybe"], /"maybe" is not a guard; use off, naive, claim, lease, powertools, 0, 1/],
    [["guard", "lese"], /did you mean lease\?/],
    [["send", "--copies", "0"], /copies must be a whole number from 1 to 1000, got "0"/],
    [["send", "--copies", "many"], /copies must be a whole number/],
    [["send", "--order-id", ""], /the order id is empty/],
    [["send", "--amount", "-3"], /"-3" is not an amount/],
    [
      ["send", "--body-file", "/no/such/body.json"],
      /cannot read body file \/no\/such\/body.json: ENOENT/,
    ],
    [
      ["send", "--body-file", utf16NoBom],
      /body file .*body.json is UTF-16 without a byte-order mark; save it as UTF-8 \(PowerShell: /,
    ],
    [["stauts"], /unknown command 'stauts'[\s\S]*Did you mean status\?/],
    [["send", "--body-file", "body.json", "--amount", "9"], /--body-file sends the file as it is/],
  ])("%j exits 2 with one clear message", async (args, message) => {
    const result = await lab(...args);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  test("a command before `up` says what to do, exit 3 (the lab could not run)", async () => {
    const result = await lab("status");
    expect(result.status).toBe(3);
    expect(result.stderr.trim()).toBe('lab: no lab is up: run "npx lab up" first');
  });

  test("a damaged state file is one line saying what to do", async () => {
    const broken = tempFolder("lab-cli-broken-");
    writeFileSync(path.join(broken, "state.json"), "{ not json");
    const result = await labIn(broken, "status");
    expect(result.status).toBe(3);
    expect(result.stderr).toMatch(
      /state.json is not readable JSON: delete it, then run "npx lab up"/,
    );
  });

  test("down with nothing up is harmless", async () => {
    const result = await lab("down");
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toBe("no lab is up");
  });
});
