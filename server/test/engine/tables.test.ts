// Tables written with "|": cells, the header a row sits under, and a figure read by its row and column.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { splitPassages } from '../../src/engine/evidence/passages.js';
import { cellsOf, tableHeaders } from '../../src/engine/evidence/tables.js';
import { fires, validate } from './support.js';

const hire = [
  'TIDELINE CYCLE HIRE - PRICES',
  'Bike | City bike | E-bike',
  'Half day | €14 | €28',
  'Full day | €22 | €45',
  'Deposit | €50 | €150',
  'Helmets are lent free with every hire.',
].join('\n');

describe('table cells', () => {
  it('cuts a row at its bars, Markdown edges included, and keeps an empty cell between two', () => {
    const row = '| Full day | €22 |  | €45 |';
    assert.deepEqual(
      cellsOf(row).map((c) => row.slice(c.start, c.end)),
      ['Full day', '€22', '', '€45'],
    );
    assert.deepEqual(cellsOf('No bars here.'), []);
    assert.deepEqual(cellsOf('One bar | only one cell after it |').length, 2);
  });
  it('gives each row the header of its run of rows, not a lone line with bars', () => {
    const passages = splitPassages([{ source_id: 's', text: `Version 2 | March 2026\n${hire}` }]);
    const headers = tableHeaders(passages);
    const header = passages.findIndex((p) => p.text.startsWith('Bike |'));
    const rows = passages.map((p, i) => [p.text, headers.get(i)] as const).filter(([, h]) => h !== undefined);
    assert.deepEqual(
      rows.map(([text, h]) => [text.split(' |')[0], h]),
      [
        ['Half day', header],
        ['Full day', header],
        ['Deposit', header],
      ],
    );
  });
  it('skips the rule under a Markdown header', () => {
    const passages = splitPassages([{ source_id: 's', text: '| Size | Price |\n|---|---:|\n| Small | €3 |\n| Large | €5 |' }]);
    const headers = tableHeaders(passages);
    assert.deepEqual([...headers.values()], [0, 0]);
  });
});

describe('a figure in a table', () => {
  it('belongs to its row and its column', async () => {
    const q = 'How much is an e-bike for a full day?';
    assert.equal((await validate(q, 'A full day on an e-bike costs €45.', hire)).issue_count, 0);
    // The city bike's price for the same row, and the e-bike's for another row, are both another value.
    assert.ok(fires('figure_contradicted', q, 'A full day on an e-bike costs €22.', hire));
    assert.ok(fires('figure_contradicted', q, 'A full day on an e-bike costs €28.', hire));
  });
});
