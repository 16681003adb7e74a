// Escaping for the page: every piece of text goes through esc() unless it is already Html.

export interface Html {
  readonly html: string;
}
export const raw = (html: string): Html => ({ html });

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
export const esc = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** ` name="value"` pairs, escaped; undefined values are left out. */
export function attrs(values: Record<string, string | number | undefined>): string {
  return Object.entries(values)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${esc(String(v))}"`)
    .join("");
}
