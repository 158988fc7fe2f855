"""Speculative-decoding measurement (stage ``speculative``): one session of llama-server requests.

Every configuration of the chosen profile (baseline, draft models, ngram types; ``--spec-draft-n-max``
sweep) runs every prompt, interleaved per repetition, each request with a greedy sampler and no
prompt cache; each request becomes one ``benchbook.speculative_request`` record (timings,
draft_n/draft_n_accepted, stop_type, token ids and their sha256, ``/metrics`` before/after), and the
cost model's llama-bench rows ``benchbook.llama_bench`` records (``role`` target | draft), in the same
session.
Entry point: ``measure(params, root=, raw_dir=, overrides=)`` (see ``benchbook.experiments``).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from benchbook import blocks, resolve
from benchbook.llamacpp.server import LlamaServer, ServerError, build_argv, metrics_delta, parse_metrics
from benchbook.llamacpp.specstats import await_stats, delta_fault, spec_stats, stats_delta
from benchbook.provenance import HostSnapshot
from benchbook.schemas import build
from benchbook.session import Session, SessionResult

from ..contract import ModelBenchRun, Sourced, registry_ids
from ..harness import OK, Groups, Measure, Outcome, run_model_bench, run_plan
from .plan import (  # noqa: F401 (load_prompts, plan_order: re-exported)
    RequestRun,
    SpeculativeParams,
    load_prompts,
    plan,
    plan_order,
)

SCHEMA = "benchbook.speculative_request"
COST_SCHEMA = "benchbook.llama_bench"

#: Greedy and every penalty off, explicitly (GGUF files can carry sampler defaults,
#: ``general.sampling.*`` in llama.cpp ``common/arg.cpp``); the server echoes what it used in
#: ``generation_settings``, which is recorded too.
GREEDY = {
    "temperature": 0.0,
    "top_k": 1,
    "top_p": 1.0,
    "min_p": 0.0,
    "typical_p": 1.0,
    "top_n_sigma": -1.0,
    "xtc_probability": 0.0,
    "repeat_penalty": 1.0,
    "repeat_last_n": 0,
    "presence_penalty": 0.0,
    "frequency_penalty": 0.0,
    "dry_multiplier": 0.0,
    "mirostat": 0,
    "dynatemp_range": 0.0,
    "seed": 42,
    "ignore_eos": False,
}


def sha256_text(text: str) -> str:
    """sha256 hex of ``text`` encoded as UTF-8."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def completion_body(prompt_text: str, cap: int) -> dict:
    """The ``/completion`` request: templated prompt, cap, greedy sampler, no prompt cache, token ids."""
    return {
        "prompt": prompt_text,
        "n_predict": int(cap),
        "cache_prompt": False,
        "return_tokens": True,
        "stream": False,
        **GREEDY,
    }


def answer_found(text: str, pattern: str | None) -> bool | None:
    """Whether ``pattern`` (a regex) occurs in ``text``; None when the prompt has no recorded answer."""
    return None if not pattern else re.search(pattern, text) is not None


def verbosity_args(cfg: SpeculativeParams | dict) -> list[str]:
    """``["-lv", "<n>"]`` when ``log_verbosity`` is set (4 = trace: the server then logs the speculative
    decoder's counters and its drafting time after every request, ``llamacpp.specstats``), else ``[]``
    (the server's default verbosity, as the sessions before this key ran)."""
    level = cfg.log_verbosity if isinstance(cfg, SpeculativeParams) else cfg.get("log_verbosity")
    return [] if level is None else ["-lv", str(int(level))]


@dataclass
class _Server:
    """The server of one (repetition, configuration) visit: ``srv``, the ``argv`` it was built from,
    ``start_err`` (why it could not start, for every request it owed) and how many requests it was
    asked (``asked``: a fresh server's ``request_index``)."""

    srv: LlamaServer
    argv: list[str]
    start_err: ServerError | None = None
    asked: int = 0


def run_session(
    *,
    cfg: SpeculativeParams | dict,
    server_bin: Path,
    bench_bin: Path | None,
    target: dict,
    drafts: dict[str, dict],
    prompts: list[dict],
    toolchain: dict,
    host: HostSnapshot,
    root: Path,
    raw_file: Path,
    log_dir: Path,
    log=print,
) -> SessionResult:
    """Run the speculative experiment (one session) through ``harness.run_plan`` and append every
    request to ``raw_file``.

    ``cfg``: the resolved profile (``SpeculativeParams``, or its mapping) — ``configs`` (list of ``{id,
    spec_type, draft, n_max, policy}``; ``draft`` a key of ``drafts`` or None), ``repetitions``,
    ``threads``, ``ctx_size``, ``n_min``, ``p_min``, ``health_timeout_s``, ``request_timeout_s``,
    ``extra_args`` (optional, per config), ``cost_model`` (or None to skip), ``log_verbosity``
    (optional: ``-lv``; at 4 every request of a speculative configuration records ``spec_stats``, the
    increase of the server's speculative counters over it, ``llamacpp.specstats``, and a baseline's is
    null; absent: the server's default and no ``spec_stats``).  ``drafts``: ``{key: model record}``
    (``model_id, path, sha256``).  Order: ``plan.plan`` — the cost model's llama-bench runs, then the
    requests repetition-major, configurations rotated per repetition (``plan_order``), prompts in file
    order.  Policy ``fresh``: a new server per (configuration, repetition); ``same``: one server for
    the whole session (its requests carry ``server.request_index``), used to see state carried between
    requests.  A server that fails to start or dies: every request it owed is recorded as
    ``benchbook.run_failed`` (``kind``, ``log_tail``) and the session goes on; a completed request is
    never lost (fsync per record).

    Returns the session's ``SessionResult`` (``failures``: the label and error of each failed run;
    ``cfg``: the resolved profile's mapping).

    Raises:
        errors.ParamsError: ``cfg`` does not fit ``SpeculativeParams`` (names the key and the fix).
    """
    from benchbook.provenance import git_state

    params = SpeculativeParams.of(cfg)
    git = git_state(root)
    by_id = {c["id"]: c for c in params.configs}
    meta = {"host_id": host.host_id, "toolchain_id": toolchain["toolchain_id"], "config": params.config()}
    log_dir.mkdir(parents=True, exist_ok=True)
    same_servers: dict[str, LlamaServer] = {}
    same_counts: dict[str, int] = {}
    base_common = {
        "experiment": "speculative",
        "host_id": host.host_id,
        "toolchain_id": toolchain["toolchain_id"],
        "git_commit": git["git_commit"],
        "git_dirty": git["git_dirty"],
    }
    build_of = {"build_number": toolchain.get("build_number"), "build_commit": toolchain.get("build_commit")}

    def spec_of(c: Mapping) -> dict | None:
        if c["spec_type"] == "none":
            return None
        d = drafts[c["draft"]] if c.get("draft") else None
        return {
            "type": c["spec_type"],
            "draft_path": d["path"] if d else None,
            "n_max": c.get("n_max"),
            "n_min": params.n_min,
            "p_min": params.p_min,
        }

    @contextmanager
    def visit(sess: Session, runs: list[RequestRun]) -> Iterator[Measure]:
        """The server of one (repetition, configuration): started once (policy ``same``: reused while it
        lives), stopped after its last request (``same``: at the session's end)."""
        rep, cid = runs[0].rep, runs[0].config_id
        c = by_id[cid]
        argv = build_argv(
            server_bin,
            target["path"],
            threads=params.threads,
            ctx_size=params.ctx_size,
            spec=spec_of(c),
            extra=[*(c.get("extra_args") or []), *verbosity_args(params)],
        )
        policy = c.get("policy", "fresh")
        srv = same_servers.get(cid) if policy == "same" else None
        server = _Server(srv, argv) if srv is not None else None
        if server is None or not server.srv.alive():
            server = _Server(
                LlamaServer(
                    argv,
                    log_dir / f"{sess.session_id[:8]}-{cid}-r{rep}.log",
                    health_timeout_s=params.health_timeout_s,
                ),
                argv,
            )
            try:
                server.srv.start()
                if policy == "same":
                    same_servers[cid], same_counts[cid] = server.srv, 0
            except ServerError as e:
                server.start_err = e
        try:
            yield lambda sess, run: request(sess, run, server, policy)
        finally:
            if policy != "same":
                server.srv.stop()

    def request(sess: Session, run: RequestRun, server: _Server, policy: str) -> Outcome:
        """One ``/completion`` of the plan on ``server``: a ``benchbook.speculative_request`` record, or
        a ``benchbook.run_failed`` one (the server did not start, or the request failed)."""
        from benchbook.provenance import load_snapshot
        from benchbook.records import new_id, utc_now

        srv, cid, rep, p, d = server.srv, run.config_id, run.rep, run.prompt, run.draft
        index, server.asked = server.asked, server.asked + 1
        base = {
            **base_common,
            "session_id": sess.session_id,
            "run_id": new_id(),
            "run_key": run.key,
            "config": run.config,
            "argv": srv.argv or server.argv,
            "model_id": target["model_id"],
            "model_sha256": target["sha256"],
            "draft_model_id": d["model_id"] if d else None,
            "draft_model_sha256": d["sha256"] if d else None,
            "prompt_id": p["id"],
            "cap": p["cap"],
            "rep": rep,
            "policy": policy,
        }
        if server.start_err is None and not srv.alive():
            try:
                srv.start()
            except ServerError as e:
                server.start_err = e
        if server.start_err is not None:
            err = server.start_err
            sess.append(
                build(
                    "run_failed",
                    **base,
                    status="failed",
                    stage="server_start",
                    kind=err.kind,
                    error=str(err),
                    returncode=err.returncode,
                    log_tail=err.log_tail,
                    started_at=utc_now(),
                    ended_at=utc_now(),
                )
            )
            return Outcome(False, f"server start: {err.kind}: {err}", required=False)
        # at -lv 4 a server with a speculative type logs its counters after each request
        # (a baseline logs none: its records carry spec_stats null)
        trace = int(params.log_verbosity or 0) >= 4
        track_stats = trace and run.config["spec_type"] != "none"
        started, load_start = utc_now(), load_snapshot()
        req_index = same_counts.get(cid, 0) if policy == "same" else index
        try:
            text = srv.apply_template(p["messages"])
            body = completion_body(text, p["cap"])
            m_before_text = srv.request_text("GET", "/metrics", timeout=10)
            log_mark = srv.log_size()
            stats_before = spec_stats(srv.log_text()) if track_stats else None
            resp, peak = srv.completion(body, timeout=params.request_timeout_s)
            m_after_text = srv.request_text("GET", "/metrics", timeout=10)
            stats_after = await_stats(partial(srv.log_text, log_mark), stats_before) if track_stats else None
        except ServerError as e:
            sess.append(
                build(
                    "run_failed",
                    **base,
                    status="failed",
                    stage="request",
                    kind=e.kind,
                    error=str(e),
                    returncode=srv.proc.poll() if srv.proc else None,
                    log_tail=e.log_tail,
                    started_at=started,
                    ended_at=utc_now(),
                    server={"port": srv.port, "log": str(srv.log_path)},
                )
            )
            if e.kind == "request_timeout":
                srv.kill()  # a hung server must not serve the next request
            return Outcome(False, f"request: {e.kind}: {e}", required=False)
        ended, load_end = utc_now(), load_snapshot()
        mb, ma = parse_metrics(m_before_text), parse_metrics(m_after_text)
        delta = metrics_delta(mb, ma)
        tm = resp.get("timings", {})
        content = resp.get("content", "")
        rec = {
            **base,
            **build_of,
            "origin": "native",
            "status": "ok",
            "started_at": started,
            "ended_at": ended,
            "load_start": load_start,
            "load_end": load_end,
            "server": {
                "port": srv.port,
                "pid": srv.pid,
                "load_ms": srv.load_ms,
                "request_index": req_index,
                "log": str(srv.log_path),
                "ports_tried": srv.ports_tried,
            },
            "prompt_text_sha256": sha256_text(text),
            "request": body,
            "timings": tm,
            "stop_type": resp.get("stop_type"),
            "cap_hit": resp.get("stop_type") == "limit",
            "tokens": resp.get("tokens"),
            "content": content,
            "content_sha256": sha256_text(content),
            "tokens_predicted": resp.get("tokens_predicted"),
            "tokens_evaluated": resp.get("tokens_evaluated"),
            "truncated": resp.get("truncated"),
            "generation_settings": resp.get("generation_settings"),
            "metrics_before": mb,
            "metrics_after": ma,
            "metrics_delta": delta,
            "verify_steps": delta.get("spec_decode_num_drafts_total"),
            "peak_rss_bytes": peak,
            "server_peak_rss_bytes": srv.peak_rss_bytes,
            "peak_gpu_mem_mib": srv._sampler.peak_gpu_mem_mib if srv._sampler else None,
            "answer_expected": p.get("answer"),
            "answer_found": answer_found(content, p.get("answer_pattern")),
        }
        if trace:
            rec["spec_stats"] = stats_delta(stats_before, stats_after)
            if track_stats and stats_after is None:
                log(f"{cid} r{rep} {p['id']}: no statistics line in {srv.log_path}")
            fault = delta_fault(rec["spec_stats"], tm) if track_stats else None
            if fault:  # not this request's counters: none rather than another's
                rec["spec_stats"] = None
                log(f"{cid} r{rep} {p['id']}: spec_stats not recorded: {fault}")
        sess.append(build("speculative_request", **rec))
        if policy == "same":
            same_counts[cid] = same_counts.get(cid, 0) + 1
        tps = tm.get("predicted_per_second")
        log(
            f"{cid:>18} r{rep} {p['id']:>12}: {tm.get('predicted_n')} tok {tps:.1f} tok/s draft "
            f"{tm.get('draft_n_accepted', '-')}/{tm.get('draft_n', '-')} stop {resp.get('stop_type')}"
        )
        return OK

    def cost(sess: Session, run: ModelBenchRun) -> Outcome:
        assert bench_bin is not None  # the cost runs are left out of the plan without one
        timeout_s = params.request_timeout_s
        return run_model_bench(
            sess, run, bench_bin=Path(bench_bin), timeout_s=timeout_s, base=base_common, log=log
        )

    runs = plan(params, prompts, target, drafts, toolchain["toolchain_id"], host.host_id)
    if bench_bin is None:  # no llama-bench given: the cost model is left out of this session
        runs = [r for r in runs if not isinstance(r, ModelBenchRun)]
    try:
        return run_plan(
            experiment="speculative",
            raw_file=raw_file,
            meta=meta,
            runs=runs,
            measure_run=cost,
            groups=Groups(lambda r: (r.rep, r.config_id) if isinstance(r, RequestRun) else None, visit),
            cfg=params.config(),
            log=log,
        )
    finally:
        # the servers of policy `same` live for the whole session (also when an error that is not the
        # server's own ends it)
        for srv in same_servers.values():
            srv.stop()


@dataclass
class SpeculativeResult(SessionResult):
    """``SessionResult`` plus the prompt records run (``load_prompts``)."""

    prompts: list[dict] = field(default_factory=list)


def resolve_drafts(cfg: dict, target: dict, fetch_model) -> dict[str, dict]:
    """Model records for every draft key used by ``cfg['configs']``; checks each draft's vocabulary
    against the target before any run.

    ``fetch_model(model_id) -> record`` resolves registry ids (``resolve.get_models``).  Draft specs:
    ``{model: <registry id> | "target"}`` or ``{truncate_layers: L}`` (``draft_models.truncated_draft``).

    Raises:
        draft_models.DraftModelError: a draft's tokenizer differs from the target's.
    """
    from benchbook.llamacpp import draft_models as dm

    used = {c["draft"] for c in cfg["configs"] if c.get("draft")}
    out = {}
    for key in sorted(used):
        spec = cfg["drafts"][key]
        if "truncate_layers" in spec:
            r = dm.truncated_draft(target["path"], target["sha256"], int(spec["truncate_layers"]))
            rec = build(
                "model",
                model_id=r["model_id"],
                path=r["path"],
                sha256=r["sha256"],
                size_bytes=r["size_bytes"],
                origin=r["origin"],
            )
        elif spec.get("model") == "target":
            rec = {**target}
        elif spec.get("path"):
            from benchbook.llamacpp.fetch import sha256_file

            rec = build(
                "model",
                model_id=spec.get("id", Path(spec["path"]).stem),
                path=str(spec["path"]),
                sha256=sha256_file(Path(spec["path"])),
                size_bytes=Path(spec["path"]).stat().st_size,
                origin={"path": str(spec["path"])},
            )
        else:
            rec = fetch_model(spec["model"])
        dm.check_vocab(target["path"], rec["path"])
        out[key] = rec
    return out


def measure(
    params: dict, *, root: Path, raw_dir: Path, overrides: dict | None = None, log=print
) -> SpeculativeResult:
    """The stage ``speculative``: one session of the profile ``params["speculative"]["profile"]``.

    ``params``: the whole ``params.yaml`` mapping.  ``overrides`` are merged into the resolved profile
    (``SpeculativeParams.resolve``); its key ``profile`` picks another profile.  Resolves the build, the
    target and the drafts (vocabularies checked; nothing is built or fetched here), stores the snapshots
    under ``raw_dir/snapshots/`` and appends to ``raw_dir/speculative/<host_id>.jsonl`` (server logs
    under ``raw_dir/speculative/logs/``).  Returns ``run_session``'s result (``cfg``: the resolved
    profile) with ``prompts`` (the prompt records run).

    Raises:
        errors.ParamsError: unknown profile, draft key, model id or prompt id (the message lists the
            known ones), or the resolved profile does not fit ``SpeculativeParams`` (names the key).
        errors.ParamsError, llamacpp.toolchain.ToolchainError, llamacpp.models.ModelError: the build or
        a model is missing (the message names the fix).
    """
    root, raw_dir = Path(root), Path(root) / raw_dir
    section = Sourced.section(params, "speculative")
    cfg = SpeculativeParams.resolve(section, overrides=overrides, models=registry_ids(params))
    toolchain = resolve.get_toolchain(params, build=False)
    target = resolve.get_models(params, [cfg.target], toolchain)[0]
    drafts = resolve_drafts(cfg.config(), target, lambda mid: resolve.get_models(params, [mid], toolchain)[0])
    unique = list({d["sha256"]: d for d in drafts.values()}.values())
    host = resolve.store_snapshots(raw_dir / "snapshots", toolchain, [target] + unique)
    prompts = load_prompts(root / cfg.prompts_file, cfg.prompts, cfg.caps)
    raw_file = raw_dir / "speculative" / f"{host.host_id}.jsonl"
    tc = toolchain.record
    log(
        f"speculative: measuring {target['model_id']} with drafts {', '.join(sorted(drafts)) or 'none'}, "
        f"build b{tc.get('build_number', '?')} (toolchain {str(tc['toolchain_id'])[:8]}) -> "
        f"{raw_file.relative_to(root) if raw_file.is_relative_to(root) else raw_file}"
    )
    result = run_session(
        cfg=cfg,
        server_bin=toolchain.binary("llama-server"),
        bench_bin=toolchain.binary("llama-bench") if cfg.cost_model else None,
        target=target,
        drafts=drafts,
        prompts=prompts,
        toolchain=toolchain.record,
        host=host,
        root=root,
        raw_file=raw_file,
        log_dir=raw_dir / "speculative" / "logs",
        log=log,
    )
    return SpeculativeResult(**vars(result), prompts=prompts)


def sections(result: SpeculativeResult) -> Iterator[blocks.Block]:
    """What the measurement notebook shows (``notebooks/measure.ipynb -p experiment speculative``, through
    ``blocks.show``): the session's summary, one row per request of the session, then the checks
    (``AssertionError`` on a failed one): every planned request has a record (a failure fails here,
    after all configurations ran), with its cap, stop reason, token ids, full argv and ``/metrics``;
    greedy sampling and no prompt cache."""
    import polars as pl

    from benchbook.records import read_records

    cfg, prompts = result.cfg, result.prompts
    yield blocks.Value(
        {k: v for k, v in vars(result).items() if k not in ("failures", "cfg", "prompts")}
        | {"configs": [c["id"] for c in cfg["configs"]]}
    )
    raw_file = result.raw_file
    assert raw_file is not None, "the session names no raw file"
    recs = [r for r in read_records([raw_file], SCHEMA) if r["session_id"] == result.session_id]
    table = pl.DataFrame(
        [
            {
                "config_id": r["config"]["config_id"],
                "prompt_id": r["prompt_id"],
                "rep": r["rep"],
                "predicted_n": r["timings"]["predicted_n"],
                "decode_tps": r["timings"]["predicted_per_second"],
                "draft_n": r["timings"].get("draft_n"),
                "accepted": r["timings"].get("draft_n_accepted"),
                "verify_steps": r["verify_steps"],
                "stop_type": r["stop_type"],
                "cache_n": r["timings"]["cache_n"],
                "line": r["_line"],
            }
            for r in recs
        ]
    )
    yield blocks.Value(table)
    yield blocks.Markdown(
        "## Checks\nEvery planned request of this session has a record (or a recorded failure, which makes "
        "the stage fail here, after all configurations ran); every record carries the cap, the stop reason, "
        "token ids, the full argv and `/metrics` before and after; greedy sampling and no prompt cache were "
        "in effect."
    )
    planned = len(cfg["configs"]) * len(prompts) * int(cfg["repetitions"])
    assert result.failed == 0, result.failures
    assert table.height + result.skipped >= planned, (table.height, planned)
    for r in recs:
        assert r["tokens"] and r["stop_type"] in ("eos", "limit", "word"), r["run_id"]
        assert r["argv"][0].endswith("llama-server") and "--metrics" in r["argv"]
        request, settings = r["request"], r["generation_settings"]
        assert request["temperature"] == 0 and request["top_k"] == 1 and request["cache_prompt"] is False
        assert settings["repeat_penalty"] == 1.0 and settings["top_k"] == 1
        assert r["metrics_before"] and r["metrics_after"]
        assert r["timings"]["cache_n"] == 0, "prompt cache was used"
    yield blocks.Text(f"ok: {table.height} requests")
