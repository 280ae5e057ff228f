import './play-button.css';

/** A track's round play/pause button (Your music's album page, a guest's bought album). */
export function PlayButton({ playing, label, onClick }: { playing: boolean; label: string; onClick: () => void }) {
  return (
    <button
      type="button"
      className="play-button"
      onClick={onClick}
      aria-label={`${playing ? 'Pause' : 'Play'} ${label}`}
    >
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
        {playing ? (
          <path fill="currentColor" d="M6 5h4v14H6zM14 5h4v14h-4z" />
        ) : (
          <path fill="currentColor" d="M8 5v14l11-7z" />
        )}
      </svg>
    </button>
  );
}
