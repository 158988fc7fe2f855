"""benchbook.costmodel: every step of the speculative cost model against hand-computed values, and the
r(1) check (caveat ``cost_rows_disturbed``) on the tables that carry the model's terms."""

from __future__ import annotations

import polars as pl
import pytest

from benchbook import caveats, costmodel
from benchbook.costmodel import BenchTest


def test_median_not_mean_of_the_repetitions():
    # one slowed repetition (169 against 6 and 7): median 7, the mean would be 60.67
    assert costmodel.median_ns([6.0, 169.0, 7.0]) == 7.0
    assert costmodel.median_ns([2.0, 4.0]) == 3.0  # an even count: the mean of the middle two
    with pytest.raises(ValueError, match="no samples_ns"):
        costmodel.median_ns([])


def test_decode_step_is_the_median_over_n_gen():
    # tg32 of the committed session 4787a708: median 328653615 ns / 32 = 10270425.47 ns per token
    tg = BenchTest(0, 32, [403171544, 1103638248, 328653615, 326121667, 316449075])
    assert costmodel.decode_step_ns(tg) == pytest.approx(328653615 / 32)
    with pytest.raises(ValueError, match="a tg test is needed"):
        costmodel.decode_step_ns(BenchTest(1, 0, [1.0]))


def test_bench_terms_from_medians():
    # step: median(40, 44, 400) / 4 = 11 ns; r(1) = median(10, 11, 12) / 11 = 1; r(5) = 22 / 11 = 2
    # c(d): median(8, 8, 9) / 4 / 11 = 2 / 11 = 0.1818 (with means: (452/3)/4 = 37.67 ns, r(1) 0.29)
    t = costmodel.bench_terms(
        BenchTest(0, 4, [40.0, 44.0, 400.0]),
        [BenchTest(5, 0, [22.0, 21.0, 30.0]), BenchTest(1, 0, [10.0, 11.0, 12.0])],
        {"d": BenchTest(0, 4, [8.0, 8.0, 9.0])},
    )
    assert t.step_ns == 11.0 and t.r == {1: 1.0, 5: 2.0} and list(t.r) == [1, 5]  # sorted by size
    assert t.c == {"d": pytest.approx(2 / 11)} and t.r1 == 1.0
    assert costmodel.bench_terms(BenchTest(0, 4, [4.0]), [], {}).r1 is None  # no pp1: not checked


def test_r_at_inside_between_and_beyond_the_measured_sizes():
    r = {1: 1.0, 5: 2.0, 9: 3.0}
    assert costmodel.r_at(r, 5) == 2.0  # a measured size: its value
    assert costmodel.r_at(r, 3) == pytest.approx(1.5)  # 1 + (3 − 1) / (5 − 1) · (2 − 1)
    assert costmodel.r_at(r, 7.5) == pytest.approx(2.625)  # 2 + 2.5 / 4 · 1
    assert costmodel.r_at(r, 9) == 3.0 and costmodel.r_at(r, 1) == 1.0  # the ends are measured
    assert costmodel.r_at(r, 13) is None  # beyond: not extrapolated (the old rule gave 4.0)
    assert costmodel.r_at({2: 1.1, 5: 2.0}, 1) is None  # below the smallest: not held at r(2)
    assert costmodel.r_at({}, 3) is None and costmodel.r_at({2: 1.1}, 2) == 1.1
    assert costmodel.r_at({2: 1.1}, 2.5) is None  # one size: no interval to interpolate in


def test_r_sizes_read_are_the_sizes_r_at_reads():
    r = {1: 1.0, 3: 1.5, 5: 2.0}
    assert costmodel.r_sizes_read(r, 3) == [3]
    assert costmodel.r_sizes_read(r, 4.2) == [3, 5]
    assert costmodel.r_sizes_read(r, 9) == [] and costmodel.r_at(r, 9) is None  # nothing read, no value
    assert costmodel.r_sizes_read({2: 1.0}, 3) == []


def test_decode_step_over_predicted_n_minus_one():
    # two requests of 11 tokens in 100 ms each: the first token of each comes out of the prompt pass,
    # so 200 ms over 20 decode steps = 10 ms (over 22 tokens it would read 9.09 ms, 10% too fast)
    assert costmodel.decode_step_ms([100.0, 100.0], [11, 11]) == 10.0
    # the CPU depth runs: 16 tokens each, 15 steps: 6.7% apart from predicted_ms / 16
    assert costmodel.decode_step_ms([150.0], [16]) == 10.0
    assert costmodel.decode_step_ms([3.0, 4.0], [1, 1]) is None  # no decode step at all


def test_tau_and_k_from_the_counters():
    # 12 accepted inside the caps over 8 verify steps, 16 drafted: τ = 1 + 12/8 = 2.5, k = 16/8 = 2
    assert costmodel.pooled_tau_k(12, 16, 8) == (2.5, 2.0)
    assert costmodel.pooled_tau_k(0, 0, 0) == (None, None)
    # cap 8, 3 steps, 6 accepted: only 8 − 3 = 5 committed, τ = 1 + 5/3
    assert costmodel.accepted_within_cap(6, 3, 8) == 5
    assert costmodel.tau(6, 3, cap=8) == pytest.approx(8 / 3)
    assert costmodel.tau(0, None, plain=True) == 1.0 and costmodel.tau(5, None) is None


def test_server_terms():
    # Σ predicted_ms 160, Σ t_draft_ms 32, 16 drafted, 8 steps, baseline step 10 ms:
    # draft 32/8 = 4 ms/step, verify (160 − 32)/8 = 16 ms/step, c_server 32/16/10 = 0.2, v_server 1.6
    t = costmodel.server_terms(160.0, 32.0, 16, 8, 10.0)
    assert t == costmodel.ServerTerms(draft_ms=4.0, verify_ms=16.0, c_server=0.2, v_server=1.6)
    assert costmodel.server_terms(160.0, 32.0, 0, 8, 10.0).c_server is None  # nothing drafted
    assert costmodel.server_terms(160.0, 32.0, 16, 0, 10.0) is None


def test_the_prediction_and_its_residual():
    # (1 - 0.5^5) / (1 - 0.5) = 0.96875 / 0.5 = 1.9375; k + 1 at α = 1
    assert costmodel.tau_independent(0.5, 4) == pytest.approx(1.9375)
    assert costmodel.tau_independent(1.0, 4) == 5.0 and costmodel.tau_independent(0.0, 4) == 1.0
    # target as its own draft: c = 1, k = 4, r(5) = 2.1, τ = 5 -> 5 / (4 + 2.1) = 0.8197
    assert costmodel.speedup_model(5.0, 4, 1.0, 2.1) == pytest.approx(5 / 6.1)
    # a free draft (n-gram, c = 0), r(9) = 3, τ 9 -> 3×; with o(k) = 1.5: 9 / 4.5 = 2×
    assert costmodel.speedup_model(9.0, 8, 0.0, 3.0) == pytest.approx(3.0)
    assert costmodel.speedup_model(9.0, 8, 0.0, 3.0, 1.5) == pytest.approx(2.0)
    with pytest.raises(ValueError, match="must be > 0"):
        costmodel.speedup_model(1.0, 0, 0.0, 0.0)
    assert costmodel.predicted(2.5, 2.0, 0.25, 1.5) == 1.25  # 2.5 / (0.5 + 1.5)
    assert costmodel.predicted(2.5, 2.0, None, 1.5) is None
    assert costmodel.predicted(2.0, 1.0, 0.5, 1.0, -2.0) is None  # a negative o(k) beyond the step
    # 1.5 / 1.25 − 1 = +20%: the model promises more than was measured
    assert costmodel.residual(1.5, 1.25) == pytest.approx(0.2) and costmodel.residual(None, 1.0) is None


def test_overhead_fit_leaves_the_row_out():
    assert costmodel.beta_fit([1.0, 3.0], [1.0, 2.0]) == pytest.approx(0.7)  # (1 + 6) / (1 + 9)
    assert costmodel.beta_fit([1.0], [2.0]) is None and costmodel.beta_fit([0.0, 0.0], [1.0, 1.0]) is None

    def row(cid, k, c, over, group="s"):
        return {"config_id": cid, "session_id": group, "k": k, "c": c, "overhead_server": over}

    rows = [row("a", 1, 1.0, 0.2), row("b", 3, 0.5, 0.2), row("c", 2, 0.5, 0.15), row("x", 1, 1.0, 9, "t")]
    fit = costmodel.fit_left_out(rows[2], rows, ("session_id",), "c", lambda o: True)
    # x = (k+1)·c of a, b: 2, 2; y 0.2, 0.2 -> β = 0.8 / 8 = 0.1; o(k) of c = 0.1 · 3 · 0.5 = 0.15
    assert fit is not None and fit.beta == pytest.approx(0.1) and fit.o_k == pytest.approx(0.15)
    assert [o["config_id"] for o in fit.others] == ["a", "b"]  # not c itself, not session t
    assert costmodel.fit_left_out(rows[3], rows, ("session_id",), "c", lambda o: True) is None


def test_a_measured_verify_step_replaces_the_fitted_overhead():
    """Issue 31 §3: on a host whose verify step was measured (tool_gap: server verify step ÷ llama-bench's
    -p k+1 pass, 1.75× [1.52, 2.01] for k = 4 on host 8b0c3265), o(k) = (1.75 − 1) · r(k+1) and no β is
    fitted; another host, or another k of the same host, keeps the fitted term (control)."""
    from benchbook.experiments.speculative.server_cost import with_overhead

    assert costmodel.measured_overhead(1.2, 1.75) == pytest.approx(0.9)

    def row(cid, host, n_max, c, over, measured):
        return {
            "config_id": cid,
            "session_id": "s" + host,
            "host_id": host,
            "n_max": n_max,
            "k": n_max - 0.2,
            "tau": 3.0,
            "c_bench": c,
            "c_server": c,
            "r_k1": 1.2,
            "overhead_server": over,
            "measured": measured,
        }

    cpu, other = "8b0c3265623b43b7", "3f1dfa40cbf1eb67"
    rows = [
        row("d4", cpu, 4, 0.1, 0.5, 1.5),
        row("d8", cpu, 8, 0.1, 0.9, 1.2),
        row("d16", cpu, 16, 0.1, 1.6, 0.9),
        row("d4", other, 4, 0.1, 0.5, 1.5),
        row("d8", other, 8, 0.1, 0.9, 1.2),
        row("d16", other, 16, 0.1, 1.6, 0.9),
    ]
    ratios = {(cpu, 4): 1.75}
    out = {(r["host_id"], r["config_id"]): r for r in with_overhead(pl.DataFrame(rows), ratios).to_dicts()}
    m = out[(cpu, "d4")]
    assert m["beta_loo"] is None and m["verify_ratio"] == 1.75 and m["overhead_model"] == pytest.approx(0.9)
    # τ / (k·c + r(k+1) + o(k)) = 3 / (3.8 · 0.1 + 1.2 + 0.9) = 3 / 2.48
    assert m["model_overhead"] == pytest.approx(3 / 2.48) and m["residual_overhead"] == pytest.approx(
        3 / 2.48 / 1.5 - 1
    )
    before = with_overhead(pl.DataFrame(rows)).to_dicts()
    fitted = next(r for r in before if (r["host_id"], r["config_id"]) == (cpu, "d4"))
    # fitted on d8, d16: x = 0.88, 1.68; y = 0.9, 1.6 -> β = (0.792 + 2.688) / (0.7744 + 2.8224)
    beta = (0.88 * 0.9 + 1.68 * 1.6) / (0.88**2 + 1.68**2)
    assert fitted["beta_loo"] == pytest.approx(beta) and fitted["verify_ratio"] is None
    assert fitted["overhead_model"] == pytest.approx(beta * 4.8 * 0.1)
    # controls: the other host and the other k of the measured host are fitted as before
    for key in [(other, "d4"), (cpu, "d8"), (cpu, "d16")]:
        assert out[key]["verify_ratio"] is None and out[key]["beta_loo"] is not None, key
    assert out[(other, "d4")]["overhead_model"] == pytest.approx(fitted["overhead_model"])


def test_no_committed_speculative_host_has_a_measured_verify_step():
    """The tool_gap session (host 8b0c3265) shares no host with the committed speculative and spec_depth
    sessions: their cost models keep the fitted term (the registries unchanged, test_registry_fixture)."""
    from benchbook.experiments.tool_gap.analysis import verify_ratios
    from conftest import committed_root

    raw = committed_root() / "data" / "raw"
    ratios = verify_ratios(raw)
    assert list(ratios) == [("8b0c3265623b43b7", 4)] and ratios[("8b0c3265623b43b7", 4)] == pytest.approx(
        1.7453, abs=1e-4
    )
    spec_hosts = {f.stem for d in ("speculative", "spec_depth") for f in (raw / d).glob("*.jsonl")}
    assert spec_hosts and not spec_hosts & {h for h, _k in ratios}


def test_the_r1_check_flags_outside_its_bounds_only():
    # DEFAULTS: 0.67-1.5; the bounds themselves pass; null (no pp1) is not checked
    t = pl.DataFrame(
        {
            "config_id": ["quiet", "loaded", "cheap", "none", "hi_edge", "lo_edge"],
            "cost_r1": [0.95, 5.0, 0.5, None, 1.5, 0.67],
            "caveats": [["busy_host"], [], [], [], [], []],
        },
        schema_overrides={"cost_r1": pl.Float64},
    )
    out = caveats.with_cost_caveats(t, {"cost_r1_max": 1.5, "primary_host": "x"})  # unknown keys ignored
    got = dict(zip(out["config_id"], out["cost_caveats"].to_list(), strict=True))
    assert got == {
        "quiet": [],
        "loaded": ["cost_rows_disturbed"],
        "cheap": ["cost_rows_disturbed"],
        "none": [],
        "hi_edge": [],
        "lo_edge": [],
    }
    assert out["caveats"].to_list() == t["caveats"].to_list()  # the row's own caveats untouched
    tight = caveats.with_cost_caveats(t, {"cost_r1_max": 1.2})  # a threshold from params.yaml
    assert tight.filter(pl.col("config_id") == "hi_edge")["cost_caveats"].to_list() == [
        ["cost_rows_disturbed"]
    ]
    no_model = caveats.with_cost_caveats(t.drop("cost_r1"), None)  # no cost model: nothing to check
    assert no_model["cost_caveats"].to_list() == [[]] * 6
