// Builds the server from its configuration: tenants, Cosmos DB, services, HTTP.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.js';
import { answerClientErrors } from './http/client-errors.js';
import { Authenticator } from './auth/authenticator.js';
import { LocalTokens } from './auth/local-tokens.js';
import { LoginThrottle, type ThrottleLimits } from './auth/login-throttle.js';
import { OidcVerifier } from './auth/oidc.js';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import { auditRoutes } from './routes/audit.js';
import { authRoutes } from './routes/auth.js';
import { healthRoutes } from './routes/health.js';
import type { RouteTable } from './routes/route-table.js';
import { AuditExporter } from './services/audit-export.js';
import { AuditTrail } from './services/audit-trail.js';
import { AuthService } from './services/auth-service.js';
import { Pseudonyms } from './services/pseudonym.js';
import { RateLimiter } from './services/rate-limiter.js';
import { SystemCardService } from './services/system-card.js';
import { bootstrapUsers } from './services/user-bootstrap.js';
import { loadContract } from './spec/contract.js';
import { AuditStore } from './store/audit-store.js';
import { openCosmos, type CosmosStore } from './store/cosmos.js';
import { IdempotencyStore } from './store/idempotency-store.js';
import { UserStore } from './store/user-store.js';
import { TenantRegistry } from './tenants/registry.js';
import { loadTenantFile } from './tenants/tenant-file.js';

export interface RunningServer {
  url: string;
  cosmos: CosmosStore;
  /** Services other parts of the server call, exposed for tests that drive them directly. */
  services: { audit: AuditTrail };
  close(): Promise<void>;
}

export interface StartOptions {
  /** Share one Cosmos account between servers (as several processes of one deployment do). */
  cosmos?: CosmosStore;
  loginThrottle?: ThrottleLimits;
  /** Handlers that replace or add to the built-in ones, by operationId. */
  routes?: RouteTable;
}

export async function startServer(config: Config, log: Logger, options: StartOptions = {}): Promise<RunningServer> {
  const tenants = new TenantRegistry(loadTenantFile(config.tenantsFile, { historyTtlDays: config.historyTtlDays, region: config.region }));
  if (!config.jwtSecret && tenants.all.some((t) => t.auth.local)) {
    log.warn('JWT_SECRET is not set: login tokens are signed with a per-process key and stop working when the process restarts.');
  }
  const cosmos = options.cosmos ?? (await openCosmos({ cosmos: config.cosmos, databaseId: config.cosmosDatabase, log }));
  const users = new UserStore(cosmos.container('users'));
  await bootstrapUsers(tenants.all, users, log);

  const localTokens = new LocalTokens(config.jwtSecret);
  const authService = new AuthService(tenants, users, localTokens, new LoginThrottle(options.loginThrottle));
  const auditStore = new AuditStore(cosmos.container('audit'));
  const audit = new AuditTrail(auditStore);
  const auditServices = { trail: audit, exporter: new AuditExporter(auditStore, new Pseudonyms(auditStore)), systemCard: new SystemCardService({ historyTtlDays: config.historyTtlDays }) };
  const app = createApp({
    contract: loadContract(),
    log,
    authenticator: new Authenticator(tenants, users, localTokens, new OidcVerifier()),
    rateLimiter: new RateLimiter(),
    idempotency: new IdempotencyStore(cosmos.container('idempotency')),
    routes: { ...healthRoutes(cosmos), ...authRoutes(authService), ...auditRoutes(auditServices), ...options.routes },
    anonymousRateLimit: config.anonymousRateLimit,
    validateResponses: !config.production,
    trustProxy: config.trustProxy,
  });

  const server = createServer(
    {
      headersTimeout: config.http.headersTimeoutMs,
      requestTimeout: config.http.requestTimeoutMs,
      keepAliveTimeout: config.http.keepAliveTimeoutMs,
      // How often the two timeouts above are checked; Node's default (30 s) would let them overrun.
      connectionsCheckingInterval: Math.min(1000, config.http.headersTimeoutMs),
    },
    app,
  );
  server.maxConnections = config.http.maxConnections;
  answerClientErrors(server, log);
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  log.info({ port, tenants: tenants.all.length, cosmos: cosmos.embedded ? 'embedded' : 'external' }, 'Groundcheck server listening');
  return {
    url: `http://${host}:${port}`,
    cosmos,
    services: { audit },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      if (!options.cosmos) await cosmos.close();
    },
  };
}
