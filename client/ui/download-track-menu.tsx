import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useQuery } from '@tanstack/react-query';
import type { DownloadFormatId } from '../../shared/download-formats';
import { useOnline } from '../lib/use-online';
import { albumFormatsQueryOptions, type DownloadTarget } from './download-formats-api';
import { approxSizeText, listOf, trackBytes, unavailableGroups } from './download-text';
import { offlineReason } from './needs-network';
import './download.css';

// A track's own download (issue 27): a small button in its row opens the formats as a menu (Radix:
// keys, focus, typeahead); choosing one prepares that track alone. Sizes are the track's share of
// the album's, by its length. Loaded once the page has settled (the album page's other row buttons
// load the same way), so the rows are drawn first.

export function TrackDownloadMenu({
  target,
  trackSeconds,
  albumSeconds,
  onChoose,
}: {
  target: DownloadTarget;
  trackSeconds: number | null;
  /** Every track's length, for this one's share of the album's size. */
  albumSeconds: readonly (number | null)[];
  onChoose: (format: DownloadFormatId) => void;
}) {
  const online = useOnline();
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        className="download-track-button"
        disabled={!online}
        aria-label={`Download “${target.name}”`}
        title={online ? 'Download this track' : offlineReason('download this track')}
      >
        <FileDownloadIcon />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu download-track-menu" align="end" sideOffset={4} collisionPadding={8}>
          <DropdownMenu.Label className="menu-label">Download “{target.name}” as</DropdownMenu.Label>
          <TrackFormatItems
            fundraiserId={target.fundraiserId}
            trackSeconds={trackSeconds}
            albumSeconds={albumSeconds}
            onChoose={onChoose}
          />
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/** Asked for when the menu first opens: the items, or a line while they load. */
function TrackFormatItems({
  fundraiserId,
  trackSeconds,
  albumSeconds,
  onChoose,
}: {
  fundraiserId: number;
  trackSeconds: number | null;
  albumSeconds: readonly (number | null)[];
  onChoose: (format: DownloadFormatId) => void;
}) {
  const query = useQuery(albumFormatsQueryOptions(fundraiserId));
  if (query.isPending) {
    return (
      <DropdownMenu.Label className="menu-label" aria-busy="true">
        Loading formats…
      </DropdownMenu.Label>
    );
  }
  if (query.isError) {
    return (
      <DropdownMenu.Label className="menu-label">The formats could not be loaded. Please try again.</DropdownMenu.Label>
    );
  }
  const { formats } = query.data;
  return (
    <>
      {formats.map((format) => {
        const size = format.available
          ? approxSizeText(trackBytes(format.approxBytes, trackSeconds, albumSeconds))
          : 'Not offered';
        return (
          <DropdownMenu.Item
            key={format.id}
            className="menu-item download-track-item"
            disabled={!format.available}
            textValue={format.label}
            onSelect={() => onChoose(format.id)}
          >
            <span>{format.label}</span>
            {size && <span className="download-track-item-size">{size}</span>}
          </DropdownMenu.Item>
        );
      })}
      {unavailableGroups(formats).map((group) => (
        <DropdownMenu.Label key={group.reason} className="menu-label download-track-note">
          {listOf(group.labels)}: {group.reason}
        </DropdownMenu.Label>
      ))}
    </>
  );
}

/** A page with an arrow down: a file to keep (the offline button's tray arrow saves on this device). */
function FileDownloadIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      width="18"
      height="18"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
      <path d="M14 3v5h5M12 11v6m-3-3 3 3 3-3" />
    </svg>
  );
}
