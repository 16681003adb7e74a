// The AWS SDK retry settings of the worker's DynamoDB client, stated instead of left implicit.
// They are the SDK's own defaults for DynamoDB (standard mode, 4 attempts in this SDK: DynamoDB's
// client sets its own, not the SDK-wide 3; a test checks they still are). The explorer models a
// lost answer with the same settings, and a test fails if the two differ: a guard proven in a
// world without retries says nothing about the worker's.
export const DYNAMO_RETRIES = { retryMode: "standard", maxAttempts: 4 } as const;
