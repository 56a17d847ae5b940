// The one canonical JSON (RFC 8785) that the server's audit chain and idempotency fingerprint and the
// SDK's chain verifier share: the RFC's own examples, and the two documented choices where JCS would
// refuse the input.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { canonicalJson } from '../src/canonical-json.js';

describe('canonicalJson (RFC 8785)', () => {
  test('sorts keys, drops whitespace, keeps arrays in order', () => {
    assert.equal(canonicalJson({ b: 1, a: [true, null, 'x'], c: { z: 0, y: [] } }), '{"a":[true,null,"x"],"b":1,"c":{"y":[],"z":0}}');
  });

  test("the RFC's example of numbers, strings and literals (section 3.2.2)", () => {
    const input = JSON.parse(
      '{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],' +
        '"string":"\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/","literals":[null,true,false]}',
    );
    assert.equal(
      canonicalJson(input),
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  test('sorts keys by UTF-16 code unit, as the RFC orders its example (section 3.2.3)', () => {
    const input = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    };
    // Read the keys off the text: an object parsed back would put the integer-like key first whatever the order.
    const keys = [...canonicalJson(input).matchAll(/"((?:[^"\\]|\\.)*)":/g)].map((m) => JSON.parse(`"${m[1]}"`));
    assert.deepEqual(keys, ['\r', '1', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ufb33']);
  });

  test('writes numbers as ECMAScript prints them: -0 as 0, large ones in exponent form', () => {
    assert.equal(canonicalJson([-0, 1e21, 1e20, 0.1 + 0.2]), '[0,1e+21,100000000000000000000,0.30000000000000004]');
  });

  test('leaves out undefined properties and writes undefined array items as null', () => {
    assert.equal(canonicalJson({ a: undefined, b: [undefined, 1] }), '{"b":[null,1]}');
  });

  test('escapes a lone surrogate instead of refusing it, so a hash of accepted text never fails', () => {
    assert.equal(canonicalJson({ text: 'a\ud800b' }), '{"text":"a\\ud800b"}');
  });
});
