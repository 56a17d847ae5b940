// Fast unit tests of the pure helpers in src/lib.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BadRequestError } from '../../src/errors.js';
import { ManualClock } from '../../src/lib/clock.js';
import { csvCell, csvRow } from '../../src/lib/csv.js';
import { decodeCursor, encodeCursor } from '../../src/lib/cursor.js';
import { addDays, dayOf, dayRange, isCalendarDay } from '../../src/lib/day-range.js';
import { sha256Hex } from '../../src/lib/hash.js';
import { newId } from '../../src/lib/ids.js';

describe('cursors', () => {
  test('round-trip their position and refuse anything else', () => {
    const cursor = encodeCursor('after', 42);
    assert.equal(decodeCursor(cursor, 'after', /^\d+$/), '42');
    for (const bad of [
      '',
      'not-base64!',
      encodeCursor('before', 42),
      encodeCursor('after', 'x'),
      Buffer.from('after:').toString('base64url'),
    ]) {
      assert.throws(() => decodeCursor(bad, 'after', /^\d+$/), BadRequestError, bad);
    }
  });
});

describe('day ranges', () => {
  test('turn days into inclusive UTC instants and check them', () => {
    assert.deepEqual(dayRange('2026-11-01', '2026-11-02'), { from: '2026-11-01T00:00:00.000Z', to: '2026-11-02T23:59:59.999Z' });
    assert.deepEqual(dayRange(undefined, undefined), { from: undefined, to: undefined });
    assert.throws(() => dayRange('2026-02-30', undefined), BadRequestError);
    assert.throws(() => dayRange('2026-11-02', '2026-11-01'), BadRequestError);
  });

  test('add days across months and years, never before year 1', () => {
    assert.equal(addDays('2026-03-01', -1), '2026-02-28');
    assert.equal(addDays('2024-12-31', 1), '2025-01-01');
    assert.equal(addDays('0001-01-05', -3650), '0001-01-01');
    assert.equal(dayOf(new Date('2026-11-21T23:59:59.999Z')), '2026-11-21');
    assert.equal(isCalendarDay('2024-02-29'), true);
    assert.equal(isCalendarDay('2023-02-29'), false);
  });
});

describe('CSV', () => {
  test('quotes as RFC 4180 asks and ends rows with CRLF', () => {
    assert.equal(csvRow(['a', 'b,c', 'say "hi"', 1, null, true]), 'a,"b,c","say ""hi""",1,,true\r\n');
  });

  test('neutralises formulas but not numbers', () => {
    assert.equal(csvCell('=1+1'), "'=1+1");
    assert.equal(csvCell(-5), '-5');
  });
});

describe('ids, hashes and the clock', () => {
  test('ids carry their prefix and sort by the instant given', () => {
    const early = newId('val', Date.UTC(2026, 0, 1));
    const late = newId('val', Date.UTC(2026, 0, 2));
    assert.match(early, /^val_[0-9A-Z]{26}$/);
    assert.ok(early.slice(4, 14) < late.slice(4, 14));
  });

  test('sha256Hex is SHA-256 in hex', () => {
    assert.equal(sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  test('a manual clock stands still until moved', () => {
    const clock = new ManualClock(new Date('2026-11-21T00:00:00Z'));
    assert.equal(clock.now().toISOString(), '2026-11-21T00:00:00.000Z');
    clock.advance(1500);
    assert.equal(clock.now().toISOString(), '2026-11-21T00:00:01.500Z');
  });
});
