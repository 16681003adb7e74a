// `npx lab kit <dir>`: what the kit holds and how big it is, then whether it installs offline.
import { LabError } from "../common/errors.js";
import { KIT_LAB_FOLDER, type KitCheck, type KitManifest, megabytes } from "../workshop/kit.js";

export function printKit(m: KitManifest, where: string): void {
  console.log(`kit written to ${where}: ${megabytes(m.bytes.total)}`);
  console.log(
    `  ${KIT_LAB_FOLDER}/             the lab's source (${megabytes(m.bytes.source)}), commit ${m.commit}`,
  );
  console.log(
    `  ${KIT_LAB_FOLDER}/.lab/wheels/ ministack ${m.ministack} and its dependencies: ${m.wheels} wheels (${megabytes(m.bytes.wheels)})`,
  );
  console.log(
    `  npm-cache/                       ${m.npmPackages} npm packages (${megabytes(m.bytes.npmCache)})`,
  );
  console.log(
    "  README.md                        what attendees run: cd, npm ci --offline, npx lab up",
  );
  console.log("  kit.json                         what the kit holds");
  console.log(`  for ${m.platforms.join(", ")}; CPython ${m.pythons.join(", ")}`);
}

/** Prints each check; a kit that would fail in the room is an error (exit 3). */
export function printKitCheck(check: KitCheck): void {
  const failed = check.targets.filter((t) => t.problem);
  for (const t of failed) console.log(`  ✗ ${t.name}: ${t.problem}`);
  console.log(
    `${failed.length === 0 ? "✓" : "✗"} ministack installs from the wheels alone on ${check.targets.length - failed.length} of ${check.targets.length} platform and Python pairs (pip and uv, no index)`,
  );
  const npmOk = check.npmMissing.length === 0;
  console.log(
    `${npmOk ? "✓" : "✗"} the npm cache ${npmOk ? "holds every package npm ci installs" : `lacks ${check.npmMissing.length}: ${check.npmMissing.slice(0, 5).join(", ")}`}`,
  );
  if (failed.length > 0 || !npmOk) {
    throw new LabError(
      "the kit is incomplete: build it again while online (npx lab kit <new dir>)",
    );
  }
}
