"""Synthetic GGUF models: random weights of a chosen architecture and shape, a real tokenizer.

``benchbook synth-model`` writes a GGUF that llama.cpp b11434 loads and runs, with

* ``llama`` — a dense decoder (``blk.N.ffn_{gate,up,down}``);
* ``qwen3moe`` — ``expert_count`` routed experts, ``expert_used_count`` active per token, no shared
  expert (``blk.N.ffn_{gate,up,down}_exps``, router ``ffn_gate_inp``, q/k norms);
* ``qwen2moe`` — the same plus one shared expert (``ffn_{gate,up,down}_shexp`` and its gate
  ``ffn_gate_inp_shexp``); the shared expert is what "optional shared expert" means.

Tensor names, shapes and metadata keys follow llama.cpp b11434 (``src/models/llama.cpp``,
``src/models/qwen3moe.cpp``, ``src/models/qwen2moe.cpp``; shapes there are ggml ``ne`` order, numpy
shapes here are reversed).  The tokenizer (every ``tokenizer.*`` key) is copied from a real GGUF —
the default SmolLM2 model — so prompts tokenize as with a real model.

Weights: Q8_0 blocks written directly (random int8 quants, one fp16 scale per tensor chosen so that a
row's dot product has unit scale: ``1 / (73.6 * sqrt(n_in))``; 73.6 is the sd of a uniform int8), or
F16/F32 normal with sd ``1 / sqrt(n_in)``; norms are ones (F32).  Everything is drawn from
``numpy.random.PCG64([seed, tensor index])``, so a (spec, seed, tokenizer) triple always gives the
same bytes with the same numpy and gguf versions (recorded in the manifest with the file's sha256).

Random weights mean random routing: every expert is about equally likely, unlike a trained model;
speed figures from these files carry the ``synthetic_inputs`` caveat.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from benchbook import atomicfile

from ..paths import cache_dir
from .fetch import sha256_file

if TYPE_CHECKING:  # at run time gguf is imported inside the functions that use it
    from gguf import GGUFValueType

#: Bump when the bytes written for a given spec change (part of the cache key and the manifest).
GENERATOR_VERSION = 1
ARCHES = ("llama", "qwen3moe", "qwen2moe")
WEIGHT_TYPES = ("Q8_0", "F16", "F32")
#: Standard deviation of a uniform integer on [-128, 127].
_INT8_SD = 73.9
#: Roles of tensors (``TensorPlan.role``): what the roofline and the placement count.
EXPERT_ROLES = ("expert",)


class SynthError(ValueError):
    """A synthetic-model spec is invalid or the tokenizer source cannot be read; names the field and fix."""


@dataclass(frozen=True)
class SynthSpec:
    """Architecture and shape of a synthetic model.

    ``n_ff``: dense FFN width (``llama``) and ``feed_forward_length`` of MoE files; ``n_ff_exp``: width
    of one routed expert; ``n_ff_shexp``: width of the shared expert (``qwen2moe`` only, required
    there); ``head_dim``: per-head width (default ``n_embd // n_head``; ``qwen2moe`` needs the
    default).  ``weight_type``: type of every matrix (norms and the router are F32).
    """

    arch: str = "qwen3moe"
    n_layer: int = 4
    n_embd: int = 256
    n_head: int = 4
    n_head_kv: int = 2
    n_ff: int = 512
    n_expert: int = 8
    n_expert_used: int = 2
    n_ff_exp: int = 256
    n_ff_shexp: int = 0
    head_dim: int | None = None
    context_length: int = 4096
    weight_type: str = "Q8_0"
    seed: int = 0

    @property
    def hd(self) -> int:
        return self.head_dim or self.n_embd // self.n_head

    @property
    def is_moe(self) -> bool:
        return self.arch != "llama"

    def check(self) -> None:
        """Raises SynthError naming the field that llama.cpp would reject and the fix."""
        if self.arch not in ARCHES:
            raise SynthError(f"arch {self.arch!r} is not supported; choose one of {', '.join(ARCHES)}")
        if self.weight_type not in WEIGHT_TYPES:
            raise SynthError(f"weight_type {self.weight_type!r}; choose one of {', '.join(WEIGHT_TYPES)}")
        for name in ("n_layer", "n_embd", "n_head", "n_head_kv", "n_ff"):
            if getattr(self, name) <= 0:
                raise SynthError(f"{name} must be positive, got {getattr(self, name)}")
        if self.n_head % self.n_head_kv:
            raise SynthError(f"n_head {self.n_head} is not a multiple of n_head_kv {self.n_head_kv}")
        if self.n_embd % self.n_head and self.head_dim is None:
            raise SynthError(f"n_embd {self.n_embd} is not a multiple of n_head {self.n_head}; set head_dim")
        if self.is_moe and not (0 < self.n_expert_used <= self.n_expert and self.n_ff_exp > 0):
            raise SynthError(
                f"{self.arch}: need 0 < n_expert_used ({self.n_expert_used}) <= n_expert "
                f"({self.n_expert}) and n_ff_exp > 0 ({self.n_ff_exp})"
            )
        if self.arch == "qwen2moe" and (self.n_ff_shexp <= 0 or self.hd * self.n_head != self.n_embd):
            raise SynthError(
                "qwen2moe: set n_ff_shexp > 0 (its shared expert) and leave head_dim at n_embd // n_head"
            )
        if self.arch == "qwen3moe" and self.n_ff_shexp:
            raise SynthError("qwen3moe has no shared expert in llama.cpp b11434; use arch qwen2moe for one")
        if self.weight_type == "Q8_0":
            widths = {
                "n_embd": self.n_embd,
                "n_head*head_dim": self.n_head * self.hd,
                "n_ff": self.n_ff,
                "n_ff_exp": self.n_ff_exp,
                "n_ff_shexp": self.n_ff_shexp,
            }
            bad = {k: v for k, v in widths.items() if v % 32}
            if bad:
                raise SynthError(
                    f"Q8_0 rows are blocks of 32: {bad} not a multiple of 32; fix the width "
                    "or use weight_type F16"
                )


@dataclass(frozen=True)
class TensorPlan:
    """One tensor to write: GGUF name, numpy shape (ggml ``ne`` reversed), type, role, layer."""

    name: str
    shape: tuple[int, ...]
    type: str
    role: str  # embd | output | norm | attn | router | expert | shared_expert | ffn
    layer: int | None = None

    @property
    def n_in(self) -> int:
        return self.shape[-1]

    @property
    def n_elements(self) -> int:
        n = 1
        for s in self.shape:
            n *= s
        return n

    @property
    def n_bytes(self) -> int:
        if self.type == "Q8_0":
            return self.n_elements // 32 * 34
        return self.n_elements * (2 if self.type == "F16" else 4)


def plan(spec: SynthSpec, n_vocab: int) -> list[TensorPlan]:
    """Every tensor of ``spec`` in file order (llama.cpp's names; numpy shapes)."""
    spec.check()
    w, e, hd = spec.weight_type, spec.n_embd, spec.hd
    out = [
        TensorPlan("token_embd.weight", (n_vocab, e), w, "embd"),
        TensorPlan("output_norm.weight", (e,), "F32", "norm"),
        TensorPlan("output.weight", (n_vocab, e), w, "output"),
    ]
    for i in range(spec.n_layer):
        b = f"blk.{i}."
        out += [
            TensorPlan(b + "attn_norm.weight", (e,), "F32", "norm", i),
            TensorPlan(b + "attn_q.weight", (spec.n_head * hd, e), w, "attn", i),
            TensorPlan(b + "attn_k.weight", (spec.n_head_kv * hd, e), w, "attn", i),
            TensorPlan(b + "attn_v.weight", (spec.n_head_kv * hd, e), w, "attn", i),
            TensorPlan(b + "attn_output.weight", (e, spec.n_head * hd), w, "attn", i),
        ]
        if spec.arch == "qwen3moe":
            out += [
                TensorPlan(b + "attn_q_norm.weight", (hd,), "F32", "norm", i),
                TensorPlan(b + "attn_k_norm.weight", (hd,), "F32", "norm", i),
            ]
        out.append(TensorPlan(b + "ffn_norm.weight", (e,), "F32", "norm", i))
        if not spec.is_moe:
            out += [
                TensorPlan(b + "ffn_gate.weight", (spec.n_ff, e), w, "ffn", i),
                TensorPlan(b + "ffn_up.weight", (spec.n_ff, e), w, "ffn", i),
                TensorPlan(b + "ffn_down.weight", (e, spec.n_ff), w, "ffn", i),
            ]
            continue
        x, f = spec.n_expert, spec.n_ff_exp
        out += [
            TensorPlan(b + "ffn_gate_inp.weight", (x, e), "F32", "router", i),
            TensorPlan(b + "ffn_gate_exps.weight", (x, f, e), w, "expert", i),
            TensorPlan(b + "ffn_up_exps.weight", (x, f, e), w, "expert", i),
            TensorPlan(b + "ffn_down_exps.weight", (x, e, f), w, "expert", i),
        ]
        if spec.arch == "qwen2moe":
            s = spec.n_ff_shexp
            out += [
                TensorPlan(b + "ffn_gate_inp_shexp.weight", (e,), "F32", "router", i),
                TensorPlan(b + "ffn_gate_shexp.weight", (s, e), w, "shared_expert", i),
                TensorPlan(b + "ffn_up_shexp.weight", (s, e), w, "shared_expert", i),
                TensorPlan(b + "ffn_down_shexp.weight", (e, s), w, "shared_expert", i),
            ]
    return out


def metadata(spec: SynthSpec, n_vocab: int) -> dict[str, int | float | str]:
    """Architecture keys (without the ``<arch>.`` prefix) that llama.cpp reads for ``spec``."""
    md: dict[str, int | float | str] = {
        "context_length": spec.context_length,
        "embedding_length": spec.n_embd,
        "block_count": spec.n_layer,
        "feed_forward_length": spec.n_ff,
        "attention.head_count": spec.n_head,
        "attention.head_count_kv": spec.n_head_kv,
        "attention.key_length": spec.hd,
        "attention.value_length": spec.hd,
        "attention.layer_norm_rms_epsilon": 1e-6,
        "rope.freq_base": 10000.0,
        "rope.dimension_count": spec.hd,
        "vocab_size": n_vocab,
    }
    if spec.is_moe:
        md.update(
            {
                "expert_count": spec.n_expert,
                "expert_used_count": spec.n_expert_used,
                "expert_feed_forward_length": spec.n_ff_exp,
            }
        )
    if spec.arch == "qwen2moe":
        md["expert_shared_feed_forward_length"] = spec.n_ff_shexp
    return md


class TokenizerField(NamedTuple):
    """One ``tokenizer.*`` key of a GGUF as ``GGUFWriter.add_key_value`` takes it."""

    key: str
    value: Any
    value_type: GGUFValueType
    sub_type: GGUFValueType | None  # the element type of an array value


def tokenizer_fields(path: str | Path) -> list[TokenizerField]:
    """``(key, value, value_type, sub_type)`` of every ``tokenizer.*`` key of the GGUF at ``path``.

    Raises:
        SynthError: not a readable GGUF, or it has no ``tokenizer.ggml.tokens`` (names the file and fix).
    """
    import gguf

    try:
        r = gguf.GGUFReader(str(path))
    except Exception as e:  # noqa: BLE001 - the reader raises ValueError/IndexError/struct errors
        raise SynthError(
            f"{path}: cannot read as GGUF ({type(e).__name__}: {e}); fix: point "
            "--tokenizer-from at the default model (`benchbook models fetch`)"
        ) from None
    out = []
    for key, fld in r.fields.items():
        if key.startswith("tokenizer."):
            sub = fld.types[1] if len(fld.types) > 1 else None
            out.append(TokenizerField(key, fld.contents(), fld.types[0], sub))
    if not any(k == "tokenizer.ggml.tokens" for k, *_ in out):
        raise SynthError(f"{path}: no tokenizer.ggml.tokens; fix: use a GGUF that carries its vocabulary")
    return out


def _fill(t: TensorPlan, rng):
    """Random data for ``t`` as a numpy array whose bytes are the tensor's GGUF data."""
    import numpy as np

    if t.role == "norm":
        return np.ones(t.shape, dtype=np.float32)
    sd = 1.0 / float(np.sqrt(t.n_in))
    if t.type == "Q8_0":
        n_blocks = t.n_elements // 32
        blocks = np.empty((n_blocks, 34), dtype=np.uint8)
        blocks[:, :2] = np.frombuffer(np.float16(sd / _INT8_SD).tobytes(), dtype=np.uint8)
        blocks[:, 2:] = np.frombuffer(rng.bytes(n_blocks * 32), dtype=np.uint8).reshape(n_blocks, 32)
        return blocks
    vals = rng.standard_normal(t.shape, dtype=np.float32) * np.float32(sd)
    return vals.astype(np.float16) if t.type == "F16" else vals


@dataclass
class SynthResult:
    """A written synthetic model: path, sha256, size, the spec and what it holds (bytes per role)."""

    path: Path
    sha256: str
    size_bytes: int
    spec: SynthSpec
    n_vocab: int
    tokenizer_from_sha256: str
    bytes_by_role: dict[str, int] = field(default_factory=dict)
    expert_bytes_per_layer: int = 0
    tensor_count: int = 0
    seconds: float = 0.0
    versions: dict = field(default_factory=dict)
    cached: bool = False

    def record(self) -> dict:
        """The ``benchbook.synth_model`` manifest (JSON-ready; ``synthetic_inputs`` is always true)."""
        return {
            "schema": "benchbook.synth_model",
            "schema_version": 1,
            "synthetic_inputs": True,
            "model_id": model_id(self.spec),
            "path": str(self.path),
            "sha256": self.sha256,
            "size_bytes": self.size_bytes,
            "spec": asdict(self.spec),
            "n_vocab": self.n_vocab,
            "tokenizer_from_sha256": self.tokenizer_from_sha256,
            "bytes_by_role": self.bytes_by_role,
            "expert_bytes_per_layer": self.expert_bytes_per_layer,
            "tensor_count": self.tensor_count,
            "generator_version": GENERATOR_VERSION,
            "versions": self.versions,
            "write_seconds": round(self.seconds, 2),
        }


def model_id(spec: SynthSpec) -> str:
    """A readable id: ``synthetic-qwen3moe-L4-E8-K2-d256-q8_0-s0`` (``synthetic`` makes the caveat fire)."""
    moe = (
        f"-E{spec.n_expert}-K{spec.n_expert_used}" + (f"-sh{spec.n_ff_shexp}" if spec.n_ff_shexp else "")
        if spec.is_moe
        else ""
    )
    return (
        f"synthetic-{spec.arch}-L{spec.n_layer}{moe}-d{spec.n_embd}-{spec.weight_type.lower()}-s{spec.seed}"
    )


def _key(spec: SynthSpec, tok_sha: str) -> str:
    import hashlib

    blob = json.dumps({"spec": asdict(spec), "tokenizer": tok_sha, "gen": GENERATOR_VERSION}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def write(
    spec: SynthSpec,
    tokenizer_from: str | Path,
    out: str | Path | None = None,
    tokenizer_sha256: str | None = None,
    log=print,
) -> SynthResult:
    """Write the GGUF of ``spec`` (tokenizer copied from ``tokenizer_from``) and return its manifest.

    ``out``: the file to write; default ``<cache>/models/synth-<key>.gguf``, reused (with its
    ``.json`` sidecar) when it already exists with the recorded size.  Tensors are streamed one at a
    time (peak memory about the largest tensor, e.g. 650 MB for one layer's experts of 64 × 1536 ×
    2048 Q8_0).

    Raises:
        SynthError: invalid spec or tokenizer source.
    """
    import gguf
    import numpy as np

    spec.check()
    tok_sha = tokenizer_sha256 or sha256_file(Path(tokenizer_from))
    key = _key(spec, tok_sha)
    out = Path(out) if out else cache_dir() / "models" / f"synth-{key}.gguf"
    side = out.with_suffix(".json")
    if side.exists() and out.exists():
        rec = json.loads(side.read_text())
        if rec.get("size_bytes") == out.stat().st_size and rec.get("cache_key") == key:
            return SynthResult(
                out,
                rec["sha256"],
                rec["size_bytes"],
                spec,
                rec["n_vocab"],
                tok_sha,
                rec["bytes_by_role"],
                rec["expert_bytes_per_layer"],
                rec["tensor_count"],
                rec["write_seconds"],
                rec["versions"],
                cached=True,
            )
    fields = tokenizer_fields(tokenizer_from)
    n_vocab = len(next(f.value for f in fields if f.key == "tokenizer.ggml.tokens"))
    tensors = plan(spec, n_vocab)
    t0 = time.monotonic()
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".part")
    w = gguf.GGUFWriter(str(tmp), spec.arch)
    w.add_name(model_id(spec))
    w.add_type("model")
    w.add_file_type(
        {
            "Q8_0": gguf.LlamaFileType.MOSTLY_Q8_0,
            "F16": gguf.LlamaFileType.MOSTLY_F16,
            "F32": gguf.LlamaFileType.ALL_F32,
        }[spec.weight_type]
    )
    w.add_quantization_version(gguf.GGML_QUANT_VERSION)
    w.add_string(
        "general.description",
        f"synthetic random weights (benchbook synth-model, seed {spec.seed}); not a trained model",
    )
    for k, v in metadata(spec, n_vocab).items():
        vtype = gguf.GGUFValueType.FLOAT32 if isinstance(v, float) else gguf.GGUFValueType.UINT32
        w.add_key_value(f"{spec.arch}.{k}", v, vtype)
    for k, v, vtype, sub in fields:
        w.add_key_value(k, v, vtype, sub)
    qtype = {
        "Q8_0": gguf.GGMLQuantizationType.Q8_0,
        "F16": gguf.GGMLQuantizationType.F16,
        "F32": gguf.GGMLQuantizationType.F32,
    }
    for t in tensors:
        w.add_tensor_info(t.name, t.shape, np.dtype(np.float32), t.n_bytes, raw_dtype=qtype[t.type])
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_ti_data_to_file()
    for i, t in enumerate(tensors):
        w.write_tensor_data(_fill(t, np.random.Generator(np.random.PCG64([spec.seed, i]))))
    w.close()
    digest = sha256_file(tmp)
    os.replace(tmp, out)
    by_role: dict[str, int] = {}
    for t in tensors:
        by_role[t.role] = by_role.get(t.role, 0) + t.n_bytes
    per_layer = by_role.get("expert", 0) // spec.n_layer
    res = SynthResult(
        out,
        digest,
        out.stat().st_size,
        spec,
        n_vocab,
        tok_sha,
        by_role,
        per_layer,
        len(tensors),
        time.monotonic() - t0,
        {"numpy": np.__version__, "gguf": getattr(gguf, "__version__", None) or _gguf_version()},
    )
    atomicfile.write_text(side, json.dumps({**res.record(), "cache_key": key}, indent=1))
    log(f"synth-model: {model_id(spec)} {res.size_bytes / 2**30:.2f} GiB in {res.seconds:.1f} s -> {out}")
    return res


def _gguf_version() -> str | None:
    try:
        from importlib.metadata import version

        return version("gguf")
    except Exception:  # noqa: BLE001 - gguf taken from a source tree has no distribution metadata
        return None
