import * as RadixDialog from '@radix-ui/react-dialog';
import * as Slider from '@radix-ui/react-slider';
import { type KeyboardEvent, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { Link } from 'react-router';
import type { PlayerTrack } from '../../shared/answers/library';
import { formatPlaybackTime } from '../../shared/time';
import { playerControls, usePlayerStore, useCurrentTrack } from './player-store';
import './player.css';

// The music player (spec part 1 section 2, "Music player"): a sticky bar on wide screens; on
// phones a compact bar that opens a bottom drawer. Shown to logged-in users only (spec part 1
// section 6); it follows the shared state, so every tab shows the same track.

const COMPACT_QUERY = '(max-width: 639px)';

function useIsCompact() {
  return useSyncExternalStore(
    (onChange) => {
      const query = window.matchMedia(COMPACT_QUERY);
      query.addEventListener('change', onChange);
      return () => query.removeEventListener('change', onChange);
    },
    () => window.matchMedia(COMPACT_QUERY).matches,
    () => false,
  );
}

/** The bar itself, loaded once there is something to play (player-dock.tsx). */
export function PlayerBar() {
  const compact = useIsCompact();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const track = useCurrentTrack();
  const notice = usePlayerNotice();
  if (!track) return null;

  // Space toggles playback from anywhere in the player that is not itself a button or link.
  const onKeyDown = (event: KeyboardEvent) => {
    const target = event.target as HTMLElement;
    if (event.key === ' ' && !target.closest('button, a')) {
      event.preventDefault();
      playerControls.toggle();
    }
  };

  return (
    <>
      <div className="player-spacer" aria-hidden="true" />
      {compact ? (
        // The drawer's trigger is the compact bar itself, so focus returns to it when it closes.
        <RadixDialog.Root open={drawerOpen} onOpenChange={setDrawerOpen}>
          <section className="player" aria-label="Music player" onKeyDown={onKeyDown}>
            <div className="player-compact">
              <RadixDialog.Trigger
                className="player-compact-open"
                // Says what the bar shows, the notice too (WCAG 2.5.3: the visible words are in the name).
                aria-label={`Open player: ${track.name}, ${notice.text || `${track.artistName} · ${track.projectName}`}`}
              >
                <Cover track={track} size={44} />
                <TrackNames track={track} showNotice />
              </RadixDialog.Trigger>
              <PlayPauseButton />
              <ProgressLine />
            </div>
          </section>
          <RadixDialog.Portal>
            <RadixDialog.Overlay className="dialog-overlay" />
            <RadixDialog.Content className="player-drawer" aria-describedby={undefined} onKeyDown={onKeyDown}>
              <RadixDialog.Title className="visually-hidden">Music player</RadixDialog.Title>
              <div className="player-drawer-handle" aria-hidden="true" />
              <Cover track={track} size={280} />
              <TrackNames track={track} linked onNavigate={() => setDrawerOpen(false)} />
              <Scrubber />
              <Controls />
              <PlayerNotice />
              <RadixDialog.Close className="dialog-close" aria-label="Close player">
                ×
              </RadixDialog.Close>
            </RadixDialog.Content>
          </RadixDialog.Portal>
        </RadixDialog.Root>
      ) : (
        <section className="player" aria-label="Music player" onKeyDown={onKeyDown}>
          <div className="player-desktop">
            <div className="player-track">
              <Cover track={track} size={48} />
              <TrackNames track={track} linked />
            </div>
            <div className="player-center">
              <Controls />
              <Scrubber />
            </div>
            <div className="player-side">
              <PlayerNotice />
            </div>
          </div>
        </section>
      )}
    </>
  );
}

function Cover({ track, size }: { track: PlayerTrack; size: number }) {
  return track.albumCoverSrc ? (
    <img className="player-cover" src={track.albumCoverSrc} alt="" width={size} height={size} />
  ) : (
    <span className="player-cover player-cover-empty" style={{ width: size, height: size }} aria-hidden="true" />
  );
}

type TrackNamesProps = {
  track: PlayerTrack;
  linked?: boolean;
  onNavigate?: () => void;
  /** The compact bar has no room for a notice of its own: it takes the artist line's place. */
  showNotice?: boolean;
};

function TrackNames({ track, linked, onNavigate, showNotice }: TrackNamesProps) {
  const albumPath = track.albumPath ?? `/music/album/${encodeURIComponent(track.projectSlug)}`;
  const notice = usePlayerNotice();
  return (
    <div className="player-names">
      {linked ? (
        <Link className="player-title" to={albumPath} onClick={onNavigate}>
          {track.name}
        </Link>
      ) : (
        <span className="player-title">{track.name}</span>
      )}
      {/* Laid out as lines, but read as words: a space keeps the title apart from the line below. */}{' '}
      {showNotice && notice.text ? (
        <span className={`player-artist${notice.error ? ' player-notice-error' : ''}`} role="status">
          {notice.text}
        </span>
      ) : (
        <span className="player-artist">
          {track.artistName} · {track.projectName}
        </span>
      )}
    </div>
  );
}

function PlayPauseButton() {
  const playingHere = usePlayerStore((state) => state.playing && state.playsHere);
  const buffering = usePlayerStore((state) => state.status === 'buffering' && state.playsHere);
  return (
    <button
      type="button"
      className="player-button player-button-main"
      onClick={playerControls.toggle}
      aria-label={playingHere ? 'Pause' : 'Play'}
      aria-busy={buffering || undefined}
    >
      {buffering ? <span className="spinner player-spinner" aria-hidden="true" /> : null}
      <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        {playingHere ? <path d="M7 5h4v14H7zM13 5h4v14h-4z" /> : <path d="M8 5v14l11-7z" />}
      </svg>
    </button>
  );
}

function Controls() {
  return (
    <div className="player-controls">
      <button type="button" className="player-button" onClick={playerControls.previous} aria-label="Previous track">
        <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path d="M6 5h2v14H6zM9.5 12 19 5v14z" />
        </svg>
      </button>
      <PlayPauseButton />
      <button type="button" className="player-button" onClick={playerControls.next} aria-label="Next track">
        <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path d="M16 5h2v14h-2zM5 5l9.5 7L5 19z" />
        </svg>
      </button>
    </div>
  );
}

function useDuration() {
  const track = useCurrentTrack();
  return track?.durationSeconds ?? 0;
}

/** How often the shown time moves between the playing tab's once-a-second reports. */
const TIME_REFRESH_MS = 250;

/**
 * Where the sound is now: the last report plus the time since, while it runs. Reports come once a
 * second; without this the clock would lag the music by up to a second.
 */
function useLivePosition() {
  const position = usePlayerStore((state) => state.position);
  const receivedAt = usePlayerStore((state) => state.receivedAt);
  const running = usePlayerStore((state) => state.status === 'playing');
  const duration = useDuration();
  const [now, setNow] = useState(0);
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), TIME_REFRESH_MS);
    return () => clearInterval(timer);
  }, [running]);
  const live = running && now > receivedAt ? position + (now - receivedAt) / 1000 : position;
  return duration ? Math.min(live, duration) : live;
}

function Scrubber() {
  const position = useLivePosition();
  const duration = useDuration();
  // While the thumb is dragged it shows where it is, not where the sound is; the seek happens on
  // release. Keys seek at once (Radix reports a key press as a change and a commit).
  const pointerDown = useRef(false);
  const [dragging, setDragging] = useState<number | null>(null);
  const shown = Math.min(dragging ?? position, duration || Infinity);
  return (
    <div className="player-scrubber">
      <span className="player-time" aria-hidden="true">
        {formatPlaybackTime(shown)}
      </span>
      <Slider.Root
        className="slider"
        min={0}
        max={Math.max(duration, 1)}
        step={1}
        value={[shown]}
        disabled={!duration}
        onPointerDown={() => {
          pointerDown.current = true;
        }}
        onValueChange={([value = 0]) => {
          if (pointerDown.current) setDragging(value);
          else playerControls.seek(value);
        }}
        onValueCommit={([value = 0]) => {
          if (!pointerDown.current) return;
          pointerDown.current = false;
          setDragging(null);
          playerControls.seek(value);
        }}
      >
        <Slider.Track className="slider-track">
          <Slider.Range className="slider-range" />
        </Slider.Track>
        <Slider.Thumb
          className="slider-thumb"
          aria-label="Seek"
          aria-valuetext={`${formatPlaybackTime(shown)} of ${formatPlaybackTime(duration)}`}
        />
      </Slider.Root>
      <span className="player-time" aria-hidden="true">
        {formatPlaybackTime(duration)}
      </span>
    </div>
  );
}

/** The thin line under the compact bar: how far into the track. */
function ProgressLine() {
  const position = useLivePosition();
  const duration = useDuration();
  const percent = duration ? Math.min(100, (position / duration) * 100) : 0;
  return (
    <span className="player-progress-line" aria-hidden="true">
      <span style={{ width: `${percent}%` }} />
    </span>
  );
}

/** Buffering, a track that failed, or the sound being in another tab: said in words. */
function usePlayerNotice() {
  const error = usePlayerStore((state) => state.error);
  const elsewhere = usePlayerStore((state) => state.playing && !state.playsHere);
  const buffering = usePlayerStore((state) => state.status === 'buffering');
  return { text: error ?? (buffering ? 'Buffering…' : elsewhere ? 'Playing in another tab' : ''), error: !!error };
}

function PlayerNotice() {
  const notice = usePlayerNotice();
  return (
    <p className={`player-notice${notice.error ? ' player-notice-error' : ''}`} role="status">
      {notice.text}
    </p>
  );
}
