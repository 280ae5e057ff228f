import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { FEATURED_CHARITY_COUNT, limits, SEARCH_DEBOUNCE_MS } from '../../../shared/constants';
import { featuredCharityMessages, updateFeaturedCharitiesSchema } from '../../../shared/schemas/charities';
import { formatEin, normaliseEin } from '../../../shared/ein';
import { type Nonprofit } from '../../../shared/answers/charities';
import { featuredCharitiesQueryOptions, nonprofitSearchQueryOptions } from '../../api/fundraisers';
import { errorMessage } from '../../api/http';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { Alert } from '../../ui/alert';
import { FormField } from '../../ui/form-field';
import { Spinner } from '../../ui/spinner';
import { useUpdateFeaturedCharities } from './featured-charities-api';
import { FeaturedListEditor, type FeaturedPanelProps } from './featured-list-editor';
import './admin.css';

/**
 * The admins' choice of the home page's charity logos (spec part 2 section 9: 10 of them): the
 * current list, a search of the charity directory beside it to add from, reordering and removal,
 * then one save.
 */
export function FeaturedCharitiesAdmin() {
  const current = useQuery({ ...featuredCharitiesQueryOptions(), select: (featured) => featured.nonprofits });
  const update = useUpdateFeaturedCharities();
  return (
    <FeaturedListEditor<Nonprofit>
      title="Featured charities"
      intro="These charities are shown on the home page, in this order. Search the directory to add one, then save."
      current={current}
      loadingLabel="Loading featured charities"
      idOf={(charity) => einKey(charity.ein)}
      nameOf={(charity) => charity.name}
      check={(charities) => {
        const checked = updateFeaturedCharitiesSchema.safeParse({ eins: charities.map((charity) => charity.ein) });
        return checked.success ? null : (checked.error.issues[0]?.message ?? featuredCharityMessages.atLeastOne);
      }}
      duplicateMessage={featuredCharityMessages.duplicate}
      emptyMessage="No featured charities. Add one from the search."
      countText={(count) => `${count} of ${FEATURED_CHARITY_COUNT}`}
      max={FEATURED_CHARITY_COUNT}
      adding={{ kind: 'panel', Panel: CharitySearch }}
      removeLabel="Remove"
      rowClassName="featured-charity-row"
      renderRow={({ item }) =>
        item && (
          <span className="featured-charity-text">
            <span className="featured-charity-name">{item.name}</span>
            <span className="muted">EIN {displayEin(item.ein)}</span>
          </span>
        )
      }
      saveLabel="Save featured charities"
      save={{
        run: (charities, onSaved) =>
          update.mutate(
            charities.map((charity) => charity.ein),
            { onSuccess: onSaved },
          ),
        isPending: update.isPending,
        error: update.isError ? errorMessage(update.error, featuredCharityMessages.updateFailed) : null,
        reset: update.reset,
      }}
      savedMessage={featuredCharityMessages.updated}
    />
  );
}

/** The same EIN however it is written (the directory answers 12-3456789). */
function einKey(ein: string): string {
  return normaliseEin(ein) ?? ein;
}

function displayEin(ein: string): string {
  const digits = normaliseEin(ein);
  return digits ? formatEin(digits) : ein;
}

/** The directory search beside the list, debounced (spec part 2 section 7: 300 ms). */
function CharitySearch({ items: chosen, full, onAdd }: FeaturedPanelProps<Nonprofit>) {
  const headingId = useId();
  const [term, setTerm] = useState('');
  const query = useDebouncedValue(term.trim(), SEARCH_DEBOUNCE_MS);
  const searching = query.length >= 2;
  const results = useQuery({ ...nonprofitSearchQueryOptions(query), enabled: searching });
  const chosenEins = new Set(chosen.map((charity) => einKey(charity.ein)));

  return (
    <section className="card featured-charities-search stack" aria-labelledby={headingId}>
      <h2 id={headingId}>Add a charity</h2>
      <FormField
        label="Search charities"
        type="search"
        value={term}
        maxLength={limits.searchTerm}
        placeholder="Name or EIN"
        autoComplete="off"
        hint={
          full
            ? `The list is full: remove a charity to add another (at most ${FEATURED_CHARITY_COUNT}).`
            : 'Type at least two letters of a name, or an EIN.'
        }
        onChange={(event) => setTerm(event.target.value)}
      />
      {!searching ? null : results.isPending ? (
        <Spinner label="Searching charities" />
      ) : results.isError ? (
        <Alert tone="error">Something went wrong!</Alert>
      ) : results.data.nonprofits.length === 0 ? (
        <p className="muted" role="status">
          No charities found for “{query}”.
        </p>
      ) : (
        <ul className="featured-charities-results" role="list" aria-label="Search results">
          {results.data.nonprofits.map((charity) => {
            const added = chosenEins.has(einKey(charity.ein));
            return (
              <li key={einKey(charity.ein)} className="featured-charity-row">
                <span className="featured-charity-text">
                  <span className="featured-charity-name">{charity.name}</span>
                  <span className="muted">
                    EIN {displayEin(charity.ein)}
                    {charity.locationAddress ? ` · ${charity.locationAddress}` : ''}
                  </span>
                </span>
                {/* aria-disabled rather than disabled: the button keeps keyboard focus once used. */}
                <button
                  type="button"
                  className="button button-secondary featured-charity-add"
                  aria-disabled={added || full ? true : undefined}
                  onClick={() => onAdd(charity)}
                >
                  {added ? 'Added' : 'Add'}
                  <span className="visually-hidden"> {charity.name}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
