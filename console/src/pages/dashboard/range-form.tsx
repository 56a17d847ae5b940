// Picks the range of days the analytics cover; the API's own limits are checked before asking it.
import { useForm } from 'react-hook-form';
import { type DayRange, daysIn, isCalendarDate, maxDays } from './day-range';

export function RangeForm({ range, onChange }: { range: DayRange; onChange: (range: DayRange) => void }) {
  // `values` resets the fields when the range changes from outside (the back button).
  const form = useForm<DayRange>({ values: range });
  const { errors } = form.formState;
  return (
    <form onSubmit={form.handleSubmit(onChange)} noValidate className="row" aria-label="Range of days">
      <label>
        From
        <input
          type="date"
          aria-invalid={errors.date_from ? true : undefined}
          {...form.register('date_from', { validate: (from) => isCalendarDate(from) || 'Enter the first day.' })}
        />
        {errors.date_from && <span className="field-error">{errors.date_from.message}</span>}
      </label>
      <label>
        To
        <input
          type="date"
          aria-invalid={errors.date_to ? true : undefined}
          {...form.register('date_to', {
            validate: (to, { date_from }) => {
              if (!isCalendarDate(to)) return 'Enter the last day.';
              if (!isCalendarDate(date_from)) return true;
              const days = daysIn({ date_from, date_to: to });
              if (days < 1) return 'The last day comes before the first.';
              return days <= maxDays || `At most ${maxDays} days at a time.`;
            },
          })}
        />
        {errors.date_to && <span className="field-error">{errors.date_to.message}</span>}
      </label>
      <button type="submit" className="button">
        Show
      </button>
    </form>
  );
}
