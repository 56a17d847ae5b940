// One small case per check added in engine 1.2: relations between names (a swapped verb, two names
// the sources never link), ranked superlatives, swapped modifiers, coined names, vague and open
// answers, option years in one sentence, subjects whose names hold "and", denied identities.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validate } from './support.js';

const film =
  'Beowulf is a 2007 fantasy film directed by Robert Zemeckis and written by Neil Gaiman and Roger Avary. Mara Linde is a Canadian stage actress.';

describe('relations between names', () => {
  it('contradicts a verb the sources attach to another name', async () => {
    const result = await validate('Who directed Beowulf?', 'Neil Gaiman directed Beowulf.', film);
    assert.equal(result.claims[0]?.status, 'contradicted');
    assert.match(result.issues.join(' '), /written/);
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
  it('contradicts a modifier swapped within a phrase of the sources', async () => {
    const text = 'The Semmering railway was the first mountain railway built with a standard gauge track.';
    const result = await validate('What track does it use?', 'The Semmering railway runs on a narrow gauge track.', text);
    assert.match(result.issues.join(' '), /standard gauge track/);
  });
  it('flags a name coined from the sources words', async () => {
    const text = 'Presque Isle State Park is on a sandy peninsula that juts into Lake Erie.';
    assert.match(
      (await validate('What is the park called?', 'The park is called Lake Erie Peninsula.', text)).issues.join(' '),
      /never give the name/,
    );
    assert.equal((await validate('What is the park called?', 'The park is called Presque Isle State Park.', text)).issue_count, 0);
  });
  it('contradicts a plain superlative the sources only give with a rank', async () => {
    const text = 'Mall del Norte is the 2nd largest mall in South Texas and one of the largest malls in Texas.';
    const result = await validate('Tell me about Mall del Norte.', 'Mall del Norte is the largest mall in Texas.', text);
    assert.match(result.issues.join(' '), /rank/);
  });
});

describe('names given as aliases', () => {
  it('contradicts a name after "officially known as" that the sources give otherwise', async () => {
    const text = 'The 2017 Summer Deaflympics, officially known as the 23rd Summer Deaflympics, took place in Samsun.';
    const result = await validate('What is the event officially known as?', 'It is officially known as the 2017 Deaflympics.', text);
    assert.match(result.issues.join(' '), /23rd Summer Deaflympics/);
    assert.equal(
      (await validate('What is it officially known as?', 'It is officially known as the 23rd Summer Deaflympics.', text)).issue_count,
      0,
    );
  });
});

describe('answers that do not answer', () => {
  it('flags "an Irish actor" for "what actor"', async () => {
    const text = 'The Messenger is a 2015 film starring Robert Sheehan. Robert Sheehan is an Irish actor.';
    const result = await validate('What male actor starred in The Messenger?', 'The Messenger starred an Irish actor.', text);
    assert.ok(result.findings.some((f) => f.category === 'incomplete_answer'));
  });
  it('flags an answer that asks the question back', async () => {
    const text = 'Ghostbusters is a song for the film starring Bill Murray. Dan Aykroyd was a cast member of Saturday Night Live.';
    const result = await validate(
      'The film starred an actor from what show?',
      'Ghostbusters is a song for a film starring Bill Murray on what show?',
      text,
    );
    assert.match(result.issues.join(' '), /asks this/);
  });
});

describe('options, pairs and denials', () => {
  it('reads each option year after its own name when one sentence holds both', async () => {
    const text = 'Neil LaBute (born 1963) is an American director.H. Bruce Humberstone (1901 – 1984) was a director.';
    const question = 'Who was born first, Neil LaBute or H. Bruce Humberstone?';
    assert.match((await validate(question, 'Neil LaBute was born first.', text)).issues.join(' '), /by the dates/);
  });
  it('splits two subjects whose names hold "and"', async () => {
    const text = 'A gin and tonic is a highball cocktail made with gin. The paloma is a tequila-based cocktail.';
    const result = await validate('Are Gin and tonic and Paloma both cocktails based on tequila?', 'Yes, both are cocktails.', text);
    assert.match(result.issues.join(' '), /Gin and tonic/);
  });
  it('leaves "both" undecided when neither subject\'s sentences word the predicate', async () => {
    const text = 'Ada Moss was a novelist and critic. Ben Ruiz was a poet and translator.';
    assert.equal((await validate('Were Ada Moss and Ben Ruiz both authors?', 'yes', text)).issue_count, 0);
    assert.ok((await validate('Were Ada Moss and Ben Ruiz both poets?', 'yes', text)).issue_count > 0);
  });
  it('contradicts a denied identity the sources state', async () => {
    const text = 'The ceremony was chaired by Isabelle Mergault. Tell No One won the award for Best Film.';
    const result = await validate('Who chaired the ceremony?', 'The chair of the ceremony was not Isabelle Mergault.', text);
    assert.match(result.issues.join(' '), /opposite/);
  });
});
