"""Hostile raw JSONL for the batch-ahead reader (``benchbook.jsonl``): odd first lines, lines that are JSON
but not objects, bytes that are not UTF-8, and a bad line in a file with fields the declaration lacks.
Each test names the input, the wrong output it gave and the right one."""

import polars as pl
import pytest

from benchbook import jsonl

A = {"a": pl.Int64}


@pytest.mark.parametrize("first", ["  \n", "\r\n", "\t\r\n"])
def test_a_blank_first_line_keeps_line_numbers_on_the_tolerant_path(tmp_path, first):
    # the value "x" (not an Int64) sends the file to the tolerant path; lines 2, 3, 4 hold the records.
    # Before: a first line of whitespace (or a CRLF file's blank first line) was not seen as blank and
    # the records read as lines 1, 2, 3, so validation named line 2 for the bad value on line 3
    path = tmp_path / "x.jsonl"
    path.write_bytes((first + '{"a": 1}\n{"a": "x"}\n{"a": 3}\n').encode())
    df = jsonl.scan_jsonl([path], A).collect()
    assert df["a"].to_list() == [1, None, 3]
    assert df["line"].to_list() == [2, 3, 4]
