import { lazy, Suspense, useEffect, useState } from 'react';
import type { PlayerTrack } from '../../shared/answers/library';
import { useSessionSettled, useUser } from '../lib/session';
import { sharedValue, useSharedValue } from '../lib/shared-value';
import { SAVED_PLAYER_KEY } from './saved-player-key';

// The player is for logged-in users (spec part 1 section 6): its code (the rules, the link to the
// other tabs, the engine) loads once somebody logged in has a page that has settled, or plays
// something first, so a visitor's first page does not carry it (issue 13). One exception: a guest who has just bought an album plays it from the
// success page or the receipt's page (issue 22), in the same bar, with the lock screen and all.
// That player is the tab's own: its tracks are granted to whoever holds the page, not to the
// browser's session, so they are kept nowhere and shared with no other tab, and a login (which
// makes the player the account's) leaves them behind.
const PlayerSession = lazy(() => import('./player-session').then((m) => ({ default: m.PlayerSession })));

let playerStarted = false;

/** This tab plays a guest's granted tracks. */
const guestListening = sharedValue(false);
const setGuestListening = guestListening.set;

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
  const guest = useSharedValue(guestListening, false);
  // This tab had a player before this page: its bar comes back at once (PlayerSession).
  const [restoring] = useState(hasSavedPlayer);

  useEffect(() => {
    if (user) {
      playerStarted = true;
      // The player is the account's now (PlayerSession connects it): a guest's tracks are gone.
      setGuestListening(false);
    } else if (confirmed && (playerStarted || hasSavedPlayer())) {
      void import('./player-store').then((store) => store.clearPlayer());
    }
  }, [user, confirmed]);

  if (!user && !guest) return null;
  return (
    <Suspense fallback={null}>
      <PlayerSession account={user !== null} restoring={restoring} />
    </Suspense>
  );
}

/**
 * Plays `tracks` from `index`, starting this tab's player first: in the account's player when
 * someone is logged in (cleared at logout like any other), else, for tracks a purchase grants
 * (their `src` carries the grant), in a player of this tab's own. Every Play that loads tracks
 * comes here: a click can come before the player's own start (PlayerSession starts it once the
 * first page has settled), and a player that has not started drops what it is told.
 */
export function playTracksFrom(tracks: PlayerTrack[], index: number, loggedIn: boolean) {
  if (!loggedIn) setGuestListening(true);
  void Promise.all([import('./start-player'), import('./player-store')]).then(([player, store]) => {
    void (loggedIn ? player.startPlayer() : player.startGuestPlayer());
    store.playerControls.playTracks(tracks, index);
  });
}

/** Pauses the music player, if this tab runs one (another sound is starting: one sound at a time). */
export function pauseThePlayer() {
  if (playerStarted || guestListening.get()) {
    void import('./player-store').then((store) => store.playerControls.pause());
  }
}
