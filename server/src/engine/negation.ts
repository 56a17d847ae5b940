// Negation and its scope: a word the source negates and the claim asserts (or the reverse) is a
// contradiction. Scope: the content words after a negator up to the clause's end.
import { negators } from './lexicon.js';
import type { Token } from './tokens.js';

const scopeEnd = /^(?:[,;:.!?—–()]|but|and|or|while|whereas|although|though|so|because|which|unless|except|if)$/;

/** The stems of content words inside a negation's scope. */
export function negatedStems(tokens: Token[]): Set<string> {
  const negated = new Set<string>();
  let inScope = false;
  for (const token of tokens) {
    if (negators.has(token.lower) || negators.has(token.lemma) || token.lower === 'no') {
      inScope = true;
      continue;
    }
    if (scopeEnd.test(token.lower)) inScope = false;
    // The scope is the negated predicate: the first content word after the negator.
    if (inScope && token.content) {
      negated.add(token.stem);
      inScope = false;
    }
  }
  return negated;
}

/** Stems of content words outside any negation. */
export function assertedStems(tokens: Token[]): Set<string> {
  const negated = negatedStems(tokens);
  return new Set(tokens.filter((t) => t.content && !negated.has(t.stem)).map((t) => t.stem));
}

export function isNegated(tokens: Token[]): boolean {
  return tokens.some((t) => negators.has(t.lower) || negators.has(t.lemma) || t.lower === 'except' || t.lower === 'unless');
}

/**
 * Words whose polarity differs between the claim and a source passage: negated in one and asserted
 * (not negated anywhere) in the other. Only verbs, adjectives and nouns that both mention count.
 */
export function polarityClash(claim: Token[], passage: Token[]): string[] {
  // Paraphrases move negation around ("no fixed expiry" / "no longer expire"): a clash needs one side
  // that negates nothing at all.
  if (isNegated(claim) === isNegated(passage)) return [];
  const claimNegated = negatedStems(claim);
  const passageNegated = negatedStems(passage);
  const claimAsserted = assertedStems(claim);
  const passageAsserted = assertedStems(passage);
  const clashes: string[] = [];
  for (const stem of passageNegated) if (claimAsserted.has(stem) && !claimNegated.has(stem) && !passageAsserted.has(stem)) clashes.push(stem);
  for (const stem of claimNegated) if (passageAsserted.has(stem) && !passageNegated.has(stem) && !claimAsserted.has(stem)) clashes.push(stem);
  return clashes;
}
