// Cosmos DB without a key: the server signs in with its Azure identity (DefaultAzureCredential), here
// a managed identity whose token endpoint is a loopback server, as Azure Container Apps and App
// Service provide one (IDENTITY_ENDPOINT, IDENTITY_HEADER). @azure/cosmos sends tokens over TLS only,
// so the emulator is reached through a loopback TLS front with the emulator package's own
// self-signed certificate (trusted by this test process only). The emulator accepts any
// credentials, so the test checks what reaches it: Entra ID tokens, never a key.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type CosmosStore, openCosmos } from '../../src/cosmos/cosmos.js';
import { createEmbeddedCosmos } from '../../src/cosmos/embedded-cosmos.js';
import { createLogger } from '../../src/logger.js';
import { forwardTo } from '../support/emulator-front.js';

const identityHeader = 'loopback-identity-header';
const tokenRequests: { url: string; header: string | undefined }[] = [];
const tokenEndpoint = createServer((req, res) => {
  tokenRequests.push({ url: req.url ?? '', header: req.headers['x-identity-header'] as string | undefined });
  const resource = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('resource');
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      access_token: `token-for-${resource}`,
      expires_on: String(Math.floor(Date.now() / 1000) + 3600),
      resource,
      token_type: 'Bearer',
    }),
  );
});
const emulator = createEmbeddedCosmos();
const authorizations: string[] = [];
emulator.on('request', (req: IncomingMessage) => authorizations.push(decodeURIComponent(String(req.headers.authorization))));
const emulatorPackage = dirname(createRequire(import.meta.url).resolve('@vercel/cosmosdb-server/package.json'));
const tlsFront = createTlsServer(
  { cert: readFileSync(join(emulatorPackage, 'cert.pem')), key: readFileSync(join(emulatorPackage, 'key.pem')) },
  forwardTo(emulator),
);

describe('Cosmos DB with the Azure identity', () => {
  let cosmos: CosmosStore;
  let endpoint: string;
  before(async () => {
    await new Promise<void>((resolve) => tokenEndpoint.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => emulator.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => tlsFront.listen(0, '127.0.0.1', resolve));
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
    for (const name of ['AZURE_CLIENT_ID', 'AZURE_TENANT_ID', 'AZURE_CLIENT_SECRET', 'AZURE_FEDERATED_TOKEN_FILE', 'MSI_ENDPOINT'])
      delete process.env[name];
    process.env.IDENTITY_ENDPOINT = `http://127.0.0.1:${(tokenEndpoint.address() as AddressInfo).port}/msi/token`;
    process.env.IDENTITY_HEADER = identityHeader;
    endpoint = `https://127.0.0.1:${(tlsFront.address() as AddressInfo).port}`;
    cosmos = await openCosmos({ cosmos: { endpoint, key: null }, databaseId: 'identity', log: createLogger('silent') });
  });
  after(async () => {
    await cosmos.close();
    emulator.closeAllConnections();
    await new Promise<void>((resolve) => emulator.close(() => resolve()));
    tlsFront.closeAllConnections();
    await new Promise<void>((resolve) => tlsFront.close(() => resolve()));
    await new Promise<void>((resolve) => tokenEndpoint.close(() => resolve()));
  });

  it('reads and writes with a token from the managed identity, and sends no key', async () => {
    const history = cosmos.container('history');
    await history.items.create({ id: 'item-1', customer_id: 'harbour', record: 'note' });
    const { resource } = await history.item('item-1', 'harbour').read();
    assert.equal(resource.record, 'note');
    assert.ok(tokenRequests.length >= 1);
    assert.ok(tokenRequests.every((r) => r.header === identityHeader));
    assert.ok(authorizations.length > 0);
    for (const authorization of authorizations) {
      assert.match(authorization, /^type=aad&ver=1\.0&sig=token-for-/);
      assert.doesNotMatch(authorization, /type=master/);
    }
  });
});
