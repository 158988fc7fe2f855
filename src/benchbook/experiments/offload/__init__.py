"""Offload: decode and prefill speed of an MoE model as expert layers move to the CPU (``-ncmoe``),
under a GPU memory budget held on purpose by a ballast process; where it stops fitting (the cliff),
GPU memory per point, the resolved tensor placement and the decode roofline.

``run`` measures one session (a synthetic MoE from ``benchbook synth-model``, one llama-bench
invocation per ``n_cpu_moe`` value, the device-to-device copy bandwidth, bytes per token of each
model); ``analysis`` makes the per-point table; ``report`` publishes numbers, the cliff, the roofline
and the chart.

Record kinds, declared here (``benchbook.schemas``):

* ``benchbook.offload`` (``KIND``): one llama-bench output row at one sweep point.  Its own kind
  rather than ``benchbook.llama_bench``: the run fields and the row under ``llama_bench`` are the
  llama-bench kind's own declarations (``_LB``), but the configuration differs (``n_cpu_moe``, the
  budget), there is no page-cache state (every point is warm) and the point's placement, bytes per
  token and ballast state (``POINT``) are added.
* ``benchbook.run_failed`` with ``POINT`` and a ``reason``: a point that failed (out of memory,
  crash, timeout, no budget); the analysis reads those fields with ``KIND``'s declarations.
* ``benchbook.offload.bandwidth`` (``BANDWIDTH_KIND``): one device-to-device copy bandwidth measurement.
* ``benchbook.offload.model_bytes`` (``MODEL_BYTES_KIND``): a model's bytes read per decoded token.

Every record measured from the synthetic model carries ``synthetic_inputs: true``.
"""

from dataclasses import replace

import polars as pl

from benchbook import schemas
from benchbook.schemas import LLAMA_BENCH_CONFIG, Field, Kind, declare, obj, opt

S, Int, F, B, L = pl.String, pl.Int64, pl.Float64, pl.Boolean, pl.List

#: Experiment name: the raw folder ``data/raw/<name>/``, the registry ``reports/numbers/<name>.json``.
EXPERIMENT = "offload"
#: Record kind of one llama-bench output row at one sweep point.
SCHEMA = "benchbook.offload"
#: Record kind of one device-to-device copy bandwidth measurement.
BANDWIDTH_SCHEMA = "benchbook.offload.bandwidth"
#: Record kind of a model's bytes read per decoded token (roofline numerator), per model file.
MODEL_BYTES_SCHEMA = "benchbook.offload.model_bytes"

_LB = {f.name: f for f in schemas.LLAMA_BENCH.fields}


def _lb(*names: str) -> tuple[Field, ...]:
    """The llama-bench kind's own declarations of these fields (same names, types and meaning)."""
    return tuple(_LB[n] for n in names)


#: the fields every offload record starts with (``run.run_session``'s ``common`` plus the run ids)
HEAD = (
    *_lb("run_id", "run_key", "session_id"),
    Field("experiment", S, "offload"),
    *_lb("host_id", "toolchain_id"),
    Field(
        "profile",
        S,
        "the host profile the session ran with (experiments.profiles); null: none defined",
        nullable=True,
    ),
    Field("profile_reason", S, "why that profile was picked; null: none defined", nullable=True),
    *_lb("git_commit", "git_dirty"),
)

_DECODE_BYTES = obj(
    "decode_bytes",
    "bytes one decoded token reads at this n_cpu_moe (llamacpp.weights.decode_bytes)",
    Field("total", Int, "gpu + cpu", "bytes", name_kept=True),
    Field("gpu", Int, "read from GPU-resident tensors", "bytes", name_kept=True),
    Field(
        "cpu",
        Int,
        "read from CPU-resident tensors (experts of the CPU blocks, one token_embd row)",
        "bytes",
        name_kept=True,
    ),
)

#: the fields of one sweep point, on its ``benchbook.offload`` rows and on its ``benchbook.run_failed`` record
POINT = (
    *_lb("model_id", "model_sha256"),
    Field("synthetic_inputs", B, "true: the model is a generated synthetic MoE (llamacpp.synth)"),
    Field("phase", S, "warm (llama-bench's warm-up run, then -r repetitions)"),
    obj(
        "config",
        "the point's configuration (hashed into run_key)",
        *LLAMA_BENCH_CONFIG,
        Field("n_cpu_moe", Int, "-ncmoe"),
        Field("budget_free_mib", Int, "GPU memory the ballast leaves free", "mib"),
    ),
    _lb("argv")[0],
    Field("n_cpu_moe", Int, "-ncmoe: expert blocks 0 .. n-1 on the CPU"),
    obj(
        "placement",
        "the resolved tensor placement of -ngl 99 -ncmoe n (llamacpp.weights.placement)",
        Field("n_cpu_moe", Int, "-ncmoe"),
        Field("n_layer", Int, "blocks of the model"),
        Field("cpu_expert_blocks", L(Int), "blocks whose experts are on the CPU"),
        Field("expert_bytes_cpu", Int, "expert weights on the CPU", "bytes", name_kept=True),
        Field("expert_bytes_gpu", Int, "expert weights on the GPU", "bytes", name_kept=True),
        Field("gpu_bytes", Int, "every tensor on the GPU", "bytes"),
        Field("cpu_bytes", Int, "CPU experts + token_embd", "bytes"),
        Field("override_regex", S, "the -ot regex -ncmoe stands for; null when nothing moves", nullable=True),
    ),
    _DECODE_BYTES,
    obj(
        "ballast",
        "the memory ballast's state (llamacpp.cudamem.BallastState), or {error} when it failed",
        opt("mode", S, "cuda | fake"),
        opt("device", S, "device name"),
        opt("total_mib", Int, "device memory", "mib"),
        opt("free_before_mib", Int, "free before the ballast", "mib"),
        opt("target_free_mib", Int, "the budget asked for", "mib"),
        opt("held_mib", Int, "held by the ballast", "mib"),
        opt("free_after_mib", Int, "free with the ballast held", "mib"),
        opt("allocations", Int, "allocations it took"),
        opt("error", S, "why the ballast failed"),
        open=True,
    ),
    Field("budget_free_mib", Int, "GPU memory the ballast leaves free (the capacity of the point)", "mib"),
    opt("started_at", S, "UTC ISO 8601 start of the invocation (absent: never started, no budget)"),
    opt("ended_at", S, "UTC ISO 8601 end of the invocation"),
    replace(_LB["load_start"], required=False),  # absent on a point that never started (no budget)
    replace(_LB["load_end"], required=False),
    opt(
        "gpu_used_before_mib", F, "GPU memory in use just before the run (ballast and others included)", "mib"
    ),
    opt("peak_gpu_mem_mib", F, "peak GPU memory in use while it ran (ballast and others included)", "mib"),
    opt("peak_rss_bytes", Int, "peak RSS of the process tree while it ran", "bytes"),
    opt("wall_ns", Int, "wall time of the invocation", "ns"),
)


def _row_lb(name: str) -> pl.Expr:
    return pl.col("llama_bench").struct.field(name)


#: The record kind of one llama-bench output row at one sweep point.
KIND = declare(
    Kind(
        EXPERIMENT,
        SCHEMA,
        1,
        "one llama-bench output row (pp or tg) at one n_cpu_moe point under the GPU memory budget, the row "
        "verbatim under llama_bench",
        (
            *HEAD,
            *POINT,
            *_lb("row_index", "rows_total", "run_complete"),
            Field("status", S, "ok"),
            *_lb("llama_bench"),
        ),
        checks=(
            (
                "status",
                lambda: pl.col("status") == "ok",
                "must be 'ok' (failed points are benchbook.run_failed)",
            ),
            ("phase", lambda: pl.col("phase") == "warm", "must be 'warm'"),
            ("n_cpu_moe", lambda: pl.col("n_cpu_moe") >= 0, "must be an integer >= 0"),
            (
                "llama_bench.n_prompt+n_gen",
                lambda: _row_lb("n_prompt") + _row_lb("n_gen") > 0,
                "must be > 0 (a test of no tokens)",
            ),
            (
                "llama_bench.samples_ts",
                lambda: (_row_lb("samples_ts").list.len() > 0) & (_row_lb("samples_ts").list.min() > 0),
                "must be a non-empty list of positive rates (llama-bench -o jsonl); fix: re-run the point",
            ),
            (
                "llama_bench.avg_ts",
                lambda: _row_lb("avg_ts") > 0,
                "must be a positive float (llama-bench avg_ts)",
            ),
        ),
        written_by=(f"experiments/{EXPERIMENT}/run.py:run_session -> llamacpp/bench.py:append_result",),
        read_by=(f"experiments/{EXPERIMENT}/analysis.py:load (polars_schema, checks)",),
    )
)

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
