"""Each DVC stage's code dependencies, computed: the static import closure of what its command runs.

A stage's command runs a notebook (``papermill notebooks/<x>.ipynb ...``: the imports of its code
cells, and the modules its ``importlib.import_module`` calls name through the command's ``-p``
parameters: the generic notebooks import ``benchbook.experiments.<experiment>.run`` or ``.report``), a
module (``python -m benchbook.<m>``; ``python -m benchbook.experiments <name>`` also its
``benchbook.experiments.<name>.run``, which it imports by name) or the CLI (``benchbook ...``:
``benchbook.cli``).  The closure
(``benchbook.imports.closure``: imports inside functions included, parent packages' ``__init__`` files
included) is the exact set of ``src/benchbook`` files whose change can change the stage's result;
``dvc.yaml`` must list exactly those files, plus the notebook itself, and never a package directory
under ``src/benchbook`` (it would hold other stages' code: an edit there would re-run this stage).
Data and ``params`` entries are not inferred here.  ``benchbook.stages`` writes the files with these
deps; ``benchbook stages check`` prints the findings, and ``tests/test_stagedeps.py`` fails on any.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .imports import closure, module_files, notebook_imports, package_graph

SRC = "src/benchbook"
#: ``python -m benchbook.experiments NAME`` imports ``benchbook.experiments.NAME.run`` by name
EXPERIMENTS = "benchbook.experiments"


class StageDepsError(ValueError):
    """``dvc.yaml`` or a stage command cannot be read; the message names the file, stage and fix."""


@dataclass
class StageDeps:
    """Findings for one stage.  Paths are relative to the repository root, sorted.

    ``code``: the ``src/benchbook`` files of the stage's import closure (what ``deps`` must list);
    ``missing``/``extra``: closure files not listed / listed files not in the closure;
    ``package_dirs``: listed directories under ``src/benchbook``; ``notebook_missing``: the notebook the
    command runs, when it is not listed."""

    stage: str
    entries: list[str]
    code: list[str]
    missing: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)
    package_dirs: list[str] = field(default_factory=list)
    notebook_missing: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (self.missing or self.extra or self.package_dirs or self.notebook_missing)


def entries(cmd: str) -> tuple[list[str], list[str]]:
    """(notebooks, modules) that a stage command runs: every ``papermill <nb>`` notebook, every
    ``python -m <module>`` and ``benchbook ...`` (the module ``benchbook.cli``); commands joined
    by ``&&``/``;`` are split first."""
    notebooks, modules = [], []
    for part in cmd.replace(";", "&&").split("&&"):
        words = shlex.split(part)
        if not words:
            continue
        if words[0] == "papermill" and len(words) > 1:
            notebooks.append(words[1])
        elif Path(words[0]).name.startswith("python") and words[1:2] == ["-m"] and len(words) > 2:
            modules.append(words[2])
            if words[2] == EXPERIMENTS and len(words) > 3 and not words[3].startswith("-"):
                modules.append(f"{EXPERIMENTS}.{words[3]}.run")  # imported by name (its __main__)
        elif Path(words[0]).name == "benchbook":
            modules.append("benchbook.cli")
    return notebooks, modules


def papermill_parameters(cmd: str) -> dict[str, dict[str, str]]:
    """Notebook -> its ``-p NAME VALUE`` (``--parameters``) pairs, for every ``papermill`` of ``cmd``:
    ``papermill notebooks/report.ipynb out.ipynb -p experiment offload`` -> ``{"notebooks/report.ipynb":
    {"experiment": "offload"}}``."""
    out: dict[str, dict[str, str]] = {}
    for part in cmd.replace(";", "&&").split("&&"):
        words = shlex.split(part)
        if words[:1] != ["papermill"] or len(words) < 2:
            continue
        pairs = out.setdefault(words[1], {})
        for i, word in enumerate(words[:-2]):
            if word in ("-p", "--parameters"):
                pairs[words[i + 1]] = words[i + 2]
    return out


def stage_code(root: Path, cmd: str, graph=None, files=None) -> tuple[list[str], list[str]]:
    """(entries, code files) of a stage command: the notebooks/modules it runs and the sorted
    ``src/benchbook`` files (relative to ``root``) of their import closure.

    Raises:
        StageDepsError: a notebook or module the command names does not exist.
    """
    root = Path(root)
    graph = graph if graph is not None else package_graph(root)
    files = files if files is not None else module_files(root / "src")
    notebooks, modules = entries(cmd)
    parameters = papermill_parameters(cmd)
    start = []
    for nb in notebooks:
        if not (root / nb).exists():
            raise StageDepsError(
                f"{root / nb}: the notebook a stage runs does not exist; fix: the path in the stage's cmd"
            )
        start += [
            i.module
            for i in notebook_imports(root / nb, set(files), shown_as=nb, parameters=parameters.get(nb, {}))
        ]
    for m in modules:
        if m.startswith("benchbook") and m not in files:
            raise StageDepsError(
                f"module {m} (a stage's `python -m`) is not under {root / SRC}; "
                "fix: the module name in the stage's cmd"
            )
        start.append(m)
        if f"{m}.__main__" in files:  # `python -m <package>` runs the package, then its __main__
            start.append(f"{m}.__main__")
    code = sorted(str(files[m].relative_to(root)) for m in closure(start, graph))
    return notebooks + modules, code


def check(root: Path, dvc_file: Path | None = None) -> list[StageDeps]:
    """Findings for every stage of ``dvc_file`` (default ``root/dvc.yaml``) that runs package code.

    Raises:
        StageDepsError: the file is missing or not a ``stages:`` mapping; a stage names a missing
        notebook or module.
    """
    root = Path(root)
    dvc_file = Path(dvc_file) if dvc_file else root / "dvc.yaml"
    try:
        stages = yaml.safe_load(dvc_file.read_text())["stages"]
    except (OSError, yaml.YAMLError, KeyError, TypeError) as e:
        raise StageDepsError(
            f"{dvc_file}: not a dvc.yaml with `stages:` ({e}); fix: restore it from git"
        ) from None
    graph, files = package_graph(root), module_files(root / "src")
    out = []
    for name, st in stages.items():
        cmd = st.get("cmd", "")
        cmd = " && ".join(cmd) if isinstance(cmd, list) else cmd
        ents, code = stage_code(root, cmd, graph, files)
        if not ents:
            continue
        deps = [d if isinstance(d, str) else next(iter(d)) for d in st.get("deps", [])]
        listed = [d.rstrip("/") for d in deps]
        src = [d for d in listed if d == SRC or d.startswith(SRC + "/")]
        r = StageDeps(name, ents, code)
        r.package_dirs = sorted(d for d in src if (root / d).is_dir())
        r.missing = sorted(set(code) - set(src))
        r.extra = sorted(set(src) - set(code) - set(r.package_dirs))
        r.notebook_missing = [e for e in ents if e.endswith(".ipynb") and e not in listed]
        out.append(r)
    return out


def report(results: list[StageDeps]) -> str:
    """Human-readable findings: one line per stage (ok, or counts), then for each wrong stage the
    exact list of ``src/benchbook`` deps to write (the fix)."""
    lines = []
    for r in results:
        if r.ok:
            lines.append(f"{r.stage}: ok ({len(r.code)} modules)")
            continue
        lines.append(
            f"{r.stage}: {len(r.missing)} missing, {len(r.extra)} extra, "
            f"{len(r.package_dirs)} package dirs, {len(r.notebook_missing)} notebook not listed"
        )
        for label, items in (
            ("missing", r.missing),
            ("extra", r.extra),
            ("package dir", r.package_dirs),
            ("notebook not listed", r.notebook_missing),
        ):
            lines += [f"  {label}: {x}" for x in items]
        lines.append(
            f"  fix: `benchbook stages write` (the pipeline files are generated from benchbook.stages); "
            f"stage {r.stage}'s code deps are then exactly:"
        )
        lines += [f"      - {x}" for x in [e for e in r.entries if e.endswith(".ipynb")] + r.code]
    return "\n".join(lines)
