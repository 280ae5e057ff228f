import { useId, useRef, useState } from 'react';
import type { LibraryAlbumDetail, LibraryTrack } from '../../shared/answers/library';
import { useUser } from '../lib/session';
import { deviceOwner, type SavedTrack } from './offline-db';
import {
  removeFromDevice,
  removeTrackFromDevice,
  retrySave,
  runSave,
  saveForOffline,
  switchAlbumQuality,
} from './save-album';
import { useOnline } from '../lib/use-online';
import { NetworkButton, offlineReason } from '../ui/needs-network';
import { RemoveSavedDialog } from './remove-saved-dialog';
import { formatBytes } from '../lib/format-bytes';
import { isTrackSaved } from './saved-track';
import { useSavedAlbum } from './use-offline';
import { CheckIcon, DownloadIcon } from './offline-icons';
import { QualityMenu, useChosenQuality } from './quality-menu';
import { SwitchActions, SwitchProgress } from './quality-switch';
import {
  chooseQuality,
  chosenQuality,
  describeEstimate,
  estimatedBytes,
  otherQuality,
  qualityNames,
} from './offline-quality';
import './offline.css';

// The album page's offline controls (issue 12; DESIGN.md: the control is named "Save for offline"
// and says "Saved for offline" when done), in the quality chosen beside it (issue 27).

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
  const chosen = useChosenQuality();
  const progressId = useId();
  const [confirmingRemove, setConfirmingRemove] = useState(false);
  // Removed from the dialog, the album loses the button that opened it: the keyboard goes on to
  // the button that saves it again rather than to the page's body.
  const removedHere = useRef(false);
  const tracks = streamable(album);
  if (!user || tracks.length === 0 || saved === undefined || savedTracks === undefined) return null;

  const savedCount = tracks.filter((track) => isTrackSaved(savedTracks.get(track.id))).length;

  if (!saved) {
    return (
      <div className="offline-control">
        <div className="offline-save-row">
          <NetworkButton
            ref={(button) => {
              if (!button || !removedHere.current) return;
              removedHere.current = false;
              button.focus();
            }}
            action="save this album"
            type="button"
            className="button button-secondary"
            onClick={() => void saveForOffline(album, deviceOwner(user), { quality: chosen })}
          >
            <DownloadIcon /> Save for offline
          </NetworkButton>
          <QualityMenu
            quality={chosen}
            onChange={chooseQuality}
            sizes={{ standard: estimatedBytes(tracks, 'standard'), low: estimatedBytes(tracks, 'low') }}
          />
        </div>
      </div>
    );
  }

  // An album keeps one quality: "Save all tracks" saves the rest in it.
  const saveAll = () => void saveForOffline(album, deviceOwner(user));
  const quality = qualityNames[saved.quality];
  const progress = percent(saved.receivedBytes, saved.totalBytes);
  if (saved.state === 'saved') {
    const partial = savedCount < tracks.length;
    const onDevice = tracks.filter((track) => savedTracks.has(track.id));
    const other = otherQuality(saved.quality);
    return (
      <div className="offline-control">
        <p className="offline-status offline-status-done">
          <CheckIcon /> {partial ? `${savedCount} of ${tracks.length} tracks saved for offline` : 'Saved for offline'}
          <span className="muted">
            {' '}
            · {quality} · {formatBytes(saved.receivedBytes)}
          </span>
        </p>
        {saved.switching && <SwitchProgress from={saved.quality} switching={saved.switching} />}
        <div className="actions">
          {partial && !saved.switching && (
            <NetworkButton
              action="save the other tracks"
              type="button"
              className="button button-secondary"
              onClick={saveAll}
            >
              Save all tracks
            </NetworkButton>
          )}
          {saved.switching ? (
            <SwitchActions
              projectId={album.projectId}
              from={saved.quality}
              switching={saved.switching}
              online={online}
            />
          ) : (
            <NetworkButton
              action="change the quality"
              type="button"
              className="button button-secondary"
              onClick={() => void switchAlbumQuality(album.projectId, other)}
            >
              Switch to {describeEstimate(other, estimatedBytes(onDevice, other))}
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
          bytes={saved.receivedBytes + (saved.switching?.receivedBytes ?? 0)}
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
            : `Saving for offline… ${progress}% · ${quality}`}
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

/**
 * A track row's own save button: save, its progress, or remove. A track of an album partly saved
 * takes the album's quality (saveForOffline), else the one the album's quality menu shows.
 */
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
      onClick={() => void saveForOffline(album, deviceOwner(user), { trackIds: [track.id], quality: chosenQuality() })}
      disabled={!online}
      aria-label={`Save ${track.name} for offline`}
      title={online ? 'Save for offline' : offlineReason('save this track')}
    >
      <DownloadIcon />
    </button>
  );
}
