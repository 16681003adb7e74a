// MiniStack unpacks the function into a new folder of the temp dir for every Lambda environment
// it starts, and never removes one (265 MB per test run). The lab gives each MiniStack a temp
// folder of its own, removed when it stops, and sweeps the folders of MiniStacks that died.
import {
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { CreateFunctionCommand, InvokeCommand } from "@aws-sdk/client-lambda";
import { zipSync } from "fflate";
import { expect, inject, test } from "vitest";
import { connect } from "../../harness/aws/connection.js";
import { ministackTempDir, startMiniStack } from "../../harness/backends/ministack.js";
import { freeLoopbackPort } from "../../harness/backends/processes.js";
import { quiet } from "../../harness/common/say.js";
import "./provided.js";

test("a MiniStack's functions unpack in its own temp folder, removed when it stops; a dead one's is swept", async (context) => {
  if (inject("lab").backend.name !== "ministack")
    context.skip("runs where the tests' backend is the lab's own MiniStack");
  // A folder a MiniStack left when it died: nothing listens on its port, nothing written for
  // two minutes. And one of a MiniStack another command is starting: not listening yet either.
  // And one of a MiniStack that runs, seen from another network namespace (the offline room's):
  // its port looks free and its folder idle, but its pid is alive (this process stands in).
  const [stalePort, startingPort, runningPort, port] = await distinctFreePorts(4);
  for (const left of [stalePort, startingPort, runningPort]) {
    mkdirSync(ministackTempDir(left), { recursive: true });
    writeFileSync(path.join(ministackTempDir(left), "code.zip"), "");
  }
  writeFileSync(path.join(ministackTempDir(runningPort), ".owner-pid"), String(process.pid));
  const twoMinutesAgo = new Date(Date.now() - 120_000);
  for (const idle of [stalePort, runningPort])
    utimesSync(ministackTempDir(idle), twoMinutesAgo, twoMinutesAgo);

  const backend = await startMiniStack({ say: quiet, reason: "temp folder test", port });
  const conn = connect(backend.endpoint, { startedByLab: true });
  const functionName = `temp-${port}`;
  try {
    expect(existsSync(ministackTempDir(stalePort))).toBe(false);
    expect(existsSync(ministackTempDir(startingPort))).toBe(true);
    expect(existsSync(ministackTempDir(runningPort))).toBe(true);
    const handler = "exports.handler = async () => 'ok';";
    await conn.lambda.send(
      new CreateFunctionCommand({
        FunctionName: functionName,
        Runtime: "nodejs22.x",
        Handler: "index.handler",
        Role: "arn:aws:iam::000000000000:role/lab",
        Code: { ZipFile: zipSync({ "index.js": new TextEncoder().encode(handler) }) },
      }),
    );
    const answer = await conn.lambda.send(new InvokeCommand({ FunctionName: functionName }));
    expect(new TextDecoder().decode(answer.Payload)).toBe('"ok"');

    const unpacked = (dir: string) =>
      readdirSync(dir).filter((name) => name.startsWith(`ministack-lambda-${functionName}-`));
    expect(unpacked(ministackTempDir(port))).toHaveLength(1);
    if (process.platform !== "win32") {
      expect(statSync(ministackTempDir(port)).mode & 0o777).toBe(0o700); // this user's only
    }
    expect(unpacked(tmpdir())).toEqual([]);
  } finally {
    for (const planted of [startingPort, runningPort])
      rmSync(ministackTempDir(planted), { recursive: true, force: true });
    conn.close();
    await backend.stop();
  }
  expect(existsSync(ministackTempDir(port))).toBe(false);
}, 60_000);

test("a temp folder another user made first is refused, in one line, before MiniStack starts", async (context) => {
  if (inject("lab").backend.name !== "ministack")
    context.skip("runs where the tests' backend is the lab's own MiniStack");
  if (process.getuid?.() !== 0) context.skip("needs root, to give the folder to another user");
  const [port] = await distinctFreePorts(1);
  mkdirSync(ministackTempDir(port));
  chownSync(ministackTempDir(port), 65534, 65534); // nobody
  try {
    await expect(startMiniStack({ say: quiet, reason: "temp folder test", port })).rejects.toThrow(
      /^\S+sqs-idempotency-lab-ministack-\d+ belongs to another user; remove it, or pick another port with LAB_MINISTACK_PORT$/,
    );
  } finally {
    rmSync(ministackTempDir(port), { recursive: true, force: true });
  }
});

/** Free ports, none the same: the folders above must not be the test's MiniStack's own. */
async function distinctFreePorts<N extends 1 | 4>(
  count: N,
): Promise<N extends 1 ? [number] : [number, number, number, number]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freeLoopbackPort());
  return [...ports] as N extends 1 ? [number] : [number, number, number, number];
}
