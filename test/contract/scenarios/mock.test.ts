// Consumer side: the contract scenarios against @groundcheck/mock (the built package, as a customer
// installs it). Every SDK method gets a typed answer from the contract's examples, each answer is
// checked against the contract, and together they reach every operation and required status.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type RunningMock, startMock } from '@groundcheck/mock';
import { rawSpec } from '../../support/spec.js';
import { missingPairs, summary } from './coverage.js';
import { createRecorder } from './recorder.js';
import { scenarios } from './scenarios.js';

const spec = rawSpec();
const recorder = createRecorder(spec);
let mock: RunningMock;

describe('the contract scenarios against the mock', () => {
  before(async () => {
    mock = await startMock({ port: 0 });
  });
  after(() => mock.close());

  scenarios(() => ({
    live: false,
    url: mock.url,
    invalidUrl: mock.url,
    recorder,
    apiKey: { customerId: 'acme', apiKey: 'gck_Ab12Cd34_0123456789abcdefghijklmnopqrstuv' },
  }));

  test('every answer kept the contract', () => {
    assert.deepEqual(recorder.problems, []);
  });

  test('every operation and required status was exercised', (t) => {
    t.diagnostic(summary(spec, recorder.exchanges));
    assert.deepEqual(missingPairs(spec, recorder.exchanges), []);
  });
});
