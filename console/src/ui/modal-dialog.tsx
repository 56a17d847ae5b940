// A modal on the native <dialog>, shown while it is rendered: showModal() keeps focus inside and
// the browser's Escape closes it. Focus starts on the element marked `data-initial-focus` (the safe
// choice, such as Cancel) or else the first control; when the dialog goes, focus returns to what
// opened it, or to `fallbackFocus` (by default the screen's heading) when that is gone, as after
// deleting the row whose button opened it.
import { type ReactNode, type RefObject, useEffect, useId, useRef } from 'react';

export function ModalDialog({
  title,
  onClose,
  fallbackFocus,
  children,
}: {
  title: string;
  /** Called when the person dismisses the dialog (Escape); the caller then stops rendering it. */
  onClose: () => void;
  fallbackFocus?: RefObject<HTMLElement | null>;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  const fallback = useRef(fallbackFocus);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current!;
    if (!element.open) {
      opener.current = document.activeElement;
      element.showModal();
      element.querySelector<HTMLElement>('[data-initial-focus]')?.focus();
    }
    return () => {
      const back = opener.current;
      if (back instanceof HTMLElement && back.isConnected) back.focus();
      else (fallback.current?.current ?? document.querySelector<HTMLElement>('h1'))?.focus();
    };
  }, []);
  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      // Escape closes it through the screen's state at once, so that a key pressed right after acts
      // on the screen as it then shows.
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      className="modal"
    >
      <div className="stack">
        <h2 id={titleId} className="dialog-title">
          {title}
        </h2>
        {children}
      </div>
    </dialog>
  );
}
