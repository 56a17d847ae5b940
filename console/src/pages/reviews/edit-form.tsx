// Record a reviewer's corrections (ReviewEditRequest): a note, and 1 to 50 corrections, each naming
// a claim (or the whole answer), what to do with it, and a note on what it should say.
import type { CorrectionAction, RequestBody, ValidationRecord } from '@groundcheck/sdk';
import { useId, useRef } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { correctionTargets, firstTarget } from './correction-targets';
import { noteChars, ReviewFormFooter, TextField, textRules } from './review-fields';

/** The contract's bounds on an edit's corrections. */
const maxCorrections = 50;

const actionWords: Record<CorrectionAction, string> = {
  replace: 'Replace it',
  remove: 'Remove it',
  add: 'Add to it',
  annotate: 'Annotate it',
};
const correctionActions = Object.keys(actionWords) as CorrectionAction[];

interface EditFields {
  note: string;
  corrections: { element: string; action: CorrectionAction; note: string }[];
}

export function EditForm(props: {
  record: ValidationRecord;
  pending: boolean;
  error: unknown;
  onSubmit: (request: RequestBody<'ReviewEditRequest'>) => void;
  onCancel: () => void;
}) {
  const { record, pending, error, onSubmit, onCancel } = props;
  const targets = correctionTargets(record);
  const blank = { element: firstTarget(record, targets), action: 'replace' as const, note: '' };
  const form = useForm<EditFields>({ defaultValues: { note: '', corrections: [blank] } });
  const corrections = useFieldArray({ control: form.control, name: 'corrections', rules: { minLength: 1, maxLength: maxCorrections } });
  const { errors } = form.formState;
  const fieldId = useId();
  const addButton = useRef<HTMLButtonElement>(null);
  const nextTarget = () => {
    const used = new Set(form.getValues('corrections').map((c) => c.element));
    return targets.find((target) => !used.has(target.element))?.element ?? targets[0]!.element;
  };
  const remove = (i: number) => {
    corrections.remove(i);
    // The button pressed is gone: keep the keyboard in the form.
    addButton.current?.focus();
  };
  const submit = form.handleSubmit((fields) =>
    onSubmit({
      action: 'edit',
      note: fields.note.trim(),
      corrections: fields.corrections.map((c) => ({ element: c.element, action: c.action, note: c.note.trim() })),
    }),
  );
  return (
    <form noValidate className="stack" onSubmit={submit}>
      <p>Say what the answer should have said, claim by claim.</p>
      {corrections.fields.map((field, i) => (
        <fieldset key={field.id} className="stack correction">
          <legend>Correction {i + 1}</legend>
          <div className="field">
            <label htmlFor={`${fieldId}-element-${i}`}>Claim</label>
            <select id={`${fieldId}-element-${i}`} {...form.register(`corrections.${i}.element`)}>
              {targets.map((target) => (
                <option key={target.element} value={target.element}>
                  {target.label}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${fieldId}-action-${i}`}>Correction</label>
            <select id={`${fieldId}-action-${i}`} {...form.register(`corrections.${i}.action`)}>
              {correctionActions.map((action) => (
                <option key={action} value={action}>
                  {actionWords[action]}
                </option>
              ))}
            </select>
          </div>
          <TextField
            label="What it should say"
            multiline
            required
            error={errors.corrections?.[i]?.note}
            registration={form.register(`corrections.${i}.note`, textRules('correction', noteChars, true))}
          />
          {corrections.fields.length > 1 && (
            <div className="row">
              <button type="button" className="button secondary" onClick={() => remove(i)}>
                Remove correction {i + 1}
              </button>
            </div>
          )}
        </fieldset>
      ))}
      <div className="row">
        <button
          ref={addButton}
          type="button"
          className="button secondary"
          disabled={corrections.fields.length >= maxCorrections}
          onClick={() => corrections.append({ ...blank, element: nextTarget() })}
        >
          Add a correction
        </button>
      </div>
      <TextField
        label="Note"
        multiline
        required
        hint="Why you corrected it; kept in the case's history and the audit trail."
        error={errors.note}
        registration={form.register('note', textRules('note', noteChars, true))}
      />
      <ReviewFormFooter submitLabel="Save the corrections" pending={pending} error={error} onCancel={onCancel} />
    </form>
  );
}
