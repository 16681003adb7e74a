import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { dockerStatus } from "../../harness/backends/docker.js";
import { ministackPaths } from "../../harness/backends/ministack-install.js";
import type { IndexProbe } from "../../harness/backends/package-index.js";
import { freeLoopbackPort } from "../../harness/backends/processes.js";
import { findPython } from "../../harness/backends/python.js";
import {
  diagnose,
  type Facts,
  gatherMachineFacts,
  ministackFacts,
  unansweredProbes,
} from "../../harness/workshop/doctor.js";
import { npxLab } from "../node-tsx.js";
import { tempFolder } from "../temp-folder.js";
import { wheelsFolder } from "./ministack-wheel-fixture.js";

const base: Facts = {
  node: "v22.23.5",
  docker: {
    available: false,
    reason: "no Docker engine reachable (Could not find a working container runtime strategy)",
  },
  localstackImage: "localstack/localstack:4.14.0",
  port4566: { state: "free" },
  python: { command: "/usr/bin/python3.11", args: [], version: "3.11", label: "python3" },
  ministack: { installed: true },
  late: [],
};

const PYPI = "https://pypi.org/simple/ministack/";
/** No venv, no wheels, no network: Python alone, which installs nothing. */
const offlineBare: Facts["ministack"] = {
  installed: false,
  wheels: { state: "none" },
  index: { url: PYPI, answers: false },
};
const row = (facts: Facts, check: string) =>
  diagnose(facts).rows.find((r) => r.check.startsWith(check));

describe("doctor's judgement", () => {
  test("no Docker, MiniStack installed: only MiniStack can run", () => {
    expect(diagnose(base).backends).toEqual({
      endpoint: false,
      testcontainers: false,
      ministack: true,
    });
  });

  test("nothing at all: no backend, and each row says what to do", () => {
    const { rows, backends } = diagnose({
      ...base,
      python: { problem: "none found", found: [] },
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
    const { auto } = diagnose({ ...base, python: { problem: "none found", found: [] } });
    expect(auto.backend).toBe("none");
    expect(auto.why).toContain("install Python 3.10 to 3.13");
  });

  test("only a Python the kit has no wheels for: ✗, naming it and what is needed", () => {
    const facts: Facts = {
      ...base,
      python: { problem: "MiniStack needs Python 3.10 to 3.13 ...", found: ["py -3 3.14"] },
    };
    expect(row(facts, "Python 3.10-3.13")).toEqual({
      check: "Python 3.10-3.13 (for MiniStack)",
      ok: false,
      found: "only py -3 3.14",
      next: "install Python 3.10 to 3.13 or set LAB_PYTHON",
    });
    expect(diagnose(facts).auto.backend).toBe("none");
  });

  test("MiniStack installed in .lab/venv: ✓, and no wheels needed", () => {
    const { backends, ministack, auto } = diagnose(base);
    expect(backends.ministack).toBe(true);
    expect(ministack.line).toBe("installed in .lab/venv; no Docker needed");
    expect(row(base, "MiniStack 1.5.33")).toMatchObject({
      ok: true,
      found: "installed in .lab/venv",
    });
    expect(row(base, "MiniStack wheels")).toMatchObject({
      ok: null,
      found: "not needed: installed",
    });
    expect(auto).toEqual({ backend: "ministack", why: "MiniStack is installed in .lab/venv" });
  });

  test("not installed, wheels that pip resolves here: ✓ with no network", () => {
    const facts: Facts = { ...base, ministack: { installed: false, wheels: { state: "resolve" } } };
    const { backends, ministack, labUp } = diagnose(facts);
    expect(backends.ministack).toBe(true);
    expect(ministack.line).toBe("installs from .lab/wheels on first use, no network needed");
    expect(row(facts, "MiniStack wheels")).toMatchObject({
      ok: true,
      found: "in .lab/wheels, for this platform and Python 3.11",
    });
    expect(labUp.backend).toBe("ministack");
  });

  test("not installed, no wheels, the index answers: ✓ from the index, wheels still advised", () => {
    const facts: Facts = {
      ...base,
      ministack: { ...offlineBare, index: { url: PYPI, answers: true } },
    };
    const { backends, ministack, auto } = diagnose(facts);
    expect(backends.ministack).toBe(true);
    expect(ministack.line).toBe(`installs from ${PYPI} on first use`);
    expect(auto).toEqual({ backend: "ministack", why: `MiniStack installs from ${PYPI}` });
    expect(row(facts, "MiniStack wheels")).toMatchObject({ ok: false });
    expect(row(facts, "MiniStack wheels")?.next).toContain("offline-prepare (while online)");
  });

  test("no venv, no wheels, no index: ✗ MiniStack although Python is there", () => {
    const facts: Facts = { ...base, ministack: offlineBare };
    const { backends, ministack, auto, labUp } = diagnose(facts);
    expect(row(facts, "Python 3.10-3.13")?.ok).toBe(true);
    expect(backends).toEqual({ endpoint: false, testcontainers: false, ministack: false });
    expect(ministack.line).toBe(
      `cannot install: no usable wheels in .lab/wheels and ${PYPI} does not answer`,
    );
    expect(row(facts, "MiniStack 1.5.33")).toMatchObject({
      ok: false,
      next: 'copy the workshop kit\'s wheels into .lab/wheels, or run "npx lab offline-prepare" while online',
    });
    for (const choice of [auto, labUp, ministack.choice]) {
      expect(choice.backend).toBe("none");
      expect(choice.why).toContain("copy the workshop kit's wheels into .lab/wheels");
    }
  });

  test("wheels for another platform or Python, offline: ✗, with pip's reason", () => {
    const facts: Facts = {
      ...base,
      ministack: {
        ...offlineBare,
        wheels: { state: "unusable", why: "No matching distribution found for pyyaml>=6.0" },
      },
    };
    expect(diagnose(facts).backends.ministack).toBe(false);
    expect(row(facts, "MiniStack wheels")).toMatchObject({
      ok: false,
      found:
        "in .lab/wheels, but not for this platform and Python 3.11: No matching distribution found for pyyaml>=6.0",
      next: "copy the workshop kit's wheels into .lab/wheels (every platform and Python)",
    });
  });

  test("Docker up without the images, MiniStack cannot install: auto runs nothing offline", () => {
    const { auto, labUp } = diagnose({
      ...withDocker,
      images: { localstack: false, lambdaRuntime: false },
      ministack: offlineBare,
    });
    expect(auto.backend).toBe("none");
    expect(auto.why).toContain("offline it runs nothing");
    expect(labUp.backend).toBe("none");
  });

  test("Node 22 and 24 pass; 20 is flagged with what to install; a newer one passes, marked untested", () => {
    expect(row({ ...base, node: "v22.0.0" }, "Node.js")).toMatchObject({
      ok: true,
      found: "v22.0.0",
    });
    expect(row({ ...base, node: "v24.11.1" }, "Node.js")).toMatchObject({ ok: true, next: "" });
    expect(row({ ...base, node: "v20.20.2" }, "Node.js")).toEqual({
      check: "Node.js",
      ok: false,
      found: "v20.20.2",
      next: "install Node.js 22 or 24",
    });
    expect(row({ ...base, node: "v21.7.3" }, "Node.js")?.ok).toBe(false);
    expect(row({ ...base, node: "v26.1.0" }, "Node.js")).toMatchObject({
      ok: true,
      found: "v26.1.0 (the lab is tested on 22 and 24)",
    });
  });
});

const labHome = () => tempFolder("lab-doctor-");

describe("what doctor asks about MiniStack, on this machine", () => {
  /** A probe that only counts: the index is asked only when nothing local will do. */
  const counting = (answers: boolean) => {
    const probe = async (): Promise<IndexProbe> => {
      probe.calls++;
      return { url: "http://index.test/simple/ministack/", answers };
    };
    probe.calls = 0;
    return probe;
  };

  /** A venv whose python answers `version`, with MiniStack's marker: installed, as far as it says. */
  const venvAnswering = (version: string) => {
    const paths = ministackPaths(labHome());
    mkdirSync(path.dirname(paths.python), { recursive: true });
    writeFileSync(paths.python, `#!/bin/sh\necho ${version}\n`, { mode: 0o755 });
    writeFileSync(paths.marker, "");
    return paths;
  };

  test.skipIf(process.platform === "win32")(
    "installed (the marker in .lab/venv, made by this Python): no pip asked, no probe",
    async () => {
      const python = await findPython();
      const probe = counting(true);
      const paths = venvAnswering(python.version);
      expect(await ministackFacts(python, paths, probe)).toEqual({ installed: true });
      expect(probe.calls).toBe(0);
    },
  );

  test.skipIf(process.platform === "win32")(
    "a venv made by another Python is not installed: the next start makes it again",
    async () => {
      const python = await findPython();
      const paths = venvAnswering("3.14");
      const facts = await ministackFacts(python, paths, counting(false));
      expect(facts.installed).toBe(false);
    },
  );

  test("wheels pip resolves here: no probe", async () => {
    const python = await findPython();
    const paths = { ...ministackPaths(labHome()), wheels: wheelsFolder(python.command) };
    const probe = counting(true);
    expect(await ministackFacts(python, paths, probe)).toEqual({
      installed: false,
      wheels: { state: "resolve" },
    });
    expect(probe.calls).toBe(0);
  });

  test("no venv, no wheels: the index is probed, once", async () => {
    const probe = counting(false);
    expect(await ministackFacts(await findPython(), ministackPaths(labHome()), probe)).toEqual({
      installed: false,
      wheels: { state: "none" },
      index: { url: "http://index.test/simple/ministack/", answers: false },
    });
    expect(probe.calls).toBe(1);
  });
});

describe("npx lab doctor, on this machine", () => {
  const doctor = (env: NodeJS.ProcessEnv = process.env) =>
    spawnSync(...npxLab(["doctor"]), {
      encoding: "utf8",
      timeout: 60_000,
      env,
    });

  test("while the facts are gathered doctor can say which probes have not answered; none after", async () => {
    // What `lab doctor` names if its process ends before the facts are in (cli/exit.ts).
    const facts = gatherMachineFacts();
    expect(unansweredProbes()).toEqual(
      expect.arrayContaining(["Python", "the Docker engine (testcontainers)", "port 4566"]),
    );
    await facts;
    expect(unansweredProbes()).toEqual([]);
  });

  test("reports Docker and MiniStack as they are, exits 0", async () => {
    const docker = await dockerStatus();
    const result = doctor();
    const { backends } = diagnose(await gatherMachineFacts());
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(
      !docker.available
        ? /✗ testcontainers\s+needs a Docker engine/
        : backends.testcontainers
          ? /✓ testcontainers\s+Docker is reachable and LocalStack's images are here/
          : /✗ testcontainers\s+Docker is reachable, but LocalStack's images are not pulled/,
    );
    expect(result.stdout).toMatch(backends.ministack ? /✓ ministack/ : /✗ ministack/);
    expect(result.stdout).toContain("Python 3.10-3.13");
  });

  test("no venv, no wheels, an index that does not answer: ✗ ministack, though Python is here", async () => {
    // A fresh .lab, and the index on a loopback port nothing listens on: offline, for MiniStack.
    const port = await freeLoopbackPort();
    const result = doctor({
      ...process.env,
      LAB_HOME: labHome(),
      PIP_INDEX_URL: `http://127.0.0.1:${port}/simple`,
    });
    expect(result.stdout).toMatch(/✓ │ Python 3\.10-3\.13/);
    expect(result.stdout).toContain(
      `✗ ministack       cannot install: no usable wheels in .lab/wheels and http://127.0.0.1:${port}/simple/ministack/ does not answer`,
    );
    const { backends } = diagnose(await gatherMachineFacts());
    if (backends.endpoint || backends.testcontainers) expect(result.status).toBe(0);
    else {
      expect(result.status).toBe(3);
      expect(result.stderr.trim()).toBe(
        'lab: no backend can run on this machine: MiniStack cannot install here: copy the workshop kit\'s wheels into .lab/wheels, or run "npx lab offline-prepare" while online, or start an emulator',
      );
    }
  });
});
