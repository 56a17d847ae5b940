// Configuration from environment variables, checked once at start.
import { fileURLToPath } from 'node:url';

export interface Config {
  port: number;
  host: string;
  production: boolean;
  logLevel: string;
  cosmos: { endpoint: string; key: string } | null;
  cosmosDatabase: string;
  tenantsFile: string;
  historyTtlDays: number;
  jwtSecret: string | null;
  region: string;
  trustProxy: boolean;
}

export class ConfigError extends Error {
  constructor(variable: string, reason: string) {
    super(`Invalid configuration: ${variable} ${reason}`);
    this.name = 'ConfigError';
  }
}

const defaultTenantsFile = fileURLToPath(new URL('../tenants.example.yaml', import.meta.url));

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const endpoint = env.COSMOS_ENDPOINT || undefined;
  const key = env.COSMOS_KEY || undefined;
  if (Boolean(endpoint) !== Boolean(key)) {
    throw new ConfigError(endpoint ? 'COSMOS_KEY' : 'COSMOS_ENDPOINT', 'must be set together with ' + (endpoint ? 'COSMOS_ENDPOINT' : 'COSMOS_KEY'));
  }
  if (endpoint && !/^https?:\/\//.test(endpoint)) throw new ConfigError('COSMOS_ENDPOINT', 'must be an http(s) URL');
  const jwtSecret = env.JWT_SECRET || null;
  if (jwtSecret !== null && jwtSecret.length < 32) throw new ConfigError('JWT_SECRET', 'must be at least 32 characters');
  const logLevel = env.LOG_LEVEL || 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of fatal, error, warn, info, debug, trace, silent; got "${logLevel}"`);
  }
  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: env.HOST || '127.0.0.1',
    production: env.NODE_ENV === 'production',
    logLevel,
    cosmos: endpoint && key ? { endpoint, key } : null,
    cosmosDatabase: env.COSMOS_DATABASE || 'groundcheck',
    tenantsFile: env.TENANTS_FILE || defaultTenantsFile,
    historyTtlDays: integer(env, 'HISTORY_TTL_DAYS', 90, 1, 3650),
    jwtSecret,
    region: env.REGION || 'local',
    trustProxy: env.TRUST_PROXY === 'true',
  };
}
