// A modal dialog on the native <dialog>: the browser keeps focus inside it and closes it on Escape.
// The caller shows it by rendering it and closes it by no longer rendering it; `onClose` tells of a
// close the browser made (Escape). Focus then goes back to what opened it, or to the screen's
// heading when that is gone (the row of a deleted item).
import { type ReactNode, useEffect, useId, useRef } from 'react';

export function ModalDialog({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current!;
    if (!element.open) {
      opener.current = document.activeElement;
      element.showModal();
    }
    return () => {
      const back = opener.current;
      if (back instanceof HTMLElement && back.isConnected) back.focus();
      else document.querySelector<HTMLElement>('h1')?.focus();
    };
  }, []);
  return (
    <dialog ref={dialog} aria-labelledby={titleId} onClose={onClose} className="modal">
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}
