"""Template report: the per-size table of the latest session -> numbers in the registry.

One number per size, ``<experiment>-sha256-<KiB>kib`` (MiB/s, n, 95% interval, source lines).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from benchbook import blocks, measured
from benchbook.experiments import reporting
from benchbook.numbers import Number, Unit, make_key

from . import EXPERIMENT
from .analysis import load, table


def build(params: dict, *, root: Path, raw_dir: Path, reports_dir: Path) -> TemplateReport:
    """The stage ``template_report``: publishes ``reports_dir/numbers/template.json`` and writes
    ``reports_dir/template/sizes.csv`` through the one report pipeline (``reporting.publish_report``)
    from the session its policy publishes (``measured.POLICIES``: a new experiment adds its row there;
    ``measured.select``: the primary host's newest session whose records prove a complete measurement
    made in it, else the newest of any host).  Returns a ``TemplateReport``.

    Raises:
        RuntimeError: no session under ``raw_dir/template`` passes the checks (fix: ``python -m
            benchbook.experiments template``: the template has no DVC stage; the message lists the
            sessions skipped and why).
    """
    where = reporting.Where.of(EXPERIMENT, root=root, raw_dir=raw_dir, reports_dir=reports_dir)
    done = reporting.publish_report(REPORT, params, where)
    where.out.mkdir(parents=True, exist_ok=True)
    done.table.select("size_bytes", "n", "mean_mib_s", "ci_low", "ci_high").write_csv(where.out / "sizes.csv")
    return TemplateReport(session=done.inputs.selection.published[0], table=done.table, numbers=done.numbers)


def sizes(inputs: reporting.Inputs) -> pl.DataFrame:
    """The per-size table (``analysis.table``) of the session the pipeline selected."""
    runs = load(inputs.where.raw).filter(pl.col("session_id").is_in(inputs.session_ids()))
    return table(runs, inputs.confidence)


def numbers(_inputs: reporting.Inputs, t: pl.DataFrame) -> list[Number]:
    """One number per size, ``<experiment>-sha256-<KiB>kib``: the mean rate with its interval."""
    nums = []
    for r in t.iter_rows(named=True):
        ci = [r["ci_low"], r["ci_high"]] if r["ci_low"] is not None else None
        nums.append(
            Number(
                key=make_key(EXPERIMENT, "sha256", f"{r['size_bytes'] // 1024}kib"),
                value=round(r["mean_mib_s"], 3),
                unit=Unit.MIB_S,
                label=f"sha256 of {r['size_bytes']} bytes",
                n=r["n"],
                sd=r["sd_mib_s"],
                ci95=ci,
                ci_method="student-t on the log scale (delta method), n >= 3, over runs" if ci else None,
                computation="benchbook.experiments.template.analysis.table",
                # the command that measured its runs (they hash in the measuring process: no argv)
                **reporting.cite(r, commands=[["dvc", "repro", EXPERIMENT]]),
            )
        )
    return nums


#: what the template plugs into the one report pipeline
REPORT = reporting.Report(
    EXPERIMENT,
    table=sizes,
    numbers=numbers,
    replication="runs",
    fix=f"measure one with `python -m benchbook.experiments {EXPERIMENT}` (the template has no DVC stage)",
)


@dataclass
class TemplateReport:
    """What ``build`` computed and wrote: the ``session`` reported (its check), its per-size ``table`` and
    the published ``numbers``."""

    session: measured.SessionCheck
    table: pl.DataFrame
    numbers: list[Number]


def sections(res: TemplateReport, paths: blocks.Paths) -> Iterator[blocks.Block]:
    """What the report notebook shows (``notebooks/report.ipynb -p experiment template``, through
    ``blocks.show``): the per-size table and the published numbers, then the checks (``AssertionError``
    on a failed one).  Outputs are Markdown, SVG or text, never HTML (the site renders the notebook)."""
    from benchbook.numtable import frame_table, numbers_table

    yield blocks.Markdown(
        "# Template report\nMean sha256 throughput per size with its 95% interval (latest session)."
    )
    yield blocks.Markdown(frame_table(res.table.select("size_bytes", "n", "mean_mib_s", "ci_low", "ci_high")))
    yield blocks.Markdown(numbers_table(res.numbers, to_root=paths.to_root))
    assert len(res.numbers) == res.table.height > 0
    assert all(n.value > 0 and n.sources for n in res.numbers)
    yield blocks.Text(f"ok: {len(res.numbers)} numbers")
