// Answers that widen what the sources restrict: a universal where the sources limit, a clause stated
// without the condition it is granted under. Documents and answers written for these tests.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { conditionsOf } from '../../src/engine/checks/restrictions/conditions.js';
import { restatementOf } from '../../src/engine/checks/restrictions/index.js';
import { providedOpensCondition } from '../../src/engine/language/cues.js';
import { engine, fires, validate } from './support.js';

const kind = 'restriction_dropped';

describe('the conditions of a source sentence', () => {
  it('finds a condition after its clause and one that opens its sentence', () => {
    assert.deepEqual(conditionsOf('Refunds are given within 14 days, provided the seal is unbroken.'), [
      { text: 'provided the seal is unbroken', host: 'Refunds are given within 14 days, ' },
    ]);
    assert.deepEqual(conditionsOf('If you book before noon, delivery is free.'), [
      { text: 'If you book before noon', host: ' delivery is free' },
    ]);
  });
  it('gives a condition after ", but" the clause before it, past a clause number', () => {
    const found = conditionsOf('3.4 Members may bring one guest, but only if they book ahead.');
    assert.deepEqual(found, [{ text: 'but only if they book ahead', host: '3.4 Members may bring one guest' }]);
  });
  it('keeps a figure with a thousands comma inside its condition', () => {
    assert.deepEqual(conditionsOf('If the repair costs more than €1,500, we ask for a quote first.'), [
      { text: 'If the repair costs more than €1,500', host: ' we ask for a quote first' },
    ]);
  });
  it('reads no conditions in a passage too long to be a sentence', () => {
    assert.deepEqual(conditionsOf(`${'if it rains, and '.repeat(70)}the hall is free.`), []);
  });
  it('finds none where nothing is conditional', () => {
    assert.deepEqual(conditionsOf('The ferry leaves at 8am and returns at 6pm.'), []);
  });
  it('reads "provided" as a condition only where a clause follows it, not as the verb', () => {
    assert.deepEqual(conditionsOf('Paddles are provided by the boathouse, and life jackets are provided free.'), []);
    assert.deepEqual(conditionsOf('Store your kayak on the racks provided.'), []);
    assert.deepEqual(conditionsOf('The club thanks volunteers for providing tea at races.'), []);
    assert.deepEqual(conditionsOf('Kayaks may be borrowed, providing that a coach is present.'), [
      { text: 'providing that a coach is present', host: 'Kayaks may be borrowed, ' },
    ]);
  });
});

describe('"provided" as a conjunction or a verb', () => {
  it('opens a condition before a clause, after a comma or a word that is not "be"', () => {
    assert.ok(providedOpensCondition(undefined, 'you'));
    assert.ok(providedOpensCondition('free', 'the'));
    assert.ok(providedOpensCondition('are', 'that'));
  });
  it('is the verb after "be", "have" or a preposition, before a preposition or at the end', () => {
    assert.ok(!providedOpensCondition('are', 'the'));
    assert.ok(!providedOpensCondition('been', 'everyone'));
    assert.ok(!providedOpensCondition('racks', undefined));
    assert.ok(!providedOpensCondition('rails', 'in'));
    assert.ok(!providedOpensCondition('for', 'tea'));
  });
});

describe('a clause stated without its condition', () => {
  const ferry = 'Cyclists. Passengers may take a bicycle on the ferry, but only outside rush hours. Dogs travel free.';
  it('flags it when neither the answer nor the question keeps the condition', () => {
    assert.ok(fires(kind, 'Can I take my bike on the ferry?', 'Yes, passengers may take a bicycle on the ferry.', ferry));
  });
  it('lets it pass when the answer or the question keeps the condition', () => {
    assert.ok(!fires(kind, 'Can I take my bike on the ferry?', 'Yes, outside rush hours you may take a bicycle on the ferry.', ferry));
    assert.ok(
      !fires(kind, 'Outside rush hours, can I take my bike on the ferry?', 'Yes, passengers may take a bicycle on the ferry.', ferry),
    );
  });
  it('flags a condition whose figure the answer leaves out', () => {
    const hall = 'Bookings. If you cancel at least 72 hours before the event, your deposit is refunded.';
    assert.ok(fires(kind, 'What if I cancel?', 'Your deposit is refunded when you cancel the event.', hall));
    assert.ok(!fires(kind, 'What if I cancel?', 'Cancel 72 hours or more before the event and your deposit is refunded.', hall));
  });
  it('leaves a claim that states a condition of its own to the other checks', () => {
    const hall = 'Bookings. If you cancel at least 72 hours before the event, your deposit is refunded.';
    assert.ok(!fires(kind, 'What if I cancel?', 'If you cancel early, your deposit is refunded.', hall));
  });
  it('does not read a negated clause as the claim', () => {
    const library = 'Fines. No fine is charged if the book is returned within 3 days of its due date.';
    assert.ok(!fires(kind, 'Are there fines?', 'A fine is charged on late books.', library));
  });
  it('does not read equipment "provided" in a room as a condition', () => {
    const boathouse = 'Boathouse. Do not leave boats on the lawn; in the boathouse, use the racks provided. Paddles are provided free.';
    assert.ok(!fires(kind, 'Where do I put my kayak?', 'In the boathouse there are racks you can use for your kayak.', boathouse));
  });
  it('stops at a passage that states the claim as it is', () => {
    const plans = 'Support. Chat support is available on all plans. Phone support is available only on the Pro plan.';
    assert.ok(!fires(kind, 'What support do I get?', 'Chat support is available on all plans.', plans));
  });
  it('reads "Monday to Friday" as weekdays', () => {
    const museum = 'Opening. The print room is open to researchers from 10am to 4pm, only on weekdays.';
    assert.ok(!fires(kind, 'When can I visit?', 'Researchers can visit the print room from 10am to 4pm, Monday to Friday.', museum));
    assert.ok(fires(kind, 'When can I visit?', 'The print room is open to researchers from 10am to 4pm every day.', museum));
  });
});

describe("a condition kept in the answer's own words", () => {
  it("takes one of a condition's alternatives as keeping it", () => {
    const library = 'Lost items. If you lose a book or return it damaged, you pay its replacement cost.';
    assert.ok(!fires(kind, 'What happens if I lose something I borrowed?', 'Since you lost it, you pay the replacement cost.', library));
    assert.ok(fires(kind, 'What do I pay?', 'You pay the replacement cost.', library));
  });
  it("reads a clause that gives another value of the claim's figure as another case's, not the claim's", () => {
    const lease =
      'Deposits. The deposit may be up to four weeks of rent if the rent is under £900, or eight weeks of rent if it is £900 or more.';
    const answer = 'Your rent is under £900, so the deposit can be up to four weeks of rent.';
    assert.ok(!fires(kind, 'What deposit can they take?', answer, lease));
  });
  it('reads "otherwise" as a condition the answer states itself', () => {
    const paper = 'Paper. Shredded paper can go in a brown bin; if you do not have one, put it in the grey bin.';
    const answer = 'If you have a brown bin, put it there; otherwise it goes in the grey bin.';
    assert.ok(!fires(kind, 'Where does shredded paper go?', answer, paper));
    assert.ok(fires(kind, 'Where does shredded paper go?', 'It goes in the grey bin.', paper));
  });
});

describe('a universal where the sources limit', () => {
  it('flags "any age" against an age limit on the noun it qualifies', () => {
    const wall = 'Climbers under 14 must be supervised by an instructor.';
    assert.ok(fires(kind, 'Can my son climb on his own?', 'Climbers of any age can use the wall unsupervised.', wall));
  });
  it('flags "all" over a noun the sources narrow with a word the answer drops', () => {
    const hotel = 'Rooms. Standard rooms include breakfast. Suites include breakfast and parking.';
    assert.ok(fires(kind, 'Is breakfast included?', 'All rooms come with breakfast.', hotel));
    assert.ok(!fires(kind, 'Is breakfast included?', 'All standard rooms come with breakfast.', hotel));
  });
  it('flags "anyone" or "everyone" where the sources name who', () => {
    const spa = 'Members can use the sauna from 6am to 10pm.';
    assert.ok(fires(kind, 'Who can use the sauna?', 'Everyone can use the sauna from 6am to 10pm.', spa));
    assert.ok(
      fires(
        kind,
        'Who can use the sauna?',
        'The sauna is open to anyone from 6am to 10pm.',
        'The sauna is open to members from 6am to 10pm.',
      ),
    );
  });
  it('lets "anyone" pass when the answer limits it or the sources are as wide', () => {
    const spa = 'Members can use the sauna from 6am to 10pm.';
    assert.ok(!fires(kind, 'Who can use the sauna?', 'Anyone with a membership can use the sauna from 6am to 10pm.', spa));
    const tram = 'All passengers travel free on the harbour tram on Sundays.';
    assert.ok(!fires(kind, 'Is the tram free on Sundays?', 'Anyone travels free on the harbour tram on Sundays.', tram));
  });
  it('reads "not any" and "without any" as no universal', () => {
    const hotel = 'Rooms. Standard rooms include breakfast.';
    assert.ok(!fires(kind, 'Do rooms include dinner?', 'Standard rooms do not include any dinner.', hotel));
    const repairs = 'Repairs. Repairs within 30 days of purchase are free; after that only the parts are charged.';
    assert.ok(!fires(kind, 'Is a repair free?', 'A repair within 30 days of purchase is done without any charge.', repairs));
  });
  it('reads a universal inside a condition the answer sets as a case it supposes, not a claim about every case', () => {
    const hire = 'Kayak hire. Kayaks cost £12 a day, and only adults may hire them.';
    const q = 'How much is a week of kayak hire?';
    assert.ok(!fires(kind, q, 'If you hire it every day for a week, that comes to £84.', hire));
    assert.ok(fires(kind, q, 'Anyone can hire a kayak every day for £12.', hire));
  });
  it('reads "each" that deals out a figure or a date per item as a rate or a schedule, not a rule over a class', () => {
    const ferry = 'Fares. A return crossing costs £7, and only children under 5 travel free.';
    assert.ok(!fires(kind, 'How much is the ferry?', 'Each return crossing costs £7.', ferry));
    assert.ok(fires(kind, 'Who travels free?', 'Each child travels free.', ferry));
    const club = 'Meetings. The club meets on the second Tuesday of every month, except in August.';
    assert.ok(!fires(kind, 'When does the club meet?', 'It meets on the second Tuesday of each month.', club));
  });
  it('reads a universal the answer bounds itself ("any nights beyond the third") as no claim about the whole', () => {
    const camp = 'Pitches. Tents only: the first three nights cost £15 each and later nights cost £10.';
    const q = 'How much is a week at the campsite?';
    assert.ok(!fires(kind, q, 'Any nights beyond the third cost £10.', camp));
    assert.ok(fires(kind, q, 'Any night costs £10.', camp));
  });
  it('reads "all the other days" as setting the exception apart', () => {
    const market = 'The market is open every day except Monday.';
    assert.ok(!fires(kind, 'Is the market open on Monday?', 'No, it is closed on Monday and open on all the other days.', market));
    assert.ok(fires(kind, 'Is the market open on Monday?', 'Yes, it is open on all days.', market));
  });
});

describe('what a reader gets', () => {
  const pool = 'The swimming pool is open to members from 7am to 9pm, only on weekdays. Children under 12 must be accompanied by an adult.';
  it('does not confirm an answer that widens a restriction, nor show the limiting passage as support', async () => {
    for (const answer of [
      'The pool is open to members from 7am to 9pm every day.',
      'Children of any age may swim alone.',
      'Anyone can use the pool from 7am to 9pm on weekdays.',
    ]) {
      const result = await validate('When can I use the pool?', answer, pool);
      const claim = result.claims[0]!;
      assert.equal(claim.status, 'unsupported', answer);
      assert.ok(
        claim.evidence.every((e) => e.relation !== 'supports'),
        answer,
      );
    }
  });
  it("confirms the restriction kept, in the sources' words or others", async () => {
    for (const answer of [
      'The pool is open to members from 7am to 9pm on weekdays.',
      'Members can swim between 7am and 9pm, Monday through Friday.',
    ])
      assert.equal((await validate('When can I use the pool?', answer, pool)).issue_count, 0, answer);
  });
  it("fixes the answer with the sources' own sentence, which validates", async () => {
    const sources = [{ source_id: 'src_1', text: pool }];
    const answer = 'The pool is open to members from 7am to 9pm every day.';
    const fixed = await engine.fix({ question: 'When can I use the pool?', answer, sources });
    assert.equal(fixed.corrected_response, 'The swimming pool is open to members from 7am to 9pm, only on weekdays.');
    assert.equal(fixed.user_corrections[0]?.action, 'replace');
    assert.equal(fixed.issue_count, 0);
    assert.ok(fixed.findings.some((f) => f.status === 'fixed'));
    assert.equal(
      (await engine.validate({ question: 'When can I use the pool?', answer: fixed.corrected_response, sources })).issue_count,
      0,
    );
  });
  it("restates mid-sentence in lower case, and keeps a name's capital", async () => {
    const sources = [{ source_id: 'src_1', text: pool }];
    const fixed = await engine.fix({ question: 'Can my son swim alone?', answer: 'Yes, children of any age may swim alone.', sources });
    assert.equal(fixed.corrected_response, 'Yes, children under 12 must be accompanied by an adult.');
    const ferry = [{ source_id: 'src_1', text: 'Harbourline ferries carry bicycles only outside rush hours.' }];
    const named = await engine.fix({
      question: 'Can I take my bike?',
      answer: 'Yes, Harbourline ferries carry bicycles at any time.',
      sources: ferry,
    });
    assert.equal(named.corrected_response, 'Yes, Harbourline ferries carry bicycles only outside rush hours.');
  });
  it('restates only a single sentence of the sources, without its clause number', () => {
    assert.equal(restatementOf('4.2 Guests may stay until 11pm.'), 'Guests may stay until 11pm');
    assert.equal(restatementOf('- Parking is free after 6pm.'), 'Parking is free after 6pm');
    assert.equal(restatementOf('Plan | Price | Seats'), undefined);
    assert.equal(restatementOf('Doors open at 7pm. The show starts at 8pm.'), undefined);
  });
});
