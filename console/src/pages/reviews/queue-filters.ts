// The queue's filters as the URL keeps them (so a link or a reload shows the same cases), and the
// history query they make. Values a person edited into the URL that the API would refuse fall back
// to the defaults rather than failing the screen.
import type { ConfidenceLevel, RequestBody, ReviewState } from '@groundcheck/sdk';
import { isValid, parseISO } from 'date-fns';
import { confidenceWords, stateWords } from './review-words';

export const reviewStates = Object.keys(stateWords) as ReviewState[];
export const confidenceLevels = Object.keys(confidenceWords) as ConfidenceLevel[];
export const pageSizes = [10, 25, 50, 100] as const;

export interface QueueFilters {
  /** `any` lists every state; with no state in the URL the screen opens on the queue itself. */
  state: ReviewState | 'any';
  confidence: ConfidenceLevel | 'any';
  /** `YYYY-MM-DD` (UTC days, as the API reads them) or empty. */
  from: string;
  to: string;
  limit: number;
}

export const defaultFilters: QueueFilters = { state: 'pending_review', confidence: 'any', from: '', to: '', limit: 25 };

const isDay = (value: string | null): value is string => value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value) && isValid(parseISO(value));

function oneOf<T extends string>(value: string | null, allowed: readonly T[], fallback: T): T {
  return allowed.includes(value as T) ? (value as T) : fallback;
}

export function filtersFrom(params: URLSearchParams): QueueFilters {
  const limit = Number(params.get('limit'));
  return {
    state: oneOf(params.get('review_state'), [...reviewStates, 'any'], defaultFilters.state),
    confidence: oneOf(params.get('confidence_level'), [...confidenceLevels, 'any'], defaultFilters.confidence),
    from: isDay(params.get('date_from')) ? params.get('date_from')! : '',
    to: isDay(params.get('date_to')) ? params.get('date_to')! : '',
    limit: (pageSizes as readonly number[]).includes(limit) ? limit : defaultFilters.limit,
  };
}

/** The URL's search params for `filters`: only what differs from the defaults. */
export function paramsOf(filters: QueueFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.state !== defaultFilters.state) params.set('review_state', filters.state);
  if (filters.confidence !== defaultFilters.confidence) params.set('confidence_level', filters.confidence);
  if (filters.from) params.set('date_from', filters.from);
  if (filters.to) params.set('date_to', filters.to);
  if (filters.limit !== defaultFilters.limit) params.set('limit', String(filters.limit));
  return params;
}

export function historyQuery(filters: QueueFilters, cursor: string | undefined): RequestBody<'HistoryQuery'> {
  return {
    ...(filters.state === 'any' ? {} : { review_state: filters.state }),
    ...(filters.confidence === 'any' ? {} : { confidence_level: filters.confidence }),
    ...(filters.from ? { date_from: filters.from } : {}),
    ...(filters.to ? { date_to: filters.to } : {}),
    limit: filters.limit,
    ...(cursor ? { cursor } : {}),
  };
}
