import { callerOf } from '../services/call-context.js';
import type { SourceGroupService } from '../services/sources/source-groups.js';
import type { OperationTable } from './operation.js';

export function sourceOperations(groups: SourceGroupService) {
  return {
    listSourceGroups: async (_body, ctx) => groups.list(callerOf(ctx)),
    getSourceUploadUrl: async (body, ctx) => groups.uploadUrl(callerOf(ctx), body),
    saveSourceGroup: async (body, ctx) => groups.save(callerOf(ctx), body),
    deleteSourceGroup: async (body, ctx) => groups.deleteGroup(callerOf(ctx), body),
    deleteSourceFile: async (body, ctx) => groups.deleteFile(callerOf(ctx), body),
  } satisfies OperationTable;
}
