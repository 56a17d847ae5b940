// Tokens with offsets, lemmas and parts of speech, from wink-nlp's English model (shipped inside the
// npm package: no download, no I/O). Only answers and a few ranked passages go through it: the whole
// source never does, so its cost does not grow with the sources.

import model from 'wink-eng-lite-web-model';
import winkNLP from 'wink-nlp';
import { contractions, framingWords, stopwords } from './lexicon.js';

const nlp = winkNLP(model);
const its = nlp.its;

export interface Token {
  text: string;
  lower: string;
  /** Lemma, lower case, contractions expanded ("n't" → "not"). */
  lemma: string;
  /** A light stem for matching across inflection and derivation ("reliability" → "reliab"). */
  stem: string;
  pos: string;
  start: number;
  end: number;
  /** Not a function word, framing word, punctuation or number. */
  content: boolean;
}

/** Strips plural and common derivational endings; deliberately light (full stemming over-merges). */
export function lightStem(word: string): string {
  let w = word.toLowerCase();
  if (w.length <= 4) return w.replace(/s$/, '');
  for (const suffix of [
    'ational',
    'ations',
    'ation',
    'ments',
    'ment',
    'ness',
    'ities',
    'ity',
    'ables',
    'able',
    'ibles',
    'ible',
    'ings',
    'ing',
    'ers',
    'er',
    'ed',
    'ies',
    'ied',
    'es',
    'ly',
    's',
    'al',
    'e',
    'y',
  ]) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 4) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  return w;
}

const cache = new Map<string, Token[]>();

/** Tokenises `text`; offsets are UTF-16 indices into `text`. Memoised for repeated passages. */
export function tokenize(text: string): Token[] {
  const hit = cache.get(text);
  if (hit) return hit;
  const doc = nlp.readDoc(text);
  const values = doc.tokens().out(its.value) as string[];
  const lemmas = doc.tokens().out(its.lemma as never) as unknown as string[];
  const tags = doc.tokens().out(its.pos) as string[];
  const tokens: Token[] = [];
  let cursor = 0;
  values.forEach((value, index) => {
    const found = text.indexOf(value, cursor);
    const start = found < 0 ? cursor : found;
    const end = found < 0 ? cursor : found + value.length;
    cursor = end;
    const lower = value.toLowerCase();
    const pos = tags[index] ?? 'X';
    let lemma = (lemmas[index] ?? lower).toLowerCase();
    // An own property only: a word such as "constructor" must not find what every object inherits.
    lemma = (Object.hasOwn(contractions, lower) ? contractions[lower] : undefined) ?? lemma;
    // wink keeps a few contractions whole ("Here's"): a function word's is a function word.
    const joined = /^(\p{L}+)['’]s$/u.exec(lower);
    if (joined && stopwords.has(joined[1]!)) lemma = joined[1]!;
    const isWord = /[\p{L}]/u.test(value);
    const content =
      isWord &&
      pos !== 'PUNCT' &&
      pos !== 'NUM' &&
      !stopwords.has(lower) &&
      !stopwords.has(lemma) &&
      !framingWords.has(lemma) &&
      !framingWords.has(lower);
    tokens.push({ text: value, lower, lemma, stem: lightStem(lemma), pos, start, end, content });
  });
  if (cache.size > 20000) cache.clear();
  cache.set(text, tokens);
  return tokens;
}

/** All the forms a token may be found under. */
export function formsOf(token: Token): string[] {
  return [token.lower, token.lemma, token.stem];
}

/** The stems of the content words (no function word, punctuation or number). */
export function contentStems(tokens: Token[]): string[] {
  return tokens.filter((t) => t.content).map((t) => t.stem);
}

/** A bag of every form of every token, for "does this word occur here" checks. */
export function formBag(tokens: Token[]): Set<string> {
  const bag = new Set<string>();
  for (const token of tokens) for (const form of formsOf(token)) bag.add(form);
  return bag;
}
