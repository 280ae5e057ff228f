import { useId } from 'react';
import { formatBytes } from '../lib/format-bytes';
import { useStorageFigures } from './use-offline';
import './offline.css';

/**
 * What `owner`'s saved music takes on this device and what is left (issue 12), and whether the
 * browser agreed to keep it when space runs low (issue 27: navigator.storage.persisted(), asked
 * for at the first save), since without that a full disk can take the music without a word.
 */
export function StorageMeter({ owner }: { owner: string | undefined }) {
  const figures = useStorageFigures(owner);
  const labelId = useId();
  if (!figures) return null;
  const { savedBytes, usageBytes, quotaBytes, persisted } = figures;
  const left = quotaBytes !== undefined && usageBytes !== undefined ? Math.max(0, quotaBytes - usageBytes) : undefined;
  return (
    <div className="storage-meter">
      <p id={labelId} className="storage-meter-figures">
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
      {/* Nothing saved and nothing granted: there is nothing yet to keep or to lose. */}
      {persisted !== undefined && (persisted || savedBytes > 0) && (
        <p className={persisted ? 'storage-meter-kept' : 'storage-meter-at-risk'}>
          {persisted
            ? 'Kept safe: this browser will not clear saved music when space runs low.'
            : 'This browser may clear saved music when space runs low.'}
        </p>
      )}
    </div>
  );
}
