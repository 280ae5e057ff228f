import { useId, useRef, useState } from 'react';
import type { LibraryAlbumDetail, LibraryTrack } from '../../shared/answers/library';
import { useUser } from '../lib/session';
import { deviceOwner, type SavedTrack } from './offline-db';
import { removeFromDevice, removeTrackFromDevice, retrySave, runSave, saveForOffline } from './save-album';
import { useOnline } from '../lib/use-online';
import { NetworkButton, offlineReason } from '../ui/needs-network';
import { RemoveSavedDialog } from './remove-saved-dialog';
import { formatBytes } from '../lib/format-bytes';
import { isTrackSaved } from './saved-track';
import { useSavedAlbum, useStorageFigures } from './use-offline';
import './offline.css';

// The album page's offline controls (issue 12; DESIGN.md: the control is named "Save for offline"
// and says "Saved for offline" when done).

const percent = (received: number, total: number) =>
  total > 0 ? Math.min(100, Math.floor((received / total) * 100)) : 0;

/** The tracks of the album that can be saved: those with a stream. */
const streamable = (album: LibraryAlbumDetail) => album.tracks.filter((track) => track.src);

export function SaveAlbumControl({
  album,
  savedTracks,
}: {
  album: LibraryAlbumDetail;
  savedTracks: Map<number, SavedTrack> | undefined;
}) {
  const user = useUser();
  const online = useOnline();
  const saved = useSavedAlbum(album.projectId);
  const progressId = useId();
  const [confirmingRemove, setConfirmingRemove] = useState(false);
  // Removed from the dialog, the album loses the button that opened it: the keyboard goes on to
  // the button that saves it again rather than to the page's body.
  const removedHere = useRef(false);
  const tracks = streamable(album);
  if (!user || tracks.length === 0 || saved === undefined || savedTracks === undefined) return null;

  const savedCount = tracks.filter((track) => isTrackSaved(savedTracks.get(track.id))).length;
  const saveAll = () => void saveForOffline(album, deviceOwner(user));

  if (!saved) {
    return (
      <div className="offline-control">
        <NetworkButton
          ref={(button) => {
            if (!button || !removedHere.current) return;
            removedHere.current = false;
            button.focus();
          }}
          action="save this album"
          type="button"
          className="button button-secondary"
          onClick={saveAll}
        >
          <DownloadIcon /> Save for offline
        </NetworkButton>
      </div>
    );
  }

  const progress = percent(saved.receivedBytes, saved.totalBytes);
  if (saved.state === 'saved') {
    const partial = savedCount < tracks.length;
    return (
      <div className="offline-control">
        <p className="offline-status offline-status-done">
          <CheckIcon /> {partial ? `${savedCount} of ${tracks.length} tracks saved for offline` : 'Saved for offline'}
          <span className="muted"> · {formatBytes(saved.receivedBytes)}</span>
        </p>
        <div className="actions">
          {partial && (
            <NetworkButton
              action="save the other tracks"
              type="button"
              className="button button-secondary"
              onClick={saveAll}
            >
              Save all tracks
            </NetworkButton>
          )}
          <button type="button" className="button button-ghost" onClick={() => setConfirmingRemove(true)}>
            Remove from this device
          </button>
        </div>
        <RemoveSavedDialog
          open={confirmingRemove}
          onClose={() => setConfirmingRemove(false)}
          onRemove={() => {
            removedHere.current = true;
            void removeFromDevice(album.projectId);
          }}
          title={`Remove “${album.projectName}” from this device?`}
          confirmLabel="Remove"
          count={savedCount}
          noun="track"
          bytes={saved.receivedBytes}
        >
          The album stays in Your music: stream it, or save it again, whenever you’re online.
        </RemoveSavedDialog>
      </div>
    );
  }

  return (
    <div className="offline-control">
      <p className="offline-status" id={progressId}>
        {saved.state === 'failed'
          ? (saved.problem ?? 'Saving stopped.')
          : saved.state === 'paused'
            ? `Paused at ${progress}%: ${saved.problem ?? 'waiting for the connection.'}`
            : `Saving for offline… ${progress}%`}
      </p>
      <progress
        className="offline-progress"
        max={100}
        value={progress}
        aria-labelledby={progressId}
        aria-valuetext={`${progress}% of ${formatBytes(saved.totalBytes)}`}
      />
      <div className="actions">
        {saved.state === 'failed' && (
          <NetworkButton
            action="save this album"
            type="button"
            className="button button-secondary"
            onClick={() => void retrySave(album.projectId)}
          >
            Try again
          </NetworkButton>
        )}
        {saved.state === 'paused' && online && (
          <button type="button" className="button button-secondary" onClick={() => void runSave(album.projectId)}>
            Resume
          </button>
        )}
        <button type="button" className="button button-ghost" onClick={() => void removeFromDevice(album.projectId)}>
          {saved.state === 'failed' ? 'Remove' : 'Cancel'}
        </button>
      </div>
    </div>
  );
}

/** A track row's own save button: save, its progress, or remove. */
export function TrackSaveButton({
  album,
  track,
  saved,
}: {
  album: LibraryAlbumDetail;
  track: LibraryTrack;
  saved: SavedTrack | undefined;
}) {
  const user = useUser();
  const online = useOnline();
  if (!user || !track.src) return null;
  if (isTrackSaved(saved)) {
    return (
      <button
        type="button"
        className="offline-track-button is-saved"
        onClick={() => void removeTrackFromDevice(album.projectId, track.id)}
        aria-label={`${track.name}: saved for offline. Remove from this device`}
        title="Saved for offline (select to remove)"
      >
        <CheckIcon />
      </button>
    );
  }
  if (saved) {
    const progress = percent(saved.received, saved.size);
    return (
      <span className="offline-track-progress" role="img" aria-label={`${track.name}: saving, ${progress}%`}>
        {progress}%
      </span>
    );
  }
  return (
    <button
      type="button"
      className="offline-track-button"
      onClick={() => void saveForOffline(album, deviceOwner(user), [track.id])}
      disabled={!online}
      aria-label={`Save ${track.name} for offline`}
      title={online ? 'Save for offline' : offlineReason('save this track')}
    >
      <DownloadIcon />
    </button>
  );
}

/** What `owner`'s saved music takes on this device and what is left. */
export function StorageMeter({ owner }: { owner: string | undefined }) {
  const figures = useStorageFigures(owner);
  const labelId = useId();
  if (!figures) return null;
  const { savedBytes, usageBytes, quotaBytes } = figures;
  const left = quotaBytes !== undefined && usageBytes !== undefined ? Math.max(0, quotaBytes - usageBytes) : undefined;
  return (
    <div className="storage-meter">
      <p id={labelId}>
        Saved music uses <strong>{formatBytes(savedBytes)}</strong>
        {left !== undefined && <> · {formatBytes(left)} left on this device</>}
      </p>
      {quotaBytes !== undefined && usageBytes !== undefined && quotaBytes > 0 && (
        <meter
          className="storage-meter-bar"
          min={0}
          max={quotaBytes}
          value={usageBytes}
          aria-labelledby={labelId}
          aria-valuetext={`${formatBytes(usageBytes)} of ${formatBytes(quotaBytes)} used`}
        />
      )}
    </div>
  );
}

function DownloadIcon() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path fill="currentColor" d="M11 4h2v8.2l3.3-3.3 1.4 1.4-5.7 5.7-5.7-5.7 1.4-1.4 3.3 3.3zM5 18h14v2H5z" />
    </svg>
  );
}

function CheckIcon() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path fill="currentColor" d="m9.5 16.2-4.2-4.2-1.4 1.4 5.6 5.6 11-11-1.4-1.4z" />
    </svg>
  );
}
