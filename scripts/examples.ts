// The contract's examples that follow from other examples, computed with the server's own code:
// audit hashes and the chain, request summaries, source hashes, the enterprise export (pseudonyms,
// payload summaries) and both CSV downloads, the page cursor, and the login token. npm test checks
// that openapi.yaml holds exactly these values (test/contract/examples.test.ts).
//
//   node --import tsx scripts/examples.ts           lists the values that differ (exit 1 if any)
//   node --import tsx scripts/examples.ts --write   rewrites them in openapi.yaml, nothing else
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type {
  AuditEventPage,
  EnterpriseAuditExport,
  LoginResponse,
  Me,
  RawAuditExport,
  SourceUsed,
  ValidateModeRequest,
  ValidateModeResult,
} from '@groundcheck/contract';
import { canonicalJson } from '@groundcheck/contract';
import { isScalar, parse, parseDocument, Scalar } from 'yaml';
import type { AuditStore } from '../server/src/cosmos/audit-store.js';
import { encodeCursor } from '../server/src/lib/cursor.js';
import { sha256Hex } from '../server/src/lib/hash.js';
import { analyticsCsv } from '../server/src/services/analytics/analytics-csv.js';
import type { AnalyticsService } from '../server/src/services/analytics/analytics-service.js';
import { AuditExporter } from '../server/src/services/audit/audit-export.js';
import { Pseudonyms } from '../server/src/services/audit/pseudonyms.js';
import { LocalTokens } from '../server/src/services/auth/local-tokens.js';
import type { Caller } from '../server/src/services/call-context.js';

type Path = (string | number)[];
export interface Derived {
  path: Path;
  value: unknown;
}

export const specFile = fileURLToPath(new URL('../contract/openapi.yaml', import.meta.url));
/** Keys the examples are computed with; they sign and pseudonymize nothing real. */
export const exampleKeys = {
  localTokenSecret: 'groundcheck-example-signing-key (not a secret)',
  pseudonymSecret: Buffer.from('groundcheck-example-pseudonym-key (not a secret)'),
};

const examples = ['components', 'examples'];
const loginExample = ['paths', '/auth/login', 'post', 'responses', '200', 'content', 'application/json', 'example'];
const meExample = ['paths', '/auth/me', 'post', 'responses', '200', 'content', 'application/json', 'example'];
const validateRequests = ['paths', '/api/v1/validate', 'post', 'requestBody', 'content', 'application/json', 'examples'];
const auditCsvExample = ['paths', '/api/v1/audit/export', 'post', 'responses', '200', 'content', 'text/csv', 'example'];
const analyticsCsvExample = ['paths', '/api/v1/analytics/csv', 'post', 'responses', '200', 'content', 'text/csv', 'example'];

/** The node at `path`, typed by the caller: the examples are validated against their schemas by another test. */
function at<T>(spec: unknown, path: Path): T {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown> | undefined)?.[key], spec) as T;
}

async function text(body: AsyncIterable<string>): Promise<string> {
  let all = '';
  for await (const chunk of body) all += chunk;
  return all;
}

/** Every computed example value, at its path in openapi.yaml. */
export async function derivedExamples(spec: unknown): Promise<Derived[]> {
  const derived: Derived[] = [];
  const value = <T>(name: string): T => structuredClone(at<T>(spec, [...examples, name, 'value']));

  // The inline source's hash in each mode's result: SHA-256 of the request's inline_text.
  for (const [result, request] of [
    ['ValidateResult', 'validate'],
    ['ValidateAndFixResult', 'validate_and_fix'],
  ] as const) {
    const inline = at<string>(spec, [...validateRequests, request, 'value', 'inline_text']);
    const sources = at<SourceUsed[]>(spec, [...examples, result, 'value', 'sources']);
    for (const [i, source] of sources.entries()) {
      if (source.kind === 'inline_text')
        derived.push({ path: [...examples, result, 'value', 'sources', i, 'sha256'], value: sha256Hex(inline) });
    }
  }

  // The audit trail of the validate example: its facts, then the hash chain over them.
  const request = at<ValidateModeRequest>(spec, [...validateRequests, 'validate', 'value']);
  const result = value<ValidateModeResult>('ValidateResult');
  const inlineHash = sha256Hex(request.inline_text ?? '');
  const events = value<RawAuditExport>('AuditExportRaw').events;
  for (const [i, event] of events.entries()) {
    if (event.kind === 'validation_created') {
      event.data.request_summary = {
        question_chars: request.question.length,
        response_chars: request.chatbot_response.length,
        source_group_count: request.source_groups?.length ?? 0,
        url_count: request.urls?.length ?? 0,
        inline_text_chars: request.inline_text?.length ?? 0,
      };
      event.data.sources = result.sources.map(({ reference, kind, sha256 }) => ({
        reference,
        sha256: kind === 'inline_text' ? inlineHash : sha256,
      }));
    }
    if (i > 0) event.prev_hash = events[i - 1]!.hash;
    const { hash: _hash, expires_at: _expiresAt, ...hashed } = event;
    event.hash = sha256Hex(event.prev_hash + canonicalJson(hashed));
  }

  // A page of the first two events: the cursor the store's paging hands out after sequence 42.
  const page = value<AuditEventPage>('AuditEventPage');
  const pageEvents = events.slice(0, page.data.length);
  derived.push({ path: [...examples, 'AuditEventPage', 'value', 'data'], value: pageEvents });
  derived.push({
    path: [...examples, 'AuditEventPage', 'value', 'next_cursor'],
    value: encodeCursor('after', pageEvents.at(-1)!.sequence),
  });

  // The exports of those events, written by the server's exporter.
  const enterprise = value<EnterpriseAuditExport>('AuditExportEnterprise');
  const exported = async (format: 'json' | 'csv', profile: 'enterprise_v1' | 'raw') => {
    const store = {
      async *events() {
        yield events;
      },
      readPseudonymSecret: async () => exampleKeys.pseudonymSecret,
    } as unknown as AuditStore;
    const ctx = {
      tenant: { customerId: enterprise.customer_id },
      clock: { now: () => new Date(enterprise.generated_at) },
    } as unknown as Caller;
    const file = await new AuditExporter(store, new Pseudonyms(store)).open(ctx, {
      format,
      profile,
      date_from: enterprise.date_from,
      date_to: enterprise.date_to,
    });
    return text(file.body);
  };
  derived.push({ path: [...examples, 'AuditExportEnterprise', 'value'], value: JSON.parse(await exported('json', 'enterprise_v1')) });
  derived.push({ path: [...examples, 'AuditExportRaw', 'value'], value: JSON.parse(await exported('json', 'raw')) });
  derived.push({ path: auditCsvExample, value: await exported('csv', 'enterprise_v1') });

  // The analytics example's daily series as the CSV download writes it.
  const analytics = { analytics: async () => value('Analytics') } as unknown as AnalyticsService;
  const csv = await analyticsCsv(analytics, {} as Caller, {});
  derived.push({ path: analyticsCsvExample, value: await text(csv.body) });

  // The login token: a local token of the signed-in admin, expiring at the example's expires_at.
  const login = at<LoginResponse>(spec, loginExample);
  const me = at<Me>(spec, meExample);
  const expiresAt = new Date(login.expires_at);
  const issued = await new LocalTokens(exampleKeys.localTokenSecret).issue(
    me.principal.id,
    me.customer.customer_id,
    0,
    new Date(expiresAt.getTime() - login.expires_in * 1000),
  );
  derived.push({ path: [...loginExample, 'token'], value: issued.token });
  derived.push({ path: [...meExample, 'expires_at'], value: login.expires_at });
  return derived;
}

export interface Difference {
  path: Path;
  expected: unknown;
  actual: unknown;
}

/** Leaves that differ between what the examples hold and what they should hold. */
export function differences(spec: unknown, derived: Derived[]): Difference[] {
  const found: Difference[] = [];
  const walk = (path: Path, expected: unknown, actual: unknown) => {
    if (expected !== null && typeof expected === 'object' && actual !== null && typeof actual === 'object') {
      const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
      for (const key of keys) {
        const step = Array.isArray(expected) ? Number(key) : key;
        walk([...path, step], (expected as Record<string, unknown>)[key], (actual as Record<string, unknown>)[key]);
      }
    } else if (expected !== actual) {
      found.push({ path, expected, actual });
    }
  };
  for (const { path, value } of derived) walk(path, value, at(spec, path));
  // Derived values may overlap (an export holds the events of the page); each leaf is listed once.
  const seen = new Set<string>();
  return found.filter((d) => !seen.has(JSON.stringify(d.path)) && seen.add(JSON.stringify(d.path)));
}

/**
 * Writes the differing scalars into the YAML text in place, keeping every other byte. A difference
 * in shape (a missing field, another number of items) is left to a person and reported.
 */
export function rewrite(source: string, diffs: Difference[]): { text: string; unwritable: Difference[] } {
  const doc = parseDocument(source);
  const edits: { start: number; end: number; text: string }[] = [];
  const unwritable: Difference[] = [];
  for (const diff of diffs) {
    const node = doc.getIn(diff.path, true);
    const scalarValue = typeof diff.expected === 'string' || typeof diff.expected === 'number' || typeof diff.expected === 'boolean';
    if (!isScalar(node) || !node.range || !scalarValue) {
      unwritable.push(diff);
      continue;
    }
    edits.push({ start: node.range[0], end: node.range[1], text: scalarText(node, diff.expected as string | number | boolean) });
  }
  let text = source;
  for (const edit of edits.sort((a, b) => b.start - a.start)) text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
  return { text, unwritable };
}

/** The value written in the node's own quoting style where it can be read back unchanged. */
function scalarText(node: Scalar, value: string | number | boolean): string {
  if (typeof value !== 'string') return String(value);
  const candidates =
    node.type === Scalar.QUOTE_DOUBLE || /[\r\n\t]/.test(value)
      ? [JSON.stringify(value)]
      : node.type === Scalar.PLAIN
        ? [value, `'${value.replaceAll("'", "''")}'`]
        : [`'${value.replaceAll("'", "''")}'`];
  return candidates.find((candidate) => parse(candidate) === value) ?? JSON.stringify(value);
}

const show = (value: unknown) => (typeof value === 'string' ? JSON.stringify(value).slice(0, 100) : String(value));

async function main() {
  const source = readFileSync(specFile, 'utf8');
  const diffs = differences(parse(source), await derivedExamples(parse(source)));
  if (!process.argv.includes('--write')) {
    for (const d of diffs) console.log(`${d.path.join(' › ')}: ${show(d.actual)} should be ${show(d.expected)}`);
    console.log(diffs.length === 0 ? 'The computed examples are up to date.' : `${diffs.length} values differ; run with --write.`);
    process.exitCode = diffs.length === 0 ? 0 : 1;
    return;
  }
  const { text, unwritable } = rewrite(source, diffs);
  writeFileSync(specFile, text);
  console.log(`Rewrote ${diffs.length - unwritable.length} values.`);
  for (const d of unwritable) console.log(`Edit by hand (another shape): ${d.path.join(' › ')} should be ${show(d.expected)}`);
  process.exitCode = unwritable.length === 0 ? 0 : 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
