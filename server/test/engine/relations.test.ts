// One small case per check added in engine 1.2: relations between names (a swapped verb, two names
// the sources never link), swapped modifiers, coined names, vague answers, option years in one
// sentence, denied identities.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fires, validate } from './support.js';

const film =
  'Beowulf is a 2007 fantasy film directed by Robert Zemeckis and written by Neil Gaiman and Roger Avary. Mara Linde is a Canadian stage actress.';

describe('relations between names', () => {
  it('contradicts a verb the sources attach to another name', async () => {
    assert.ok(fires('role_mismatch', 'Who directed Beowulf?', 'Neil Gaiman directed Beowulf.', film));
    assert.ok(!fires('role_mismatch', 'Who directed Beowulf?', 'Robert Zemeckis directed Beowulf.', film));
    assert.equal((await validate('Who directed Beowulf?', 'Robert Zemeckis directed Beowulf.', film)).issue_count, 0);
    assert.equal((await validate('Who wrote Beowulf?', 'Roger Avary wrote Beowulf.', film)).issue_count, 0);
  });
  it('flags two names the sources never mention together', async () => {
    const text = 'Golf Digest is a monthly magazine owned by Conde Nast. Field Notes is an online magazine from Ohio.';
    const question = 'Which magazine is owned by Conde Nast?';
    const result = await validate(question, 'Field Notes is owned by Conde Nast.', text);
    assert.match(result.issues.join(' '), /Field Notes/);
    assert.equal((await validate(question, 'Golf Digest is owned by Conde Nast.', text)).issue_count, 0);
  });
});

describe('words and names the sources do not give', () => {
  it('flags a name coined from the sources words', async () => {
    const text = 'Presque Isle State Park is on a sandy peninsula that juts into Lake Erie.';
    assert.ok(fires('name_coined', 'What is the park called?', 'The park is called Lake Erie Peninsula.', text));
    assert.ok(!fires('name_coined', 'What is the park called?', 'The park is called Presque Isle State Park.', text));
    assert.equal((await validate('What is the park called?', 'The park is called Presque Isle State Park.', text)).issue_count, 0);
  });
});

describe('answers that do not answer', () => {
  it('flags "an Irish actor" for "what actor"', async () => {
    const text = 'The Messenger is a 2015 film starring Robert Sheehan. Robert Sheehan is an Irish actor.';
    const result = await validate('What male actor starred in The Messenger?', 'The Messenger starred an Irish actor.', text);
    assert.ok(result.findings.some((f) => f.category === 'incomplete_answer'));
  });
});

describe('options, pairs and denials', () => {
  it('reads each option year after its own name when one sentence holds both', async () => {
    const text = 'Neil LaBute (born 1963) is an American director.H. Bruce Humberstone (1901 – 1984) was a director.';
    const question = 'Who was born first, Neil LaBute or H. Bruce Humberstone?';
    assert.match((await validate(question, 'Neil LaBute was born first.', text)).issues.join(' '), /by the dates/);
  });
  it('contradicts a denied identity the sources state', () => {
    const text = 'The ceremony was chaired by Isabelle Mergault. Tell No One won the award for Best Film.';
    assert.ok(fires('negation_clash', 'Who chaired the ceremony?', 'The chair of the ceremony was not Isabelle Mergault.', text));
  });
});
