import fs from 'node:fs';
import path from 'node:path';
import { imageSrcSet } from '../../shared/constants';
import { firstRequests, leadPicture, type Picture } from '../../shared/first-requests';
import { escapeHtml, scriptSafeJson } from '../../shared/html';
import { findPage } from '../../shared/routes';
import type { Session } from '../deps';
import type { FirstAnswerer } from '../first-answers';
import { SerializedJson } from '../infra/serialized-json';
import { firstView } from './first-view/first-view';

// A page's first load (issue 13). The built client draws everything in the browser, so without help
// a phone on a slow network waits for the entry script, then the page's chunk, then each answer
// the page asks for, then its main picture: one round trip after another. The page's HTML carries
// instead, for the pages people arrive on:
// - the page's own chunks and styles, loaded beside the entry (dist/page-chunks.json);
// - the API answers its first render asks for (shared/first-requests.ts), made by the services the
//   API's routes call, for this very caller (server/first-answers.ts), so permissions and
//   per-caller fields are exactly the API's;
// - a preload of its leading picture, in the rendition the page will choose;
// - for a few pages, the top of the page itself, drawn before the app starts (first-view/).

/** A page's first load, each part '' for none: where each goes is said beside it. */
export type FirstLoad = {
  /** First in <head> (after the viewport), before the app's scripts: the picture of a page drawn before them. */
  early: string;
  /** At the end of <head>. */
  head: string;
  /** Inside <main>: what the page draws before its app starts. */
  main: string;
};

const NO_FIRST_LOAD: FirstLoad = { early: '', head: '', main: '' };

type PageChunks = Record<string, { js: string[]; css: string[] }>;

function decodedParams(params: Record<string, string>): Record<string, string> | undefined {
  try {
    return Object.fromEntries(Object.entries(params).map(([key, value]) => [key, decodeURIComponent(value)]));
  } catch {
    return undefined;
  }
}

const jsonText = (value: unknown) => (value instanceof SerializedJson ? value.text : JSON.stringify(value));
const valueOf = (value: unknown) => (value instanceof SerializedJson ? value.value : value);

/** The preload of a page's leading picture, in the rendition the page will choose. */
function preloadTag(picture: Picture): string {
  if ('href' in picture)
    return `<link rel="preload" as="image" fetchpriority="high" href="${escapeHtml(picture.href)}">`;
  return `<link rel="preload" as="image" type="image/webp" fetchpriority="high" imagesrcset="${escapeHtml(
    imageSrcSet(picture.uploadId, 'webp'),
  )}" imagesizes="${escapeHtml(picture.sizes)}">`;
}

/** What a page's HTML carries for its first load, for this caller. */
export function firstLoadFor(distDir: string, answerFirst: FirstAnswerer) {
  let pageChunks: PageChunks | undefined;
  const chunksOf = (page: string) => {
    try {
      pageChunks ??= JSON.parse(fs.readFileSync(path.join(distDir, 'page-chunks.json'), 'utf8')) as PageChunks;
    } catch {
      pageChunks = {}; // a build without the file: nothing to preload
    }
    return pageChunks[page];
  };

  return (pathname: string, search: URLSearchParams, session: Session | null): FirstLoad => {
    const page = findPage(pathname);
    const params = page && decodedParams(page.params);
    if (!page || !params) return NO_FIRST_LOAD;

    const answers = new Map<string, unknown>();
    for (const request of firstRequests(page.name, params, search, session !== null)) {
      const answer = answerFirst(request, session);
      if (answer !== undefined) answers.set(request.path, answer);
    }

    const values = new Map([...answers].map(([apiPath, answer]) => [apiPath, valueOf(answer)]));
    const view = firstView(page.name, params, search, values);

    const tags: string[] = [];
    const chunks = chunksOf(page.name);
    // Applied by the app before it draws, like index.html's own (scripts/deferred-styles-plugin.ts).
    for (const file of chunks?.css ?? [])
      tags.push(`<link rel="stylesheet" crossorigin href="/${escapeHtml(file)}" media="print" data-deferred>`);
    for (const file of chunks?.js ?? [])
      tags.push(`<link rel="modulepreload" crossorigin href="/${escapeHtml(file)}">`);

    // A page drawn before its scripts shows its picture as soon as it comes: it is asked for
    // first, and the scripts after it (client-app.ts), instead of sharing the connection with them.
    const picture = view ? view.picture : leadPicture(page.name, params, search, values);
    const preload = picture ? preloadTag(picture) : '';
    const early = view ? preload : '';
    if (view) tags.push(`<style>${view.style}</style>`);
    else if (preload) tags.push(preload);
    if (answers.size > 0) {
      const json = `{${[...answers].map(([apiPath, answer]) => `${JSON.stringify(apiPath)}:${jsonText(answer)}`).join(',')}}`;
      tags.push(`<script type="application/json" id="first-answers">${scriptSafeJson(json)}</script>`);
    }
    return { early, head: tags.join('\n    '), main: view?.main ?? '' };
  };
}
