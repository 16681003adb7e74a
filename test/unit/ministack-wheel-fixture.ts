// A stand-in ministack wheel, built by the real Python: enough metadata for pip's resolver to
// judge it (its name, version, platform tag and dependencies), without the network.
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { MINISTACK_VERSION } from "../../harness/backends/ministack-install.js";
import { tempFolder } from "../temp-folder.js";

const BUILD = `
import sys, zipfile
path, version, deps = sys.argv[1], sys.argv[2], sys.argv[3:]
info = "ministack-%s.dist-info" % version
with zipfile.ZipFile(path, "w") as z:
    z.writestr("ministack/__init__.py", "")
    z.writestr(info + "/METADATA", "Metadata-Version: 2.1\\nName: ministack\\nVersion: %s\\n" % version
               + "".join("Requires-Dist: %s\\n" % d for d in deps))
    z.writestr(info + "/WHEEL", "Wheel-Version: 1.0\\nGenerator: lab-test\\nRoot-Is-Purelib: true\\n")
    z.writestr(info + "/RECORD", "")
`;

/** A wheels folder holding one ministack wheel with this tag and these dependencies. */
export function wheelsFolder(python: string, tag = "py3-none-any", deps: string[] = []): string {
  const wheels = path.join(tempFolder("lab-wheels-"), "wheels");
  mkdirSync(wheels);
  const file = path.join(wheels, `ministack-${MINISTACK_VERSION}-${tag}.whl`);
  const built = spawnSync(python, ["-c", BUILD, file, MINISTACK_VERSION, ...deps], {
    encoding: "utf8",
  });
  if (built.status !== 0) throw new Error(`could not build a test wheel: ${built.stderr}`);
  return wheels;
}
