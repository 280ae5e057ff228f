import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useQuery } from '@tanstack/react-query';
import type { DownloadFormatId } from '../../shared/download-formats';
import { albumFormatsQueryOptions, type DownloadTarget } from './download-formats-api';
import { approxSizeText, listOf, trackBytes, unavailableGroups } from './download-text';
import { FileDownloadIcon } from './file-download-icon';
import './download.css';

// A track's own menu of formats (issue 27), made by its row's button (track-download-button.tsx)
// when first pressed: choosing one prepares that track alone. Sizes are the track's share of the
// album's, by its length.

export type TrackDownloadProps = {
  target: DownloadTarget;
  trackSeconds: number | null;
  /** Every track's length, for this one's share of the album's size. */
  albumSeconds: readonly (number | null)[];
  onChoose: (format: DownloadFormatId) => void;
};

/** What the button says and whether it can be pressed, the same before and after its menu is made. */
export type TrackDownloadTrigger = { label: string; title: string; disabled: boolean };

export function TrackDownloadMenu({
  target,
  trackSeconds,
  albumSeconds,
  onChoose,
  trigger,
  openAtOnce,
}: TrackDownloadProps & {
  trigger: TrackDownloadTrigger;
  /** Made by a press of the button that stood here: open as it appears. */
  openAtOnce: boolean;
}) {
  return (
    <DropdownMenu.Root modal={false} defaultOpen={openAtOnce}>
      <DropdownMenu.Trigger
        className="download-track-button"
        disabled={trigger.disabled}
        aria-label={trigger.label}
        title={trigger.title}
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
