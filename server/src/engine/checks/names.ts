// Names: capitalised words the question does not already give must occur in the sources (else
// `name_absent`) and with the claim's subject, in a passage that also holds another of the claim's
// words (else `name_unbound`, a weaker sign: documents name their company or product in headings
// and other sentences); a name made of the sources' words
// that they never give as a name ("Harbour Bridge Museum" where they speak of "a museum by the
// harbour bridge") is coined by the claim.
import { definitelyMentioned, opensWithPronoun } from '../evidence/coreference.js';
import type { ReadPassage } from '../evidence/retrieval.js';
import { claimNames, nameRuns } from '../language/names.js';
import { sameQuantity } from '../language/quantities.js';
import { formBag, formsOf, type Token, tokenize } from '../language/tokens.js';
import { type ClaimCheck, type Signal, signal } from './check.js';

/** What opens a conclusion drawn from the claim before it. */
const concludes = /^(?:so|therefore|thus|hence|which means|that means)\b/i;

export const namesCheck: ClaimCheck = {
  name: 'names',
  kinds: { name_absent: 'unsupported', name_unbound: 'unsupported', name_coined: 'unsupported' },
  run(claim) {
    const { tokens, names, candidates, bound, boundBag, bare, context } = claim;
    const signals: Signal[] = [];
    // Not the name's own head noun: "club" of "the Tarnby Chess club" is part of the name.
    const otherWords = tokens.filter(
      (t, i) => t.content && !names.includes(t) && !names.includes(tokens[i - 1]!) && !names.includes(tokens[i + 1]!),
    );
    // A pronoun on either side carries the subject of what comes before it: "It crosses Lake Vessen" of
    // the ferry the question asks about, against "It sails across Lake Vessen" after a sentence on the ferry.
    const carried = opensWithPronoun.test(claim.text)
      ? tokenize(claim.previous ?? context.question).filter((t) => t.content && !names.includes(t))
      : [];
    const subjectWords = [...otherWords, ...carried];
    // A table row's value the claim gives speaks of its column's header and its row's label ("$750" under "Courtyard Room").
    const rowBags = new Map<number, Set<string>>();
    const rowBag = (c: ReadPassage): Set<string> => {
      let bag = rowBags.get(c.id);
      if (!bag) {
        const labels = c.cells
          .filter((cell) =>
            c.quantities.some((q) => q.start >= cell.start && q.end <= cell.end && claim.quantities.some((o) => sameQuantity(o, q))),
          )
          .flatMap((cell) => [...cell.labels]);
        bag = labels.length > 0 ? new Set([...c.bag, ...labels]) : c.bag;
        rowBags.set(c.id, bag);
      }
      return bag;
    };
    // A record's field lines speak of one thing ("Booking reference: …" / "Arrival: …"): each line's words are the others' subject.
    const recordBags = new Map<number, Set<string>>();
    const recordBag = (record: number[]): Set<string> => {
      let bag = recordBags.get(record[0]!);
      if (!bag) {
        bag = new Set(record.flatMap((id) => [...context.view.read(id, 0).bag]));
        recordBags.set(record[0]!, bag);
      }
      return bag;
    };
    const withAntecedent = (c: ReadPassage): Set<string> => {
      const record = context.view.recordOf(c.id);
      if (record.length > 0) return recordBag(record);
      const before = c.id > 0 ? context.view.index.passages[c.id - 1] : undefined;
      if (!opensWithPronoun.test(c.text) || !before || before.source !== c.source) return rowBag(c);
      return new Set([...c.bag, ...context.view.read(c.id - 1, 0).bag]);
    };
    // A section's heading ("Members' Evenings", "Can I bring a guest?") names what the passages under it speak of.
    const headingBag = (c: ReadPassage): Set<string> => {
      const heading = context.view.headingOf(c.id);
      return heading === undefined ? new Set() : context.view.read(heading, 0).bag;
    };
    const withSubject = (t: Token): boolean =>
      bare ||
      otherWords.length === 0 ||
      candidates.some((c) => {
        const heading = headingBag(c);
        if (!formsOf(t).some((f) => rowBag(c).has(f) || heading.has(f))) return false;
        const bag = withAntecedent(c);
        return subjectWords.some((o) => o.stem !== t.stem && formsOf(o).some((f) => bag.has(f) || heading.has(f)));
      });
    // "the Pellow Viaduct" where the passage says "the viaduct" and the sources name the Pellow Viaduct elsewhere.
    const definite = new Set(
      nameRuns(tokens)
        .filter((run) => definitelyMentioned(tokens, run, bound, context.view))
        .flatMap(([s, e]) => tokens.slice(s, e)),
    );
    const missing = names.filter(
      (t) =>
        !definite.has(t) &&
        (!withSubject(t) ||
          (!formsOf(t).some((f) => boundBag.has(f) || bound.some((c) => rowBag(c).has(f) || headingBag(c).has(f))) &&
            !(bare && context.view.mentions(t.text)))),
    );
    const absent = missing.filter((t) => !context.view.mentions(t.text));
    // The issuer's name (the letterhead's) speaks for every passage: "Norrvik Air isn't liable…" of a rule
    // its own baggage rules state without naming it.
    // A conclusion ("so the Loft Hall costs $850 more") speaks of the names of the claim it follows from, which
    // answers for their binding.
    const premise = concludes.test(claim.text) && claim.previous ? formBag(tokenize(claim.previous)) : undefined;
    const unbound = missing.filter(
      (t) => !absent.includes(t) && !context.view.issuedBy(t.text) && !formsOf(t).some((f) => premise?.has(f)),
    );
    if (absent.length > 0)
      signals.push(signal('name_absent', 'unsupported', `The sources never mention ${absent.map((t) => t.text).join(' ')}.`));
    if (unbound.length > 0)
      signals.push(signal('name_unbound', 'unsupported', `The sources do not mention ${unbound.map((t) => t.text).join(' ')} here.`));
    if (bare) return signals;
    const coined = claimNames(tokens).find((name) => {
      const words = name.split(' ');
      return (
        words.length >= 2 &&
        words.some((w) => !context.questionBag.has(w.toLowerCase())) &&
        words.every((w) => context.view.contains(w)) &&
        !context.view.mentionsExactly(name) &&
        !context.question.includes(name)
      );
    });
    if (coined) signals.push(signal('name_coined', 'unsupported', `The sources never give the name "${coined}".`));
    return signals;
  },
};
