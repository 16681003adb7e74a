// An order as the producer sends it and the worker reads it (docs/design.md §4).

/** The key the article's lenient parse falls back to when a body is not an order. */
export const UNPARSEABLE = "unparseable";

export interface Order {
  orderId: string;
  customerId: string | null;
  amount: number | null;
}
