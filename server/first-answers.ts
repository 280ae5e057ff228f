import { artistSearchParamsSchema } from '../shared/schemas/artists';
import { fundraiserSearchParamsSchema } from '../shared/schemas/fundraisers';
import { libraryPageParamsSchema } from '../shared/schemas/library';
import { fundraiserMessages } from '../shared/fundraiser-messages';
import type { FirstRequest } from '../shared/first-requests';
import { toPublicUser } from './features/accounts/service';
import * as artists from './features/artists/service';
import { featuredCharitiesAnswer } from './features/charities/service';
import { ledger } from './features/disbursements/service';
import * as donations from './features/donations/service';
import * as fundraisers from './features/fundraisers/service';
import * as library from './features/library/service';
import { siteAnswer } from './features/site/service';
import type { Deps, Session } from './deps';
import { AppError, FormError } from './errors';
import { pathId } from './http/ids';
import { parseWith } from './http/validation';

/**
 * A page's first answers (shared/first-requests.ts) made by the services the API's routes call,
 * with the same reading of the address (the routes' schemas and ids) and the same caller: no
 * request goes round through the app (issue 24). What the API would refuse (a 404, a private
 * page, a query it would not take) is left out, and the page asks for it and shows the refusal.
 */
export function firstAnswerer(deps: Deps) {
  const answer = (request: FirstRequest, session: Session | null): unknown => {
    const bySlugOrId = <T>(slugOrId: string, notFound: string, byId: (id: number) => T, bySlug: (slug: string) => T) =>
      /^\d+$/.test(slugOrId) ? byId(pathId(slugOrId, notFound)) : bySlug(slugOrId);
    switch (request.answer) {
      case 'site':
        return siteAnswer(deps);
      case 'user':
        return session ? toPublicUser(session.user) : undefined;
      case 'featuredFundraisers':
        return fundraisers.listFeatured(deps, session);
      case 'featuredCharities':
        return featuredCharitiesAnswer(deps);
      case 'paymentConfig':
        return donations.paymentConfig(deps);
      case 'ledger':
        return ledger(deps);
      case 'fundraiserSearch':
        return fundraisers.searchFundraisers(deps, session, parseWith(fundraiserSearchParamsSchema, request.query));
      case 'artistSearch':
        return artists.searchArtists(deps, parseWith(artistSearchParamsSchema, request.query));
      case 'fundraiser':
        return bySlugOrId(
          request.slugOrId,
          fundraiserMessages.notFound,
          (id) => fundraisers.getFundraiser(deps, session, id),
          (slug) => fundraisers.getFundraiserBySlug(deps, session, slug),
        );
      case 'artist':
        return bySlugOrId(
          request.slugOrId,
          artists.ARTIST_NOT_FOUND,
          (id) => artists.getArtist(deps, session, id),
          (slug) => artists.getArtistBySlug(deps, session, slug),
        );
      case 'libraryAlbum': {
        if (!session) return undefined;
        return bySlugOrId(
          request.slugOrId,
          library.ALBUM_NOT_FOUND,
          (id) => library.getAlbum(deps, session, { id }),
          (slug) => library.getAlbum(deps, session, { slug }),
        );
      }
      case 'libraryList': {
        if (!session) return undefined;
        const params = parseWith(libraryPageParamsSchema, request.query);
        return request.tab === 'user'
          ? library.listOwnAlbums(deps, session, params)
          : library.listPurchases(deps, session, params);
      }
    }
  };

  return (request: FirstRequest, session: Session | null): unknown => {
    try {
      return answer(request, session);
    } catch (error) {
      // A refusal the API would give: the page asks again and shows it. Anything else is a fault.
      if (error instanceof AppError || error instanceof FormError) return undefined;
      deps.logger.error({ err: error, path: request.path }, "a page's first answer failed");
      return undefined;
    }
  };
}

export type FirstAnswerer = ReturnType<typeof firstAnswerer>;
