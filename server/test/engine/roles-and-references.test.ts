// One small case per check added in engine 1.3 about who did what to whom: roles (directed, wrote,
// founded, owned...) attached to names through passive lists and coordinated verbs, pronouns that go
// on about one person, definite descriptions ("the bridge"), and lists that name part of a set.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fires, flagged, signalsOf, validate } from './support.js';

describe('roles attached to names', () => {
  it('contradicts a role the sources give another name', async () => {
    const text = 'The Glass Lantern is a 1974 opera composed by Ilse Marrow and staged by Petra Quill.';
    assert.ok(fires('role_mismatch', 'Who staged it?', 'The Glass Lantern opera was composed by Petra Quill.', text));
    assert.ok(!fires('role_mismatch', 'Who staged it?', 'The Glass Lantern opera was staged by Petra Quill.', text));
    assert.equal((await validate('Who staged it?', 'The Glass Lantern opera was staged by Petra Quill.', text)).issue_count, 0);
  });
  it('contradicts a role where the sources give the name only another role ("founded" for "published")', async () => {
    const text = 'Brightwater is a publisher of travel books founded in 1990 by Tomas Vell.';
    assert.ok(fires('role_mismatch', 'Who is Tomas Vell?', 'Brightwater travel books are published by Tomas Vell.', text));
    assert.ok(!fires('role_mismatch', 'Who is Tomas Vell?', 'Brightwater was founded by Tomas Vell.', text));
    assert.equal((await validate('Who is Tomas Vell?', 'Brightwater was founded by Tomas Vell.', text)).issue_count, 0);
  });
  it('contradicts where someone is from when the sources give another origin', async () => {
    const text = 'Rena Dahl (born 1961) is a Welsh potter. A native of Corrow, Dahl trained at the Pennick Craft College in Whitby.';
    assert.ok(fires('role_mismatch', 'Where is Rena Dahl from?', 'Rena Dahl is from Whitby.', text));
    assert.ok(!fires('role_mismatch', 'Where is Rena Dahl from?', 'Rena Dahl is from Corrow.', text));
    assert.equal((await validate('Where is Rena Dahl from?', 'Rena Dahl is from Corrow.', text)).issue_count, 0);
  });
  it('reads the agent of a passive verb through a list of names', async () => {
    const text =
      'The Tarby Ski Lift is owned by the Halm Valley trust and operated jointly by the parish council, the Tarby Ski Club and the mountain guides Fjell Vakt.';
    assert.ok(fires('role_mismatch', 'Who owns the lift?', 'The Tarby Ski Lift is owned by the Tarby Ski Club and Fjell Vakt.', text));
    assert.ok(!fires('role_mismatch', 'Who operates the lift?', 'The Tarby Ski Lift is operated by the Tarby Ski Club.', text));
    assert.equal((await validate('Who operates the lift?', 'The Tarby Ski Lift is operated by the Tarby Ski Club.', text)).issue_count, 0);
  });
  it('gives each of several coordinated verbs to the agent ("written and illustrated by")', async () => {
    const text = 'Night Ferry is a 2003 picture book written and illustrated by Oona Brandt.';
    assert.equal((await validate('Who wrote Night Ferry?', 'Night Ferry was written by Oona Brandt.', text)).issue_count, 0);
    assert.equal((await validate('Who illustrated Night Ferry?', 'Oona Brandt illustrated Night Ferry.', text)).issue_count, 0);
  });
  it('reads a capitalised participle opening a sentence as the verb ("Illustrated by N")', async () => {
    const text = 'Night Ferry is a 2003 picture book. Illustrated by Oona Brandt, the book was printed in Riga and written by Piet Saar.';
    const answer = 'The Night Ferry book was written by Oona Brandt.';
    assert.ok(fires('role_mismatch', 'Who wrote Night Ferry?', answer, text));
    const result = await validate('Who wrote Night Ferry?', answer, text);
    assert.deepEqual(flagged(result), ['The Night Ferry book was written by Oona Brandt']);
    assert.match(result.issues.join(' '), /Illustrated/);
  });
});

describe('pronouns and definite descriptions', () => {
  const cast =
    'Salt Road is a 1979 western starring Cora Vance, Emil Strand and Joel Maddox. She later played Judge Irene Hale on the series "Cold Court".';
  it('links "she" to the first person the previous sentence names, not to every name in it', async () => {
    assert.ok(fires('names_unlinked', 'Who was in both?', 'Emil Strand appeared in Salt Road and Cold Court.', cast));
    assert.ok(!fires('names_unlinked', 'Who was in both?', 'Cora Vance appeared in Salt Road and Cold Court.', cast));
    assert.equal((await validate('Who was in both?', 'Cora Vance appeared in Salt Road and Cold Court.', cast)).issue_count, 0);
  });
  it('finds a name the passage refers to as "the <head noun>"', async () => {
    const text =
      'The village grew after the Pell Bridge was built in 1811. The Harvest Market, held each May, marks the completion of the bridge.';
    const result = await validate('What does the Harvest Market mark?', 'It marks the completion of the Pell Bridge.', text);
    assert.equal(result.issue_count, 0);
  });
  it('reads "it" as the subject of the claim before it when checking a setting', async () => {
    const text =
      'Model year 2022\n- Added lane assist to the Vora hatchback; it is opt-in from the dashboard menu.\n- Rear wipers now come on by default.';
    const question = 'Does the Vora have lane assist?';
    const wrong = signalsOf(question, 'Yes, lane assist was added to the Vora hatchback in 2022. It comes on by default.', text);
    assert.ok(wrong[1]?.includes('negation_clash'));
    const answer = 'Yes, lane assist was added to the Vora hatchback in 2022. It is opt-in from the dashboard menu.';
    assert.ok(!signalsOf(question, answer, text)[1]?.includes('negation_clash'));
    assert.equal((await validate(question, answer, text)).issue_count, 0);
  });
  it('reads a claim opening with "it" as about the question\'s subject', async () => {
    const text = 'Brisby is a village in the Tarn hills. The Brisby Cheese Market opens every year in May.';
    assert.equal((await validate('When is the Brisby Cheese Market?', 'It opens every year in May.', text)).issue_count, 0);
  });
});

describe('a list given as the whole set', () => {
  const team = 'The Ostwind quiz team consists of captain Lena Ruhl, scorer Max Ebner, reader Ida Sommer and timekeeper Jan Roth.';
  it('accepts the full list and a list that does not claim to be whole', async () => {
    const all = 'The members of the Ostwind team are Lena Ruhl, Max Ebner, Ida Sommer and Jan Roth.';
    assert.equal((await validate('Who are the members of the Ostwind team?', all, team)).issue_count, 0);
    assert.equal(
      (await validate('Who plays in the Ostwind team?', 'Lena Ruhl and Max Ebner play in the Ostwind team.', team)).issue_count,
      0,
    );
  });
});
