import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createEngine, deterministicEngine } from '../../src/engine/index.js';
import { engine, policy, sources } from './support.js';

describe('validate_and_fix', () => {
  it('replaces a contradicted figure in place and lists the change', async () => {
    const answer = 'The Basic plan costs $15 per month. Email support is available on all plans.';
    const result = await engine.fix({ question: 'How much is Basic?', answer, sources });
    assert.equal(result.corrected_response, 'The Basic plan costs $12 per month. Email support is available on all plans.');
    assert.equal(result.corrections.length, 1);
    assert.equal(result.corrections[0]?.original_text, '$15');
    assert.equal(result.user_corrections[0]?.action, 'replace');
    assert.ok(result.findings.some((f) => f.status === 'fixed'));
    assert.equal(result.issue_count, 0);
  });
  it('leaves a supported answer unchanged', async () => {
    const answer = 'The Team plan costs $40 per month.';
    const result = await engine.fix({ question: 'How much is Team?', answer, sources });
    assert.equal(result.corrected_response, answer);
    assert.deepEqual(result.corrections, []);
  });
  it('gives a corrected response that validates with no issues', async () => {
    const answers = [
      'The Basic plan includes 50 user seats. Students get a 50% discount. Monthly subscriptions are refundable.',
      'The company was founded in 2015 by Maria Berg, and phone support is available on every plan.',
      'Annual subscriptions can be refunded within 60 days; the Team plan costs $40 per month.',
    ];
    for (const answer of answers) {
      const fixed = await engine.fix({ question: 'Tell me about the plans.', answer, sources });
      const again = await engine.validate({ question: 'Tell me about the plans.', answer: fixed.corrected_response, sources });
      assert.equal(again.issue_count, 0, `${answer} → ${fixed.corrected_response}: ${again.issues.join('; ')}`);
    }
  });
  it('keeps the findings open and says the answer could not be confirmed when nothing of it is left', async () => {
    const reading = [
      { source_id: 'src_1', text: 'The reading room of the Harlow library is open to card holders from 9am to 5pm on weekdays.' },
    ];
    const question = 'What does the reading room offer?';
    const nothingLeft = await engine.fix({ question, answer: 'The reading room has a rooftop cafe with free coffee.', sources: reading });
    assert.equal(nothingLeft.corrected_response, 'The answer could not be confirmed from the sources.');
    assert.ok(nothingLeft.issue_count > 0, 'no finding is reported fixed by removing the whole answer');
    assert.ok(nothingLeft.findings.every((finding) => finding.status !== 'fixed'));
    const partLeft = await engine.fix({
      question,
      answer: 'The reading room is open from 9am to 5pm on weekdays. It has a rooftop cafe with free coffee.',
      sources: reading,
    });
    assert.equal(partLeft.corrected_response, 'The reading room is open from 9am to 5pm on weekdays.');
    assert.equal(partLeft.issue_count, 0, 'what was removed was fixed');
  });
});

describe('generate', () => {
  it('answers extractively, citing the source', async () => {
    const result = await engine.generate({ question: 'How much does the Team plan cost per month?', sources });
    assert.match(result.answer, /\$40/);
    assert.match(result.answer, /\[src_1\]/);
    assert.equal(result.issue_count, 0);
  });
  it('says so when the sources do not answer', async () => {
    const result = await engine.generate({ question: 'Is there parking at the office in Tromsø?', sources });
    assert.match(result.answer, /do not answer/);
    assert.equal(result.issue_count, 0);
  });
});

describe('engine', () => {
  it('reports its method and version', async () => {
    const result = await engine.validate({ question: 'q', answer: 'The Team plan costs $40 per month.', sources });
    assert.deepEqual(result.engine, deterministicEngine);
  });
  it('accepts another engine by configuration', () => {
    const custom = createEngine({ method: 'custom', engine });
    assert.equal(custom, engine);
  });
  it('flags an answer when no source holds text', async () => {
    const result = await engine.validate({
      question: 'q',
      answer: 'The Team plan costs $40 per month.',
      sources: [{ source_id: 's', text: ' ' }],
    });
    assert.ok(result.findings.some((f) => f.category === 'source_unavailable'));
  });
  it('counts sources that disagree', async () => {
    const other = policy.replace('costs $40 per month', 'costs $45 per month');
    const result = await engine.validate({
      question: 'How much is Team?',
      answer: 'The Team plan costs $40 per month.',
      sources: [...sources, { source_id: 'src_2', text: other }],
    });
    assert.equal(result.source_conflict_count, 1);
    assert.ok(result.findings.some((f) => f.category === 'source_conflict'));
  });
});
