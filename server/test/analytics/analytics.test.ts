// POST /api/v1/analytics and /analytics/csv for a fixed series of validations and reviews at set
// times (the clock injected): every figure is checked against one worked out by hand below, the
// range rules of decision row 77 hold, and the CSV, parsed back with csv-parse, says what the JSON says.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { rawSpec } from '../../../test/support/spec.js';
import { ManualClock } from '../../src/lib/clock.js';
import type { CompletedValidation } from '../../src/services/validation/validation-recorder.js';
import { tenantsOf } from '../support/audit.js';
import { writeFixture } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/harness.js';
import { callAs, recordValidation, review } from '../support/history.js';

const clock = new ManualClock(new Date('2026-06-10T12:00:00.000Z'));
let server: TestServer;
const viewer = () => server.apiKeyBody('acme', 'viewer');
const reviewer = () => server.apiKeyBody('acme', 'user');

type Finding = CompletedValidation['findings'][number];
const finding = (category: Finding['category'], status: Finding['status']): Finding => ({
  category,
  status,
  title: category,
  description: category,
  severity: 'medium',
});

// The series: five validations over three days, every one pending review (workflow `always`).
const series: Partial<CompletedValidation>[] = [
  {
    createdAt: new Date('2026-06-08T09:00:00.000Z'),
    mode: 'validate',
    severity: 'high',
    confidenceLevel: 'low',
    issues: ['contradicted'],
    findings: [finding('contradicted_claim', 'failed')],
  },
  { createdAt: new Date('2026-06-08T10:00:00.000Z'), mode: 'generate', severity: 'none', confidenceLevel: 'high' },
  {
    createdAt: new Date('2026-06-08T11:00:00.000Z'),
    mode: 'validate_and_fix',
    severity: 'medium',
    confidenceLevel: 'medium',
    issues: ['unsupported', 'conflict'],
    findings: [
      finding('unsupported_claim', 'warning'),
      finding('source_conflict', 'failed'),
      finding('contradicted_claim', 'fixed'),
      finding('incomplete_answer', 'passed'),
    ],
    sourceConflictCount: 1,
  },
  {
    createdAt: new Date('2026-06-09T08:00:00.000Z'),
    mode: 'validate',
    severity: 'critical',
    confidenceLevel: 'low',
    issues: ['contradicted'],
    findings: [finding('contradicted_claim', 'failed')],
    sourceConflictCount: 2,
  },
  { createdAt: new Date('2026-06-10T09:30:00.000Z'), mode: 'validate', severity: 'none', confidenceLevel: 'high' },
];
let ids: string[] = [];

before(async () => {
  const fixture = await writeFixture({ overrides: { acme: { audit_retention_days: 400, workflow: { review_required: 'always' } } } });
  server = await startTestServer({ fixture, clock });
  const acme = tenantsOf(fixture).acme!;
  ids = [];
  for (const validation of series) ids.push((await recordValidation(server, acme, validation)).validation_id);
  // Reviews at set times: v1 approved after 30 minutes; v3 handed off, then rejected outside two
  // days after it was made; v4 edited 28 hours after it was made. v2 and v5 stay pending.
  const at = async (time: string, index: number, body: object) => {
    clock.set(new Date(time));
    const reply = await review(server, reviewer(), ids[index]!, body);
    assert.equal(reply.status, 200, reply.text);
  };
  await at('2026-06-08T09:30:00.000Z', 0, { action: 'approve', note: 'Checked.' });
  await at('2026-06-09T11:00:00.000Z', 2, { action: 'handoff', external_reference: 'LEGAL-7' });
  await at('2026-06-10T11:00:00.000Z', 2, { action: 'external_reject', note: 'Outdated.' });
  await at('2026-06-10T12:00:00.000Z', 3, {
    action: 'edit',
    note: 'Corrected.',
    corrections: [{ element: 'claim:0', action: 'replace', note: '25 days.' }],
  });
});
after(() => server.close());

const zeroModes = { validate: 0, generate: 0, validate_and_fix: 0 };
const zeroSeverities = { none: 0, low: 0, medium: 0, high: 0, critical: 0 };
const zeroLevels = { high: 0, medium: 0, low: 0 };
const zeroAgreement = { decisions: 0, flagged_wrong: 0, flagged_right: 0, unflagged_wrong: 0, unflagged_right: 0 };
const day = (date: string, validations = 0, withIssues = 0, modes = {}, severities = {}, levels = {}, agreement = {}) => ({
  date,
  validations,
  with_issues: withIssues,
  by_mode: { ...zeroModes, ...modes },
  by_severity: { ...zeroSeverities, ...severities },
  by_confidence_level: { ...zeroLevels, ...levels },
  engine_agreement: { ...zeroAgreement, ...agreement },
});

// Worked out by hand from the series above.
const expectedDays = [
  day(
    '2026-06-08',
    3,
    2,
    { validate: 1, generate: 1, validate_and_fix: 1 },
    { none: 1, medium: 1, high: 1 },
    { high: 1, medium: 1, low: 1 },
    // v1 flagged and approved; v3 flagged and rejected by the external review.
    { decisions: 2, flagged_right: 1, flagged_wrong: 1 },
  ),
  // v4 flagged and edited.
  day('2026-06-09', 1, 1, { validate: 1 }, { critical: 1 }, { low: 1 }, { decisions: 1, flagged_wrong: 1 }),
  day('2026-06-10', 1, 0, { validate: 1 }, { none: 1 }, { high: 1 }),
];
// Decided: v1 (approved: its contradicted flag was false), v3 (rejected: its three flags confirmed; the passed
// finding is no flag), v4 (edited: its flag, on no claim in particular, confirmed). Nothing went unflagged.
const june = { decisions: 3, flagged_wrong: 2, flagged_right: 1, unflagged_wrong: 0, unflagged_right: 0, precision: 2 / 3, recall: 1 };
const expected = {
  customer_id: 'acme',
  date_from: '2026-06-08',
  date_to: '2026-06-10',
  generated_at: '2026-06-10T12:00:00.000Z',
  // 5 validations, 3 with issues (v1, v3, v4), 1 + 2 + 1 issues, conflicts 1 + 2 in 2 of the 5.
  totals: { validations: 5, with_issues: 3, issue_rate: 0.6, issues: 4, source_conflicts: 3, source_conflict_rate: 0.4 },
  by_mode: { validate: 3, generate: 1, validate_and_fix: 1 },
  by_severity: { none: 2, low: 0, medium: 1, high: 1, critical: 1 },
  by_confidence_level: { high: 2, medium: 1, low: 2 },
  // Findings that are issues or were fixed: v1 contradicted; v3 unsupported, conflict, contradicted (fixed); v4 contradicted.
  by_category: {
    contradicted_claim: 3,
    unsupported_claim: 1,
    source_conflict: 1,
    incomplete_answer: 0,
    source_unavailable: 0,
    verifier_unavailable: 0,
  },
  reviews: { pending_review: 2, approved: 1, rejected: 0, edited: 1, handed_off: 0, external_approved: 0, external_rejected: 1 },
  // Decisions: v1 after 1800 s, v3 after 172800 s (the handoff is not one), v4 after 100800 s.
  time_to_decision: { decisions: 3, mean_seconds: (1800 + 172800 + 100800) / 3, max_seconds: 172800 },
  engine_agreement: {
    ...june,
    by_category: {
      contradicted_claim: { confirmed: 2, overturned: 1, precision: 2 / 3 },
      unsupported_claim: { confirmed: 1, overturned: 0, precision: 1 },
      source_conflict: { confirmed: 1, overturned: 0, precision: 1 },
      incomplete_answer: { confirmed: 0, overturned: 0, precision: null },
      source_unavailable: { confirmed: 0, overturned: 0, precision: null },
      verifier_unavailable: { confirmed: 0, overturned: 0, precision: null },
    },
    monthly: [{ month: '2026-06', ...june }],
  },
  // Three decisions are far below the 200 a fit needs.
  calibration: {
    mode: 'suggest',
    status: 'too_few_decisions',
    target_precision: 0.9,
    current_supported_score: 0.5,
    decisions: 3,
    suggested: null,
  },
  daily: expectedDays,
};

const analytics = async (query: object) => callAs(server, '/api/v1/analytics', viewer(), query);

describe('POST /api/v1/analytics', () => {
  test('the fixed series gives the figures worked out by hand', async () => {
    const reply = await analytics({ date_from: '2026-06-08', date_to: '2026-06-10' });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(reply.body, expected);
  });

  test('one day of it: the reviews of that day’s validations, whenever they were made', async () => {
    const reply = await analytics({ date_from: '2026-06-09', date_to: '2026-06-09' });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(reply.body.totals, {
      validations: 1,
      with_issues: 1,
      issue_rate: 1,
      issues: 1,
      source_conflicts: 2,
      source_conflict_rate: 1,
    });
    assert.deepEqual(reply.body.reviews, { ...expected.reviews, pending_review: 0, approved: 0, edited: 1, external_rejected: 0 });
    assert.deepEqual(reply.body.time_to_decision, { decisions: 1, mean_seconds: 100800, max_seconds: 100800 });
    assert.deepEqual(reply.body.daily, [expectedDays[1]]);
  });

  test('default range: the 30 days ending today; date_from alone runs to today', async () => {
    const defaults = (await analytics({})).body;
    assert.deepEqual([defaults.date_from, defaults.date_to, defaults.daily.length], ['2026-05-12', '2026-06-10', 30]);
    assert.deepEqual(defaults.totals, expected.totals);
    assert.deepEqual(defaults.daily.slice(-3), expectedDays);
    assert.ok(defaults.daily.slice(0, -3).every((d: { validations: number }) => d.validations === 0));
    const from = (await analytics({ date_from: '2026-06-09' })).body;
    assert.deepEqual([from.date_from, from.date_to, from.totals.validations], ['2026-06-09', '2026-06-10', 2]);
    const to = (await analytics({ date_to: '2026-06-08' })).body;
    assert.deepEqual([to.date_from, to.date_to, to.totals.validations], ['2026-05-10', '2026-06-08', 3]);
  });

  test('a year is 366 days at most; a reversed or impossible range is a 400', async () => {
    const year = await analytics({ date_from: '2025-06-10', date_to: '2026-06-10' });
    assert.equal(year.status, 200, year.text);
    assert.equal(year.body.daily.length, 366);
    assert.deepEqual(year.body.totals, expected.totals);
    for (const query of [
      { date_from: '2025-06-09', date_to: '2026-06-10' },
      { date_from: '2020-01-01' },
      { date_from: '2026-06-10', date_to: '2026-06-09' },
      { date_from: '2026-02-30' },
    ]) {
      const reply = await analytics(query);
      assert.deepEqual([reply.status, reply.body.code], [400, 'invalid_request'], JSON.stringify(query));
    }
  });

  test('every value of every enum is a key, even at 0; another tenant sees only zeros', async () => {
    const spec = rawSpec() as any;
    const keys = (name: string) => [...spec.components.schemas[name].enum].sort();
    const body = (
      await callAs(server, '/api/v1/analytics', server.apiKeyBody('globex', 'viewer'), { date_from: '2026-06-08', date_to: '2026-06-10' })
    ).body;
    assert.deepEqual(Object.keys(body.by_mode).sort(), keys('Mode'));
    assert.deepEqual(Object.keys(body.by_severity).sort(), keys('Severity'));
    assert.deepEqual(Object.keys(body.by_confidence_level).sort(), keys('ConfidenceLevel'));
    assert.deepEqual(Object.keys(body.by_category).sort(), keys('FindingCategory'));
    assert.deepEqual(
      Object.keys(body.reviews).sort(),
      keys('ReviewState').filter((s: string) => s !== 'not_required'),
    );
    assert.equal(body.totals.validations, 0);
    assert.deepEqual(body.time_to_decision, { decisions: 0, mean_seconds: null, max_seconds: null });
    assert.deepEqual(
      [body.engine_agreement.decisions, body.engine_agreement.precision, body.engine_agreement.recall, body.engine_agreement.monthly],
      [0, null, null, [{ month: '2026-06', ...zeroAgreement, precision: null, recall: null }]],
    );
    assert.deepEqual(Object.keys(body.engine_agreement.by_category).sort(), keys('FindingCategory'));
    assert.deepEqual(
      body.daily,
      ['2026-06-08', '2026-06-09', '2026-06-10'].map((date) => day(date)),
    );
  });
});

describe('POST /api/v1/analytics/csv', () => {
  test('the daily series as RFC 4180 CSV: parsed back, it says what the JSON says', async () => {
    const query = { date_from: '2026-06-07', date_to: '2026-06-10' };
    const reply = await callAs(server, '/api/v1/analytics/csv', viewer(), query);
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.match(reply.headers.get('content-disposition')!, /^attachment; filename="?analytics-acme-2026-06-07-2026-06-10\.csv"?$/);
    assert.ok(reply.text.endsWith('\r\n') && !/[^\r]\n/.test(reply.text), 'records end in CRLF');
    const json = (await analytics(query)).body;
    const rows: Record<string, string>[] = parse(reply.text, { columns: true, record_delimiter: '\r\n' });
    assert.deepEqual(Object.keys(rows[0]!), [
      'date',
      'validations',
      'with_issues',
      ...Object.keys(json.by_mode),
      ...Object.keys(json.by_severity).map((level) => `severity_${level}`),
      ...Object.keys(json.by_confidence_level).map((level) => `confidence_${level}`),
      ...Object.keys(zeroAgreement).map((count) => `agreement_${count}`),
    ]);
    const asJson = rows.map((row) => ({
      date: row.date,
      validations: Number(row.validations),
      with_issues: Number(row.with_issues),
      by_mode: Object.fromEntries(Object.keys(json.by_mode).map((mode) => [mode, Number(row[mode])])),
      by_severity: Object.fromEntries(Object.keys(json.by_severity).map((level) => [level, Number(row[`severity_${level}`])])),
      by_confidence_level: Object.fromEntries(
        Object.keys(json.by_confidence_level).map((level) => [level, Number(row[`confidence_${level}`])]),
      ),
      engine_agreement: Object.fromEntries(Object.keys(zeroAgreement).map((count) => [count, Number(row[`agreement_${count}`])])),
    }));
    assert.deepEqual(asJson, json.daily);
    assert.deepEqual(asJson.slice(1), expectedDays);
    // No cell a spreadsheet would run as a formula.
    for (const row of parse(reply.text) as string[][]) for (const cell of row) assert.doesNotMatch(cell, /^\s*[=+\-@]/);
  });

  test('the same range rules apply', async () => {
    const reply = await callAs(server, '/api/v1/analytics/csv', viewer(), { date_from: '2020-01-01', date_to: '2026-06-10' });
    assert.deepEqual([reply.status, reply.body.code], [400, 'invalid_request']);
  });
});
