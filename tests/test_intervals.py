"""Issue 12: intervals that respect the quantity; cold, warm and repeated requests kept apart;
speculative caveats that neither miss nor misfire.  Each example of the issue is a test here."""

from __future__ import annotations

import math
from pathlib import Path

import polars as pl
import pytest

from benchbook import caveats, ingest, stats
from benchbook.experiments.speculative import analysis as sp
from benchbook.numbers import Number
from conftest import committed_root

FIX = Path(__file__).parent / "fixtures"


# --- 1. intervals --------------------------------------------------------------------------------


def test_two_prefill_requests_get_no_interval():
    # two prefill rates whose symmetric t interval was [−137, 305] tok/s:
    # mean 84, sd 24.6 -> half = t(0.975, 1) · 24.6 / √2 = 12.706 · 17.4 = 221
    rates = [84.0 - 17.395, 84.0 + 17.395]
    m, sd, ci = stats.sample_interval(rates)
    assert m == pytest.approx(84.0)
    half = stats.t_quantile(2) * sd / math.sqrt(2)
    assert [m - half, m + half] == pytest.approx([-137.0, 305.0], abs=0.5)  # the old interval
    assert ci is None  # n = 2: no interval
    assert stats.t_interval(m, sd, 2) is None
    assert stats.log_t_interval(m, sd, 2) is None
    assert stats.bootstrap_interval(rates) is None


def test_speedup_series_interval_stays_positive():
    # a same-server speedup series whose symmetric interval was [−3.25, 8.07]:
    # mean 2.41, half 5.66 -> sd = 5.66 · √3 / t(0.975, 2) = 5.66 · 1.732 / 4.303 = 2.278
    series = [2.41 - 2.278, 2.41, 2.41 + 2.278]
    m, sd, ci = stats.sample_interval(series)
    half = stats.t_quantile(3) * sd / math.sqrt(3)
    assert [m - half, m + half] == pytest.approx([-3.25, 8.07], abs=0.01)  # the old interval
    # log scale: 2.41 · exp(± 4.303 · (2.278 / 2.41) / √3) = 2.41 · exp(± 2.348) = [0.230, 25.2]
    assert ci == pytest.approx([2.41 * math.exp(-2.3483), 2.41 * math.exp(2.3483)], rel=1e-3)
    assert ci[0] > 0 and ci[0] * ci[1] == pytest.approx(m * m)


def test_log_t_interval_hand_computed():
    # 100 · exp(± 2.776 · 0.1 / √5) = 100 · exp(± 0.12415) = [88.33, 113.22]
    low, high = stats.log_t_interval(100.0, 10.0, 5)
    assert low == pytest.approx(100 * math.exp(-2.7764451 * 0.1 / math.sqrt(5)))
    assert high == pytest.approx(100 * math.exp(2.7764451 * 0.1 / math.sqrt(5)))


def test_paired_ratio_interval_hand_computed():
    # r = 120 / 100 = 1.2; d_i = x_i/120 − b_i/100 = (−1/12, 0, 1/12), sd 1/12; t_{0.975,2} = 4.302653:
    # 1.2 · exp(± 4.302653 · (1/12) / √3) = 1.2 · exp(± 0.207008) = [0.97561, 1.47600]
    low, high = stats.paired_ratio_interval([110.0, 120.0, 130.0], [100.0, 100.0, 100.0])
    assert low == pytest.approx(0.975612, rel=1e-5) and high == pytest.approx(1.475996, rel=1e-5)
    assert low * high == pytest.approx(1.2**2)  # centred on the ratio of the means on the log scale
    # a sample against itself (a baseline's own ratio): d_i = 0, the interval is the point 1
    assert stats.paired_ratio_interval([5.0, 7.0, 9.0], [5.0, 7.0, 9.0]) == [1.0, 1.0]
    # pairs that move together give a narrower interval than the same values unpaired would
    # (ratio_interval, independent means): 110/100, 120/109, 130/118 all about 1.10
    paired = stats.paired_ratio_interval([110.0, 120.0, 130.0], [100.0, 109.0, 118.0])
    _, lo_ind, hi_ind, _ = stats.ratio_interval(120.0, 10.0, 3, 109.0, 9.0, 3)
    assert paired[1] - paired[0] < 0.1 * (hi_ind - lo_ind)
    assert stats.paired_ratio_interval([1.0, 2.0], [1.0, 2.0]) is None  # n = 2: none
    with pytest.raises(ValueError, match="3 numerator and 2 denominator"):
        stats.paired_ratio_interval([1.0, 2.0, 3.0], [1.0, 2.0])


def test_add_t_interval_no_interval_below_three_and_positive():
    df = pl.DataFrame({"m": [84.0, 100.0, 5.0], "s": [24.6, 10.0, 20.0], "n": [2, 5, 3]})
    out = stats.add_t_interval(df, "m", "s", "n", "lo", "hi")
    assert out["lo"][0] is None and out["hi"][0] is None
    assert out["lo"][1] == pytest.approx(88.33, abs=0.01)
    # sd 4× the mean, n = 3: still a positive lower end (5 · exp(−4.303 · 4 / √3))
    assert out["lo"][2] == pytest.approx(5 * math.exp(-4.302653 * 4 / math.sqrt(3)), rel=1e-5)
    assert out["lo"][2] > 0


def test_number_needs_replication_and_a_positive_interval_for_a_rate():
    base = dict(key="k", value=10.0, unit="tok/s", label="x", n=3, computation="f", run_ids=["r"], build="b1")
    log = dict(ci_method="student-t on the log scale", commands=[["llama-bench"]])
    with pytest.raises(ValueError, match="replication"):
        Number(**base, ci95=[5.0, 20.0], **log).check()
    with pytest.raises(ValueError, match="leaves the domain"):
        Number(**base, replication="repetitions of one output", ci95=[-1.0, 21.0], **log).check()
    Number(**base, replication="repetitions of one output", ci95=[5.0, 20.0], **log).check()


def test_registry_numbers_carry_ci_method_and_replication(tmp_path):
    import yaml

    from benchbook.experiments.speculative import report

    root = committed_root()
    params = yaml.safe_load((root / "params.yaml").read_text())
    rep = report.build(params, root=root, raw_dir=Path("data/raw"), reports_dir=tmp_path)
    assert all(n.ci_method and n.replication for n in rep.numbers)
    assert all(n.ci95 is None for n in rep.numbers if n.n < 3)
    rates = [n for n in rep.numbers if n.unit in ("tok/s", "×") and n.ci95]
    assert rates and all(n.ci95[0] > 0 for n in rates)
    keys = {n.key: n for n in rep.numbers}
    # a same-server configuration with state carried between requests: per repetition + trend only
    assert "spec-ngram-mod-same-ko_story-speedup" not in keys
    assert keys["spec-ngram-mod-same-ko_story-speedup-rep0"].value == pytest.approx(1.2467, abs=1e-4)
    assert keys["spec-ngram-mod-same-ko_story-speedup-rep2"].value == pytest.approx(1.5957, abs=1e-4)
    assert "cross_request_state" in keys["spec-ngram-mod-same-ko_story-speedup-trend"].caveats


# --- 2. first samples, warm caches, repeated requests --------------------------------------------


def _cold(samples: list[float]) -> list[str]:
    ratio = samples[0] / float(pl.Series(samples[1:]).median())
    table = pl.DataFrame({"phase": ["warm"], "first_sample_ratio": [ratio], "run_ids": [["r"]]})
    return caveats.evaluate(table, "llama_bench", rules=["cold_start"])[0]["caveats"][0].to_list()


def test_cold_start_first_sample_form():
    # 8000 / median(41000, 42900, 43000, 42800) = 8000 / 42850 = 0.187 < 0.5
    assert _cold([8000, 41000, 42900, 43000, 42800]) == ["cold_start"]
    # 40000 / 42850 = 0.933: a clean control
    assert _cold([40000, 41000, 42900, 43000, 42800]) == []


def test_cold_start_on_committed_cuda_pp512_and_robust_summary():
    from benchbook.experiments.llama_bench import analysis as lb

    t = caveats.attach(lb.rate_stats_raw(committed_root() / "data/raw/llama_bench"))
    row = t.filter(
        (pl.col("host_id") == "e3618a24b4e44752")
        & (pl.col("model_id") == "smollm2-135m-q4_1")
        & (pl.col("test") == "pp")
        & (pl.col("n_prompt") == 512)
        & (pl.col("phase") == "warm")
    ).row(0, named=True)
    # the first of 5 repetitions runs at 40% of the others
    assert row["first_sample_ratio"] == pytest.approx(0.4029, abs=1e-4)
    assert "cold_start" in row["caveats"]
    assert row["mean_tps"] == pytest.approx(48948.56, abs=0.01)  # llama-bench's mean, the headline
    assert row["median_tps"] == pytest.approx(55507.88, abs=0.01)
    assert row["mean_tps_rest"] == pytest.approx(55580.39, abs=0.01)


def _requests() -> pl.DataFrame:
    req = sp.load_requests(committed_root() / "data/raw/speculative")
    return req.filter(pl.col("session_id") == "4ad890526e7e4457a6ca06dfa653d5c6")


def test_warm_and_cold_requests_never_pooled():
    req = _requests()
    warm = (pl.col("config_id") == "baseline") & (pl.col("prompt_id") == "ko_story") & (pl.col("rep") == 1)
    # rep 1 evaluated 73 of its 809 prompt tokens, the others all 809
    req = req.with_columns(
        pl.when(warm).then(73).otherwise(809).alias("prompt_n"),
        pl.when(warm).then(736).otherwise(0).alias("cache_n"),
        pl.lit(809).alias("prompt_tokens"),
        pl.when(warm).then(pl.lit("warm")).otherwise(pl.lit("cold")).alias("cache_state"),
    )
    t = sp.config_table(req)
    base = t.filter((pl.col("config_id") == "baseline") & (pl.col("prompt_id") == "ko_story"))
    assert sorted(base["cache_state"].to_list()) == ["cold", "warm"]
    got = {r["cache_state"]: r for r in base.iter_rows(named=True)}
    assert got["cold"]["n_requests"] == 2 and got["warm"]["n_requests"] == 1
    assert got["warm"]["warm_share"] == pytest.approx(736 / 809)  # 0.910
    assert got["cold"]["warm_share"] == 0.0
    ev = caveats.evaluate(base, "speculative", rules=["warm_prompt_cache"])[0]
    assert {r["cache_state"]: r["caveats"] for r in ev.iter_rows(named=True)} == {
        "cold": [],
        "warm": ["warm_prompt_cache"],
    }
    # the speedups of the configurations on that prompt are against the cold baseline
    self4 = t.filter((pl.col("config_id") == "self-n4") & (pl.col("prompt_id") == "ko_story"))
    assert self4.height == 1 and self4["speedup_n"][0] == 2


def test_warm_cache_from_log_lines_alone():
    path = FIX / "ingest" / "llama_server_warm_b11434.log"
    recs = ingest.read_server_log(path, path.read_text())
    got = [(r["timings"]["prompt_n"], r["timings"]["prompt_tokens"], r["timings"]["cache_n"]) for r in recs]
    # 840 − 32 + 1 = 809 prompt tokens; 809 − 73 = 736 reused
    assert got == [(809, 809, 0), (73, 809, 736)]


def test_cross_request_state_from_drafted_counts_and_speed():
    table = pl.DataFrame(
        {
            "config_id": ["a", "b", "fresh"],
            "server_policy": ["same", "same", "fresh"],
            "alpha_trend_slope": [0.0, 0.0069, None],  # α flat: the old rule missed both
            "drafted_reps": [[12, 41, 41], [53, 117, 117], [12, 41, 41]],
            "speedup_reps": [[1.05, 1.40, 1.77], [1.24, 1.50, 1.70], [1.05, 1.40, 1.77]],
        }
    )
    table = table.with_columns(
        pl.Series("drafted_trend_rel", [sp.rep_trend(d) / (sum(d) / 3) for d in table["drafted_reps"]]),
        pl.Series("speedup_trend_slope", [sp.rep_trend(s) for s in table["speedup_reps"]]),
    )
    # drafted 12 -> 41: slope 14.5 / mean 31.33 = 0.463 per repetition; speedup slope 0.36
    assert table["drafted_trend_rel"][0] == pytest.approx(14.5 / (94 / 3))
    assert table["speedup_trend_slope"][1] == pytest.approx(0.23)
    ev = caveats.evaluate(table, "speculative", rules=["cross_request_state"])[0]
    assert ev["caveats"].to_list() == [["cross_request_state"], ["cross_request_state"], []]
    # the committed same-server ngram-mod rows: drafted 12 -> 41 and 53 -> 117
    t = sp.config_table(_requests())
    same = t.filter(pl.col("config_id") == "ngram-mod-same")
    assert same.filter(pl.col("prompt_id") == "ko_story")["drafted_reps"][0].to_list() == [12, 41, 41]
    assert same.filter(pl.col("prompt_id") == "code_echo")["drafted_reps"][0].to_list() == [53, 117, 117]
    ev = caveats.evaluate(same, "speculative", rules=["cross_request_state"])[0]
    assert all("cross_request_state" in c for c in ev["caveats"].to_list())


# --- 3. speculative caveats ----------------------------------------------------------------------


def _spec(**cols) -> pl.DataFrame:
    return pl.DataFrame({"config_id": ["x"], **{k: [v] for k, v in cols.items()}})


def test_slower_than_baseline_whatever_alpha():
    # 3.4-3.6 tok/s against 7.8-8.0: paired ratios 0.436, 0.443, 0.450
    m, _, ci = stats.sample_interval([3.4 / 7.8, 3.5 / 7.9, 3.6 / 8.0])
    assert m == pytest.approx(0.4430, abs=1e-4) and ci[1] < 1
    t = _spec(alpha=0.30, speedup_mean=m, speedup_ci_low=ci[0], speedup_ci_high=ci[1])
    ev = caveats.evaluate(t, "speculative", rules=["slower_than_baseline", "acceptance_without_speedup"])[0]
    assert ev["caveats"][0].to_list() == ["slower_than_baseline"]
    assert sp.speedup_verdict(m, ci[0], ci[1], 3) == "slower"


def test_slower_than_baseline_on_a_stated_comparison():
    # audited statement: draft 3.4-3.6 tok/s over baseline 7.8-8.0 tok/s, α 0.30 -> range [0.425, 0.462]
    t = pl.DataFrame(
        {
            "id": ["s"],
            "value": [0.44],
            "num_alpha": [0.30],
            "num_lo": [3.4],
            "num_hi": [3.6],
            "den_lo": [7.8],
            "den_hi": [8.0],
        }
    )
    ev = caveats.evaluate(t, "comparison", rules=["slower_than_baseline", "acceptance_without_speedup"])[0]
    assert ev["caveats"][0].to_list() == ["slower_than_baseline"]
    ev = caveats.evaluate(t.with_columns(pl.lit(None, pl.Float64).alias("num_alpha")), "comparison")[0]
    assert "slower_than_baseline" not in ev["caveats"][0].to_list()  # not a speculative comparison


def test_acceptance_without_speedup_judges_the_point_estimate():
    # a 35% slowdown at 100% acceptance with n = 2: the old interval's upper end was 1.13
    t = _spec(alpha=1.0, speedup_mean=0.65, speedup_ci_low=None, speedup_ci_high=1.13)
    ev = caveats.evaluate(t, "speculative", rules=["acceptance_without_speedup"])[0]
    assert ev["caveats"][0].to_list() == ["acceptance_without_speedup"]
    assert sp.speedup_verdict(0.65, None, None, 2) == "undecided: n = 2 < 3, no interval"
    assert sp.speedup_verdict(0.9, 0.8, 1.1, 3) == "undecided: interval contains 1"


def test_output_mismatch_skipped_off_greedy():
    assert sp.sampler_of({"temperature": 0.8, "top_k": 40}) == (False, "temperature 0.8, top_k 40")
    assert sp.sampler_of({"temperature": 0.0, "top_k": 1, "repeat_penalty": 1.0}) == (True, "greedy")
    assert sp.sampler_of({"temperature": 0.0, "repeat_penalty": 1.1}) == (False, "repeat_penalty 1.1")
    assert sp.sampler_of(None) == (None, None)
    t = pl.DataFrame(
        {"config_id": ["t08", "greedy"], "output_equal": [False, False], "greedy": [False, True]}
    )
    ev = caveats.evaluate(t, "speculative", rules=["output_mismatch"])[0]
    assert ev["caveats"].to_list() == [[], ["output_mismatch"]]


def test_divergence_deterministic_nondeterministic_cannot_tell():
    base = [[1, 2, 3, 4], [1, 2, 3, 4]]
    assert sp.divergence([[1, 2, 9, 9], [1, 2, 9, 9]], base) == ("deterministic", 2, 2)
    assert sp.divergence([[1, 2, 9, 9], [1, 2, 3, 4]], base) == ("nondeterministic", 2, 2)
    assert sp.divergence([[1, 2, 9, 9]], [[1, 2, 3, 4]]) == ("cannot tell", 2, 2)
    assert sp.divergence([[1, 2, 3, 4]], [[1, 2, 3, 4]]) == ("equal", None, None)
    assert sp.divergence([[1, 2, 3]], [[1, 2, 3, 4]]) == ("cannot tell", 3, 3)  # a strict prefix


def test_committed_ngram_simple_n4_divergence_is_per_mode():
    t = sp.config_table(_requests())
    row = t.filter((pl.col("config_id") == "ngram-simple-n4") & (pl.col("prompt_id") == "ko_story")).row(
        0, named=True
    )
    assert (row["output_check"], row["first_diverging_token"], row["matching_prefix_len"]) == (
        "deterministic",
        6,
        6,
    )


def test_acceptance_definitions():
    assert sp.acceptance_definition(11434) == "tested"
    assert sp.acceptance_definition(4000) == "drafted"
    assert sp.acceptance_definition(5600) is None and sp.acceptance_definition(None) is None
    t = pl.DataFrame(
        {
            "config_id": ["a", "b", "c"],
            "session_id": ["s", "s", "u"],
            "acceptance_definition": ["tested", "drafted", "tested"],
        }
    )
    ev = caveats.evaluate(t, "speculative", rules=["acceptance_definition_mismatch"])[0]
    assert ev["caveats"].to_list() == [["acceptance_definition_mismatch"]] * 2 + [[]]


def test_cap_by_design_vs_cap_hit():
    t = pl.DataFrame({"config_id": ["equal", "unequal", "none"], "cap_hit": [True, True, False]})
    t = t.with_columns(pl.Series("cap_equal_work", [True, False, None], dtype=pl.Boolean))
    ev = caveats.evaluate(t, "speculative", rules=["cap_hit", "cap_by_design"])[0]
    assert ev["caveats"].to_list() == [["cap_by_design"], ["cap_hit"], []]
    assert caveats.RULES["cap_by_design"].severity == "note"
