// The worker's log line types (docs/design.md §4): the worker writes them, the harness reads
// them back and counts them.

export const EVENT_TYPES = [
  "process_start",
  "parse_failed",
  "claim_won",
  "claim_lost",
  "claim_busy",
  "claim_released",
  "skip_duplicate",
  "payload_mismatch",
  "charge_applied",
  "charge_replayed",
  "charge_failed",
  "lease_lost",
  "batch_failed",
  "failpoint",
  "failpoint_released",
  "fault",
  "process_end",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
