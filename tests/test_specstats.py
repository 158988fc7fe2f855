"""llamacpp.specstats: the speculative counters of a llama-server log at -lv 4 (real log text of build
b11434), the per-request difference, the wait for the line, the server log of one process, and a real
speculative session that records them per request."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from benchbook.experiments.speculative import run as spec_run
from benchbook.llamacpp import server as S
from benchbook.llamacpp.specstats import await_stats, spec_stats, stats_delta
from benchbook.records import read_records
from conftest import cached_server_env, stand_in_host

ROOT = Path(__file__).resolve().parents[1]

# lines 212 and 237 of one llama-server log (CPU build b11434, -lv 4, --spec-type ngram-mod, two
# requests on one server), cut after the counters' tail; the print_timing line between them is the same
# log's ("draft acceptance = ... (50 accepted / 53 generated)" for the second request)
NGRAM_LOG = "\n".join(
    [
        "0.04.114.994 I spec common_specu: statistics        ngram-mod: #calls(b,g,a) =    1     34      3, "
        "#gen drafts =      3, #acc drafts =     3, #gen tokens =     12, #acc tokens =    12, "
        "#mean acc len = 5.00, #acc rate/pos = (1.000, 1.000, 0.333, 0.333, 0.333, 0.333, 0.333, 0.333), "
        "dur(b,g,a) = 0.092, 0.141, 0.013 ms",
        "0.09.328.978 I slot print_timing: id  0 | task 40 | draft acceptance = 0.94340 "
        "(   50 accepted /    53 generated), mean len =  8.14",
        "0.09.329.022 I spec common_specu: statistics        ngram-mod: #calls(b,g,a) =    2    111     10, "
        "#gen drafts =     10, #acc drafts =    10, #gen tokens =     65, #acc tokens =    62, "
        "#mean acc len = 7.20, #acc rate/pos = (1.000, 1.000, 0.800, 0.800, 0.800, 0.600, 0.600, 0.600), "
        "dur(b,g,a) = 0.149, 0.683, 0.021 ms",
    ]
)

# two statistics lines of one llama-server log (CPU build b11434, -lv 4, self-draft n_max 4)
_STATS = (
    "I spec common_specu: statistics     draft-simple: #calls(b,g,a) = {cb:>4} {cg:>6} {cg:>6}, "
    "#gen drafts = {cg:>6}, #acc drafts = {cg:>5}, #gen tokens = {gt:>6}, #acc tokens = {gt:>5}, "
    "#mean acc len = 5.00, #acc rate/pos = (1.000, 1.000, 1.000, 1.000), dur(b,g,a) = {dur} ms"
)
DRAFT_LOG = "\n".join(
    [
        "0.14.074.452 " + _STATS.format(cb=1, cg=6, gt=24, dur="0.163, 5184.009, 0.015"),
        "llama_kv_cache:        CPU KV buffer size =     5.62 MiB",
        "0.25.330.811 " + _STATS.format(cb=2, cg=12, gt=48, dur="0.215, 7988.537, 0.023"),
    ]
)


def test_spec_stats_reads_the_last_line_and_the_delta_is_per_request():
    first = spec_stats(DRAFT_LOG.splitlines()[0])
    last = spec_stats(DRAFT_LOG)
    assert last is not None and first is not None
    assert (last["calls_draft"], last["gen_drafts"], last["gen_tokens"], last["acc_tokens"]) == (
        12,
        12,
        48,
        48,
    )
    assert last["t_draft_ms"] == 7988.537 and last["t_begin_ms"] == 0.215 and last["impl"] == "draft-simple"
    d = stats_delta(first, last)
    assert d is not None
    # 12 - 6 drafts, 48 - 24 tokens, 7988.537 - 5184.009 = 2804.528 ms drafting in the second request
    assert (d["gen_drafts"], d["gen_tokens"]) == (6, 24)
    assert d["t_draft_ms"] == 2804.528
    assert spec_stats("no statistics here") is None
    assert stats_delta(None, None) is None


def test_ngram_line_counts_draft_calls_apart_from_drafts_made():
    first = spec_stats(NGRAM_LOG.splitlines()[0])
    d = stats_delta(first, spec_stats(NGRAM_LOG))
    # second request: 111 - 34 = 77 draft calls (one per decode step), 10 - 3 = 7 drafts made (= verify
    # steps), 65 - 12 = 53 tokens drafted and 62 - 12 = 50 accepted: the print_timing line's 50 / 53;
    # 0.683 - 0.141 = 0.542 ms drafting, 0.149 - 0.092 = 0.057 ms in begin (rounded to the log's µs)
    assert d == {
        "calls_begin": 1,
        "calls_draft": 77,
        "calls_accept": 7,
        "gen_drafts": 7,
        "acc_drafts": 7,
        "gen_tokens": 53,
        "acc_tokens": 50,
        "t_begin_ms": 0.057,
        "t_draft_ms": 0.542,
        "t_accept_ms": 0.008,
        "impl": "ngram-mod",
    }
    # the first request of a fresh server: the line itself (before = None)
    assert stats_delta(None, first) == first


def test_await_stats_waits_for_a_new_line_and_gives_up_with_none():
    first = spec_stats(NGRAM_LOG.splitlines()[0])
    reads = iter(["", NGRAM_LOG.splitlines()[0], NGRAM_LOG])  # the line of this request comes third
    got = await_stats(lambda: next(reads), first, timeout_s=5, poll_s=0)
    assert got is not None and got["calls_begin"] == 2 and got["gen_tokens"] == 65
    # no line with more begin calls than before: None after the timeout (not the old line, which would
    # read as a request that drafted nothing)
    assert await_stats(lambda: NGRAM_LOG, spec_stats(NGRAM_LOG), timeout_s=0.05, poll_s=0.01) is None
    assert await_stats(lambda: "", None, timeout_s=0.05, poll_s=0.01) is None


def test_verbosity_args_follow_the_param():
    assert spec_run.verbosity_args({"log_verbosity": 4}) == ["-lv", "4"]
    assert spec_run.verbosity_args({"log_verbosity": None}) == [] and spec_run.verbosity_args({}) == []
    params = yaml.safe_load((ROOT / "params.yaml").read_text())
    assert params["speculative"]["log_verbosity"] == 4
    assert params["profiles"]["gpu"]["speculative"]["log_verbosity"] == 4


def test_log_text_is_this_process_output_only(tmp_path):
    log = tmp_path / "s.log"
    log.write_text("earlier server\n0.01 I spec common_specu: statistics ...\n")
    srv = S.LlamaServer(["true"], log)
    srv.log_start = log.stat().st_size  # as _launch sets it after its start line
    with open(log, "a") as f:
        f.write("new process line\n")
    assert srv.log_text() == "new process line\n"
    assert srv.log_text(0).startswith("earlier server") and srv.log_size() == log.stat().st_size
    assert S.LlamaServer(["true"], tmp_path / "absent.log").log_text() == ""


@pytest.mark.integration
def test_a_session_at_lv4_records_the_draft_counters_per_request(tmp_path):
    """Real build: baseline and a self-draft n_max 2 on one fresh server each, two prompts.  Every
    speculative request's spec_stats equals its own timings (drafted, accepted) and /metrics verify steps,
    with one begin call; the baseline's is null; the argv carries -lv 4."""
    env = cached_server_env()
    tc, model = env["tc"], env["model"]
    host = stand_in_host()
    cfg = {
        "repetitions": 1,
        "threads": 2,
        "ctx_size": 512,
        "n_min": 0,
        "p_min": 0.0,
        "health_timeout_s": 60,
        "request_timeout_s": 120,
        "cost_model": None,
        "log_verbosity": 4,
        "drafts": {"self": {"model": "target"}},  # a config's draft is a key of drafts (SpeculativeParams)
        "configs": [
            {"id": "baseline", "spec_type": "none", "policy": "fresh"},
            {"id": "self-n2", "spec_type": "draft-simple", "draft": "self", "n_max": 2, "policy": "fresh"},
        ],
    }
    prompts = [
        {"id": "a", "cap": 12, "messages": [{"role": "user", "content": "Count from 1 to 20."}]},
        {"id": "b", "cap": 12, "messages": [{"role": "user", "content": "Name three colours."}]},
    ]
    raw = tmp_path / "raw" / "x.jsonl"
    res = spec_run.run_session(
        cfg=cfg,
        server_bin=tc.binary("llama-server"),
        bench_bin=None,
        target=model,
        drafts={"self": {**model}},
        prompts=prompts,
        toolchain=tc.record,
        host=host,
        root=ROOT,
        raw_file=raw,
        log_dir=tmp_path / "logs",
        log=lambda *_: None,
    )
    assert res.ran == 4 and res.failed == 0
    recs = read_records([raw], spec_run.SCHEMA)
    for r in recs:
        assert r["argv"][r["argv"].index("-lv") + 1] == "4"
    base = [r for r in recs if r["config"]["config_id"] == "baseline"]
    spec = [r for r in recs if r["config"]["config_id"] == "self-n2"]
    assert [r["spec_stats"] for r in base] == [None, None]
    assert [r["server"]["request_index"] for r in spec] == [0, 1]  # two requests on one server
    for r in spec:
        s, t = r["spec_stats"], r["timings"]
        assert s["impl"] == "draft-simple" and s["calls_begin"] == 1
        assert (s["gen_tokens"], s["acc_tokens"]) == (t["draft_n"], t["draft_n_accepted"])
        assert s["gen_drafts"] == r["verify_steps"] and s["t_draft_ms"] > 0
    assert json.loads(raw.read_text().splitlines()[-1])["event"] == "end"
