"""Numbers `benchbook claims draft` left uncaptured (issue 29, branch numbers): a header named once
over several run columns, unit-less values under labels, several runs in one cell, arrow pairs, units
in words of other languages and a unit carried from the sentence before; each with its drafted
values exactly and a control that must not fire."""

from __future__ import annotations

from benchbook.audit import schema
from drafting import conditions
from drafting import drafted as _drafted


def _rows(cf: schema.ClaimsFile) -> list[tuple]:
    return [(c.metric, c.value, c.unit, c.decimals) for c in cf.claims]


# --- a header named once over its run columns (p122) -------------------------------------------------

RUNS_TABLE = (
    "# Macs\n\n"
    "| GPU | Model | eval time |     |     | mean eval time |\n"
    "| --- | --- | --- | --- | --- | --- |\n"
    "| M2 Pro | 7B_q4_0 | 28.92 | 28.54 | 29.27 | 28.91 |\n"
)


def test_blank_headers_after_a_timing_header_are_its_runs_and_the_mean_column_a_statement(tmp_path):
    cf = _drafted(RUNS_TABLE, tmp_path)
    assert _rows(cf) == [
        ("eval_ms", 28.92, "ms", 2),
        ("eval_ms", 28.54, "ms", 2),
        ("eval_ms", 29.27, "ms", 2),
    ]
    assert [conditions(cf, c)["run_index"] for c in cf.claims] == [1, 2, 3]
    (mean,) = cf.statements
    assert (mean.kind, mean.value, mean.unit) == ("mean", 28.91, "ms")
    assert mean.of == [c.id for c in cf.claims]


def test_a_blank_header_after_a_label_column_is_no_run(tmp_path):
    # control: "| Model |  |" with a plain number under the blank: no run of a measurement
    cf = _drafted("# T\n\n| Model |  | Speed (tok/s) |\n| --- | --- | --- |\n| 7B | 3 | 41.5 |\n", tmp_path)
    assert _rows(cf) == [("decode_tps", 41.5, "tok/s", 1)]


# --- decimal-comma cells whose unit is only in the row label (p130) ---------------------------------

COMMA_TABLE = (
    "# v1 and v2\n\n"
    "|                | v1         | v2         |\n"
    "| -------------- | ---------- | ---------- |\n"
    "| **VRAM**       | 11295MiB   | 11653MiB   |\n"
    "| **512 tokens (generation, seconds)**  | 13,25  | 10,04      |\n"
    "| **ppl**        | 5,57350826 | 5,57457876 |\n"
)


def test_a_table_of_metric_rows_reads_decimal_commas_under_the_row_labels_unit(tmp_path):
    cf = _drafted(COMMA_TABLE, tmp_path)
    assert _rows(cf) == [
        ("vram", 11295, "MiB", 0),
        ("vram", 11653, "MiB", 0),
        ("duration", 13.25, "s", 2),
        ("duration", 10.04, "s", 2),
        ("perplexity", 5.57350826, "PPL", 8),
        ("perplexity", 5.57457876, "PPL", 8),
    ]
    # "512 tokens" names the workload the time is of, not the unit of the cells
    assert not [c for c in cf.claims if c.unit == "tokens"]
