// Provider side: the contract scenarios against the reference server through `prism proxy --errors`,
// which checks every request and response against openapi.yaml and turns a violation into an error
// answer (the recorder fails the run on it). Requests the contract itself rejects go to the server
// directly, since the proxy would answer them; the recorder checks those answers too. The
// webhook the server delivers after a validation is checked against the contract's `webhooks:`.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { verifyWebhook } from '../../../sdk/src/index.js';
import { type StripeStandIn, startStripeStandIn } from '../../../server/test/saas/stripe-stand-in.js';
import { tenantsOf } from '../../../server/test/support/audit.js';
import { type Fixture, writeFixture } from '../../../server/test/support/fixtures.js';
import { startTestServer, type TestServer } from '../../../server/test/support/harness.js';
import { decideFlagged } from '../../../server/test/support/history.js';
import { dereferencedSpec, operations, rawSpec, specPath } from '../../support/spec.js';
import { missingPairs, staleExemptions, summary } from './coverage.js';
import { type RunningProxy, startPrismProxy } from './prism-proxy.js';
import { createRecorder } from './recorder.js';
import { scenarios, tabledOperations } from './scenarios.js';

const spec = rawSpec();
const recorder = createRecorder(spec);
const webhookToken = 'scenario-webhook-token-0123';
const deliveries: { headers: IncomingHttpHeaders; body: string }[] = [];
const receiver = createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    deliveries.push({ headers: req.headers, body });
    res.writeHead(204).end();
  });
});
let standIn: StripeStandIn;
let server: TestServer;
let proxy: RunningProxy;

describe('the contract scenarios against the reference server, through prism proxy --errors', () => {
  before(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    standIn = await startStripeStandIn();
    const fixture = await writeFixture({
      overrides: {
        acme: {
          outbound: { allow: ['127.0.0.1'] },
          workflow: { review_required: 'always' },
          engine: { calibration: { min_decisions: 20, min_each: 5 } },
          billing: { stripe_customer_id: 'cus_Scenario0123456789' },
          webhook: {
            enabled: true,
            include_successful: true,
            url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
            bearer_token: webhookToken,
          },
        },
      },
    });
    server = await startTestServer({
      fixture,
      env: { STRIPE_SECRET_KEY: 'sk_test_51ScenarioKey0123456789abcdef' },
      stripeEndpoint: standIn.endpoint,
    });
    proxy = await startPrismProxy(specPath, server.url);
    await seedDecisions(server, fixture);
  });
  after(async () => {
    await proxy.close();
    await server.close();
    await standIn.close();
    receiver.closeAllConnections();
    receiver.close();
  });

  scenarios(() => {
    const key = server.apiKeyBody('acme', 'admin');
    return { live: true, url: proxy.url, invalidUrl: server.url, recorder, apiKey: { customerId: key.customer_id, apiKey: key.api_key } };
  });

  test('every request and response kept the contract', () => {
    assert.deepEqual(recorder.problems, []);
    assert.doesNotMatch(proxy.output(), /VIOLATIONS|UNPROCESSABLE_ENTITY|UNAUTHORIZED/, 'Prism reported a violation');
  });

  test('every operation and required status was exercised', (t) => {
    t.diagnostic(summary(spec, recorder.exchanges));
    assert.deepEqual(missingPairs(spec, recorder.exchanges), []);
    assert.deepEqual(staleExemptions(spec), []);
    assert.deepEqual(
      tabledOperations.sort(),
      operations(spec)
        .map((o) => o.operation.operationId!)
        .sort(),
    );
  });

  // Last, since it leaves a violation in Prism's log on purpose.
  test('the proxy catches a violation: a request the contract rejects is a problem of the run', async () => {
    const probe = createRecorder(spec);
    const request = new Request(`${proxy.url}/auth/me`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer not-a-jwt' },
      body: JSON.stringify({ unexpected_field: true }),
    });
    const response = await probe.fetch(request);
    assert.equal(response.status, 422);
    assert.equal(probe.problems.length, 1);
    assert.match(probe.problems[0]!, /POST \/auth\/me → 422: Prism found a violation: .*UNPROCESSABLE_ENTITY/);
  });

  test('the delivered webhooks match the contract’s webhooks: schema and carry the configured token', async () => {
    for (let i = 0; i < 100 && deliveries.length === 0; i += 1) await sleep(20);
    assert.ok(deliveries.length > 0, 'the server delivered the findings webhook');
    const webhook = (await dereferencedSpec()).webhooks!['service.validation.findings'] as unknown as {
      post: { requestBody: { content: { 'application/json': { schema: object } } } };
    };
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const validate = ajv.compile(webhook.post.requestBody.content['application/json'].schema);
    for (const delivery of deliveries) {
      const event = await verifyWebhook({ headers: delivery.headers, body: delivery.body, token: webhookToken });
      assert.ok(validate(event), ajv.errorsText(validate.errors));
    }
  });
});

/**
 * acme's reviewers decided 30 flagged answers, one an hour: they rejected those of high risk (0.9) and approved those
 * of moderate risk (0.4), so a point fitted to them (supported_score 0.1) beats the current one and can be applied.
 */
async function seedDecisions(server: TestServer, fixture: Fixture): Promise<void> {
  const acme = tenantsOf(fixture).acme!;
  const start = Date.now() - 31 * 60 * 60 * 1000;
  for (let hour = 0; hour < 30; hour++) {
    const wrong = hour % 2 === 0;
    await decideFlagged(server, acme, { createdAt: new Date(start + hour * 60 * 60 * 1000), risk: wrong ? 0.9 : 0.4, wrong });
  }
}
