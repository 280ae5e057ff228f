import type { Artist } from '../../../shared/schemas/artists';
import { Alert } from '../../ui/alert';
import { Dialog } from '../../ui/dialog';
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
    <Dialog
      open={artist !== null}
      onOpenChange={(open) => !open && close()}
      title="Delete this artist?"
      className="dialog-narrow"
    >
      {artist && (
        <div className="dialog-body stack">
          <p>
            <strong>{artist.name}</strong> and its fundraisers will be removed. Donations already made are kept. This
            cannot be undone.
          </p>
          {remove.isError && <Alert tone="error">Something went wrong! Unable to delete this artist.</Alert>}
          <div className="dialog-actions">
            <button type="button" className="button button-ghost" onClick={close}>
              Cancel
            </button>
            <button
              type="button"
              className="button button-danger"
              disabled={remove.isPending}
              onClick={() =>
                remove.mutate(artist, {
                  onSuccess: () => {
                    remove.reset();
                    onClose();
                    onDeleted?.();
                  },
                })
              }
            >
              {remove.isPending ? 'Deleting...' : 'Delete artist'}
            </button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
