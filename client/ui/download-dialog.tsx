import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import type { AlbumFormat } from '../../shared/answers/formats';
import { DOWNLOAD_FORMAT_IDS, type DownloadFormatId, downloadFormats } from '../../shared/download-formats';
import { Dialog } from './dialog';
import { albumFormatsQueryOptions, type DownloadTarget } from './download-formats-api';
import { approxSizeText, listOf, unavailableGroups } from './download-text';
import './download.css';

// The album's "Download as…" dialog (issue 27): every format with what it is for and about how big
// the album is in it; a format the album is not offered in is shown, disabled, with the reason.
// Loaded when first opened (download-chooser.tsx).

/** Every format as offered, when the sizes could not be asked: the server still says no on choosing. */
const unknownFormats: AlbumFormat[] = DOWNLOAD_FORMAT_IDS.map((id) => ({
  id,
  label: downloadFormats[id].label,
  lossless: downloadFormats[id].lossless,
  available: true,
  approxBytes: 0,
}));

export function FormatDialog({
  open,
  onOpenChange,
  target,
  onChoose,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  target: DownloadTarget;
  onChoose: (format: DownloadFormatId) => void;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Download “${target.name}”`}
      description="Choose a format. Each is made from the artist’s original files; sizes are for the whole album."
      className="download-dialog"
    >
      <FormatChoices fundraiserId={target.fundraiserId} onChoose={onChoose} />
    </Dialog>
  );
}

function FormatChoices({
  fundraiserId,
  onChoose,
}: {
  fundraiserId: number;
  onChoose: (format: DownloadFormatId) => void;
}) {
  const query = useQuery(albumFormatsQueryOptions(fundraiserId));
  const noteId = useId();
  if (query.isPending) {
    return (
      <p className="download-loading muted" aria-busy="true">
        Loading formats…
      </p>
    );
  }
  const formats = query.data?.formats ?? unknownFormats;
  const groups = unavailableGroups(formats);
  return (
    <div className="stack download-choices-frame">
      {query.isError && <p className="muted download-choices-note">The sizes could not be loaded.</p>}
      <ul className="download-choices" aria-label="Formats">
        {formats.map((format) => {
          const description = downloadFormats[format.id].description;
          const size = format.available ? approxSizeText(format.approxBytes) : 'Not offered';
          const group = groups.findIndex((entry) => entry.labels.includes(format.label));
          return (
            // The whole card chooses (the button's ::after covers it); its name is what it says on
            // its first line, and what the format is for describes it.
            <li key={format.id} className={format.available ? 'download-choice' : 'download-choice is-unavailable'}>
              <button
                type="button"
                className="download-choice-button"
                disabled={!format.available}
                aria-describedby={
                  format.available ? `${noteId}-${format.id}` : `${noteId}-${format.id} ${noteId}-reason-${group}`
                }
                onClick={() => onChoose(format.id)}
              >
                <span className="download-choice-name">{format.label}</span>
                {size && <span className="download-choice-size">{size}</span>}
              </button>
              <p className="download-choice-description" id={`${noteId}-${format.id}`}>
                {description}
              </p>
            </li>
          );
        })}
      </ul>
      {groups.map((group, index) => (
        <p key={group.reason} id={`${noteId}-reason-${index}`} className="download-choices-note">
          <strong>{listOf(group.labels)}:</strong> {group.reason}
        </p>
      ))}
    </div>
  );
}
