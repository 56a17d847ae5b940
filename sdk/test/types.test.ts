// Compile-time checks of the public types (the type-check of the test suite enforces them), plus a
// runtime look at what the exported names are.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type {
  AuditEvent,
  AuditExport,
  Finding,
  GroundcheckClient,
  RequestBody,
  ResponseInfo,
  Validation,
  ValidationFindingsEvent,
  ValidationRecord,
  WithResponse,
} from '../src/index.js';
import * as sdk from '../src/index.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const expectType = <T extends true>(_: T) => undefined;

// Results are the contract's types, with lastResponse.
expectType<Equal<Awaited<ReturnType<GroundcheckClient['validate']>>, WithResponse<Validation>>>(true);
expectType<Equal<Awaited<ReturnType<GroundcheckClient['analytics']['csv']>>, string>>(true);
expectType<Equal<WithResponse<Finding>['lastResponse'], ResponseInfo>>(true);
expectType<Equal<Awaited<ReturnType<GroundcheckClient['account']['export']>>['body'], ReadableStream<Uint8Array>>>(true);

// Narrowing on mode gives the mode's fields.
export function answerOf(result: Validation): string {
  if (result.mode === 'generate') return result.answer;
  if (result.mode === 'validate_and_fix') return result.corrected_response;
  return result.chatbot_response;
}

// Request bodies leave credentials to the client, and fields with a default are optional.
export const exportAll: RequestBody<'AuditExportRequest'> = {};
export const purge: RequestBody<'SourceGroupDeleteRequest'> = { group_id: 'grp_01JD3XA1B2C3D4E5F6G7H8J9K0' };
// @ts-expect-error customer_id is the client's business
export const withKey: RequestBody<'HistoryQuery'> = { customer_id: 'acme' };
// @ts-expect-error generate takes no chatbot_response
export const wrongMode: RequestBody<'ValidationRequest'> = { mode: 'generate', question: 'Q?', chatbot_response: 'A', inline_text: 'S' };

export async function typedCalls(client: GroundcheckClient): Promise<void> {
  const csv: string = await client.audit.export({ format: 'csv' });
  const json: AuditExport = await client.audit.export({ profile: 'raw' });
  for await (const record of client.history.iterate({ review_state: 'pending_review' })) {
    const typed: ValidationRecord = record;
    void typed;
  }
  for await (const event of client.audit.iterate()) {
    const typed: AuditEvent = event;
    void typed;
  }
  await client.sources.saveGroup({
    name: 'HR',
    endpoints: [{ name: 'hr', url: 'https://hr.example', authz_forwarding: { user_id: true } }],
  });
  await client.saas.users.save({ email: 'a@b.c', role: 'user' });
  // @ts-expect-error templates.get takes the id, not a body
  await client.templates.get({ template_id: 'tpl_x' });
  void csv;
  void json;
}

export function onEvent(event: ValidationFindingsEvent): number {
  return event.findings.filter((finding) => finding.status === 'failed').length;
}

test('the public surface', () => {
  const functions = ['createClient', 'errorFromResponse', 'verifyWebhook', 'parseWebhookEvent', 'verifyAuditChain'];
  const classes = [
    'GroundcheckClient',
    'GroundcheckError',
    'BadRequestError',
    'AuthenticationError',
    'PermissionError',
    'NotFoundError',
    'ConflictError',
    'IdempotencyError',
    'RateLimitError',
    'ServerError',
    'ConnectionError',
    'TimeoutError',
    'RequestAbortedError',
    'WebhookVerificationError',
  ];
  const tables = ['sourceContentTypes'];
  assert.deepEqual(Object.keys(sdk).sort(), [...functions, ...classes, ...tables].sort());
  assert.ok(sdk.sourceContentTypes instanceof Map);
  for (const name of classes.filter((n) => n.endsWith('Error'))) {
    const ErrorClass = (sdk as unknown as Record<string, new (message: string, init?: object) => Error>)[name]!;
    const error = name === 'WebhookVerificationError' ? new ErrorClass('invalid_token', {}) : new ErrorClass('m');
    assert.equal(error.name, name);
    assert.ok(error instanceof sdk.GroundcheckError);
  }
});
