// The dashboard's range of days: calendar dates as the contract reads them (UTC), kept in the address
// so that a range can be linked to and the back button returns to the previous one.
import type { AnalyticsQuery } from '@groundcheck/sdk';
import { differenceInCalendarDays, format, isValid, parseISO, subDays } from 'date-fns';

export type DayRange = Required<Pick<AnalyticsQuery, 'date_from' | 'date_to'>>;

/** The longest range the API answers. */
export const maxDays = 366;
const defaultDays = 30;
const calendarDate = /^\d{4}-\d{2}-\d{2}$/;

/** Today in UTC, the calendar the API counts days in, as a local date of the same number. */
function utcToday(): Date {
  return parseISO(new Date().toISOString().slice(0, 10));
}

/** The 30 days ending today, as the API's own default. */
export function defaultRange(): DayRange {
  const today = utcToday();
  return { date_from: format(subDays(today, defaultDays - 1), 'yyyy-MM-dd'), date_to: format(today, 'yyyy-MM-dd') };
}

export function isCalendarDate(value: string): boolean {
  return calendarDate.test(value) && isValid(parseISO(value));
}

/** Days in the range, both ends counted. */
export function daysIn(range: DayRange): number {
  return differenceInCalendarDays(parseISO(range.date_to), parseISO(range.date_from)) + 1;
}

/** The range in the address (`?from=&to=`), or the default when either date is missing or malformed. */
export function rangeFromSearch(search: URLSearchParams): DayRange {
  const from = search.get('from') ?? '';
  const to = search.get('to') ?? '';
  return isCalendarDate(from) && isCalendarDate(to) ? { date_from: from, date_to: to } : defaultRange();
}

export function rangeToSearch(range: DayRange): Record<string, string> {
  return { from: range.date_from, to: range.date_to };
}

/** "1 Nov 2026" for a calendar date. */
export function dayLabel(date: string, pattern = 'd MMM yyyy'): string {
  return format(parseISO(date), pattern);
}
