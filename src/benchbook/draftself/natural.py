"""A natural-text corpus for the draft-self model: English prose and code from a pinned source archive.

Nothing here is constructed to be predictable (unlike ``data.make_corpus``): the text is the Markdown
documentation and the C/C++/Python sources of the pinned llama.cpp source archive (the sdist whose
sha256 the toolchain module pins), read straight from the ``.tar.gz`` with no network.

* Selection (``select``): regular files whose name ends in ``SUFFIXES``, not under ``vendor/``, at most
  ``MAX_FILE_BYTES``, decodable as UTF-8; sorted by their path inside the archive.
* Split by file (``split_of``): a file is held out when the first byte of sha256(path) is below
  ``held_out_per_256`` (default 26, about 10%), so a held-out file's text never reaches training, and
  the split depends on the path alone (not on the order or the other files).
* Corpus sha256 (``Corpus.sha256``): sha256 of the sorted lines ``<split> <sha256(text)> <path>``, so
  that it pins the archive's bytes, the selection and the split at once.
* Tokenizer (``train_tokenizer``): byte-level BPE trained with the ``tokenizers`` library on the train
  files only; saved as its JSON (``tokenizer_sha256`` = sha256 of that JSON's UTF-8 bytes).
* Prompts (``prompts``): from held-out files only, ``per_class`` prose (``.md``) and ``per_class`` code
  files in sha256(path) order, each the ``prompt_tokens`` tokens that start at the first line break
  after a third of the file.

``tokenizers`` is imported inside the functions that need it: the site builds without it.
"""

from __future__ import annotations

import hashlib
import tarfile
from dataclasses import dataclass, field
from pathlib import Path

#: Suffixes of the files read (prose: ``.md``; code: the rest).
SUFFIXES = (".md", ".py", ".c", ".cpp", ".h", ".hpp", ".cu", ".cuh")
#: Files larger than this are left out (generated tables, single-file vendored libraries).
MAX_FILE_BYTES = 300_000
#: Special tokens of the tokenizer, in id order: padding, the block-draft MASK, unknown.
SPECIALS = ("<pad>", "<mask>", "<unk>")


class CorpusError(ValueError):
    """The archive is missing, unreadable or yields no usable file; the message names it and the fix."""


@dataclass
class Corpus:
    """The selected files of one archive: ``files`` [(path, split, text)] sorted by path."""

    archive: str
    archive_sha256: str
    files: list[tuple[str, str, str]] = field(default_factory=list)

    def texts(self, split: str) -> list[str]:
        return [t for _, s, t in self.files if s == split]

    def paths(self, split: str) -> list[str]:
        return [p for p, s, _ in self.files if s == split]

    @property
    def sha256(self) -> str:
        lines = sorted(f"{s} {_sha(t.encode('utf-8'))} {p}" for p, s, t in self.files)
        return _sha("\n".join(lines).encode("utf-8"))

    def summary(self) -> dict:
        """Counts and hashes for a record: archive, archive_sha256, corpus_sha256, files and characters
        per split, and the held-out paths (the split itself)."""
        out: dict[str, object] = {
            "archive": self.archive,
            "archive_sha256": self.archive_sha256,
            "corpus_sha256": self.sha256,
        }
        for s in ("train", "held_out"):
            out[f"{s}_files"] = len(self.paths(s))
            out[f"{s}_chars"] = sum(len(t) for t in self.texts(s))
        out["held_out_paths"] = self.paths("held_out")
        return out


def _sha(b: bytes) -> str:
    return hashlib.sha256(b).hexdigest()


def split_of(path: str, held_out_per_256: int = 26) -> str:
    """``held_out`` when the first byte of sha256(path) < ``held_out_per_256``, else ``train``."""
    return "held_out" if hashlib.sha256(path.encode("utf-8")).digest()[0] < held_out_per_256 else "train"


def is_prose(path: str) -> bool:
    return path.endswith(".md")


def select(archive: str | Path, held_out_per_256: int = 26) -> Corpus:
    """Read the selected files of the ``.tar.gz`` ``archive`` (module doc).

    Raises:
        CorpusError: the archive is missing or not a tar.gz, or no file matched.
    """
    path = Path(archive)
    if not path.is_file():
        raise CorpusError(f"{path}: no such archive; fix: carry the pinned llama.cpp sdist (gpu_carry.sh)")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    files = []
    try:
        with tarfile.open(path, "r:gz") as tar:
            for m in tar:
                name = m.name
                if not m.isfile() or not name.endswith(SUFFIXES) or "/vendor/" in f"/{name}":
                    continue
                if m.size > MAX_FILE_BYTES:
                    continue
                fh = tar.extractfile(m)
                if fh is None:
                    continue
                try:
                    text = fh.read().decode("utf-8")
                except UnicodeDecodeError:
                    continue
                if text.strip():
                    files.append((name, split_of(name, held_out_per_256), text))
    except tarfile.TarError as e:
        raise CorpusError(f"{path}: not a readable tar.gz ({e}); fix: carry the sdist file unchanged") from e
    if not files:
        raise CorpusError(f"{path}: no file ending in {SUFFIXES}; fix: use the llama.cpp sdist")
    return Corpus(path.name, digest, sorted(files))


def train_tokenizer(texts: list[str], vocab_size: int = 8192):
    """Byte-level BPE (``tokenizers``) trained on ``texts``; ``SPECIALS`` take ids 0, 1, 2.

    Returns a ``tokenizers.Tokenizer``.  Raises ImportError when ``tokenizers`` is not installed."""
    from tokenizers import (  # type: ignore[import-not-found]  # device image only: not a dependency
        Tokenizer,
        decoders,
        models,
        pre_tokenizers,
        trainers,
    )

    tok = Tokenizer(models.BPE(unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=list(SPECIALS),
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(texts, trainer=trainer)
    return tok


def tokenizer_json(tok) -> str:
    """The tokenizer as its canonical JSON text (what is saved and hashed)."""
    return tok.to_str()


def prompts(
    corpus: Corpus, tok, per_class: int = 6, prompt_tokens: int = 48, min_tokens: int = 160
) -> list[dict]:
    """Measurement prompts from held-out files (module doc): ``per_class`` prose and ``per_class`` code.

    Returns dicts ``{"prompt_id", "kind" ("prose" | "code"), "path", "ids", "text"}``; a file with fewer
    than ``min_tokens`` tokens after its start point is skipped.
    Raises CorpusError when the held-out split has too few usable files of a class.
    """
    held = sorted(
        ((p, t) for p, s, t in corpus.files if s == "held_out"),
        key=lambda pt: hashlib.sha256(pt[0].encode("utf-8")).hexdigest(),
    )
    out: list[dict] = []
    for kind in ("prose", "code"):
        n = 0
        for path, text in held:
            if is_prose(path) != (kind == "prose") or n >= per_class:
                continue
            nl = text.find("\n", len(text) // 3)
            ids = tok.encode(text[nl + 1 :] if nl >= 0 else text).ids
            if len(ids) < min_tokens:
                continue
            head = ids[:prompt_tokens]
            out.append(
                {
                    "prompt_id": f"{kind}-{n}",
                    "kind": kind,
                    "path": path,
                    "ids": head,
                    "text": tok.decode(head),
                }
            )
            n += 1
        if n < per_class:
            raise CorpusError(
                f"{corpus.archive}: {n} held-out {kind} files of >= {min_tokens} tokens, {per_class} wanted; "
                "fix: lower per_class or raise held_out_per_256"
            )
    return out
