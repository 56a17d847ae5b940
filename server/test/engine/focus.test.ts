// One small case per check added in engine 1.3 about answers that do not answer: a statement that only
// restates the question, the asked thing described instead of named, another thing of the question
// named instead; and words of praise that the sources or the question already use, which are no claim of
// the answer's own.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validate } from './support.js';

const museum =
  'The Orla Museum opened in 1931 in Varde. Its first director was the historian Agnes Holm, who wrote the guide "Stones of Varde". The museum holds a collection of iron-age tools.';

function incomplete(result: { findings: { category: string }[] }): boolean {
  return result.findings.some((f) => f.category === 'incomplete_answer');
}

describe('answers that do not answer', () => {
  it("flags a statement made only of the question's own words", async () => {
    const question = 'The first director of the Orla Museum in Varde was a historian; what guide did she write?';
    assert.ok(incomplete(await validate(question, 'The first director of the Orla Museum was a historian.', museum)));
    assert.equal((await validate(question, 'She wrote "Stones of Varde".', museum)).issue_count, 0);
  });
  it('lets a bare answer pick one of the things the question names', async () => {
    assert.equal((await validate('Which opened first, the Orla Museum or the Varde library?', 'The Orla Museum', museum)).issue_count, 0);
  });
  it('flags the asked person described but not named', async () => {
    const question = 'What historian was the first director of the Orla Museum?';
    assert.ok(incomplete(await validate(question, 'The historian was a writer of guides.', museum)));
    assert.equal((await validate(question, 'The historian was Agnes Holm.', museum)).issue_count, 0);
  });
  it('flags an answer that names another thing the question mentions', async () => {
    const question = 'What historian wrote a guide to the town where the Orla Museum opened?';
    const result = await validate(question, 'Stones of Varde is the guide about the town.', museum);
    assert.match(result.issues.join(' '), /names the guide instead/);
    assert.equal((await validate(question, 'Agnes Holm wrote the guide.', museum)).issue_count, 0);
  });
  it('reads "A and B ..., but which one" as a choice between A and B', async () => {
    const text = 'The Blue Heron is owned by Hilde Voss. The Copper Spoon is a family-run diner.';
    const question = 'The Blue Heron and The Copper Spoon are both cafés on the square, but which one is owned by Hilde Voss?';
    assert.equal((await validate(question, 'The Blue Heron is owned by Hilde Voss.', text)).issue_count, 0);
    assert.equal((await validate(question, 'The Copper Spoon is owned by Hilde Voss.', text)).claims[0]?.status, 'contradicted');
  });
});

describe('words of praise', () => {
  it('accepts praise the sources give or the question already uses', async () => {
    const text = 'Agnes Holm was a renowned historian of the iron age.';
    assert.equal((await validate('Who was Agnes Holm?', 'She was a renowned historian.', text)).issue_count, 0);
    assert.equal((await validate('Which famous historian led the museum?', 'The famous historian was Agnes Holm.', museum)).issue_count, 0);
  });
});

describe('questions that ask for a name, by the kinds of things proper names are given to', () => {
  const ferry =
    'The night ferry from Kelt to Mora is run by Nordwave Lines. It sails across Lake Vessen and arrives at Mora Harbour station at 06:10.';
  for (const [question, named] of [
    ['Which company runs the night ferry?', 'Nordwave Lines runs it.'],
    ['Which lake does the ferry cross?', 'It crosses Lake Vessen.'],
    ['At which station does the ferry arrive?', 'It arrives at Mora Harbour station.'],
  ] as const) {
    it(`"${question}" is answered by a name, not by a description`, async () => {
      assert.equal((await validate(question, named, ferry)).issue_count, 0);
      assert.ok(incomplete(await validate(question, 'It is the one on the night route.', ferry)));
    });
  }
});
