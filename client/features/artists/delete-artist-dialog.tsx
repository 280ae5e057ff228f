import type { Artist } from '../../../shared/answers/artists';
import { DeleteDialog } from '../../ui/dialog';
import { useDeleteArtist } from './api';

type DeleteArtistDialogProps = {
  /** The artist to delete; the dialog is open while there is one. */
  artist: Artist | null;
  onClose: () => void;
  onDeleted?: () => void;
};

/** Asks before deleting (spec part 1 section 2) and explains a failure (section 8). */
export function DeleteArtistDialog({ artist, onClose, onDeleted }: DeleteArtistDialogProps) {
  const remove = useDeleteArtist();
  function close() {
    remove.reset();
    onClose();
  }
  return (
    <DeleteDialog
      open={artist !== null}
      onClose={close}
      title="Delete this artist?"
      error={remove.isError ? 'Something went wrong! Unable to delete this artist.' : undefined}
      confirmLabel="Delete artist"
      pending={remove.isPending}
      needsNetwork="delete this artist"
      onConfirm={() =>
        artist &&
        remove.mutate(artist, {
          onSuccess: () => {
            remove.reset();
            onClose();
            onDeleted?.();
          },
        })
      }
    >
      {artist && (
        <p>
          <strong>{artist.name}</strong> and its fundraisers will be removed. Donations already made are kept. This
          cannot be undone.
        </p>
      )}
    </DeleteDialog>
  );
}
