// An offline laptop with Docker: an engine answers, but LocalStack's image is not there and
// cannot be pulled. auto must not pick testcontainers there; it runs MiniStack and says why.

import { spawnSync } from "node:child_process";
import { expect, test } from "vitest";
import { startEmulator } from "../../harness/backends/choose.js";
import { npxLab } from "../node-tsx.js";
import { cannotRun, skipOrFail } from "./docker-for-tests.js";

// A tag no registry has, so the bounded pull fails whether this machine is online or not.
const ABSENT = "localstack/localstack:0.0.0-absent-for-the-lab-fallback-test";
const env = { ...process.env, LOCALSTACK_IMAGE: ABSENT, LAB_BACKEND: "auto" };

test("with Docker up and LocalStack's image absent, auto runs MiniStack and says why", async (context) => {
  if (cannotRun) return skipOrFail(context, cannotRun);
  const said: string[] = [];
  const backend = await startEmulator(
    (line) => said.push(line),
    { env, lasting: false },
    "no emulator here",
  );
  try {
    expect(backend.name).toBe("ministack");
    expect(backend.reason).toContain(
      `Docker is up, but ${ABSENT} is not here and could not be pulled`,
    );
    expect(said.some((line) => line.startsWith(`${ABSENT} is not here; pulling it`))).toBe(true);
  } finally {
    await backend.stop();
  }
}, 120_000);

test("lab doctor shows what will run instead", async (context) => {
  if (cannotRun) return skipOrFail(context, cannotRun);
  const doctor = spawnSync(...npxLab(["doctor"]), {
    encoding: "utf8",
    timeout: 60_000,
    env,
  });
  // Not only the code: a timeout, or what doctor was still waiting for when it stopped.
  expect(doctor.error).toBeUndefined();
  expect(doctor.status, doctor.stderr).toBe(0);
  expect(doctor.stdout).toMatch(
    /✗ testcontainers\s+Docker is reachable, but LocalStack's images are not pulled/,
  );
  const auto = doctor.stdout.split("\n").find((l) => l.startsWith("npm test, npx lab scenario:"));
  // An emulator on :4566 (the README's docker compose path) comes first; otherwise MiniStack.
  // Judged by what this doctor run found there: a LocalStack busy with the other tests may
  // miss one health probe and answer the next, so a second probe here could disagree.
  const answered = /port 4566 on localhost\s*│\s*\S+ [\d.]+ answers there/.test(doctor.stdout);
  if (answered) expect(auto).toMatch(/: endpoint \(/);
  else expect(auto).toContain(`: ministack (Docker is up but ${ABSENT} is not pulled`);
}, 90_000);
