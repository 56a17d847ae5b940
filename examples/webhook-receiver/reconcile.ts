// Reconciliation for the webhook receiver: the webhook is a hint, not the system of record (section
// 6.1, rule 6). A delivery that fails is lost and never retried, so a consumer that must see every
// validation polls the history now and then and handles what the webhook did not bring.
//
//   GROUNDCHECK_URL=https://groundcheck.example.com GROUNDCHECK_TOKEN=... [SINCE=2026-11-21T00:00:00Z] \
//     npx tsx examples/webhook-receiver/reconcile.ts
//
// (or GROUNDCHECK_CUSTOMER_ID and GROUNDCHECK_API_KEY instead of GROUNDCHECK_TOKEN).
import { fileURLToPath } from 'node:url';
import type { GroundcheckClient, ValidationRecord } from '@groundcheck/sdk';
import { clientFromEnv } from '../client-from-env.js';

export interface ReconcileOptions {
  /** Look at validations created at or after this time: the last run's start, minus some margin. */
  since: Date;
  /** Whether your system already has this validation (from the webhook or an earlier run). */
  handled(validationId: string): boolean | Promise<boolean>;
  /** Your work for a validation the webhook did not bring. */
  onMissed(record: ValidationRecord): void | Promise<void>;
}

/** Walks the history (newest first) back to `since`; returns how many validations were missed. */
export async function reconcile(client: GroundcheckClient, { since, handled, onMissed }: ReconcileOptions): Promise<number> {
  let missed = 0;
  // `date_from` is a calendar day (UTC); the exact cut-off is checked on each record's created_at.
  for await (const record of client.history.iterate({ date_from: since.toISOString().slice(0, 10), limit: 100 })) {
    if (new Date(record.created_at) < since) break;
    if (await handled(record.validation_id)) continue;
    await onMissed(record);
    missed += 1;
  }
  return missed;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const since = new Date(process.env.SINCE ?? Date.now() - 60 * 60 * 1000);
  // Here nothing is handled yet; your code would look the id up in its own store.
  const missed = await reconcile(clientFromEnv(), {
    since,
    handled: () => false,
    onMissed: (record) =>
      console.log(`${record.validation_id} ${record.created_at}: ${record.issue_count} issue(s), review ${record.review.state}`),
  });
  console.log(`${missed} validation(s) since ${since.toISOString()} to handle`);
}
