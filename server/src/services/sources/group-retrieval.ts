// The source groups of a validation (section 4.2 rules 3-4, decision row 28): each requested group is
// checked against the caller's data-access roles before anything of it is read; a group the caller
// may not use, or that does not exist, is skipped as `access_denied` (never an error, and its files
// are never read). The ready files of the others are read (the checked blob version) and their text
// extracted.
import type { ObjectStorage } from '../../storage/object-storage.js';
import type { SourceGroupStore } from '../../store/source-group-store.js';
import type { Caller } from '../call-context.js';
import type { GatheredSource, SourceGroupRetrieval } from '../validation/validation-service.js';
import { canUseGroup } from './source-access.js';
import type { SourceGroupService } from './source-groups.js';
import { sourceFileKey } from './source-upload.js';
import { defaultExtractionBudget, extractText } from './text-extraction.js';

export function groupRetrieval(store: SourceGroupStore, groups: SourceGroupService, storage: ObjectStorage): SourceGroupRetrieval {
  return async (caller: Caller, groupIds: readonly string[]) => {
    const sources: GatheredSource[] = [];
    const skipped: { kind: 'source_group'; reference: string; reason: 'access_denied' }[] = [];
    const files = storage.forTenant(caller.tenant.customerId);
    for (const groupId of new Set(groupIds)) {
      const stored = await store.get(caller.tenant.customerId, groupId);
      if (!stored || !canUseGroup(caller.principal, stored)) {
        skipped.push({ kind: 'source_group', reference: groupId, reason: 'access_denied' });
        continue;
      }
      const group = (await groups.settled(caller, groupId)) ?? stored;
      for (const file of group.files) {
        if (file.status !== 'ready' || !file.sha256) continue;
        const read = await files.read(sourceFileKey(group.id, file.file_id), {
          maxBytes: defaultExtractionBudget.maxInputBytes,
          ifMatch: file.etag ?? undefined,
        });
        if (!read.ok) continue;
        const extracted = await extractText(read.bytes, file.content_type);
        if (!extracted.ok) continue;
        sources.push({
          kind: 'file',
          reference: `${group.id}/${file.file_id}/${file.name}`,
          group_id: group.id,
          sha256: file.sha256,
          text: extracted.text,
        });
      }
    }
    return { sources, skipped };
  };
}
