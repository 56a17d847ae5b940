// Every method against a recording loopback server: the path, the body and where the credentials go.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { parse } from 'yaml';
import { createClient, type GroundcheckClient, sourceContentTypes } from '../src/index.js';
import { json, type Loopback, type Recorded, startLoopback } from './support/loopback.js';

const apiKey = 'gck_Ab12Cd34_0123456789abcdefghijklmnopqrstuv';
const token = 'token-of-a-signed-in-user';
const templateId = 'tpl_01JD3XC4D5E6F7G8H9J0K1M2N3';
const validationId = 'val_01JD3X8Q5Z7M2N4P6R8T0V2W4Y';
const groupId = 'grp_01JD3XA1B2C3D4E5F6G7H8J9K0';
const fileId = 'fil_01JD3XB7C8D9E0F1G2H3J4K5M6';
const userId = 'usr_01JD3XD5E6F7G8H9J0K1M2N3P4';
const validation = { mode: 'validate', question: 'Q?', chatbot_response: 'A.', inline_text: 'Source.' } as const;
const zip = Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]);

let server: Loopback;

before(async () => {
  server = await startLoopback((request, res) => {
    const path = request.path;
    if (request.method === 'PUT') return void res.writeHead(201).end();
    if (path.endsWith('/analytics/csv') || (path.endsWith('/audit/export') && request.json?.format === 'csv')) {
      return void res.writeHead(200, { 'content-type': 'text/csv', 'x-request-id': 'req_csv' }).end('date,validations\n2026-11-20,3\n');
    }
    if (path.endsWith('/account/export'))
      return void res.writeHead(200, { 'content-type': 'application/zip', 'x-request-id': 'req_zip' }).end(zip);
    if (path.endsWith('/sources/upload-url')) {
      return json(res, 200, {
        group_id: groupId,
        file_id: fileId,
        upload_url: `${server.url}/upload/${fileId}?sig=REDACTED`,
        method: 'PUT',
        headers: { 'x-ms-blob-type': 'BlockBlob', 'Content-Type': request.json.content_type },
        expires_at: '2026-11-21T10:53:00Z',
      });
    }
    if (/\/(history|audit|saas\/users)$/.test(path)) return json(res, 200, { data: [], has_more: false, next_cursor: null });
    json(res, 200, { answered: path });
  });
});
after(() => server.close());

interface Case {
  name: string;
  call: (client: GroundcheckClient) => Promise<unknown>;
  path: string;
  /** The body the caller gave (undefined: none). */
  body?: Record<string, unknown>;
  /** The operation accepts API keys (`x-api-key: true`). */
  apiKey: boolean;
}

const cases: Case[] = [
  { name: 'validate', call: (c) => c.validate(validation), path: '/api/v1/validate', body: validation, apiKey: true },
  {
    name: 'auth.login',
    call: (c) => c.auth.login({ email: 'a@acme.test', password: 'pw', customer_id: 'acme' }),
    path: '/auth/login',
    body: { email: 'a@acme.test', password: 'pw', customer_id: 'acme' },
    apiKey: false,
  },
  { name: 'auth.me', call: (c) => c.auth.me(), path: '/auth/me', apiKey: true },
  { name: 'templates.list', call: (c) => c.templates.list(), path: '/api/v1/templates', apiKey: true },
  { name: 'templates.get', call: (c) => c.templates.get(templateId), path: `/api/v1/templates/${templateId}`, apiKey: true },
  {
    name: 'templates.getUploadUrl',
    call: (c) => c.templates.getUploadUrl({ name: 'Leave', file_name: 'leave.docx', content_type: 'text/markdown', size_bytes: 10 }),
    path: '/api/v1/templates/upload-url',
    body: { name: 'Leave', file_name: 'leave.docx', content_type: 'text/markdown', size_bytes: 10 },
    apiKey: true,
  },
  { name: 'templates.scan', call: (c) => c.templates.scan(templateId), path: `/api/v1/templates/${templateId}/scan`, apiKey: true },
  {
    name: 'templates.save',
    call: (c) => c.templates.save(templateId, { active: true }),
    path: `/api/v1/templates/${templateId}/save`,
    body: { active: true },
    apiKey: true,
  },
  { name: 'templates.delete', call: (c) => c.templates.delete(templateId), path: `/api/v1/templates/${templateId}/delete`, apiKey: true },
  { name: 'sources.list', call: (c) => c.sources.list(), path: '/api/v1/sources', apiKey: true },
  {
    name: 'sources.getUploadUrl',
    call: (c) => c.sources.getUploadUrl({ group_id: groupId, file_name: 'a.pdf', content_type: 'application/pdf', size_bytes: 5 }),
    path: '/api/v1/sources/upload-url',
    body: { group_id: groupId, file_name: 'a.pdf', content_type: 'application/pdf', size_bytes: 5 },
    apiKey: true,
  },
  {
    name: 'sources.saveGroup',
    call: (c) => c.sources.saveGroup({ name: 'HR', allowed_roles: ['hr'] }),
    path: '/api/v1/sources/group/save',
    body: { name: 'HR', allowed_roles: ['hr'] },
    apiKey: true,
  },
  {
    name: 'sources.deleteGroup',
    call: (c) => c.sources.deleteGroup({ group_id: groupId, purge_files: true }),
    path: '/api/v1/sources/group/delete',
    body: { group_id: groupId, purge_files: true },
    apiKey: true,
  },
  {
    name: 'sources.deleteFile',
    call: (c) => c.sources.deleteFile({ group_id: groupId, file_id: fileId }),
    path: '/api/v1/sources/file/delete',
    body: { group_id: groupId, file_id: fileId },
    apiKey: true,
  },
  {
    name: 'history.list',
    call: (c) => c.history.list({ mode: 'validate', limit: 10 }),
    path: '/api/v1/history',
    body: { mode: 'validate', limit: 10 },
    apiKey: true,
  },
  {
    name: 'history.iterate',
    call: (c) => collect(c.history.iterate({ review_state: 'pending_review' })),
    path: '/api/v1/history',
    body: { review_state: 'pending_review' },
    apiKey: true,
  },
  {
    name: 'history.review',
    call: (c) => c.history.review(validationId, { action: 'approve', note: 'Checked.' }),
    path: `/api/v1/history/${validationId}/review`,
    body: { action: 'approve', note: 'Checked.' },
    apiKey: true,
  },
  { name: 'stats', call: (c) => c.stats(), path: '/api/v1/stats', apiKey: true },
  {
    name: 'analytics.get',
    call: (c) => c.analytics.get({ date_from: '2026-11-01' }),
    path: '/api/v1/analytics',
    body: { date_from: '2026-11-01' },
    apiKey: true,
  },
  {
    name: 'analytics.csv',
    call: (c) => c.analytics.csv({ date_to: '2026-11-20' }),
    path: '/api/v1/analytics/csv',
    body: { date_to: '2026-11-20' },
    apiKey: true,
  },
  {
    name: 'audit.list',
    call: (c) => c.audit.list({ kinds: ['approved'], limit: 50 }),
    path: '/api/v1/audit',
    body: { kinds: ['approved'], limit: 50 },
    apiKey: true,
  },
  {
    name: 'audit.iterate',
    call: (c) => collect(c.audit.iterate({ validation_id: validationId })),
    path: '/api/v1/audit',
    body: { validation_id: validationId },
    apiKey: true,
  },
  {
    name: 'audit.export',
    call: (c) => c.audit.export({ profile: 'raw', days: 7 }),
    path: '/api/v1/audit/export',
    body: { profile: 'raw', days: 7 },
    apiKey: true,
  },
  {
    name: 'audit.export (csv)',
    call: (c) => c.audit.export({ format: 'csv' }),
    path: '/api/v1/audit/export',
    body: { format: 'csv' },
    apiKey: true,
  },
  { name: 'systemCard', call: (c) => c.systemCard(), path: '/api/v1/system-card', apiKey: true },
  {
    name: 'saas.users.list',
    call: (c) => c.saas.users.list({ role: 'admin' }),
    path: '/api/v1/saas/users',
    body: { role: 'admin' },
    apiKey: false,
  },
  {
    name: 'saas.users.iterate',
    call: (c) => collect(c.saas.users.iterate({ limit: 5 })),
    path: '/api/v1/saas/users',
    body: { limit: 5 },
    apiKey: false,
  },
  {
    name: 'saas.users.save',
    call: (c) => c.saas.users.save({ email: 'u@acme.test', role: 'user' }),
    path: '/api/v1/saas/users/save',
    body: { email: 'u@acme.test', role: 'user' },
    apiKey: false,
  },
  {
    name: 'saas.users.delete',
    call: (c) => c.saas.users.delete({ user_id: userId }),
    path: '/api/v1/saas/users/delete',
    body: { user_id: userId },
    apiKey: false,
  },
  {
    name: 'saas.billingPortal',
    call: (c) => c.saas.billingPortal({ return_url: 'https://app.acme.example/billing' }),
    path: '/api/v1/saas/billing-portal',
    body: { return_url: 'https://app.acme.example/billing' },
    apiKey: false,
  },
  { name: 'account.export', call: (c) => c.account.export(), path: '/api/v1/account/export', apiKey: false },
  {
    name: 'account.delete',
    call: (c) => c.account.delete({ confirmation: 'DELETE acme' }),
    path: '/api/v1/account/delete',
    body: { confirmation: 'DELETE acme' },
    apiKey: false,
  },
  {
    name: 'engine.applyOperatingPoint',
    call: (c) => c.engine.applyOperatingPoint(),
    path: '/api/v1/engine/operating-point',
    apiKey: false,
  },
];

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** Runs one call and returns the single request it made. */
async function sent(client: GroundcheckClient, call: Case['call']): Promise<Recorded> {
  const from = server.requests.length;
  await call(client);
  const requests = server.requests.slice(from);
  assert.equal(requests.length, 1, `one request, got ${requests.map((r) => r.path).join(', ')}`);
  return requests[0]!;
}

describe('with a bearer token', () => {
  const client = () => createClient({ baseUrl: server.url, token, maxRetries: 0 });

  for (const c of cases) {
    test(`${c.name} sends POST ${c.path} with the token in the Authorization header`, async () => {
      const request = await sent(client(), c.call);
      assert.equal(request.method, 'POST');
      assert.equal(request.path, c.path);
      assert.equal(request.headers.authorization, c.path === '/auth/login' ? undefined : `Bearer ${token}`);
      if (c.body === undefined) {
        assert.equal(request.body, '');
      } else {
        assert.equal(request.headers['content-type'], 'application/json');
        assert.deepEqual(request.json, c.body);
      }
    });
  }
});

describe('with an API key', () => {
  const client = () => createClient({ baseUrl: server.url, customerId: 'acme', apiKey, maxRetries: 0 });

  for (const c of cases) {
    const where = c.apiKey ? 'in the body' : 'nowhere (the operation does not accept API keys)';
    test(`${c.name} puts the key ${where}`, async () => {
      const request = await sent(client(), c.call);
      assert.equal(request.path, c.path);
      assert.equal(request.headers.authorization, undefined);
      assert.ok(!Object.values(request.headers).some((value) => String(value).includes(apiKey)), 'never in a header');
      assert.ok(!request.path.includes(apiKey), 'never in the URL');
      if (c.apiKey) {
        assert.equal(request.headers['content-type'], 'application/json');
        assert.deepEqual(request.json, { ...c.body, customer_id: 'acme', api_key: apiKey });
      } else if (c.body === undefined) {
        assert.equal(request.body, '');
      } else {
        assert.deepEqual(request.json, c.body);
      }
    });
  }
});

describe('the method table', () => {
  test('covers every operation of the contract', () => {
    const spec = parse(readFileSync(new URL('../../contract/openapi.yaml', import.meta.url), 'utf8')) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const contractPaths = Object.entries(spec.paths)
      .filter(([, item]) => item.post)
      .map(([path]) => path);
    const covered = new Set(cases.map((c) => c.path.replace(templateId, '{id}').replace(validationId, '{id}')));
    assert.deepEqual([...covered].sort(), [...contractPaths].sort());
    assert.equal(contractPaths.length, 29);
  });

  test('API-key injection follows x-api-key of the contract', () => {
    const spec = parse(readFileSync(new URL('../../contract/openapi.yaml', import.meta.url), 'utf8')) as {
      paths: Record<string, { post?: { 'x-api-key'?: boolean } }>;
    };
    for (const c of cases) {
      const path = c.path.replace(templateId, '{id}').replace(validationId, '{id}');
      assert.equal(spec.paths[path]!.post!['x-api-key'] === true, c.apiKey, path);
    }
  });
});

describe('results', () => {
  const client = () => createClient({ baseUrl: server.url, token });

  test('are the response data, with a non-enumerable lastResponse', async () => {
    const result = await client().templates.get(templateId);
    assert.deepEqual(result, { answered: `/api/v1/templates/${templateId}` });
    assert.deepEqual(Object.keys(result), ['answered']);
    assert.equal(JSON.stringify(result), JSON.stringify({ answered: `/api/v1/templates/${templateId}` }));
    assert.equal(result.lastResponse.status, 200);
    assert.match(result.lastResponse.requestId!, /^req_loopback/);
    assert.deepEqual(result.lastResponse.rateLimit, { limit: 120, remaining: 117, reset: 42 });
    assert.equal(result.lastResponse.headers.get('content-type'), 'application/json');
  });

  test('CSV comes back as text, its response on client.lastResponse', async () => {
    const c = client();
    const csv = await c.analytics.csv();
    assert.equal(csv, 'date,validations\n2026-11-20,3\n');
    assert.equal(c.lastResponse?.requestId, 'req_csv');
    assert.equal(c.lastResponse?.rateLimit, null);
    assert.equal(await c.audit.export({ format: 'csv', days: 1 }), csv);
    // The audit export answers JSON or CSV: the client asks for the one it will parse.
    assert.equal(server.requests.at(-1)!.headers.accept, 'text/csv, application/problem+json');
    await c.audit.export({ days: 1 }).catch(() => undefined);
    assert.equal(server.requests.at(-1)!.headers.accept, 'application/json, application/problem+json');
  });

  test('the account export comes back as a stream', async () => {
    const download = await client().account.export();
    assert.ok(download.body instanceof ReadableStream);
    assert.deepEqual(new Uint8Array(await new Response(download.body).arrayBuffer()), zip);
    assert.equal(download.lastResponse.requestId, 'req_zip');
  });

  test("the export's timeout covers only its start; the caller's signal cancels the download", async () => {
    // Headers at once, then the body a chunk every 100 ms for 600 ms: longer than the 300 ms timeout.
    const slow = await startLoopback(async (_request, res) => {
      res.writeHead(200, { 'content-type': 'application/zip', 'content-disposition': 'attachment; filename="acme-export.zip"' });
      for (let i = 0; i < 6; i++) {
        res.write(Buffer.from([i]));
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      res.end();
    });
    try {
      const slowClient = createClient({ baseUrl: slow.url, token, timeoutInMs: 300 });
      const download = await slowClient.account.export();
      assert.equal(download.fileName, 'acme-export.zip');
      assert.deepEqual([...new Uint8Array(await new Response(download.body).arrayBuffer())], [0, 1, 2, 3, 4, 5]);
      const controller = new AbortController();
      const cancelled = await slowClient.account.export({ abortSignal: controller.signal });
      const reader = cancelled.body.getReader();
      await reader.read();
      controller.abort();
      await assert.rejects(async () => {
        for (;;) if ((await reader.read()).done) break;
      });
    } finally {
      await slow.close();
    }
  });
});

describe('validate', () => {
  test('sends a fresh Idempotency-Key with every call', async () => {
    const client = createClient({ baseUrl: server.url, token });
    const first = await sent(client, (c) => c.validate(validation));
    const second = await sent(client, (c) => c.validate(validation));
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    assert.match(String(first.headers['idempotency-key']), uuid);
    assert.match(String(second.headers['idempotency-key']), uuid);
    assert.notEqual(first.headers['idempotency-key'], second.headers['idempotency-key']);
  });

  test("sends the caller's Idempotency-Key when given one", async () => {
    const client = createClient({ baseUrl: server.url, token });
    const request = await sent(client, (c) => c.validate(validation, { idempotencyKey: 'order-4711-check' }));
    assert.equal(request.headers['idempotency-key'], 'order-4711-check');
  });

  test('other operations carry no Idempotency-Key', async () => {
    const request = await sent(createClient({ baseUrl: server.url, token }), (c) => c.stats());
    assert.equal(request.headers['idempotency-key'], undefined);
  });
});

describe('sources.uploadFile', () => {
  const pdf = new TextEncoder().encode('%PDF-1.7 handbook');

  test('gets an upload URL, then PUTs the bytes there with its headers and no credentials', async () => {
    const client = createClient({ baseUrl: server.url, customerId: 'acme', apiKey });
    const from = server.requests.length;
    const upload = await client.sources.uploadFile(groupId, 'handbook.pdf', pdf);
    const [urlRequest, put] = server.requests.slice(from);
    assert.equal(server.requests.length - from, 2);
    assert.equal(urlRequest!.path, '/api/v1/sources/upload-url');
    assert.deepEqual(urlRequest!.json, {
      group_id: groupId,
      file_name: 'handbook.pdf',
      content_type: 'application/pdf',
      size_bytes: pdf.byteLength,
      customer_id: 'acme',
      api_key: apiKey,
    });
    assert.equal(put!.method, 'PUT');
    assert.equal(put!.path, `/upload/${fileId}?sig=REDACTED`);
    assert.equal(put!.body, '%PDF-1.7 handbook');
    assert.equal(put!.headers['x-ms-blob-type'], 'BlockBlob');
    assert.equal(put!.headers['content-type'], 'application/pdf');
    assert.equal(put!.headers.authorization, undefined);
    assert.ok(!put!.body.includes(apiKey) && !Object.values(put!.headers).some((v) => String(v).includes(apiKey)));
    assert.equal(upload.file_id, fileId);
    assert.equal(upload.lastResponse.status, 200);
  });

  test('takes the content type from a Blob, from options, or from the extension', async () => {
    const client = createClient({ baseUrl: server.url, token });
    const typeOf = async (name: string, data: Blob | string, contentType?: 'text/csv') => {
      const from = server.requests.length;
      await client.sources.uploadFile(groupId, name, data, contentType ? { contentType } : {});
      return server.requests[from]!.json.content_type as string;
    };
    assert.equal(await typeOf('notes', new Blob(['# Notes'], { type: 'text/markdown' })), 'text/markdown');
    assert.equal(await typeOf('export.txt', 'a,b', 'text/csv'), 'text/csv');
    assert.equal(await typeOf('Policy.DOCX', 'x'), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    await assert.rejects(client.sources.uploadFile(groupId, 'archive.zip', 'x'), /pass options.contentType/);
    // An extension that names something every object has is no content type either.
    await assert.rejects(client.sources.uploadFile(groupId, 'notes.constructor', 'x'), /pass options.contentType/);
    assert.equal(sourceContentTypes.get('md'), 'text/markdown');
  });

  test("counts a string's size in UTF-8 bytes", async () => {
    const client = createClient({ baseUrl: server.url, token });
    const from = server.requests.length;
    await client.sources.uploadFile(groupId, 'umlaut.txt', 'Grüße');
    assert.equal(server.requests[from]!.json.size_bytes, 7);
    assert.equal(server.requests[from + 1]!.body, 'Grüße');
  });
});

describe('client options', () => {
  test('a token function is called once per call', async () => {
    let calls = 0;
    const client = createClient({ baseUrl: server.url, token: async () => `fresh-${(calls += 1)}` });
    const first = await sent(client, (c) => c.stats());
    const second = await sent(client, (c) => c.stats());
    assert.equal(first.headers.authorization, 'Bearer fresh-1');
    assert.equal(second.headers.authorization, 'Bearer fresh-2');
  });

  test('headers of the client and of the call are both sent', async () => {
    const client = createClient({ baseUrl: server.url, token, headers: { 'X-Client-Tag': 'billing-service' } });
    const request = await sent(client, (c) => c.stats({ headers: { 'X-Call-Tag': 'nightly' } }));
    assert.equal(request.headers['x-client-tag'], 'billing-service');
    assert.equal(request.headers['x-call-tag'], 'nightly');
  });

  test('a baseUrl with a path prefix and a trailing slash', async () => {
    const request = await sent(createClient({ baseUrl: `${server.url}/gateway/`, token }), (c) => c.stats());
    assert.equal(request.path, '/gateway/api/v1/stats');
  });

  test('a custom fetch carries every call', async () => {
    const seen: string[] = [];
    const client = createClient({
      baseUrl: server.url,
      token,
      fetch: (request) => {
        seen.push(new URL(request.url).pathname);
        return fetch(request);
      },
    });
    await client.stats();
    await client.auth.me();
    assert.deepEqual(seen, ['/api/v1/stats', '/auth/me']);
  });

  test('the raw openapi-fetch client shares the credentials and does not throw', async () => {
    const client = createClient({ baseUrl: server.url, customerId: 'acme', apiKey });
    const from = server.requests.length;
    const { data, response } = await client.raw.POST('/api/v1/stats', {});
    assert.equal(response.status, 200);
    assert.deepEqual(data, { answered: '/api/v1/stats' });
    assert.deepEqual(server.requests[from]!.json, { customer_id: 'acme', api_key: apiKey });
  });

  test('refuses a token together with an API key, half an API key, or no baseUrl', () => {
    assert.throws(() => createClient({ baseUrl: server.url, token, customerId: 'acme', apiKey } as never), TypeError);
    assert.throws(() => createClient({ baseUrl: server.url, customerId: 'acme' } as never), TypeError);
    assert.throws(() => createClient({ token } as never), TypeError);
  });
});

describe('User-Agent', () => {
  const packageVersion = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

  test("every call names the SDK and its version, after the caller's own product when it names one", async () => {
    await createClient({ baseUrl: server.url, token }).auth.me();
    assert.match(
      String(server.requests.at(-1)!.headers['user-agent']),
      new RegExp(`^groundcheck-sdk-js/${packageVersion.replaceAll('.', '\\.')} node/`),
    );
    await createClient({ baseUrl: server.url, token, headers: { 'User-Agent': 'acme-helpdesk/2.1' } }).auth.me();
    assert.match(
      String(server.requests.at(-1)!.headers['user-agent']),
      new RegExp(`^acme-helpdesk/2\\.1 groundcheck-sdk-js/${packageVersion.replaceAll('.', '\\.')} `),
    );
  });
});
