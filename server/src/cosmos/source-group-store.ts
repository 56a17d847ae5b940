// Source groups of a tenant, each one document holding its file inventory. A group's name owns a
// lock item in the same partition, written in one transactional batch with the group, so two
// concurrent saves cannot give two groups one name. Every write names the ETag it was read with.
import type { Container, JSONObject } from '@azure/cosmos';
import { sha256Hex } from '../lib/hash.js';
import { cosmosOutcome } from './cosmos-status.js';
import type { StoredUpload } from './stored-upload.js';
import { countTenantItems, listTenantItems, readTenantItem } from './tenant-items.js';

export interface AuthzForwardingRecord {
  user_id?: boolean;
  customer_id?: boolean;
  data_access_roles?: boolean;
  original_jwt?: boolean;
}

export interface SourceEndpointRecord {
  name: string;
  url: string;
  authz_forwarding?: AuthzForwardingRecord;
}

export type SourceFileRejection = 'empty' | 'too_large' | 'size_mismatch' | 'content_mismatch';

export interface SourceFileRecord extends StoredUpload {
  file_id: string;
  status: 'awaiting_upload' | 'ready' | 'rejected';
  rejection_reason: SourceFileRejection | null;
  created_at: string;
  upload_expires_at: string;
}

export interface SourceGroupRecord {
  id: string;
  customer_id: string;
  kind: 'source_group';
  name: string;
  description: string | null;
  allowed_roles: string[];
  endpoints: SourceEndpointRecord[];
  files: SourceFileRecord[];
  created_at: string;
  updated_at: string;
  _etag?: string;
}

export class GroupNameTakenError extends Error {}
/** The group changed (or vanished) since it was read; read it again and retry. */
export class GroupChangedError extends Error {}

const nameLockId = (name: string) => `grpname_${sha256Hex(name.trim().toLowerCase())}`;
const lockFor = (group: SourceGroupRecord) => ({
  id: nameLockId(group.name),
  customer_id: group.customer_id,
  kind: 'source_group_name_lock',
  group_id: group.id,
});

export class SourceGroupStore {
  constructor(private readonly container: Container) {}

  async get(customerId: string, groupId: string): Promise<SourceGroupRecord | null> {
    return readTenantItem<SourceGroupRecord>(this.container, customerId, groupId, 'source_group');
  }

  async list(customerId: string): Promise<SourceGroupRecord[]> {
    const groups = await listTenantItems<SourceGroupRecord>(this.container, customerId, 'source_group');
    return groups.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  }

  async count(customerId: string): Promise<number> {
    return countTenantItems(this.container, customerId, 'source_group');
  }

  async create(group: SourceGroupRecord): Promise<SourceGroupRecord> {
    const response = await this.container.items.batch(
      [
        { operationType: 'Create', partitionKey: group.customer_id, resourceBody: lockFor(group) },
        { operationType: 'Create', partitionKey: group.customer_id, resourceBody: strip(group) },
      ],
      group.customer_id,
    );
    this.check(response.result, group.name);
    return (await this.get(group.customer_id, group.id)) ?? group;
  }

  /** Writes `next` over `previous` (read with its ETag); a rename moves the name lock in the same batch. */
  async replace(previous: SourceGroupRecord, next: SourceGroupRecord): Promise<SourceGroupRecord> {
    const cid = next.customer_id;
    const renamed = nameLockId(previous.name) !== nameLockId(next.name);
    const replace = { operationType: 'Replace' as const, id: next.id, resourceBody: strip(next), ifMatch: previous._etag };
    if (!renamed) {
      try {
        const { resource } = await this.container
          .item(next.id, cid)
          .replace<SourceGroupRecord>(
            strip(next) as unknown as SourceGroupRecord,
            previous._etag ? { accessCondition: { type: 'IfMatch', condition: previous._etag } } : {},
          );
        return resource ?? next;
      } catch (error) {
        const outcome = cosmosOutcome(error);
        if (outcome === 'precondition_failed' || outcome === 'not_found') throw new GroupChangedError(next.id);
        throw error;
      }
    }
    const response = await this.container.items.batch(
      [
        { operationType: 'Create', partitionKey: cid, resourceBody: lockFor(next) },
        { operationType: 'Delete', partitionKey: cid, id: nameLockId(previous.name) },
        { ...replace, partitionKey: cid },
      ],
      cid,
    );
    this.check(response.result, next.name);
    return (await this.get(cid, next.id)) ?? next;
  }

  /** Deletes the group and its name lock together; false when it was already gone or changed. */
  async delete(group: SourceGroupRecord): Promise<boolean> {
    const cid = group.customer_id;
    const response = await this.container.items.batch(
      [
        { operationType: 'Delete', partitionKey: cid, id: group.id, ...(group._etag && { ifMatch: group._etag }) },
        { operationType: 'Delete', partitionKey: cid, id: nameLockId(group.name) },
      ],
      cid,
    );
    const first = response.result?.[0]?.statusCode;
    if (first !== undefined && first < 300) return true;
    const outcome = cosmosOutcome(first);
    if (outcome === 'precondition_failed') throw new GroupChangedError(group.id);
    if (outcome === 'not_found') return false;
    throw new Error(`source group delete failed with ${first}`);
  }

  private check(result: { statusCode: number }[] | undefined, name: string): void {
    if (result?.every((r) => r.statusCode < 300)) return;
    const failed = result?.find((r) => r.statusCode >= 300 && r.statusCode !== 424);
    const outcome = cosmosOutcome(failed?.statusCode);
    if (outcome === 'conflict' && result?.[0]?.statusCode === 409) throw new GroupNameTakenError(name);
    if (outcome === 'precondition_failed' || outcome === 'not_found') throw new GroupChangedError(name);
    throw new Error(`source group batch failed with ${failed?.statusCode}`);
  }
}

/** Cosmos' system properties are not part of what is written back. */
function strip(group: SourceGroupRecord): JSONObject {
  const { _etag, ...rest } = group as SourceGroupRecord & Record<string, unknown>;
  for (const key of ['_rid', '_self', '_ts', '_attachments']) delete (rest as Record<string, unknown>)[key];
  return rest as unknown as JSONObject;
}
