// The emulator's health, asked over plain node:http: what it answers, and every way it does not.
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, test } from "vitest";
import { probeHealth } from "../../harness/backends/health.js";

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

async function answering(listener: RequestListener): Promise<string> {
  const server = createServer(listener).listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((resolve) => server.once("listening", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test("MiniStack's answer: its product, version and services", async () => {
  const endpoint = await answering((request, response) => {
    expect(request.url).toBe("/_localstack/health");
    response.end(
      JSON.stringify({ edition: "light", version: "1.5.33", services: { sqs: "available" } }),
    );
  });
  expect(await probeHealth(endpoint)).toEqual({
    product: "ministack",
    version: "1.5.33",
    services: { sqs: "available" },
  });
});

test("LocalStack's answer names a version and no MiniStack edition", async () => {
  const endpoint = await answering((_, response) =>
    response.end(JSON.stringify({ edition: "community", version: "4.14.0", services: {} })),
  );
  expect((await probeHealth(endpoint))?.product).toBe("localstack");
});

test("an error status, a body that is not JSON, a refused port: no emulator", async () => {
  const failing = await answering((_, response) => {
    response.statusCode = 500;
    response.end("{}");
  });
  const notJson = await answering((_, response) => response.end("<html>"));
  expect(await probeHealth(failing)).toBeUndefined();
  expect(await probeHealth(notJson)).toBeUndefined();
  expect(await probeHealth("http://127.0.0.1:1")).toBeUndefined();
});

test("one that starts answering and never ends: no emulator, once the time is up", async () => {
  const endpoint = await answering((_, response) => response.write("{"));
  expect(await probeHealth(endpoint, 300)).toBeUndefined(); // without the bound: the test's timeout
});
