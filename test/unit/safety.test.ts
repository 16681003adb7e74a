import { describe, expect, test } from "vitest";
import { ministackEnv } from "../../harness/backends/ministack.js";
import {
  assertSafeEndpoint,
  interfaceAddresses,
  isLoopback,
  isThisMachine,
} from "../../harness/backends/this-machine.js";
import { UsageError } from "../../harness/common/errors.js";
import { resetLab, type WorkshopLab } from "../../harness/workshop/workshop.js";

describe("the harness only talks to this machine", () => {
  test.each([
    "http://localhost:4566",
    "http://127.0.0.1:1234",
    "http://127.1.2.3:4566",
    "http://[::1]:4566",
  ])("%s is loopback", (url) => expect(isLoopback(new URL(url).hostname)).toBe(true));

  test("an address of one of this machine's interfaces (the Docker bridge) is this machine", () => {
    const addresses = ["127.0.0.1", "192.0.2.2", "172.17.0.1", "fe80::1"];
    expect(isThisMachine("172.17.0.1", addresses)).toBe(true);
    expect(isThisMachine("[fe80::1]", addresses)).toBe(true);
    expect(isThisMachine("172.17.0.2", addresses)).toBe(false);
    expect(isThisMachine("localhost", [])).toBe(true);
  });

  test("the Docker bridge of this very machine passes the guard without the opt-in", () => {
    // Whatever this machine's interfaces are, each of them is local.
    for (const address of ["127.0.0.1", ...interfaceAddresses()]) {
      const host = address.includes(":") ? `[${address}]` : address;
      expect(() => assertSafeEndpoint(`http://${host}:4566`, {})).not.toThrow();
    }
  });

  test("a host testcontainers reports for a container the lab started is trusted", () => {
    expect(() => assertSafeEndpoint("http://10.0.0.5:32768", {}, true)).not.toThrow();
    expect(() => assertSafeEndpoint("http://10.0.0.5:32768", {}, false)).toThrow(
      /not on this machine/,
    );
  });

  test.each([
    "https://sqs.us-east-1.amazonaws.com",
    "http://192.168.1.20:4566",
    "http://10.0.0.5:4566",
    "http://localhost.evil.com",
  ])("%s is refused without the opt-in", (url) =>
    expect(() => assertSafeEndpoint(url, {})).toThrow(/LAB_ALLOW_REMOTE_ENDPOINT=1/),
  );

  test("LAB_ALLOW_REMOTE_ENDPOINT=1 lets a remote emulator through", () => {
    expect(() =>
      assertSafeEndpoint("http://192.168.1.20:4566", { LAB_ALLOW_REMOTE_ENDPOINT: "1" }),
    ).not.toThrow();
  });

  test("a non-URL is a usage error", () => {
    expect(() => assertSafeEndpoint("localhost:4566", {})).toThrow(/must start with http/);
    expect(() => assertSafeEndpoint("not a url", {})).toThrow(/not a URL/);
  });
});

describe("MiniStack's environment", () => {
  const env = ministackEnv(45678, {
    PATH: "/bin",
    AWS_PROFILE: "prod",
    AWS_ACCESS_KEY_ID: "AKIAREAL",
    AWS_SESSION_TOKEN: "t",
  });

  test("binds to loopback only, on the chosen port, with only the lab's services", () => {
    expect(env).toMatchObject({
      GATEWAY_PORT: "45678",
      BIND_HOST: "127.0.0.1",
      IOT_MTLS_ENABLED: "0",
    });
    expect(env.SERVICES?.split(",").sort()).toEqual([
      "dynamodb",
      "iam",
      "lambda",
      "logs",
      "sqs",
      "sts",
    ]);
  });

  test("drops the user's AWS identity and uses the emulator's dummy credentials", () => {
    expect(env.AWS_PROFILE).toBeUndefined();
    expect(env.AWS_SESSION_TOKEN).toBeUndefined();
    expect(env.AWS_ACCESS_KEY_ID).toBe("test");
    expect(env.PATH).toBe("/bin");
  });
});

describe("lab reset", () => {
  test("refuses an emulator that is not on loopback, before it touches anything", async () => {
    // No connection at all: a refusal that came after a call would throw something else.
    const elsewhere = { backend: { endpoint: "http://10.1.2.3:4566" } } as WorkshopLab;
    await expect(resetLab(elsewhere)).rejects.toThrow(UsageError);
    await expect(resetLab(elsewhere)).rejects.toThrow(/only against an emulator on localhost/);
  });
});
