import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { dockerStatus } from "../../harness/backends/docker.js";
import { PROJECT_ROOT } from "../../harness/common/paths.js";
import { diagnose, type Facts, gatherMachineFacts } from "../../harness/workshop/doctor.js";

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
    expect(backends.testcontainers).toBe(false);
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

  const withDocker: Facts = {
    ...base,
    docker: { available: true, socketPath: "/var/run/docker.sock", reason: "Docker 28" },
    images: { localstack: true, lambdaRuntime: true },
  };

  test("an offline laptop with Docker but no LocalStack image is told MiniStack will run", () => {
    const { auto, labUp } = diagnose({
      ...withDocker,
      images: { localstack: false, lambdaRuntime: true },
    });
    expect(auto.backend).toBe("ministack");
    expect(auto.why).toContain("localstack/localstack:4.14.0 is not pulled");
    expect(auto.why).toContain("offline it runs MiniStack");
    expect(labUp.backend).toBe("ministack");
  });

  test("Docker with both images: auto runs testcontainers, lab up still MiniStack", () => {
    const { auto, labUp } = diagnose(withDocker);
    expect(auto).toEqual({
      backend: "testcontainers",
      why: "Docker is up and LocalStack's images are here",
    });
    expect(labUp.backend).toBe("ministack");
    expect(labUp.why).toContain("docker compose up -d");
  });

  test("a running emulator wins over everything, for auto and lab up", () => {
    const facts: Facts = {
      ...withDocker,
      port4566: { state: "emulator", name: "localstack 4.14.0" },
    };
    expect(diagnose(facts).auto.backend).toBe("endpoint");
    expect(diagnose(facts).labUp.backend).toBe("endpoint");
  });

  test("no Docker, no Python: nothing will run, and it says what to install", () => {
    const { auto } = diagnose({ ...base, python: { problem: "none found" } });
    expect(auto.backend).toBe("none");
    expect(auto.why).toContain("install Python 3.10+");
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
      !docker.available
        ? /✗ testcontainers\s+needs a Docker engine/
        : diagnose(await gatherMachineFacts()).backends.testcontainers
          ? /✓ testcontainers\s+Docker is reachable and LocalStack's images are here/
          : /✗ testcontainers\s+Docker is reachable, but LocalStack's images are not pulled/,
    );
    expect(result.stdout).toMatch(/✓ ministack/);
    expect(result.stdout).toContain("Python 3.10+");
  });
});
