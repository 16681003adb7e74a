// The guard file given with --guard-file (docs/design.md §4, "Guard files"). This module is the
// place it plugs in: harness/aws/build.ts puts the file's guard here when it bundles the worker
// with one; the lab's own bundle has none.
import type { GuardFileName } from "../../contract/settings.js";
import type { Guard } from "./guard.js";

export interface PluggedInGuard {
  /** The file's base name: what GUARD says, and what every log line's `guard` says. */
  name: GuardFileName;
  guard: Guard;
}

export const pluggedIn: PluggedInGuard | undefined = undefined;
