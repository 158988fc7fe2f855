"""Measurement harness: AR baseline and draft-self variants, interleaved, one session per call.

One session = one invocation (``measure``), through the shared harness (``harness.run_plan``: start
and end records in ``raw_dir/<host_id>.jsonl``; an interrupted session is resumed when its meta —
params, checkpoint, host, runtime — is the same, and completed runs are skipped by ``run_key``), the
host snapshot in the shared store (``raw_dir/../snapshots``), records built by ``schemas.build``.

For each repetition, for each prompt, every configuration runs once in an order shuffled by (seed,
rep, prompt) so that slow drifts of the host hit all configurations alike.  Repetition 0 is a
warm-up (not written).  Every run writes a run record (``benchbook.draftself.run``, with the host's
load before and after it and its compact pass list ``[kind, n_tokens, wall_ns]`` for the cost
model) to ``raw_dir/<host_id>.jsonl``; the decoders are deterministic, so per-step records
(``benchbook.draftself.step``) are written for the first timed repetitions only (``step_reps``), to
``raw_dir/<host_id>.steps.jsonl``.  The runtime (torch and Python versions) is the draft-self build:
``toolchain_id`` and ``runtime`` travel with every record.

Committed sessions from before the shared session (``runs.jsonl``, ``steps.jsonl``,
``sessions.jsonl``, ``hosts.jsonl``) stay as they are; the analysis reads both layouts.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import torch

from benchbook import blocks, provenance
from benchbook.draftself import data, decode, experts, store
from benchbook.draftself.model import load
from benchbook.records import RecordWriter, new_id, stable_hash, utc_now
from benchbook.schemas import build
from benchbook.session import Session, SessionResult

from ..harness import OK, Groups, Measure, Outcome, run_plan, store_host
from .plan import (  # noqa: F401 (DEFAULTS, config_name, configs: re-exported)
    DEFAULTS,
    DecodeRun,
    DraftselfParams,
    config_name,
    configs,
    plan,
)

EXPERIMENT = "draftself"
#: The checkpoint manifest (written by the stage ``draftself_train``), relative to the repository root.
MANIFEST = "data/draftself/checkpoint.json"


def run_one(model, prompt: list[int], n: int, c: Mapping) -> decode.Result:
    """Run configuration ``c`` (a dict from ``configs``) on one prompt."""
    if c["decoder"] == "ar":
        return decode.generate_ar(model, prompt, n)
    cs = (c["coreset_mass"], c["coreset_min"]) if "coreset_mass" in c else None
    return decode.generate_draftself(
        model,
        prompt,
        n,
        c["k"],
        verify_mode=c["verify"],
        threshold=c.get("threshold") if c["draft"] == "iterative" else None,
        coreset=cs,
        coreset_apply=c.get("coreset_apply", "draft"),
    )


def summarize(res: decode.Result, c: Mapping, E: int | None, K: int | None) -> dict:
    """Per-run figures: τ, α estimates, tokens per forward pass, passes by kind, expert loads."""
    steps = [s for s in res.steps if s["kind"] == "draftself"]
    after_prefill = [p for p in res.passes if p.kind != "prefill"]
    by_kind: dict[str, int] = {}
    for p in res.passes:
        by_kind[p.kind] = by_kind.get(p.kind, 0) + 1
    out = {
        "n_tokens": len(res.tokens),
        "forward_passes": len(res.passes),
        "passes_by_kind": by_kind,
        "tokens_per_pass": round((len(res.tokens) - 1) / max(1, len(after_prefill)), 6),
        "decode_wall_ns": res.decode_wall_ns,
        "decode_tps": round((len(res.tokens) - 1) / (res.decode_wall_ns / 1e9), 4)
        if res.decode_wall_ns
        else None,
    }
    if steps:
        acc = [s["accepted"] for s in steps]
        k = c["k"]
        out.update(
            {
                "verify_steps": len(steps),
                # tokens committed per verify step: the last step's tokens past the cap n are cut
                "tau": round(sum(len(s["committed"]) for s in steps) / len(acc), 6),
                "accepted_total": sum(acc),
                "drafted_total": k * len(acc),
                "rejections": sum(a < k for a in acc),
                "alpha_accept_rate": round(sum(acc) / (k * len(acc)), 6),  # accepted ÷ drafted
                # MLE of a per-token acceptance probability under independent acceptance (geometric,
                # truncated at k): every step has `a` successes and one failure unless a == k.
                "alpha_mle": round(sum(acc) / max(1, sum(acc) + sum(a < k for a in acc)), 6),
            }
        )
    if E and K:  # a MoE model (a dense one has neither)
        loads = experts.expert_loads([p.__dict__ for p in after_prefill])
        out["expert_loads"] = loads
        out["expert_loads_per_token"] = round(loads / max(1, len(res.tokens) - 1), 4)
        per_pass: dict[tuple[str, int], list[float]] = {}
        for rec in after_prefill:
            if rec.experts:  # the passes expert_loads counts
                per_pass.setdefault((rec.kind, rec.n_tokens), []).append(
                    sum(len(e) for e in rec.experts) / len(rec.experts)
                )
        out["unique_experts_per_layer_by_pass"] = [
            {
                "kind": kd,
                "n_tokens": nt,
                "mean": round(sum(v) / len(v), 4),
                "passes": len(v),
                "bound": round(experts.independent_bound(E, K, nt), 4),
            }
            for (kd, nt), v in sorted(per_pass.items())
        ]
    return out


def _sha(tokens) -> str:
    return hashlib.sha256(json.dumps(tokens).encode()).hexdigest()


def output_fields(res: decode.Result, text: str, ar_tokens: list[int], summary: dict) -> dict:
    """The ``draftself_run`` fields of one run's output, in the record's order: ``output_text``
    (``text``, the decoded tokens), ``output_sha256``, ``equals_ar`` (the tokens equal ``ar_tokens``, AR
    greedy's on the prompt), ``stop_type`` (``length``: every run generates its n tokens), the
    ``summary`` (``summarize``'s figures) and ``passes`` (``[kind, n_tokens, wall_ns]`` per pass)."""
    return {
        "output_text": text,
        "output_sha256": _sha(res.tokens),
        "equals_ar": res.tokens == ar_tokens,
        "stop_type": "length",
        **summary,
        "passes": [[q.kind, q.n_tokens, q.wall_ns] for q in res.passes],
    }


def record_head(host_id: str, model_sha256: str, git: dict, toolchain_id: str, runtime_text: str) -> dict:
    """The fields every run and step record of a draft-self session starts with: ``experiment``
    (``draftself``, the GPU runner's records too), ``host_id``, ``model_sha256`` (the checkpoint's),
    ``git_commit``/``git_dirty`` (``git``: ``provenance.git_state``), ``toolchain_id`` and ``runtime``
    (``runtime()``)."""
    return {
        "experiment": EXPERIMENT,
        "host_id": host_id,
        "model_sha256": model_sha256,
        "git_commit": git["git_commit"],
        "git_dirty": git["git_dirty"],
        "toolchain_id": toolchain_id,
        "runtime": runtime_text,
    }


def runtime() -> tuple[str, str]:
    """``(toolchain_id, runtime)`` of this process: the draft-self decoder's build is its runtime,
    16 hex over the torch and Python versions, and the same in words."""
    facts = {"torch": torch.__version__, "python": platform.python_version()}
    return stable_hash(facts), f"torch {facts['torch']}, Python {facts['python']}"


@dataclass
class DraftselfResult(SessionResult):
    """``SessionResult`` plus where the per-step records went."""

    steps_file: Path | None = None


def measure_session(
    params: dict, checkpoint: str | Path, raw_dir: str | Path, root: str | Path = ".", log=print
) -> DraftselfResult:
    """One measurement session (module doc): appends to ``raw_dir/<host_id>.jsonl`` and
    ``raw_dir/<host_id>.steps.jsonl``, stores the host snapshot in ``raw_dir/../snapshots``, and keeps
    ``checkpoint`` in ``root``'s artifact store (``draftself.store.keep``: the start record's
    ``checkpoint`` is that repository-relative path).

    Raises:
        schemas.SchemaError: a record does not match its declaration (names the field and the fix).
    """
    p = DraftselfParams.from_section(params).config()
    torch.set_num_threads(int(p["threads"]))
    torch.manual_seed(p["seed"])
    raw = Path(raw_dir)
    raw.mkdir(parents=True, exist_ok=True)
    dtype = {"float32": torch.float32, "float64": torch.float64}[p["dtype"]]
    model, meta = load(checkpoint, dtype)
    cfg = model.cfg
    E, K = (None, None) if cfg.dense else (cfg.n_experts, cfg.top_k)
    model_sha = hashlib.sha256(Path(checkpoint).read_bytes()).hexdigest()
    kept = store.keep(checkpoint, root, model_sha, {"experiment": EXPERIMENT, "model_config": cfg.to_dict()})
    host_id = store_host(raw.parent / "snapshots").host_id
    toolchain_id, runtime_text = runtime()
    git = provenance.git_state(root)
    tok = data.Tokenizer()
    prompts = [
        q
        for q in data.prompts(p["prompt_seed"], p["prompts_per_kind"])
        if not p["prompt_kinds"] or q["kind"] in p["prompt_kinds"]
    ]
    head_common = record_head(host_id, model_sha, git, toolchain_id, runtime_text)
    session_meta = {
        "host_id": host_id,
        "toolchain_id": toolchain_id,
        "runtime": runtime_text,
        "model_sha256": model_sha,
        "config": p,
        "model_config": cfg.to_dict(),
        "checkpoint": kept,  # in the artifact store (draftself.store), for `benchbook artifacts add`
        "threads": torch.get_num_threads(),
    }
    ar_ref = {
        pr["prompt_id"]: decode.generate_ar(model, tok.encode(pr["text"]), p["n_tokens"]).tokens
        for pr in prompts
    }
    raw_file, steps_file = raw / f"{host_id}.jsonl", raw / f"{host_id}.steps.jsonl"

    @contextmanager
    def prompt_encoded(_sess: Session, runs: list[DecodeRun]) -> Iterator[Measure]:
        """The decodes of one (repetition, prompt): the prompt encoded once."""
        ids = tok.encode(runs[0].prompt["text"])
        yield lambda sess, run: decode_run(sess, run, ids)

    def decode_run(sess: Session, run: DecodeRun, ids: list[int]) -> Outcome:
        """One decode: a ``draftself_run`` record (a warm-up: decoded, nothing written), its per-step
        records first for the repetitions up to ``step_reps``."""
        c, pr, rep = run.c, run.prompt, run.rep
        load_start = None if run.warmup else provenance.load_snapshot()
        started = utc_now()
        res = run_one(model, ids, p["n_tokens"], c)
        ended = utc_now()
        if run.warmup:
            return OK
        load_end = provenance.load_snapshot()
        head = {
            **head_common,
            "session_id": sess.session_id,
            "run_id": new_id(),
            "run_key": run.key,
            "config": run.config,
            "rep": rep,
            "started_at": started,
            "ended_at": ended,
        }
        summ = summarize(res, c, E, K)
        if rep <= p["step_reps"]:  # before the run record: a resumed session redoes a run whose steps
            for st in res.steps:  # were written but whose run record was not
                st = dict(st)
                st["unique_experts"] = experts.step_experts(st["passes"]) if E else None
                steps_w.append(build("draftself_step", **head, **st))
        sess.append(
            build(
                "draftself_run",
                **head,
                load_start=load_start,
                load_end=load_end,
                config_name=c["name"],
                prompt_id=pr["prompt_id"],
                prompt_kind=pr["kind"],
                predictable=pr["predictable"],
                prompt_tokens=len(ids),
                n_experts=E,
                top_k=K,
                n_layers=cfg.n_layers,
                **output_fields(res, tok.decode(res.tokens), ar_ref[pr["prompt_id"]], summ),
            )
        )
        return OK

    with RecordWriter(steps_file) as steps_w:
        result = run_plan(
            experiment=EXPERIMENT,
            raw_file=raw_file,
            meta=session_meta,
            runs=plan(p, prompts, model_sha, host_id),
            groups=Groups(lambda run: (run.rep, run.prompt["prompt_id"]), prompt_encoded),
            cfg=p,
            log=log,
        )
    return DraftselfResult(**vars(result), steps_file=steps_file)


def resolve_checkpoint(manifest_path: str | Path, log=print) -> tuple[Path, dict]:
    """The checkpoint a manifest names: its file in this machine's cache
    (``paths.cache_dir()/draftself/<key>.pt``, so ``BENCHBOOK_CACHE`` is honoured), or the manifest's own
    ``path`` (where the machine that trained it kept it), when present with the recorded sha256, else
    the one a measurement kept (``draftself.store``: ``<root>/data/artifacts/checkpoints/<sha256>.pt``),
    else the copy ``dvc pull`` brought (``<root>/data/artifacts/draftself/<key>.pt``, same sha256), else
    trained again from the manifest's train config (another machine, or a cleared cache).

    Returns (path, manifest).  A retrained file whose sha256 differs (floating-point results can
    differ across CPUs) is used and reported; every record carries the sha256 actually used.
    """
    from benchbook.draftself.train import PULLED_DIR, TrainConfig, ensure_checkpoint, file_sha256
    from benchbook.paths import cache_dir

    man = json.loads(Path(manifest_path).read_text())
    # this machine's cache first (BENCHBOOK_CACHE), then where the manifest says it was written
    path = cache_dir() / "draftself" / f"{man['key']}.pt" if "key" in man else Path(man["path"])
    for candidate in dict.fromkeys([path, Path(man["path"])]):
        if candidate.exists() and file_sha256(candidate) == man["sha256"]:
            return candidate, man
    root = Path(manifest_path).resolve().parents[2]
    kept = store.find(root, man["sha256"])
    if kept is not None:
        log(f"checkpoint {man['sha256'][:16]}: the manifest's, from the artifact store ({kept})")
        return kept, man
    pulled = root / PULLED_DIR / f"{man['key']}.pt"
    if pulled.exists() and file_sha256(pulled) == man["sha256"]:
        log(f"checkpoint {man['key']}: the manifest's, pulled from the DVC remote ({pulled})")
        return pulled, man
    log(
        f"checkpoint {path} missing or changed; from the cache or trained from {manifest_path}'s train_config"
    )
    path, _, trained = ensure_checkpoint(TrainConfig(**man["train_config"]), log=log)
    sha = file_sha256(path)
    pair = f"{sha}:{man['sha256']}"
    if sha != man["sha256"] and (sha, man["sha256"]) not in _WARNED and os.environ.get(WARNED_ENV) != pair:
        # once a run: the stage and the prefetch before it ask, the stage in a process (a notebook's
        # kernel under ``dvc repro``) that inherits the run's environment
        _WARNED.add((sha, man["sha256"]))
        os.environ[WARNED_ENV] = pair
        how = "retrained now" if trained else "from this host's cache, trained here earlier"
        log(
            f"warning: the checkpoint ({how}) has sha256 {sha[:16]}, not the manifest's "
            f"{man['sha256'][:16]} (floating-point training results differ across CPUs and torch "
            "builds); this host measures with its own checkpoint and every record names it "
            "(model_sha256), so its draft-self numbers compare with other hosts' as models of the "
            "same recipe, not the same weights"
        )
    return path, man


#: (sha256 used, the manifest's) pairs already warned of in this process (``resolve_checkpoint``)
_WARNED: set[tuple[str, str]] = set()
#: the environment variable naming the pair "sha256 used:the manifest's" warned of by a parent
#: process (``benchbook run``'s prefetch): its stages' processes do not warn again (a new user saw the
#: warning twice in one run's log)
WARNED_ENV = "BENCHBOOK_CHECKPOINT_WARNED"


def measure(
    params: dict, *, root: Path, raw_dir: Path, overrides: dict | None = None, log=print
) -> DraftselfResult:
    """The stage ``draftself``: one session with ``params["draftself"]["measure"]`` over its defaults
    (``DraftselfParams``)
    (+ ``overrides``), using the checkpoint that ``root/data/draftself/checkpoint.json`` names
    (retrained when the cache lacks it, see ``resolve_checkpoint``).  Appends to
    ``raw_dir/draftself/<host_id>.jsonl`` (an interrupted session with the same meta is completed);
    ``cfg`` of the result is the merged parameters."""
    root = Path(root)
    merged = DraftselfParams.from_params(params, overrides).config()
    checkpoint, _ = resolve_checkpoint(root / MANIFEST, log=log)
    return measure_session(merged, checkpoint, root / raw_dir / "draftself", root=root, log=log)


def sections(result: DraftselfResult) -> Iterator[blocks.Block]:
    """What the measurement notebook shows (``notebooks/measure.ipynb -p experiment draftself``, through
    ``blocks.show``): the session's summary, τ, tokens per pass and decode rate per configuration, then
    the checks (``AssertionError`` on a failed one): every planned run recorded, τ for every draft-self
    run, a decode rate for every run, and every lossless variant's output equal to AR greedy."""
    import polars as pl

    from benchbook.records import read_records

    params = result.cfg
    yield blocks.Value({k: v for k, v in vars(result).items() if k != "cfg"})
    fields = ("config_name", "prompt_id", "rep", "tau", "tokens_per_pass", "decode_tps", "equals_ar")
    raw_file = result.raw_file
    assert raw_file is not None, "the session names no raw file"
    runs = pl.DataFrame(
        [
            {k: r.get(k) for k in fields}
            for r in read_records([raw_file], "benchbook.draftself.run")
            if r["session_id"] == result.session_id
        ]
    )
    yield blocks.Value(
        runs.group_by("config_name")
        .agg(
            pl.col("tau").mean(),
            pl.col("tokens_per_pass").mean(),
            pl.col("decode_tps").mean(),
            pl.col("equals_ar").all(),
        )
        .sort("config_name")
    )
    # checks on this session's output
    kinds = params["prompt_kinds"]
    prompts = data.prompts(params["prompt_seed"], params["prompts_per_kind"])
    n_prompts = len([q for q in prompts if not kinds or q["kind"] in kinds])
    expected = len(configs(params)) * n_prompts * params["repetitions"]
    assert runs.height == expected, (runs.height, expected)  # a resumed session holds its earlier runs too
    assert set(runs.columns) >= {"config_name", "tau", "equals_ar"}
    assert runs.filter(pl.col("config_name") != "ar")["tau"].null_count() == 0
    assert runs["decode_tps"].null_count() == 0 and not runs["decode_tps"].is_nan().any()
    lossless = runs.filter(~pl.col("config_name").str.ends_with("-both"))
    assert lossless["equals_ar"].all(), "a lossless variant differs from AR greedy"
