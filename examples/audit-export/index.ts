// Export the last 30 days of the audit trail as CSV to a file, and verify its hash chain.
//
//   GROUNDCHECK_URL=https://groundcheck.example.com GROUNDCHECK_TOKEN=<an admin's token> \
//     npx tsx examples/audit-export/index.ts [audit.csv]
//
// (or GROUNDCHECK_CUSTOMER_ID and an admin's GROUNDCHECK_API_KEY; the tenant needs the
// `audit_trail` feature). GROUNDCHECK_URL defaults to the mock (`npm run mock`).
//
// The CSV (`enterprise_v1` profile) pseudonymizes actors, so its rows cannot be re-hashed; the
// `raw` JSON export of the same days can. The chain of the raw events is verified with the SDK,
// then every CSV row is matched to a verified event by sequence and hash: the file on disk is the
// verified trail.
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type AuditChainResult, type GroundcheckClient, verifyAuditChain } from '@groundcheck/sdk';
import { parse } from 'csv-parse/sync';
import { clientFromEnv } from '../client-from-env.js';

export interface AuditExportResult {
  file: string;
  rows: number;
  chain: AuditChainResult;
  /** CSV rows with no verified event of the same sequence and hash. */
  unmatched: number;
}

export async function exportAudit(client: GroundcheckClient, file: string, now = new Date()): Promise<AuditExportResult> {
  // One explicit range for both downloads, so that both cover the same days.
  const day = (offset: number) => new Date(now.getTime() - offset * 86_400_000).toISOString().slice(0, 10);
  const range = { date_from: day(29), date_to: day(0) };
  const csv = await client.audit.export({ ...range, format: 'csv' });
  await writeFile(file, csv);

  // `Prefer` picks the mock's example of the raw export; a real server ignores it.
  const raw = await client.audit.export({ ...range, profile: 'raw' }, { headers: { prefer: 'example=raw' } });
  if (raw.profile !== 'raw') throw new Error(`Asked for the raw export, got ${raw.profile}.`);
  const chain = await verifyAuditChain(raw.events);

  const verified = new Map(raw.events.map((event) => [event.sequence, event.hash]));
  const [header = [], ...rows] = parse(csv) as string[][];
  const sequence = header.indexOf('sequence');
  const hash = header.indexOf('hash');
  const unmatched = rows.filter((row) => verified.get(Number(row[sequence])) !== row[hash]).length;
  return { file, rows: rows.length, chain, unmatched };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await exportAudit(clientFromEnv(), process.argv[2] ?? 'audit.csv');
  console.log(`${result.rows} event(s) written to ${result.file}`);
  if (!result.chain.valid) {
    console.error(`The chain is broken at sequence ${result.chain.firstBadSequence}: ${result.chain.reason}`);
    process.exit(1);
  }
  if (result.unmatched > 0) {
    console.error(`${result.unmatched} CSV row(s) match no verified event.`);
    process.exit(1);
  }
  console.log(`Hash chain verified: ${result.chain.checked} event(s).`);
}
