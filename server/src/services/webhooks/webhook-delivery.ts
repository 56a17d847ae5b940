// Delivery of `service.validation.findings` (sections 2.5 and 6.1): one POST per completed
// validation to the tenant's webhook, fire and forget. The caller never waits; a receiver that does
// not answer 2xx within 5 seconds (a redirect included) counts as failed, is logged once with the
// event and validation ids, and is not retried. Requests go through the outbound guard.
import type { ValidationFindingsEvent } from '@groundcheck/contract';
import type { Clock } from '../../lib/clock.js';
import type { Logger } from '../../logger.js';
import { createOutboundClient, OutboundRefusal } from '../../outbound/index.js';
import { instruments } from '../../telemetry/instruments.js';
import type { Tenant } from '../../tenants/tenant.js';
import { signWebhook } from './signature.js';

/** Section 8: the receiver's time to answer. */
export const webhookTimeoutMs = 5000;

export class WebhookDelivery {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly log: Logger,
    private readonly clock: Clock,
  ) {}

  /** Whether the tenant's configuration asks for this event (decision row 63). */
  wants(tenant: Tenant, event: Pick<ValidationFindingsEvent, 'issue_count'>): boolean {
    const { enabled, url, includeSuccessful } = tenant.webhook;
    return enabled && url !== null && (includeSuccessful || event.issue_count > 0);
  }

  /** Starts the delivery when the tenant wants the event, and returns at once. */
  send(tenant: Tenant, event: ValidationFindingsEvent): void {
    if (!this.wants(tenant, event)) return;
    const delivery = this.deliver(tenant, event).finally(() => this.inFlight.delete(delivery));
    this.inFlight.add(delivery);
  }

  /** Waits for the deliveries under way, at most `timeoutMs` (graceful shutdown). */
  async drain(timeoutMs = webhookTimeoutMs): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    await Promise.race([Promise.allSettled([...this.inFlight]), deadline]);
    clearTimeout(timer);
  }

  private async deliver(tenant: Tenant, event: ValidationFindingsEvent): Promise<void> {
    const { url, bearerToken, signingSecret } = tenant.webhook;
    const body = JSON.stringify(event);
    const timestamp = Math.floor(this.clock.now().getTime() / 1000);
    const headers: Record<string, string> = { 'content-type': 'application/json', 'groundcheck-event-id': event.event_id };
    if (bearerToken) headers.authorization = `Bearer ${bearerToken}`;
    if (signingSecret) {
      headers['webhook-id'] = event.event_id;
      headers['webhook-timestamp'] = String(timestamp);
      headers['webhook-signature'] = signWebhook(signingSecret, event.event_id, timestamp, body);
    }
    const client = createOutboundClient({
      allow: tenant.outboundAllow,
      connectTimeoutMs: webhookTimeoutMs,
      totalTimeoutMs: webhookTimeoutMs,
      maxBytes: 64 * 1024,
      maxRedirects: 0,
    });
    const ids = { customer_id: tenant.customerId, event_id: event.event_id, validation_id: event.validation_id };
    try {
      const response = await client.request(url!, { method: 'POST', headers, body, redirect: 'manual' });
      this.log.info({ ...ids, status: response.status }, 'webhook delivered');
      instruments().webhookDeliveries.add(1, { 'groundcheck.outcome': 'delivered' });
    } catch (error) {
      // Never the token or the URL's query: only what identifies the event and why it failed.
      const reason = error instanceof OutboundRefusal ? error.reason : 'error';
      instruments().webhookDeliveries.add(1, { 'groundcheck.outcome': reason });
      const status = error instanceof OutboundRefusal ? error.status : undefined;
      this.log.warn({ ...ids, reason, ...(status ? { status } : {}) }, 'webhook delivery failed; it is not retried');
    }
  }
}
