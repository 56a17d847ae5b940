// The pieces every review form shares: a text field with its error tied to it, the bounds the
// contract puts on notes and references, and the footer that submits, cancels and shows a refusal.
import { type ReactNode, useId } from 'react';
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';
import { ProblemMessage } from '../../ui/problem-message';

/** The contract's ReviewNote and ExternalReference bounds. */
export const noteChars = 2000;
export const referenceChars = 200;

/** Rules for a text the contract bounds, required or not; blank text counts as none. */
export function textRules(label: string, maxChars: number, required: boolean) {
  return {
    validate: (value: string) => (!required || value.trim().length > 0 ? true : `Write the ${label}.`),
    maxLength: { value: maxChars, message: `At most ${maxChars.toLocaleString('en')} characters.` },
  };
}

export function TextField(props: {
  label: ReactNode;
  hint?: string;
  multiline?: boolean;
  required: boolean;
  error: FieldError | undefined;
  registration: UseFormRegisterReturn;
}) {
  const { label, hint, multiline, required, error, registration } = props;
  const controlId = useId();
  const errorId = useId();
  const hintId = useId();
  const described = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  const common = { id: controlId, 'aria-invalid': error ? true : undefined, 'aria-describedby': described, ...registration };
  return (
    <div className="field">
      <label htmlFor={controlId}>
        {label} <span className="muted">{required ? '(required)' : '(optional)'}</span>
      </label>
      {multiline ? <textarea rows={4} aria-required={required} {...common} /> : <input type="text" aria-required={required} {...common} />}
      {hint && (
        <span id={hintId} className="muted">
          {hint}
        </span>
      )}
      {error && (
        <span id={errorId} className="field-error">
          {error.message}
        </span>
      )}
    </div>
  );
}

export function ReviewFormFooter(props: { submitLabel: string; pending: boolean; error: unknown; onCancel: () => void }) {
  const { submitLabel, pending, error, onCancel } = props;
  return (
    <>
      {error ? <ProblemMessage error={error} /> : null}
      <div className="row">
        <button type="submit" className="button" disabled={pending}>
          {pending ? 'Saving…' : submitLabel}
        </button>
        <button type="button" className="button secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </>
  );
}
