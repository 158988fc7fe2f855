"""Template: a minimal working experiment to copy (``run``, ``analysis``, ``report``).

It measures something every machine has (sha256 throughput of an in-memory buffer, per size, with
repetitions), so its two stages run anywhere.  To add an experiment ``<name>``: copy this package to
``experiments/<name>/``, replace ``EXPERIMENT``, ``SCHEMA``, the fields of ``KIND``, the measurement
and what ``run.sections`` / ``report.sections`` show, add a ``<name>`` section to ``params.yaml`` and a
declaration ``Experiment("<name>", ...)`` to ``benchbook.stages.EXPERIMENTS`` (its data, params sections,
outputs), then ``benchbook stages write``: the measurement stage in ``measure/dvc.yaml`` and the report
stage in ``dvc.yaml`` run the generic notebooks (``notebooks/measure.ipynb``, ``notebooks/report.ipynb``)
with ``-p experiment <name>``, their code deps computed.
"""

import polars as pl

from benchbook.schemas import Field, Kind, declare

#: Experiment name: the raw folder ``data/raw/<name>/``, the registry ``reports/numbers/<name>.json``.
EXPERIMENT = "template"
#: Record kind of one measured run.
SCHEMA = "benchbook.template"

#: The record kind, declared once here (``benchbook.schemas``: writers build it, readers check it).
KIND = declare(
    Kind(
        EXPERIMENT,
        SCHEMA,
        1,
        "one timed sha256 of an in-memory buffer",
        (
            Field("run_id", pl.String, "32 hex"),
            Field("run_key", pl.String, "16 hex: config + host"),
            Field("session_id", pl.String, "the shared session"),
            Field("experiment", pl.String, "the experiment name"),
            Field("config", pl.Struct({"size_bytes": pl.Int64, "rep": pl.Int64}), "the run's configuration"),
            Field("size_bytes", pl.Int64, "buffer size", "bytes"),
            Field("rep", pl.Int64, "repetition (0-based)"),
            Field("wall_ns", pl.Int64, "wall time of one sha256", "ns"),
            Field("host_id", pl.String, "host snapshot id"),
            Field("toolchain_id", pl.String, "16 hex of the runtime that hashed (its build)"),
            Field("runtime", pl.String, "the runtime in words: Python and OpenSSL versions"),
            Field("started_at", pl.String, "UTC ISO 8601"),
            Field("ended_at", pl.String, "UTC ISO 8601"),
            Field("git_commit", pl.String, "benchbook's git HEAD", nullable=True),
            Field("git_dirty", pl.Boolean, "code or params differ from HEAD", nullable=True),
        ),
        written_by=(f"experiments/{EXPERIMENT}/run.py:measure",),
        read_by=(f"experiments/{EXPERIMENT}/analysis.py:load",),
    )
)
