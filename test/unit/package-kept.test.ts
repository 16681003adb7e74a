// The worker's zip kept between commands (harness/aws/package-kept.ts): used again only while
// every file it came from has the same bytes, and never when the kept zip is not whole.
import { randomBytes } from "node:crypto";
import { rmSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import { keepPackage, keptFiles, keptPackage, zipSha256 } from "../../harness/aws/package-kept.js";
import { tempFolder } from "../temp-folder.js";

const key = `package-kept-test-${randomBytes(4).toString("hex")}`;
const dir = tempFolder("lab-kept-");
const input = path.join(dir, "guard.ts");
afterAll(() => {
  for (const file of keptFiles(key)) rmSync(file, { force: true });
  rmSync(dir, { recursive: true, force: true });
});

const zip = new Uint8Array(randomBytes(64));
const pkg = { zip, sha256: zipSha256(zip), bundleBytes: 123 };

test("a kept zip is used while its files are unchanged, whatever their times say", () => {
  writeFileSync(input, "export default 1;\n");
  expect(keptPackage(key)).toBeUndefined(); // nothing kept yet
  keepPackage(key, pkg, [input]);
  expect(keptPackage(key)).toEqual(pkg);
  // Newer bytes, an old time (as npm writes a package's files): not used.
  writeFileSync(input, "export default 2;\n");
  utimesSync(input, new Date(2000, 0, 1), new Date(2000, 0, 1));
  expect(keptPackage(key)).toBeUndefined();
  // The same bytes again, a new time: used.
  writeFileSync(input, "export default 1;\n");
  expect(keptPackage(key)).toEqual(pkg);
});

test("a kept zip that is not the one its record names is not used; nor one whose file is gone", () => {
  writeFileSync(input, "export default 1;\n");
  keepPackage(key, pkg, [input]);
  const [zipFile] = keptFiles(key) as [string];
  writeFileSync(zipFile, zip.subarray(0, 10)); // another command's write, cut short
  expect(keptPackage(key)).toBeUndefined();
  keepPackage(key, pkg, [input]);
  rmSync(input);
  expect(keptPackage(key)).toBeUndefined();
});
