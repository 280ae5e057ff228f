import type { ReactNode } from 'react';
import { formatBytes } from '../lib/format-bytes';
import { DeleteDialog } from '../ui/dialog';

// Saved music leaves the device only when the fan says so twice (issue 22): saving it again takes
// the network and time, so a slip of the finger must not cost either.

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

type RemoveSavedDialogProps = {
  open: boolean;
  onClose: () => void;
  /** Removes it; the dialog closes first. */
  onRemove: () => void;
  title: string;
  confirmLabel: string;
  /** What goes: how many of what ('track', 'album'). */
  count: number;
  noun: 'track' | 'album';
  /** The room it frees. */
  bytes: number;
  /** What stays. */
  children: ReactNode;
};

/** Asks before saved music is removed from this device: what goes, the space it frees, what stays. */
export function RemoveSavedDialog({
  open,
  onClose,
  onRemove,
  title,
  confirmLabel,
  count,
  noun,
  bytes,
  children,
}: RemoveSavedDialogProps) {
  return (
    <DeleteDialog
      open={open}
      onClose={onClose}
      title={title}
      confirmLabel={confirmLabel}
      pending={false}
      onConfirm={() => {
        onClose();
        onRemove();
      }}
    >
      <p>
        {plural(count, noun)} saved on this device will be removed, freeing {formatBytes(bytes)}.
      </p>
      <p>{children}</p>
    </DeleteDialog>
  );
}
