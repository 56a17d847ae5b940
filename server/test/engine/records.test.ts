// Records written as lines of fields ("Seat: …" / "Price: …") and sections under a heading: which lines make one, and what
// a claim may link across them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { splitPassages } from '../../src/engine/evidence/passages.js';
import { fieldRecord } from '../../src/engine/evidence/records.js';
import { fires } from './support.js';

const tickets = [
  'Your tickets - Lantern Street Playhouse',
  '',
  'Order number: LSP-3391',
  'Performance: The Glass Orchard, Saturday 6 March, 7.30 pm',
  '',
  'Ticket 1: Dress Circle, seat C14 (Amira Holt)',
  'Price: £32. Paid by card on 12 January.',
  'Access: step-free via the Quay Door',
  '',
  'Ticket 2: Upper Gallery, seat F2 (Tomas Holt)',
  'Price: £18',
  'Access: stairs only',
  '',
  'Exchanges are free up to 48 hours before the performance.',
].join('\n');

function recordsByText(text: string): string[][] {
  const sources = [{ source_id: 's', text }];
  const passages = splitPassages(sources);
  const groups = new Map<number, string[]>();
  passages.forEach((_, id) => {
    const record = fieldRecord(sources, passages, id);
    if (record.length > 0)
      groups.set(
        record[0]!,
        record.map((m) => passages[m]!.text),
      );
  });
  return [...groups.values()];
}

describe('records of field lines', () => {
  it('joins the field lines between blank lines, a line of two sentences included, and leaves prose out', () => {
    assert.deepEqual(recordsByText(tickets), [
      ['Order number: LSP-3391', 'Performance: The Glass Orchard, Saturday 6 March, 7.30 pm'],
      [
        'Ticket 1: Dress Circle, seat C14 (Amira Holt)',
        'Price: £32.',
        'Paid by card on 12 January.',
        'Access: step-free via the Quay Door',
      ],
      ['Ticket 2: Upper Gallery, seat F2 (Tomas Holt)', 'Price: £18', 'Access: stairs only'],
    ]);
  });
  it('starts a new record at a label the record already has, and makes none of one field or of list items', () => {
    const plans = 'Plan: Harbour Saver\nMonthly fee: €9\nPlan: Harbour Plus\nMonthly fee: €15';
    assert.deepEqual(recordsByText(plans), [
      ['Plan: Harbour Saver', 'Monthly fee: €9'],
      ['Plan: Harbour Plus', 'Monthly fee: €15'],
    ]);
    assert.deepEqual(recordsByText('Note: moorings close in January.\nThe office opens at nine.'), []);
    assert.deepEqual(recordsByText('- Visitors: up to two per berth\n- Dinghies: free on the pontoon'), []);
  });
});

describe('a claim across the lines of a record', () => {
  const q = 'Tell me about my tickets.';
  it('links the names of one record, and not those of two', () => {
    assert.ok(!fires('names_unlinked', q, 'Ticket 1 is in the Dress Circle and has step-free access via the Quay Door.', tickets));
    assert.ok(fires('names_unlinked', q, 'The Upper Gallery seat has step-free access via the Quay Door.', tickets));
  });
  it('gives a field line figure to the names of its record', () => {
    assert.ok(!fires('figure_other_subject', q, 'The Dress Circle seat cost £32.', tickets));
    assert.ok(fires('figure_other_subject', q, 'The Upper Gallery seat was paid by card on 12 January.', tickets));
  });
  it('binds a name to the other lines of its record', () => {
    assert.ok(!fires('name_unbound', q, 'Order LSP-3391 is for The Glass Orchard on Saturday 6 March at 7.30 pm.', tickets));
  });
});

describe('a claim across a section and its heading', () => {
  const faq = [
    'ISLAND FERRY COMPANY - QUESTIONS',
    '',
    'What is the Harbour Pass?',
    'It gives unlimited crossings for 30 days, for £45.',
    '',
    'Can I take a bicycle?',
    'Yes, on every sailing except the 07:10 from Holm Pier, for £3 each way.',
    '',
    'Who runs the Tern Line?',
    'Osprey Boats runs it on behalf of the council.',
  ].join('\n');
  it('binds a name in a question heading to the answer under it', () => {
    assert.ok(!fires('name_unbound', 'What do I get for my money?', 'The Harbour Pass gives you unlimited crossings for 30 days.', faq));
  });
  it('links a name of the heading with the names of its section, and not of another section', () => {
    const q = 'Who is behind the route?';
    assert.ok(!fires('names_unlinked', q, 'Osprey Boats runs the Tern Line for the council.', faq));
    assert.ok(fires('names_unlinked', q, 'Osprey Boats runs the Harbour Pass for the council.', faq));
  });
});

describe('what heads a section', () => {
  it('takes no list item, nor a line that runs on into the next, as a heading whose figures label what follows', () => {
    const rules = [
      '4. TRANSFERS',
      '4.1 A member may transfer a berth only if they:',
      '(a) have held it for at least 12 months; and',
      '(b) owe no fees.',
      '4.2 Transfer requests are decided by the harbour master within 10 days.',
    ].join('\n');
    const q = 'How long does a transfer decision take?';
    assert.ok(!fires('figure_contradicted', q, 'The harbour master decides transfer requests within 10 days.', rules));
    assert.ok(fires('figure_contradicted', q, 'The harbour master decides transfer requests within 12 months.', rules));
  });
});

describe("a heading's figures and a line's own", () => {
  it("gives a line that states a value of its own kind that value, not the heading's", () => {
    const history = [
      'The Tarrow Lighthouse',
      '',
      'Keepers (1860-1921)',
      'The light was first lit in 1861; its first keeper, Ada Venn, took charge in 1862 together with her brother Tom Venn, and the two kept the lamp burning through the great storm.',
    ].join('\n');
    const q = 'When did Ada Venn start?';
    const answer =
      'Ada Venn took charge in 1862 together with her brother Tom Venn, and they kept the lamp burning through the great storm.';
    assert.ok(!fires('figure_contradicted', q, answer, history));
    assert.ok(fires('figure_contradicted', q, answer.replace('1862', '1865'), history));
  });
});
