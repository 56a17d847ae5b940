// The queue's filters: review state, confidence, a range of days and the page size. Applying them
// writes them to the URL, which the queue reads; the form starts from what the URL holds.
import { useEffect, useId } from 'react';
import { useForm } from 'react-hook-form';
import { confidenceLevels, defaultFilters, filtersFrom, pageSizes, paramsOf, type QueueFilters, reviewStates } from './queue-filters';
import { confidenceWords, stateWords } from './review-words';

export function QueueFilterForm({ filters, onApply }: { filters: QueueFilters; onApply: (filters: QueueFilters) => void }) {
  const form = useForm<QueueFilters>({ defaultValues: filters });
  const { errors } = form.formState;
  const toErrorId = useId();
  // Back and forward change the URL under the form: show what it now holds.
  const shown = paramsOf(filters).toString();
  useEffect(() => form.reset(filtersFrom(new URLSearchParams(shown))), [shown, form]);
  const clear = () => {
    form.reset(defaultFilters);
    onApply(defaultFilters);
  };
  return (
    <form onSubmit={form.handleSubmit(onApply)} noValidate className="card queue-filters">
      <fieldset className="row">
        <legend>Filter the cases</legend>
        <label>
          Review state
          <select {...form.register('state')}>
            {reviewStates.map((state) => (
              <option key={state} value={state}>
                {stateWords[state]}
              </option>
            ))}
            <option value="any">Any state</option>
          </select>
        </label>
        <label>
          Confidence
          <select {...form.register('confidence')}>
            <option value="any">Any confidence</option>
            {confidenceLevels.map((level) => (
              <option key={level} value={level}>
                {confidenceWords[level]}
              </option>
            ))}
          </select>
        </label>
        <label>
          From (UTC day)
          <input type="date" {...form.register('from')} />
        </label>
        <label>
          To (UTC day)
          <input
            type="date"
            aria-invalid={errors.to ? true : undefined}
            aria-describedby={errors.to ? toErrorId : undefined}
            {...form.register('to', {
              validate: (to, values) => !to || !values.from || to >= values.from || 'The last day comes before the first.',
            })}
          />
          {errors.to && (
            <span id={toErrorId} className="field-error">
              {errors.to.message}
            </span>
          )}
        </label>
        <label>
          Cases per page
          <select {...form.register('limit', { setValueAs: Number })}>
            {pageSizes.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </label>
      </fieldset>
      <div className="row">
        <button type="submit" className="button">
          Apply filters
        </button>
        <button type="button" className="button secondary" onClick={clear}>
          Back to the queue
        </button>
      </div>
    </form>
  );
}
