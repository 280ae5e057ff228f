import { useId } from 'react';
import type { DownloadTarget } from './download-formats-api';
import type { DownloadPreparation } from './download-preparation';
import { downloadLinkText, statusText } from './download-text';
import { NetworkButton, NetworkLink } from './needs-network';
import './download.css';

/**
 * How a chosen download is coming along, under the control that chose it: "Preparing FLAC · 4 of
 * 10 tracks" with its bar, then the file's link (in case the browser held back the download that
 * started by itself), or the track that failed with Try again. The line is a polite live region,
 * there from the start so that its first words are announced.
 */
export function DownloadStatus({
  target,
  download,
  compact = false,
}: {
  target: Pick<DownloadTarget, 'kind' | 'name'>;
  download: DownloadPreparation;
  /** In a track's row: smaller words, a thinner bar. */
  compact?: boolean;
}) {
  const textId = useId();
  const { view } = download;
  const text = statusText(target, view);
  return (
    <div className={`download-status${compact ? ' download-status-compact' : ''}`} data-state={view.state}>
      <div
        id={textId}
        role="status"
        className={view.state === 'failed' ? 'download-status-text error' : 'download-status-text'}
      >
        {text}
      </div>
      {(view.state === 'starting' || view.state === 'preparing') && (
        <progress
          className="download-progress"
          aria-labelledby={textId}
          // No value while the server has not answered: the bar shows it is busy, not how far.
          {...(view.state === 'preparing' && view.totalTracks > 0
            ? { max: view.totalTracks, value: Math.min(view.readyTracks, view.totalTracks) }
            : {})}
        />
      )}
      {view.state === 'ready' && (
        <NetworkLink
          action="download the file"
          className={compact ? 'download-status-link' : 'button button-secondary download-status-link'}
          href={view.downloadUrl}
          download
          aria-describedby={textId}
        >
          {downloadLinkText(target, view.format)}
        </NetworkLink>
      )}
      {view.state === 'failed' && (
        <NetworkButton
          action="prepare the download"
          type="button"
          className={compact ? 'link-button download-status-retry' : 'button button-secondary download-status-retry'}
          onClick={download.retry}
          aria-describedby={textId}
        >
          Try again
        </NetworkButton>
      )}
    </div>
  );
}
