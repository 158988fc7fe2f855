"""Resource hygiene of the runners and the server wrapper: a server started by a runner or by
``LlamaServer.start`` is stopped when an error that is not the server's own (a bug, a full disk, Ctrl-C)
ends the run; it must not keep loading the cores for the rest of the process."""

from __future__ import annotations

import sys
from pathlib import Path

import psutil
import pytest

from benchbook.experiments.speculative import run as spec_run
from benchbook.llamacpp import server as S
from conftest import ROOT, stand_in_host


class _Server:
    """A stand-in for ``LlamaServer``: starts, answers nothing, records whether it was stopped."""

    made: list[_Server] = []

    def __init__(self, argv, log_path, **_kw):
        self.argv, self.log_path, self.stopped, self.proc, self.port = list(argv), Path(log_path), 0, None, 1
        _Server.made.append(self)

    def start(self):
        return self

    def alive(self):
        return not self.stopped

    def stop(self):
        self.stopped += 1

    def kill(self):
        self.stopped += 1

    def apply_template(self, _messages):
        raise OSError(28, "No space left on device")  # not a ServerError: nothing records it


def test_a_fresh_server_is_stopped_when_a_request_fails_with_another_error(tmp_path, monkeypatch):
    # before: the finally stopped only the "same"-policy servers; the fresh server of the request that
    # raised OSError stayed up for the rest of the process (a notebook kernel, a test session)
    _Server.made = []
    monkeypatch.setattr(spec_run, "LlamaServer", _Server)
    cfg = {
        "repetitions": 1,
        "threads": 2,
        "ctx_size": 512,
        "health_timeout_s": 60,
        "request_timeout_s": 60,
        "cost_model": None,
        "configs": [{"id": "baseline", "spec_type": "none", "policy": "fresh"}],
    }
    model = {"model_id": "m", "path": "/nonexistent/m.gguf", "sha256": "0" * 64}
    with pytest.raises(OSError, match="No space left"):
        spec_run.run_session(
            cfg=cfg,
            server_bin=Path("/nonexistent/llama-server"),
            bench_bin=None,
            target=model,
            drafts={},
            prompts=[{"id": "a", "cap": 8, "messages": [{"role": "user", "content": "hi"}]}],
            toolchain={"toolchain_id": "tc", "build_number": 1, "build_commit": "c"},
            host=stand_in_host(),
            root=ROOT,
            raw_file=tmp_path / "raw" / "x.jsonl",
            log_dir=tmp_path / "logs",
            log=lambda *_: None,
        )
    assert [s.stopped for s in _Server.made] == [1]


def test_a_server_whose_start_is_interrupted_is_not_left_running(tmp_path, monkeypatch):
    # a stand-in binary that never answers /health; Ctrl-C (KeyboardInterrupt) while start() waits.
    # Before: start() raised with the process still running (its sampler thread too)
    def interrupted(*_a, **_k):
        raise KeyboardInterrupt

    monkeypatch.setattr(S.LlamaServer, "_http", interrupted)
    srv = S.LlamaServer([sys.executable, "-c", "import time; time.sleep(60)"], tmp_path / "s.log")
    with pytest.raises(KeyboardInterrupt):
        srv.start()
    assert srv.proc is not None
    assert srv.proc.poll() is not None  # reaped
    assert not psutil.pid_exists(srv.proc.pid) or psutil.Process(srv.proc.pid).status() == "zombie"
    assert srv._sampler is not None and not srv._sampler._t.is_alive()


def test_run_sampled_interrupted_does_not_leave_its_child_running(monkeypatch):
    # Ctrl-C while llama-bench runs (here a sleeping stand-in).  Before: communicate() raised and the
    # child went on running (re-parented only when the whole process exits)
    import subprocess

    from benchbook.llamacpp import procmon

    def interrupted(self, *_a, **_k):
        raise KeyboardInterrupt

    monkeypatch.setattr(subprocess.Popen, "communicate", interrupted)
    me = psutil.Process()
    before = {c.pid for c in me.children()}
    with pytest.raises(KeyboardInterrupt):
        procmon.run_sampled([sys.executable, "-c", "import time; time.sleep(60)"], timeout_s=60)
    left = [c for c in me.children() if c.pid not in before and c.status() != psutil.STATUS_ZOMBIE]
    assert left == []


def test_the_browser_of_the_site_tests_leaves_nothing_in_the_temp_directory(tmp_path):
    # chromium, terminated by Browser.close, left <tmp>/org.chromium.Chromium.<random> (its singleton
    # socket directory) behind at every browser test run (4 of them in /tmp here)
    import os
    import shutil

    from cdp import Browser

    chromium = shutil.which("chromium")
    if not chromium:
        pytest.skip("chromium not installed; fix: apt-get install -y chromium (make test does it)")
    profile = tmp_path / "profile"
    profile.mkdir()
    with Browser(chromium, profile):
        socket_dir = Path(os.readlink(profile / "SingletonSocket")).parent
        assert socket_dir.name.startswith("org.chromium.Chromium.") and socket_dir.is_dir()
    assert not socket_dir.exists()
