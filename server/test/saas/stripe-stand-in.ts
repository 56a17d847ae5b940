// A stand-in for the one Stripe endpoint the server calls, POST /v1/billing_portal/sessions, on
// 127.0.0.1: it records what the real Stripe SDK sends and answers as Stripe's API documents.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StripeEndpoint } from '../../src/services/saas/stripe-billing.js';

export interface StripeRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The form-encoded body, decoded. */
  form: Record<string, string>;
}

/** `session`: a portal session; `unavailable`: 503; `unknown_customer`: Stripe's 400 for a customer it does not know. */
export type StandInMode = 'session' | 'unavailable' | 'unknown_customer';

export interface StripeStandIn {
  endpoint: StripeEndpoint;
  requests: StripeRequest[];
  mode: StandInMode;
  /** The `created` time (Unix seconds) of the sessions it answers with. */
  created: number;
  close(): Promise<void>;
}

export const portalUrl = (id: string) => `https://billing.stripe.com/p/session/test_${id}`;

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const standIn: StripeStandIn = {
    endpoint: { host: '127.0.0.1', port: 0, protocol: 'http' },
    requests: [],
    mode: 'session',
    created: 1_790_000_000,
    close: async () => {},
  };
  let sessions = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(body));
      standIn.requests.push({ method: req.method!, path: req.url!, headers: req.headers, form });
      const reply = (status: number, json: object) => {
        // Tells the SDK not to retry, so a failure is answered at once.
        res.writeHead(status, {
          'content-type': 'application/json',
          'request-id': `req_standin${sessions}`,
          'stripe-should-retry': 'false',
        });
        res.end(JSON.stringify(json));
      };
      if (req.method !== 'POST' || req.url !== '/v1/billing_portal/sessions') {
        return reply(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${req.url}).` } });
      }
      if (standIn.mode === 'unavailable') return reply(503, { error: { type: 'api_error', message: 'Service unavailable.' } });
      if (standIn.mode === 'unknown_customer') {
        return reply(400, {
          error: {
            type: 'invalid_request_error',
            code: 'resource_missing',
            param: 'customer',
            message: `No such customer: '${form.customer}'`,
          },
        });
      }
      sessions += 1;
      const id = `bps_standin${String(sessions).padStart(6, '0')}`;
      reply(200, {
        id,
        object: 'billing_portal.session',
        configuration: 'bpc_standin',
        created: standIn.created,
        customer: form.customer,
        flow: null,
        livemode: false,
        locale: null,
        on_behalf_of: null,
        return_url: form.return_url ?? null,
        url: portalUrl(id),
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.endpoint.port = (server.address() as AddressInfo).port;
  standIn.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return standIn;
}
