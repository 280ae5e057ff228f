import { Hono } from 'hono';
import { readEmbedOptions } from '../../../shared/embed';
import { fundraiserMessages } from '../../../shared/fundraiser-messages';
import { embedEventSchema } from '../../../shared/schemas/sharing';
import { AppError } from '../../errors';
import type { AppEnv } from '../../http/context';
import { pathId } from '../../http/ids';
import { clientIpOf } from '../../http/request-context';
import { requireSession } from '../../http/session';
import { jsonBody } from '../../http/validation';
import { embedAssetsOf } from './embed-page';
import * as sharing from './service';

// Issue 28: the share counter, oEmbed, what the embedded player reports, and the player's page.

const fundraiserId = (raw: string) => pathId(raw, fundraiserMessages.notFound);

/** The site's address in links given to others: PUBLIC_URL, else the one the caller used. */
const siteOrigin = (publicUrl: string | undefined, requestUrl: string) => publicUrl ?? new URL(requestUrl).origin;

export const sharingRoutes = new Hono<AppEnv>()
  /** oEmbed (oembed.com): a pasted fundraiser or artist address → the player's iframe. */
  .get('/oembed', (c) => {
    const { config } = c.get('deps');
    const format = c.req.query('format') || 'json';
    if (format.toLowerCase() !== 'json') throw sharing.unsupportedFormat(format);
    const url = c.req.query('url');
    if (!url) throw new AppError('invalid', 'OTHER', 'The url parameter is required.');
    const answer = sharing.oEmbedOf(c.get('deps'), siteOrigin(config.publicUrl, c.req.url), {
      url,
      maxwidth: sharing.readPixels('maxwidth', c.req.query('maxwidth')),
      maxheight: sharing.readPixels('maxheight', c.req.query('maxheight')),
    });
    // Public facts other sites fetch, from their servers or their pages: any cache may keep them a
    // while, and any page may read them.
    return c.json(answer, 200, { 'cache-control': 'public, max-age=3600', 'access-control-allow-origin': '*' });
  })
  /** A completed share: counted once per visitor and fundraiser per hour; the count either way. */
  .post('/fundraisers/:id/shares', (c) =>
    c.json(
      sharing.recordShare(c.get('deps'), c.get('session'), fundraiserId(c.req.param('id')), {
        clientIp: clientIpOf(c),
        userAgent: c.req.header('user-agent') ?? '',
      }),
    ),
  )
  /** The embedded player was seen, or played a preview (sent by its sendBeacon, which reads no answer). */
  .post('/fundraisers/:id/embed-events', async (c) => {
    const id = fundraiserId(c.req.param('id'));
    // A draft or unknown fundraiser is refused before the request is read (issue 14).
    sharing.checkPublic(c.get('deps'), id);
    const { kind } = await jsonBody(c, embedEventSchema);
    sharing.countEmbedEvent(c.get('deps'), id, kind, clientIpOf(c));
    return c.body(null, 204);
  })
  /** How far the fundraiser travelled: its owner and admins. */
  .get('/fundraisers/:id/reach', (c) =>
    c.json(sharing.reachOf(c.get('deps'), requireSession(c), fundraiserId(c.req.param('id')))),
  );

/** What a frame shows for a fundraiser that is not (or no longer) public: a page, not JSON. */
const notAvailablePage = (siteName: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Not available | ${siteName.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)}</title><meta name="robots" content="noindex">
<link rel="icon" href="/favicon.svg" type="image/svg+xml"></head>
<body><main><p>This fundraiser is not available.</p></main></body></html>`;

/** GET /embed/fundraisers/{slug}: the only pages other sites may frame (security-headers.ts). */
export function embedPageRoutes(distDir: string) {
  const assets = embedAssetsOf(distDir);
  return new Hono<AppEnv>().get('/embed/fundraisers/:slug', (c) => {
    c.set('framable', true);
    const { config } = c.get('deps');
    const built = assets();
    if (!built)
      return c.text('The client is not built yet. Run `npm run build` (or `npm start`, which builds it).', 503);
    try {
      const html = sharing.embedPage(
        c.get('deps'),
        c.req.param('slug'),
        readEmbedOptions(new URL(c.req.url).searchParams),
        {
          origin: siteOrigin(config.publicUrl, c.req.url),
          assets: built,
        },
      );
      // The same for everyone; the amount raised may move, so not for long.
      return c.html(html, 200, { 'cache-control': 'public, max-age=60' });
    } catch (error) {
      if (!(error instanceof AppError) || error.kind !== 'not-found') throw error;
      return c.html(notAvailablePage(config.siteName), 404, { 'cache-control': 'no-cache' });
    }
  });
}
