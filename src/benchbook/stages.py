"""The pipeline's stages, declared once: ``dvc.yaml`` and ``measure/dvc.yaml`` are written from them.

``PIPELINE`` lists every experiment (``Experiment``: its measurement stage in ``measure/dvc.yaml``,
a host-bound one's measuring only where the host's profile runs it, and its ``<name>_report`` stage in
``dvc.yaml``) and the other stages
(``Stage``: ``draftself_train``, ``audit``, ``site_renderer``, ``site``), in file order. A declaration
names what cannot be computed (data, params sections, outputs); each stage's ``src/benchbook`` deps are
its command's import closure (``stagedeps.stage_code``) and its notebook comes from its command.
``render`` gives both files' text, ``write`` writes them (``benchbook stages write``), ``check`` names a
file that differs from what ``write`` would write (``benchbook stages check``,
``tests/test_stagedeps.py``): after an import is added, or an experiment, run ``benchbook stages
write``; never edit the files by hand.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml

from benchbook import atomicfile

from . import siterenderer
from .imports import module_files, package_graph
from .stagedeps import entries, stage_code

#: the derived stages (lock per machine, git-ignored) and the measurement stages (lock committed)
DVC_FILE = "dvc.yaml"
MEASURE_FILE = "measure/dvc.yaml"

GENERATED = (
    "Written by `benchbook stages write` from benchbook.stages.PIPELINE: edit that list, not this file "
    "(`benchbook stages check` fails on a file that differs from what it writes)."
)

#: the two notebooks every experiment's stages run (papermill ``-p experiment NAME``): they import
#: ``benchbook.experiments.<NAME>.run`` / ``.report`` and show what its ``sections`` yields
MEASURE_NOTEBOOK = "notebooks/measure.ipynb"
REPORT_NOTEBOOK = "notebooks/report.ipynb"

#: the header of each file: the DVC traps the layout avoids (kept with the files they explain)
HEADERS = {
    DVC_FILE: (
        "Data flow: params.yaml -> measurement notebooks (measure/dvc.yaml) -> data/raw/**.jsonl "
        "(committed, append-only, one file per host) -> report notebooks (Polars, caveats, numbers "
        "registry, charts) -> site.  This file holds the derived stages only: every host re-derives "
        "them from all hosts' committed raw data, so their lock file (dvc.lock here) is per machine and "
        "git-ignored -- two hosts that both measure and commit never conflict in it.  Measurement and "
        "analysis stages never read executed notebooks."
    ),
    MEASURE_FILE: (
        "Measurement stages (run from the repository root: wdir ..).  Each host writes its raw JSONL "
        "under data/raw/<experiment>/<host_id>.jsonl and snapshots under "
        "data/raw/snapshots/<kind>/<host_id>.jsonl, committed to git as plain files.  They are "
        "deliberately NOT declared as outputs: an output's digest goes into measure/dvc.lock, and two "
        "hosts appending to their own files would then both rewrite the same lock lines (a merge "
        "conflict).  Without raw outputs, a stage's lock entry holds only its cmd, code/params digests "
        "(the same on every host at one commit), so hosts merge through git without conflict and `dvc "
        "repro` after a merge re-runs no measurement.  DVC's run cache never applies to a stage without "
        "outputs, so an old measurement is never restored.  `benchbook run` forces a stage on a host that "
        "has no completed session of it (cli.measured_here); a host-bound stage (offload, spec_depth, "
        "draftself_gpu) measures only on a host whose profile runs it (an NVIDIA GPU, or $BENCHBOOK_PROFILE) "
        "and elsewhere says so in one line.  Large artifacts (derived models, the "
        "draft-self checkpoint) travel through the DVC remote as data/artifacts/**.dvc files (`benchbook "
        "artifacts add`, `dvc push` / `dvc pull`).  Params name the model registry entries a stage "
        "measures one by one (models.registry.<id>), so `benchbook models add` of another model changes "
        "no measurement stage (tests/test_stage_params.py keeps the lists equal to what the params use)."
    ),
}

#: width of the comment lines written (without their ``# `` prefix)
COMMENT_WIDTH = 104


def _comment(text: str, indent: str = "") -> list[str]:
    """``text`` as ``# `` comment lines of at most ``COMMENT_WIDTH`` characters, each after ``indent``."""
    return [f"{indent}# {line}" for line in textwrap.wrap(text, COMMENT_WIDTH, break_on_hyphens=False)]


#: in an experiment's ``measure_params``: where the ``models.registry.<id>`` entries it measures go
MODEL_ENTRIES = "models.registry.<measured>"
#: in an experiment's ``measure_params``: where each host profile's layer of its section goes
PROFILE_ENTRIES = "profiles.<profile>.<section>"


class StagesError(ValueError):
    """A declaration cannot be rendered (a model id missing from the registry, a stage named twice); the
    message names the stage and the fix."""


@dataclass(frozen=True)
class Stage:
    """One DVC stage as written: ``file`` (``DVC_FILE`` or ``MEASURE_FILE``, whose stages run from the
    repository root: ``wdir: ..``), ``cmd``, ``deps`` (data and pages; the notebook the command runs
    and its code deps are added by ``render``), ``params`` (sections or keys of params.yaml), ``outs``
    and ``metrics`` (all ``cache: false``: outputs live in git or are re-derived on every machine),
    ``note`` (a comment written above the stage) and ``always_changed`` (DVC runs the stage on every
    ``repro``: for a stage that reads the state of the machine, whose output then decides whether the
    stages after it run)."""

    name: str
    file: str
    cmd: str
    deps: tuple[str, ...] = ()
    params: tuple[str, ...] = ()
    outs: tuple[str, ...] = ()
    metrics: tuple[str, ...] = ()
    note: str = ""
    always_changed: bool = False


@dataclass(frozen=True)
class Experiment:
    """One experiment (``src/benchbook/experiments/<name>/``, page ``<name>.qmd``) and its stages.

    ``report_data``: what its report stage reads (raw folders, snapshots, manifests); ``metrics``: it
    writes ``reports/metrics/<name>.json``.  ``measure_params`` (params sections) and ``measure_data``
    are its measurement stage's; ``MODEL_ENTRIES`` among the params stands for ``models(params)``, the
    registry ids it measures, one ``models.registry.<id>`` param each (with the entries they are derived
    from), so that adding a model to the registry changes no measurement stage; ``PROFILE_ENTRIES``
    stands for every host profile's layer of its section (``profiles.<p>.<name>``, those params.yaml
    has).  ``host_bound``: measured only on a host whose profile runs it (an NVIDIA GPU, or
    ``$BENCHBOOK_PROFILE``: ``experiments.profiles.host_bound_skip``); its measurement stage runs
    ``python -m benchbook.experiments <name> --if-runnable`` (``host_bound_cmd``: no papermill, so a
    host without DVC runs the same command), which elsewhere says so in one line and measures nothing.
    ``note``: a comment above its report stage."""

    name: str
    report_data: tuple[str, ...]
    host_bound: bool = False
    measure_params: tuple[str, ...] = ()
    measure_data: tuple[str, ...] = ()
    models: Callable[[dict], Iterable[str]] | None = None
    metrics: bool = False
    note: str = ""

    def stages(self, params: dict) -> list[Stage]:
        """The measurement stage and the report stage, as written.

        Raises:
            StagesError: see ``model_params``.
        """
        expanded = {
            MODEL_ENTRIES: lambda: model_params(params, self.models, self.name),
            PROFILE_ENTRIES: lambda: profile_params(params, self.name),
        }
        out = [
            Stage(
                self.name,
                MEASURE_FILE,
                host_bound_cmd(self.name) if self.host_bound else measure_cmd(self.name),
                deps=self.measure_data,
                params=tuple(
                    p
                    for entry in self.measure_params
                    for p in (expanded[entry]() if entry in expanded else (entry,))
                ),
                note=HOST_BOUND_NOTE if self.host_bound else "",
            )
        ]
        out.append(
            Stage(
                f"{self.name}_report",
                DVC_FILE,
                report_cmd(self.name),
                deps=self.report_data,
                params=("report",),
                outs=(
                    f"reports/{self.name}",
                    f"reports/numbers/{self.name}.json",
                    f"reports/notebooks/{self.name}_report.ipynb",
                ),
                metrics=(f"reports/metrics/{self.name}.json",) if self.metrics else (),
                note=self.note,
            )
        )
        return out


def measure_cmd(name: str) -> str:
    """The measurement stage's command: the generic measurement notebook for experiment ``name``,
    executed into ``notebooks/out/<name>.ipynb`` (never read by a stage; its bytes change on every run)."""
    return (
        f"mkdir -p notebooks/out && papermill {MEASURE_NOTEBOOK} notebooks/out/{name}.ipynb "
        f"--cwd . -p root . -p experiment {name} --log-output --no-progress-bar"
    )


#: a host-bound experiment's measurement stage runs only where this host's profile runs it
HOST_BOUND_OPTION = "--if-runnable"

HOST_BOUND_NOTE = (
    "host-bound: measured where the host's profile runs it (an NVIDIA GPU, or $BENCHBOOK_PROFILE); "
    "elsewhere the command says so in one line and measures nothing.  The same command runs without DVC "
    "(`benchbook measure` on a host without DVC, scripts/gpu_session.sh)."
)


def host_bound_cmd(name: str) -> str:
    """A host-bound experiment's measurement command: ``python -m benchbook.experiments <name>
    --if-runnable`` (no papermill or notebook: a GPU host without them runs the same command)."""
    return f"python -m benchbook.experiments {name} {HOST_BOUND_OPTION}"


def report_cmd(name: str) -> str:
    """The report stage's command: the generic report notebook for experiment ``name``, executed into
    ``reports/notebooks/<name>_report.ipynb`` (the site renders it: its Notebooks menu)."""
    return (
        f"mkdir -p reports/notebooks && papermill {REPORT_NOTEBOOK} reports/notebooks/{name}_report.ipynb "
        f"--cwd . -p root . -p experiment {name} --no-progress-bar"
    )


def model_params(params: dict, models: Callable[[dict], Iterable[str]] | None, stage: str) -> tuple[str, ...]:
    """``models.registry.<id>`` for every id ``models(params)`` names and every entry those are derived
    from (``derived_from``) or is an alias of (``alias_of``), in registry order; () without ``models``.

    Raises:
        StagesError: an id is not in ``params["models"]["registry"]``.
    """
    if models is None:
        return ()
    registry = params["models"]["registry"]
    todo, used = list(models(params)), set()
    while todo:
        mid = todo.pop()
        if mid not in registry:
            raise StagesError(
                f"stage {stage}: model {mid!r} is not in params.yaml models.registry; fix: "
                "`benchbook models add`, or the id in the stage's params section"
            )
        if mid not in used:
            used.add(mid)
            todo += [registry[mid][k] for k in ("derived_from", "alias_of") if k in registry[mid]]
    return tuple(f"models.registry.{mid}" for mid in registry if mid in used)


def profile_params(params: dict, name: str) -> tuple[str, ...]:
    """``profiles.<p>.<name>`` for every profile of ``params`` that has a layer for section ``name``, in
    the file's order (DVC refuses a param key the file lacks)."""
    profiles = params.get("profiles") or {}
    return tuple(f"profiles.{p}.{name}" for p, layers in profiles.items() if name in (layers or {}))


def _layers(params: dict, name: str) -> list[dict]:
    """Section ``name`` and every profile's layer of it (each a mapping; absent: {})."""
    profiles = params.get("profiles") or {}
    return [params.get(name) or {}] + [(layers or {}).get(name) or {} for layers in profiles.values()]


def offload_models(params: dict) -> list[str]:
    """The registry ids the ``offload`` stage resolves under any profile: the default model (the
    synthetic MoE's tokenizer), ``model`` where it names a registry id, and ``roofline_models``."""
    ids = [params["models"]["default"]]
    for layer in _layers(params, "offload"):
        ids += [layer["model"]] if isinstance(layer.get("model"), str) else []
        ids += list(layer.get("roofline_models") or [])
    return list(dict.fromkeys(ids))


def spec_depth_models(params: dict) -> list[str]:
    """The registry ids the ``spec_depth`` stage resolves under any profile: the target and every
    draft's ``model`` (``target`` meaning the target)."""
    layers = _layers(params, "spec_depth")
    targets = [layer["target"] for layer in layers if "target" in layer] or [params["models"]["default"]]
    drafts = [
        d.get("model")
        for layer in layers
        for d in (layer.get("drafts") or {}).values()
        if isinstance(d, dict) and d.get("model") not in (None, "target")
    ]
    return list(dict.fromkeys(targets + drafts))


def llama_bench_models(params: dict) -> list[str]:
    """The registry ids the ``llama_bench`` stage measures: ``llama_bench.models``."""
    return list(params["llama_bench"]["models"])


def speculative_models(params: dict) -> list[str]:
    """The registry ids the ``speculative`` stage measures: its target and every draft's ``model``
    (``target`` meaning the target itself)."""
    spec = params["speculative"]
    target = spec.get("target", params["models"]["default"])
    drafts = [d.get("model") for d in (spec.get("drafts") or {}).values() if isinstance(d, dict)]
    return [target] + [target if d == "target" else d for d in drafts if d]


EXPERIMENTS: tuple[Experiment, ...] = (
    Experiment(
        "llama_bench",
        report_data=("data/raw/llama_bench", "data/raw/snapshots"),
        measure_params=("llama_bench", "models.default", MODEL_ENTRIES, "toolchain"),
        models=llama_bench_models,
        metrics=True,
    ),
    Experiment(
        "speculative",
        report_data=("data/raw/speculative", "data/raw/tool_gap", "data/raw/snapshots"),
        measure_params=("speculative", "models.default", MODEL_ENTRIES, "toolchain"),
        measure_data=("data/prompts/speculative.yaml",),
        models=speculative_models,
    ),
    Experiment(
        "draftself",
        report_data=("data/raw/draftself", "data/raw/snapshots", "data/draftself/checkpoint.json"),
        measure_params=("draftself.measure",),
        measure_data=("data/draftself/checkpoint.json",),
    ),
    Experiment(
        "draftself_gpu",
        report_data=("data/raw/draftself_gpu", "data/artifacts/checkpoints", "data/raw/snapshots"),
        host_bound=True,
        measure_params=("draftself_gpu", PROFILE_ENTRIES),
    ),
    Experiment(
        "offload",
        report_data=("data/raw/offload", "data/raw/llama_bench", "data/raw/snapshots"),
        host_bound=True,
        measure_params=("offload", PROFILE_ENTRIES, "models.default", MODEL_ENTRIES, "toolchain"),
        models=offload_models,
        note=(
            "The offload sweep is measured by measure/dvc.yaml's host-bound offload stage on a host with an "
            "NVIDIA GPU (`benchbook run`; scripts/gpu_session.sh on a host without DVC; profile picked per "
            "host: src/benchbook/experiments/profiles.py); its raw JSONL comes back through git."
        ),
    ),
    Experiment(
        "spec_depth",
        report_data=(
            "data/raw/spec_depth",
            "data/raw/speculative",
            "data/raw/tool_gap",
            "data/raw/snapshots",
        ),
        host_bound=True,
        measure_params=("spec_depth", PROFILE_ENTRIES, MODEL_ENTRIES, "toolchain"),
        measure_data=("data/prompts/depth_context.txt",),
        models=spec_depth_models,
        note=(
            "issue 15: the depth sweep is measure/dvc.yaml's host-bound spec_depth stage (a host with an "
            "NVIDIA GPU, or $BENCHBOOK_PROFILE); this stage reads every host's committed raw records."
        ),
    ),
    Experiment(
        "tool_gap",
        report_data=("data/raw/tool_gap", "data/raw/snapshots"),
        host_bound=True,
        note=(
            "issue 31: llama-bench tg against llama-server decode, measured outside DVC on a quiet host "
            "(`python -m benchbook.experiments tool_gap`); this stage reads every host's committed raw "
            "records (none yet: its pages say so)."
        ),
    ),
)

DRAFTSELF_TRAIN = Stage(
    "draftself_train",
    MEASURE_FILE,
    "python -m benchbook.draftself.train --params params.yaml --out data/draftself/checkpoint.json",
    params=("draftself.train",),
    outs=("data/draftself/checkpoint.json",),
)

AUDIT = Stage(
    "audit",
    DVC_FILE,
    "python -m benchbook.audit --all data/claims --out reports/audit --pages audits",
    # the measured llama-bench vs server gap: context of such comparisons (audit.toolgap)
    deps=("data/claims", "reports/numbers/tool_gap.json"),
    params=("audit", "models.registry"),
    outs=("reports/audit", "audits"),
    note=(
        "every claims file of data/claims -> verdict records + one page each (exit 2 only on malformed input)"
    ),
)


SITE_RENDERER = Stage(
    "site_renderer",
    DVC_FILE,
    "python -m benchbook.siterenderer",
    outs=(siterenderer.RECORD,),
    always_changed=True,
    note=(
        "the renderer on this machine (Quarto on PATH, else smalldocs) and its version, an input of the "
        "site: runs every time, and its record changes only when the renderer does"
    ),
)


def site_stage(experiments: Sequence[Experiment]) -> Stage:
    """The ``site`` stage: every page (``<name>.qmd`` per experiment), every experiment's report folder,
    the executed report notebooks, the write-ups, and the raw data the site reads itself (snapshots for
    the provenance pages, speculative outputs beside their numbers)."""
    return Stage(
        "site",
        DVC_FILE,
        "python -m benchbook.site",
        deps=(
            "_quarto.yml",
            "favicon.svg",
            "index.qmd",
            "audits",
            *(f"{e.name}.qmd" for e in experiments),
            "provenance.qmd",
            "reports/numbers",
            *(f"reports/{e.name}" for e in experiments),
            "reports/notebooks",
            "writeups",
            "benchbook.css",
            "data/raw/snapshots",
            "data/raw/speculative",
            siterenderer.RECORD,
        ),
        outs=("_site",),
    )


#: every stage in file order: an experiment stands for its measurement and report stages
PIPELINE: tuple[Experiment | Stage, ...] = (
    EXPERIMENTS[0],
    EXPERIMENTS[1],
    DRAFTSELF_TRAIN,
    *EXPERIMENTS[2:],
    AUDIT,
    SITE_RENDERER,
    site_stage(EXPERIMENTS),
)


def _scalar(text: str) -> str:
    """``text`` as a YAML scalar: plain when YAML reads it back unchanged, else double-quoted."""
    try:
        plain = yaml.safe_load(f"k: {text}") == {"k": text}
    except yaml.YAMLError:
        plain = False
    return text if plain else '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _stage_text(stage: Stage, deps: list[str]) -> list[str]:
    lines = _comment(stage.note, "  ") + [f"  {stage.name}:"]
    if stage.file == MEASURE_FILE:
        lines.append("    wdir: ..")
    lines.append(f"    cmd: {_scalar(stage.cmd)}")
    for key, items in (("deps", deps), ("params", stage.params)):
        if items:
            lines += [f"    {key}:"] + [f"      - {_scalar(i)}" for i in items]
    for key, items in (("outs", stage.outs), ("metrics", stage.metrics)):
        if items:
            lines += [f"    {key}:"]
            for item in items:
                lines += [f"      - {_scalar(item)}:", "          cache: false"]
    if stage.always_changed:
        lines.append("    always_changed: true")
    return lines


def stages_of(pipeline: Sequence[Experiment | Stage], params: dict) -> list[Stage]:
    """Every stage of ``pipeline`` in order (an experiment expanded into its stages).

    Raises:
        StagesError: two stages share a name.
    """
    out: list[Stage] = []
    for item in pipeline:
        out += item.stages(params) if isinstance(item, Experiment) else [item]
    names = [s.name for s in out]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise StagesError(f"stages named twice: {twice}; fix: rename one in benchbook.stages.PIPELINE")
    return out


def render(root: Path, pipeline: Sequence[Experiment | Stage] = PIPELINE) -> dict[str, str]:
    """File (``DVC_FILE``, ``MEASURE_FILE``; one holding no stage is left out) -> its text: the header,
    then each stage with its deps (the notebook its command runs, its declared deps, the sorted
    ``src/benchbook`` files of its import closure), params and outputs.  Reads ``root/params.yaml``
    (the model ids of measurement stages) and the package under ``root/src``.

    Raises:
        StagesError: see ``stages_of`` and ``model_params``.
        stagedeps.StageDepsError: a command names a missing notebook or module.
    """
    root = Path(root)
    params = yaml.safe_load((root / "params.yaml").read_text())
    graph, files = package_graph(root), module_files(root / "src")
    body: dict[str, list[str]] = {DVC_FILE: [], MEASURE_FILE: []}
    for stage in stages_of(pipeline, params):
        notebooks = [e for e in entries(stage.cmd)[0] if e.endswith(".ipynb")]
        code = stage_code(root, stage.cmd, graph, files)[1]
        lines = body[stage.file]
        lines += [""] if lines else []
        lines += _stage_text(stage, notebooks + list(stage.deps) + code)
    return {
        name: "\n".join(_comment(HEADERS[name]) + _comment(GENERATED) + ["stages:", *lines]) + "\n"
        for name, lines in body.items()
        if lines
    }


def write(root: Path, pipeline: Sequence[Experiment | Stage] = PIPELINE) -> list[Path]:
    """Write ``render``'s files under ``root``; returns the paths whose text changed."""
    changed = []
    for name, text in render(root, pipeline).items():
        path = Path(root) / name
        if not path.exists() or path.read_text() != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            atomicfile.write_text(path, text)
            changed.append(path)
    return changed


def check(root: Path, pipeline: Sequence[Experiment | Stage] = PIPELINE) -> list[str]:
    """One line per file that differs from what ``write`` would write: the file, its first differing
    line (number and text, or the end of the file) and the fix, or that the file is missing; [] when both
    are up to date."""
    out = []
    for name, text in render(root, pipeline).items():
        path = Path(root) / name
        if not path.exists():
            out.append(f"{name}: missing; fix: benchbook stages write (from benchbook.stages.PIPELINE)")
            continue
        have = path.read_text().splitlines()
        want = text.splitlines()
        if have == want:
            continue
        n = next(
            (i for i, (a, b) in enumerate(zip(have, want, strict=False)) if a != b), min(len(have), len(want))
        )
        shown = repr(have[n]) if n < len(have) else "the end of the file"
        wanted = repr(want[n]) if n < len(want) else "the end of the file"
        out.append(
            f"{name}:{n + 1}: {shown}, but benchbook.stages writes {wanted}; "
            "fix: benchbook stages write (edit benchbook.stages.PIPELINE, not the file)"
        )
    return out
