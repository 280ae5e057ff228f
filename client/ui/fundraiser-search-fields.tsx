import { useId } from 'react';
import { GENRES, limits } from '../../shared/constants';
import { FormField } from './form-field';

export const FUNDRAISER_SEARCH_FIELDS = ['searchTerm', 'genre', 'charityEin'] as const;

type Values = { searchTerm?: string; genre?: string; charityEin?: string };

/** Search term, genre and charity EIN: the fundraiser search of the home and browse pages. */
export function FundraiserSearchFields({ values = {} }: { values?: Values }) {
  const genreId = useId();
  return (
    <div className="form-row">
      <FormField
        label="Search term"
        name="searchTerm"
        type="search"
        maxLength={limits.searchTerm}
        defaultValue={values.searchTerm}
      />
      <div className="field">
        <label htmlFor={genreId}>Genre</label>
        <select id={genreId} name="genre" defaultValue={values.genre ?? ''}>
          <option value="">All genres</option>
          {GENRES.map((genre) => (
            <option key={genre} value={genre}>
              {genre}
            </option>
          ))}
        </select>
      </div>
      <FormField
        label="Charity EIN"
        name="charityEin"
        inputMode="numeric"
        maxLength={limits.charityEin}
        defaultValue={values.charityEin}
      />
    </div>
  );
}
