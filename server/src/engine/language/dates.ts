// Calendar dates in common formats, read with chrono-node, and spans of weekdays ("Monday to Friday").
// The reference date is fixed (no clock read): only the parts a text states (day, month, year) are
// kept and compared.
import * as chrono from 'chrono-node';

export interface CalendarDate {
  day: number | undefined;
  month: number;
  year: number | undefined;
  start: number;
  end: number;
  text: string;
}

const reference = new Date(Date.UTC(2000, 0, 1));

const monthOrNumericDate =
  /\b(jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sep(t|tember)?|oct(ober)?|nov(ember)?|dec(ember)?)\b\.?|\b\d{1,4}[/-]\d{1,2}[/-]\d{1,4}\b/i;
// Whether chrono is worth running: a month name that is no everyday word ("may", "march" only beside
// a number or after "in", "by"...), or a numeric date. chrono costs far more than this test, and most sentences hold no date.
const mayHoldDate =
  /\b(?:jan(?:uary)?|feb(?:ruary)?|apr(?:il)?|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b|\b(?:may|mar(?:ch)?)\b\.?\s*\d|\d(?:st|nd|rd|th)?\s+(?:of\s+)?(?:may|mar(?:ch)?)\b|\b(?:in|by|until|since|during|early|late|mid-?)\s+(?:may|march)\b|\b\d{1,4}[/-]\d{1,2}[/-]\d{1,4}\b/i;

export function extractDates(text: string): CalendarDate[] {
  if (!mayHoldDate.test(text)) return [];
  const dates: CalendarDate[] = [];
  for (const result of chrono.parse(text, reference)) {
    const start = result.start;
    if (!start.isCertain('month')) continue;
    // A relative expression ("45 days after") is a duration, not a calendar date.
    if (!monthOrNumericDate.test(result.text)) continue;
    // "12 December, 3 to 6 pm": chrono reads the month with the time after its comma; the day is the number before it.
    const misread = dayBeforeMonth(text, result.index, result.text);
    if (misread) {
      dates.push({ ...misread, month: start.get('month')!, year: undefined });
      continue;
    }
    // chrono includes a leading "on"/"in" in some matches; the date is what follows it.
    const lead = /^(?:on|in|by|from|until|since)\s+/i.exec(result.text)?.[0].length ?? 0;
    dates.push({
      day: start.isCertain('day') ? (start.get('day') ?? undefined) : undefined,
      month: start.get('month')!,
      year: start.isCertain('year') ? (start.get('year') ?? undefined) : undefined,
      start: result.index + lead,
      end: result.index + result.text.length,
      text: result.text.slice(lead),
    });
  }
  return dates;
}

/** A day written before a month that chrono read with a comma and a number after it ("12 December, 3 to 6"). */
function dayBeforeMonth(text: string, index: number, found: string): Omit<CalendarDate, 'month' | 'year'> | undefined {
  const month = /^\p{L}+\.?(?=\s*,\s*\d)/u.exec(found);
  const day = /\b(\d{1,2})(?:st|nd|rd|th)?\s+$/.exec(text.slice(Math.max(0, index - 6), index));
  if (!month || !day) return undefined;
  const start = index - day[0].length;
  const end = index + month[0].length;
  return { day: Number(day[1]), start, end, text: text.slice(start, end) };
}

export function sameDate(a: CalendarDate, b: CalendarDate): boolean {
  if (a.month !== b.month) return false;
  if (a.day !== undefined && b.day !== undefined && a.day !== b.day) return false;
  return a.year === undefined || b.year === undefined || a.year === b.year;
}

/** Spans of weekdays and the word each stands for: "Monday to Friday" says "weekdays", "Saturday and Sunday" "weekend". */
const dayRangePatterns: [RegExp, string[]][] = [
  [/\bmon(?:day)?\.?\s*(?:-|–|to|through|thru|until)\s*fri(?:day)?\b/gi, ['weekday', 'weekdays']],
  [/\bsat(?:urday)?s?\.?\s*(?:and|&|-|–|to)\s*sun(?:day)?s?\b/gi, ['weekend', 'weekends']],
];

export interface DayRange {
  start: number;
  end: number;
  /** The words it stands for. */
  words: string[];
}

export function dayRanges(text: string): DayRange[] {
  return dayRangePatterns.flatMap(([pattern, words]) =>
    [...text.matchAll(pattern)].map((m) => ({ start: m.index, end: m.index + m[0].length, words })),
  );
}
