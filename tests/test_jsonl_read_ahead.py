"""jsonl._read_ahead: batches decoded on a thread of their own, one ahead of the consumer."""

import threading

import polars as pl
import pytest

from benchbook import jsonl
from benchbook.records import RecordError


def _source(n, fail_at=None, log=None):
    try:
        for i in range(n):
            if i == fail_at:
                raise pl.exceptions.ComputeError(f"bad item {i}")
            yield i
    finally:
        if log is not None:
            log.append(("closed", threading.current_thread().name))


def test_items_in_order_and_the_source_closed():
    log: list = []
    assert list(jsonl._read_ahead(_source(7, log=log))) == [0, 1, 2, 3, 4, 5, 6]
    assert log == [("closed", "jsonl-read-ahead")]


def test_an_error_is_raised_at_the_item_it_replaced():
    got = []
    with pytest.raises(pl.exceptions.ComputeError, match="bad item 3"):
        for x in jsonl._read_ahead(_source(7, fail_at=3)):
            got.append(x)
    assert got == [0, 1, 2]


def test_a_consumer_that_stops_early_stops_the_thread_and_closes_the_source():
    log: list = []
    ahead = jsonl._read_ahead(_source(1000, log=log), depth=2)
    assert [next(ahead), next(ahead)] == [0, 1]
    ahead.close()
    # the worker was joined before close() returned: it put at most depth items past the two taken
    assert log == [("closed", "jsonl-read-ahead")]
    assert not any(t.name == "jsonl-read-ahead" for t in threading.enumerate())


def test_a_file_read_ahead_still_names_its_first_bad_line(tmp_path, monkeypatch):
    # the decode error of a later batch (lines 5-6) reaches the reader, which takes the tolerant path
    # and names the line
    monkeypatch.setattr(jsonl, "_READ_BATCH", 2)
    good = '{"schema": "x", "v": 1}\n'
    p = tmp_path / "a.jsonl"
    p.write_text(good * 5 + "{not json\n" + good)
    schema = {"schema": pl.String, "v": pl.Int64}
    with pytest.raises(RecordError, match=r"a\.jsonl:6: "):
        list(jsonl.iter_files([p], schema, "raise", None))


def test_batches_read_ahead_equal_the_file(tmp_path, monkeypatch):
    monkeypatch.setattr(jsonl, "_READ_BATCH", 3)
    p = tmp_path / "a.jsonl"
    p.write_text("".join(f'{{"v": {i}}}\n' for i in range(10)))
    (df,) = jsonl.iter_files([p], {"v": pl.Int64}, "raise", None)
    assert df["v"].to_list() == list(range(10)) and df["line"].to_list() == list(range(1, 11))
