// `lab doctor` ends even when a probe never answers: here the Docker engine's socket accepts
// connections and never answers (a Docker Desktop half started), which kept testcontainers'
// detection waiting for good. The fake is at the process boundary: DOCKER_HOST names a socket
// this test holds; everything else is the machine's own. The probe's deadline is the test's
// input (LAB_DOCKER_PROBE_MS): the production 30 s is the same code waiting longer, and
// deadline.test.ts shows a deadline alone keeps a process alive.
import { spawnSync } from "node:child_process";
import { createServer, type Socket } from "node:net";
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import { dockerProbeDeadlineMs, PROBE_DEADLINE_MS } from "../../harness/workshop/doctor-facts.js";
import { npxLab } from "../node-tsx.js";
import { tempFolder } from "../temp-folder.js";

/** Seconds, not the 30 s of PROBE_DEADLINE_MS.docker: longer than doctor's other probes take here. */
const DEADLINE_MS = 4_000;

const held: Socket[] = [];
const silent = createServer((socket) => held.push(socket)); // reads nothing, answers nothing
afterAll(() => {
  for (const socket of held) socket.destroy();
  silent.close();
});

test.skipIf(process.platform === "win32")(
  "a Docker socket that never answers: doctor ends by the probe's deadline and says so",
  async () => {
    const socket = path.join(tempFolder("lab-silent-docker-"), "docker.sock");
    await new Promise<void>((resolve) => silent.listen(socket, resolve));
    const started = Date.now();
    const doctor = spawnSync(...npxLab(["doctor"]), {
      encoding: "utf8",
      timeout: 60_000,
      env: {
        ...process.env,
        DOCKER_HOST: `unix://${socket}`,
        LAB_DOCKER_PROBE_MS: String(DEADLINE_MS),
        NO_COLOR: "1",
      },
    });
    const seconds = DEADLINE_MS / 1000;
    expect(doctor.error, "doctor was killed by the test's own timeout").toBeUndefined();
    expect(doctor.stderr).not.toContain("stopped before it finished");
    expect(doctor.stdout).toContain(
      `✗ no answer from the Docker engine (testcontainers) within ${seconds} s: doctor went on without it`,
    );
    expect(doctor.stdout).toMatch(/│ ✗ │ Docker engine\s+│ no answer within \d+ s/);
    expect(doctor.stdout).toContain("✗ testcontainers  needs a Docker engine");
    expect([0, 3]).toContain(doctor.status); // 3 only if MiniStack cannot run here either
    console.log(`doctor with a silent Docker socket ended in ${(Date.now() - started) / 1000} s`);
  },
  60_000,
);

test("the Docker probe's deadline: 30 s unless LAB_DOCKER_PROBE_MS says; a bad one is one line", () => {
  expect(dockerProbeDeadlineMs({})).toBe(PROBE_DEADLINE_MS.docker);
  expect(PROBE_DEADLINE_MS.docker).toBe(30_000);
  expect(dockerProbeDeadlineMs({ LAB_DOCKER_PROBE_MS: "4000" })).toBe(4_000);
  expect(() => dockerProbeDeadlineMs({ LAB_DOCKER_PROBE_MS: "4 s" })).toThrow(
    'LAB_DOCKER_PROBE_MS must be a whole number of milliseconds, not "4 s"',
  );
});
