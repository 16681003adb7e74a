// What a guard's code meets in a Lambda function, beyond its input: the environment the function
// gets (its region, credentials, and the emulator's endpoint in AWS_ENDPOINT_URL, which both
// emulators set), so a DynamoDB client the guard builds itself, `new DynamoDBClient({})`, works
// as it would there. And every DynamoDB client a copy sends through gets the explorer's gates,
// not only the one the guard is handed; a DynamoDB request that still goes around them (another
// copy of the SDK, a hand-made HTTP call, fetch) is heard on Node's HTTP channels and reported.
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import type { ClientRequest } from "node:http";
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { Client } from "@smithy/core/client";
import type { RetryStrategy, RetryStrategyV2 } from "@smithy/types";
import { EMULATOR_CREDENTIALS } from "../aws/connection.js";
import { type ExploreTables, GATED_HEADER, installGates } from "./client.js";
import { currentActor } from "./gates.js";
import { RetriesPerCopy, retrySettingsOf } from "./sdk-retries.js";

/** What a Lambda function's environment holds that an SDK client reads. */
export function lambdaEnvironment(endpoint: string, region: string): Record<string, string> {
  return {
    AWS_REGION: region,
    AWS_DEFAULT_REGION: region,
    AWS_ACCESS_KEY_ID: EMULATOR_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: EMULATOR_CREDENTIALS.secretAccessKey,
    AWS_ENDPOINT_URL: endpoint,
  };
}

/** Sets the function's environment in this process for as long as a session runs; the undo. */
export function enterLambdaWorld(
  endpoint: string,
  region: string,
  tables: ExploreTables,
): () => void {
  const env = lambdaEnvironment(endpoint, region);
  const before = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  const ungate = gateEveryClient(tables);
  const unhear = hearCallsAround();
  const unexit = exitEndsOnlyTheCopy();
  return () => {
    unexit();
    unhear();
    ungate();
    for (const [key, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
}

/** Thrown where a copy called process.exit, to unwind its code; the copy is dead by then. */
class CopyExited extends Error {
  override name = "CopyExited";
}

/**
 * A guard's process.exit ends its function's process in Lambda. Here every copy shares the
 * explorer's process (the grader's, a test's): the copy dies where it called it, and the process
 * goes on. Outside a copy, process.exit is Node's own.
 */
function exitEndsOnlyTheCopy(): () => void {
  const exit = process.exit;
  process.exit = ((code?: number | string | null) => {
    const actor = currentActor();
    if (!actor) return exit.call(process, code);
    actor.scope.exited(actor, code);
    throw new CopyExited(`process.exit(${code ?? ""})`);
  }) as typeof process.exit;
  return () => {
    process.exit = exit;
  };
}

/** The SDK's one client class: a DynamoDB client a copy sends through gets the gates first. */
function gateEveryClient(tables: ExploreTables): () => void {
  const prototype = Client.prototype as { send: (...args: unknown[]) => unknown };
  const send = prototype.send;
  const retried = new WeakSet<object>();
  prototype.send = function (this: DynamoDBClient, ...args: unknown[]) {
    if (currentActor() && this.config?.serviceId === "DynamoDB") {
      installGates(this.middlewareStack, tables);
      if (!retried.has(this.config)) {
        retried.add(this.config);
        retriesPerCopy(this);
      }
    }
    return send.apply(this, args);
  };
  return () => {
    prototype.send = send;
  };
}

/**
 * The client's own retry settings, each copy with a strategy of its own and no real backoff, as
 * the explorer's client has (sdk-retries.ts): a client the guard keeps for the whole process
 * would otherwise spend one retry quota across every schedule. A mode the explorer does not
 * model (adaptive) keeps the client's own strategy.
 */
function retriesPerCopy(client: DynamoDBClient): void {
  const { config } = client;
  const own = config.retryStrategy;
  let perCopy: Promise<RetryStrategyV2 | RetryStrategy> | undefined;
  config.retryStrategy = () => {
    perCopy ??= retrySettingsOf(client).then((settings) =>
      settings.retryMode === "standard" ? new RetriesPerCopy(settings) : own(),
    );
    return perCopy;
  };
}

/**
 * A DynamoDB request a copy makes without the gate's header: the explorer did not see it. Heard
 * on both of Node's HTTP clients: node:http (the SDK's, another copy of the SDK, a hand-made
 * request) and fetch (undici, which publishes its requests on channels of its own).
 */
function hearCallsAround(): () => void {
  const around = (header: (name: string) => string | undefined) => {
    const target = header("x-amz-target") ?? "";
    const actor = currentActor();
    if (!actor || !target.startsWith("DynamoDB_") || header(GATED_HEADER) !== undefined) return;
    actor.scope.wentAround(actor, target.slice(target.indexOf(".") + 1));
  };
  const heardHttp = (message: unknown) => {
    const { request } = message as { request: ClientRequest };
    around((name) => {
      const value = request.getHeader(name);
      return value === undefined ? undefined : String(value);
    });
  };
  const heardFetch = (message: unknown) => {
    const { request } = message as { request: { headers?: unknown } };
    around((name) => fetchHeader(request.headers, name));
  };
  subscribe("http.client.request.start", heardHttp);
  subscribe(FETCH_CHANNEL, heardFetch);
  return () => {
    unsubscribe("http.client.request.start", heardHttp);
    unsubscribe(FETCH_CHANNEL, heardFetch);
  };
}

/** Where Node's fetch (undici) says a request is made. */
const FETCH_CHANNEL = "undici:request:create";

/**
 * A header of a request as undici's channel hands it: a flat [name, value, …] list (Node 22), or
 * one "name: value\r\n…" string (older undici).
 */
export function fetchHeader(headers: unknown, name: string): string | undefined {
  const wanted = name.toLowerCase();
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) {
      if (String(headers[i]).toLowerCase() === wanted) return String(headers[i + 1]);
    }
    return undefined;
  }
  if (typeof headers !== "string") return undefined;
  for (const line of headers.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0 && line.slice(0, colon).trim().toLowerCase() === wanted)
      return line.slice(colon + 1).trim();
  }
  return undefined;
}
