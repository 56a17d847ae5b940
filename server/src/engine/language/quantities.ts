// Numbers in text, normalised so that "two weeks" equals "14 days", "a fifth" equals "20%",
// "$1.2 billion" equals "1,200 million" and "sixty-five" equals "65".

import { type CalendarDate, extractDates, sameDate } from './dates.js';

export type QuantityKind = 'count' | 'money' | 'percent' | 'fraction' | 'duration' | 'time' | 'version' | 'date';

export interface Quantity {
  kind: QuantityKind;
  /** The value in the kind's base unit (seconds, minutes of the day, currency units, percent points). */
  value: number;
  /** The number as written, before units ("14" of "14 days"). */
  raw: number;
  /** Currency symbol, duration family (`s`, `bday`, `night`) or version string. */
  unit: string;
  /** Hedged in the text ("about", "roughly", "around"): matched with a tolerance. */
  approx: boolean;
  start: number;
  end: number;
  text: string;
  /** For dates: the parts the text states. */
  date?: CalendarDate;
  /** For bare counts: the word after the number ("lanes" of "8 lanes"), to tell counts apart. */
  label?: string;
}

const smallNumbers: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
  once: 1,
  twice: 2,
  single: 1,
  double: 2,
  triple: 3,
};
const fractions: Record<string, number> = {
  half: 0.5,
  halves: 0.5,
  third: 1 / 3,
  thirds: 1 / 3,
  quarter: 0.25,
  quarters: 0.25,
  fifth: 0.2,
  fifths: 0.2,
  tenth: 0.1,
  tenths: 0.1,
};
const scales: Record<string, number> = {
  dozen: 12,
  hundred: 100,
  thousand: 1e3,
  grand: 1e3,
  k: 1e3,
  million: 1e6,
  m: 1e6,
  mn: 1e6,
  billion: 1e9,
  bn: 1e9,
  trillion: 1e12,
};
const currencyWords: Record<string, string> = {
  dollar: '$',
  dollars: '$',
  usd: '$',
  euro: '€',
  euros: '€',
  eur: '€',
  pound: '£',
  pounds: '£',
  gbp: '£',
  bucks: '$',
};
const day = 86400;
const durations: Record<string, [string, number]> = {
  second: ['s', 1],
  seconds: ['s', 1],
  sec: ['s', 1],
  secs: ['s', 1],
  minute: ['s', 60],
  minutes: ['s', 60],
  min: ['s', 60],
  mins: ['s', 60],
  hour: ['s', 3600],
  hours: ['s', 3600],
  hr: ['s', 3600],
  hrs: ['s', 3600],
  h: ['s', 3600],
  day: ['s', day],
  days: ['s', day],
  week: ['s', 7 * day],
  weeks: ['s', 7 * day],
  fortnight: ['s', 14 * day],
  fortnights: ['s', 14 * day],
  month: ['s', (365 / 12) * day],
  months: ['s', (365 / 12) * day],
  year: ['s', 365 * day],
  years: ['s', 365 * day],
  yr: ['s', 365 * day],
  yrs: ['s', 365 * day],
  decade: ['s', 3650 * day],
  decades: ['s', 3650 * day],
  night: ['night', 1],
  nights: ['night', 1],
};
const hedges = /\b(about|around|roughly|approximately|approx\.?|nearly|almost|some|circa|just under|just over|close to|marginally)\s*$/i;

interface Word {
  text: string;
  lower: string;
  start: number;
  end: number;
}

const wordPattern =
  /\d+\.\d+\.\d+|\d{1,2}:\d{2}(?!\d)|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?(?:st|nd|rd|th)?|[$€£%]|\b[ap]\.m\.?|[\p{L}]+/gu;

function words(text: string): Word[] {
  const out: Word[] = [];
  for (const m of text.matchAll(wordPattern))
    out.push({ text: m[0], lower: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length });
  return out;
}

function numberWord(word: Word | undefined): number | undefined {
  if (!word) return undefined;
  if (/^\d[\d,]*(\.\d+)?(st|nd|rd|th)?$/.test(word.lower)) {
    const digits = word.lower.replace(/(st|nd|rd|th)$/, '');
    return Number(digits.replace(/,/g, ''));
  }
  return smallNumbers[word.lower];
}

/** Extracts every quantity in `text`, with offsets into it. */
export function extractQuantities(text: string): Quantity[] {
  const dates = extractDates(text);
  const found: Quantity[] = dates.map((date) => ({
    kind: 'date',
    value: date.month,
    raw: date.year ?? 0,
    unit: '',
    approx: false,
    start: date.start,
    end: date.end,
    text: date.text,
    date,
  }));
  const tokens = words(text).filter((w) => !dates.some((d) => w.start >= d.start && w.end <= d.end));
  let i = 0;
  while (i < tokens.length) {
    const parsed = parseAt(text, tokens, i);
    if (parsed) {
      if (parsed.quantity.kind === 'count') parsed.quantity.label = tokens[parsed.next]?.lower;
      found.push(parsed.quantity);
      i = parsed.next;
      // "$12 a month", "€4 per night": a rate's unit is not a quantity of its own.
      if (/^(a|an|per|each|every)$/.test(tokens[i]?.lower ?? '') && durations[tokens[i + 1]?.lower ?? '']) i += 2;
    } else i++;
  }
  return found.sort((a, b) => a.start - b.start);
}

function parseAt(text: string, t: Word[], i: number): { quantity: Quantity; next: number } | undefined {
  const first = t[i]!;
  // Versions (4.2.0) and clock times (21:15, 11 a.m.) are compared as they are.
  if (/^\d+\.\d+\.\d+/.test(first.lower)) return single(text, 'version', 0, 0, first.lower, first, first, i + 1);
  if (/^\d{1,2}:\d{2}$/.test(first.lower)) {
    const [h, m] = first.lower.split(':').map(Number) as [number, number];
    const next = t[i + 1];
    const pm = next && /^p\.?m\.?$/.test(next.lower) && h < 12 ? 12 : 0;
    const last = next && /^[ap]\.?m\.?$/.test(next.lower) ? next : first;
    return single(text, 'time', (h + pm) * 60 + m, h, 'clock', first, last, i + (last === first ? 1 : 2));
  }
  let j = i;
  let currency = '';
  if (/^[$€£]$/.test(first.text)) {
    currency = first.text;
    j++;
  }
  // "one of those", "no one", "the one": a pronoun, not a figure.
  if (
    first.lower === 'one' &&
    (/^(?:of|another)$/.test(t[i + 1]?.lower ?? '') || /^(?:no|any|every|some|each|the|this|that|which)$/.test(t[i - 1]?.lower ?? ''))
  )
    return undefined;
  let raw: number | undefined;
  let isFraction = false;
  const startWord = t[i]!;
  const a = t[j];
  if (
    a &&
    (a.lower === 'a' || a.lower === 'an') &&
    (fractions[t[j + 1]?.lower ?? ''] !== undefined ||
      scales[t[j + 1]?.lower ?? ''] !== undefined ||
      durations[t[j + 1]?.lower ?? ''] !== undefined)
  ) {
    raw = 1;
    j++;
  } else {
    raw = numberWord(a);
    if (raw === undefined && a?.lower !== 'half') return undefined;
    // "half" on its own is a fraction of one.
    if (raw === undefined) raw = 1;
    else j++;
    // Compound words: "sixty-five", "twenty one".
    const tens = raw;
    if (tens >= 20 && tens < 100 && tens % 10 === 0 && !/\d/.test(a!.text)) {
      const unit = numberWord(t[j]);
      if (unit !== undefined && unit < 10 && !/\d/.test(t[j]!.text)) {
        raw = tens + unit;
        j++;
      }
    }
  }
  // A fraction word: "two-thirds", "a fifth", "three-quarter".
  const fractionWord = fractions[t[j]?.lower ?? ''];
  if (fractionWord !== undefined) {
    raw *= fractionWord;
    isFraction = true;
    j++;
    if (t[j]?.lower === 'of' && (t[j + 1]?.lower === 'a' || t[j + 1]?.lower === 'an')) j += 2;
  }
  let value = raw;
  const scale = scales[t[j]?.lower ?? ''];
  if (scale !== undefined && !(t[j]?.lower === 'm' && !currency)) {
    value *= scale;
    raw *= scale;
    j++;
  }
  let last = t[j - 1]!;
  const next = t[j];
  const lower = next?.lower ?? '';
  const approx = hedges.test(text.slice(Math.max(0, startWord.start - 14), startWord.start));
  if (next && (lower === '%' || lower === 'percent' || (lower === 'per' && t[j + 1]?.lower === 'cent') || lower === 'percentage')) {
    const end = lower === 'per' || (lower === 'percentage' && t[j + 1]?.lower.startsWith('point')) ? t[j + 1]! : next;
    return single(text, 'percent', isFraction ? value * 100 : value, raw, '%', startWord, end, t.indexOf(end) + 1, approx);
  }
  if (!currency && currencyWords[lower]) {
    return single(text, 'money', value, raw, currencyWords[lower]!, startWord, next!, j + 1, approx);
  }
  if (currency) return single(text, 'money', value, raw, currency, startWord, last, j, approx);
  // Durations, also as compounds ("two-hour", "half-day") and "business/working days".
  let k = j;
  let family = 's';
  // "six more weeks", "two extra days": the unit after an adjective of addition.
  if (/^(?:more|additional|extra|further|fewer|less)$/.test(lower) && durations[t[j + 1]?.lower ?? '']) k++;
  if (/^(business|working|work)$/.test(t[k]?.lower ?? '')) {
    family = 'bday';
    k++;
  }
  const duration = durations[t[k]?.lower ?? ''];
  if (duration) {
    last = t[k]!;
    let seconds = duration[1];
    let unit = duration[0];
    if (family === 'bday') {
      unit = 'bday';
      seconds = /^weeks?$/.test(last.lower) ? 5 : 1;
    }
    return single(text, 'duration', value * seconds, raw, unit, startWord, last, k + 1, approx);
  }
  if (isFraction) return single(text, 'fraction', value, raw, '', startWord, last, j, approx);
  // Clock times written "11 a.m.", "3pm".
  if (/^[ap]\.?m\.?$/.test(lower) && raw >= 1 && raw <= 12) {
    const hour = (raw % 12) + (lower.startsWith('p') ? 12 : 0);
    return single(text, 'time', hour * 60, raw, 'clock', startWord, next!, j + 1, approx);
  }
  const glued = /^(\d+)([ap])\.?m\.?$/.exec(startWord.lower);
  if (glued)
    return single(
      text,
      'time',
      ((Number(glued[1]) % 12) + (glued[2] === 'p' ? 12 : 0)) * 60,
      raw,
      'clock',
      startWord,
      startWord,
      j,
      approx,
    );
  return single(text, 'count', value, raw, '', startWord, last, j, approx);
}

function single(
  text: string,
  kind: QuantityKind,
  value: number,
  raw: number,
  unit: string,
  first: Word,
  last: Word,
  next: number,
  approx = false,
): { quantity: Quantity; next: number } {
  return { quantity: { kind, value, raw, unit, approx, start: first.start, end: last.end, text: text.slice(first.start, last.end) }, next };
}

function close(a: number, b: number, tolerance: number): boolean {
  return Math.abs(a - b) <= Math.max(1e-9, tolerance * Math.max(Math.abs(a), Math.abs(b)));
}

/** Whether a claimed quantity states the same value as a quantity from the sources. */
export function sameQuantity(claim: Quantity, source: Quantity): boolean {
  const tolerance = claim.approx ? 0.1 : 0.0005;
  if (claim.kind === 'version' || source.kind === 'version') return claim.kind === source.kind && claim.unit === source.unit;
  if (claim.date && source.date) return sameDate(claim.date, source.date);
  // A bare year or day may restate part of a date ("opened in 1931" for "May 2, 1931").
  if (claim.date || source.date) {
    const date = (claim.date ?? source.date)!;
    const other = claim.date ? source : claim;
    return other.kind === 'count' && (other.raw === date.year || other.raw === date.day);
  }
  if (claim.kind === source.kind) {
    if (claim.kind === 'money' && claim.unit !== source.unit) return false;
    if (claim.kind === 'duration' && claim.unit !== source.unit) return close(claim.raw, source.raw, tolerance);
    return close(claim.value, source.value, tolerance);
  }
  if (claim.kind === 'fraction' && source.kind === 'percent') return close(claim.value * 100, source.value, tolerance);
  if (claim.kind === 'percent' && source.kind === 'fraction') return close(claim.value, source.value * 100, tolerance);
  // A bare number in the answer may restate any quantity's figure ("sixty" for "$60").
  if (claim.kind === 'count') return close(claim.raw, source.raw, tolerance) || close(claim.value, source.value, tolerance);
  return false;
}

/** Kinds that can stand for one another when deciding that a source gives "another value". */
export function comparableKinds(a: Quantity, b: Quantity): boolean {
  if (a.kind === 'count' && b.kind === 'count') {
    // Bare numbers are rivals only when they count the same thing, or are both years.
    const year = (q: Quantity): boolean => Number.isInteger(q.raw) && q.raw >= 1000 && q.raw <= 2100;
    return year(a) && year(b) ? true : !year(a) && !year(b) && a.label !== undefined && a.label === b.label;
  }
  if (a.kind === b.kind) return a.kind !== 'duration' || a.unit === b.unit || a.unit === 's' || b.unit === 's';
  if ((a.kind === 'date' && b.kind === 'count') || (a.kind === 'count' && b.kind === 'date')) return false;
  return (a.kind === 'fraction' && b.kind === 'percent') || (a.kind === 'percent' && b.kind === 'fraction');
}
