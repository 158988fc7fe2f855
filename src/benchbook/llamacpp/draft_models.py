"""Draft models for speculative decoding: a layer-truncated copy of the target, and vocabulary checks.

``truncate_layers`` keeps the first L transformer blocks of a GGUF model plus everything outside the
blocks (token embedding, final norm, output head — SmolLM2 ties its head to ``token_embd.weight``,
so there is no separate ``output.weight``) and sets ``<arch>.block_count = L``.  Tensors are copied
byte for byte (same quantization), metadata copied unchanged otherwise; written with the ``gguf``
package (``GGUFReader`` / ``GGUFWriter``, as in gguf-py ``scripts/gguf_new_metadata.py``).  The
result is a genuinely cheaper draft: a forward pass costs about L/30 of the blocks' work, with the
same (shared) embedding/head cost.  It is an early-exit model without any retraining, so its
acceptance is whatever the first L blocks plus the final norm/head happen to predict.

``check_vocab`` compares the tokenizer of a draft against the target before any run; llama-server
would otherwise refuse at start (``common_speculative_are_compatible`` in
``common/speculative.cpp``) or, worse, the draft would propose ids meaning other strings.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from pathlib import Path

import gguf

from benchbook import atomicfile

from ..identity import truncated_id
from ..paths import cache_dir
from .fetch import sha256_file
from .ggufmeta import read_kv

#: The GGUF keys of a vocabulary fingerprint (``vocab_fingerprint``).
VOCAB_KEYS = frozenset(
    {
        "tokenizer.ggml.model",
        "tokenizer.ggml.tokens",
        "tokenizer.ggml.bos_token_id",
        "tokenizer.ggml.eos_token_id",
    }
)


class DraftModelError(ValueError):
    """A draft model cannot be made or does not fit the target; the message says which and why."""


def _arch(reader: gguf.GGUFReader) -> str:
    return reader.fields["general.architecture"].contents()


def block_count(path: str | Path) -> int:
    """``<arch>.block_count`` of a GGUF file (number of transformer blocks)."""
    r = gguf.GGUFReader(str(path))
    return int(r.fields[f"{_arch(r)}.block_count"].contents())


def truncate_layers(src: str | Path, dst: str | Path, n_layers: int, mutate: dict | None = None) -> dict:
    """Write ``dst``: the first ``n_layers`` blocks of ``src`` + the non-block tensors (embedding,
    ``output_norm``, output head).

    ``mutate``: optional ``{key: value}`` metadata overrides (tests use it to make a draft with a
    different vocabulary).  Returns ``{"path", "sha256", "n_layers", "n_layers_src", "tensors",
    "size_bytes", "src_sha256"}``.

    Raises:
        DraftModelError: ``n_layers`` not in 1..block_count-1 of ``src``.
    """
    src, dst = Path(src), Path(dst)
    r = gguf.GGUFReader(str(src))
    arch = _arch(r)
    total = int(r.fields[f"{arch}.block_count"].contents())
    if not 1 <= n_layers < total:
        raise DraftModelError(
            f"n_layers must be in 1..{total - 1} for {src.name} ({total} blocks), got {n_layers}"
        )
    w = gguf.GGUFWriter(str(dst.with_suffix(".tmp")), arch=arch, endianess=r.endianess)
    overrides = {f"{arch}.block_count": n_layers, **(mutate or {})}
    for field in r.fields.values():
        if field.name == gguf.Keys.General.ARCHITECTURE or field.name.startswith("GGUF."):
            continue
        vtype = field.types[0]
        sub = field.types[-1] if vtype == gguf.GGUFValueType.ARRAY else None
        val = overrides.get(field.name, field.contents())
        w.add_key_value(field.name, val, vtype, sub_type=sub)
    w.add_key_value("benchbook.draft.truncated_from_blocks", total, gguf.GGUFValueType.UINT32)
    keep = []
    for t in r.tensors:
        m = re.match(r"blk\.(\d+)\.", t.name)
        if m is None or int(m.group(1)) < n_layers:
            keep.append(t)
    for t in keep:
        w.add_tensor_info(t.name, t.data.shape, t.data.dtype, t.data.nbytes, t.tensor_type)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_ti_data_to_file()
    for t in keep:
        w.write_tensor_data(t.data, tensor_endianess=r.endianess)
    w.close()
    dst.with_suffix(".tmp").replace(dst)
    return {
        "path": str(dst),
        "sha256": sha256_file(dst),
        "n_layers": n_layers,
        "n_layers_src": total,
        "tensors": len(keep),
        "size_bytes": dst.stat().st_size,
        "src_sha256": sha256_file(src),
    }


def truncated_draft(src: str | Path, src_sha256: str, n_layers: int) -> dict:
    """Cached ``truncate_layers`` in ``cache_dir()/models/drafts/``, keyed by the source sha256 and L
    (a sidecar JSON records how it was made).  Returns the ``truncate_layers`` dict plus
    ``model_id`` (``truncated_id``) and ``origin``."""
    d = cache_dir() / "models" / "drafts"
    d.mkdir(parents=True, exist_ok=True)
    stem = f"{src_sha256[:16]}-first{n_layers}"
    side = d / f"{stem}.json"
    if side.exists():
        rec = json.loads(side.read_text())
        if Path(rec["path"]).exists() and sha256_file(rec["path"]) == rec["sha256"]:
            return rec
    rec = truncate_layers(src, d / f"{stem}.gguf", n_layers)
    rec.update(
        model_id=truncated_id(src_sha256, n_layers),
        origin={
            "method": "benchbook.draft_models.truncate_layers",
            "n_layers": n_layers,
            "src_sha256": src_sha256,
            "gguf_version": gguf.__version__ if hasattr(gguf, "__version__") else None,
        },
    )
    atomicfile.write_text(side, json.dumps(rec, indent=1))
    return rec


def vocab_fingerprint(path: str | Path) -> dict:
    """Tokenizer facts of a GGUF: ``model``, ``n_vocab``, ``tokens_sha256`` (over the token strings
    joined by NUL), ``bos``/``eos`` ids (None when absent).  Read with ``ggufmeta.read_kv`` (the
    tokenizer keys only: about 0.05 CPU-s, where ``GGUFReader`` takes about 2 per file) and cached per
    (path, size, mtime).

    Raises:
        ggufmeta.GGUFMetaError: the file is not a readable GGUF (names the file and byte offset)."""
    st = Path(path).stat()
    return dict(_vocab_fingerprint(str(path), st.st_size, st.st_mtime_ns))


@functools.lru_cache(maxsize=32)
def _vocab_fingerprint(path: str, size: int, mtime_ns: int) -> dict:
    del size, mtime_ns  # only part of the cache key: a rewritten file is read again
    kv = read_kv(path, VOCAB_KEYS)
    toks = kv.get("tokenizer.ggml.tokens") or []
    return {
        "model": kv.get("tokenizer.ggml.model"),
        "n_vocab": len(toks),
        "tokens_sha256": hashlib.sha256("\0".join(toks).encode()).hexdigest(),
        "bos": kv.get("tokenizer.ggml.bos_token_id"),
        "eos": kv.get("tokenizer.ggml.eos_token_id"),
    }


def check_vocab(target: str | Path, draft: str | Path) -> dict:
    """Raise when ``draft`` cannot draft for ``target``: different tokenizer model, vocabulary size,
    token strings, or BOS/EOS ids.  Returns the (shared) fingerprint.

    Raises:
        DraftModelError: names both files and each field that differs.
    """
    a, b = vocab_fingerprint(target), vocab_fingerprint(draft)
    diff = [k for k in a if a[k] != b[k]]
    if diff:
        raise DraftModelError(
            f"draft {Path(draft).name} has a different vocabulary than target {Path(target).name}: "
            + "; ".join(f"{k}: target {a[k]!r} vs draft {b[k]!r}" for k in diff)
            + " — a draft must share the target's tokenizer (same ids for the same strings)"
        )
    return a
