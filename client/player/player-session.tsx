import { lazy, Suspense, useEffect } from 'react';
import { usePlayerStore } from './player-store';
import { whenPageSettled } from '../lib/page-settled';
import { startPlayer } from './start-player';

// The bar, its slider and its drawer load once there is something to play.
const PlayerBar = lazy(() => import('./player-bar').then((m) => ({ default: m.PlayerBar })));

/**
 * The bar of this tab's player. A logged-in user's connects this tab to the shared player; a
 * guest's player is started by what it plays (playTracksFrom in player-dock.tsx).
 */
export function PlayerSession({ account, restoring }: { account: boolean; restoring: boolean }) {
  const hasTracks = usePlayerStore((state) => state.tracklist.length > 0);
  // Once the first page has settled: its link to the other tabs and its engine (Howler) are a
  // phone's 100 ms and more, which the first page should not wait behind (issue 24). A Play
  // clicked before then starts it itself (playTracksFrom in player-dock.tsx). A tab reloaded with
  // its player saved starts at once: its bar is part of the page it had.
  useEffect(() => {
    if (!account) return;
    if (!restoring) return whenPageSettled(() => void startPlayer());
    void startPlayer();
  }, [account, restoring]);
  if (!hasTracks) return null;
  return (
    <Suspense fallback={null}>
      <PlayerBar />
    </Suspense>
  );
}
