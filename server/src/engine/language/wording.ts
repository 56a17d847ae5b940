// Lenient matching of ordinary words: lemmas and light stems, WordNet synonyms between common words
// (generated into vocabulary.generated.ts) and a small table of general-English paraphrases. Also
// how specific a word is: a word outside the common spoken vocabulary ("hydrofoil", "Quillbase")
// names a fact and must be found; a common word ("cheap", "runs") may be the answer's paraphrase.

import type { Token } from './tokens.js';
import { commonWords, synonymPairs } from './vocabulary.generated.js';

const common = new Set(commonWords.split(' '));

/**
 * General-English paraphrase groups that WordNet's synonym sets miss (they link senses, not the
 * everyday near-synonyms a chatbot uses). Vocabulary of no particular document or domain.
 */
const paraphraseGroups = `
refund reimburse repay reimbursement repayment money cash|invoice bill billing|future upcoming next later subsequent
free complimentary gratis cost|allow permit allowed permitted fine ok okay welcome accept accepted eligible
forbid prohibit ban banned block blocked disallow exclude excluded|need require required requirement must necessary mandatory
buy purchase bought|cancel cancellation terminate|start begin commence launch open|end finish close expire expiry stop
get receive earn obtain gain|give provide offer supply grant|increase rise grow growth raise boost gain more
decrease drop fall reduce reduction cut lower less|child kid little|adult grown|phone telephone call ring
employee staff worker personnel|customer client|price cost fee charge rate pay payment|cheap inexpensive low
expensive pricey costly high|often frequently common commonly|rare rarely seldom uncommon|maximum max most cap ceiling limit top
minimum min least floor|before prior ahead earlier advance|after later following past beyond|job employment employer work
use usage using|trip journey ride travel|book reserve booking reservation|help assist support|show display indicate
contact reach|change modify switch shift move|keep retain hold stay|daily day|weekly week|monthly month|yearly annual annually year
sick ill illness disease|problem issue fault error|people person
doctor physician|job role position|big large major
small minor little|fast quick quickly rapid|slow slowly|default automatically automatic|enable on activate|disable off deactivate
remove drop delete retire retirement deprecate deprecated|add added introduce introduced new|fix fixed patch resolve resolved
town city|found founded establish established
`;

const synonyms = new Map<string, Set<string>>();
function link(a: string, b: string): void {
  if (a === b) return;
  let set = synonyms.get(a);
  if (!set) {
    set = new Set();
    synonyms.set(a, set);
  }
  set.add(b);
}
for (const pair of synonymPairs.split(',')) {
  const [a, b] = pair.split(' ') as [string, string];
  link(a, b);
  link(b, a);
}
for (const group of paraphraseGroups.split(/[|\n]/)) {
  const members = group.trim().split(/\s+/).filter(Boolean);
  for (const a of members) for (const b of members) link(a, b);
}

/** Synonyms and paraphrases of a word (lower case or lemma); empty when none are known. */
export function synonymsOf(word: string): ReadonlySet<string> {
  return synonyms.get(word) ?? emptySet;
}
const emptySet: ReadonlySet<string> = new Set();

/** Whether a token is everyday vocabulary (its surface form or lemma is a common word). */
export function isCommon(token: Token): boolean {
  return common.has(token.lower) || common.has(token.lemma);
}

/** Every form under which a token may be found, synonyms included. */
export function looseForms(token: Token): string[] {
  const forms = [token.lower, token.lemma, token.stem];
  for (const s of synonymsOf(token.lemma)) forms.push(s);
  for (const s of synonymsOf(token.lower)) forms.push(s);
  return forms;
}
