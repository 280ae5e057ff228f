import { useEffect } from 'react';
import type { SavedTrack } from './offline-db';
import { useSavedTracks } from './use-offline';

// What the album page takes from the offline store, in a chunk of its own that the page loads once
// it has drawn the album (client/features/music/album-page.tsx): the store (Dexie), the save
// controls and their dialog are not part of what the page needs to show its cover and tracks.

export { SaveAlbumControl, TrackSaveButton } from './save-for-offline';

/** Reads the album's saved tracks from the store and hands them to the page, as they change. */
export function SavedTracksReader({
  projectId,
  onRead,
}: {
  projectId: number;
  onRead: (tracks: Map<number, SavedTrack> | undefined) => void;
}) {
  const tracks = useSavedTracks(projectId);
  useEffect(() => onRead(tracks), [tracks, onRead]);
  return null;
}
