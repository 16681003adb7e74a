// The explorer's world has the worker's SDK retries: its client retries in the mode and with the
// attempts of the client worker/dynamo.ts builds, the SDK's own standard strategy decides, and
// the errors a lost request or answer raises are ones the SDK itself classifies as retryable.

import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { isTransientError } from "@smithy/core/retry";
import type { RetryErrorInfo, SdkError, StandardRetryToken } from "@smithy/types";
import { describe, expect, test } from "vitest";
import { DYNAMO_RETRIES } from "../../contract/retries.js";
import { gatedClient } from "../../harness/explore/client.js";
import { FakeClock } from "../../harness/explore/clock.js";
import { Actor, type Scope, Stage } from "../../harness/explore/gates.js";
import {
  networkError,
  PaymentTimeout,
  RetriesPerCopy,
  workerRetrySettings,
} from "../../harness/explore/sdk-retries.js";
import { dynamoClient } from "../../worker/dynamo.js";

// The SDK warns on Node 20 about its 2027 releases; the lab pins its version (as session.ts says).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

const tables = { claims: "c", ledger: "c-charges", powertools: "c-powertools" };

async function settingsOf(client: ReturnType<typeof dynamoClient>["client"]) {
  const { retryMode } = client.config;
  return {
    retryMode: typeof retryMode === "function" ? await retryMode() : retryMode,
    maxAttempts: await client.config.maxAttempts(),
  };
}

describe("the explorer retries as the worker does", () => {
  test("its client's retry mode and attempts are those of the client worker/dynamo.ts builds", async () => {
    const worker = dynamoClient().client;
    const retries = new RetriesPerCopy(await workerRetrySettings());
    const explorer = gatedClient("http://127.0.0.1:9", "us-east-1", tables, retries).client;
    try {
      expect(await settingsOf(explorer)).toEqual(await settingsOf(worker));
      expect(retries.settings).toEqual(await settingsOf(worker));
      // The strategy the SDK's retry middleware asks is the explorer's, with those attempts.
      expect(await explorer.config.retryStrategy()).toBe(retries);
    } finally {
      worker.destroy();
      explorer.destroy();
    }
  });

  test("the worker states the SDK's own defaults for DynamoDB, and the explorer models those", async () => {
    const bare = new DynamoDBClient({ region: "us-east-1" });
    const worker = dynamoClient().client;
    try {
      expect(await settingsOf(worker)).toEqual(await settingsOf(bare));
      expect(await settingsOf(worker)).toEqual(DYNAMO_RETRIES);
      expect(await workerRetrySettings()).toEqual(DYNAMO_RETRIES);
    } finally {
      bare.destroy();
      worker.destroy();
    }
  });

  test("the SDK's standard strategy decides: a network error is retried until the attempts run out, a refused condition never", async () => {
    const { maxAttempts } = await workerRetrySettings();
    const gaveUp: string[] = [];
    const retries = new RetriesPerCopy({ retryMode: "standard", maxAttempts }, (_, info) =>
      gaveUp.push(info.errorType),
    );
    const lost: RetryErrorInfo = {
      error: networkError("answer") as SdkError,
      errorType: "TRANSIENT",
    };
    let token: StandardRetryToken = await retries.acquireInitialRetryToken("");
    let retried = 0;
    for (;;) {
      try {
        token = await retries.refreshRetryTokenForRetry(token, lost);
        retried += 1;
      } catch {
        break;
      }
    }
    expect(retried).toBe(maxAttempts - 1);
    const refused = { name: "ConditionalCheckFailedException", message: "" } as Error;
    const first = await retries.acquireInitialRetryToken("");
    await expect(
      retries.refreshRetryTokenForRetry(first, {
        error: refused as SdkError,
        errorType: "CLIENT_ERROR",
      }),
    ).rejects.toThrow();
    expect(() => new RetriesPerCopy({ retryMode: "adaptive", maxAttempts })).toThrow(/standard/);
  });

  test("each copy has a strategy of its own: one copy's retries do not spend another's quota", async () => {
    const retries = new RetriesPerCopy({ retryMode: "standard", maxAttempts: 2 });
    const stage = new Stage();
    const clock = new FakeClock(0);
    const scope: Scope = {
      now: () => clock.now(),
      reach: (a, gate) => stage.park(a, gate),
      calling: () => {},
      heard: () => {},
      wentAround: () => {},
      exited: () => {},
    };
    const lost: RetryErrorInfo = {
      error: networkError("answer") as SdkError,
      errorType: "TRANSIENT",
    };
    /** Calls that each lose one answer: how many of them the SDK retried. */
    const retriedIn = (actor: Actor, calls: number) =>
      new Promise<number>((resolve) =>
        stage.start(
          actor,
          async () => {
            let retried = 0;
            for (let call = 0; call < calls; call++) {
              const token = await retries.acquireInitialRetryToken("");
              retried += await retries.refreshRetryTokenForRetry(token, lost).then(
                () => 1,
                () => 0,
              );
            }
            return retried;
          },
          (result) => resolve("value" in result ? result.value : -1),
        ),
      );
    // The SDK's quota (500, 14 a retry) runs out in one copy after 35 retries...
    expect(await retriedIn(new Actor("copy 1", scope), 50)).toBe(35);
    // ...and the next copy has its own, as the next schedule does.
    expect(await retriedIn(new Actor("copy 2", scope), 1)).toBe(1);
  });

  test("a lost request or answer is a network error the SDK retries; the payment's timeout is not DynamoDB's", () => {
    const transient = (err: Error) => isTransientError(err as SdkError);
    expect(transient(networkError("request"))).toBe(true);
    expect(transient(networkError("answer"))).toBe(true);
    expect(transient(new PaymentTimeout())).toBe(false);
  });
});
