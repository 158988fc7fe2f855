"""The measurement harness's groups and warm-ups (``experiments.harness.run_plan``) with a stand-in
measure function: one setup per group of planned runs (entered only when the group has a run left,
left after its last run, also when one raises), runs skipped by their key on resume, failures listed,
warm-up runs measured every time and never written, and a group killed half-way resumed where it
stopped."""

from __future__ import annotations

import json
from contextlib import contextmanager
from dataclasses import dataclass

import pytest

import benchbook.experiments.template  # noqa: F401  (declares benchbook.template, the records written here)
from benchbook.experiments.contract import PlannedRun
from benchbook.experiments.harness import OK, Groups, HarnessError, Outcome, run_plan


@dataclass(frozen=True)
class Req(PlannedRun):
    """A request to ``server`` (the group); ``warm``: a warm-up run."""

    server: str | None
    warm: bool = False

    @property
    def warmup(self) -> bool:
        return self.warm


def req(key: str, server: str | None, warm: bool = False) -> Req:
    return Req(key, {"k": key}, f"{server} {key}", server, warm)


#: a plan of two servers with two requests each, then a run of no group (one server per group, the
#: interleaving of a repetition: a a b b)
PLAN = [req("k0", "a"), req("k1", "a"), req("k2", "b"), req("k3", "b"), req("k4", None)]


class Stand:
    """A stand-in experiment: ``open`` starts a "server" per group, its measure writes one record per
    run; ``events`` is what happened, in order; ``fail``: keys whose run fails (``required``), ``die``:
    the key whose run raises KeyboardInterrupt (a kill)."""

    def __init__(self, fail: dict[str, bool] | None = None, die: str | None = None):
        self.events: list[tuple] = []
        self.fail, self.die = fail or {}, die

    @contextmanager
    def open(self, _sess, runs):
        self.events.append(("start", runs[0].server, [r.key for r in runs]))
        try:
            yield self.measure
        finally:
            self.events.append(("stop", runs[0].server))

    def measure(self, sess, run):
        self.events.append(("measure", run.key))
        if run.key == self.die:
            raise KeyboardInterrupt
        if run.key in self.fail:
            return Outcome(False, "server died", required=self.fail[run.key])
        if not run.warmup:
            sess.append({"schema": "benchbook.template", "schema_version": 1, "run_key": run.key})
        return OK

    def run(self, raw, plan=PLAN, **kw):
        return run_plan(
            experiment="t",
            raw_file=raw,
            meta={"host_id": "h"},
            runs=plan,
            measure_run=self.measure,
            groups=Groups(lambda r: r.server, self.open),
            cfg={},
            log=lambda *_: None,
            **kw,
        )


def lines(raw) -> list[str]:
    """The raw file as ``start``/``end`` (session records) and run keys, in order."""
    recs = [json.loads(x) for x in raw.read_text().splitlines()]
    return [r["event"] if r["schema"] == "benchbook.session" else r["run_key"] for r in recs]


def test_one_setup_per_group_entered_once_and_left_after_its_last_run(tmp_path):
    raw = tmp_path / "x.jsonl"
    stand = Stand()
    opened = []
    res = stand.run(raw, on_open=lambda sess: opened.append((sess.session_id, raw.read_text().count("\n"))))
    # on_open once, after the start record (1 line) and before any run
    assert opened == [(res.session_id, 1)]
    assert stand.events == [
        ("start", "a", ["k0", "k1"]),
        ("measure", "k0"),
        ("measure", "k1"),
        ("stop", "a"),
        ("start", "b", ["k2", "k3"]),
        ("measure", "k2"),
        ("measure", "k3"),
        ("stop", "b"),
        ("measure", "k4"),  # no group: measure_run alone
    ]
    assert (res.ran, res.skipped, res.failed, res.resumed) == (5, 0, 0, False)
    assert lines(raw) == ["start", "k0", "k1", "k2", "k3", "k4", "end"]


def test_a_group_killed_half_way_is_left_and_the_next_session_resumes_it(tmp_path):
    raw = tmp_path / "x.jsonl"
    killed = Stand(die="k3")
    with pytest.raises(KeyboardInterrupt):
        killed.run(raw)
    # the server of group b is stopped although its second request raised; no end record
    assert killed.events[-2:] == [("measure", "k3"), ("stop", "b")]
    assert lines(raw) == ["start", "k0", "k1", "k2"]
    again = Stand()
    said: list[str] = []
    res = run_plan(
        experiment="t",
        raw_file=raw,
        meta={"host_id": "h"},
        runs=PLAN,
        measure_run=again.measure,
        groups=Groups(lambda r: r.server, again.open),
        cfg={},
        log=said.append,
    )
    # issue 33 §5: the resumed session is named with how far it got (k0, k1, k2 of the five runs)
    assert said[0] == f"resuming session {res.session_id} (3 of 5 done)"
    # group a: nothing left, never started; group b: started for k3 only; k4 measured
    assert again.events == [
        ("start", "b", ["k3"]),
        ("measure", "k3"),
        ("stop", "b"),
        ("measure", "k4"),
    ]
    assert (res.ran, res.skipped, res.resumed) == (2, 3, True)
    assert lines(raw) == ["start", "k0", "k1", "k2", "start", "k3", "k4", "end"]
    # a complete session is never resumed: the next invocation measures everything again
    assert Stand().run(raw).ran == 5


def test_failures_are_listed_and_only_a_required_one_keeps_the_session_open(tmp_path):
    raw = tmp_path / "x.jsonl"
    res = Stand(fail={"k1": False}).run(raw)
    # a failure the experiment publishes (required False): listed, the group goes on, the session ends
    assert (res.ran, res.failed) == (4, 1)
    assert res.failures == [{"run": "a k1", "error": "server died"}]
    assert lines(raw) == ["start", "k0", "k2", "k3", "k4", "end"]
    raw2 = tmp_path / "y.jsonl"
    res2 = Stand(fail={"k2": True}).run(raw2)
    assert (res2.ran, res2.failed) == (4, 1) and lines(raw2)[-1] == "k4"  # no end record
    # the next invocation resumes it and measures only the failed run, in its group
    again = Stand()
    res3 = again.run(raw2)
    assert again.events == [("start", "b", ["k2"]), ("measure", "k2"), ("stop", "b")]
    assert (res3.ran, res3.skipped, res3.resumed) == (1, 4, True) and lines(raw2)[-2:] == ["k2", "end"]


def test_warm_up_runs_are_measured_every_time_and_never_written(tmp_path):
    raw = tmp_path / "x.jsonl"
    plan = [req("w0", "a", warm=True), req("k0", "a"), req("w1", "b", warm=True), req("k1", "b")]
    killed = Stand(die="k1")
    with pytest.raises(KeyboardInterrupt):
        killed.run(raw, plan)
    again = Stand()
    res = again.run(raw, plan)
    # group a: k0 done, but its warm-up runs again (a warm-up is never done), so the group opens
    assert again.events == [
        ("start", "a", ["w0"]),
        ("measure", "w0"),
        ("stop", "a"),
        ("start", "b", ["w1", "k1"]),
        ("measure", "w1"),
        ("measure", "k1"),
        ("stop", "b"),
    ]
    # warm-ups counted in neither ran nor skipped: 1 measured now, 1 done before
    assert (res.ran, res.skipped, res.resumed) == (1, 1, True)
    assert lines(raw) == ["start", "k0", "start", "k1", "end"]


def test_a_warm_up_that_writes_is_refused_and_a_run_without_a_measure_too(tmp_path):
    class Writes(Stand):
        def measure(self, sess, run):
            sess.append({"schema": "benchbook.template", "schema_version": 1, "run_key": run.key})
            return OK

    with pytest.raises(HarnessError, match="warm-up run a w0 wrote to .*x.jsonl; fix: return before"):
        Writes().run(tmp_path / "x.jsonl", [req("w0", "a", warm=True), req("k0", "a")])
    with pytest.raises(HarnessError, match="run None k4 has no group and run_plan got no measure_run"):
        run_plan(
            experiment="t",
            raw_file=tmp_path / "y.jsonl",
            meta={},
            runs=PLAN,
            groups=Groups(lambda r: r.server, Stand().open),
            cfg={},
            log=lambda *_: None,
        )


@pytest.mark.parametrize("plan", [[], [req("w0", "a", warm=True)]], ids=["no run", "warm-ups only"])
def test_an_empty_plan_is_refused_before_anything_is_written(tmp_path, plan):
    # before: TemplateParams(repetitions=-3) planned no run, and run_plan wrote a start and an end record
    # with nothing between: a completed session, so cli.measured_here never measured that host again
    raw = tmp_path / "x.jsonl"
    with pytest.raises(HarnessError) as e:
        Stand().run(raw, plan)
    assert str(e.value) == (
        f"t: the plan holds no run to record ({len(plan)} planned, none but warm-ups), so its session would "
        "end at once and count as done; fix: give the params that size the plan (repetitions, the lists of "
        f"models, sizes or configurations) at least one run; nothing was written to {raw}"
    )
    assert not raw.exists()
