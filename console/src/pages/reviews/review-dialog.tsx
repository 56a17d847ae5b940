// A review action's dialog on the native <dialog>: shown modal while it is rendered, so the browser
// keeps focus inside and closes it on Escape. When it goes, focus returns to the button that opened
// it, or to the screen's heading when that button is gone (the page then moves focus to what was
// decided).
import { type ReactNode, useEffect, useId, useRef } from 'react';

export function ReviewDialog({ title, onCancel, children }: { title: string; onCancel: () => void; children: ReactNode }) {
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
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      // Escape closes it through the screen's state at once, so a key pressed right after acts on the screen as it shows.
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
      onClose={onCancel}
      className="review-dialog"
    >
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}
