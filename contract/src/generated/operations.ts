// Generated from openapi.yaml by contract/scripts/generate.mjs (`npm run generate`). Do not edit.
import type { paths } from './openapi.js';

type OperationPath = keyof paths;

/** Operations that accept API-key credentials in their body (`x-api-key: true`). */
export const apiKeyPaths: readonly OperationPath[] = [
  '/auth/me',
  '/api/v1/validate',
  '/api/v1/templates',
  '/api/v1/templates/upload-url',
  '/api/v1/templates/{id}',
  '/api/v1/templates/{id}/scan',
  '/api/v1/templates/{id}/save',
  '/api/v1/templates/{id}/delete',
  '/api/v1/sources',
  '/api/v1/sources/upload-url',
  '/api/v1/sources/group/save',
  '/api/v1/sources/group/delete',
  '/api/v1/sources/file/delete',
  '/api/v1/history',
  '/api/v1/history/{id}/review',
  '/api/v1/stats',
  '/api/v1/analytics',
  '/api/v1/analytics/csv',
  '/api/v1/audit',
  '/api/v1/audit/export',
  '/api/v1/system-card',
];

/** Operations that take no credentials at all (`security: []`). */
export const openPaths: readonly OperationPath[] = [
  '/auth/login',
  '/healthz',
  '/readyz',
];

/** Operations that declare the `Idempotency-Key` header. */
export const idempotentPaths: readonly OperationPath[] = [
  '/api/v1/validate',
  '/api/v1/templates/upload-url',
  '/api/v1/templates/{id}/scan',
  '/api/v1/templates/{id}/save',
  '/api/v1/templates/{id}/delete',
  '/api/v1/sources/upload-url',
  '/api/v1/sources/group/save',
  '/api/v1/sources/group/delete',
  '/api/v1/sources/file/delete',
  '/api/v1/history/{id}/review',
  '/api/v1/engine/operating-point',
  '/api/v1/saas/users/save',
  '/api/v1/saas/users/delete',
  '/api/v1/saas/billing-portal',
];
