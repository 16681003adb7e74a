// `lab offline-prepare`: fetch, while online, everything a workshop without network needs:
// the LocalStack and Lambda runtime images (with Docker), and MiniStack as wheels.
import { dockerStatus, pullImage } from "../backends/docker.js";
import { LAMBDA_NODE_RUNTIME_IMAGE, localstackImage } from "../backends/localstack-config.js";
import { ensureMiniStack, MINISTACK_VERSION } from "../backends/ministack-install.js";
import { lastLines, run } from "../backends/processes.js";
import { LabError } from "../common/errors.js";
import { type Say, step } from "../common/say.js";

export async function offlinePrepare(say: Say): Promise<void> {
  const docker = await dockerStatus();
  if (docker.available) {
    for (const image of [localstackImage(), LAMBDA_NODE_RUNTIME_IMAGE]) {
      say(`pulling ${image} (can take minutes the first time)`);
      await step(say, `pull ${image}`, () => pullImage(image));
    }
  } else {
    say(`skipping the Docker images: ${docker.reason}`);
  }

  const paths = await ensureMiniStack(say);
  say(`saving ministack==${MINISTACK_VERSION} and its dependencies as wheels in ${paths.wheels}`);
  const saved = await run(
    paths.pip.command,
    [
      ...paths.pip.args,
      "download",
      "--disable-pip-version-check",
      "--progress-bar",
      "off",
      "--only-binary",
      ":all:",
    ].concat(["--dest", paths.wheels, `ministack==${MINISTACK_VERSION}`]),
    {
      timeoutMs: 600_000,
      onLine: (line) => /^(Saved|Successfully)/.test(line) && say(`  pip: ${line}`),
    },
  );
  if (saved.code !== 0) {
    throw new LabError(`pip download failed:\n${lastLines(saved.output)}`);
  }
  say("ready for offline use: the ministack backend installs from .lab/wheels without an index");
}
