import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useLayoutEffect, useRef, useState } from 'react';
import { adminMoneyMessages } from '../../../shared/schemas/admin-money';
import { featuredFundraisersQueryOptions } from '../../api/fundraisers';
import { Alert } from '../../ui/alert';
import { MessageDialog } from '../../ui/dialog';
import { Spinner } from '../../ui/spinner';
import { fundraiserTitle } from '../../ui/fundraiser-tile';
import { UploadedPicture } from '../../ui/uploaded-picture';
import { featuredUpdateErrorMessage, useUpdateFeaturedFundraisers } from './featured-fundraisers-api';
import { type FeaturedItem, FundraiserPicker } from './fundraiser-picker';
import { ReorderControls } from './reorder-controls';
import { NetworkButton } from '../../ui/needs-network';
import './admin.css';
import { LoadFailure } from '../../ui/offline-notice';

/**
 * The Featured fundraisers tab (spec part 2 sections 2, 5 and 8): the home page's fundraisers in
 * order, each row a picker over the public search, with reorder, delete and an empty row to add.
 * Nothing reaches the home page until the whole list is saved.
 */
export function FeaturedFundraisersAdmin() {
  const current = useQuery(featuredFundraisersQueryOptions());
  const update = useUpdateFeaturedFundraisers();
  const [savedDialog, setSavedDialog] = useState(false);
  if (current.isPending) return <Spinner label="Loading featured fundraisers" />;
  if (current.isError) {
    return (
      <LoadFailure error={current.error} retry={current.refetch}>
        <Alert tone="error">Something went wrong!</Alert>
      </LoadFailure>
    );
  }
  return (
    <>
      {/* Keyed on the stored ids: a save that changes them restarts the editor from the new list,
          while a refetch of the same list keeps unsaved edits. */}
      <FeaturedFundraisersForm
        key={current.data.map((fundraiser) => fundraiser.id).join()}
        saved={current.data}
        update={update}
        onSave={(ids) => update.mutate(ids, { onSuccess: () => setSavedDialog(true) })}
      />
      <MessageDialog open={savedDialog} onClose={() => setSavedDialog(false)} title="Featured fundraisers">
        <p>{adminMoneyMessages.featuredUpdated}</p>
      </MessageDialog>
    </>
  );
}

type Row = { key: number; fundraiser: FeaturedItem | null };
type Control = 'picker' | 'up' | 'down' | 'remove';

/** Per-row messages and the list's own (spec part 2 section 5, Featured fundraisers). */
function validate(rows: Row[]): { rowErrors: Map<number, string>; listError: string } {
  const rowErrors = new Map<number, string>();
  const seen = new Set<number>();
  for (const row of rows) {
    if (!row.fundraiser) rowErrors.set(row.key, adminMoneyMessages.featuredEmptyRow);
    else if (seen.has(row.fundraiser.id)) rowErrors.set(row.key, adminMoneyMessages.featuredDuplicate);
    else seen.add(row.fundraiser.id);
  }
  return { rowErrors, listError: rows.length === 0 ? adminMoneyMessages.featuredAtLeastOne : '' };
}

type FormProps = {
  saved: FeaturedItem[];
  update: ReturnType<typeof useUpdateFeaturedFundraisers>;
  onSave: (ids: number[]) => void;
};

function FeaturedFundraisersForm({ saved, update, onSave }: FormProps) {
  const nextKey = useRef(saved.length);
  const [rows, setRows] = useState<Row[]>(() => saved.map((fundraiser, index) => ({ key: index, fundraiser })));
  const [showErrors, setShowErrors] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const focusRequest = useRef<{ key: number; control: Control } | null>(null);
  const idPrefix = useId();
  const headingId = useId();
  const listedIds = new Set(rows.flatMap((row) => (row.fundraiser ? [row.fundraiser.id] : [])));
  const { rowErrors, listError } = validate(rows);
  const ids = rows.map((row) => row.fundraiser?.id ?? 0).join();
  const changed = ids !== saved.map((fundraiser) => fundraiser.id).join();

  // A moved row leaves the DOM and comes back, a removed one is gone, a new one has just appeared:
  // give keyboard focus to where the admin will want it next.
  useLayoutEffect(() => {
    const request = focusRequest.current;
    if (!request) return;
    focusRequest.current = null;
    const wanted = document.getElementById(controlId(idPrefix, request.key, request.control));
    const fallback = document.getElementById(
      controlId(idPrefix, request.key, request.control === 'up' ? 'down' : 'up'),
    );
    const target = wanted instanceof HTMLButtonElement && wanted.disabled ? fallback : wanted;
    (target ?? document.getElementById(`${idPrefix}-add`))?.focus();
  }, [rows, idPrefix]);

  function edit(next: Row[], message: string) {
    setRows(next);
    setAnnouncement(message);
    update.reset();
  }

  function rowName(row: Row, index: number): string {
    return row.fundraiser ? fundraiserTitle(row.fundraiser) : `empty row ${index + 1}`;
  }

  function addRow() {
    const key = nextKey.current++;
    edit([...rows, { key, fundraiser: null }], `Added row ${rows.length + 1}.`);
    focusRequest.current = { key, control: 'picker' };
  }

  function choose(index: number, fundraiser: FeaturedItem | null) {
    const next = rows.map((row, position) => (position === index ? { ...row, fundraiser } : row));
    edit(next, fundraiser ? `Row ${index + 1}: ${fundraiserTitle(fundraiser)}.` : `Row ${index + 1} cleared.`);
  }

  function remove(index: number) {
    const row = rows[index];
    if (!row) return;
    edit(
      rows.filter((_, position) => position !== index),
      `Removed ${rowName(row, index)}.`,
    );
    const neighbour = rows[index + 1] ?? rows[index - 1];
    if (neighbour) focusRequest.current = { key: neighbour.key, control: 'remove' };
  }

  function move(index: number, direction: -1 | 1) {
    const row = rows[index];
    const other = rows[index + direction];
    if (!row || !other) return;
    const next = [...rows];
    next[index] = other;
    next[index + direction] = row;
    edit(next, `Moved ${rowName(row, index)} to number ${index + direction + 1} of ${rows.length}.`);
    focusRequest.current = { key: row.key, control: direction === -1 ? 'up' : 'down' };
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setShowErrors(true);
    const firstInvalid = rows.find((row) => rowErrors.has(row.key));
    if (firstInvalid) {
      document.getElementById(controlId(idPrefix, firstInvalid.key, 'picker'))?.focus();
      return;
    }
    if (listError) return;
    onSave(rows.flatMap((row) => (row.fundraiser ? [row.fundraiser.id] : [])));
  }

  return (
    <form
      className="form featured-fundraisers-form stack"
      aria-labelledby={headingId}
      noValidate
      onSubmit={handleSubmit}
    >
      <div className="featured-charities-head">
        <h2 id={headingId}>Featured fundraisers</h2>
        <p className="muted">
          {rows.length} {rows.length === 1 ? 'row' : 'rows'}
        </p>
      </div>
      <p className="muted">
        The home page shows these published fundraisers, in this order. Search by name, artist or charity in each row.
      </p>
      {rows.length === 0 ? (
        <p className="empty-state">No projects!</p>
      ) : (
        <ol className="featured-fundraisers-list" role="list">
          {rows.map((row, index) => {
            const label = `Fundraiser ${index + 1}`;
            return (
              <li key={row.key} className="featured-fundraiser-row">
                <span className="featured-charity-position" aria-hidden="true">
                  {index + 1}
                </span>
                <UploadedPicture
                  uploadId={row.fundraiser?.albumCover}
                  alt=""
                  sizes="56px"
                  className="featured-fundraiser-cover"
                />
                <FundraiserPicker
                  inputId={controlId(idPrefix, row.key, 'picker')}
                  label={label}
                  value={row.fundraiser}
                  listedIds={listedIds}
                  error={showErrors ? rowErrors.get(row.key) : undefined}
                  onChange={(fundraiser) => choose(index, fundraiser)}
                />
                <ReorderControls
                  className="featured-charity-actions featured-fundraiser-actions"
                  idOf={(control) => controlId(idPrefix, row.key, control)}
                  name={rowName(row, index)}
                  index={index}
                  count={rows.length}
                  removeLabel="Delete"
                  onMove={(direction) => move(index, direction)}
                  onRemove={() => remove(index)}
                />
              </li>
            );
          })}
        </ol>
      )}
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
      <p>
        <button type="button" id={`${idPrefix}-add`} className="button button-secondary" onClick={addRow}>
          Add row
        </button>
      </p>
      {showErrors && listError && <Alert tone="error">{listError}</Alert>}
      {update.isError && <Alert tone="error">{featuredUpdateErrorMessage(update.error)}</Alert>}
      <p className="actions">
        <NetworkButton
          action="save the featured fundraisers"
          type="submit"
          className="button button-primary"
          disabled={!changed || update.isPending}
        >
          {update.isPending ? 'Saving...' : 'Save featured fundraisers'}
        </NetworkButton>
        <button
          type="button"
          className="button button-secondary"
          disabled={!changed || update.isPending}
          onClick={() => {
            setShowErrors(false);
            // Fresh keys: a picker keeps what was typed in it, and these rows start from the saved list.
            edit(
              saved.map((fundraiser) => ({ key: nextKey.current++, fundraiser })),
              'Changes discarded.',
            );
          }}
        >
          Discard changes
        </button>
      </p>
    </form>
  );
}

function controlId(prefix: string, key: number, control: Control): string {
  return `${prefix}-row-${key}-${control}`;
}
