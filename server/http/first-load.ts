import fs from 'node:fs';
import path from 'node:path';
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { imageSrcSet } from '../../shared/constants';
import { firstRequests, leadPicture } from '../../shared/first-requests';
import { findPage } from '../../shared/routes';
import type { AppEnv } from './context';
import { SESSION_COOKIE } from './session';

// A page's first load (issue 13). The built client draws everything in the browser, so without help
// a phone on a slow network waits for the entry script, then the page's chunk, then each answer
// the page asks for, then its main picture: one round trip after another. The page's HTML carries
// instead, for the pages people arrive on:
// - the page's own chunks and styles, loaded beside the entry (dist/page-chunks.json);
// - the API answers its first render asks for (shared/first-requests.ts), made by the app itself
//   for this very caller, so permissions and per-caller fields are exactly the API's;
// - a preload of its leading picture, in the rendition the page will choose.

/** The app answering a request of its own, in-process (the API routes with their middleware). */
export type InternalFetch = (request: Request) => Response | Promise<Response>;

type PageChunks = Record<string, { js: string[]; css: string[] }>;

export type FirstLoad = {
  /** Tags for the end of <head>. */
  head: string;
  /** Cookies the answers set (a renewed session, or a dead one cleared), for the page's response. */
  setCookies: string[];
};

const NOTHING: FirstLoad = { head: '', setCookies: [] };

const escapeAttribute = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** JSON inside a <script> element: `<` escaped, so no text can close the element or open a comment. */
const scriptSafe = (json: string) =>
  json
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

function decodedParams(params: Record<string, string>): Record<string, string> | undefined {
  try {
    return Object.fromEntries(Object.entries(params).map(([key, value]) => [key, decodeURIComponent(value)]));
  } catch {
    return undefined;
  }
}

/** Headers of the page's request that the internal API requests carry too. */
const FORWARDED_HEADERS = ['cookie', 'x-forwarded-for', 'x-forwarded-proto', 'user-agent'];

export function firstLoadFor(distDir: string, fetchInternal: InternalFetch) {
  let pageChunks: PageChunks | undefined;
  const chunksOf = (page: string) => {
    try {
      pageChunks ??= JSON.parse(fs.readFileSync(path.join(distDir, 'page-chunks.json'), 'utf8')) as PageChunks;
    } catch {
      pageChunks = {}; // a build without the file: nothing to preload
    }
    return pageChunks[page];
  };

  async function answer(c: Context<AppEnv>, apiPath: string) {
    const headers = new Headers({ accept: 'application/json' });
    for (const name of FORWARDED_HEADERS) {
      const value = c.req.header(name);
      if (value !== undefined) headers.set(name, value);
    }
    const response = await fetchInternal(new Request(new URL(apiPath, c.req.url), { headers }));
    const setCookies = response.headers.getSetCookie();
    const isJson = /^application\/json/.test(response.headers.get('content-type') ?? '');
    // Only what the page would have been given: a refusal or a failure is asked for again by the page.
    const body = response.status === 200 && isJson ? await response.text() : undefined;
    if (body === undefined) await response.body?.cancel();
    return { body, setCookies };
  }

  return async (c: Context<AppEnv>): Promise<FirstLoad> => {
    const page = findPage(c.req.path);
    const params = page && decodedParams(page.params);
    if (!page || !params) return NOTHING;
    const search = new URL(c.req.url).searchParams;
    const signedIn = getCookie(c, SESSION_COOKIE) !== undefined;

    const answered = await Promise.all(
      firstRequests(page.name, params, search, signedIn).map(async (apiPath) => ({
        apiPath,
        ...(await answer(c, apiPath)),
      })),
    );
    const bodies = new Map<string, string>();
    for (const { apiPath, body } of answered) if (body !== undefined) bodies.set(apiPath, body);

    const tags: string[] = [];
    const chunks = chunksOf(page.name);
    // Applied by the app before it draws, like index.html's own (scripts/deferred-styles-plugin.ts).
    for (const file of chunks?.css ?? [])
      tags.push(`<link rel="stylesheet" crossorigin href="/${escapeAttribute(file)}" media="print" data-deferred>`);
    for (const file of chunks?.js ?? [])
      tags.push(`<link rel="modulepreload" crossorigin href="/${escapeAttribute(file)}">`);

    const parsed = new Map([...bodies].map(([apiPath, body]) => [apiPath, JSON.parse(body) as unknown]));
    const picture = leadPicture(page.name, params, search, parsed);
    if (picture) {
      tags.push(
        `<link rel="preload" as="image" type="image/webp" fetchpriority="high" imagesrcset="${escapeAttribute(
          imageSrcSet(picture.uploadId, 'webp'),
        )}" imagesizes="${escapeAttribute(picture.sizes)}">`,
      );
    }
    if (bodies.size > 0) {
      const json = `{${[...bodies].map(([apiPath, body]) => `${JSON.stringify(apiPath)}:${body}`).join(',')}}`;
      tags.push(`<script type="application/json" id="first-answers">${scriptSafe(json)}</script>`);
    }
    // Several answers may renew the same cookie: the last of each name is the one that counts.
    const cookies = new Map<string, string>();
    for (const cookie of answered.flatMap((item) => item.setCookies)) cookies.set(cookie.split('=')[0] ?? '', cookie);
    return { head: tags.join('\n    '), setCookies: [...cookies.values()] };
  };
}
