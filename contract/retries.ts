// The AWS SDK retry settings of the worker's DynamoDB client, stated instead of left to the
// SDK's defaults (they are the defaults: standard mode, 3 attempts). The explorer models a lost
// answer with the same settings, and a test fails if the two differ: a guard proven in a world
// without retries says nothing about the worker's.
export const DYNAMO_RETRIES = { retryMode: "standard", maxAttempts: 3 } as const;
