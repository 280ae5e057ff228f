import type { Site } from '../../../shared/answers/site';
import type { Deps } from '../../deps';
import { isPublicFundraiser } from '../fundraisers/service';

/** GET /api/site: what every page shows of the site itself. */
export function siteAnswer(deps: Pick<Deps, 'config' | 'db'>): Site {
  const { config } = deps;
  return {
    siteName: config.siteName,
    contactEmail: config.contactEmail,
    postalAddress: config.postalAddress,
    socialLinks: config.socialLinks,
    // Only a promo there is to show: pages need not ask for one that would answer 404.
    promoProjectId: isPublicFundraiser(deps.db, config.promoProjectId) ? config.promoProjectId : null,
    timeZone: config.timeZone,
  };
}
