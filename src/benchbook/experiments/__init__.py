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
<name>`` calls ``run.measure`` then ``run.sections``; none for a host-bound experiment, measured outside
DVC by ``python -m benchbook.experiments <name>``) and ``<name>_report`` (``notebooks/report.ipynb -p
experiment <name>`` calls ``report.build`` then ``report.sections``, executed into
``reports/notebooks/<name>_report.ipynb``); both notebooks take the parameters ``root``,
``params_file``, ``overrides`` (JSON), ``raw_dir``, ``reports_dir`` and ``experiment``.  Measurement
modules import no report module and report modules no measurement module (``tests/test_layers.py``).
``template/`` is a minimal working experiment to copy.
"""

from __future__ import annotations

import pkgutil


class UnknownExperiment(ValueError):
    """A name that is no experiment package of ``benchbook.experiments``; the message lists them."""


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
