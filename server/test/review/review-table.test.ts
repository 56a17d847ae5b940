// The review state machine is one table (services/review/review-transitions.ts). The decisions
// document, the contract's description of reviewValidation and its request schemas must say the
// same: parsed here and compared with the code's table.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { type Operation, rawSpec, repoRoot } from '../../../test/support/spec.js';
import { reviewTransitions } from '../../src/services/review/review-transitions.js';
import { requiredFacts } from './required-facts.js';

const decisions = readFileSync(join(repoRoot, 'docs/decisions.md'), 'utf8');
const spec = rawSpec() as any;

/** The cells of a markdown table's body rows, backticks removed, from the first table after `heading`. */
function tableAfter(text: string, heading: string): string[][] {
  const start = text.indexOf(heading);
  assert.ok(start >= 0, `"${heading}" is in the text`);
  const lines = text.slice(start).split('\n');
  const first = lines.findIndex((line) => line.trim().startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.trim().startsWith('|')) break;
    rows.push(
      line
        .trim()
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

const bare = (cell: string) => cell.replaceAll('`', '');
const code = (transition: (typeof reviewTransitions)[number]) => [transition.from, transition.action, transition.to, transition.auditEvent];

test("docs/decisions.md's review state machine table is the code's table", () => {
  const rows = tableAfter(decisions, '## Review state machine');
  assert.deepEqual(
    rows.map((row) => row.slice(0, 4).map(bare)),
    reviewTransitions.map(code),
  );
  // "Required fields": the names in backticks outside the parentheses, which list what is optional;
  // what the contract's request shape for the action requires.
  assert.deepEqual(
    rows.map((row) => [...row[4]!.replace(/\([^)]*\)/g, '').matchAll(/`([a-z_]+)`/g)].map((m) => m[1])),
    reviewTransitions.map((t) => requiredFacts(t.action)),
  );
});

test('decision row 20 names each transition and the terminal states', () => {
  const row20 = decisions.split('\n').find((line) => line.startsWith('| 20 |'))!;
  for (const t of reviewTransitions) assert.ok(row20.includes(`\`${t.action}\` → \`${t.to}\``), `${t.action} → ${t.to} in row 20`);
  const states: string[] = spec.components.schemas.ReviewState.enum;
  const terminal = states.filter((s) => s !== 'not_required' && !reviewTransitions.some((t) => t.from === s));
  const named = /`([a-z_]+)`(?:, `[a-z_]+`)*(?:,)? and `([a-z_]+)` are terminal/.exec(row20)![0];
  assert.deepEqual([...named.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]).sort(), terminal.sort());
  assert.match(row20, /`not_required` accepts no action/);
});

test("the contract's reviewValidation description has the same transitions", () => {
  const operation = spec.paths['/api/v1/history/{id}/review'].post as Operation;
  const rows = tableAfter(operation.description!, '| from |');
  assert.deepEqual(
    rows.map((row) => row.map(bare)),
    reviewTransitions.map(code),
  );
});

test('the contract has a request shape for every action, each requiring only facts a review records', () => {
  const { mapping } = spec.components.schemas.ReviewRequest.discriminator;
  const actions: string[] = spec.components.schemas.ReviewAction.enum;
  assert.deepEqual(Object.keys(mapping).sort(), [...actions].sort());
  for (const action of actions) {
    for (const fact of requiredFacts(action)) assert.ok(['note', 'corrections', 'external_reference'].includes(fact), `${action}: ${fact}`);
  }
});

test('every action and state of the contract appears in the table, and every event is a review audit kind', () => {
  const kinds: string[] = spec.components.schemas.AuditEventKind.enum;
  const states: string[] = spec.components.schemas.ReviewState.enum;
  assert.deepEqual([...new Set(reviewTransitions.map((t) => t.action))].sort(), [...spec.components.schemas.ReviewAction.enum].sort());
  for (const t of reviewTransitions) {
    assert.ok(states.includes(t.from) && states.includes(t.to), `${t.from} → ${t.to}`);
    assert.ok(kinds.includes(t.auditEvent), t.auditEvent);
  }
  assert.equal(new Set(reviewTransitions.map((t) => `${t.from} ${t.action}`)).size, reviewTransitions.length, 'one row per pair');
});
