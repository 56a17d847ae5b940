import { callerOf } from '../services/call-context.js';
import type { TemplateService } from '../services/templates/template-service.js';
import type { OperationTable } from './operation.js';

export function templateOperations(templates: TemplateService) {
  return {
    listTemplates: async (_body, ctx) => templates.list(callerOf(ctx)),
    getTemplate: async (_body, ctx) => templates.get(callerOf(ctx)),
    getTemplateUploadUrl: async (body, ctx) => templates.createUploadUrl(callerOf(ctx), body),
    scanTemplate: async (_body, ctx) => templates.scan(callerOf(ctx)),
    saveTemplate: async (body, ctx) => templates.save(callerOf(ctx), body),
    deleteTemplate: async (_body, ctx) => templates.delete(callerOf(ctx)),
  } satisfies OperationTable;
}
