import { useQuery } from '@tanstack/react-query';
import { useCombobox } from 'downshift';
import { useState } from 'react';
import { limits, SEARCH_DEBOUNCE_MS } from '../../../shared/constants';
import type { Fundraiser } from '../../../shared/answers/fundraisers';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { fundraiserTitle } from '../../../shared/public-pages';
import { UploadedPicture } from '../../ui/uploaded-picture';
import { pickerSearchQueryOptions } from './featured-fundraisers-api';
import { offlineReason } from '../../ui/needs-network';
import { isOfflineFailure } from '../../ui/offline-notice';

/** What a featured row shows (spec part 2 section 3, Featured fundraiser list item). */
export type FeaturedItem = Pick<Fundraiser, 'id' | 'name' | 'urlSlug' | 'albumCover'> & {
  artist: Pick<Fundraiser['artist'], 'name'>;
};

type FundraiserPickerProps = {
  label: string;
  /** The input's id, so the list can move focus to it. */
  inputId: string;
  value: FeaturedItem | null;
  onChange: (fundraiser: FeaturedItem | null) => void;
  /** Ids already in the list, marked in the options so a duplicate is visible before it is chosen. */
  listedIds: ReadonlySet<number>;
  error?: string;
};

/**
 * A combobox over the public fundraiser search (spec part 2 section 7: the admin picker asks it
 * with pageSize 100, the term debounced 300 ms). Downshift supplies the ARIA combobox pattern:
 * arrow keys move through the options, Enter chooses, Escape closes and restores the choice.
 * Opened with nothing typed, it lists the most recent published fundraisers.
 */
export function FundraiserPicker({ label, inputId, value, onChange, listedIds, error }: FundraiserPickerProps) {
  const [term, setTerm] = useState(value ? value.name : '');
  // While the input shows the chosen fundraiser's name, the list offers everything, not just it.
  const typed = value && term === value.name ? '' : term.trim();
  const searchTerm = useDebouncedValue(typed, SEARCH_DEBOUNCE_MS);
  const [wanted, setWanted] = useState(false);
  const search = useQuery({ ...pickerSearchQueryOptions(searchTerm), enabled: wanted });
  const settling = searchTerm !== typed || search.isFetching;
  // Only answers to what is typed now: a stale list under a new term invites choosing the wrong row.
  const items: FeaturedItem[] = settling ? [] : (search.data?.results ?? []);

  const combobox = useCombobox<FeaturedItem>({
    inputId,
    items,
    itemToString: (item) => (item ? fundraiserTitle(item) : ''),
    itemToKey: (item) => item?.id,
    selectedItem: value,
    inputValue: term,
    onInputValueChange: ({ inputValue }) => setTerm(inputValue),
    onSelectedItemChange: ({ selectedItem }) => onChange(selectedItem ?? null),
    onIsOpenChange: ({ isOpen }) => {
      if (isOpen) setWanted(true);
    },
  });
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  const status =
    settling || search.isPending
      ? 'Searching…'
      : search.isError
        ? isOfflineFailure(search.error)
          ? offlineReason('search fundraisers')
          : 'Something went wrong!'
        : searchTerm
          ? `No published fundraisers match “${searchTerm}”.`
          : 'No published fundraisers yet.';

  return (
    <div className={`field fundraiser-picker${error ? ' field-invalid' : ''}`}>
      <label {...combobox.getLabelProps()}>{label}</label>
      <input
        {...combobox.getInputProps({
          type: 'text',
          maxLength: limits.searchTerm,
          placeholder: 'Search published fundraisers',
          autoComplete: 'off',
          'aria-invalid': error ? true : undefined,
          'aria-describedby': [value ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined,
          onFocus: () => {
            if (!combobox.isOpen) combobox.openMenu();
          },
        })}
      />
      {value && (
        <p className="field-hint" id={hintId}>
          by {value.artist.name}
        </p>
      )}
      <ul
        {...combobox.getMenuProps({ 'aria-label': `${label}: matching fundraisers` })}
        className="fundraiser-picker-menu"
        hidden={!combobox.isOpen || items.length === 0}
      >
        {combobox.isOpen &&
          items.map((item, index) => (
            <li
              key={item.id}
              {...combobox.getItemProps({ item, index })}
              className={`fundraiser-picker-option${combobox.highlightedIndex === index ? ' is-highlighted' : ''}`}
            >
              <UploadedPicture uploadId={item.albumCover} alt="" sizes="40px" className="fundraiser-picker-cover" />
              <span className="fundraiser-picker-text">
                <span className="fundraiser-picker-name">{fundraiserTitle(item)}</span>
                <span className="muted">
                  by {item.artist.name}
                  {listedIds.has(item.id) && item.id !== value?.id ? ' · already in the list' : ''}
                </span>
              </span>
            </li>
          ))}
      </ul>
      {combobox.isOpen && items.length === 0 && (
        <p className="fundraiser-picker-status" role="status">
          {status}
        </p>
      )}
      {error && (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}
