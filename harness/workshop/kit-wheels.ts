// The kit's MiniStack wheels: ministack and every dependency as wheels for each platform and
// CPython an attendee may bring, so `lab up` installs it with no index (`pip --no-index`).
//
// Two tools, each for what it does right. pip downloads for another platform (--platform,
// --python-version), but it evaluates environment markers against the Python running it, so a
// dependency only Python 3.10 needs (hypercorn's `exceptiongroup; python_version < "3.11"`)
// would be missed. uv resolves for the target's markers; pip then fetches exactly those pins.
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { MINISTACK_VERSION, offlineWheels } from "../backends/ministack-install.js";
import { lastLines, run } from "../backends/processes.js";
import type { LabVenv } from "../backends/venv-pip.js";
import { LabError } from "../common/errors.js";
import { SUPPORTED_PYTHONS } from "../common/supported.js";
import type { NpmPlatform } from "./kit-npm.js";

/** uv, pinned, installed into the lab's venv only when a kit is built. */
export const UV_VERSION = "0.13.8";

export interface KitPlatform {
  name: string;
  /** uv's --python-platform. */
  uv: string;
  /** pip's --platform tags (pip widens a macOS tag to the older versions itself). */
  pip: string[];
  npm: NpmPlatform;
}

/** macOS 11 or newer: what pip and uv both assume for the macOS wheels. */
const MACOS = "11.0";

export const KIT_PLATFORMS: readonly KitPlatform[] = [
  {
    name: "Linux x86_64",
    uv: "x86_64-manylinux_2_17",
    pip: ["manylinux_2_17_x86_64", "manylinux2014_x86_64"],
    npm: { os: "linux", cpu: "x64" },
  },
  {
    name: "Linux aarch64",
    uv: "aarch64-manylinux_2_17",
    pip: ["manylinux_2_17_aarch64", "manylinux2014_aarch64"],
    npm: { os: "linux", cpu: "arm64" },
  },
  {
    name: "macOS x86_64",
    uv: "x86_64-apple-darwin",
    pip: [`macosx_${MACOS.replace(".", "_")}_x86_64`],
    npm: { os: "darwin", cpu: "x64" },
  },
  {
    name: "macOS arm64",
    uv: "aarch64-apple-darwin",
    pip: [`macosx_${MACOS.replace(".", "_")}_arm64`],
    npm: { os: "darwin", cpu: "arm64" },
  },
  {
    name: "Windows amd64",
    uv: "x86_64-pc-windows-msvc",
    pip: ["win_amd64"],
    npm: { os: "win32", cpu: "x64" },
  },
];

/** The kit has wheels for every Python the lab makes its venv with. */
export const KIT_PYTHONS = SUPPORTED_PYTHONS;

export interface KitTarget {
  platform: KitPlatform;
  python: string;
}

export const KIT_TARGETS: readonly KitTarget[] = KIT_PLATFORMS.flatMap((platform) =>
  KIT_PYTHONS.map((python) => ({ platform, python })),
);

export const targetName = (t: KitTarget) => `${t.platform.name}, CPython ${t.python}`;

/** The flags that make pip answer for another machine: platform, interpreter, wheels only. */
export function pipTargetArgs(t: KitTarget): string[] {
  return [
    "--only-binary",
    ":all:",
    "--implementation",
    "cp",
    "--python-version",
    t.python,
    ...t.platform.pip.flatMap((tag) => ["--platform", tag]),
  ];
}

/** `--python`: without it uv looks for a Python of the target's version, seconds on pyenv. */
function uvTargetArgs(python: string, t: KitTarget): string[] {
  return [
    "--python",
    python,
    "--python-version",
    t.python,
    "--python-platform",
    t.platform.uv,
    "--only-binary",
    ":all:",
  ];
}

const uvEnv = () => ({ ...process.env, MACOSX_DEPLOYMENT_TARGET: MACOS });
const QUIET = ["--disable-pip-version-check", "--quiet"];

/** Installs the pinned uv into the lab's venv (once; needs PyPI). */
export async function ensureUv(venv: LabVenv): Promise<void> {
  const has = await run(venv.python, ["-m", "uv", "--version"], { timeoutMs: 30_000 });
  if (has.code === 0 && has.output.includes(UV_VERSION)) return;
  const { command, args } = venv.pip;
  const installed = await run(command, [...args, "install", ...QUIET, `uv==${UV_VERSION}`], {
    timeoutMs: 600_000,
  });
  if (installed.code !== 0) {
    throw new LabError(`pip could not install uv==${UV_VERSION}:\n${lastLines(installed.output)}`);
  }
}

/** uv's resolution of ministack for one target: `name==version` lines, or the failure. */
async function uvCompile(python: string, t: KitTarget, scratch: string, source: string[]) {
  const wanted = path.join(scratch, "requirements.in");
  writeFileSync(wanted, `ministack==${MINISTACK_VERSION}\n`);
  const args = ["-m", "uv", "pip", "compile", wanted, ...uvTargetArgs(python, t), ...source];
  return run(python, [...args, "--no-header", "--no-annotate", "--quiet"], {
    timeoutMs: 300_000,
    env: uvEnv(),
  });
}

/** Downloads ministack and its dependencies for one target into `wheels`. Needs PyPI. */
export async function downloadWheels(venv: LabVenv, wheels: string, t: KitTarget) {
  const scratch = mkdtempSync(path.join(tmpdir(), "lab-kit-"));
  try {
    const index = process.env.PIP_INDEX_URL ? ["--index-url", process.env.PIP_INDEX_URL] : [];
    const compiled = await uvCompile(venv.python, t, scratch, index);
    const pins = compiled.output.split("\n").filter((line) => /^[\w.-]+==\S+$/.test(line.trim()));
    if (compiled.code !== 0 || pins.length === 0) {
      throw new LabError(
        `uv could not resolve ministack for ${targetName(t)}:\n${lastLines(compiled.output)}`,
      );
    }
    // A folder of its own: targets download side by side, and pure-Python wheels are the same
    // file for all of them (two pips must not write one file at once).
    const own = path.join(scratch, "wheels");
    mkdirSync(own, { recursive: true });
    const fetched = await run(
      venv.pip.command,
      [
        ...venv.pip.args,
        "download",
        ...QUIET,
        "--no-deps",
        ...pipTargetArgs(t),
        "--dest",
        own,
      ].concat(pins.map((p) => p.trim())),
      { timeoutMs: 600_000 },
    );
    if (fetched.code !== 0) {
      throw new LabError(`pip download failed for ${targetName(t)}:\n${lastLines(fetched.output)}`);
    }
    mkdirSync(wheels, { recursive: true });
    // Synchronous, so no other target's copy runs in between. One already there is the same
    // file. Copied beside it, then renamed, so a reader never sees half a wheel; a rename alone
    // fails when the kit is on another disk than the temporary folder (a USB stick).
    for (const file of wheelFiles(own)) {
      const into = path.join(wheels, file);
      if (existsSync(into)) continue;
      copyFileSync(path.join(own, file), `${into}.part`);
      renameSync(`${into}.part`, into);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Whether ministack installs from `wheels` alone on this target, asked two ways, both offline:
 * pip's own resolver (`install --dry-run --no-index`), and uv's, which also follows the
 * target's environment markers. Returns the problem, or undefined when both resolve.
 */
export async function wheelsProblem(
  venv: LabVenv,
  wheels: string,
  t: KitTarget,
): Promise<string | undefined> {
  const scratch = mkdtempSync(path.join(tmpdir(), "lab-kit-"));
  try {
    return await resolves(venv, wheels, t, scratch);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function resolves(venv: LabVenv, wheels: string, t: KitTarget, scratch: string) {
  // The same question doctor asks of .lab/wheels, put for the target. Older pips refuse
  // --platform without --target even for a dry run; nothing is written there.
  const target = [...pipTargetArgs(t), "--target", path.join(scratch, "target")];
  const pip = await offlineWheels(venv.pip, wheels, run, target);
  if (pip.state !== "resolve") return `pip: ${pip.state === "none" ? "no wheels" : pip.why}`;
  const uv = await uvCompile(venv.python, t, scratch, [
    "--no-index",
    "--find-links",
    wheels,
    "--offline",
  ]);
  return uv.code === 0 ? undefined : `uv: ${lastLines(uv.output)}`;
}

export const wheelFiles = (wheels: string) => readdirSync(wheels).filter((f) => f.endsWith(".whl"));
