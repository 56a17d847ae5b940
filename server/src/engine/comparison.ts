// Comparison questions ("Which came first, A or B?", "Who was born first, A or B?"): the option
// the answer picks is checked against the dates the sources give for each option.
import { retrieve, type SourceView } from './evidence.js';
import { extractQuantities } from './quantities.js';

const earlierWanted = /\b(first|earlier|earliest|before|older|oldest)\b/i;
const laterWanted = /\b(later|latest|after|younger|youngest|newer|newest|more recent|most recent(ly)?)\b/i;

export interface OptionVerdict {
  chosen: string;
  /** The option the dates favour. */
  expected: string;
  passageIds: number[];
}

/** The two options of an "A or B" question, if it is one. */
export function questionOptions(question: string): [string, string] | undefined {
  const m = /(?:,|:|\b(?:first|earlier|older|younger|later|more|less|fewer|larger|smaller))\s+(?:the\s+)?([^,?]+?)\s+or\s+(?:the\s+)?([^,?]+?)\s*\??\s*$/i.exec(question.trim());
  if (!m) return undefined;
  return [m[1]!.trim(), m[2]!.trim()];
}

/** Decides an ordering question by dates; undefined when it is not one or the dates are missing. */
export function checkOrdering(question: string, answer: string, view: SourceView): OptionVerdict | undefined {
  const wantsEarlier = earlierWanted.test(question);
  const wantsLater = !wantsEarlier && laterWanted.test(question);
  if (!wantsEarlier && !wantsLater) return undefined;
  const options = questionOptions(question);
  if (!options) return undefined;
  const mentions = options.map((o) => answer.toLowerCase().includes(o.toLowerCase()));
  if (mentions[0] === mentions[1]) return undefined;
  const chosen = mentions[0] ? options[0] : options[1];
  const years = options.map((option) => firstYear(option, view));
  if (years.some((y) => y === undefined) || years[0]!.year === years[1]!.year) return undefined;
  const earlier = years[0]!.year < years[1]!.year ? options[0] : options[1];
  const later = earlier === options[0] ? options[1] : options[0];
  return { chosen, expected: wantsEarlier ? earlier : later, passageIds: years.map((y) => y!.passage) };
}

/** The first year stated in the passage that best speaks about `option`. */
function firstYear(option: string, view: SourceView): { year: number; passage: number } | undefined {
  const head = option.split(/\s+/).find((w) => /^\p{Lu}/u.test(w))?.toLowerCase() ?? option.toLowerCase();
  for (const passage of retrieve(view, [{ text: option, weight: 1 }], 4)) {
    if (!passage.text.toLowerCase().includes(head)) continue;
    const year = passage.quantities.map((q) => (q.kind === 'date' ? q.raw : q.kind === 'count' && Number.isInteger(q.raw) && q.raw >= 1000 && q.raw <= 2100 ? q.raw : 0)).find((y) => y > 0);
    if (year) return { year, passage: passage.id };
  }
  return undefined;
}
