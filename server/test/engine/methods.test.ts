// One small case per check added in engine 1.1: subject binding of figures, option questions,
// answer kinds, antonyms and denials, dates worked out by the answer, and lenient wording (synonyms,
// inferences, bare answers).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fires, validate } from './support.js';

const fees =
  "Other fees: outgoing wire transfer, $25; stop payment request, $32; cashier's check, $8. Credits are applied to future invoices.";
const trial =
  'The primary endpoint, PASI 75 at week 16, was reached by 58.2% of patients on the drug. PASI 90 at week 16 was reached by 31.0% of patients on the drug. The most common adverse events were headache (12%), nausea (9%) and fatigue (4%).';
const people =
  'Ann Lee (born 1950) is an American painter. In 2007 she was inducted into the Hall of Fame. Bo Park (born 1941) is a Korean sculptor and teacher.';

describe('subject binding of figures', () => {
  it('contradicts a figure the sources give for another item of a list', async () => {
    const result = await validate("How much is a cashier's check?", "Fairhaven charges $32 for a cashier's check.", fees);
    assert.equal(result.claims[0]?.status, 'contradicted');
    assert.equal((await validate("How much is a cashier's check?", "A cashier's check costs $8.", fees)).issue_count, 0);
  });
  it('tells values apart by the numbers that label them (PASI 75 / PASI 90)', async () => {
    assert.equal((await validate('How well did it work?', 'At week 16, 58.2% of patients reached PASI 75.', trial)).issue_count, 0);
  });
});

describe('questions that ask for something', () => {
  it('decides an option question by which option the sources say it of', async () => {
    const question = 'Who was inducted into the Hall of Fame, Ann Lee or Bo Park?';
    assert.equal((await validate(question, 'Ann Lee', people)).issue_count, 0);
    assert.equal((await validate(question, 'Bo Park was inducted.', people)).claims[0]?.status, 'contradicted');
  });
  it('decides an ordering question by the years', async () => {
    assert.ok((await validate('Who was born first, Ann Lee or Bo Park?', 'Ann Lee was born first.', people)).issue_count > 0);
  });
  it('flags a true statement that does not give the year asked for', async () => {
    const result = await validate('In what year was Ann Lee born?', 'Ann Lee is an American painter.', people);
    assert.ok(result.findings.some((f) => f.category === 'incomplete_answer'));
    assert.equal((await validate('In what year was Ann Lee born?', '1950', people)).issue_count, 0);
  });
});

describe('negation, antonyms and denials', () => {
  it('contradicts the other pole of a setting', () => {
    const text = 'Since 4.0.0, safe mode is on by default.';
    assert.ok(fires('negation_clash', 'Is safe mode on?', 'Safe mode is off by default.', text));
  });
  it('contradicts a denial of what the sources state', () => {
    assert.ok(fires('negation_clash', 'What was Ann Lee?', 'Ann Lee was not a painter.', people));
  });
  it('does not read an exception or a condition as an outright statement', async () => {
    const text = 'Bicycles are allowed on metro trains except on weekdays from 7:00 to 9:30.';
    assert.equal(
      (await validate('Can I take my bike at 8?', "Bikes aren't allowed on weekdays between 7:00 and 9:30.", text)).issue_count,
      0,
    );
  });
});

describe('figures the answer works out', () => {
  it('accepts a deadline computed from a date in the question', async () => {
    const text = 'Claims must be submitted within 30 days after the end of the month in which the incident occurred.';
    assert.equal(
      (
        await validate(
          'We had an outage on March 10. What is our deadline?',
          'You have 30 days after the end of March, so the claim is due by April 30.',
          text,
        )
      ).issue_count,
      0,
    );
  });
  it('does not accept a total that only some combination of unrelated figures gives', async () => {
    const text = 'Breakfast costs €18 per adult and €9 per child aged 4–11.';
    assert.ok(
      (
        await validate(
          'Breakfast for two adults and a child over four days?',
          "That's €45 a day, so over four days it comes to €200.",
          text,
        )
      ).issue_count > 0,
    );
  });
});

describe('lenient wording', () => {
  it('matches synonyms and general paraphrase', async () => {
    assert.equal((await validate('Where do credits go?', 'Credits go on upcoming bills.', fees)).issue_count, 0);
  });
  it('checks an inference only on its specifics', async () => {
    assert.equal(
      (await validate('Can I get cash?', 'Credits are applied to future invoices, so no luck getting a payout.', fees)).issue_count,
      0,
    );
  });
  it('supports a bare answer found word for word, and keeps an acronym as a claim', async () => {
    const text = 'The hospital is in Washington, D.C., and plays R&B on its radio.';
    assert.equal((await validate('Which city?', 'Washington, D.C.', text)).issue_count, 0);
    assert.equal((await validate('Which genre?', 'R&B', text)).claims.length, 1);
  });
});

describe('conditions and structure', () => {
  it('flags "always" where the sources attach a limit with a figure', () => {
    const text = 'Exclusions. This SLA does not cover downtime caused by scheduled maintenance announced at least 72 hours in advance.';
    assert.ok(fires('quantifier_overreach', 'Does maintenance count?', 'Scheduled maintenance is always excluded from the SLA.', text));
  });
  it('binds a list item to the version heading above it', async () => {
    const text = '4.2.0 (2024-10-01)\n- Added footnotes.\n\n4.1.0 (2024-07-15)\n- Dropped support for Python 3.8.';
    assert.ok((await validate('Which release dropped Python 3.8?', 'Python 3.8 support was dropped in 4.2.0.', text)).issue_count > 0);
    assert.equal((await validate('Which release dropped Python 3.8?', 'Python 3.8 support was dropped in 4.1.0.', text)).issue_count, 0);
  });
  it('reads "24 more hours" as a duration and keeps hedged figures close', async () => {
    const text = 'The charging case provides an additional 21 hours for Pulse 3 and 27 hours for Pulse 3 Pro.';
    assert.ok((await validate('How long does the case last?', 'The Pulse 3 case gives you roughly 24 more hours.', text)).issue_count > 0);
  });
});

describe('topics and names the sources never use', () => {
  it("flags an assertion about a question's topic the sources never mention", async () => {
    const text = 'Pregnant women were not studied. The drug was tested in adults aged 18 to 75.';
    assert.ok(
      (await validate('Can I take the drug while breastfeeding?', 'The drug is compatible with breastfeeding.', text)).issue_count > 0,
    );
    assert.equal(
      (await validate('Can I take the drug while breastfeeding?', 'The summary does not mention breastfeeding.', text)).issue_count,
      0,
    );
  });
  it("binds a name to the claim's other words, not to its own head noun", async () => {
    const text = 'Service account passwords are rotated by the IT Operations team. USB exceptions need written approval from the CISO.';
    assert.ok(fires('name_unbound', 'Who can approve a USB exception?', 'The IT Operations team can approve a written exception.', text));
  });
  it('reads everyday idioms as no claim of their own', async () => {
    const text = '4.1.0: Tables are now parsed by default.';
    assert.equal((await validate('Do I need a flag for tables?', 'From 4.1.0 tables are parsed out of the box.', text)).issue_count, 0);
  });
});

describe('answers that name nothing', () => {
  it('flags a sentence that does not name the person a "which actor" question asks for', async () => {
    assert.ok(
      (await validate('What male actor starred in The Messenger?', 'The lead role was played by a young actor.', people)).findings.some(
        (f) => f.category === 'incomplete_answer',
      ),
    );
    assert.equal((await validate('Which painter was inducted?', 'Ann Lee', people)).issue_count, 0);
  });
});

describe('situations the sources exclude', () => {
  it('contradicts a "yes" to a question whose situation the sources declare not eligible', async () => {
    const text = 'Residents of subsidized housing whose heating is included in the rent are not eligible. Apply online.';
    const question = 'I live in subsidized housing and my heating is included in the rent. Can I apply?';
    assert.ok(fires('situation_excluded', question, 'Yes, you can apply online.', text));
    assert.equal((await validate('How do I apply?', 'You can apply online.', text)).issue_count, 0);
  });
});

describe('whose figure, whose predicate', () => {
  it("flags a figure the sources give beside another subject's name only", async () => {
    const text = 'Wild Horse Creek is a tributary of the Republican River. The Republican River is 453 miles long.';
    assert.ok((await validate('How long is the river?', 'Wild Horse Creek is 453 miles long.', text)).issue_count > 0);
    assert.equal((await validate('How long is the river?', 'The Republican River is 453 miles long.', text)).issue_count, 0);
  });
});
