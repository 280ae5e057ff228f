import { type Context, Hono } from 'hono';
import { readEmbedOptions } from '../../../shared/embed';
import { fundraiserMessages } from '../../../shared/fundraiser-messages';
import { embedEventSchema, oEmbedQuerySchema } from '../../../shared/schemas/sharing';
import { escapeHtml } from '../../../shared/html';
import { AppError } from '../../errors';
import { siteUrlForEmails } from '../../http/site-url';
import type { AppEnv } from '../../http/context';
import { pathId } from '../../http/ids';
import { clientIpOf } from '../../http/request-context';
import { requireSession } from '../../http/session';
import { parseWith } from '../../http/validation';
import { embedAssetsOf } from './embed-page';
import * as sharing from './service';

// Issue 28: the share counter, oEmbed, what the embedded player reports, and the player's page.

const fundraiserId = (raw: string) => pathId(raw, fundraiserMessages.notFound);

/**
 * The site's address in what others keep (oEmbed's answer, the player's canonical link): PUBLIC_URL
 * as a URL's origin (however it was written), else this machine's, as in emails: never a Host
 * header a caller made up, which a cache in front could keep and hand to others.
 */
const siteOrigin = (c: Context<AppEnv>) => new URL(siteUrlForEmails(c)).origin;

export const sharingRoutes = new Hono<AppEnv>()
  /** oEmbed (oembed.com): a pasted fundraiser or artist address → the player's iframe. */
  .get('/oembed', (c) => {
    const format = c.req.query('format') || 'json';
    if (format.toLowerCase() !== 'json') throw sharing.unsupportedFormat(format);
    const query = parseWith(oEmbedQuerySchema, c.req.query());
    const answer = sharing.oEmbedOf(c.get('deps'), siteOrigin(c), query);
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
  .post('/fundraisers/:id/embed-events', (c) => {
    const id = fundraiserId(c.req.param('id'));
    // A draft or unknown fundraiser is refused before the request is read (issue 14).
    sharing.checkPublic(c.get('deps'), id);
    // Any page may send it, a sandboxed frame too (whose origin is "null"): it carries no cookie
    // and changes nothing but a count (same-origin.ts). What happened is in the address, with no
    // body, so that from another origin it is a simple request, sent without asking first (CORS).
    const { kind } = parseWith(embedEventSchema, c.req.query());
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
<title>Not available | ${escapeHtml(siteName)}</title><meta name="robots" content="noindex">
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
          origin: siteOrigin(c),
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
