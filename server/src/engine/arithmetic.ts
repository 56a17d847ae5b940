// Figures the answer computes itself ("4 × $28 = $112", "a quarter of $4,000") are recomputed from
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

/** Whether `target` follows from one or two operations on the other figures. */
export function derivable(target: Quantity, pool: Quantity[]): boolean {
  const tolerance = target.approx ? 0.06 : 0.001;
  const goal = target.raw;
  const numbers = [...new Set(pool.filter((q) => q !== target).flatMap(values))].filter((n) => Number.isFinite(n) && n !== 0).slice(0, 24);
  // A figure the answer states elsewhere ("the 25% band — a quarter of...") is checked there.
  if (numbers.some((n) => near(n, goal, tolerance))) return true;
  for (let i = 0; i < numbers.length; i++) {
    for (let j = 0; j < numbers.length; j++) {
      if (i === j) continue;
      const a = numbers[i]!;
      const b = numbers[j]!;
      if ([a + b, a - b, a * b, a / b].some((c) => near(c, goal, tolerance))) return true;
      // a × b × c and a × b + c: totals over people and nights, per-item fees with a base.
      for (let k = 0; k < numbers.length; k++) {
        if (k === i || k === j) continue;
        const c = numbers[k]!;
        if (near(a * b * c, goal, tolerance) || near(a * b + c, goal, tolerance)) return true;
      }
    }
  }
  return false;
}
