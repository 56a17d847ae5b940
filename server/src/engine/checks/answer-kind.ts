// What kind of answer a question asks for. A true statement that does not give it ("Ida Venn
// carved the fountain" for "In what year was its sculptor born?") does not answer the question; the
// answer is then incomplete, whatever its claims' support.

import { sourceSilence } from '../language/lexicon.js';
import { extractQuantities } from '../language/quantities.js';
import { tokenize } from '../language/tokens.js';
import { type AnswerCheck, signal } from './check.js';
import { askedNoun, missedFocus } from './focus.js';
import { questionOptions } from './options.js';

export type AnswerKind = 'time' | 'amount' | 'name';

const asksTime =
  /(?:^|[,;:]\s*|\b(?:in|by|until|since)\s+)(?:what|which)\s+(?:year|decade|century|date|month|day)\b|^\s*(?:until\s+)?when\b|(?:^|[,;]\s*)when\s+(?:was|were|did|is|does|do|will|can)\b|\b(?:birth\s*date|date of birth)\b|\bwhat\s+year\b/i;
const asksAmount = /\bhow\s+(?:many|much|long|old|far|big|large|tall|often)\b|\bwhat\s+(?:percentage|proportion|share|number)\b/i;

// A question for a named person or thing of a kind ("which writer", "what team"). A bare "who" is left
// out: "your line manager" answers it without a name. The kinds are the nouns of general English whose
// members are known by proper names: people by what they do, organisations, places and works.
const namedKinds = [
  'person man woman actor actress singer musician artist painter poet writer author novelist playwright composer',
  'director producer politician president leader king queen player athlete coach scientist inventor founder architect',
  'company firm corporation brand manufacturer airline bank band group team club party organisation organization agency',
  'university college school hospital newspaper magazine network channel label publisher',
  'city town village country nation state province county region island river lake mountain airport station street stadium',
  'album film movie song book novel play show series game opera',
].flatMap((line) => line.split(' '));
const asksName = new RegExp(`\\b(?:which|what)\\s+(?:(?:\\w+-)?\\w+\\s+)?(?:${namedKinds.join('|')})\\b`, 'i');

export function expectedKind(question: string): AnswerKind | undefined {
  if (asksTime.test(question)) return 'time';
  if (asksAmount.test(question)) return 'amount';
  if (asksName.test(question)) return 'name';
  return undefined;
}

/**
 * Whether the answer names something the question does not: a capitalised word that is not an
 * adjective ("Maltese") nor a sentence opener, a quoted title, or a figure (a phone number for "who").
 */
function givesName(answer: string, question: string): boolean {
  // A bare answer (no verb) is itself the name ("Harriet Osk"), and so is an option the question offers.
  if (!tokenize(answer).some((t) => t.pos === 'VERB' || t.pos === 'AUX') || questionOptions(question)) return true;
  // A figure the question does not give (a phone number for "which office"), or a quoted title.
  const figures = answer.match(/\d[\d\s+().-]*\d|\d/g) ?? [];
  if (/["“][^"”]{2,}["”]/.test(answer) || figures.some((f) => !question.includes(f.trim()))) return true;
  const asked = new Set(tokenize(question).map((t) => t.lower));
  const tokens = tokenize(answer);
  return tokens.some((t, i) => {
    if (!/^\p{Lu}/u.test(t.text) || asked.has(t.lower) || t.pos === 'ADJ' || t.pos === 'DET' || t.pos === 'PRON') return false;
    const opens = i === 0 || /^[.!?]$/.test(tokens[i - 1]!.text);
    return !opens || t.pos === 'PROPN';
  });
}

const timeWords =
  /\b(?:today|yesterday|tomorrow|now|currently|never|always|anytime|century|centuries|decade|\d{3,4}s|ago|weekend|morning|evening|night|noon|midnight|spring|summer|autumn|fall|winter|weekday|weekdays|monday|tuesday|wednesday|thursday|friday|saturday|sunday|before|after|until|within)\b/i;
const amountWords = /\b(?:none|no|all|half|dozens?|hundreds?|thousands?|millions?|several|few|many|free|unlimited)\b/i;

/** Whether the answer gives something of the kind the question asks for. */
export function givesKind(answer: string, kind: AnswerKind, question = ''): boolean {
  if (kind === 'name') return givesName(answer, question);
  const quantities = extractQuantities(answer);
  if (kind === 'time') {
    if (timeWords.test(answer)) return true;
    return quantities.some(
      (q) =>
        q.kind === 'date' ||
        q.kind === 'time' ||
        q.kind === 'duration' ||
        (q.kind === 'count' && Number.isInteger(q.raw) && q.raw >= 1000 && q.raw <= 2100),
    );
  }
  return quantities.length > 0 || amountWords.test(answer);
}

/**
 * An answer that gives the kind the question asks for only as "a/an/another ... <noun>" ("a Maltese
 * striker" for "Which striker scored the winner?", "a different island" for "on which island?") names
 * nothing: it does not answer. Undefined when the question asks no "which/what <noun>" or a name is given.
 */
export function vagueAnswer(question: string, answer: string): string | undefined {
  const q = tokenize(question);
  const noun = askedNoun(q);
  if (!noun) return undefined;
  const a = tokenize(answer);
  const asked = new Set(q.map((t) => t.lower));
  for (let i = 0; i < a.length; i++) {
    if (a[i]!.lemma !== noun.lemma) continue;
    const from = a.slice(Math.max(0, i - 3), i).findIndex((t) => /^(?:a|an|another|some|other|different)$/.test(t.lower));
    if (from < 0) continue;
    const phraseStart = Math.max(0, i - 3) + from;
    const named = a.some(
      (t, k) => /^\p{Lu}/u.test(t.text) && !asked.has(t.lower) && (k < phraseStart || k > i) && k > 0 && !/^[.!?]$/.test(a[k - 1]!.text),
    );
    if (!named)
      return a
        .slice(phraseStart, i + 1)
        .map((t) => t.text)
        .join(' ');
  }
  return undefined;
}

/** Why the answer does not answer the question (a statement that gives nothing asked), if it does not. */
export function unanswered(question: string, answer: string): string | undefined {
  const vague = vagueAnswer(question, answer);
  if (vague) return `The question asks which one; the answer only says "${vague}".`;
  const kind = expectedKind(question);
  if (kind && !givesKind(answer, kind, question))
    return `The question asks for ${kind === 'time' ? 'a date or time' : kind === 'amount' ? 'an amount' : 'a name'}; the answer gives none.`;
  return questionOptions(question) ? undefined : missedFocus(question, answer);
}

const silent = new RegExp(`\\b${sourceSilence.source}`, 'i');

/** An answer that says the sources do not answer the question is honest, not incomplete. */
export function abstains(answer: string): boolean {
  return silent.test(answer);
}

export const answerKindCheck: AnswerCheck = {
  name: 'answer-kind',
  kinds: { answer_incomplete: 'unsupported' },
  run({ question, answer, polarity, spans }) {
    if (polarity || spans.length === 0 || abstains(answer)) return [];
    const gap = unanswered(question, answer);
    return gap ? [signal('answer_incomplete', 'unsupported', gap)] : [];
  },
};
