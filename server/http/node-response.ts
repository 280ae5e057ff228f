import { ServerResponse } from 'node:http';
import type { Http2Bindings, HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context } from 'hono';

// A body written straight to Node's response, for the one answer that needs it: the album zip
// (issue 13, memory). @hono/node-server writes a web stream's chunks to the socket without saying
// when the socket is done with each, so a body that wants to read into the same buffers again has
// to hold the Node response itself. The answer still goes through every middleware as a web
// answer (its status and headers, the request log); only its body is swapped at the very end, by
// `fetchForNode`, which the server runs the app through.

type NodeWriter = { body: ReadableStream<Uint8Array> | null; write: (out: ServerResponse) => Promise<void> };

/** The writers of answers under way, by the Node response they are for. */
const writers = new WeakMap<ServerResponse, NodeWriter>();

/**
 * Answers `response`, whose body `write` writes to the Node response when the app runs under
 * @hono/node-server; elsewhere (an in-process request) the web body is sent as usual. `write`
 * writes the body only, ends the response, and deals with its own failures.
 */
export function withNodeBody(c: Context, response: Response, write: (out: ServerResponse) => Promise<void>): Response {
  const out = (c.env as Partial<HttpBindings> | undefined)?.outgoing;
  if (out instanceof ServerResponse) writers.set(out, { body: response.body, write });
  return response;
}

/** The app's fetch for @hono/node-server: the same answers, with a body `withNodeBody` asked for written by its writer. */
export function fetchForNode(app: {
  fetch: (request: Request, env: HttpBindings | Http2Bindings) => Response | Promise<Response>;
}) {
  const finish = (response: Response, out: HttpBindings['outgoing'] | Http2Bindings['outgoing']): Response => {
    if (!(out instanceof ServerResponse)) return response;
    const writer = writers.get(out);
    if (!writer) return response;
    writers.delete(out);
    // Another answer than the one that asked (a middleware or an error put another in its place).
    if (response.body !== writer.body) return response;
    response.body?.cancel().catch(() => undefined);
    out.writeHead(response.status, nodeHeaders(response.headers));
    // A writer deals with its own failures; one it did not foresee still ends the response.
    writer.write(out).catch(() => out.destroy());
    return RESPONSE_ALREADY_SENT;
  };
  return (request: Request, env: HttpBindings | Http2Bindings): Response | Promise<Response> => {
    const answer = app.fetch(request, env);
    // Most answers come back as they are: one look in a WeakMap, no extra turn for a ready one.
    return answer instanceof Promise
      ? answer.then((response) => finish(response, env.outgoing))
      : finish(answer, env.outgoing);
  };
}

/** The answer's headers as Node's writeHead takes them, each Set-Cookie its own line. */
function nodeHeaders(headers: Headers): Record<string, string | string[]> {
  const record: Record<string, string | string[]> = {};
  headers.forEach((value, name) => {
    if (name !== 'set-cookie') record[name] = value;
  });
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) record['set-cookie'] = cookies;
  return record;
}
