// What differs between the emulators in ways the harness must plan for (not work around).

/** True for MiniStack, embedded or behind an endpoint (docker compose --profile ministack). */
export function isMiniStack(backend: { name: string; version: string }): boolean {
  return backend.name === "ministack" || backend.version.startsWith("ministack");
}

/** True for LocalStack, started by testcontainers or behind an endpoint (docker compose). */
export function isLocalStack(backend: { name: string; version: string }): boolean {
  return backend.version.startsWith("localstack");
}

/**
 * How many invocations the queue's event source mapping runs at once: LocalStack 4.14.0 has one
 * poller thread per mapping that waits for each invocation; MiniStack 1.5.33 runs up to five
 * batches; real AWS starts with five pollers. This many warm environments are enough for it.
 */
export function mappingConcurrency(backend: { name: string; version: string }): number {
  return isLocalStack(backend) ? 1 : 5;
}
