// Golden files: full results for a few requests, to show the engine is deterministic and to make
// any change in its output visible in review. Regenerate with UPDATE_GOLDEN=1 after a deliberate change.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { engine, sources } from './support.js';

const dir = new URL('./golden/', import.meta.url);

const cases = {
  'validate-supported': () =>
    engine.validate({
      question: 'How much is the Team plan, and does it include phone support?',
      answer: "Sure! The Team plan is $40 a month and it's the only plan with phone support. Let me know if you have other questions.",
      sources,
    }),
  'validate-contradicted': () =>
    engine.validate({
      question: 'Can I get my money back on a monthly plan?',
      answer: 'Yes, monthly subscriptions can be refunded within 60 days of purchase.',
      sources,
    }),
  'fix-mixed': () =>
    engine.fix({
      question: 'Tell me about Basic.',
      answer: 'The Basic plan includes 50 user seats and costs $12 per month. It comes with free onboarding calls.',
      sources,
    }),
  'generate-answer': () => engine.generate({ question: 'When did the Tartu office open?', sources }),
  'validate-role-swapped': () =>
    engine.validate({
      question: 'Who founded the company, and when?',
      answer: 'Good question! The company was set up in 2011 and is owned by Ingrid Berg.',
      sources,
    }),
  'validate-restates-question': () =>
    engine.validate({
      question: 'The company opened a Tartu office in 2019; on what date?',
      answer: 'The company opened its Tartu office in 2019.',
      sources,
    }),
};

describe('golden results', () => {
  for (const [name, run] of Object.entries(cases)) {
    it(name, async () => {
      const file = new URL(`${name}.json`, dir);
      const first = JSON.stringify(await run(), null, 2);
      assert.equal(JSON.stringify(await run(), null, 2), first, 'same input, same output');
      if (process.env.UPDATE_GOLDEN || !existsSync(file)) writeFileSync(file, `${first}\n`);
      assert.equal(first, readFileSync(file, 'utf8').trimEnd());
    });
  }
});
