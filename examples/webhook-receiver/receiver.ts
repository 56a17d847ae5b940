// An Express receiver for Groundcheck's `service.validation.findings` webhook.
//
//   WEBHOOK_TOKENS=current-token[,previous-token] [WEBHOOK_SIGNING_SECRETS=whsec_...[,whsec_...]] PORT=8080 \
//     npx tsx examples/webhook-receiver/receiver.ts
//
// It verifies the bearer token with the SDK (constant time; two tokens while the operator rotates
// it) and, when the operator set a signing secret, the Standard Webhooks signature over the raw
// body; answers 401 when either fails and 204 at once when both pass (Groundcheck waits 5 seconds
// and never retries); then hands the event to your code on a later tick, once per event_id.
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { type ValidationFindingsEvent, verifyWebhook, WebhookVerificationError } from '@groundcheck/sdk';
import express, { type Express } from 'express';

export interface ReceiverOptions {
  /** The tenant's `webhook.bearer_token`; during a rotation the new and the old one. */
  tokens: string[];
  /** The tenant's `webhook.signing_secret` (`whsec_…`), when the operator set one; two during a rotation. */
  signingSecrets?: string[];
  /** Your work. It runs after the answer is sent, so it may take as long as it needs. */
  onEvent(event: ValidationFindingsEvent): void | Promise<void>;
  /** How many event ids to remember for deduplication. */
  remember?: number;
}

export function createReceiverApp({ tokens, signingSecrets, onEvent, remember = 10_000 }: ReceiverOptions): Express {
  const seen = new Set<string>();
  /**
   * Deliveries are not retried, but the same event can still arrive twice (a replayed request,
   * two receivers behind one URL): the event id decides.
   */
  const firstDelivery = (eventId: string): boolean => {
    if (seen.has(eventId)) return false;
    seen.add(eventId);
    if (seen.size > remember) seen.delete(seen.values().next().value!);
    return true;
  };
  const app = express();
  // The signature covers the bytes as sent, so the body is kept raw; the SDK parses and checks it.
  app.post('/', express.raw({ type: () => true, limit: '1mb' }), async (req, res) => {
    let event: ValidationFindingsEvent;
    try {
      event = await verifyWebhook({
        headers: req.headers,
        body: Buffer.isBuffer(req.body) ? req.body : '',
        token: tokens,
        signingSecret: signingSecrets?.length ? signingSecrets : undefined,
      });
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      // Say nothing about what failed: the caller may be someone probing for the token.
      res.sendStatus(error.code === 'invalid_payload' ? 400 : 401);
      return;
    }
    res.sendStatus(204);
    if (firstDelivery(event.event_id)) consumeLater(event, onEvent);
  });
  return app;
}

/** Off the request: in production, put the event on a durable queue here instead. */
function consumeLater(event: ValidationFindingsEvent, onEvent: ReceiverOptions['onEvent']): void {
  setImmediate(() => {
    Promise.resolve()
      .then(() => onEvent(event))
      .catch((error: unknown) => console.error(`webhook consumer failed for ${event.event_id}`, error));
  });
}

/** The receiver as a Node HTTP server (call `.listen()`). */
export function createReceiver(options: ReceiverOptions): Server {
  return createServer(createReceiverApp(options));
}

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const tokens = list(process.env.WEBHOOK_TOKENS);
  if (tokens.length === 0) {
    console.error('Set WEBHOOK_TOKENS to the bearer token configured for your tenant (comma-separated while rotating).');
    process.exit(1);
  }
  const port = Number(process.env.PORT ?? 8080);
  createReceiver({
    tokens,
    signingSecrets: list(process.env.WEBHOOK_SIGNING_SECRETS),
    onEvent: (event) =>
      console.log(
        `${event.validation_id}: ${event.issue_count} issue(s), severity ${event.severity}, confidence ${event.confidence_level}`,
      ),
  }).listen(port, () => console.log(`Listening for Groundcheck webhooks on port ${port}`));
}
