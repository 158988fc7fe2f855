"""Where a GGUF's weights sit under ``-ngl 99 -ncmoe N`` and how many bytes one decoded token reads.

Placement follows llama.cpp b11434: ``-ncmoe N`` (llama-bench ``n_cpu_moe``) adds one buffer
override per block ``i < N`` matching ``LLM_FFN_EXPS_REGEX`` (``common/common.h``:
``blk.<i>.ffn_(up|down|gate|gate_up)_(ch|)exps``) to the CPU buffer type
(``tools/llama-bench/llama-bench.cpp``); every other tensor of an ``-ngl 99`` model is on the GPU
except ``token_embd`` (the input layer stays on the CPU; a model without ``output.weight`` gets a
GPU copy of it as its output matrix, ``TENSOR_DUPLICATED`` in ``src/models/*.cpp``).

Bytes read per decoded token (the roofline's numerator): every non-expert tensor once, one row of
``token_embd``, and for each MoE block ``expert_used_count / expert_count`` of its expert tensors
(the active experts; random routing makes that the expected share).  KV-cache reads are left out
(small at the short depths measured; say so where it matters).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

#: llama.cpp's LLM_FFN_EXPS_REGEX (common/common.h), anchored to a block as llm_ffn_block_regex does.
EXPS_REGEX = r"blk\.(\d+)\.ffn_(up|down|gate|gate_up)_(ch|)exps"
_BLOCK = re.compile(r"^blk\.(\d+)\.")


class WeightsError(ValueError):
    """A GGUF cannot be read for its tensor sizes; names the file and the fix."""


@dataclass(frozen=True)
class TensorBytes:
    """One tensor: ``name``, ``n_bytes`` (in the file), ``layer`` (block index or None), ``kind``
    (``expert`` | ``token_embd`` | ``output`` | ``other``), ``rows`` (ggml ne[1])."""

    name: str
    n_bytes: int
    layer: int | None
    kind: str
    rows: int


@dataclass(frozen=True)
class Layout:
    """A model's tensors and the counts placement needs (from GGUF metadata)."""

    n_layer: int
    n_expert: int
    n_expert_used: int
    tensors: tuple[TensorBytes, ...]

    def total(self, kind: str) -> int:
        return sum(t.n_bytes for t in self.tensors if t.kind == kind)

    @property
    def has_output(self) -> bool:
        return any(t.kind == "output" for t in self.tensors)


def classify(name: str) -> tuple[int | None, str]:
    """``(layer, kind)`` of a tensor name: ``blk.3.ffn_up_exps.weight`` -> ``(3, "expert")``."""
    m = _BLOCK.match(name)
    layer = int(m.group(1)) if m else None
    if re.match(EXPS_REGEX, name):
        return layer, "expert"
    if name.startswith("token_embd."):
        return None, "token_embd"
    if name.startswith("output.weight"):
        return None, "output"
    return layer, "other"


def layout(path: str | Path) -> Layout:
    """Tensor sizes and MoE counts of the GGUF at ``path`` (``gguf.GGUFReader``; nothing loaded).

    Raises:
        WeightsError: unreadable GGUF or no ``<arch>.block_count`` (names the file and the fix).
    """
    import gguf

    try:
        r = gguf.GGUFReader(str(path))
    except Exception as e:  # noqa: BLE001 - the reader raises ValueError/IndexError/struct errors
        raise WeightsError(
            f"{path}: cannot read as GGUF ({type(e).__name__}: {e}); fix: fetch or generate the model again"
        ) from None

    def field(key):
        f = r.fields.get(key)
        return f.contents() if f is not None else None

    arch = field("general.architecture")
    n_layer = field(f"{arch}.block_count")
    if n_layer is None:
        raise WeightsError(
            f"{path}: no {arch}.block_count; fix: a GGUF written by llama.cpp's converters "
            "or `benchbook synth-model`"
        )
    tensors = []
    for t in r.tensors:
        layer, kind = classify(t.name)
        shape = [int(x) for x in t.shape]
        tensors.append(TensorBytes(t.name, int(t.n_bytes), layer, kind, shape[1] if len(shape) > 1 else 1))
    return Layout(
        int(n_layer),
        int(field(f"{arch}.expert_count") or 0),
        int(field(f"{arch}.expert_used_count") or 0),
        tuple(tensors),
    )


@dataclass(frozen=True)
class Placement:
    """Where the weights are for ``-ngl 99 -ncmoe n_cpu_moe`` (bytes in the file's types).

    ``cpu_expert_blocks``: blocks whose experts are on the CPU (``0 .. min(N, n_layer) - 1``);
    ``gpu_bytes``: every tensor on the GPU (including a duplicated output matrix);
    ``cpu_bytes``: CPU experts + ``token_embd``."""

    n_cpu_moe: int
    n_layer: int
    cpu_expert_blocks: list[int]
    expert_bytes_cpu: int
    expert_bytes_gpu: int
    gpu_bytes: int
    cpu_bytes: int
    override_regex: str | None

    def as_record(self) -> dict:
        return dict(self.__dict__)


def placement(lay: Layout, n_cpu_moe: int) -> Placement:
    """The resolved placement of ``-ngl 99 -ncmoe n_cpu_moe`` for ``lay`` (a model without experts:
    every block's tensors on the GPU whatever ``n_cpu_moe`` is)."""
    k = max(0, min(int(n_cpu_moe), lay.n_layer))
    cpu_blocks = list(range(k)) if lay.total("expert") else []
    on_cpu = set(cpu_blocks)
    exp_cpu = sum(t.n_bytes for t in lay.tensors if t.kind == "expert" and t.layer in on_cpu)
    exp_gpu = lay.total("expert") - exp_cpu
    embd = lay.total("token_embd")
    gpu = lay.total("other") + lay.total("output") + exp_gpu + (0 if lay.has_output else embd)
    regex = (
        r"blk\.(" + "|".join(map(str, cpu_blocks)) + r")\.ffn_(up|down|gate|gate_up)_(ch|)exps"
        if cpu_blocks
        else None
    )
    return Placement(int(n_cpu_moe), lay.n_layer, cpu_blocks, exp_cpu, exp_gpu, gpu, exp_cpu + embd, regex)


@dataclass(frozen=True)
class DecodeBytes:
    """Bytes read per decoded token: ``total`` = ``gpu`` + ``cpu`` (see the module docstring)."""

    total: int
    gpu: int
    cpu: int


def decode_bytes(lay: Layout, n_cpu_moe: int = 0) -> DecodeBytes:
    """Bytes one decoded token reads with ``-ngl 99 -ncmoe n_cpu_moe`` (integer division per tensor).

    Active share of an expert tensor: ``n_expert_used / n_expert``; ``token_embd``: one row on the
    CPU (plus the whole matrix on the GPU when it doubles as the output matrix)."""
    on_cpu = set(placement(lay, n_cpu_moe).cpu_expert_blocks)
    gpu = cpu = 0
    for t in lay.tensors:
        if t.kind == "expert":
            active = t.n_bytes * lay.n_expert_used // lay.n_expert
            if t.layer in on_cpu:
                cpu += active
            else:
                gpu += active
        elif t.kind == "token_embd":
            cpu += t.n_bytes // t.rows
            gpu += 0 if lay.has_output else t.n_bytes
        else:
            gpu += t.n_bytes
    return DecodeBytes(gpu + cpu, gpu, cpu)
