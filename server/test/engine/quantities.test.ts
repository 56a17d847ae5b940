import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractQuantities, sameQuantity } from '../../src/engine/language/quantities.js';
import { one } from './support.js';

describe('quantities', () => {
  it('finds no figure in words that every object has', () => {
    // The tables of number, scale and unit words are looked up by the answer's own words.
    const found = extractQuantities('The constructor sent 5 constructor forms; a toString of hasOwnProperty __proto__ valueOf.');
    assert.deepEqual(
      found.map((q) => [q.kind, q.value, q.text]),
      [['count', 5, '5']],
    );
  });
  it('reads number words and digits alike', () => {
    assert.ok(sameQuantity(one('seventy-five dollars'), one('$75')));
    assert.ok(sameQuantity(one('twelve'), one('12')));
  });
  it('normalises percentages and fractions', () => {
    assert.ok(sameQuantity(one('a fifth'), one('20%')));
    assert.ok(sameQuantity(one('half'), one('50 percent')));
    assert.ok(!sameQuantity(one('a quarter'), one('30%')));
  });
  it('normalises currency and scale', () => {
    assert.ok(sameQuantity(one('$1.2 billion'), one('$1,200 million')));
    assert.ok(sameQuantity(one('five grand'), one('$5,000')));
    assert.ok(!sameQuantity(one('$1,000'), one('$1,500')));
  });
  it('reads a currency code before the amount as its sign', () => {
    const fee = one('The locker costs GBP 12 per day.');
    assert.deepEqual([fee.kind, fee.value, fee.unit, fee.text], ['money', 12, '£', 'GBP 12']);
    assert.ok(sameQuantity(one('USD 1,250'), one('$1,250')));
    assert.ok(sameQuantity(one('€8.50'), one('EUR 8.50')));
    assert.ok(!sameQuantity(one('€8.50'), one('USD 8.50')));
    // Only the code as written: "eur" in running text is not read as a sign before a figure.
    assert.equal(one('a sum of eur 40').unit, '');
  });
  it('normalises durations', () => {
    assert.ok(sameQuantity(one('two weeks'), one('14 days')));
    assert.ok(sameQuantity(one('a fortnight'), one('14 days')));
    assert.ok(sameQuantity(one('a third of a minute'), one('20 seconds')));
    assert.ok(sameQuantity(one('four working weeks'), one('20 business days')));
    assert.ok(!sameQuantity(one('two hours'), one('90 minutes')));
  });
  it('reads dates in common formats and clock times', () => {
    assert.ok(sameQuantity(one('9 Nov 2022'), one('November 9, 2022')));
    assert.ok(!sameQuantity(one('9 November 2022'), one('10 November 2022')));
    assert.ok(sameQuantity(one('6 p.m.'), one('18:00')));
  });
  it('tolerates hedged figures', () => {
    assert.ok(sameQuantity(one('about 50 hours'), one('48 hours')));
    assert.ok(!sameQuantity(one('50 hours'), one('48 hours')));
  });
  it('reads the period of a frequency, not of a rate', () => {
    const yearly = extractQuantities('The boiler is serviced once a year.');
    assert.deepEqual(
      yearly.map((q) => q.text),
      ['once', 'a year'],
    );
    assert.ok(sameQuantity(yearly[1]!, one('every 12 months')));
    assert.deepEqual(
      extractQuantities('A locker is $4 a day.').map((q) => q.text),
      ['$4'],
    );
  });
  it('reads "one" after a determiner and an adjective as a pronoun', () => {
    assert.deepEqual(extractQuantities('Any spill is cleaned for a fee, even an accidental one.'), []);
    assert.deepEqual(extractQuantities('Take the blue one or the cheaper one.'), []);
    assert.deepEqual(
      extractQuantities('There is one exception, and each extra one costs $5.').map((q) => q.text),
      ['one', '$5'],
    );
  });
  it('reads a clause number at the start of its line as no figure', () => {
    assert.deepEqual(
      extractQuantities('4.2 Day passes cost $9.\n4.3 Weekend passes cost $15.').map((q) => q.text),
      ['$9', '$15'],
    );
    assert.deepEqual(
      extractQuantities('The trail is 4.2 long, and 4.2 Hill is steep.').map((q) => q.text),
      ['4.2', '4.2'],
    );
  });
  it('reads "the day before" and "the week after" as one of the unit', () => {
    assert.ok(sameQuantity(one('Please cancel the day before your lesson.'), one('Please cancel a day before your lesson.')));
    assert.equal(one('Results arrive the week after the exam.').value, 7 * 86400);
    assert.deepEqual(extractQuantities('The day of the race is busy.'), []);
  });
  it('reads "half an hour" and "half a day" as durations', () => {
    assert.ok(sameQuantity(one('Doors close half an hour before the show.'), one('Doors close 30 minutes before the show.')));
    assert.ok(sameQuantity(one('Hire the kayak for half a day.'), one('Hire the kayak for 12 hours.')));
    assert.equal(one('Half the seats are reserved.').kind, 'fraction');
  });
  it('reads "one" after "with" or "without" and before no noun as a pronoun', () => {
    assert.deepEqual(extractQuantities('You need a library card. Without one, you can only read in the hall.'), []);
    assert.deepEqual(
      extractQuantities('Got a railcard? With one you save a third.').map((q) => q.text),
      ['a third'],
    );
    assert.deepEqual(
      extractQuantities('Book a room with one bed.').map((q) => q.text),
      ['one'],
    );
  });
  it('reads "single" as one only after "a" or "one"', () => {
    assert.deepEqual(
      extractQuantities('Two single rooms, and a single ticket.').map((q) => [q.text, q.value]),
      [
        ['Two', 2],
        ['single', 1],
      ],
    );
  });
  it('reports UTF-16 offsets', () => {
    const text = 'Prix: €24 — 🙂 then 14 days';
    for (const q of extractQuantities(text)) assert.equal(text.slice(q.start, q.end), q.text);
  });
  it('reads fractions written as one character and "and a half"', () => {
    assert.ok(sameQuantity(one('allow 2½ hours'), one('2.5 hours')));
    assert.ok(sameQuantity(one('a year and a half'), one('18 months')));
    assert.ok(sameQuantity(one('four and a half days'), one('108 hours')));
    assert.ok(sameQuantity(one('an hour and a half'), one('90 minutes')));
    assert.ok(sameQuantity(one('¼ of the plot'), one('25%')));
    assert.ok(!sameQuantity(one('allow 2½ hours'), one('2 hours')));
  });
  it('reads "once" before a clause as "as soon as", and a count of how often otherwise', () => {
    assert.deepEqual(extractQuantities('Once you have the key, return the form.'), []);
    assert.deepEqual(extractQuantities('once the kiln has cooled'), []);
    assert.equal(extractQuantities('The lawn is cut once a fortnight.')[0]?.text, 'once');
    assert.equal(extractQuantities('You can change the date only once.')[0]?.text, 'once');
  });
  it('reads pence and pennies as money', () => {
    assert.ok(sameQuantity(one('Photocopies cost 15p each.'), one('£0.15')));
    assert.ok(sameQuantity(one('a toll of two pence'), one('2p')));
    assert.ok(sameQuantity(one('a penny a head'), one('1p')));
    assert.ok(!sameQuantity(one('15p'), one('£15')));
  });
  it("reads a rate's unit as part of the rate, also after the thing a count counts", () => {
    for (const text of ['40p a day', '3 lessons per week', '2,000 text messages a month'])
      assert.equal(extractQuantities(text).length, 1, text);
    // A period of its own after a preposition is a figure.
    assert.equal(extractQuantities('3 lessons in a week').length, 2);
  });
  it('reads "12 March, 2 to 4 pm" as the twelfth of March and a time, not the second of March', () => {
    const found = extractQuantities('The fair is on Friday 12 March, 2 to 4 pm, in the school hall.');
    assert.deepEqual(
      found.filter((q) => q.kind === 'date').map((q) => [q.text, q.date?.day, q.date?.month]),
      [['12 March', 12, 3]],
    );
    assert.equal(extractQuantities('It opened on March 2, 1931.')[0]?.date?.day, 2);
  });
});
