// POST /api/v1/saas/users, /users/save and /users/delete (section 4.7, decision row 35): the
// tenant's local users, listed by email, created or updated field by field, removed. Emails are
// unique per tenant and no change may leave the tenant without an active admin. A user who is
// disabled or removed loses access at the next call: the authenticator reads the user every time.

import type { DeletedUser, User, UserPage, UserQuery, UserSaveRequest } from '@groundcheck/contract';
import {
  type AdminGuard,
  EmailTakenError,
  type StoredUser,
  type UserRecord,
  type UserStore,
  type UserWriteOutcome,
} from '../../cosmos/user-store.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../errors.js';
import { decodeCursor, encodeCursor } from '../../lib/cursor.js';
import { passwordWeakness } from '../auth/password-policy.js';
import { hashPassword } from '../auth/passwords.js';
import { type Caller, idFor, writtenByEarlierTry } from '../call-context.js';
import { logUserChanges, userChanges } from './user-change-log.js';
import { userView } from './user-view.js';

const defaultPageLimit = 25;
/** Writes lost to a concurrent change of the same user (or of the admins) are decided again, this often. */
const writeAttempts = 5;

const notFound = () => new NotFoundError('not_found', 'No user with this id.');
const emailTaken = () => new ConflictError('email_taken', 'Another user of this tenant has this email address.');
const lastAdmin = () =>
  new ConflictError('last_admin', 'This change would leave the tenant without an active admin; make another user an admin first.');

const isActiveAdmin = (user: UserRecord) => user.role === 'admin' && user.status === 'active';
// A cursor holds the last email of the page before (emails are unique per tenant).
const emailCursor = /^\S{1,254}$/;

export class UserManagement {
  constructor(private readonly users: UserStore) {}

  async list(ctx: Caller, query: UserQuery): Promise<UserPage> {
    const limit = query.limit ?? defaultPageLimit;
    const afterEmail = query.cursor === undefined ? undefined : decodeCursor(query.cursor, 'email', emailCursor);
    const { items, hasMore } = await this.users.page(ctx.tenant.customerId, { role: query.role, afterEmail }, limit);
    return { data: items.map(userView), has_more: hasMore, next_cursor: hasMore ? encodeCursor('email', items.at(-1)!.email) : null };
  }

  async save(ctx: Caller, request: UserSaveRequest): Promise<User> {
    return request.user_id === undefined ? this.create(ctx, request) : this.update(ctx, request.user_id, request);
  }

  async delete(ctx: Caller, userId: string): Promise<DeletedUser> {
    await this.write(ctx, userId, (current) => ({ next: null, takesAdmin: isActiveAdmin(current.record) }));
    return { user_id: userId, deleted: true };
  }

  private async create(ctx: Caller, request: UserSaveRequest): Promise<User> {
    // The contract requires both when there is no user_id.
    const email = request.email!.toLowerCase();
    const id = idFor(ctx, 'usr', ctx.clock.now());
    // A retry after a crash that had created the user: the user it created (its email is taken by it).
    const created = await writtenByEarlierTry(ctx, () => this.users.get(ctx.tenant.customerId, id));
    if (created) return userView(created);
    const now = ctx.clock.now().toISOString();
    const user: UserRecord = {
      id,
      customer_id: ctx.tenant.customerId,
      kind: 'user',
      email,
      name: request.name ?? email,
      role: request.role!,
      data_access_roles: request.data_access_roles ?? [],
      status: request.status ?? 'active',
      password_hash: request.password === undefined ? null : await this.passwordHash(ctx, request.password, email),
      created_at: now,
      updated_at: now,
      last_login_at: null,
    };
    try {
      await this.users.create(user);
    } catch (error) {
      if (error instanceof EmailTakenError) throw emailTaken();
      throw error;
    }
    logUserChanges(ctx, user.id, userChanges(null, user, user.password_hash !== null));
    return userView(user);
  }

  private async update(ctx: Caller, userId: string, request: UserSaveRequest): Promise<User> {
    const email = request.email?.toLowerCase();
    let passwordHash: string | undefined;
    const saved = await this.write(ctx, userId, async (current) => {
      if (request.password !== undefined) passwordHash ??= await this.passwordHash(ctx, request.password, email ?? current.record.email);
      const next: UserRecord = {
        ...current.record,
        ...(email !== undefined && { email }),
        ...(request.name !== undefined && { name: request.name }),
        ...(request.role !== undefined && { role: request.role }),
        ...(request.data_access_roles !== undefined && { data_access_roles: request.data_access_roles }),
        ...(request.status !== undefined && { status: request.status }),
        ...(passwordHash !== undefined && { password_hash: passwordHash }),
        updated_at: ctx.clock.now().toISOString(),
      };
      // A new password, role or status ends the user's existing sessions (their tokens carry the old epoch).
      const record = current.record;
      if (passwordHash !== undefined || next.role !== record.role || next.status !== record.status)
        next.session_epoch = (record.session_epoch ?? 0) + 1;
      return { next, takesAdmin: isActiveAdmin(record) && !isActiveAdmin(next) };
    });
    return userView(saved!);
  }

  /**
   * Reads the user, decides the change and writes it against the version read. A change that
   * takes an active admin away counts the active admins after reading the admin guard and moves
   * the guard in its batch, so two such changes at once cannot both pass the count.
   */
  private async write(
    ctx: Caller,
    userId: string,
    decide: (
      current: StoredUser,
    ) => Promise<{ next: UserRecord | null; takesAdmin: boolean }> | { next: UserRecord | null; takesAdmin: boolean },
  ): Promise<UserRecord | null> {
    const { customerId } = ctx.tenant;
    for (let attempt = 0; attempt < writeAttempts; attempt += 1) {
      const current = await this.users.read(customerId, userId);
      if (!current) throw notFound();
      const { next, takesAdmin } = await decide(current);
      let guard: AdminGuard | null = null;
      if (takesAdmin) {
        guard = await this.users.adminGuard(customerId);
        if ((await this.users.countActiveAdmins(customerId)) <= 1) throw lastAdmin();
      }
      const outcome: UserWriteOutcome = next ? await this.users.replace(current, next, guard) : await this.users.delete(current, guard);
      if (outcome === 'email_taken') throw emailTaken();
      if (outcome === 'written') {
        const passwordSet = next !== null && next.password_hash !== current.record.password_hash;
        logUserChanges(ctx, userId, userChanges(current.record, next, passwordSet));
        return next;
      }
    }
    throw new Error(`user ${userId} changed by other requests ${writeAttempts} times while being written`);
  }

  /** The scrypt hash of an accepted password; only local-login tenants have passwords. */
  private async passwordHash(ctx: Caller, password: string, email: string): Promise<string> {
    if (!ctx.tenant.auth.local) {
      throw new BadRequestError('invalid_request', 'This tenant signs in through its identity provider; users have no password here.', [
        { pointer: '/password', detail: 'not accepted for a tenant without local login' },
      ]);
    }
    const weakness = passwordWeakness(password, { email });
    if (weakness) {
      throw new BadRequestError('invalid_request', 'The password is too easy to guess.', [
        { pointer: '/password', detail: `${weakness}; choose another` },
      ]);
    }
    return hashPassword(password);
  }
}
