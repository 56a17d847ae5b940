// The trail's filters as a form: applied to the address on submit, reset when the address changes
// (Back, a link), so the form always shows the filters the list below uses.
import { isBefore, parseISO } from 'date-fns';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { kindLabels, kinds } from './kind-labels';
import { pageSizes, type TrailFilters } from './trail-filters';

export function TrailFiltersForm({ filters, onApply }: { filters: TrailFilters; onApply: (filters: TrailFilters) => void }) {
  const form = useForm<TrailFilters>({ defaultValues: filters });
  const { errors } = form.formState;
  const { reset } = form;
  useEffect(() => reset(filters), [filters, reset]);
  const clear = () => onApply({ kinds: [], actorId: '', validationId: '', dateFrom: '', dateTo: '', perPage: filters.perPage });
  return (
    <form className="stack audit-filters" noValidate onSubmit={form.handleSubmit(onApply)} aria-label="Filter the trail">
      <fieldset>
        <legend>Kinds of event</legend>
        <div className="checkbox-grid">
          {kinds.map((kind) => (
            <label key={kind} className="inline">
              <input type="checkbox" value={kind} {...form.register('kinds')} /> {kindLabels[kind]}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="row">
        <label>
          Actor id
          <input {...form.register('actorId')} placeholder="usr_…, key_…, sub:… or system" spellCheck={false} />
        </label>
        <label>
          Validation id
          <input {...form.register('validationId')} placeholder="val_…" spellCheck={false} />
        </label>
        <label>
          From (UTC day)
          <input type="date" {...form.register('dateFrom')} />
        </label>
        <label>
          To (UTC day)
          <input
            type="date"
            aria-invalid={errors.dateTo ? true : undefined}
            {...form.register('dateTo', {
              validate: (to, { dateFrom }) =>
                !to || !dateFrom || !isBefore(parseISO(to), parseISO(dateFrom)) || 'The end date is before the start date.',
            })}
          />
          {errors.dateTo && <span className="field-error">{errors.dateTo.message}</span>}
        </label>
        <label>
          Events per page
          <select {...form.register('perPage', { valueAsNumber: true })}>
            {pageSizes.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="row">
        <button type="submit" className="button">
          Apply filters
        </button>
        <button type="button" className="button secondary" onClick={clear}>
          Clear filters
        </button>
      </div>
    </form>
  );
}
