// The extraction cache on embedded Azurite: a file's text is extracted once and then read from the
// tenant's storage; failures that depend on the file are kept, those that depend on the machine are
// not; concurrent uses share one extraction; tenants never share entries.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { ObjectStorage, TenantObjectStorage } from '../../src/blobs/object-storage.js';
import { openObjectStorage } from '../../src/blobs/open-object-storage.js';
import { createLogger } from '../../src/logger.js';
import {
  ExtractionCache,
  type Extractor,
  extractionKey,
  type FileToExtract,
  forgetExtractions,
} from '../../src/services/sources/extraction-cache.js';
import type { ExtractionResult } from '../../src/services/sources/text-extraction.js';

const log = createLogger('silent');
let storage: ObjectStorage;
let acme: TenantObjectStorage;

before(async () => {
  storage = await openObjectStorage({ account: null, container: 'extraction-cache-test', log });
  acme = storage.forTenant('acme');
});
after(() => storage.close());

/** An extractor that answers `outcome` (by default the bytes as text) and counts its calls. */
function countingExtractor(outcome?: ExtractionResult): Extractor & { calls: number } {
  const extractor = Object.assign(
    async (bytes: Uint8Array) => {
      extractor.calls += 1;
      await new Promise((resolve) => setTimeout(resolve, 20)); // long enough for concurrent callers to overlap
      return outcome ?? { ok: true as const, text: Buffer.from(bytes).toString('utf8'), truncated: false };
    },
    { calls: 0 },
  );
  return extractor;
}

let counter = 0;
/** A file with content of its own (so tests do not share entries) and a count of reads of its bytes. */
function file(contentType = 'text/plain'): FileToExtract & { reads: number; text: string } {
  const text = `Policy ${++counter} at ${Date.now()}: refunds within 14 days.`;
  const entry = {
    text,
    sha256: createHash('sha256').update(text).digest('hex'),
    contentType,
    reads: 0,
    readBytes: async () => {
      entry.reads += 1;
      return new TextEncoder().encode(text);
    },
  };
  return entry;
}

describe('ExtractionCache', () => {
  it('extracts a file once; later uses read the kept text without reading the file', async () => {
    const extractor = countingExtractor();
    const source = file();
    const first = await new ExtractionCache(extractor).textOf(acme, source, log);
    assert.deepEqual(first, { ok: true, text: source.text, truncated: false });
    assert.ok(await acme.getProperties(extractionKey(source.sha256, 'text/plain')), 'kept under the tenant');
    // A fresh cache object (as after a restart) finds the kept text too.
    const second = await new ExtractionCache(extractor).textOf(acme, source, log);
    assert.deepEqual(second, first);
    assert.equal(extractor.calls, 1);
    assert.equal(source.reads, 1);
  });

  it('keeps the same bytes apart by content type and by tenant', async () => {
    const extractor = countingExtractor();
    const cache = new ExtractionCache(extractor);
    const source = file('text/plain');
    await cache.textOf(acme, source, log);
    await cache.textOf(acme, { ...source, contentType: 'text/html' }, log);
    await cache.textOf(storage.forTenant('globex'), source, log);
    assert.equal(extractor.calls, 3);
    assert.notEqual(extractionKey(source.sha256, 'text/plain'), extractionKey(source.sha256, 'text/html'));
  });

  it('concurrent uses of one file share one extraction', async () => {
    const extractor = countingExtractor();
    const cache = new ExtractionCache(extractor);
    const source = file();
    const results = await Promise.all([1, 2, 3].map(() => cache.textOf(acme, source, log)));
    assert.equal(extractor.calls, 1);
    assert.ok(results.every((r) => r.ok && r.text === source.text));
  });

  it('keeps a failure that belongs to the file, not one that belongs to the machine', async () => {
    const noText = countingExtractor({ ok: false, reason: 'no_text', detail: 'scanned' });
    const scanned = file('application/pdf');
    await new ExtractionCache(noText).textOf(acme, scanned, log);
    assert.deepEqual(await new ExtractionCache(noText).textOf(acme, scanned, log), { ok: false, reason: 'no_text', detail: 'scanned' });
    assert.equal(noText.calls, 1);

    const timeout = countingExtractor({ ok: false, reason: 'timeout', detail: 'slow' });
    const slow = file('application/pdf');
    await new ExtractionCache(timeout).textOf(acme, slow, log);
    await new ExtractionCache(timeout).textOf(acme, slow, log);
    assert.equal(timeout.calls, 2);
    assert.equal(await acme.getProperties(extractionKey(slow.sha256, 'application/pdf')), null);
  });

  it('a file that cannot be read is reported as unreadable and nothing is kept', async () => {
    const extractor = countingExtractor();
    const gone = { ...file(), readBytes: async () => null };
    assert.equal((await new ExtractionCache(extractor).textOf(acme, gone, log)).ok, false);
    assert.equal(((await new ExtractionCache(extractor).textOf(acme, gone, log)) as { reason: string }).reason, 'unreadable');
    assert.equal(extractor.calls, 0);
    assert.equal(await acme.getProperties(extractionKey(gone.sha256, 'text/plain')), null);
  });

  it('a damaged entry is extracted again and rewritten', async () => {
    const extractor = countingExtractor();
    const source = file();
    const key = extractionKey(source.sha256, 'text/plain');
    await acme.write(key, new TextEncoder().encode('{"ok":tr'), { contentType: 'application/json' });
    assert.equal(((await new ExtractionCache(extractor).textOf(acme, source, log)) as { text: string }).text, source.text);
    assert.equal(extractor.calls, 1);
    const kept = await acme.read(key, { maxBytes: 1 << 20 });
    assert.ok(kept.ok);
    assert.equal(JSON.parse(kept.bytes.toString('utf8')).text, source.text);
  });

  it('forgetExtractions removes every kept outcome of a hash', async () => {
    const source = file();
    const cache = new ExtractionCache(countingExtractor());
    await cache.textOf(acme, source, log);
    await cache.textOf(acme, { ...source, contentType: 'text/markdown' }, log);
    await forgetExtractions(acme, [source.sha256]);
    assert.equal(await acme.getProperties(extractionKey(source.sha256, 'text/plain')), null);
    assert.equal(await acme.getProperties(extractionKey(source.sha256, 'text/markdown')), null);
  });
});
