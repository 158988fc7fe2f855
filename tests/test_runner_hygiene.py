"""Resource hygiene of the runners and the server wrapper: a server started by a runner or by
``LlamaServer.start`` is stopped when an error that is not the server's own (a bug, a full disk, Ctrl-C)
ends the run; it must not keep loading the cores for the rest of the process."""

from __future__ import annotations

import sys

import psutil
import pytest

from benchbook.llamacpp import server as S


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
