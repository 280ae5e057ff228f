import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { serverMessages } from '../shared/api';
import { accountRoutes } from './features/accounts/routes';
import { artistRoutes } from './features/artists/routes';
import { charityRoutes } from './features/charities/routes';
import { analyticsRoutes } from './features/analytics/routes';
import { mailingListRoutes } from './features/mailing-list/routes';
import { siteRoutes } from './features/site/routes';
import { mediaRoutes, uploadRoutes } from './features/uploads/routes';
import { handleError } from './http/app-errors';
import { clientAppRoutes } from './http/client-app';
import type { AppEnv, Deps } from './http/context';
import { notFound } from './errors';
import { requestContextMiddleware } from './http/request-context';
import { sameOriginMiddleware } from './http/same-origin';
import { sessionMiddleware } from './http/session';

/** JSON and form bodies; uploads stream to disk with their own caps (features/uploads). */
const jsonBodyLimit = bodyLimit({ maxSize: 1024 * 1024 });

/** Builds the whole HTTP app; tests import it and call it in-process or over a real socket. */
export function createApp(deps: Deps) {
  const api = new Hono<AppEnv>()
    // The session goes first so that every answer, even a refusal, can carry x-logged-out.
    .use(sessionMiddleware)
    .use(sameOriginMiddleware)
    .use((c, next) => (c.req.path.startsWith('/api/uploads/') ? next() : jsonBodyLimit(c, next)))
    .route('/', siteRoutes)
    .route('/', accountRoutes)
    .route('/', mailingListRoutes)
    .route('/', analyticsRoutes)
    .route('/', artistRoutes)
    .route('/', charityRoutes)
    .route('/', uploadRoutes)
    .all('*', () => {
      throw notFound(serverMessages.notFound);
    });

  const app = new Hono<AppEnv>();
  app.use(async (c, next) => {
    c.set('deps', deps);
    await next();
  });
  app.use(requestContextMiddleware);
  app.use(async (c, next) => {
    await next();
    c.header('x-content-type-options', 'nosniff');
    c.header('referrer-policy', 'strict-origin-when-cross-origin');
    c.header('x-frame-options', 'DENY');
  });
  app.route('/api', api);
  app.route('/', mediaRoutes(deps.media));
  app.route('/', clientAppRoutes(deps.config.clientDistDir, deps.config.siteName));
  app.onError(handleError);
  return app;
}

export type AppType = ReturnType<typeof createApp>;
