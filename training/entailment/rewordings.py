"""Rewordings that keep what a sentence states, as an answer restates a source: a modal, a contraction, a formal
phrase or a time of day said another way, the reader addressed as "you", an aside or a trailing clause left out, the
sentence's number and final stop dropped as the engine's claims drop them.

Without them the rule-made pairs teach a difference detector: every generated contradiction is the sentence with one
small edit and every generated entailment is the sentence itself, so a claim that says the same in other words reads
as contradicted. With them a hypothesis may differ from its premise and still be entailed, and the contradicting edits
are also made on reworded sentences, so that the difference that decides is the one that changes the meaning.
Nothing here knows any document's words: the lists are general English.
"""

import re

# A clause number or bullet before a sentence ("4.2 ", "(b) ", "- ").
ENUMERATOR = re.compile(r"^(?:\d+(?:\.\d+)+\.?|\d+\.|\([a-z0-9]{1,3}\)|[a-z]\)|[-•*])\s+")
# Words that make an aside part of what is claimed: a condition, a limit or a negation inside brackets is kept.
LIMITING = re.compile(r"\b(if|unless|only|except|not|no|never|without|provided|at least|at most|up to|maximum|minimum|under|over)\b", re.I)
ASIDE = re.compile(r"\s*\(([^()]{1,80})\)")
TRAILING_CLAUSE = re.compile(r"(?:,? and also |; also |, and )([^.;]*)\.?$")
# Words and phrases that say the same thing: modals, contractions, a few formal phrases.
SAME_PHRASE = [
    (r"\bmay\b", "can"),
    (r"\bcannot\b", "can't"),
    (r"\bcan't\b", "cannot"),
    (r"\bdo not\b", "don't"),
    (r"\bdoes not\b", "doesn't"),
    (r"\bwill not\b", "won't"),
    (r"\bis not\b", "isn't"),
    (r"\bare not\b", "aren't"),
    (r"\bshall\b", "will"),
    (r"\bper\b", "a"),
    (r"\bmust not\b", "can't"),
    (r"\bmay not\b", "can't"),
    (r"\bis required to\b", "has to"),
    (r"\bare required to\b", "have to"),
    (r"\bless\b(?= (?:a|an|the|any)\b)", "minus"),
    (r"\bapproximately\b", "about"),
    (r"\bprior to\b", "before"),
]
# A time of day on the 24-hour clock said as answers say it ("18:00" → "6pm", "6 p.m.").
CLOCK = re.compile(r"\b([01]?\d|2[0-3]):([0-5]\d)\b")
# People a rule is written for, whom an answer addresses as "you" ("Members may..." → "You may...").
PERSON = (
    r"(?:customer|member|tenant|guest|passenger|employee|student|patient|user|visitor|renter|policyholder|borrower|"
    r"subscriber|traveller|traveler|applicant|client|buyer|participant|resident|holder|driver|hirer)s?"
)
ADDRESSEE = re.compile(rf"^(?:(?:The|A|An|Each|Every|All) )?{PERSON}(?= (?:may|must|can|cannot|will|should|shall|need to)\b)", re.I)


def without_enumerator(sentence):
    stripped = ENUMERATOR.sub("", sentence)
    return stripped[:1].upper() + stripped[1:] if stripped != sentence else None


def without_aside(sentence, rng):
    asides = [m for m in ASIDE.finditer(sentence) if not LIMITING.search(m.group(1))]
    if not asides:
        return None
    m = rng.choice(asides)
    return sentence[: m.start()] + sentence[m.end() :]


def without_trailing_clause(sentence):
    """The sentence without a last "and also ..." or ", and ..." clause, unless that clause limits what comes before."""
    m = TRAILING_CLAUSE.search(sentence)
    if not m or m.start() < 20 or LIMITING.search(m.group(1)) or len(sentence[: m.start()].split()) < 4:
        return None
    return sentence[: m.start()].rstrip(" ,") + "."


def phrase_said_otherwise(sentence, rng):
    found = [(pattern, new) for pattern, new in SAME_PHRASE if re.search(pattern, sentence)]
    if not found:
        return None
    pattern, new = rng.choice(found)
    return re.sub(pattern, new, sentence, count=1)


def clock_said_otherwise(sentence, rng):
    m = CLOCK.search(sentence)
    if not m:
        return None
    hour, minute = int(m.group(1)), m.group(2)
    if hour == 0 and minute == "00":
        spoken = "midnight"
    elif hour == 12 and minute == "00":
        spoken = "noon"
    else:
        suffix = rng.choice(["am", " a.m."]) if hour < 12 else rng.choice(["pm", " p.m."])
        twelve = hour % 12 or 12
        spoken = f"{twelve}{'' if minute == '00' else ':' + minute}{suffix}"
    rest = sentence[m.end() :]
    # "p.m." ends the sentence itself.
    return sentence[: m.start()] + spoken + (rest[1:] if spoken.endswith(".") and rest.startswith(".") else rest)


def addressed_to_reader(sentence):
    m = ADDRESSEE.search(sentence)
    if not m:
        return None
    rest = re.sub(r"\bthemselves\b", "yourself", re.sub(r"\btheir\b", "your", sentence[m.end() :]))
    return "You" + rest


def as_claim(sentence):
    """As the engine's claims read: no final stop."""
    return sentence[:-1] if sentence.endswith(".") else None


EDITS = [
    lambda s, rng: without_enumerator(s),
    without_aside,
    lambda s, rng: without_trailing_clause(s),
    phrase_said_otherwise,
    clock_said_otherwise,
    lambda s, rng: addressed_to_reader(s),
]


def reworded(sentence, rng):
    """The sentence with one to three rewordings that keep its meaning (in random order), or None when none applies."""
    edits = EDITS[:]
    rng.shuffle(edits)
    wanted, out, applied = rng.randint(1, 3), sentence, 0
    for edit in edits:
        if applied >= wanted:
            break
        changed = edit(out, rng)
        if changed and changed != out:
            out, applied = changed, applied + 1
    if rng.random() < 0.5:
        out = as_claim(out) or out
    return out if out != sentence else None
