import { lazy, Suspense, useEffect } from 'react';
import { usePlayerStore } from './player-store';
import { startPlayer } from './start-player';

// The bar, its slider and its drawer load once there is something to play.
const PlayerBar = lazy(() => import('./player-bar').then((m) => ({ default: m.PlayerBar })));

/** A logged-in user's player: connects this tab to the shared player and shows the bar. */
export function PlayerSession() {
  const hasTracks = usePlayerStore((state) => state.tracklist.length > 0);
  useEffect(() => {
    void startPlayer();
  }, []);
  if (!hasTracks) return null;
  return (
    <Suspense fallback={null}>
      <PlayerBar />
    </Suspense>
  );
}
