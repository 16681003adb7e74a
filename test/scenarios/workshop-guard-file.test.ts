// The workshop's guard of one's own (docs/workshop.md, exercises/), command by command, as an
// attendee types it: its own lab beside workshop.test.ts's (LAB_PREFIX, LAB_HOME), so the two
// halves of the flow run side by side.
import { describe, expect, test } from "vitest";
import { labCommand, workshopEnv } from "./workshop-commands.js";

const lab = labCommand(workshopEnv("lab-workshop-guard-test"));

describe("the workshop flow with a guard file", () => {
  test("up, a guard file, send, deploy (keeps the file), send, status, logs, down", () => {
    expect(lab("up")).toContain(`lab is up: endpoint`);
    // A guard of one's own (exercises/): bundled into the worker, and kept by a redeploy.
    expect(lab("guard", "exercises/answers/1-claim.ts")).toContain(
      "guard is now 1-claim.ts (exercises/answers/1-claim.ts)",
    );
    lab("send", "--order-id", "ORDER-016", "--copies", "3");
    lab("deploy");
    lab("send", "--order-id", "ORDER-017", "--copies", "3");
    const own = lab("status");
    expect(own).toContain("2 charge(s)"); // one per order, before and after the redeploy
    expect(own).toMatch(/│ claim_lost\s+│ 2\s+│/); // the last send's: its two duplicates
    expect(lab("logs", "--order-id", "ORDER-017")).toMatch(/claim_won/);
    expect(lab("down")).toContain("it is yours, so it keeps running");
  }, 180_000);
});
