import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { serverMessages } from '../shared/api';
import { accountRoutes } from './features/accounts/routes';
import { artistRoutes } from './features/artists/routes';
import { fundraiserRoutes } from './features/fundraisers/routes';
import { trackAudioRoutes } from './features/media/routes';
import { libraryRoutes } from './features/library/routes';
import { findPage, forArtistsCard } from '../shared/routes';
import { fundraiserPage } from './features/fundraisers/service';
import { artistPage } from './features/artists/service';
import { charityRoutes } from './features/charities/routes';
import { disbursementRoutes } from './features/disbursements/routes';
import { donationRoutes } from './features/donations/routes';
import { givingRoutes } from './features/giving/routes';
import { journalRoutes } from './features/journal/routes';
import { analyticsRoutes } from './features/analytics/routes';
import { mailingListRoutes } from './features/mailing-list/routes';
import { metricsRoutes, siteRoutes } from './features/site/routes';
import { mediaRoutes, uploadRoutes } from './features/uploads/routes';
import { embedPageRoutes, sharingRoutes } from './features/sharing/routes';
import { insightRoutes } from './features/insight/routes';
import { answerHeadersOf } from './http/answer-headers';
import { handleError } from './http/app-errors';
import { clientAppRoutes, type PageLookup } from './http/client-app';
import { compressResponses } from './http/compression';
import { firstLoadFor } from './http/first-load';
import { firstAnswerer } from './first-answers';
import type { AppEnv } from './http/context';
import type { Deps } from './deps';
import { notFound } from './errors';
import { requestContextMiddleware } from './http/request-context';
import { RememberingRouter } from './http/remembering-router';
import { refuseCrossSiteChanges } from './http/same-origin';
import { readSession } from './http/session';

/** JSON and form bodies; uploads stream to disk with their own caps (infra/storage/multipart). */
const jsonBodyLimit = bodyLimit({ maxSize: 1024 * 1024 });
/**
 * GET and HEAD carry no body: bodyLimit would still build the whole web Request to find that out
 * (@hono/node-server makes it lazily), a tenth of a ranged audio request's CPU.
 */
const streamsItsBody = (path: string) =>
  path.startsWith('/api/uploads/') || /^\/api\/fundraisers\/[^/]+\/updatev1$/.test(path);

/**
 * The server's view of the app's pages (shared/routes.ts): an address of no page is a 404, and a
 * fundraiser's or an artist's page gets its preview card, or moves to the current address.
 */
function pageLookup(deps: Deps): PageLookup {
  return (pathname) => {
    const page = findPage(pathname);
    if (!page) return { kind: 'missing' };
    // The artist landing page: its title in the HTML, and a preview when an artist shares it.
    if (page.name === 'forArtists' || page.name === 'artistsJoin') {
      return { kind: 'card', card: { ...forArtistsCard, path: pathname, type: 'website' } };
    }
    // Only the fundraiser's and the artist's own pages have cards and move with a rename; the
    // donate pages find the fundraiser by any of its addresses themselves.
    if (page.name !== 'fundraiser' && page.name !== 'artist') return { kind: 'plain' };
    const slugOrId = page.params.projectSlugOrId ?? page.params.artistSlugOrId;
    if (slugOrId === undefined) return { kind: 'plain' };
    let decoded: string;
    try {
      decoded = decodeURIComponent(slugOrId);
    } catch {
      return { kind: 'missing' };
    }
    return page.name === 'fundraiser' ? fundraiserPage(deps, decoded) : artistPage(deps, decoded);
  };
}

/**
 * What every API request goes through before its route, in this order. One middleware of plain
 * steps, not one each: every layer of Hono's chain is an `await` of its own, which cost an API
 * request more than the steps themselves (issue 24).
 */
const beforeApiRoutes: MiddlewareHandler<AppEnv> = (c, next) => {
  // API answers are about the caller (their user, their donors, their library) unless a route
  // says otherwise, as the audio routes do: no cache, shared or the browser's, may keep them.
  // Given to the answer with the other collected headers (answer-headers.ts), not afterwards.
  answerHeadersOf(c).defaultCacheControl = 'private, no-store';
  // The session first, so that every answer, even a refusal, can carry x-logged-out.
  readSession(c);
  refuseCrossSiteChanges(c);
  // A GET or HEAD has no body to limit, and asking for it would build a whole fetch Request.
  const method = c.req.method;
  return method === 'GET' || method === 'HEAD' || streamsItsBody(c.req.path) ? next() : jsonBodyLimit(c, next);
};

/** Builds the whole HTTP app; tests import it and call it in-process or over a real socket. */
export function createApp(deps: Deps) {
  const api = new Hono<AppEnv>()
    .use(beforeApiRoutes)
    .route('/', siteRoutes)
    .route('/', accountRoutes)
    .route('/', mailingListRoutes)
    .route('/', analyticsRoutes)
    .route('/', artistRoutes)
    .route('/', fundraiserRoutes)
    .route('/', sharingRoutes)
    .route('/', insightRoutes)
    .route('/', trackAudioRoutes)
    .route('/', libraryRoutes)
    .route('/', donationRoutes)
    .route('/', givingRoutes)
    .route('/', disbursementRoutes)
    .route('/', journalRoutes)
    .route('/', charityRoutes)
    .route('/', uploadRoutes)
    .all('*', () => {
      throw notFound(serverMessages.notFound);
    });

  const app = new Hono<AppEnv>({ router: new RememberingRouter(handleError) });
  app.use(requestContextMiddleware(deps));
  app.use(compressResponses);
  app.route('/api', api);
  app.route('/', mediaRoutes(deps.media));
  app.route('/', metricsRoutes);
  // Before the app's pages, which answer every other address.
  app.route('/', embedPageRoutes(deps.config.clientDistDir));
  app.route(
    '/',
    clientAppRoutes({
      distDir: deps.config.clientDistDir,
      siteName: deps.config.siteName,
      lookUpPage: pageLookup(deps),
      publicUrl: deps.config.publicUrl,
      // A page's first answers, made by the services the API's routes call (first-answers.ts).
      firstLoad: firstLoadFor(deps.config.clientDistDir, firstAnswerer(deps)),
    }),
  );
  app.onError(handleError);
  return app;
}

export type AppType = ReturnType<typeof createApp>;
