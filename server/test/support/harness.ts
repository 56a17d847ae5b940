// Starts the real server in this process on a loopback port, on the embedded Cosmos emulator.

import type { Role } from '@groundcheck/contract';
import { type Config, loadConfig } from '../../src/config.js';
import { buildContainer, type Container, type ContainerOptions } from '../../src/container.js';
import { createLogger, type Logger } from '../../src/logger.js';
import type { OperationTable } from '../../src/routes/operation.js';
import { listen, type RunningServer } from '../../src/server.js';
import { generateApiKey } from '../../src/services/auth/api-keys.js';
import { email, type Fixture, password, writeFixture } from './fixtures.js';

export interface Reply {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface CallOptions {
  token?: string;
  headers?: Record<string, string>;
  method?: string;
  /** A raw body sent as is instead of JSON. */
  raw?: string | Uint8Array<ArrayBuffer>;
}

export class TestServer {
  constructor(
    readonly running: RunningServer,
    /** The server's own stores and services, for tests that seed or inspect them directly. */
    readonly container: Container,
    readonly fixture: Fixture,
  ) {}

  get cosmos() {
    return this.container.cosmos;
  }

  get services() {
    return this.container.services;
  }

  get url() {
    return this.running.url;
  }

  async call(path: string, body?: unknown, options: CallOptions = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (body !== undefined || options.raw !== undefined) headers['content-type'] ??= 'application/json';
    const response = await fetch(this.url + path, {
      method: options.method ?? 'POST',
      headers,
      body: options.raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  }

  /** Signs in as the tenant's user of this role and returns the bearer token. */
  async login(customerId: string, role: Role): Promise<string> {
    const reply = await this.call('/auth/login', {
      email: email(customerId, role),
      password: password(customerId, role),
      customer_id: customerId,
    });
    if (reply.status !== 200) throw new Error(`login failed: ${reply.status} ${reply.text}`);
    return reply.body.token;
  }

  apiKeyBody(customerId: string, role: Role): { customer_id: string; api_key: string } {
    return { customer_id: customerId, api_key: this.fixture.apiKeys[customerId]![role] };
  }

  close() {
    return this.running.close();
  }
}

export interface TestServerOptions extends ContainerOptions {
  /** Handlers that replace or add to the built-in ones, by operationId. */
  operations?: OperationTable;
  env?: Record<string, string>;
  jwksUri?: string;
  fixture?: Fixture;
  /** A logger of the test's own, to read what the server logs. */
  log?: Logger;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const fixture = options.fixture ?? (await writeFixture({ jwksUri: options.jwksUri }));
  // Tests sign in far more often than people do; the limit on calls without credentials has its own test.
  const config: Config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    TENANTS_FILE: fixture.file,
    LOG_LEVEL: 'silent',
    ANONYMOUS_RATE_LIMIT: '100000',
    // A signing key of the test's own: the server refuses to run without one on a configured store.
    JWT_SECRET: generateApiKey().key,
    ...options.env,
  });
  const container = await buildContainer(config, options.log ?? createLogger(config.logLevel), options);
  Object.assign(container.operations, options.operations);
  return new TestServer(await listen(container), container, fixture);
}
