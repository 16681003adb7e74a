// The kit's npm cache: every package of package-lock.json that an attendee's laptop may install,
// for each of the kit's platforms, so `npm ci --offline --cache ../npm-cache` needs no registry.
// `npm cache add name@version` stores both the tarball and the packument: the lockfile may carry
// no `resolved` URLs (npm's omit-lockfile-registry-resolved), and then `npm ci` asks for the
// packument to find the tarball, even offline.
import { readFileSync } from "node:fs";
import path from "node:path";
import { isWindows } from "../backends/ministack-install.js";
import { lastLines, run } from "../backends/processes.js";
import { LabError } from "../common/errors.js";
import { PROJECT_ROOT } from "../common/paths.js";

/** A platform as npm's `os` and `cpu` fields name it. */
export interface NpmPlatform {
  os: string;
  cpu: string;
}

interface LockEntry {
  name?: string;
  version?: string;
  link?: boolean;
  os?: string[];
  cpu?: string[];
  libc?: string[];
}

/** A package an attendee's `npm ci` may fetch: `name@version`. */
export type NpmSpec = string;

/**
 * The lockfile's packages that `npm ci` installs on at least one of these platforms. A package
 * for another OS or CPU (esbuild for s390x, biome for Android) is left out, and so is one built
 * for musl: the kit's Linux is glibc.
 */
export function npmSpecsFor(
  lock: { packages: Record<string, LockEntry> },
  platforms: readonly NpmPlatform[],
): NpmSpec[] {
  const specs = new Set<NpmSpec>();
  for (const [where, entry] of Object.entries(lock.packages)) {
    if (where === "" || entry.link || !entry.version) continue;
    if (entry.libc && !entry.libc.includes("glibc")) continue;
    const fits = platforms.some(
      (p) => (!entry.os || entry.os.includes(p.os)) && (!entry.cpu || entry.cpu.includes(p.cpu)),
    );
    if (!fits) continue;
    const name = entry.name ?? where.slice(where.lastIndexOf("node_modules/") + 13);
    specs.add(`${name}@${entry.version}`);
  }
  return [...specs].sort();
}

export function readLockfile(root = PROJECT_ROOT): { packages: Record<string, LockEntry> } {
  return JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8"));
}

const npm = isWindows ? "npm.cmd" : "npm";
/** npm through cmd on Windows (a batch file needs a shell), a path with spaces quoted for it. */
const npmRun = (args: string[], timeoutMs: number) =>
  run(npm, isWindows ? args.map((a) => (/[\s&()^|<>]/.test(a) ? `"${a}"` : a)) : args, {
    timeoutMs,
    shell: isWindows,
  });

/** Fills `cache` with the packages, a few dozen per npm call. Needs the registry. */
export async function addToNpmCache(
  cache: string,
  specs: readonly NpmSpec[],
  onProgress: (done: number) => void,
): Promise<void> {
  for (let start = 0; start < specs.length; start += 50) {
    const chunk = specs.slice(start, start + 50);
    const added = await npmRun(["cache", "add", "--cache", cache, ...chunk], 600_000);
    if (added.code !== 0) {
      throw new LabError(
        `npm cache add failed (is the npm registry reachable?):\n${lastLines(added.output)}`,
      );
    }
    onProgress(Math.min(start + chunk.length, specs.length));
  }
}

/** The packages missing from `cache`: each needs its packument and its tarball there. */
export async function missingFromNpmCache(
  cache: string,
  specs: readonly NpmSpec[],
): Promise<NpmSpec[]> {
  const listed = await npmRun(["cache", "ls", "--cache", cache], 120_000);
  if (listed.code !== 0) throw new LabError(`npm cache ls failed:\n${lastLines(listed.output)}`);
  const keys = new Set(listed.output.split("\n").map((line) => line.trim()));
  return specs.filter((spec) => {
    const at = spec.lastIndexOf("@");
    const name = spec.slice(0, at);
    const version = spec.slice(at + 1);
    const base = name.slice(name.lastIndexOf("/") + 1);
    const registry = "make-fetch-happen:request-cache:https://registry.npmjs.org/";
    return !(
      keys.has(`${registry}${name}/-/${base}-${version}.tgz`) &&
      keys.has(`${registry}${name.replace("/", "%2f")}`)
    );
  });
}
