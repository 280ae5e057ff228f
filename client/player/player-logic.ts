import type { PlayerTrack } from '../../shared/answers/library';

// The player's rules (spec part 1 section 4, "Player"), as a pure reducer: no audio, no timers, no
// browser APIs. The shared worker applies it to one state for every tab; each tab only mirrors the
// result and, if it is the playing tab, makes sound (STYLE.md rule 8).

/** Previous restarts the track when more than this far in (spec part 1 section 9). */
export const RESTART_THRESHOLD_SECONDS = 2;

/** How far before the end a seek to the end lands. */
export const END_MARGIN_SECONDS = 0.5;

export type TabId = string;

export type PlayerState = {
  tracklist: PlayerTrack[];
  index: number;
  /** Seconds into the current track, as last reported by the playing tab (or set by a seek). */
  position: number;
  /** Whether the listener wants sound. */
  playing: boolean;
  /** The one tab that makes the sound; null until someone presses play. */
  playingTab: TabId | null;
  /**
   * Bumped whenever the position is set from outside the audio (a seek, a new track, a restart),
   * so the playing tab knows to move its sound there, and ignores its own progress reports.
   */
  seekVersion: number;
  /** The playing tab is waiting for data. */
  buffering: boolean;
  /** Why the current track cannot play, until the listener moves on or retries. */
  error: string | null;
};

/** What a tab may save for a reload (spec: tracklist, index and position persist). */
export type SavedPlayer = Pick<PlayerState, 'tracklist' | 'index' | 'position'>;

export type PlayerCommand =
  | { type: 'load'; tracks: PlayerTrack[]; index: number; tab: TabId }
  | { type: 'play'; tab: TabId }
  /** From the playing tab, `position` is where its sound stopped. */
  | { type: 'pause'; tab?: TabId; position?: number }
  | { type: 'next'; tab: TabId }
  /** `position`: where the playing tab's sound is right now, for the exact 2-second rule. */
  | { type: 'previous'; tab: TabId; position?: number }
  | { type: 'seek'; position: number }
  // Reports from the playing tab name the seekVersion they are about: one that arrives after the
  // listener moved on (a next, a seek, another tab) is about a sound that is no longer wanted.
  | { type: 'progress'; tab: TabId; version: number; position: number }
  | { type: 'buffering'; tab: TabId; version: number; buffering: boolean }
  | { type: 'ended'; tab: TabId; version: number }
  | { type: 'failed'; tab: TabId; version: number; message: string }
  | { type: 'restore'; saved: SavedPlayer }
  | { type: 'tab-gone'; tab: TabId }
  | { type: 'clear' };

export const emptyPlayer: PlayerState = {
  tracklist: [],
  index: 0,
  position: 0,
  playing: false,
  playingTab: null,
  seekVersion: 0,
  buffering: false,
  error: null,
};

const clampIndex = (index: number, length: number) => Math.min(Math.max(0, Math.trunc(index) || 0), length - 1);
const validPosition = (position: number) => (Number.isFinite(position) && position > 0 ? position : 0);

/** Go to a track: from its start, with a fresh load, and playing as asked. */
function goTo(state: PlayerState, index: number, playing: boolean, tab: TabId | null): PlayerState {
  return {
    ...state,
    index,
    position: 0,
    playing,
    playingTab: playing ? tab : state.playingTab,
    seekVersion: state.seekVersion + 1,
    buffering: false,
    error: null,
  };
}

export function playerReducer(state: PlayerState, command: PlayerCommand): PlayerState {
  const hasTracks = state.tracklist.length > 0;
  // Reports from a tab that no longer plays (it was taken over) must not move the shared state.
  const fromPlayingTab = 'tab' in command && command.tab === state.playingTab;
  const current = fromPlayingTab && 'version' in command && command.version === state.seekVersion;
  // Moving on from a track that failed means the listener still wants to hear something.
  const keepPlaying = state.playing || state.error !== null;

  switch (command.type) {
    case 'load': {
      if (command.tracks.length === 0) return state;
      const loaded = { ...state, tracklist: command.tracks };
      return goTo(loaded, clampIndex(command.index, command.tracks.length), true, command.tab);
    }
    case 'play':
      if (!hasTracks) return state;
      // Playing in this tab takes the sound from any other (spec: other tabs pause). A failed track
      // gets one more try: the listener asked for it.
      return {
        ...state,
        playing: true,
        playingTab: command.tab,
        error: null,
        seekVersion: state.playingTab === command.tab && !state.error ? state.seekVersion : state.seekVersion + 1,
      };
    case 'pause': {
      const position = fromPlayingTab && command.position !== undefined ? validPosition(command.position) : undefined;
      return { ...state, playing: false, buffering: false, position: position ?? state.position };
    }
    case 'next': {
      if (!hasTracks) return state;
      const last = state.index >= state.tracklist.length - 1;
      // Next on the last track wraps to the first and stops (spec part 1 section 4).
      return last ? goTo(state, 0, false, null) : goTo(state, state.index + 1, keepPlaying, command.tab);
    }
    case 'previous': {
      if (!hasTracks) return state;
      const position = fromPlayingTab && command.position !== undefined ? command.position : state.position;
      if (position > RESTART_THRESHOLD_SECONDS || state.index === 0) {
        return { ...state, position: 0, seekVersion: state.seekVersion + 1 };
      }
      return goTo(state, state.index - 1, keepPlaying, command.tab);
    }
    case 'seek': {
      if (!hasTracks) return state;
      const duration = state.tracklist[state.index]?.durationSeconds;
      const position = validPosition(command.position);
      return {
        ...state,
        // A seek to the very end stops just short of it, so the track ends by itself (and the next
        // one follows) whether it was playing or starts playing later.
        position: duration ? Math.min(position, Math.max(0, duration - END_MARGIN_SECONDS)) : position,
        seekVersion: state.seekVersion + 1,
      };
    }
    case 'progress':
      return current ? { ...state, position: validPosition(command.position) } : state;
    case 'buffering':
      return current && state.buffering !== command.buffering ? { ...state, buffering: command.buffering } : state;
    case 'ended': {
      if (!current || !hasTracks) return state;
      const last = state.index >= state.tracklist.length - 1;
      // The end of a track plays the next; the end of the album wraps to the first and stops.
      return last ? goTo(state, 0, false, null) : goTo(state, state.index + 1, true, command.tab);
    }
    case 'failed':
      return current ? { ...state, playing: false, buffering: false, error: command.message } : state;
    case 'restore': {
      // A reloaded tab offers what it saved; a player that already has a tracklist keeps its own.
      if (hasTracks || command.saved.tracklist.length === 0) return state;
      return {
        ...emptyPlayer,
        tracklist: command.saved.tracklist,
        index: clampIndex(command.saved.index, command.saved.tracklist.length),
        position: validPosition(command.saved.position),
        seekVersion: state.seekVersion + 1,
      };
    }
    case 'tab-gone':
      // The playing tab closed or crashed: the sound stopped with it. A paused tab keeps its place:
      // a hidden tab's timers are throttled, and it must still answer the lock screen's play.
      return command.tab === state.playingTab && state.playing
        ? { ...state, playing: false, playingTab: null, buffering: false }
        : state;
    case 'clear':
      return { ...emptyPlayer, seekVersion: state.seekVersion + 1 };
  }
}

export const currentTrack = (state: Pick<PlayerState, 'tracklist' | 'index'>): PlayerTrack | undefined =>
  state.tracklist[state.index];
