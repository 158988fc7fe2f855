"""llama-bench sweep measurement (stage ``llama_bench``): the plan (``plan.plan``) run in one session.

Per model: the cold run first (``cold_first_run``; the file evicted from the page cache, ``--no-warmup
-r 1``), then the warm run (llama-bench's warmup, ``-r repetitions``); a resumed session skips runs
already completed; every output row becomes a ``benchbook.llama_bench`` record.
Entry point: ``measure(params, root=, raw_dir=, overrides=)`` (see ``benchbook.experiments``).
"""

from __future__ import annotations

import shlex
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from benchbook import blocks, resolve
from benchbook.llamacpp.bench import SCHEMA, append_result, build_argv, evict_from_page_cache, resident_pct  # noqa: F401
from benchbook.llamacpp.procmon import run_sampled
from benchbook.provenance import HostSnapshot, git_state, load_snapshot
from benchbook.records import new_id, utc_now
from benchbook.session import Session, SessionResult

from ..harness import OK, Outcome, run_plan
from .plan import BenchRun, LlamaBenchParams, plan


def run_session(
    *,
    cfg: dict | LlamaBenchParams,
    bench_bin: Path,
    models: list[dict],
    toolchain: dict,
    host: HostSnapshot,
    root: Path,
    raw_file: Path,
    log=print,
) -> SessionResult:
    """Run the llama-bench matrix of ``cfg`` (the ``llama_bench`` section, a dict or ``LlamaBenchParams``)
    for ``models`` in one session appended to ``raw_file``, through ``harness.run_plan``.

    ``models``: model records (``models.fetch``) with ``model_id``, ``path``, ``sha256``.
    Order: ``plan.plan`` (for each model, the cold run if ``cold_first_run``, then the warm run); a
    resumed session skips runs already completed.  A failed invocation is recorded with
    ``status: "failed"``, its exit code and stderr tail, the session goes on and gets no end record
    (every model and phase is part of the sweep's table).

    Returns the session's ``SessionResult`` (``cfg``: the merged section).

    Raises:
        errors.ParamsError: ``cfg`` does not fit ``LlamaBenchParams`` (names the key and the fix).
    """
    params = cfg if isinstance(cfg, LlamaBenchParams) else LlamaBenchParams.from_section(cfg)
    git = git_state(root)
    toolchain_id = toolchain["toolchain_id"]
    meta = {"host_id": host.host_id, "toolchain_id": toolchain_id, "config": params.config()}

    def measure_run(sess: Session, run: BenchRun) -> Outcome:
        path = run.model["path"]
        cache_state = (
            evict_from_page_cache(path)
            if run.phase == "cold"
            else {"method": None, "resident_before_pct": resident_pct(path)}
        )
        argv = build_argv(bench_bin, path, params.config(), run.phase)
        log(f"$ {shlex.join([Path(argv[0]).name, *argv[1:]])}")
        load_start, started = load_snapshot(), utc_now()
        res = run_sampled(argv, params.timeout_s)
        ended, load_end = utc_now(), load_snapshot()
        base = {
            "run_id": new_id(),
            "run_key": run.key,
            "origin": "native",
            "experiment": "llama_bench",
            "phase": run.phase,
            "config": run.config,
            "argv": [Path(argv[0]).name] + argv[1:],
            "host_id": host.host_id,
            "toolchain_id": toolchain_id,
            "model_id": run.model["model_id"],
            "model_sha256": run.model["sha256"],
            **{k: git[k] for k in ("git_commit", "git_dirty")},
            "started_at": started,
            "ended_at": ended,
            "load_start": load_start,
            "load_end": load_end,
            "cache_state": cache_state,
            "peak_rss_bytes": res.peak_rss_bytes,
            "peak_gpu_mem_mib": res.peak_gpu_mem_mib,
            "wall_ns": res.wall_ns,
        }
        if append_result(sess, base, res, f"llama-bench stdout ({run.label})"):
            return OK
        return Outcome(False, f"exit {res.returncode}")

    return run_plan(
        experiment="llama_bench",
        raw_file=raw_file,
        meta=meta,
        runs=plan(params, models, toolchain_id, host.host_id),
        measure_run=measure_run,
        cfg=params.config(),
        log=log,
    )


def measuring_line(
    cfg: LlamaBenchParams, models: list[dict], toolchain: dict, host_id: str, raw_file: Path, root: Path
) -> str:
    """The line ``measure`` prints before it runs (issue 33: it printed a toolchain id, a Python list and
    the raw file's absolute path): which models, how many runs of what, the build, and where the
    records go (relative to the repository).

    (``tests/test_writeup_new.py`` holds an example.)
    """
    runs = plan(cfg, models, toolchain.get("toolchain_id"), host_id)
    c = cfg.config()
    phases = (
        f"cold, then warm with {c['repetitions']} repetitions"
        if c.get("cold_first_run")
        else (f"warm, {c['repetitions']} repetitions")
    )
    tests = f"pp{c['n_prompt']} and tg{c['n_gen']} each" + (
        f", depth {c['n_depth']}" if c.get("n_depth") else ""
    )
    where = raw_file.relative_to(root) if raw_file.is_relative_to(root) else raw_file
    return (
        f"llama_bench: measuring {', '.join(m['model_id'] for m in models)}: {len(runs)} run"
        f"{'s' if len(runs) != 1 else ''} ({phases}; {tests}), build b{toolchain.get('build_number', '?')} "
        f"(toolchain {str(toolchain.get('toolchain_id'))[:8]}) -> {where}"
    )


@dataclass
class LlamaBenchResult(SessionResult):
    """``SessionResult`` plus the model ids measured."""

    models: list[str] = field(default_factory=list)


def measure(
    params: dict, *, root: Path, raw_dir: Path, overrides: dict | None = None, log=print
) -> LlamaBenchResult:
    """The stage ``llama_bench``: one session of the sweep in ``params["llama_bench"]`` (+ ``overrides``).

    ``params``: the whole ``params.yaml`` mapping (``toolchain`` and ``models`` resolve the build and
    the model files; neither is built nor fetched here).  Writes ``raw_dir/llama_bench/<host_id>.jsonl``
    and the snapshots under ``raw_dir/snapshots/``.  Returns ``run_session``'s result (``cfg``: the merged
    section) with ``models`` (model ids).

    Raises:
        errors.ParamsError: the section does not fit ``LlamaBenchParams`` (names the key and the fix).
        errors.ParamsError, llamacpp.toolchain.ToolchainError, llamacpp.models.ModelError: the build or
        a model is missing (the message names the fix).
    """
    root, raw_dir = Path(root), Path(root) / raw_dir
    cfg = LlamaBenchParams.from_params(params, overrides)
    toolchain = resolve.get_toolchain(params, build=False)
    models = resolve.get_models(params, cfg.models, toolchain)
    host = resolve.store_snapshots(raw_dir / "snapshots", toolchain, models)
    raw_file = raw_dir / "llama_bench" / f"{host.host_id}.jsonl"
    log(measuring_line(cfg, models, toolchain.record, host.host_id, raw_file, root))
    result = run_session(
        cfg=cfg,
        bench_bin=toolchain.binary("llama-bench"),
        models=models,
        toolchain=toolchain.record,
        host=host,
        root=root,
        raw_file=raw_file,
        log=log,
    )
    return LlamaBenchResult(**vars(result), models=[m["model_id"] for m in models])


def sections(result: LlamaBenchResult) -> Iterator[blocks.Block]:
    """What the measurement notebook shows (``notebooks/measure.ipynb -p experiment llama_bench``, through
    ``blocks.show``): the session's summary, one row per llama-bench result of the session, then the
    checks (``AssertionError`` on a failed one): no failure, both tests per (model, phase), every warm row
    with ``repetitions`` raw samples (a cold row one)."""
    import polars as pl

    from benchbook.records import read_records

    cfg = result.cfg
    yield blocks.Value({k: v for k, v in vars(result).items() if k != "cfg"})
    raw_file = result.raw_file
    assert raw_file is not None, "the session names no raw file"
    recs = [r for r in read_records([raw_file], SCHEMA) if r["session_id"] == result.session_id]
    table = pl.DataFrame(
        [
            {
                "model_id": r["model_id"],
                "phase": r["phase"],
                "n_prompt": r["llama_bench"]["n_prompt"],
                "n_gen": r["llama_bench"]["n_gen"],
                "reps": len(r["llama_bench"]["samples_ns"]),
                "avg_ts": r["llama_bench"]["avg_ts"],
                "stddev_ts": r["llama_bench"]["stddev_ts"],
                "resident_before_pct": r["cache_state"]["resident_before_pct"],
                "line": r["_line"],
            }
            for r in recs
        ]
    )
    yield blocks.Value(table)
    yield blocks.Markdown(
        "## Checks\nThe session completed without failures, every (model, phase) ran both tests, and every "
        "warm row holds exactly `repetitions` raw samples (cold rows one)."
    )
    phases = 1 + bool(cfg.get("cold_first_run"))
    assert result.failed == 0, result
    assert table.height == len(result.models) * phases * 2, table.height
    assert set(table["model_id"]) == set(cfg["models"])
    for row in table.iter_rows(named=True):
        assert row["reps"] == (1 if row["phase"] == "cold" else cfg["repetitions"]), row
        assert row["avg_ts"] > 0
    assert table.null_count().select("avg_ts", "reps").sum_horizontal().item() == 0
    yield blocks.Text(f"ok: {table.height} rows")
