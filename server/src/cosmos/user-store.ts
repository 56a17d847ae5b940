// Local users of a tenant. An email owns a lock item in the same partition, written in one
// transactional batch with the user, so two concurrent creations cannot share an email. Changes
// that can take away an active admin also rewrite the partition's admin guard in their batch, so
// of two such changes made at once only one is written and the other is decided again.
import type { Container, JSONObject, OperationInput, SqlParameter } from '@azure/cosmos';
import type { Role } from '@groundcheck/contract';
import { sha256Hex } from '../lib/hash.js';
import { cosmosOutcome } from './cosmos-status.js';

export interface UserRecord {
  id: string;
  customer_id: string;
  kind: 'user';
  email: string;
  name: string;
  role: Role;
  data_access_roles: string[];
  status: 'active' | 'disabled';
  password_hash: string | null;
  created_at: string;
  updated_at: string;
  last_login_at: string | null;
  /** Moves on a password, role or status change: tokens issued before carry the old value and are refused. Absent: 0. */
  session_epoch?: number;
}

/** A user as read, with the ETag a change must match. */
export interface StoredUser {
  record: UserRecord;
  etag: string;
}

/** The admin guard's version when it was read (null: not written yet), to be moved in a change's batch. */
export interface AdminGuard {
  etag: string | null;
}

/** `changed`: the user or the admin guard was written by another request since it was read. */
export type UserWriteOutcome = 'written' | 'email_taken' | 'changed';

export class EmailTakenError extends Error {}

const emailLockId = (email: string) => `email_${sha256Hex(email.toLowerCase())}`;
const adminGuardId = 'admin_guard';
const cosmosFields = ['_rid', '_self', '_etag', '_attachments', '_ts'] as const;

function stored(resource: UserRecord & { _etag?: string }): StoredUser {
  const record = { ...resource } as UserRecord & Record<string, unknown>;
  for (const field of cosmosFields) delete record[field];
  return { record, etag: resource._etag ?? '' };
}

export class UserStore {
  constructor(private readonly container: Container) {}

  async get(customerId: string, userId: string): Promise<UserRecord | null> {
    return (await this.read(customerId, userId))?.record ?? null;
  }

  async read(customerId: string, userId: string): Promise<StoredUser | null> {
    try {
      const { resource } = await this.container.item(userId, customerId).read<UserRecord>();
      return resource?.kind === 'user' && resource.customer_id === customerId ? stored(resource) : null;
    } catch (error) {
      if (cosmosOutcome(error) === 'not_found') return null;
      throw error;
    }
  }

  async findByEmail(customerId: string, email: string): Promise<UserRecord | null> {
    const { resources } = await this.container.items
      .query<UserRecord>(
        {
          query: 'SELECT * FROM c WHERE c.customer_id = @cid AND c.kind = @kind AND c.email = @email',
          parameters: [
            { name: '@cid', value: customerId },
            { name: '@kind', value: 'user' },
            { name: '@email', value: email.toLowerCase() },
          ],
        },
        { partitionKey: customerId },
      )
      .fetchAll();
    return resources[0] ?? null;
  }

  /** Users ordered by email after `afterEmail` (keyset paging; emails are unique), `limit` of them and whether more follow. */
  async page(
    customerId: string,
    filter: { role?: Role; afterEmail?: string },
    limit: number,
  ): Promise<{ items: UserRecord[]; hasMore: boolean }> {
    const conditions = ['c.customer_id = @cid', 'c.kind = @kind'];
    const parameters: SqlParameter[] = [
      { name: '@cid', value: customerId },
      { name: '@kind', value: 'user' },
    ];
    if (filter.role !== undefined) {
      conditions.push('c.role = @role');
      parameters.push({ name: '@role', value: filter.role });
    }
    if (filter.afterEmail !== undefined) {
      conditions.push('c.email > @after');
      parameters.push({ name: '@after', value: filter.afterEmail });
    }
    const query = `SELECT * FROM c WHERE ${conditions.join(' AND ')} ORDER BY c.email ASC`;
    const pages = this.container.items.query<UserRecord>({ query, parameters }, { partitionKey: customerId, maxItemCount: limit + 1 });
    const items: UserRecord[] = [];
    while (items.length <= limit && pages.hasMoreResults()) items.push(...(await pages.fetchNext()).resources);
    return { items: items.slice(0, limit).map((item) => stored(item).record), hasMore: items.length > limit };
  }

  /** Every user of the tenant, a page at a time, read with continuation tokens (for the account export). */
  async *pages(customerId: string, pageSize: number): AsyncGenerator<UserRecord[]> {
    const pages = this.container.items.query<UserRecord>(
      {
        query: 'SELECT * FROM c WHERE c.customer_id = @cid AND c.kind = @kind ORDER BY c.email ASC',
        parameters: [
          { name: '@cid', value: customerId },
          { name: '@kind', value: 'user' },
        ],
      },
      { partitionKey: customerId, maxItemCount: pageSize },
    );
    while (pages.hasMoreResults()) {
      const { resources } = await pages.fetchNext();
      if (resources.length > 0) yield resources.map((item) => stored(item).record);
    }
  }

  async countActiveAdmins(customerId: string): Promise<number> {
    const { resources } = await this.container.items
      .query<number>(
        {
          query: 'SELECT VALUE COUNT(1) FROM c WHERE c.customer_id = @cid AND c.kind = @kind AND c.role = @role AND c.status = @status',
          parameters: [
            { name: '@cid', value: customerId },
            { name: '@kind', value: 'user' },
            { name: '@role', value: 'admin' },
            { name: '@status', value: 'active' },
          ],
        },
        { partitionKey: customerId },
      )
      .fetchAll();
    return resources[0] ?? 0;
  }

  /** Read before counting the active admins; the change that relies on the count moves it. */
  async adminGuard(customerId: string): Promise<AdminGuard> {
    try {
      const { resource, etag } = await this.container.item(adminGuardId, customerId).read();
      return { etag: resource ? etag : null };
    } catch (error) {
      if (cosmosOutcome(error) === 'not_found') return { etag: null };
      throw error;
    }
  }

  async create(user: UserRecord): Promise<UserRecord> {
    const lock = { id: emailLockId(user.email), customer_id: user.customer_id, kind: 'email_lock', user_id: user.id };
    const response = await this.container.items.batch(
      [
        { operationType: 'Create', partitionKey: user.customer_id, resourceBody: lock },
        { operationType: 'Create', partitionKey: user.customer_id, resourceBody: { ...user } },
      ],
      user.customer_id,
    );
    const status = response.result?.[0]?.statusCode;
    if (cosmosOutcome(status) === 'conflict') throw new EmailTakenError(user.email);
    if (!response.result?.every((r) => r.statusCode < 300)) throw new Error(`user batch failed with ${status}`);
    return user;
  }

  /** Writes `next` over the version read; a new email moves the email lock in the same batch. */
  async replace(previous: StoredUser, next: UserRecord, guard: AdminGuard | null): Promise<UserWriteOutcome> {
    const cid = next.customer_id;
    const operations: OperationInput[] = guard ? [guardOperation(cid, guard, next.updated_at)] : [];
    const emailChanged = emailLockId(previous.record.email) !== emailLockId(next.email);
    const lockIndex = operations.length;
    if (emailChanged) {
      operations.push(
        {
          operationType: 'Create',
          partitionKey: cid,
          resourceBody: { id: emailLockId(next.email), customer_id: cid, kind: 'email_lock', user_id: next.id },
        },
        { operationType: 'Delete', partitionKey: cid, id: emailLockId(previous.record.email) },
      );
    }
    operations.push({
      operationType: 'Replace',
      partitionKey: cid,
      id: next.id,
      ifMatch: previous.etag,
      resourceBody: { ...next } as unknown as JSONObject,
    });
    return this.commit(cid, operations, emailChanged ? lockIndex : null);
  }

  /** Deletes the user and its email lock together. */
  async delete(previous: StoredUser, guard: AdminGuard | null): Promise<UserWriteOutcome> {
    const { customer_id: cid, id, email, updated_at: updatedAt } = previous.record;
    // The SDK's type of a Delete omits ifMatch; the batch API honours it, as it does on a Replace.
    const unchanged = { ifMatch: previous.etag };
    const operations: OperationInput[] = [
      ...(guard ? [guardOperation(cid, guard, updatedAt)] : []),
      { operationType: 'Delete', partitionKey: cid, id, ...unchanged },
      { operationType: 'Delete', partitionKey: cid, id: emailLockId(email) },
    ];
    return this.commit(cid, operations, null);
  }

  async recordLogin(user: UserRecord, at: Date): Promise<void> {
    await this.container.item(user.id, user.customer_id).patch([{ op: 'set', path: '/last_login_at', value: at.toISOString() }]);
  }

  private async commit(customerId: string, operations: OperationInput[], emailLockIndex: number | null): Promise<UserWriteOutcome> {
    const results = (await this.container.items.batch(operations, customerId)).result ?? [];
    if (results.length === operations.length && results.every((r) => r.statusCode < 300)) return 'written';
    // The operation that failed; the others answer 424 (failed dependency).
    const failedAt = results.findIndex((r) => r.statusCode >= 300 && r.statusCode !== 424);
    const outcome = cosmosOutcome(results[failedAt]?.statusCode);
    if (failedAt === emailLockIndex && outcome === 'conflict') return 'email_taken';
    if (outcome === 'precondition_failed' || outcome === 'not_found' || outcome === 'conflict') return 'changed';
    throw new Error(`user batch failed with ${results.map((r) => r.statusCode).join('/')}`);
  }
}

function guardOperation(customerId: string, guard: AdminGuard, changedAt: string): OperationInput {
  const resourceBody = { id: adminGuardId, customer_id: customerId, kind: 'admin_guard', changed_at: changedAt };
  return guard.etag
    ? { operationType: 'Replace', partitionKey: customerId, id: adminGuardId, ifMatch: guard.etag, resourceBody }
    : { operationType: 'Create', partitionKey: customerId, resourceBody };
}
