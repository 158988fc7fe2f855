"""The training corpus: generated in code, byte for byte reproducible from a seed.

Word-level tokens (whitespace-separated), one document per line.  Document kinds span a range of
predictability, so that draft acceptance spans a range too:

=========  ==========================================  ===================================
kind       example                                     predictability
=========  ==========================================  ===================================
letters    ``letters : h i j k l ...`` (a..z cyclic)   the whole continuation is determined
count      ``count : 31 32 33 ...`` (0..99 cyclic)     determined
days       ``days : friday saturday sunday ...``       determined
months     ``months : march april may ...``            determined
table      ``table 6 : 6 12 18 24 ...`` (up to x12)    determined, but must be memorised
story      ``story : the red fox sees a bird . ...``   template fixed, words random
words      ``words : lamp river seven ...``            random words: unpredictable
=========  ==========================================  ===================================

Only Python's ``random.Random(seed)`` (whose ``random``/``choice``/``randrange`` sequences are stable
across Python versions) and fixed word lists are used; the vocabulary is built from the word lists
in a fixed order, so token ids never depend on the sample.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

import torch

SPECIALS = ["<pad>", "<mask>", "<unk>", "\n"]
MARKERS = ["letters", "count", "days", "months", "table", "story", "words", ":", ".", "x"]
LETTERS = [chr(c) for c in range(ord("a"), ord("z") + 1)]
NUMBERS = [str(i) for i in range(0, 145)]  # up to 12*12
DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
MONTHS = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
]
DET = ["the", "a"]
ADJ = ["red", "old", "small", "big", "quiet", "green", "happy", "dark"]
NOUN = ["fox", "bird", "dog", "cat", "house", "river", "tree", "boat", "lamp", "child", "horse", "road"]
VERB = ["sees", "finds", "follows", "helps", "watches", "likes", "carries", "hears"]
PREP = ["near", "under", "behind", "to", "from"]
VOCAB = list(
    dict.fromkeys(SPECIALS + MARKERS + LETTERS + NUMBERS + DAYS + MONTHS + DET + ADJ + NOUN + VERB + PREP)
)
KINDS = {"letters": 3, "count": 3, "days": 2, "months": 2, "table": 2, "story": 3, "words": 1}  # weights
PREDICTABLE = ("letters", "count", "days", "months")


@dataclass(frozen=True)
class Tokenizer:
    """Whitespace word tokenizer over the fixed ``VOCAB`` (newline is its own token)."""

    vocab: tuple[str, ...] = tuple(VOCAB)

    @property
    def ids(self) -> dict[str, int]:
        return {w: i for i, w in enumerate(self.vocab)}

    @property
    def mask_id(self) -> int:
        return self.vocab.index("<mask>")

    def encode(self, text: str) -> list[int]:
        ids, unk = self.ids, self.vocab.index("<unk>")
        return [ids.get(w, unk) for w in text.replace("\n", " \n ").split(" ") if w]

    def decode(self, ids) -> str:
        text = " ".join(self.vocab[int(i)] for i in ids)
        return text.replace(" \n ", "\n").replace(" \n", "\n").replace("\n ", "\n")


def _cycle(seq, start, n):
    return [seq[(start + i) % len(seq)] for i in range(n)]


def make_document(rng: random.Random, kind: str, min_len: int = 12, max_len: int = 60) -> str:
    """One document of ``kind`` with a body of ``min_len..max_len`` tokens."""
    n = rng.randrange(min_len, max_len + 1)
    if kind == "letters":
        body = _cycle(LETTERS, rng.randrange(26), n)
    elif kind == "count":
        body = _cycle(NUMBERS[:100], rng.randrange(100), n)
    elif kind == "days":
        body = _cycle(DAYS, rng.randrange(7), n)
    elif kind == "months":
        body = _cycle(MONTHS, rng.randrange(12), n)
    elif kind == "table":
        t = rng.randrange(2, 13)
        return f"table {t} : " + " ".join(str(t * i) for i in range(1, 13))
    elif kind == "story":
        body = []
        while len(body) < n:
            body += [
                rng.choice(DET),
                rng.choice(ADJ),
                rng.choice(NOUN),
                rng.choice(VERB),
                rng.choice(DET),
                rng.choice(NOUN),
            ]
            if rng.random() < 0.5:
                body += [rng.choice(PREP), rng.choice(DET), rng.choice(NOUN)]
            body.append(".")
    elif kind == "words":
        body = [rng.choice(NOUN + ADJ + VERB + DAYS + MONTHS) for _ in range(n)]
    else:
        raise ValueError(f"unknown document kind {kind!r}; known: {sorted(KINDS)}")
    return f"{kind} : " + " ".join(body)


def make_corpus(seed: int = 0, n_docs: int = 20000) -> str:
    """The corpus text: ``n_docs`` documents, one per line, kinds drawn by ``KINDS`` weights."""
    rng = random.Random(seed)
    kinds = [k for k, w in KINDS.items() for _ in range(w)]
    return "\n".join(make_document(rng, rng.choice(kinds)) for _ in range(n_docs)) + "\n"


def corpus_sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def corpus_tensor(text: str, tok: Tokenizer | None = None) -> torch.Tensor:
    return torch.tensor((tok or Tokenizer()).encode(text), dtype=torch.long)


def prompts(seed: int = 1, per_kind: int = 2) -> list[dict]:
    """Measurement prompts: ``per_kind`` per document kind, drawn with their own seed (not training
    documents); each is a kind header plus the first few body tokens.

    Returns dicts ``{"prompt_id", "kind", "predictable", "text"}``.
    """
    rng = random.Random(seed)
    out = []
    for kind in KINDS:
        for j in range(per_kind):
            doc = make_document(rng, kind, min_len=40, max_len=40).split(" ")
            text = " ".join(doc[: 2 + 4 + (2 if kind == "table" else 0)])
            out.append(
                {"prompt_id": f"{kind}-{j}", "kind": kind, "predictable": kind in PREDICTABLE, "text": text}
            )
    return out
