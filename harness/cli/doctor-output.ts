// `npx lab doctor`: what this machine has, as a table, then which backend each command
// would use and why. Exits 3 when no backend can run at all.
import { LabError } from "../common/errors.js";
import { table } from "../report/table.js";
import { diagnose, gatherMachineFacts } from "../workshop/doctor.js";
import { gatherReadiness, judgeReadiness } from "../workshop/readiness.js";

export async function printDoctor(): Promise<void> {
  const facts = await gatherMachineFacts();
  const { rows, backends, ministack, auto, labUp } = diagnose(facts);
  const marks = rows.map((r) => [r.ok === null ? "·" : r.ok ? "✓" : "✗", r.check, r.found, r.next]);
  console.log(table(["", "check", "found", "next step"], marks, [3, 36, 44, 48]));
  // A probe given up on: the rows above show what doctor assumed without its answer.
  for (const { what, ms } of facts.late)
    console.log(`✗ no answer from ${what} within ${ms / 1000} s: doctor went on without it`);
  const line = (name: string, ok: boolean, why: string) =>
    console.log(`${ok ? "✓" : "✗"} ${name.padEnd(15)} ${why}`);
  line(
    "endpoint",
    backends.endpoint,
    backends.endpoint
      ? "an emulator answers at localhost:4566"
      : "no emulator running (docker compose up -d)",
  );
  line(
    "testcontainers",
    backends.testcontainers,
    backends.testcontainers
      ? "Docker is reachable and LocalStack's images are here"
      : facts.docker.available
        ? "Docker is reachable, but LocalStack's images are not pulled (offline-prepare)"
        : "needs a Docker engine",
  );
  line("ministack", backends.ministack, ministack.line);
  console.log(`\nnpm test, npx lab scenario: ${auto.backend} (${auto.why})`);
  console.log(`npx lab up:                 ${labUp.backend} (${labUp.why})`);
  if (!Object.values(backends).some(Boolean)) {
    // MiniStack is the backend every room can have (Python and the kit's wheels): say what it lacks.
    throw new LabError(`no backend can run on this machine: ${ministack.choice.why}`);
  }
}

/** `lab doctor --ready`: the rows, then one verdict; not ready exits 3 with what to do. */
export async function printReadiness(): Promise<void> {
  const rows = judgeReadiness(await gatherReadiness());
  const marks = rows.map((r) => [r.ok ? "✓" : "✗", r.check, r.found, r.next]);
  console.log(table(["", "check", "found", "next step"], marks, [3, 28, 44, 48]));
  const todo = rows.filter((r) => !r.ok && r.next !== "");
  if (rows.every((r) => r.ok)) {
    console.log("ready: this laptop has what the workshop needs (bring it as it is)");
    return;
  }
  throw new LabError(
    `not ready: ${todo.map((r) => r.next).join("; ")}; then run npx lab doctor --ready again`,
  );
}
