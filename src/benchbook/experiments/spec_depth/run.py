"""Depth sweep measurement: llama-bench ``-d`` rows and llama-server requests at the same depths.

One session (``measure``), the runs of ``plan.plan`` with their keys, in its order:

1. ``run_bench``: one llama-bench invocation per model (the target with ``-p <pp_sizes>,<n_prompt>``,
   each draft with ``-p <n_prompt>``; all ``-n n_gen -d <depths> -r repetitions``), every row a
   ``benchbook.llama_bench`` record (``role`` target | draft);
2. ``run_requests``: for each repetition, each configuration (rotated per repetition) gets a fresh
   llama-server (``-lv 4`` so the draft counters are logged) and one ``/completion`` per depth,
   deepest last, prompt = the first ``max(depth, min_prompt)`` tokens of ``context_file``, greedy,
   ``ignore_eos`` (every request decodes ``n_gen`` tokens), no prompt cache.  Configurations:
   ``baseline`` (no draft), ``speculative`` (``--spec-type draft-simple`` with a draft and n_max) and
   ``draft_only`` (a draft model served alone: its own decode cost in the server).
"""

from __future__ import annotations

import re
import time
from itertools import groupby
from pathlib import Path

from benchbook import resolve
from benchbook.llamacpp.bench import append_result
from benchbook.llamacpp.procmon import PeakSampler, run_sampled
from benchbook.llamacpp.server import LlamaServer, ServerError
from benchbook.llamacpp.specstats import await_stats, delta_fault, spec_stats, stats_delta
from benchbook.provenance import git_state
from benchbook.records import new_id, utc_now
from benchbook.schemas import build
from benchbook.session import Session, SessionResult

from ..speculative.run import GREEDY, resolve_drafts, sha256_text
from . import EXPERIMENT
from .plan import (  # noqa: F401 (server_argv re-exported)
    BenchRun,
    RequestRun,
    SpecDepthParams,
    plan,
    request_runs,
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


def run_bench(*, bench_bin: Path, runs: list[BenchRun], cfg: dict, base: dict, sess, log=print) -> int:
    """The plan's llama-bench ``-d`` sweeps (``plan.bench_runs``) the session has not completed, one
    invocation each; returns failures."""
    failed = 0
    for run in runs:
        if sess.done(run.key):
            continue
        m = run.model
        argv = [str(bench_bin), "-m", m["path"], *run.argv_tail]
        depths = ",".join(str(int(d)) for d in cfg["depths"])
        log(f"{EXPERIMENT}: llama-bench {run.role} {m['model_id']} -d {depths}")
        started = utc_now()
        res = run_sampled(argv, cfg["timeout_s"])
        rec = {**base, "run_id": new_id(), "run_key": run.key, "config": run.config, "role": run.role}
        rec |= {"argv": argv, "model_id": m["model_id"], "model_sha256": m["sha256"], "started_at": started}
        rec |= {"ended_at": utc_now(), "peak_rss_bytes": res.peak_rss_bytes}
        rec |= {"peak_gpu_mem_mib": res.peak_gpu_mem_mib}
        if not append_result(sess, rec, res, f"llama-bench {m['model_id']}"):
            failed += 1
    return failed


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


def run_requests(
    *,
    server_bin: Path,
    target: dict,
    drafts: dict,
    context: str,
    cfg: dict,
    base: dict,
    sess,
    log_dir,
    runs: list[RequestRun] | None = None,
    log=print,
) -> tuple[int, int]:
    """The plan's requests (``runs``; default ``plan.request_runs`` of ``cfg``, ``target``, ``drafts``
    and ``base``'s toolchain and host ids): each (repetition, configuration) on a fresh server, one
    request per depth, those the session has completed skipped; returns (ran, failed)."""
    if runs is None:
        runs = request_runs(cfg, target, drafts, base["toolchain_id"], base["host_id"])
    ran = failed = 0
    for (rep, cid), visit in groupby(runs, key=lambda r: (r.rep, r.config_id)):
        group = list(visit)
        c, model, draft, conf = group[0].c, group[0].model, group[0].draft, group[0].config
        argv = [str(server_bin), "-m", str(model["path"]), *group[0].argv_tail]
        keys = {r.depth: r.key for r in group}
        depths = list(keys)
        if all(sess.done(k) for k in keys.values()):
            continue
        srv = LlamaServer(
            argv,
            log_dir / f"{sess.session_id[:8]}-{cid}-r{rep}.log",
            health_timeout_s=cfg["health_timeout_s"],
        )
        try:
            srv.start()
            tokens = srv.request_json("POST", "/tokenize", {"content": context}, timeout=60)["tokens"]
            # this process's lines only: a resumed session appends a new server's log to the file,
            # and its counters start again from 0 (stats_delta refuses counters that go down)
            before = spec_stats(srv.log_text())
            for i, d in enumerate(depths):
                if sess.done(keys[d]):
                    continue
                started = utc_now()
                ptoks = prompt_tokens(tokens, d, cfg["min_prompt"])
                resp, wall_ms, peak = one_request(srv, ptoks, cfg, cfg["request_timeout_s"])
                time.sleep(0.2)  # the statistics line is written after the response
                log_text = srv.log_tail(10**7)
                # the line of this request (a speculative server's): waited for, not the previous
                # request's read again as one that drafted nothing
                after = (
                    await_stats(srv.log_text, before)
                    if c["role"] == "speculative"
                    else spec_stats(srv.log_text())
                )
                rec = {**base, "run_id": new_id(), "run_key": keys[d], "started_at": started}
                rec |= {"ended_at": utc_now(), "argv": srv.argv, "model_id": model["model_id"]}
                rec |= {"model_sha256": model["sha256"], "config_id": cid, "role": c["role"]}
                rec |= {"spec_type": "draft-simple" if c["role"] == "speculative" else "none"}
                rec |= {"draft_model_id": draft["model_id"] if draft else None}
                rec |= {"draft_model_sha256": draft["sha256"] if draft else None}
                rec |= {"n_max": c.get("n_max"), "depth": d, "prompt_tokens": len(ptoks), "rep": rep}
                rec |= {"request_index": i, "wall_ms": wall_ms, "timings": resp.get("timings", {})}
                stats = stats_delta(before, after)
                if c["role"] == "speculative" and delta_fault(stats, resp.get("timings", {})):
                    stats = None  # another request's counters (a late line): none rather than those
                rec |= {
                    "spec_stats": stats or {},
                    "stop_type": resp.get("stop_type"),
                }
                rec |= {
                    "tokens": resp.get("tokens") or [],
                    "content_sha256": sha256_text(resp.get("content", "")),
                }
                rec |= {"peak_gpu_mem_mib": peak, "server_buffers": server_buffers(log_text)}
                rec |= {"context_tokens_sha256": sha256_text(",".join(map(str, ptoks)))}
                rec |= {
                    "server_peak_rss_bytes": srv.peak_rss_bytes,
                    "ctx_size": int(argv[argv.index("-c") + 1]),
                }
                sess.append(build("spec_depth_request", **rec))
                before = after
                ran += 1
                tm = resp.get("timings", {})
                log(
                    f"{cid:>14} r{rep} d{d:>5}: pp {tm.get('prompt_per_second', 0):8.1f} "
                    f"tg {tm.get('predicted_per_second', 0):7.1f} tok/s "
                    f"draft {tm.get('draft_n_accepted', '-')}/{tm.get('draft_n', '-')}"
                )
        except (ServerError, ValueError, KeyError) as e:
            failed += 1
            sess.append(
                build(
                    "run_failed",
                    **base,
                    run_id=new_id(),
                    status="failed",
                    stage="spec_depth",
                    kind=getattr(e, "kind", type(e).__name__),
                    error=str(e),
                    log_tail=srv.log_tail(),
                    started_at=utc_now(),
                    ended_at=utc_now(),
                    argv=argv,
                    config=conf,
                )
            )
            log(f"FAILED {cid} r{rep}: {e}")
        finally:
            srv.stop()
    return ran, failed


def measure(
    params: dict, *, root: Path, raw_dir: Path, overrides: dict | None = None, log=print
) -> SessionResult:
    """One session of ``params["spec_depth"]`` (+ ``overrides``; ``experiments.profiles`` passes the
    host profile's keys): the bench sweep, then the requests, to ``raw_dir/spec_depth/<host_id>.jsonl``.

    Raises:
        contract.ParamsError: the section does not fit ``SpecDepthParams`` (names the key and the fix).
        KeyError: a config's draft key is not in ``drafts`` (the message lists them).
        resolve.ParamsError, llamacpp.toolchain.ToolchainError, llamacpp.models.ModelError: the build
        or a model is missing (the message names the fix).
    """
    root, raw_dir = Path(root), Path(root) / raw_dir
    cfg = SpecDepthParams.from_params(params, overrides).config()
    for c in cfg["configs"]:
        if c.get("draft") and c["draft"] not in cfg["drafts"]:
            raise KeyError(
                f"spec_depth config {c['id']}: draft {c['draft']!r} not in {sorted(cfg['drafts'])}"
            )
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
    with Session.open(raw_file, EXPERIMENT, meta) as sess:
        base: dict = {"session_id": sess.session_id, "experiment": EXPERIMENT, "host_id": host.host_id}
        base |= {"toolchain_id": toolchain.record["toolchain_id"], "profile": cfg.get("profile")}
        base |= {"git_commit": git["git_commit"], "git_dirty": git["git_dirty"]}
        failed = run_bench(
            bench_bin=toolchain.binary("llama-bench"),
            runs=[r for r in runs if isinstance(r, BenchRun)],
            cfg=cfg,
            base=base,
            sess=sess,
            log=log,
        )
        ran, f2 = run_requests(
            server_bin=toolchain.binary("llama-server"),
            target=target,
            drafts=drafts,
            context=context,
            cfg=cfg,
            base=base,
            sess=sess,
            log_dir=raw_dir / EXPERIMENT / "logs",
            runs=[r for r in runs if isinstance(r, RequestRun)],
            log=log,
        )
        return SessionResult(
            session_id=sess.session_id,
            experiment=EXPERIMENT,
            resumed=sess.resumed,
            ran=ran,
            skipped=0,
            failed=failed + f2,
            quarantined=sess.quarantined,
            raw_file=raw_file,
            cfg=cfg,
        )
