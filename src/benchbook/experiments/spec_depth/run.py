"""Depth sweep measurement: llama-bench ``-d`` rows and llama-server requests at the same depths.

One session (``measure``, through ``harness.run_plan``), the runs of ``plan.plan`` with their keys, in
its order:

1. ``run_bench``: one llama-bench invocation per model (the target with ``-p <pp_sizes>,<n_prompt>``,
   each draft with ``-p <n_prompt>``; all ``-n n_gen -d <depths> -r repetitions``), every row a
   ``benchbook.llama_bench`` record (``role`` target | draft);
2. ``server_visit``: for each repetition, each configuration (rotated per repetition) gets a fresh
   llama-server (``-lv 4`` so the draft counters are logged) and one ``/completion`` per depth,
   deepest last, prompt = the first ``max(depth, min_prompt)`` tokens of ``context_file``, greedy,
   ``ignore_eos`` (every request decodes ``n_gen`` tokens), no prompt cache.  Configurations:
   ``baseline`` (no draft), ``speculative`` (``--spec-type draft-simple`` with a draft and n_max) and
   ``draft_only`` (a draft model served alone: its own decode cost in the server).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from benchbook import resolve
from benchbook.llamacpp.procmon import PeakSampler
from benchbook.llamacpp.server import LlamaServer
from benchbook.llamacpp.specstats import await_stats, delta_fault, spec_stats, stats_delta
from benchbook.provenance import git_state
from benchbook.records import new_id, utc_now
from benchbook.schemas import build
from benchbook.session import SessionResult

from .. import servervisit
from ..harness import OK, Groups, Measure, Outcome, run_model_bench, run_plan
from ..speculative.run import GREEDY, resolve_drafts, sha256_text
from . import EXPERIMENT
from .plan import (  # noqa: F401 (server_argv re-exported)
    RequestRun,
    SpecDepthParams,
    plan,
    server_argv,
)

#: Used where ``params.yaml`` ``spec_depth`` (and the host profile) leave a key out: ``SpecDepthParams``'.
DEFAULTS: dict = SpecDepthParams().config()

#: ``llama_kv_cache: CUDA0 KV buffer size = 12.00 MiB`` and the like (model, KV, compute, output buffers).
BUFFER_RE = re.compile(r"(?P<what>\S+ (?:\S+ )?buffer size) =\s*(?P<mib>[\d.]+) MiB")


def server_buffers(log_text: str) -> list[dict]:
    """Every ``... buffer size = X MiB`` line of a server log, in order: ``{"what", "mib"}``."""
    return [{"what": m.group("what"), "mib": float(m.group("mib"))} for m in BUFFER_RE.finditer(log_text)]


def prompt_tokens(tokens: list[int], depth: int, min_prompt: int) -> list[int]:
    """The prompt at ``depth``: the first ``max(depth, min_prompt)`` tokens of the context.

    Raises:
        ValueError: the context has fewer tokens than that (the message names the fix).
    """
    n = max(int(depth), int(min_prompt))
    if n > len(tokens):
        raise ValueError(f"depth {depth}: the context has {len(tokens)} tokens; fix: a longer context_file")
    return tokens[:n]


def one_request(
    srv: LlamaServer, tokens: list[int], cfg: dict, timeout: float
) -> tuple[dict, float, int | None]:
    """``/completion`` of ``tokens`` (greedy, ignore_eos, ``n_gen``);
    returns ``(response, wall_ms, peak GPU MiB)``."""
    body = {"prompt": tokens, "n_predict": int(cfg["n_gen"]), "cache_prompt": False, "return_tokens": True}
    body |= {"stream": False, **GREEDY, "ignore_eos": True}
    with PeakSampler(srv.pid, interval_s=0.05, gpu_interval_s=0.1) as ps:
        t0 = time.perf_counter()
        res = srv.request_json("POST", "/completion", body, timeout=timeout)
        wall_ms = (time.perf_counter() - t0) * 1e3
    return res, wall_ms, ps.peak_gpu_mem_mib


@contextmanager
def server_visit(
    sess, runs: list[RequestRun], *, server_bin: Path, context: str, cfg: dict, base: dict, log_dir, log=print
) -> Iterator[Measure]:
    """One (repetition, configuration) of the plan (``runs``: its requests to measure, in depth order):
    a fresh llama-server, the context tokenized once, then one request per depth (``_request``), through
    ``servervisit.visit``: a server that does not start, or an error of ``servervisit.VISIT_ERRORS``
    during a request, ends the visit: that request and every later one of it are
    ``benchbook.run_failed`` records (the server's log tail) and the session goes on."""
    with servervisit.visit(
        sess,
        runs,
        server_bin=server_bin,
        log_dir=log_dir,
        health_timeout_s=cfg["health_timeout_s"],
        prepare=lambda s: s.request_json("POST", "/tokenize", {"content": context}, timeout=60)["tokens"],
        request=lambda sess, run, v: _request(sess, run, v, cfg=cfg, base=base, log=log),
        base=base,
        stage=EXPERIMENT,
    ) as measure:
        yield measure


def _request(
    sess, run: RequestRun, visit: servervisit.ServerVisit, *, cfg: dict, base: dict, log=print
) -> Outcome:
    srv, c, model, draft, d = visit.srv, run.c, run.model, run.draft, run.depth
    assert visit.prepared is not None  # tokenized when the visit began (else it is broken)
    started = utc_now()
    ptoks = prompt_tokens(visit.prepared, d, cfg["min_prompt"])
    resp, wall_ms, peak = one_request(srv, ptoks, cfg, cfg["request_timeout_s"])
    time.sleep(0.2)  # the statistics line is written after the response
    log_text = srv.log_tail(10**7)
    # the line of this request (a speculative server's): waited for, not the previous
    # request's read again as one that drafted nothing
    before = visit.before
    after = await_stats(srv.log_text, before) if c["role"] == "speculative" else spec_stats(srv.log_text())
    rec = {**base, "run_id": new_id(), "run_key": run.key, "started_at": started}
    rec |= {"ended_at": utc_now(), "argv": srv.argv, "model_id": model["model_id"]}
    rec |= {"model_sha256": model["sha256"], "config_id": run.config_id, "role": c["role"]}
    rec |= {"spec_type": "draft-simple" if c["role"] == "speculative" else "none"}
    rec |= {"draft_model_id": draft["model_id"] if draft else None}
    rec |= {"draft_model_sha256": draft["sha256"] if draft else None}
    rec |= {"n_max": c.get("n_max"), "depth": d, "prompt_tokens": len(ptoks), "rep": run.rep}
    # the depth's place in the visit (a resumed visit's first request keeps the index of its depth)
    index = sorted(int(x) for x in cfg["depths"]).index(d)
    rec |= {"request_index": index, "wall_ms": wall_ms, "timings": resp.get("timings", {})}
    stats = stats_delta(before, after)
    if c["role"] == "speculative" and delta_fault(stats, resp.get("timings", {})):
        stats = None  # another request's counters (a late line): none rather than those
    rec |= {"spec_stats": stats or {}, "stop_type": resp.get("stop_type")}
    rec |= {"tokens": resp.get("tokens") or [], "content_sha256": sha256_text(resp.get("content", ""))}
    rec |= {"peak_gpu_mem_mib": peak, "server_buffers": server_buffers(log_text)}
    rec |= {"context_tokens_sha256": sha256_text(",".join(map(str, ptoks)))}
    argv = visit.argv
    rec |= {"server_peak_rss_bytes": srv.peak_rss_bytes, "ctx_size": int(argv[argv.index("-c") + 1])}
    sess.append(build("spec_depth_request", **rec))
    visit.before = after
    tm = resp.get("timings", {})
    log(
        f"{run.config_id:>14} r{run.rep} d{d:>5}: pp {tm.get('prompt_per_second', 0):8.1f} "
        f"tg {tm.get('predicted_per_second', 0):7.1f} tok/s "
        f"draft {tm.get('draft_n_accepted', '-')}/{tm.get('draft_n', '-')}"
    )
    return OK


def measure(
    params: dict, *, root: Path, raw_dir: Path, overrides: dict | None = None, log=print
) -> SessionResult:
    """One session of ``params["spec_depth"]`` (+ ``overrides``; ``experiments.profiles`` passes the
    host profile's keys): the bench sweep, then the requests, to ``raw_dir/spec_depth/<host_id>.jsonl``.

    Raises:
        errors.ParamsError: the section does not fit ``SpecDepthParams`` (names the key and the fix; a
            config's draft key not in ``drafts``, a model id not in the registry among them).
        errors.ParamsError, llamacpp.toolchain.ToolchainError, llamacpp.models.ModelError: the build
        or a model is missing (the message names the fix).
    """
    root, raw_dir = Path(root), Path(root) / raw_dir
    cfg = SpecDepthParams.from_params(params, overrides).config()
    toolchain = resolve.get_toolchain(params, build=False)
    target = resolve.get_models(params, [cfg["target"]], toolchain)[0]
    drafts = resolve_drafts(cfg, target, lambda mid: resolve.get_models(params, [mid], toolchain)[0])
    unique = list({d["sha256"]: d for d in drafts.values() if d["sha256"] != target["sha256"]}.values())
    host = resolve.store_snapshots(raw_dir / "snapshots", toolchain, [target] + unique)
    context = (root / cfg["context_file"]).read_text()
    raw_file = raw_dir / EXPERIMENT / f"{host.host_id}.jsonl"
    git = git_state(root)
    meta = {"host_id": host.host_id, "toolchain_id": toolchain.record["toolchain_id"], "config": cfg}
    runs = plan(cfg, target, drafts, toolchain.record["toolchain_id"], host.host_id)
    base: dict = {}  # the fields every record of the session starts with (once it is open)

    def session_fields(sess) -> None:
        base.update(session_id=sess.session_id, experiment=EXPERIMENT, host_id=host.host_id)
        base.update(toolchain_id=toolchain.record["toolchain_id"], profile=cfg.get("profile"))
        base.update(git_commit=git["git_commit"], git_dirty=git["git_dirty"])

    bench_bin, server_bin = toolchain.binary("llama-bench"), toolchain.binary("llama-server")
    return run_plan(
        experiment=EXPERIMENT,
        raw_file=raw_file,
        meta=meta,
        runs=runs,
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
