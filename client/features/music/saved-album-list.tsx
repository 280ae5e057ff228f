import { useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { deviceOwner, removeSavedMusicOf, type SavedAlbum } from '../../offline/offline-db';
import { describeEstimate, estimatedBytes, otherQuality, qualityNames } from '../../offline/offline-quality';
import { RemoveSavedDialog } from '../../offline/remove-saved-dialog';
import { switchAlbumQuality } from '../../offline/save-album';
import { StorageMeter } from '../../offline/storage-meter';
import { useSavedAlbums, useSavedTrackIds } from '../../offline/use-offline';
import { formatBytes } from '../../lib/format-bytes';
import { useOnline } from '../../lib/use-online';
import { useUser } from '../../lib/session';
import { Spinner } from '../../ui/spinner';
import { albumPath, albumTitle } from '../../../shared/album-links';
import { AlbumTile, dateFormat } from './album-tile';

/**
 * Your music's "Saved on this device" tab (issue 12): the albums saved for offline listening, read
 * from the device alone, so it works with no network; with what they take and a way to free it,
 * and each one's quality, which can be changed (issue 27).
 */
export function SavedAlbumList({ label }: { label: string }) {
  const headingId = useId();
  const user = useUser();
  const owner = user ? deviceOwner(user) : undefined;
  const albums = useSavedAlbums(owner);
  const trackIds = useSavedTrackIds(owner);
  const online = useOnline();
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
                  caption={<SavedCaption album={album} trackIds={trackIds?.get(album.projectId)} canSwitch={online} />}
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
        bytes={
          albums?.reduce((sum, album) => sum + album.receivedBytes + (album.switching?.receivedBytes ?? 0), 0) ?? 0
        }
      >
        {albums?.length === 1
          ? "The album stays in Your music; it just won't play on this device without a connection."
          : "The albums stay in Your music; they just won't play on this device without a connection."}
      </RemoveSavedDialog>
    </section>
  );
}

const percent = (received: number, total: number) => (total > 0 ? Math.floor((received / total) * 100) : 0);

/**
 * The album's quality and size, then how its save goes; for a saved album, a button that saves it
 * in the other quality (the old copy plays until the new one is whole), with what that takes.
 */
function SavedCaption({
  album,
  trackIds,
  canSwitch,
}: {
  album: SavedAlbum;
  trackIds: Set<number> | undefined;
  canSwitch: boolean;
}) {
  const other = otherQuality(album.quality);
  const onDevice = album.detail.tracks.filter((track) => trackIds?.has(track.id));
  const state =
    album.state === 'failed' ? (
      <>Saving stopped</>
    ) : album.state !== 'saved' ? (
      <>
        {album.state === 'paused' ? 'Paused' : 'Saving…'} {percent(album.receivedBytes, album.totalBytes)}%
      </>
    ) : album.switching ? (
      <>
        Switching to {qualityNames[album.switching.to]}
        {album.switching.state === 'failed'
          ? ': stopped'
          : album.switching.state === 'paused'
            ? `: paused at ${percent(album.switching.receivedBytes, album.switching.totalBytes)}%`
            : `… ${percent(album.switching.receivedBytes, album.switching.totalBytes)}%`}
      </>
    ) : (
      <>
        Saved <time dateTime={new Date(album.savedAt).toISOString()}>{dateFormat.format(album.savedAt)}</time>
      </>
    );
  return (
    <>
      <span className="saved-album-quality">
        {qualityNames[album.quality]} · <span className="saved-album-size">{formatBytes(album.receivedBytes)}</span>
      </span>{' '}
      <span className="saved-album-state">{state}</span>
      {album.state === 'saved' && !album.switching && canSwitch && trackIds && (
        <span className="saved-album-switch">
          <button type="button" className="link-button" onClick={() => void switchAlbumQuality(album.projectId, other)}>
            Switch to {describeEstimate(other, estimatedBytes(onDevice, other))}
            {/* Which album, for a screen reader's list of buttons; the tile says it to the eye. */}
            <span className="visually-hidden"> ({albumTitle(album.detail)})</span>
          </button>
        </span>
      )}
    </>
  );
}
