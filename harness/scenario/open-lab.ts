// Opening a lab: pick a backend, connect, deploy. Shared by the CLI and the test setup.

import { connect } from "../aws/connection.js";
import { deploy } from "../aws/deploy.js";
import { labNames } from "../aws/names.js";
import { testTimings } from "../aws/timings.js";
import type { RunningBackend } from "../backends/backend.js";
import { chooseBackend } from "../backends/choose.js";
import { talkingTo } from "../common/errors.js";
import { type Say, step } from "../common/say.js";
import type { Lab } from "./result.js";

export interface OpenLab {
  lab: Lab;
  backend: RunningBackend;
  close(): Promise<void>;
}

export async function openLab(say: Say): Promise<OpenLab> {
  const names = labNames();
  const backend = await chooseBackend(say);
  const conn = connect(backend.endpoint, { startedByLab: backend.startedByLab });
  try {
    const deployment = await step(say, "deploying the lab", () =>
      talkingTo(backend.endpoint, "deploying the lab", () =>
        deploy(conn, names, say, testTimings(backend)),
      ),
    );
    const lab: Lab = {
      conn,
      deployment,
      backend: {
        name: backend.name,
        version: backend.version,
        endpoint: backend.endpoint,
        startedByLab: backend.startedByLab ?? false,
      },
    };
    return {
      lab,
      backend,
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
