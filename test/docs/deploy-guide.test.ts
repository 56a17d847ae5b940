// docs/deploy.md against the code it describes: the containers and the history index it tells an
// operator to create, and the environment variables it sets, are those the server uses.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { containerDefinitions } from '../../server/src/cosmos/containers.js';
import { repoRoot } from '../support/spec.js';

const guide = readFileSync(join(repoRoot, 'docs/deploy.md'), 'utf8');
// The server reads its variables in its configuration, and OpenTelemetry's in telemetry.ts.
const config = ['server/src/config.ts', 'server/src/telemetry/telemetry.ts']
  .map((file) => readFileSync(join(repoRoot, file), 'utf8'))
  .join('\n');

test('the guide creates every container the server uses, with time-to-live where the server turns it on', () => {
  const created = new Map<string, boolean>();
  for (const [, names, flags] of guide.matchAll(
    /for c in ([a-z_ ]+); do\n\s+az cosmosdb sql container create [^\n]*?-n \$c -p \/customer_id([^\n]*)/g,
  )) {
    for (const name of names!.trim().split(' ')) created.set(name, flags!.includes('--ttl -1'));
  }
  const history = /-n history -p \/customer_id([^\n]*)/.exec(guide);
  if (history) created.set('history', history[1]!.includes('--ttl -1'));
  assert.deepEqual(
    Object.fromEntries([...created].sort()),
    Object.fromEntries(containerDefinitions.map((c) => [c.id, c.defaultTtl === -1] as const).sort()),
  );
});

test("the guide's history index is the one the server declares", () => {
  const block = /`history-index.json`[\s\S]*?```json\n([\s\S]*?)```/.exec(guide);
  assert.ok(block, 'the guide shows history-index.json');
  const index = JSON.parse(block[1]!);
  const history = containerDefinitions.find((c) => c.id === 'history')!;
  assert.deepEqual(index.compositeIndexes, history.indexingPolicy!.compositeIndexes);
});

test('every variable the guide sets is one the server reads', () => {
  const set = [...guide.matchAll(/\b([A-Z][A-Z0-9_]{2,})=/g)].map((m) => m[1]!);
  const ours = set.filter(
    (name) =>
      ![
        'RG',
        'LOCATION',
        'ACR',
        'IDENTITY',
        'COSMOS',
        'STORAGE',
        'VAULT',
        'ENVIRONMENT',
        'APP',
        'ID_RESOURCE',
        'ID_PRINCIPAL',
        'ID_CLIENT',
        'VAULT_URI',
        'URL',
      ].includes(name),
  );
  // AZURE_CLIENT_ID is read by DefaultAzureCredential, not by the server's configuration.
  for (const name of new Set(ours))
    if (name !== 'AZURE_CLIENT_ID') assert.match(config, new RegExp(`\\b${name}\\b`), `${name} is read by the server`);
});
