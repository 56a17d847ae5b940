// Relation checks: a claim that links a name to something by a verb or a relational noun ("Odile
// Quill designed the Kestrel Pavilion", "a guide edited by Tomas Reve", "founder Ilse Brandt") must find
// that relation where the sources attach a relation to the same name. The sources' words may all be
// there and still say another thing of the name: "designed by Ada Lorne and edited by Odile Quill".
// Relations match by lemma, stem, synonym, shared root ("designed" / "designer") or role
// group (lexicon's roleGroups); a role the sources give the name only another role for ("designed by
// N" where they say "founder N") is contradicted. Attachments are read from parts of speech: passive
// agents through lists and coordinated verbs, role nouns before a name, the verb or copula after it.
import type { ReadPassage } from '../evidence/retrieval.js';
import { negators, roleGroups } from '../language/lexicon.js';
import { isCapital, mentionsOf, nameRuns, nameText } from '../language/names.js';
import { formsOf, type Token, tokenize } from '../language/tokens.js';
import { looseForms, synonymsOf } from '../language/wording.js';
import { type ClaimCheck, signal } from './check.js';

/** Verbs that carry no relation of their own (copulas, light verbs, auxiliaries). */
const lightVerbs = new Set([
  'be',
  'have',
  'do',
  'become',
  'get',
  'make',
  'include',
  'know',
  'call',
  'name',
  'say',
  'go',
  'take',
  'use',
  'feature',
  'appear',
]);
/** Nouns of a role or agent ("founder", "archivist", "director", "librarian", "member"). */
const agentNoun = /(?:[^e]er|or|ist|ian|ant|ent|member|head|chief|owner|star)s?$/;
const skipLeft = new Set(['and', ',', 'by', 'of', "'s", '’s', 'the', 'a', 'an', 'its', 'his', 'her', 'their', '"', '“', '”']);
/** How far back a passive agent's "by" may stand before a name in a list ("by A, the B of C, and D"). */
const agentReach = 30;

const roleOf = new Map<string, number>();
roleGroups.forEach((group, i) => {
  for (const word of group) roleOf.set(word, i);
});

/** The role group a relation word names ("designed", "designer" → the same group), if any. */
function roleGroup(t: Token): number | undefined {
  const lemma = t.lemma.replace(/^co-?/, '');
  return roleOf.get(t.lemma) ?? roleOf.get(lemma) ?? roleOf.get(t.lower) ?? roleOf.get(t.lower.replace(/s$/, ''));
}

const originGroup = roleOf.get('native');

export interface Relation {
  /** The name the relation attaches to. */
  name: string;
  /** The verb or relational noun, as a token. */
  word: Token;
}

/** A token opening a sentence (or a clause after ":" or ";"). */
function opensSentence(tokens: Token[], i: number): boolean {
  return i === 0 || /^[.!?:;]$/.test(tokens[i - 1]!.text);
}

/** A verb form: a participle, or a capitalised one opening a sentence ("Founded by ..."). */
function isVerbal(tokens: Token[], i: number): boolean {
  const t = tokens[i]!;
  if (t.pos === 'VERB') return true;
  return opensSentence(tokens, i) && isCapital(t) && /(?:ed|en|ing)$/.test(t.lower) && tokens[i + 1]?.lower === 'by';
}

/** The "by" of a passive whose agent the name at `s` is, through a list; -1 when the name is no such agent. */
function agentBy(tokens: Token[], s: number): number {
  for (let i = s - 1; i >= 0 && i >= s - agentReach; i--) {
    const t = tokens[i]!;
    if (/^[.;:!?()]$/.test(t.text) || t.lower === 'which' || t.lower === 'who') return -1;
    if (t.lower === 'by') return i;
    if (isVerbal(tokens, i) || t.pos === 'AUX') return -1;
  }
  return -1;
}

/**
 * Where the verbs before a "by" end. Short phrases may stand between the verb and "by" ("opened in
 * 2009 in Tarnby by N"); a noun alone may not ("a poem by N" names no role).
 */
function lastVerbBefore(tokens: Token[], by: number): number {
  let k = by - 1;
  while (k > 0 && k >= by - 7 && /^(?:ADP|NUM|PROPN|DET|NOUN|ADJ)$/.test(tokens[k]!.pos) && tokens[k]!.lower !== 'by') k--;
  return k < by - 1 && tokens[k + 1]!.pos === 'ADP' && isVerbal(tokens, k) ? k : by - 1;
}

/**
 * The verbs whose agent the name is, through a list ("run jointly by the county
 * council, the Town of Westmere, and the rowing clubs A and B"), with the verbs coordinated
 * before the "by" ("designed, built, and tested by N").
 */
function passiveAgentVerbs(tokens: Token[], s: number): Token[] {
  const by = agentBy(tokens, s);
  if (by < 0) return [];
  const verbs: Token[] = [];
  for (let i = lastVerbBefore(tokens, by); i >= 0 && i >= by - 12; i--) {
    const t = tokens[i]!;
    if (t.pos === 'ADV' || t.text === ',' || t.lower === 'and' || t.lower === 'or') continue;
    if (!isVerbal(tokens, i)) break;
    if (!lightVerbs.has(t.lemma)) verbs.push(t);
  }
  return verbs;
}

/** Where a name comes from: "X is from N", "a native of N". */
function isOrigin(tokens: Token[], i: number): boolean {
  const t = tokens[i]!;
  return (t.lower === 'from' && tokens[i - 1]?.lemma === 'be') || (t.lemma === 'native' && tokens[i + 1]?.lower === 'of');
}

/** A word the left side passes over on its way to the relation word: determiners, adjectives, the name's own capitals. */
function passedOnLeft(tokens: Token[], i: number): boolean {
  const t = tokens[i]!;
  // A capital inside a sentence belongs to a name ("Chess and Draughts Society"); one opening it may be a verb ("Founded by").
  const inName = isCapital(t) && (t.pos === 'PROPN' || !opensSentence(tokens, i));
  return skipLeft.has(t.lower) || inName || t.pos === 'DET' || t.pos === 'ADJ' || t.pos === 'NUM';
}

/** A verb, or a noun of a role or agent, that carries a relation of its own. */
function isRelationWord(t: Token): boolean {
  return (t.pos === 'VERB' || (t.pos === 'NOUN' && agentNoun.test(t.lower))) && !lightVerbs.has(t.lemma);
}

/** The relation word at `i` on a name's left, with the verb whose object a role noun is ("coaches the goalkeeper N"). */
function leftRelation(tokens: Token[], i: number): Token[] {
  const t = tokens[i]!;
  // A noun directly before a name relates to it only as a role ("founder", "archivist", "director").
  if (t.pos !== 'NOUN' || tokens[i - 1]?.lower === 'and' || tokens[i - 1]?.text === ',') return [t];
  const verb = tokens.slice(Math.max(0, i - 5), i).findLast((v) => v.pos === 'VERB');
  return verb && !lightVerbs.has(verb.lemma) ? [t, verb] : [t];
}

/** Left of a name: role nouns ("head librarian and archivist N"), the verb whose object the name is. */
function leftAttachments(tokens: Token[], s: number): Token[] {
  let by = false;
  for (let i = s - 1; i >= 0 && i >= s - 8; i--) {
    const t = tokens[i]!;
    if (t.lower === 'by') by = true;
    if (isOrigin(tokens, i)) return [t];
    if (passedOnLeft(tokens, i)) continue;
    // "a mural by N" names an author without saying which role: no relation.
    if (by && t.pos === 'NOUN') return [];
    return isRelationWord(t) ? leftRelation(tokens, i) : [];
  }
  return [];
}

/** The indices in `[from, to]` outside parentheses (the brackets themselves left out). */
function outsideParentheses(tokens: Token[], from: number, to: number): number[] {
  const out: number[] = [];
  let depth = 0;
  for (let i = from; i < tokens.length && i <= to; i++) {
    const text = tokens[i]!.text;
    if (text === '(') depth++;
    if (depth === 0) out.push(i);
    else if (text === ')') depth--;
  }
  return out;
}

/** What a token right of a name does to its relations, given whether a copula came before it. */
type RightStep = 'copula' | 'skip' | 'role' | 'passives' | 'verb' | 'stop';

function rightStep(t: Token, copula: boolean): RightStep {
  if (t.lemma === 'be' && !copula) return 'copula';
  if (copula && t.pos === 'VERB') return 'passives';
  if (t.pos === 'ADV' || t.pos === 'AUX' || t.pos === 'PART') return 'skip';
  if (copula && (t.pos === 'DET' || t.pos === 'ADJ' || t.pos === 'PROPN' || t.text === ',' || t.lower === 'and')) return 'skip';
  if (copula && t.pos === 'NOUN') return 'role';
  return t.pos === 'VERB' && !lightVerbs.has(t.lemma) ? 'verb' : 'stop';
}

/** Right of a name: the verb the name is subject of ("N founded"), or the role nouns after a copula. */
function rightAttachments(tokens: Token[], e: number, patients: boolean): Token[] {
  const out: Token[] = [];
  let copula = false;
  for (const i of outsideParentheses(tokens, e, e + 14)) {
    const t = tokens[i]!;
    const step = rightStep(t, copula);
    if (step === 'copula') copula = true;
    else if (step === 'role') out.push(t);
    // The name is what the passive verbs act on: "N is managed by A and funded jointly by B".
    else if (step === 'passives') return patients ? [...out, ...coordinatedPassives(tokens, i)] : out;
    else if (step === 'verb') return [...out, t];
    else if (step === 'stop') return out;
  }
  return out;
}

/**
 * The relation words attached to the name at token range `[s, e)`: the verb or noun governing it on
 * its left, the verb it is subject of on its right. `patients`: also the passive verb of which the
 * name is the subject ("N was owned by ..."), which tells what was done to it, not what it did.
 */
function attached(tokens: Token[], s: number, e: number, patients = true): Token[] {
  const agentOf = passiveAgentVerbs(tokens, s);
  const left = agentOf.length > 0 ? agentOf : leftAttachments(tokens, s);
  return [...left, ...rightAttachments(tokens, e, patients)];
}

/** A passive verb at `i` and those coordinated after it in its clause ("managed by A and funded by B"). */
function coordinatedPassives(tokens: Token[], i: number): Token[] {
  const verbs = lightVerbs.has(tokens[i]!.lemma) ? [] : [tokens[i]!];
  for (let k = i + 1; k < tokens.length && k <= i + 30 && !/^[.;:!?()]$/.test(tokens[k]!.text); k++) {
    if (tokens[k]!.lower !== 'and') continue;
    const next = tokens.slice(k + 1, k + 4).findIndex((t) => t.pos !== 'ADV');
    const verb = tokens[k + 1 + next];
    const after = tokens.slice(k + 2 + next, k + 5 + next).find((t) => t.pos !== 'ADV');
    if (verb?.pos === 'VERB' && after?.lower === 'by' && !lightVerbs.has(verb.lemma)) verbs.push(verb);
  }
  return verbs;
}

/** The relations the claim states of each name it gives: verbs, and role nouns of a known role. */
function claimRelations(tokens: Token[]): Relation[] {
  return nameRuns(tokens).flatMap(([s, e]) => {
    const name = nameText(tokens, [s, e]);
    return attached(tokens, s, e)
      .filter((w) => w.pos === 'VERB' || roleGroup(w) !== undefined)
      .map((word) => ({ name, word }));
  });
}

function sameRelation(a: Token, b: Token): boolean {
  const forms = new Set(looseForms(a));
  if (formsOf(b).some((f) => forms.has(f))) return true;
  if (synonymsOf(b.lemma).has(a.lemma)) return true;
  const [ra, rb] = [roleGroup(a), roleGroup(b)];
  if (ra !== undefined && ra === rb) return true;
  return sameRoot(a, b);
}

/** The same relation word up to inflection and derivation, or two words of one role group ("from" / "native"). */
function sameRole(a: Token, b: Token): boolean {
  const group = roleGroup(a);
  return sameRoot(a, b) || (group !== undefined && group === roleGroup(b));
}

/** The same word up to inflection and derivation ("edited" / "editor"), synonyms aside. */
function sameRoot(a: Token, b: Token): boolean {
  if (a.lemma === b.lemma || a.stem === b.stem) return true;
  const root = (t: Token): string => t.lemma.slice(0, Math.max(5, Math.ceil(t.lemma.length * 0.7)) - 1);
  return a.lemma.length >= 5 && b.lemma.length >= 5 && (b.lemma.startsWith(root(a)) || a.lemma.startsWith(root(b)));
}

export interface RelationMismatch {
  relation: Relation;
  /** Why, in one sentence. */
  reason: string;
  passage: ReadPassage;
}

/** A token whose forms the passage holds. */
function inPassage(t: Token, passage: ReadPassage): boolean {
  return formsOf(t).some((f) => passage.bag.has(f));
}

/**
 * The rest of the claim besides the relation and its name (another name, the object). A name counts
 * by its last word: the sources go on with "Okafor" after "Tilde Okafor".
 */
function restOfClaim(claimTokens: Token[], relation: Relation): Token[] {
  const nameWords = new Set(relation.name.toLowerCase().split(' '));
  const given = new Set(nameRuns(claimTokens).flatMap(([s, e]) => claimTokens.slice(s, e - 1)));
  return claimTokens.filter((t) => t.content && !nameWords.has(t.lower) && t !== relation.word && !given.has(t));
}

interface SourceRelations {
  /** Some mention of the name carries the claim's relation. */
  agrees: boolean;
  /** The relations the sources attach to the name where they also speak of the rest of the claim. */
  instead: Token[];
  /** The first passage that does so. */
  where: ReadPassage | undefined;
}

/** What the sources attach to the claim's name, at every mention of it. */
function sourceRelations(relation: Relation, rest: Token[], passages: ReadPassage[]): SourceRelations {
  const found: SourceRelations = { agrees: false, instead: [], where: undefined };
  for (const passage of passages)
    for (const [s, e] of mentionsOf(passage.text, passage.tokens, relation.name)) {
      const words = attached(passage.tokens, s, e);
      if (words.some((w) => sameRelation(relation.word, w))) found.agrees = true;
      // A mismatch counts only where the passage speaks of the rest of the claim too.
      if (words.length > 0 && rest.some((t) => inPassage(t, passage))) {
        found.instead.push(...words);
        found.where ??= passage;
      }
    }
  return found;
}

/**
 * Another relation word may be the answer's paraphrase ("headed" for "led"): only a swap counts, the
 * sources giving the claim's relation to a name the claim does not give, in a passage about all the rest.
 */
function swappedRelation(
  relation: Relation,
  rest: Token[],
  claimNames: Set<string>,
  passages: ReadPassage[],
): RelationMismatch | undefined {
  for (const p of passages) {
    if (!rest.every((r) => inPassage(r, p))) continue;
    for (const [s, e] of nameRuns(p.tokens)) {
      const other = nameText(p.tokens, [s, e]);
      const word = claimNames.has(other) ? undefined : attached(p.tokens, s, e).find((w) => sameRole(relation.word, w));
      if (word) return { relation, reason: `The sources say "${word.text}" of ${other}, not of ${relation.name}.`, passage: p };
    }
  }
  return undefined;
}

/** The mismatch of one relation the claim states, if the sources state another. */
function mismatchOf(
  relation: Relation,
  claimTokens: Token[],
  claimNames: Set<string>,
  passages: ReadPassage[],
): RelationMismatch | undefined {
  const rest = restOfClaim(claimTokens, relation);
  const { agrees, instead, where } = sourceRelations(relation, rest, passages);
  // A one-valued relation (where someone is from) may be swapped even where the sources give the
  // name no relation at all ("X is from Dunmere" where they say "a native of Carrow County, X went
  // to school in Dunmere").
  const oneValued = roleGroup(relation.word) === originGroup;
  if (agrees || (!oneValued && (!where || instead.length === 0))) return undefined;
  // A role against other roles ("designed" where the sources only say "founder"): two relations.
  // Roles are what a name did (an agent), not what was done to it ("N was owned by ...").
  const role = roleGroup(relation.word) !== undefined;
  const roles = role && where ? agentRoles(relation, claimTokens, passages) : [];
  if (roles.length > 0)
    return { relation, reason: `The sources say "${roles[0]!.text}" of ${relation.name}, not "${relation.word.text}".`, passage: where! };
  return swappedRelation(relation, rest, claimNames, passages);
}

/**
 * A relation the claim states of a name where the sources, at every mention of that name that
 * carries a relation, state another one; undefined when they agree or say nothing either way.
 */
export function relationMismatch(claimText: string, passages: ReadPassage[]): RelationMismatch | undefined {
  const claimTokens = tokenize(claimText);
  const claimNames = new Set(nameRuns(claimTokens).map((run) => nameText(claimTokens, run)));
  for (const relation of claimRelations(claimTokens)) {
    const mismatch = mismatchOf(relation, claimTokens, claimNames, passages);
    if (mismatch) return mismatch;
  }
  return undefined;
}

/**
 * The roles the sources give the name of a claim's agent relation, where none is the claim's; empty
 * when the claim's relation is no agent's, or the sources give the name its role or none.
 */
function agentRoles(relation: Relation, claimTokens: Token[], passages: ReadPassage[]): Token[] {
  const asAgent = nameRuns(claimTokens).some(
    ([s, e]) => nameText(claimTokens, [s, e]) === relation.name && attached(claimTokens, s, e, false).includes(relation.word),
  );
  if (!asAgent) return [];
  const roles: Token[] = [];
  for (const passage of passages)
    for (const [s, e] of mentionsOf(passage.text, passage.tokens, relation.name))
      for (const word of attached(passage.tokens, s, e, false)) {
        if (sameRelation(relation.word, word)) return [];
        if (roleGroup(word) !== undefined) roles.push(word);
      }
  return roles;
}

/** The verb that links a name to the rest of the claim must be the one the sources attach to that name. */
export const relationCheck: ClaimCheck = {
  name: 'relation',
  kinds: { role_mismatch: 'contradicted' },
  run(claim) {
    if (claim.tokens.some((t) => negators.has(t.lower))) return [];
    const mismatch = relationMismatch(claim.text, claim.candidates);
    return mismatch ? [signal('role_mismatch', 'contradicted', mismatch.reason, { passage: mismatch.passage })] : [];
  },
};
