// The compiled server as `npm start` runs it: production mode, the demo tenant file, JSON logs.
import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const serverDir = fileURLToPath(new URL('..', import.meta.url));
const tsc = fileURLToPath(new URL('../../node_modules/.bin/tsc', import.meta.url));

before(() => {
  execFileSync(tsc, ['-p', 'tsconfig.build.json'], { cwd: serverDir, stdio: 'inherit' });
});

interface Started {
  child: ChildProcessWithoutNullStreams;
  lines: Record<string, unknown>[];
  raw: string[];
  exit: Promise<number | null>;
}

const children = new Set<ChildProcessWithoutNullStreams>();
// A test that fails part-way leaves its server running: stop it, or the file never ends.
after(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

function run(env: Record<string, string>): Started {
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: serverDir,
    env: { PATH: process.env.PATH!, NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', ...env },
  });
  children.add(child);
  const started: Started = { child, lines: [], raw: [], exit: once(child, 'exit').then(([code]) => code as number | null) };
  let buffer = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const parts = buffer.split('\n');
    buffer = parts.pop()!;
    for (const line of parts) {
      started.raw.push(line);
      started.lines.push(JSON.parse(line));
    }
  });
  child.stderr.on('data', (chunk: Buffer) => started.raw.push(chunk.toString()));
  return started;
}

// Generous: a loaded machine can take many seconds to start the server and its emulators.
async function waitForLine(started: Started, message: string | ((msg: string) => boolean)): Promise<Record<string, unknown>> {
  const matches = typeof message === 'string' ? (msg: string) => msg === message : message;
  for (let i = 0; i < 1200; i += 1) {
    const line = started.lines.find((l) => matches(String(l.msg)));
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no "${message}" in ${started.raw.join('\n')}`);
}

describe('the compiled server', () => {
  test('serves the demo tenant, logs JSON with request ids, and stops cleanly on SIGTERM', async () => {
    const server = run({});
    const listening = await waitForLine(server, (msg) => msg.startsWith('Groundcheck server listening on '));
    const url = `http://127.0.0.1:${listening.port}`;
    assert.ok(
      server.lines.some((l) => String(l.msg).includes('ALL DATA IS HELD IN MEMORY')),
      'says loudly that data is in memory',
    );
    // The suite builds the console before these tests, so the server serves it.
    assert.deepEqual(
      [listening.url, listening.console, listening.docs],
      [url, `${url}/console/`, `${url}/docs`],
      'says where to go, as addresses a person can open',
    );
    assert.equal(listening.msg, `Groundcheck server listening on ${url} — console ${url}/console/ — API reference ${url}/docs`);
    const demo = await waitForLine(server, (msg) => msg.startsWith('Demo sign-in'));
    assert.equal(demo.customer_id, 'demo');
    assert.deepEqual(demo.users, [
      { email: 'avery.admin@demo.example', role: 'admin' },
      { email: 'uma.user@demo.example', role: 'user' },
      { email: 'vic.viewer@demo.example', role: 'viewer' },
    ]);

    const login = await fetch(`${url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'process-test-0001' },
      body: JSON.stringify({ email: 'uma.user@demo.example', password: 'demo-user-password', customer_id: 'demo' }),
    });
    assert.equal(login.status, 200);
    assert.equal(login.headers.get('x-request-id'), 'process-test-0001');
    const { token } = (await login.json()) as { token: string };
    const me = await fetch(`${url}/auth/me`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    assert.equal(((await me.json()) as { role: string }).role, 'user');

    const completed = await waitForLine(server, 'request completed');
    assert.equal(completed.request_id, 'process-test-0001');
    assert.equal(completed.status, 200);
    for (const line of server.raw) {
      assert.ok(!line.includes('demo-user-password') && !line.includes(token), 'no credential is logged');
    }

    server.child.kill('SIGTERM');
    assert.equal(await server.exit, 0);
    assert.ok(server.lines.some((l) => String(l.msg).startsWith('shutting down')));
  });

  test('on SIGTERM, answers not ready at once and still serves during the drain, then exits', async () => {
    const server = run({ SHUTDOWN_DRAIN_MS: '3000' });
    const listening = await waitForLine(server, (msg) => msg.startsWith('Groundcheck server listening on '));
    const url = `http://127.0.0.1:${listening.port}`;
    assert.equal((await fetch(`${url}/readyz`)).status, 200);
    server.child.kill('SIGTERM');
    await waitForLine(server, 'shutting down: not ready from now on, then no new connections and the requests in flight finished');
    const readiness = await fetch(`${url}/readyz`);
    assert.equal(readiness.status, 503);
    assert.equal(((await readiness.json()) as { shutting_down?: boolean }).shutting_down, true);
    // Work still arrives while the load balancer notices: it is served.
    const me = await fetch(`${url}/auth/me`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ customer_id: 'demo', api_key: 'gck_DemoUser_Kx7Qm2Vp9Rt4Wz8Yb3Nc6Hd1Jf5Lg0Sa' }),
    });
    assert.equal(me.status, 200);
    assert.equal(await server.exit, 0);
  });

  test('refuses to start with a bad variable, naming it', async () => {
    const server = run({ PORT: 'eighty' });
    assert.equal(await server.exit, 1);
    assert.match(server.raw.join(''), /Invalid configuration: PORT must be a whole number/);
  });

  test('names the Cosmos DB endpoint it cannot reach, without a stack trace', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'gc-tenants-')), 'tenants.yaml');
    writeFileSync(file, 'tenants:\n  - customer_id: acme\n    name: Acme\n    auth: { local: {} }\n');
    // Port 9 of loopback: nothing listens there, so the connection is refused at once.
    const server = run({
      COSMOS_ENDPOINT: 'http://127.0.0.1:9',
      COSMOS_KEY: Buffer.from('unreachable').toString('base64'),
      TENANTS_FILE: file,
      JWT_SECRET: 'x'.repeat(40),
    });
    assert.equal(await server.exit, 1);
    const output = server.raw.join('\n');
    assert.match(output, /Cosmos DB at http:\/\/127\.0\.0\.1:9 could not be opened \(ECONNREFUSED\)/);
    assert.doesNotMatch(output, /RestError|\n\s+at /);
  });

  test('refuses to start with a bad tenant file, naming the file and the place', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'gc-bad-tenants-')), 'tenants.yaml');
    writeFileSync(
      file,
      'tenants:\n  - customer_id: acme\n    name: Acme\n    auth: { local: {} }\n    rate_limit: { requests: 0, window_seconds: 60 }\n',
    );
    const server = run({ TENANTS_FILE: file });
    assert.equal(await server.exit, 1);
    assert.match(server.raw.join(''), /Invalid tenant file .*tenants\.yaml at \/tenants\/0\/rate_limit\/requests: must be >= 1/);
  });
});
