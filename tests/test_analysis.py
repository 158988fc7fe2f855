"""Readers, validation and statistics, checked against hand-computed values."""

import json
import math

import numpy as np
import polars as pl
import pytest

from benchbook import migrations, stats
from benchbook.experiments.llama_bench import analysis
from benchbook.records import RecordError, RecordWriter


def lb_record(run_id, samples_ns, n_prompt=0, n_gen=120, phase="warm", model="m", session="s", **over):
    rec = {
        "schema": "benchbook.llama_bench",
        "schema_version": 1,
        "run_id": run_id,
        "run_key": run_id,
        "experiment": "llama_bench",
        "phase": phase,
        "argv": ["llama-bench", "-n", str(n_gen)],
        "host_id": "h",
        "toolchain_id": "tc",
        "model_id": model,
        "model_sha256": "sha",
        "git_commit": "g",
        "git_dirty": False,
        "started_at": "2026-01-01T00:00:00Z",
        "ended_at": "2026-01-01T00:00:10Z",
        "load_start": {"loadavg": [0.1, 0.1, 0.1], "top_processes": []},
        "load_end": {
            "loadavg": [0.3, 0.1, 0.1],
            "top_processes": [
                {"pid": 1, "name": "llama-bench", "cpu_percent": 199.0},
                {"pid": 2, "name": "python", "cpu_percent": 7.5},
            ],
        },
        "peak_rss_bytes": 1000,
        "peak_gpu_mem_mib": None,
        "row_index": 0,
        "rows_total": 1,
        "run_complete": True,
        "status": "ok",
        "session_id": session,
        "llama_bench": {
            "build_commit": "abc",
            "build_number": 11434,
            "backends": "CPU",
            "n_prompt": n_prompt,
            "n_gen": n_gen,
            "n_depth": 0,
            "samples_ns": samples_ns,
            "avg_ts": float(np.mean([1e9 * (n_prompt + n_gen) / s for s in samples_ns]))
            if samples_ns
            else 1.0,
            "n_threads": 2,
            "n_gpu_layers": 99,
            "n_cpu_moe": 0,
            "flash_attn": -1,
            "type_k": "f16",
            "type_v": "f16",
        },
    }
    rec.update(over)
    return rec


def write(path, recs):
    with RecordWriter(path) as w:
        for r in recs:
            w.append(r)


def test_t_interval_hand_computed():
    # rates 100, 120, 150: mean 123.333; deviations -23.333, -3.333, 26.667; squares 544.44 + 11.11 + 711.11
    # = 1266.67; /2 = 633.33; sd = 25.166; t(0.975, 2) = 4.302653; half = 4.302653 * 25.166 / sqrt(3) = 62.515
    d = stats.describe([100, 120, 150])
    assert d["mean"] == pytest.approx(123.3333, abs=1e-4)
    assert d["sd"] == pytest.approx(25.1661, abs=1e-4)
    assert d["cv"] == pytest.approx(25.1661 / 123.3333, abs=1e-6)
    assert d["ci_low"] == pytest.approx(123.3333 - 62.5153, abs=1e-3)
    assert d["ci_high"] == pytest.approx(123.3333 + 62.5153, abs=1e-3)
    assert stats.t_interval(5.0, 1.0, 1) is None
    assert stats.t_quantile(5) == pytest.approx(2.776445, abs=1e-6)


def test_ratio_interval_hand_computed():
    # m1=100 s1=10 n1=4; m2=50 s2=5 n2=4: r = 2; a = 100/(4*100^2) = 0.0025; b = 25/(4*50^2) = 0.0025
    # df = 0.005^2 / (0.0025^2/3 * 2) = 6; t(0.975, 6) = 2.446912; half = 2.446912 * sqrt(0.005) = 0.173025
    # interval = 2 * exp(-+0.173025) = [1.68228, 2.37780]
    r, lo, hi, dof = stats.ratio_interval(100, 10, 4, 50, 5, 4)
    assert float(r) == 2.0 and float(dof) == pytest.approx(6.0)
    assert float(lo) == pytest.approx(1.68228, abs=1e-4) and float(hi) == pytest.approx(2.37780, abs=1e-4)
    _, lo1, _, _ = stats.ratio_interval(100, 10, 1, 50, 5, 4)
    assert math.isnan(float(lo1))


def test_bootstrap_interval_contains_mean_and_is_reproducible():
    a = stats.bootstrap_interval([1.0, 2.0, 3.0, 4.0], n_boot=2000, seed=1)
    assert a == stats.bootstrap_interval([1.0, 2.0, 3.0, 4.0], n_boot=2000, seed=1)
    assert 1.0 <= a[0] < 2.5 < a[1] <= 4.0


def test_rate_stats_mean_of_per_repetition_rates(tmp_path):
    # 120 tokens in 1.2 s, 1.0 s, 0.8 s -> 100, 120, 150 tok/s; mean 123.33 (total/total would be 120)
    write(
        tmp_path / "h.jsonl",
        [
            lb_record("r1", [1_200_000_000, 1_000_000_000, 800_000_000]),
            lb_record("r2", [1_000_000_000], phase="cold"),
        ],
    )
    df = analysis.load_llama_bench(tmp_path)
    assert df.columns[:10] == [
        "file",
        "line",
        "run_id",
        "session_id",
        "host_id",
        "toolchain_id",
        "model_id",
        "model_sha256",
        "phase",
        "test",
    ]
    assert df["line"].to_list() == [1, 2] and df["others_cpu_pct_max"].to_list() == [7.5, 7.5]
    st = analysis.rate_stats(df).sort("phase", descending=True)
    w = st.row(0, named=True)
    assert (w["phase"], w["n"], w["test"]) == ("warm", 3, "tg")
    assert w["mean_tps"] == pytest.approx(123.3333, abs=1e-4)
    # sd 25.166, log scale (issue 12): 123.333 · exp(± 4.30265 · (25.166 / 123.333) / √3) = [74.292, 204.747]
    # (the symmetric interval was [60.818, 185.849])
    assert w["ci_low_tps"] == pytest.approx(74.292, abs=1e-2) and w["ci_high_tps"] == pytest.approx(
        204.747, abs=1e-2
    )
    assert w["llama_bench_avg_ts"] == pytest.approx(w["mean_tps"])
    c = st.row(1, named=True)
    assert (c["n"], c["ci_low_tps"], c["mean_tps"]) == (1, None, 120.0)


def test_records_of_one_configuration_pool_their_samples(tmp_path):
    # the same rates 100, 120, 150 split over two records (a resumed session): pooled mean 123.333 and
    # sd 25.166 as in the one-record case (Chan's combination of per-record mean and M2)
    write(
        tmp_path / "h.jsonl",
        [lb_record("r1", [1_200_000_000, 1_000_000_000]), lb_record("r2", [800_000_000])],
    )
    st = analysis.rate_stats(analysis.load_llama_bench(tmp_path))
    assert st.height == 1 and st["n"][0] == 3 and sorted(st["run_ids"][0]) == ["r1", "r2"]
    assert st["mean_tps"][0] == pytest.approx(123.3333, abs=1e-4) and st["sd_tps"][0] == pytest.approx(
        25.1661, abs=1e-4
    )


def test_pp_and_tg_never_averaged_together(tmp_path):
    write(
        tmp_path / "h.jsonl",
        [
            lb_record("r1", [1_000_000_000] * 3, n_prompt=0, n_gen=64),
            lb_record("r2", [1_000_000_000] * 3, n_prompt=512, n_gen=0),
        ],
    )
    st = analysis.rate_stats(analysis.load_llama_bench(tmp_path))
    assert sorted(zip(st["test"], st["mean_tps"], strict=True)) == [("pp", 512.0), ("tg", 64.0)]


def test_validation_names_file_line_field_and_fix(tmp_path):
    bad = lb_record("r2", [])
    write(
        tmp_path / "h.jsonl",
        [
            {"schema": "benchbook.session", "schema_version": 1, "event": "start"},
            lb_record("r1", [10**9]),
            bad,
            lb_record("r3", [10**9], phase="hot"),
        ],
    )
    with pytest.raises(
        RecordError,
        match=r"h\.jsonl:3: field 'llama_bench\.samples_ns' must be a non-empty list.*"
        r"\(1 more invalid",
    ):
        analysis.load_llama_bench(tmp_path)
    rep = {}
    df = analysis.load_llama_bench(tmp_path, on_error="skip", report=rep)
    assert df["run_id"].to_list() == ["r1"] and rep["invalid"] == 2
    assert rep["invalid_examples"][1].endswith("h.jsonl:4: field 'phase' must be 'cold' or 'warm'")


def test_wrong_type_is_caught_with_line(tmp_path):
    r = lb_record("r1", [10**9])
    r["llama_bench"]["n_gen"] = "sixty-four"
    write(tmp_path / "h.jsonl", [lb_record("r0", [10**9]), r])
    with pytest.raises(RecordError, match=r"h\.jsonl:2: field 'llama_bench\.n_gen'"):
        analysis.load_llama_bench(tmp_path)


def test_bad_json_and_blank_lines(tmp_path):
    p = tmp_path / "h.jsonl"
    p.write_text(
        json.dumps(lb_record("r1", [10**9]))
        + "\n\n"
        + "{torn\n"
        + json.dumps(lb_record("r2", [10**9]))
        + "\n"
    )
    with pytest.raises(RecordError, match=r"h\.jsonl:3: .*records repair"):
        analysis.load_llama_bench(tmp_path)
    rep = {}
    df = analysis.load_llama_bench(tmp_path, on_error="skip", report=rep)
    assert df["line"].to_list() == [1, 4] and rep["bad_json"] == 1
    p.write_text(json.dumps(lb_record("r1", [10**9])) + "\n\n" + json.dumps(lb_record("r2", [10**9])) + "\n")
    assert analysis.load_llama_bench(tmp_path)["line"].to_list() == [1, 3]


def test_killed_invocation_rows_are_dropped(tmp_path):
    write(tmp_path / "h.jsonl", [lb_record("r1", [10**9], rows_total=2), lb_record("r2", [10**9])])
    assert analysis.load_llama_bench(tmp_path)["run_id"].to_list() == ["r2"]


def test_committed_raw_data_loads():
    from pathlib import Path

    raw = Path(__file__).parents[1] / "data" / "raw" / "llama_bench"
    if not any(raw.glob("*.jsonl")):
        pytest.skip("no committed llama-bench raw data")
    st = analysis.rate_stats(analysis.load_llama_bench(raw))
    assert st.height >= 1 and (st["mean_tps"] > 0).all()
    # recomputed from samples_ns, llama-bench's own avg_ts agrees to 0.1%
    assert ((st["mean_tps"] - st["llama_bench_avg_ts"]).abs() / st["llama_bench_avg_ts"] < 1e-3).all()


def test_ratio_stats_only_within_session_host_build():
    base = {"host_id": "h", "toolchain_id": "tc", "test": "tg", "n": 4, "sd_tps": 10.0, "run_ids": [["x"]]}
    st = pl.DataFrame(
        [
            {**base, "session_id": "s1", "model_id": "a", "mean_tps": 100.0, "run_ids": ["1"]},
            {**base, "session_id": "s1", "model_id": "b", "mean_tps": 50.0, "sd_tps": 5.0, "run_ids": ["2"]},
            {**base, "session_id": "s2", "model_id": "b", "mean_tps": 10.0, "run_ids": ["3"]},
        ]
    )
    r = analysis.ratio_stats(st, pl.col("model_id") == "a", pl.col("model_id") == "b", ["test"])
    assert r.height == 1 and r["id"][0] == "ratio-a-b-tg"
    assert r["value"][0] == 2.0 and r["ci_low"][0] == pytest.approx(1.68228, abs=1e-4)


def test_migration_upgrades_legacy_llama_bench_fields():
    df = pl.DataFrame(
        {
            "use_mmap": [False, None],
            "cuda": [True, None],
            "blas": [True, None],
            "flash_attn": ["true", None],
            "load_mode": [None, "auto"],
            "n_gen": [128, 64],
        }
    )
    up = migrations.legacy_llama_bench_fields(df)
    assert up["load_mode"].to_list() == ["none", "auto"]
    assert up["backends"][0] == "CUDA,BLAS"
    assert up["n_gen"].to_list() == [128, 64] and "use_mmap" not in up.columns and "cuda" not in up.columns
    row, fields_set = migrations.legacy_llama_bench_row(
        {"use_mmap": True, "cuda": False, "metal": True, "flash_attn": False, "n_gen": 8}
    )
    assert (row, fields_set) == ({"load_mode": "mmap", "backends": "Metal", "flash_attn": 0, "n_gen": 8}, 1)
    with pytest.raises(migrations.MigrationError, match="newer than this benchbook"):
        migrations.upgrade(pl.DataFrame({"schema_version": [4]}), "benchbook.llama_bench")


def _write_jsonl(path, recs):
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))


def _norm(st):
    return st.with_columns(pl.col("files").list.sort(), pl.col("run_ids").list.sort())


def test_rate_stats_per_host_keeps_first_row_order_and_values(tmp_path):
    # hosts interleaved in the table and configurations with several records: per-host grouping gives
    # the rows and order of one grouping over the whole table
    recs = []
    for i in range(12):
        recs.append(
            lb_record(
                f"r{i}",
                [1_000_000_000 + 10_000_000 * i, 1_010_000_000],
                model=f"m{i % 3}",
                host_id=f"h{i % 2}",
            )
        )
    _write_jsonl(tmp_path / "a.jsonl", recs)
    df = analysis.load_llama_bench(tmp_path)
    st = analysis.rate_stats(df)
    assert st["host_id"].to_list() == ["h0", "h1", "h0", "h1", "h0", "h1"]
    assert st["model_id"].to_list() == ["m0", "m1", "m2", "m0", "m1", "m2"]
    assert st["n"].to_list() == [4] * 6
    one = st.filter((pl.col("host_id") == "h0") & (pl.col("model_id") == "m0")).row(0, named=True)
    rates = [120e9 / s for i in (0, 6) for s in (1_000_000_000 + 10_000_000 * i, 1_010_000_000)]
    assert one["mean_tps"] == pytest.approx(np.mean(rates))
    assert one["sd_tps"] == pytest.approx(np.std(rates, ddof=1))
    assert one["lines"] == [1, 7]


def test_rate_stats_raw_equals_whole_table(tmp_path):
    # one file per host (file by file), a host across two files and a multi-row invocation across
    # files (whole-table fallback): always rate_stats(load_llama_bench(...))
    a = [lb_record(f"a{i}", [1_000_000_000 + i], model=f"m{i % 2}", host_id="h0") for i in range(4)]
    b = [
        lb_record(f"b{i}", [2_000_000_000 + i, 2_100_000_000], model=f"m{i % 2}", host_id="h1")
        for i in range(4)
    ]
    cut = lb_record("c", [1_000_000_000], host_id="h1", rows_total=2)
    for layout in (
        {"a.jsonl": a, "b.jsonl": b},
        {"a.jsonl": a + b[:2], "b.jsonl": b[2:]},
        {"a.jsonl": a + [cut], "b.jsonl": b + [cut]},
        {"a.jsonl": a + [cut], "b.jsonl": b},
    ):
        raw = tmp_path / str(len(list(tmp_path.iterdir())))
        raw.mkdir()
        for name, recs in layout.items():
            _write_jsonl(raw / name, recs)
        rep = {}
        got = analysis.rate_stats_raw(raw, report=rep)
        want = analysis.rate_stats(analysis.load_llama_bench(raw))
        assert rep["rows"] == analysis.load_llama_bench(raw).height
        assert _norm(got).equals(_norm(want))


@pytest.mark.parametrize("bad", [None, "1000000000", 2**70], ids=["null", "string", "out_of_i64_range"])
def test_invalid_sample_element_is_an_error_not_a_changed_mean(tmp_path, bad):
    # a null, string or out-of-range element decodes as null; list.min skips nulls, so before the
    # check the record passed and n (null counted) or the mean (element dropped) silently changed
    r = lb_record("r2", [1_000_000_000, 2_000_000_000])
    r["llama_bench"]["samples_ns"].append(bad)
    write(tmp_path / "h.jsonl", [lb_record("r1", [1_000_000_000]), r])
    with pytest.raises(
        RecordError, match=r"h\.jsonl:2: field 'llama_bench\.samples_ns' must be a non-empty list"
    ):
        analysis.load_llama_bench(tmp_path)
    rep = {}
    df = analysis.load_llama_bench(tmp_path, on_error="skip", report=rep)
    assert df["run_id"].to_list() == ["r1"] and rep["invalid"] == 1
    assert analysis.rate_stats(df)["n"].to_list() == [1]


def test_duplicated_record_is_kept_once_not_dropping_the_run(tmp_path):
    # a two-row invocation (pp + tg) whose tg row was appended twice: keep the first copy, count the
    # other, keep the run; a separate invocation cut short is still dropped and counted
    pp = lb_record("r1", [1_000_000_000], n_prompt=512, n_gen=0, row_index=0, rows_total=2)
    tg = lb_record("r1", [2_000_000_000], n_prompt=0, n_gen=64, row_index=1, rows_total=2)
    cut = lb_record("r9", [1_000_000_000], row_index=0, rows_total=2)
    write(tmp_path / "h.jsonl", [pp, tg, tg, cut])
    rep = {}
    df = analysis.load_llama_bench(tmp_path, report=rep)
    assert df["line"].to_list() == [1, 2] and df["test"].to_list() == ["pp", "tg"]
    assert "row_index" not in df.columns and "rows_total" not in df.columns
    assert rep["duplicates"] == 1 and rep["duplicate_examples"][0].endswith(
        "h.jsonl:3: run r1 row 1 repeated (first copy kept)"
    )
    assert (rep["incomplete_runs"], rep["incomplete_rows"]) == (1, 1)
    st = analysis.rate_stats(df)
    assert sorted(zip(st["test"], st["n"], st["mean_tps"], strict=True)) == [
        ("pp", 1, 512.0),
        ("tg", 1, 32.0),
    ]
    rep2 = {}
    assert analysis.rate_stats_raw(tmp_path, report=rep2).equals(st)
    assert (rep2["duplicates"], rep2["incomplete_runs"], rep2["rows"]) == (1, 1, 2)
    assert analysis.scan_llama_bench(tmp_path).collect().equals(df)
