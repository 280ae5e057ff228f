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

export function clientAppRoutes(distDir: string, siteName: string) {
  const indexFile = path.join(distDir, 'index.html');
  let indexHtml: string | undefined;
  const readIndex = () => {
    indexHtml ??= fs
      .readFileSync(indexFile, 'utf8')
      .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(siteName)}</title>`)
      .replaceAll('content="Soundcause"', `content="${escapeHtml(siteName)}"`);
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
    return c.html(readIndex());
  });
  return app;
}
