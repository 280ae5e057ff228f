import { useId } from 'react';
import { formatBytes } from '../lib/format-bytes';
import { NetworkButton } from '../ui/needs-network';
import type { QualitySwitch } from './offline-db';
import { type OfflineQuality, qualityNames } from './offline-quality';
import { runSave, stopSwitching, switchAlbumQuality } from './save-album';

// A saved album changing quality (issue 27), on the album page: how far the new copy has come,
// that the old one plays meanwhile, and the ways to go on or to keep the old one.

const percent = (received: number, total: number) =>
  total > 0 ? Math.min(100, Math.floor((received / total) * 100)) : 0;

/** A change of quality under way: how far, and that the album plays as it is meanwhile. */
export function SwitchProgress({ from, switching }: { from: OfflineQuality; switching: QualitySwitch }) {
  const progressId = useId();
  const { to, state, problem, receivedBytes, totalBytes } = switching;
  const progress = percent(receivedBytes, totalBytes);
  const target = qualityNames[to];
  return (
    <>
      <p className="offline-status" id={progressId}>
        {state === 'failed'
          ? `Switching to ${target}: ${problem ?? 'stopped. Please try again.'}`
          : state === 'paused'
            ? `Switching to ${target} paused at ${progress}%: ${problem ?? 'waiting for the connection.'}`
            : `Switching to ${target}… ${progress}%`}
      </p>
      <progress
        className="offline-progress"
        max={100}
        value={progress}
        aria-labelledby={progressId}
        aria-valuetext={`${progress}% of ${formatBytes(totalBytes)}`}
      />
      <p className="offline-hint">
        The {qualityNames[from]} copy stays and plays until the {target} one is complete.
      </p>
    </>
  );
}

export function SwitchActions({
  projectId,
  from,
  switching: { to, state },
  online,
}: {
  projectId: number;
  from: OfflineQuality;
  switching: QualitySwitch;
  online: boolean;
}) {
  return (
    <>
      {state === 'failed' && (
        <NetworkButton
          action="change the quality"
          type="button"
          className="button button-secondary"
          onClick={() => void switchAlbumQuality(projectId, to)}
        >
          Try again
        </NetworkButton>
      )}
      {state === 'paused' && online && (
        <button type="button" className="button button-secondary" onClick={() => void runSave(projectId)}>
          Resume
        </button>
      )}
      <button type="button" className="button button-ghost" onClick={() => void stopSwitching(projectId)}>
        Keep {qualityNames[from]}
      </button>
    </>
  );
}
