// POST /api/v1/validate end to end through HTTP on loopback: each mode, URL sources through the
// outbound guard, history, audit and counters, the webhook, and idempotent replay.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { verifyWebhook } from '../../../sdk/src/webhooks.js';
import { dereferencedSpec } from '../../../test/support/spec.js';
import { AuditStore } from '../../src/cosmos/audit-store.js';
import { HistoryStore } from '../../src/cosmos/history-store.js';
import { explained } from '../../src/services/validation/skip-reasons.js';
import { writeFixture } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/harness.js';

const policy =
  'Leave policy. Full-time employees are entitled to 25 days of paid leave per calendar year. Part-time employees accrue leave pro rata. Unused leave of up to 5 days may be carried over to the next year.';
const question = 'How many days of paid leave do full-time employees get?';
const webhookToken = 'webhook-token-for-tests-0123';
const signingSecret = `whsec_${Buffer.from('a-secret-of-thirty-two-bytes-ok!').toString('base64')}`;

let site: Server;
let siteUrl: string;
let hooks: { headers: IncomingHttpHeaders; body: string; path: string }[] = [];
let server: TestServer;
let token: string;

before(async () => {
  site = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', async () => {
      if (req.url?.startsWith('/hook')) {
        hooks.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), path: req.url });
        if (req.url === '/hook/slow') await sleep(10_000);
        res.end();
        return;
      }
      if (req.url === '/policy.html') {
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end(`<html><body><h1>Leave</h1><p>${policy}</p><script>var x = 1;</script></body></html>`);
        return;
      }
      res.statusCode = 404;
      res.end();
    });
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  const fixture = await writeFixture({
    overrides: {
      acme: {
        audit_retention_days: 400,
        outbound: { allow: ['127.0.0.1'] },
        workflow: { review_required: 'when_issues' },
        webhook: {
          enabled: true,
          url: `${siteUrl}/hook`,
          bearer_token: webhookToken,
          signing_secret: signingSecret,
          include_successful: true,
        },
        features: { document_templates: true, audit_trail: true },
      },
      // The tenant file's engine thresholds: a contradiction is critical, and nothing short of certain is high confidence.
      globex: { engine: { contradicted_severity: 'critical', high_confidence: 1, medium_confidence: 0.9 } },
    },
  });
  server = await startTestServer({ fixture });
  token = await server.login('acme', 'user');
});
after(async () => {
  await server.close();
  site.closeAllConnections();
  site.close();
});

const validate = (body: object, headers: Record<string, string> = {}) => server.call('/api/v1/validate', body, { token, headers });

async function validationsTotal(): Promise<number> {
  const reply = await server.call('/api/v1/stats', {}, { token });
  assert.equal(reply.status, 200, reply.text);
  return reply.body.validations.total;
}

async function auditKinds(validationId: string): Promise<string[]> {
  const kinds: string[] = [];
  for await (const page of new AuditStore(server.cosmos.container('audit')).events('acme', { validationId }, 100))
    kinds.push(...page.map((e) => e.kind));
  return kinds;
}

describe('POST /api/v1/validate', () => {
  test('validate: a contradicted figure is found, recorded in history and audit, counted, and sent to the webhook', async () => {
    hooks = [];
    const total = await validationsTotal();
    const reply = await validate({
      mode: 'validate',
      question,
      chatbot_response: 'Full-time employees get 30 days of paid leave per year.',
      inline_text: policy,
    });
    assert.equal(reply.status, 200, reply.text);
    const result = reply.body;
    assert.equal(result.mode, 'validate');
    assert.ok(result.issue_count > 0, JSON.stringify(result.findings));
    assert.ok(result.claims.some((claim: { status: string }) => claim.status === 'contradicted'));
    assert.deepEqual(
      result.sources.map((s: { kind: string }) => s.kind),
      ['inline_text'],
    );
    assert.equal(result.review.state, 'pending_review');
    assert.equal(result.metadata.engine.method, 'deterministic-evidence-check');
    assert.equal(result.rate_limit.limit, 100000);
    const record = await new HistoryStore(server.cosmos.container('history')).get('acme', result.validation_id);
    assert.equal(record!.ttl, 90 * 24 * 3600);
    assert.equal(record!.outbox_pending, false);
    assert.deepEqual(await auditKinds(result.validation_id), ['validation_created', 'review_required']);
    assert.equal(await validationsTotal(), total + 1);
    const delivered = () => hooks.find((hook) => JSON.parse(hook.body).validation_id === result.validation_id);
    for (let i = 0; i < 100 && !delivered(); i += 1) await sleep(20);
    const hook = delivered()!;
    const event = await verifyWebhook({ headers: hook.headers, body: hook.body, token: webhookToken, signingSecret });
    assert.equal(event.validation_id, result.validation_id);
    const spec = (await dereferencedSpec()) as any;
    const ajv = new Ajv2020({ strict: false });
    addFormats.default(ajv);
    assert.ok(
      ajv.validate(spec.webhooks['service.validation.findings'].post.requestBody.content['application/json'].schema, event),
      JSON.stringify(ajv.errors),
    );
  });

  test("the tenant file's engine thresholds decide severity and confidence level", async () => {
    const body = {
      mode: 'validate',
      question,
      chatbot_response: 'Full-time employees get 30 days of paid leave per year.',
      inline_text: policy,
    };
    const acme = (await validate(body)).body;
    const globex = (await server.call('/api/v1/validate', body, { token: await server.login('globex', 'user') })).body;
    assert.equal(acme.severity, 'high');
    assert.equal(globex.severity, 'critical');
    assert.ok(globex.findings.some((finding: { severity: string }) => finding.severity === 'critical'));
    assert.equal(globex.confidence_score, acme.confidence_score);
    assert.ok(globex.confidence_score < 0.9, String(globex.confidence_score));
    assert.equal(globex.confidence_level, 'low');
  });

  test('validate_and_fix corrects the figure; generate answers from the sources', async () => {
    const fixed = await validate({
      mode: 'validate_and_fix',
      question,
      chatbot_response: 'Full-time employees get 30 days of paid leave per year.',
      inline_text: policy,
    });
    assert.equal(fixed.status, 200, fixed.text);
    assert.match(fixed.body.corrected_response, /25/);
    assert.ok(fixed.body.corrections.length > 0);
    const generated = await validate({ mode: 'generate', question, inline_text: policy });
    assert.equal(generated.status, 200, generated.text);
    assert.match(generated.body.answer, /25 days/);
  });

  test("validate_and_fix puts the sources' sentence in place of an answer that widens it", async () => {
    const fixed = await validate({
      mode: 'validate_and_fix',
      question: 'Can I carry leave over?',
      chatbot_response: 'All unused leave can be carried over to the next year.',
      inline_text: policy,
    });
    assert.equal(fixed.status, 200, fixed.text);
    assert.equal(fixed.body.corrected_response, 'Unused leave of up to 5 days may be carried over to the next year.');
    assert.equal(fixed.body.issue_count, 0);
    assert.equal(fixed.body.findings.length, 1);
    assert.equal(fixed.body.findings[0].status, 'fixed');
    assert.match(fixed.body.findings[0].description, /The sources limit this \("up to"\); the answer says "all"\./i);
  });

  test('a URL source is fetched through the guard and reduced to text; refused ones are skipped with their reason', async () => {
    const reply = await validate({
      mode: 'validate',
      question,
      chatbot_response: 'Full-time employees get 25 days of paid leave per year.',
      urls: [`${siteUrl}/policy.html`, `${siteUrl}/missing`, 'http://169.254.169.254/latest/meta-data'],
    });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(
      reply.body.sources.map((s: { kind: string; reference: string }) => [s.kind, s.reference]),
      [['url', `${siteUrl}/policy.html`]],
    );
    assert.deepEqual(reply.body.metadata.skipped_sources, [
      explained({ kind: 'url', reference: `${siteUrl}/missing`, reason: 'fetch_failed' }),
      explained({ kind: 'url', reference: 'http://169.254.169.254/latest/meta-data', reason: 'blocked_address' }),
    ]);
    assert.equal(reply.body.issue_count, 0, JSON.stringify(reply.body.findings));
  });

  test('with every source skipped the answer is still 200, with a source_unavailable finding', async () => {
    const reply = await validate({ mode: 'validate', question, chatbot_response: 'Twenty-five days.', urls: [`${siteUrl}/missing`] });
    assert.equal(reply.status, 200, reply.text);
    assert.ok(
      reply.body.findings.some((f: { category: string }) => f.category === 'source_unavailable'),
      JSON.stringify(reply.body.findings),
    );
  });

  test('an Idempotency-Key retry replays the validation and records nothing twice', async () => {
    hooks = [];
    const key = `validate-${Date.now()}`;
    const body = {
      mode: 'validate',
      question,
      chatbot_response: 'Full-time employees get 30 days of paid leave per year.',
      inline_text: policy,
    };
    const first = await validate(body, { 'Idempotency-Key': key });
    const total = await validationsTotal();
    const second = await validate(body, { 'Idempotency-Key': key });
    assert.equal(second.headers.get('idempotent-replayed'), 'true');
    assert.equal(second.body.validation_id, first.body.validation_id);
    assert.equal(await validationsTotal(), total);
    assert.deepEqual(await auditKinds(first.body.validation_id), ['validation_created', 'review_required']);
    await sleep(300);
    const mine = hooks.filter((hook) => JSON.parse(hook.body).validation_id === first.body.validation_id);
    assert.equal(mine.length, 1, 'one webhook');
  });
});

describe('source groups in a validation', () => {
  async function groupWithFile(name: string, allowedRoles: string[], text: string): Promise<string> {
    const admin = await server.login('acme', 'admin');
    const group = await server.call('/api/v1/sources/group/save', { name, allowed_roles: allowedRoles }, { token: admin });
    assert.equal(group.status, 200, group.text);
    const bytes = Buffer.from(text);
    const upload = await server.call(
      '/api/v1/sources/upload-url',
      { group_id: group.body.group_id, file_name: 'policy.txt', content_type: 'text/plain', size_bytes: bytes.length },
      { token: admin },
    );
    assert.equal(upload.status, 200, upload.text);
    const put = await fetch(upload.body.upload_url, { method: upload.body.method, headers: upload.body.headers, body: bytes });
    assert.equal(put.status, 201);
    return group.body.group_id;
  }

  test('a usable group grounds the answer; a forbidden one is skipped, flagged and never used', async () => {
    const usable = await groupWithFile(`HR policies ${Date.now()}`, ['hr'], policy);
    const forbidden = await groupWithFile(`Finance ${Date.now()}`, ['finance'], 'Full-time employees get 30 days of paid leave per year.');
    const reply = await validate({
      mode: 'validate',
      question,
      chatbot_response: 'Full-time employees get 25 days of paid leave per year.',
      source_groups: [usable, forbidden],
    });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.body.issue_count, 0, JSON.stringify(reply.body.findings));
    assert.deepEqual(
      reply.body.sources.map((s: { kind: string; group_id: string }) => [s.kind, s.group_id]),
      [['file', usable]],
    );
    assert.equal(reply.body.metadata.source_access_filtered, true);
    assert.deepEqual(reply.body.metadata.skipped_sources, [
      explained({ kind: 'source_group', reference: forbidden, reason: 'access_denied' }),
    ]);
    assert.match(
      reply.body.metadata.skipped_sources[0].detail,
      /^Not found or not accessible/,
      'a forbidden group reads as an unknown one',
    );

    // The forbidden group alone holds the only text that would support "30 days": the claim is not supported.
    const only = await validate({
      mode: 'validate',
      question,
      chatbot_response: 'Full-time employees get 30 days of paid leave per year.',
      source_groups: [forbidden],
    });
    assert.equal(only.status, 200, only.text);
    assert.ok(only.body.issue_count > 0);
    assert.deepEqual(only.body.sources, []);
  });
});
