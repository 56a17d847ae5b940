// A handler that drifts from the contract does not compile. Each `@ts-expect-error` below marks a
// deliberately wrong handler: `npm test` type-checks this file, and if one of them compiled, the
// directive itself would be the error ("Unused '@ts-expect-error' directive").
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { OperationTable } from '../../src/routes/operation.js';
import { StatusReply, Streamed } from '../../src/routes/operation.js';

const right = {
  getHealth: async () => ({ status: 'ok' as const }),
  listAuditEvents: async (body) => ({ data: [], has_more: false, next_cursor: body.cursor ?? null }),
  exportAuditEvents: async () => new Streamed('text/csv', (async function* () {})(), 'audit.csv'),
  getReadiness: async () =>
    new StatusReply<'getReadiness', 503>(503, { status: 'unavailable', checks: { cosmos: 'unavailable', storage: 'ok' } }),
} satisfies OperationTable;

export const wrongResponse = {
  // @ts-expect-error the 200 body of getHealth has no `healthy` field
  getHealth: async () => ({ healthy: true }),
} satisfies OperationTable;

export const wrongField = {
  // @ts-expect-error `has_more` must be a boolean
  listAuditEvents: async () => ({ data: [], has_more: 'no', next_cursor: null }),
} satisfies OperationTable;

export const wrongBody = {
  // @ts-expect-error AuditQuery has no `since` field
  listAuditEvents: async (body) => ({ data: [], has_more: false, next_cursor: body.since }),
} satisfies OperationTable;

export const wrongStatus = {
  // @ts-expect-error getReadiness declares no 418
  getReadiness: async () => new StatusReply<'getReadiness', 418>(418, { status: 'ok', checks: { cosmos: 'ok', storage: 'ok' } }),
} satisfies OperationTable;

export const unknownOperation = {
  // @ts-expect-error no operation of the contract is called getWeather
  getWeather: async () => ({}),
} satisfies OperationTable;

test('a handler that keeps the contract compiles and runs', async () => {
  assert.deepEqual(await right.getHealth(), { status: 'ok' });
  assert.deepEqual(await right.listAuditEvents({ cursor: 'abc' }), { data: [], has_more: false, next_cursor: 'abc' });
});
