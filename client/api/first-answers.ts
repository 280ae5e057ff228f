// The answers the server put into the page for the requests its first render makes
// (server/http/first-load.ts). A query that starts from one draws its page at once, with no loading
// state and no round trip (issue 13). Each is used once, and only while the page is new; after
// that, and for everything else, the client asks the API as usual.

const FRESH_FOR_MS = 30_000;

let answers: Map<string, unknown> | undefined;

function readAnswers(): Map<string, unknown> {
  const element = typeof document === 'undefined' ? null : document.getElementById('first-answers');
  if (!element?.textContent) return new Map();
  try {
    return new Map(Object.entries(JSON.parse(element.textContent) as Record<string, unknown>));
  } catch {
    return new Map();
  }
}

/**
 * The server's answer to GET `path` given with the page, once; undefined when there is none. It
 * is not checked against its schema: it comes from the same server as this very build.
 */
export function takeFirstAnswer<T>(path: string): T | undefined {
  answers ??= readAnswers();
  if (!answers.has(path) || performance.now() > FRESH_FOR_MS) return undefined;
  const body = answers.get(path) as T;
  answers.delete(path);
  return body;
}

/**
 * The answers given with the page no longer hold (the user changed: an email verified since):
 * every query asks the API instead.
 */
export function forgetFirstAnswers() {
  answers = new Map();
}

/**
 * Query options that start a query from the page's answer to `path` when there is one: as fresh
 * as if it had just been fetched (for `staleTime`), so the page neither waits nor asks again.
 */
export function startFromFirstAnswer<T>(path: string, staleTime = 10_000) {
  let taken: T | undefined;
  return {
    initialData: () => (taken ??= takeFirstAnswer<T>(path)),
    initialDataUpdatedAt: () => (taken === undefined ? undefined : Date.now()),
    staleTime,
  };
}
