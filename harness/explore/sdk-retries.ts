// The SDK's retries, as the worker has them. The worker's DynamoDB client retries a call that
// met a network error or a throttle (standard mode); the explorer's client does the same with the
// worker's own settings, read from the client worker/dynamo.ts builds, and with the SDK's own
// StandardRetryStrategy deciding (its error classification, its attempt count, its retry quota).
// Two things differ, both so that a schedule is the same every time it runs:
// - each copy has a strategy of its own (a Lambda's client is its own; one shared by every
//   schedule in this process would spend its retry quota across thousands of schedules);
// - the backoff sleeps no real time and moves no clock. The SDK waits up to 50·2^i ms (jittered)
//   before a retry; on the schedule's clock that wait is a step boundary like any other: other
//   copies may go first, and the explorer may jump the clock there (a jump stands for a long wait).
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { StandardRetryStrategy } from "@smithy/core/retry";
import type {
  RetryErrorInfo,
  RetryStrategyV2,
  StandardRetryBackoffStrategy,
  StandardRetryToken,
} from "@smithy/types";
import { dynamoClient } from "../../worker/dynamo.js";
import { type Actor, currentActor } from "./gates.js";

/** The retry settings of a DynamoDB client: what a test compares between worker and explorer. */
export interface RetrySettings {
  retryMode: string;
  maxAttempts: number;
}

/** What the client worker/dynamo.ts builds retries with (its mode and attempts, as configured). */
export async function workerRetrySettings(): Promise<RetrySettings> {
  const { client } = dynamoClient();
  try {
    return await retrySettingsOf(client);
  } finally {
    client.destroy();
  }
}

/** A DynamoDB client's retry mode and attempts, as its configuration resolves them. */
export async function retrySettingsOf(client: DynamoDBClient): Promise<RetrySettings> {
  const { retryMode } = client.config;
  return {
    retryMode: typeof retryMode === "function" ? await retryMode() : retryMode,
    maxAttempts: await client.config.maxAttempts(),
  };
}

/** The SDK's backoff, taking no time: when the retry goes is the explorer's choice. */
const NO_WAIT: StandardRetryBackoffStrategy = {
  computeNextBackoffDelay: () => 0,
  setDelayBase: () => {},
};

/**
 * The SDK's standard strategy, one per copy. `gaveUp` hears when the SDK refuses a retry after
 * an error (not retryable, out of attempts, or out of quota): the error then reaches the guard.
 */
export class RetriesPerCopy implements RetryStrategyV2 {
  private readonly perCopy = new WeakMap<Actor, StandardRetryStrategy>();
  private readonly outside: StandardRetryStrategy;

  constructor(
    readonly settings: RetrySettings,
    private readonly gaveUp: (actor: Actor, info: RetryErrorInfo) => void = tellGivingUp,
  ) {
    if (settings.retryMode !== "standard") {
      throw new Error(
        `the worker's DynamoDB client retries in ${settings.retryMode} mode; the explorer models standard mode only`,
      );
    }
    this.outside = this.strategy();
  }

  acquireInitialRetryToken(scope: string): Promise<StandardRetryToken> {
    return this.forCaller().acquireInitialRetryToken(scope);
  }

  async refreshRetryTokenForRetry(
    token: StandardRetryToken,
    info: RetryErrorInfo,
  ): Promise<StandardRetryToken> {
    try {
      return await this.forCaller().refreshRetryTokenForRetry(token, info);
    } catch (refused) {
      const actor = currentActor();
      if (actor) this.gaveUp(actor, info);
      throw refused;
    }
  }

  recordSuccess(token: StandardRetryToken): void {
    this.forCaller().recordSuccess(token);
  }

  private forCaller(): StandardRetryStrategy {
    const actor = currentActor();
    if (!actor) return this.outside;
    let own = this.perCopy.get(actor);
    if (!own) {
      own = this.strategy();
      this.perCopy.set(actor, own);
    }
    return own;
  }

  private strategy(): StandardRetryStrategy {
    return new StandardRetryStrategy({ maxAttempts: this.settings.maxAttempts, backoff: NO_WAIT });
  }
}

/** A refusal of an error the SDK retries when it can: it ran out of attempts (or quota). */
function tellGivingUp(actor: Actor, info: RetryErrorInfo): void {
  if (info.errorType === "TRANSIENT" || info.errorType === "THROTTLING") {
    const why = `${info.errorType.toLowerCase()} error, no retry left`;
    actor.scope.heard(actor, `the SDK gives up (${why}): the error reaches the guard`);
  }
}

/**
 * The errors a lost request or answer gives the SDK, as Node's HTTP client gives them: a
 * connection that timed out before the request went out, a socket reset after it did.
 */
export function networkError(loss: "request" | "answer"): Error {
  if (loss === "request") {
    return Object.assign(new Error("connect ETIMEDOUT (the explorer lost the request)"), {
      code: "ETIMEDOUT",
    });
  }
  return Object.assign(new Error("socket hang up (the explorer lost the answer)"), {
    code: "ECONNRESET",
  });
}

/**
 * What the guard's charge throws when the payment's answer is lost: a timeout of the payment
 * client, not of DynamoDB's, so the SDK's classification does not retry it (the provider is not
 * DynamoDB in the world the lab models; only its ledger is kept there).
 */
export class PaymentTimeout extends Error {
  override name = "PaymentTimeout";
  constructor() {
    super("the payment provider did not answer in time");
  }
}
