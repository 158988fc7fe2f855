"""Configurations of one record: their statistics are computed row by row (no grouping) and must equal,
value for value and dtype for dtype, what the grouping gives."""

import polars as pl
import pytest

from benchbook.experiments.llama_bench import analysis
from test_analysis import lb_record, write


def test_one_record_configuration_hand_computed(tmp_path):
    # 120 tokens in 1.0, 1.2, 0.8, 1.5 s -> 120, 100, 150, 80 tok/s; mean 112.5; deviations 7.5, -12.5,
    # 37.5, -32.5; squares 56.25 + 156.25 + 1406.25 + 1056.25 = 2675; sd = sqrt(2675 / 3) = 29.8608;
    # median (100 + 120) / 2 = 110; without the first sample (100 + 150 + 80) / 3 = 110; first sample
    # over the median of the others 120 / 100 = 1.2.  The second configuration (another model) has one
    # sample: 120 tok/s, no sd, no rest, no first-sample ratio.
    write(
        tmp_path / "h.jsonl",
        [
            lb_record("r1", [1_000_000_000, 1_200_000_000, 800_000_000, 1_500_000_000]),
            lb_record("r2", [1_000_000_000], model="m2"),
        ],
    )
    st = analysis.rate_stats_raw(tmp_path)
    assert analysis._alone(analysis.load_llama_bench(tmp_path), ["model_id"]).to_list() == [True, True]
    a, b = st.row(0, named=True), st.row(1, named=True)
    assert a["n"] == 4 and a["mean_tps"] == pytest.approx(112.5)
    assert a["sd_tps"] == pytest.approx(29.8608, abs=1e-4)
    assert a["median_tps"] == pytest.approx(110.0) and a["mean_tps_rest"] == pytest.approx(110.0)
    assert a["first_sample_ratio"] == pytest.approx(1.2)
    assert a["files"] == [str(tmp_path / "h.jsonl")] and a["lines"] == [1] and a["run_ids"] == ["r1"]
    assert a["argv"] == ["llama-bench", "-n", "120"] and a["state_effect"] is False
    assert a["load1_max"] == 0.3 and a["others_cpu_pct_max"] == 7.5
    assert (b["n"], b["mean_tps"], b["median_tps"]) == (1, 120.0, 120.0)
    assert (b["sd_tps"], b["mean_tps_rest"], b["first_sample_ratio"], b["ci_low_tps"]) == (None,) * 4
    assert b["lines"] == [2] and b["run_ids"] == ["r2"]


def _mixed_records():
    """Configurations of three records (models m0..m3: records 0-11) and of one (records 12-23), 1 to 6
    samples each (odd and even: the median's two forms), record 9 far from its configuration's others
    (m1: a state effect, split into its three records), a GPU memory peak on some."""
    recs = []
    for i in range(24):
        k = 1 + i % 6
        samples = [1_000_000_000 + 37_000_000 * ((i * 7 + j * 3) % 11) for j in range(k)]
        if i == 9:
            samples = [4_000_000_000 + j for j in range(5)]
        over = {"peak_gpu_mem_mib": 100.0 + i} if i % 4 == 0 else {}
        recs.append(lb_record(f"r{i}", samples, model=f"m{i % 4}" if i < 12 else f"solo{i}", **over))
    return recs


def test_one_record_path_equals_grouping(tmp_path, monkeypatch):
    write(tmp_path / "a.jsonl", _mixed_records())
    other_host = [{**r, "host_id": "h2", "run_id": "h2" + r["run_id"]} for r in _mixed_records()[:7]]
    write(tmp_path / "b.jsonl", other_host)
    df = analysis.load_llama_bench(tmp_path)
    fast_raw, fast = analysis.rate_stats_raw(tmp_path), analysis.rate_stats(df)
    # both paths are exercised: host h: m0, m2, m3 pooled (3 records), m1 split (3 rows), 12 alone;
    # host h2 (records 0-6): m0, m1, m2 pooled (2 records), m3 alone
    sizes = fast["run_ids"].list.len().to_list()
    assert sizes == [3, 1, 3, 3, 1, 1, *[1] * 12, 2, 2, 2, 1]  # in first-row order (r1, r5, r9: m1)
    assert fast["state_effect"].sum() == 3
    monkeypatch.setattr(analysis, "_alone", lambda d, keys: pl.Series([False] * d.height))
    grouped_raw, grouped = analysis.rate_stats_raw(tmp_path), analysis.rate_stats(df)
    assert fast.schema == grouped.schema
    assert fast.equals(grouped) and fast_raw.equals(grouped_raw)
    assert fast.equals(fast_raw)
