"""Why llama-bench and llama-server disagree: the gap between llama-bench's ``tg`` rate and llama-server's
decode rate, decomposed into measured parts (issue 31).

One session measures one model, build, thread count and token count (``n_gen``) on one host:

* ``benchbook.llama_bench`` rows (``role`` target): one llama-bench invocation ``-p <k+1 of verify_k>
  -n n_gen -d 0,depth -b -ub -fa`` (tg at an empty context and at the server prompt's depth; the
  passes of ``k+1`` tokens the speculative verify step is compared with).
* ``benchbook.tool_gap.request`` (``REQUEST_KIND``): two ``/completion`` requests per fresh
  llama-server (``request_index`` 0 and 1; the analysis reads 1, the first is the cold request), one
  server per (repetition, configuration).  Each configuration changes ONE factor against ``base``
  (the server set up like llama-bench: the same ``-b``/``-ub``/``-fa``, the prompt as ``depth`` token
  ids, a one-sampler greedy chain, no ``n_probs``, no streaming, no prompt cache); ``combined`` changes
  all of them at once; ``verify-k<k>`` serves the target as its own draft (``--spec-type draft-simple``,
  ``n_max`` k) to time the verify step (``plan.CONFIGS``).

``analysis`` turns them into per-token times and the parts of the gap; ``report`` publishes each part
with its interval, the waterfall chart and one sentence per factor.
"""

from typing import Literal

import polars as pl

from benchbook.schemas import LLAMA_BENCH, Field, Kind, declare, load_field

S, Int, F, B, L = pl.String, pl.Int64, pl.Float64, pl.Boolean, pl.List

#: Experiment name: the raw folder ``data/raw/<name>/``, the registry ``reports/numbers/<name>.json``.
EXPERIMENT = "tool_gap"
#: Record kind of one llama-bench row (the one llama-bench row kind, ``role`` target).
BENCH_SCHEMA = LLAMA_BENCH.schema
#: the factors one configuration each changes against ``base`` (``plan.Setup`` fields), in waterfall order
Factor = Literal["template", "sampler", "n_probs", "stream", "prompt_cache", "server_defaults"]
FACTORS: tuple[Factor, ...] = ("template", "sampler", "n_probs", "stream", "prompt_cache", "server_defaults")

#: Record kind of one llama-server request.
REQUEST_SCHEMA = "benchbook.tool_gap.request"

#: One request to one configuration's server.
REQUEST_KIND = declare(
    Kind(
        "tool_gap_request",
        REQUEST_SCHEMA,
        1,
        "one llama-server /completion of the tool-gap experiment (one configuration, one factor changed)",
        (
            Field("run_id", S, "32 hex"),
            Field("run_key", S, "16 hex: config + model + build + host"),
            Field("session_id", S, "the shared session"),
            Field("experiment", S, "tool_gap"),
            Field("host_id", S, "host snapshot id"),
            Field("toolchain_id", S, "toolchain snapshot id"),
            Field("profile", S, "host profile (experiments.profiles); null: none", nullable=True),
            Field("git_commit", S, "benchbook's git HEAD", nullable=True),
            Field("git_dirty", B, "code or params differ from HEAD", nullable=True),
            Field("started_at", S, "UTC ISO 8601"),
            Field("ended_at", S, "UTC ISO 8601"),
            Field("argv", L(S), "the server's exact argv"),
            Field("model_id", S, "registry id of the model served"),
            Field("model_sha256", S, "sha256 of that model file"),
            Field("config_id", S, "configuration id (plan.CONFIGS, verify-k<k>)"),
            Field("factor", S, "the factor this configuration changes against base (base: none)"),
            Field("rep", Int, "repetition (0-based)"),
            Field("request_index", Int, "request of this server process (0: cold, 1: measured)"),
            Field("n_gen", Int, "n_predict (ignore_eos: every request decodes n_gen tokens)"),
            Field(
                "prompt_tokens", Int, "prompt tokens sent (token ids), or of a text prompt prompt_n + cache_n"
            ),
            Field("stream", B, "the response was streamed (server-sent events)"),
            Field("request", None, "the request body, the prompt replaced by its length", py=dict),
            Field("wall_ms", F, "client wall time of the HTTP request, body read to its end", "ms"),
            Field("timings", None, "the server's timings (prompt_n, prompt_ms, predicted_n, ...)", py=dict),
            Field("spec_stats", None, "increase of the draft counters over this request", py=dict),
            Field("stop_type", S, "eos | limit | word", nullable=True),
            Field("content_sha256", S, "sha256 of the generated text"),
            Field("ctx_size", Int, "-c of the server (tokens)"),
            # absent on the sessions before issue 26's caveats reached tool_gap (busy_host then unknown)
            load_field("load_start", "before the request", False),
            load_field("load_end", "after the request", False),
        ),
        open=True,
        written_by=("experiments/tool_gap/run.py:_request",),
        read_by=("experiments/tool_gap/analysis.py:load_requests",),
    )
)
