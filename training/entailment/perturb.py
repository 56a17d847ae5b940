"""Pairs made by rule from the written documents' own sentences, beside the pairs their authors wrote.

Each sentence of a document gives a premise (the sentence, sometimes with its neighbour) and hypotheses made by
general English edits: the sentence itself or a clause of it (entailment), a figure changed, a polarity flipped, a
bound reversed or a name swapped for another of the document's (contradiction), a condition dropped, or a sentence
from elsewhere in the document or from another document (neutral). Nothing here knows any document's words.
"""

import re

SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"(])")
NUMBER = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\w])")
# Auxiliaries and modals that take "not" after them; "can" becomes "cannot".
AUXILIARY = re.compile(r"\b(must|may|will|should|is|are|was|were|can|has been|have been|shall)\b(?! not\b)")
NEGATED = re.compile(r"\b(must|may|will|should|is|are|was|were|shall|do|does|did) not\b|\bcannot\b|\b(isn|aren|doesn|don|won)'t\b")
UN_NEGATE = {"cannot": "can", "isn't": "is", "aren't": "are", "doesn't": "does", "don't": "do", "won't": "will"}
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


def figure_changed(sentence, rng):
    found = list(NUMBER.finditer(sentence))
    if not found:
        return None
    m = rng.choice(found)
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
    replacement = "cannot" if m.group(1) == "can" else m.group(1) + " not"
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
        for edit, label, kind in (
            (figure_changed(sentence, rng), "contradiction", "generated_figure"),
            (polarity_flipped(sentence, rng), "contradiction", "generated_polarity"),
            (bound_reversed(sentence, rng), "contradiction", "generated_bound"),
            (name_swapped(sentence, names, rng), "contradiction", "generated_name"),
            (condition_dropped(sentence, rng), "neutral", "generated_condition"),
        ):
            if edit and edit != sentence:
                made.append((edit, label, kind))
        others = [p for j, p in enumerate(parts) if abs(j - i) > 1]
        if others:
            made.append((rng.choice(others), "neutral", "generated_elsewhere"))
        rng.shuffle(made)
        pairs += [(premise, hypothesis, label, kind) for hypothesis, label, kind in made[:per_sentence]]
    return pairs


def other_document_pairs(document, others, rng, count):
    """Neutral pairs whose claim comes from another document: a passage says nothing of a topic it never mentions,
    however the claim is worded."""
    parts, pairs = sentences(document), []
    for _ in range(count if parts and others else 0):
        pairs.append((rng.choice(parts), rng.choice(sentences(rng.choice(others)) or ["Nothing."]), "neutral", "generated_other_document"))
    return pairs
