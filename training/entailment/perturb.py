"""Pairs made by rule from the written documents' own sentences, beside the pairs their authors wrote.

Each sentence of a document gives a premise (the sentence, sometimes with its neighbour) and hypotheses made by
general English edits: the sentence itself, a clause of it or a rewording of it (entailment; rewordings.py), a figure
changed, a polarity flipped, a bound reversed or a name swapped for another of the document's (contradiction), a
condition dropped, a clause of another sentence joined on, another fact of the document that shares words with it, or
a sentence from elsewhere in the document or from another document (neutral). Nothing here knows any document's words.
"""

import re

from rewordings import reworded

SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"(])")
NUMBER = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\w])")
# Auxiliaries and modals that take "not" after them; "can" becomes "cannot".
AUXILIARY = re.compile(r"\b(must|may|will|should|is|are|was|were|can|has been|have been|shall)\b(?! not\b)")
NEGATED = re.compile(r"\b(must|may|will|should|is|are|was|were|shall|do|does|did) not\b|\bcannot\b|\b(isn|aren|doesn|don|won|can)'t\b")
UN_NEGATE = {"cannot": "can", "can't": "can", "isn't": "is", "aren't": "are", "doesn't": "does", "don't": "do", "won't": "will"}
CONTRACTED = {"can": "can't", "is": "isn't", "are": "aren't", "was": "wasn't", "were": "weren't", "will": "won't", "must": "mustn't",
              "should": "shouldn't", "has been": "hasn't been", "have been": "haven't been"}
BOUNDS = [("at least", "at most"), ("at most", "at least"), ("more than", "less than"), ("less than", "more than"),
          ("before", "after"), ("after", "before"), ("minimum", "maximum"), ("maximum", "minimum"),
          ("earlier", "later"), ("later", "earlier"), ("increase", "decrease"), ("decrease", "increase")]
CONDITION = re.compile(r",?\s*\b(only if|unless|except|provided that|as long as|if|when|but only|only for|only on|only to|for members|with a)\b[^.;]*")
CAPITALISED = re.compile(r"(?<=[a-z,;] )([A-Z][a-z]+(?: [A-Z][a-z]+)*)")


def sentences(document):
    parts = []
    for paragraph in document.split("\n"):
        parts += [s.strip() for s in SENTENCE.split(paragraph) if len(s.split()) >= 5]
    return parts


def _changed_number(match, rng):
    text = match.group(1)
    value = int(text.replace(",", ""))
    choices = [value + 1, value + 2, value * 2, max(0, value - 1), value + 5, value * 3, value + 10]
    choices = [c for c in choices if c != value]
    new = rng.choice(choices)
    return f"{new:,}" if "," in text else str(new)


NUMBER_WORDS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
NUMBER_WORD = re.compile(r"\b(" + "|".join(NUMBER_WORDS[1:]) + r")\b", re.I)


def figure_changed(sentence, rng):
    """A figure in digits, or a number word from two to twelve, changed for another."""
    found = list(NUMBER.finditer(sentence)) + list(NUMBER_WORD.finditer(sentence))
    if not found:
        return None
    m = rng.choice(found)
    if m.re is NUMBER_WORD:
        word = m.group(1)
        new = rng.choice([w for w in NUMBER_WORDS if w != word.lower()])
        return sentence[: m.start(1)] + (new.capitalize() if word[0].isupper() else new) + sentence[m.end(1) :]
    return sentence[: m.start(1)] + _changed_number(m, rng) + sentence[m.end(1) :]


def polarity_flipped(sentence, rng):
    negated = NEGATED.search(sentence)
    if negated:
        word = negated.group(0)
        plain = UN_NEGATE.get(word, word.replace(" not", ""))
        return sentence[: negated.start()] + plain + sentence[negated.end() :]
    found = list(AUXILIARY.finditer(sentence))
    if not found:
        return None
    m = found[0]
    word = m.group(1)
    # Answers negate in contractions as often as in full words.
    if rng.random() < 0.5 and word in CONTRACTED:
        replacement = CONTRACTED[word]
    else:
        replacement = "cannot" if word == "can" else word + " not"
    return sentence[: m.start()] + replacement + sentence[m.end() :]


def bound_reversed(sentence, rng):
    for old, new in BOUNDS:
        at = re.search(rf"\b{old}\b", sentence)
        if at:
            return sentence[: at.start()] + new + sentence[at.end() :]
    return None


def condition_dropped(sentence, rng):
    m = CONDITION.search(sentence)
    if not m or m.start() < 15:
        return None
    rest = sentence[: m.start()].rstrip(" ,")
    return rest + "." if len(rest.split()) >= 4 else None


def name_swapped(sentence, names, rng):
    found = [m for m in CAPITALISED.finditer(sentence)]
    if not found:
        return None
    m = rng.choice(found)
    others = [n for n in names if n not in sentence and m.group(1) not in n]
    if not others:
        return None
    return sentence[: m.start(1)] + rng.choice(others) + sentence[m.end(1) :]


def first_clause(sentence):
    """The part before a semicolon or ", and", when it reads as a sentence of its own."""
    for cut in ("; ", ", and "):
        at = sentence.find(cut)
        if at >= 25 and not CONDITION.search(sentence[at:]):
            return sentence[:at].rstrip(",") + "."
    return None


def with_addition(sentence, other):
    """The sentence with a clause of another sentence joined on: true of the document, perhaps, but not of the premise."""
    added = (first_clause(other) or other).rstrip(".")
    return sentence.rstrip(".") + ", and " + added[:1].lower() + added[1:] + "."


WORD = re.compile(r"[a-z]{4,}")


def related(sentence, others):
    """Other sentences of the document that share two or more longer words with this one: facts beside it, which an
    answer's claim often shares words with, and which neither state nor deny it."""
    own = set(WORD.findall(sentence.lower()))
    return [o for o in others if len(own & set(WORD.findall(o.lower()))) >= 2]


def generated_pairs(document, rng, per_sentence):
    """(premise, hypothesis, label, kind) made by rule from one document."""
    parts = sentences(document)
    names = sorted({m.group(1) for s in parts for m in CAPITALISED.finditer(s)})
    pairs = []
    for i, sentence in enumerate(parts):
        premise = sentence
        if rng.random() < 0.4 and i + 1 < len(parts):
            premise = sentence + " " + parts[i + 1] if rng.random() < 0.5 else parts[i - 1] + " " + sentence if i > 0 else sentence
        made = []
        clause = first_clause(sentence)
        made.append((clause or sentence, "entailment", "generated_copy"))
        # The meaning-changing edits are made on a reworded sentence half the time, so that a surface difference
        # alone never tells the label.
        kept = reworded(sentence, rng)
        base = kept if kept and rng.random() < 0.5 else sentence
        for edit, label, kind in (
            (figure_changed(base, rng), "contradiction", "generated_figure"),
            (polarity_flipped(base, rng), "contradiction", "generated_polarity"),
            (bound_reversed(base, rng), "contradiction", "generated_bound"),
            (name_swapped(base, names, rng), "contradiction", "generated_name"),
            (condition_dropped(base, rng), "neutral", "generated_condition"),
        ):
            if edit and edit != base:
                made.append((edit, label, kind))
        others = [p for j, p in enumerate(parts) if abs(j - i) > 1]
        if others:
            made.append((rng.choice(others), "neutral", "generated_elsewhere"))
            made.append((with_addition(base, rng.choice(others)), "neutral", "generated_addition"))
        rng.shuffle(made)
        # Always: the rewording (entailed), a changed figure (contradicted) and a related fact of the same document
        # (neutral), so that sharing words with a passage tells nothing by itself and a changed figure always counts.
        fixed = []
        if kept:
            fixed.append((kept, "entailment", "generated_reworded"))
        figure = figure_changed(base, rng)
        if figure and figure != base:
            fixed.append((figure, "contradiction", "generated_figure"))
        near = related(sentence, others)
        if near:
            fact = rng.choice(near)
            fixed.append((reworded(fact, rng) or fact, "neutral", "generated_related"))
        pairs += [(premise, hypothesis, label, kind) for hypothesis, label, kind in fixed + made[:per_sentence]]
    return pairs


def edited_hypotheses(rows, others, rng):
    """The written entailed hypotheses, which say the premise's content in their own words, with a figure changed or a
    polarity flipped (contradiction) or a clause of another sentence joined on (neutral): so that a changed figure
    or negation is read in a reworded claim, not only in a near copy of the premise."""
    pairs = []
    for premise, hypothesis, label, kind in rows:
        if label != "entailment":
            continue
        for edit, new_label, new_kind in (
            (figure_changed(hypothesis, rng), "contradiction", "edited_figure"),
            (polarity_flipped(hypothesis, rng), "contradiction", "edited_polarity"),
            (with_addition(hypothesis, rng.choice(others)) if others and rng.random() < 0.3 else None, "neutral", "edited_addition"),
        ):
            if edit and edit != hypothesis:
                pairs.append((premise, edit, new_label, new_kind))
    return pairs


def other_document_pairs(document, others, rng, count):
    """Neutral pairs whose claim comes from another document: a passage says nothing of a topic it never mentions,
    however the claim is worded. For a premise with a figure, the claim has one too half the time ("The gym opens at
    6 am" against "The reading room opens at 9 am"): a figure of another subject neither states nor denies it."""
    parts, pairs = sentences(document), []
    for _ in range(count if parts and others else 0):
        premise = rng.choice(parts)
        claims = sentences(rng.choice(others)) or ["Nothing."]
        with_figures = [c for c in claims if NUMBER.search(c)]
        if NUMBER.search(premise) and with_figures and rng.random() < 0.5:
            claims = with_figures
        pairs.append((premise, rng.choice(claims), "neutral", "generated_other_document"))
    return pairs
