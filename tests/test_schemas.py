"""benchbook.schemas: every committed record validates against its declared kind (vectorized and per record),
build refuses bad records with exact messages, unknown kinds and newer versions name file:line, and the
derived Polars schema reads the committed llama-bench files as lb_analysis.LLAMA_BENCH_FIELDS does."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import polars as pl
import pytest

from benchbook import ingest, jsonl, schemas
from benchbook.experiments import (
    draftself_gpu,  # noqa: F401  (declares the draftself_gpu training kind: data/raw/draftself_gpu)
    offload,  # noqa: F401  (declares the offload kinds: data/raw/offload)
    spec_depth,  # noqa: F401  (declares the spec_depth kinds: data/raw/spec_depth)
    tool_gap,  # noqa: F401  (declares the tool_gap request kind: data/raw/tool_gap)
)
from benchbook.experiments.llama_bench import analysis as lb_analysis
from benchbook.records import iter_records
from conftest import committed_root

ROOT = Path(__file__).resolve().parents[1]
#: the committed data (git HEAD): records a local `make run` appended are not part of what is counted here
DATA = committed_root()
RAW = sorted(p for p in (DATA / "data" / "raw").rglob("*.jsonl") if not p.name.endswith(".quarantine.jsonl"))
FIX = ROOT / "tests" / "fixtures"

#: committed records per (kind, version): `wc -l` of each file, split by schema (data/raw, 7627 lines; the
#: H200 session added 12 llama_bench, 26 offload-file and 2 snapshot lines; issue 15's H200 session 142
#: spec_depth, 155 speculative and 5 snapshot lines, the CPU host's spec_depth sweep 40 and 2 snapshots;
#: issue 15's draft-self H200 sessions: 2 × (start, 252 runs, end) and 2 training records, 510 lines;
#: issue 15 item 4's -lv 4 sessions: the H200's speculative 5b481365 (144 requests, 9 cost rows, start/end,
#: 1 toolchain snapshot), this CPU host's speculative 521afbb1 and e5c68027 (2 × 144 + 2 × 9 + 2 × 2) and
#: spec_depth 5d2b86d3 and f349b5cc (2 × (33 bench + 36 requests + start/end)); issue 31's tool_gap
#: session eccf2f6c of CPU host 8b0c3265: 4 llama-bench rows (v3), 90 requests, start/end, host and
#: toolchain snapshots)
COMMITTED = {
    ("draftself_step", 1): 5516,
    ("draftself_run", 1): 1176,
    ("draftself_run", 2): 504,
    ("draftself_gpu_train", 1): 2,
    ("speculative_request", 1): 432,
    ("speculative_request", 2): 576,
    ("llama_bench", 1): 72,
    ("speculative_cost", 1): 63,
    ("session_start", 1): 22,
    ("session_end", 1): 20,
    ("draftself_session", 1): 4,
    ("model", 1): 8,
    ("host", 1): 6,
    ("toolchain", 1): 7,
    ("offload", 1): 10,
    ("offload_bandwidth", 1): 1,
    ("offload_model_bytes", 1): 10,
    ("run_failed", 1): 3,
    ("spec_depth_bench", 1): 143,
    ("spec_depth_request", 1): 174,
    ("llama_bench", 3): 4,
    ("tool_gap_request", 1): 90,
}


def _rows_of(df: pl.DataFrame, k: schemas.Kind) -> pl.DataFrame:
    sel = pl.col("schema") == k.schema
    if k.event:
        sel = sel & (pl.col("event") == k.event)
    return df.filter(sel)


def test_committed_records_validate_vectorized():
    env = jsonl.scan_jsonl(RAW, schemas.KIND_COLUMNS).collect()
    schemas.check_kinds(env)  # every kind known, no version newer than CURRENT
    counts = Counter()
    for k in schemas.KINDS.values():
        if k.document or k.key == "quarantine":  # its own file/line fields clash with the reader's columns
            continue
        df = _rows_of(
            jsonl.scan_jsonl(RAW, {**schemas.polars_schema(k.key), "event": pl.String}).collect(), k
        )
        report = {}
        kept = jsonl.validate(df, schemas.checks(k.key), on_error="skip", report=report)
        assert report == {}, (k.key, report.get("invalid_examples", [])[:3])
        for v, n in kept.group_by("schema_version").len().iter_rows():
            counts[(k.key, v)] = n
    assert dict(counts) == COMMITTED
    assert sum(COMMITTED.values()) == env.height == 8843


def test_committed_records_validate_per_record():
    counts = Counter()
    for f in RAW:
        for i, rec in iter_records(f):
            counts[(schemas.check_record(rec, f"{f}:{i}").key, rec["schema_version"])] += 1
    assert dict(counts) == COMMITTED
    docs = [DATA / "data" / "draftself" / "checkpoint.json", *sorted((FIX / "registry").glob("*.json"))]
    # the checkpoint manifest and the six experiments' registries (tests/fixtures/registry)
    assert [schemas.check_record(json.loads(p.read_text()), str(p)).key for p in docs] == [
        "draftself_checkpoint",
        *["numbers"] * 7,
    ]


def test_llama_bench_fixture_rows_fit_the_declared_row():
    """tests/fixtures/*.jsonl are llama-bench's own rows (b11434 -o jsonl): the declared row member
    reads them."""
    row_dtype = schemas.LLAMA_BENCH.field("llama_bench").dtype
    files = [FIX / "llama_bench_b11434.jsonl", FIX / "ingest" / "llama_bench_b11434.jsonl"]
    df = pl.concat([pl.read_ndjson(f, schema=dict(row_dtype.to_schema())) for f in files])
    assert df.height == 4
    assert (
        df.select(pl.all().null_count()).sum_horizontal().item() == 0
    )  # every declared member present, typed
    assert df["build_number"].to_list() == [11434] * 4


def test_ingested_fixtures_are_native_kinds(tmp_path):
    counts = Counter()
    out = tmp_path / "ingested.jsonl"
    for f in sorted((FIX / "ingest").iterdir()):
        if f.name == "README.md":
            continue
        recs = ingest.ingest_file(f)
        for r in recs:
            counts[(schemas.check_record(r, str(f)).key, r["schema_version"])] += 1
        ingest.write_records(recs, out)
    # llama-bench: csv/sql/json/jsonl/md/ot.md 2 rows each (-r 2 of pp16 and tg8) = 12, legacy json 2
    # and legacy md 3 = 17 rows; server logs: 1 + 2 requests; speculative-simple: 2 summaries
    assert dict(counts) == {
        ("llama_bench", 3): 17,
        # + llama_server_warm_b11434.log (2 requests, issue 12); saved responses (issue 28): the /completion
        # response 1, server_responses_client.jsonl 2, oai_chat_responses.json 2
        ("speculative_request", 2): 10,
        ("ingest_speculative_simple", 1): 2,
    }
    env = jsonl.scan_jsonl([out], schemas.KIND_COLUMNS).collect()
    schemas.check_kinds(env)
    for key in ("llama_bench", "speculative_request", "ingest_speculative_simple"):
        df = _rows_of(jsonl.scan_jsonl([out], schemas.polars_schema(key)).collect(), schemas.kind(key))
        assert jsonl.validate(df, schemas.checks(key)).height == df.height


def _project(expr: pl.Expr, new: pl.DataType, old: pl.DataType) -> pl.Expr:
    """``expr`` (of dtype ``new``) cut down to ``old``'s struct members, recursively."""
    if isinstance(old, pl.Struct):
        newf = dict(new.to_schema())
        return pl.struct(
            [_project(expr.struct.field(n), newf[n], t).alias(n) for n, t in old.to_schema().items()]
        )
    if isinstance(old, pl.List) and isinstance(old.inner, pl.Struct):
        return expr.list.eval(_project(pl.element(), new.inner, old.inner))
    return expr


def test_derived_schema_reads_llama_bench_as_today():
    lb_files = [f for f in RAW if f.parent.name == "llama_bench"]
    is_lb = pl.col("schema") == "benchbook.llama_bench"
    old = jsonl.scan_jsonl(lb_files, lb_analysis.LLAMA_BENCH_FIELDS).collect().filter(is_lb)
    derived = schemas.polars_schema("llama_bench")
    new = jsonl.scan_jsonl(lb_files, derived).collect().filter(is_lb)
    for name in lb_analysis.LLAMA_BENCH_FIELDS:
        assert name in derived, name
    proj = new.select(
        *[_project(pl.col(n), derived[n], t).alias(n) for n, t in lb_analysis.LLAMA_BENCH_FIELDS.items()],
        "file",
        "line",
    )
    assert proj.schema == old.schema
    assert proj.equals(old)
    assert old.height == 72  # 56 + 28 lines less 12 session records


def test_checks_keep_todays_messages(tmp_path):
    lb_file = next(f for f in RAW if f.parent.name == "llama_bench")
    good = next(r for _, r in iter_records(lb_file) if r["schema"] == "benchbook.llama_bench")
    bad = {**good, "phase": "hot", "llama_bench": {**good["llama_bench"], "samples_ns": []}}
    f = tmp_path / "h.jsonl"
    f.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n")
    df = _rows_of(jsonl.scan_jsonl([f], schemas.polars_schema("llama_bench")).collect(), schemas.LLAMA_BENCH)
    with pytest.raises(schemas.RecordError) as e:
        jsonl.validate(df, schemas.checks("llama_bench"))
    assert str(e.value) == f"{f}:2: field 'phase' must be 'cold' or 'warm'"
    report = {}
    jsonl.validate(df, schemas.checks("llama_bench", only=["llama_bench"]), "skip", report)
    assert report["invalid_examples"] == [
        f"{f}:2: field 'llama_bench.samples_ns' must be a non-empty list of positive nanoseconds "
        "(llama-bench's raw samples; every element an integer > 0, none null); fix: run llama-bench "
        "with -o jsonl, whose rows carry samples_ns"
    ]


def test_build_fills_envelope_and_refuses_bad_fields():
    rec = schemas.build("session_end", session_id="s1", experiment="llama_bench", at="2026-01-01T00:00:00Z")
    assert rec == {
        "schema": "benchbook.session",
        "schema_version": 1,
        "event": "end",
        "session_id": "s1",
        "experiment": "llama_bench",
        "at": "2026-01-01T00:00:00Z",
    }
    with pytest.raises(schemas.SchemaError) as e:
        schemas.build("session_end", session_id="s1", experiment="llama_bench")
    assert (
        str(e.value)
        == "benchbook.session v1: required field 'at' is missing (UTC ISO 8601); fix: pass at=<String>"
    )
    with pytest.raises(schemas.SchemaError) as e:
        schemas.build("session_end", session_id="s1", experiment="x", at="t", note="hi")
    assert str(e.value) == (
        "benchbook.session v1: unknown field 'note'; fix: declare it in benchbook/schemas.py "
        "(with a version bump) or drop it; declared: at, event, experiment, session_id"
    )
    with pytest.raises(schemas.SchemaError) as e:
        schemas.build("quarantine", file="f", line="3", byte_offset=0, raw="{", quarantined_at="t")
    assert str(e.value) == (
        "benchbook.quarantine v1: field 'line' is str '3', declared Int64; fix: write the declared type"
    )
    # an open nested object (llama-bench's own row) takes fields the declaration does not list
    host = json.loads((DATA / "data/raw/snapshots/hosts.jsonl").read_text().splitlines()[0])
    host.pop("schema"), host.pop("schema_version")
    assert schemas.build("host", **host)["host_id"] == "246274abff670295"
    with pytest.raises(schemas.SchemaError) as e:
        schemas.build("host", **{**host, "gpus": [{"name": "x", "driver": "1", "memory_total_mib": 1}]})
    assert str(e.value) == (
        "benchbook.host v1: required field 'gpus[0].clock_max_sm_mhz' is missing (max SM clock as "
        "nvidia-smi prints it); fix: pass clock_max_sm_mhz=<String>"
    )


def test_ingested_llama_bench_row_is_a_native_kind_without_samples():
    """An ingested markdown row (mean ± sd only) is a benchbook.llama_bench v3 record: native-only fields
    absent, ids unknown per source file; the same record claiming to be native is refused."""
    src = ingest.ingest_file(FIX / "ingest" / "llama_bench_b11434.md")[0]
    group = schemas.unknown(src["source_sha256"])
    assert group == "unknown:" + src["source_sha256"][:16]
    rec = schemas.build(
        "llama_bench",
        run_id="r1",
        session_id=group,
        experiment="llama_bench",
        host_id=group,
        toolchain_id=group,
        model_id=src["llama_bench"]["model_type"],
        model_sha256=group,
        git_commit=None,
        git_dirty=None,
        status="ok",
        llama_bench=src["llama_bench"],
        origin="ingested:" + src["source_sha256"],
        source_file=src["source_file"],
        source_line=src["source_line"],
        source_format="md",
        source_sha256=src["source_sha256"],
    )
    assert "samples_ns" not in rec["llama_bench"] and rec["llama_bench"]["avg_ts"] > 0
    df = pl.DataFrame([rec], schema=schemas.polars_schema("llama_bench")).with_columns(
        pl.lit("x.jsonl").alias("file"), pl.lit(1).alias("line")
    )
    assert jsonl.validate(df, schemas.checks("llama_bench")).height == 1
    assert df.select(schemas.is_unknown("host_id")).item() is True
    with pytest.raises(schemas.RecordError, match=r"^x\.jsonl:1: field 'run_key' is missing"):
        jsonl.validate(df.with_columns(pl.lit("native").alias("origin")), schemas.checks("llama_bench"))
    with pytest.raises(schemas.SchemaError, match=r"required field 'run_key' is missing"):
        schemas.build(
            "llama_bench",
            **{
                k: v
                for k, v in rec.items()
                if k not in ("schema", "schema_version") and not k.startswith("source") and k != "origin"
            },
        )


def test_unknown_kind_and_newer_version_name_file_and_line(tmp_path):
    f = tmp_path / "r.jsonl"
    lines = [
        {"schema": "benchbook.host", "schema_version": 1},
        {"schema": "benchbook.llama_bench", "schema_version": 4},
        {"schema": "benchbook.mystery", "schema_version": 1},
    ]
    f.write_text("".join(json.dumps(x) + "\n" for x in lines))
    env = jsonl.scan_jsonl([f], schemas.KIND_COLUMNS).collect()
    newer = (
        f"{f}:2: benchbook.llama_bench schema_version 4 is newer than this benchbook knows (3); fix: update "
        "benchbook (pip install -e .) before reading these records"
    )
    with pytest.raises(schemas.SchemaError) as e:
        schemas.check_kinds(env)
    assert str(e.value) == newer + " (1 more such records)"
    with pytest.raises(schemas.SchemaError) as e:
        schemas.check_kinds(env.filter(pl.col("line") != 2))
    assert str(e.value).startswith(
        f"{f}:3: record kind 'benchbook.mystery' is not declared in benchbook.schemas "
        "(known: benchbook.draftself.checkpoint, "
    )
    assert str(e.value).endswith("); fix: update benchbook, or this file is not benchbook raw data")
    with pytest.raises(schemas.SchemaError) as e:
        schemas.check_record(lines[1], f"{f}:2")
    assert str(e.value) == newer


def test_derived_migration_backfills_native_origin():
    lb_files = [f for f in RAW if f.parent.name == "llama_bench"]
    df = _rows_of(
        jsonl.scan_jsonl(lb_files, schemas.polars_schema("llama_bench")).collect(), schemas.LLAMA_BENCH
    )
    assert df["origin"].null_count() == 72
    steps = schemas.derived_migrations()
    assert sorted(steps) == [
        ("benchbook.draftself.run", 1),
        ("benchbook.draftself.step", 1),
        ("benchbook.llama_bench", 1),
        ("benchbook.llama_bench", 2),
        ("benchbook.speculative_request", 1),
    ]
    up = steps[("benchbook.llama_bench", 1)](df)
    assert up["origin"].to_list() == ["native"] * 72 and up["source_file"].null_count() == 72
    assert jsonl.validate(up, schemas.checks("llama_bench")).height == 72


def test_current_versions_and_units():
    from benchbook import migrations

    # migrations takes the declarations' versions and every step they define
    assert migrations.CURRENT == schemas.CURRENT
    assert set(schemas.derived_migrations()) <= set(migrations.MIGRATIONS)
    # 18 core kinds (two share benchbook.session; the retired spec_depth.bench and offload rows)
    # + offload's; other experiments' kinds when imported
    assert {"offload", "offload_bandwidth", "offload_model_bytes"} <= set(schemas.KINDS)
    assert len(schemas.KINDS) >= 19 and len(schemas.CURRENT) == len(schemas.KINDS) - 1

    def walk(fields, path=""):
        for f in fields:
            yield path + f.name, f
            yield from walk(f.members, path + f.name + ".")

    bad = [
        n
        for k in schemas.KINDS.values()
        for n, f in walk(k.fields)
        if f.unit and not f.name_kept and not f.name.endswith(schemas.UNITS[f.unit])
    ]
    assert bad == []


def test_projected_schema_and_checks_decode_only_what_a_reader_reads():
    want = ["build_commit", "build_number", "n_prompt", "n_gen", "samples_ns", "avg_ts"]
    sch = schemas.polars_schema("llama_bench", only=["run_id", "llama_bench"], members={"llama_bench": want})
    # + origin: the checks of the native-only members (build_commit, build_number, samples_ns) read it
    assert list(sch["llama_bench"].to_schema()) == want and set(sch) == {
        "schema",
        "schema_version",
        "run_id",
        "llama_bench",
        "origin",
    }
    chk = schemas.checks(
        "llama_bench", only=["run_id", "llama_bench"], members={"llama_bench": ["n_prompt", "n_gen"]}
    )
    assert sorted(chk) == [
        "llama_bench",
        "llama_bench.n_gen",
        "llama_bench.n_prompt",
        "llama_bench.n_prompt+n_gen",
        "run_id",
        "schema_version",
    ]
    with pytest.raises(schemas.SchemaError, match="has no declared member"):
        schemas.polars_schema("llama_bench", members={"llama_bench": ["nope"]})
