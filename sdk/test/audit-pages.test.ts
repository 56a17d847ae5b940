// The SDK over several real pages of the reference server's audit trail, verified with the SDK's
// own chain verifier: the client, the server and the hash chain agree end to end.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { auditFixture, entriesOfEveryKind, tenantsOf } from '../../server/test/support/audit.js';
import { startTestServer, type TestServer } from '../../server/test/support/harness.js';
import { type AuditEvent, createClient, verifyAuditChain } from '../src/index.js';

let server: TestServer;
before(async () => {
  const fixture = await auditFixture();
  server = await startTestServer({ fixture });
  const acme = tenantsOf(fixture).acme!;
  // Two validations' worth of events: 16 in all, so pages of 5 need four requests.
  for (const entry of [...entriesOfEveryKind(), ...entriesOfEveryKind()]) await server.services.audit.trail.append(acme, entry);
});
after(() => server.close());

test('audit.iterate walks every page of the real trail in sequence order, and the chain verifies', async () => {
  const key = server.apiKeyBody('acme', 'admin');
  const client = createClient({ baseUrl: server.url, customerId: key.customer_id, apiKey: key.api_key });
  const events: AuditEvent[] = [];
  for await (const event of client.audit.iterate({ limit: 5 })) events.push(event);
  assert.deepEqual(
    events.map((e) => e.sequence),
    Array.from({ length: 16 }, (_, i) => i + 1),
  );
  assert.deepEqual(await verifyAuditChain(events), { valid: true, checked: 16 });

  const tampered = events.map((e) => (e.sequence === 9 ? ({ ...e, data: { ...e.data, issue_count: 0 } } as AuditEvent) : e));
  const result = await verifyAuditChain(tampered);
  assert.equal(result.valid, false);
  assert.equal(!result.valid && result.firstBadSequence, 9);
});
