import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { dockerStatus } from "../../harness/backends/docker.js";
import { diagnose, type Facts } from "../../harness/doctor.js";
import { PROJECT_ROOT } from "../../harness/paths.js";

const base: Facts = {
  node: "v20.20.2",
  docker: {
    available: false,
    reason: "no Docker engine reachable (Could not find a working container runtime strategy)",
  },
  localstackImage: "localstack/localstack:4.14.0",
  port4566: { state: "free" },
  python: { command: "python3", version: "3.11" },
  ministack: { installed: false, wheels: false },
};

describe("doctor's judgement", () => {
  test("no Docker, Python present: only MiniStack can run", () => {
    expect(diagnose(base).backends).toEqual({
      endpoint: false,
      testcontainers: false,
      ministack: true,
    });
  });

  test("nothing at all: no backend, and each row says what to do", () => {
    const { rows, backends } = diagnose({
      ...base,
      python: { problem: "none found" },
      port4566: { state: "busy" },
    });
    expect(Object.values(backends).some(Boolean)).toBe(false);
    for (const row of rows.filter((r) => r.ok === false)) expect(row.next, row.check).not.toBe("");
  });

  test("Docker without the images: pull them with offline-prepare", () => {
    const { rows, backends } = diagnose({
      ...base,
      docker: { available: true, socketPath: "/var/run/docker.sock", reason: "Docker 28" },
      images: { localstack: false, lambdaRuntime: true },
    });
    expect(backends.testcontainers).toBe(true);
    expect(rows.find((r) => r.check.startsWith("LocalStack image"))?.next).toContain(
      "offline-prepare",
    );
    expect(rows.find((r) => r.check.startsWith("Lambda runtime image"))?.ok).toBe(true);
  });

  test("an emulator on 4566 is the endpoint backend", () => {
    expect(
      diagnose({ ...base, port4566: { state: "emulator", name: "localstack 4.14.0" } }).backends
        .endpoint,
    ).toBe(true);
  });

  test("Node older than 20.12 is flagged", () => {
    expect(diagnose({ ...base, node: "v20.9.0" }).rows[0]).toMatchObject({ ok: false });
  });
});

describe("npm run lab -- doctor, on this machine", () => {
  test("reports Docker as it is, finds the MiniStack path, exits 0", async () => {
    const docker = await dockerStatus();
    const tsx = path.join(PROJECT_ROOT, "node_modules", ".bin", "tsx");
    const result = spawnSync(
      tsx,
      [path.join(PROJECT_ROOT, "harness", "cli", "lab-cli.ts"), "doctor"],
      {
        encoding: "utf8",
        timeout: 60_000,
      },
    );
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(
      docker.available ? /✓ testcontainers/ : /✗ testcontainers\s+needs a Docker engine/,
    );
    expect(result.stdout).toMatch(/✓ ministack/);
    expect(result.stdout).toContain("Python 3.10+");
  });
});
