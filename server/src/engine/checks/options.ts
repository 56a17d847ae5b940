// Questions that offer options ("Which opened first, A or B?", "Who was elected, A or B?", "Between A
// and B, who is older?"): the option the answer picks is checked against the sources as a whole. An
// ordering is decided by the years the sources give for each option; any other choice by which
// option's sentences carry the question's own words ("elected", "Rowing Council").
import type { SourceView } from '../evidence/retrieval.js';
import { retrieve } from '../evidence/retrieval.js';
import { stopwords } from '../language/lexicon.js';
import { tokenize } from '../language/tokens.js';
import { type ClaimCheck, signal } from './check.js';

const earlierWanted = /\b(first|earlier|earliest|before|older|oldest|elder)\b/i;
const laterWanted = /\b(later|latest|after|younger|youngest|newer|newest|more recent|most recent(ly)?)\b/i;
/** Question words that say what is asked, not what the option must have. */
const askWords = new Set(['which', 'who', 'whom', 'what', 'one', 'between', 'first', 'earlier', 'older', 'younger', 'later', 'born']);

export interface OptionVerdict {
  chosen: string;
  /** The option the sources favour. */
  expected: string;
  passageIds: number[];
  reason: string;
}

const connector = /^(?:of|for|the|and|de|la|del|von|van|der|le|du|da|&|'s|a|an|in|on|at)$/i;

const questionOpener = /^(?:is|are|was|were|did|does|do|which|who|what|whose|has|have|had)$/i;

/** A word without the punctuation that closes it; an initial ("E.") keeps its point, being part of the name. */
function bareWord(raw: string): string {
  return /^\p{Lu}\.$/u.test(raw) ? raw : raw.replace(/[?,.!:;]+$/, '');
}

/** A word that carries a name on: a capitalised word or number, or a connector inside one. */
function continuesName(w: string, started: boolean): boolean {
  return /^[\p{Lu}\d"“]/u.test(w) || (connector.test(w) && started);
}

/** The words of a name from `from` in the direction of `step`, until punctuation closes it on its side. */
function runWords(words: string[], from: number, step: 1 | -1): string[] {
  const out: string[] = [];
  for (let i = from; i >= 0 && i < words.length; i += step) {
    const raw = words[i]!;
    const w = bareWord(raw);
    if (step === -1 && w !== raw && i !== from) break;
    if (!continuesName(w, out.length > 0)) break;
    out.push(w);
    if (step === 1 && w !== raw) break;
  }
  return out;
}

/** A run of capitalised words (with short connectors inside) ending at or starting from `at`. */
export function nameRun(words: string[], from: number, step: 1 | -1): string | undefined {
  const out = runWords(words, from, step);
  while (out.length > 0 && connector.test(out[out.length - 1]!)) out.pop();
  // A question's opening word is not part of the name ("Is A or B...").
  if (step === -1 && out.length > 1 && questionOpener.test(out[out.length - 1]!)) out.pop();
  if (out.length === 0) return undefined;
  return (step === 1 ? out : out.reverse()).join(' ');
}

/** "Between A and B, who ...?" */
function betweenOptions(q: string): [string, string] | undefined {
  const between = /\bbetween\s+(?:the\s+)?(.+?)\s+and\s+(?:the\s+)?(.+?)(?:,|\?|\s+(?:which|who|what)\b)/i.exec(q);
  if (!between) return undefined;
  const a = between[1]!.trim().split(/\s+/);
  return [nameRun(a, a.length - 1, -1) ?? between[1]!.trim(), between[2]!.trim()];
}

/** "Which opened first, A or B?": the names either side of "or". */
function orOptions(q: string): [string, string] | undefined {
  const words = q.split(/\s+/);
  const or = words.findIndex((w, i) => w.toLowerCase() === 'or' && i > 0);
  if (or <= 0) return undefined;
  const a = nameRun(words, or - 1, -1);
  const b = nameRun(words, or + 1, 1);
  return a && b && !/[,]$/.test(words[or - 1]!) ? [a, b] : undefined;
}

/** "A and B are both choirs, but which one is led by C?": the two named before "which one". */
function pickedOptions(q: string): [string, string] | undefined {
  const pick = /\bwhich (?:one|of (?:them|the two|these|those))\b/i.exec(q);
  if (!pick) return undefined;
  const before = q.slice(0, pick.index).split(/\s+/);
  for (let i = 1; i < before.length - 1; i++) {
    if (before[i]!.toLowerCase() !== 'and') continue;
    const a = nameRun(before, i - 1, -1);
    const b = nameRun(before, i + 1, 1);
    if (a && b) return [a, b];
  }
  return undefined;
}

/** "..., the A or the B?" and "... first A or B?": the two phrases either side of a closing "or". */
function trailingOptions(q: string): [string, string] | undefined {
  const m =
    /(?:,|:|\b(?:first|earlier|older|younger|later|more|less|fewer|larger|smaller))\s+(?:the\s+)?([^,?]+?)\s+or\s+(?:the\s+)?([^,?]+?)\s*\??\s*$/i.exec(
      q,
    );
  return m ? [m[1]!.trim(), m[2]!.trim()] : undefined;
}

/** The two options of a question, if it offers two. */
export function questionOptions(question: string): [string, string] | undefined {
  const q = question.trim();
  return betweenOptions(q) ?? orOptions(q) ?? pickedOptions(q) ?? trailingOptions(q);
}

/** Words that identify an option in a text: its capitalised words, or all its words. */
export function keysOf(option: string): string[] {
  const words = option.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const capitals = (option.match(/[\p{Lu}][\p{L}\p{N}'’-]*/gu) ?? []).map((w) => w.toLowerCase().replace(/['’]s$/, ''));
  return (capitals.length > 0 ? capitals : words).filter((w) => !connector.test(w));
}

function mentions(text: string, keys: string[]): boolean {
  const lower = text.toLowerCase();
  return keys.length > 0 && keys.every((k) => new RegExp(`\\b${k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'u').test(lower));
}

/** Ids of passages about an option: those naming it and the next two ("He was elected..."). */
export function sentencesAbout(option: string, other: string, view: SourceView): number[] {
  const keys = keysOf(option);
  const otherKeys = keysOf(other);
  const ids = new Set<number>();
  for (const p of retrieve(view, [{ text: option, weight: 1 }], 6)) {
    if (!mentions(p.text, keys)) continue;
    ids.add(p.id);
    for (let next = p.id + 1; next <= p.id + 2 && next < view.index.passages.length; next++) {
      const passage = view.index.passages[next]!;
      if (passage.source !== p.source || mentions(passage.text, otherKeys)) break;
      ids.add(next);
    }
  }
  return [...ids].sort((a, b) => a - b);
}

/** The first year the option's sentences give after naming it (a passage may name both options). */
function firstYear(ids: number[], keys: string[], view: SourceView): number | undefined {
  for (const id of ids) {
    const passage = view.read(id, 0);
    const named = keys.length > 0 ? passage.text.toLowerCase().indexOf(keys[0]!) : -1;
    const from = Math.max(named, 0);
    const year = passage.quantities
      .filter((q) => q.start >= from)
      .map((q) => (q.kind === 'date' ? q.raw : q.kind === 'count' && Number.isInteger(q.raw) && q.raw >= 1000 && q.raw <= 2100 ? q.raw : 0))
      .find((y) => y > 0);
    if (year) return year;
  }
  return undefined;
}

/** Where the answer names an option: all its keys, or all but one of several; -1 when it does not. */
function answerPosition(option: string, answerLower: string): number {
  const keys = keysOf(option);
  const hits = keys.map((k) => answerLower.indexOf(k)).filter((i) => i >= 0);
  const named = (hits.length === keys.length && keys.length > 0) || (hits.length > 0 && keys.length > 1 && hits.length >= keys.length - 1);
  return named ? Math.min(...hits) : -1;
}

/** An ordering question decided by the first year the sources give for each option. */
function byDates(
  options: [string, string],
  about: number[][],
  wantsEarlier: boolean,
  chosen: string,
  view: SourceView,
): OptionVerdict | undefined {
  const years = about.map((ids, i) => firstYear(ids, keysOf(options[i]!), view));
  if (years[0] === undefined || years[1] === undefined || years[0] === years[1]) return undefined;
  const earlier = years[0] < years[1] ? 0 : 1;
  const expected = wantsEarlier ? earlier : 1 - earlier;
  return {
    chosen,
    expected: options[expected]!,
    passageIds: [...about[0]!, ...about[1]!],
    reason: 'by the dates in the sources',
  };
}

/** Any other choice decided by which option's sentences hold the question's other words. */
function byWords(
  question: string,
  options: [string, string],
  about: number[][],
  chosen: string,
  view: SourceView,
): OptionVerdict | undefined {
  // A comparison of amounts ("more seats", "heavier") is not decided by words.
  if (/\b(more|less|fewer|better|worse|\w+er than)\b/i.test(question)) return undefined;
  const optionWords = new Set([...keysOf(options[0]), ...keysOf(options[1])]);
  const wanted = tokenize(question).filter(
    (t) => t.content && !optionWords.has(t.lower) && !askWords.has(t.lower) && !stopwords.has(t.lower),
  );
  if (wanted.length === 0) return undefined;
  const scores = about.map((ids) => {
    const bag = new Set(ids.flatMap((id) => view.read(id, 0).tokens.flatMap((t) => [t.lower, t.stem])));
    return wanted.filter((t) => bag.has(t.lower) || bag.has(t.stem)).length;
  });
  if (about[0]!.length === 0 || about[1]!.length === 0 || scores[0] === scores[1]) return undefined;
  const expected = scores[0]! > scores[1]! ? 0 : 1;
  return {
    chosen,
    expected: options[expected]!,
    passageIds: about[expected]!,
    reason: 'by which option the sources say it of',
  };
}

/** Decides an options question; undefined when it is not one or the sources do not tell. */
export function checkOptions(question: string, answer: string, view: SourceView): OptionVerdict | undefined {
  const options = questionOptions(question);
  if (!options) return undefined;
  const lower = answer.toLowerCase();
  const at = options.map((o) => answerPosition(o, lower));
  if (at[0]! < 0 && at[1]! < 0) return undefined;
  // A negated answer ("A is not...") picks by exclusion; leave it to the claim checks.
  if (/\b(not|n't|never|neither)\b/i.test(answer)) return undefined;
  const chosen = options[at[1]! < 0 || (at[0]! >= 0 && at[0]! < at[1]!) ? 0 : 1]!;
  const about = [sentencesAbout(options[0], options[1], view), sentencesAbout(options[1], options[0], view)];
  const wantsEarlier = earlierWanted.test(question);
  const wantsLater = !wantsEarlier && laterWanted.test(question);
  if (wantsEarlier || wantsLater) return byDates(options, about, wantsEarlier, chosen, view);
  return byWords(question, options, about, chosen, view);
}

/** The option the answer picks, where the sources favour the other (checked on the claim that names it). */
export const optionsCheck: ClaimCheck = {
  name: 'options',
  kinds: { option_wrong: 'contradicted' },
  run(claim) {
    const { question, answer, view, spans } = claim.context;
    if (claim.index < 0 || spans.length === 0) return [];
    const choice = checkOptions(question, answer, view);
    if (!choice || choice.chosen === choice.expected) return [];
    const last = choice.chosen.toLowerCase().split(' ').pop()!;
    const target = Math.max(
      0,
      spans.findIndex((s) => s.text.toLowerCase().includes(last)),
    );
    if (target !== claim.index) return [];
    const passage = choice.passageIds[0] === undefined ? undefined : view.read(choice.passageIds[0], 0);
    return [
      signal(
        'option_wrong',
        'contradicted',
        `Going ${choice.reason}, the answer is ${choice.expected}, not ${choice.chosen}.`,
        passage ? { passage } : {},
      ),
    ];
  },
};
