// A ZIP of JSON Lines files written as their records are read (yazl): each file is asked for its
// pages only when the archive reaches it, its bytes are counted and hashed on the way, and the
// manifest, which needs those counts and hashes, is the last entry. Memory holds one page.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { ZipFile } from 'yazl';

/** A file of the bundle as the manifest lists it. */
export interface BundledFile {
  name: string;
  /** Lines, one record each. */
  records: number;
  bytes: number;
  sha256: string;
}

export interface JsonLinesFile {
  name: string;
  /** Opened when the archive reaches the file. */
  pages: () => AsyncIterable<object[]>;
}

export interface ZipBundleOptions {
  files: JsonLinesFile[];
  /** The manifest's name and content, from the summaries of every file written before it. */
  manifest: { name: string; content: (files: BundledFile[]) => object };
  /** The time stamped on every entry. */
  modifiedAt: Date;
  /** Aborted when nobody reads the archive any more: the file being read stops at its next page. */
  signal: AbortSignal;
}

export function zipBundle({ files, manifest, modifiedAt, signal }: ZipBundleOptions): Readable {
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  const summaries: BundledFile[] = [];
  let current: Readable | null = null;
  const stop = (error: Error) => {
    current?.destroy(error);
    output.destroy(error);
  };
  const onAbort = () => stop(new Error('the client stopped reading the export'));
  signal.addEventListener('abort', onAbort, { once: true });
  output.once('close', () => signal.removeEventListener('abort', onAbort));

  for (const file of files) {
    zip.addReadStreamLazy(file.name, { mtime: modifiedAt }, (open) => {
      const summary: BundledFile = { name: file.name, records: 0, bytes: 0, sha256: '' };
      const hash = createHash('sha256');
      current = Readable.from(jsonLines(file.pages(), summary, hash), { objectMode: false });
      // yazl leaves a failing input stream to its caller: a failure mid-way cuts the archive short.
      current.once('error', stop);
      current.once('end', () => {
        summary.sha256 = hash.digest('hex');
        summaries.push(summary);
      });
      open(null, current);
    });
  }
  zip.addReadStreamLazy(manifest.name, { mtime: modifiedAt }, (open) => {
    current = null;
    open(null, Readable.from([Buffer.from(`${JSON.stringify(manifest.content(summaries), null, 2)}\n`)]));
  });
  zip.end();
  if (signal.aborted) onAbort();
  return output;
}

/** One JSON object per line, a page per chunk, counted and hashed as it passes. */
async function* jsonLines(pages: AsyncIterable<object[]>, summary: BundledFile, hash: ReturnType<typeof createHash>) {
  for await (const page of pages) {
    const chunk = Buffer.from(page.map((record) => `${JSON.stringify(record)}\n`).join(''));
    hash.update(chunk);
    summary.records += page.length;
    summary.bytes += chunk.byteLength;
    yield chunk;
  }
}
