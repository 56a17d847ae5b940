// The SDK's verifyAuditChain against chains this server wrote and served over HTTP: proves that
// server and SDK agree on the canonical form, and that tampering is caught where it happened.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { AuditEvent } from '@groundcheck/contract';
import { verifyAuditChain } from '../../../sdk/src/audit-chain.js';
import { actors, auditFixture, entriesOfEveryKind, factsOf, tenantsOf } from '../support/audit.js';
import { startTestServer, type TestServer } from '../support/harness.js';

let server: TestServer;
let chain: AuditEvent[];

before(async () => {
  server = await startTestServer({ fixture: await auditFixture() });
  const acme = tenantsOf(server.fixture).acme!;
  const entries = entriesOfEveryKind();
  // Text that escapes differently in careless serialisers: quotes, backslashes, control and non-ASCII characters.
  entries.push({
    kind: 'approved',
    actor: actors.admin,
    validationId: null,
    data: { note: 'Ünïcødé ✓ 🎉 "quoted" \\ back\\slash\nnew line\t<tag> \u2028' },
  });
  for (const entry of entries) await server.services.audit.trail.append(acme, entry);
  const reply = await server.call('/api/v1/audit', { ...server.apiKeyBody('acme', 'admin'), limit: 100 });
  assert.equal(reply.status, 200, reply.text);
  chain = reply.body.data;
  assert.equal(chain.length, 9);
});
after(() => server.close());

/** A deep copy, as a consumer holding a downloaded trail would have it. */
const copy = (): AuditEvent[] => structuredClone(chain);

describe('verifyAuditChain', () => {
  test('accepts the trail the server serves, from the query and from the raw export', async () => {
    assert.deepEqual(await verifyAuditChain(chain), { valid: true, checked: 9 });
    const exported = await server.call('/api/v1/audit/export', { ...server.apiKeyBody('acme', 'admin'), profile: 'raw', days: 1 });
    assert.equal(exported.status, 200, exported.text);
    assert.deepEqual(await verifyAuditChain(exported.body.events), { valid: true, checked: 9 });
    assert.deepEqual(await verifyAuditChain([]), { valid: true, checked: 0 });
  });

  test('catches one changed byte anywhere in an event, but not in expires_at, which retention may change', async () => {
    const edits: [number, (event: AuditEvent) => void][] = [
      [3, (event) => (factsOf(event).note = factsOf(event).note!.replace('Checked', 'Chucked'))],
      [1, (event) => (factsOf(event).sources![0]!.sha256 = `0${factsOf(event).sources![0]!.sha256.slice(1)}`)],
      [2, (event) => (event.actor.id = 'usr_01JD3XMALL0RYMALL0RYMALL0R')],
      [6, (event) => (event.occurred_at = event.occurred_at.replace(/\d(?=Z$)/, (d) => String((Number(d) + 1) % 10)))],
      [9, (event) => (factsOf(event).note = factsOf(event).note!.replace('🎉', '🎊'))],
    ];
    for (const [sequence, edit] of edits) {
      const tampered = copy();
      edit(tampered[sequence - 1]!);
      assert.deepEqual(
        await verifyAuditChain(tampered),
        { valid: false, checked: sequence - 1, firstBadSequence: sequence, reason: 'hash_mismatch' },
        `edit of event ${sequence}`,
      );
    }
    const retention = copy();
    retention[4]!.expires_at = '2099-01-01T00:00:00.000Z';
    assert.equal((await verifyAuditChain(retention)).valid, true);
  });

  test('catches a removed event, also when the events after it are renumbered', async () => {
    const removed = copy();
    removed.splice(3, 1);
    assert.deepEqual(await verifyAuditChain(removed), { valid: false, checked: 3, firstBadSequence: 5, reason: 'sequence_gap' });

    const renumbered = removed.map((event, index) => ({ ...event, sequence: index + 1 }));
    assert.deepEqual(await verifyAuditChain(renumbered), { valid: false, checked: 3, firstBadSequence: 4, reason: 'broken_link' });

    const withoutFirst = copy()
      .slice(1)
      .map((event, index) => ({ ...event, sequence: index + 1 }));
    assert.deepEqual(await verifyAuditChain(withoutFirst), { valid: false, checked: 0, firstBadSequence: 1, reason: 'broken_link' });
  });

  test('catches two events swapped', async () => {
    const swapped = copy();
    [swapped[3], swapped[4]] = [swapped[4]!, swapped[3]!];
    assert.deepEqual(await verifyAuditChain(swapped), { valid: false, checked: 3, firstBadSequence: 5, reason: 'out_of_order' });

    const lastFirst = copy();
    lastFirst.push(lastFirst.shift()!);
    assert.deepEqual(await verifyAuditChain(lastFirst), { valid: false, checked: 8, firstBadSequence: 1, reason: 'out_of_order' });
  });

  test('verifies a page that starts later in the trail, from the hash before it when given', async () => {
    const page = chain.slice(4);
    assert.deepEqual(await verifyAuditChain(page), { valid: true, checked: 5 });
    assert.deepEqual(await verifyAuditChain(page, { previousHash: chain[3]!.hash }), { valid: true, checked: 5 });
    assert.deepEqual(await verifyAuditChain(page, { previousHash: chain[2]!.hash }), {
      valid: false,
      checked: 0,
      firstBadSequence: 5,
      reason: 'broken_link',
    });
  });
});
