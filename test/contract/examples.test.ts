// The contract's examples add up: the computed ones are what the server's code computes
// (scripts/examples.ts), and the rest agree with each other the way real responses would.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type {
  AuditEventPage,
  EnterpriseAuditExport,
  GenerateModeResult,
  RawAuditExport,
  ValidateAndFixModeResult,
  ValidateModeResult,
  ValidationFindingsEvent,
  ValidationRecord,
  ValidationRecordPage,
} from '@groundcheck/contract';
import { verifyAuditChain } from '@groundcheck/sdk';
import { derivedExamples, differences, exampleKeys } from '../../scripts/examples.js';
import { LocalTokens } from '../../server/src/services/auth/local-tokens.js';
import { rawSpec } from '../support/spec.js';

const spec = rawSpec() as any;
const example = <T>(name: string): T => spec.components.examples[name].value as T;
const media = (path: string, status: string, type = 'application/json') => spec.paths[path].post.responses[status].content[type];

const validateRequests = spec.paths['/api/v1/validate'].post.requestBody.content['application/json'].examples;
const results = {
  validate: example<ValidateModeResult>('ValidateResult'),
  generate: example<GenerateModeResult>('GenerateResult'),
  validate_and_fix: example<ValidateAndFixModeResult>('ValidateAndFixResult'),
};
const rawExport = example<RawAuditExport>('AuditExportRaw');
const enterpriseExport = example<EnterpriseAuditExport>('AuditExportEnterprise');
const auditPage = example<AuditEventPage>('AuditEventPage');
const historyPage = example<ValidationRecordPage>('ValidationRecordPage');
const reviewed = example<ValidationRecord>('ReviewedRecord');
const webhook = spec.webhooks['service.validation.findings'].post.requestBody.content['application/json']
  .example as ValidationFindingsEvent;

const severities = ['none', 'low', 'medium', 'high', 'critical'];
const time = (iso: string) => Date.parse(iso);

test('the computed examples are what the server computes (scripts/examples.ts --write updates them)', async () => {
  const diffs = differences(spec, await derivedExamples(spec));
  assert.deepEqual(
    diffs.map((d) => d.path.join(' › ')),
    [],
  );
});

describe('audit', () => {
  test('the events form an unbroken chain, checked by the SDK', async () => {
    const options = { previousHash: rawExport.events[0]!.prev_hash };
    assert.deepEqual(await verifyAuditChain(rawExport.events, options), { valid: true, checked: rawExport.events.length });
    assert.deepEqual(await verifyAuditChain(auditPage.data, options), { valid: true, checked: auditPage.data.length });
  });

  test('exports are generated after their events, which fall in their date range', () => {
    for (const exported of [rawExport, enterpriseExport]) {
      for (const event of exported.events) {
        assert.ok(time(event.occurred_at) <= time(exported.generated_at), `${event.event_id} before generated_at`);
        const day = event.occurred_at.slice(0, 10);
        assert.ok(exported.date_from <= day && day <= exported.date_to, `${event.event_id} in range`);
      }
    }
  });

  test('one pseudonym per actor, different actors different pseudonyms; notes reduced to their length', () => {
    const refs = new Map<string, string>();
    for (const [i, event] of enterpriseExport.events.entries()) {
      const raw = rawExport.events[i]!;
      assert.equal(event.event_id, raw.event_id);
      const known = refs.get(event.actor_ref);
      assert.ok(known === undefined || known === raw.actor.id, `${event.actor_ref} names one actor`);
      refs.set(event.actor_ref, raw.actor.id);
      if ('note' in raw.data) assert.equal(event.payload_summary.note_chars, raw.data.note?.length);
    }
    assert.equal(refs.size, new Set(rawExport.events.map((e) => e.actor.id)).size);
  });

  test('the approval event is the review entry of the reviewed record', () => {
    const approval = rawExport.events.find((e) => e.kind === 'approved');
    assert.ok(approval?.kind === 'approved');
    const entry = reviewed.review.history.find((h) => h.action === 'approve')!;
    assert.equal(approval.occurred_at, entry.at);
    assert.equal(approval.data.note, entry.note);
    assert.deepEqual(approval.actor, entry.actor);
    assert.equal(approval.validation_id, reviewed.validation_id);
  });
});

test('CSV examples end every line with CRLF (RFC 4180)', () => {
  for (const path of ['/api/v1/audit/export', '/api/v1/analytics/csv']) {
    const csv = media(path, '200', 'text/csv').example as string;
    assert.match(csv, /\r\n$/, path);
    assert.doesNotMatch(csv, /[^\r]\n/, path);
  }
});

test('the login token is a local token of the signed-in user that expires at expires_at', async () => {
  const login = media('/auth/login', '200').example;
  const me = media('/auth/me', '200').example;
  const claims = await new LocalTokens(exampleKeys.localTokenSecret).verify(login.token, new Date(time(login.expires_at) - 1000));
  assert.deepEqual(claims, {
    userId: me.principal.id,
    customerId: me.customer.customer_id,
    expiresAt: new Date(login.expires_at),
    sessionEpoch: 0,
  });
  const payload = JSON.parse(Buffer.from(login.token.split('.')[1], 'base64url').toString());
  assert.deepEqual(Object.keys(payload).sort(), ['aud', 'cid', 'exp', 'iat', 'iss', 'sep', 'sub']);
  assert.equal(payload.exp - payload.iat, login.expires_in);
});

test('an id names one thing: no id body is shared by two kinds of object, no user id by two people', () => {
  const text = JSON.stringify(spec);
  const kinds = new Map<string, string>();
  for (const [, prefix, body] of text.matchAll(/\b(val|tpl|grp|fil|usr|aud|evt)_([0-9A-Z]{26})\b/g)) {
    assert.ok((kinds.get(body!) ?? prefix) === prefix, `${body} is used as ${kinds.get(body!)}_ and ${prefix}_`);
    kinds.set(body!, prefix!);
  }
  const names = new Map<string, string>();
  for (const [, id, name] of text.matchAll(/"(?:id|user_id)":"(usr_[0-9A-Z]{26})"(?:,"[a-z_]+":"[^"]*")*?,"name":"([^"]+)"/g)) {
    assert.ok((names.get(id!) ?? name) === name, `${id} is ${names.get(id!)} and ${name}`);
    names.set(id!, name!);
  }
  assert.ok(names.size >= 2, 'users found');
});

describe('validation results', () => {
  for (const [mode, result] of Object.entries(results)) {
    const answer = 'answer' in result ? result.answer : result.chatbot_response;
    test(`${mode}: claims, evidence and corrections point at their text`, () => {
      const sourceIds = new Set(result.sources.map((s) => s.source_id));
      for (const claim of result.claims) {
        assert.equal(answer.slice(claim.start, claim.end), claim.text);
        for (const evidence of claim.evidence) {
          assert.ok(sourceIds.has(evidence.source_id), evidence.source_id);
          assert.equal(evidence.end - evidence.start, evidence.text.length);
        }
      }
      if ('corrections' in result) {
        let corrected = result.chatbot_response;
        for (const c of [...result.corrections].sort((a, b) => b.start - a.start)) {
          assert.equal(result.chatbot_response.slice(c.start, c.end), c.original_text);
          corrected = corrected.slice(0, c.start) + c.corrected_text + corrected.slice(c.end);
        }
        assert.equal(result.corrected_response, corrected);
      }
    });

    test(`${mode}: issues, their count and the severity follow from the findings`, () => {
      const issues = result.findings.filter((f) => f.status === 'failed' || f.status === 'warning');
      assert.equal(result.issue_count, result.issues.length);
      assert.equal(result.issues.length, issues.length);
      const highest = result.findings.reduce((top, f) => Math.max(top, severities.indexOf(f.severity)), 0);
      assert.equal(result.severity, severities[highest]);
      assert.equal(result.review.required, result.review.state !== 'not_required');
    });

    test(`${mode}: the request example is the request of this result`, () => {
      const request = validateRequests[mode].value;
      assert.equal(request.question, result.question);
      if ('chatbot_response' in request) assert.equal(request.chatbot_response, answer);
    });
  }

  test('history, the webhook and the audit trail record the validate example as it was answered', () => {
    const result = results.validate;
    const [record] = historyPage.data;
    for (const copy of [record!, reviewed, webhook]) {
      assert.equal(copy.validation_id, result.validation_id);
      assert.equal(copy.question, result.question);
      assert.equal(copy.severity, result.severity);
      assert.equal(copy.confidence_level, result.confidence_level);
      assert.deepEqual(copy.issues, result.issues);
      assert.equal(copy.issue_count, result.issue_count);
      assert.equal(copy.output_excerpt, result.chatbot_response.slice(0, 500));
    }
    assert.equal(record!.created_at, result.created_at);
    assert.ok(time(record!.expires_at) > time(record!.created_at));
    assert.deepEqual(
      webhook.findings,
      result.findings.map(({ claim_index: _claimIndex, ...finding }) => finding),
    );
    assert.deepEqual(webhook.user, { user_id: record!.user.id, name: record!.user.name, role: record!.user.role });
    const completed = webhook.timestamp * 1000;
    assert.ok(completed >= time(result.created_at) - 1000 && completed < time(result.created_at) + 60_000, 'webhook timestamp');
    const created = rawExport.events.find((e) => e.kind === 'validation_created')!;
    assert.equal(created.occurred_at, result.created_at);
    assert.deepEqual(created.actor, record!.user);
  });
});

test('each review action has a request example and a response example of the record it leaves', () => {
  const transitions: Record<string, [string, string]> = {
    approve: ['pending_review', 'approved'],
    reject: ['pending_review', 'rejected'],
    edit: ['pending_review', 'edited'],
    handoff: ['pending_review', 'handed_off'],
    external_approve: ['handed_off', 'external_approved'],
    external_reject: ['handed_off', 'external_rejected'],
  };
  const operation = spec.paths['/api/v1/history/{id}/review'].post;
  const requests = operation.requestBody.content['application/json'].examples;
  const responses = operation.responses['200'].content['application/json'].examples;
  assert.deepEqual(Object.keys(responses).sort(), Object.keys(transitions).sort());
  assert.deepEqual(Object.keys(requests).sort(), Object.keys(transitions).sort());
  for (const [action, [from, to]] of Object.entries(transitions)) {
    const ref = responses[action].$ref.replace('#/components/examples/', '');
    const record = example<ValidationRecord>(ref);
    const request = requests[action].value;
    const history = record.review.history;
    const last = history.at(-1)!;
    assert.deepEqual([request.action, last.action, last.from_state, last.to_state, record.review.state], [action, action, from, to, to]);
    assert.equal(history[0]!.from_state, 'pending_review');
    for (const [i, entry] of history.entries()) {
      if (i > 0) assert.equal(entry.from_state, history[i - 1]!.to_state);
      assert.ok(time(entry.at) > time(record.created_at));
    }
    assert.equal(last.note ?? undefined, request.note);
    assert.equal(last.external_reference ?? undefined, request.external_reference);
    assert.deepEqual(last.corrections ?? [], request.corrections ?? []);
    assert.deepEqual(record.user_corrections, action === 'edit' ? request.corrections : []);
  }
});
