import { sharedValue, useSharedValue } from '../lib/shared-value';

// Whether music plays in this tab, for what must know it without loading the player: the update
// prompt, mounted on every page once it has settled, waits for the music to stop before it
// reloads. Importing the player's store for that loaded it, its schemas and zod on every
// visitor's first page (issue 24); the store keeps this flag instead (player-store.ts).

const playingHere = sharedValue(false);

export const setPlayingHere = playingHere.set;

/** True while this tab's player is playing (false where no player was ever loaded). */
export const usePlayingHere = (): boolean => useSharedValue(playingHere, false);
