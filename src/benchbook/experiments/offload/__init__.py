"""Offload: decode and prefill speed of an MoE model as expert layers move to the CPU (``-ncmoe``),
under a GPU memory budget held on purpose by a ballast process; where it stops fitting (the cliff),
GPU memory per point, the resolved tensor placement and the decode roofline.

``run`` measures one session (a synthetic MoE from ``benchbook synth-model``, one llama-bench
invocation per ``n_cpu_moe`` value, the device-to-device copy bandwidth, bytes per token of each
model); ``analysis`` makes the per-point table; ``report`` publishes numbers, the cliff, the roofline
and the chart.

Record kinds (the first two declared in ``benchbook.schemas``, the others here):

* ``benchbook.llama_bench`` (``SCHEMA``): one llama-bench output row at one sweep point, the one
  llama-bench row kind with the point's fields (``POINT``: ``n_cpu_moe``, the budget, placement, bytes
  per token, ballast state; no page-cache state, every point is warm).  Committed sessions wrote the
  retired ``benchbook.offload`` (``KIND``), read as it (``migrations.RETIRED``).
* ``benchbook.run_failed`` with ``POINT`` and a ``reason``: a point that failed (out of memory,
  crash, timeout, no budget); the analysis reads those fields with ``POINT``'s declarations (``KIND``).
* ``benchbook.offload.bandwidth`` (``BANDWIDTH_KIND``): one device-to-device copy bandwidth measurement.
* ``benchbook.offload.model_bytes`` (``MODEL_BYTES_KIND``): a model's bytes read per decoded token.

Every record measured from the synthetic model carries ``synthetic_inputs: true``.
"""

import polars as pl

from benchbook import schemas
from benchbook.schemas import DECODE_BYTES, Field, Kind, declare, obj, opt

S, Int, F, B, L = pl.String, pl.Int64, pl.Float64, pl.Boolean, pl.List

#: Experiment name: the raw folder ``data/raw/<name>/``, the registry ``reports/numbers/<name>.json``.
EXPERIMENT = "offload"
#: Record kind of one llama-bench output row at one sweep point: the one llama-bench row kind (the point's
#: fields ``n_cpu_moe``, ``placement``, ``decode_bytes``, ``ballast``, ``budget_free_mib`` on it), read with
#: the other experiments' rows by ``benchrows``.
SCHEMA = schemas.LLAMA_BENCH.schema
#: The retired kind the committed sweep rows were written as (``schemas.OFFLOAD``, read as ``SCHEMA``
#: through ``migrations.RETIRED``); its declaration of a sweep point checks the failed points.
KIND = schemas.OFFLOAD
#: Record kind of one device-to-device copy bandwidth measurement.
BANDWIDTH_SCHEMA = "benchbook.offload.bandwidth"
#: Record kind of a model's bytes read per decoded token (roofline numerator), per model file.
MODEL_BYTES_SCHEMA = "benchbook.offload.model_bytes"

#: the fields every offload record starts with (``run.run_session``'s ``common`` plus the run ids)
HEAD = schemas.OFFLOAD_HEAD
#: the fields of one sweep point, on its llama-bench rows and on its ``benchbook.run_failed`` record
POINT = schemas.OFFLOAD_POINT
_DECODE_BYTES = DECODE_BYTES
_LB = {f.name: f for f in schemas.LLAMA_BENCH.fields}


def _lb(*names: str) -> tuple[Field, ...]:
    """The llama-bench kind's own declarations of these fields (same names, types and meaning)."""
    return tuple(_LB[n] for n in names)


#: The record kind of one device-to-device copy bandwidth measurement (the roofline's denominator).
BANDWIDTH_KIND = declare(
    Kind(
        "offload_bandwidth",
        BANDWIDTH_SCHEMA,
        1,
        "device-to-device copy bandwidth of the GPU, measured before the ballast exists "
        "(llamacpp.cudamem.bandwidth)",
        (
            *HEAD,
            obj(
                "config",
                "the measurement (hashed into run_key)",
                Field("mib", Int, "size of one copy", "mib", name_kept=True),
                Field("iters", Int, "timed copies"),
                Field("fake", B, "a fake device (CPU dry run)"),
            ),
            Field("status", S, "ok | failed"),
            opt("mode", S, "cuda | fake"),
            opt("device", S, "device name"),
            opt("copy_bytes", Int, "bytes of one copy", "bytes"),
            opt("iters", Int, "timed copies"),
            opt("seconds", F, "time of the timed copies", "s", name_kept=True),
            opt(
                "bytes_moved",
                Int,
                "2 x copy_bytes x iters (read + write, as CUDA's bandwidthTest counts)",
                "bytes",
                name_kept=True,
            ),
            opt("gb_per_s", F, "bytes_moved / seconds in GB/s (1e9 bytes per second); null when it failed"),
            opt("error", S, "why the measurement failed"),
            Field("started_at", S, "UTC ISO 8601"),
            Field("ended_at", S, "UTC ISO 8601"),
        ),
        checks=(
            (
                "gb_per_s",
                lambda: (pl.col("status") != "ok") | (pl.col("gb_per_s") > 0),
                "must be a positive float on an ok record",
            ),
        ),
        written_by=(f"experiments/{EXPERIMENT}/run.py:run_session",),
        read_by=(f"experiments/{EXPERIMENT}/analysis.py:bandwidth (polars_schema, checks)",),
    )
)

#: The record kind of a model's bytes read per decoded token (the roofline's numerator).
MODEL_BYTES_KIND = declare(
    Kind(
        "offload_model_bytes",
        MODEL_BYTES_SCHEMA,
        1,
        "bytes a model reads per decoded token, from its GGUF tensor sizes (llamacpp.weights): the "
        "synthetic MoE at each sweep point, the roofline models once (n_cpu_moe null)",
        (
            *HEAD,
            Field("status", S, "ok"),
            Field("synthetic_inputs", B, "true: the synthetic MoE of the sweep; false: a registry model"),
            *_lb("model_id", "model_sha256"),
            Field("n_layer", Int, "blocks"),
            Field("n_expert", Int, "experts per block (0: dense)"),
            Field("n_expert_used", Int, "experts per token (0: dense)"),
            opt("n_cpu_moe", Int, "the sweep point; null for a roofline model (every tensor on the GPU)"),
            _DECODE_BYTES,
            Field("file_bytes", Int, "sum of the tensor sizes", "bytes", name_kept=True),
        ),
        written_by=(f"experiments/{EXPERIMENT}/run.py:run_session",),
        read_by=(f"experiments/{EXPERIMENT}/analysis.py:model_bytes (polars_schema, checks)",),
    )
)
