// Every operation against bodies that are missing, empty, an array or a scalar: a clear 400 (or the
// refusal of its credentials or feature first), never a 500, for admins of a tenant with every feature.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadContract } from '../../src/contract/contract.js';
import { startTestServer, type TestServer } from '../support/harness.js';

const contract = loadContract();
const document = contract.document as { paths: Record<string, Record<string, { requestBody?: { required?: boolean } }>> };
const bodies: { name: string; raw: string | undefined; json: boolean }[] = [
  { name: 'no body', raw: undefined, json: false },
  { name: 'an empty body', raw: '', json: true },
  { name: 'an array', raw: '[]', json: true },
  { name: 'a number', raw: '1', json: true },
  { name: 'a string', raw: '"x"', json: true },
  { name: 'null', raw: 'null', json: true },
];

let server: TestServer;
let token: string;

describe('bodies that are not objects', () => {
  before(async () => {
    server = await startTestServer();
    token = await server.login('acme', 'admin');
  });
  after(() => server.close());

  for (const operation of contract.operations) {
    const requestBody = document.paths[operation.pathTemplate]![operation.method.toLowerCase()]!.requestBody;
    if (!requestBody) continue;
    it(`${operation.operationId} refuses them with 400`, async () => {
      const path = operation.pathTemplate.replace(/\{[^}]+\}/g, 'val_01J0000000000000000000000A');
      for (const body of bodies) {
        const headers: Record<string, string> = { authorization: `Bearer ${token}` };
        if (body.json) headers['content-type'] = 'application/json';
        const response = await fetch(server.url + path, { method: operation.method, headers, body: body.raw });
        const text = await response.text();
        assert.ok(response.status < 500, `${operation.operationId} with ${body.name}: ${response.status} ${text}`);
        const refusedFirst = [401, 403, 404, 415].includes(response.status);
        const missing = body.raw === undefined || body.raw === '';
        if (!missing || requestBody.required)
          assert.ok(response.status === 400 || refusedFirst, `${operation.operationId} with ${body.name}: ${response.status} ${text}`);
      }
    });
  }
});
