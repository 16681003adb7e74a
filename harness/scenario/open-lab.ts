// Opening a lab: pick a backend, connect, deploy. Shared by `npm run scenario` and the test setup.
import { connect } from "../aws/connection.js";
import { deploy } from "../aws/deploy.js";
import type { DeployedLab } from "../aws/lab.js";
import { labNames } from "../aws/names.js";
import { testTimings } from "../aws/timings.js";
import { chooseBackend } from "../backends/choose.js";
import { talkingTo } from "../common/errors.js";
import { type Say, step } from "../common/say.js";

/** A lab this process opened: close() lets go of the connection and stops what it started. */
export interface OwnedLab extends DeployedLab {
  close(): Promise<void>;
  /** The emulator's process, when the lab started it as a child (for measurements). */
  pid?: number;
}

/** Ctrl-C (or a kill) stops the emulator this process started before it exits, with 130. */
export function closeOnSignal(lab: OwnedLab, say: Say): void {
  const stop = () => {
    say("interrupted: stopping the backend");
    void lab.close().finally(() => process.exit(130));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

export async function openLab(say: Say): Promise<OwnedLab> {
  const names = labNames();
  const backend = await chooseBackend(say);
  const conn = connect(backend.endpoint, { startedByLab: backend.startedByLab });
  try {
    const deployment = await step(say, "deploying the lab", () =>
      talkingTo(backend.endpoint, "deploying the lab", () =>
        deploy(conn, names, say, testTimings(backend)),
      ),
    );
    return {
      conn,
      deployment,
      backend: {
        name: backend.name,
        version: backend.version,
        endpoint: backend.endpoint,
        startedByLab: backend.startedByLab ?? false,
      },
      ...(backend.pid === undefined ? {} : { pid: backend.pid }),
      async close() {
        conn.close();
        await backend.stop();
      },
    };
  } catch (err) {
    conn.close();
    await backend.stop();
    throw err;
  }
}
