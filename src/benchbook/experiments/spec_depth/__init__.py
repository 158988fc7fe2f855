"""Speculation against context depth: decode gain, prefill cost, draft cost inside llama-server.

One session measures, on one host and build:

* ``benchbook.llama_bench`` (``BENCH_SCHEMA``, ``role`` target | draft; committed sessions: the retired
  ``benchbook.spec_depth.bench``, ``BENCH_KIND``): llama-bench rows with a ``-d`` sweep (``n_depth``)
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

from benchbook.schemas import LLAMA_BENCH, SPEC_DEPTH_BENCH, SPEC_DEPTH_HEAD, Field, Kind, declare

S, Int, F, B, L = pl.String, pl.Int64, pl.Float64, pl.Boolean, pl.List

#: Experiment name: the raw folder ``data/raw/<name>/``, the registry ``reports/numbers/<name>.json``.
EXPERIMENT = "spec_depth"
#: Record kind of one llama-bench row of the depth sweep: the one llama-bench row kind (``role`` target |
#: draft; ``n_depth`` in the row), read with the other experiments' rows by ``benchrows``.
BENCH_SCHEMA = LLAMA_BENCH.schema
#: The retired kind the committed depth-sweep rows were written as (``schemas.SPEC_DEPTH_BENCH``, read as
#: ``BENCH_SCHEMA`` through ``migrations.RETIRED``).
BENCH_KIND = SPEC_DEPTH_BENCH
#: Record kind of one llama-server request at one depth.
REQUEST_SCHEMA = "benchbook.spec_depth.request"

#: One request at one depth.
REQUEST_KIND = declare(
    Kind(
        "spec_depth_request",
        REQUEST_SCHEMA,
        1,
        "one llama-server /completion at one context depth (baseline, speculative or draft served alone)",
        (
            *SPEC_DEPTH_HEAD,
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
        written_by=("experiments/spec_depth/run.py:server_visit -> _request",),
        read_by=("experiments/spec_depth/analysis.py:load_requests",),
    )
)
