// Local users of a tenant. An email owns a lock item in the same partition, written in one
// transactional batch with the user, so two concurrent creations cannot share an email.
import type { Container } from '@azure/cosmos';
import type { Role } from '../contract/roles.js';
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
}

export class EmailTakenError extends Error {}

const emailLockId = (email: string) => `email_${sha256Hex(email.toLowerCase())}`;

export class UserStore {
  constructor(private readonly container: Container) {}

  async get(customerId: string, userId: string): Promise<UserRecord | null> {
    const { resource } = await this.container.item(userId, customerId).read<UserRecord>();
    return resource?.kind === 'user' ? resource : null;
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

  async recordLogin(user: UserRecord, at: Date): Promise<void> {
    await this.container.item(user.id, user.customer_id).patch([{ op: 'set', path: '/last_login_at', value: at.toISOString() }]);
  }
}
