"""Template report: the per-size table of the latest session -> numbers in the registry.

One number per size, ``<experiment>-sha256-<KiB>kib`` (MiB/s, n, 95% interval, source lines).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from benchbook import blocks, measured
from benchbook.numbers import Number, Unit, line_ranges, make_key, publish

from . import EXPERIMENT
from .analysis import load, table


def build(params: dict, *, root: Path, raw_dir: Path, reports_dir: Path) -> TemplateReport:
    """The stage ``template_report``: publishes ``reports_dir/numbers/template.json`` and writes
    ``reports_dir/template/sizes.csv`` from the session its policy publishes (``measured.POLICIES``: a
    new experiment adds its row there; ``measured.select``: the primary host's newest session whose
    records prove a complete measurement made in it, else the newest of any host).  Returns a
    ``TemplateReport``.

    Raises:
        RuntimeError: no session under ``raw_dir/template`` passes the checks (fix: ``python -m
            benchbook.experiments template``: the template has no DVC stage; the message lists the
            sessions skipped and why).
    """
    root = Path(root)
    raw, rep = root / raw_dir, root / reports_dir
    report = (params or {}).get("report") or {}
    picked = measured.select(
        EXPERIMENT, measured.check(EXPERIMENT, raw / EXPERIMENT), report.get("primary_host")
    )
    sess = picked.chosen
    if sess is None:
        raise RuntimeError(
            f"no completed {EXPERIMENT} session under {raw / EXPERIMENT} that passes the checks; fix: "
            f"measure one with `python -m benchbook.experiments {EXPERIMENT}` (the template has no DVC "
            f"stage)\n{measured.skipped_markdown(picked.skipped)}"
        )
    confidence = report.get("confidence", 0.95)
    t = table(load(raw).filter(pl.col("session_id") == sess.session_id), confidence)
    nums = []
    for r in t.iter_rows(named=True):
        ci = [r["ci_low"], r["ci_high"]] if r["ci_low"] is not None else None
        files = [str(f) for f in r["files"]]  # numbers.publish writes them relative to root
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
                sources=[{"file": f, "lines": line_ranges(r["lines"])} for f in files],
                run_ids=r["run_ids"],
                # the command that measured its runs (they hash in the measuring process: no argv)
                commands=[["dvc", "repro", EXPERIMENT]],
                host_id=r["host_id"],
                session_id=r["session_id"],
                toolchain_id=r["toolchain_id"],
                build=r["runtime"],
            )
        )
    publish(rep / "numbers" / f"{EXPERIMENT}.json", EXPERIMENT, nums, root=root, replication="runs")
    (rep / EXPERIMENT).mkdir(parents=True, exist_ok=True)
    t.select("size_bytes", "n", "mean_mib_s", "ci_low", "ci_high").write_csv(rep / EXPERIMENT / "sizes.csv")
    return TemplateReport(session=sess, table=t, numbers=nums)


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
