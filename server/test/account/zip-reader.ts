// Reads a whole ZIP with yauzl, in entry order, checking each entry's CRC as it goes.
import { buffer } from 'node:stream/consumers';
import yauzl from 'yauzl';

export interface ZipEntry {
  name: string;
  bytes: Buffer;
  modifiedAt: Date;
}

export function readZip(zip: Buffer): Promise<ZipEntry[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true, strictFileNames: true, validateEntrySizes: true }, (error, file) => {
      if (error) return reject(error);
      const entries: ZipEntry[] = [];
      file.on('error', reject);
      file.on('end', () => resolve(entries));
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (openError, stream) => {
          if (openError) return reject(openError);
          buffer(stream)
            .then((bytes) => {
              entries.push({ name: entry.fileName, bytes, modifiedAt: entry.getLastModDate() });
              file.readEntry();
            })
            .catch(reject);
        });
      });
      file.readEntry();
    });
  });
}

/** The lines of a JSON Lines file, parsed. */
export function jsonLines(bytes: Buffer): any[] {
  const text = bytes.toString('utf8');
  if (text === '') return [];
  if (!text.endsWith('\n')) throw new Error('a JSON Lines file ends with a line break');
  return text
    .slice(0, -1)
    .split('\n')
    .map((line) => JSON.parse(line));
}
