import { beforeAll, describe, test } from "vitest";

test("passes", () => {});

test("skips with its reason", (context) => context.skip("no engine here"));

describe("a suite whose setup fails", () => {
  beforeAll(() => {
    throw new Error("pull access denied for testcontainers/ryuk");
  });
  test("first", () => {});
  test("second", () => {});
});
