import { describe, expect, test } from "vitest";
import { containerPublishing } from "../scenarios/emulator-logs.js";

// `docker ps --format "{{.Names}}\t{{.Ports}}"` as compose and testcontainers leave it.
const PS = [
  "aws-lab-sqs-idempotency-localstack-1\t127.0.0.1:4566->4566/tcp, 127.0.0.1:4510-4559->4510-4559/tcp",
  "reverent_lamport\t0.0.0.0:32771->4566/tcp, [::]:32771->4566/tcp",
  "localstack-main-lambda-worker-1\t",
].join("\n");

describe("the container an endpoint's port belongs to", () => {
  test("compose's, published on 4566", () => {
    expect(containerPublishing(PS, "4566")).toBe("aws-lab-sqs-idempotency-localstack-1");
  });

  test("testcontainers', by its random host port, not the container's 4566", () => {
    expect(containerPublishing(PS, "32771")).toBe("reverent_lamport");
  });

  test("none, when nothing publishes the port (a port inside a range is not asked for)", () => {
    expect(containerPublishing(PS, "4520")).toBeUndefined();
    expect(containerPublishing(PS, "566")).toBeUndefined();
  });
});
