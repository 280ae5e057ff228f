import { useQuery } from '@tanstack/react-query';
import { type UIEvent, useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { featuredFundraisersQueryOptions } from '../../api/fundraisers';
import { Alert } from '../../ui/alert';
import { pictureSizes } from '../../../shared/constants';
import { FundraiserTile } from '../../ui/fundraiser-tile';
import { Spinner } from '../../ui/spinner';
import { LoadFailure } from '../../ui/offline-notice';

/**
 * The home page's featured fundraisers (spec part 2 section 2): a carousel on desktop, a swipeable
 * row on phones. Both are one scroll-snapping list, so every tile stays in the tab order and the
 * browser scrolls a focused tile into view; the desktop buttons only page the row. It follows the
 * WAI-ARIA carousel pattern without auto-rotation (nothing moves unless asked): a region with the
 * roledescription 'carousel', slides labelled 'n of N', labelled previous and next buttons.
 */
export function FeaturedFundraisers() {
  const headingId = useId();
  const featured = useQuery(featuredFundraisersQueryOptions());
  const fundraisers = featured.data ?? [];
  const { atStart, atEnd, attachTrack, page, onScroll } = useCarousel();
  const isCarousel = fundraisers.length > 0;

  return (
    <section
      className="section stack"
      aria-labelledby={headingId}
      aria-roledescription={isCarousel ? 'carousel' : undefined}
    >
      <div className="carousel-head">
        <h2 id={headingId}>Featured fundraisers</h2>
        {isCarousel && (
          // Kept in the layout but invisible when everything already fits (nowhere to page to).
          <div className="carousel-controls desktop-only" hidden={atStart && atEnd}>
            <button
              type="button"
              className="carousel-button"
              aria-label="Previous fundraisers"
              disabled={atStart}
              onClick={() => page(-1)}
            >
              <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
                <path fill="currentColor" d="M15.4 7.4 14 6l-6 6 6 6 1.4-1.4-4.6-4.6z" />
              </svg>
            </button>
            <button
              type="button"
              className="carousel-button"
              aria-label="Next fundraisers"
              disabled={atEnd}
              onClick={() => page(1)}
            >
              <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
                <path fill="currentColor" d="M8.6 16.6 10 18l6-6-6-6-1.4 1.4 4.6 4.6z" />
              </svg>
            </button>
          </div>
        )}
      </div>
      {featured.isPending ? (
        <Spinner label="Loading featured fundraisers" />
      ) : featured.isError ? (
        <LoadFailure error={featured.error} retry={featured.refetch}>
          <Alert tone="error">Something went wrong!</Alert>
        </LoadFailure>
      ) : !isCarousel ? (
        <div className="empty-state">
          <p>No featured fundraisers yet. Check back soon, or start your own.</p>
          <Link className="button button-secondary" to="/fundraisers/new">
            Start a fundraiser
          </Link>
        </div>
      ) : (
        <ul ref={attachTrack} className="carousel-track fundraiser-tiles" role="list" onScroll={onScroll}>
          {fundraisers.map((fundraiser, index) => (
            <li
              key={fundraiser.id}
              className="carousel-slide"
              aria-roledescription="slide"
              aria-label={`${index + 1} of ${fundraisers.length}`}
            >
              <FundraiserTile
                fundraiser={fundraiser}
                headingLevel={3}
                sizes={pictureSizes.featuredTile}
                position={index}
              />
            </li>
          ))}
        </ul>
      )}
      <p className="center">
        <Link className="button button-primary" to="/browse/projects">
          Browse recent fundraisers
        </Link>
      </p>
    </section>
  );
}

type Edges = { atStart: boolean; atEnd: boolean };

/** Whether the row can scroll further either way (a pixel of slack for fractional widths). */
function readEdges(track: HTMLElement): Edges {
  return {
    atStart: track.scrollLeft <= 1,
    atEnd: track.scrollLeft + track.clientWidth >= track.scrollWidth - 1,
  };
}

/** The scrolling row's state: whether each button has somewhere to go, and paging by one view. */
function useCarousel() {
  const [edges, setEdges] = useState<Edges>({ atStart: true, atEnd: true });
  const [track, setTrack] = useState<HTMLUListElement | null>(null);

  // Measured when the row mounts and whenever it is resized (how many tiles fit changes with the
  // window), so a button is only enabled when there is more to see that way.
  useEffect(() => {
    if (!track) return;
    const observer = new ResizeObserver(() => setEdges(readEdges(track)));
    observer.observe(track);
    return () => observer.disconnect();
  }, [track]);

  function page(direction: -1 | 1) {
    if (!track) return;
    const reduceMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    track.scrollBy({ left: direction * track.clientWidth, behavior: reduceMotion ? 'auto' : 'smooth' });
  }

  return {
    ...edges,
    attachTrack: setTrack,
    page,
    onScroll: (event: UIEvent<HTMLUListElement>) => setEdges(readEdges(event.currentTarget)),
  };
}
