"""Experiments: one package per experiment, each with the same three modules and entry points.

``experiments/<name>/``
  ``run.py``      measurement: ``measure(params, *, root, raw_dir, overrides=None, log=print)
                  -> session.SessionResult`` (or a subclass with the experiment's extras)
                  reads ``params`` (the whole ``params.yaml`` mapping) and its own section updated by
                  ``overrides``, appends raw records through ``benchbook.session.Session`` to
                  ``raw_dir/<name>/`` (snapshots to ``raw_dir/snapshots/``) and returns the session's
                  summary (``session_id``, runs done/skipped/failed, ...).  Its records are
                  built by ``benchbook.schemas.build`` from a declared kind (an experiment's own
                  kind is declared in its package with ``schemas.declare``).
  ``analysis.py`` raw records -> tidy table: ``load(raw_dir) -> polars.DataFrame`` reads
                  ``raw_dir/<name>/`` (one row per measured unit; file and line of every row kept).
  ``report.py``   table -> numbers, charts, caveats:
                  ``build(params, *, root, raw_dir, reports_dir)`` -> a report dataclass; writes
                  ``reports_dir/numbers/<name>.json`` (through ``benchbook.numbers.publish``), charts
                  and tables under ``reports_dir/<name>/`` and returns what the report notebook shows.
                  ``derive(...)`` does the same with explicit paths.
  ``sections``    what the two generic notebooks show: ``report.sections(res, paths)`` (``res``: what
                  ``build`` returned, ``paths``: ``blocks.Paths``) and ``run.sections(result)`` yield
                  ``benchbook.blocks`` (Markdown, SVG, a value, text), their checks as asserts.

``raw_dir`` and ``reports_dir`` are relative to ``root`` unless absolute (normally ``data/raw`` and
``reports``).  Each experiment has two DVC stages, written from its declaration in
``benchbook.stages`` (``benchbook stages write``): ``<name>`` (``notebooks/measure.ipynb -p experiment
<name>`` calls ``run.measure`` then ``run.sections``; a host-bound experiment's runs ``python -m
benchbook.experiments <name> --if-runnable`` instead, measuring only where the host's profile runs it)
and ``<name>_report`` (``notebooks/report.ipynb -p
experiment <name>`` calls ``report.build`` then ``report.sections``, executed into
``reports/notebooks/<name>_report.ipynb``); both notebooks take the parameters ``root``,
``params_file``, ``overrides`` (JSON), ``raw_dir``, ``reports_dir`` and ``experiment`` (the report
notebook also ``to_root``: ``NOTEBOOK_PARAMETERS``), and refuse any other (``check_parameters``: papermill
itself only logs "Passed unknown parameter" and runs on with the default).  Measurement
modules import no report module and report modules no measurement module (``tests/test_layers.py``).
``template/`` is a minimal working experiment to copy.
"""

from __future__ import annotations

import difflib
import pkgutil
from collections.abc import Mapping
from types import ModuleType

#: the parameters each generic notebook (``notebooks/<name>.ipynb``) declares in its cell tagged
#: ``parameters`` (``tests/test_experiments_main.py`` compares them with papermill's ``inspect_notebook``)
NOTEBOOK_PARAMETERS = {
    "measure": ("root", "params_file", "overrides", "raw_dir", "reports_dir", "experiment"),
    "report": ("root", "params_file", "overrides", "raw_dir", "reports_dir", "to_root", "experiment"),
}


class UnknownExperiment(ValueError):
    """A name that is no experiment package of ``benchbook.experiments``; the message lists them."""


class UnknownParameter(ValueError):
    """A papermill ``-p NAME VALUE`` that the notebook does not declare; the message names it, the
    nearest declared name and the declared ones."""


def check_parameters(namespace: Mapping, notebook: str) -> None:
    """Refuse a parameter papermill injected that ``notebooks/<notebook>.ipynb`` does not declare.

    papermill 2.7 only logs ``Passed unknown parameter: NAME`` (``papermill/execute.py``) and the
    notebook runs with the declared default: ``-p experiemnt speculative`` would report nothing, or
    the wrong experiment.  Called first in the cell after the parameters, with ``globals()``: the
    injected names are then the namespace's data values (modules, classes and functions are imports)
    that IPython did not put there (``get_ipython().user_ns_hidden``) and that do not start with ``_``.

    Raises:
        UnknownParameter: a name outside ``NOTEBOOK_PARAMETERS[notebook]`` (with the did-you-mean fix).
    """
    declared = NOTEBOOK_PARAMETERS[notebook]
    ip = namespace.get("get_ipython")
    hidden = set(ip().user_ns_hidden) if callable(ip) and ip() is not None else set()
    unknown = sorted(
        k
        for k, v in namespace.items()
        if not k.startswith("_")
        and k not in hidden
        and k not in declared
        and not isinstance(v, ModuleType | type)
        and not callable(v)
    )
    if unknown:
        near = {k: difflib.get_close_matches(k, declared, n=1) for k in unknown}
        fixes = "; ".join(f"`{k}`: write `{near[k][0]}`" if near[k] else f"`{k}`: drop it" for k in unknown)
        raise UnknownParameter(
            f"notebooks/{notebook}.ipynb: papermill parameter {', '.join(f'`{k}`' for k in unknown)} is not "
            f"declared (declared: {', '.join(declared)}); fix: {fixes}"
        )


def names() -> list[str]:
    """The experiment packages of ``benchbook.experiments``, sorted: the pipeline's
    (``benchbook.stages.EXPERIMENTS``) and ``template``."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg)


def check_name(name: str) -> str:
    """``name`` when it is an experiment package (``names``), checked before its modules are imported
    (``python -m benchbook.experiments NAME``, the notebooks' ``-p experiment NAME``).

    Raises:
        UnknownExperiment: empty or unknown (the message lists the experiments and the fix).
    """
    if name not in names():
        what = f"no experiment {name!r}" if name else "no experiment named"
        raise UnknownExperiment(
            f"{what}: benchbook.experiments has {', '.join(names())}; fix: name one of them "
            "(`-p experiment NAME`, `python -m benchbook.experiments NAME`)"
        )
    return name
