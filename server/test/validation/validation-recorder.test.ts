import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AuditStore } from '../../src/cosmos/audit-store.js';
import { HistoryStore } from '../../src/cosmos/history-store.js';
import { newId } from '../../src/lib/ids.js';
import { createLogger } from '../../src/logger.js';
import type { AuditTrail } from '../../src/services/audit/audit-trail.js';
import { type CompletedValidation, ValidationRecorder } from '../../src/services/validation/validation-recorder.js';
import type { Tenant } from '../../src/tenants/tenant.js';
import { actors, auditFixture, tenantsOf } from '../support/audit.js';
import { FailingTrail } from '../support/failing-trail.js';
import { startTestServer, type TestServer } from '../support/harness.js';

const historyTtlDays = 90;
const log = createLogger('silent');
let server: TestServer;
let history: HistoryStore;
let tenants: Record<string, Tenant>;

before(async () => {
  server = await startTestServer({ fixture: await auditFixture() });
  history = new HistoryStore(server.cosmos.container('history'));
  tenants = tenantsOf(server.fixture);
});
after(() => server.close());

function completed(overrides: Partial<CompletedValidation> = {}): CompletedValidation {
  return {
    validationId: newId('val', Date.now()),
    mode: 'validate',
    createdAt: new Date(),
    question: 'How many days of paid leave do full-time employees get?',
    user: actors.reviewer,
    output: 'Full-time employees get 30 days of paid leave per year.',
    claims: [
      {
        text: 'Full-time employees get 30 days of paid leave per year.',
        start: 0,
        end: 55,
        status: 'contradicted',
        score: 0.1,
        evidence: [],
      },
    ],
    severity: 'high',
    confidenceLevel: 'low',
    issues: ['Contradicted: "30 days" — the source says 25 days.'],
    findings: [
      {
        category: 'contradicted_claim',
        status: 'failed',
        title: 'Contradicted claim',
        description: '25, not 30',
        severity: 'high',
        claim_index: 0,
      },
    ],
    risk: 0.9,
    sourceConflictCount: 0,
    sourceGroups: [],
    sources: [{ source_id: 'src_1', kind: 'inline_text', reference: 'inline_text', sha256: 'a'.repeat(64) }],
    requestSummary: { question_chars: 56, response_chars: 55, source_group_count: 0, url_count: 0, inline_text_chars: 76 },
    keyId: null,
    ...overrides,
  };
}

/** The tenant's validation counters as POST /api/v1/stats reports them. */
async function usage(customerId: string) {
  const reply = await server.call('/api/v1/stats', server.apiKeyBody(customerId, 'viewer'));
  assert.equal(reply.status, 200, reply.text);
  return reply.body.validations;
}

/** The audit kinds written for a validation, in order. */
async function auditKinds(customerId: string, validationId: string): Promise<string[]> {
  const kinds: string[] = [];
  for await (const page of new AuditStore(server.cosmos.container('audit')).events(customerId, { validationId }, 100))
    kinds.push(...page.map((e) => e.kind));
  return kinds;
}

/** The recorder as the server builds it, with another audit trail where a test fails one on purpose. */
const recorderWith = (trail: AuditTrail = server.services.audit.trail) =>
  new ValidationRecorder(history, trail, server.services.webhooks, historyTtlDays);

describe('recording a validation', () => {
  test('writes the history record with its ttl, the audit event and the counters', async () => {
    const recorder = recorderWith();
    const tenant = { ...tenants.acme!, workflow: { reviewRequired: 'never' as const } };
    const before = await usage('acme');
    const validation = completed();
    const record = await recorder.record(tenant, validation, log);
    assert.equal(record?.review.state, 'not_required');
    const stored = await history.get('acme', validation.validationId);
    assert.equal(stored!.ttl, historyTtlDays * 24 * 3600, 'read back through the Cosmos client');
    assert.equal(stored!.outbox_pending, false);
    assert.equal(stored!.output_excerpt, validation.output);
    assert.deepEqual(await auditKinds('acme', validation.validationId), ['validation_created']);
    const after = await usage('acme');
    assert.equal(after.total, before.total + 1);
    assert.equal(after.with_issues, before.with_issues + 1);
    assert.equal(after.by_mode.validate, before.by_mode.validate + 1);
  });

  test('review is required as the workflow says: always, when_issues, never', async () => {
    const recorder = recorderWith();
    const cases = [
      ['always', [], 'pending_review'],
      ['when_issues', ['an issue'], 'pending_review'],
      ['when_issues', [], 'not_required'],
      ['never', ['an issue'], 'not_required'],
    ] as const;
    for (const [policy, issues, state] of cases) {
      const validation = completed({ issues: [...issues] });
      const record = await recorder.record({ ...tenants.acme!, workflow: { reviewRequired: policy } }, validation, log);
      assert.equal(record?.review.state, state, `${policy} with ${issues.length} issues`);
      const kinds = await auditKinds('acme', validation.validationId);
      assert.deepEqual(kinds, state === 'pending_review' ? ['validation_created', 'review_required'] : ['validation_created']);
    }
  });

  test('counters stay exact under concurrent validations', async () => {
    const recorder = recorderWith();
    const before = (await usage('tiny')).total;
    await Promise.all(Array.from({ length: 8 }, () => recorder.record(tenants.tiny!, completed({ mode: 'generate' }), log)));
    assert.equal((await usage('tiny')).total, before + 8);
  });
});

describe('a failure between the writes', () => {
  test('leaves the record with its outbox; recovery appends each event exactly once', async () => {
    const tenant = { ...tenants.acme!, workflow: { reviewRequired: 'always' as const } };
    const validation = completed();
    await recorderWith(new FailingTrail(server.cosmos.container('audit'), 1)).record(tenant, validation, log);
    assert.equal((await history.get('acme', validation.validationId))!.outbox_pending, true);
    assert.deepEqual(await auditKinds('acme', validation.validationId), []);

    const recorder = recorderWith();
    const later = new Date(Date.now() + 60_000);
    assert.ok((await recorder.recover(tenant, later)) >= 1);
    assert.deepEqual(await auditKinds('acme', validation.validationId), ['validation_created', 'review_required']);
    assert.equal((await history.get('acme', validation.validationId))!.outbox_pending, false);
    assert.equal(await recorder.recover(tenant, later), 0, 'nothing left to do');
    assert.deepEqual(await auditKinds('acme', validation.validationId), ['validation_created', 'review_required']);
  });

  test('a failure part-way (the first event in, the second not) is completed without repeating the first', async () => {
    const tenant = { ...tenants.acme!, workflow: { reviewRequired: 'always' as const } };
    const validation = completed();
    class SecondFails extends FailingTrail {
      private calls = 0;
      override async append(...args: Parameters<AuditTrail['append']>) {
        this.calls += 1;
        if (this.calls === 2) throw new Error('injected: the second append fails');
        return super.append(...args);
      }
    }
    await recorderWith(new SecondFails(server.cosmos.container('audit'), 0)).record(tenant, validation, log);
    assert.deepEqual(await auditKinds('acme', validation.validationId), ['validation_created']);
    await recorderWith().recover(tenant, new Date(Date.now() + 60_000));
    assert.deepEqual(await auditKinds('acme', validation.validationId), ['validation_created', 'review_required']);
  });

  test('recovery leaves records younger than its cut-off to the request still writing them', async () => {
    const validation = completed();
    const tenant = tenants.acme!;
    await recorderWith(new FailingTrail(server.cosmos.container('audit'), 1)).record(tenant, validation, log);
    const recorder = recorderWith();
    await recorder.recover(tenant, new Date(validation.createdAt.getTime() - 1000));
    assert.equal((await history.get('acme', validation.validationId))!.outbox_pending, true);
    await recorder.recover(tenant, new Date(Date.now() + 60_000));
    assert.equal((await history.get('acme', validation.validationId))!.outbox_pending, false);
  });

  test('when the history write itself fails, nothing is written', async () => {
    const validation = completed();
    const broken = new HistoryStore(server.cosmos.container('history'));
    broken.create = async () => {
      throw new Error('injected: Cosmos DB is unreachable');
    };
    const before = await usage('acme');
    await assert.rejects(
      new ValidationRecorder(broken, server.services.audit.trail, server.services.webhooks, historyTtlDays).record(
        tenants.acme!,
        validation,
        log,
      ),
    );
    assert.equal(await history.get('acme', validation.validationId), null);
    assert.deepEqual(await auditKinds('acme', validation.validationId), []);
    assert.deepEqual(await usage('acme'), before);
  });
});

describe('what the record keeps of the answer', () => {
  test('the answer, its claims and their sources as the validation answered them', async () => {
    const validation = completed({
      sources: [
        { source_id: 'src_1', kind: 'inline_text', reference: 'inline_text', sha256: 'a'.repeat(64) },
        { source_id: 'src_2', kind: 'url', reference: 'https://example.test/leave', sha256: 'b'.repeat(64) },
      ],
    });
    const record = await recorderWith().record(tenants.acme!, validation, log);
    assert.equal(record?.output, validation.output);
    assert.deepEqual(record?.claims, validation.claims);
    assert.deepEqual(record?.sources, validation.sources);
    assert.deepEqual((await history.get('acme', validation.validationId))?.claims, validation.claims, 'as stored');
  });

  test('bounded whatever the answer: 3 evidence spans a claim, 256 KiB of claims, 200 sources, cited ones first', async () => {
    const span = 'Full-time employees are entitled to 25 days of paid leave per calendar year. '.repeat(13).slice(0, 1000);
    const sentence = 'Full-time employees get 30 days of paid leave per year. ';
    const output = sentence.repeat(800);
    const sources = Array.from({ length: 300 }, (_, i) => ({
      source_id: `src_${i + 1}`,
      kind: 'url' as const,
      reference: `https://example.test/${i + 1}`,
      sha256: 'c'.repeat(64),
    }));
    const claims = Array.from({ length: 800 }, (_, i) => ({
      text: sentence.trim(),
      start: i * sentence.length,
      end: i * sentence.length + sentence.length - 1,
      status: 'contradicted' as const,
      score: 0.1,
      evidence: Array.from({ length: 5 }, (_, j) => ({
        source_id: `src_${300 - j}`,
        start: 0,
        end: span.length,
        text: span,
        relation: 'contradicts' as const,
      })),
    }));
    const validation = completed({ output, claims, sources });
    const record = (await recorderWith().record(tenants.acme!, validation, log))!;
    const kept = record.claims!;
    assert.ok(kept.length > 0 && kept.length < claims.length, `${kept.length} of ${claims.length} claims kept`);
    assert.ok(Buffer.byteLength(JSON.stringify(kept)) <= 256 * 1024);
    assert.ok(kept.every((claim) => claim.evidence.length === 3));
    assert.deepEqual(kept[0], { ...claims[0], evidence: claims[0]!.evidence.slice(0, 3) }, 'the first claims, in order');
    assert.equal(record.sources!.length, 200);
    assert.deepEqual(
      record.sources!.slice(0, 3).map((s) => s.source_id),
      ['src_298', 'src_299', 'src_300'],
      'the cited sources first, in their order',
    );
    assert.equal(record.output, output);
    const stored = await history.read('acme', validation.validationId);
    assert.ok(Buffer.byteLength(JSON.stringify(stored!.item)) < 512 * 1024, 'the item stays far below 2 MB');
  });

  test('a generated answer past 50,000 characters is kept to them, and the claims past them are left out', async () => {
    const output = 'a'.repeat(60_000);
    const claims = [
      { text: 'a', start: 0, end: 10, status: 'supported' as const, score: 0.9, evidence: [] },
      { text: 'a', start: 49_990, end: 50_010, status: 'supported' as const, score: 0.9, evidence: [] },
    ];
    const record = (await recorderWith().record(tenants.acme!, completed({ mode: 'generate', output, claims }), log))!;
    assert.equal(record.output?.length, 50_000);
    assert.deepEqual(record.claims, claims.slice(0, 1));
  });
});
