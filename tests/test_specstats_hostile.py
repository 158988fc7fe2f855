"""Odd llama-server logs for ``llamacpp.specstats``: two implementations printing a statistics line
each per request (``common_speculative_print_stats`` loops over every implementation), a line
still being written, and counters that start again from 0 after a server restart (a resumed session
appends the new process's log to the old one's file)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchbook.llamacpp.specstats import await_stats, spec_stats, stats_delta

# the b11434 format (common/speculative.cpp), one line per implementation
_LINE = (
    "I spec common_specu: statistics {impl:>16}: #calls(b,g,a) = {cb:>4} {cg:>6} {ca:>6}, "
    "#gen drafts = {gd:>6}, #acc drafts = {gd:>5}, #gen tokens = {gt:>6}, #acc tokens = {at:>5}, "
    "dur(b,g,a) = {dur} ms"
)


def line(impl: str, cb: int, cg: int, gd: int, gt: int, at: int, dur: str = "0.100, 1.000, 0.010") -> str:
    return _LINE.format(impl=impl, cb=cb, cg=cg, ca=gd, gd=gd, gt=gt, at=at, dur=dur)


# a server with two implementations: after request 1, then after request 2 (ngram-mod first, as
# common_speculative_init adds it before draft-simple)
REQ1 = [line("ngram-mod", 1, 30, 3, 12, 10), line("draft-simple", 1, 27, 27, 100, 80)]
REQ2 = [line("ngram-mod", 2, 70, 5, 20, 15), line("draft-simple", 2, 60, 60, 220, 170)]


def test_spec_stats_of_one_implementation_among_several():
    log = "\n".join(REQ1 + REQ2)
    assert spec_stats(log)["impl"] == "draft-simple"  # the last line
    ngram = spec_stats(log, impl="ngram-mod")
    assert ngram is not None and (ngram["calls_draft"], ngram["gen_tokens"]) == (70, 20)
    assert spec_stats(log, impl="draft-mtp") is None


def test_await_stats_waits_for_the_same_implementations_line():
    before = spec_stats("\n".join(REQ1))
    assert before is not None and before["impl"] == "draft-simple"
    # the logger has written request 2's ngram-mod line, not yet its draft-simple line: the newest line
    # is ngram-mod's with 2 begin calls; taken, the delta mixed ngram-mod's counters minus draft-simple's
    # (gen_tokens 20 - 100 = -80) under the name ngram-mod
    reads = iter(["\n".join(REQ2[:1]), "\n".join(REQ2)])
    got = await_stats(lambda: next(reads), before, timeout_s=5, poll_s=0)
    assert got is not None and got["impl"] == "draft-simple"
    d = stats_delta(before, got)
    # 220 - 100 tokens drafted, 170 - 80 accepted, 60 - 27 drafts in request 2
    assert d is not None and (d["impl"], d["gen_tokens"], d["acc_tokens"], d["gen_drafts"]) == (
        "draft-simple",
        120,
        90,
        33,
    )


def test_stats_delta_refuses_two_implementations_and_counters_that_went_down():
    with pytest.raises(ValueError, match="draft-simple before, ngram-mod after"):
        stats_delta(spec_stats(REQ1[1]), spec_stats(REQ2[0]))
    # a restarted server counts from 0 again: 1 begin call after 2 is not -1 request
    with pytest.raises(ValueError, match="calls_begin 2 -> 1"):
        stats_delta(spec_stats(REQ2[1]), spec_stats(REQ1[1]))


def test_a_line_still_being_written_is_not_read():
    full = line("draft-simple", 3, 90, 90, 300, 250, dur="0.300, 2000.123, 0.030")
    done = "\n".join(REQ1)
    for cut in (len(full) - 3, len(full) - 10, full.index("#acc tokens") + 20):
        assert spec_stats(done + "\n" + full[:cut])["calls_begin"] == 1
    assert spec_stats(done + "\n" + full)["t_draft_ms"] == 2000.123


class _FakeServer:
    """A llama-server whose log file already holds an earlier process's lines (a resumed session
    appends to the same file): ``log_tail`` reads the whole file, ``log_text`` this process's part."""

    old = line("draft-simple", 3, 90, 90, 300, 250)  # the earlier process's last line

    def __init__(self, argv, _log_path, **_kw):
        self.argv, self.pid, self.peak_rss_bytes = argv, 0, 0
        self.lines: list[str] = []

    def start(self):
        pass

    def stop(self):
        pass

    def request_json(self, *_args, **_kwargs):
        return {"tokens": list(range(64))}

    def log_tail(self, _n_chars=4000):
        return "\n".join([self.old, "=== benchbook: start", *self.lines])

    def log_text(self, _start=None):
        return "\n".join(self.lines)


def test_spec_depth_counts_a_resumed_servers_requests_from_its_own_log(tmp_path, monkeypatch):
    from benchbook.experiments.spec_depth import run as depth_run

    servers: list[_FakeServer] = []

    def fake_server(argv, log_path, **kw):
        servers.append(_FakeServer(argv, log_path))
        return servers[-1]

    def fake_request(srv, tokens, cfg, timeout):
        # the new process's counters after its 1st and 2nd request: 4 and 8 drafts, 16 and 32 tokens
        k = len(srv.lines) + 1
        srv.lines.append(line("draft-simple", k, 4 * k, 4 * k, 16 * k, 12 * k))
        return {"timings": {"draft_n": 16, "draft_n_accepted": 12}}, 1.0, None

    class Sess:
        session_id = "abcdef0123"
        records: list[dict] = []

        def append(self, rec):
            self.records.append(rec)

    monkeypatch.setattr(depth_run.servervisit, "LlamaServer", fake_server)  # the visit starts the server
    monkeypatch.setattr(depth_run, "one_request", fake_request)
    monkeypatch.setattr(depth_run, "build", lambda schema_kind, **rec: {"schema_kind": schema_kind, **rec})
    monkeypatch.setattr(depth_run.time, "sleep", lambda s: None)
    from benchbook.experiments.spec_depth.plan import SpecDepthParams, request_runs

    draft = {"model_id": "d", "path": "d.gguf", "sha256": "d" * 64}
    target = {"model_id": "t", "path": "t.gguf", "sha256": "t" * 64}
    cfg = SpecDepthParams.from_section({"depths": [0, 16], "repetitions": 1}).config()
    cfg["configs"] = [{"id": "spec", "role": "speculative", "draft": "d", "n_max": 4}]
    runs = request_runs(cfg, target, {"d": draft}, "tc", "h")
    sess = Sess()
    visit = depth_run.server_visit(
        sess, runs, server_bin=Path("llama-server"), context="x", cfg=cfg, base={}, log_dir=tmp_path
    )
    with visit as measure:
        outcomes = [measure(sess, run) for run in runs]
    # the first request was counted against the earlier process's line (16 - 300 = -284 tokens; now a
    # ValueError: run_failed): each request drafted 16 tokens in 4 drafts and had 12 accepted
    assert [o.ok for o in outcomes] == [True, True] and len(servers) == 1
    got = [
        (r["spec_stats"]["gen_tokens"], r["spec_stats"]["acc_tokens"], r["spec_stats"]["gen_drafts"])
        for r in sess.records
    ]
    assert got == [(16, 12, 4), (16, 12, 4)]


def test_a_late_statistics_line_gives_no_counters_rather_than_another_requests():
    import json

    from benchbook.llamacpp.specstats import delta_fault

    # request 2's line came after await_stats' wait (its spec_stats null); request 3 then reads from the
    # line of request 1: both lines have arrived, and the newest covers requests 2 and 3
    r1 = line("draft-simple", 1, 10, 10, 40, 30)
    r2 = line("draft-simple", 2, 20, 20, 80, 70)
    r3 = line("draft-simple", 3, 25, 25, 100, 75)
    before = spec_stats(r1)
    after = await_stats(lambda: "\n".join([r1, r2, r3]), before, timeout_s=1, poll_s=0)
    d = stats_delta(before, after)
    assert d is not None and (d["calls_begin"], d["gen_tokens"], d["acc_tokens"]) == (2, 60, 45)
    # request 3's own timings: 20 drafted, 5 accepted
    timings = {"draft_n": 20, "draft_n_accepted": 5}
    assert delta_fault(d, timings) == (
        "the counters cover 2 requests (begin calls 2), not 1: a statistics line came late"
    )
    # only the late line has arrived: one begin call, but request 2's 40/40 tokens, not 20/5
    d2 = stats_delta(before, await_stats(lambda: "\n".join([r1, r2]), before, timeout_s=1, poll_s=0))
    assert delta_fault(d2, timings) == (
        "the counters' drafted/accepted tokens 40/40 differ from the request's timings 20/5: they are "
        "another request's (a statistics line came late)"
    )
    assert delta_fault(stats_delta(spec_stats(r2), spec_stats(r3)), timings) is None
    # nothing drafted: the timings omit draft_n (0 tokens); every committed -lv 4 request passes
    assert delta_fault({"calls_begin": 1, "gen_tokens": 0, "acc_tokens": 0}, {}) is None
    from conftest import committed_root

    recs = [
        json.loads(x)
        for f in sorted((committed_root() / "data" / "raw" / "speculative").glob("*.jsonl"))
        for x in f.read_text().splitlines()
        if '"spec_stats": {' in x or '"spec_stats":{' in x
    ]
    assert len(recs) == 3 * 132  # the H200's 5b481365, this CPU host's 521afbb1 and e5c68027
    assert [delta_fault(r["spec_stats"], r["timings"]) for r in recs] == [None] * 3 * 132
