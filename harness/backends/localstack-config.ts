// LocalStack's configuration, as data, shared by the testcontainers backend and checked by
// tests against docker-compose.yml so the two ways of running LocalStack stay the same.

/** The last free community image: later tags need LOCALSTACK_AUTH_TOKEN (since 2026-03-23). */
export const LOCALSTACK_DEFAULT_IMAGE = "localstack/localstack:4.14.0";

/** The image LocalStack pulls to run a nodejs22.x function; pre-pull it for offline use. */
export const LAMBDA_NODE_RUNTIME_IMAGE = "public.ecr.aws/lambda/nodejs:22";

export const LOCALSTACK_SERVICES = "sqs,dynamodb,lambda,logs,iam,sts";

export function localstackImage(env: NodeJS.ProcessEnv = process.env): string {
  return env.LOCALSTACK_IMAGE || LOCALSTACK_DEFAULT_IMAGE;
}

/** The container's environment. The auth token is passed through only when the user set one. */
export function localstackEnvironment(
  env: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  return {
    SERVICES: LOCALSTACK_SERVICES,
    // Lambda containers are started through the mounted Docker socket; keep them warm
    // between invocations, and give a cold start (image pull included) time to finish.
    LAMBDA_RUNTIME_ENVIRONMENT_TIMEOUT: "60",
    // LocalStack's event source mapping sleeps 1 s after each batch and backs off up to 10 s
    // (jittered to 15 s) while the queue is empty; AWS long-polls and picks a message up at once.
    // Those gaps are the emulator's, not SQS's, and would make each copy wait a second or more.
    LAMBDA_EVENT_SOURCE_MAPPING_POLL_INTERVAL_SEC: "0.1",
    LAMBDA_EVENT_SOURCE_MAPPING_MAX_BACKOFF_ON_EMPTY_POLL_SEC: "0.5",
    ...(env.LOCALSTACK_AUTH_TOKEN ? { LOCALSTACK_AUTH_TOKEN: env.LOCALSTACK_AUTH_TOKEN } : {}),
  };
}

/** A description safe to print: never the token itself. */
export function describeLocalstack(env: NodeJS.ProcessEnv = process.env): string {
  return `${localstackImage(env)}${env.LOCALSTACK_AUTH_TOKEN ? " (with LOCALSTACK_AUTH_TOKEN)" : ""}`;
}
