// Figures an answer works out from its own: which operations count, and which numbers they may take.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { derivable, impliedFactors } from '../../src/engine/language/arithmetic.js';
import { one } from './support.js';

describe('figures worked out by the answer', () => {
  it('combines two figures, never two readings of one ("half" is 0.5 and 50%)', () => {
    assert.ok(derivable(one('$30'), [one('half'), one('$60')]));
    assert.ok(!derivable(one('$25'), [one('half')]));
    assert.ok(derivable(one('$36'), [one('3 nights'), one('2 guests'), one('$6')]));
  });
  it('converts between the periods a text names, by multiplying or dividing only', () => {
    const text = 'It is $15 more a month, or $180 more over a year.';
    assert.deepEqual(impliedFactors(text), [12]);
    assert.ok(derivable(one('$180'), [one('$15')], impliedFactors(text)));
    assert.ok(!derivable(one('$27'), [one('$15')], impliedFactors(text)));
    // The factor alone states nothing: "24 hours" is not worked out from naming a day.
    assert.ok(!derivable(one('24 hours'), [one('one day')], impliedFactors('24 hours after one day')));
  });
  it('takes a percentage as the share one figure the answer gives is of another', () => {
    assert.ok(derivable(one('about 40%'), [one('€2,000'), one('€5,000')]));
    assert.ok(derivable(one('25%'), [one('6 seats'), one('24 seats')]));
    assert.ok(!derivable(one('about 40%'), [one('€3,000'), one('€5,000')]));
  });
  it("takes the gap between two dates the answer gives as worked out, a date without a year in the other's year or before", () => {
    assert.ok(derivable(one('a week'), [one('Monday 3 March 2031'), one('Monday 10 March 2031')]));
    assert.ok(derivable(one('about a year and a half'), [one('1 October'), one('April 2033')]));
    assert.ok(!derivable(one('a week'), [one('3 March 2031'), one('12 March 2031')]));
    assert.ok(!derivable(one('two years'), [one('3 March 2031')]));
  });
  it('takes the gap between two clock times the answer gives as worked out', () => {
    assert.ok(derivable(one('half an hour'), [one('6pm'), one('6:30pm')]));
    assert.ok(derivable(one('90 minutes'), [one('10:30am'), one('12:00')]));
    assert.ok(!derivable(one('45 minutes'), [one('6pm'), one('6:30pm')]));
  });
});
