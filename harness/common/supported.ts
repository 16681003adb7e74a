// The Node.js and Python versions the lab is built and tested for, in one place: doctor checks
// against them, the kit writes its wheels for them and tells attendees, the venv is made with
// one of them.

/** Node.js majors the lab is tested on (CI runs on the oldest); doctor marks older ones ✗. */
export const SUPPORTED_NODE_MAJORS = [22, 24] as const;

/** "untested": newer than the oldest supported but not one of them (23, 25, 26...): it should work. */
export type NodeVerdict = "supported" | "too old" | "untested";

/** `v22.23.5` → where that Node stands against the supported majors. */
export function nodeVerdict(version: string): NodeVerdict {
  const major = Number(version.replace(/^v/, "").split(".")[0]);
  if (!Number.isInteger(major) || major < SUPPORTED_NODE_MAJORS[0]) return "too old";
  return (SUPPORTED_NODE_MAJORS as readonly number[]).includes(major) ? "supported" : "untested";
}

/** "22 or 24" ("22 and 24" with " and "). */
export const supportedNodeText = (joiner: " or " | " and " = " or "): string =>
  SUPPORTED_NODE_MAJORS.join(joiner);

/**
 * The CPython versions MiniStack runs on that the room kit has wheels for (`lab kit`), and so the
 * only ones the lab makes its venv with: a newer one would need the index the room does not have.
 */
export const SUPPORTED_PYTHONS = ["3.10", "3.11", "3.12", "3.13"] as const;

/** "3.10 to 3.13" */
export const supportedPythonText = (): string =>
  `${SUPPORTED_PYTHONS[0]} to ${SUPPORTED_PYTHONS[SUPPORTED_PYTHONS.length - 1]}`;

/** "3.12" (major.minor, as Python prints it) is one of the supported ones. */
export const isSupportedPython = (version: string): boolean =>
  (SUPPORTED_PYTHONS as readonly string[]).includes(version);
