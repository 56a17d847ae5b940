// Numbers in text, normalised so that "two weeks" equals "14 days", "a fifth" equals "20%",
// "$1.2 billion" equals "1,200 million" and "sixty-five" equals "65".

import { opensClause } from './cues.js';
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

/** A table looked up by the words of an answer: no prototype, so "constructor" or "toString" finds nothing. */
function wordTable<T>(entries: Record<string, T>): Readonly<Record<string, T | undefined>> {
  return Object.assign(Object.create(null) as Record<string, T>, entries);
}

const smallNumbers = wordTable<number>({
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
});
const fractions = wordTable<number>({
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
});
const scales = wordTable<number>({
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
});
const currencyWords = wordTable<string>({
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
});
/** ISO 4217 codes written before the amount, as price lists do ("EUR 60", "USD 1,200"): the sign they stand for. */
const currencyCodes = wordTable<string>({ USD: '$', EUR: '€', GBP: '£' });
const day = 86400;
const durations = wordTable<[string, number]>({
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
});
const hedges = /\b(about|around|roughly|approximately|approx\.?|nearly|almost|some|circa|just under|just over|close to|marginally)\s*$/i;

interface Word {
  text: string;
  lower: string;
  start: number;
  end: number;
}

const wordPattern =
  /\d+\.\d+\.\d+|\d{1,2}:\d{2}(?!\d)|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d*[½¼¾⅓⅔]|\d+(?:\.\d+)?(?:st|nd|rd|th)?|[$€£%]|\b[ap]\.m\.?|[\p{L}]+/gu;

/** Fractions written as one character, alone or after a whole number ("3½ hours", "¾ full"). */
const vulgarFractions: Record<string, number> = { '½': 0.5, '¼': 0.25, '¾': 0.75, '⅓': 1 / 3, '⅔': 2 / 3 };

function words(text: string): Word[] {
  const out: Word[] = [];
  for (const m of text.matchAll(wordPattern))
    out.push({ text: m[0], lower: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length });
  return out;
}

function numberWord(word: Word | undefined): number | undefined {
  if (!word) return undefined;
  const vulgar = /^(\d*)([½¼¾⅓⅔])$/.exec(word.text);
  if (vulgar) return Number(vulgar[1] || 0) + vulgarFractions[vulgar[2]!]!;
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
    if (isClauseNumber(text, tokens, i)) {
      i++;
      continue;
    }
    const parsed = parseAt(text, tokens, i);
    if (parsed) {
      if (parsed.quantity.kind === 'count') parsed.quantity.label = tokens[parsed.next]?.lower;
      found.push(parsed.quantity);
      i = parsed.next;
      // "$12 a month", "€4 per night": a rate's unit is not a quantity of its own. A frequency's is:
      // "once a year" says how often, as "every 12 months" does.
      const frequency = /^(?:once|twice|thrice)$/.test(parsed.quantity.text.toLowerCase());
      if (!frequency) i = afterRate(tokens, i, parsed.quantity);
    } else i++;
  }
  return found.sort((a, b) => a.start - b.start);
}

/**
 * The index after a rate's unit ("$12 a month", "€4 per night"), also after the thing a count counts ("5,000 API calls
 * a month", "3 classes per week"); `i` when none follows.
 */
function afterRate(tokens: Word[], i: number, q: Quantity): number {
  const rate = (k: number): boolean =>
    /^(a|an|per|each|every)$/.test(tokens[k]?.lower ?? '') && durations[tokens[k + 1]?.lower ?? ''] !== undefined;
  if (rate(i)) return i + 2;
  if (q.kind !== 'count') return i;
  for (
    let k = i;
    k < i + 2 && /^\p{L}+$/u.test(tokens[k]?.text ?? '') && !/^(?:and|or|for|of|in|on|at|to|from|by|with)$/.test(tokens[k]!.lower);
    k++
  )
    if (rate(k + 1)) return k + 3;
  return i;
}

/** "1.2 Day tickets are …", "4.10 Refunds": a clause's number at the start of its line, before a capitalised word. */
function isClauseNumber(text: string, t: Word[], i: number): boolean {
  const word = t[i]!;
  return (
    /^\d+\.\d+(?:\.\d+)?$/.test(word.text) &&
    /(?:^|\n)[ \t]*$/.test(text.slice(Math.max(0, word.start - 8), word.start)) &&
    /^\p{Lu}/u.test(t[i + 1]?.text ?? '')
  );
}

type Parsed = { quantity: Quantity; next: number };

/** The number read so far, before its unit. */
interface Figure {
  /** As written, times its fraction and scale words; also its value until a unit converts it. */
  raw: number;
  /** The index of the word after it. */
  j: number;
  isFraction: boolean;
}

/** Versions (4.2.0) and clock times (21:15, 11 a.m.) are compared as they are. */
function writtenAsIs(text: string, t: Word[], i: number): Parsed | undefined {
  const first = t[i]!;
  if (/^\d+\.\d+\.\d+/.test(first.lower)) return single(text, 'version', 0, 0, first.lower, first, first, i + 1);
  if (!/^\d{1,2}:\d{2}$/.test(first.lower)) return undefined;
  const [h, m] = first.lower.split(':').map(Number) as [number, number];
  const next = t[i + 1];
  const pm = next && /^p\.?m\.?$/.test(next.lower) && h < 12 ? 12 : 0;
  const last = next && /^[ap]\.?m\.?$/.test(next.lower) ? next : first;
  return single(text, 'time', (h + pm) * 60 + m, h, 'clock', first, last, i + (last === first ? 1 : 2));
}

const determiner = /^(?:no|any|every|some|each|the|this|that|which|a|an)$/;

/** "a single ticket" is one ticket; "single rooms", "ten single sessions" are of a kind. */
function isAdjectiveSingle(t: Word[], i: number): boolean {
  return t[i]!.lower === 'single' && !/^(?:a|one)$/.test(t[i - 1]?.lower ?? '');
}

/** "one of those", "no one", "the one", "an accidental one", "without one": a pronoun, not a figure. */
function isPronounOne(t: Word[], i: number): boolean {
  if (t[i]!.lower !== 'one') return false;
  if (/^(?:of|another)$/.test(t[i + 1]?.lower ?? '') || determiner.test(t[i - 1]?.lower ?? '')) return true;
  // "Without one, you'd ...", "with one you can ...": the object of "with", no noun after it (a punctuation
  // mark between, or a pronoun that opens the next clause); "a room with one bed" counts.
  const next = t[i + 1];
  if (
    /^with(?:out)?$/.test(t[i - 1]?.lower ?? '') &&
    (next === undefined || next.start - t[i]!.end > 1 || /^(?:you|we|they|it|i|he|she)$/.test(next.lower))
  )
    return true;
  // A determiner and a word before it: "an accidental one", "the cheaper one" (not "the first one", a count).
  const before = t[i - 1];
  return (
    before !== undefined && /^\p{Ll}+$/u.test(before.text) && numberWord(before) === undefined && determiner.test(t[i - 2]?.lower ?? '')
  );
}

/** "the cheaper of the two", "either of the three": the things just named, no figure to look up. */
function isSidesWord(t: Word[], i: number): boolean {
  const next = t[i + 1];
  return (
    /^(?:two|three|four)$/.test(t[i]!.lower) &&
    t[i - 1]?.lower === 'the' &&
    t[i - 2]?.lower === 'of' &&
    (next === undefined || next.start - t[i]!.end > 1)
  );
}

/** Compound words: "sixty-five", "twenty one". `a` is the word that gave `tens`, `j` the index after it. */
function compoundNumber(t: Word[], tens: number, a: Word, j: number): { raw: number; j: number } {
  if (tens < 20 || tens >= 100 || tens % 10 !== 0 || /\d/.test(a.text)) return { raw: tens, j };
  const unit = numberWord(t[j]);
  return unit !== undefined && unit < 10 && !/\d/.test(t[j]!.text) ? { raw: tens + unit, j: j + 1 } : { raw: tens, j };
}

/** The number at `j`: "a"/"an" before a fraction, scale or unit; "the day before"; a numeral or number word; "half" alone. */
function leadingNumber(t: Word[], j: number): { raw: number; j: number } | undefined {
  const a = t[j];
  const after = t[j + 1]?.lower ?? '';
  if (
    a &&
    (a.lower === 'a' || a.lower === 'an') &&
    (fractions[after] !== undefined || scales[after] !== undefined || durations[after] !== undefined || after === 'penny')
  )
    return { raw: 1, j: j + 1 };
  // "the day before", "the week after": one of the unit, counted from the event the sentence speaks of.
  if (a?.lower === 'the' && /^(?:day|week|month|year)$/.test(after) && /^(?:before|after|earlier|prior)$/.test(t[j + 2]?.lower ?? ''))
    return { raw: 1, j: j + 1 };
  // "once you've paid", "once the form is in": a conjunction of time, not a count.
  if (a?.lower === 'once' && opensClause.test(after)) return undefined;
  const raw = numberWord(a);
  // "half" on its own is a fraction of one.
  if (raw === undefined) return a?.lower === 'half' ? { raw: 1, j } : undefined;
  return compoundNumber(t, raw, a!, j + 1);
}

/** "and a half" after a number or a unit ("two and a half", "an hour and a half"): the index after it, if there. */
function andAHalf(t: Word[], j: number): number | undefined {
  return t[j]?.lower === 'and' && t[j + 1]?.lower === 'a' && t[j + 2]?.lower === 'half' ? j + 3 : undefined;
}

/** A fraction word: "two-thirds", "a fifth", "three-quarter" (and "a third of a", "half an"); "two and a half". */
function withFraction(t: Word[], raw: number, j: number): Figure {
  // "½ price": a fraction written as one character.
  if (/^[½¼¾⅓⅔]$/.test(t[j - 1]?.text ?? '')) return { raw, j, isFraction: true };
  const half = andAHalf(t, j);
  if (half !== undefined && !/^(?:a|an)$/.test(t[j - 1]?.lower ?? '')) return { raw: raw + 0.5, j: half, isFraction: false };
  const fractionWord = fractions[t[j]?.lower ?? ''];
  if (fractionWord === undefined) return { raw, j, isFraction: false };
  const ofA = t[j + 1]?.lower === 'of' && (t[j + 2]?.lower === 'a' || t[j + 2]?.lower === 'an');
  // "half an hour", "half a day": the article belongs to the unit that follows.
  const halfA = t[j]!.lower === 'half' && /^an?$/.test(t[j + 1]?.lower ?? '') && durations[t[j + 2]?.lower ?? ''] !== undefined;
  return { raw: raw * fractionWord, j: j + (ofA ? 3 : halfA ? 2 : 1), isFraction: true };
}

/** A scale word ("million", "k"); a bare "m" only after a currency sign, being minutes or metres otherwise. */
function withScale(t: Word[], figure: Figure, currency: string): Figure {
  const scale = scales[t[figure.j]?.lower ?? ''];
  if (scale === undefined || (t[figure.j]?.lower === 'm' && !currency)) return figure;
  return { raw: figure.raw * scale, j: figure.j + 1, isFraction: figure.isFraction };
}

function isPercentWord(lower: string, after: string | undefined): boolean {
  return lower === '%' || lower === 'percent' || (lower === 'per' && after === 'cent') || lower === 'percentage';
}

function percentAt(text: string, t: Word[], f: Figure, startWord: Word, approx: boolean): Parsed | undefined {
  const next = t[f.j];
  const lower = next?.lower ?? '';
  if (!next || !isPercentWord(lower, t[f.j + 1]?.lower)) return undefined;
  const end = lower === 'per' || (lower === 'percentage' && t[f.j + 1]?.lower.startsWith('point')) ? t[f.j + 1]! : next;
  return single(text, 'percent', f.isFraction ? f.raw * 100 : f.raw, f.raw, '%', startWord, end, t.indexOf(end) + 1, approx);
}

/** Money: after a currency sign, or before a currency word ("20 euros"). */
function moneyAt(text: string, t: Word[], f: Figure, startWord: Word, currency: string, approx: boolean): Parsed | undefined {
  const next = t[f.j];
  const lower = next?.lower ?? '';
  if (!currency && currencyWords[lower])
    return single(text, 'money', f.raw, f.raw, currencyWords[lower]!, startWord, next!, f.j + 1, approx);
  // "two pence", "a penny a day": hundredths of a pound.
  if (!currency && /^(?:penny|pence)$/.test(lower))
    return single(text, 'money', f.raw / 100, f.raw, '£', startWord, next!, f.j + 1, approx);
  // "25p", "50p a day": pence, written against the number.
  if (!currency && lower === 'p' && next!.start === t[f.j - 1]!.end)
    return single(text, 'money', f.raw / 100, f.raw, '£', startWord, next!, f.j + 1, approx);
  if (currency) return single(text, 'money', f.raw, f.raw, currency, startWord, t[f.j - 1]!, f.j, approx);
  return undefined;
}

/** Durations, also as compounds ("two-hour", "half-day") and "business/working days". */
function durationAt(text: string, t: Word[], f: Figure, startWord: Word, approx: boolean): Parsed | undefined {
  let k = f.j;
  // "six more weeks", "two extra days": the unit after an adjective of addition.
  if (/^(?:more|additional|extra|further|fewer|less)$/.test(t[f.j]?.lower ?? '') && durations[t[f.j + 1]?.lower ?? '']) k++;
  const business = /^(business|working|work)$/.test(t[k]?.lower ?? '');
  if (business) k++;
  const duration = durations[t[k]?.lower ?? ''];
  if (!duration) return undefined;
  const unit = t[k]!;
  // "a year and a half", "an hour and a half": half of the unit more.
  const half = andAHalf(t, k + 1);
  const raw = half === undefined ? f.raw : f.raw + 0.5;
  const last = half === undefined ? unit : t[half - 1]!;
  const next = half ?? k + 1;
  if (business) return single(text, 'duration', raw * (/^weeks?$/.test(unit.lower) ? 5 : 1), raw, 'bday', startWord, last, next, approx);
  return single(text, 'duration', raw * duration[1], raw, duration[0], startWord, last, next, approx);
}

/** Clock times written "11 a.m.", "3pm". */
function clockAt(text: string, t: Word[], f: Figure, startWord: Word, approx: boolean): Parsed | undefined {
  const next = t[f.j];
  const lower = next?.lower ?? '';
  if (/^[ap]\.?m\.?$/.test(lower) && f.raw >= 1 && f.raw <= 12) {
    const hour = (f.raw % 12) + (lower.startsWith('p') ? 12 : 0);
    return single(text, 'time', hour * 60, f.raw, 'clock', startWord, next!, f.j + 1, approx);
  }
  const glued = /^(\d+)([ap])\.?m\.?$/.exec(startWord.lower);
  if (!glued) return undefined;
  const hour = (Number(glued[1]) % 12) + (glued[2] === 'p' ? 12 : 0);
  return single(text, 'time', hour * 60, f.raw, 'clock', startWord, startWord, f.j, approx);
}

/** The quantity a figure states with what follows it: a percentage, money, a duration, a fraction, a clock time or a count. */
function withUnit(text: string, t: Word[], f: Figure, startWord: Word, currency: string): Parsed {
  const approx = hedges.test(text.slice(Math.max(0, startWord.start - 14), startWord.start));
  const last = t[f.j - 1]!;
  return (
    percentAt(text, t, f, startWord, approx) ??
    moneyAt(text, t, f, startWord, currency, approx) ??
    durationAt(text, t, f, startWord, approx) ??
    (f.isFraction ? single(text, 'fraction', f.raw, f.raw, '', startWord, last, f.j, approx) : undefined) ??
    clockAt(text, t, f, startWord, approx) ??
    single(text, 'count', f.raw, f.raw, '', startWord, last, f.j, approx)
  );
}

/** The quantity that opens at word `i`, and the index of the word after it. */
function parseAt(text: string, t: Word[], i: number): Parsed | undefined {
  const asIs = writtenAsIs(text, t, i);
  if (asIs) return asIs;
  const first = t[i]!;
  const currency = /^[$€£]$/.test(first.text) ? first.text : (currencyCodes[first.text] ?? '');
  if (isPronounOne(t, i) || isAdjectiveSingle(t, i) || isSidesWord(t, i)) return undefined;
  const number = leadingNumber(t, currency ? i + 1 : i);
  if (!number) return undefined;
  return withUnit(text, t, withScale(t, withFraction(t, number.raw, number.j), currency), first, currency);
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
): Parsed {
  return { quantity: { kind, value, raw, unit, approx, start: first.start, end: last.end, text: text.slice(first.start, last.end) }, next };
}

function close(a: number, b: number, tolerance: number): boolean {
  return Math.abs(a - b) <= Math.max(1e-9, tolerance * Math.max(Math.abs(a), Math.abs(b)));
}

/** A date against a date, or a bare year or day restating part of one ("opened in 1931" for "May 2, 1931"). */
function sameDatePart(claim: Quantity, source: Quantity): boolean {
  if (claim.date && source.date) return sameDate(claim.date, source.date);
  const date = (claim.date ?? source.date)!;
  const other = claim.date ? source : claim;
  return other.kind === 'count' && (other.raw === date.year || other.raw === date.day);
}

function sameOfKind(claim: Quantity, source: Quantity, tolerance: number): boolean {
  if (claim.kind === 'money' && claim.unit !== source.unit) return false;
  if (claim.kind === 'duration' && claim.unit !== source.unit) return close(claim.raw, source.raw, tolerance);
  return close(claim.value, source.value, tolerance);
}

function sameAcrossKinds(claim: Quantity, source: Quantity, tolerance: number): boolean {
  if (claim.kind === 'fraction' && source.kind === 'percent') return close(claim.value * 100, source.value, tolerance);
  if (claim.kind === 'percent' && source.kind === 'fraction') return close(claim.value, source.value * 100, tolerance);
  // A bare number in the answer may restate any quantity's figure ("sixty" for "$60").
  if (claim.kind === 'count') return close(claim.raw, source.raw, tolerance) || close(claim.value, source.value, tolerance);
  return false;
}

/** Whether a claimed quantity states the same value as a quantity from the sources. */
export function sameQuantity(claim: Quantity, source: Quantity): boolean {
  const tolerance = claim.approx ? 0.1 : 0.0005;
  if (claim.kind === 'version' || source.kind === 'version') return claim.kind === source.kind && claim.unit === source.unit;
  if (claim.date || source.date) return sameDatePart(claim, source);
  if (claim.kind === source.kind) return sameOfKind(claim, source, tolerance);
  return sameAcrossKinds(claim, source, tolerance);
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
