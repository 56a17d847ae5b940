// createClient: one object with a method per operation, grouped by resource, over openapi-fetch.

import type { paths, Stats, SystemCard } from '@groundcheck/contract';
import type { Client, Middleware } from 'openapi-fetch';
import * as openapiFetch from 'openapi-fetch';
import { type Credentials, credentialsMiddleware, type TokenSource } from './credentials.js';
import { PreparedRequest } from './prepared-request.js';
import {
  defaultMaxRetries,
  defaultTimeoutInMs,
  type Fetch,
  idempotencyKeyMiddleware,
  type RequestOptions,
  type RetryPolicy,
  send,
  type Transport,
} from './request.js';
import { Account } from './resources/account.js';
import { Analytics, stats } from './resources/analytics.js';
import { Audit, systemCard } from './resources/audit.js';
import { Auth } from './resources/auth.js';
import { Engine } from './resources/engine.js';
import { History } from './resources/history.js';
import { Saas } from './resources/saas.js';
import { Sources } from './resources/sources.js';
import { Templates } from './resources/templates.js';
import { type ValidateOptions, validate } from './resources/validation.js';
import { type ResponseInfo, responseInfo, type WithResponse } from './response.js';
import type { RequestBody, Validation } from './types.js';
import { userAgent } from './version.js';

// openapi-fetch's CommonJS build sets `exports.default`; the CJS build of this package sees that
// exports object as the default import (Node's interop), the ESM build sees the function itself.
const defaultExport = openapiFetch.default as typeof openapiFetch.default & { default?: typeof openapiFetch.default };
const createFetchClient = defaultExport.default ?? defaultExport;

interface CommonOptions {
  /** The deployment's base address, such as `https://groundcheck.example.com`. */
  baseUrl: string;
  /** A fetch implementation (default: the runtime's global fetch). */
  fetch?: Fetch;
  /** Time allowed for each attempt of a call, in milliseconds (default 60 000). */
  timeoutInMs?: number;
  /** Retries after a connection error, timeout, 408, 429 or 5xx (default 2). */
  maxRetries?: number;
  /** Headers sent with every call. */
  headers?: Record<string, string>;
}

/** A user's bearer token (from `auth.login` or the tenant's identity provider). */
export interface TokenCredentials {
  token: TokenSource;
  customerId?: undefined;
  apiKey?: undefined;
}

/** An API key for service-to-service calls, sent in the body of the operations that accept one. */
export interface ApiKeyCredentials {
  customerId: string;
  apiKey: string;
  token?: undefined;
}

/** No credentials: only `auth.login` works. */
export interface NoCredentials {
  token?: undefined;
  customerId?: undefined;
  apiKey?: undefined;
}

export type ClientOptions = CommonOptions & (TokenCredentials | ApiKeyCredentials | NoCredentials);

export class GroundcheckClient {
  /** The underlying openapi-fetch client, for anything the methods do not cover. It shares the credentials, retries and timeouts, and returns `{ data, error, response }` instead of throwing. */
  readonly raw: Client<paths>;
  readonly auth: Auth;
  readonly templates: Templates;
  readonly sources: Sources;
  readonly history: History;
  readonly analytics: Analytics;
  readonly audit: Audit;
  readonly engine: Engine;
  readonly saas: Saas;
  readonly account: Account;
  private readonly transport: Transport;
  private latestResponse: ResponseInfo | null = null;

  constructor(options: ClientOptions) {
    if (!options || typeof options.baseUrl !== 'string' || options.baseUrl === '') throw new TypeError('createClient needs a baseUrl.');
    const defaults: RetryPolicy = {
      fetch: options.fetch,
      timeoutInMs: options.timeoutInMs ?? defaultTimeoutInMs,
      maxRetries: options.maxRetries ?? defaultMaxRetries,
    };
    const policy = (call?: RequestOptions): RetryPolicy => ({
      fetch: defaults.fetch,
      timeoutInMs: call?.timeoutInMs ?? defaults.timeoutInMs,
      maxRetries: call?.maxRetries ?? defaults.maxRetries,
    });
    const common = {
      baseUrl: options.baseUrl,
      // The caller's headers may name their own product first; the SDK's version is always there.
      headers: { ...options.headers, 'User-Agent': [options.headers?.['User-Agent'], userAgent()].filter(Boolean).join(' ') },
    };
    const middleware: Middleware[] = [
      credentialsMiddleware(credentialsOf(options)),
      idempotencyKeyMiddleware,
      {
        onResponse: ({ response }) => {
          this.latestResponse = responseInfo(response);
        },
      },
    ];
    this.raw = createFetchClient<paths>({ ...common, fetch: (request) => send(request, defaults) });
    this.raw.use(...middleware);
    // The methods' own client builds no Request per call (PreparedRequest); the same middleware runs.
    const methods = createFetchClient<paths>({ ...common, Request: PreparedRequest as unknown as typeof Request });
    methods.use(...middleware);
    const transport: Transport = {
      raw: methods,
      policy,
      init: (call) => ({ signal: call?.abortSignal, headers: call?.headers, fetch: (request) => send(request, policy(call)) }),
      streamingInit: (call) => ({
        signal: call?.abortSignal,
        headers: call?.headers,
        fetch: (request) => send(request, { ...policy(call), stream: true }),
      }),
    };
    // Middleware a caller adds to `raw` has always seen the methods' calls too, as Requests: from then
    // on the methods go through `raw`.
    const use = this.raw.use.bind(this.raw);
    this.raw.use = (...added) => {
      transport.raw = this.raw;
      use(...added);
    };
    this.transport = transport;
    this.auth = new Auth(this.transport);
    this.templates = new Templates(this.transport);
    this.sources = new Sources(this.transport);
    this.history = new History(this.transport);
    this.analytics = new Analytics(this.transport);
    this.audit = new Audit(this.transport);
    this.engine = new Engine(this.transport);
    this.saas = new Saas(this.transport);
    this.account = new Account(this.transport);
  }

  /**
   * The response of the most recent call that got one. Every object result also carries its own
   * `lastResponse`; this is for results that cannot (CSV strings), and is shared by concurrent calls.
   */
  get lastResponse(): ResponseInfo | null {
    return this.latestResponse;
  }

  /** Validates, generates, or validates and fixes an answer; retried safely under an Idempotency-Key. */
  validate(body: RequestBody<'ValidationRequest'>, options?: ValidateOptions): Promise<WithResponse<Validation>> {
    return validate(this.transport, body, options);
  }

  /** Tenant usage counters. */
  stats(options?: RequestOptions): Promise<WithResponse<Stats>> {
    return stats(this.transport, options);
  }

  /** The current system card (feature `audit_trail`). */
  systemCard(options?: RequestOptions): Promise<WithResponse<SystemCard>> {
    return systemCard(this.transport, options);
  }
}

function credentialsOf(options: ClientOptions): Credentials {
  const { token, customerId, apiKey } = options;
  if (token !== undefined && (customerId !== undefined || apiKey !== undefined)) {
    throw new TypeError('Pass either token or customerId and apiKey, not both.');
  }
  if (token !== undefined) return { token };
  if (customerId === undefined && apiKey === undefined) return null;
  if (typeof customerId !== 'string' || typeof apiKey !== 'string') throw new TypeError('customerId and apiKey go together.');
  return { customerId, apiKey };
}

/** Creates a client for one deployment and one set of credentials. */
export function createClient(options: ClientOptions): GroundcheckClient {
  return new GroundcheckClient(options);
}
