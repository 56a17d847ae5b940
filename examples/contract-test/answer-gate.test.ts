// Integration tests for your code against @groundcheck/mock: the real SDK, real HTTP, answers from
// the Groundcheck contract's examples. Run with `node --import tsx --test examples/contract-test/`.
//
// The mock is stateless and checks no credentials; it validates every request against the
// contract, and `Prefer: code=<status>` makes it answer one of the documented errors.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type RunningMock, startMock } from '@groundcheck/mock';
import { AuthenticationError, createClient } from '@groundcheck/sdk';
import { gateAnswer } from './answer-gate.js';

let mock: RunningMock;
before(async () => {
  // Port 0: a free port, so test files running in parallel do not collide.
  mock = await startMock({ port: 0 });
});
after(() => mock.close());

/** A client for the mock; any token is accepted. `prefer` asks for a documented status. */
const client = (prefer?: string) =>
  createClient({ baseUrl: mock.url, token: 'any-token', maxRetries: 0, headers: prefer ? { Prefer: prefer } : {} });

const question = 'How many days of paid leave do full-time employees get?';
const source = 'Full-time employees are entitled to 25 days of paid leave per calendar year.';

test('an answer that contradicts the source is held back', async () => {
  // The contract's validate example is a contradicted claim with severity high.
  const verdict = await gateAnswer(client(), question, 'Full-time employees get 30 days of paid leave per year.', source);
  assert.equal(verdict.show, false);
  assert.match(verdict.reason, /contradicted/i);
});

test('when Groundcheck is rate limited or down, the answer is shown unchecked', async () => {
  for (const status of [429, 503]) {
    const verdict = await gateAnswer(client(`code=${status}`), question, 'Some answer.', source);
    assert.equal(verdict.show, true);
    assert.match(verdict.reason, new RegExp(`not checked \\(${status} `));
  }
});

test('bad credentials are a configuration error, not a verdict', async () => {
  await assert.rejects(gateAnswer(client('code=401'), question, 'Some answer.', source), AuthenticationError);
});

test('a request the contract rejects (an empty question) is not checkable', async () => {
  const verdict = await gateAnswer(client(), '', 'Some answer.', source);
  assert.deepEqual(verdict, { show: false, reason: 'not checkable: invalid_request' });
});
