// Every operation of the contract, called by every role and credential kind: the outcome must be
// what the operation's x-required-role, x-required-feature and x-api-key say.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadContract, type OperationInfo } from '../../src/contract/contract.js';
import { roleRank } from '../../src/contract/roles.js';
import { roles } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/harness.js';

const contract = loadContract();
const guarded = contract.operations.filter((op) => op.requiredRole !== 'none');

let server: TestServer;
const tokens: Record<string, string> = {};
before(async () => {
  server = await startTestServer();
  for (const role of roles) tokens[role] = await server.login('acme', role);
  tokens.globexAdmin = await server.login('globex', 'admin');
});
after(() => server.close());

/** A concrete path for the operation, with each id parameter filled with an id its pattern accepts. */
function concretePath(op: OperationInfo): string {
  const document = contract.document as {
    paths: Record<string, { parameters?: { $ref: string }[] }>;
    components: { parameters: Record<string, { schema: { $ref: string } }>; schemas: Record<string, { examples: string[] }> };
  };
  let path = op.pathTemplate;
  for (const ref of document.paths[op.pathTemplate]!.parameters ?? []) {
    const parameter = document.components.parameters[ref.$ref.split('/').pop()!]!;
    const example = document.components.schemas[parameter.schema.$ref.split('/').pop()!]!.examples[0]!;
    path = path.replace(/\{[^}]+\}/, example);
  }
  return path;
}

const call = (op: OperationInfo, body: object, token?: string) =>
  server.call(concretePath(op), body, { method: op.method, ...(token ? { token } : {}) });

test('the matrix covers every guarded operation of the contract', () => {
  assert.equal(guarded.length, 28, "the specification's 28 routes minus POST /auth/login, and the team's applyOperatingPoint");
});

for (const op of guarded) {
  describe(`${op.method} ${op.pathTemplate} (${op.requiredRole}${op.requiredFeature ? `, ${op.requiredFeature}` : ''}${op.acceptsApiKey ? ', API key' : ''})`, () => {
    test('refuses a caller without credentials', async () => {
      const reply = await call(op, {});
      assert.equal(reply.status, 401);
      assert.equal(reply.body.code, 'unauthenticated');
    });

    for (const role of roles) {
      const allowed = roleRank(role) >= roleRank(op.requiredRole);
      test(`${allowed ? 'admits' : 'refuses'} a ${role} user`, async () => {
        const reply = await call(op, {}, tokens[role]);
        if (allowed) assert.ok(![401, 403].includes(reply.status), `${reply.status} ${reply.text}`);
        else assert.deepEqual([reply.status, reply.body.code], [403, 'insufficient_role']);
      });

      test(`${!op.acceptsApiKey ? 'refuses any API key' : allowed ? `admits a ${role} API key` : `refuses a ${role} API key`}`, async () => {
        const reply = await call(op, server.apiKeyBody('acme', role));
        if (!op.acceptsApiKey) assert.deepEqual([reply.status, reply.body.code], [403, 'api_key_not_allowed']);
        else if (allowed) assert.ok(![401, 403].includes(reply.status), `${reply.status} ${reply.text}`);
        else assert.deepEqual([reply.status, reply.body.code], [403, 'insufficient_role']);
      });
    }

    test(op.requiredFeature ? `answers feature_disabled without ${op.requiredFeature}` : 'needs no feature', async () => {
      const reply = await call(op, {}, tokens.globexAdmin);
      if (op.requiredFeature) assert.deepEqual([reply.status, reply.body.code], [403, 'feature_disabled']);
      else assert.ok(![401, 403].includes(reply.status), `${reply.status} ${reply.text}`);
    });
  });
}
