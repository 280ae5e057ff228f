import fs from 'node:fs';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { type Context, Hono } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { SIGNED_IN_HINT_COOKIE } from '../../shared/constants';
import type { PageInfo, ShareCard } from '../deps';
import type { AppEnv } from './context';
import type { FirstLoad } from './first-load';
import { newStyleNonce } from './security-headers';
import { SESSION_COOKIE } from './session';

// Serves the built client (dist/): hashed assets cached for a year, everything else revalidated,
// and index.html for every other path so the React router handles it.

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
const PAGE = 'private, no-cache';

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

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
    ['name', 'twitter:card', card.imagePath ? 'summary_large_image' : 'summary'],
    ['name', 'twitter:title', card.title],
    ['name', 'twitter:description', description],
  ];
  if (card.imagePath) {
    tags.push(
      ['property', 'og:image', `${origin}${card.imagePath}`],
      ['name', 'twitter:image', `${origin}${card.imagePath}`],
    );
  }
  const meta = tags
    .map(([kind, key, value]) => `<meta ${kind}="${key}" content="${escapeHtml(value)}" />`)
    .join('\n    ');
  return html
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(title)}</title>`)
    .replace(
      /(<meta\s+name="description"\s+content=")[^"]*"/,
      (_match, start: string) => `${start}${escapeHtml(description)}"`,
    )
    .replace('</head>', () => `    ${meta}\n  </head>`);
}

type ClientAppOptions = {
  distDir: string;
  siteName: string;
  lookUpPage?: PageLookup;
  publicUrl?: string;
  /** What a page's HTML carries for its first load (first-load.ts). */
  firstLoad?: (c: Context<AppEnv>) => Promise<FirstLoad>;
};

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

  /**
   * The page's HTML with a new nonce on its inline styles, which the policy of this answer names
   * (security-headers.ts); the app hands the same nonce to the styles it adds (client/main.tsx).
   */
  const withStyleNonce = (c: Context<AppEnv>, html: string) => {
    const nonce = newStyleNonce();
    c.set('styleNonce', nonce);
    return html.replaceAll('<style>', () => `<style nonce="${nonce}">`);
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
  app.get('/', (c) => servePage(c));
  // The app shell the service worker precaches and answers every navigation with, offline too:
  // with the site's name, and with a nonce for its inline styles, kept with the headers that name it.
  app.get('/index.html', (c) => {
    c.header('cache-control', REVALIDATE);
    return c.html(withStyleNonce(c, readIndex()));
  });
  app.use(
    '*',
    serveStatic({
      root: distDir,
      // The .br and .gz copies made at build time (scripts/precompress.mjs), by Accept-Encoding.
      precompressed: true,
      onFound: (filePath, c) => {
        c.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? IMMUTABLE : REVALIDATE);
        // Whichever copy went out, a cache must ask again for a client that accepts another.
        if (/\.(?:js|mjs|css|html|svg|json|webmanifest|txt|xml)(?:\.br|\.gz)?$/.test(filePath)) {
          c.header('vary', 'Accept-Encoding');
        }
      },
    }),
  );
  // Every other path is a page of the app: index.html, which the router draws. An address of no
  // page is still drawn (the app's "Page not found") but answers 404; an old address of a page
  // moves permanently to its own.
  /** A page of the app: its HTML with what its first load needs, for this caller only. */
  const pageHtml = async (c: Context<AppEnv>, html: string) => {
    html = withStyleNonce(c, html);
    const extra = firstLoad ? await firstLoad(c) : undefined;
    if (!extra) return c.html(html);
    for (const cookie of extra.setCookies) c.header('set-cookie', cookie, { append: true });
    // The answers inside are this caller's (their user, what they may manage): no shared cache.
    c.header('cache-control', PAGE);
    return c.html(extra.head ? html.replace('</head>', () => `    ${extra.head}\n  </head>`) : html);
  };

  const servePage = async (c: Context<AppEnv>) => {
    c.header('cache-control', REVALIDATE);
    // Sessions started before the signed-in hint existed get it on their next page load.
    if (getCookie(c, SESSION_COOKIE) !== undefined && getCookie(c, SIGNED_IN_HINT_COOKIE) === undefined) {
      setCookie(c, SIGNED_IN_HINT_COOKIE, '1', { path: '/', sameSite: 'Lax', maxAge: 24 * 60 * 60 });
    }
    const page = lookUpPage(c.req.path);
    switch (page.kind) {
      case 'missing':
        return c.html(withStyleNonce(c, readIndex()), 404);
      case 'moved':
        return c.redirect(page.path + new URL(c.req.url).search, 301);
      case 'card':
        return pageHtml(c, withShareCard(readIndex(), page.card, publicUrl ?? new URL(c.req.url).origin, siteName));
      case 'plain':
        return pageHtml(c, readIndex());
    }
  };
  app.get('*', servePage);
  return app;
}
