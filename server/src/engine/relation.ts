// Relation checks: a claim that links a name to something by a verb or a relational noun ("Neil
// Gaiman directed Beowulf", "a film written by Roger Christian", "founder Craig Newmark") must find
// that relation where the sources attach a relation to the same name. The sources' words may all be
// there and still say another thing of the name: "directed by Robert Zemeckis and written by Neil
// Gaiman". Relations match by lemma, stem, synonym or shared root ("directed" / "director").
import { type ReadPassage, retrieve, type SourceView } from './evidence.js';
import { formsOf, type Token, tokenize } from './tokens.js';
import { looseForms, synonymsOf } from './wording.js';

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
/** Nouns of a role or agent ("founder", "guitarist", "director", "musician", "member"). */
const agentNoun = /(?:[^e]er|or|ist|ian|ant|ent|member|head|chief|owner|star)s?$/;
const skipLeft = new Set(['and', ',', 'by', 'of', "'s", '’s', 'the', 'a', 'an', 'its', 'his', 'her', 'their', '"', '“', '”']);

export interface Relation {
  /** The name the relation attaches to. */
  name: string;
  /** The verb or relational noun, as a token. */
  word: Token;
}

function isCapital(t: Token): boolean {
  return /^\p{Lu}/u.test(t.text);
}

/** Runs of capitalised tokens (a name), allowing short connectors inside; `[start, end)` token indices. */
function nameRuns(tokens: Token[]): [number, number][] {
  const runs: [number, number][] = [];
  let i = 0;
  while (i < tokens.length) {
    if (!isCapital(tokens[i]!) || !/\p{L}{2,}/u.test(tokens[i]!.text) || (i === 0 && tokens[i]!.pos !== 'PROPN')) {
      i++;
      continue;
    }
    let j = i + 1;
    while (
      j < tokens.length &&
      (isCapital(tokens[j]!) || (/^(?:of|de|la|von|van|del|\.)$/.test(tokens[j]!.text) && isCapital(tokens[j + 1] ?? tokens[j]!)))
    )
      j++;
    runs.push([i, j]);
    i = j;
  }
  return runs;
}

/** The relation words attached to the name at token range `[s, e)`: the verb or noun governing it on its left, the verb it is subject of on its right. */
function attached(tokens: Token[], s: number, e: number): Token[] {
  const out: Token[] = [];
  // Left: the passive agent's verb ("written by N"), or role nouns ("lead vocalist and guitarist N").
  let by = false;
  for (let i = s - 1; i >= 0 && i >= s - 8; i--) {
    const t = tokens[i]!;
    if (t.lower === 'by') by = true;
    // A capital inside a sentence belongs to a name ("Compute and Object Storage"); one opening it may be a verb ("Directed by").
    const opens = i === 0 || /^[.!?:;]$/.test(tokens[i - 1]!.text);
    if (skipLeft.has(t.lower) || (isCapital(t) && (t.pos === 'PROPN' || !opens)) || t.pos === 'DET' || t.pos === 'ADJ' || t.pos === 'NUM')
      continue;
    // "an opera by N" names an author without saying which role: no relation.
    if (by && t.pos === 'NOUN') break;
    // A noun directly before a name relates to it only as a role ("founder", "guitarist", "director").
    if ((t.pos === 'VERB' || (t.pos === 'NOUN' && agentNoun.test(t.lower))) && !lightVerbs.has(t.lemma)) {
      out.push(t);
      if (t.pos === 'NOUN' && (tokens[i - 1]?.lower === 'and' || tokens[i - 1]?.text === ',')) continue;
      // The verb whose object the role is ("portrays the character N").
      if (t.pos === 'NOUN') {
        const verb = tokens.slice(Math.max(0, i - 5), i).findLast((v) => v.pos === 'VERB');
        if (verb && !lightVerbs.has(verb.lemma)) out.push(verb);
      }
    }
    break;
  }
  // Right: the verb the name is subject of ("N directed"), or the role nouns after a copula.
  let depth = 0;
  let copula = false;
  for (let i = e; i < tokens.length && i <= e + 14; i++) {
    const t = tokens[i]!;
    if (t.text === '(') depth++;
    if (depth > 0) {
      if (t.text === ')') depth--;
      continue;
    }
    if (t.lemma === 'be' && !copula) {
      copula = true;
      continue;
    }
    if (t.pos === 'ADV' || t.pos === 'AUX' || t.pos === 'PART') continue;
    if (copula && (t.pos === 'DET' || t.pos === 'ADJ' || t.pos === 'PROPN' || t.text === ',' || t.lower === 'and')) continue;
    if (copula && t.pos === 'NOUN') {
      out.push(t);
      continue;
    }
    if (t.pos === 'VERB' && !lightVerbs.has(t.lemma)) out.push(t);
    break;
  }
  return out;
}

/** The relations the claim states of each name it gives. */
export function claimRelations(tokens: Token[]): Relation[] {
  return nameRuns(tokens).flatMap(([s, e]) => {
    const name = tokens
      .slice(s, e)
      .map((t) => t.text)
      .join(' ');
    return attached(tokens, s, e)
      .filter((w) => w.pos === 'VERB')
      .map((word) => ({ name, word }));
  });
}

function sameRelation(a: Token, b: Token): boolean {
  const forms = new Set(looseForms(a));
  if (formsOf(b).some((f) => forms.has(f))) return true;
  if (synonymsOf(b.lemma).has(a.lemma)) return true;
  return sameRoot(a, b);
}

/** The same word up to inflection and derivation ("directed" / "director"), synonyms aside. */
function sameRoot(a: Token, b: Token): boolean {
  if (a.lemma === b.lemma || a.stem === b.stem) return true;
  const root = (t: Token): string => t.lemma.slice(0, Math.max(5, Math.ceil(t.lemma.length * 0.7)) - 1);
  return a.lemma.length >= 5 && b.lemma.length >= 5 && (b.lemma.startsWith(root(a)) || a.lemma.startsWith(root(b)));
}

/** Where the name's words are the tokens `[s, e)` of a passage, if it names it. */
function mentionsOf(tokens: Token[], name: string): [number, number][] {
  const words = name.split(' ');
  const found: [number, number][] = [];
  for (let i = 0; i + words.length <= tokens.length; i++)
    if (words.every((w, k) => tokens[i + k]!.text === w)) found.push([i, i + words.length]);
  return found;
}

export interface RelationMismatch {
  relation: Relation;
  /** What the sources attach to the name instead. */
  instead: Token[];
  passage: ReadPassage;
}

/**
 * A relation the claim states of a name where the sources, at every mention of that name that
 * carries a relation, state another one; undefined when they agree or say nothing either way.
 */
export function relationMismatch(claimText: string, passages: ReadPassage[]): RelationMismatch | undefined {
  const claimTokens = tokenize(claimText);
  const relations = claimRelations(claimTokens);
  for (const relation of relations) {
    const nameWords = new Set(relation.name.toLowerCase().split(' '));
    // The rest of the claim (another name, the object): a mismatch counts where the passage speaks of it too.
    const rest = claimTokens.filter((t) => t.content && !nameWords.has(t.lower) && t !== relation.word);
    const instead: Token[] = [];
    let where: ReadPassage | undefined;
    let agrees = false;
    for (const passage of passages) {
      for (const [s, e] of mentionsOf(passage.tokens, relation.name)) {
        const words = attached(passage.tokens, s, e);
        if (words.some((w) => sameRelation(relation.word, w))) agrees = true;
        if (words.length > 0 && rest.some((t) => formsOf(t).some((f) => passage.bag.has(f)))) {
          instead.push(...words);
          where ??= passage;
        }
      }
    }
    if (agrees || !where || instead.length === 0) continue;
    // Only a swap counts: the sources use the claim's relation, but for another name ("directed by
    // Robert Zemeckis"), in a passage about all the rest of the claim. A relation they never use
    // there may be the answer's own paraphrase ("hit" for "achieved", "supports" for "adds").
    const swapped = passages.some(
      (p) =>
        rest.every((r) => formsOf(r).some((f) => p.bag.has(f))) &&
        p.tokens.some((t) => (t.pos === 'VERB' || t.pos === 'NOUN') && sameRoot(relation.word, t)),
    );
    if (swapped) return { relation, instead, passage: where };
  }
  return undefined;
}

const continues = /^(?:he|she|it|they|his|her|its|their|this|these|the (?:band|film|company|group|album|song|book))\b/i;

/** Names the claim gives, as text (runs of capitalised words; an opening capital only if a proper noun). */
export function claimNames(tokens: Token[]): string[] {
  return nameRuns(tokens).map(([s, e]) =>
    tokens
      .slice(s, e)
      .map((t) => t.text)
      .join(' '),
  );
}

/**
 * Two names the claim links that the sources never mention together, each named somewhere in them:
 * "El Nuevo Cojo Ilustrado is owned by Time Inc." where Time Inc. only appears with Golf Magazine.
 * A neighbouring passage counts as together ("He portrayed..." continues the previous sentence).
 */
export function unlinkedNames(claimText: string, view: SourceView): [string, string] | undefined {
  const tokens = tokenize(claimText);
  if (!tokens.some((t) => t.pos === 'VERB' && !lightVerbs.has(t.lemma))) return undefined;
  const names = claimNames(tokens).filter((n) => n.length >= 3 && /\p{Ll}/u.test(n));
  if (names.length < 2) return undefined;
  const pattern = (n: string): RegExp =>
    new RegExp(`(?<![\\p{L}\\p{N}])${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'u');
  for (let a = 0; a < names.length; a++) {
    for (let b = a + 1; b < names.length; b++) {
      const [x, y] = [pattern(names[a]!), pattern(names[b]!)];
      const found = retrieve(view, [{ text: `${names[a]} ${names[b]}`, weight: 1 }], 12);
      const withX = found.filter((p) => x.test(p.text)).map((p) => p.id);
      const withY = found.filter((p) => y.test(p.text)).map((p) => p.id);
      if (withX.length === 0 || withY.length === 0) continue;
      const together = (i: number, j: number): boolean => {
        if (i === j) return true;
        const [first, second] = [view.index.passages[Math.min(i, j)]!, view.index.passages[Math.max(i, j)]!];
        // A next sentence that goes on about the previous one's subject ("He portrayed...").
        return Math.abs(i - j) === 1 && first.source === second.source && continues.test(second.text);
      };
      if (withX.some((i) => withY.some((j) => together(i, j)))) continue;
      // Linked through a third name that each shares a sentence with ("A" is a song by the band B; B
      // consists of C): a chain the sources state is not a missing link.
      const namesIn = (ids: number[], own: string): Set<string> =>
        new Set(
          ids.flatMap((id) =>
            view
              .read(id, 0)
              .tokens.filter(
                (t, k, all) => t.pos === 'PROPN' && k > 0 && /^\p{Lu}\p{Ll}{2,}/u.test(t.text) && !/^[.!?"“]$/.test(all[k - 1]!.text),
              )
              .map((t) => t.text)
              .filter((w) => !own.includes(w)),
          ),
        );
      const viaX = namesIn(withX, `${names[a]} ${names[b]}`);
      if ([...namesIn(withY, `${names[a]} ${names[b]}`)].some((w) => viaX.has(w))) continue;
      return [names[a]!, names[b]!];
    }
  }
  return undefined;
}

/**
 * A word the sources never use, in a phrase they do use with another word in its place: "a narrow
 * gauge track" where they say "a standard gauge track". The claim swapped the word (contradicted).
 */
export function swappedWord(
  tokens: Token[],
  absent: (t: Token) => boolean,
  passages: ReadPassage[],
): { said: string; instead: string; passage: ReadPassage } | undefined {
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    // Only a modifier: a noun may be the answer's synonym ("freight" for "cargo"), a modifier names a kind.
    if (!t.content || t.pos !== 'ADJ' || !absent(t)) continue;
    const after = tokens.slice(i + 1, i + 3);
    if (after.length < 2 || !after.every((a) => a.content && (a.pos === 'NOUN' || a.pos === 'ADJ'))) continue;
    for (const passage of passages) {
      const p = passage.tokens;
      for (let j = 1; j + 2 < p.length + 1; j++) {
        if (p[j]?.lemma !== after[0]!.lemma || p[j + 1]?.lemma !== after[1]!.lemma) continue;
        const other = p[j - 1]!;
        if (other.content && other.pos === 'ADJ' && other.lemma !== t.lemma)
          return {
            said: `${t.text} ${after.map((a) => a.text).join(' ')}`,
            instead: `${other.text} ${after.map((a) => a.text).join(' ')}`,
            passage,
          };
      }
    }
  }
  return undefined;
}

const aliasPhrase =
  /\b((?:officially|also|better|formerly|commonly|popularly)\s+(?:known|called|named)\s+(?:as\s+)?)(?:the\s+)?([^.,;:()]+)/i;

/**
 * A name given after "officially known as" (or "also / better known as") where the sources give
 * another after the same words: "officially known as the 2017 Deaflympics" where they say "officially
 * known as the 23rd Summer Deaflympics".
 */
export function aliasMismatch(
  claimText: string,
  passages: ReadPassage[],
): { said: string; instead: string; passage: ReadPassage } | undefined {
  const m = aliasPhrase.exec(claimText);
  if (!m) return undefined;
  const phrase = m[1]!.trim().toLowerCase().replace(/\s+/g, ' ');
  const said = m[2]!.trim().replace(/["“”]/g, '');
  for (const passage of passages) {
    const s = aliasPhrase.exec(passage.text);
    if (!s || s[1]!.trim().toLowerCase().replace(/\s+/g, ' ') !== phrase) continue;
    const instead = s[2]!.trim().replace(/["“”]/g, '');
    const norm = (x: string): string =>
      x
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim();
    if (norm(instead).startsWith(norm(said)) || norm(said).startsWith(norm(instead))) return undefined;
    return { said, instead, passage };
  }
  return undefined;
}
