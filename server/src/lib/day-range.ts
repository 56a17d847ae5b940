// Calendar days (`YYYY-MM-DD`, UTC) as the query bodies use them.
import { BadRequestError } from '../errors.js';

const dayMs = 24 * 60 * 60 * 1000;
const firstDay = Date.parse('0001-01-01T00:00:00.000Z');

/** A `YYYY-MM-DD` day range as inclusive instants: from 00:00:00.000Z of the first day to 23:59:59.999Z of the last. */
export function dayRange(dateFrom: string | undefined, dateTo: string | undefined): { from?: string; to?: string } {
  for (const [name, day] of [
    ['date_from', dateFrom],
    ['date_to', dateTo],
  ] as const) {
    if (day !== undefined && !isCalendarDay(day)) {
      throw new BadRequestError('invalid_request', `${name} is not a calendar date.`, [
        { pointer: `/${name}`, detail: `"${day}" is not a calendar date (YYYY-MM-DD, UTC).` },
      ]);
    }
  }
  if (dateFrom !== undefined && dateTo !== undefined && dateTo < dateFrom) {
    throw new BadRequestError('invalid_request', 'date_to is before date_from.', [
      { pointer: '/date_to', detail: `${dateTo} is before date_from ${dateFrom}.` },
    ]);
  }
  return {
    from: dateFrom === undefined ? undefined : `${dateFrom}T00:00:00.000Z`,
    to: dateTo === undefined ? undefined : `${dateTo}T23:59:59.999Z`,
  };
}

export function isCalendarDay(day: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const parsed = new Date(`${day}T00:00:00.000Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === day;
}

/** The UTC calendar day of an instant. */
export function dayOf(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/** The day `days` after (or before) `day`; a rolling window reaching before year 1 starts at its first day: nothing is older. */
export function addDays(day: string, days: number): string {
  return dayOf(new Date(Math.max(firstDay, Date.parse(`${day}T00:00:00.000Z`) + days * dayMs)));
}
