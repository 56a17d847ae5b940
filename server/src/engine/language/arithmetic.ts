// Figures the answer computes itself ("3 × $17 = $51", "a third of $900") are recomputed from
// the figures the answer and the question state, instead of being looked up in the sources.
import type { Quantity } from './quantities.js';

function values(q: Quantity): number[] {
  const out = [q.raw];
  if (q.value !== q.raw) out.push(q.value);
  if (q.kind === 'percent') out.push(q.value / 100);
  if (q.kind === 'fraction') out.push(q.value * 100);
  return out;
}

function near(a: number, b: number, tolerance: number): boolean {
  return Math.abs(a - b) <= Math.max(1e-6, tolerance * Math.abs(b));
}

/** A number to compute with, and which figure gave it: a figure's own readings ("half": 0.5 and 50%) never combine. */
interface Operand {
  n: number;
  of: number;
}

/**
 * a × b × c: totals over people and nights. (a × b + c over every figure of the answer and question
 * finds some match for almost any total, so a wrong sum would pass.)
 */
function productOfThree(operands: Operand[], a: Operand, b: Operand, goal: number, tolerance: number): boolean {
  return operands.some((c) => c.of !== a.of && c.of !== b.of && near(a.n * b.n * c.n, goal, tolerance));
}

/** Whether one operation on the figures `a` and `b`, or their product with a third, comes to `goal`. */
function fromPair(operands: Operand[], a: Operand, b: Operand, goal: number, tolerance: number): boolean {
  return (
    [a.n + b.n, a.n - b.n, a.n * b.n, a.n / b.n].some((c) => near(c, goal, tolerance)) || productOfThree(operands, a, b, goal, tolerance)
  );
}

/** Periods and how many of the shorter one the longer holds. */
const periodRatios: [RegExp, RegExp, number][] = [
  [/\bmonth(?:s|ly)?\b/i, /\b(?:years?|yearly|annual(?:ly)?)\b/i, 12],
  [/\bweek(?:s|ly)?\b/i, /\b(?:years?|yearly|annual(?:ly)?)\b/i, 52],
  [/\b(?:days?|daily)\b/i, /\bweek(?:s|ly)?\b/i, 7],
  [/\b(?:hours?|hourly)\b/i, /\b(?:days?|daily)\b/i, 24],
  [/\bminutes?\b/i, /\b(?:hours?|hourly)\b/i, 60],
];

/**
 * The conversions a text asks for by naming two periods: "$15 more a month, or $180 more over a year"
 * multiplies by 12 without writing it.
 */
export function impliedFactors(text: string): number[] {
  return periodRatios.filter(([short, long]) => short.test(text) && long.test(text)).map(([, , ratio]) => ratio);
}

/**
 * Whether `target` follows from one or two operations on the other figures, or from one of them converted
 * by a factor the text implies (only multiplied or divided, and never on its own).
 */
export function derivable(target: Quantity, pool: Quantity[], factors: number[] = []): boolean {
  const tolerance = target.approx ? 0.06 : 0.001;
  const goal = target.raw;
  const seen = new Set<number>();
  const operands = pool
    .filter((q) => q !== target)
    .flatMap((q, of) => values(q).map((n) => ({ n, of })))
    .filter(({ n }) => Number.isFinite(n) && n !== 0 && !seen.has(n) && seen.add(n))
    .slice(0, 24);
  if (betweenTimes(target, pool) || betweenDates(target, pool, tolerance)) return true;
  const numbers = operands.map(({ n }) => n);
  // A figure the answer states elsewhere ("the 50% discount — half of...") is checked there.
  if (numbers.some((n) => near(n, goal, tolerance))) return true;
  // Conversions neither take nor give one: "one day" states no "24 hours" of another rule, nor 24 hours "a day".
  const convertible = goal === 1 ? [] : numbers.filter((n) => n !== 1);
  if (convertible.some((n) => factors.some((f) => near(n * f, goal, tolerance) || near(n / f, goal, tolerance)))) return true;
  if (operands.some((a) => operands.some((b) => a.of !== b.of && fromPair(operands, a, b, goal, tolerance)))) return true;
  // A share said as a percentage of two figures the answer gives ("£36,000 of £120,000, about 30%").
  return target.kind === 'percent' && operands.some((a) => operands.some((b) => a.of !== b.of && near((a.n / b.n) * 100, goal, tolerance)));
}

/** A duration that is the gap between two clock times the answer gives ("11pm, half an hour earlier than 11:30pm"). */
function betweenTimes(target: Quantity, pool: Quantity[]): boolean {
  if (target.kind !== 'duration' || target.unit !== 's') return false;
  // A clock time's value is in minutes from midnight.
  const minutes = pool.filter((q) => q.kind === 'time' && q !== target).map((q) => q.value);
  return minutes.some((a) => minutes.some((b) => b > a && near((b - a) * 60, target.value, 0.001)));
}

/**
 * A duration that is the gap between two dates the answer gives ("due on 9 July and the second a week later, on 16
 * July"). A date without a year is taken in the other's year or one of the two before it; one without a day, as its month.
 */
function betweenDates(target: Quantity, pool: Quantity[], tolerance: number): boolean {
  if (target.kind !== 'duration' || target.unit !== 's') return false;
  const dates = pool.filter((q) => q !== target && q.date).slice(0, 8);
  const days = target.value / 86400;
  const slack = Math.max(tolerance * days, 0.5);
  return dates.some((a) =>
    dates.some((b) => {
      const year = b.date!.year ?? a.date!.year;
      if (a === b || year === undefined) return false;
      return [year, year - 1, year - 2].some((y) =>
        daysOf(a, a.date!.year ?? y).some((from) => daysOf(b, year).some((to) => to > from && Math.abs(to - from - days) <= slack)),
      );
    }),
  );
}

/** The day numbers a date may stand for in `year`: its day, or its month's first and last. */
function daysOf(q: Quantity, year: number): number[] {
  const { month, day } = q.date!;
  if (day !== undefined) return [Date.UTC(year, month - 1, day) / dayMs];
  return [Date.UTC(year, month - 1, 1) / dayMs, Date.UTC(year, month, 0) / dayMs];
}

const dayMs = 86400000;

function dayOf(q: Quantity, endOfMonth: boolean): number | undefined {
  const d = q.date;
  if (!d) return undefined;
  const year = d.year ?? 2001;
  if (d.day !== undefined) return Date.UTC(year, d.month - 1, d.day) / dayMs;
  return endOfMonth ? Date.UTC(year, d.month, 0) / dayMs : undefined;
}

/**
 * A date the answer works out itself: the month of a date it or the question gives ("the end of
 * June" for a regatta on June 12), or such a date plus a period ("45 days after the end of June"
 * is August 14).
 */
export function derivableDate(target: Quantity, pool: Quantity[]): boolean {
  const goal = target.date;
  if (!goal) return false;
  const dates = pool.filter((q) => q !== target && q.date);
  const wholeMonth = goal.day === undefined || /\b(?:end|start|beginning|middle|close)\s+of\b/i.test(goal.text);
  if (
    wholeMonth &&
    dates.some((q) => q.date!.month === goal.month && (goal.year === undefined || q.date!.year === undefined || q.date!.year === goal.year))
  )
    return true;
  const want = dayOf(target, false);
  if (want === undefined) return false;
  const periods = pool.filter((q) => q.kind === 'duration' && q.unit === 's').map((q) => Math.round(q.value / 86400));
  for (const q of dates) {
    for (const base of [dayOf(q, false), dayOf(q, true)]) {
      if (base === undefined) continue;
      if (periods.some((p) => Math.abs(base + p - want) <= 1)) return true;
    }
  }
  return false;
}
