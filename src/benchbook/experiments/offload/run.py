"""Offload sweep measurement: an MoE under a GPU memory budget, one point per ``-ncmoe``.

One session (``harness.run_plan`` of ``plan.plan``):

1. the model of ``cfg["model"]``: a ``models.registry`` id (``benchbook models add``: any MoE GGUF
   llama.cpp loads; its GGUF metadata must name routed experts), fetched as the other stages fetch
   theirs, or the synthetic MoE of a ``SynthSpec`` (``llamacpp.synth``; tokenizer from the default
   model), generated on this host or reused from the cache; its manifest goes to the model snapshot;
2. bytes read per decoded token of each model measured or quoted (``benchbook.offload.model_bytes``:
   the swept MoE at every sweep point and the ``roofline_models``), from the GGUF tensor sizes;
3. device-to-device copy bandwidth (``benchbook.offload.bandwidth``), before the ballast exists;
4. the ballast (``llamacpp.cudamem.Ballast``) leaves ``ballast.free_mib`` MiB free (an emulated
   smaller card; null: it holds nothing and the GPU's own free memory is the budget); with it held,
   one llama-bench invocation per ``n_cpu_moe`` value (pp and tg, ``-r repetitions`` after
   llama-bench's warmup, ``-ngl n_gpu_layers``), each row a ``benchbook.llama_bench`` record with the
   point's placement, bytes per token, the ballast state, GPU memory used just before and the peak
   during the run; every point records its budget (``budget_free_mib``: the MiB the ballast left
   free, measured when it held nothing) and the ballast's state.  A point that fails (out of memory,
   crash, timeout) is a ``benchbook.run_failed`` record with the same fields and a ``reason``; the
   sweep goes on.

Every record carries ``synthetic_inputs: true`` where it measured the synthetic model.
"""

from __future__ import annotations

import dataclasses
import re
import shlex
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path

from benchbook import blocks, resolve
from benchbook.llamacpp import cudamem, synth, weights
from benchbook.llamacpp.bench import append_result, build_argv
from benchbook.llamacpp.procmon import _gpu_used_mib as gpu_used_mib  # the sampler's own reading
from benchbook.llamacpp.procmon import run_sampled
from benchbook.provenance import git_state, load_snapshot
from benchbook.records import new_id, utc_now
from benchbook.schemas import build
from benchbook.session import SessionResult

from .. import profiles
from ..contract import ParamsError, registry_ids
from ..harness import OK, Groups, Measure, Outcome, run_plan
from . import BANDWIDTH_KIND, EXPERIMENT, MODEL_BYTES_KIND
from .plan import BandwidthRun, BytesRun, OffloadParams, SweepRun, plan

#: stderr patterns that mean the point did not fit in device memory (llama.cpp b11434 CUDA backend).
OOM_PATTERNS = (
    r"(?i)out of memory|cudaMalloc failed|failed to allocate|unable to allocate|ErrorOutOfDeviceMemory"
)


def failure_reason(returncode: int, timed_out: bool, stderr: str) -> str:
    """One phrase for a failed point: ``out of memory: <line>``, ``timeout``, or ``exit <code>: <line>``
    (the last stderr line that names the error)."""
    if timed_out:
        return "timeout"
    lines = [ln.strip() for ln in stderr.splitlines() if ln.strip()]
    oom = [ln for ln in lines if re.search(OOM_PATTERNS, ln)]
    if oom:
        return f"out of memory: {oom[-1][:200]}"
    err = [ln for ln in lines if re.search(r"(?i)error|failed|abort", ln)]
    return f"exit {returncode}: {(err or lines or [''])[-1][:200]}"


def sweep_argv(bench_bin: Path, model_path: Path, cfg: dict, n_cpu_moe: int) -> list[str]:
    """llama-bench argv of one sweep point: ``bench.build_argv`` (warm) plus ``-ncmoe n_cpu_moe``."""
    return build_argv(bench_bin, model_path, cfg, "warm") + ["-ncmoe", str(int(n_cpu_moe))]


def synth_spec(cfg: dict) -> synth.SynthSpec:
    """The ``SynthSpec`` of ``cfg["model"]`` (unknown keys: ``synth.SynthError`` naming them)."""
    fields = set(synth.SynthSpec.__dataclass_fields__)
    bad = sorted(set(cfg["model"]) - fields)
    if bad:
        raise synth.SynthError(f"offload.model has unknown key(s) {bad}; allowed: {sorted(fields)}")
    return synth.SynthSpec(**cfg["model"])


def _bytes_record(m: Mapping, lay: weights.Layout, n_cpu_moe: int | None) -> dict:
    db = weights.decode_bytes(lay, n_cpu_moe or 0)
    return {
        "model_id": m["model_id"],
        "model_sha256": m["sha256"],
        "n_layer": lay.n_layer,
        "n_expert": lay.n_expert,
        "n_expert_used": lay.n_expert_used,
        "n_cpu_moe": n_cpu_moe,
        "decode_bytes": asdict(db),
        "file_bytes": sum(t.n_bytes for t in lay.tensors),
    }


@dataclass
class OffloadResult(SessionResult):
    """``SessionResult`` plus the ballast's state (``cudamem.BallastState`` as a dict, ``{"error": ...}``
    when it failed; None when no point was left to measure), the bandwidth measured now (None: done
    before) and the synthetic model's manifest (``model``, set by ``measure``)."""

    ballast: dict | None = None
    bandwidth: dict | None = None
    model: dict | None = None


def run_session(
    *,
    cfg: dict,
    bench_bin: Path,
    model: dict,
    others: list[dict],
    toolchain: dict,
    host: dict,
    root: Path,
    raw_file: Path,
    picked: profiles.Picked,
    log=print,
) -> OffloadResult:
    """Measure the sweep of ``cfg`` on ``model`` (a model record; ``synthetic_inputs`` true for the
    synthetic MoE) in one session, through
    ``harness.run_plan``: the bytes per token and the bandwidth (``measure_run``), then every sweep point
    with the ballast held once for all of them (a group).

    ``others``: model records (``models.fetch``) whose bytes per token are recorded for the roofline.
    A point that fails (out of memory, crash, timeout, no budget) is a ``benchbook.run_failed`` record
    and a failure the sweep publishes (not measured again).  Returns the ``OffloadResult``.
    """
    git = {k: v for k, v in git_state(root).items() if k in ("git_commit", "git_dirty")}
    common = {
        "experiment": EXPERIMENT,
        "host_id": host["host_id"],
        "toolchain_id": toolchain["toolchain_id"],
        "profile": picked.name,
        "profile_reason": picked.reason,
        **git,
    }
    lay = weights.layout(model["path"])
    synthetic = bool(model.get("synthetic_inputs"))
    meta = {"host_id": host["host_id"], "toolchain_id": toolchain["toolchain_id"], "config": cfg}
    measured: dict = {"ballast": None, "bandwidth": None}

    def bytes_or_bandwidth(sess, run: BytesRun | BandwidthRun) -> Outcome:
        if isinstance(run, BytesRun):
            mlay = lay if run.synthetic else weights.layout(run.model["path"])
            sess.append(
                build(
                    MODEL_BYTES_KIND.key,
                    **common,
                    run_id=new_id(),
                    run_key=run.key,
                    session_id=sess.session_id,
                    status="ok",
                    synthetic_inputs=run.synthetic and synthetic,
                    **_bytes_record(run.model, mlay, run.n_cpu_moe),
                )
            )
            return OK
        started = utc_now()
        bw = measured["bandwidth"] = cudamem.measure_bandwidth(
            cfg["bandwidth"]["mib"], cfg["bandwidth"]["iters"], cfg["ballast"].get("fake_total_mib")
        )
        sess.append(
            build(
                BANDWIDTH_KIND.key,
                **common,
                run_id=new_id(),
                run_key=run.key,
                session_id=sess.session_id,
                config=run.config,
                status="failed" if "error" in bw else "ok",
                **bw,
                started_at=started,
                ended_at=utc_now(),
            )
        )
        log(f"bandwidth: {bw}")
        return Outcome(False, str(bw["error"]), required=False) if "error" in bw else OK

    @contextmanager
    def ballast_held(_sess, _points: list[SweepRun]) -> Iterator[Measure]:
        """The ballast (``cudamem.Ballast``) held while the sweep's points run."""
        with cudamem.Ballast(cfg["ballast"]["free_mib"], cfg["ballast"].get("fake_total_mib")) as ballast:
            log(f"ballast: {ballast.state}")
            measured["ballast"] = ballast.state
            yield lambda sess, point: sweep_point(sess, point, ballast.state)

    def sweep_point(sess, point: SweepRun, ballast: dict) -> Outcome:
        n = point.n_cpu_moe
        argv = sweep_argv(bench_bin, Path(model["path"]), cfg, n)
        base = {
            **common,
            "run_id": new_id(),
            "run_key": point.key,
            "session_id": sess.session_id,
            "config": point.config,
            "phase": "warm",
            "argv": [Path(argv[0]).name] + argv[1:],
            "model_id": model["model_id"],
            "model_sha256": model["sha256"],
            "synthetic_inputs": synthetic,
            "n_cpu_moe": n,
            "placement": weights.placement(lay, n).as_record(),
            "decode_bytes": asdict(weights.decode_bytes(lay, n)),
            "ballast": ballast,
            "budget_free_mib": budget_mib(cfg, ballast),
        }
        if "error" in ballast:
            reason = f"no memory budget: {ballast['error'][:300]}"
            sess.append(
                build("run_failed", **base, status="failed", reason=reason, error=reason, returncode=None)
            )
            return Outcome(False, reason, required=False)
        log(f"$ {shlex.join(base['argv'])}")
        before, load_start, started = gpu_used_mib(), load_snapshot(), utc_now()
        res = run_sampled(argv, cfg["timeout_s"])
        base.update(
            started_at=started,
            ended_at=utc_now(),
            load_start=load_start,
            load_end=load_snapshot(),
            gpu_used_before_mib=before,
            peak_gpu_mem_mib=res.peak_gpu_mem_mib,
            peak_rss_bytes=res.peak_rss_bytes,
            wall_ns=res.wall_ns,
        )
        if res.returncode != 0 or res.timed_out:
            reason = failure_reason(res.returncode, res.timed_out, res.stderr)
            sess.append(
                build(
                    "run_failed",
                    **base,
                    status="failed",
                    reason=reason,
                    error=f"exit {res.returncode}",
                    returncode=res.returncode,
                    stderr_tail=res.stderr[-4000:],
                )
            )
            return Outcome(False, reason, required=False)
        if append_result(sess, base, res, f"llama-bench stdout (n_cpu_moe {n})"):
            return OK
        return Outcome(False, f"n_cpu_moe {n}: llama-bench output not read", required=False)

    result = run_plan(
        experiment=EXPERIMENT,
        raw_file=raw_file,
        meta=meta,
        runs=plan(cfg, model, others, toolchain["toolchain_id"], host["host_id"]),
        measure_run=bytes_or_bandwidth,
        groups=Groups(lambda run: "ballast" if isinstance(run, SweepRun) else None, ballast_held),
        cfg=cfg,
        log=log,
    )
    return OffloadResult(**vars(result), ballast=measured["ballast"], bandwidth=measured["bandwidth"])


def budget_mib(cfg: Mapping, ballast: Mapping) -> int | None:
    """The memory budget of a sweep point (MiB): ``ballast.free_mib`` (an emulated smaller card), or
    where it is null the GPU's own free memory the ballast found and held none of (``free_after_mib``
    of its state; None when the ballast failed)."""
    free = cfg["ballast"]["free_mib"]
    return free if free is not None else ballast.get("free_after_mib")


def moe_model(rec: Mapping) -> None:
    """A registered ``offload.model`` is an MoE: its GGUF metadata (``ggufmeta.read_kv``) names routed
    experts (``<architecture>.expert_count`` > 0).

    Raises:
        errors.ParamsError: a dense model (names the id, what its metadata says and the fix)."""
    from benchbook.llamacpp import ggufmeta

    arch = ggufmeta.read_kv(rec["path"], {"general.architecture"}).get("general.architecture")
    experts = ggufmeta.read_kv(rec["path"], {f"{arch}.expert_count"}).get(f"{arch}.expert_count") or 0
    if experts <= 0:
        raise ParamsError(
            f"params.yaml `offload.model`: {rec['model_id']!r} is not a mixture-of-experts model (its GGUF "
            f"metadata: architecture {arch}, no {arch}.expert_count); fix: name a registered MoE GGUF "
            "(`benchbook models add PATH`), or a synthetic MoE's keys (arch: qwen3moe, ...)"
        )


def check_model(model: Mapping | str) -> None:
    """``offload.model`` (``OffloadParams.model``: ``SynthSpec`` fields) passes ``SynthSpec.check`` (what
    llama.cpp would reject: head counts, expert counts, Q8_0 widths), before any build or model is
    resolved.  Here, not in ``plan``: the report stage reads the plan and imports no measurement code.

    Raises:
        errors.ParamsError: names the keys and the fix."""
    if isinstance(model, str):  # a registry id: ``moe_model`` checks its file once it is fetched
        return
    fields = {k: v for k, v in model.items() if k in synth.SynthSpec.__dataclass_fields__}
    try:
        synth.SynthSpec(**fields).check()
    except synth.SynthError as e:
        raise ParamsError(
            f"params.yaml `offload.model`: {e}; fix: change the `model` keys it names (llama.cpp would not "
            "load the file)"
        ) from None


def measure(
    params: dict, *, root: Path, raw_dir: Path, overrides: dict | None = None, log=print
) -> OffloadResult:
    """One offload session with this host's profile (``experiments.profiles``) + ``overrides``.

    Writes ``raw_dir/offload/<host_id>.jsonl`` and snapshots under ``raw_dir/snapshots/``; a
    synthetic model is written to the cache (``<cache>/models/synth-<key>.gguf``).  Returns
    ``run_session``'s result with ``model`` (the synthetic model's manifest, or the registered
    model's record without its path).

    Raises:
        errors.ParamsError: the section does not fit ``OffloadParams`` (names the key and the fix).
        errors.ParamsError, llamacpp.toolchain.ToolchainError, llamacpp.models.ModelError: no build or
        default model (the message names the fix); synth.SynthError: a bad ``model`` spec;
        errors.ParamsError: a registered ``model`` that is no MoE (``moe_model``).
    """
    root, raw_dir = Path(root), Path(root) / raw_dir
    picked = profiles.pick(params)
    section = profiles.section(params, EXPERIMENT, picked)
    cfg = OffloadParams.from_section(section, overrides, models=registry_ids(params)).config()
    check_model(cfg["model"])
    toolchain = resolve.get_toolchain(params, build=False)
    default_id = params["models"]["default"]
    ids = list(dict.fromkeys([default_id, *cfg["roofline_models"]]))
    fetched = resolve.get_models(params, ids, toolchain, log=log)
    if isinstance(cfg["model"], str):  # a registered MoE
        model = {
            **resolve.get_models(params, [cfg["model"]], toolchain, log=log)[0],
            "synthetic_inputs": False,
        }
        moe_model(model)
        rec = {k: v for k, v in model.items() if k != "path"}
        size_bytes = Path(model["path"]).stat().st_size
    else:
        tok = fetched[0]
        made = synth.write(synth_spec(cfg), tok["path"], tokenizer_sha256=tok["sha256"], log=log)
        rec = made.record()
        size_bytes = made.size_bytes
        model = build(
            "model",
            model_id=rec["model_id"],
            path=str(made.path),
            sha256=made.sha256,
            size_bytes=made.size_bytes,
            synthetic_inputs=True,
            origin={k: v for k, v in rec.items() if k not in ("schema", "path")},
        )
    host = resolve.store_snapshots(raw_dir / "snapshots", toolchain, [model, *fetched]).record()
    raw_file = raw_dir / EXPERIMENT / f"{host['host_id']}.jsonl"
    log(
        f"{toolchain.record['toolchain_id']} {model['model_id']} ({size_bytes / 2**30:.2f} GiB) "
        f"profile {picked.name} -> {raw_file}"
    )
    result = run_session(
        cfg=cfg,
        bench_bin=toolchain.binary("llama-bench"),
        model=model,
        others=fetched,
        toolchain=toolchain.record,
        host=host,
        root=root,
        raw_file=raw_file,
        picked=picked,
        log=log,
    )
    return dataclasses.replace(result, model=rec)


def sections(result: OffloadResult) -> Iterator[blocks.Block]:
    """What the measurement notebook shows (``notebooks/measure.ipynb -p experiment offload``, through
    ``blocks.show``): the session's summary, then the checks (``AssertionError`` on a failed one): every
    ``n_cpu_moe`` point has a record (measured or failed), every measured one marked synthetic exactly
    when the swept model is the synthetic MoE."""
    from benchbook.records import read_records

    from . import SCHEMA

    yield blocks.Value({k: getattr(result, k) for k in ("session_id", "ran", "skipped", "failed")})
    assert result.raw_file is not None, "the session names no raw file"
    recs = [r for r in read_records([result.raw_file]) if r.get("session_id") == result.session_id]
    points = {r["n_cpu_moe"] for r in recs if r.get("schema") in (SCHEMA, "benchbook.run_failed")}
    assert points == set(result.cfg["n_cpu_moe"]), points
    synthetic = not isinstance(result.cfg["model"], str)
    assert all(r.get("synthetic_inputs") is synthetic for r in recs if r.get("schema") == SCHEMA)
    yield blocks.Text(f"ok: {len(points)} points")
