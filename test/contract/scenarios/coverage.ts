// Which operation/status pairs the scenario suite must exercise, derived from openapi.yaml.
//
// The rule: every operation's success status, and each of 400, 401, 403, 404 and 409 where the
// operation declares it, except the pairs below that no request can reach in a test run (each with
// its reason). The other declared statuses (408, 413, 415, 429, 431, 500, 503) belong to the HTTP
// layer, not to an operation, and have their own tests (test/contract/statuses.test.ts, server/test/http).
import { operations, type Spec } from '../../support/spec.js';
import type { Exchange } from './recorder.js';

export const operationStatuses = ['400', '401', '403', '404', '409'];

export const unreachable: Record<string, string> = {
  'getTemplateUploadUrl 409': 'limit_reached comes only after 200 templates; server/test/templates covers it',
  'getSourceUploadUrl 409': 'limit_reached comes only after 1000 files in a group; server/test/sources covers it',
  // Viewer-level operations without a feature: any signed-in principal has the role, and only an
  // identity-provider token that maps to no role is refused (server/test/auth covers that).
  'listSourceGroups 403': 'every principal has the viewer role',
  'listHistory 403': 'every principal has the viewer role',
  'getStats 403': 'every principal has the viewer role',
  'getAnalytics 403': 'every principal has the viewer role',
  'getAnalyticsCsv 403': 'every principal has the viewer role',
};

/** `operationId status` pairs the run must reach. */
export function requiredPairs(spec: Spec): string[] {
  return operations(spec).flatMap(({ operation }) => {
    const declared = Object.keys(operation.responses ?? {});
    const wanted = declared.filter((status) => /^2\d\d$/.test(status) || operationStatuses.includes(status));
    return wanted.map((status) => `${operation.operationId} ${status}`).filter((pair) => !(pair in unreachable));
  });
}

/** The required pairs that the exchanges did not reach. */
export function missingPairs(spec: Spec, exchanges: Exchange[]): string[] {
  const reached = new Set(exchanges.map((e) => `${e.operationId} ${e.status}`));
  return requiredPairs(spec).filter((pair) => !reached.has(pair));
}

/** Exemptions for pairs the contract no longer declares: stale, so they must go. */
export function staleExemptions(spec: Spec): string[] {
  const declared = new Set(
    operations(spec).flatMap(({ operation }) => Object.keys(operation.responses ?? {}).map((s) => `${operation.operationId} ${s}`)),
  );
  return Object.keys(unreachable).filter((pair) => !declared.has(pair));
}

/** For the test log: how much of the contract the run reached. */
export function summary(spec: Spec, exchanges: Exchange[]): string {
  const reached = new Set(exchanges.map((e) => `${e.operationId} ${e.status}`));
  const operationIds = new Set(exchanges.map((e) => e.operationId));
  const required = requiredPairs(spec);
  return `${exchanges.length} calls reached ${operationIds.size} of ${operations(spec).length} operations and ${reached.size} operation/status pairs (${required.filter((p) => reached.has(p)).length} of ${required.length} required)`;
}
