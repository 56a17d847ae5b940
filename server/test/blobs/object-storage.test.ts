// The storage port against an embedded Azurite: presigned uploads from plain fetch, what a SAS can
// and cannot do, reads, listing, deletes and tenant isolation.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { azuriteAccount } from '../../src/blobs/embedded-azurite.js';
import type { ObjectStorage, TenantObjectStorage } from '../../src/blobs/object-storage.js';
import { openObjectStorage, StorageConfigError } from '../../src/blobs/open-object-storage.js';
import { StorageKeyError, tenantKey } from '../../src/blobs/tenant-key.js';

function capturingLogger() {
  const lines: Array<{ level: number; msg: string }> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { log: pino({ level: 'info' }, sink), lines };
}

async function upload(storage: TenantObjectStorage, key: string, body: string | Uint8Array<ArrayBuffer>, contentType = 'text/plain') {
  const presigned = await storage.presignUpload(key, { contentType, now: new Date(), replaceable: true });
  return fetch(presigned.upload_url, { method: presigned.method, headers: presigned.headers, body });
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

describe('object storage on embedded Azurite', () => {
  let storage: ObjectStorage;
  let acme: TenantObjectStorage;
  let globex: TenantObjectStorage;
  const logged = capturingLogger();

  before(async () => {
    storage = await openObjectStorage({ account: null, container: 'groundcheck-test', log: logged.log });
    acme = storage.forTenant('acme');
    globex = storage.forTenant('globex');
  });
  after(() => storage.close());

  it('says loudly that files are held in memory', () => {
    assert.equal(storage.embedded, true);
    const warning = logged.lines.find((line) => line.level === 40);
    assert.match(warning?.msg ?? '', /HELD IN MEMORY/);
  });

  it('presigns an upload that plain fetch can PUT, and reads it back', async () => {
    const presigned = await acme.presignUpload('sources/grp_1/fil_1', {
      contentType: 'application/pdf',
      expiresInMs: 60_000,
      now: new Date(),
    });
    assert.equal(presigned.method, 'PUT');
    assert.deepEqual(presigned.headers, { 'x-ms-blob-type': 'BlockBlob', 'content-type': 'application/pdf' });
    const expiresIn = Date.parse(presigned.expires_at) - Date.now();
    assert.ok(expiresIn > 55_000 && expiresIn <= 60_000, `expires in ${expiresIn} ms`);
    const url = new URL(presigned.upload_url);
    assert.equal(url.searchParams.get('sp'), 'c', 'creates the object once, never replaces it');
    assert.ok(url.pathname.endsWith('/groundcheck-test/tenants/acme/sources/grp_1/fil_1'));

    const response = await fetch(presigned.upload_url, { method: 'PUT', headers: presigned.headers, body: '%PDF-1.7 test bytes' });
    assert.equal(response.status, 201);

    const properties = await acme.getProperties('sources/grp_1/fil_1');
    assert.equal(properties?.sizeBytes, 19);
    assert.equal(properties?.contentType, 'application/pdf');
    const read = await acme.read('sources/grp_1/fil_1', { maxBytes: 1024 });
    assert.ok(read.ok);
    assert.equal(read.bytes.toString(), '%PDF-1.7 test bytes');
  });

  it('gives the SAS create and write rights on its one blob only', async () => {
    const presigned = await acme.presignUpload('sources/grp_1/fil_sas', { contentType: 'text/plain', now: new Date() });
    assert.equal((await fetch(presigned.upload_url, { method: 'PUT', headers: presigned.headers, body: 'mine' })).status, 201);
    assert.equal((await fetch(presigned.upload_url)).status, 403, 'read');
    assert.equal((await fetch(presigned.upload_url, { method: 'HEAD' })).status, 403, 'head');
    assert.equal((await fetch(presigned.upload_url, { method: 'DELETE' })).status, 403, 'delete');
    const other = presigned.upload_url.replace('/fil_sas?', '/fil_other?');
    assert.equal((await fetch(other, { method: 'PUT', headers: presigned.headers, body: 'x' })).status, 403, 'another blob');
    const container = new URL(presigned.upload_url);
    container.pathname = container.pathname.replace(/\/tenants\/.*$/, '');
    container.searchParams.set('restype', 'container');
    container.searchParams.set('comp', 'list');
    assert.equal((await fetch(container)).status, 403, 'list');
    assert.equal(await acme.getProperties('sources/grp_1/fil_other'), null);
  });

  it('refuses an upload after the SAS expired', async () => {
    const presigned = await acme.presignUpload('sources/grp_1/late', { contentType: 'text/plain', expiresInMs: -60_000, now: new Date() });
    const response = await fetch(presigned.upload_url, { method: 'PUT', headers: presigned.headers, body: 'late' });
    assert.equal(response.status, 403);
    assert.equal(await acme.getProperties('sources/grp_1/late'), null);
  });

  it('reads with a size limit, a version check and a byte range', async () => {
    assert.equal((await upload(acme, 'templates/tpl_1', 'Hello, {{customer_name}}!')).status, 201);
    const tooLarge = await acme.read('templates/tpl_1', { maxBytes: 5 });
    assert.deepEqual(tooLarge, { ok: false, reason: 'too_large', sizeBytes: 25 });
    assert.deepEqual(await acme.read('templates/missing', { maxBytes: 5 }), { ok: false, reason: 'not_found' });

    const { etag } = (await acme.getProperties('templates/tpl_1'))!;
    assert.ok((await acme.read('templates/tpl_1', { maxBytes: 100, ifMatch: etag })).ok);
    assert.equal((await upload(acme, 'templates/tpl_1', 'replaced')).status, 201);
    assert.deepEqual(await acme.read('templates/tpl_1', { maxBytes: 100, ifMatch: etag }), { ok: false, reason: 'changed' });

    const stream = await acme.readStream('templates/tpl_1', { offset: 0, count: 4 });
    assert.ok(stream);
    assert.equal(Buffer.concat(await collect(stream as AsyncIterable<Buffer>)).toString(), 'repl');
    assert.equal(await acme.readStream('templates/missing'), null);
  });

  it('lists by prefix with tenant-relative keys, and deletes', async () => {
    for (const key of ['sources/grp_list/a', 'sources/grp_list/b', 'sources/grp_listing/c']) {
      assert.equal((await upload(acme, key, key)).status, 201);
    }
    const listed = await collect(acme.list('sources/grp_list/'));
    assert.deepEqual(
      listed.map((item) => item.key),
      ['sources/grp_list/a', 'sources/grp_list/b'],
    );
    assert.equal(listed[0]!.sizeBytes, 'sources/grp_list/a'.length);
    assert.equal((await collect(acme.list('sources/grp_list'))).length, 3);

    assert.equal(await acme.delete('sources/grp_list/a'), true);
    assert.equal(await acme.delete('sources/grp_list/a'), false);
    assert.equal(await acme.deletePrefix('sources/grp_list'), 2);
    assert.deepEqual(await collect(acme.list('sources/grp_list')), []);
  });

  it('keeps tenants apart', async () => {
    assert.equal((await upload(acme, 'sources/grp_shared/fil_x', 'acme only')).status, 201);
    assert.equal(await globex.getProperties('sources/grp_shared/fil_x'), null);
    assert.deepEqual(await globex.read('sources/grp_shared/fil_x', { maxBytes: 100 }), { ok: false, reason: 'not_found' });
    assert.equal(await globex.delete('sources/grp_shared/fil_x'), false);
    assert.deepEqual(await collect(globex.list('')), []);
    assert.ok((await collect(acme.list(''))).every((item) => !item.key.startsWith('tenants/')));
    assert.ok(await acme.getProperties('sources/grp_shared/fil_x'));
  });

  it('refuses keys and customer ids that could leave the tenant prefix', async () => {
    for (const key of [
      '',
      '../globex/sources/x',
      'sources/../../globex/x',
      '/sources/x',
      'sources//x',
      'sources/x/',
      'a/./b',
      'a\\b',
      'a\u0000b',
      'a\nb',
      'a b',
      '%2e%2e/x',
      'a/..',
    ]) {
      assert.throws(() => tenantKey('acme', key), StorageKeyError, JSON.stringify(key));
      await assert.rejects(acme.presignUpload(key, { contentType: 'text/plain', now: new Date() }), StorageKeyError);
    }
    for (const customerId of ['Acme', '../globex', 'a', 'acme/x', '']) {
      assert.throws(() => storage.forTenant(customerId), StorageKeyError, customerId);
    }
    assert.throws(() => acme.list('../'), StorageKeyError);
    assert.equal(tenantKey('acme', 'extracted/0123abcd.json'), 'tenants/acme/extracted/0123abcd.json');
  });

  it('answers ping', async () => {
    assert.equal(await storage.ping(), true);
  });
});

describe('opening storage', () => {
  const quiet = pino({ level: 'silent' });

  it('uses an account from a connection string, and stops its own emulator on close', async () => {
    const embedded = await openObjectStorage({ account: null, container: 'shared', log: quiet });
    const key = (await embedded.forTenant('acme').presignUpload('k', { contentType: 'text/plain', now: new Date() })).upload_url;
    const endpoint = key.slice(0, key.indexOf('/shared/'));
    const connectionString = `DefaultEndpointsProtocol=http;AccountName=${azuriteAccount.name};AccountKey=${azuriteAccount.key};BlobEndpoint=${endpoint};`;
    const configured = await openObjectStorage({ account: { connectionString }, container: 'shared', log: quiet });
    assert.equal(configured.embedded, false);
    assert.equal((await upload(configured.forTenant('acme'), 'k', 'via connection string')).status, 201);
    const read = await embedded.forTenant('acme').read('k', { maxBytes: 100 });
    assert.ok(read.ok && read.bytes.toString() === 'via connection string');

    const byKey = await openObjectStorage({
      account: { accountName: azuriteAccount.name, accountKey: azuriteAccount.key, endpoint },
      container: 'shared',
      log: quiet,
    });
    assert.equal(await byKey.ping(), true);

    await embedded.close();
    assert.equal(await configured.ping(), false);
    await configured.close();
    await byKey.close();
  });

  it('refuses a bad container name and a connection string without a key', async () => {
    await assert.rejects(openObjectStorage({ account: null, container: 'ab', log: quiet }), StorageConfigError);
    await assert.rejects(openObjectStorage({ account: null, container: 'Files_1', log: quiet }), StorageConfigError);
    const sasOnly = 'BlobEndpoint=http://127.0.0.1:9/devstoreaccount1;SharedAccessSignature=sv=2020-08-04&sig=x';
    await assert.rejects(openObjectStorage({ account: { connectionString: sasOnly }, container: 'files', log: quiet }), StorageConfigError);
  });
});
