import type { Guard } from "./guard.js";

/** No guard: every copy that arrives charges. */
export const off: Guard = async ({ charge }) => {
  await charge();
  return "charged";
};
