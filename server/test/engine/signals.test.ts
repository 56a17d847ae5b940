// Signals added with engine 2.0, each on the team's own small cases: names absent from the sources
// told from names not beside the claim's subject, specific words the sources never use, and the
// support that only raises a claim's score.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fires, signalsOf, validate } from './support.js';

const ferry = [
  'HARBOUR LINES FERRY TERMS',
  'Harbour Lines runs two crossings a day from Mallow Quay to Skerra Island.',
  'Foot passengers pay €12 each way. Cars pay €45 each way, driver included.',
  'Bicycles travel free of charge on every crossing.',
  'Tickets can be changed up to 2 hours before departure.',
].join('\n');

describe('names', () => {
  it('tells a name the sources never use from one they use elsewhere', () => {
    assert.ok(fires('name_absent', 'How much is a car?', 'Tidewater Ferries charge €45 for a car.', ferry));
    assert.ok(!fires('name_unbound', 'How much is a car?', 'Tidewater Ferries charge €45 for a car.', ferry));
    const elsewhere = signalsOf('Can I change my ticket?', 'Skerra Island tickets can be changed up to 2 hours before departure.', ferry);
    assert.ok(!elsewhere.flat().includes('name_absent'));
  });
  it('takes the name on the letterhead as the issuer every passage speaks for', () => {
    const bakery = [
      'OSTRAVEL BAKEHOUSE - CATERING ORDERS: SEASIDE BRANCH',
      'Orders of more than 40 pastries need 3 days of notice.',
      'A deposit of 20% is taken when the order is placed.',
      'Ostravel Bakehouse delivers within 5 miles of the Seaside branch.',
    ].join('\n');
    const q = 'How much notice do I need for 60 pastries?';
    assert.ok(!fires('name_unbound', q, 'Ostravel Bakehouse needs 3 days of notice for orders of more than 40 pastries.', bakery));
    // A name after the letterhead's separator is a subject of its own, not the issuer.
    assert.ok(fires('name_unbound', q, 'The Seaside branch needs 3 days of notice for orders of more than 40 pastries.', bakery));
    // A first line that ends a sentence is no letterhead.
    const letter = bakery.replace('OSTRAVEL BAKEHOUSE - CATERING ORDERS: SEASIDE BRANCH', 'Ostravel Bakehouse bakes every night.');
    assert.ok(fires('name_unbound', q, 'Ostravel Bakehouse needs 3 days of notice for orders of more than 40 pastries.', letter));
  });
  it('carries the subject of a sentence before a pronoun, in the answer and in the sources', () => {
    const shuttle = 'The museum shuttle leaves from Grand Square every hour. It runs by the Pell Bridge on its way.';
    const q = 'Where does the shuttle go?';
    assert.ok(!fires('name_unbound', q, 'It passes the Pell Bridge.', shuttle));
    // Without a pronoun, a claim whose words the passage lacks still leaves the name unbound.
    assert.ok(fires('name_unbound', q, 'The tram passes the Pell Bridge.', shuttle));
  });
  it('takes the header of the column that holds the value the claim gives for the name beside it', () => {
    const marina = [
      'Berths for visiting boats:',
      '| | North Basin | South Basin |',
      '|---|---|---|',
      '| Night, Monday to Thursday | £28 | £19 |',
      '| Night, Friday to Sunday | £35 | £24 |',
    ].join('\n');
    const q = 'What does a weeknight berth cost?';
    assert.ok(!fires('name_unbound', q, 'Monday to Thursday a night costs £28 in the North Basin.', marina));
    // A value of the other column leaves the name as unbound as before.
    assert.ok(fires('name_unbound', q, 'Monday to Thursday a night costs £19 in the North Basin.', marina));
  });
  it('leaves the names of a conclusion to the claim it is drawn from', () => {
    const marina = ['| | North Basin | South Basin |', '|---|---|---|', '| Night, Monday to Thursday | £28 | £19 |'].join('\n');
    const q = 'Which basin is dearer on a weeknight?';
    const premise = 'Monday to Thursday the North Basin is £28 a night and the South Basin £19';
    assert.ok(!fires('name_unbound', q, `${premise}, so the North Basin costs £9 more.`, marina));
    // Without "so", or with a premise that does not name it, the name is as unbound as before.
    assert.ok(fires('name_unbound', q, `${premise}. Overall the North Basin costs £9 more.`, marina));
    assert.ok(fires('name_unbound', q, 'Monday to Thursday a night is £28 or £19. So the North Basin costs £9 more.', marina));
  });
  it('never reads a function word or a unit as a name', () => {
    assert.ok(!fires('name_absent', 'How much is a car?', 'With a car, you pay €45 each way.', ferry));
    assert.ok(!fires('name_absent', 'How much is a car?', 'A car costs 45 EUR each way.', ferry));
  });
  it('never reads a day of the week, one or many, as a name', () => {
    assert.ok(!fires('name_absent', 'When do the crossings run?', 'Crossings run twice a day, Tuesdays included.', ferry));
  });
  it('reads a bare capitalised answer as a name', () => {
    assert.ok(fires('name_absent', 'Where do the ferries go from Mallow Quay?', 'Brannock', ferry));
    assert.ok(!fires('name_absent', 'Where do the ferries go from Mallow Quay?', 'Skerra Island', ferry));
  });
});

describe('discourse markers', () => {
  it('looks for no words of "for example" or "in principle" in the sources', () => {
    const [kinds] = signalsOf('What do foot passengers pay?', 'Foot passengers, for example, pay €12 each way.', ferry);
    assert.deepEqual(kinds, ['figures_bound']);
    const [hedged] = signalsOf('Can I bring my bike?', 'In principle, bicycles travel free of charge on every crossing.', ferry);
    assert.deepEqual(hedged, []);
  });
});

describe('specific words', () => {
  it('grades specific words the sources never use', () => {
    assert.ok(fires('specific_words_absent', 'Can I bring my bike?', 'Bicycles go free, and kayaks need a reservation.', ferry));
    assert.ok(!fires('specific_words_absent', 'Can I bring my bike?', 'Bikes travel free on every crossing.', ferry));
  });
});

describe('support that only raises the score', () => {
  it('raises the score of a claim whose figures stand with their subject, without changing its status', async () => {
    const bound = await validate('How much do foot passengers pay?', 'Foot passengers pay €12 each way.', ferry);
    assert.ok(fires('figures_bound', 'How much do foot passengers pay?', 'Foot passengers pay €12 each way.', ferry));
    assert.equal(bound.claims[0]?.status, 'supported');
    const plain = await validate('Do bikes go free?', 'Bicycles travel free of charge on every crossing.', ferry);
    assert.ok((bound.claims[0]?.score ?? 0) > (plain.claims[0]?.score ?? 1));
  });
  it('flags a wrong figure even so', async () => {
    const wrong = await validate('How much do foot passengers pay?', 'Foot passengers pay €45 each way.', ferry);
    assert.equal(wrong.claims[0]?.status, 'contradicted');
  });
});
