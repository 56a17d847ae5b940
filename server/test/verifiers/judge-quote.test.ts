import assert from 'node:assert/strict';
import { test } from 'node:test';
import { quoteFinder } from '../../src/verifiers/judge/quote-check.js';

const sources = [
  { source_id: 'a', text: 'Intro.\n\nThe warranty   covers\nparts and labour for two years.' },
  { source_id: 'b', text: 'She said: “Deliveries arrive on Tuesdays and Fridays.” That’s final.' },
];

test('whitespace, case and quote style are forgiven; offsets point into the original text', () => {
  const find = quoteFinder(sources);
  const found = find('the warranty covers parts and labour');
  const start = sources[0]!.text.indexOf('The warranty');
  assert.deepEqual(found, {
    source_id: 'a',
    start,
    end: start + 'The warranty   covers\nparts and labour'.length,
    text: 'The warranty   covers\nparts and labour',
  });

  const quoted = find('Deliveries arrive on Tuesdays and Fridays." That\'s final');
  assert.equal(quoted?.source_id, 'b');
  assert.equal(quoted?.text, 'Deliveries arrive on Tuesdays and Fridays.” That’s final');
  assert.equal(sources[1]!.text.slice(quoted!.start, quoted!.end), quoted!.text);
});

test('quote marks the model wrapped around the quote are not part of it', () => {
  assert.equal(quoteFinder(sources)('“parts and labour for two years.”')?.text, 'parts and labour for two years.');
});

test('anything else must match exactly', () => {
  const find = quoteFinder(sources);
  assert.equal(find('The warranty covers parts and labor'), null);
  assert.equal(find('The warranty covers parts ... two years'), null);
  assert.equal(find('parts and labour for three years'), null);
});

test('a quote shorter than twelve characters or three words is not evidence', () => {
  const find = quoteFinder([{ source_id: 'a', text: 'Refunds apply. Extraordinarily comprehensive documentation exists.' }]);
  assert.equal(find('Refunds'), null);
  assert.equal(find('ds apply.'), null);
  assert.equal(find('Extraordinarily comprehensive'), null);
  assert.ok(find('Extraordinarily comprehensive documentation'));
  assert.equal(find('   '), null);
});

test('words are counted in scripts without spaces too', () => {
  const text = '返品は商品到着後十四日以内に受け付けます。';
  const found = quoteFinder([{ source_id: 'ja', text }])('商品到着後十四日以内に受け付けます');
  assert.equal(found?.start, 3);
  assert.equal(found?.text, '商品到着後十四日以内に受け付けます');
});

test('the first source holding the quote is named', () => {
  const find = quoteFinder([
    { source_id: 'x', text: 'nothing here at all' },
    { source_id: 'y', text: 'Prefix. Orders ship within one day.' },
    { source_id: 'z', text: 'Orders ship within one day.' },
  ]);
  assert.deepEqual(find('orders ship within one day'), { source_id: 'y', start: 8, end: 34, text: 'Orders ship within one day' });
});

test('characters outside the basic plane keep their offsets', () => {
  const text = '🙂 Tickets cost 𝟓 euros each for adults.';
  const found = quoteFinder([{ source_id: 'e', text }])('tickets cost 𝟓 euros each');
  assert.equal(found?.text, 'Tickets cost 𝟓 euros each');
  assert.equal(found?.start, 3);
});
