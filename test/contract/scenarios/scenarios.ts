// The contract scenarios: one suite, written against the SDK as an integrator would use it, run
// against the mock (mock.test.ts) and against the reference server behind Prism's validating
// proxy (server.test.ts). Each step is a real call; the recorder checks every answer against the
// contract and counts which operation answered which status.
//
// An error step states the status it expects. On the server the request itself earns it (a wrong
// role, an unknown id, a name taken); the mock verifies nothing, so the same request carries
// `Prefer: code=<status>` and gets the documented problem (the server ignores that header). State
// is asserted only on the server (`target.live`): the mock answers every call from the examples.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { createClient, type GroundcheckClient, GroundcheckError, type RequestOptions, verifyAuditChain } from '../../../sdk/src/index.js';
import { email, password } from '../../../server/test/support/fixtures.js';
import type { Recorder } from './recorder.js';

export interface Target {
  /** True for the reference server: state persists between calls and may be asserted. */
  live: boolean;
  /** Where contract-valid calls go: the mock, or Prism's proxy in front of the server. */
  url: string;
  /**
   * Where calls the contract itself rejects go. A validating proxy answers those itself (422), so
   * on the server side they go to the server directly; the recorder still checks each answer.
   */
  invalidUrl: string;
  recorder: Recorder;
  /** A well-formed API key of acme's admin. */
  apiKey: { customerId: string; apiKey: string };
}

type Call = (client: GroundcheckClient, options: RequestOptions) => Promise<unknown>;
type Principal = 'admin' | 'user' | 'viewer' | 'globex';

// Ids of the contract's examples: valid in form, unknown to a fresh server.
const ids = {
  template: 'tpl_01JD3XC4D5E6F7G8H9J0K1M2N3',
  validation: 'val_01JD3X8Q5Z7M2N4P6R8T0V2W4Y',
  group: 'grp_01JD3XA1B2C3D4E5F6G7H8J9K0',
  file: 'fil_01JD3XB7C8D9E0F1G2H3J4K5M6',
  user: 'usr_01JD3XD5E6F7G8H9J0K1M2N3P4',
};
const unique = () => Math.random().toString(36).slice(2, 10);
const policy = 'Full-time employees are entitled to 25 days of paid leave per calendar year.';
const validateBody = { mode: 'validate' as const, question: 'How many days of leave?', chatbot_response: '30 days.', inline_text: policy };

/**
 * Every operation with a contract-valid call and, where a lower principal is refused, which one.
 * The guard tests below send these with no valid credentials (401) and as that principal (403).
 */
const calls: Record<string, { call: Call; path: string; refused?: Principal }> = {
  login: {
    path: '/auth/login',
    call: (c, o) => c.auth.login({ email: email('acme', 'user'), password: password('acme', 'user'), customer_id: 'acme' }, o),
  },
  getMe: { path: '/auth/me', call: (c, o) => c.auth.me(o) },
  getHealth: { path: '/healthz', call: (c, o) => c.raw.GET('/healthz', { headers: o.headers }) },
  getReadiness: { path: '/readyz', call: (c, o) => c.raw.GET('/readyz', { headers: o.headers }) },
  validate: { path: '/api/v1/validate', refused: 'viewer', call: (c, o) => c.validate(validateBody, o) },
  listTemplates: { path: '/api/v1/templates', refused: 'globex', call: (c, o) => c.templates.list(o) },
  getTemplateUploadUrl: {
    path: '/api/v1/templates/upload-url',
    refused: 'globex',
    call: (c, o) => c.templates.getUploadUrl({ name: 'Leave', file_name: 'leave.md', content_type: 'text/markdown', size_bytes: 10 }, o),
  },
  getTemplate: { path: `/api/v1/templates/${ids.template}`, refused: 'globex', call: (c, o) => c.templates.get(ids.template, o) },
  scanTemplate: { path: `/api/v1/templates/${ids.template}/scan`, refused: 'globex', call: (c, o) => c.templates.scan(ids.template, o) },
  saveTemplate: {
    path: `/api/v1/templates/${ids.template}/save`,
    refused: 'globex',
    call: (c, o) => c.templates.save(ids.template, { active: false }, o),
  },
  deleteTemplate: {
    path: `/api/v1/templates/${ids.template}/delete`,
    refused: 'globex',
    call: (c, o) => c.templates.delete(ids.template, o),
  },
  listSourceGroups: { path: '/api/v1/sources', call: (c, o) => c.sources.list(o) },
  getSourceUploadUrl: {
    path: '/api/v1/sources/upload-url',
    refused: 'user',
    call: (c, o) => c.sources.getUploadUrl({ group_id: ids.group, file_name: 'h.md', content_type: 'text/markdown', size_bytes: 10 }, o),
  },
  saveSourceGroup: {
    path: '/api/v1/sources/group/save',
    refused: 'user',
    call: (c, o) => c.sources.saveGroup({ name: `Refused ${unique()}`, allowed_roles: ['hr'] }, o),
  },
  deleteSourceGroup: {
    path: '/api/v1/sources/group/delete',
    refused: 'user',
    call: (c, o) => c.sources.deleteGroup({ group_id: ids.group }, o),
  },
  deleteSourceFile: {
    path: '/api/v1/sources/file/delete',
    refused: 'user',
    call: (c, o) => c.sources.deleteFile({ group_id: ids.group, file_id: ids.file }, o),
  },
  listHistory: { path: '/api/v1/history', call: (c, o) => c.history.list({}, o) },
  reviewValidation: {
    path: `/api/v1/history/${ids.validation}/review`,
    refused: 'viewer',
    call: (c, o) => c.history.review(ids.validation, { action: 'approve', note: 'Checked against the handbook.' }, o),
  },
  getStats: { path: '/api/v1/stats', call: (c, o) => c.stats(o) },
  getAnalytics: { path: '/api/v1/analytics', call: (c, o) => c.analytics.get({}, o) },
  getAnalyticsCsv: { path: '/api/v1/analytics/csv', call: (c, o) => c.analytics.csv({}, o) },
  listAuditEvents: { path: '/api/v1/audit', refused: 'globex', call: (c, o) => c.audit.list({}, o) },
  exportAuditEvents: { path: '/api/v1/audit/export', refused: 'globex', call: (c, o) => c.audit.export({}, o) },
  getSystemCard: { path: '/api/v1/system-card', refused: 'globex', call: (c, o) => c.systemCard(o) },
  applyOperatingPoint: { path: '/api/v1/engine/operating-point', refused: 'user', call: (c, o) => c.engine.applyOperatingPoint(o) },
  listUsers: { path: '/api/v1/saas/users', refused: 'user', call: (c, o) => c.saas.users.list({}, o) },
  saveUser: { path: '/api/v1/saas/users/save', refused: 'user', call: (c, o) => c.saas.users.save({ user_id: ids.user, name: 'N' }, o) },
  deleteUser: { path: '/api/v1/saas/users/delete', refused: 'user', call: (c, o) => c.saas.users.delete({ user_id: ids.user }, o) },
  getBillingPortal: { path: '/api/v1/saas/billing-portal', refused: 'user', call: (c, o) => c.saas.billingPortal({}, o) },
  exportAccount: { path: '/api/v1/account/export', refused: 'user', call: (c, o) => c.account.export(o) },
  // Another tenant's confirmation: were the role check ever skipped, nothing would be deleted.
  deleteAccount: {
    path: '/api/v1/account/delete',
    refused: 'user',
    call: (c, o) => c.account.delete({ confirmation: 'DELETE globex' }, o),
  },
};

/** The operationIds the table above covers (the coverage test compares them with the contract). */
export const tabledOperations = Object.keys(calls);

export function scenarios(target: () => Target): void {
  let t: Target;
  let as: Record<Principal, GroundcheckClient>;
  let byKey: GroundcheckClient;
  let anonymous: GroundcheckClient;
  let badToken: GroundcheckClient;

  const client = (token?: string, baseUrl?: string) => {
    const common = { baseUrl: baseUrl ?? t.url, fetch: t.recorder.fetch, maxRetries: 0 };
    return token === undefined ? createClient(common) : createClient({ ...common, token });
  };
  const signIn = async (customerId: string, role: 'admin' | 'user' | 'viewer') => {
    const login = await anonymous.auth.login({
      email: email(customerId, role),
      password: password(customerId, role),
      customer_id: customerId,
    });
    assert.equal(login.token_type, 'Bearer');
    return client(login.token);
  };

  /** Runs the call, which must fail with `status`; returns the SDK's error. */
  const rejects = async (status: number, call: (options: RequestOptions) => Promise<unknown>): Promise<GroundcheckError> => {
    const error = await call({ headers: { prefer: `code=${status}` } }).then(
      () => assert.fail(`expected ${status}, the call succeeded`),
      (e: unknown) => e,
    );
    assert.ok(error instanceof GroundcheckError, String(error));
    assert.equal(error.status, status, `${error.code}: ${error.message}`);
    assert.match(error.requestId ?? '', /^req_/);
    return error;
  };
  /** On the server, the problem's code too (the mock answers the contract's first example of the status). */
  const code = (error: GroundcheckError, expected: string) => {
    if (t.live) assert.equal(error.code, expected, error.message);
  };

  before(async () => {
    t = target();
    anonymous = client();
    badToken = client('not-a-jwt');
    byKey = createClient({ baseUrl: t.url, ...t.apiKey, fetch: t.recorder.fetch, maxRetries: 0 });
    as = {
      admin: await signIn('acme', 'admin'),
      user: await signIn('acme', 'user'),
      viewer: await signIn('acme', 'viewer'),
      globex: await signIn('globex', 'admin'),
    };
  });

  describe('auth and health', () => {
    test('me with a token and with an API key', async () => {
      const me = await as.admin.auth.me();
      assert.equal(me.customer.customer_id, 'acme');
      if (t.live) assert.equal(me.role, 'admin');
      const viaKey = await byKey.auth.me();
      if (t.live) assert.equal(viaKey.authentication, 'api_key');
    });

    test('a wrong password is 401, a tenant without local login 404', async () => {
      const wrong = await rejects(401, (o) =>
        anonymous.auth.login({ email: email('acme', 'user'), password: 'not-the-password', customer_id: 'acme' }, o),
      );
      code(wrong, 'invalid_credentials');
      const oidc = await rejects(404, (o) =>
        anonymous.auth.login({ email: 'someone@initech.test', password: 'a-password-long-enough', customer_id: 'initech' }, o),
      );
      code(oidc, 'local_login_disabled');
    });

    test('health and readiness', async () => {
      const health = await as.admin.raw.GET('/healthz');
      assert.equal(health.response.status, 200);
      const ready = await as.admin.raw.GET('/readyz');
      assert.equal(ready.response.status, 200);
    });
  });

  describe('validation and review', () => {
    test('each mode, an idempotent replay, and a key reused for another body (409)', async () => {
      const results = [
        await as.user.validate(validateBody),
        await as.user.validate({ mode: 'generate', question: 'How many days of leave?', inline_text: policy }),
        await as.user.validate({ ...validateBody, mode: 'validate_and_fix' }),
      ];
      assert.deepEqual(
        results.map((r) => r.mode),
        ['validate', 'generate', 'validate_and_fix'],
      );
      const key = `scenario-${unique()}`;
      const first = await as.user.validate(validateBody, { idempotencyKey: key });
      const again = await as.user.validate(validateBody, { idempotencyKey: key });
      if (t.live) assert.equal(again.validation_id, first.validation_id);
      const reused = await rejects(409, (o) =>
        as.user.validate({ ...validateBody, question: 'Another question?' }, { ...o, idempotencyKey: key }),
      );
      code(reused, 'idempotency_key_reused');
    });

    test('a key sent again with another request answers 409 on the other operations that take one', async () => {
      const other = {
        template: 'tpl_01JD3XC4D5E6F7G8H9J0K1M2N4',
        group: 'grp_01JD3XA1B2C3D4E5F6G7H8J9K1',
        file: 'fil_01JD3XB7C8D9E0F1G2H3J4K5M7',
      };
      const pairs: [(o: RequestOptions) => Promise<unknown>, (o: RequestOptions) => Promise<unknown>][] = [
        [(o) => as.admin.templates.delete(ids.template, o), (o) => as.admin.templates.delete(other.template, o)],
        [
          (o) => as.admin.sources.deleteGroup({ group_id: ids.group }, o),
          (o) => as.admin.sources.deleteGroup({ group_id: other.group }, o),
        ],
        [
          (o) => as.admin.sources.deleteFile({ group_id: ids.group, file_id: ids.file }, o),
          (o) => as.admin.sources.deleteFile({ group_id: ids.group, file_id: other.file }, o),
        ],
        [
          (o) => as.admin.saas.billingPortal({ return_url: 'https://app.acme.example/billing' }, o),
          (o) => as.admin.saas.billingPortal({ return_url: 'https://app.acme.example/settings' }, o),
        ],
      ];
      for (const [first, second] of pairs) {
        const key = `scenario-${unique()}`;
        // The first outcome (a 404 for an unknown id is one) is kept under the key.
        await first({ headers: { 'Idempotency-Key': key } }).catch(() => undefined);
        const reused = await rejects(409, (o) => second({ ...o, headers: { ...o.headers, 'Idempotency-Key': key } }));
        code(reused, 'idempotency_key_reused');
      }
    });

    test('a validation pending review is approved with a note, once', async () => {
      const result = await as.user.validate(validateBody);
      const pending = await as.viewer.history.list({ review_state: 'pending_review' });
      assert.ok(pending.data.length > 0);
      if (t.live) assert.ok(pending.data.some((r) => r.validation_id === result.validation_id));
      const approved = await as.user.history.review(result.validation_id, { action: 'approve', note: 'Matches the handbook.' });
      assert.equal(approved.review.state, 'approved');
      const twice = await rejects(409, (o) => as.user.history.review(result.validation_id, { action: 'approve', note: 'Again.' }, o));
      assert.equal(twice.status, 409);
      await rejects(404, (o) => as.user.history.review(ids.validation, { action: 'approve', note: 'Unknown.' }, o));
      for await (const record of as.viewer.history.iterate({ limit: 1 })) {
        assert.match(record.validation_id, /^val_/);
        break;
      }
    });
  });

  describe('templates', () => {
    test('upload, scan, activate, read, delete; and the conflicts and misses on the way', async () => {
      const text = '# Leave\n\n{{employee_name}} gets {{leave_days}} days.\n';
      const created = await as.admin.templates.getUploadUrl({
        name: `Leave ${unique()}`,
        file_name: 'leave.md',
        content_type: 'text/markdown',
        size_bytes: Buffer.byteLength(text),
      });
      const unscanned = await as.admin.templates.getUploadUrl({
        name: `Draft ${unique()}`,
        file_name: 'draft.md',
        content_type: 'text/markdown',
      });
      code(await rejects(409, (o) => as.admin.templates.scan(unscanned.template_id, o)), 'template_not_uploaded');
      code(await rejects(409, (o) => as.admin.templates.save(unscanned.template_id, { active: true }, o)), 'template_not_scanned');

      const put = await t.recorder.fetch(new Request(created.upload_url, { method: created.method, headers: created.headers, body: text }));
      assert.ok(put.ok, `upload: ${put.status}`);
      const scanned = await as.admin.templates.scan(created.template_id);
      if (t.live) assert.deepEqual(scanned.placeholders.map((p) => p.name ?? p).sort(), ['employee_name', 'leave_days']);
      const saved = await as.admin.templates.save(created.template_id, { active: true });
      if (t.live) assert.equal(saved.active, true);
      const read = await as.admin.templates.get(created.template_id);
      assert.match(read.template_id, /^tpl_/);
      const list = await as.admin.templates.list();
      if (t.live) assert.ok(list.data.some((x) => x.template_id === created.template_id));

      for (const id of [unscanned.template_id, created.template_id]) {
        const deleted = await as.admin.templates.delete(id);
        assert.equal(deleted.deleted, true);
      }
      await rejects(404, (o) => as.admin.templates.get(created.template_id, o));
      await rejects(404, (o) => as.admin.templates.scan(created.template_id, o));
      await rejects(404, (o) => as.admin.templates.save(created.template_id, { active: false }, o));
      await rejects(404, (o) => as.admin.templates.delete(created.template_id, o));
    });
  });

  describe('sources', () => {
    test('a group with a file: create, upload, list, delete; a name taken, unknown ids', async () => {
      const name = `HR policies ${unique()}`;
      const group = await as.admin.sources.saveGroup({ name, allowed_roles: ['hr'] });
      assert.match(group.group_id, /^grp_/);
      code(await rejects(409, (o) => as.admin.sources.saveGroup({ name, allowed_roles: ['hr'] }, o)), 'group_name_taken');
      await rejects(404, (o) => as.admin.sources.saveGroup({ group_id: ids.group, name: `Other ${unique()}` }, o));
      await rejects(404, (o) =>
        as.admin.sources.getUploadUrl({ group_id: ids.group, file_name: 'h.md', content_type: 'text/markdown', size_bytes: 10 }, o),
      );

      const upload = await as.admin.sources.uploadFile(group.group_id, 'handbook.md', `# Handbook\n\n${policy}\n`);
      assert.match(upload.file_id, /^fil_/);
      const list = await as.admin.sources.list();
      if (t.live) assert.ok(list.data.find((g) => g.group_id === group.group_id)?.files.some((f) => f.file_id === upload.file_id));

      const file = { group_id: group.group_id, file_id: upload.file_id };
      assert.equal((await as.admin.sources.deleteFile(file)).deleted, true);
      await rejects(404, (o) => as.admin.sources.deleteFile(file, o));
      assert.equal((await as.admin.sources.deleteGroup({ group_id: group.group_id })).deleted, true);
      await rejects(404, (o) => as.admin.sources.deleteGroup({ group_id: group.group_id }, o));
    });
  });

  describe('analytics and audit', () => {
    test('stats, analytics as JSON and CSV', async () => {
      const stats = await as.viewer.stats();
      assert.equal(typeof stats.validations.this_month, 'number');
      const analytics = await as.viewer.analytics.get({});
      assert.ok(Array.isArray(analytics.daily));
      const csv = await as.viewer.analytics.csv({});
      assert.match(csv, /^date,validations,/);
      assert.ok(csv.includes('\r\n'), 'CSV lines end in CRLF');
    });

    test('the audit trail: a page whose hash chain verifies, an export as JSON and CSV, the system card', async () => {
      const page = await as.admin.audit.list({ limit: 20 });
      assert.ok(page.data.length > 0);
      const chain = await verifyAuditChain(page.data);
      assert.ok(chain.valid, JSON.stringify(chain));
      for await (const event of as.admin.audit.iterate({ limit: 1 })) {
        assert.equal(typeof event.sequence, 'number');
        break;
      }
      const exported = await as.admin.audit.export({ days: 30 });
      assert.equal(exported.profile, 'enterprise_v1');
      // The mock picks the response example by name; the server ignores the header.
      const raw = await as.admin.audit.export({ days: 30, profile: 'raw' }, { headers: { prefer: 'example=raw' } });
      assert.ok(raw.profile === 'raw' && (await verifyAuditChain(raw.events)).valid);
      const csv = await as.admin.audit.export({ format: 'csv', days: 30 });
      assert.match(csv, /^[a-z_]+(,[a-z_]+)+\r\n/);
      const card = await byKey.systemCard();
      assert.equal(typeof card.service.version, 'string');
    });

    // On the server, acme's decided reviews are seeded to call for another point (server.test.ts).
    test('the operating point fitted to the reviews: applied once and audited, then nothing better (409)', async () => {
      const applied = await as.admin.engine.applyOperatingPoint();
      assert.equal(applied.fitted_to_tenant, true);
      assert.equal(applied.supported_score, applied.fit?.supported_score);
      code(await rejects(409, (o) => as.admin.engine.applyOperatingPoint(o)), 'no_better_operating_point');
      if (!t.live) return;
      const card = await as.viewer.systemCard();
      assert.deepEqual(card.operating_point, {
        supported_score: applied.supported_score,
        fitted_to_tenant: true,
        applied_at: applied.applied_at,
        calibration: 'suggest',
      });
      const events = [];
      for await (const event of as.admin.audit.iterate({ limit: 100 })) events.push(event);
      assert.equal(events.filter((event) => event.kind === 'operating_point_applied').length, 1);
      const chain = await verifyAuditChain(events);
      assert.ok(chain.valid, JSON.stringify(chain));
    });
  });

  describe('users, billing, account', () => {
    test('a user created, renamed, removed; an email taken, unknown ids, the last admin kept', async () => {
      const address = `scenario-${unique()}@acme.test`;
      const user = await as.admin.saas.users.save({
        email: address,
        role: 'user',
        name: 'Scenario User',
        password: 'a-long-initial-password',
      });
      assert.match(user.user_id, /^usr_/);
      const renamed = await as.admin.saas.users.save({ user_id: user.user_id, name: 'Renamed' });
      if (t.live) assert.equal(renamed.name, 'Renamed');
      code(await rejects(409, (o) => as.admin.saas.users.save({ email: address, role: 'viewer' }, o)), 'email_taken');
      await rejects(404, (o) => as.admin.saas.users.save({ user_id: ids.user, name: 'Nobody' }, o));
      for await (const listed of as.admin.saas.users.iterate({ limit: 1 })) {
        assert.match(listed.user_id, /^usr_/);
        break;
      }
      assert.equal((await as.admin.saas.users.delete({ user_id: user.user_id })).deleted, true);
      await rejects(404, (o) => as.admin.saas.users.delete({ user_id: user.user_id }, o));
      const me = await as.admin.auth.me();
      code(await rejects(409, (o) => as.admin.saas.users.delete({ user_id: me.principal.id }, o)), 'last_admin');
    });

    test('the billing portal where configured, 404 where not', async () => {
      const session = await as.admin.saas.billingPortal({ return_url: 'https://app.acme.example/settings/billing' });
      assert.match(session.url, /^https:\/\//);
      code(await rejects(404, (o) => as.globex.saas.billingPortal({}, o)), 'billing_not_configured');
    });

    test("the tenant's data as a ZIP", async () => {
      const zip = await as.admin.account.export();
      assert.ok((await new Response(zip.body).arrayBuffer()).byteLength > 0);
    });
  });

  describe('guards on every operation', () => {
    test('a body the contract rejects: 400 with the documented problem', async () => {
      const admin = client(await adminToken(), t.invalidUrl);
      for (const [operationId, { path }] of Object.entries(calls)) {
        if (path === '/healthz' || path === '/readyz') continue;
        // The raw client, because the typed methods cannot send a field the contract does not know.
        const raw = admin.raw as unknown as {
          POST(path: string, init: object): Promise<{ response: Response; error?: { code?: string } }>;
        };
        const { response, error } = await raw.POST(path, { body: { unexpected_field: true } });
        assert.equal(response.status, 400, operationId);
        assert.equal(error?.code, 'invalid_request', operationId);
      }
    });

    test('no valid credentials: 401', async () => {
      for (const [operationId, { call }] of Object.entries(calls)) {
        if (['login', 'getHealth', 'getReadiness'].includes(operationId)) continue;
        const error = await rejects(401, (o) => call(badToken, o));
        code(error, 'invalid_token');
      }
    });

    test('a role too low or a feature off: 403', async () => {
      for (const { call, refused } of Object.values(calls)) {
        if (!refused) continue;
        const error = await rejects(403, (o) => call(as[refused], o));
        code(error, refused === 'globex' ? 'feature_disabled' : 'insufficient_role');
      }
    });
  });

  // Last: it removes all of globex's data.
  describe('account deletion', () => {
    test("deletes the tenant's data with the exact confirmation", async () => {
      const deleted = await as.globex.account.delete({ confirmation: 'DELETE globex' });
      assert.equal(deleted.deleted, true);
      if (t.live) assert.equal(deleted.customer_id, 'globex');
    });
  });

  async function adminToken(): Promise<string> {
    const { token } = await anonymous.auth.login({
      email: email('acme', 'admin'),
      password: password('acme', 'admin'),
      customer_id: 'acme',
    });
    return token;
  }
}
