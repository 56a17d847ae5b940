// POST /api/v1/audit/export (sections 2.3 and 4.6): every event of a day range as one streamed
// JSON or CSV document. Events are read page by page and written as they come, so memory does
// not grow with the size of the export.

import type {
  AuditEvent,
  AuditExportRequest,
  EnterpriseAuditEvent,
  EnterpriseAuditExport,
  PayloadSummary,
  RawAuditExport,
} from '@groundcheck/contract';
import type { AuditStore } from '../../cosmos/audit-store.js';
import { BadRequestError } from '../../errors.js';
import { type CsvCell, csvRow } from '../../lib/csv.js';
import { addDays, dayRange } from '../../lib/day-range.js';
import { mapPages, readAhead } from '../../lib/pages.js';
import type { Caller } from '../call-context.js';
import { type AnyAuditFacts, kindRecords } from './audit-trail.js';

/** An event's facts, read as any kind's: a column or summary field is empty for kinds without it. */
const factsOf = (event: AuditEvent): AnyAuditFacts => event.data;

import type { Pseudonymize, Pseudonyms } from './pseudonyms.js';

/** The `schema_version` of the enterprise_v1 profile (decision 80: additive changes bump the minor). */
export const enterpriseSchemaVersion = '1.0';
/** Events per Cosmos page: large enough for few round trips, small enough to keep memory flat. */
const pageSize = 500;

export interface AuditExportFile {
  filename: string;
  contentType: string;
  body: AsyncIterable<string>;
}

export class AuditExporter {
  constructor(
    private readonly store: AuditStore,
    private readonly pseudonyms: Pseudonyms,
  ) {}

  /**
   * Checks the request, loads the pseudonym secret and reads the first page, so that a bad request
   * or an unreachable store is answered with a problem before any byte of the document is sent.
   */
  async open(ctx: Caller, request: Partial<AuditExportRequest>): Promise<AuditExportFile> {
    const { customerId } = ctx.tenant;
    const format = request.format ?? 'json';
    const profile = request.profile ?? 'enterprise_v1';
    const generatedAt = ctx.clock.now();
    const days = exportDays(request, generatedAt);
    const pseudonymize = profile === 'enterprise_v1' ? await this.pseudonyms.forTenant(customerId) : null;
    const events = await readAhead(this.store.events(customerId, dayRange(days.date_from, days.date_to), pageSize));
    const envelope = { customer_id: customerId, generated_at: generatedAt.toISOString(), ...days };
    let body: AsyncIterable<string>;
    if (!pseudonymize) {
      body =
        format === 'csv'
          ? csvDocument(rawColumns, events)
          : jsonDocument({ profile: 'raw', ...envelope } satisfies Omit<RawAuditExport, 'events'>, events);
    } else {
      const enterpriseEvents = mapPages(events, (event) => enterpriseEvent(event, pseudonymize));
      body =
        format === 'csv'
          ? csvDocument(enterpriseColumns, enterpriseEvents)
          : jsonDocument(
              { schema_version: enterpriseSchemaVersion, profile: 'enterprise_v1', ...envelope } satisfies Omit<
                EnterpriseAuditExport,
                'events'
              >,
              enterpriseEvents,
            );
    }
    return {
      filename: `audit-${customerId}-${days.date_from}-${days.date_to}.${format}`,
      contentType: format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
      body,
    };
  }
}

/**
 * The days the export covers (decision 43, in UTC): both dates as given; `date_from` alone runs to
 * today; `date_to` alone is the `days` days ending on it; neither is the `days` days ending today.
 */
function exportDays(request: Partial<AuditExportRequest>, now: Date): { date_from: string; date_to: string } {
  dayRange(request.date_from, request.date_to);
  const days = request.days ?? 30;
  const today = now.toISOString().slice(0, 10);
  const { date_from: dateFrom, date_to: dateTo } = request;
  if (dateFrom !== undefined && dateTo === undefined && dateFrom > today) {
    throw new BadRequestError('invalid_request', 'date_from is after today.', [
      { pointer: '/date_from', detail: `${dateFrom} is after today (${today}), where an export without date_to ends.` },
    ]);
  }
  if (dateFrom !== undefined) return { date_from: dateFrom, date_to: dateTo ?? today };
  if (dateTo !== undefined) return { date_from: addDays(dateTo, -(days - 1)), date_to: dateTo };
  return { date_from: addDays(today, -(days - 1)), date_to: today };
}

function enterpriseEvent(event: AuditEvent, pseudonymize: Pseudonymize): EnterpriseAuditEvent {
  return {
    event_id: event.event_id,
    sequence: event.sequence,
    kind: event.kind,
    occurred_at: event.occurred_at,
    actor_ref: pseudonymize(event.actor.id),
    actor_role: event.actor.role,
    actor_type: event.actor.type,
    validation_id: event.validation_id,
    payload_summary: payloadSummary(event),
    prev_hash: event.prev_hash,
    hash: event.hash,
  };
}

/** The event's facts without free text: a note becomes whether there is one and its length. */
function payloadSummary(event: AuditEvent): PayloadSummary {
  const { kind } = event;
  const data = factsOf(event);
  const summary: PayloadSummary = {
    mode: data.mode,
    request_summary: data.request_summary,
    source_group_count: data.source_groups?.length,
    source_refs: data.sources?.map(({ reference, sha256 }) => ({ reference, sha256 })),
    confidence_level: data.confidence_level,
    issue_count: data.issue_count,
    review_state: data.review_state,
    correction_count: data.corrections?.length,
    external_reference: data.external_reference,
    previous_supported_score: data.previous_supported_score,
    supported_score: data.supported_score,
  };
  if (kindRecords(kind, 'note')) {
    summary.note_present = data.note !== undefined;
    summary.note_chars = data.note?.length ?? 0;
  }
  return summary;
}

// CSV columns: the contract's example header for enterprise_v1. Profile raw has no schema_version
// and shows the actor id where enterprise_v1 shows its pseudonym.
type Columns<T> = [header: string, cell: (event: T) => CsvCell][];

const enterpriseColumns: Columns<EnterpriseAuditEvent> = [
  ['schema_version', () => enterpriseSchemaVersion],
  ['event_id', (e) => e.event_id],
  ['sequence', (e) => e.sequence],
  ['kind', (e) => e.kind],
  ['occurred_at', (e) => e.occurred_at],
  ['actor_ref', (e) => e.actor_ref],
  ['actor_role', (e) => e.actor_role],
  ['actor_type', (e) => e.actor_type],
  ['validation_id', (e) => e.validation_id],
  ['mode', (e) => e.payload_summary.mode],
  ['confidence_level', (e) => e.payload_summary.confidence_level],
  ['issue_count', (e) => e.payload_summary.issue_count],
  ['external_reference', (e) => e.payload_summary.external_reference],
  ['hash', (e) => e.hash],
];

const rawColumns: Columns<AuditEvent> = [
  ['event_id', (e) => e.event_id],
  ['sequence', (e) => e.sequence],
  ['kind', (e) => e.kind],
  ['occurred_at', (e) => e.occurred_at],
  ['actor_id', (e) => e.actor.id],
  ['actor_role', (e) => e.actor.role],
  ['actor_type', (e) => e.actor.type],
  ['validation_id', (e) => e.validation_id],
  ['mode', (e) => factsOf(e).mode],
  ['confidence_level', (e) => factsOf(e).confidence_level],
  ['issue_count', (e) => factsOf(e).issue_count],
  ['external_reference', (e) => factsOf(e).external_reference],
  ['hash', (e) => e.hash],
];

/** `{…envelope, "events": [ … ]}`, one chunk per page. */
async function* jsonDocument(envelope: object, pages: AsyncIterable<object[]>): AsyncGenerator<string> {
  yield `${JSON.stringify(envelope).slice(0, -1)},"events":[`;
  let separator = '';
  for await (const page of pages) {
    yield separator + page.map((record) => JSON.stringify(record)).join(',');
    separator = ',';
  }
  yield ']}';
}

async function* csvDocument<T>(columns: Columns<T>, pages: AsyncIterable<T[]>): AsyncGenerator<string> {
  yield csvRow(columns.map(([header]) => header));
  for await (const page of pages) {
    yield page.map((record) => csvRow(columns.map(([, cell]) => cell(record)))).join('');
  }
}
