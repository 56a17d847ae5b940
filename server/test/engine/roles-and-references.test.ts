// One small case per check added in engine 1.3 about who did what to whom: roles (directed, wrote,
// founded, owned...) attached to names through passive lists and coordinated verbs, pronouns that go
// on about one person, definite descriptions ("the canal"), and lists that name part of a set.
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
    const text = 'Tomas Vell (born 1961) is a Scottish painter. A native of Dunmore, Vell studied at the Harlow Art School in Kelso.';
    assert.ok(fires('role_mismatch', 'Where is Tomas Vell from?', 'Tomas Vell is from Kelso.', text));
    assert.ok(!fires('role_mismatch', 'Where is Tomas Vell from?', 'Tomas Vell is from Dunmore.', text));
    assert.equal((await validate('Where is Tomas Vell from?', 'Tomas Vell is from Dunmore.', text)).issue_count, 0);
  });
  it('reads the agent of a passive verb through a list of names', async () => {
    const text =
      'The Marsh Arena is owned by the city of Tollby and run jointly by the county council, the Tollby Harriers and the rowing club Ostra Vanner.';
    assert.ok(fires('role_mismatch', 'Who owns the arena?', 'The Marsh Arena is owned by the Tollby Harriers and Ostra Vanner.', text));
    assert.ok(!fires('role_mismatch', 'Who runs the arena?', 'The Marsh Arena is run by the Tollby Harriers.', text));
    assert.equal((await validate('Who runs the arena?', 'The Marsh Arena is run by the Tollby Harriers.', text)).issue_count, 0);
  });
  it('gives each of several coordinated verbs to the agent ("written and directed by")', async () => {
    const text = 'Night Ferry is a 2003 film written and directed by Oona Brandt.';
    assert.equal((await validate('Who wrote Night Ferry?', 'Night Ferry was written by Oona Brandt.', text)).issue_count, 0);
    assert.equal((await validate('Who directed Night Ferry?', 'Oona Brandt directed Night Ferry.', text)).issue_count, 0);
  });
  it('reads a capitalised participle opening a sentence as the verb ("Directed by N")', async () => {
    const text = 'Night Ferry is a 2003 drama film. Directed by Oona Brandt, the film was shot in Tallinn and written by Piet Saar.';
    const answer = 'The Night Ferry film was written by Oona Brandt.';
    assert.ok(fires('role_mismatch', 'Who wrote Night Ferry?', answer, text));
    const result = await validate('Who wrote Night Ferry?', answer, text);
    assert.deepEqual(flagged(result), ['The Night Ferry film was written by Oona Brandt']);
    assert.match(result.issues.join(' '), /Directed/);
  });
});

describe('pronouns and definite descriptions', () => {
  const cast =
    'Salt Road is a 1979 western starring Cora Vance, Emil Strand and Joel Maddox. She later played Judge Irene Hale on the series "Cold Court".';
  it('links "she" to the first person the previous sentence names, not to every name in it', async () => {
    assert.match(
      (await validate('Who was in both?', 'Emil Strand appeared in Salt Road and Cold Court.', cast)).issues.join(' '),
      /together/,
    );
    assert.equal((await validate('Who was in both?', 'Cora Vance appeared in Salt Road and Cold Court.', cast)).issue_count, 0);
  });
  it('finds a name the passage refers to as "the <head noun>"', async () => {
    const text =
      'The town grew after the Vell Canal opened in 1811. The Spring Fair, held each April, celebrates the opening of the canal.';
    const result = await validate('What does the Spring Fair celebrate?', 'It celebrates the opening of the Vell Canal.', text);
    assert.equal(result.issue_count, 0);
  });
  it('reads "it" as the subject of the claim before it when checking a setting', async () => {
    const text =
      'Release 3.1.0\n- Added spell checking to the editor; this is opt-in via the settings page.\n- Autosave is now switched on by default.';
    const question = 'Does the editor check spelling?';
    const wrong = signalsOf(question, 'Yes, spell checking was added to the editor in 3.1.0. It is switched on by default.', text);
    assert.ok(wrong[1]?.includes('negation_clash'));
    const answer = 'Yes, spell checking was added to the editor in 3.1.0. It is opt-in via the settings page.';
    assert.ok(!signalsOf(question, answer, text)[1]?.includes('negation_clash'));
    assert.equal((await validate(question, answer, text)).issue_count, 0);
  });
  it('reads a claim opening with "it" as about the question\'s subject', async () => {
    const text = 'Kelm is a city on the Ardo river. The Kelm Book Fair is held every year in October.';
    assert.equal((await validate('When is the Kelm Book Fair?', 'It is held every year in October.', text)).issue_count, 0);
  });
});

describe('a list given as the whole set', () => {
  const band = 'The band Ostwind consists of singer Lena Ruhl, guitarist Max Ebner, drummer Ida Sommer and bassist Jan Roth.';
  it('accepts the full list and a list that does not claim to be whole', async () => {
    const all = 'The members of Ostwind are Lena Ruhl, Max Ebner, Ida Sommer and Jan Roth.';
    assert.equal((await validate('Who are the members of Ostwind?', all, band)).issue_count, 0);
    assert.equal((await validate('Who plays in Ostwind?', 'Lena Ruhl and Max Ebner play in Ostwind.', band)).issue_count, 0);
  });
});
