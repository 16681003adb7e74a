import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { unzipSync } from "fflate";
import { describe, expect, test } from "vitest";
import { buildPackage, packageWorker } from "../../harness/aws/build.js";
import { tempFolder } from "../temp-folder.js";

describe("the worker package", () => {
  test("is one index.js in a zip, and exports the handler Lambda calls", async () => {
    const pkg = await packageWorker();
    const files = unzipSync(pkg.zip);
    expect(Object.keys(files)).toEqual(["index.js"]);
    const dir = tempFolder("lab-bundle-");
    writeFileSync(path.join(dir, "index.js"), files["index.js"] ?? new Uint8Array());
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true"; // as the deployed worker has it
    // Loaded from a folder with no node_modules: the SDK must be inside the bundle.
    const worker = createRequire(path.join(dir, "x.js"))("./index.js") as { handler?: unknown };
    expect(typeof worker.handler).toBe("function");
  });

  test("loads Node's built-ins with require: an import() of one goes through the ES module loader, which loads undici for node:http", async () => {
    const pkg = await packageWorker();
    const code = Buffer.from(unzipSync(pkg.zip)["index.js"] ?? new Uint8Array()).toString();
    expect(code).toContain('require("node:http")');
    expect(code).not.toMatch(/\bimport\(/);
  });

  test("is byte-identical between builds, so deploy can skip an unchanged upload", async () => {
    const first = await buildPackage();
    // Zip timestamps have a 2 s resolution: a build that stamped the clock would differ now.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const second = await buildPackage();
    expect(Buffer.from(second.zip).equals(Buffer.from(first.zip))).toBe(true);
    // CodeSha256 as Lambda reports it: base64 of the zip's SHA-256.
    expect(second.sha256).toBe(createHash("sha256").update(first.zip).digest("base64"));
    // What the commands deploy (built, or kept from an earlier command's build) is this build.
    expect((await packageWorker()).sha256).toBe(first.sha256);
  });
});
