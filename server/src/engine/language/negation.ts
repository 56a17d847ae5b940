// Negation and its scope: a predicate the source negates and the claim asserts (or the reverse) is a
// contradiction. Only predicate negation counts ("may not swim", "don't open", "is not
// permitted"): the negator must sit right before a verb or adjective. "No" before a noun ("no
// age limit") negates an amount, which paraphrase moves around freely, and an assertion inside
// a condition ("if the lake freezes") asserts nothing.
import { opensClause, providedAt } from './cues.js';
import type { Token } from './tokens.js';

const predicateNegators = new Set(['not', "n't", 'never', 'cannot']);
const predicatePos = new Set(['VERB', 'ADJ']);
/** How far after a negator its predicate may sit ("is not yet permitted"). */
const reach = 3;
const scopeEnd = /^(?:[,;:.!?—–()]|but|and|or|while|whereas|although|though|so|because|which)$/;
// A condition or an exception: what it goes with is asserted only in part ("allowed except in fog", "covered,
// provided the fault is not accidental").
const exception = /^(?:except|excluding|unless|only)$/;
// "otherwise" is "if not": what follows it holds only in the case the sentence has just ruled out.
const conditional = /^(?:if|unless|whether|once|when|except|excluding|otherwise|assuming|supposing)$/;

function isException(tokens: Token[], i: number): boolean {
  return exception.test(tokens[i]!.lower) || providedAt(tokens, i);
}

function opensCondition(tokens: Token[], i: number): boolean {
  const word = tokens[i]!.lower;
  return (
    // "once you have paid" opens a condition; "once a year" says how often.
    (conditional.test(word) && (word !== 'once' || opensClause.test(tokens[i + 1]?.lower ?? ''))) ||
    providedAt(tokens, i) ||
    // "as long as you haven't visited", "so long as".
    (/^(?:as|so)$/.test(word) && tokens[i + 1]?.lower === 'long' && tokens[i + 2]?.lower === 'as') ||
    // "before you touch it", "until the lake freezes": a time, as "when" gives one; "before 5pm" opens no clause.
    (/^(?:before|until|till)$/.test(word) && /^(?:PRON|DET|NOUN|PROPN)$/.test(tokens[i + 1]?.pos ?? ''))
  );
}

/** Where a clause's condition may still follow: up to its sentence's end or a conjunction of another clause. */
const clauseEnd = /^(?:[;:.!?]|but|and|or|while|whereas|although|though|so|because)$/;

/** "could not join if they were pregnant": a denial limited by the condition after it, in its clause. */
function conditionFollows(tokens: Token[], at: number): boolean {
  for (let k = at + 1; k < tokens.length && !clauseEnd.test(tokens[k]!.lower); k++) if (opensCondition(tokens, k)) return true;
  return false;
}

/** "takes no bookings", "costs nothing": a verb whose object is negated. */
function negatesObject(tokens: Token[], i: number): boolean {
  const token = tokens[i]!;
  return token.pos === 'VERB' && /^(?:no|nothing|none)$/.test(tokens[i + 1]?.lower ?? '');
}

/**
 * "Nothing may be fixed to the walls", "no one can enter": a negative subject denies its predicate. Not after a
 * verb or a preposition, where it is an object ("costs nothing", "with no one").
 */
function negatesSubject(tokens: Token[], i: number): boolean {
  const word = tokens[i]!.lower;
  const subject = /^(?:nothing|nobody|none|neither)$/.test(word) || (word === 'no' && /^one$/i.test(tokens[i + 1]?.text ?? ''));
  const before = tokens[i - 1];
  return subject && !(before && (before.pos === 'VERB' || before.pos === 'ADP' || before.pos === 'AUX'));
}

function isPredicateNegator(token: Token): boolean {
  return predicateNegators.has(token.lower) || predicateNegators.has(token.lemma);
}

/**
 * "was not a coach": a noun predicate, after a copula and an article. "was not Petra Voss": an
 * identity denied, the name right after the negator at `i`.
 */
function isNounPredicate(tokens: Token[], i: number, j: number): boolean {
  const t = tokens[j]!;
  // Only after a copula: a verbless "Not on a Flex Desk" answers its question, and denies no noun.
  const copula = tokens[i - 1]?.lemma === 'be';
  return (
    (copula && /^(?:a|an)$/.test(tokens[j - 1]!.lower) && (t.pos === 'NOUN' || t.pos === 'PROPN')) ||
    (j === i + 1 && t.pos === 'PROPN' && /^\p{Lu}/u.test(t.text) && /^(?:is|are|was|were)$/.test(tokens[i - 1]?.lower ?? ''))
  );
}

/** Whether the negator at `i` sets a phrase apart rather than denying a predicate. */
function setsApart(tokens: Token[], i: number): boolean {
  const [before, next] = [tokens[i - 1]?.lower ?? '', tokens[i + 1]?.pos ?? ''];
  const not = tokens[i]!.lower === 'not';
  return (
    // "may renew, but not during the first week": the predicate before it, limited in time or place; no word
    // inside the phrase ("first") is denied. "Not in the blue bin", "not on weekends": a place or a time set apart.
    (next === 'ADP' && (not || /^(?:but|,)$/.test(before))) ||
    // "…, but not your monthly charge": a thing set apart, as "…, but not cheques" is.
    (before === 'but' && /^(?:DET|PRON)$/.test(next)) ||
    // "with wet hands, not floured ones", "over-fermenting, not too wet": a contrast between two phrases, which
    // denies the second phrase and no predicate.
    (before === ',' && not)
  );
}

/** The predicate the negator at `i` negates: the first within its reach and scope. */
function negatedPredicate(tokens: Token[], i: number): Token | undefined {
  if (setsApart(tokens, i)) return undefined;
  for (let j = i + 1; j < tokens.length && j <= i + reach; j++) {
    const t = tokens[j]!;
    // "Not if you take it with you": the denial is of a predicate left out; the condition is asserted as it stands.
    if (scopeEnd.test(t.lower) || opensCondition(tokens, j)) return undefined;
    // A light verb ("can't make new requests") is the predicate denied, not the adjective after it.
    if (t.pos === 'VERB' || (t.content && (predicatePos.has(t.pos) || isNounPredicate(tokens, i, j)))) return t;
  }
  return undefined;
}

/** "can't change more than once", "may not stay longer than 3 nights": a limit on the predicate, not its denial. */
function limits(tokens: Token[], predicate: Token): boolean {
  const at = tokens.indexOf(predicate);
  for (let k = at + 1; k <= at + 5 && k < tokens.length - 1; k++) {
    if (scopeEnd.test(tokens[k]!.lower)) return false;
    if (/^(?:more|longer|later|further)$/.test(tokens[k]!.lower) && tokens[k + 1]!.lower === 'than') return true;
  }
  return false;
}

/** "no booking needed", "no pets allowed": a negated noun before the participle that says what it is, which that participle denies. */
function negatedParticiple(tokens: Token[], i: number): Token | undefined {
  if (tokens[i]!.lower !== 'no' || tokens[i + 1]?.pos !== 'NOUN') return undefined;
  const next = tokens[i + 2];
  return next && /^(?:needed|required|necessary|allowed|permitted|accepted|included|given)$/.test(next.lower) ? next : undefined;
}

/** "declined to order a correction", "refused to pay": a verb of refusal denies the verb it takes. */
function refusedPredicate(tokens: Token[], i: number): Token | undefined {
  if (!/^(?:decline|refuse|fail)$/.test(tokens[i]!.lemma) || tokens[i + 1]?.lower !== 'to') return undefined;
  const next = tokens[i + 2];
  return next?.pos === 'VERB' ? next : undefined;
}

/** The predicate a negator (or a negative subject) at `i` denies, unless it only limits it. */
function deniedPredicate(tokens: Token[], i: number): Token | undefined {
  const token = tokens[i]!;
  const implied = negatedParticiple(tokens, i) ?? refusedPredicate(tokens, i);
  if (implied) return implied;
  const subject = !isPredicateNegator(token) && negatesSubject(tokens, i);
  if (!isPredicateNegator(token) && !subject) return undefined;
  const predicate = negatedPredicate(tokens, token.lower === 'no' ? i + 1 : i);
  // A negative subject denies a verb ("Nothing may be fixed") or what a copula says of it ("neither is available");
  // "none in the first two weeks" has none.
  if (!predicate || limits(tokens, predicate)) return undefined;
  const copular = tokens[tokens.indexOf(predicate) - 1]?.lemma === 'be';
  if (subject && predicate.pos !== 'VERB' && !copular) return undefined;
  return predicate;
}

/**
 * The stems of predicates inside a negation's scope. `outright`: only those denied outright, neither inside a condition
 * nor followed by one in their clause ("could not join if …"); `unconditioned`: only those not inside a condition ("if
 * you don't cancel"), a condition after them kept.
 */
export function negatedStems(tokens: Token[], scope: 'all' | 'outright' | 'unconditioned' = 'all'): Set<string> {
  return new Set(deniedTokens(tokens, scope).map((t) => t.stem));
}

/** The predicates `negatedStems` reads, as tokens. */
function deniedTokens(tokens: Token[], scope: 'all' | 'outright' | 'unconditioned'): Token[] {
  const denied: Token[] = [];
  const conditioned = scope === 'all' ? [] : conditionedAt(tokens);
  tokens.forEach((token, i) => {
    if (conditioned[i]) return;
    if (negatesObject(tokens, i)) denied.push(token);
    const predicate = deniedPredicate(tokens, i);
    if (predicate && !(scope === 'outright' && conditionFollows(tokens, tokens.indexOf(predicate)))) denied.push(predicate);
  });
  return denied;
}

/** Whether each token sits inside a condition: from its opener ("if", "assuming") to the clause's end. */
function conditionedAt(tokens: Token[]): boolean[] {
  const relative = relativeAt(tokens);
  let conditioned = false;
  return tokens.map((t, i) => {
    // "during which", "in which": a time or a place, as "when" and "where" say.
    if (opensCondition(tokens, i) || (t.lower === 'which' && /^(?:during|in|at|on|after|before|within)$/.test(tokens[i - 1]?.lower ?? '')))
      conditioned = true;
    else if (scopeEnd.test(t.lower)) conditioned = false;
    return conditioned || relative[i]!;
  });
}

/**
 * Whether each token sits inside a restrictive "who" clause, which says which people the sentence is about, as
 * "if" would: "a parent who does not come back ... must repay". It runs past "and" to the main clause's modal,
 * after a verb of its own.
 */
function relativeAt(tokens: Token[]): boolean[] {
  let relative = false;
  let verb = false;
  return tokens.map((t, i) => {
    if (relative && (/^[.;:!?]$/.test(t.lower) || (verb && t.pos === 'AUX' && modals.test(t.lower)))) relative = false;
    else if (relative && (t.pos === 'VERB' || t.pos === 'AUX')) verb = true;
    if (t.lower === 'who' && tokens[i - 1]?.pos === 'NOUN') [relative, verb] = [true, false];
    return relative;
  });
}

const modals = /^(?:must|may|can|cannot|will|shall|should|might|could|would)$/;

/**
 * Stems of predicates asserted outright: not negated, not inside a condition; `granted`, nor followed by one in their
 * clause ("you can get a refund as long as …" grants the refund under the condition only).
 */
export function assertedStems(tokens: Token[], granted = false): Set<string> {
  const negated = negatedStems(tokens);
  const asserted = new Set<string>();
  let conditioned = false;
  for (const [i, t] of tokens.entries()) {
    if (opensCondition(tokens, i)) conditioned = true;
    else if (scopeEnd.test(t.lower)) conditioned = false;
    // An adjective before its noun ("the affected models") describes the noun; it asserts nothing of it.
    const attributive = t.pos === 'ADJ' && /^(?:NOUN|PROPN)$/.test(tokens[i + 1]?.pos ?? '');
    const predicate = t.pos === 'VERB' || (t.content && predicatePos.has(t.pos) && !attributive);
    if (!conditioned && predicate && !negated.has(t.stem) && !(granted && conditionFollows(tokens, i))) asserted.add(t.stem);
  }
  return asserted;
}

/**
 * Predicates whose polarity differs between the claim and a source passage: negated in one and
 * asserted (and negated nowhere) in the other.
 */
export function polarityClash(claim: Token[], passage: Token[]): string[] {
  // A denial inside a condition ("assuming it isn't a holiday") denies nothing outright.
  const claimNegated = negatedStems(claim, 'outright');
  const passageNegated = negatedStems(passage, 'outright');
  // Paraphrase moves negation around ("no closing day" / "never closes"): a clash needs one side
  // that negates nothing at all.
  if ((claimNegated.size === 0) === (passageNegated.size === 0)) return [];
  const claimAsserted = assertedStems(claim);
  // A grant under a condition ("a refund as long as …") is not contradicted by a denial, which may speak of the other case.
  const passageAsserted = assertedStems(passage, true);
  const clashes: string[] = [];
  // A side that states an exception ("allowed except in fog") asserts nothing outright.
  const excepts = (tokens: Token[]): boolean => tokens.some((_, i) => isException(tokens, i));
  if (!excepts(claim))
    for (const stem of passageNegated)
      if (claimAsserted.has(stem) && !claimNegated.has(stem) && !passageAsserted.has(stem)) clashes.push(stem);
  if (!excepts(passage))
    for (const stem of claimNegated)
      if (passageAsserted.has(stem) && !passageNegated.has(stem) && !claimAsserted.has(stem)) clashes.push(stem);
  // "must be started by 28 February" is "cannot be started after 28 February": a deadline said from either side.
  return clashes.filter((stem) => {
    const sides = new Set([boundSide(claim, stem), boundSide(passage, stem)]);
    return !(sides.has('before') && sides.has('after'));
  });
}

/** Which side of a point a predicate is bounded on: "started by/before/until X" or "started after/later than X". */
function boundSide(tokens: Token[], stem: string): 'before' | 'after' | undefined {
  const at = tokens.findIndex((t) => t.stem === stem);
  for (let k = at + 1; at >= 0 && k <= at + 3 && k < tokens.length; k++) {
    const word = tokens[k]!.lower;
    if (/^(?:by|before|until|till|within)$/.test(word)) return 'before';
    if (/^(?:after|beyond|later)$/.test(word)) return 'after';
    if (scopeEnd.test(word)) return undefined;
  }
  return undefined;
}

/**
 * Predicate antonyms of general English: a claim saying one pole where the passage says the other
 * ("disabled" against "enabled") contradicts it. "on"/"off" count only as settings
 * ("on by default"), never as prepositions.
 */
const antonymGroups: [string[], string[]][] = [
  [
    ['on', 'true', 'enabled', 'enable', 'active', 'activated'],
    ['off', 'false', 'disabled', 'disable', 'inactive', 'deactivated', 'opt-in'],
  ],
  [
    ['allowed', 'permitted', 'accepted', 'welcome'],
    ['forbidden', 'prohibited', 'banned', 'rejected', 'refused'],
  ],
  [['included'], ['excluded']],
  [
    ['mandatory', 'required', 'compulsory', 'obligatory'],
    ['optional', 'voluntary'],
  ],
  [['available'], ['unavailable']],
  [['refundable'], ['non-refundable', 'nonrefundable']],
];

function poles(tokens: Token[]): Map<number, number> {
  const negated = negatedStems(tokens);
  const found = new Map<number, number>();
  tokens.forEach((t, i) => {
    if (negated.has(t.stem)) return;
    // "opt-in" (off unless asked for) and "opt-out" (on unless refused), however the tokenizer cuts them.
    if (t.lower === 'opt' && tokens[i + 1]?.text === '-' && /^(?:in|out)$/.test(tokens[i + 2]?.lower ?? '')) {
      found.set(0, (found.get(0) ?? 0) | (tokens[i + 2]!.lower === 'in' ? 2 : 1));
      return;
    }
    if ((t.lower === 'on' || t.lower === 'off') && !(tokens[i + 1]?.lower === 'by' && tokens[i + 2]?.lower === 'default')) return;
    antonymGroups.forEach(([plus, minus], g) => {
      if (plus.includes(t.lower)) found.set(g, (found.get(g) ?? 0) | 1);
      if (minus.includes(t.lower)) found.set(g, (found.get(g) ?? 0) | 2);
    });
  });
  return found;
}

/** Antonym pairs the claim and passage disagree on (each side holding only one pole). */
export function antonymClash(claim: Token[], passage: Token[]): boolean {
  const mine = poles(claim);
  const theirs = poles(passage);
  for (const [group, pole] of mine) {
    const other = theirs.get(group);
    if ((pole === 1 && other === 2) || (pole === 2 && other === 1)) return true;
  }
  return false;
}

/** "There is no east gate": the noun whose existence the claim denies. */
function deniedExistence(tokens: Token[]): string[] {
  const out: string[] = [];
  tokens.forEach((t, i) => {
    if (t.lower !== 'no' || !/^(?:is|are|was|were|be|'s)$/.test(tokens[i - 1]?.lower ?? '') || tokens[i - 2]?.lower !== 'there') return;
    const noun = tokens.slice(i + 1, i + 6).find((n) => n.content && (n.pos === 'NOUN' || n.pos === 'PROPN'));
    if (noun) out.push(noun.stem);
  });
  return out;
}

/** Nouns within a "no" or "without" phrase ("without an early termination fee"): things said to be absent. */
function deniedNouns(tokens: Token[]): string[] {
  const out: string[] = [];
  tokens.forEach((t, i) => {
    // "Not a full recount": "not" before an article denies the noun as "no" does.
    const notA = t.lower === 'not' && /^(?:a|an|any)$/.test(tokens[i + 1]?.lower ?? '');
    if (t.lower !== 'no' && t.lower !== 'without' && !notA) return;
    for (const n of tokens.slice(i + 1, i + 5)) {
      if (scopeEnd.test(n.lower)) break;
      if (n.content && (n.pos === 'NOUN' || n.pos === 'PROPN')) out.push(n.stem);
    }
  });
  return out;
}

/**
 * Denials the claim and a passage share: a predicate both negate ("can't be returned" / "cannot be
 * returned"), or a thing the claim says there is none of and the passage says is absent ("there's no
 * fee" / "without a fee"). Such a passage says what the claim says, whatever another passage asserts.
 */
export function sharedDenials(claim: Token[], passage: Token[]): string[] {
  const theirs = new Set([...negatedStems(passage), ...deniedNouns(passage)]);
  const shared = [...new Set([...negatedStems(claim), ...deniedExistence(claim), ...deniedNouns(claim)])].filter((stem) =>
    theirs.has(stem),
  );
  // "can't make" and "cannot be made": one verb, whose stems differ.
  const theirLemmas = new Set(deniedTokens(passage, 'all').map((t) => t.lemma));
  shared.push(
    ...deniedTokens(claim, 'all')
      .filter((t) => theirLemmas.has(t.lemma) && !shared.includes(t.stem))
      .map((t) => t.stem),
  );
  // "We accept cards and cash, but not cheques" denies accepting cheques: a claim that negates a
  // predicate of cheques ("cheques aren't accepted") shares the denial; one of cards does not.
  const elliptic = new Set(ellipticallyDenied(passage));
  // "…, not online" against "…, but not online" or "is not online": the same thing set apart from what is granted.
  const setApart = new Set([...ellipticallyDenied(passage, true), ...theirs]);
  const alike = ellipticallyDenied(claim, true).filter((stem) => setApart.has(stem));
  if (elliptic.size === 0 || negatedStems(claim).size === 0) return [...shared, ...alike];
  return [...shared, ...alike, ...claim.filter((t) => (t.pos === 'NOUN' || t.pos === 'PROPN') && elliptic.has(t.stem)).map((t) => t.stem)];
}

/**
 * "…, but not cheques", "…, not weekends": nouns (with `anyWord`, any content words: "not online") a negator without a
 * verb of its own denies the sentence's predicate for.
 */
function ellipticallyDenied(tokens: Token[], anyWord = false): string[] {
  const out: string[] = [];
  tokens.forEach((t, i) => {
    if (!isPredicateNegator(t) || !/^(?:but|and|or|,)$/.test(tokens[i - 1]?.lower ?? '') || negatedPredicate(tokens, i)) return;
    for (const n of tokens.slice(i + 1, i + 5)) {
      if (scopeEnd.test(n.lower)) break;
      if (n.content && (anyWord || n.pos === 'NOUN' || n.pos === 'PROPN')) out.push(n.stem);
    }
  });
  return out;
}

/**
 * A denial ("Petra Voss was not a coach", "X did not win Y") against a passage that states
 * the denied word and negates nothing: the sources say it outright.
 */
export function deniedButStated(claim: Token[], passage: Token[]): string[] {
  // A denial inside the claim's own condition ("if you don't cancel, …") denies nothing outright.
  const denied = new Set([...negatedStems(claim, 'unconditioned'), ...deniedExistence(claim)]);
  if (
    denied.size === 0 ||
    passage.some((t, i) => predicateNegators.has(t.lower) || t.lower === 'no' || t.lower === 'without' || isException(passage, i))
  )
    return [];
  // Stated outright: not inside a condition ("or earlier if the lake freezes").
  const stated = new Set<string>();
  let conditioned = false;
  for (const [i, t] of passage.entries()) {
    if (opensCondition(passage, i)) conditioned = true;
    else if (scopeEnd.test(t.lower)) conditioned = false;
    if (!conditioned && t.content) stated.add(t.stem);
  }
  return [...denied].filter((stem) => stated.has(stem));
}
