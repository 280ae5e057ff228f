import { Dialog } from '../ui/dialog';

/**
 * Logging out of a device that holds saved music (issue 12): keep it for next time, or remove it
 * (a shared or borrowed phone).
 */
export function KeepSavedMusicDialog({
  open,
  onClose,
  onLogout,
  onRemove,
}: {
  open: boolean;
  onClose: () => void;
  onLogout: () => void;
  /** Removes the saved music (the store loads only when asked: it is not on the first page's path). */
  onRemove: () => Promise<void>;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title="Keep your saved music on this device?"
      className="dialog-narrow"
    >
      <div className="dialog-body stack">
        <p>
          Music you saved for offline listening stays on this device unless you remove it. Remove it if others use this
          device.
        </p>
        <div className="dialog-actions">
          <button
            type="button"
            className="button button-ghost"
            onClick={() => {
              onClose();
              void onRemove().finally(onLogout);
            }}
          >
            Remove and log out
          </button>
          <button
            type="button"
            className="button button-primary"
            onClick={() => {
              onClose();
              onLogout();
            }}
          >
            Keep and log out
          </button>
        </div>
      </div>
    </Dialog>
  );
}
