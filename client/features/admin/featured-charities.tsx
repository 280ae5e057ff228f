import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useLayoutEffect, useRef, useState } from 'react';
import { FEATURED_CHARITY_COUNT, limits, SEARCH_DEBOUNCE_MS } from '../../../shared/constants';
import { updateFeaturedCharitiesSchema } from '../../../shared/schemas/charities';
import { formatEin, normaliseEin } from '../../../shared/ein';
import { type Nonprofit } from '../../../shared/answers/charities';
import { featuredCharitiesQueryOptions, nonprofitSearchQueryOptions } from '../../api/fundraisers';
import { errorMessage } from '../../api/http';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { Alert } from '../../ui/alert';
import { MessageDialog } from '../../ui/dialog';
import { FormField } from '../../ui/form-field';
import { Spinner } from '../../ui/spinner';
import { useUpdateFeaturedCharities } from './featured-charities-api';
import { ReorderControls } from './reorder-controls';
import { NetworkButton } from '../../ui/needs-network';
import './admin.css';
import { LoadFailure } from '../../ui/offline-notice';

/**
 * The admins' choice of the home page's charity logos (spec part 2 section 9: 10 of them): the
 * current list, a search of the charity directory to add from, reordering and removal, then one
 * save. Edits stay local until saved, so the home page never shows a half-made list.
 */
export function FeaturedCharitiesAdmin() {
  const current = useQuery(featuredCharitiesQueryOptions());
  // Up here rather than in the form: a save replaces the form (see its key), and the success
  // message must outlive that.
  const update = useUpdateFeaturedCharities();
  const [savedDialog, setSavedDialog] = useState(false);
  if (current.isPending) return <Spinner label="Loading featured charities" />;
  if (current.isError) {
    return (
      <LoadFailure error={current.error} retry={current.refetch}>
        <Alert tone="error">Something went wrong!</Alert>
      </LoadFailure>
    );
  }
  return (
    <>
      {/* Keyed on the stored list's EINs: a save that changes it starts the editor again from it, while
          a refetch that brings the same list (window focus, say) keeps unsaved edits. */}
      <FeaturedCharitiesForm
        key={current.data.nonprofits.map((charity) => einKey(charity.ein)).join()}
        saved={current.data.nonprofits}
        update={update}
        onSave={(eins) => update.mutate(eins, { onSuccess: () => setSavedDialog(true) })}
      />
      <MessageDialog open={savedDialog} onClose={() => setSavedDialog(false)} title="Featured charities">
        <p>Featured charities updated successfully.</p>
      </MessageDialog>
    </>
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

type Control = 'up' | 'down' | 'remove';

function controlId(prefix: string, ein: string, control: Control): string {
  return `${prefix}-${einKey(ein)}-${control}`;
}

type FormProps = {
  saved: Nonprofit[];
  update: ReturnType<typeof useUpdateFeaturedCharities>;
  onSave: (eins: string[]) => void;
};

function FeaturedCharitiesForm({ saved, update, onSave }: FormProps) {
  const [list, setList] = useState<Nonprofit[]>(saved);
  const [announcement, setAnnouncement] = useState('');
  // Where keyboard focus goes after the next change of the list (see the layout effect).
  const focusRequest = useRef<{ ein: string; control: Control } | null>(null);
  const [validationError, setValidationError] = useState('');
  const listHeadingId = useId();
  const idPrefix = useId();
  const changed = list.map((charity) => einKey(charity.ein)).join() !== saved.map((c) => einKey(c.ein)).join();
  const full = list.length >= FEATURED_CHARITY_COUNT;

  // A moved row is taken out of the DOM and put back, and a removed one is gone, either of which
  // drops keyboard focus: give it back to the same button, or to the other arrow when the row
  // reached an end, or to the next row's Remove.
  useLayoutEffect(() => {
    const request = focusRequest.current;
    if (!request) return;
    focusRequest.current = null;
    const button = document.getElementById(controlId(idPrefix, request.ein, request.control));
    const fallback = document.getElementById(
      controlId(idPrefix, request.ein, request.control === 'up' ? 'down' : 'up'),
    );
    const target = button instanceof HTMLButtonElement && !button.disabled ? button : fallback;
    target?.focus();
  }, [list, idPrefix]);

  function edit(next: Nonprofit[], message: string) {
    setList(next);
    setAnnouncement(message);
    setValidationError('');
    update.reset();
  }

  function add(charity: Nonprofit) {
    if (full || list.some((item) => einKey(item.ein) === einKey(charity.ein))) return;
    edit([...list, charity], `Added ${charity.name}, number ${list.length + 1} of ${list.length + 1}.`);
  }

  function remove(index: number) {
    const charity = list[index];
    if (!charity) return;
    edit(
      list.filter((_, position) => position !== index),
      `Removed ${charity.name}.`,
    );
    // Focus goes to the next row's Remove (or the previous one's when it was the last).
    const neighbour = list[index + 1] ?? list[index - 1];
    if (neighbour) focusRequest.current = { ein: neighbour.ein, control: 'remove' };
  }

  function move(index: number, direction: -1 | 1) {
    const target = index + direction;
    const charity = list[index];
    const other = list[target];
    if (!charity || !other) return;
    const next = [...list];
    next[index] = other;
    next[target] = charity;
    edit(next, `Moved ${charity.name} to number ${target + 1} of ${list.length}.`);
    focusRequest.current = { ein: charity.ein, control: direction === -1 ? 'up' : 'down' };
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = updateFeaturedCharitiesSchema.safeParse({ eins: list.map((charity) => charity.ein) });
    if (!parsed.success) {
      setValidationError(parsed.error.issues[0]?.message ?? 'Please check the list.');
      return;
    }
    onSave(parsed.data.eins);
  }

  return (
    <div className="featured-charities-admin">
      <form className="form featured-charities-form" aria-labelledby={listHeadingId} onSubmit={handleSubmit}>
        <div className="featured-charities-head">
          <h2 id={listHeadingId}>Featured charities</h2>
          <p className="muted">
            {list.length} of {FEATURED_CHARITY_COUNT}
          </p>
        </div>
        <p className="muted">
          These charities are shown on the home page, in this order. Search the directory to add one, then save.
        </p>
        {list.length === 0 ? (
          <p className="empty-state">No featured charities. Add one from the search.</p>
        ) : (
          <ol className="featured-charities-list" role="list">
            {list.map((charity, index) => (
              <li key={einKey(charity.ein)} className="featured-charity-row">
                <span className="featured-charity-position" aria-hidden="true">
                  {index + 1}
                </span>
                <span className="featured-charity-text">
                  <span className="featured-charity-name">{charity.name}</span>
                  <span className="muted">EIN {displayEin(charity.ein)}</span>
                </span>
                <ReorderControls
                  idOf={(control) => controlId(idPrefix, charity.ein, control)}
                  name={charity.name}
                  index={index}
                  count={list.length}
                  removeLabel="Remove"
                  onMove={(direction) => move(index, direction)}
                  onRemove={() => remove(index)}
                />
              </li>
            ))}
          </ol>
        )}
        <p className="visually-hidden" role="status">
          {announcement}
        </p>
        {validationError && <Alert tone="error">{validationError}</Alert>}
        {update.isError && (
          <Alert tone="error">
            {errorMessage(update.error, 'Unable to update featured charities. Please try again.')}
          </Alert>
        )}
        <p className="actions">
          <NetworkButton
            action="save the featured charities"
            type="submit"
            className="button button-primary"
            disabled={!changed || update.isPending}
          >
            {update.isPending ? 'Saving...' : 'Save featured charities'}
          </NetworkButton>
          <button
            type="button"
            className="button button-secondary"
            disabled={!changed || update.isPending}
            onClick={() => edit(saved, 'Changes discarded.')}
          >
            Discard changes
          </button>
        </p>
      </form>

      <CharitySearch chosen={list} full={full} onAdd={add} />
    </div>
  );
}

type CharitySearchProps = { chosen: Nonprofit[]; full: boolean; onAdd: (charity: Nonprofit) => void };

/** The directory search, debounced (spec part 2 section 7: 300 ms). */
function CharitySearch({ chosen, full, onAdd }: CharitySearchProps) {
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
        <LoadFailure error={results.error} retry={results.refetch}>
          <Alert tone="error">Something went wrong!</Alert>
        </LoadFailure>
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
