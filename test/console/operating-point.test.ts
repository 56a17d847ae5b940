// The operating point fitted to the tenant's own decided reviews, applied from the dashboard by an admin
// (issue 33, decision S113): the suggestion with its figures, a confirmation, the point in force after,
// and one audit event; a viewer sees no suggestion and no button.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { tenantsOf } from '../../server/test/support/audit.js';
import { writeFixture } from '../../server/test/support/fixtures.js';
import { auditTrail, decideFlagged } from '../../server/test/support/history.js';
import { assertAccessible, assertFitsWidth, ConsoleHarness, phone } from './support/console-browser.js';

let harness: ConsoleHarness;

before(async () => {
  const fixture = await writeFixture({
    overrides: {
      acme: { workflow: { review_required: 'always' }, engine: { calibration: { min_decisions: 20, min_each: 5, target_precision: 0.9 } } },
    },
  });
  harness = await ConsoleHarness.start({ fixture });
  const { server } = harness;
  const acme = tenantsOf(fixture).acme!;
  // 30 flagged answers an hour apart over the last days: the reviewers reject those of high risk (0.9) and
  // approve those of moderate risk (0.4), so a point flagging only the high-risk ones does better.
  for (let hour = 0; hour < 30; hour++) {
    const wrong = hour % 2 === 0;
    await decideFlagged(server, acme, { createdAt: new Date(Date.now() - (48 - hour) * 3_600_000), risk: wrong ? 0.9 : 0.4, wrong });
  }
});
after(() => harness?.close());

test('an admin applies the suggested operating point from the dashboard, after a confirmation, and the trail records it', async () => {
  const session = await harness.signedIn('acme', 'admin', '/dashboard', { viewport: phone });
  const { page } = session;
  await page.getByText('An operating point did better than the current one on the newer decisions.').waitFor();
  const open = page.getByRole('button', { name: 'Apply the suggested point…' });
  await open.click();
  const dialog = page.getByRole('dialog', { name: 'Apply the suggested operating point?' });
  await dialog.waitFor();
  assert.match((await dialog.textContent()) ?? '', /below the supported score 0\.1 instead of 0\.5\./);
  await assertAccessible(page, 'apply dialog');
  // Escape changes nothing and gives focus back to the button.
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Apply the suggested point…');
  assert.deepEqual(await auditTrail(harness.server, 'acme', { kinds: ['operating_point_applied'] }), []);

  await page.keyboard.press('Enter');
  await dialog.getByRole('button', { name: 'Apply', exact: true }).click();
  await page.getByText('New validations now use the supported score 0.1 (it was 0.5). The change is in the audit trail.').waitFor();
  // The refreshed analytics no longer suggest the point now in force.
  await page.getByText('No operating point did better than the current one on the newer decisions.').waitFor();
  const events = await auditTrail(harness.server, 'acme', { kinds: ['operating_point_applied'] });
  assert.equal(events.length, 1);
  const card = await harness.server.call('/api/v1/system-card', {}, { token: await harness.server.login('acme', 'viewer') });
  assert.deepEqual([card.body.operating_point.supported_score, card.body.operating_point.fitted_to_tenant], [0.1, true]);
  await assertFitsWidth(page, 'operating point applied');
  await assertAccessible(page, 'operating point applied');
  await session.finish('operating-point-applied-phone');
});

test('a viewer sees the engine against the reviewers, and no suggestion to apply', async () => {
  const session = await harness.signedIn('acme', 'viewer', '/dashboard');
  const { page } = session;
  await page.getByText('Engine against reviewers').first().waitFor();
  assert.equal(await page.getByRole('button', { name: /Apply the suggested point/ }).count(), 0);
  await session.finish('operating-point-viewer');
});
