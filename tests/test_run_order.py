"""`benchbook run` on a new host: the llama.cpp build and draft-self training beside the first site and
each other, never beside a timed measurement; stages stubbed (no DVC, build or model), only the order
and overlap are checked."""

import subprocess
import threading
import time
from types import SimpleNamespace

from benchbook import cli, provenance, resolve
from benchbook.llamacpp import artifacts


def _stub(monkeypatch, tmp_path, measured: dict[str, bool], site_fails: bool = False):
    """Stub run's collaborators; returns the list of (event, name, monotonic time) it records."""
    events: list[tuple[str, str, float]] = []
    lock = threading.Lock()

    def note(event: str, name: str) -> None:
        with lock:
            events.append((event, name, time.monotonic()))

    def run(argv, extra_env=None):
        name = "site" if "site" in argv else "repro" if argv[-1].startswith("-") else argv[-1]
        name = "dvc " + name.split(":")[-1] if name == "measure/dvc.yaml:draftself_train" else name
        name = name.split(":")[-1]
        note("start", name)
        time.sleep(0.05)
        note("end", name)
        if site_fails and name == "site":
            raise subprocess.CalledProcessError(1, argv)

    def prepare(root, log_path=None):  # the checkpoint: pulled, cached or trained (here: "trained" for 0.3 s)
        note("start", "draftself_train")
        time.sleep(0.3)
        note("end", "draftself_train")

    def toolchain(params, build=False, log=print):
        note("start", "toolchain")
        time.sleep(0.15)
        note("end", "toolchain")
        return SimpleNamespace(toolchain_id="t" * 16)

    monkeypatch.setattr(cli, "repo_root", lambda: tmp_path)
    monkeypatch.setattr(cli, "stage_runner", lambda root, verbose: (run, tmp_path / "run.log"))
    monkeypatch.setattr(cli, "from_data_stages", lambda root: ["site"])
    monkeypatch.setattr(cli, "prepare_draftself_checkpoint", prepare)
    monkeypatch.setattr(cli, "measured_here", lambda root, params, host, tc, **kw: dict(measured))
    monkeypatch.setattr(
        resolve, "load_params", lambda root: {"llama_bench": {"models": ["m"]}, "models": {"registry": {}}}
    )
    monkeypatch.setattr(
        cli, "upstream_stages", lambda f, stage: ["draftself_train"] if stage == "draftself" else []
    )
    monkeypatch.setattr(cli, "export_artifacts", lambda root, params: [])
    monkeypatch.setattr(artifacts, "import_models", lambda root, registry, log=print: None)
    monkeypatch.setattr(resolve, "get_toolchain", toolchain)
    monkeypatch.setattr(resolve, "get_models", lambda params, ids, tc, log=print: [])
    monkeypatch.setattr(provenance, "host_snapshot", lambda: SimpleNamespace(host_id="h" * 16))
    return events


def _at(events, event: str, name: str) -> float:
    return next(t for e, n, t in events if e == event and n == name)


def test_a_new_host_trains_beside_the_build_and_measures_after_training(monkeypatch, tmp_path, capsys):
    new = {"llama_bench": False, "speculative": False, "draftself": False}
    events = _stub(monkeypatch, tmp_path, new)
    assert cli.main(["run"]) == 0
    # the build and the training started before the first site ended (they run beside it: the site
    # is stubbed at 0.05 s, the build at 0.15 s), and ended before the first measurement started
    assert _at(events, "start", "toolchain") < _at(events, "end", "site")
    assert _at(events, "start", "draftself_train") < _at(events, "end", "site")
    assert _at(events, "start", "draftself_train") < _at(events, "end", "toolchain")
    first_measurement = min(_at(events, "start", s) for s in new)
    assert _at(events, "end", "draftself_train") <= first_measurement
    assert _at(events, "end", "toolchain") <= first_measurement
    # measurements one at a time, in order, after the build; the checkpoint made once, and DVC's
    # draftself_train (run only when changed) after it, where it finds the checkpoint in the cache
    spans = [(_at(events, "start", s), _at(events, "end", s)) for s in new]
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:], strict=False))
    assert [n for e, n, _ in events if e == "start"].count("draftself_train") == 1
    assert _at(events, "end", "draftself_train") <= _at(events, "start", "dvc draftself_train")
    out = capsys.readouterr().out
    assert "draftself_train_s=0.3" in out and "measure_draftself_s=" in out
    line = next(x for x in out.splitlines() if x.startswith("timings: "))
    timings = {k: float(v) for k, v in (kv.split("=") for kv in line[len("timings: ") :].split(", "))}
    assert {"first_site_s", "toolchain_s", "models_s", "toolchain_wait_s"} <= set(timings)
    # the training (0.3 s) outlasts the build (0.15 s): the wait is said and timed, not silent
    assert "waiting for the draft-self training to finish before measuring" in out
    assert 0.05 < timings["draftself_train_wait_s"] < timings["draftself_train_s"]


def test_a_measured_host_trains_nothing(monkeypatch, tmp_path, capsys):
    events = _stub(monkeypatch, tmp_path, {"llama_bench": True, "speculative": True, "draftself": True})
    assert cli.main(["run"]) == 0
    assert [n for e, n, _ in events if e == "start"] == ["toolchain", "site", "repro"]
    assert _at(events, "end", "toolchain") <= _at(events, "start", "repro")
    assert "draftself_train_s" not in capsys.readouterr().out


def test_a_failed_first_site_waits_for_the_build_beside_it(monkeypatch, tmp_path):
    # the build's cmake would otherwise go on after benchbook run exited
    events = _stub(monkeypatch, tmp_path, {"llama_bench": True}, site_fails=True)
    assert cli.main(["run"]) == 2  # main prints the failure as one `benchbook: error:` line
    # the build (0.15 s) had started before the site failed (0.05 s) and ended before run returned
    assert _at(events, "start", "toolchain") < _at(events, "end", "site")
    assert sorted(n for e, n, _ in events if e == "end") == ["site", "toolchain"]


def test_from_data_builds_nothing(monkeypatch, tmp_path, capsys):
    events = _stub(monkeypatch, tmp_path, {"llama_bench": False})
    assert cli.main(["run", "--from-data"]) == 0
    assert [n for e, n, _ in events if e == "start"] == ["site"]
    assert "site from the committed raw data" in capsys.readouterr().out


def test_the_checkpoints_messages_go_to_the_run_log_not_the_terminal(monkeypatch, tmp_path, capsys):
    # the training runs beside the build's progress line: its per-step losses must not interleave with it
    from benchbook.experiments.draftself import run as ds_run

    def resolve(manifest, log=print):
        log({"step": 25, "loss_next": 1.7})
        log("checkpoint k: trained")

    monkeypatch.setattr(ds_run, "resolve_checkpoint", resolve)
    log_file = tmp_path / "run.log"
    cli.prepare_draftself_checkpoint(tmp_path, log_file)
    assert capsys.readouterr().out == ""
    assert log_file.read_text().splitlines() == [
        "draftself checkpoint: {'step': 25, 'loss_next': 1.7}",
        "draftself checkpoint: checkpoint k: trained",
    ]
    cli.prepare_draftself_checkpoint(tmp_path, None)  # --verbose: the terminal
    assert capsys.readouterr().out.splitlines()[-1] == "draftself checkpoint: checkpoint k: trained"
