// Spectral, with its OpenAPI rules and the OWASP API Security ruleset, run as a new user would
// (`npx spectral lint openapi.yaml` in contract/): nothing to report. The exceptions live in
// .spectral.js, each with its reason; a mutated copy shows they do not hide a request's gaps.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import { stringify } from 'yaml';
import { rawSpec, repoRoot } from '../support/spec.js';

const run = promisify(execFile);
const spectral = join(repoRoot, 'node_modules', '.bin', 'spectral');

interface Finding {
  code: string;
  path: string[];
  message: string;
}

/** Spectral's findings for the openapi.yaml and .spectral.js of a directory. */
async function lint(dir: string): Promise<Finding[]> {
  // Spectral exits 1 when it reports anything; the JSON on stdout is what counts.
  const result = await run(spectral, ['lint', 'openapi.yaml', '--format', 'json', '--quiet'], { cwd: dir }).catch(
    (error: { stdout?: string; stderr?: string }) => {
      if (!error.stdout) throw new Error(`spectral failed: ${error.stderr}`);
      return { stdout: error.stdout };
    },
  );
  return JSON.parse(result.stdout) as Finding[];
}

const scratch = mkdtempSync(join(tmpdir(), 'gc-spectral-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

test('Spectral (spectral:oas and the OWASP ruleset) reports nothing on openapi.yaml', async () => {
  const findings = await lint(join(repoRoot, 'contract'));
  assert.deepEqual(
    findings.map((f) => `${f.code} at ${f.path.join('/')}: ${f.message}`),
    [],
  );
});

test('the exceptions do not hide an unbounded field of a request', async () => {
  const spec = rawSpec() as any;
  spec.components.schemas.ValidateModeRequest.properties.probe_text = { type: 'string' };
  spec.components.schemas.AuditQuery.properties.probe_count = { type: 'integer', format: 'int32' };
  spec.components.schemas.HistoryQuery.properties.probe_list = { type: 'array', items: { $ref: '#/components/schemas/Mode' } };
  writeFileSync(join(scratch, 'openapi.yaml'), stringify(spec));
  cpSync(join(repoRoot, 'contract', '.spectral.js'), join(scratch, '.spectral.js'));
  cpSync(join(repoRoot, 'contract', 'scripts', 'spec-usage.mjs'), join(scratch, 'scripts', 'spec-usage.mjs'));
  symlinkSync(join(repoRoot, 'node_modules'), join(scratch, 'node_modules'));
  const found = (await lint(scratch)).map((f) => `${f.code} ${f.path.join('/')}`);
  for (const expected of [
    'owasp:api4:2023-string-limit components/schemas/ValidateModeRequest/properties/probe_text',
    'owasp:api4:2023-integer-limit components/schemas/AuditQuery/properties/probe_count',
    'owasp:api4:2023-array-limit components/schemas/HistoryQuery/properties/probe_list',
  ]) {
    assert.ok(found.includes(expected), `${expected} in ${found.join('\n')}`);
  }
});
