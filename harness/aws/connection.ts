// Every AWS client the harness uses comes from one Connection: one endpoint, fixed dummy
// credentials. The lab never reads an AWS profile, so it cannot reach a real account.
import { CloudWatchLogsClient } from "@aws-sdk/client-cloudwatch-logs";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { LambdaClient } from "@aws-sdk/client-lambda";
import { SQSClient } from "@aws-sdk/client-sqs";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { assertSafeEndpoint } from "../backends/this-machine.js";
import { labRegion } from "../common/region.js";

export interface Connection {
  endpoint: string;
  region: string;
  sqs: SQSClient;
  db: DynamoDBDocumentClient;
  lambda: LambdaClient;
  logs: CloudWatchLogsClient;
  close(): void;
}

export const EMULATOR_CREDENTIALS = { accessKeyId: "test", secretAccessKey: "test" };

export interface ConnectOptions {
  env?: NodeJS.ProcessEnv;
  /** The lab started this emulator itself (testcontainers): its host is the engine's, trusted. */
  startedByLab?: boolean;
}

export function connect(endpoint: string, options: ConnectOptions = {}): Connection {
  const env = options.env ?? process.env;
  assertSafeEndpoint(endpoint, env, options.startedByLab);
  // The SDK warns on Node 20 that its 2027 releases need Node 22; the lab pins its version.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
  const config = {
    endpoint,
    region: labRegion(env),
    credentials: EMULATOR_CREDENTIALS,
    maxAttempts: 3,
    // Without these a dead emulator makes a call hang for minutes instead of failing.
    requestHandler: { connectionTimeout: 3_000, requestTimeout: 60_000 },
  };
  const sqs = new SQSClient(config);
  const dynamo = new DynamoDBClient(config);
  const lambda = new LambdaClient(config);
  const logs = new CloudWatchLogsClient(config);
  return {
    endpoint,
    region: config.region,
    sqs,
    db: DynamoDBDocumentClient.from(dynamo),
    lambda,
    logs,
    close() {
      for (const client of [sqs, dynamo, lambda, logs]) client.destroy();
    },
  };
}
