import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { DEFAULT_PROMO_PROJECT_ID, DEFAULT_SITE_NAME, DEFAULT_SITE_TIME_ZONE } from '../../shared/constants';
import type { Site } from '../../shared/answers/site';
import { apiPaths } from '../../shared/api-paths';
import { startFromFirstAnswer } from '../api/first-answers';
import { apiRequest } from '../api/http';

/** Shown until GET /api/site answers (and offline): the defaults the server also starts with. */
const defaultSite: Site = {
  siteName: DEFAULT_SITE_NAME,
  contactEmail: 'hello@soundcause.org',
  postalAddress: 'Soundcause, 2100 SE Division St, Portland, OR 97202',
  socialLinks: [],
  promoProjectId: DEFAULT_PROMO_PROJECT_ID,
  timeZone: DEFAULT_SITE_TIME_ZONE,
};

export const siteQueryOptions = queryOptions({
  queryKey: ['site'],
  queryFn: () => apiRequest(apiPaths.site, 'site'),
  ...startFromFirstAnswer<Site>(apiPaths.site, Infinity),
  placeholderData: defaultSite,
});

export function useSite(): Site {
  return useQuery(siteQueryOptions).data ?? defaultSite;
}

/** Page titles carry the suffix '| {product}' (spec part 2 section 9). */
export function usePageTitle(title: string | undefined) {
  const { siteName } = useSite();
  useEffect(() => {
    document.title = title ? `${title} | ${siteName}` : siteName;
  }, [title, siteName]);
}
