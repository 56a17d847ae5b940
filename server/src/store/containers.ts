import type { ContainerRequest } from '@azure/cosmos';

export type ContainerName = 'users' | 'history' | 'audit' | 'idempotency' | 'sources' | 'templates';

// Every container is partitioned by tenant, so every request-path query stays in one partition.
// `defaultTtl: -1` turns expiry on without a default: items carrying `ttl` expire, others stay.
const partitionKey = { paths: ['/customer_id'] };

export const containerDefinitions: (ContainerRequest & { id: ContainerName })[] = [
  { id: 'users', partitionKey },
  { id: 'history', partitionKey, defaultTtl: -1 },
  { id: 'audit', partitionKey, defaultTtl: -1 },
  { id: 'idempotency', partitionKey, defaultTtl: -1 },
  { id: 'sources', partitionKey },
  { id: 'templates', partitionKey },
];

export const daysToSeconds = (days: number) => days * 24 * 60 * 60;
