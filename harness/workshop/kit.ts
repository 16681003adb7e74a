// `lab kit <dir>`: everything a room of laptops needs to run the workshop with no network, in
// one folder to copy onto a USB stick. Built online by the instructor; checked offline.
//
//   <dir>/sqs-idempotency-lab/             the lab's source, with MiniStack's wheels in .lab/wheels
//   <dir>/npm-cache/                       every npm package `npm ci --offline` installs
//   <dir>/README.md                        what an attendee runs
//   <dir>/kit.json                         what the kit holds
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { ensureMiniStack, MINISTACK_VERSION } from "../backends/ministack-install.js";
import { mapAtMost } from "../common/at-most.js";
import { LabError, UsageError } from "../common/errors.js";
import { PROJECT_ROOT } from "../common/paths.js";
import { type Say, step } from "../common/say.js";
import { supportedNodeText } from "../common/supported.js";
import {
  addToNpmCache,
  missingFromNpmCache,
  type NpmSpec,
  npmSpecsFor,
  readLockfile,
} from "./kit-npm.js";
import {
  downloadWheels,
  ensureUv,
  KIT_PLATFORMS,
  KIT_PYTHONS,
  KIT_TARGETS,
  targetName,
  wheelFiles,
  wheelsProblem,
} from "./kit-wheels.js";

export const KIT_LAB_FOLDER = "sqs-idempotency-lab";

export interface KitLayout {
  root: string;
  lab: string;
  wheels: string;
  npmCache: string;
}

export function kitLayout(root: string): KitLayout {
  const lab = path.join(root, KIT_LAB_FOLDER);
  return {
    root,
    lab,
    wheels: path.join(lab, ".lab", "wheels"),
    npmCache: path.join(root, "npm-cache"),
  };
}

/** What kit.json says, and what `lab kit` prints. */
export interface KitManifest {
  createdAt: string;
  commit: string;
  ministack: string;
  node: string;
  platforms: string[];
  pythons: string[];
  npmPackages: number;
  wheels: number;
  bytes: { source: number; wheels: number; npmCache: number; total: number };
}

export async function buildKit(dir: string, say: Say): Promise<KitManifest> {
  const kit = kitLayout(path.resolve(dir));
  if (existsSync(kit.root) && readdirSync(kit.root).length > 0) {
    throw new UsageError(`${kit.root} is not empty: name a new or empty folder for the kit`);
  }
  mkdirSync(kit.root, { recursive: true });

  const files = copySource(kit.lab);
  say(`copied the lab's source: ${files} files into ${kit.lab}`);

  const specs = kitNpmSpecs();
  await step(say, `npm packages for ${KIT_PLATFORMS.length} platforms`, () =>
    addToNpmCache(kit.npmCache, specs, (done) => say(`  npm cache: ${done}/${specs.length}`)),
  );

  // The lab's own venv runs pip and uv: building a kit means being online anyway.
  const venv = await ensureMiniStack(say);
  await step(say, "uv for resolving each platform's dependencies", () => ensureUv(venv));
  let done = 0;
  await mapAtMost(KIT_TARGETS, AT_ONCE, async (target) => {
    await downloadWheels(venv, kit.wheels, target);
    say(`  wheels: ${++done}/${KIT_TARGETS.length} (${targetName(target)})`);
  });

  const manifest: KitManifest = {
    createdAt: new Date().toISOString(),
    commit: gitCommit(),
    ministack: MINISTACK_VERSION,
    node: JSON.parse(readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8")).engines.node,
    platforms: KIT_PLATFORMS.map((p) => p.name),
    pythons: [...KIT_PYTHONS],
    npmPackages: specs.length,
    wheels: wheelFiles(kit.wheels).length,
    bytes: { source: 0, wheels: 0, npmCache: 0, total: 0 },
  };
  const wheelBytes = folderBytes(kit.wheels);
  manifest.bytes = {
    source: folderBytes(kit.lab) - wheelBytes,
    wheels: wheelBytes,
    npmCache: folderBytes(kit.npmCache),
    total: 0,
  };
  writeFileSync(path.join(kit.root, "README.md"), kitReadme(manifest));
  writeFileSync(path.join(kit.root, "kit.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  manifest.bytes.total = folderBytes(kit.root);
  writeFileSync(path.join(kit.root, "kit.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/**
 * How many platform and Python pairs download or check at once: each is a pip or uv process
 * waiting mostly on the network or the disk. One at a time, the twenty took 25-30 s to download
 * and 13 s to check.
 */
const AT_ONCE = 4;

export interface KitCheck {
  targets: { name: string; problem?: string }[];
  npmMissing: NpmSpec[];
}

/**
 * Checks, with no network, that the kit installs: ministack from its wheels on every platform
 * and Python, and every npm package in its cache. Needs the lab's venv with uv (a machine that
 * built a kit has both).
 */
export async function checkKit(dir: string, say: Say): Promise<KitCheck> {
  const kit = kitLayout(path.resolve(dir));
  if (!existsSync(path.join(kit.root, "kit.json"))) {
    throw new UsageError(`${kit.root} holds no kit.json: is it a kit made by "npx lab kit"?`);
  }
  const venv = await ensureMiniStack(say);
  const targets: KitCheck["targets"] = await mapAtMost(KIT_TARGETS, AT_ONCE, async (target) => {
    const problem = await wheelsProblem(venv, kit.wheels, target);
    return { name: targetName(target), ...(problem ? { problem } : {}) };
  });
  const npmMissing = await missingFromNpmCache(kit.npmCache, kitNpmSpecs());
  return { targets, npmMissing };
}

function kitNpmSpecs(): NpmSpec[] {
  return npmSpecsFor(
    readLockfile(),
    KIT_PLATFORMS.map((p) => p.npm),
  );
}

/** The files git knows (committed or new, not ignored); every file but the ignored ones without git. */
function copySource(into: string): number {
  const listed = spawnSync(
    "git",
    ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
    {
      cwd: PROJECT_ROOT,
      encoding: "utf8",
    },
  );
  const files =
    listed.status === 0
      ? listed.stdout.split("\0").filter(Boolean)
      : walk(PROJECT_ROOT, ["node_modules", ".lab", ".git", "dist"]);
  let copied = 0;
  for (const file of files) {
    const from = path.join(PROJECT_ROOT, file);
    if (!existsSync(from)) continue; // deleted in the work tree, not yet committed
    mkdirSync(path.dirname(path.join(into, file)), { recursive: true });
    cpSync(from, path.join(into, file));
    copied++;
  }
  if (copied === 0) throw new LabError(`found no files to copy in ${PROJECT_ROOT}`);
  return copied;
}

function walk(root: string, skip: string[], prefix = ""): string[] {
  return readdirSync(path.join(root, prefix), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(prefix, entry.name);
    if (skip.includes(entry.name)) return [];
    return entry.isDirectory() ? walk(root, skip, rel) : [rel];
  });
}

function gitCommit(): string {
  const head = spawnSync("git", ["rev-parse", "--short", "HEAD"], {
    cwd: PROJECT_ROOT,
    encoding: "utf8",
  });
  if (head.status !== 0) return "unknown";
  const dirty = spawnSync("git", ["status", "--porcelain"], {
    cwd: PROJECT_ROOT,
    encoding: "utf8",
  });
  return `${head.stdout.trim()}${dirty.stdout.trim() ? " with uncommitted changes" : ""}`;
}

export function folderBytes(folder: string): number {
  let bytes = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) bytes += statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return bytes;
}

export const megabytes = (bytes: number) => `${(bytes / 1_000_000).toFixed(0)} MB`;

/** The attendee's page: what to install first, then the commands, the same in every shell. */
export function kitReadme(m: KitManifest): string {
  return `# SQS idempotency lab: workshop kit

Everything the workshop needs, with no network: the lab (${KIT_LAB_FOLDER}/), the npm packages it
installs (npm-cache/), and MiniStack ${m.ministack}, the AWS emulator it runs on, as Python wheels
(${KIT_LAB_FOLDER}/.lab/wheels/). ${megabytes(m.bytes.total)} in all. Made ${m.createdAt.slice(0, 10)} from commit ${m.commit}.

Before you start, have Node.js ${supportedNodeText()} and Python ${m.pythons[0]} to ${m.pythons.at(-1)}
(on Windows, Python from python.org; the \`py\` launcher is enough). It works on
${m.platforms.join(", ")}.

Copy this whole folder to your laptop. Then, in a terminal (bash, zsh, PowerShell or cmd: the
same commands), from this folder:

\`\`\`
cd ${KIT_LAB_FOLDER}
npm ci --offline --cache ../npm-cache
npx lab up
\`\`\`

On Windows, PowerShell blocks scripts unless told otherwise, and there \`npm\` and \`npx\` are
scripts: if a command stops with "running scripts is disabled on this system", type
\`npm.cmd\` and \`npx.cmd\` instead (\`npm.cmd ci --offline --cache ../npm-cache\`,
\`npx.cmd lab up\`), or allow scripts for your own account once with
\`Set-ExecutionPolicy -Scope CurrentUser RemoteSigned\`. In cmd they work as written.

\`npx lab up\` installs MiniStack from the wheels (once, about 15 seconds), starts it on
127.0.0.1 and deploys the lab. Then follow docs/workshop.md (em português:
docs/workshop.pt-BR.md), and \`npx lab down\` at the end. \`npx lab doctor\` says what is missing
when something does not start. The week before the workshop, run \`npm ci --offline --cache ../npm-cache\` and then \`npx lab doctor --ready\` in ${KIT_LAB_FOLDER}/: ready or not, and what to do.
`;
}
