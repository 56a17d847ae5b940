// Generated from openapi.yaml by contract/scripts/generate.mjs (`npm run generate`). Do not edit.
import type { components } from './openapi.js';

type AuditEventKind = components['schemas']['AuditEventKind'];

/** The facts each audit event kind records in `data`: those it must carry, and those it may. */
export const auditEventFacts = {
  validation_created: { required: ["mode","request_summary","source_groups","sources","confidence_level","issue_count"], optional: [] },
  review_required: { required: ["review_state"], optional: [] },
  approved: { required: ["note"], optional: [] },
  rejected: { required: ["note"], optional: [] },
  edited: { required: ["note","corrections"], optional: [] },
  review_handed_off: { required: ["external_reference"], optional: ["note"] },
  external_review_approved: { required: ["external_reference"], optional: ["note"] },
  external_review_rejected: { required: ["external_reference"], optional: ["note"] },
  account_deleted: { required: [], optional: [] },
  operating_point_applied: { required: ["previous_supported_score","supported_score","target_precision","decisions","fitted_on","measured_on","previous","fitted"], optional: [] },
} as const satisfies Record<AuditEventKind, { required: readonly string[]; optional: readonly string[] }>;
