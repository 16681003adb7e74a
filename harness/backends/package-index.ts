// Whether the package index pip would install MiniStack from answers right now: a short GET of
// ministack's page there, the page pip itself fetches first. (pip.conf's index-url and proxies
// are not read: PIP_INDEX_URL or PyPI.)
import { within } from "../common/deadline.js";

export interface IndexProbe {
  /** ministack's page on the index, without any credentials: safe to print. */
  url: string;
  answers: boolean;
}

export async function probeIndex(
  env: NodeJS.ProcessEnv = process.env,
  timeoutMs = 3_000,
): Promise<IndexProbe> {
  if (!env.PIP_INDEX_URL) return ask(new URL("https://pypi.org/simple/ministack/"), timeoutMs);
  let url: URL;
  try {
    url = new URL("ministack/", env.PIP_INDEX_URL.replace(/\/?$/, "/"));
  } catch {
    return { url: "PIP_INDEX_URL (not a URL)", answers: false };
  }
  return ask(url, timeoutMs);
}

async function ask(url: URL, timeoutMs: number): Promise<IndexProbe> {
  // fetch refuses a URL with credentials in it; pip sends them as basic auth.
  const headers: Record<string, string> = {};
  if (url.username || url.password) {
    const login = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    headers.authorization = `Basic ${Buffer.from(login).toString("base64")}`;
    url.username = "";
    url.password = "";
  }
  const no: IndexProbe = { url: url.href, answers: false }; // no network, no DNS, refused, slow
  return within(
    timeoutMs,
    async (signal) => {
      try {
        const response = await fetch(url, { headers, signal });
        await response.body?.cancel();
        return { url: url.href, answers: response.ok };
      } catch {
        return no;
      }
    },
    () => no,
  );
}
