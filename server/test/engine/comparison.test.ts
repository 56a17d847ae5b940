// A comparison the answer draws from its own figures. Documents and answers written for these tests.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractQuantities } from '../../src/engine/language/quantities.js';
import { fires } from './support.js';

const kind = 'comparison_reversed';
const cinema = 'Tickets. An evening ticket costs £11.50. A matinee ticket costs £7.';
const q = 'Which is cheaper, a matinee or an evening show?';

describe('a comparison the answer draws from its own figures', () => {
  it('flags a side named as the cheaper or the dearer that holds the other figure', () => {
    assert.ok(fires(kind, q, 'An evening ticket is £11.50 and a matinee is £7, so the evening show is the cheaper option.', cinema));
    assert.ok(fires(kind, q, 'A matinee costs £7, while an evening ticket costs £11.50. The matinee is the pricier of the two.', cinema));
  });
  it('lets a comparison its figures bear out pass', () => {
    assert.ok(!fires(kind, q, 'An evening ticket is £11.50 and a matinee is £7, so the matinee is the cheaper option.', cinema));
    assert.ok(!fires(kind, q, 'A matinee costs £7, while an evening ticket costs £11.50, so evenings are dearer.', cinema));
  });
  it('reads nothing where the side is not clear or the comparison has a figure of its own', () => {
    // Both sides share the claim's words: no side is named.
    assert.ok(!fires(kind, q, 'A ticket is £11.50 or £7, so the ticket is cheaper than you think.', cinema));
    // "£4.50 cheaper" is a figure the figures check reads.
    assert.ok(!fires(kind, q, 'An evening ticket is £11.50 and a matinee is £7, so the evening is £4.50 cheaper.', cinema));
    // One figure is no comparison.
    assert.ok(!fires(kind, q, 'A matinee is £7, so it is the cheaper choice.', cinema));
  });
  it('takes "of the two" for the sides just named, not a figure', () => {
    assert.deepEqual(extractQuantities('The matinee is the cheaper of the two.'), []);
    assert.deepEqual(
      extractQuantities('One of the two screens is closed.').map((x) => x.text),
      ['two'],
    );
  });
});
