// One small case per check added in engine 1.2: relations between names (a swapped verb, two names
// the sources never link), swapped modifiers, coined names, vague answers, option years in one
// sentence, denied identities.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fires, validate } from './support.js';

const musical =
  'Copper Sky is a 2011 stage musical directed by Hanne Lorent and written by Milo Varga and Pia Estrup. Edda Rusk is a Danish jazz singer.';

describe('relations between names', () => {
  it('contradicts a verb the sources attach to another name', async () => {
    assert.ok(fires('role_mismatch', 'Who directed Copper Sky?', 'Milo Varga directed Copper Sky.', musical));
    assert.ok(!fires('role_mismatch', 'Who directed Copper Sky?', 'Hanne Lorent directed Copper Sky.', musical));
    assert.equal((await validate('Who directed Copper Sky?', 'Hanne Lorent directed Copper Sky.', musical)).issue_count, 0);
    assert.equal((await validate('Who wrote Copper Sky?', 'Pia Estrup wrote Copper Sky.', musical)).issue_count, 0);
  });
  it('finds two names the sources never mention together', async () => {
    const text = 'The Brisk Kettle is a tea room owned by Halden Foods. Millstone is a bakery from Corran.';
    const question = 'Which shop is owned by Halden Foods?';
    // The aggregator decides whether the signal flags (it may be demoted for precision): the check is tested by its signal.
    assert.ok(fires('names_unlinked', question, 'Millstone is owned by Halden Foods.', text));
    assert.ok(!fires('names_unlinked', question, 'The Brisk Kettle is owned by Halden Foods.', text));
    assert.equal((await validate(question, 'The Brisk Kettle is owned by Halden Foods.', text)).issue_count, 0);
  });
  it('takes one capitalised word opening a claim before a label or a noun for no name to link', () => {
    const notes =
      'Release 5.0\n- Basic users can now create groups of up to 10 members.\n- Studio users can export to PDF.\nGroup limits apply from 1 May.';
    const q = 'What changed for Basic?';
    assert.ok(!fires('names_unlinked', q, 'Group size: groups created by Basic users max out at 10 members.', notes));
  });
});

describe('words and names the sources do not give', () => {
  it('flags a name coined from the sources words', async () => {
    const text = 'Hollin Bay Nature Reserve is on a rocky headland that reaches into Lake Selmer.';
    assert.ok(fires('name_coined', 'What is the reserve called?', 'The reserve is called Lake Selmer Headland.', text));
    assert.ok(!fires('name_coined', 'What is the reserve called?', 'The reserve is called Hollin Bay Nature Reserve.', text));
    assert.equal((await validate('What is the reserve called?', 'The reserve is called Hollin Bay Nature Reserve.', text)).issue_count, 0);
  });
});

describe('answers that do not answer', () => {
  it('flags "a Basque chef" for "what chef"', async () => {
    const text = 'The Gull Inn is a harbour pub whose kitchen is run by Ander Etxeberri. Ander Etxeberri is a Basque chef.';
    const result = await validate('What chef runs the kitchen at the Gull Inn?', 'The Gull Inn kitchen is run by a Basque chef.', text);
    assert.ok(result.findings.some((f) => f.category === 'incomplete_answer'));
  });
});

describe('options, pairs and denials', () => {
  it('reads each option year after its own name when one sentence holds both', async () => {
    const text = 'Signe Harlow (born 1963) is a Norwegian architect.J. Otto Verran (1901 – 1984) was an architect.';
    const question = 'Who was born first, Signe Harlow or J. Otto Verran?';
    assert.match((await validate(question, 'Signe Harlow was born first.', text)).issues.join(' '), /by the dates/);
  });
  it('contradicts a denied identity the sources state', () => {
    const text = 'The jury was chaired by Odile Farrand. Paper Moons won the prize for Best Novel.';
    assert.ok(fires('negation_clash', 'Who chaired the jury?', 'The chair of the jury was not Odile Farrand.', text));
  });
});
