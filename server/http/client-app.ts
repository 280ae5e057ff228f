import fs from 'node:fs';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import type { AppEnv } from './context';

// Serves the built client (dist/): hashed assets cached for a year, everything else revalidated,
// and index.html for every other path so the React router handles it.

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** What a shared link's preview shows (Open Graph and Twitter cards). */
export type ShareCard = { title: string; description: string; imagePath?: string; path: string };

/** The share card for a page path, or null for pages without one (e.g. a draft, or not found). */
export type ShareCardLookup = (pathname: string) => ShareCard | null;

/**
 * index.html with the page's title and its Open Graph / Twitter tags, for link previews. Every
 * replacement is a function: a replacement string would expand `$&`, `$'` or `$2` typed into a
 * name or description, and could close an attribute.
 */
function withShareCard(html: string, card: ShareCard, origin: string, siteName: string): string {
  const title = `${card.title} | ${siteName}`;
  const description = card.description.replace(/\s+/g, ' ').trim().slice(0, 300);
  const tags: [string, string, string][] = [
    ['property', 'og:type', 'music.album'],
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

export function clientAppRoutes(
  distDir: string,
  siteName: string,
  shareCard: ShareCardLookup = () => null,
  publicUrl?: string,
) {
  const indexFile = path.join(distDir, 'index.html');
  let indexHtml: string | undefined;
  const readIndex = () => {
    indexHtml ??= fs
      .readFileSync(indexFile, 'utf8')
      .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(siteName)}</title>`)
      .replaceAll('content="Soundcause"', () => `content="${escapeHtml(siteName)}"`);
    return indexHtml;
  };

  const app = new Hono<AppEnv>();
  if (!fs.existsSync(indexFile)) {
    app.get('*', (c) =>
      c.text('The client is not built yet. Run `npm run build` (or `npm start`, which builds it).', 503),
    );
    return app;
  }

  app.get('/manifest.webmanifest', (c) => {
    const manifest = JSON.parse(fs.readFileSync(path.join(distDir, 'manifest.webmanifest'), 'utf8')) as Record<
      string,
      unknown
    >;
    c.header('cache-control', REVALIDATE);
    c.header('content-type', 'application/manifest+json');
    return c.body(JSON.stringify({ ...manifest, name: siteName, short_name: siteName }));
  });
  app.use(
    '*',
    serveStatic({
      root: distDir,
      onFound: (filePath, c) => {
        c.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? IMMUTABLE : REVALIDATE);
      },
    }),
  );
  app.get('*', (c) => {
    c.header('cache-control', REVALIDATE);
    const card = shareCard(c.req.path);
    if (!card) return c.html(readIndex());
    return c.html(withShareCard(readIndex(), card, publicUrl ?? new URL(c.req.url).origin, siteName));
  });
  return app;
}
