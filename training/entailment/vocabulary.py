"""The model's vocabulary and tokenizer, in the form the server's tokenizer library reads (tokenizer.json).

The server encodes text with @huggingface/tokenizers (BertNormalizer, BertPreTokenizer, WordPiece); `encode` here does
the same steps, so the ids the model trains on are the ids it is given in production (a test in the server compares
the two on a fixture this script writes).
"""

import unicodedata

PAD, UNK, SEP = "[PAD]", "[UNK]", "[SEP]"
SPECIALS = [PAD, UNK, SEP]

# Features every token id carries beside its word vector (fixed, not learnt): the model reads figures, negations and
# quantifiers from them, whatever the words around them.
FEATURES = ["is_number", "number_magnitude", "is_negation", "is_quantifier", "has_no_vector"]


def _is_punctuation(char):
    code = ord(char)
    if 33 <= code <= 47 or 58 <= code <= 64 or 91 <= code <= 96 or 123 <= code <= 126:
        return True
    return unicodedata.category(char).startswith("P")


def normalize(text):
    """BertNormalizer with lowercase on and accents stripped (clean_text and Chinese characters off)."""
    text = text.lower()
    text = unicodedata.normalize("NFD", text)
    return "".join(c for c in text if unicodedata.category(c) != "Mn")


def pre_tokenize(text):
    """BertPreTokenizer: runs of characters that are neither space nor punctuation, and each punctuation mark."""
    words, current = [], []
    for char in text.strip():
        if char.isspace() or _is_punctuation(char):
            if current:
                words.append("".join(current))
                current = []
            if not char.isspace():
                words.append(char)
        else:
            current.append(char)
    if current:
        words.append("".join(current))
    return words


class Vocabulary:
    def __init__(self, tokens, vectors_for, recipe_tokens):
        """tokens: the vocabulary in id order; vectors_for: word -> vector (GloVe words only)."""
        self.tokens = tokens
        self.ids = {t: i for i, t in enumerate(tokens)}
        self.vectors_for = vectors_for
        self.negations = set(recipe_tokens["negations"])
        self.quantifiers = set(recipe_tokens["quantifiers"])

    def word_ids(self, word):
        """WordPiece with at most 100 characters per word: greedy longest pieces, or [UNK] for the whole word."""
        if len(word) > 100:
            return [self.ids[UNK]]
        pieces, start = [], 0
        while start < len(word):
            end, found = len(word), None
            while start < end:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                if piece in self.ids:
                    found = piece
                    break
                end -= 1
            if found is None:
                return [self.ids[UNK]]
            pieces.append(self.ids[found])
            start = end
        return pieces

    def encode(self, text):
        return [i for word in pre_tokenize(normalize(text)) for i in self.word_ids(word)]

    def features(self, token):
        bare = token[2:] if token.startswith("##") else token
        number = bare.isdigit()
        magnitude = min(1.0, len(bare.lstrip("0") or "0") / 5) if number else 0.0
        return [
            1.0 if number else 0.0,
            magnitude,
            1.0 if token in self.negations else 0.0,
            1.0 if token in self.quantifiers else 0.0,
            0.0 if token in self.vectors_for else 1.0,
        ]


def single_token(word):
    """Whether a GloVe word comes through the pre-tokenizer as itself (no inner punctuation or space)."""
    return pre_tokenize(normalize(word)) == [word]


def build_vocabulary(glove_words, glove_vectors, training_words, recipe_tokens, top_words):
    """Specials, then GloVe's most frequent words, then training words GloVe has, then numbers and pieces."""
    seen = set(SPECIALS)
    tokens = list(SPECIALS)

    def add(token):
        if token not in seen:
            seen.add(token)
            tokens.append(token)

    for word in glove_words[:top_words]:
        if single_token(word):
            add(word)
    for word in sorted(training_words):
        if word in glove_vectors and single_token(word):
            add(word)
    for n in range(recipe_tokens["numbers_up_to"] + 1):
        add(str(n))
    for word in recipe_tokens["negations"] + recipe_tokens["quantifiers"]:
        add(word)
    for piece in recipe_tokens["pieces"]:
        add("##" + piece)
    vectors_for = {t: glove_vectors[t] for t in tokens if t in glove_vectors and t not in SPECIALS}
    return Vocabulary(tokens, vectors_for, recipe_tokens)


def tokenizer_json(vocabulary, max_length):
    """tokenizer.json and tokenizer_config.json for @huggingface/tokenizers: pair = A [SEP] B, B's type id 1."""
    added = [
        {"id": vocabulary.ids[t], "content": t, "single_word": False, "lstrip": False, "rstrip": False, "normalized": False, "special": True}
        for t in SPECIALS
    ]
    sep_id = vocabulary.ids[SEP]
    tokenizer = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": {"type": "BertNormalizer", "clean_text": False, "handle_chinese_chars": False, "strip_accents": None, "lowercase": True},
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "post_processor": {
            "type": "TemplateProcessing",
            "single": [{"Sequence": {"id": "A", "type_id": 0}}],
            "pair": [
                {"Sequence": {"id": "A", "type_id": 0}},
                {"SpecialToken": {"id": SEP, "type_id": 0}},
                {"Sequence": {"id": "B", "type_id": 1}},
            ],
            "special_tokens": {SEP: {"id": SEP, "ids": [sep_id], "tokens": [SEP]}},
        },
        "decoder": None,
        "model": {
            "type": "WordPiece",
            "unk_token": UNK,
            "continuing_subword_prefix": "##",
            "max_input_chars_per_word": 100,
            "vocab": vocabulary.ids,
        },
    }
    config = {"model_max_length": max_length, "pad_token": PAD, "unk_token": UNK, "sep_token": SEP, "do_lower_case": True}
    return tokenizer, config

