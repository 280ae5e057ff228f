import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { serverMessages } from '../shared/api';
import { accountRoutes } from './features/accounts/routes';
import { artistRoutes } from './features/artists/routes';
import { fundraiserRoutes } from './features/fundraisers/routes';
import { trackAudioRoutes } from './features/media/routes';
import { libraryRoutes } from './features/library/routes';
import { fundraiserShareCard } from './features/fundraisers/service';
import { artistShareCard } from './features/artists/service';
import { charityRoutes } from './features/charities/routes';
import { analyticsRoutes } from './features/analytics/routes';
import { mailingListRoutes } from './features/mailing-list/routes';
import { siteRoutes } from './features/site/routes';
import { mediaRoutes, uploadRoutes } from './features/uploads/routes';
import { handleError } from './http/app-errors';
import { clientAppRoutes, type ShareCardLookup } from './http/client-app';
import type { AppEnv, Deps } from './http/context';
import { notFound } from './errors';
import { requestContextMiddleware } from './http/request-context';
import { sameOriginMiddleware } from './http/same-origin';
import { sessionMiddleware } from './http/session';

/** JSON and form bodies; uploads stream to disk with their own caps (infra/storage/multipart). */
const jsonBodyLimit = bodyLimit({ maxSize: 1024 * 1024 });
const streamsItsBody = (path: string) =>
  path.startsWith('/api/uploads/') || /^\/api\/fundraisers\/[^/]+\/updatev1$/.test(path);

/** Pages whose shared links get a preview card: a fundraiser and an artist (issue 4). */
function shareCardFor(deps: Deps): ShareCardLookup {
  return (pathname) => {
    const match = pathname.match(/^\/(projects|artists)\/([^/]+)\/?$/);
    if (!match) return null;
    let slugOrId: string;
    try {
      slugOrId = decodeURIComponent(match[2]!);
    } catch {
      return null;
    }
    return match[1] === 'projects' ? fundraiserShareCard(deps, slugOrId) : artistShareCard(deps, slugOrId);
  };
}

/** Builds the whole HTTP app; tests import it and call it in-process or over a real socket. */
export function createApp(deps: Deps) {
  const api = new Hono<AppEnv>()
    // The session goes first so that every answer, even a refusal, can carry x-logged-out.
    .use(sessionMiddleware)
    .use(sameOriginMiddleware)
    .use((c, next) => (streamsItsBody(c.req.path) ? next() : jsonBodyLimit(c, next)))
    .route('/', siteRoutes)
    .route('/', accountRoutes)
    .route('/', mailingListRoutes)
    .route('/', analyticsRoutes)
    .route('/', artistRoutes)
    .route('/', fundraiserRoutes)
    .route('/', trackAudioRoutes)
    .route('/', libraryRoutes)
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
  app.route(
    '/',
    clientAppRoutes(deps.config.clientDistDir, deps.config.siteName, shareCardFor(deps), deps.config.publicUrl),
  );
  app.onError(handleError);
  return app;
}

export type AppType = ReturnType<typeof createApp>;
