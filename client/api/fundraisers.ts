import { queryOptions } from '@tanstack/react-query';
import type { Fundraiser } from '../../shared/answers/fundraisers';
import type { Answer } from '../../shared/answers/registry';
import { apiPaths, type FundraiserSearch } from '../../shared/api-paths';
import { PAGE_SIZE } from '../../shared/constants';
import { startFromFirstAnswer } from './first-answers';
import { apiRequest, retryUnlessRefused } from './http';

/**
 * Query keys of every fundraiser query, in one place for the fundraisers feature, browse, home and
 * artist pages, so invalidating `all` after a save, publish or delete reaches every list.
 */
type FundraiserSearchResult = Answer<'fundraiserSearch'>;
type FeaturedCharities = Answer<'featuredCharities'>;

export const fundraiserKeys = {
  all: ['fundraisers'] as const,
  user: () => [...fundraiserKeys.all, 'user'] as const,
  featured: () => [...fundraiserKeys.all, 'featured'] as const,
  byArtist: (artistId: number) => [...fundraiserKeys.all, 'artist', artistId] as const,
  details: () => [...fundraiserKeys.all, 'detail'] as const,
  bySlugOrId: (slugOrId: string) => [...fundraiserKeys.details(), slugOrId] as const,
  transactions: (id: number, page: number) => [...fundraiserKeys.all, 'transactions', id, page] as const,
  reach: (id: number) => [...fundraiserKeys.all, 'reach', id] as const,
  search: (params: FundraiserSearch) => [...fundraiserKeys.all, 'search', params] as const,
};

/** GET /api/fundraisers/search, 20 to a page. */
export function fundraiserSearchQueryOptions(params: FundraiserSearch) {
  return queryOptions({
    queryKey: fundraiserKeys.search(params),
    queryFn: () => apiRequest(apiPaths.fundraiserSearch(params), 'fundraiserSearch'),
    ...startFromFirstAnswer<FundraiserSearchResult>(apiPaths.fundraiserSearch(params)),
  });
}

/** A page path's `{projectSlugOrId}`: digits are an id, anything else a slug. */
export function fundraiserQueryOptions(slugOrId: string) {
  return queryOptions({
    queryKey: fundraiserKeys.bySlugOrId(slugOrId),
    queryFn: () => apiRequest(apiPaths.fundraiser(slugOrId), 'fundraiser'),
    retry: retryUnlessRefused,
    ...startFromFirstAnswer<Fundraiser>(apiPaths.fundraiser(slugOrId)),
  });
}

export function featuredFundraisersQueryOptions() {
  return queryOptions({
    queryKey: fundraiserKeys.featured(),
    queryFn: () => apiRequest(apiPaths.featuredFundraisers, 'fundraiserList'),
    ...startFromFirstAnswer<Fundraiser[]>(apiPaths.featuredFundraisers),
  });
}

export function userFundraisersQueryOptions() {
  return queryOptions({
    queryKey: fundraiserKeys.user(),
    queryFn: () => apiRequest('/api/fundraisers/user', 'fundraiserList'),
  });
}

export function artistFundraisersQueryOptions(artistId: number) {
  return queryOptions({
    queryKey: fundraiserKeys.byArtist(artistId),
    queryFn: () => apiRequest(`/api/fundraisers/artist/${artistId}`, 'fundraiserList'),
  });
}

/** GET /api/fundraisers/{id}/transactions: the donor list, 20 to a page (owner and admins). */
export function fundraiserTransactionsQueryOptions(id: number, page: number) {
  const query = new URLSearchParams({ page: String(page), page_size: String(PAGE_SIZE) });
  return queryOptions({
    queryKey: fundraiserKeys.transactions(id, page),
    queryFn: () => apiRequest(`/api/fundraisers/${id}/transactions?${query}`, 'fundraiserTransactions'),
  });
}

/** GET /api/fundraisers/{id}/reach: its shares and what its embedded player brought (owner and admins). */
export function fundraiserReachQueryOptions(id: number) {
  return queryOptions({
    queryKey: fundraiserKeys.reach(id),
    queryFn: () => apiRequest(`/api/fundraisers/${id}/reach`, 'fundraiserReach'),
    retry: retryUnlessRefused,
  });
}

/**
 * POST /api/fundraisers/{id}/shares: one completed share (DESIGN.md wave 3, "shares"). The server
 * counts a visitor at most once an hour and answers the count either way.
 */
export function recordShare(id: number) {
  return apiRequest(`/api/fundraisers/${id}/shares`, 'shareCount', { method: 'POST' });
}

export const charityKeys = {
  all: ['charities'] as const,
  featured: () => [...charityKeys.all, 'featured'] as const,
  search: (query: string) => [...charityKeys.all, 'search', query] as const,
  byEin: (ein: string) => [...charityKeys.all, 'ein', ein] as const,
};

export function featuredCharitiesQueryOptions() {
  return queryOptions({
    queryKey: charityKeys.featured(),
    queryFn: () => apiRequest(apiPaths.featuredCharities, 'featuredCharities'),
    ...startFromFirstAnswer<FeaturedCharities>(apiPaths.featuredCharities, 5 * 60 * 1000),
  });
}

/**
 * GET /api/nonprofits/search/{query}: the charity directory by name or EIN. The caller debounces
 * the query (300 ms, spec part 2 section 7); a refusal (4xx) is not retried.
 */
export function nonprofitSearchQueryOptions(query: string) {
  return queryOptions({
    queryKey: charityKeys.search(query),
    queryFn: () => apiRequest(`/api/nonprofits/search/${encodeURIComponent(query)}`, 'nonprofitSearch'),
    retry: retryUnlessRefused,
    staleTime: 5 * 60 * 1000,
  });
}

/** GET /api/nonprofits/{ein}: a whole EIN, answered 404 'No charity found with EIN {ein}' when unknown. */
export function nonprofitQueryOptions(ein: string) {
  return queryOptions({
    queryKey: charityKeys.byEin(ein),
    queryFn: () => apiRequest(`/api/nonprofits/${encodeURIComponent(ein)}`, 'nonprofitDetail'),
    retry: retryUnlessRefused,
    staleTime: 5 * 60 * 1000,
  });
}
