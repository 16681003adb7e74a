// The HTML report in a real browser: guard-on runs for real (third lane), its page is opened in
// headless Chromium, and the picture is checked against the result it was drawn from: one lane
// per invocation, one mark per event, no bar too thin to see. The page and a screenshot stay in
// .lab/artifacts for a person to look at.
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { afterAll, describe, expect, test } from "vitest";
import { LAB_DIR } from "../../harness/common/paths.js";
import { renderHtml } from "../../harness/report/html/page.js";
import { runScenario } from "../../harness/scenario/run.js";
import { findScenario } from "../../scenarios/index.js";
import { expectEveryCheckHolds, labOnLane } from "./lab-for-tests.js";
import { LANES } from "./lanes.js";

const CHROMIUM = "/usr/bin/chromium";
const ARTIFACTS = path.join(LAB_DIR, "artifacts");

const lab = labOnLane(LANES.browser[0]);
afterAll(() => lab.conn.close());

describe(`HTML report in Chromium, guard-on on ${lab.backend.name} ${lab.backend.version}`, () => {
  test("the timeline shows every invocation, claim and charge the run logged", async (context) => {
    if (!existsSync(CHROMIUM))
      context.skip("Chromium not installed: apt-get install chromium (CI installs it)");

    const scenario = findScenario("guard-on");
    if (!scenario) throw new Error("guard-on is missing from the catalogue");
    const result = await runScenario(scenario, lab);
    expectEveryCheckHolds(result, 1);
    const [phase] = result.phases;
    if (!phase) throw new Error("guard-on ran no phase");
    // Counted from the data, not with the renderer's own grouping.
    const invocations = new Set(
      phase.timeline
        .filter((e) => e.type === "process_start")
        .map((e) => `${e.requestId} ${e.messageId}`),
    ).size;
    const count = (type: string) => phase.timeline.filter((e) => e.type === type).length;
    expect(invocations).toBe(10);
    expect(phase.observed.charges.charges).toBe(1);

    mkdirSync(ARTIFACTS, { recursive: true });
    const htmlFile = path.join(ARTIFACTS, "guard-on.html");
    const pngFile = path.join(ARTIFACTS, "guard-on.png");
    writeFileSync(htmlFile, renderHtml(result));

    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      // The page must need nothing from outside: any request but the file itself is an error.
      const outside: string[] = [];
      page.on("request", (request) => {
        if (request.url() !== pathToFileURL(htmlFile).href) outside.push(request.url());
      });
      await page.goto(pathToFileURL(htmlFile).href);

      expect(await page.locator(".lane").count()).toBe(invocations);
      expect(await page.locator('.mark[data-type="charge_applied"]').count()).toBe(
        phase.observed.charges.charges,
      );
      expect(await page.locator('.mark[data-type="claim_lost"]').count()).toBe(9);
      expect(await page.locator('.mark[data-type="claim_won"]').count()).toBe(1);
      expect(await page.locator('.mark[data-type="skip_duplicate"]').count()).toBe(
        count("skip_duplicate"),
      );
      expect(await page.locator('.bar[data-outcome="charged"]').count()).toBe(1);
      expect(await page.locator('.bar[data-outcome="skipped"]').count()).toBe(9);

      const widths = await page
        .locator(".bar")
        .evaluateAll((bars) => bars.map((bar) => bar.getBoundingClientRect().width));
      expect(widths).toHaveLength(invocations);
      for (const width of widths) expect(width).toBeGreaterThan(0);

      const laneIds = await page
        .locator(".lane")
        .evaluateAll((lanes) => lanes.map((lane) => lane.getAttribute("data-message-id")));
      expect(new Set(laneIds)).toEqual(new Set(phase.sent.messageIds));
      expect(outside).toEqual([]);

      await page.screenshot({ path: pngFile, fullPage: true });
    } finally {
      await browser.close();
    }
    expect(existsSync(pngFile)).toBe(true);
    expect(statSync(pngFile).size).toBeGreaterThan(10 * 1024);
  }, 120_000);
});
