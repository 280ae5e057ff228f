import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useQuery } from '@tanstack/react-query';
import { type RefObject, useEffect, useRef } from 'react';
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
  focusFirstItem,
}: TrackDownloadProps & {
  trigger: TrackDownloadTrigger;
  /** Made by a press of the button that stood here: open as it appears. */
  openAtOnce: boolean;
  /**
   * That press was by keys: its first item takes the focus, as when Radix's trigger is pressed by
   * keys (Radix tells keys from a pointer by listening from when it is made, after this press).
   */
  focusFirstItem: boolean;
}) {
  const focusFirst = useRef(openAtOnce && focusFirstItem);
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
            focusFirst={focusFirst}
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
  focusFirst,
}: {
  fundraiserId: number;
  trackSeconds: number | null;
  albumSeconds: readonly (number | null)[];
  onChoose: (format: DownloadFormatId) => void;
  /** Whether the first item is still to take the focus (once, when the items are there). */
  focusFirst: RefObject<boolean>;
}) {
  const query = useQuery(albumFormatsQueryOptions(fundraiserId));
  const formats = query.data?.formats;
  const firstAvailable = formats?.find((format) => format.available)?.id;
  const firstItem = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!formats || !focusFirst.current) return;
    // After Radix has given the opened menu itself the focus (in the effects of the same commit),
    // unless the focus has gone elsewhere by the time the items came.
    const frame = requestAnimationFrame(() => {
      focusFirst.current = false;
      const item = firstItem.current;
      if (item?.closest('[role="menu"]')?.contains(document.activeElement)) item.focus();
    });
    return () => cancelAnimationFrame(frame);
  }, [formats, focusFirst]);
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
  return (
    <>
      {query.data.formats.map((format) => {
        const size = format.available
          ? approxSizeText(trackBytes(format.approxBytes, trackSeconds, albumSeconds))
          : 'Not offered';
        return (
          <DropdownMenu.Item
            key={format.id}
            ref={format.id === firstAvailable ? firstItem : undefined}
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
      {unavailableGroups(query.data.formats).map((group) => (
        <DropdownMenu.Label key={group.reason} className="menu-label download-track-note">
          {listOf(group.labels)}: {group.reason}
        </DropdownMenu.Label>
      ))}
    </>
  );
}
