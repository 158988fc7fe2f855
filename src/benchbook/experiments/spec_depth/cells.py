"""The depth page's published cells: what each numeric column of the depth tables publishes (``COLUMNS``:
label, unit, the records it reads, how it was computed) and the registry key of each cell, for
``numtable.md_table(..., key_of=..., published=...)``, which writes such a cell as its
``{{< var KEY__v >}}`` link (``numtable.var_cell``: the site renders the registry value linked to its
provenance entry, as the llama-bench, speculative and offload tables do).

Keys (``benchbook.numbers.make_key``, ``[a-z0-9_-]``), ``h<host8>`` the host id's first 8 characters:

* a row of ``analysis.depth_table`` (server.md, cost_model.md):
  ``spec_depth-h<host8>-<config_id>-d<depth>-<column>``;
* a llama-bench test (bench.md): ``spec_depth-h<host8>-bench-<model_id>-d<n_depth>-pp<n_prompt>`` and
  ``-tg<n_gen>``;
* a memory slope (memory.md): ``spec_depth-h<host8>-mem-<draft_model_id>-d<depth>-mib_per_draft_token``;
* the speculative experiment per host (hosts.md): ``spec_depth-h<host8>-speculative-<config_id>-<column>``.

No configuration id of the depth sweep starts with ``bench``, ``mem`` or ``speculative`` followed by a
``-d<depth>`` part, so the four kinds of key never meet.
"""

from __future__ import annotations

from dataclasses import dataclass

from benchbook.numbers import NO_INTERVAL_POOLED, Unit, make_key

from . import EXPERIMENT

#: ``computation`` of the numbers ``analysis.depth_table`` computes itself, of its cost-model terms
#: (``analysis.cost_terms``) and of the per-step overhead (``overhead.with_overhead``).
DEPTH_TABLE = "benchbook.experiments.spec_depth.analysis.depth_table"
COST_TERMS = "benchbook.experiments.spec_depth.analysis.cost_terms"
OVERHEAD = "benchbook.experiments.spec_depth.overhead.with_overhead"


@dataclass(frozen=True)
class Column:
    """How one column of ``analysis.depth_table`` is published, one number per row: ``label`` (after
    "<config> at depth <depth>: "), ``unit``, ``reads`` (the groups of lines it cites, ``cited_lines``),
    ``computation``, ``interval`` ("rate": the log-scale interval over per-repetition rates, "ratio":
    the paired one of a ratio of mean rates, None: none) and ``speculative`` (published for the
    speculative rows only)."""

    label: str
    unit: str
    reads: tuple[str, ...]
    computation: str = DEPTH_TABLE
    interval: str | None = None
    speculative: bool = True
    #: ``ci_method`` of a number of this column published without an interval (n >= 3): why there is none
    no_interval: str = NO_INTERVAL_POOLED


#: The published columns of a depth-table row, in the order they are published.  ``row``: the
#: configuration's requests and its baseline's (the first six columns, published before the others,
#: cite these; a decode or prefill rate reads only its own: ``own``).
COLUMNS: dict[str, Column] = {
    "speedup": Column(
        "decode rate ÷ baseline decode rate", Unit.SPEEDUP, ("row",), interval="ratio", speculative=False
    ),
    "prefill_ratio": Column(
        "prefill rate ÷ baseline prefill rate", Unit.SPEEDUP, ("row",), interval="ratio", speculative=False
    ),
    "decode_tps": Column(
        "decode rate (mean of predicted_per_second)", Unit.TOK_S, ("row",), interval="rate", speculative=False
    ),
    "residual_before": Column(
        "cost model (llama-bench c, r) ÷ measured speedup − 1", Unit.FRACTION, ("row", "bench_before")
    ),
    "residual_after": Column(
        "cost model (c timed in the server) ÷ measured speedup − 1", Unit.FRACTION, ("row", "bench_after")
    ),
    "residual_overhead": Column(
        "cost model (c in the server + per-step overhead from the other configurations) "
        "÷ measured speedup − 1",
        Unit.FRACTION,
        ("row", "overhead"),
        computation=OVERHEAD,
    ),
    "prefill_tps": Column(
        "prefill rate (mean of prompt_per_second)", Unit.TOK_S, ("own",), interval="rate", speculative=False
    ),
    "peak_gpu_mem_mib": Column(
        "peak GPU memory, the most over its requests (nvidia-smi, 0.1 s samples)", Unit.MIB, ("own",),
        speculative=False,
    ),
    "tau": Column(
        "τ, tokens committed per verify step (pooled over its requests)", Unit.TAU, ("own",),
        computation=COST_TERMS,
    ),
    "k": Column(
        "k, drafted tokens per verify step (pooled over its requests)", Unit.DRAFTED_PER_STEP,
        ("own",), computation=COST_TERMS,
    ),
    "c_bench": Column(
        "c, the draft's llama-bench decode step ÷ the target's (1: the target as its own draft)",
        Unit.SPEEDUP, ("own", "bench_c"), computation=COST_TERMS,
    ),
    "r_k1": Column(
        "r(k+1), the target's (k+1)-token llama-bench pass ÷ its decode step", Unit.SPEEDUP,
        ("own", "bench_after"), computation=COST_TERMS,
    ),
    "model_before": Column(
        "cost model τ/(k·c+r(k+1)), c and r from llama-bench", Unit.SPEEDUP, ("own", "bench_before"),
        computation=COST_TERMS,
    ),
    "c_server": Column(
        "c timed inside llama-server: drafting time per drafted token ÷ the baseline's decode step",
        Unit.SPEEDUP, ("own", "baseline"), computation=COST_TERMS,
    ),
    "c_alone": Column(
        "c of the draft served alone: its decode step ÷ the baseline's (1: the target as its own draft)",
        Unit.SPEEDUP, ("own", "alone"), computation=COST_TERMS,
    ),
    "model_after": Column(
        "cost model τ/(k·c_server+r(k+1)), c timed in llama-server", Unit.SPEEDUP,
        ("own", "baseline", "bench_after"),
        computation=COST_TERMS,
    ),
    "v_server": Column(
        "verify step in llama-server: (decode time − drafting time) per verify step ÷ the baseline's "
        "decode step", Unit.SPEEDUP, ("own", "baseline"), computation=COST_TERMS,
    ),
    "overhead_server": Column(
        "the verify step's excess over llama-bench's pass: v_server − r(k+1)", Unit.DECODE_STEPS,
        ("own", "baseline", "bench_after"), computation=COST_TERMS,
    ),
    "beta_loo": Column(
        "β of o(k) = β·(k+1)·c_alone, fitted on the other configurations of its host, session and depth",
        Unit.COEFFICIENT, ("beta",), computation=OVERHEAD,
    ),
    "overhead_model": Column(
        "o(k) = β·(k+1)·c_alone, the per-step overhead predicted from the other configurations",
        Unit.DECODE_STEPS, ("overhead",), computation=OVERHEAD,
    ),
    "model_overhead": Column(
        "cost model τ/(k·c_server+r(k+1)+o(k))", Unit.SPEEDUP, ("overhead",), computation=OVERHEAD,
    ),
}  # fmt: skip

#: The line groups of ``Column.reads`` -> the depth-table columns holding their lines.
LINE_GROUPS = {
    "row": ("lines",),
    "own": ("own_lines",),
    "baseline": ("baseline_lines",),
    "bench_before": ("bench_lines_before",),
    "bench_after": ("bench_lines_after",),
    "bench_c": ("bench_lines_c",),
    # c_alone read the draft's requests served alone and the baseline's (its decode step); none of them
    # for the target as its own draft (c = 1)
    "alone": ("alone_lines",),
    "overhead": ("lines_overhead",),
    "beta": ("lines_beta",),
}
#: Line groups of llama-bench rows: a number citing one of them also carries the cost-model rules
#: (``caveats.with_cost_caveats``: ``cost_caveats``).
BENCH_GROUPS = ("bench_before", "bench_after", "bench_c", "overhead", "beta")


def cited_lines(row: dict, col: str) -> list[int]:
    """The lines of its host's file that ``col`` of a depth-table ``row`` read (``COLUMNS[col].reads``):
    sorted, each once.  c_alone of a draft served alone also reads the baseline's requests.

    >>> row = {"lines": [3, 9], "own_lines": [3], "baseline_lines": [9], "alone_lines": [5]}
    >>> cited_lines(row, "prefill_tps"), cited_lines(row, "c_alone"), cited_lines(row, "speedup")
    ([3], [3, 5, 9], [3, 9])
    """
    lines: set[int] = set()
    for group in COLUMNS[col].reads:
        for name in LINE_GROUPS[group]:
            lines |= set(row.get(name) or [])
    if col == "c_alone" and row.get("alone_lines"):
        lines |= set(row.get("baseline_lines") or [])
    return sorted(lines)


def reads_bench(row: dict, col: str) -> bool:
    """Whether ``col`` of ``row`` read llama-bench rows (a group of ``BENCH_GROUPS`` with lines in
    ``row``): the number then carries the row's ``cost_caveats`` too.

    >>> reads_bench({"bench_lines_c": []}, "c_bench"), reads_bench({"bench_lines_c": [4]}, "c_bench")
    (False, True)
    """
    return any(row.get(name) for g in COLUMNS[col].reads if g in BENCH_GROUPS for name in LINE_GROUPS[g])


def number_key(row: dict, col: str) -> str:
    """The registry key ``report.build`` publishes for ``col`` of a depth-table row
    (``spec_depth-h<host8>-<config_id>-d<depth>-<col>``).

    >>> number_key({"host_id": "3f1dfa40cbf1eb67", "config_id": "self-n4", "depth": 256}, "speedup")
    'spec_depth-h3f1dfa40-self-n4-d256-speedup'
    """
    return make_key(EXPERIMENT, f"h{row['host_id'][:8]}", row["config_id"], f"d{row['depth']}", col)


def cell_key(row: dict, col: str) -> str | None:
    """``number_key`` of a ``COLUMNS`` column's cell; None for any other column (a label: host,
    configuration, depth, n, the greedy-output flag).

    >>> row = {"host_id": "3f1dfa40cbf1eb67", "config_id": "baseline", "depth": 0}
    >>> cell_key(row, "decode_tps"), cell_key(row, "tau"), cell_key(row, "n")
    ('spec_depth-h3f1dfa40-baseline-d0-decode_tps', 'spec_depth-h3f1dfa40-baseline-d0-tau', None)
    """
    return number_key(row, col) if col in COLUMNS else None


def bench_key(row: dict, col: str) -> str | None:
    """The key of a bench.md cell (``col`` "pp" or "tg" of a row of the wide llama-bench table:
    host_id, model_id, n_depth, pp_n_prompt, tg_n_gen); None for a label column.

    >>> row = {"host_id": "e3618a24b4e44752", "model_id": "smollm2-135m-q4_1", "n_depth": 2048,
    ...        "pp_n_prompt": 512, "tg_n_gen": 128}
    >>> bench_key(row, "pp"), bench_key(row, "n_depth")
    ('spec_depth-he3618a24-bench-smollm2-135m-q4_1-d2048-pp512', None)
    """
    if col not in ("pp", "tg"):
        return None
    size = row["pp_n_prompt"] if col == "pp" else row["tg_n_gen"]
    return make_key(
        EXPERIMENT, f"h{row['host_id'][:8]}", "bench", row["model_id"], f"d{row['n_depth']}", f"{col}{size}"
    )


def memory_key(row: dict, col: str) -> str | None:
    """The key of a memory.md cell (``mib_per_draft_token`` of ``analysis.memory_per_draft_token``).

    >>> memory_key({"host_id": "e3618a24b4e44752", "draft_model_id": "smollm2-135m-q4_1", "depth": 0},
    ...            "mib_per_draft_token")
    'spec_depth-he3618a24-mem-smollm2-135m-q4_1-d0-mib_per_draft_token'
    """
    if col != "mib_per_draft_token":
        return None
    return make_key(
        EXPERIMENT, f"h{row['host_id'][:8]}", "mem", row["draft_model_id"], f"d{row['depth']}", col
    )


#: The published columns of hosts.md (``hostspec.host_table``).
HOST_COLUMNS = ("speedup", "tau", "model", "residual")


def host_key(row: dict, col: str) -> str | None:
    """The key of a hosts.md cell (a ``HOST_COLUMNS`` column of ``hostspec.host_table``).

    >>> host_key({"host_id": "246274abff670295", "config_id": "self-n4"}, "speedup")
    'spec_depth-h246274ab-speculative-self-n4-speedup'
    """
    if col not in HOST_COLUMNS:
        return None
    return make_key(EXPERIMENT, f"h{row['host_id'][:8]}", "speculative", row["config_id"], col)
