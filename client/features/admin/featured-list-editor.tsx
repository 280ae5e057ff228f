import { type ComponentType, type FormEvent, type ReactNode, useId, useLayoutEffect, useRef, useState } from 'react';
import { Alert } from '../../ui/alert';
import { MessageDialog } from '../../ui/dialog';
import { NetworkButton } from '../../ui/needs-network';
import { LoadFailure } from '../../ui/offline-notice';
import { Spinner } from '../../ui/spinner';
import { ReorderControls } from './reorder-controls';
import './admin.css';

// The editor both featured lists share (the home page's fundraisers, spec part 2 sections 2, 5
// and 8, and its charities): the saved list in order, rows reordered, removed and added, checked
// (an empty row, a duplicate, and the list as the shared schema the server uses sees it), then
// saved whole, so the home page never shows a half-made list.

type Row<T> = { key: number; item: T | null };
type Control = 'item' | 'up' | 'down' | 'remove';

/** What a row shows between its number and its reorder controls. */
export type FeaturedRow<T> = {
  item: T | null;
  index: number;
  /** The id of the row's own control (a picker's input), so focus can be sent to it. */
  inputId: string;
  /** The row's message once the admin has tried to save: empty, or already in the list. */
  error: string | undefined;
  /** What the whole list holds now, to mark what is already in it. */
  items: T[];
  onChange: (item: T | null) => void;
};

/** What a panel beside the list that adds to it is given; `full` once the list holds `max`. */
export type FeaturedPanelProps<T> = { items: T[]; full: boolean; onAdd: (item: T) => void };

/** How rows are added. */
export type FeaturedAdding<T> =
  /** An "Add row" button appends an empty row, to be chosen in it (its message while empty). */
  | { kind: 'empty-row'; emptyRowMessage: string }
  /** A panel beside the list (a search) adds items. */
  | { kind: 'panel'; Panel: ComponentType<FeaturedPanelProps<T>> };

type FeaturedListEditorProps<T> = {
  /** The heading, the form's name and the success dialog's title. */
  title: string;
  intro: string;
  /** The saved list, as the page's query has it. */
  current: { isPending: boolean; isError: boolean; error: unknown; data: T[] | undefined; refetch: () => unknown };
  loadingLabel: string;
  idOf: (item: T) => string;
  nameOf: (item: T) => string;
  /** The list's own message, from the shared schema the server checks it with; null when fine. */
  check: (items: T[]) => string | null;
  duplicateMessage: string;
  emptyMessage: string;
  countText: (count: number) => string;
  max?: number;
  adding: FeaturedAdding<T>;
  removeLabel: 'Remove' | 'Delete';
  renderRow: (row: FeaturedRow<T>) => ReactNode;
  rowClassName: string;
  actionsClassName?: string;
  className?: string;
  saveLabel: string;
  /** Saves the list, calling `onSaved` once it is; its failure in words, null while there is none. */
  save: { run: (items: T[], onSaved: () => void) => void; isPending: boolean; error: string | null; reset: () => void };
  savedMessage: string;
};

export function FeaturedListEditor<T>(props: FeaturedListEditorProps<T>) {
  const [savedDialog, setSavedDialog] = useState(false);
  const { current } = props;
  if (current.isPending) return <Spinner label={props.loadingLabel} />;
  if (current.isError || !current.data) {
    return (
      <LoadFailure error={current.error} retry={current.refetch}>
        <Alert tone="error">Something went wrong!</Alert>
      </LoadFailure>
    );
  }
  return (
    <>
      {/* Keyed on the saved list: a save that changes it starts the editor again from it, while a
          refetch that brings the same list (window focus, say) keeps unsaved edits. The dialog
          stays outside, so the success message outlives that. */}
      <FeaturedListForm
        key={current.data.map(props.idOf).join()}
        {...props}
        saved={current.data}
        onSaved={() => setSavedDialog(true)}
      />
      <MessageDialog open={savedDialog} onClose={() => setSavedDialog(false)} title={props.title}>
        <p>{props.savedMessage}</p>
      </MessageDialog>
    </>
  );
}

/** Per-row messages: an empty row, or one already in the list above it. */
function rowErrors<T>(rows: Row<T>[], idOf: (item: T) => string, duplicate: string, emptyRow: string) {
  const errors = new Map<number, string>();
  const seen = new Set<string>();
  for (const row of rows) {
    if (!row.item) errors.set(row.key, emptyRow);
    else if (seen.has(idOf(row.item))) errors.set(row.key, duplicate);
    else seen.add(idOf(row.item));
  }
  return errors;
}

function FeaturedListForm<T>({
  title,
  intro,
  saved,
  idOf,
  nameOf,
  check,
  duplicateMessage,
  emptyMessage,
  countText,
  max,
  adding,
  removeLabel,
  renderRow,
  rowClassName,
  actionsClassName,
  className,
  saveLabel,
  save,
  onSaved,
}: FeaturedListEditorProps<T> & { saved: T[]; onSaved: () => void }) {
  const nextKey = useRef(saved.length);
  const [rows, setRows] = useState<Row<T>[]>(() => saved.map((item, index) => ({ key: index, item })));
  const [showErrors, setShowErrors] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  // Where keyboard focus goes after the next change of the list (see the layout effect).
  const focusRequest = useRef<{ key: number; control: Control } | null>(null);
  const idPrefix = useId();
  const headingId = useId();
  const controlId = (key: number, control: Control) => `${idPrefix}-row-${key}-${control}`;
  const items = rows.flatMap((row) => (row.item ? [row.item] : []));
  const errors = rowErrors(
    rows,
    idOf,
    duplicateMessage,
    adding.kind === 'empty-row' ? adding.emptyRowMessage : duplicateMessage,
  );
  // The list's own check once every row is right: a duplicate is said on its row, not twice.
  const listError = errors.size > 0 ? null : check(items);
  const full = max !== undefined && rows.length >= max;
  const changed = rows.map((row) => (row.item ? idOf(row.item) : '')).join() !== saved.map(idOf).join();

  // A moved row leaves the DOM and comes back, a removed one is gone, a new one has just appeared:
  // give keyboard focus to where the admin will want it next (the other arrow once a row reached
  // an end, the "Add row" button when no row is left).
  useLayoutEffect(() => {
    const request = focusRequest.current;
    if (!request) return;
    focusRequest.current = null;
    const wanted = document.getElementById(`${idPrefix}-row-${request.key}-${request.control}`);
    const other = document.getElementById(`${idPrefix}-row-${request.key}-${request.control === 'up' ? 'down' : 'up'}`);
    const target = wanted instanceof HTMLButtonElement && wanted.disabled ? other : wanted;
    // No row left: the way to add one, or (the panel's list) the list's own heading.
    (target ?? document.getElementById(`${idPrefix}-add`) ?? document.getElementById(headingId))?.focus();
  }, [rows, idPrefix, headingId]);

  function edit(next: Row<T>[], message: string) {
    setRows(next);
    setAnnouncement(message);
    save.reset();
  }

  const rowName = (row: Row<T>, index: number) => (row.item ? nameOf(row.item) : `empty row ${index + 1}`);

  function addEmptyRow() {
    const key = nextKey.current++;
    edit([...rows, { key, item: null }], `Added row ${rows.length + 1}.`);
    focusRequest.current = { key, control: 'item' };
  }

  /** An item from the panel; the panel's button keeps the focus. */
  function add(item: T) {
    if (full || items.some((listed) => idOf(listed) === idOf(item))) return;
    const count = rows.length + 1;
    edit([...rows, { key: nextKey.current++, item }], `Added ${nameOf(item)}, number ${count} of ${count}.`);
  }

  function choose(index: number, item: T | null) {
    edit(
      rows.map((row, position) => (position === index ? { ...row, item } : row)),
      item ? `Row ${index + 1}: ${nameOf(item)}.` : `Row ${index + 1} cleared.`,
    );
  }

  function remove(index: number) {
    const row = rows[index];
    if (!row) return;
    edit(
      rows.filter((_, position) => position !== index),
      `Removed ${rowName(row, index)}.`,
    );
    // The next row's remove button, or the previous row's when this was the last; with no row
    // left, a key no row has sends focus to the fallback of the layout effect.
    const neighbour = rows[index + 1] ?? rows[index - 1];
    focusRequest.current = { key: neighbour?.key ?? -1, control: 'remove' };
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
    const firstInvalid = rows.find((row) => errors.has(row.key));
    if (firstInvalid) {
      document.getElementById(controlId(firstInvalid.key, 'item'))?.focus();
      return;
    }
    if (listError) return;
    save.run(items, onSaved);
  }

  const form = (
    <form
      className={['form featured-list-form stack', className].filter(Boolean).join(' ')}
      aria-labelledby={headingId}
      noValidate
      onSubmit={handleSubmit}
    >
      <div className="featured-list-head">
        <h2 id={headingId} tabIndex={-1}>
          {title}
        </h2>
        <p className="muted">{countText(rows.length)}</p>
      </div>
      <p className="muted">{intro}</p>
      {rows.length === 0 ? (
        <p className="empty-state">{emptyMessage}</p>
      ) : (
        <ol className="featured-list" role="list">
          {rows.map((row, index) => (
            <li key={row.key} className={rowClassName}>
              <span className="featured-position" aria-hidden="true">
                {index + 1}
              </span>
              {renderRow({
                item: row.item,
                index,
                inputId: controlId(row.key, 'item'),
                error: showErrors ? errors.get(row.key) : undefined,
                items,
                onChange: (item) => choose(index, item),
              })}
              <ReorderControls
                className={actionsClassName}
                idOf={(control) => controlId(row.key, control)}
                name={rowName(row, index)}
                index={index}
                count={rows.length}
                removeLabel={removeLabel}
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
      {adding.kind === 'empty-row' && (
        <p>
          <button type="button" id={`${idPrefix}-add`} className="button button-secondary" onClick={addEmptyRow}>
            Add row
          </button>
        </p>
      )}
      {showErrors && listError && <Alert tone="error">{listError}</Alert>}
      {save.error && <Alert tone="error">{save.error}</Alert>}
      <p className="actions">
        <NetworkButton
          action={saveLabel.toLowerCase()}
          type="submit"
          className="button button-primary"
          disabled={!changed || save.isPending}
        >
          {save.isPending ? 'Saving...' : saveLabel}
        </NetworkButton>
        <button
          type="button"
          className="button button-secondary"
          disabled={!changed || save.isPending}
          onClick={() => {
            setShowErrors(false);
            // Fresh keys: a row's own control (a picker) forgets what was typed in it.
            edit(
              saved.map((item) => ({ key: nextKey.current++, item })),
              'Changes discarded.',
            );
          }}
        >
          Discard changes
        </button>
      </p>
    </form>
  );

  if (adding.kind === 'empty-row') return form;
  return (
    <div className="featured-list-with-panel">
      {form}
      <adding.Panel items={items} full={full} onAdd={add} />
    </div>
  );
}
