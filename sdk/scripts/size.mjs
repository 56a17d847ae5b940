// Size budget: the ESM entry, bundled with openapi-fetch, minified and gzipped, must stay under 10 kB.
// It bundles src/index.ts directly (as a customer's bundler would bundle the package), so it needs no build.

import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

export const budgetBytes = 10 * 1024;

export async function measure() {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('../src/index.ts', import.meta.url))],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2020',
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].contents;
  return { minified: code.byteLength, gzipped: gzipSync(code, { level: 9 }).byteLength };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { minified, gzipped } = await measure();
  const verdict = gzipped <= budgetBytes ? 'within' : 'OVER';
  console.log(`@groundcheck/sdk ESM bundle: ${minified} B minified, ${gzipped} B gzipped, ${verdict} the budget of ${budgetBytes} B.`);
  if (gzipped > budgetBytes) process.exit(1);
}
