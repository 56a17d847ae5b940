// Check an answer (user and above): a question, an answer and sources, in one of the three modes.
import type { Me } from '@groundcheck/sdk';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { useOutletContext } from 'react-router';
import { api } from '../../api/client';
import { hasRole } from '../../api/me';
import { Page } from '../../ui/page';
import { ProblemMessage } from '../../ui/problem-message';
import { type CheckFields, checkRequest, emptyCheck, hasSource } from './check-request';
import { ValidationResult } from './validation-result';

const modes: { value: CheckFields['mode']; label: string; hint: string }[] = [
  { value: 'validate', label: 'Validate', hint: 'Check the answer against the sources.' },
  { value: 'validate_and_fix', label: 'Validate and fix', hint: 'Check it, and correct what the sources do not support.' },
  { value: 'generate', label: 'Generate', hint: 'Write an answer from the sources, then check it.' },
];

export function CheckPage() {
  const me = useOutletContext<Me>();
  const form = useForm<CheckFields>({ defaultValues: emptyCheck });
  const groups = useQuery({ queryKey: ['source-groups'], queryFn: async () => (await api.sources.list()).data });
  const check = useMutation({ mutationFn: async (fields: CheckFields) => ({ fields, result: await api.validate(checkRequest(fields)) }) });
  const resultRef = useRef<HTMLDivElement>(null);
  const hintId = useId();
  useEffect(() => {
    if (check.data) resultRef.current?.focus();
  }, [check.data]);
  const mode = form.watch('mode');
  const { errors } = form.formState;
  if (!hasRole(me.role, 'user'))
    return (
      <Page title="Check an answer">
        <p>Checking answers needs the user or admin role; viewers can read the reviews and the dashboard.</p>
      </Page>
    );
  const submit = form.handleSubmit((fields) => {
    if (!hasSource(fields)) {
      form.setError('inlineText', { message: 'Give at least one source: text, a source group or a URL.' });
      return;
    }
    check.mutate(fields);
  });
  return (
    <Page title="Check an answer">
      <form onSubmit={submit} noValidate className="stack card">
        <fieldset className="modes">
          <legend>Mode</legend>
          {modes.map((option) => (
            <div key={option.value} className="option">
              <label className="inline">
                <input type="radio" value={option.value} aria-describedby={`${hintId}-${option.value}`} {...form.register('mode')} />{' '}
                {option.label}
              </label>
              <span id={`${hintId}-${option.value}`} className="muted">
                {option.hint}
              </span>
            </div>
          ))}
        </fieldset>
        <label>
          Question
          <textarea
            rows={2}
            aria-invalid={errors.question ? true : undefined}
            {...form.register('question', {
              required: 'Enter the question.',
              maxLength: { value: 4000, message: 'At most 4,000 characters.' },
            })}
          />
          {errors.question && <span className="field-error">{errors.question.message}</span>}
        </label>
        {mode !== 'generate' && (
          <label>
            Answer to check
            <textarea
              rows={4}
              aria-invalid={errors.answer ? true : undefined}
              {...form.register('answer', {
                required: 'Enter the answer to check.',
                maxLength: { value: 50_000, message: 'At most 50,000 characters.' },
              })}
            />
            {errors.answer && <span className="field-error">{errors.answer.message}</span>}
          </label>
        )}
        <fieldset className="stack">
          <legend>Sources</legend>
          <label>
            Source text
            <textarea
              rows={5}
              aria-invalid={errors.inlineText ? true : undefined}
              {...form.register('inlineText', { maxLength: { value: 200_000, message: 'At most 200,000 characters.' } })}
            />
            {errors.inlineText && <span className="field-error">{errors.inlineText.message}</span>}
          </label>
          {groups.data && groups.data.length > 0 && (
            <fieldset>
              <legend>Source groups</legend>
              {groups.data.map((group) => (
                <label key={group.group_id} className="inline">
                  <input type="checkbox" value={group.group_id} {...form.register('groups')} /> {group.name}
                </label>
              ))}
            </fieldset>
          )}
          <label>
            URLs, one per line
            <textarea rows={2} {...form.register('urls')} />
          </label>
        </fieldset>
        {check.isError && <ProblemMessage error={check.error} />}
        <div className="row">
          <button type="submit" className="button" disabled={check.isPending}>
            {check.isPending ? 'Checking…' : mode === 'generate' ? 'Generate and check' : 'Check the answer'}
          </button>
        </div>
      </form>
      {check.data && (
        <div ref={resultRef} tabIndex={-1} className="result">
          <ValidationResult result={check.data.result} inlineText={check.data.fields.inlineText} />
        </div>
      )}
    </Page>
  );
}
