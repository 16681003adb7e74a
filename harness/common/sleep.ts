// The harness's one way to wait: Node's own promise timer, under the name every caller reads.
export { setTimeout as sleep } from "node:timers/promises";
