// Source groups (section 4.4, decisions 26-30, 74, 76): list with visibility by data-access role,
// upload URLs, save (create, or update what is sent), delete with or without the stored files.

import type {
  DeletedSourceFile,
  DeletedSourceGroup,
  SourceFileDeleteRequest,
  SourceGroup,
  SourceGroupDeleteRequest,
  SourceGroupList,
  SourceGroupSaveRequest,
  SourceUploadUrl,
  SourceUploadUrlRequest,
} from '@groundcheck/contract';
import type { ObjectStorage } from '../../blobs/object-storage.js';
import {
  GroupChangedError,
  GroupNameTakenError,
  type SourceFileRecord,
  type SourceGroupRecord,
  type SourceGroupStore,
} from '../../cosmos/source-group-store.js';
import { ConflictError, NotFoundError } from '../../errors.js';
import { checkedFileName } from '../../lib/file-names.js';
import { type Caller, idFor, writtenByEarlierTry } from '../call-context.js';
import { forgetExtractions } from './extraction-cache.js';
import { canSeeGroup } from './source-access.js';
import { settleFile, sourceFileKey, sourceGroupPrefix } from './source-upload.js';

/** Decisions 27 and 76. */
export const sourceLimits = { groupsPerTenant: 100, filesPerGroup: 1000, endpointsPerGroup: 10 } as const;
/** How long an upload URL stays valid. */
export const uploadUrlLifetimeMs = 15 * 60_000;
const writeAttempts = 5;

export interface SourceGroupServiceDeps {
  store: SourceGroupStore;
  storage: ObjectStorage;
}

export class SourceGroupService {
  constructor(private readonly deps: SourceGroupServiceDeps) {}

  async list(ctx: Caller): Promise<SourceGroupList> {
    const groups = (await this.deps.store.list(ctx.tenant.customerId)).filter((g) => canSeeGroup(ctx.principal, g));
    const settled = await Promise.all(groups.map((g) => this.settle(ctx, g)));
    return { data: settled.filter((g): g is SourceGroupRecord => g !== null).map(toSourceGroup) };
  }

  /**
   * The group with every pending upload checked (ready, rejected, or dropped when expired), or null
   * when it does not exist in the caller's tenant. No access check: the caller decides that first.
   */
  async settled(ctx: Caller, groupId: string): Promise<SourceGroupRecord | null> {
    const group = await this.deps.store.get(ctx.tenant.customerId, groupId);
    return group && this.settle(ctx, group);
  }

  async uploadUrl(ctx: Caller, body: SourceUploadUrlRequest): Promise<SourceUploadUrl> {
    const fileName = checkedFileName(body.file_name);
    const now = ctx.clock.now();
    const fileId = idFor(ctx, 'fil', now);
    const storage = this.deps.storage.forTenant(ctx.tenant.customerId);
    const presign = (signedAt: Date) =>
      storage.presignUpload(sourceFileKey(body.group_id, fileId), {
        contentType: body.content_type,
        now: signedAt,
        expiresInMs: uploadUrlLifetimeMs,
      });
    // A retry after a crash that had added the file: the same file, its URL signed as before.
    const group = await writtenByEarlierTry(ctx, () => this.deps.store.get(ctx.tenant.customerId, body.group_id));
    const added = group?.files.find((f) => f.file_id === fileId);
    if (added) return { ...(await presign(new Date(added.created_at))), group_id: body.group_id, file_id: fileId };
    const presigned = await presign(now);
    const file: SourceFileRecord = {
      file_id: fileId,
      name: fileName,
      content_type: body.content_type,
      declared_size_bytes: body.size_bytes ?? null,
      size_bytes: null,
      sha256: null,
      etag: null,
      status: 'awaiting_upload',
      rejection_reason: null,
      created_at: now.toISOString(),
      upload_expires_at: presigned.expires_at,
    };
    await this.mutate(ctx, body.group_id, (group) => {
      if (group.files.length >= sourceLimits.filesPerGroup) {
        throw new ConflictError('limit_reached', `A source group holds at most ${sourceLimits.filesPerGroup} files.`);
      }
      return { ...group, files: [...group.files, file] };
    });
    return { ...presigned, group_id: body.group_id, file_id: fileId };
  }

  async save(ctx: Caller, body: SourceGroupSaveRequest): Promise<SourceGroup> {
    if (body.endpoints && body.endpoints.length > sourceLimits.endpointsPerGroup) {
      throw new ConflictError('limit_reached', `A source group has at most ${sourceLimits.endpointsPerGroup} endpoints.`);
    }
    try {
      return toSourceGroup(body.group_id ? await this.update(ctx, body.group_id, body) : await this.create(ctx, body));
    } catch (error) {
      if (error instanceof GroupNameTakenError) {
        throw new ConflictError('group_name_taken', 'Another source group of this account has that name.');
      }
      throw error;
    }
  }

  async deleteGroup(ctx: Caller, body: SourceGroupDeleteRequest): Promise<DeletedSourceGroup> {
    const cid = ctx.tenant.customerId;
    let deletedGroup: SourceGroupRecord | undefined;
    for (let attempt = 1; ; attempt += 1) {
      const group = await this.deps.store.get(cid, body.group_id);
      if (!group) throw groupNotFound();
      try {
        if (!(await this.deps.store.delete(group))) throw groupNotFound();
        deletedGroup = group;
        break;
      } catch (error) {
        if (!(error instanceof GroupChangedError) || attempt >= writeAttempts) throw error;
      }
    }
    // Without a purge the blobs stay, detached, until the account is deleted (decision 30).
    const filesPurged = body.purge_files ? await this.deps.storage.forTenant(cid).deletePrefix(sourceGroupPrefix(body.group_id)) : 0;
    if (body.purge_files) await this.forgetText(ctx, deletedGroup!.files);
    ctx.log.info({ groupId: body.group_id, filesPurged }, 'source group deleted');
    return { group_id: body.group_id, deleted: true, files_purged: filesPurged };
  }

  async deleteFile(ctx: Caller, body: SourceFileDeleteRequest): Promise<DeletedSourceFile> {
    const group = await this.deps.store.get(ctx.tenant.customerId, body.group_id);
    if (!group?.files.some((f) => f.file_id === body.file_id)) throw fileNotFound();
    // The blob first: a file that vanishes from the inventory must not leave its bytes behind.
    await this.deps.storage.forTenant(ctx.tenant.customerId).delete(sourceFileKey(body.group_id, body.file_id));
    await this.mutate(ctx, body.group_id, (current) => ({ ...current, files: current.files.filter((f) => f.file_id !== body.file_id) }));
    await this.forgetText(
      ctx,
      group.files.filter((f) => f.file_id === body.file_id),
    );
    return { group_id: body.group_id, file_id: body.file_id, deleted: true };
  }

  /** Deleted files' text goes with their bytes, unless another file of the tenant has the same bytes. */
  private async forgetText(ctx: Caller, deleted: readonly SourceFileRecord[]): Promise<void> {
    const hashes = deleted.flatMap((f) => (f.sha256 ? [f.sha256] : []));
    if (hashes.length === 0) return;
    const kept = new Set((await this.deps.store.list(ctx.tenant.customerId)).flatMap((g) => g.files.map((f) => f.sha256)));
    await forgetExtractions(
      this.deps.storage.forTenant(ctx.tenant.customerId),
      hashes.filter((hash) => !kept.has(hash)),
    );
  }

  private async create(ctx: Caller, body: SourceGroupSaveRequest): Promise<SourceGroupRecord> {
    const cid = ctx.tenant.customerId;
    const now = ctx.clock.now();
    const id = idFor(ctx, 'grp', now);
    // A retry after a crash that had created the group: the group it created.
    const created = await writtenByEarlierTry(ctx, () => this.deps.store.get(cid, id));
    if (created) return created;
    if ((await this.deps.store.count(cid)) >= sourceLimits.groupsPerTenant) {
      throw new ConflictError('limit_reached', `An account holds at most ${sourceLimits.groupsPerTenant} source groups.`);
    }
    return this.deps.store.create({
      id,
      customer_id: cid,
      kind: 'source_group',
      // The contract's `anyOf` guarantees a name on creation.
      name: body.name!,
      description: body.description ?? null,
      allowed_roles: body.allowed_roles ?? [],
      endpoints: body.endpoints ?? [],
      files: [],
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    });
  }

  private update(ctx: Caller, groupId: string, body: SourceGroupSaveRequest): Promise<SourceGroupRecord> {
    // Update what is sent (decision 27): an omitted `allowed_roles` never opens a restricted group.
    return this.mutate(ctx, groupId, (group) => ({
      ...group,
      ...(body.name !== undefined && { name: body.name }),
      ...(body.description !== undefined && { description: body.description }),
      ...(body.allowed_roles !== undefined && { allowed_roles: body.allowed_roles }),
      ...(body.endpoints !== undefined && { endpoints: body.endpoints }),
    }));
  }

  /** Read, change, write with the ETag read; retried when another request wrote in between. */
  private async mutate(ctx: Caller, groupId: string, change: (group: SourceGroupRecord) => SourceGroupRecord): Promise<SourceGroupRecord> {
    for (let attempt = 1; ; attempt += 1) {
      const group = await this.deps.store.get(ctx.tenant.customerId, groupId);
      if (!group) throw groupNotFound();
      const next = { ...change(group), updated_at: ctx.clock.now().toISOString() };
      try {
        return await this.deps.store.replace(group, next);
      } catch (error) {
        if (!(error instanceof GroupChangedError) || attempt >= writeAttempts) throw error;
      }
    }
  }

  private async settle(ctx: Caller, group: SourceGroupRecord, retry = true): Promise<SourceGroupRecord | null> {
    if (!group.files.some((f) => f.status === 'awaiting_upload')) return group;
    const storage = this.deps.storage.forTenant(ctx.tenant.customerId);
    const now = ctx.clock.now();
    const outcomes = await Promise.all(group.files.map((file) => settleFile(group.id, file, storage, now)));
    if (outcomes.every((o) => o.change === 'none')) return group;
    const files = group.files.flatMap((file, i) => {
      const outcome = outcomes[i]!;
      if (outcome.change === 'remove') return [];
      return [outcome.change === 'update' ? outcome.file : file];
    });
    try {
      return await this.deps.store.replace(group, { ...group, files, updated_at: now.toISOString() });
    } catch (error) {
      if (!(error instanceof GroupChangedError)) throw error;
      // Another request wrote first (perhaps the same check): check again against what is there now.
      const fresh = await this.deps.store.get(ctx.tenant.customerId, group.id);
      return fresh && (retry ? this.settle(ctx, fresh, false) : fresh);
    }
  }
}

function groupNotFound() {
  return new NotFoundError('not_found', 'No source group with this id.');
}

function fileNotFound() {
  return new NotFoundError('not_found', 'No file with this id in the source group.');
}

export function toSourceGroup(group: SourceGroupRecord): SourceGroup {
  return {
    group_id: group.id,
    name: group.name,
    description: group.description,
    allowed_roles: group.allowed_roles,
    endpoints: group.endpoints,
    files: group.files.map((f) => ({
      file_id: f.file_id,
      name: f.name,
      content_type: f.content_type,
      size_bytes: f.size_bytes,
      sha256: f.sha256,
      status: f.status,
      rejection_reason: f.rejection_reason,
      created_at: f.created_at,
    })),
    created_at: group.created_at,
    updated_at: group.updated_at,
  };
}
