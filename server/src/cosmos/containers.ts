import type { ContainerRequest } from '@azure/cosmos';

export type ContainerName = 'users' | 'history' | 'audit' | 'idempotency' | 'sources' | 'templates' | 'tenant_state' | 'limits';

// Every container is partitioned by tenant, so every request-path query stays in one partition.
// `defaultTtl: -1` turns expiry on without a default: items carrying `ttl` expire, others stay.
const partitionKey = { paths: ['/customer_id'] };

// History pages newest first (created_at, then id) under one equality filter at most; Cosmos DB
// serves an ORDER BY on several paths only from a composite index matching it exactly.
const newestFirst = [
  { path: '/created_at', order: 'descending' },
  { path: '/id', order: 'descending' },
] as const;
export const historyFilterPaths = ['/user/id', '/review/state', '/confidence_level', '/mode'] as const;
const historyIndexes = {
  compositeIndexes: [[...newestFirst], ...historyFilterPaths.map((path) => [{ path, order: 'ascending' as const }, ...newestFirst])],
};

export const containerDefinitions: (ContainerRequest & { id: ContainerName })[] = [
  { id: 'users', partitionKey },
  { id: 'history', partitionKey, defaultTtl: -1, indexingPolicy: historyIndexes },
  { id: 'audit', partitionKey, defaultTtl: -1 },
  { id: 'idempotency', partitionKey, defaultTtl: -1 },
  { id: 'sources', partitionKey },
  { id: 'templates', partitionKey },
  // The account's own state (the deletion marker), kept after the account's data is deleted.
  { id: 'tenant_state', partitionKey },
  // Request and login counts per window, shared by every process; each window's document expires after it.
  { id: 'limits', partitionKey, defaultTtl: -1 },
];

export const daysToSeconds = (days: number) => days * 24 * 60 * 60;
