// The trail's filters live in the address, so a filtered view survives a reload, can be shared, and
// Back returns to the filters before. Only what the contract's AuditQuery offers is read from it.
import type { AuditEventKind, RequestBody } from '@groundcheck/sdk';
import { isKind } from './kind-labels';

export interface TrailFilters {
  kinds: AuditEventKind[];
  actorId: string;
  validationId: string;
  /** `yyyy-MM-dd`, a whole UTC day, or empty. */
  dateFrom: string;
  dateTo: string;
  perPage: number;
}

export type TrailQuery = Omit<RequestBody<'AuditQuery'>, 'cursor'>;
export type DateRange = Pick<TrailQuery, 'date_from' | 'date_to'>;

export const pageSizes = [10, 25, 50, 100];
const defaultPageSize = 25;

export function filtersFrom(params: URLSearchParams): TrailFilters {
  const perPage = Number(params.get('per_page'));
  return {
    kinds: params.getAll('kind').filter(isKind),
    actorId: params.get('actor') ?? '',
    validationId: params.get('validation') ?? '',
    dateFrom: params.get('from') ?? '',
    dateTo: params.get('to') ?? '',
    perPage: pageSizes.includes(perPage) ? perPage : defaultPageSize,
  };
}

export function paramsFrom(filters: TrailFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const kind of filters.kinds) params.append('kind', kind);
  const single: [string, string][] = [
    ['actor', filters.actorId.trim()],
    ['validation', filters.validationId.trim()],
    ['from', filters.dateFrom],
    ['to', filters.dateTo],
    ['per_page', filters.perPage === defaultPageSize ? '' : String(filters.perPage)],
  ];
  for (const [name, value] of single) if (value) params.set(name, value);
  return params;
}

/** The dates alone: what the exports and the chain check cover, whatever the other filters. */
export function rangeFrom(filters: TrailFilters): DateRange {
  return { ...(filters.dateFrom && { date_from: filters.dateFrom }), ...(filters.dateTo && { date_to: filters.dateTo }) };
}

export function queryFrom(filters: TrailFilters): TrailQuery {
  return {
    ...(filters.kinds.length > 0 && { kinds: filters.kinds }),
    ...(filters.actorId.trim() && { actor_id: filters.actorId.trim() }),
    ...(filters.validationId.trim() && { validation_id: filters.validationId.trim() }),
    ...rangeFrom(filters),
    limit: filters.perPage,
  };
}

/** The dates in words, for the sentences that say what an export or a check covers. */
export function rangeInWords(range: DateRange): string {
  if (range.date_from && range.date_to) return `from ${range.date_from} to ${range.date_to} (UTC)`;
  if (range.date_from) return `from ${range.date_from} (UTC) on`;
  if (range.date_to) return `up to ${range.date_to} (UTC)`;
  return 'of the whole trail';
}
