// A verifier's verdicts applied to the engine's result: the claim, its finding, and the summary follow,
// as the engine itself would have written them; other claims' findings stay as they were.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { reviseValidation } from '../../src/engine/revise.js';
import { validateDetailed } from '../../src/engine/validate.js';
import { verifierUnavailable } from '../../src/engine/verifier-note.js';

const request = {
  question: 'What does the warranty cover?',
  answer: 'The warranty covers the battery for two years. It also covers water damage.',
  sources: [
    {
      source_id: 'src_1',
      text: 'Warranty. The battery is covered for two years from purchase. Damage from water or drops is not covered.',
    },
  ],
};

test('a claim the verifier clears loses its finding, and the issues and severity follow', () => {
  const before = validateDetailed(request).result;
  const flagged = before.claims.findIndex((c) => c.status !== 'supported');
  assert.ok(flagged >= 0, 'the checks flag the water damage claim');
  const after = reviseValidation(
    before,
    [{ index: flagged, status: 'supported', score: 0.9, evidence: [], reason: 'fine', verifier: 'openai' }],
    [],
    request,
  );
  assert.equal(after.claims[flagged]!.status, 'supported');
  assert.equal(after.claims[flagged]!.verifier, 'openai');
  assert.ok(!after.findings.some((f) => f.claim_index === flagged));
  assert.equal(after.issue_count, before.issue_count - 1);
  assert.equal(after.severity, after.issue_count === 0 ? 'none' : after.severity);
});

test("a note about the verification is an issue of low severity, placed after the claims' findings", () => {
  const before = validateDetailed(request).result;
  const after = reviseValidation(before, [], [verifierUnavailable('openai', '1 claim: timeout')], request);
  assert.equal(after.findings.at(-1)!.category, 'verifier_unavailable');
  assert.equal(after.issue_count, before.issue_count + 1);
  assert.deepEqual(after.claims, before.claims);
});
