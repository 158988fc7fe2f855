"""Speculation against context depth: decode gain, prefill cost, draft cost inside llama-server.

One session measures, on one host and build:

* ``benchbook.spec_depth.bench`` (``BENCH_KIND``): llama-bench rows with a ``-d`` sweep (``n_depth``)
  for the target (``-p`` the prefill size and the small sizes k+1 of the verify pass, ``-n``) and
  for each draft model (``-p``, ``-n``): pp and tg against depth, and c = draft tg ÷ target tg and
  r(n) = pp(n) ÷ one tg step at each depth (the cost model's terms, same session).
* ``benchbook.spec_depth.request`` (``REQUEST_KIND``): one llama-server ``/completion`` at one depth
  (the prompt is the first ``depth`` tokens of a fixed text, ``data/prompts/depth_context.txt``) for
  the baseline, each speculative configuration and each draft model served alone (``draft_only``):
  the server's ``timings``, the request's wall time, the draft's own time inside the server
  (``spec_stats``: the per-request increase of ``common_speculative_print_stats``' counters,
  ``dur(b,g,a)``, logged at ``-lv 4``), peak GPU memory and the server's buffer sizes.
"""

import polars as pl

from benchbook.schemas import Field, Kind, declare

S, Int, F, B, L = pl.String, pl.Int64, pl.Float64, pl.Boolean, pl.List

#: Experiment name: the raw folder ``data/raw/<name>/``, the registry ``reports/numbers/<name>.json``.
EXPERIMENT = "spec_depth"
#: Record kind of one llama-bench row of the depth sweep.
BENCH_SCHEMA = "benchbook.spec_depth.bench"
#: Record kind of one llama-server request at one depth.
REQUEST_SCHEMA = "benchbook.spec_depth.request"

_HEAD = (
    Field("run_id", S, "32 hex"),
    Field("run_key", S, "16 hex: config + models + build + host"),
    Field("session_id", S, "the shared session"),
    Field("experiment", S, "spec_depth"),
    Field("host_id", S, "host snapshot id"),
    Field("toolchain_id", S, "toolchain snapshot id"),
    Field("profile", S, "host profile (experiments.profiles); null: none", nullable=True),
    Field("git_commit", S, "benchbook's git HEAD", nullable=True),
    Field("git_dirty", B, "code or params differ from HEAD", nullable=True),
    Field("started_at", S, "UTC ISO 8601"),
    Field("ended_at", S, "UTC ISO 8601"),
    Field("argv", L(S), "exact argv"),
    Field("model_id", S, "registry id of the model run (the target, or the draft for role draft)"),
    Field("model_sha256", S, "sha256 of that model file"),
)

#: llama-bench rows (``llama_bench``: the row verbatim, n_prompt, n_gen, n_depth, avg_ns, samples_ns).
BENCH_KIND = declare(
    Kind(
        "spec_depth_bench",
        BENCH_SCHEMA,
        1,
        "one llama-bench row of the depth sweep (-d), target or draft model",
        (
            *_HEAD,
            Field("role", S, "target | draft"),
            Field("config", pl.Struct({"role": S, "model_id": S}), "role and model", required=False),
            Field("row_index", Int, "row of the invocation"),
            Field("rows_total", Int, "rows the invocation printed"),
            Field("run_complete", B, "last row of the invocation"),
            Field("status", S, "ok"),
            Field("llama_bench", None, "llama-bench's own row", py=dict),
        ),
        open=True,
        written_by=("experiments/spec_depth/run.py:run_bench -> llamacpp/bench.py:append_result",),
        read_by=("experiments/spec_depth/analysis.py:load_bench",),
    )
)

#: One request at one depth.
REQUEST_KIND = declare(
    Kind(
        "spec_depth_request",
        REQUEST_SCHEMA,
        1,
        "one llama-server /completion at one context depth (baseline, speculative or draft served alone)",
        (
            *_HEAD,
            Field("config_id", S, "configuration id (params.yaml spec_depth.configs)"),
            Field("role", S, "baseline | speculative | draft_only"),
            Field("spec_type", S, "--spec-type, or none"),
            Field("draft_model_id", S, "draft registry id", nullable=True),
            Field("draft_model_sha256", S, "draft sha256", nullable=True),
            Field("n_max", Int, "--spec-draft-n-max", nullable=True),
            Field("depth", Int, "the configured depth (tokens of context before generation)"),
            Field("prompt_tokens", Int, "prompt tokens sent (max(depth, min_prompt))"),
            Field("rep", Int, "repetition (0-based)"),
            Field("request_index", Int, "request of this server process (0-based)"),
            Field("wall_ms", F, "wall time of the HTTP request", "ms"),
            Field("timings", None, "the server's timings (prompt_n, prompt_ms, predicted_n, ...)", py=dict),
            Field("spec_stats", None, "increase of the draft counters over this request", py=dict),
            Field("stop_type", S, "eos | limit | word", nullable=True),
            Field("tokens", None, "generated token ids", py=list),
            Field("content_sha256", S, "sha256 of the generated text"),
            Field("peak_gpu_mem_mib", Int, "peak GPU memory used during the request", "mib", nullable=True),
            Field("server_buffers", None, "the server log's 'buffer size' lines (MiB)", py=list),
        ),
        open=True,
        written_by=("experiments/spec_depth/run.py:server_visit -> request",),
        read_by=("experiments/spec_depth/analysis.py:load_requests",),
    )
)
