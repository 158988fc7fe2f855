"""llama-server start-up against a stand-in server (a Python HTTP server that answers ``/health`` 503
until it is "loaded"): the health poll interval and the measured ``load_ms``.  No llama.cpp needed."""

from __future__ import annotations

import sys
import time

from benchbook.llamacpp import server as S

FAKE = """
import http.server, sys, time
t0 = time.monotonic()
port = int(sys.argv[sys.argv.index("--port") + 1])
ready_after = float(sys.argv[sys.argv.index("--ready-after") + 1])

class Health(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        loaded = time.monotonic() - t0 >= ready_after
        self.send_response(200 if loaded else 503)
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args):
        pass

http.server.HTTPServer(("127.0.0.1", port), Health).serve_forever()
"""


def test_health_is_polled_every_20_ms_until_loaded(tmp_path, monkeypatch):
    script = tmp_path / "fake_server.py"
    script.write_text(FAKE)
    real_sleep, slept = time.sleep, []

    def sleep(seconds):
        slept.append(seconds)
        real_sleep(seconds)

    monkeypatch.setattr(S.time, "sleep", sleep)
    srv = S.LlamaServer([sys.executable, str(script), "--ready-after", "0.3"], tmp_path / "s.log")
    with srv:
        assert srv.alive()
        load_ms, polls = srv.load_ms, list(slept)  # the sleeps of start() (stop() waits with its own)
    # 0.02 s between polls (was 0.1 s: a start's load_ms was late by up to 100 ms, 50 ms on average)
    assert S.HEALTH_POLL_S == 0.02 and polls and set(polls) == {0.02}
    assert load_ms is not None and load_ms >= 300  # not healthy before the stand-in says it is loaded
    assert not srv.alive()
