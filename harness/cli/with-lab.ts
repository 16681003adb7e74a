// The workshop's commands run against the lab that `up` started. What talks to the emulator (the
// AWS SDK is most of a start) loads when a command runs, not before its arguments are checked: a
// mistake or --help answers without loading it.
import { talkingTo } from "../common/errors.js";
import type { WorkshopLab } from "../workshop/workshop.js";

export const workshop = () => import("../workshop/workshop.js");

/** What the log group says about the experiments (events, windows, the last send's report). */
export const labEvents = () => import("../workshop/lab-events.js");

/** Runs a command against the lab that `up` started, and lets go of the connection after. */
export async function withLab(work: (open: WorkshopLab) => Promise<void>): Promise<void> {
  const open = await (await workshop()).openWorkshopLab();
  try {
    await talkingTo(open.backend.endpoint, "talking to the lab's emulator", () => work(open));
  } finally {
    open.conn.close();
  }
}
