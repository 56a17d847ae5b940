// Shared by the review, history and analytics tests: validations made cheaply (inline text that
// contradicts the answer, or a store-level record with fixed figures), and reads of the audit trail.
import assert from 'node:assert/strict';
import type { AuditEvent, Mode, ValidationResult } from '@groundcheck/contract';
import { HistoryStore } from '../../src/cosmos/history-store.js';
import { newId } from '../../src/lib/ids.js';
import { createLogger } from '../../src/logger.js';
import { type CompletedValidation, ValidationRecorder } from '../../src/services/validation/validation-recorder.js';
import type { Tenant } from '../../src/tenants/tenant.js';
import { historyTtlDays } from './audit.js';
import type { TestServer } from './harness.js';

export const policy =
  'Leave policy. Full-time employees are entitled to 25 days of paid leave per calendar year. Part-time employees accrue leave pro rata.';
export const question = 'How many days of paid leave do full-time employees get?';

/** A bearer token or an API key body: how a test calls as someone. */
export type Credentials = { token: string } | { customer_id: string; api_key: string };

export function callAs(server: TestServer, path: string, credentials: Credentials, body: object = {}) {
  return 'token' in credentials ? server.call(path, body, { token: credentials.token }) : server.call(path, { ...body, ...credentials });
}

/** POST /api/v1/validate with inline text that contradicts the answer (an issue) or supports it (none). */
export async function validateInline(
  server: TestServer,
  credentials: Credentials,
  { issues = true, mode = 'validate' }: { issues?: boolean; mode?: Mode } = {},
): Promise<ValidationResult> {
  // The supported answer in the source's own verb, so that the default verifier's model is confident in it too (high).
  const answer = issues
    ? 'Full-time employees get 30 days of paid leave per year.'
    : 'Full-time employees are entitled to 25 days of paid leave per year.';
  const body =
    mode === 'generate' ? { mode, question, inline_text: policy } : { mode, question, chatbot_response: answer, inline_text: policy };
  const reply = await callAs(server, '/api/v1/validate', credentials, body);
  assert.equal(reply.status, 200, reply.text);
  if (mode !== 'generate') assert.equal(reply.body.issue_count > 0, issues, JSON.stringify(reply.body.findings));
  return reply.body;
}

/** A validation written through the recorder (as POST /validate writes it) with figures the test fixes. */
export async function recordValidation(server: TestServer, tenant: Tenant, overrides: Partial<CompletedValidation> = {}) {
  const recorder = new ValidationRecorder(
    new HistoryStore(server.cosmos.container('history')),
    server.services.audit.trail,
    server.services.webhooks,
    historyTtlDays,
  );
  const createdAt = overrides.createdAt ?? new Date();
  const record = await recorder.record(
    tenant,
    {
      validationId: newId('val', createdAt.getTime()),
      mode: 'validate',
      createdAt,
      question,
      user: { type: 'user', id: 'usr_01JD3XD5E6F7G8H9J0K1M2N3P4', name: 'Uma User', role: 'user' },
      output: 'Full-time employees get 30 days of paid leave per year.',
      claims: [
        {
          text: 'Full-time employees get 30 days of paid leave per year.',
          start: 0,
          end: 55,
          status: 'supported',
          score: 0.9,
          evidence: [],
        },
      ],
      severity: 'none',
      confidenceLevel: 'high',
      issues: [],
      findings: [],
      risk: 0.1,
      sourceConflictCount: 0,
      sourceGroups: [],
      sources: [{ source_id: 'src_1', kind: 'inline_text', reference: 'inline_text', sha256: 'a'.repeat(64) }],
      requestSummary: { question_chars: question.length, response_chars: 55, source_group_count: 0, url_count: 0, inline_text_chars: 120 },
      keyId: null,
      ...overrides,
    },
    createLogger('silent'),
  );
  assert.ok(record, 'a new id is never recorded already');
  return record;
}

/** Every audit event of the tenant, oldest first, through POST /api/v1/audit (an admin API key). */
export async function auditTrail(server: TestServer, customerId: string, filter: object = {}): Promise<AuditEvent[]> {
  const events: AuditEvent[] = [];
  let cursor: string | null = null;
  do {
    const reply = await server.call('/api/v1/audit', {
      ...server.apiKeyBody(customerId, 'admin'),
      ...filter,
      limit: 100,
      ...(cursor ? { cursor } : {}),
    });
    assert.equal(reply.status, 200, reply.text);
    events.push(...reply.body.data);
    cursor = reply.body.next_cursor;
  } while (cursor);
  return events;
}

export const review = (server: TestServer, credentials: Credentials, validationId: string, body: object) =>
  callAs(server, `/api/v1/history/${validationId}/review`, credentials, body);

/** What a validation the engine flagged (one unsupported claim) records, for the calibration tests. */
export const flaggedValidation: Partial<CompletedValidation> = {
  severity: 'medium',
  confidenceLevel: 'low',
  issues: ['unsupported'],
  findings: [
    {
      category: 'unsupported_claim',
      status: 'warning',
      title: 'Unsupported',
      description: 'Not stated.',
      severity: 'medium',
      claim_index: 0,
    },
  ],
};

/**
 * A flagged validation of `tenant` made at `createdAt` with the answer's `risk`, decided by the tenant's user: rejected
 * when the reviewers found it `wrong`, approved otherwise. The tenant's workflow must send it to review.
 */
export async function decideFlagged(
  server: TestServer,
  tenant: Tenant,
  { createdAt, risk, wrong }: { createdAt: Date; risk?: number; wrong: boolean },
): Promise<void> {
  const { validation_id } = await recordValidation(server, tenant, {
    ...flaggedValidation,
    createdAt,
    ...(risk === undefined ? {} : { risk }),
  });
  const decision = wrong ? { action: 'reject', note: 'Not in the handbook.' } : { action: 'approve', note: 'Correct.' };
  const reply = await review(server, server.apiKeyBody(tenant.customerId, 'user'), validation_id, decision);
  assert.equal(reply.status, 200, reply.text);
}
