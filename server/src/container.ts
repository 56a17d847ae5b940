// The composition root: builds every store and service from the configuration, once per process.

import { type ObjectStorage, openObjectStorage } from './blobs/index.js';
import { type Config, ConfigError } from './config.js';
import { type Contract, loadContract } from './contract/contract.js';
import { ContractValidator } from './contract/validator.js';
import { AccountPages } from './cosmos/account-pages.js';
import { AuditStore } from './cosmos/audit-store.js';
import { type CosmosStore, openCosmos } from './cosmos/cosmos.js';
import { CountedSourceGroupStore, CountedTemplateStore } from './cosmos/counted-stores.js';
import { HistoryStore } from './cosmos/history-store.js';
import { IdempotencyStore } from './cosmos/idempotency-store.js';
import { OperatingPointStore } from './cosmos/operating-point-store.js';
import { ResourceCounters } from './cosmos/resource-counters.js';
import { TenantStateStore } from './cosmos/tenant-state-store.js';
import { UserStore } from './cosmos/user-store.js';
import { WindowCountStore } from './cosmos/window-count-store.js';
import { RateLimiter } from './http/rate-limiter.js';
import { type Clock, systemClock } from './lib/clock.js';
import type { Logger } from './logger.js';
import { accountOperations } from './routes/account.js';
import { analyticsOperations } from './routes/analytics.js';
import { auditOperations } from './routes/audit.js';
import { authOperations } from './routes/auth.js';
import { engineOperations } from './routes/engine.js';
import { healthOperations } from './routes/health.js';
import { historyOperations } from './routes/history.js';
import type { OperationTable } from './routes/operation.js';
import { saasOperations } from './routes/saas.js';
import { sourceOperations } from './routes/sources.js';
import { templateOperations } from './routes/templates.js';
import { validationOperations } from './routes/validation.js';
import { AccountDeletion } from './services/account/account-deletion.js';
import { AccountExporter } from './services/account/account-export.js';
import { DeletionRecovery } from './services/account/deletion-recovery.js';
import { AnalyticsService } from './services/analytics/analytics-service.js';
import { StatsService } from './services/analytics/stats-service.js';
import { AuditExporter } from './services/audit/audit-export.js';
import { AuditTrail } from './services/audit/audit-trail.js';
import { Pseudonyms } from './services/audit/pseudonyms.js';
import { SystemCardService } from './services/audit/system-card.js';
import { AuthService } from './services/auth/auth-service.js';
import { Authenticator } from './services/auth/authenticator.js';
import { ClosedTenants } from './services/auth/closed-tenants.js';
import { LocalTokens } from './services/auth/local-tokens.js';
import { LoginThrottle, type ThrottleLimits } from './services/auth/login-throttle.js';
import { OidcVerifier } from './services/auth/oidc.js';
import { bootstrapUsers } from './services/auth/user-bootstrap.js';
import { OperatingPointPass } from './services/engine/operating-point-pass.js';
import { OperatingPoints } from './services/engine/operating-points.js';
import { ReadinessService } from './services/health/readiness.js';
import { HistoryService } from './services/history/history-service.js';
import { ReviewService } from './services/review/review-service.js';
import { BillingPortalService } from './services/saas/billing-portal.js';
import { type StripeEndpoint, stripeBillingProvider } from './services/saas/stripe-billing.js';
import { UserManagement } from './services/saas/user-management.js';
import { ExtractionCache, type Extractor } from './services/sources/extraction-cache.js';
import { SourceGroupService } from './services/sources/source-groups.js';
import { extractText } from './services/sources/text-extraction.js';
import { TemplateService } from './services/templates/template-service.js';
import { ClaimVerification } from './services/validation/claim-verification.js';
import { EnginePool } from './services/validation/engine-pool.js';
import { groupRetrieval } from './services/validation/group-retrieval.js';
import { OutboxRecovery } from './services/validation/outbox-recovery.js';
import { ValidationRecorder } from './services/validation/validation-recorder.js';
import { ValidationService } from './services/validation/validation-service.js';
import { WebhookDelivery } from './services/webhooks/webhook-delivery.js';
import { TenantRegistry } from './tenants/registry.js';
import { loadTenantFile } from './tenants/tenant-file.js';
import { unavailableChoice } from './verifiers/verifier-config.js';

export interface Container {
  config: Config;
  log: Logger;
  clock: Clock;
  contract: Contract;
  validator: ContractValidator;
  tenants: TenantRegistry;
  cosmos: CosmosStore;
  storage: ObjectStorage;
  authenticator: Authenticator;
  rateLimiter: RateLimiter;
  /** Readiness for GET /readyz; `stop()` turns it off when the process is told to stop. */
  readiness: ReadinessService;
  idempotency: IdempotencyStore;
  services: {
    auth: AuthService;
    audit: { trail: AuditTrail; exporter: AuditExporter; systemCard: SystemCardService };
    validation: ValidationService;
    webhooks: WebhookDelivery;
    sources: { groups: SourceGroupService };
    templates: TemplateService;
    /** The tenants' operating points (decision S113) and the pass that fits them in calibration mode `apply`. */
    engine: { points: OperatingPoints; pass: OperatingPointPass };
  };
  /** The handler of every operation the server serves, by operationId. */
  operations: OperationTable;
  /** Resolves once the recoveries' passes and the operating points' fits under way (one of each runs at start) have finished. */
  recoveriesSettled(): Promise<void>;
  /** Releases what the container opened (the embedded Cosmos emulator, clients). */
  close(): Promise<void>;
}

export interface ContainerOptions {
  /** An open Cosmos account to use instead of opening the configured one (several processes of one deployment). */
  cosmos?: CosmosStore;
  /** Object storage to share instead of opening the configured account. */
  storage?: ObjectStorage;
  clock?: Clock;
  loginThrottle?: ThrottleLimits;
  /** Where the Stripe SDK sends its requests (tests: a loopback stand-in); Stripe's API otherwise. */
  stripeEndpoint?: StripeEndpoint;
}

export async function buildContainer(config: Config, log: Logger, options: ContainerOptions = {}): Promise<Container> {
  const clock = options.clock ?? systemClock;
  const tenants = new TenantRegistry(loadTenantFile(config.tenantsFile, { historyTtlDays: config.historyTtlDays, region: config.region }));
  if (!config.jwtSecret && tenants.all.some((t) => t.auth.local)) {
    log.warn('JWT_SECRET is not set: login tokens are signed with a per-process key and stop working when the process restarts.');
  }
  // Before anything opens: a tenant whose verifier this deployment does not offer stops the start.
  for (const tenant of tenants.all) {
    const unavailable = unavailableChoice(tenant.verifier.choice ?? config.verifiers.defaultVerifier, config.verifiers);
    if (unavailable) throw new ConfigError(`the tenant file's ${tenant.customerId}:`, unavailable);
  }
  const cosmos =
    options.cosmos ??
    (await openCosmos({ cosmos: config.cosmos, databaseId: config.cosmosDatabase, log, timeoutMs: config.storeTimeoutMs }));
  const windowCounts = new WindowCountStore(cosmos.container('limits'));
  const storage =
    options.storage ??
    (await openObjectStorage({ account: config.storage, container: config.storageContainer, log, timeoutMs: config.storeTimeoutMs }));
  const users = new UserStore(cosmos.container('users'));
  const tenantState = new TenantStateStore(cosmos.container('tenant_state'));
  const closedTenants = new ClosedTenants(tenantState);
  // A deleted account stays deleted: the tenant file's users are not created again.
  await bootstrapUsers(await closedTenants.open(tenants.all), users, clock, log);

  const localTokens = new LocalTokens(config.jwtSecret);
  const auditStore = new AuditStore(cosmos.container('audit'));
  const historyStore = new HistoryStore(cosmos.container('history'));
  const trail = new AuditTrail(auditStore, clock);
  const points = new OperatingPoints({
    store: new OperatingPointStore(cosmos.container('history')),
    history: historyStore,
    trail,
    audit: auditStore,
    clock,
    log,
  });
  // Every write of a group or template keeps the stats' resource counters in step.
  const resourceCounters = new ResourceCounters(cosmos.container('history'));
  const sourceGroupStore = new CountedSourceGroupStore(cosmos.container('sources'), resourceCounters);
  const verification = new ClaimVerification(config.verifiers);
  const services = {
    auth: new AuthService(tenants, users, localTokens, new LoginThrottle(windowCounts, options.loginThrottle), closedTenants),
    audit: {
      trail,
      exporter: new AuditExporter(auditStore, new Pseudonyms(auditStore)),
      systemCard: new SystemCardService(
        { historyTtlDays: config.historyTtlDays },
        (tenant) => verification.identityFor(tenant),
        (tenant) => points.card(tenant),
      ),
    },
    sources: { groups: new SourceGroupService({ store: sourceGroupStore, storage }) },
    templates: new TemplateService({ store: new CountedTemplateStore(cosmos.container('templates'), resourceCounters), storage }),
    webhooks: new WebhookDelivery(log, clock),
  };
  const engine = new EnginePool();
  const readiness = new ReadinessService({ cosmos: () => cosmos.ping(), storage: () => storage.ping() });
  const recorder = new ValidationRecorder(historyStore, services.audit.trail, services.webhooks, config.historyTtlDays);
  const extract: Extractor = (bytes, contentType) => extractText(bytes, contentType, { maxMemoryMb: config.sourceParserMemoryMb });
  const validation = new ValidationService({
    engine,
    verification,
    recorder,
    retrieveGroups: groupRetrieval({
      store: sourceGroupStore,
      groups: services.sources.groups,
      storage,
      cache: new ExtractionCache(extract),
    }),
    extract,
    thresholds: (tenant) => points.thresholds(tenant),
  });
  const pointPass = new OperatingPointPass(points, tenants.all, log);
  const review = new ReviewService({
    history: historyStore,
    outbox: recorder.outbox,
    groups: sourceGroupStore,
    historyTtlDays: config.historyTtlDays,
    decided: (tenant) => pointPass.decided(tenant),
  });
  const analytics = new AnalyticsService(historyStore, (tenant) => points.supportedScore(tenant));
  const recovery = new OutboxRecovery(recorder, tenants.all, clock, log);
  recovery.start();
  const accountDeletion = new AccountDeletion({
    cosmos,
    storage,
    state: tenantState,
    trail: services.audit.trail,
    audit: auditStore,
    clock,
    log,
  });
  const deletionRecovery = new DeletionRecovery(accountDeletion, tenantState, tenants.all, clock, log);
  deletionRecovery.start();
  pointPass.start();
  const accountExporter = new AccountExporter({
    users,
    pages: new AccountPages({
      sources: cosmos.container('sources'),
      templates: cosmos.container('templates'),
      history: cosmos.container('history'),
    }),
    audit: auditStore,
  });
  const billing = new BillingPortalService(
    config.stripeSecretKey ? stripeBillingProvider(config.stripeSecretKey, options.stripeEndpoint) : null,
  );
  const contract = loadContract();
  return {
    config,
    log,
    clock,
    contract,
    validator: new ContractValidator(contract),
    tenants,
    cosmos,
    storage,
    authenticator: new Authenticator(tenants, users, localTokens, new OidcVerifier(), closedTenants),
    rateLimiter: new RateLimiter(windowCounts, log),
    readiness,
    idempotency: new IdempotencyStore(cosmos.container('idempotency'), config.idempotencyLeaseMs),
    services: { ...services, validation, engine: { points, pass: pointPass } },
    operations: {
      ...healthOperations(readiness),
      ...authOperations(services.auth),
      ...auditOperations(services.audit),
      ...validationOperations(validation),
      ...sourceOperations(services.sources.groups),
      ...historyOperations(new HistoryService(historyStore, sourceGroupStore), review),
      ...analyticsOperations(new StatsService(historyStore, resourceCounters, config.historyTtlDays), analytics),
      ...templateOperations(services.templates),
      ...saasOperations({ users: new UserManagement(users), billing }),
      ...accountOperations({ exporter: accountExporter, deletion: accountDeletion }),
      ...engineOperations(points),
    },
    async recoveriesSettled() {
      await Promise.all([recovery.settled(), deletionRecovery.settled(), pointPass.settled()]);
    },
    async close() {
      // Deliveries in flight get their 5 seconds; recovery finishes its pass; the engine's threads end.
      await Promise.all([services.webhooks.drain(), recovery.stop(), deletionRecovery.stop(), pointPass.stop()]);
      await engine.close();
      if (!options.cosmos) await cosmos.close();
      if (!options.storage) await storage.close();
    },
  };
}
