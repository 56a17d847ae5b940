// The month documents behind POST /api/v1/stats: which months are read, and what they add up to.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type UsageMonth, usageFigures, usageMonths } from '../../src/services/analytics/usage-counters.js';

const month = (name: string, validations: Record<string, number>, approved: Record<string, number> = {}): UsageMonth => ({
  month: name,
  validations,
  with_issues: {},
  by_mode: { validate: validations, generate: {}, validate_and_fix: {} },
  reviews: { pending_review: {}, approved, rejected: {}, edited: {}, handed_off: {}, external_approved: {}, external_rejected: {} },
});

test('the months read are those the retention reaches into, and the current one', () => {
  assert.deepEqual(usageMonths(new Date('2026-03-10T12:00:00Z'), 90), ['2025-12', '2026-01', '2026-02', '2026-03']);
  assert.deepEqual(usageMonths(new Date('2026-03-10T12:00:00Z'), 1), ['2026-03']);
  assert.deepEqual(usageMonths(new Date('2026-03-01T00:30:00Z'), 1), ['2026-02', '2026-03']);
  // February's 28 days are never stepped over.
  assert.deepEqual(usageMonths(new Date('2026-04-02T00:00:00Z'), 62), ['2026-01', '2026-02', '2026-03', '2026-04']);
});

test('days older than the retention drop out of the totals, the current month counts whole', () => {
  const now = new Date('2026-03-10T12:00:00Z');
  const figures = usageFigures([month('2026-02', { '01': 4, '20': 3 }, { '20': 2 }), month('2026-03', { '01': 1, '10': 2 })], now, 30);
  assert.equal(figures.total, 3 + 1 + 2, 'February 1 is more than 30 days back');
  assert.equal(figures.thisMonth, 3);
  assert.equal(figures.byMode.validate, 6);
  assert.equal(figures.reviews.approved, 2);
});

test('no documents yet: every figure is zero', () => {
  const figures = usageFigures([], new Date('2026-03-10T12:00:00Z'), 90);
  assert.deepEqual(
    [figures.total, figures.thisMonth, figures.withIssues, figures.byMode.generate, figures.reviews.pending_review],
    [0, 0, 0, 0, 0],
  );
});
