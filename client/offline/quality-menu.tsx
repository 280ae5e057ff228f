import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useSyncExternalStore } from 'react';
import { CheckIcon } from './offline-icons';
import {
  chosenQuality,
  describeEstimate,
  type OfflineQuality,
  offlineQualities,
  qualityHints,
  subscribeToChosenQuality,
} from './offline-quality';

// Which quality "Save for offline" saves in (issue 27; DESIGN.md "offline quality"): a menu beside
// the button, its trigger naming the choice and its size, its items both qualities with their
// sizes and what each is. Radix gives the menu its keys, focus and menuitemradio roles.

/** The quality the next save takes: the last one chosen on this device, followed across tabs. */
export function useChosenQuality(): OfflineQuality {
  return useSyncExternalStore(subscribeToChosenQuality, chosenQuality, () => 'standard');
}

export function QualityMenu({
  quality,
  onChange,
  sizes,
}: {
  quality: OfflineQuality;
  onChange: (quality: OfflineQuality) => void;
  /** What saving takes in each quality, when it can be told. */
  sizes: Record<OfflineQuality, number | undefined>;
}) {
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className="button button-ghost offline-quality-trigger">
        <span className="visually-hidden">Quality: </span>
        {describeEstimate(quality, sizes[quality])}
        <span aria-hidden="true"> ▾</span>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu offline-quality-menu" align="start" sideOffset={8}>
          <DropdownMenu.Label className="menu-label">Save for offline in</DropdownMenu.Label>
          <DropdownMenu.RadioGroup
            value={quality}
            onValueChange={(value) => {
              const chosen = offlineQualities.find((item) => item === value);
              if (chosen) onChange(chosen);
            }}
          >
            {offlineQualities.map((item) => (
              <DropdownMenu.RadioItem key={item} value={item} className="menu-item offline-quality-item">
                <DropdownMenu.ItemIndicator className="offline-quality-check">
                  <CheckIcon />
                </DropdownMenu.ItemIndicator>
                <span className="offline-quality-name">{describeEstimate(item, sizes[item])}</span>
                <span className="offline-quality-hint">{qualityHints[item]}</span>
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
