// Starts HTTP for a built container: the app, the server's own limits, listening and closing.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.js';
import { type Config, usesExampleTenants } from './config.js';
import { buildContainer, type Container } from './container.js';
import { answerClientErrors } from './http/client-errors.js';
import { consoleConnectOrigins } from './http/console/connect-origins.js';
import { readConsoleFiles } from './http/console/console-files.js';
import type { Logger } from './logger.js';

export interface RunningServer {
  url: string;
  /** Stops accepting connections, finishes the requests in flight, then releases the container. */
  close(): Promise<void>;
  /**
   * A graceful stop: /readyz answers 503 at once while requests are still served for the drain time
   * (so a load balancer stops sending work), then `close()`.
   */
  stop(drainMs: number): Promise<void>;
}

export async function startServer(config: Config, log: Logger): Promise<RunningServer> {
  return listen(await buildContainer(config, log));
}

export async function listen(container: Container): Promise<RunningServer> {
  const { config, log } = container;
  const site = consoleOf(container);
  const app = createApp({
    contract: container.contract,
    validator: container.validator,
    log,
    clock: container.clock,
    authenticator: container.authenticator,
    rateLimiter: container.rateLimiter,
    anonymousRateLimit: config.anonymousRateLimit,
    unauthenticatedBodyTimeoutMs: config.http.unauthenticatedBodyTimeoutMs,
    requestTimeoutMs: config.http.requestTimeoutMs,
    idempotency: container.idempotency,
    operations: container.operations,
    validateResponses: !config.production,
    trustProxy: config.trustProxy,
    console: site,
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
  answerClientErrors(server, log, container.clock);
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${host}:${port}`;
  const pages = { console: site ? `${url}/console/` : null, docs: `${url}/docs` };
  // The addresses a person opens, in the message itself, so that a terminal shows them as links.
  log.info(
    { port, url, ...pages, tenants: container.tenants.all.length, cosmos: container.cosmos.embedded ? 'embedded' : 'external' },
    `Groundcheck server listening on ${url}${pages.console ? ` — console ${pages.console}` : ''} — API reference ${pages.docs}`,
  );
  if (usesExampleTenants(config)) logDemoSignIn(container, log);
  const close = async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
    await container.close();
  };
  return {
    url,
    close,
    async stop(drainMs) {
      container.readiness.stop();
      await new Promise((resolve) => setTimeout(resolve, drainMs));
      await close();
    },
  };
}

/**
 * The example tenants' local users, so that a newcomer knows how to sign in. Their passwords are
 * published in the file's header and the README, never logged (decision S100).
 */
function logDemoSignIn(container: Container, log: Logger): void {
  for (const tenant of container.tenants.all) {
    const users = tenant.auth.local?.users ?? [];
    if (users.length === 0) continue;
    log.info(
      { customer_id: tenant.customerId, users: users.map(({ email, role }) => ({ email, role })) },
      `Demo sign-in (the console, or POST /auth/login): customer id "${tenant.customerId}" with ${users.map(({ email, role }) => `${email} (${role})`).join(', ')}; their passwords are in the header of server/tenants.example.yaml`,
    );
  }
}

function consoleOf(container: Container) {
  const files = readConsoleFiles(container.config.consoleDir);
  if (!files) {
    container.log.info(
      { dir: container.config.consoleDir },
      'The console is not built: /console/ is not served (npm run build -w @groundcheck/console)',
    );
    return null;
  }
  return { files, connectOrigins: consoleConnectOrigins(container), tenants: container.tenants };
}
