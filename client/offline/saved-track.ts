import type { SavedTrack } from './offline-db';

/** Whether a saved track has every byte (without loading the offline store: pages ask it early). */
export const isTrackSaved = (track: SavedTrack | undefined) =>
  Boolean(track && track.size > 0 && track.received >= track.size);
