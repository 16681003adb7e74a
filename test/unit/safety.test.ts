import { describe, expect, test } from "vitest";
import { ministackEnv } from "../../harness/backends/ministack.js";
import { assertSafeEndpoint, isLoopback } from "../../harness/connection.js";

describe("the harness only talks to this machine", () => {
  test.each([
    "http://localhost:4566",
    "http://127.0.0.1:1234",
    "http://127.1.2.3:4566",
    "http://[::1]:4566",
  ])("%s is loopback", (url) => expect(isLoopback(url)).toBe(true));

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
