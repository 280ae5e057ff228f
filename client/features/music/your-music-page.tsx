import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link, Navigate, useParams, useSearchParams } from 'react-router';
import { PAGE_SIZE } from '../../../shared/constants';
import { libraryListQueryOptions } from '../../api/library';
import { type LibraryTab } from '../../../shared/api-paths';
import { useUser } from '../../lib/session';
import { usePageTitle } from '../../lib/site';
import { Alert } from '../../ui/alert';
import { Pagination } from '../../ui/pagination';
import { pageFromUrl } from '../../../shared/api-paths';
import { Spinner } from '../../ui/spinner';
import { TabLinks } from '../../ui/tab-links';
import { albumPath, isMusicTab, type MusicTab, musicListPath } from '../../../shared/album-links';
import { AlbumTile, dateFormat } from './album-tile';
import { SavedAlbumList } from './saved-album-list';
import '../../ui/tile.css';
import './music.css';
import { LoadFailure } from '../../ui/offline-notice';

const tabs: { tab: MusicTab; label: string }[] = [
  { tab: 'past-donations', label: 'Past donations' },
  { tab: 'user', label: 'Your fundraisers' },
  { tab: 'saved', label: 'Saved on this device' },
];

/** Your music, /music/albums/{tab} (spec part 1 section 2): albums bought, and the user's own. */
export function YourMusicPage() {
  usePageTitle('Your music');
  const { tab } = useParams();
  const [searchParams] = useSearchParams();
  const user = useUser();
  if (!isMusicTab(tab)) return <Navigate to="/music/albums/past-donations" replace />;
  const label = tabs.find((item) => item.tab === tab)?.label ?? '';

  return (
    <div className="page stack">
      <h1>Your music</h1>
      <TabLinks
        label="Your music"
        tabs={tabs.map((item) => ({ to: `/music/albums/${item.tab}`, label: item.label }))}
        current={`/music/albums/${tab}`}
      />
      {/* Keyed on the tab: each list starts afresh rather than showing the other's last page. */}
      {tab === 'saved' ? (
        <SavedAlbumList label={label} />
      ) : tab === 'past-donations' && user && !user.isEmailVerified ? (
        <VerifyToSeeDonations email={user.email} />
      ) : (
        <AlbumList key={tab} tab={tab} label={label} page={pageFromUrl(searchParams.get('page'))} />
      )}
    </div>
  );
}

/**
 * Purchases belong to an email address (DESIGN.md section 3): until the account proves it holds
 * its address, there is nothing to list, and "no donations" would be untrue.
 */
function VerifyToSeeDonations({ email }: { email: string }) {
  return (
    <div className="empty-state stack">
      <p>Verify your email to see the albums you donated for.</p>
      <p className="field-hint">Albums bought with {email} appear here once you confirm the address is yours.</p>
      <p>
        <Link
          className="button button-primary"
          to="/user/verify-email"
          state={{ from: '/music/albums/past-donations' }}
        >
          Verify your email
        </Link>
      </p>
    </div>
  );
}

function AlbumList({ tab, label, page }: { tab: LibraryTab; label: string; page: number }) {
  const headingId = useId();
  // The previous page stays on screen while the next one loads.
  const albums = useQuery({ ...libraryListQueryOptions(tab, page), placeholderData: keepPreviousData });
  const totalPages = Math.ceil((albums.data?.totalCount ?? 0) / PAGE_SIZE);

  return (
    <section className="stack" aria-labelledby={headingId} aria-busy={albums.isFetching}>
      <h2 id={headingId} className="visually-hidden">
        {label}
      </h2>
      {albums.isPending ? (
        <Spinner label="Loading your music" />
      ) : albums.isError ? (
        <LoadFailure error={albums.error} retry={albums.refetch}>
          <Alert tone="error">Something went wrong! Unable to load your music. Please try again later.</Alert>
        </LoadFailure>
      ) : albums.data.results.length > 0 ? (
        <ul className="grid album-tiles" role="list">
          {albums.data.results.map((album) => (
            <li key={album.projectId}>
              <AlbumTile
                album={album}
                to={albumPath(album.projectSlug, { tab, page })}
                caption={
                  <>
                    {tab === 'past-donations' ? 'Donated ' : <span className="visually-hidden">Date </span>}
                    <time dateTime={album.date}>{dateFormat.format(new Date(album.date))}</time>
                  </>
                }
              />
            </li>
          ))}
        </ul>
      ) : albums.data.totalCount > 0 ? (
        // A page past the end (an old link, or albums removed since): the list itself is not empty.
        <div className="empty-state">
          <p>There are no albums on this page.</p>
          <Link className="button button-secondary" to={musicListPath(tab, 0)}>
            Go to the first page
          </Link>
        </div>
      ) : tab === 'past-donations' ? (
        <div className="empty-state">
          <p>You haven't donated to any fundraisers yet. Albums you get by donating appear here.</p>
          <Link className="button button-primary" to="/browse">
            Browse music
          </Link>
        </div>
      ) : (
        <div className="empty-state">
          <p>You don't have any fundraisers yet.</p>
          <Link className="button button-primary" to="/fundraisers/new">
            Start a fundraiser
          </Link>
        </div>
      )}
      <Pagination page={page} totalPages={totalPages} label={label} />
    </section>
  );
}
