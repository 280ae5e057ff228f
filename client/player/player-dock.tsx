import { lazy, Suspense, useEffect } from 'react';
import { useSessionSettled, useUser } from '../lib/session';
import { SAVED_PLAYER_KEY } from './saved-player-key';

// The player is for logged-in users only (spec part 1 section 6): its code (the store, the rules,
// the link to the other tabs) loads when somebody is logged in, so a visitor's first page does not
// carry it (issue 13).
const PlayerSession = lazy(() => import('./player-session').then((m) => ({ default: m.PlayerSession })));

let playerStarted = false;

function hasSavedPlayer(): boolean {
  try {
    return sessionStorage.getItem(SAVED_PLAYER_KEY) !== null;
  } catch {
    return false;
  }
}

/** Runs the player while someone is logged in and empties it when nobody is (spec part 1 section 4). */
export function PlayerDock() {
  const user = useUser();
  const confirmed = useSessionSettled();

  useEffect(() => {
    if (user) playerStarted = true;
    else if (confirmed && (playerStarted || hasSavedPlayer())) {
      void import('./player-store').then((store) => store.clearPlayer());
    }
  }, [user, confirmed]);

  if (!user) return null;
  return (
    <Suspense fallback={null}>
      <PlayerSession />
    </Suspense>
  );
}

/** Pauses the music player, if this tab runs one (another sound is starting: one sound at a time). */
export function pauseThePlayer() {
  if (playerStarted) void import('./player-store').then((store) => store.playerControls.pause());
}
