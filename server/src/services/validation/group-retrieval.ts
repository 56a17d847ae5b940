// The source groups of a validation (section 4.2 rules 3-4, decision row 28): each requested group is
// checked against the caller's data-access roles before anything of it is read; a group the caller
// may not use, or that does not exist, is skipped as `access_denied` (never an error, and neither its
// files nor its endpoints are touched). The others give their ready files' text (extracted once per
// file, then read from the extraction cache) and their endpoints' passages. A file without text is
// skipped with its reason.

import type { SkippedSource } from '@groundcheck/contract';
import type { ObjectStorage, TenantObjectStorage } from '../../blobs/object-storage.js';
import type { SourceFileRecord, SourceGroupRecord, SourceGroupStore } from '../../cosmos/source-group-store.js';
import type { Caller } from '../call-context.js';
import type { ExtractionCache } from '../sources/extraction-cache.js';
import { canUseGroup } from '../sources/source-access.js';
import type { SourceGroupService } from '../sources/source-groups.js';
import { sourceFileKey } from '../sources/source-upload.js';
import { defaultExtractionBudget } from '../sources/text-extraction.js';
import { type EndpointTarget, queryEndpointSources } from './endpoint-sources.js';
import type { GatheredSource, SourceGroupRetrieval } from './validation-service.js';

export interface GroupRetrievalDeps {
  store: SourceGroupStore;
  groups: SourceGroupService;
  storage: ObjectStorage;
  cache: ExtractionCache;
}

/** Files read at once: cached text is a blob read each, and a miss waits for an extraction slot anyway. */
const fileConcurrency = 4;

/** `work` over `items`, at most `limit` at a time, results in the order of the items. */
async function mapLimited<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

function fileSource(
  deps: GroupRetrievalDeps,
  caller: Caller,
  files: TenantObjectStorage,
): (entry: { group: SourceGroupRecord; file: SourceFileRecord }) => Promise<GatheredSource | SkippedSource> {
  return async ({ group, file }) => {
    const reference = `${group.id}/${file.file_id}/${file.name}`;
    const extracted = await deps.cache.textOf(
      files,
      {
        sha256: file.sha256!,
        contentType: file.content_type,
        readBytes: async () => {
          // The version that passed the upload checks, so bytes written after them are never used.
          const read = await files.read(sourceFileKey(group.id, file.file_id), {
            maxBytes: defaultExtractionBudget.maxInputBytes,
            ifMatch: file.etag ?? undefined,
          });
          return read.ok ? read.bytes : null;
        },
      },
      caller.log,
    );
    if (extracted.ok) return { kind: 'file', reference, group_id: group.id, sha256: file.sha256!, text: extracted.text };
    caller.log.info({ reference, reason: extracted.reason }, 'source file skipped');
    const reason =
      extracted.reason === 'unreadable' ? 'fetch_failed' : extracted.reason === 'too_large' ? 'too_large' : 'extraction_failed';
    return { kind: 'file', reference, group_id: group.id, reason };
  };
}

export function groupRetrieval(deps: GroupRetrievalDeps): SourceGroupRetrieval {
  return async (caller: Caller, groupIds: readonly string[], question: string) => {
    const usable: SourceGroupRecord[] = [];
    const skipped: SkippedSource[] = [];
    for (const groupId of new Set(groupIds)) {
      const stored = await deps.store.get(caller.tenant.customerId, groupId);
      if (!stored || !canUseGroup(caller.principal, stored)) {
        skipped.push({ kind: 'source_group', reference: groupId, reason: 'access_denied' });
        continue;
      }
      usable.push((await deps.groups.settled(caller, groupId)) ?? stored);
    }
    const readyFiles = usable.flatMap((group) =>
      group.files.filter((file) => file.status === 'ready' && file.sha256).map((file) => ({ group, file })),
    );
    const endpoints: EndpointTarget[] = usable.flatMap((group) => group.endpoints.map((endpoint) => ({ groupId: group.id, endpoint })));
    const [files, answered] = await Promise.all([
      mapLimited(readyFiles, fileConcurrency, fileSource(deps, caller, deps.storage.forTenant(caller.tenant.customerId))),
      queryEndpointSources(caller, endpoints, question),
    ]);
    return {
      sources: [...files.filter((f): f is GatheredSource => 'text' in f), ...answered.sources],
      skipped: [...skipped, ...files.filter((f): f is SkippedSource => 'reason' in f), ...answered.skipped],
    };
  };
}
