import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkBounds } from '../../src/contract/body-bounds.js';

const schemas: Record<string, Record<string, unknown>> = {
  Item: { type: 'string', maxLength: 3 },
  Body: {
    type: 'object',
    additionalProperties: false,
    properties: { list: { type: 'array', maxItems: 2, items: { $ref: '#/Item' } }, name: { type: 'string', maxLength: 4 } },
  },
};
const resolve = (ref: string) => schemas[ref.slice(2)]!;
const check = (data: unknown, limit = 20) => checkBounds({ $ref: '#/Body' }, data, resolve, limit);

test('reports oversized arrays and strings without looking inside them', () => {
  assert.deepEqual(check({ list: ['a', 'b', 'c'] }).errors, [{ pointer: '/list', detail: 'must have at most 2 items' }]);
  assert.deepEqual(check({ list: ['abcd'] }).errors, [{ pointer: '/list/0', detail: 'must have at most 3 characters' }]);
  assert.equal(check({ list: ['ab'], name: 'abcd' }).total, 0);
});

test('counts code points, as JSON Schema does', () => {
  assert.equal(check({ name: '\u{1F600}\u{1F600}\u{1F600}\u{1F600}' }).total, 0);
  assert.equal(check({ name: '\u{1F600}'.repeat(5) }).total, 1);
});

test('a closed object with more keys than it declares lists the unknown ones, up to the limit', () => {
  const report = check({ list: [], a: 1, b: 2, c: 3 }, 2);
  assert.equal(report.total, 3);
  assert.deepEqual(
    report.errors.map((e) => e.pointer),
    ['/a', '/b'],
  );
  assert.equal(check({ a: 1 }).total, 0, 'a few unknown keys are left to the full validation');
});
