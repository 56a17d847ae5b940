// Shared by the audit trail tests: tenants with the feature, one entry of every kind, a fast
// store-level seeder for long chains, an RFC 4180 reader and the contract's export schema.

import type { Actor, AuditEvent } from '@groundcheck/contract';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'csv-parse/sync';
import { dereferencedSpec } from '../../../test/support/spec.js';
import { type AuditStore, maxEventsPerAppend } from '../../src/cosmos/audit-store.js';
import { daysToSeconds } from '../../src/cosmos/containers.js';
import { newId } from '../../src/lib/ids.js';
import { type AnyAuditFacts, type AuditEntry, type AuditTenant, chainEvent, systemActor } from '../../src/services/audit/audit-trail.js';
import { generateApiKey } from '../../src/services/auth/api-keys.js';
import type { Tenant } from '../../src/tenants/tenant.js';
import { loadTenantFile } from '../../src/tenants/tenant-file.js';
import { type Fixture, writeFixture } from './fixtures.js';

export const historyTtlDays = 90;

/** An event's facts read as any kind's, for assertions that do not narrow on `kind` first. */
export const factsOf = (event: AuditEvent): AnyAuditFacts => event.data;

/**
 * The standard fixture, with the audit trail on for acme (retention 400 days, region westeurope),
 * tiny (no tight rate limit) and initech (default retention, plus an admin API key, as its users
 * sign in only through OIDC); globex keeps it off.
 */
export async function auditFixture(): Promise<Fixture> {
  const initechKey = generateApiKey();
  const fixture = await writeFixture({
    overrides: {
      acme: { audit_retention_days: 400, region: 'westeurope' },
      tiny: { features: { document_templates: false, audit_trail: true }, rate_limit: { requests: 100000, window_seconds: 60 } },
      initech: { api_keys: [{ id: initechKey.id, role: 'admin', sha256: initechKey.sha256 }] },
    },
  });
  fixture.apiKeys.initech = { admin: initechKey.key, user: '', viewer: '' };
  return fixture;
}

/** The tenants exactly as the server under test loaded them. */
export function tenantsOf(fixture: Fixture): Record<string, Tenant> {
  const tenants = loadTenantFile(fixture.file, { historyTtlDays, region: 'local' });
  return Object.fromEntries(tenants.map((tenant) => [tenant.customerId, tenant]));
}

export const actors = {
  reviewer: { type: 'user', id: 'usr_01JD3XD5E6F7G8H9J0K1M2N3P4', name: 'Uma User', role: 'user' },
  admin: { type: 'user', id: 'usr_01JD3X8Q5Z7M2N4P6R8T0V2W4Y', name: 'Avery Admin', role: 'admin' },
  integration: { type: 'api_key', id: 'key_Ab12Cd34', name: 'Review bridge', role: 'user' },
  system: systemActor,
} satisfies Record<string, Actor>;

const sha256Of = (seed: string) => seed.repeat(64).slice(0, 64);

/** One entry of each of the eight kinds, in the order a review workflow writes them. */
export function entriesOfEveryKind(validationId = newId('val', Date.now())): AuditEntry[] {
  const group = newId('grp', Date.now());
  return [
    {
      kind: 'validation_created',
      actor: actors.reviewer,
      validationId,
      data: {
        mode: 'validate',
        request_summary: { question_chars: 56, response_chars: 55, source_group_count: 1, url_count: 0, inline_text_chars: 76 },
        source_groups: [group],
        sources: [
          { reference: `${group}/${newId('fil', Date.now())}/employee-handbook-2026.pdf`, sha256: sha256Of('5a') },
          { reference: 'inline_text', sha256: sha256Of('39') },
        ],
        confidence_level: 'low',
        issue_count: 1,
      },
    },
    { kind: 'review_required', actor: actors.system, validationId, data: { review_state: 'pending_review' } },
    { kind: 'approved', actor: actors.admin, validationId, data: { note: 'Checked against the 2026 handbook.' } },
    { kind: 'rejected', actor: actors.admin, validationId, data: { note: 'The notice period is wrong.' } },
    {
      kind: 'edited',
      actor: actors.reviewer,
      validationId,
      data: { note: 'Fixed the notice period.', corrections: [{ element: 'claim:0', action: 'replace', note: '30 days, not 14.' }] },
    },
    { kind: 'review_handed_off', actor: actors.reviewer, validationId, data: { external_reference: 'LEGAL-4711', note: 'Needs legal.' } },
    { kind: 'external_review_approved', actor: actors.integration, validationId, data: { external_reference: 'LEGAL-4711' } },
    {
      kind: 'external_review_rejected',
      actor: actors.integration,
      validationId,
      data: { external_reference: 'LEGAL-4712', note: 'Outdated policy.' },
    },
  ];
}

/**
 * Appends `count` events after the tenant's head through the store, as many per transactional
 * batch as one takes, each chained onto the one before: long chains in seconds rather than one append at a time.
 */
export async function seedChain(
  store: AuditStore,
  tenant: AuditTenant,
  count: number,
  eventAt: (index: number) => { entry: AuditEntry; at: Date },
): Promise<AuditEvent[]> {
  const seeded: AuditEvent[] = [];
  let head = await store.readHead(tenant.customerId);
  for (let start = 0; start < count; start += maxEventsPerAppend) {
    const batch: AuditEvent[] = [];
    let previous: { sequence: number; hash: string } | null = head;
    for (let index = start; index < Math.min(count, start + maxEventsPerAppend); index += 1) {
      const { entry, at } = eventAt(index);
      // The trail holds one event of a kind per validation: repeated entries get validations of their own.
      const unique = entry.validationId === null ? entry : { ...entry, validationId: newId('val', at.getTime()) };
      previous = chainEvent(previous, tenant, unique, at);
      batch.push(previous as AuditEvent);
    }
    if (!(await store.append(tenant.customerId, head, batch, daysToSeconds(tenant.auditRetentionDays))))
      throw new Error('another writer moved the head while seeding');
    head = await store.readHead(tenant.customerId);
    seeded.push(...batch);
  }
  return seeded;
}

/** RFC 4180 records (csv-parse), after checking that every record ends in CRLF as the export writes them. */
export function parseCsv(text: string): string[][] {
  if (text !== '' && !text.endsWith('\r\n')) throw new Error('the CSV does not end with CRLF');
  return parse(text, { record_delimiter: '\r\n' }) as string[][];
}

/** A validator for the contract's `AuditExport` schema: streamed bodies bypass the server's own response validation. */
export async function auditExportValidator(): Promise<ValidateFunction> {
  const spec = await dereferencedSpec();
  // OpenAPI 3.1 schemas are JSON Schema 2020-12 plus a few annotation keywords.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats.default(ajv);
  ajv.addKeyword({ keyword: 'discriminator' });
  return ajv.compile(spec.components!.schemas!.AuditExport as object);
}

/** Today and other days, as `YYYY-MM-DD` in UTC, and instants within them. */
export function day(offset: number, from = new Date()): string {
  return new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate() + offset)).toISOString().slice(0, 10);
}

export function at(dayString: string, time: string): Date {
  return new Date(`${dayString}T${time}Z`);
}
