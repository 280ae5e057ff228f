import * as RadixDialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { Alert } from './alert';
import { NetworkButton } from './needs-network';

type DialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  children: ReactNode;
  className?: string;
  /** Where the focus goes when it closes (Radix: back to what opened it, unless prevented). */
  onCloseAutoFocus?: (event: Event) => void;
};

/** Accessible modal (focus trap, Escape, labelled, described by its description) on Radix. */
export function Dialog({ open, onOpenChange, title, description, children, className, onCloseAutoFocus }: DialogProps) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay" />
        <RadixDialog.Content
          className={`dialog${className ? ` ${className}` : ''}`}
          // Radix names the description when there is one; without, it would warn of none.
          {...(description ? {} : { 'aria-describedby': undefined })}
          onCloseAutoFocus={onCloseAutoFocus}
        >
          <RadixDialog.Title className="dialog-title">{title}</RadixDialog.Title>
          {description && (
            <RadixDialog.Description className="dialog-description">{description}</RadixDialog.Description>
          )}
          {children}
          <RadixDialog.Close className="dialog-close" aria-label="Close">
            ×
          </RadixDialog.Close>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** A short message in a dialog with one OK button (the spec's 'Unable to ...' dialogs). */
export function MessageDialog({
  open,
  onClose,
  title,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
}) {
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()} title={title}>
      <div className="dialog-body">{children}</div>
      <div className="dialog-actions">
        <button type="button" className="button button-primary" onClick={onClose}>
          OK
        </button>
      </div>
    </Dialog>
  );
}

/**
 * Asks before going on: the description is the question, the safe choice comes first (and takes
 * the focus), the other goes on. Escape, the ×, and a click outside are the safe choice too.
 */
export function ConfirmDialog({
  open,
  title,
  question,
  cancelLabel,
  confirmLabel,
  onCancel,
  onConfirm,
  onCloseAutoFocus,
}: {
  open: boolean;
  title: string;
  question: string;
  cancelLabel: string;
  confirmLabel: string;
  onCancel: () => void;
  onConfirm: () => void;
  onCloseAutoFocus?: (event: Event) => void;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && onCancel()}
      title={title}
      description={question}
      className="dialog-narrow"
      onCloseAutoFocus={onCloseAutoFocus}
    >
      <div className="dialog-actions">
        <button type="button" className="button button-ghost" onClick={onCancel}>
          {cancelLabel}
        </button>
        <button type="button" className="button button-primary" onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}

type DeleteDialogProps = {
  open: boolean;
  onClose: () => void;
  title: string;
  /** What is removed, what is kept. */
  children: ReactNode;
  /** Why the last try failed, if it did. */
  error?: string;
  confirmLabel: string;
  pending: boolean;
  onConfirm: () => void;
  /** What the deletion is, for "Connect to the internet to …", when the server does it. */
  needsNetwork?: string;
};

/** Asks before deleting something for good: Cancel, or the danger button ('Deleting...' while it runs). */
export function DeleteDialog({
  open,
  onClose,
  title,
  children,
  error,
  confirmLabel,
  pending,
  onConfirm,
  needsNetwork,
}: DeleteDialogProps) {
  const confirmProps = {
    type: 'button',
    className: 'button button-danger',
    disabled: pending,
    onClick: onConfirm,
    children: pending ? 'Deleting...' : confirmLabel,
  } as const;
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()} title={title} className="dialog-narrow">
      <div className="dialog-body stack">
        {children}
        {error && <Alert tone="error">{error}</Alert>}
        <div className="dialog-actions">
          <button type="button" className="button button-ghost" onClick={onClose}>
            Cancel
          </button>
          {needsNetwork ? <NetworkButton action={needsNetwork} {...confirmProps} /> : <button {...confirmProps} />}
        </div>
      </div>
    </Dialog>
  );
}
