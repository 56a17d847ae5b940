// Kinds of one thing, told apart by their modifiers: "the morning lift ticket" and "the night
// lift ticket" are two tickets. A figure the sources give in a sentence about one kind does not hold
// for another kind the sources also name. A sentence that opens with "the ticket" or "that ticket" speaks of
// the kind the sentence before it named.

import { type Token, tokenize } from '../language/tokens.js';
import type { SourceView } from './retrieval.js';

/** A kind: the words that modify a head noun right before it, as written ("night lift ticket"). */
interface Kind {
  phrase: string;
  stems: Set<string>;
}
/** Head noun (lemma) → its kinds in a text. */
type Kinds = Map<string, Kind>;

function kindsIn(tokens: Token[]): Kinds {
  const kinds: Kinds = new Map();
  tokens.forEach((t, i) => {
    if (t.pos !== 'NOUN' || tokens[i + 1]?.pos === 'NOUN') return;
    let k = i;
    while (k > 0 && /^(?:ADJ|NOUN|PROPN)$/.test(tokens[k - 1]!.pos) && tokens[k - 1]!.content) k--;
    if (k === i) return;
    const words = tokens.slice(k, i + 1);
    const known = kinds.get(t.lemma);
    const stems = new Set([...(known?.stems ?? []), ...words.slice(0, -1).map((w) => w.stem)]);
    kinds.set(t.lemma, { phrase: known?.phrase ?? words.map((w) => w.lower).join(' '), stems });
  });
  return kinds;
}

const anaphor = /^(?:the|that|this|these|those|such)$/;

/**
 * The kinds a text names; a head it opens with bare ("That ticket is...", "The ticket is...") takes the
 * modifiers the previous text gives that head.
 */
export function kindsOf(text: string, previous: string | undefined): Kinds {
  const tokens = tokenize(text);
  const kinds = kindsIn(tokens);
  const head = tokens[1];
  if (previous && anaphor.test(tokens[0]?.lower ?? '') && head?.pos === 'NOUN' && !kinds.has(head.lemma)) {
    const before = kindsIn(tokenize(previous)).get(head.lemma);
    if (before) kinds.set(head.lemma, before);
  }
  return kinds;
}

export interface KindClash {
  said: string;
  instead: string;
}

/**
 * A kind the claim names that the sentence holding its figure names otherwise ("night lift
 * ticket" where the sentence is about the "morning lift ticket"), when the sources name the claim's
 * kind too: two kinds of one thing, and the figure belongs to the other.
 */
export function otherKind(claim: Kinds, source: Kinds, view: SourceView): KindClash | undefined {
  for (const [head, said] of claim) {
    const instead = source.get(head);
    if (!instead || [...said.stems].some((m) => instead.stems.has(m))) continue;
    if (view.mentions(said.phrase)) return { said: said.phrase, instead: instead.phrase };
  }
  return undefined;
}
