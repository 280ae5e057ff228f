/**
 * A list row's Move up, Move down and remove buttons (featured-list-editor.tsx): arrows
 * for the eye, the row's name for a screen reader, ids so the list can put focus back after a move.
 */
export function ReorderControls({
  idOf,
  name,
  index,
  count,
  removeLabel,
  onMove,
  onRemove,
  className = 'featured-actions',
}: {
  /** The id of each button, so focus can follow the row. */
  idOf: (control: 'up' | 'down' | 'remove') => string;
  /** What the row is called, for the buttons' accessible names. */
  name: string;
  index: number;
  count: number;
  removeLabel: 'Remove' | 'Delete';
  onMove: (direction: -1 | 1) => void;
  onRemove: () => void;
  className?: string;
}) {
  return (
    <span className={className}>
      <button
        type="button"
        id={idOf('up')}
        className="button button-ghost icon-button"
        disabled={index === 0}
        onClick={() => onMove(-1)}
      >
        <span aria-hidden="true">↑</span>
        <span className="visually-hidden">Move {name} up</span>
      </button>
      <button
        type="button"
        id={idOf('down')}
        className="button button-ghost icon-button"
        disabled={index === count - 1}
        onClick={() => onMove(1)}
      >
        <span aria-hidden="true">↓</span>
        <span className="visually-hidden">Move {name} down</span>
      </button>
      <button type="button" id={idOf('remove')} className="button button-ghost featured-remove" onClick={onRemove}>
        {removeLabel}
        <span className="visually-hidden"> {name}</span>
      </button>
    </span>
  );
}
