// The room kit's pure parts: which npm packages it carries, which Python targets, what an
// attendee reads, and how `lab up` tells the shells to reach the emulator.
import { describe, expect, test } from "vitest";
import { awsCliLines } from "../../harness/cli/aws-cli-lines.js";
import { type KitManifest, kitReadme } from "../../harness/workshop/kit.js";
import { npmSpecsFor, readLockfile } from "../../harness/workshop/kit-npm.js";
import { KIT_PLATFORMS, KIT_TARGETS, pipTargetArgs } from "../../harness/workshop/kit-wheels.js";

const lock = {
  packages: {
    "": { name: "lab", version: "0.1.0" },
    "node_modules/commander": { version: "14.0.3" },
    "node_modules/@esbuild/win32-x64": { version: "0.28.2", os: ["win32"], cpu: ["x64"] },
    "node_modules/@esbuild/linux-s390x": { version: "0.28.2", os: ["linux"], cpu: ["s390x"] },
    "node_modules/@biomejs/cli-linux-x64-musl": {
      version: "2.6.9",
      os: ["linux"],
      cpu: ["x64"],
      libc: ["musl"],
    },
    "node_modules/@biomejs/cli-linux-x64": {
      version: "2.6.9",
      os: ["linux"],
      cpu: ["x64"],
      libc: ["glibc"],
    },
    "node_modules/fsevents": { version: "2.3.3", os: ["darwin"] },
    "node_modules/vite/node_modules/commander": { version: "9.0.0" },
    "harness-link": { version: "1.0.0", link: true },
  },
};

describe("the kit's npm packages", () => {
  test("every platform's binaries the kit targets, nothing for other systems or musl", () => {
    expect(
      npmSpecsFor(
        lock,
        KIT_PLATFORMS.map((p) => p.npm),
      ),
    ).toEqual([
      "@biomejs/cli-linux-x64@2.6.9",
      "@esbuild/win32-x64@0.28.2",
      "commander@14.0.3",
      "commander@9.0.0",
      "fsevents@2.3.3",
    ]);
  });

  test("only Linux x64: no Windows or macOS binaries", () => {
    expect(npmSpecsFor(lock, [{ os: "linux", cpu: "x64" }])).toEqual([
      "@biomejs/cli-linux-x64@2.6.9",
      "commander@14.0.3",
      "commander@9.0.0",
    ]);
  });

  test("the real lockfile: esbuild for each of the five platforms, once", () => {
    const specs = npmSpecsFor(
      readLockfile(),
      KIT_PLATFORMS.map((p) => p.npm),
    );
    const esbuilds = specs.filter((s) => s.startsWith("@esbuild/")).map((s) => s.split("@")[1]);
    expect(esbuilds.sort()).toEqual([
      "esbuild/darwin-arm64",
      "esbuild/darwin-x64",
      "esbuild/linux-arm64",
      "esbuild/linux-x64",
      "esbuild/win32-x64",
    ]);
  });
});

describe("the kit's Python targets", () => {
  test("five platforms by four CPythons", () => {
    expect(KIT_TARGETS).toHaveLength(20);
    expect(new Set(KIT_TARGETS.map((t) => t.python))).toEqual(
      new Set(["3.10", "3.11", "3.12", "3.13"]),
    );
  });

  test("pip answers for the target, not for this machine", () => {
    const windows = KIT_TARGETS.find(
      (t) => t.platform.name === "Windows amd64" && t.python === "3.12",
    );
    expect(windows && pipTargetArgs(windows)).toEqual([
      "--only-binary",
      ":all:",
      "--implementation",
      "cp",
      "--python-version",
      "3.12",
      "--platform",
      "win_amd64",
    ]);
  });
});

test("the attendee README: the commands, the same in every shell, and what to install first", () => {
  const manifest: KitManifest = {
    createdAt: "2026-12-04T09:00:00.000Z",
    commit: "abc1234",
    ministack: "1.5.33",
    node: ">=22",
    platforms: ["Linux x86_64", "Windows amd64"],
    pythons: ["3.10", "3.13"],
    npmPackages: 275,
    wheels: 40,
    bytes: { source: 1e6, wheels: 28e6, npmCache: 354e6, total: 383e6 },
  };
  const readme = kitReadme(manifest);
  expect(readme).toContain(
    "cd sqs-idempotency-lab\nnpm ci --offline --cache ../npm-cache\nnpx lab up\n",
  );
  expect(readme).toContain("Node.js 22 or 24 and Python 3.10 to 3.13");
  expect(readme).toContain("383 MB in all");
  // Windows blocks PowerShell scripts by default, and npm and npx are scripts there.
  expect(readme).toContain("`npx.cmd lab up`");
  expect(readme).toContain("`Set-ExecutionPolicy -Scope CurrentUser RemoteSigned`");
  expect(readme).toContain("then `npx lab doctor --ready` in sqs-idempotency-lab/: ready or not");
});

test("lab up tells bash and PowerShell how to reach the emulator", () => {
  const lines = awsCliLines("http://127.0.0.1:4566", "us-east-1").split("\n");
  expect(lines).toContain(
    "    export AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test AWS_DEFAULT_REGION=us-east-1",
  );
  expect(lines).toContain(
    '    $env:AWS_ACCESS_KEY_ID = "test"; $env:AWS_SECRET_ACCESS_KEY = "test"; $env:AWS_DEFAULT_REGION = "us-east-1"',
  );
  expect(
    lines.filter((l) => l === "    aws --endpoint-url http://127.0.0.1:4566 sqs list-queues"),
  ).toHaveLength(2);
});
