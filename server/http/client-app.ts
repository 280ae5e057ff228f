import fs from 'node:fs';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { type Context, Hono } from 'hono';
import { escapeHtml } from '../../shared/html';
import { findPage } from '../../shared/routes';
import { publicCache } from '../db/cache';
import type { PageInfo, Session, ShareCard } from '../deps';
import type { AppEnv } from './context';
import { acceptsGzip } from './compression';
import type { FirstLoad } from './first-load';
import { NoncedPage } from './nonced-page';
import { requestHeader } from './request-header';
import { newStyleNonce } from './security-headers';
import { sessionMiddleware } from './session';

// Serves the built client (dist/): hashed assets cached for a year, everything else revalidated,
// and index.html for every other path so the React router handles it.

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
const PAGE = 'private, no-cache';

/** What the server knows of the page at a path (PageInfo), asked of the features by app.ts. */
export type PageLookup = (pathname: string) => PageInfo;

/**
 * index.html with the page's title and its Open Graph / Twitter tags, for link previews. Every
 * replacement is a function: a replacement string would expand `$&`, `$'` or `$2` typed into a
 * name or description, and could close an attribute.
 */
function withShareCard(html: string, card: ShareCard, origin: string, siteName: string): string {
  const title = `${card.title} | ${siteName}`;
  const description = card.description.replace(/\s+/g, ' ').trim().slice(0, 300);
  const tags: [string, string, string][] = [
    ['property', 'og:type', card.type ?? 'music.album'],
    ['property', 'og:site_name', siteName],
    ['property', 'og:title', card.title],
    ['property', 'og:description', description],
    ['property', 'og:url', `${origin}${card.path}`],
    ['name', 'twitter:card', card.player ? 'player' : card.imagePath ? 'summary_large_image' : 'summary'],
    ['name', 'twitter:title', card.title],
    ['name', 'twitter:description', description],
  ];
  if (card.imagePath) {
    tags.push(
      ['property', 'og:image', `${origin}${card.imagePath}`],
      ['name', 'twitter:image', `${origin}${card.imagePath}`],
    );
  }
  if (card.player) {
    tags.push(
      ['name', 'twitter:player', `${origin}${card.player.path}`],
      ['name', 'twitter:player:width', String(card.player.width)],
      ['name', 'twitter:player:height', String(card.player.height)],
    );
  }
  const links = card.oEmbed
    ? [
        `<link rel="alternate" type="application/json+oembed" href="${escapeHtml(
          `${origin}/api/oembed?${new URLSearchParams({ url: `${origin}${card.path}`, format: 'json' })}`,
        )}" title="${escapeHtml(card.title)}" />`,
      ]
    : [];
  const meta = [
    ...tags.map(([kind, key, value]) => `<meta ${kind}="${key}" content="${escapeHtml(value)}" />`),
    ...links,
  ].join('\n    ');
  return html
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(title)}</title>`)
    .replace(
      /(<meta\s+name="description"\s+content=")[^"]*"/,
      (_match, start: string) => `${start}${escapeHtml(description)}"`,
    )
    .replace('</head>', () => `    ${meta}\n  </head>`);
}

/**
 * The priority of the scripts of a page drawn before they run: its picture comes first, since
 * they draw nothing it waits for; on a phone's connection they would otherwise share it.
 */
const SCRIPTS_AFTER_PICTURE = ' fetchpriority="low"';

/** index.html with a page's first load in its places (first-load.ts). */
function withFirstLoad(html: string, { early, head, main }: FirstLoad): string {
  let page = html;
  // Once the viewport's size is set: a picture chosen by its width (imagesizes in vw) before it
  // would be chosen for a 980 px page on a phone, a rendition three times too wide. A page without
  // that tag (a test's stand-in) has it at the end of its <head>.
  if (early)
    page = page.replace(/<meta name="viewport"[^>]*>|<\/head>/, (tag) =>
      tag === '</head>' ? `  ${early}\n  </head>` : `${tag}\n    ${early}`,
    );
  if (head) page = page.replace('</head>', () => `    ${head}\n  </head>`);
  // After the head's own tags, so that its scripts are among those lowered.
  if (main) {
    page = page
      .replace('<main id="main"></main>', () => `<main id="main">${main}</main>`)
      .replaceAll('<script type="module" crossorigin', `<script type="module"${SCRIPTS_AFTER_PICTURE} crossorigin`)
      .replaceAll(
        '<link rel="modulepreload" crossorigin',
        `<link rel="modulepreload"${SCRIPTS_AFTER_PICTURE} crossorigin`,
      );
  }
  return page;
}

type ClientAppOptions = {
  distDir: string;
  siteName: string;
  lookUpPage?: PageLookup;
  publicUrl?: string;
  /** What a page's HTML carries for its first load, for this caller (first-load.ts). */
  firstLoad?: (pathname: string, search: URLSearchParams, session: Session | null) => FirstLoad;
};

/** A page as the server draws it: moved elsewhere (to a path), or its HTML (without nonces) and status. */
type BuiltPage =
  { kind: 'moved'; path: string } | { kind: 'page'; status: 200 | 404; html: NoncedPage; withAnswers: boolean };

/**
 * The pages visitors land on, as a visitor (signed out) sees them, by address: made once and sent
 * until a write changes what any public page shows (db/cache.ts), each time with a new nonce.
 * A few hundred addresses or 16 MB of HTML; the oldest goes first.
 */
const visitorPages = publicCache<BuiltPage>({
  maxEntries: 300,
  maxBytes: 16 * 1024 * 1024,
  sizeOf: (page) => (page.kind === 'page' ? page.html.size : page.path.length),
});

/**
 * The query parameters a page's HTML can depend on (browse's search, shared/first-requests.ts):
 * any other (a campaign's utm_*, a payment's return) makes the same page, kept once.
 */
const PAGE_QUERY = ['searchTerm', 'genre', 'charityEin', 'page'];

/** The address a visitor's page is kept under: its origin and path, and what its HTML reads of the query. */
function visitorPageKey(url: URL): string {
  const read = PAGE_QUERY.filter((name) => url.searchParams.has(name)).map(
    (name) => `${name}=${encodeURIComponent(url.searchParams.get(name)!)}`,
  );
  return `${url.origin}${url.pathname}${read.length ? `?${read.join('&')}` : ''}`;
}

export function clientAppRoutes({
  distDir,
  siteName,
  lookUpPage = () => ({ kind: 'plain' }),
  publicUrl,
  firstLoad,
}: ClientAppOptions) {
  const indexFile = path.join(distDir, 'index.html');
  let indexHtml: string | undefined;
  const readIndex = () => {
    indexHtml ??= fs
      .readFileSync(indexFile, 'utf8')
      .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(siteName)}</title>`)
      .replaceAll('content="Soundcause"', () => `content="${escapeHtml(siteName)}"`)
      // The header drawn before the app starts (client/index.html).
      .replace('aria-label="Soundcause home"', () => `aria-label="${escapeHtml(siteName)} home"`)
      .replace(
        '<span class="brand-name">Soundcause</span>',
        () => `<span class="brand-name">${escapeHtml(siteName)}</span>`,
      );
    return indexHtml;
  };

  let shell: NoncedPage | undefined;
  const shellPage = () => (shell ??= new NoncedPage(readIndex()));

  /**
   * A page's HTML with a new nonce on its inline styles, which the policy of this answer names
   * (security-headers.ts); the app hands the same nonce to the styles it adds (client/main.tsx).
   * A page made for every visitor alike goes out gzipped from its copy compressed once
   * (nonced-page.ts) to whoever takes gzip; a page made for one caller is compressed as it goes
   * (compression.ts).
   */
  const sendPage = (c: Context<AppEnv>, page: NoncedPage, status: 200 | 404, sameForEveryone: boolean) => {
    const nonce = newStyleNonce();
    c.set('styleNonce', nonce);
    if (!sameForEveryone || !acceptsGzip(requestHeader(c, 'accept-encoding'))) return c.html(page.text(nonce), status);
    return c.body(page.gzip(nonce), status, {
      'content-type': 'text/html; charset=UTF-8',
      'content-encoding': 'gzip',
      vary: 'Accept-Encoding',
    });
  };

  const app = new Hono<AppEnv>();
  if (!fs.existsSync(indexFile)) {
    app.get('*', (c) =>
      c.text('The client is not built yet. Run `npm run build` (or `npm start`, which builds it).', 503),
    );
    return app;
  }

  const manifestFile = path.join(distDir, 'manifest.webmanifest');
  app.get('/manifest.webmanifest', (c, next) => {
    // A build without the PWA plugin's manifest has none to serve: a 404 like any missing file.
    if (!fs.existsSync(manifestFile)) return next();
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<string, unknown>;
    c.header('cache-control', REVALIDATE);
    c.header('content-type', 'application/manifest+json');
    return c.body(JSON.stringify({ ...manifest, name: siteName, short_name: siteName }));
  });
  // The home page is a page like any other, not the static index.html the next handler would send.
  app.get('/', sessionMiddleware, (c) => servePage(c));
  // The app shell the service worker precaches and answers every navigation with, offline too:
  // with the site's name, and with a nonce for its inline styles, kept with the headers that name it.
  app.get('/index.html', (c) => {
    c.header('cache-control', REVALIDATE);
    return sendPage(c, shellPage(), 200, true);
  });
  const files = serveStatic<AppEnv>({
    root: distDir,
    // The .br and .gz copies made at build time (scripts/precompress.mjs), by Accept-Encoding.
    precompressed: true,
    onFound: (filePath, c) => {
      c.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? IMMUTABLE : REVALIDATE);
      // The embedded player's script, which a sandboxed frame (WordPress makes them so) fetches as
      // a module from an opaque origin, in CORS mode (issue 28). Public, immutable files.
      if (/[\\/]assets[\\/]embed-[^\\/]+\.js(?:\.br|\.gz)?$/.test(filePath))
        c.header('access-control-allow-origin', '*');
      // Whichever copy went out, a cache must ask again for a client that accepts another.
      if (/\.(?:js|mjs|css|html|svg|json|webmanifest|txt|xml)(?:\.br|\.gz)?$/.test(filePath)) {
        c.header('vary', 'Accept-Encoding');
      }
    },
  });
  // No page's address is a file's: a page skips the look for one (and its .br and .gz copies) on
  // the disk, a cost every visitor's request would pay (issue 24).
  app.use('*', (c, next) => (findPage(c.req.path) ? next() : files(c, next)));
  // Every other path is a page of the app: index.html, which the router draws. An address of no
  // page is still drawn (the app's "Page not found") but answers 404; an old address of a page
  // moves permanently to its own.
  /** The page at this address for this caller, with what its first load needs. */
  const buildPage = (c: Context<AppEnv>, url: URL, session: Session | null): BuiltPage => {
    const page = lookUpPage(c.req.path);
    if (page.kind === 'missing') return { kind: 'page', status: 404, html: shellPage(), withAnswers: false };
    if (page.kind === 'moved') return { kind: 'moved', path: page.path };
    const html =
      page.kind === 'card' ? withShareCard(readIndex(), page.card, publicUrl ?? url.origin, siteName) : readIndex();
    return {
      kind: 'page',
      status: 200,
      html: new NoncedPage(firstLoad ? withFirstLoad(html, firstLoad(c.req.path, url.searchParams, session)) : html),
      withAnswers: firstLoad !== undefined,
    };
  };

  /**
   * A visitor's page is kept (the host is part of its address: without PUBLIC_URL the share
   * card's links name it); a missing page is not, since any address is one, and it is the shell.
   */
  const visitorPage = (c: Context<AppEnv>, url: URL): BuiltPage => {
    let made: BuiltPage | undefined;
    const kept = visitorPages.get(c.get('deps').db, visitorPageKey(url), () => {
      made = buildPage(c, url, null);
      return made.kind === 'page' && made.status === 404 ? undefined : made;
    });
    return kept ?? made ?? buildPage(c, url, null);
  };

  const servePage = (c: Context<AppEnv>) => {
    const session = c.get('session');
    const url = new URL(c.req.url);
    const built = session ? buildPage(c, url, session) : visitorPage(c, url);
    // An old address moves with its query, whatever it is.
    if (built.kind === 'moved') return c.redirect(built.path + url.search, 301);
    // The answers inside are this caller's (their user, what they may manage): no shared cache.
    c.header('cache-control', built.withAnswers ? PAGE : REVALIDATE);
    return sendPage(c, built.html, built.status, session === null);
  };
  app.get('*', sessionMiddleware, servePage);
  return app;
}
