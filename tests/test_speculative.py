"""Speculative analysis: arithmetic against hand-computed values, real llama-server responses
(tests/fixtures/speculative, captured from build b11434 with SmolLM2-135M Q4_1), the config table."""

from __future__ import annotations

import json
import math
from pathlib import Path

import polars as pl
import pytest

from benchbook import stats
from benchbook.experiments.speculative import analysis as sp
from benchbook.llamacpp import server as S

FIX = Path(__file__).parent / "fixtures" / "speculative"


def test_alpha_tau_hand_computed():
    assert sp.alpha(9, 12) == 0.75
    assert sp.alpha(0, 0) is None and sp.alpha(None, None) is None
    assert sp.tau(9, 3) == 4.0  # 1 + 9/3
    assert sp.tau(0, 0) == 1.0  # plain decoding
    assert sp.tau(1, 12) == pytest.approx(1 + 1 / 12)


def test_first_mismatch():
    assert sp.first_mismatch([1, 2, 3], [1, 2, 3]) is None
    assert sp.first_mismatch([1, 2, 3], [1, 9, 3]) == 1
    assert sp.first_mismatch([1, 2], [1, 2, 3]) == 2
    assert sp.first_mismatch([], []) is None


def test_intervals_hand_computed():
    m, sd, (lo, hi) = stats.sample_interval([1.0, 2.0, 3.0])
    # sd = 1, t(0.975, 2) = 4.302652729911275, log scale: 2 · exp(± 4.3027 · 0.5 / sqrt(3)) =
    # 2 · exp(± 1.24207) (issue 12: a rate or ratio's interval stays positive)
    assert (m, sd) == (2.0, 1.0)
    assert lo == pytest.approx(2 * math.exp(-1.2420688559)) and hi == pytest.approx(
        2 * math.exp(1.2420688559)
    )
    assert stats.sample_interval([5.0])[1:] == (None, None)
    assert stats.sample_interval([1.0, 2.0])[2] is None  # n = 2: no interval
    fit = sp.slope_interval([2, 4, 8, 15], [100.0, 100.0, 100.0, 100.0])
    assert fit["slope"] == pytest.approx(0.0, abs=1e-12) and fit["ci_low"] == pytest.approx(0.0, abs=1e-9)
    fit = sp.slope_interval([1, 2, 3], [2.0, 4.0, 6.5])
    assert fit["slope"] == pytest.approx(2.25) and fit["ci_low"] < 2.25 < fit["ci_high"]
    assert sp.slope_interval([4, 4], [1, 2])["slope"] is None


def test_real_completion_and_metrics_fixtures():
    base = json.loads((FIX / "completion_baseline.json").read_text())["response"]
    spec = json.loads((FIX / "completion_draft_self_n4.json").read_text())["response"]
    mb = S.parse_metrics((FIX / "metrics_before_draft_self_n4.txt").read_text())
    ma = S.parse_metrics((FIX / "metrics_after_draft_self_n4.txt").read_text())
    d = S.metrics_delta(mb, ma)
    t = spec["timings"]
    assert (t["draft_n"], t["draft_n_accepted"]) == (12, 9)
    assert d["spec_decode_num_drafts_total"] == 3 and d["spec_decode_num_draft_tokens_total"] == 12
    assert d["spec_decode_num_accepted_tokens_total"] == 9
    assert sp.alpha(t["draft_n_accepted"], t["draft_n"]) == 0.75
    assert sp.tau(t["draft_n_accepted"], d["spec_decode_num_drafts_total"]) == 4.0
    # 1 token from the prompt pass + 3 verify steps x tau 4 = 13 generated tokens
    assert t["predicted_n"] == 1 + 3 * 4
    # baseline: no draft fields, no drafts in /metrics, same greedy tokens (lossless)
    assert "draft_n" not in base["timings"]
    db = S.metrics_delta(
        S.parse_metrics((FIX / "metrics_before_baseline.txt").read_text()),
        S.parse_metrics((FIX / "metrics_after_baseline.txt").read_text()),
    )
    assert db["spec_decode_num_drafts_total"] == 0
    assert sp.first_mismatch(base["tokens"], spec["tokens"]) is None
    assert base["stop_type"] == "eos" and base["generation_settings"]["top_k"] == 1
    # llama-server's decode rate excludes the first token (it comes from the prompt pass)
    assert math.isclose(
        1e3 * (t["predicted_n"] - 1) / t["predicted_ms"], t["predicted_per_second"], rel_tol=1e-9
    )
    per_pos = {k: v for k, v in ma.items() if k.startswith("spec_decode_num_accepted_tokens_per_pos_total")}
    assert sum(per_pos.values()) == 9


def test_parse_metrics_rejects_garbage():
    with pytest.raises(ValueError):
        S.parse_metrics("llamacpp:foo 1 2 3\n")


def _req(
    cfg,
    prompt,
    rep,
    tps,
    tokens,
    drafted=0,
    acc=0,
    steps=0,
    policy="fresh",
    n_max=None,
    cache_n=0,
    line=1,
    sha="x",
    predicted_n=None,
    spec_type=None,
):
    if predicted_n is None:  # llama-server returns one token id per generated token
        predicted_n = len(tokens) if tokens is not None else 8
    return {
        "file": "f.jsonl",
        "line": line,
        "run_id": f"{cfg}-{prompt}-{rep}",
        "session_id": "s",
        "host_id": "h",
        "toolchain_id": "t",
        "config_id": cfg,
        "prompt_id": prompt,
        "rep": rep,
        "spec_type": spec_type or ("none" if cfg == "baseline" else "ngram-mod"),
        "draft_model_id": None,
        "draft_model_sha256": None,
        "model_sha256": "m",
        "n_max": n_max,
        "policy": policy,
        "cap": 8,
        "stop_type": "eos",
        "cap_hit": False,
        "prompt_n": 10,
        "prompt_ms": 10.0,
        "predicted_n": predicted_n,
        "predicted_ms": 8000.0 / tps if tps else 0.0,
        "drafted": drafted,
        "accepted": acc,
        "verify_steps": steps,
        "cache_n": cache_n,
        "tokens": tokens,
        "content_sha256": sha,
        "peak_rss_bytes": 2**20,
        "request_index": rep,
        "answer_found": None,
        "decode_tps": tps,
        "prefill_tps": 1000.0,
        "alpha": sp.alpha(acc, drafted),
        "tau": sp.tau(acc, steps, plain=cfg == "baseline"),
        "argv": ["llama-server"],
        "started_at": "a",
        "ended_at": "b",
        "load1_max": 0.1,
    }


def test_config_table_paired_speedup_mismatch_and_trend():
    rows = [_req("baseline", "p", i, tps, [1, 2, 3]) for i, tps in enumerate([10.0, 20.0, 10.0])]
    rows += [
        _req("ng", "p", 0, 20.0, [1, 2, 3], drafted=0, acc=0, steps=0, policy="same", n_max=8),
        _req("ng", "p", 1, 30.0, [1, 2, 3], drafted=8, acc=4, steps=1, policy="same", n_max=8),
        _req("ng", "p", 2, 30.0, [1, 7, 3], drafted=8, acc=8, steps=1, policy="same", n_max=8),
    ]
    df = pl.DataFrame(
        rows,
        schema_overrides={
            "alpha": pl.Float64,
            "n_max": pl.Int64,
            "draft_model_id": pl.String,
            "draft_model_sha256": pl.String,
            "answer_found": pl.Boolean,
        },
    )
    t = sp.config_table(df)
    b = t.filter(pl.col("config_id") == "baseline").row(0, named=True)
    g = t.filter(pl.col("config_id") == "ng").row(0, named=True)
    assert b["speedup_mean"] == 1.0 and b["output_equal"] is True and b["alpha"] is None
    # paired ratios 20/10, 30/20, 30/10 = 2, 1.5, 3 -> mean 2.1666..
    assert g["speedup_mean"] == pytest.approx((2 + 1.5 + 3) / 3)
    assert g["speedup_ci_low"] < g["speedup_mean"] < g["speedup_ci_high"]
    assert g["alpha"] == pytest.approx(12 / 16) and g["tau"] == pytest.approx(1 + 12 / 2)
    assert g["output_equal"] is False and g["first_mismatch_pos"] == 1
    # per-repetition alpha 0 (nothing drafted), 0.5, 1.0 -> slope 0.5 per repetition
    assert g["alpha_trend_slope"] == pytest.approx(0.5)
    assert b["alpha_trend_slope"] is None
    assert set(["lines", "files", "run_ids", "cache_n_max", "server_policy", "cap_hit"]) <= set(t.columns)
    from benchbook import caveats

    missing = [c for c in caveats.SPECULATIVE_COLUMNS if c not in t.columns]
    assert missing == []
    ev, status = caveats.evaluate(
        t, "speculative", {}, [r for r in ("output_mismatch", "cross_request_state") if r in caveats.RULES]
    )
    cav = dict(zip(ev["config_id"].to_list(), ev["caveats"].to_list(), strict=True))
    assert "output_mismatch" in cav["ng"] and "cross_request_state" in cav["ng"]
    assert cav["baseline"] == []


def test_config_table_needs_baseline():
    df = pl.DataFrame(
        [_req("ng", "p", 0, 20.0, [1], n_max=8)],
        schema_overrides={
            "alpha": pl.Float64,
            "draft_model_id": pl.String,
            "draft_model_sha256": pl.String,
            "answer_found": pl.Boolean,
        },
    )
    with pytest.raises(ValueError, match="baseline"):
        sp.config_table(df)


_SCHEMA = {
    "alpha": pl.Float64,
    "tau": pl.Float64,
    "n_max": pl.Int64,
    "draft_model_id": pl.String,
    "draft_model_sha256": pl.String,
    "answer_found": pl.Boolean,
    "tokens": pl.List(pl.Int64),
    "content_sha256": pl.String,
    "verify_steps": pl.Int64,
    "decode_tps": pl.Float64,
}


def _table(rows):
    t = sp.config_table(pl.DataFrame(rows, schema_overrides=_SCHEMA))
    return {r["config_id"]: r for r in t.iter_rows(named=True)}


def test_lossless_check_unknown_without_token_ids_sha_fallback():
    with pytest.raises(ValueError, match="token ids absent"):
        sp.first_mismatch(None, [1, 2])
    # no token ids and no content hash on either side: unknown, not equal ([] == [] was "equal")
    t = _table([_req("baseline", "p", 0, 10.0, None, sha=None), _req("ng", "p", 0, 20.0, None, sha=None)])
    assert (t["ng"]["output_equal"], t["ng"]["first_mismatch_pos"]) == (None, None)
    assert t["baseline"]["output_equal"] is None
    # token ids on one side only: content_sha256 decides, equal -> True, different -> False at no position
    t = _table(
        [
            _req("baseline", "p", 0, 10.0, [1, 2, 3], sha="aa"),
            _req("ng", "p", 0, 20.0, None, sha="aa"),
            _req("ng2", "p", 0, 20.0, None, sha="bb"),
        ]
    )
    assert (t["ng"]["output_equal"], t["ng"]["first_mismatch_pos"]) == (True, None)
    assert (t["ng2"]["output_equal"], t["ng2"]["first_mismatch_pos"]) == (False, None)
    # one repetition unknown, another equal: unknown overall; a token mismatch wins over unknown
    t = _table(
        [
            _req("baseline", "p", 0, 10.0, [1, 2, 3]),
            _req("baseline", "p", 1, 10.0, [1, 2, 3]),
            _req("ng", "p", 0, 20.0, [1, 2, 3]),
            _req("ng", "p", 1, 20.0, None, sha=None),
            _req("ng2", "p", 0, 20.0, [1, 2, 9]),
            _req("ng2", "p", 1, 20.0, None, sha=None),
        ]
    )
    assert (t["ng"]["output_equal"], t["ng2"]["output_equal"], t["ng2"]["first_mismatch_pos"]) == (
        None,
        False,
        2,
    )
    # a token list shorter than predicted_n is flagged and not trusted: equal prefixes but different sha
    t = _table(
        [
            _req("baseline", "p", 0, 10.0, [1, 2, 3], sha="aa"),
            _req("ng", "p", 0, 20.0, [1, 2], sha="bb", predicted_n=3),
        ]
    )
    assert (t["ng"]["output_equal"], t["ng"]["first_mismatch_pos"], t["ng"]["tokens_len_mismatch"]) == (
        False,
        None,
        1,
    )
    assert t["baseline"]["tokens_len_mismatch"] == 0


def test_tau_null_when_verify_steps_unknown():
    assert sp.tau(5, None) is None and sp.tau(0, None) is None
    assert sp.tau(0, None, plain=True) == 1.0 and sp.tau(0, 0) == 1.0
    rows = [_req("baseline", "p", i, 10.0, [1, 2, 3], steps=None) for i in range(2)]
    rows += [
        _req("ng", "p", 0, 20.0, [1, 2, 3], drafted=8, acc=4, steps=2),
        _req("ng", "p", 1, 20.0, [1, 2, 3], drafted=8, acc=4, steps=None),
        _req("ok", "p", 0, 20.0, [1, 2, 3], drafted=8, acc=4, steps=2),
    ]
    t = _table(rows)
    assert (t["ng"]["tau"], t["ng"]["k_eff"], t["ng"]["verify_steps"], t["ng"]["alpha"]) == (
        None,
        None,
        None,
        0.5,
    )
    assert (t["ok"]["tau"], t["ok"]["k_eff"], t["ok"]["verify_steps"]) == (3.0, 4.0, 2)
    assert (t["baseline"]["tau"], t["baseline"]["verify_steps"]) == (1.0, 0)
    # the per-request column too
    assert [r["tau"] for r in rows] == [1.0, 1.0, 3.0, None, 3.0]


def test_one_token_request_excluded_from_n_and_speedup():
    # rep 1 of "ng" generated one token (no decode rate): no crash, n counts the two with a rate
    rows = [_req("baseline", "p", i, tps, [1, 2, 3]) for i, tps in enumerate([10.0, 20.0, 10.0])]
    rows += [
        _req("ng", "p", 0, 20.0, [1, 2, 3]),
        _req("ng", "p", 1, None, [1], predicted_n=1, sha=None),
        _req("ng", "p", 2, 30.0, [1, 2, 3]),
    ]
    t = _table(rows)
    g = t["ng"]
    assert (g["n"], g["n_requests"], g["n_no_decode_rate"]) == (2, 3, 1)
    assert g["decode_tps_mean"] == 25.0
    assert g["speedup_mean"] == pytest.approx((2.0 + 3.0) / 2)  # 20/10 and 30/10, rep 1 left out
    assert (t["baseline"]["n"], t["baseline"]["n_no_decode_rate"]) == (3, 0)


def test_speedup_chart_skips_a_k_without_measured_r(monkeypatch, tmp_path):
    # r measured at n=1 only: r(k+1) for k=4 is None, so no model curve (this once raised TypeError)
    from benchbook.experiments.speculative import report

    saved = {}
    monkeypatch.setattr(report.charts, "save", lambda chart, out_dir, name: saved.update({name: chart}))
    row = {
        "config_id": "draft4",
        "prompt_id": "p0",
        "spec_type": "draft",
        "draft_model_id": "small",
        "n_max": 4,
        "n": 3,
        "alpha": 0.5,
        "tau": 1.9,
        "speedup_mean": 1.2,
        "speedup_ci_low": 1.1,
        "speedup_ci_high": 1.3,
        "speedup_model": None,
        "server_policy": "fresh",
        "session_id": "s1",
        "caveats": ["c1"],
        "accepted": 2,
        "drafted": 4,
    }
    req = pl.DataFrame(
        [
            {
                **{k: row[k] for k in ("config_id", "prompt_id", "spec_type", "draft_model_id")},
                "n_max": 4,
                "peak_rss_bytes": 2**20,
                "rep": 0,
            }
        ]
    )
    cost = sp.CostModel(t1_ms=10.0, r={1: 1.0}, c={"small": 0.2}, target_model_id="big", n=3)
    report._charts(pl.DataFrame([row]), req, cost, tmp_path)
    # error bars, points and the y = 1 rule; a model curve would be a fourth layer
    assert len(saved["spec_speedup_alpha"].layer) == 3


def test_a_disturbed_cost_model_flags_the_numbers_built_on_it_and_no_other(tmp_path):
    # the committed session 4787a708 (CPU host 246274ab, resumed) published as if it were the page's:
    # its cost rows read r(1) = 5.007 (caveats.DEFAULTS: 0.67-1.5), so its model speedups and its c, r
    # and t1 numbers carry cost_rows_disturbed; its decode rates, speedups, α and τ read requests only
    import yaml

    from benchbook.experiments.speculative import report
    from conftest import committed_root

    root = committed_root()
    raw = root / "data" / "raw"
    params = yaml.safe_load((root / "params.yaml").read_text())
    sid = next(
        s for s in sp.load_requests(raw / "speculative")["session_id"].unique() if s.startswith("4787a708")
    )
    rep = report.derive(
        raw / "speculative",
        raw / "snapshots",
        tmp_path / "speculative",
        tmp_path / "numbers.json",
        thresholds=params["report"],
        root=root,
        session_id=sid,
    )
    assert round(rep.cost.r1, 3) == 5.007
    page = [n for n in rep.numbers if not n.key.startswith("spec-sc-")]
    flagged = {n.key for n in page if "cost_rows_disturbed" in n.caveats}
    built = {n.key for n in page if n.key.endswith("-model") or n.key.startswith("spec-cost-")}
    # 6 r sizes, 3 c (two drafts, the target as its own) and t1 = 10 cost numbers, and every model speedup
    assert len([k for k in built if k.startswith("spec-cost-")]) == 10
    # and 37 model speedups (each configuration and prompt with a k, a c and r(k+1)); nothing else
    assert flagged == built and len(built) == 10 + 37


class _Server:
    """A stand-in llama-server for the session runner (``run.LlamaServer``): it does not start when its
    argv holds ``--no-such-flag``; ``/completion`` answers the captured baseline response (its
    ``/metrics`` the captured before/after texts), except the first request whose prompt holds
    ``HANG``, which times out.  ``events``: start, kill and stop (of a live server), in order."""

    made: list[_Server] = []
    hung = False

    def __init__(self, argv, log_path, **_kw):
        self.base_argv, self.log_path, self.events = list(argv), Path(log_path), []
        self.argv, self.proc, self.port, self.pid, self.load_ms = [], None, None, 7, 1.0
        self.ports_tried, self.peak_rss_bytes, self._sampler, self.up, self.served = [], 0, None, False, 0
        _Server.made.append(self)

    def start(self):
        self.events.append("start")
        if "--no-such-flag" in self.base_argv:
            raise S.ServerError("exited 1 before /health", "start_failed", "unknown argument", 1)
        self.up, self.argv, self.port, self.ports_tried = True, [*self.base_argv, "--port", "9"], 9, [9]
        return self

    def alive(self):
        return self.up

    def stop(self):
        if self.up:
            self.events.append("stop")
        self.up = False

    def kill(self):
        self.events.append("kill")
        self.up = False

    def log_size(self):
        return 0

    def log_text(self, _start=None):
        return ""

    def apply_template(self, messages):
        return messages[0]["content"]

    def request_text(self, _method, _path, **_kw):
        return (FIX / f"metrics_{'after' if self.served % 2 else 'before'}_baseline.txt").read_text()

    def completion(self, body, **_kw):
        if "HANG" in body["prompt"] and not _Server.hung:
            _Server.hung = True
            raise S.ServerError("POST /completion: no answer within 1 s", "request_timeout", "tail")
        self.served += 1
        return json.loads((FIX / "completion_baseline.json").read_text())["response"], 1000


def test_a_session_restarts_its_servers_as_planned_and_records_every_failure(tmp_path, monkeypatch):
    # two repetitions of three configurations: fresh servers per (repetition, configuration), one that
    # cannot start, one `same` server kept for the whole session; a request that times out (its server
    # killed and started again for the next request)
    from benchbook.experiments.speculative import run
    from benchbook.records import read_records
    from conftest import ROOT, stand_in_host

    _Server.made, _Server.hung = [], False
    monkeypatch.setattr(run, "LlamaServer", _Server)
    cfg = {
        "repetitions": 2,
        "threads": 2,
        "ctx_size": 512,
        "configs": [
            {"id": "baseline", "spec_type": "none", "policy": "fresh"},
            {"id": "broken", "spec_type": "none", "policy": "fresh", "extra_args": ["--no-such-flag"]},
            {"id": "mod-same", "spec_type": "ngram-mod", "n_max": 8, "policy": "same"},
        ],
    }
    prompts = [
        {"id": "p1", "cap": 3, "messages": [{"role": "user", "content": "HANG on"}]},
        {"id": "p2", "cap": 4, "messages": [{"role": "user", "content": "Hi"}]},
    ]
    raw = tmp_path / "raw" / "x.jsonl"
    res = run.run_session(
        cfg=cfg,
        server_bin=Path("/nonexistent/llama-server"),
        bench_bin=None,
        target={"model_id": "m", "path": "/nonexistent/m.gguf", "sha256": "0" * 64},
        drafts={},
        prompts=prompts,
        toolchain={"toolchain_id": "tc", "build_number": 1, "build_commit": "c"},
        host=stand_in_host(),
        root=ROOT,
        raw_file=raw,
        log_dir=tmp_path / "logs",
        log=lambda *_: None,
    )
    # order (plan_order): r0 baseline, broken, mod-same; r1 broken, mod-same, baseline
    names = [s.log_path.name[9:] for s in _Server.made]
    assert names == [
        "baseline-r0.log",
        "broken-r0.log",
        "mod-same-r0.log",
        "broken-r1.log",
        "baseline-r1.log",
    ]
    assert [s.events for s in _Server.made] == [
        ["start", "kill", "start", "stop"],  # p1 timed out: killed, started again for p2
        ["start"],  # never up: both requests recorded as failed
        ["start", "stop"],  # `same`: kept through r1, stopped when the session ends
        ["start"],
        ["start", "stop"],
    ]
    # 12 requests: 7 measured; failed: the timeout and the 4 requests the broken servers owed
    assert (res.ran, res.failed, res.skipped) == (7, 5, 0)
    assert [f["run"] for f in res.failures] == [
        "baseline r0 p1",
        "broken r0 p1",
        "broken r0 p2",
        "broken r1 p1",
        "broken r1 p2",
    ]
    failed = read_records([raw], "benchbook.run_failed")
    assert [(r["config"]["config_id"], r["stage"], r["kind"]) for r in failed] == [
        ("baseline", "request", "request_timeout"),
        *[("broken", "server_start", "start_failed")] * 4,
    ]
    ok = read_records([raw], run.SCHEMA)
    # request_index: a fresh server's is the request's place in its visit (p2 after the timed-out p1: 1);
    # the `same` server counts the requests it served over the session
    got = [(r["config"]["config_id"], r["rep"], r["prompt_id"], r["server"]["request_index"]) for r in ok]
    assert got == [
        ("baseline", 0, "p2", 1),
        ("mod-same", 0, "p1", 0),
        ("mod-same", 0, "p2", 1),
        ("mod-same", 1, "p1", 2),
        ("mod-same", 1, "p2", 3),
        ("baseline", 1, "p1", 0),
        ("baseline", 1, "p2", 1),
    ]
    # failures the session publishes: it is complete (an end record), not resumed by the next run
    assert json.loads(raw.read_text().splitlines()[-1])["event"] == "end"
