"""Progress and quiet: build percentage, session i of n (directly or through the progress file that
`benchbook run` draws), stage output to a log file unless --verbose."""

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from benchbook import cli
from benchbook.llamacpp import progress
from benchbook.llamacpp import toolchain as tc


def test_cmake_percent():
    assert progress.cmake_percent("[ 45%] Building CXX object ggml/src/x.cpp.o") == 45
    assert progress.cmake_percent("[100%] Built target llama-bench") == 100
    assert progress.cmake_percent("-- Configuring done") is None
    assert progress.cmake_percent("  [ 45%] indented") is None


def test_build_output_goes_to_the_log_and_one_progress_line(tmp_path, capsys):
    script = (
        "echo '[  5%] Building a'; echo 'warning: noise'; echo '[ 60%] Building b'; "
        "echo '[100%] Built'; exit 3"
    )
    log = tmp_path / "build.log"
    with open(log, "a") as lf:
        rc = tc.run_logged(["sh", "-c", script], lf, "llama.cpp b11434 build")
    assert rc == 3
    assert log.read_text() == "[  5%] Building a\nwarning: noise\n[ 60%] Building b\n[100%] Built\n"
    err = capsys.readouterr().err
    assert "warning: noise" not in err
    # the build failed: its own [100%] line is never shown as 100% (99 at most until a successful exit)
    assert err.rstrip().split("\r")[-1].startswith("llama.cpp b11434 build:  99% [")


#: Lines in order from a real `cmake --build ... -j 2 --target llama-bench llama-server llama-quantize
#: llama-gguf-split llama-speculative-simple` (b11434, Makefile generator): cmake's percentage starts
#: again for each requested target.
BUILD_LINES = [
    "[ 95%] Built target llama-common",
    "[100%] Linking CXX executable ../../bin/llama-bench",
    "[100%] Built target llama-bench",
    "[  4%] Built target ggml-base",
    "[ 41%] Built target llama",
    "[ 67%] Built target llama-common",
    "[ 92%] Built target mtmd",
    "[100%] Built target llama-server",
    "[ 97%] Built target llama-common",
    "[100%] Built target llama-quantize",
    "[100%] Built target llama-gguf-split",
    "[100%] Built target llama-speculative-simple",
]


def test_build_percent_is_over_the_whole_build_and_monotone():
    # before: the bar took cmake's own number (max so far): 100% after llama-bench, while llama-server
    # (build.log: "[ 67%] Built target llama-common") compiled for 24 more minutes
    p = progress.BuildPercent(tc.TARGETS)
    seen = [p.feed(line) for line in BUILD_LINES]
    # 5 requested targets, each a 20% share: 95% of the first = 19; 100% of it (linking) = 20;
    # then 20 + 4/5 = 20.8, 20 + 41/5 = 28.2, 20 + 67/5 = 33.4, 20 + 92/5 = 38.4, server built = 40;
    # 40 + 97/5 = 59.4, quantize 60, gguf-split 80, all five built = 100, shown as 99 before the exit
    assert seen == pytest.approx([19, 20, 20, 20.8, 28.2, 33.4, 38.4, 40, 59.4, 60, 80, 99])
    assert p.finish(2) == 99  # a failed build never reaches 100
    assert p.finish(0) == 100
    # Ninja counts steps over the whole build: [30/120] = 25%, never beyond 99 before the exit
    n = progress.BuildPercent(tc.TARGETS)
    assert [n.feed("[30/120] Building CXX object a.o"), n.feed("[120/120] Linking x")] == [25, 99]
    # a configure step (no targets, no percentages) stays at 0 until it exits with 0
    c = progress.BuildPercent()
    assert (c.feed("-- Configuring done"), c.finish(0)) == (0, 100)


def test_session_progress_writes_the_progress_file(tmp_path, monkeypatch):
    f = tmp_path / "p.jsonl"
    monkeypatch.setenv(progress.PROGRESS_ENV, str(f))
    with progress.SessionProgress("llama_bench", 6) as bar:
        bar.step("q4_1 cold")
        bar.step("q4_1 warm (done before)")
    events = [json.loads(line) for line in f.read_text().splitlines()]
    assert events == [
        {"task": "llama_bench", "i": 0, "n": 6, "label": "start"},
        {"task": "llama_bench", "i": 1, "n": 6, "label": "q4_1 cold"},
        {"task": "llama_bench", "i": 2, "n": 6, "label": "q4_1 warm (done before)"},
        {"task": "llama_bench", "i": 2, "n": 6, "label": "end"},
    ]


def test_follow_draws_the_steps(tmp_path, capsys):
    f = tmp_path / "p.jsonl"
    f.write_text(
        "".join(
            json.dumps({"task": "speculative", "i": i, "n": 4, "label": lab}) + "\n"
            for i, lab in ((0, "start"), (1, "baseline r0"), (3, "self-n4 r0"))
        )
        + '{"task": "spec'
    )
    stop = threading.Event()
    stop.set()  # read what is there once, then finish
    progress.follow(f, stop, poll_s=0.01)
    err = capsys.readouterr().err
    last = err.rstrip().split("\r")[-1]
    assert last.startswith("speculative:  75%|") and " 3/4 [" in last and "self-n4 r0" in last


def test_a_finished_step_without_percentages_shows_100(tmp_path, capsys):
    # cmake's configure step prints no [ NN%]: a successful one ends at 100%, a failed one where it was
    log = tmp_path / "build.log"
    with open(log, "a") as lf:
        assert tc.run_logged(["sh", "-c", "echo '-- Configuring done'"], lf, "configure") == 0
        assert tc.run_logged(["sh", "-c", "echo '[ 40%] Building a'; exit 1"], lf, "build") == 1
    lines = capsys.readouterr().err.split("\n")
    assert lines[0].split("\r")[-1].startswith("configure: 100% [")
    assert lines[1].split("\r")[-1].startswith("build:  40% [")


def test_follow_closes_a_bar_at_its_end_event(tmp_path, capsys):
    f = tmp_path / "p.jsonl"
    events = [
        ("llama_bench", 0, 2, "start"),
        ("llama_bench", 2, 2, "q8_0 warm"),
        ("llama_bench", 2, 2, "end"),
    ]
    f.write_text(
        "".join(json.dumps(dict(zip(("task", "i", "n", "label"), e, strict=True))) + "\n" for e in events)
    )
    stop = threading.Event()
    thread = threading.Thread(target=progress.follow, args=(f, stop, 0.01))
    thread.start()
    # the bar is finished (its line ends) while follow still runs, before stop
    for _ in range(500):
        err = capsys.readouterr().err
        if err.endswith("\n"):
            break
        threading.Event().wait(0.01)
    stop.set()
    thread.join()
    assert err.endswith("\n") and err.rstrip("\n").split("\r")[-1].startswith("llama_bench: 100%|")
    assert " 2/2 [" in err.rstrip("\n").split("\r")[-1]


def test_quiet_turns_bars_off(monkeypatch, capsys):
    monkeypatch.setenv(progress.QUIET_ENV, "1")
    with progress.bar(10, "x") as b:
        b.update(10)
    assert capsys.readouterr().err == ""


def _fake_dvc(tmp_path, rc: int):
    script = tmp_path / "fake_dvc.py"
    script.write_text(
        "import sys\nprint(\"Running stage 'llama_bench':\")\nprint('[NbConvertApp] Executing cell 3')\n"
        "print('RuntimeWarning: Kernel listening on TCP', file=sys.stderr)\n"
        f"sys.exit({rc})\n"
    )
    return [sys.executable, str(script)]


def test_stage_output_goes_to_a_log_file(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("BENCHBOOK_CACHE", str(tmp_path / "cache"))
    run, log_path = cli.stage_runner(tmp_path, verbose=False)
    run(_fake_dvc(tmp_path, 0))
    err = capsys.readouterr().err
    assert err == "stage llama_bench ...\n"
    text = log_path.read_text()
    assert "[NbConvertApp] Executing cell 3\n" in text and "Kernel listening on TCP" in text
    assert log_path.parent == tmp_path / "cache" / "logs" and log_path.name.startswith("run-")


def _fake_stage(tmp_path, name: str, stages: list[str]) -> list[str]:
    """A stand-in for `dvc repro`: for each stage, its DVC line and a 2-step session through the
    progress file (like a measurement notebook), then a pause long enough for the follower to draw."""
    script = tmp_path / f"{name}.py"
    script.write_text(
        "import time\nfrom benchbook.llamacpp.progress import SessionProgress\n"
        f"for stage in {stages!r}:\n"
        "    print(f\"Running stage '{stage}':\", flush=True)\n"
        "    with SessionProgress(stage, 2) as bar:\n"
        "        bar.step('a')\n        bar.step('b')\n"
        "    time.sleep(0.8)\n"
    )
    return [sys.executable, str(script)]


def test_each_stage_line_starts_after_the_previous_bar_is_closed(tmp_path, monkeypatch, capsys):
    # before: one progress file for all commands, re-read from its start by each command (the
    # llama_bench bar was drawn again during speculative), and a bar was closed only when its command
    # ended, so the next stage's line was printed over the open bar
    monkeypatch.setenv("BENCHBOOK_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("PYTHONPATH", str(Path(progress.__file__).parents[2]))
    run, log_path = cli.stage_runner(tmp_path, verbose=False)
    run(_fake_stage(tmp_path, "one", ["llama_bench", "llama_bench_report"]))
    run(_fake_stage(tmp_path, "two", ["speculative"]))
    err = capsys.readouterr().err
    chunks = err.split("\n")
    stage_lines = [c for c in chunks if c.startswith("stage ")]
    assert stage_lines == ["stage llama_bench ...", "stage llama_bench_report ...", "stage speculative ..."]
    # every bar line ends finished (2/2) on a line of its own; each task's bar is drawn in one line only
    bars = [c.split("\r")[-1] for c in chunks if "config" in c]
    assert [b.split(":")[0] for b in bars] == ["llama_bench", "llama_bench_report", "speculative"]
    assert all(" 2/2 [" in b for b in bars)
    assert err.index("stage speculative") > err.rindex("llama_bench_report:")
    # each command's progress file is removed once its bars are drawn (they were kept, one per command
    # of every run, in the cache for good)
    assert list(log_path.parent.glob("*.progress.jsonl")) == []


def test_only_the_newest_run_logs_are_kept(tmp_path, monkeypatch):
    # 25 earlier runs' logs (one with a progress file left by a killed run): before, every run's log
    # stayed in <cache>/logs for good; now the 19 newest earlier runs and this run's are kept
    monkeypatch.setenv("BENCHBOOK_CACHE", str(tmp_path / "cache"))
    logs = tmp_path / "cache" / "logs"
    logs.mkdir(parents=True)
    stamps = [f"run-20260101T0000{i:02d}Z" for i in range(25)]
    for st in stamps:
        (logs / f"{st}.log").write_text("x\n")
    (logs / f"{stamps[0]}.1.progress.jsonl").write_text("")
    run, log_path = cli.stage_runner(tmp_path, verbose=False)
    run(_fake_dvc(tmp_path, 0))
    assert cli.RUN_LOGS_KEPT == 20
    assert sorted(p.name for p in logs.iterdir()) == [f"{st}.log" for st in stamps[6:]] + [log_path.name]


def test_failed_stage_prints_the_log_tail(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("BENCHBOOK_CACHE", str(tmp_path / "cache"))
    run, log_path = cli.stage_runner(tmp_path, verbose=False)
    with pytest.raises(subprocess.CalledProcessError):
        run(_fake_dvc(tmp_path, 4))
    err = capsys.readouterr().err
    assert "[NbConvertApp] Executing cell 3" in err
    assert err.endswith(f"(full log: {log_path}; `benchbook run --verbose` shows it as it runs)\n")


def test_verbose_passes_output_through(tmp_path, monkeypatch, capfd):
    monkeypatch.setenv("BENCHBOOK_CACHE", str(tmp_path / "cache"))
    run, log_path = cli.stage_runner(tmp_path, verbose=True)
    run(_fake_dvc(tmp_path, 0))
    out = capfd.readouterr()
    assert "[NbConvertApp] Executing cell 3" in out.out and "Kernel listening on TCP" in out.err
    assert not log_path.exists()


def test_warnings_reach_the_terminal_not_only_the_log(tmp_path, monkeypatch, capsys):
    # new user: "retrained checkpoint ... differs from the manifest's" was only in the run's log file
    monkeypatch.setenv("BENCHBOOK_CACHE", str(tmp_path / "cache"))
    lines = [
        "Running stage 'measure/dvc.yaml:draftself':",
        "warning: retrained checkpoint sha256 82d01b3369578856 differs from the manifest's c39a7197665fa554",
        "benchbook: speculative: this host is busy (1-min load 7.02 on 2 cores): runs will be slow",
        "RuntimeWarning: Kernel listening on TCP",
        "WARNING: dvc's own warning",
        "draftself checkpoint: {'step': 575, 'loss_next': 0.7841}",
    ]
    script = tmp_path / "dvc.py"
    script.write_text(f"for line in {lines!r}:\n    print(line)\n")
    run, log_path = cli.stage_runner(tmp_path, verbose=False)
    run([sys.executable, str(script)])
    assert capsys.readouterr().err.splitlines() == [
        "stage measure/dvc.yaml:draftself ...",
        lines[1],
        lines[2],
    ]
    assert log_path.read_text().splitlines()[1:] == lines  # the log keeps every line

    def resolve(manifest, log):
        log("checkpoint x.pt missing or changed; from the cache or trained")
        log({"step": 600})
        log("warning: retrained checkpoint sha256 82d01b3369578856 differs from the manifest's c39a719766")

    monkeypatch.setattr("benchbook.experiments.draftself.run.resolve_checkpoint", resolve)
    cli.prepare_draftself_checkpoint(tmp_path, log_path)
    assert capsys.readouterr().err.splitlines() == [
        "draftself checkpoint: warning: retrained checkpoint sha256 82d01b3369578856 differs from the "
        "manifest's c39a719766"
    ]
    assert log_path.read_text().splitlines()[-2] == "draftself checkpoint: {'step': 600}"


def test_the_training_wait_shows_the_step(monkeypatch, capsys):
    """A new user saw "waiting for the draft-self training" and nothing else for 17 minutes: the wait
    shows the training's logged step of the manifest's steps as a bar, and returns the thread's time."""
    monkeypatch.delenv("BENCHBOOK_QUIET", raising=False)
    cli.TRAINING_STEP[0] = 0
    go = threading.Event()

    def train() -> str:
        go.wait(5)
        for step in (25, 50, 75):
            cli.TRAINING_STEP[0] = step
            time.sleep(0.05)
        return "trained"

    pretrain = cli.Background(train)
    go.set()
    seconds = cli.wait_for_training(pretrain, 75, poll_s=0.01)
    assert pretrain.result == "trained" and seconds > 0
    err = capsys.readouterr().err
    assert "draft-self training: 100%" in err and "75/75" in err
