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

import hashlib
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

from .procmon import PeakSampler

HOST = "127.0.0.1"
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


def build_argv(binary: str | Path, model_path: str | Path, *, threads: int, ctx_size: int,
               spec: dict | None = None, extra: list[str] | None = None) -> list[str]:
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
    argv = [str(binary), "-m", str(model_path), "-t", str(threads), "-c", str(ctx_size), "-np", "1",
            "-b", str(batch), "-ub", str(batch), "--metrics", "--no-webui", "--cache-ram", "0"]
    if spec:
        argv += ["--spec-type", spec["type"]]
        if spec.get("draft_path"):
            argv += ["-md", str(spec["draft_path"]), "-td", str(threads)]
        if spec["type"].startswith("draft"):
            argv += ["--spec-draft-n-max", str(n_max), "--spec-draft-n-min", str(spec.get("n_min", 0)),
                     "--spec-draft-p-min", str(spec.get("p_min", 0.0))]
        elif spec["type"] == "ngram-mod":
            argv += ["--spec-ngram-mod-n-max", str(n_max), "--spec-ngram-mod-n-min", str(spec.get("n_min", 0))]
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

    def __init__(self, argv: list[str], log_path: str | Path, *, port: int | None = None,
                 health_timeout_s: float = 60.0, stop_timeout_s: float = 10.0, bind_retries: int = 3):
        self.base_argv, self.log_path = list(argv), Path(log_path)
        self.preferred_port, self.health_timeout_s = port, health_timeout_s
        self.stop_timeout_s, self.bind_retries = stop_timeout_s, bind_retries
        self.proc: subprocess.Popen | None = None
        self.port: int | None = None
        self.argv: list[str] = []
        self.ports_tried: list[int] = []
        self.load_ms: float | None = None
        self._sampler: PeakSampler | None = None

    # --- lifecycle -------------------------------------------------------------------------
    def start(self) -> "LlamaServer":
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
                if e.kind == "start_failed" and any(b in e.log_tail.lower() for b in BIND_ERRORS) \
                        and attempt < self.bind_retries:
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
            self.proc = subprocess.Popen(self.argv, stdout=log, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, start_new_session=True)
        self._sampler = PeakSampler(self.proc.pid, interval_s=0.05, gpu_interval_s=0.5).__enter__()
        t0 = time.monotonic()
        while True:
            rc = self.proc.poll()
            if rc is not None:
                self._stop_sampler()
                raise ServerError(f"llama-server exited with code {rc} before /health answered",
                                  "start_failed", self.log_tail(), rc)
            try:
                status, _ = self._http("GET", "/health", None, timeout=2)
                if status == 200:
                    self.load_ms = (time.monotonic() - t0) * 1e3
                    return
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
                pass
            if time.monotonic() - t0 > self.health_timeout_s:
                self.kill()
                raise ServerError(f"llama-server /health not ready after {self.health_timeout_s:.0f} s",
                                  "start_timeout", self.log_tail(), self.proc.returncode)
            time.sleep(0.1)

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

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

    def _stop_sampler(self) -> None:
        if self._sampler is not None:
            self._sampler.__exit__(None, None, None)

    @property
    def peak_rss_bytes(self) -> int:
        """Peak RSS (bytes) of the server since start."""
        return self._sampler.peak_rss_bytes if self._sampler else 0

    def __enter__(self) -> "LlamaServer":
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

    def _http(self, method: str, path: str, body: dict | None, timeout: float) -> tuple[int, bytes]:
        req = urllib.request.Request(f"http://{HOST}:{self.port}{path}", method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    def request(self, method: str, path: str, body: dict | None = None, timeout: float = 120.0) -> dict | str:
        """One HTTP request; JSON answers are parsed, others returned as text.

        Raises:
            ServerError: ``request_timeout`` (no answer within ``timeout`` s), ``crashed`` (the
                process died, returncode set), ``http_error`` (status ≠ 200; the body is in the message).
        """
        try:
            status, data = self._http(method, path, body, timeout)
        except (TimeoutError, socket.timeout) as e:
            raise ServerError(f"{method} {path}: no answer within {timeout} s ({e})", "request_timeout",
                              self.log_tail()) from None
        except (urllib.error.URLError, ConnectionError, OSError) as e:
            time.sleep(0.2)
            rc = self.proc.poll() if self.proc else None
            if isinstance(getattr(e, "reason", None), (TimeoutError, socket.timeout)):
                raise ServerError(f"{method} {path}: no answer within {timeout} s", "request_timeout",
                                  self.log_tail()) from None
            kind = "crashed" if rc is not None else "http_error"
            raise ServerError(f"{method} {path}: {e} (server {'exited ' + str(rc) if rc is not None else 'alive'})",
                              kind, self.log_tail(), rc) from None
        text = data.decode("utf-8", errors="replace")
        if status != 200:
            raise ServerError(f"{method} {path}: HTTP {status}: {text[:500]}", "http_error", self.log_tail())
        try:
            return json.loads(text)
        except ValueError:
            return text

    def metrics(self) -> dict[str, float]:
        """Parsed ``/metrics`` (see ``parse_metrics``)."""
        return parse_metrics(self.request("GET", "/metrics", timeout=10))

    def apply_template(self, messages: list[dict]) -> str:
        """The model's chat template applied by the server (``POST /apply-template``) → prompt text."""
        return self.request("POST", "/apply-template", {"messages": messages}, timeout=30)["prompt"]

    def completion(self, body: dict, timeout: float = 300.0) -> tuple[dict, int]:
        """``POST /completion`` with ``body``; returns ``(response, peak_rss_bytes during the request)``."""
        with PeakSampler(self.proc.pid, interval_s=0.02, gpu_interval_s=0.5) as ps:
            res = self.request("POST", "/completion", body, timeout=timeout)
        return res, ps.peak_rss_bytes


# =========================================================================================
# The speculative-decoding session (DESIGN.md "Experiments"; issue 3)
# =========================================================================================

SCHEMA = "benchbook.speculative_request"
COST_SCHEMA = "benchbook.speculative_cost"
SCHEMA_VERSION = 1

#: Greedy and every penalty off, explicitly (GGUF files can carry sampler defaults,
#: ``general.sampling.*`` in llama.cpp ``common/arg.cpp``); the server echoes what it used in
#: ``generation_settings``, which is recorded too.
GREEDY = {"temperature": 0.0, "top_k": 1, "top_p": 1.0, "min_p": 0.0, "typical_p": 1.0,
          "top_n_sigma": -1.0, "xtc_probability": 0.0, "repeat_penalty": 1.0, "repeat_last_n": 0,
          "presence_penalty": 0.0, "frequency_penalty": 0.0, "dry_multiplier": 0.0, "mirostat": 0,
          "dynatemp_range": 0.0, "seed": 42, "ignore_eos": False}


def sha256_text(text: str) -> str:
    """sha256 hex of ``text`` encoded as UTF-8."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def completion_body(prompt_text: str, cap: int) -> dict:
    """The ``/completion`` request: templated prompt, cap, greedy sampler, no prompt cache, token ids."""
    return {"prompt": prompt_text, "n_predict": int(cap), "cache_prompt": False, "return_tokens": True,
            "stream": False, **GREEDY}


def answer_found(text: str, pattern: str | None) -> bool | None:
    """Whether ``pattern`` (a regex) occurs in ``text``; None when the prompt has no recorded answer."""
    return None if not pattern else re.search(pattern, text) is not None


def load_prompts(path: str | Path, ids: list[str] | None = None, caps: dict | None = None) -> list[dict]:
    """Prompts of ``data/prompts/speculative.yaml`` (``ids`` selects and orders; ``caps`` overrides caps).

    Raises:
        KeyError: an id in ``ids`` is not in the file (the message lists the known ids).
    """
    import yaml
    doc = yaml.safe_load(Path(path).read_text())
    by_id = {p["id"]: p for p in doc["prompts"]}
    sel = []
    for pid in ids or list(by_id):
        if pid not in by_id:
            raise KeyError(f"prompt {pid!r} not in {path}; known: {sorted(by_id)}")
        p = dict(by_id[pid])
        if caps and pid in caps:
            p["cap"] = int(caps[pid])
        sel.append(p)
    return sel


def plan_order(config_ids: list[str], rep: int) -> list[str]:
    """Interleaving: every repetition runs every configuration; the order is rotated by ``rep`` so no
    configuration always runs first (or right after the same neighbour)."""
    k = rep % len(config_ids)
    return config_ids[k:] + config_ids[:k]


def run_cost_model(*, bench_bin: Path, target: dict, drafts: list[dict], cfg: dict, base: dict,
                   sess, log=print) -> int:
    """llama-bench runs for the cost model (same build, same session): the target with
    ``-p 1,<k+1 for each n_max> -n <n_gen>`` and each draft model with ``-p 0 -n <n_gen>``.

    One ``benchbook.speculative_cost`` record per llama-bench row (row verbatim, ``role`` target |
    draft).  Returns the number of failed invocations (recorded as ``benchbook.run_failed``).
    """
    from ..records import new_id, utc_now
    from ..session import run_key
    from .llama_bench import append_result
    from .procmon import run_sampled
    cm = cfg["cost_model"]
    failed = 0
    jobs = [("target", target, ["-p", ",".join(str(x) for x in cm["p_sizes"]), "-n", str(cm["n_gen"])])]
    jobs += [("draft", d, ["-p", "0", "-n", str(cm["n_gen"])]) for d in drafts]
    for role, m, sizes in jobs:
        argv = [str(bench_bin), "-m", m["path"], *sizes, "-t", str(cfg["threads"]), "-r", str(cm["repetitions"]),
                "-o", "jsonl"]
        conf = {"role": role, "model_id": m["model_id"], "argv_tail": argv[3:]}
        key = run_key(conf, m["sha256"], base["toolchain_id"], base["host_id"])
        if sess.done(key):
            continue
        log(f"cost model: llama-bench {role} {m['model_id']}")
        started = utc_now()
        res = run_sampled(argv, cfg.get("request_timeout_s", 300))
        rec = {**base, "run_id": new_id(), "run_key": key, "config": conf, "argv": argv, "role": role,
               "model_id": m["model_id"], "model_sha256": m["sha256"], "started_at": started, "ended_at": utc_now(),
               "peak_rss_bytes": res.peak_rss_bytes}
        if not append_result(sess, COST_SCHEMA, rec, res, f"llama-bench {m['model_id']}"):
            failed += 1
    return failed


def run_session(*, cfg: dict, server_bin: Path, bench_bin: Path | None, target: dict, drafts: dict[str, dict],
                prompts: list[dict], toolchain: dict, host: dict, root: Path, raw_file: Path,
                log_dir: Path, log=print) -> dict:
    """Run the speculative experiment (one session) and append every request to ``raw_file``.

    ``cfg``: the resolved profile — ``configs`` (list of ``{id, spec_type, draft, n_max, policy}``;
    ``draft`` a key of ``drafts`` or None), ``repetitions``, ``threads``, ``ctx_size``, ``n_min``,
    ``p_min``, ``health_timeout_s``, ``request_timeout_s``, ``extra_args`` (optional, per config),
    ``cost_model`` (or None to skip).  ``drafts``: ``{key: model record}`` (``model_id, path, sha256``).
    Order: repetition-major, configurations rotated per repetition (``plan_order``), prompts in
    file order.  Policy ``fresh``: a new server per (configuration, repetition); ``same``: one server
    for the whole session (its requests carry ``server.request_index``), used to see state carried
    between requests.  A server that fails to start or dies: every request it owed is recorded as
    ``benchbook.run_failed`` (``kind``, ``log_tail``) and the session goes on; a completed request
    is never lost (fsync per record).

    Returns ``{"session_id", "resumed", "ran", "skipped", "failed", "failures": [...]}``.
    """
    from ..provenance import git_state, load_snapshot
    from ..records import new_id, utc_now
    from ..session import Session, run_key

    git = git_state(root)
    ran = skipped = failed = 0
    failures: list[dict] = []
    reps = int(cfg["repetitions"])
    by_id = {c["id"]: c for c in cfg["configs"]}
    meta = {"host_id": host["host_id"], "toolchain_id": toolchain["toolchain_id"], "config": cfg}
    log_dir.mkdir(parents=True, exist_ok=True)
    same_servers: dict[str, LlamaServer] = {}
    same_counts: dict[str, int] = {}

    def spec_of(c: dict) -> dict | None:
        if c["spec_type"] == "none":
            return None
        d = drafts[c["draft"]] if c.get("draft") else None
        return {"type": c["spec_type"], "draft_path": d["path"] if d else None, "n_max": c.get("n_max"),
                "n_min": cfg.get("n_min", 0), "p_min": cfg.get("p_min", 0.0)}

    with Session.open(raw_file, "speculative", meta) as sess:
        base_common = {"schema_version": SCHEMA_VERSION, "experiment": "speculative", "host_id": host["host_id"],
                       "toolchain_id": toolchain["toolchain_id"], "git_commit": git["git_commit"],
                       "git_dirty": git["git_dirty"]}
        if cfg.get("cost_model") and bench_bin is not None:
            uniq = {d["sha256"]: d for k, d in drafts.items() if d["sha256"] != target["sha256"]}
            f = run_cost_model(bench_bin=Path(bench_bin), target=target, drafts=list(uniq.values()), cfg=cfg,
                               base=base_common, sess=sess, log=log)
            failed += f
        try:
            for rep in range(reps):
                for cid in plan_order(list(by_id), rep):
                    c = by_id[cid]
                    d = drafts[c["draft"]] if c.get("draft") else None
                    conf = {"config_id": cid, "spec_type": c["spec_type"], "draft_model_id": d["model_id"] if d else None,
                            "n_max": c.get("n_max"), "n_min": cfg.get("n_min", 0) if c["spec_type"] != "none" else None,
                            "p_min": cfg.get("p_min", 0.0) if c["spec_type"] != "none" else None,
                            "policy": c.get("policy", "fresh"), "threads": cfg["threads"], "ctx_size": cfg["ctx_size"],
                            "extra_args": c.get("extra_args") or []}
                    todo = []
                    for p in prompts:
                        rconf = {**conf, "prompt_id": p["id"], "cap": p["cap"], "rep": rep}
                        key = run_key(rconf, target["sha256"] + (":" + d["sha256"] if d else ""),
                                      toolchain["toolchain_id"], host["host_id"])
                        if sess.done(key):
                            skipped += 1
                        else:
                            todo.append((p, rconf, key))
                    if not todo:
                        continue
                    argv = build_argv(server_bin, target["path"], threads=cfg["threads"], ctx_size=cfg["ctx_size"],
                                      spec=spec_of(c), extra=c.get("extra_args"))
                    policy = conf["policy"]
                    srv = same_servers.get(cid) if policy == "same" else None
                    start_err = None
                    if srv is None or not srv.alive():
                        srv = LlamaServer(argv, log_dir / f"{sess.session_id[:8]}-{cid}-r{rep}.log",
                                          health_timeout_s=cfg.get("health_timeout_s", 60))
                        try:
                            srv.start()
                            if policy == "same":
                                same_servers[cid], same_counts[cid] = srv, 0
                        except ServerError as e:
                            start_err = e
                    for p, rconf, key in todo:
                        base = {**base_common, "run_id": new_id(), "run_key": key, "config": rconf,
                                "argv": srv.argv or argv, "model_id": target["model_id"],
                                "model_sha256": target["sha256"], "draft_model_id": d["model_id"] if d else None,
                                "draft_model_sha256": d["sha256"] if d else None, "prompt_id": p["id"], "cap": p["cap"],
                                "rep": rep, "policy": policy}
                        if start_err is None and not srv.alive():
                            try:
                                srv.start()
                            except ServerError as e:
                                start_err = e
                        if start_err is not None:
                            failed += 1
                            failures.append({"config_id": cid, "prompt_id": p["id"], "rep": rep, "kind": start_err.kind})
                            sess.append({"schema": "benchbook.run_failed", **base, "status": "failed",
                                         "stage": "server_start", "kind": start_err.kind, "error": str(start_err),
                                         "returncode": start_err.returncode, "log_tail": start_err.log_tail,
                                         "started_at": utc_now(), "ended_at": utc_now()})
                            log(f"FAILED start {cid} rep {rep}: {start_err}")
                            continue
                        started, load_start = utc_now(), load_snapshot()
                        req_index = same_counts.get(cid, 0) if policy == "same" else todo.index((p, rconf, key))
                        try:
                            text = srv.apply_template(p["messages"])
                            body = completion_body(text, p["cap"])
                            m_before_text = srv.request("GET", "/metrics", timeout=10)
                            resp, peak = srv.completion(body, timeout=cfg.get("request_timeout_s", 300))
                            m_after_text = srv.request("GET", "/metrics", timeout=10)
                        except ServerError as e:
                            failed += 1
                            failures.append({"config_id": cid, "prompt_id": p["id"], "rep": rep, "kind": e.kind})
                            sess.append({"schema": "benchbook.run_failed", **base, "status": "failed",
                                         "stage": "request", "kind": e.kind, "error": str(e),
                                         "returncode": srv.proc.poll() if srv.proc else None,
                                         "log_tail": e.log_tail, "started_at": started, "ended_at": utc_now(),
                                         "server": {"port": srv.port, "log": str(srv.log_path)}})
                            log(f"FAILED request {cid} {p['id']} rep {rep}: {e.kind}: {e}")
                            if e.kind == "request_timeout":
                                srv.kill()   # a hung server must not serve the next request
                            continue
                        ended, load_end = utc_now(), load_snapshot()
                        mb, ma = parse_metrics(m_before_text), parse_metrics(m_after_text)
                        delta = metrics_delta(mb, ma)
                        tm = resp.get("timings", {})
                        content = resp.get("content", "")
                        rec = {"schema": SCHEMA, **base, "status": "ok", "started_at": started, "ended_at": ended,
                               "load_start": load_start, "load_end": load_end,
                               "server": {"port": srv.port, "pid": srv.proc.pid, "load_ms": srv.load_ms,
                                          "request_index": req_index, "log": str(srv.log_path),
                                          "ports_tried": srv.ports_tried},
                               "prompt_text_sha256": sha256_text(text), "request": body,
                               "timings": tm, "stop_type": resp.get("stop_type"),
                               "cap_hit": resp.get("stop_type") == "limit",
                               "tokens": resp.get("tokens"), "content": content,
                               "content_sha256": sha256_text(content),
                               "tokens_predicted": resp.get("tokens_predicted"),
                               "tokens_evaluated": resp.get("tokens_evaluated"),
                               "truncated": resp.get("truncated"),
                               "generation_settings": resp.get("generation_settings"),
                               "metrics_before": mb, "metrics_after": ma, "metrics_delta": delta,
                               "verify_steps": delta.get("spec_decode_num_drafts_total"),
                               "peak_rss_bytes": peak, "server_peak_rss_bytes": srv.peak_rss_bytes,
                               "peak_gpu_mem_mib": srv._sampler.peak_gpu_mem_mib if srv._sampler else None,
                               "answer_expected": p.get("answer"),
                               "answer_found": answer_found(content, p.get("answer_pattern"))}
                        sess.append(rec)
                        ran += 1
                        if policy == "same":
                            same_counts[cid] = same_counts.get(cid, 0) + 1
                        tps = tm.get("predicted_per_second")
                        log(f"{cid:>18} r{rep} {p['id']:>12}: {tm.get('predicted_n')} tok "
                            f"{tps:.1f} tok/s draft {tm.get('draft_n_accepted', '-')}/{tm.get('draft_n', '-')} "
                            f"stop {resp.get('stop_type')}")
                    if policy != "same":
                        srv.stop()
        finally:
            for s in same_servers.values():
                s.stop()
        out = {"session_id": sess.session_id, "resumed": sess.resumed, "ran": ran, "skipped": skipped,
               "failed": failed, "failures": failures, "quarantined": sess.quarantined}
    return out


def resolve_profile(section: dict, profile: str | None = None, overrides: dict | None = None) -> dict:
    """The flat run configuration: ``section`` (params.yaml ``speculative``) minus ``profiles``, with
    the chosen profile's keys on top, then ``overrides`` (tests pass tiny ones).

    Raises:
        KeyError: unknown profile (names the known ones); a config's ``draft`` key not in ``drafts``.
    """
    name = profile or section.get("profile", "default")
    if name not in section["profiles"]:
        raise KeyError(f"speculative profile {name!r} not in params.yaml; known: {sorted(section['profiles'])}")
    cfg = {k: v for k, v in section.items() if k != "profiles"}
    cfg.update(section["profiles"][name])
    cfg.update(overrides or {})
    cfg["profile"] = name
    for c in cfg["configs"]:
        if c.get("draft") and c["draft"] not in cfg["drafts"]:
            raise KeyError(f"config {c['id']}: draft {c['draft']!r} not in speculative.drafts {sorted(cfg['drafts'])}")
    return cfg


def resolve_drafts(cfg: dict, target: dict, fetch_model) -> dict[str, dict]:
    """Model records for every draft key used by ``cfg['configs']``; checks each draft's vocabulary
    against the target before any run.

    ``fetch_model(model_id) -> record`` resolves registry ids (``resolve.get_models``).  Draft specs:
    ``{model: <registry id> | "target"}`` or ``{truncate_layers: L}`` (``draft_models.truncated_draft``).

    Raises:
        draft_models.DraftModelError: a draft's tokenizer differs from the target's.
    """
    from .. import draft_models as dm
    used = {c["draft"] for c in cfg["configs"] if c.get("draft")}
    out = {}
    for key in sorted(used):
        spec = cfg["drafts"][key]
        if "truncate_layers" in spec:
            r = dm.truncated_draft(target["path"], target["sha256"], int(spec["truncate_layers"]))
            rec = {"schema": "benchbook.model", "schema_version": 1, "model_id": r["model_id"], "path": r["path"],
                   "sha256": r["sha256"], "size_bytes": r["size_bytes"], "origin": r["origin"]}
        elif spec.get("model") == "target":
            rec = {**target}
        elif spec.get("path"):
            from ..fetch import sha256_file
            rec = {"schema": "benchbook.model", "schema_version": 1, "model_id": spec.get("id", Path(spec["path"]).stem),
                   "path": str(spec["path"]), "sha256": sha256_file(Path(spec["path"])),
                   "size_bytes": Path(spec["path"]).stat().st_size, "origin": {"path": str(spec["path"])}}
        else:
            rec = fetch_model(spec["model"])
        dm.check_vocab(target["path"], rec["path"])
        out[key] = rec
    return out
