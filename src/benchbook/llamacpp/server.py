"""llama-server runner: start on 127.0.0.1 with an ephemeral port, wait for /health, send requests,
read /metrics, stop cleanly (kill on timeout), keep the log.

Everything is argv lists (no shell).  One slot (``-np 1``) and a batch of at least ``1 + n_max`` so a
verify pass of the whole draft fits in one ubatch.  The server's stdout+stderr go to a log file that
is kept; a server that exits before ``/health`` answers 200, or dies during a request, raises
``ServerError`` carrying the log tail, which the caller records as a failed run.

HTTP endpoints used (llama.cpp ``tools/server/README.md``, ``tools/server/server.cpp``):
``GET /health`` (200 once the model is loaded, 503 while loading), ``POST /apply-template``
(``{"messages": [...]}`` → ``{"prompt": str}``), ``POST /completion`` (``timings``, ``stop_type``,
``tokens`` with ``return_tokens``, ``generation_settings``), ``GET /metrics`` (Prometheus text; needs
``--metrics``; counters from ``server_task_result_metrics::to_metrics`` in
``tools/server/server-task.cpp``).
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

from ..records import publish_log
from .lifetime import die_with_parent
from .procmon import PeakSampler

HOST = "127.0.0.1"
#: Seconds between two ``/health`` polls while a server loads.  A start's ``load_ms`` is late by up to
#: one interval: at 0.1 s the 32 starts of the default speculative profile (0.3-0.8 s each) waited
#: 1.6 s in all for polls; a poll is one local HTTP request (about a millisecond).
HEALTH_POLL_S = 0.02
BIND_ERRORS = ("couldn't bind", "address already in use", "failed to bind")


class ServerError(RuntimeError):
    """The server failed to start, died, or a request failed.

    Attributes: ``kind`` ("start_failed" | "start_timeout" | "crashed" | "request_timeout" |
    "http_error"), ``log_tail`` (last lines of the server log), ``returncode`` (None while alive).
    """

    def __init__(self, msg: str, kind: str, log_tail: str = "", returncode: int | None = None):
        super().__init__(msg)
        self.kind, self.log_tail, self.returncode = kind, log_tail, returncode


def port_free(port: int) -> bool:
    """True when ``127.0.0.1:port`` can be bound right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind((HOST, port))
        except OSError:
            return False
    return True


def free_port() -> int:
    """An ephemeral TCP port on 127.0.0.1 that was free a moment ago (the kernel picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def build_argv(
    binary: str | Path,
    model_path: str | Path,
    *,
    threads: int,
    ctx_size: int,
    spec: dict | None = None,
    extra: list[str] | None = None,
) -> list[str]:
    """argv (without ``--host/--port``) for one server.

    ``spec``: None for the baseline, else ``{"type": "draft-simple" | "ngram-simple" | ...,
    "draft_path": path (draft types), "n_max", "n_min", "p_min"}``.  The batch (``-b``/``-ub``) is
    ``max(512, 1 + n_max)`` tokens so a verify pass of ``1 + n_max`` tokens fits one ubatch.
    ``--no-webui``, ``--metrics`` and ``-np 1`` always; ``--cache-ram 0`` turns off the server's RAM
    prompt cache so no prompt state survives between requests (llama.cpp ``tools/server/README.md``).
    Flag names as printed by ``llama-server --help`` of build b11434.
    """
    n_max = int((spec or {}).get("n_max") or 0)
    batch = max(512, 1 + n_max)
    argv = [
        str(binary),
        "-m",
        str(model_path),
        "-t",
        str(threads),
        "-c",
        str(ctx_size),
        "-np",
        "1",
        "-b",
        str(batch),
        "-ub",
        str(batch),
        "--metrics",
        "--no-webui",
        "--cache-ram",
        "0",
    ]
    if spec:
        argv += ["--spec-type", spec["type"]]
        if spec.get("draft_path"):
            argv += ["-md", str(spec["draft_path"]), "-td", str(threads)]
        if spec["type"].startswith("draft"):
            argv += [
                "--spec-draft-n-max",
                str(n_max),
                "--spec-draft-n-min",
                str(spec.get("n_min", 0)),
                "--spec-draft-p-min",
                str(spec.get("p_min", 0.0)),
            ]
        elif spec["type"] == "ngram-mod":
            argv += [
                "--spec-ngram-mod-n-max",
                str(n_max),
                "--spec-ngram-mod-n-min",
                str(spec.get("n_min", 0)),
            ]
        elif spec["type"] in ("ngram-simple", "ngram-map-k", "ngram-map-k4v"):
            argv += [f"--spec-{spec['type']}-size-m", str(n_max)]
        # ngram-cache: draft length fixed at 8 in this build (common/speculative.cpp,
        # common_speculative_n_max); no flag sets it
    return argv + list(extra or [])


def parse_metrics(text: str) -> dict[str, float]:
    """Prometheus text from ``/metrics`` → ``{name_without_llamacpp_prefix: value}``.

    Labelled series keep their labels in the key, e.g.
    ``spec_decode_num_accepted_tokens_per_pos_total{position="0"}``.  Comment lines are skipped.

    Raises:
        ValueError: a sample line is not ``name value``.
    """
    out: dict[str, float] = {}
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        m = re.fullmatch(r"(?:llamacpp:)?(\S+?)\s+(\S+)", line.strip())
        if not m:
            raise ValueError(f"/metrics line is not 'name value': {line!r}")
        out[m.group(1)] = float(m.group(2))
    return out


def metrics_delta(before: dict, after: dict) -> dict[str, float]:
    """``after - before`` for every counter (``*_total``) present in ``after`` (missing before = 0)."""
    return {k: v - before.get(k, 0.0) for k, v in after.items() if "_total" in k}


class LlamaServer:
    """One llama-server process.  Use as a context manager::

        with LlamaServer(argv, log_path) as srv:
            srv.completion({...})

    ``argv`` excludes ``--host/--port`` (added here).  ``port``: a preferred port; when it is taken
    (or the server reports a bind error) another ephemeral one is used, up to ``bind_retries``
    times.  ``health_timeout_s``: seconds to wait for ``/health`` → 200 before the process is killed
    and ``ServerError(kind="start_timeout")`` raised.  The process's RSS (bytes, whole tree) is
    sampled from start to stop by ``procmon.PeakSampler``; ``request_peak_rss`` samples per request.
    """

    def __init__(
        self,
        argv: list[str],
        log_path: str | Path,
        *,
        port: int | None = None,
        health_timeout_s: float = 60.0,
        stop_timeout_s: float = 10.0,
        bind_retries: int = 3,
    ):
        self.base_argv, self.log_path = list(argv), Path(log_path)
        self.preferred_port, self.health_timeout_s = port, health_timeout_s
        self.stop_timeout_s, self.bind_retries = stop_timeout_s, bind_retries
        self.proc: subprocess.Popen | None = None
        self.port: int | None = None
        self.argv: list[str] = []
        self.ports_tried: list[int] = []
        self.load_ms: float | None = None
        self.log_start: int = 0
        self._sampler: PeakSampler | None = None

    # --- lifecycle -------------------------------------------------------------------------
    def start(self) -> LlamaServer:
        """Start and wait for health.  Raises ServerError (start_failed / start_timeout)."""
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        port = self.preferred_port
        for attempt in range(self.bind_retries + 1):
            if port is None or not port_free(port):
                port = free_port()
            self.ports_tried.append(port)
            try:
                self._launch(port)
                return self
            except ServerError as e:
                if (
                    e.kind == "start_failed"
                    and any(b in e.log_tail.lower() for b in BIND_ERRORS)
                    and attempt < self.bind_retries
                ):
                    port = None
                    continue
                raise
        raise AssertionError("unreachable")

    def _launch(self, port: int) -> None:
        self.port = port
        self.argv = self.base_argv + ["--host", HOST, "--port", str(port)]
        with open(self.log_path, "ab") as log:
            log.write(f"\n=== benchbook: start {json.dumps(self.argv)}\n".encode())
            log.flush()
            self.log_start = log.tell()
            self.proc = subprocess.Popen(
                self.argv,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
                preexec_fn=die_with_parent,
            )
        self._sampler = PeakSampler(self.proc.pid, interval_s=0.05, gpu_interval_s=0.5).__enter__()
        try:
            self._await_health()
        except BaseException:
            self.kill()  # no server left behind a failed start (an unexpected error, Ctrl-C)
            raise

    def _await_health(self) -> None:
        """Wait for ``/health``: sets ``load_ms``; raises ServerError (start_failed / start_timeout)."""
        assert self.proc is not None
        t0 = time.monotonic()
        while True:
            rc = self.proc.poll()
            if rc is not None:
                self._stop_sampler()
                raise ServerError(
                    f"llama-server exited with code {rc} before /health answered",
                    "start_failed",
                    self.log_tail(),
                    rc,
                )
            try:
                status, _ = self._http("GET", "/health", None, timeout=2)
                if status == 200:
                    self.load_ms = (time.monotonic() - t0) * 1e3
                    return
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
                pass
            if time.monotonic() - t0 > self.health_timeout_s:
                self.kill()
                raise ServerError(
                    f"llama-server /health not ready after {self.health_timeout_s:.0f} s",
                    "start_timeout",
                    self.log_tail(),
                    self.proc.returncode,
                )
            time.sleep(HEALTH_POLL_S)

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    @property
    def pid(self) -> int:
        """The server's process id.  Raises ServerError (start_failed) before ``start()``."""
        if self.proc is None:
            raise ServerError("llama-server was never started; fix: call start() first", "start_failed")
        return self.proc.pid

    def stop(self) -> int | None:
        """SIGTERM, wait ``stop_timeout_s``, then SIGKILL.  Returns the exit code (None if never started)."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(self.stop_timeout_s)
            except subprocess.TimeoutExpired:
                self.kill()
        self._stop_sampler()
        self.publish_log()
        return self.proc.returncode

    def kill(self) -> None:
        """SIGKILL the server (its own process group) and reap it."""
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait()
        self._stop_sampler()
        self.publish_log()

    def publish_log(self) -> None:
        """``records.publish_log`` of the log once the server has exited (the running server wrote the
        real paths; offsets into the log are taken and read only while it runs).  No-op while it runs
        or when the log is absent."""
        if self.proc is None or self.proc.poll() is None:
            return
        publish_log(self.log_path)

    def _stop_sampler(self) -> None:
        if self._sampler is not None:
            self._sampler.__exit__(None, None, None)

    @property
    def peak_rss_bytes(self) -> int:
        """Peak RSS (bytes) of the server since start."""
        return self._sampler.peak_rss_bytes if self._sampler else 0

    def __enter__(self) -> LlamaServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    # --- HTTP ------------------------------------------------------------------------------
    def log_tail(self, n_chars: int = 4000) -> str:
        """Last ``n_chars`` characters of the server log ('' when absent)."""
        try:
            data = self.log_path.read_bytes()
        except OSError:
            return ""
        return data[-n_chars:].decode("utf-8", errors="replace")

    def log_size(self) -> int:
        """Bytes in the server log now (0 when absent): an offset for ``log_text``."""
        try:
            return self.log_path.stat().st_size
        except OSError:
            return 0

    def log_text(self, start: int | None = None) -> str:
        """The server log from byte ``start`` (default: where this process's output begins, after the
        ``=== benchbook: start`` line; the file is appended to by every start) to its end ('' when
        absent)."""
        try:
            with open(self.log_path, "rb") as f:
                f.seek(self.log_start if start is None else start)
                data = f.read()
        except OSError:
            return ""
        return data.decode("utf-8", errors="replace")

    def _http(self, method: str, path: str, body: dict | None, timeout: float) -> tuple[int, bytes]:
        req = urllib.request.Request(
            f"http://{HOST}:{self.port}{path}",
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    def request(self, method: str, path: str, body: dict | None = None, timeout: float = 120.0) -> dict | str:
        """One HTTP request; JSON answers are parsed, others returned as text (``request_text``'s errors)."""
        text = self.request_text(method, path, body, timeout)
        try:
            return json.loads(text)
        except ValueError:
            return text

    def request_json(self, method: str, path: str, body: dict | None = None, timeout: float = 120.0) -> dict:
        """One HTTP request whose answer must be a JSON object.

        Raises:
            ServerError: as ``request_text``; ``http_error`` when the answer is not a JSON object.
        """
        answer = self.request(method, path, body, timeout)
        if not isinstance(answer, dict):
            raise ServerError(
                f"{method} {path}: the answer is not a JSON object: {str(answer)[:500]}",
                "http_error",
                self.log_tail(),
            )
        return answer

    def request_text(self, method: str, path: str, body: dict | None = None, timeout: float = 120.0) -> str:
        """One HTTP request; the answer's body as text.

        Raises:
            ServerError: ``request_timeout`` (no answer within ``timeout`` s), ``crashed`` (the
                process died, returncode set), ``http_error`` (status ≠ 200; the body is in the message).
        """
        try:
            status, data = self._http(method, path, body, timeout)
        except TimeoutError as e:
            raise ServerError(
                f"{method} {path}: no answer within {timeout} s ({e})", "request_timeout", self.log_tail()
            ) from None
        except (urllib.error.URLError, ConnectionError, OSError) as e:
            time.sleep(0.2)
            rc = self.proc.poll() if self.proc else None
            if isinstance(getattr(e, "reason", None), (TimeoutError, socket.timeout)):
                raise ServerError(
                    f"{method} {path}: no answer within {timeout} s", "request_timeout", self.log_tail()
                ) from None
            kind = "crashed" if rc is not None else "http_error"
            raise ServerError(
                f"{method} {path}: {e} (server {'exited ' + str(rc) if rc is not None else 'alive'})",
                kind,
                self.log_tail(),
                rc,
            ) from None
        text = data.decode("utf-8", errors="replace")
        if status != 200:
            raise ServerError(f"{method} {path}: HTTP {status}: {text[:500]}", "http_error", self.log_tail())
        return text

    def metrics(self) -> dict[str, float]:
        """Parsed ``/metrics`` (see ``parse_metrics``)."""
        return parse_metrics(self.request_text("GET", "/metrics", timeout=10))

    def apply_template(self, messages: list[dict]) -> str:
        """The model's chat template applied by the server (``POST /apply-template``) → prompt text."""
        return self.request_json("POST", "/apply-template", {"messages": messages}, timeout=30)["prompt"]

    def completion(self, body: dict, timeout: float = 300.0) -> tuple[dict, int]:
        """``POST /completion`` with ``body``; returns ``(response, peak_rss_bytes during the request)``."""
        with PeakSampler(self.pid, interval_s=0.02, gpu_interval_s=0.5) as ps:
            res = self.request_json("POST", "/completion", body, timeout=timeout)
        return res, ps.peak_rss_bytes
