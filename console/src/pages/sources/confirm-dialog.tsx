// "Are you sure?" for an action that cannot be undone, with the action's outcome inside: the dialog
// stays open, showing the problem, when the server refuses.
import type { ReactNode } from 'react';
import { ModalDialog } from '../../ui/modal-dialog';
import { ProblemMessage } from '../../ui/problem-message';

interface ConfirmDialogProps {
  title: string;
  confirmLabel: string;
  pending: boolean;
  error: unknown;
  onConfirm: () => void;
  onClose: () => void;
  children: ReactNode;
}

export function ConfirmDialog({ title, confirmLabel, pending, error, onConfirm, onClose, children }: ConfirmDialogProps) {
  return (
    <ModalDialog title={title} onClose={onClose}>
      <form
        className="stack"
        onSubmit={(event) => {
          event.preventDefault();
          onConfirm();
        }}
      >
        {children}
        {error ? <ProblemMessage error={error} /> : null}
        <div className="row">
          {/* Cancel first: the dialog's first button, where focus lands, is the one that changes nothing. */}
          <button type="button" className="button secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button danger" disabled={pending}>
            {pending ? 'Working…' : confirmLabel}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
