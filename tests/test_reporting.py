"""The one report pipeline (``experiments.reporting``, issue 26 §2): citations filled from the rows a
number names, caveats set per number from one row each, and a report with no publishable session."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from benchbook.experiments import reporting
from benchbook.numbers import Number, Unit

ROW = {
    "files": ["data/raw/e/h.jsonl"],
    "lines": [3, 4, 9],
    "run_ids": ["r1", "r2"],
    "argv": ["llama-bench", "-m", "m.gguf"],
    "host_id": "h1",
    "session_id": "s1",
    "toolchain_id": "t1",
    "model_sha256": "abc",
    "started_at": "2026-11-29T12:00:00Z",
    "ended_at": "2026-11-29T12:01:00Z",
    "runtime": "torch 2.11",
}


def test_cite_fills_a_numbers_provenance_from_the_rows_it_names():
    other = {
        **ROW,
        "lines": [5, 10],
        "run_ids": ["r2", "r3"],
        "host_id": "h2",
        "started_at": "2026-11-29T11:59:00Z",
        "ended_at": "2026-11-29T12:00:30Z",
    }
    got = reporting.cite([ROW, other])
    # one source per file, the lines of both rows; run ids in row order, each once; the field the rows
    # disagree on (host) is left out; the span from the earliest start to the latest end
    assert got["sources"] == [{"file": "data/raw/e/h.jsonl", "lines": [[3, 5], [9, 10]]}]
    assert got["run_ids"] == ["r1", "r2", "r3"]
    assert (got["host_id"], got["session_id"], got["model_sha256"]) == (None, "s1", "abc")
    assert (got["measured_from"], got["measured_to"]) == ("2026-11-29T11:59:00Z", "2026-11-29T12:01:00Z")
    assert got["commands"] == [["llama-bench", "-m", "m.gguf"]] and got["build"] == "torch 2.11"
    # a row without argv: the session's command; a llama.cpp row: the build label of its toolchain
    bare = {k: v for k, v in ROW.items() if k != "argv"}
    assert reporting.cite(bare, commands=[["dvc", "repro", "e"]])["commands"] == [["dvc", "repro", "e"]]
    tc = {"t1": {"build_number": 11434, "build_commit": "unknown", "backend": "cpu"}}
    assert reporting.cite({**ROW, "build_number": None}, toolchains=tc)["build"] == "b11434 (unknown) cpu"
    with pytest.raises(ValueError, match="no rows"):
        reporting.cite([])


def _inputs(tmp_path: Path) -> reporting.Inputs:
    where = reporting.Where.of("template", root=tmp_path, raw_dir=Path("raw"), reports_dir=Path("rep"))
    sel = reporting.measured.Selection("template", [], [], {})
    return reporting.Inputs("template", {}, {"confidence": 0.95, "primary_host": None}, where, sel, {}, {})


def _num(key: str) -> Number:
    return Number(key=key, value=1.0, unit=Unit.FRACTION, label=key, n=1, computation="c")


def test_judge_numbers_sets_each_numbers_caveats_from_its_own_row(tmp_path):
    nums = [_num("a"), _num("b")]
    rows = pl.DataFrame({"host_id": ["h1", "h1"], "run_ids": [["r1"], ["r2"]], "n": [1, 3]})
    reporting.judge_numbers(nums, rows, "draftself", _inputs(tmp_path), ["single_run"])
    # single_run fires on the row of one repetition only (the control: n = 3 carries nothing)
    assert [n.caveats for n in nums] == [["single_run"], []]
    with pytest.raises(ValueError, match="1 caveat rows for 2 numbers"):
        reporting.judge_numbers(nums, rows.head(1), "draftself", _inputs(tmp_path))


def test_a_report_with_no_publishable_session_names_the_fix_and_writes_nothing(tmp_path):
    from benchbook.experiments.template.report import REPORT

    where = reporting.Where.of("template", root=tmp_path, raw_dir=Path("raw"), reports_dir=Path("rep"))
    with pytest.raises(RuntimeError, match="no completed template session under .* fix: measure one"):
        reporting.publish_report(REPORT, {}, where)
    assert not where.numbers.exists()


def test_a_report_that_may_be_empty_publishes_an_empty_registry_without_a_table(tmp_path):
    """``Report.empty_ok`` (offload: its sessions need a CUDA host): no session is no error; the table
    and numbers are not built, the registry is written with no numbers; the control above raises."""
    import dataclasses
    import json

    from benchbook.experiments.template.report import REPORT

    def never(*_):
        raise AssertionError("no table without a published session")

    spec = dataclasses.replace(REPORT, table=never, numbers=never, empty_ok=True)
    where = reporting.Where.of("template", root=tmp_path, raw_dir=Path("raw"), reports_dir=Path("rep"))
    done = reporting.publish_report(spec, {}, where)
    assert (done.table, done.numbers, done.inputs.session_ids()) == (None, [], [])
    assert json.loads(where.numbers.read_text())["numbers"] in ([], {})
