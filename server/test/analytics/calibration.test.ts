// The tenant's operating point fitted to its own decided reviews, through POST /api/v1/analytics: suggested when
// the tenant's reviews call for another point and are enough, not before; never across tenants; `off` fits nothing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/lib/clock.js';
import { tenantsOf } from '../support/audit.js';
import { writeFixture } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/harness.js';
import { callAs, decideFlagged } from '../support/history.js';

const clock = new ManualClock(new Date('2026-09-01T08:00:00.000Z'));
let server: TestServer;

before(async () => {
  const fixture = await writeFixture({
    overrides: {
      acme: { workflow: { review_required: 'always' }, engine: { calibration: { min_decisions: 20, min_each: 5, target_precision: 0.9 } } },
      globex: { workflow: { review_required: 'always' }, engine: { calibration: { mode: 'off' } } },
    },
  });
  server = await startTestServer({ fixture, clock });
  const tenants = tenantsOf(fixture);
  // acme's history: 30 answers the engine flagged, one a day. The reviewers reject those whose risk is high (0.9)
  // and approve those whose risk is moderate (0.4): the current point (every one of them flagged) is right half the
  // time, a point at risk 0.9 always.
  for (let day = 0; day < 30; day++) {
    const wrong = day % 2 === 0;
    await decideFlagged(server, tenants.acme!, { createdAt: new Date(Date.UTC(2026, 7, 1 + day, 9)), risk: wrong ? 0.9 : 0.4, wrong });
  }
  // globex decides the same kind of cases, with calibration off.
  for (let day = 0; day < 4; day++) {
    await decideFlagged(server, tenants.globex!, { createdAt: new Date(Date.UTC(2026, 7, 1 + day, 9)), wrong: true });
  }
});
after(() => server.close());

const analytics = (customerId: string, query: object = {}) =>
  callAs(server, '/api/v1/analytics', server.apiKeyBody(customerId, 'viewer'), query);

describe('calibration', () => {
  test('a tenant whose reviews call for another point gets it suggested, measured on its newer decisions', async () => {
    // The range asked for holds none of the decisions: the point rests on all of them all the same.
    const reply = await analytics('acme', { date_from: '2026-09-01' });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(reply.body.calibration, {
      mode: 'suggest',
      status: 'suggested',
      target_precision: 0.9,
      current_supported_score: 0.5,
      decisions: 30,
      suggested: {
        supported_score: 0.1,
        // 21 older decisions (70%) to fit, 9 newer to measure: 4 wrong and 5 right, every one flagged now.
        fitted_on: 21,
        measured_on: 9,
        current: { precision: 4 / 9, recall: 1 },
        fitted: { precision: 1, recall: 1 },
      },
    });
    assert.equal(reply.body.engine_agreement.decisions, 0);
  });

  test('below the minimum of decisions nothing is fitted; off fits nothing; no tenant sees another’s', async () => {
    const few = await writeFixture({ overrides: { acme: { workflow: { review_required: 'always' } } } });
    const other = await startTestServer({ fixture: few, clock });
    try {
      const tenants = tenantsOf(few);
      for (let day = 0; day < 3; day++) {
        await decideFlagged(other, tenants.acme!, { createdAt: new Date(Date.UTC(2026, 7, 1 + day)), wrong: true });
      }
      const reply = await callAs(other, '/api/v1/analytics', other.apiKeyBody('acme', 'viewer'), {});
      assert.deepEqual(
        [reply.body.calibration.status, reply.body.calibration.decisions, reply.body.calibration.suggested],
        ['too_few_decisions', 3, null],
      );
    } finally {
      await other.close();
    }
    const off = (await analytics('globex')).body.calibration;
    assert.deepEqual([off.mode, off.status, off.decisions, off.suggested], ['off', 'off', 0, null]);
  });

  test('a validation gone from history (expired, or deleted with its data) leaves the next fit', async () => {
    const counted = (await analytics('acme')).body.calibration.decisions;
    const page = await callAs(server, '/api/v1/history', server.apiKeyBody('acme', 'viewer'), { review_state: 'rejected', limit: 1 });
    const [gone] = page.body.data;
    await server.cosmos.container('history').item(gone.validation_id, 'acme').delete();
    assert.equal((await analytics('acme')).body.calibration.decisions, counted - 1);
  });
});
