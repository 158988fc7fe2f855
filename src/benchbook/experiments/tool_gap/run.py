"""Tool-gap measurement: llama-bench tg and llama-server decode of one model, one factor changed at a time.

One session (``measure``, through ``harness.run_plan``), the runs of ``plan.plan`` in its order:

1. one llama-bench invocation (``harness.run_model_bench``): tg at depth 0 and at ``depth``, and the
   passes of ``k+1`` tokens at ``depth``, every row a ``benchbook.llama_bench`` record;
2. ``server_visit``: for each repetition, each configuration (rotated per repetition) gets a fresh
   llama-server and two ``/completion`` requests (``request``): the prompt is the first ``depth``
   tokens of ``context_file`` (as token ids, or as text inside the chat template), ``ignore_eos`` so
   every request decodes ``n_gen`` tokens; each is a ``benchbook.tool_gap.request`` record with the
   server's ``timings``, the client's wall time and, for a verify configuration, the draft counters
   of the server's log (``llamacpp.specstats``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from benchbook import resolve
from benchbook.llamacpp.server import LlamaServer
from benchbook.llamacpp.specstats import await_stats, delta_fault, stats_delta
from benchbook.provenance import git_state, load_snapshot
from benchbook.records import new_id, utc_now
from benchbook.schemas import build
from benchbook.session import SessionResult

from .. import servervisit
from ..harness import OK, Groups, Measure, Outcome, run_model_bench, run_plan
from ..speculative.run import GREEDY, sha256_text
from . import EXPERIMENT
from .plan import RequestRun, Setup, ToolGapParams, ctx_size, plan

#: the chat message the ``template`` configuration wraps the prompt text in
ROLE = "user"
#: the client's clock (s) of a request's wall time (a test replaces it)
clock = time.perf_counter


def request_body(setup: Setup, cfg: Mapping, prompt: list[int] | str, cached: bool) -> dict:
    """The ``/completion`` body of one request: ``n_predict`` n_gen, ``ignore_eos``, ``cache_prompt``
    (``setup.prompt_cache`` and ``cached``: the measured request of a cached server), ``stream``; the
    sampler: ``GREEDY`` with the chain cut to ``["top_k"]`` (top_k 1: one sampler, as llama-bench
    samples none) or, with ``setup.sampler``, the server's defaults and only the seed fixed;
    ``n_probs`` with ``setup.n_probs``.  Parameter names of llama.cpp ``tools/server/README.md``."""
    body: dict = {"prompt": prompt, "n_predict": int(cfg["n_gen"]), "ignore_eos": True}
    body |= {"cache_prompt": bool(setup.prompt_cache and cached), "stream": setup.stream}
    if setup.sampler:
        body["seed"] = GREEDY["seed"]
    else:
        body |= {**GREEDY, "samplers": ["top_k"]}
    if setup.n_probs:
        body["n_probs"] = int(cfg["n_probs"])
    body["ignore_eos"] = True  # after GREEDY, whose ignore_eos is False (every request decodes n_gen)
    return body


def parse_sse(text: str) -> dict:
    """A streamed ``/completion`` answer (server-sent events, ``data: {json}`` lines) as one answer: the
    last event (which holds ``timings``, ``stop_type``) with ``content`` the events' contents joined.

    Raises:
        ValueError: no ``data:`` event (names the start of the text).
    """
    events = []
    for line in text.splitlines():
        if line.startswith("data:"):
            payload = line[5:].strip()
            if payload and payload != "[DONE]":
                events.append(json.loads(payload))
    if not events:
        raise ValueError(f"a streamed answer without a `data:` event: {text[:200]!r}")
    return {**events[-1], "content": "".join(str(e.get("content", "")) for e in events)}


def one_request(srv: LlamaServer, body: dict, timeout: float) -> tuple[dict, float]:
    """``POST /completion`` with ``body``, its answer read to the end; returns ``(answer, wall_ms)``
    (a streamed answer through ``parse_sse``)."""
    t0 = clock()
    if body.get("stream"):
        res = parse_sse(srv.request_text("POST", "/completion", body, timeout=timeout))
    else:
        res = srv.request_json("POST", "/completion", body, timeout=timeout)
    return res, (clock() - t0) * 1e3


def build_prompt(srv: LlamaServer, context: str, setup: Setup, depth: int) -> list[int] | str:
    """The first ``depth`` tokens of ``context`` (the server's ``/tokenize``), as token ids, or with
    ``setup.template`` their text (``/detokenize``) as one user message in the model's chat template
    (``/apply-template``).

    Raises:
        ValueError: the context has fewer than ``depth`` tokens (fix: a longer context_file).
        ServerError: a request failed.
    """
    tokens = srv.request_json("POST", "/tokenize", {"content": context}, timeout=60)["tokens"]
    if len(tokens) < depth:
        raise ValueError(f"depth {depth}: the context has {len(tokens)} tokens; fix: a longer context_file")
    ids = tokens[:depth]
    if not setup.template:
        return ids
    text = srv.request_json("POST", "/detokenize", {"tokens": ids}, timeout=60)["content"]
    return srv.apply_template([{"role": ROLE, "content": text}])


@contextmanager
def server_visit(
    sess, runs: list[RequestRun], *, server_bin: Path, context: str, cfg: dict, base: dict, log_dir, log=print
) -> Iterator[Measure]:
    """One (repetition, configuration) of the plan (``runs``: its requests to measure): a fresh
    llama-server, the prompt built once (``build_prompt``), then each request (``_request``), through
    ``servervisit.visit``: a server that does not start, or an error of ``servervisit.VISIT_ERRORS``,
    ends the visit: that request and every later one are ``benchbook.run_failed`` records."""
    first = runs[0]
    with servervisit.visit(
        sess,
        runs,
        server_bin=server_bin,
        log_dir=log_dir,
        health_timeout_s=cfg["health_timeout_s"],
        prepare=lambda s: build_prompt(s, context, first.setup, int(cfg["depth"])),
        request=lambda sess, run, v: _request(sess, run, v, cfg=cfg, base=base, log=log),
        base=base,
        stage=EXPERIMENT,
    ) as measure:
        yield measure


def _request(
    sess, run: RequestRun, visit: servervisit.ServerVisit, *, cfg: dict, base: dict, log=print
) -> Outcome:
    srv, setup = visit.srv, run.setup
    assert visit.prepared is not None  # built when the visit began (else it is broken)
    load_start, started = load_snapshot(), utc_now()
    body = request_body(setup, cfg, visit.prepared, cached=run.request_index > 0)
    resp, wall_ms = one_request(srv, body, cfg["request_timeout_s"])
    load_end = load_snapshot()  # the busy_host caveat reads both (analysis.load_of)
    tm = resp.get("timings") or {}
    stats = None
    if setup.verify_k is not None:
        after = await_stats(srv.log_text, visit.before)
        stats = stats_delta(visit.before, after)
        if delta_fault(stats, tm):
            stats = None  # another request's counters (a late line): none rather than those
        visit.before = after
    sent = {**body, "prompt": len(visit.prepared)}
    rec = {**base, "run_id": new_id(), "run_key": run.key, "started_at": started, "ended_at": utc_now()}
    rec |= {"argv": visit.argv, "model_id": run.model["model_id"], "model_sha256": run.model["sha256"]}
    rec |= {"config_id": run.config_id, "factor": run.factor, "rep": run.rep}
    rec |= {"request_index": run.request_index, "n_gen": int(cfg["n_gen"])}
    # a text prompt's tokens: those the server processed and those it found cached
    n_text = int(tm.get("prompt_n") or 0) + int(tm.get("cache_n") or 0)
    n_prompt = len(visit.prepared) if isinstance(visit.prepared, list) else n_text
    rec |= {"prompt_tokens": n_prompt, "stream": setup.stream, "request": sent, "wall_ms": wall_ms}
    rec |= {"timings": tm, "spec_stats": stats or {}, "stop_type": resp.get("stop_type")}
    rec |= {"content_sha256": sha256_text(str(resp.get("content", ""))), "ctx_size": ctx_size(cfg)}
    rec |= {"load_start": load_start, "load_end": load_end}
    sess.append(build("tool_gap_request", **rec))
    log(
        f"{run.config_id:>16} r{run.rep} #{run.request_index}: tg {tm.get('predicted_per_second', 0):7.1f} "
        f"tok/s (server), wall {wall_ms:8.1f} ms"
    )
    return OK


def measure(
    params: dict, *, root: Path, raw_dir: Path, overrides: dict | None = None, log=print
) -> SessionResult:
    """One session of ``params["tool_gap"]`` (+ ``overrides``; ``experiments.profiles`` passes the host
    profile's keys): the llama-bench invocation, then the requests, to
    ``raw_dir/tool_gap/<host_id>.jsonl`` (server logs under ``raw_dir/tool_gap/logs``).

    Raises:
        errors.ParamsError: the section does not fit ``ToolGapParams`` (names the key and the fix).
        llamacpp.toolchain.ToolchainError, llamacpp.models.ModelError: the build or the model is
            missing (the message names the fix).
    """
    root, raw_dir = Path(root), Path(root) / raw_dir
    cfg = ToolGapParams.from_params(params, overrides).config()
    toolchain = resolve.get_toolchain(params, build=False)
    model = resolve.get_models(params, [cfg["model"]], toolchain)[0]
    host = resolve.store_snapshots(raw_dir / "snapshots", toolchain, [model])
    context = (root / cfg["context_file"]).read_text()
    raw_file = raw_dir / EXPERIMENT / f"{host.host_id}.jsonl"
    git = git_state(root)
    tc_id = toolchain.record["toolchain_id"]
    meta = {"host_id": host.host_id, "toolchain_id": tc_id, "config": cfg}
    base: dict = {}  # the fields every record of the session starts with (once it is open)

    def session_fields(sess) -> None:
        base.update(session_id=sess.session_id, experiment=EXPERIMENT, host_id=host.host_id)
        base.update(toolchain_id=tc_id, profile=cfg.get("profile"))
        base.update(git_commit=git["git_commit"], git_dirty=git["git_dirty"])

    bench_bin, server_bin = toolchain.binary("llama-bench"), toolchain.binary("llama-server")
    return run_plan(
        experiment=EXPERIMENT,
        raw_file=raw_file,
        meta=meta,
        runs=plan(cfg, model, tc_id, host.host_id),
        measure_run=lambda sess, run: run_model_bench(
            sess, run, bench_bin=bench_bin, timeout_s=cfg["timeout_s"], base=base, log=log
        ),
        groups=Groups(
            lambda run: (run.rep, run.config_id) if isinstance(run, RequestRun) else None,
            lambda sess, todo: server_visit(
                sess,
                todo,
                server_bin=server_bin,
                context=context,
                cfg=cfg,
                base=base,
                log_dir=raw_dir / EXPERIMENT / "logs",
                log=log,
            ),
        ),
        on_open=session_fields,
        cfg=cfg,
        log=log,
    )


def sections(result: SessionResult):
    """What the measurement notebook shows (``notebooks/measure.ipynb -p experiment tool_gap``): the
    session's summary, then the checks: every planned request recorded or failed, every recorded one
    with a positive decode time."""
    from benchbook import blocks
    from benchbook.records import read_records

    from . import REQUEST_SCHEMA
    from .plan import REQUESTS_PER_SERVER, configs

    yield blocks.Value(result)
    assert result.raw_file is not None, "the session names no raw file"
    recs = [
        r for r in read_records([result.raw_file], REQUEST_SCHEMA) if r["session_id"] == result.session_id
    ]
    planned = len(configs(result.cfg)) * int(result.cfg["repetitions"]) * REQUESTS_PER_SERVER
    assert len(recs) + result.failed >= planned - result.skipped, (len(recs), planned)
    assert all((r["timings"] or {}).get("predicted_ms", 0) > 0 for r in recs)
    yield blocks.Text(f"ok: {len(recs)} requests")
