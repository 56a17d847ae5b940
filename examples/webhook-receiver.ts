// A receiver for Groundcheck's `service.validation.findings` webhook, with no framework.
//
//   WEBHOOK_TOKENS=current-token[,previous-token] [WEBHOOK_SIGNING_SECRET=whsec_...] PORT=8080 \
//     npx tsx examples/webhook-receiver.ts
//
// It verifies the bearer token (several while the operator rotates it) and, when the operator set a
// signing secret, the Standard Webhooks signature; answers at once (Groundcheck waits 5 seconds and
// never retries), and skips events it has already seen, by event_id.
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { type ValidationFindingsEvent, verifyWebhook, WebhookVerificationError } from '@groundcheck/sdk';

export interface ReceiverOptions {
  tokens: string[];
  /** The tenant's `webhook.signing_secret` (`whsec_…`), when the operator set one. */
  signingSecret?: string;
  onEvent(event: ValidationFindingsEvent): void | Promise<void>;
  /** How many event ids to remember for deduplication. */
  remember?: number;
}

export function createReceiver({ tokens, signingSecret, onEvent, remember = 10_000 }: ReceiverOptions): Server {
  const seen = new Set<string>();
  return createServer(async (req, res) => {
    if (req.method !== 'POST') return res.writeHead(405, { allow: 'POST' }).end();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    try {
      const event = await verifyWebhook({
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        token: tokens,
        signingSecret,
      });
      res.writeHead(204).end();
      if (seen.has(event.event_id)) return;
      seen.add(event.event_id);
      if (seen.size > remember) seen.delete(seen.values().next().value!);
      // Hand the event on after answering: the webhook is a hint, so a slow consumer must not make
      // the delivery fail. Reconcile with POST /api/v1/history when nothing may be missed.
      await onEvent(event);
    } catch (error) {
      if (res.headersSent) return console.error('webhook consumer failed', error);
      const unauthorized = error instanceof WebhookVerificationError && error.code !== 'invalid_payload';
      res.writeHead(unauthorized ? 401 : 400).end();
    }
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const tokens = (process.env.WEBHOOK_TOKENS ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  if (tokens.length === 0) {
    console.error('Set WEBHOOK_TOKENS to the bearer token configured for your tenant (comma-separated while rotating).');
    process.exit(1);
  }
  const port = Number(process.env.PORT ?? 8080);
  createReceiver({
    tokens,
    signingSecret: process.env.WEBHOOK_SIGNING_SECRET || undefined,
    onEvent: (event) =>
      console.log(
        `${event.validation_id}: ${event.issue_count} issue(s), severity ${event.severity}, confidence ${event.confidence_level}`,
      ),
  }).listen(port, () => console.log(`Listening for Groundcheck webhooks on port ${port}`));
}
