// Configuration from environment variables, checked once at start.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import proxyAddr from 'proxy-addr';
import type { StorageAccount } from './blobs/index.js';
import { type VerifierDeployment, verifierDeploymentFromEnv } from './verifiers/verifier-config.js';

/** How many proxies, or which addresses, may set X-Forwarded-For (Express's `trust proxy`). */
export type TrustProxy = false | number | string[];

export interface HttpLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxConnections: number;
  /** Time a request without credentials in its headers has to send its body (an API key may be in it). */
  unauthenticatedBodyTimeoutMs: number;
}

export interface Config {
  port: number;
  host: string;
  production: boolean;
  logLevel: string;
  /** The Cosmos DB account; `key` null signs in with the Azure identity (DefaultAzureCredential). */
  cosmos: { endpoint: string; key: string | null } | null;
  cosmosDatabase: string;
  /** Azure Blob Storage for uploaded files; null for the embedded Azurite emulator. */
  storage: StorageAccount;
  storageContainer: string;
  tenantsFile: string;
  historyTtlDays: number;
  jwtSecret: string | null;
  region: string;
  trustProxy: TrustProxy;
  http: HttpLimits;
  /** Requests per minute from one client address to operations that take no credentials. */
  anonymousRateLimit: number;
  /** Between SIGTERM and closing the listener: /readyz answers 503 while requests are still served. */
  shutdownDrainMs: number;
  /** STORE_TIMEOUT_MS: the bound on each Cosmos DB and Blob Storage call, retries included. */
  storeTimeoutMs: number;
  /** How long a request holds its Idempotency-Key without renewing it (renewed every third of it): a dead holder's key is taken over after this. */
  idempotencyLeaseMs: number;
  /** Heap of each document-parser child process (MB); its resident size may reach half as much again plus 128 MB. */
  sourceParserMemoryMb: number;
  /** The payment provider's (Stripe's) secret key for the billing portal; null when billing is off. A secret: never logged. */
  stripeSecretKey: string | null;
  /** The model-backed verifiers this deployment offers (ENGINE_VERIFIER, OPENAI_*, AZURE_OPENAI_*, ENGINE_MODEL_DIR). */
  verifiers: VerifierDeployment;
  /** CONSOLE_DIR: the built console served at /console/ (default console/dist of this repository); nothing is served there when it holds no build. */
  consoleDir: string;
}

/** How long a Cosmos DB or Blob Storage call may take, its retries included, before the request answers 503. */
export const defaultStoreTimeoutMs = 10_000;

export class ConfigError extends Error {
  constructor(variable: string, reason: string) {
    super(`Invalid configuration: ${variable} ${reason}`);
    this.name = 'ConfigError';
  }
}

const defaultConsoleDir = fileURLToPath(new URL('../../console/dist', import.meta.url));
const defaultTenantsFile = fileURLToPath(new URL('../tenants.example.yaml', import.meta.url));

/** Whether the server runs the published example tenant file (allowed only on the embedded emulators). */
export function usesExampleTenants(config: Pick<Config, 'tenantsFile'>): boolean {
  return resolve(config.tenantsFile) === defaultTenantsFile;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

/**
 * `false`, a hop count, or a comma-separated list of proxy addresses, subnets or Express's names
 * (`loopback`, `linklocal`, `uniquelocal`). `true` is refused: it trusts every address in
 * X-Forwarded-For, so a client could choose the address its login attempts are counted under.
 */
function trustProxy(raw: string | undefined): TrustProxy {
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') {
    throw new ConfigError(
      'TRUST_PROXY',
      'must be the number of proxies in front of the server or their addresses, not "true" (which trusts any client-sent address)',
    );
  }
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops < 1 || hops > 10) throw new ConfigError('TRUST_PROXY', `must be a hop count from 1 to 10, got ${hops}`);
    return hops;
  }
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  try {
    proxyAddr.compile(entries);
  } catch {
    throw new ConfigError(
      'TRUST_PROXY',
      `must be a hop count or a comma-separated list of addresses, subnets or loopback/linklocal/uniquelocal, got "${raw}"`,
    );
  }
  return entries;
}

/** A Stripe secret (`sk_…`) or restricted (`rk_…`) key; the message never repeats the value. */
function verifiers(env: NodeJS.ProcessEnv): VerifierDeployment {
  try {
    return verifierDeploymentFromEnv(env);
  } catch (error) {
    // The message names the variable, never its value.
    throw new ConfigError('for the verifiers:', (error as Error).message);
  }
}

function stripeSecretKey(raw: string | undefined): string | null {
  if (raw === undefined || raw === '') return null;
  if (!/^(sk|rk)_[A-Za-z0-9_]{8,247}$/.test(raw)) {
    throw new ConfigError('STRIPE_SECRET_KEY', 'must be a Stripe secret or restricted key (sk_… or rk_…)');
  }
  return raw;
}

function storageAccount(env: NodeJS.ProcessEnv): StorageAccount {
  const connectionString = env.AZURE_STORAGE_CONNECTION_STRING || undefined;
  const accountName = env.AZURE_STORAGE_ACCOUNT || undefined;
  const accountKey = env.AZURE_STORAGE_KEY || undefined;
  if (connectionString && (accountName || accountKey)) {
    throw new ConfigError('AZURE_STORAGE_CONNECTION_STRING', 'must not be set together with AZURE_STORAGE_ACCOUNT and AZURE_STORAGE_KEY');
  }
  if (connectionString) return { connectionString };
  // An account without a key signs in with the Azure identity (managed identity in Azure).
  if (accountKey && !accountName) throw new ConfigError('AZURE_STORAGE_ACCOUNT', 'must be set together with AZURE_STORAGE_KEY');
  const endpoint = env.AZURE_STORAGE_ENDPOINT || undefined;
  if (endpoint && !/^https?:\/\//.test(endpoint)) throw new ConfigError('AZURE_STORAGE_ENDPOINT', 'must be an http(s) URL');
  if (!accountName) return null;
  return { accountName, accountKey: accountKey ?? null, ...(endpoint ? { endpoint } : {}) };
}

function cosmosAccount(env: NodeJS.ProcessEnv): Config['cosmos'] {
  const endpoint = env.COSMOS_ENDPOINT || undefined;
  const key = env.COSMOS_KEY || undefined;
  // An endpoint without a key signs in with the Azure identity (managed identity in Azure).
  if (key && !endpoint) throw new ConfigError('COSMOS_ENDPOINT', 'must be set together with COSMOS_KEY');
  if (endpoint && !/^https?:\/\//.test(endpoint)) throw new ConfigError('COSMOS_ENDPOINT', 'must be an http(s) URL');
  return endpoint ? { endpoint, key: key ?? null } : null;
}

function jwtSecret(env: NodeJS.ProcessEnv): string | null {
  const secret = env.JWT_SECRET || null;
  if (secret !== null && secret.length < 32) throw new ConfigError('JWT_SECRET', 'must be at least 32 characters');
  return secret;
}

function logLevel(env: NodeJS.ProcessEnv): string {
  const level = env.LOG_LEVEL || 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(level)) {
    throw new ConfigError('LOG_LEVEL', `must be one of fatal, error, warn, info, debug, trace, silent; got "${level}"`);
  }
  return level;
}

/**
 * Outside the embedded emulators the server holds real data: it refuses the published demo
 * credentials and a signing key that dies with the process. `configured` names what is not emulated.
 */
function refuseDemoSecrets(env: NodeJS.ProcessEnv, configured: string, secret: string | null): void {
  if (!env.TENANTS_FILE)
    throw new ConfigError(
      'TENANTS_FILE',
      `must be set when ${configured} is configured: the example tenant file's credentials are published`,
    );
  if (usesExampleTenants({ tenantsFile: env.TENANTS_FILE }))
    throw new ConfigError(
      'TENANTS_FILE',
      `must not be the example tenant file when ${configured} is configured: its credentials are published`,
    );
  if (!secret)
    throw new ConfigError(
      'JWT_SECRET',
      `must be set when ${configured} is configured: a per-process key signs tokens no other process accepts`,
    );
}

function httpLimits(env: NodeJS.ProcessEnv): HttpLimits {
  const http = {
    headersTimeoutMs: integer(env, 'HTTP_HEADERS_TIMEOUT_MS', 20_000, 1000, 600_000),
    requestTimeoutMs: integer(env, 'HTTP_REQUEST_TIMEOUT_MS', 120_000, 1000, 3_600_000),
    keepAliveTimeoutMs: integer(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 65_000, 1000, 600_000),
    maxConnections: integer(env, 'HTTP_MAX_CONNECTIONS', 1000, 1, 1_000_000),
    unauthenticatedBodyTimeoutMs: integer(env, 'HTTP_UNAUTHENTICATED_BODY_TIMEOUT_MS', 10_000, 100, 600_000),
  };
  if (http.headersTimeoutMs > http.requestTimeoutMs)
    throw new ConfigError('HTTP_HEADERS_TIMEOUT_MS', 'must not be longer than HTTP_REQUEST_TIMEOUT_MS');
  return http;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cosmos = cosmosAccount(env);
  const secret = jwtSecret(env);
  const level = logLevel(env);
  const storage = storageAccount(env);
  if (cosmos || storage) refuseDemoSecrets(env, cosmos ? 'COSMOS_ENDPOINT' : 'a storage account', secret);
  const http = httpLimits(env);
  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: env.HOST || '127.0.0.1',
    production: env.NODE_ENV === 'production',
    logLevel: level,
    cosmos,
    cosmosDatabase: env.COSMOS_DATABASE || 'groundcheck',
    storage,
    storageContainer: env.AZURE_STORAGE_CONTAINER || 'groundcheck',
    tenantsFile: env.TENANTS_FILE || defaultTenantsFile,
    historyTtlDays: integer(env, 'HISTORY_TTL_DAYS', 90, 1, 3650),
    jwtSecret: secret,
    region: env.REGION || 'local',
    trustProxy: trustProxy(env.TRUST_PROXY),
    http,
    anonymousRateLimit: integer(env, 'ANONYMOUS_RATE_LIMIT', 60, 1, 1_000_000),
    shutdownDrainMs: integer(env, 'SHUTDOWN_DRAIN_MS', 5000, 0, 120_000),
    storeTimeoutMs: integer(env, 'STORE_TIMEOUT_MS', defaultStoreTimeoutMs, 500, 60_000),
    idempotencyLeaseMs: integer(env, 'IDEMPOTENCY_LEASE_MS', 15_000, 300, 600_000),
    sourceParserMemoryMb: integer(env, 'SOURCE_PARSER_MEMORY_MB', 512, 32, 4096),
    stripeSecretKey: stripeSecretKey(env.STRIPE_SECRET_KEY),
    verifiers: verifiers(env),
    consoleDir: env.CONSOLE_DIR || defaultConsoleDir,
  };
}
