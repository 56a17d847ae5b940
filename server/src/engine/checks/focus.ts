// What a question asks for, and answers that speak of something else. A "which/what N" question asks
// to identify an N; an answer can be true and still not do that: it restates the question ("Ines
// Varga was a Maltese conductor" for "Ines Varga, a Maltese conductor, held what post?"), describes the
// asked N instead of naming it ("The head curator was a member of the board"), or names another
// thing the question mentions ("The only rowing boat on the lake is X" for "Which club ... keeps
// only one rowing boat?").
import { formBag, formsOf, type Token, tokenize } from '../language/tokens.js';
import { synonymsOf } from '../language/wording.js';

const whWords = /^(?:which|what|who|whom|whose|where|when|why|how)$/;
/** Nouns that ask for a kind, a measure or a label rather than a thing to identify. */
const generic = /^(?:name|kind|type|sort|genre|form|way|part|role|year|date|time|day|month|one|thing|number|percentage|amount|title)$/;

/** The head noun of the "which/what N" phrase of a question ("curator" of "What head curator"). */
export function askedNoun(question: Token[]): Token | undefined {
  const at = question.findIndex((t) => /^(?:which|what)$/.test(t.lower) && t.pos === 'DET');
  if (at < 0) return undefined;
  let head: Token | undefined;
  for (let i = at + 1; i < question.length; i++) {
    const t = question[i]!;
    // A past tense after the noun is the question's verb, whatever the tagger says ("player scored").
    if (t.pos === 'NOUN' && !(head && /[^e]ed$/.test(t.lower))) head = t;
    else if (t.pos !== 'ADJ' && t.text !== '-') break;
  }
  return head && !generic.test(head.lemma) ? head : undefined;
}

/** The head noun of a definite phrase opening `tokens` ("the only rowing boat on the lake" → "boat"). */
function definiteHead(tokens: Token[]): Token | undefined {
  if (!/^(?:the|this|that)$/.test(tokens[0]?.lower ?? '')) return undefined;
  let head: Token | undefined;
  for (const t of tokens.slice(1)) {
    if (t.pos === 'NOUN') head = t;
    else if (t.pos !== 'ADJ' && t.pos !== 'ADV' && t.text !== '-') break;
  }
  return head;
}

function sameNoun(a: Token, b: Token): boolean {
  return a.lemma === b.lemma || a.stem === b.stem || synonymsOf(a.lemma).has(b.lemma);
}

/** A capitalised word that is not the opening word's capital nor one of the question's words. */
function newName(tokens: Token[], asked: Set<string>): boolean {
  return tokens.some((t) => /^\p{Lu}/u.test(t.text) && t.pos === 'PROPN' && !asked.has(t.lower));
}

/** The two sides of the answer's first "is/was": what it identifies with what. */
function copulaSides(answer: Token[]): [Token[], Token[]] | undefined {
  const at = answer.findIndex((t) => t.lemma === 'be' && t.pos === 'AUX');
  if (at <= 0) return undefined;
  const end = answer.findIndex((t, i) => i > at && /^[.;!?]$/.test(t.text));
  return [answer.slice(0, at), answer.slice(at + 1, end < 0 ? answer.length : end)];
}

/** A statement all of whose words the question already says answers nothing. */
function restatesQuestion(answer: Token[], asked: Set<string>): boolean {
  // A bare phrase may pick one of the things the question names: "Harriet Osk".
  const said = answer.filter((t) => t.content || /^\d/.test(t.text));
  const statement = answer.some((t) => t.pos === 'VERB' || t.pos === 'AUX');
  return statement && said.length > 0 && said.every((t) => formsOf(t).some((f) => asked.has(f)));
}

/**
 * The other thing of the question a side of the answer's copula names, against a new name on the
 * other side ("X is the sundial built in Pellow" for "What man built the sundial?").
 */
function otherThingNamed(q: Token[], noun: Token, [left, right]: [Token[], Token[]]): Token | undefined {
  const lowered = new Set(q.map((t) => t.lower));
  for (const [phrase, other] of [
    [left, right],
    [right, left],
  ] as const) {
    const head = definiteHead(phrase);
    if (!head || generic.test(head.lemma) || !newName(other, lowered)) continue;
    if (q.some((t) => t.pos === 'NOUN' && t !== noun && sameNoun(t, head))) return head;
  }
  return undefined;
}

/**
 * Why an answer to a question asking for something to identify does not identify it; undefined when
 * it does or the question asks no such thing. Answers to yes/no and option questions are not checked.
 */
export function missedFocus(question: string, answer: string): string | undefined {
  const q = tokenize(question);
  if (!q.some((t) => whWords.test(t.lower))) return undefined;
  const a = tokenize(answer);
  if (restatesQuestion(a, formBag(q))) return 'The answer only restates the question.';
  const noun = askedNoun(q);
  const sides = noun ? copulaSides(a) : undefined;
  if (!noun || !sides) return undefined;
  // "The head curator was a member of...": the asked N, described rather than named.
  const subject = definiteHead(sides[0]);
  if (subject && sameNoun(subject, noun) && /^(?:a|an)$/.test(sides[1][0]?.lower ?? ''))
    return `The question asks which ${noun.text}; the answer describes it without naming it.`;
  if (a.some((t) => sameNoun(t, noun))) return undefined;
  const head = otherThingNamed(q, noun, sides);
  return head ? `The question asks for the ${noun.text}; the answer names the ${head.text} instead.` : undefined;
}
