import { keepPreviousData, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useId } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import {
  type ArtistSearch,
  artistSearchFromUrl,
  type FundraiserSearch,
  fundraiserSearchFromUrl,
} from '../../../shared/api-paths';
import { limits, PAGE_SIZE } from '../../../shared/constants';
import { artistSearchQueryOptions } from '../../api/artists';
import { fundraiserSearchQueryOptions } from '../../api/fundraisers';
import { Alert } from '../../ui/alert';
import { ArtistTile } from '../../ui/artist-tile';
import { FormField } from '../../ui/form-field';
import { FundraiserTile } from '../../ui/fundraiser-tile';
import { FUNDRAISER_SEARCH_FIELDS, FundraiserSearchFields } from '../../ui/fundraiser-search-fields';
import { SearchForm } from '../../ui/search-form';
import { Pagination } from '../../ui/pagination';
import { Spinner } from '../../ui/spinner';
import { TabLinks } from '../../ui/tab-links';
import { usePageTitle } from '../../lib/site';
import './browse.css';
import { LoadFailure } from '../../ui/offline-notice';
import { formatCount } from '../../../shared/format-count';

type Tab = 'projects' | 'artists';

const tabs: { tab: Tab; label: string }[] = [
  { tab: 'projects', label: 'Search fundraisers' },
  { tab: 'artists', label: 'Search artists' },
];

export function BrowsePage() {
  usePageTitle('Browse artists & fundraisers');
  const params = useParams();
  const tab: Tab = params.tab === 'artists' ? 'artists' : 'projects';

  return (
    <div className="page stack">
      <h1>Browse artists &amp; fundraisers</h1>

      <div className="desktop-only">
        <div className="card browse-banner">
          <p className="browse-banner-text">Promote your music, support your charity</p>
          <Link className="button button-primary" to="/fundraisers/new">
            Start a fundraiser
          </Link>
        </div>
      </div>

      <TabLinks
        label="Browse"
        tabs={tabs.map((item) => ({ to: `/browse/${item.tab}`, label: item.label }))}
        current={`/browse/${tab}`}
      />

      {tab === 'projects' ? <FundraiserSearch /> : <ArtistSearch />}
    </div>
  );
}

function FundraiserSearch() {
  const [searchParams, setSearchParams] = useSearchParams();
  const search = fundraiserSearchFromUrl(searchParams);
  const hasFilter = search.searchTerm !== '' || search.genre !== '' || search.charityEin !== '';

  return (
    <>
      {/* Keyed on the query so the fields follow the URL on back and forward navigation. */}
      <SearchForm
        key={searchParams.toString()}
        className="form browse-search"
        label="Search fundraisers"
        fields={FUNDRAISER_SEARCH_FIELDS}
        onSearch={setSearchParams}
      >
        <FundraiserSearchFields values={search} />
      </SearchForm>

      <FundraiserResults search={search} hasFilter={hasFilter} />
    </>
  );
}

function ArtistSearch() {
  const [searchParams, setSearchParams] = useSearchParams();
  const search = artistSearchFromUrl(searchParams);
  const hasFilter = search.searchTerm !== '';

  return (
    <>
      <SearchForm
        key={searchParams.toString()}
        className="form browse-search"
        label="Search artists"
        fields={['searchTerm']}
        onSearch={setSearchParams}
      >
        <div className="form-row">
          <FormField
            label="Search term"
            name="searchTerm"
            type="search"
            maxLength={limits.searchTerm}
            defaultValue={search.searchTerm}
          />
        </div>
      </SearchForm>

      <ArtistResults search={search} hasFilter={hasFilter} />
    </>
  );
}

function ArtistResults({ search, hasFilter }: { search: ArtistSearch; hasFilter: boolean }) {
  // The previous page stays on screen while the next one loads.
  const results = useQuery({ ...artistSearchQueryOptions(search), placeholderData: keepPreviousData });
  const showCount = hasFilter && results.data && !results.isPlaceholderData;
  return (
    <ResultsSection
      heading={hasFilter ? 'Search results' : 'Recent artists'}
      count={showCount && <span className="browse-count">{countText(results.data, 'artist', 'artists')}</span>}
      page={search.page}
      results={results}
      loadingLabel="Loading artists"
      listClassName="artist-tiles"
      renderTile={(artist, index) => <ArtistTile artist={artist} headingLevel={3} position={index} />}
    />
  );
}

type SearchResult<T> = { results: T[]; totalCount: number; totalCountCapped?: boolean };

/**
 * 'N fundraisers' or 'N artists' after the results heading; '10,000+ fundraisers' when the
 * server stopped counting at its cap (`totalCountCapped`, issue 13).
 */
function countText(result: SearchResult<unknown>, one: string, many: string): string {
  const count = result.totalCount;
  return `${formatCount(count)}${result.totalCountCapped ? '+' : ''} ${count === 1 ? one : many}`;
}

function FundraiserResults({ search, hasFilter }: { search: FundraiserSearch; hasFilter: boolean }) {
  // The previous page stays on screen while the next one loads.
  const results = useQuery({ ...fundraiserSearchQueryOptions(search), placeholderData: keepPreviousData });
  const showCount = hasFilter && results.data && !results.isPlaceholderData;
  return (
    <ResultsSection
      heading={hasFilter ? 'Search results' : 'Recent fundraisers'}
      count={showCount && <span className="browse-count">{countText(results.data, 'fundraiser', 'fundraisers')}</span>}
      page={search.page}
      results={results}
      loadingLabel="Loading fundraisers"
      listClassName="fundraiser-tiles"
      renderTile={(fundraiser, index) => <FundraiserTile fundraiser={fundraiser} headingLevel={3} position={index} />}
    />
  );
}

type ResultsSectionProps<T extends { id: number }> = {
  heading: string;
  /** Shown after the heading, inside it. */
  count?: ReactNode;
  page: number;
  results: UseQueryResult<SearchResult<T>>;
  loadingLabel: string;
  listClassName: string;
  renderTile: (item: T, index: number) => ReactNode;
};

/** One page of search results as tiles, with the spec's empty and error texts and the pagination. */
function ResultsSection<T extends { id: number }>({
  heading,
  count,
  page,
  results,
  loadingLabel,
  listClassName,
  renderTile,
}: ResultsSectionProps<T>) {
  const headingId = useId();
  return (
    <section className="section stack" aria-labelledby={headingId} aria-busy={results.isFetching}>
      <h2 id={headingId}>
        {heading}
        {count && <> {count}</>}
      </h2>
      {results.isPending ? (
        <Spinner label={loadingLabel} />
      ) : results.isError ? (
        <LoadFailure error={results.error} retry={results.refetch}>
          <Alert tone="error">something went wrong!</Alert>
        </LoadFailure>
      ) : results.data.results.length === 0 ? (
        // The spec's one empty text (part 1 section 2), with or without a filter.
        <p className="empty-state">No results found! Please try a different query.</p>
      ) : (
        <ul className={`grid ${listClassName}`} role="list">
          {results.data.results.map((item, index) => (
            <li key={item.id}>{renderTile(item, index)}</li>
          ))}
        </ul>
      )}
      {results.data && (
        <Pagination
          page={page}
          totalPages={Math.ceil(results.data.totalCount / PAGE_SIZE)}
          label={heading}
          capped={results.data.totalCountCapped}
        />
      )}
    </section>
  );
}
