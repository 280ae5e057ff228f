import { create } from 'zustand';
import type { PlayerTrack } from '../../shared/answers/library';
import { type PlayerLink } from './player-link';
import { setPlayingHere } from './playing-here';
import { SAVED_PLAYER_KEY } from './saved-player-key';
import { currentTrack, emptyPlayer, type PlayerCommand, type PlayerState, type SavedPlayer } from './player-logic';

// Each tab's mirror of the shared player state (DESIGN.md section 3): what the worker last said,
// plus this tab's id. A small store on purpose (STYLE.md): the rules live in player-logic, the
// sound in the audio engine, and start-player.ts connects the three.

export type PlayerStatus = 'idle' | 'playing' | 'paused' | 'buffering' | 'error';

export type PlayerView = PlayerState & {
  /** This tab's id in the shared state. */
  tab: string;
  status: PlayerStatus;
  /** The sound comes from this tab. */
  playsHere: boolean;
  /** When this state arrived (ms), so the shown time can run on between reports. */
  receivedAt: number;
};

const tab = typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : String(Math.random());

function statusOf(state: PlayerState): PlayerStatus {
  if (state.tracklist.length === 0) return 'idle';
  if (state.error) return 'error';
  if (!state.playing) return 'paused';
  return state.buffering ? 'buffering' : 'playing';
}

const view = (state: PlayerState): PlayerView => ({
  ...state,
  tab,
  status: statusOf(state),
  playsHere: state.playingTab === tab,
  receivedAt: Date.now(),
});

export const usePlayerStore = create<PlayerView>()(() => view(emptyPlayer));

// For the update prompt, which waits for the music to stop without loading this store (playing-here.ts).
usePlayerStore.subscribe((state) => setPlayingHere(state.playing && state.playsHere));

// ---------------------------------------------------------------------------------------------
// Saved for a reload of this tab (spec part 1 section 4: sessionStorage, cleared when logged out);
// read back by saved-player.ts.

/**
 * Whose player this tab runs: nobody's yet; a logged-in account's (shared with the other tabs and
 * kept for a reload, spec part 1 section 4); or a guest's, playing what a purchase grants from
 * the success or receipt page, in this tab alone and kept nowhere (client/player/player-dock.tsx).
 */
type PlayerMode = 'none' | 'account' | 'guest';
let mode: PlayerMode = 'none';
let lastSaved: { tracks: string; index: number; at: number } | null = null;
const SAVE_POSITION_EVERY_MS = 3_000;

function save(state: PlayerState) {
  // Only while someone is logged in (spec): a logged-out tab keeps nothing.
  if (mode !== 'account') return;
  // Position moves every second; writing the whole tracklist that often is wasted work.
  const now = Date.now();
  const tracks = state.tracklist.map((track) => track.src).join('\n');
  const sameTrack = lastSaved?.tracks === tracks && lastSaved.index === state.index;
  if (sameTrack && state.playing && lastSaved && now - lastSaved.at < SAVE_POSITION_EVERY_MS) return;
  lastSaved = { tracks, index: state.index, at: now };
  try {
    if (state.tracklist.length === 0) sessionStorage.removeItem(SAVED_PLAYER_KEY);
    else {
      const saved: SavedPlayer = { tracklist: state.tracklist, index: state.index, position: state.position };
      sessionStorage.setItem(SAVED_PLAYER_KEY, JSON.stringify(saved));
    }
  } catch {
    // Storage full or disabled: the player still works, it just will not survive a reload.
  }
}

// ---------------------------------------------------------------------------------------------
// The link to the player's state, made by start-player.ts: the shared one when a user is logged
// in, this tab's own for a guest.

let link: PlayerLink | null = null;

/** Commands given before the link is up (a click while the player's code still loads). */
let pending: PlayerCommand[] = [];

/**
 * The player is now the logged-in account's (keepPlayer: kept for a reload) or a guest's
 * (keepGuestPlayer: kept nowhere); either way commands wait for the link.
 */
export function keepPlayer() {
  mode = 'account';
}

export function keepGuestPlayer() {
  mode = 'guest';
}

/** The link is up: commands go through it, starting with those that waited. */
export function attachLink(next: PlayerLink) {
  link = next;
  for (const command of pending) link.send(command);
  pending = [];
}

/**
 * The player changes hands (a guest logs in; a logged-out tab plays what a purchase grants): this
 * tab leaves the player it took part in, and shows nothing of it any more. Nothing passes from one
 * to the other: a guest's granted tracks never reach an account's shared player, nor the reverse.
 */
export function detachLink() {
  link?.disconnect();
  link = null;
  pending = [];
  lastSaved = null;
  usePlayerStore.setState(view(emptyPlayer));
}

/** Mirrors a state the shared player sent. */
export function receiveState(state: PlayerState) {
  usePlayerStore.setState(view(state));
  save(state);
}

/**
 * What this tab offers a shared player that has no tracklist: its copy, or what it saved before a
 * reload (read by `readSaved`: saved-player.ts, loaded with the link).
 */
export function offerSaved(readSaved: () => SavedPlayer | undefined): SavedPlayer | undefined {
  const state = usePlayerStore.getState();
  return state.tracklist.length ? state : readSaved();
}

/** The page is going away: a reload must find where the sound was this instant, not at the last report. */
export function saveBeforeLeaving() {
  const state = usePlayerStore.getState();
  if (state.playsHere && livePosition) {
    lastSaved = null;
    save({ ...state, position: livePosition(), playing: false });
  }
}

/**
 * Nobody is logged in: the account's player empties in every tab and forgets what it saved. A
 * guest's own player is nobody's session: it stays.
 */
export function clearPlayer() {
  if (mode === 'guest') return;
  mode = 'none';
  lastSaved = null;
  pending = [];
  try {
    sessionStorage.removeItem(SAVED_PLAYER_KEY);
  } catch {
    // Nothing saved then.
  }
  link?.send({ type: 'clear' });
  usePlayerStore.setState(view(emptyPlayer));
}

/** Where this tab's sound is right now, set by the audio engine (the shared state lags a second). */
let livePosition: (() => number) | null = null;
export function setLivePosition(source: (() => number) | null) {
  livePosition = source;
}

export function sendToPlayer(command: PlayerCommand) {
  if (link) link.send(command);
  else if (mode !== 'none') pending.push(command);
}

export const playerControls = {
  playTracks: (tracks: PlayerTrack[], index: number) => sendToPlayer({ type: 'load', tracks, index, tab }),
  play: () => sendToPlayer({ type: 'play', tab }),
  pause: () => sendToPlayer({ type: 'pause', tab, position: livePosition?.() }),
  toggle: () => {
    const state = usePlayerStore.getState();
    // Playing somewhere else and pressed here: the sound moves to this tab (spec: one tab plays).
    if (state.playing && state.playsHere) playerControls.pause();
    else playerControls.play();
  },
  next: () => sendToPlayer({ type: 'next', tab }),
  previous: () => sendToPlayer({ type: 'previous', tab, position: livePosition?.() }),
  seek: (seconds: number) => sendToPlayer({ type: 'seek', position: seconds }),
};

export const useCurrentTrack = () => usePlayerStore((state) => currentTrack(state));
