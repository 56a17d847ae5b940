// The review queue: list the validations waiting for review, and approve one with a note.
//
//   GROUNDCHECK_URL=https://groundcheck.example.com GROUNDCHECK_TOKEN=... npx tsx examples/review-queue/index.ts
//   ... npx tsx examples/review-queue/index.ts --approve val_... --note "Checked against the handbook."
//
// (or GROUNDCHECK_CUSTOMER_ID and GROUNDCHECK_API_KEY). Listing needs the viewer role, approving the
// user role. GROUNDCHECK_URL defaults to the mock (`npm run mock`).
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { GroundcheckClient, ValidationRecord } from '@groundcheck/sdk';
import { clientFromEnv } from '../client-from-env.js';

/** Every validation pending review, newest first (at most `max`). */
export async function pendingReviews(client: GroundcheckClient, max = 50): Promise<ValidationRecord[]> {
  const pending: ValidationRecord[] = [];
  for await (const record of client.history.iterate({ review_state: 'pending_review', limit: Math.min(max, 100) })) {
    pending.push(record);
    if (pending.length >= max) break;
  }
  return pending;
}

/** Approves a validation; a note is required and kept in the review history and the audit trail. */
export async function approve(client: GroundcheckClient, validationId: string, note: string): Promise<ValidationRecord> {
  return client.history.review(validationId, { action: 'approve', note });
}

export function describeRecord(record: ValidationRecord): string {
  return `${record.validation_id}  ${record.created_at}  ${record.severity.padEnd(8)} ${record.issue_count} issue(s)  ${record.question}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { approve: { type: 'string' }, note: { type: 'string' } } });
  const client = clientFromEnv();
  if (values.approve) {
    if (!values.note) throw new Error('Approving needs --note "why".');
    const record = await approve(client, values.approve, values.note);
    console.log(`${record.validation_id} is now ${record.review.state}`);
  } else {
    const pending = await pendingReviews(client);
    console.log(`${pending.length} validation(s) pending review`);
    for (const record of pending) console.log(describeRecord(record));
  }
}
