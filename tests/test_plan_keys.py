"""The resume gate of issue 26 (item 1): every committed session's run keys are what its experiment's
``plan`` computes from the session's start record, so a resumed session skips exactly what it did and
``benchbook run`` on a committed host measures nothing again.

For each session under ``data/raw/<folder>/`` (git HEAD, ``committed_root``): the start record's meta
(``config``, ``host_id``, ``toolchain_id``, ``model_sha256``) goes into the experiment's ``plan`` with the
model sha256 its config names (looked up by model id in the committed snapshot store, which holds one
file per id); the keys of the session's completed records (``session.completes``: the rule
``Session.open`` resumes by) must all be planned, and a session with an end record and no failed run
must hold every planned key.  An interrupted session (no end record, later abandoned) or one with failed
runs (offload points that did not fit) holds a subset: the planned keys it lacks are exactly those of its
``benchbook.run_failed`` records, or (interrupted) runs never reached.

Inputs that a start record does not name, and where they come from here: the target and roofline
model ids of offload (``models.default`` of the committed params.yaml and ``roofline_models``); a depth
request's draft file path (part of its server argv, so of its key: where the file was, read from the
session's own ``-md`` argument); the GPU draft-self prompt ids (``<host_id>.prompts.json`` beside the
records) and torch's thread count (the host snapshot's physical cores: torch's default; recorded in
the start record from now on).  The CPU draft-self sessions are of the layout before the shared session
(``sessions.jsonl``: one record per session, its ``params`` the meta).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from benchbook.draftself import data
from benchbook.experiments.draftself import plan as draftself_plan
from benchbook.experiments.draftself_gpu import plan as draftself_gpu_plan
from benchbook.experiments.llama_bench import plan as llama_bench_plan
from benchbook.experiments.offload import plan as offload_plan
from benchbook.experiments.spec_depth import plan as spec_depth_plan
from benchbook.experiments.speculative import plan as speculative_plan
from benchbook.llamacpp import synth
from benchbook.paths import resolve_public
from benchbook.provenance import read_snapshots
from benchbook.records import iter_records
from benchbook.resolve import load_params
from benchbook.session import completes
from conftest import committed_root

ROOT = committed_root()
RAW = ROOT / "data" / "raw"


@dataclass
class Committed:
    """One committed session: its first start record's fields (``meta``), whether it has an end record,
    the keys of its completed records (``done``) and of its failed runs (``failed``)."""

    folder: str
    file: Path
    session_id: str
    meta: dict
    ended: bool = False
    done: set[str] = field(default_factory=set)
    failed: set[str] = field(default_factory=set)
    records: list[dict] = field(default_factory=list)


def shared_sessions(folder: str) -> list[Committed]:
    """The sessions of every ``data/raw/<folder>/<host_id>.jsonl`` (shared ``benchbook.session`` layout)."""
    out: dict[str, Committed] = {}
    for f in sorted((RAW / folder).glob("*.jsonl")):
        if f.name.count(".") > 1:  # <host>.train.jsonl, <host>.steps.jsonl: no session records
            continue
        for _, r in iter_records(f):
            sid = r.get("session_id")
            if r.get("schema") == "benchbook.session":
                s = out.setdefault(sid, Committed(folder, f, sid, r))
                if r["event"] == "end":
                    s.ended = True
                else:  # a resumed session starts again with the same meta
                    assert r.get("meta_hash") == s.meta.get("meta_hash"), (f, sid)
            elif sid in out:
                s = out[sid]
                s.records.append(r)
                if completes(r):
                    s.done.add(r["run_key"])
                elif r.get("schema") == "benchbook.run_failed" and r.get("run_key"):
                    s.failed.add(r["run_key"])
    return list(out.values())


def legacy_draftself_sessions() -> list[Committed]:
    """The CPU draft-self sessions of ``sessions.jsonl`` + ``runs.jsonl`` (written at each session's end)."""
    out = {
        r["session_id"]: Committed(
            "draftself", RAW / "draftself" / "sessions.jsonl", r["session_id"], r, True
        )
        for _, r in iter_records(RAW / "draftself" / "sessions.jsonl")
    }
    for _, r in iter_records(RAW / "draftself" / "runs.jsonl"):
        out[r["session_id"]].done.add(r["run_key"])
    return list(out.values())


def models_by_id() -> dict[str, dict]:
    """``{model_id: {"model_id", "sha256"}}`` of the committed snapshot store (one sha256 per id)."""
    out: dict[str, dict] = {}
    for snap in read_snapshots(RAW / "snapshots", "model").values():
        ref = {"model_id": snap["model_id"], "sha256": snap["sha256"]}
        assert out.setdefault(snap["model_id"], ref) == ref, f"two files named {snap['model_id']}"
    return out


MODELS = models_by_id()


def planned_llama_bench(s: Committed) -> list[str]:
    params = llama_bench_plan.LlamaBenchParams.model_validate(s.meta["config"])
    models = [MODELS[m] for m in params.models]
    return [r.key for r in llama_bench_plan.plan(params, models, s.meta["toolchain_id"], s.meta["host_id"])]


def _drafts(cfg: dict, target: dict, paths: dict[str, str] | None = None) -> dict[str, dict]:
    out = {}
    for key, mid in speculative_plan.draft_model_ids(cfg, target).items():
        ref = MODELS[mid]
        out[key] = {**ref, "path": (paths or {}).get(ref["sha256"], f"<{mid}>")}
    return out


def planned_speculative(s: Committed) -> list[str]:
    cfg = s.meta["config"]
    target = MODELS[cfg["target"]]
    prompts = speculative_plan.load_prompts(ROOT / cfg["prompts_file"], cfg["prompts"], cfg.get("caps"))
    runs = speculative_plan.plan(
        cfg, prompts, target, _drafts(cfg, target), s.meta["toolchain_id"], s.meta["host_id"]
    )
    return [r.key for r in runs]


def planned_spec_depth(s: Committed) -> list[str]:
    cfg = s.meta["config"]
    target = {**MODELS[cfg["target"]], "path": f"<{cfg['target']}>"}
    # where each draft file was: its -md argument (a request's key holds the server argv after -m PATH,
    # hashed with the real path; a record holds it public, <cache>/…, which resolve_public gives back)
    paths = {
        r["draft_model_sha256"]: resolve_public(r["argv"][r["argv"].index("-md") + 1], ROOT)
        for r in s.records
        if "-md" in r.get("argv", [])
    }
    drafts = _drafts(cfg, target, paths)
    runs = spec_depth_plan.plan(cfg, target, drafts, s.meta["toolchain_id"], s.meta["host_id"])
    return [r.key for r in runs]


def planned_offload(s: Committed) -> list[str]:
    cfg = s.meta["config"]
    model = MODELS[synth.model_id(synth.SynthSpec(**cfg["model"]))]
    default = load_params(ROOT)["models"]["default"]
    others = [MODELS[m] for m in dict.fromkeys([default, *cfg["roofline_models"]])]
    return [r.key for r in offload_plan.plan(cfg, model, others, s.meta["toolchain_id"], s.meta["host_id"])]


def planned_draftself_gpu(s: Committed) -> list[str]:
    host = s.meta["host_id"]
    prompts = json.loads((s.file.parent / f"{host}.prompts.json").read_text())
    threads = s.meta.get("threads") or read_snapshots(RAW / "snapshots", "host")[host]["cpu_physical"]
    mp = {**draftself_gpu_plan.MEASURE_DEFAULTS, **s.meta["config"]}
    runs = draftself_gpu_plan.plan(mp, prompts, s.meta["model_sha256"], host, threads)
    return [r.key for r in runs if not r.warmup]


def planned_draftself(s: Committed) -> list[str]:
    p = {**draftself_plan.DEFAULTS, **(s.meta.get("params") or s.meta["config"])}
    prompts = [
        q
        for q in data.prompts(p["prompt_seed"], p["prompts_per_kind"])
        if not p["prompt_kinds"] or q["kind"] in p["prompt_kinds"]
    ]
    runs = draftself_plan.plan(p, prompts, s.meta["model_sha256"], s.meta["host_id"])
    return [r.key for r in runs if not r.warmup]


PLANNED = {
    "llama_bench": planned_llama_bench,
    "speculative": planned_speculative,
    "spec_depth": planned_spec_depth,
    "offload": planned_offload,
    "draftself_gpu": planned_draftself_gpu,
    "draftself": planned_draftself,
}
SESSIONS = [s for folder in PLANNED if folder != "draftself" for s in shared_sessions(folder)]
SESSIONS += legacy_draftself_sessions() + shared_sessions("draftself")


#: ``(planned, completed)`` runs of each committed session (first 8 hex of its id), from its config:
COUNTS = {
    # llama_bench: 3 models x (cold + warm)
    **dict.fromkeys(["aec9b906", "e2b890c3", "2f3374db", "d2ee0d2a", "9228dac2", "637789dc"], (6, 6)),
    # speculative (profile default): cost model 1 target + 2 draft files (q2k, trunc20; the self draft is
    # the target) = 3, requests 12 configs x 4 prompts x 3 repetitions = 144
    **dict.fromkeys(
        ["c81f79c3", "4787a708", "4ad89052", "521afbb1", "e5c68027", "7554df47", "5b481365"], (147, 147)
    ),
    # spec_depth CPU: 3 llama-bench runs + 6 configs x 2 repetitions x 3 depths = 39; 1b5cda51 was
    # interrupted after the 3 bench runs and 2 configs x 3 depths = 9
    "1b5cda51": (39, 9),
    "5d2b86d3": (39, 39),
    "f349b5cc": (39, 39),
    # spec_depth H200: 3 + 8 configs x 3 repetitions x 4 depths = 99
    "23d37a94": (99, 99),
    # offload H200: bytes of 8 sweep points + 2 roofline models, 1 bandwidth, 8 points = 19; 3 points failed
    "d8cf33d1": (19, 16),
    # draftself_gpu: (AR + 6 block sizes) x 12 prompts x 3 timed repetitions = 252
    **dict.fromkeys(["33165c04", "57a59f95"], (252, 252)),
    # draftself CPU: (1 AR + 5 batched + 3 sequential + 1 iterative + 2 masses x 2 coreset) x 7 prompt
    # kinds x 3 timed repetitions = 14 x 7 x 3 = 294
    **dict.fromkeys(["ff659678", "f7ac36b1", "9134c774", "6c11c22a"], (294, 294)),
}


def test_every_committed_session_is_checked():
    # a session added to data/raw needs its counts here (and its experiment's plan in PLANNED)
    assert sorted(s.session_id[:8] for s in SESSIONS) == sorted(COUNTS)


@pytest.mark.parametrize("s", SESSIONS, ids=lambda s: f"{s.folder}-{s.session_id[:8]}")
def test_a_committed_sessions_run_keys_are_its_plans(s: Committed):
    planned = PLANNED[s.folder](s)
    assert len(set(planned)) == len(planned), "two planned runs share a key"
    assert (len(planned), len(s.done)) == COUNTS[s.session_id[:8]]
    assert s.done <= set(planned), f"{len(s.done - set(planned))} completed runs the plan does not name"
    if s.ended:  # complete: every planned run done, but those recorded as failed
        assert set(planned) - s.done == s.failed
    else:  # interrupted: the plan's first runs, in its order
        assert s.done == set(planned[: len(s.done)]) and not s.failed
