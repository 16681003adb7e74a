// Opening a lab: pick a backend, connect, deploy. Shared by `npx lab scenario` and the test setup.
// A scenario resets the tables it runs on, so it never runs on a workshop lab's resources: when
// `lab up` saved a lab on the same emulator under the same prefix, the run deploys a lab of its
// own beside it and removes it at close().
import { namesFor } from "../../contract/names.js";
import { connect } from "../aws/connection.js";
import { type DeployOptions, deploy } from "../aws/deploy.js";
import type { DeployedLab } from "../aws/lab.js";
import { DEFAULT_PREFIX, labNames } from "../aws/names.js";
import { testTimings } from "../aws/timings.js";
import { undeploy } from "../aws/undeploy.js";
import { backendInfo, type RunningBackend } from "../backends/backend.js";
import { chooseBackend } from "../backends/choose.js";
import { sameEndpoint } from "../backends/endpoint.js";
import { talkingTo } from "../common/errors.js";
import { holdAt } from "../common/hold.js";
import { readStateFile, type SavedLabPlace } from "../common/lab-state-file.js";
import { type Say, step } from "../common/say.js";

/** A lab this process opened: close() lets go of the connection and stops what it started. */
export interface OwnedLab extends DeployedLab {
  close(): Promise<void>;
  /** The emulator's process, when the lab started it as a child (for measurements). */
  pid?: number;
  /** This lab and the lanes deployed beside it (see openLab's `lanes`): one phase at a time each. */
  lanes: DeployedLab[];
}

/** Lanes are labs beside the first, on the same emulator, under the prefix with this after it. */
export const LANE_SUFFIX = "-lane";

/** What a scenario run's prefix becomes beside a workshop lab: the prefix with this after it. */
export const BESIDE_WORKSHOP = "-scenario";

/**
 * The prefix a scenario run uses instead of `prefix` at `endpoint`, when the saved workshop lab
 * is there under that very prefix; undefined when the run shares nothing with it.
 */
export function prefixBesideWorkshop(
  saved: SavedLabPlace | undefined,
  endpoint: string,
  prefix: string,
): string | undefined {
  if (!saved || saved.prefix !== prefix || !sameEndpoint(saved.backend.endpoint, endpoint)) {
    return undefined;
  }
  return `${prefix}${BESIDE_WORKSHOP}`;
}

/**
 * `lanes`: how many labs to deploy, given the backend chosen (1 by default): a scenario with many
 * independent phases spreads them over the lanes. The extra lanes are removed at close().
 */
export async function openLab(
  say: Say,
  lanes: (backend: RunningBackend) => number = () => 1,
  options: Pick<DeployOptions, "guardFile"> = {},
): Promise<OwnedLab> {
  const prefix = process.env.LAB_PREFIX || DEFAULT_PREFIX;
  let names = labNames(prefix); // checks LAB_PREFIX before anything starts
  const backend = await chooseBackend(say);
  const conn = connect(backend.endpoint, { startedByLab: backend.startedByLab });
  const labBackend = backendInfo(backend);
  let apart: string | undefined;
  let extraLanes: DeployedLab[] = [];
  // Lanes on an emulator the lab started (a testcontainers LocalStack, a MiniStack child: it has
  // a pid) go with it; on one that stays, they are removed. Removing them first from one about
  // to stop only put its stop off, seconds for the matrix's four on a busy MiniStack.
  const stopsWithLab = backend.startedByLab === true || backend.pid !== undefined;
  const removeLanes = async () => {
    if (extraLanes.length === 0 || stopsWithLab) return;
    await step(say, `removing ${extraLanes.length} lane(s)`, async () => {
      for (const lane of extraLanes)
        for (const p of await undeploy(conn, lane.deployment.names)) say(p);
    });
  };
  // Removes what the run deployed beside a workshop lab; what could not go is said, not thrown:
  // something left behind is untidy, not a reason to change the run's exit code.
  const removeOurOwn = async () => {
    if (!apart) return;
    const problems = await step(say, `removing ${apart}`, () => undeploy(conn, names));
    for (const problem of problems) say(problem);
  };
  try {
    // Read once the backend is chosen: only then is the endpoint known to compare.
    apart = prefixBesideWorkshop(readStateFile(), backend.endpoint, prefix);
    if (apart) {
      // namesFor, not labNames: the longer prefix may pass 40 characters, and nobody typed it.
      names = namesFor(apart);
      say(
        `a workshop lab (${prefix}) is up at ${backend.endpoint}: this run uses ${apart} instead and removes it when done`,
      );
    }
    const deployment = await step(say, "deploying the lab", () =>
      talkingTo(backend.endpoint, "deploying the lab", () =>
        deploy(conn, names, say, testTimings(backend), options),
      ),
    );
    const wanted = Math.max(1, lanes(backend));
    if (wanted > 1) {
      const base = apart ?? prefix;
      extraLanes = await step(say, `deploying ${wanted - 1} more lane(s)`, () =>
        Promise.all(
          Array.from({ length: wanted - 1 }, async (_, i) => {
            const laneNames = namesFor(`${base}${LANE_SUFFIX}${i + 2}`);
            return {
              conn,
              backend: labBackend,
              deployment: await deploy(conn, laneNames, () => {}, testTimings(backend), options),
            };
          }),
        ),
      );
    }
    // Once, however often it is called: Ctrl-C may close while the run's own finally does too.
    let closing: Promise<void> | undefined;
    const close = async () => {
      await holdAt("stopping", say);
      await removeLanes();
      await removeOurOwn();
      conn.close();
      await backend.stop();
    };
    const first = { conn, deployment, backend: labBackend };
    return {
      ...first,
      lanes: [first, ...extraLanes],
      ...(backend.pid === undefined ? {} : { pid: backend.pid }),
      close() {
        closing ??= close();
        return closing;
      },
    };
  } catch (err) {
    await removeLanes();
    await removeOurOwn(); // a deploy that failed half-way made some of them
    conn.close();
    await backend.stop();
    throw err;
  }
}
