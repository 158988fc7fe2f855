"""Progress and quiet: build percentage, session i of n (directly or through the progress file that
`benchbook run` draws), stage output to a log file unless --verbose."""

import json
import subprocess
import sys
import threading

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
    assert err.rstrip().split("\r")[-1].startswith("llama.cpp b11434 build: 100% [")


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
