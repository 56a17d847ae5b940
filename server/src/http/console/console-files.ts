// The built console (console/dist, `npm run build -w @groundcheck/console`) read once at start. The
// folder is the project's own build output, so it is small and trusted; only the names a request may
// ask for are taken from it, never a path from the request.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { CachedAsset } from '../cached-asset.js';

const contentTypes: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

// Names under assets/ carry a hash of their content: a new build gives new names, so a copy is good
// for a year. Everything else (the HTML entry, the icon) is revalidated on every use.
const immutable = 'public, max-age=31536000, immutable';
const revalidate = 'public, no-cache';

export interface ConsoleFiles {
  /** The HTML entry, answered for every path of the single-page application. */
  entry: CachedAsset;
  /** Every other file by its path below /console/, such as `assets/index-3f2a.js`. */
  files: Map<string, CachedAsset>;
}

/** The built console, or null when it has not been built (the server then serves the API alone). */
export function readConsoleFiles(dir: string): ConsoleFiles | null {
  const entryPath = join(dir, 'index.html');
  if (!existsSync(entryPath)) return null;
  const files = new Map<string, CachedAsset>();
  for (const name of listFiles(dir)) {
    if (name === 'index.html') continue;
    const contentType = contentTypes[extname(name)];
    if (!contentType) continue;
    files.set(
      name,
      new CachedAsset(readFileSync(join(dir, name)), { contentType, cacheControl: name.startsWith('assets/') ? immutable : revalidate }),
    );
  }
  return { entry: new CachedAsset(readFileSync(entryPath), { contentType: contentTypes['.html']!, cacheControl: revalidate }), files };
}

function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix)).flatMap((name) => {
    const relative = prefix ? `${prefix}/${name}` : name;
    return statSync(join(dir, relative)).isDirectory() ? listFiles(dir, relative) : [relative];
  });
}
