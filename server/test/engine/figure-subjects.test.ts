// One small case per check added in engine 1.3 about whose figure a figure is: a clause joined by
// "and" that names its own subject, a cap that is no amount, two kinds of one thing told apart by
// their modifiers (also through "that fee" / "the fee"), and labels that are no evidence.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fires, signalsOf, validate } from './support.js';

const gym = 'Day passes cost $9 on weekdays and weekend passes for two days cost $15, both sold at the front desk. Lockers are free.';

describe('whose figure a figure is', () => {
  it('gives a value to its own clause when "and" opens another with its own subject', async () => {
    const result = await validate('What does a weekend pass cost?', 'A weekend pass for two days costs $9 at the front desk.', gym);
    assert.equal(result.claims[0]?.status, 'contradicted');
    assert.equal((await validate('What does a weekend pass cost?', 'A weekend pass costs $15.', gym)).issue_count, 0);
  });
  it('keeps one subject across "and" when no other subject comes between', async () => {
    const text = 'Pottery classes cost £30 per adult and £12 per child.';
    assert.equal(
      (await validate('What does a pottery class cost for a child?', 'A pottery class costs £12 for a child.', text)).issue_count,
      0,
    );
  });
  it('takes no day or month beside a value for its owner', () => {
    const text =
      'Repairs. Report repairs in the Kelda app. Urgent repairs (a broken boiler between 1 November and 31 March) are attended within 48 hours.';
    const answer = 'So once you report it in the Kelda app, a repairer should attend within 48 hours.';
    assert.ok(!fires('figure_other_subject', 'My boiler broke. How soon will someone come?', answer, text));
  });
  it('takes no word capitalised only because it opens its cell for an owner', () => {
    const table = [
      '| | Harbour Pass | Island Pass |',
      '|---|---|---|',
      '| Monthly fee | $40 | $65 |',
      '| Latest return (boats docked) | 9:30pm | 10:45pm |',
      '| Solar charging point | 2 hours | 4 hours (6 hours in winter) |',
    ].join('\n');
    const answer = 'Boats must be docked by the latest return, and on the Island Pass the latest return is 10:45pm.';
    assert.ok(!fires('figure_other_subject', 'When do I have to be back with the Island Pass?', answer, table));
    const charging = 'On the Island Pass you can charge your boat for 6 hours in winter.';
    assert.ok(!fires('figure_other_subject', 'How long can I charge on the Island Pass?', charging, table));
  });
  it('takes the words the question gives for the claim subject when they are all the value has beside it', () => {
    const text = 'Renewals. We write to Gold Card holders at least 4 weeks before the card expires. Silver Cards renew themselves.';
    const q = 'What happens when my Gold Card runs out?';
    const answer = 'Then Northway will write to you at least 4 weeks before it expires.';
    assert.ok(!fires('figure_other_subject', q, answer, text));
    // Written in lower case, the question's words name it as well.
    assert.ok(!fires('figure_other_subject', 'what happens when my gold card runs out', answer, text));
    assert.ok(
      fires(
        'figure_other_subject',
        'What happens when my Silver Card runs out?',
        'Then Northway will write to you at least 4 weeks before it expires.',
        text,
      ),
    );
  });
  it('does not take a cap for an amount', async () => {
    const text = 'Refunds are paid within 10 days. The refund may not exceed 50% of the ticket price; late cancellations get 20%.';
    const result = await validate(
      'What do I get back for a late cancellation?',
      'A late cancellation gets 50% of the ticket price back.',
      text,
    );
    assert.ok(result.issue_count > 0);
    assert.equal(
      (await validate('What is the most a refund can be?', 'A refund can be up to 50% of the ticket price.', text)).issue_count,
      0,
    );
  });
});

describe("figures the answer works out from the sources' values", () => {
  const pool = [
    'Prices. An adult day pass costs £40. Children aged 5 to 15 pay half the adult price.',
    'Members get 25% off every pass. A group booking costs £300 for up to ten people.',
  ].join('\n');
  it('takes a share of a value the sources give, or that value less or more by it, as worked out', () => {
    const q = 'How much is a pass?';
    assert.ok(!fires('figure_contradicted', q, "Children pay half the adult price, so a child's day pass is £20.", pool));
    assert.ok(!fires('figure_contradicted', q, "Members get 25% off, so a member's adult day pass costs £30.", pool));
    assert.ok(fires('figure_contradicted', q, "Members get 25% off, so a member's adult day pass costs £32.", pool));
  });
  it('takes a total of the figures the answer has just listed as worked out', () => {
    const groom = 'Prices. Wash £20. Trim £15. Nail clipping £8. Full groom £55.';
    const q = 'What will a wash, trim and nail clipping cost?';
    assert.ok(!fires('figure_not_stated', q, 'A wash is £20, a trim £15 and nail clipping £8, so £43 altogether.', groom));
    assert.ok(fires('figure_not_stated', q, 'A wash is £20, a trim £15 and nail clipping £8, so £45 altogether.', groom));
  });
  it('takes "a single" as introducing one thing, as "one" does', () => {
    const caps = 'Overdue charges. Each overdue book costs 20p a day, up to £5 per book.';
    assert.ok(!fires('figure_not_stated', 'Is there a cap?', 'Charges stop at £5 for a single book.', caps));
    assert.ok(fires('figure_not_stated', 'Is there a cap?', 'Charges stop at £5 for three books.', caps));
  });
});

describe('kinds of one thing', () => {
  const fees =
    'Annual mooring fee: £400. The fee is waived when the boat enters 12 club races a year. A £60 winter storage fee applies to boats kept ashore.';
  it('flags a waiver the sources give for another kind of fee, read through "that fee" and "the fee"', async () => {
    const question = 'Is there a fee for keeping the boat ashore?';
    const answer = 'Boats kept ashore carry a £60 winter storage fee. That fee is waived when the boat enters 12 club races a year.';
    assert.equal((await validate(question, answer, fees)).claims[0]?.status, 'supported');
    const [first, second] = signalsOf(question, answer, fees);
    assert.ok(!first?.includes('figure_other_kind'));
    assert.ok(second?.includes('figure_other_kind'));
  });
  it('accepts the waiver for its own kind', async () => {
    const answer = 'The annual mooring fee is £400. That fee is waived when the boat enters 12 club races a year.';
    assert.equal((await validate('Can I avoid the annual fee?', answer, fees)).issue_count, 0);
    assert.ok(!fires('figure_other_kind', 'Can I avoid the annual fee?', answer, fees));
  });
});

describe('evidence', () => {
  it('does not give a lone label as evidence', async () => {
    const text = 'Refunds.\nAnnual plans can be refunded within 30 days.';
    const result = await validate('Can I get a refund?', 'Annual plans can be refunded within 30 days.', text);
    assert.equal(result.issue_count, 0);
    assert.ok(result.claims[0]!.evidence.every((e) => e.text !== 'Refunds.'));
  });
});
