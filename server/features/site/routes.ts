import { Hono } from 'hono';
import { databaseProblem } from '../../db/health';
import type { AppEnv } from '../../http/context';
import { metricsScrape, siteAnswer } from './service';

export const siteRoutes = new Hono<AppEnv>()
  // For systemd, Caddy and monitors (deploy/): 200 while the database answers, else 503. It says
  // nothing more: no version, no figures, nothing about anyone.
  .get('/health', (c) => {
    const { db, logger } = c.get('deps');
    const problem = databaseProblem(db);
    if (problem === null) return c.json({ ok: true });
    logger.error({ problem }, 'health check: the database does not answer');
    return c.json({ ok: false }, 503);
  })
  .get('/site', (c) => c.json(siteAnswer(c.get('deps'))));

/**
 * GET /metrics (at the site's root, beside /api): Prometheus's text format for a scraper holding
 * METRICS_TOKEN as a bearer token (DESIGN.md, metrics). Without METRICS_TOKEN there is no such page.
 */
export const metricsRoutes = new Hono<AppEnv>().get('/metrics', async (c) => {
  const scrape = await metricsScrape(c.get('deps'), c.req.header('authorization'));
  if (scrape.kind === 'off') return c.json({ code: 'OTHER', message: 'Not found.' }, 404);
  if (scrape.kind === 'refused') {
    return c.json({ code: 'OTHER', message: 'A valid METRICS_TOKEN is needed as a bearer token.' }, 401, {
      'www-authenticate': 'Bearer realm="metrics"',
    });
  }
  return c.body(scrape.text, 200, { 'content-type': scrape.contentType, 'cache-control': 'no-store' });
});
