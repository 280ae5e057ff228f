import { Link, useSearchParams } from 'react-router';
import { SEARCH_RESULT_CAP } from '../../shared/constants';
import './pagination.css';
import { formatCount } from '../../shared/format-count';

type PaginationProps = {
  /** Zero-based, as in the URL. */
  page: number;
  totalPages: number;
  /** Names the navigation landmark, e.g. the list's heading. */
  label: string;
  /**
   * The search matched more than SEARCH_RESULT_CAP and only that many can be paged through
   * (`totalCountCapped`): the last page says so, since it has no Next.
   */
  capped?: boolean;
};

/**
 * Previous and next through the `page` query parameter (zero-based, spec part 1 section 2),
 * keeping the other parameters; shown only when there is more than one page.
 */
export function Pagination({ page, totalPages, label, capped = false }: PaginationProps) {
  const [searchParams] = useSearchParams();
  if (totalPages <= 1) return null;
  const last = totalPages - 1;
  const linkTo = (target: number) => {
    const params = new URLSearchParams(searchParams);
    params.set('page', String(target));
    return { search: `?${params}` };
  };
  return (
    <>
      <nav className="pagination" aria-label={`${label}: pages`}>
        {page > 0 ? (
          <Link className="button button-secondary" to={linkTo(Math.min(page - 1, last))} rel="prev">
            Previous
          </Link>
        ) : (
          <span />
        )}
        <p className="pagination-status">
          Page {page + 1} of {totalPages}
        </p>
        {page < last ? (
          <Link className="button button-secondary" to={linkTo(page + 1)} rel="next">
            Next
          </Link>
        ) : (
          <span />
        )}
      </nav>
      {capped && page >= last && (
        <p className="pagination-note">
          Only the first {formatCount(SEARCH_RESULT_CAP)} results are shown. Add words to narrow the search.
        </p>
      )}
    </>
  );
}
