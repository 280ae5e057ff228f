import { Hono } from 'hono';
import { databaseProblem } from '../../db/health';
import type { AppEnv } from '../../http/context';
import { siteAnswer } from './service';

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
