import { useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { deviceOwner, removeSavedMusicOf, type SavedAlbum } from '../../offline/offline-db';
import { RemoveSavedDialog } from '../../offline/remove-saved-dialog';
import { StorageMeter } from '../../offline/save-for-offline';
import { useSavedAlbums } from '../../offline/use-offline';
import { useUser } from '../../lib/session';
import { Spinner } from '../../ui/spinner';
import { albumPath } from './album-links';
import { AlbumTile, dateFormat } from './album-tile';

/**
 * Your music's "Saved on this device" tab (issue 12): the albums saved for offline listening, read
 * from the device alone, so it works with no network; with what they take and a way to free it.
 */
export function SavedAlbumList({ label }: { label: string }) {
  const headingId = useId();
  const user = useUser();
  const owner = user ? deviceOwner(user) : undefined;
  const albums = useSavedAlbums(owner);
  const [confirming, setConfirming] = useState(false);
  // Everything removed, the button that asked is gone: the keyboard goes on to the empty list's link.
  const removedAll = useRef(false);

  return (
    <section className="stack" aria-labelledby={headingId}>
      <h2 id={headingId} className="visually-hidden">
        {label}
      </h2>
      <StorageMeter owner={owner} />
      {albums === undefined ? (
        <Spinner label="Loading saved music" />
      ) : albums.length === 0 ? (
        <div className="empty-state">
          <p>
            No music saved on this device yet. Open an album and choose Save for offline to listen without a connection.
          </p>
          <Link
            ref={(link) => {
              if (!link || !removedAll.current) return;
              removedAll.current = false;
              link.focus();
            }}
            className="button button-secondary"
            to="/music/albums/past-donations"
          >
            Go to your albums
          </Link>
        </div>
      ) : (
        <>
          <ul className="grid album-tiles" role="list">
            {albums.map((album) => (
              <li key={album.projectId}>
                <AlbumTile
                  album={album.detail}
                  to={albumPath(album.projectSlug, { tab: 'saved', page: 0 })}
                  caption={<SavedCaption album={album} />}
                />
              </li>
            ))}
          </ul>
          <p>
            <button type="button" className="button button-ghost" onClick={() => setConfirming(true)}>
              Remove all saved music
            </button>
          </p>
        </>
      )}
      <RemoveSavedDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        onRemove={() => {
          if (!owner) return;
          removedAll.current = true;
          void removeSavedMusicOf(owner);
        }}
        title="Remove all saved music?"
        confirmLabel="Remove all"
        count={albums?.length ?? 0}
        noun="album"
        bytes={albums?.reduce((sum, album) => sum + album.receivedBytes, 0) ?? 0}
      >
        {albums?.length === 1
          ? "The album stays in Your music; it just won't play on this device without a connection."
          : "The albums stay in Your music; they just won't play on this device without a connection."}
      </RemoveSavedDialog>
    </section>
  );
}

function SavedCaption({ album }: { album: SavedAlbum }) {
  if (album.state === 'saved') {
    return (
      <>
        Saved <time dateTime={new Date(album.savedAt).toISOString()}>{dateFormat.format(album.savedAt)}</time>
      </>
    );
  }
  const progress = album.totalBytes > 0 ? Math.floor((album.receivedBytes / album.totalBytes) * 100) : 0;
  if (album.state === 'failed') return <>Saving stopped</>;
  return <>{album.state === 'paused' ? `Paused at ${progress}%` : `Saving… ${progress}%`}</>;
}
