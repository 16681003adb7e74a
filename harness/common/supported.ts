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
