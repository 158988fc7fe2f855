"""The one llama-bench row kind (benchbook.llama_bench v3) and its one reader (benchbook.benchrows): the
retired kinds' committed records read as it with exact fields, the reader on the committed data (rows per
experiment, file:line as the raw files hold them), and a record written by each runner is the one kind."""

from __future__ import annotations

import json
import stat
import sys
from pathlib import Path

import polars as pl
import pytest

from benchbook import benchrows, migrations, schemas
from benchbook.experiments import (
    offload,  # noqa: F401  (declares its other kinds: data/raw/offload)
    spec_depth,  # noqa: F401  (declares its request kind: data/raw/spec_depth)
)
from benchbook.experiments.harness import run_model_bench
from benchbook.llamacpp.bench import append_result
from benchbook.llamacpp.procmon import ProcResult
from benchbook.records import iter_records
from benchbook.session import Session
from conftest import committed_root

ROOT = Path(__file__).resolve().parents[1]
RAW = committed_root() / "data" / "raw"
#: the experiments whose raw folders hold llama-bench rows (the other folders hold kinds declared by their
#: packages: draftself_gpu's training records)
EXPERIMENTS = ("llama_bench", "speculative", "spec_depth", "offload", "tool_gap")
FIXTURE_ROW = json.loads((ROOT / "tests/fixtures/llama_bench_b11434.jsonl").read_text().splitlines()[0])


def _raw_rows() -> dict[str, list[tuple[str, int, dict]]]:
    """experiment -> (file, line, record) of every llama-bench row record, read with json (not the reader)."""
    out: dict[str, list] = {}
    for f in [f for exp in EXPERIMENTS for f in benchrows.files(RAW / exp)]:
        for i, rec in iter_records(f):
            if rec["schema"] in schemas.LLAMA_BENCH_SCHEMAS:
                out.setdefault(rec["experiment"], []).append((str(f), i, rec))
    return out


def test_the_one_reader_reads_every_experiments_rows_at_their_lines():
    raw = _raw_rows()
    # committed: llama_bench 48 + 24 rows (v1), speculative cost 27 + 18 + 18 (speculative_cost v1),
    # spec_depth 99 + 44 (spec_depth.bench v1), offload 10 (offload v1), tool_gap 4 (its one llama-bench
    # call: tg and -p 5, each at depth 0 and 256); every run complete
    assert {e: len(v) for e, v in raw.items()} == {
        "llama_bench": 72,
        "speculative": 63,
        "spec_depth": 143,
        "offload": 10,
        "tool_gap": 4,
    }
    rows = benchrows.read(RAW, only=["run_id", "experiment", "session_id", "host_id", "llama_bench"])
    assert rows.height == 72 + 63 + 143 + 10 + 4
    assert rows["schema"].unique().to_list() == ["benchbook.llama_bench"]
    assert rows["schema_version"].unique().to_list() == [3]
    for exp, want in raw.items():
        got = rows.filter(pl.col("experiment") == exp)
        # file:line as the raw files hold them, in file and line order; the run and session fields kept
        assert got.select("file", "line").rows() == [(f, i) for f, i, _ in want]
        assert got["run_id"].to_list() == [r["run_id"] for *_, r in want]
        assert got["session_id"].to_list() == [r["session_id"] for *_, r in want]
        assert got["llama_bench"].struct.field("avg_ts").to_list() == [
            r["llama_bench"]["avg_ts"] for *_, r in want
        ]
        # one experiment's folder reads the same rows
        alone = benchrows.read(RAW / exp, exp, only=["run_id", "experiment"])
        assert alone.select("file", "line").rows() == got.select("file", "line").rows()


def _first(schema: str) -> tuple[str, int, dict]:
    for f in [f for exp in EXPERIMENTS for f in benchrows.files(RAW / exp)]:
        for i, rec in iter_records(f):
            if rec["schema"] == schema:
                return str(f), i, rec
    raise AssertionError(schema)


@pytest.mark.parametrize(
    "schema",
    [
        "benchbook.speculative_cost",
        "benchbook.spec_depth.bench",
        "benchbook.offload",
        "benchbook.llama_bench",
    ],
)
def test_a_committed_record_of_each_kind_upgrades_to_the_one_kind_field_for_field(schema):
    f, line, rec = _first(schema)
    assert schemas.check_record(rec).schema == schema  # the raw record is still its own kind, unchanged
    rows = benchrows.read(Path(f).parent)
    got = rows.filter(pl.col("line") == line).row(0, named=True)
    assert (got["file"], got["line"], got["schema"], got["schema_version"]) == (
        f,
        line,
        "benchbook.llama_bench",
        3,
    )
    # v1 records are our runners': origin native; nothing else is invented
    assert got["origin"] == "native" and rec.get("origin") is None
    declared = schemas.polars_schema("llama_bench")
    for name in declared:
        if name in ("schema", "schema_version", "origin"):
            continue
        if name not in rec:
            assert got[name] is None, name  # a field the record does not hold is null (unknown)
        elif name in (
            "config",
            "llama_bench",
            "load_start",
            "load_end",
            "cache_state",
            "placement",
            "decode_bytes",
            "ballast",
        ):
            members = dict(declared[name].to_schema())
            assert {k: v for k, v in got[name].items() if k in rec[name]} == {
                k: v for k, v in rec[name].items() if k in members
            }, name
            assert all(got[name][k] is None for k in members if k not in rec[name]), name
        else:
            assert got[name] == rec[name], name


def test_the_upgraded_fields_of_each_retired_kind_by_hand():
    # data/raw/speculative/246274abff670295.jsonl:2, the first cost row: the target's -p 1 test
    sc = benchrows.read(RAW / "speculative").row(0, named=True)
    assert (sc["line"], sc["experiment"], sc["role"], sc["phase"]) == (2, "speculative", "target", None)
    assert sc["config"]["argv_tail"] == [
        "-p",
        "1,2,3,5,9,16",
        "-n",
        "32",
        "-t",
        "2",
        "-r",
        "5",
        "-o",
        "jsonl",
    ]
    assert (sc["llama_bench"]["n_prompt"], sc["llama_bench"]["n_gen"]) == (1, 0)
    assert sc["llama_bench"]["samples_ns"] == [12656151, 8400045, 8364572, 10377459, 8493273]
    # data/raw/spec_depth/3f1dfa40cbf1eb67.jsonl:2: the target's -p 1 at depth 0, 2 repetitions
    sd = benchrows.read(RAW / "spec_depth").row(0, named=True)
    assert (sd["line"], sd["experiment"], sd["role"], sd["llama_bench"]["n_depth"]) == (
        2,
        "spec_depth",
        "target",
        0,
    )
    assert sd["llama_bench"]["samples_ns"] == [124274781, 70859046] and sd["profile"] is None
    # data/raw/offload/e3618a24b4e44752.jsonl:16: the n_cpu_moe 7 point's pp512 row under a 12 GiB budget
    of = benchrows.read(RAW / "offload").row(0, named=True)
    assert (of["line"], of["experiment"], of["phase"], of["n_cpu_moe"], of["budget_free_mib"]) == (
        16,
        "offload",
        "warm",
        7,
        12288,
    )
    assert of["placement"]["cpu_expert_blocks"] == [0, 1, 2, 3, 4, 5, 6] and of["role"] is None
    assert (of["config"]["n_cpu_moe"], of["config"]["budget_free_mib"]) == (7, 12288)


def test_read_as_and_upgrade_as():
    assert [migrations.read_as(s) for s in schemas.LLAMA_BENCH_SCHEMAS] == ["benchbook.llama_bench"] * 4
    assert migrations.read_as("benchbook.speculative_request") == "benchbook.speculative_request"
    df = pl.DataFrame(
        {
            "schema": ["benchbook.offload", "benchbook.llama_bench", "benchbook.speculative_cost"],
            "schema_version": [1, 1, 1],
            "origin": [None, None, None],
            "n": [0, 1, 2],
        },
        schema_overrides={"origin": pl.String},
    )
    up = migrations.upgrade_as(df, "benchbook.llama_bench")
    # order kept; every row the one kind at v3, origin native (v1 llama_bench by its v1 -> v2 backfill)
    assert up["n"].to_list() == [0, 1, 2] and up["schema_version"].to_list() == [3, 3, 3]
    assert (
        up["schema"].unique().to_list() == ["benchbook.llama_bench"]
        and up["origin"].to_list() == ["native"] * 3
    )
    with pytest.raises(
        migrations.MigrationError, match="'benchbook.speculative_request' records are not read as"
    ):
        migrations.upgrade_as(
            df.with_columns(schema=pl.lit("benchbook.speculative_request")), "benchbook.llama_bench"
        )


def test_a_record_the_retired_kind_checked_still_fails_with_its_line(tmp_path):
    # an offload row of phase cold: the retired kind's own check names it (the one kind would allow cold)
    f, line, rec = _first("benchbook.offload")
    bad = tmp_path / "offload" / "h.jsonl"
    bad.parent.mkdir()
    bad.write_text(json.dumps({**rec, "phase": "cold"}) + "\n")
    with pytest.raises(Exception, match=rf"{bad}:1: field 'phase' must be 'warm'"):
        benchrows.read(bad.parent)
    report: dict = {}
    assert benchrows.read(bad.parent, on_error="skip", report=report).height == 0 and report["invalid"] == 1


# ---- what the runners write ----------------------------------------------------------------------------


def _fake_llama_bench(tmp_path: Path) -> Path:
    """An executable that prints one llama-bench jsonl row (the b11434 fixture's) per test of its argv:
    a pp row per non-zero -p value and a tg row per non-zero -n value, at each -d depth."""
    script = tmp_path / "llama-bench"
    script.write_text(
        f"#!{sys.executable}\n"
        "import json, sys\n"
        f"row = {FIXTURE_ROW!r}\n"
        "a = sys.argv\n"
        "opt = lambda k, d: a[a.index(k) + 1].split(',') if k in a else d\n"
        "for d in opt('-d', ['0']):\n"
        "    tests = [(int(p), 0) for p in opt('-p', ['512']) if int(p)]\n"
        "    tests += [(0, int(n)) for n in opt('-n', ['128']) if int(n)]\n"
        "    for p, n in tests:\n"
        "        print(json.dumps({**row, 'n_prompt': p, 'n_gen': n, 'n_depth': int(d)}))\n"
    )
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return script


def _rows_written(path: Path) -> list[dict]:
    recs = [r for _, r in iter_records(path) if r["schema"] == "benchbook.llama_bench"]
    for r in recs:
        assert schemas.check_record(r).key == "llama_bench" and r["schema_version"] == 3
    return recs


def test_the_speculative_cost_runs_write_the_one_kind(tmp_path):
    from benchbook.experiments.speculative import plan as spec_plan

    target = {"model_id": "t", "sha256": "a" * 64, "path": str(tmp_path / "t.gguf")}
    draft = {"model_id": "d", "sha256": "b" * 64, "path": str(tmp_path / "d.gguf")}
    cfg = {"threads": 2, "cost_model": {"p_sizes": [1, 3], "n_gen": 8, "repetitions": 3}}
    cfg |= {"ctx_size": 512, "repetitions": 1}  # the keys a resolved profile must have, and a config
    cfg["configs"] = [{"id": "baseline", "spec_type": "none", "policy": "fresh"}]
    runs = spec_plan.cost_runs(spec_plan.SpeculativeParams.of(cfg), target, [draft], "tc", "h")
    raw = tmp_path / "speculative" / "h.jsonl"
    base = {
        "experiment": "speculative",
        "host_id": "h",
        "toolchain_id": "tc",
        "git_commit": None,
        "git_dirty": None,
    }
    with Session.open(raw, "speculative", {"host_id": "h"}) as sess:
        base["session_id"] = sess.session_id
        outcomes = [
            run_model_bench(
                sess, run, bench_bin=_fake_llama_bench(tmp_path), timeout_s=60, base=base, log=lambda *_: None
            )
            for run in runs
        ]
    failed = sum(not o.ok for o in outcomes)
    assert failed == 0
    recs = _rows_written(raw)
    # the target: -p 1,3 -n 8 = 3 rows; the draft: -p 0 -n 8 = 1 row
    assert [(r["role"], r["llama_bench"]["n_prompt"], r["llama_bench"]["n_gen"]) for r in recs] == [
        ("target", 1, 0),
        ("target", 3, 0),
        ("target", 0, 8),
        ("draft", 0, 8),
    ]
    assert {r["origin"] for r in recs} == {"native"} and {r["experiment"] for r in recs} == {"speculative"}
    # ... and the cost model reads them through the one reader
    from benchbook.experiments.speculative import analysis as spec_analysis

    cm = spec_analysis.cost_model(raw.parent, recs[0]["session_id"])
    # every row is the fixture's samples (287720033, 318788296, 128296932 ns: median 287720033):
    # t1 = 287720033 / 8 ns; r(1) = r(3) = 287720033 / t1 = 8; c(d) = t1 / t1 = 1
    assert cm is not None and cm.r == {1: 8.0, 3: 8.0} and cm.c == {"d": 1.0, "t": 1.0}
    assert cm.lines == [2, 3, 4, 5] and cm.t1_ms == pytest.approx(287720033 / 8 / 1e6)


def test_the_depth_sweep_runs_write_the_one_kind(tmp_path):
    from benchbook.experiments.spec_depth import analysis as sd_analysis
    from benchbook.experiments.spec_depth import plan as sd_plan

    target = {"model_id": "t", "sha256": "a" * 64, "path": str(tmp_path / "t.gguf")}
    cfg = {
        "depths": [0, 256],
        "pp_sizes": [1],
        "n_prompt": 16,
        "n_gen": 8,
        "threads": 2,
        "n_gpu_layers": 99,
        "flash_attn": "auto",
        "repetitions": 3,
        "timeout_s": 60,
    }
    runs = sd_plan.bench_runs(cfg, target, [], "tc", "h")
    raw = tmp_path / "spec_depth" / "h.jsonl"
    base = {"experiment": "spec_depth", "host_id": "h", "toolchain_id": "tc", "profile": None}
    base |= {"git_commit": None, "git_dirty": None}
    with Session.open(raw, "spec_depth", {"host_id": "h"}) as sess:
        base["session_id"] = sess.session_id
        outcomes = [
            run_model_bench(
                sess, run, bench_bin=_fake_llama_bench(tmp_path), timeout_s=60, base=base, log=lambda *_: None
            )
            for run in runs
        ]
    failed = sum(not o.ok for o in outcomes)
    assert failed == 0
    recs = _rows_written(raw)
    # -p 1,16 -n 8 -d 0,256: 3 tests at each of 2 depths
    assert len(recs) == 6 and {r["role"] for r in recs} == {"target"}
    bench = sd_analysis.bench_table(tmp_path)
    assert bench.select("n_depth", "n_prompt", "n_gen").rows() == [
        (0, 1, 0),
        (0, 16, 0),
        (0, 0, 8),
        (256, 1, 0),
        (256, 16, 0),
        (256, 0, 8),
    ]
    assert bench["line"].to_list() == [2, 3, 4, 5, 6, 7] and bench["n"].to_list() == [3] * 6


def test_the_llama_bench_sweep_writes_the_one_kind(tmp_path):
    from benchbook.experiments.llama_bench import analysis as lb_analysis
    from benchbook.experiments.llama_bench import run as lb_run
    from benchbook.provenance import host_snapshot

    model = tmp_path / "m.gguf"
    model.write_bytes(b"GGUF" + bytes(4096))
    cfg = {
        "models": ["m"],
        "n_prompt": 16,
        "n_gen": 8,
        "n_depth": 0,
        "repetitions": 3,
        "threads": 2,
        "n_gpu_layers": 0,
        "flash_attn": "auto",
        "cold_first_run": True,
        "timeout_s": 60,
    }
    raw = tmp_path / "llama_bench" / "h.jsonl"
    lb_run.run_session(
        cfg=cfg,
        bench_bin=_fake_llama_bench(tmp_path),
        models=[{"model_id": "m", "sha256": "c" * 64, "path": str(model)}],
        toolchain={"toolchain_id": "tc"},
        host=host_snapshot(),
        root=ROOT,
        raw_file=raw,
        log=lambda *_: None,
    )
    recs = _rows_written(raw)
    assert [(r["phase"], r["llama_bench"]["n_prompt"], r["llama_bench"]["n_gen"]) for r in recs] == [
        ("cold", 16, 0),
        ("cold", 0, 8),
        ("warm", 16, 0),
        ("warm", 0, 8),
    ]
    assert lb_analysis.load_llama_bench(raw.parent)["line"].to_list() == [2, 3, 4, 5]


@pytest.mark.parametrize("experiment", ["llama_bench", "speculative", "spec_depth", "offload"])
def test_each_experiments_committed_run_fields_write_the_one_kind(tmp_path, experiment):
    """The fields each runner passes to ``append_result`` (its committed rows less the per-row fields: the
    runners' record fields are unchanged, only the kind is one) make a valid benchbook.llama_bench v3 row."""
    _, _, rec = next(r for r in _raw_rows()[experiment])
    per_row = {"schema", "schema_version", "session_id", "row_index", "rows_total", "run_complete", "status"}
    base = {k: v for k, v in rec.items() if k not in per_row | {"llama_bench"}}
    stdout = json.dumps({**FIXTURE_ROW, "n_prompt": 16, "n_gen": 0}) + "\n"
    argv = ["llama-bench", "-p", "16", "-n", "0"]
    res = ProcResult(
        returncode=0, stdout=stdout, stderr="", wall_ns=1, peak_rss_bytes=1000, peak_gpu_mem_mib=None
    )
    raw = tmp_path / "h.jsonl"
    with Session.open(raw, experiment, {"host_id": rec["host_id"]}) as sess:
        assert append_result(sess, {**base, "argv": argv}, res, "fake")
    (got,) = _rows_written(raw)
    assert got["experiment"] == experiment and got["origin"] == "native"
    assert benchrows.read(tmp_path, experiment)["line"].to_list() == [2]


@pytest.mark.parametrize(
    ("experiment", "missing", "field"),
    [
        ("llama_bench", "phase", "phase"),  # a sweep's row names its phase
        ("speculative", "role", "role"),  # a cost model's row names the model's role
        ("offload", "placement", "placement"),  # an offload row carries its point
        ("offload", "config.budget_free_mib", "config.budget_free_mib"),
    ],
)
def test_a_row_lacking_what_its_use_needs_is_refused(experiment, missing, field):
    _, _, rec = next(r for r in _raw_rows()[experiment])
    rec = {k: v for k, v in rec.items() if k not in ("schema", "schema_version")} | {"origin": "native"}
    schemas.build("llama_bench", **rec)  # as committed: valid
    parent, _, member = missing.partition(".")
    if member:
        rec[parent] = {k: v for k, v in rec[parent].items() if k != member}
    else:
        del rec[parent]
    with pytest.raises(schemas.SchemaError, match=f"required field '{field}' is missing"):
        schemas.build("llama_bench", **rec)
