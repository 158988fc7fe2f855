"""Hostile raw JSONL for the batch-ahead reader (``benchbook.jsonl``): odd first lines, lines that are JSON
but not objects, bytes that are not UTF-8, and a bad line in a file with fields the declaration lacks.
Each test names the input, the wrong output it gave and the right one."""

import json
import warnings

import polars as pl
import pytest

from benchbook import jsonl
from benchbook.experiments.llama_bench import analysis
from benchbook.records import RecordError
from test_identity import pp512

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


def _read_error(path) -> str:
    with pytest.raises(RecordError) as e:
        list(jsonl.iter_files([path], A, "raise", None))
    return str(e.value)


def test_a_line_that_is_not_utf8_is_named(tmp_path):
    # byte 0xff on line 2. Before: "x.jsonl: unreadable" (the line search read with errors='replace',
    # so line 2 held valid JSON); now the line and why
    path = tmp_path / "x.jsonl"
    path.write_bytes(b'{"a": 1}\n{"a": 2, "s": "\xff"}\n{"a": 3}\n')
    assert _read_error(path).startswith(f"{path}:2: not UTF-8 text (")


def test_records_separated_by_carriage_returns_only_are_one_bad_line(tmp_path):
    # a file of "\r" line endings is one line to the readers (they split at "\n").  Before: "unreadable"
    # (the line search split at "\r" too, so every line it saw was JSON); now line 1 and the JSON error
    path = tmp_path / "x.jsonl"
    path.write_bytes(b'{"a": 1}\r{"a": 2}\r')
    assert _read_error(path).startswith(f"{path}:1: Extra data: line 1 column 10 (char 9)")


@pytest.mark.parametrize("line", ["[1, 2]", "null", "5", '"text"', "  [1]"])
def test_a_line_that_is_json_but_not_an_object_is_named(tmp_path, line):
    # line 2 of three.  Before: read as a record of nulls on both paths (Polars' decoders give no
    # error), so a llama-bench reader dropped it as a record of another kind; scan_jsonl's contract is a
    # RecordError naming the line ("raise") or a bad_json count ("skip")
    path = tmp_path / "x.jsonl"
    path.write_text('{"a": 1}\n' + line + '\n{"a": 3}\n')
    assert _read_error(path).startswith(f"{path}:2: not a JSON object;")
    report: dict = {}
    (df,) = jsonl.iter_files([path], A, "skip", report)
    assert df["a"].to_list() == [1, 3] and df["line"].to_list() == [1, 3]
    assert report == {"bad_json": 1, "bad_lines": [f"{path}:2"]}


def test_a_line_that_is_not_an_object_is_named_in_a_later_batch(tmp_path, monkeypatch):
    # batches of 2 lines: "null" on line 6 (third batch), where the read-ahead decoder meets it
    monkeypatch.setattr(jsonl, "_READ_BATCH", 2)
    path = tmp_path / "x.jsonl"
    path.write_text('{"a": 1}\n' * 5 + "null\n" + '{"a": 1}\n')
    assert _read_error(path).startswith(f"{path}:6: not a JSON object;")


@pytest.mark.parametrize("batch", [2, jsonl._READ_BATCH])
def test_fields_the_declaration_lacks_are_kept_when_a_bad_line_sends_the_file_to_the_tolerant_path(
    tmp_path, monkeypatch, batch
):
    # records a-d plain, e-f with kv_unified=1 (lines 6-7), a torn line 3, read with on_error="skip".
    # Before: the tolerant path decoded with the declared schema, so kv_unified was warned about
    # ("kept as text in config_extra and made part of the configuration key") yet dropped: one
    # configuration of n = 6 x 3 = 18.  Right: a-d (n = 12) and e-f (n = 6, kv_unified=1).  With
    # batches of 2 the fast path stopped at line 3's batch and never looked at lines 6-7 at all.
    monkeypatch.setattr(jsonl, "_READ_BATCH", batch)
    recs = [json.dumps(pp512(r, [1000] * 3)) for r in "abcd"]
    recs += [json.dumps(pp512(r, [1000] * 3, kv_unified=1)) for r in "ef"]
    recs.insert(2, recs[0][:40])
    (tmp_path / "h.jsonl").write_text("\n".join(recs) + "\n")
    report: dict = {}
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        st = analysis.rate_stats(analysis.load_llama_bench(tmp_path, "skip", report))
    assert st["config_extra"].to_list() == [None, "kv_unified=1"]
    assert st["n"].to_list() == [12, 6]
    assert report["bad_lines"] == [f"{tmp_path / 'h.jsonl'}:3"]
    assert [w.split(" llama_bench")[0] for w in report["warnings"]] == [f"{tmp_path / 'h.jsonl'}:6:"]


def test_an_invalid_record_before_a_bad_line_is_counted_once(tmp_path, monkeypatch):
    # batches of 2: line 3 (n_prompt -5, invalid) is validated in the second batch, then the torn line 5
    # sends the file to the tolerant path, which validates every line again.  Before: invalid 2, its
    # example twice; right: invalid 1 (and the 5 good records kept)
    monkeypatch.setattr(jsonl, "_READ_BATCH", 2)
    recs = [pp512(r, [1000] * 3) for r in "abcdef"]
    recs[2]["llama_bench"]["n_prompt"] = -5
    lines = [json.dumps(r) for r in recs]
    lines.insert(4, "{torn")
    path = tmp_path / "h.jsonl"
    path.write_text("\n".join(lines) + "\n")
    report: dict = {}
    df = analysis.load_llama_bench(tmp_path, "skip", report)
    assert df["line"].to_list() == [1, 2, 4, 6, 7]
    assert report["invalid"] == 1
    assert report["invalid_examples"] == [f"{path}:3: field 'llama_bench.n_prompt' must be an integer >= 0"]
    assert report["bad_lines"] == [f"{path}:5"]


def test_a_record_of_a_newer_version_is_named_as_such(tmp_path):
    # line 3 written by a newer benchbook (schema_version 99).  Before: "field 'origin' is missing or of
    # the wrong type; fix: the record is not benchbook.llama_bench v2 - re-run or repair it" (validate
    # names a row's first failed check, and the version check came after the fields)
    recs = [pp512(r, [1000] * 3) for r in "abcd"]
    recs[2]["schema_version"] = 99
    path = tmp_path / "h.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in recs) + "\n")
    with pytest.raises(RecordError) as e:
        analysis.load_llama_bench(tmp_path)
    assert str(e.value) == (
        f"{path}:3: field 'schema_version' is missing or newer than this benchbook; fix: update benchbook"
    )


def test_the_record_reader_splits_lines_where_the_table_reader_does(tmp_path):
    # records.iter_records (speculative, sessions) read a file of "\r"-separated records as lines 1, 2
    # (Python's universal newlines) while the Polars readers, the writer's line count and the cited-line
    # hashes see one line: file:line citations of one file disagreed.  Now both: line 1 is not JSON
    from benchbook import records

    path = tmp_path / "x.jsonl"
    rec = '{"schema": "benchbook.session", "schema_version": 1, "event": "start"}'
    path.write_bytes((rec + "\r" + rec + "\r\n").encode())
    with pytest.raises(RecordError, match=r"x\.jsonl:1: not valid JSON \(Extra data"):
        list(records.iter_records(path))
    # a CRLF file reads as before: line numbers 1, 2
    path.write_bytes((rec + "\r\n" + rec + "\r\n").encode())
    assert [i for i, _ in records.iter_records(path)] == [1, 2]


def test_the_hosts_table_reads_session_lines_where_the_other_readers_do(tmp_path):
    # hosts._session_records opened the raw file with universal newlines too (and the locale's encoding)
    from benchbook import hosts

    path = tmp_path / "x.jsonl"
    rec = '{"schema": "benchbook.session", "schema_version": 1, "event": "start"}'
    path.write_bytes((rec + "\r" + rec + "\n").encode())
    with pytest.raises(RecordError, match=r"x\.jsonl:1: not valid JSON \(Extra data"):
        hosts._session_records([path])
