"""Regression tests for breaker report item 22: a model output holding U+2028, U+2029 or U+0085 (which
JSON allows raw inside a string, and ``str.splitlines`` takes as line breaks) must neither tear a record
when read nor be written raw into a JSONL file."""

import json
from pathlib import Path

import pytest

from benchbook import records
from benchbook.numbers import load_all
from benchbook.outputs import read_requests

FX = Path(__file__).parent / "fixtures" / "outputs_breaker" / "spec_request_u2028.jsonl"
TEXT = "Line one\u2028Line two \x85 end"


def test_a_record_with_unicode_line_breaks_reads_as_one_record():
    # breaker #22: read_requests split the line at U+2028 and U+0085 (str.splitlines) and failed with
    # "not JSON ... fix: benchbook records repair", which then said the file was intact
    got = read_requests(FX, {"s1"})
    assert [r["content"] for r in got] == [TEXT]


def test_writer_escapes_unicode_line_breaks_and_readers_split_at_newline_only(tmp_path):
    path = tmp_path / "r.jsonl"
    rec = json.loads(FX.read_text(encoding="utf-8"))
    with records.RecordWriter(path) as w:
        assert w.append(rec) == 1
        assert w.append(rec) == 2
    raw = path.read_text(encoding="utf-8")
    assert not any(ch in raw for ch in records.LINE_BREAKS_IN_STRINGS)
    assert "\\u2028" in raw and "\\u0085" in raw
    assert len(raw.splitlines()) == 2  # even str.splitlines sees two lines now
    assert [r["content"] for _, r in records.iter_records(path)] == [TEXT, TEXT]
    assert records.jsonl_lines('{"a": "x\u2028y"}\n{"b": 1}\n') == ['{"a": "x\u2028y"}', '{"b": 1}']
    assert json.loads(records.json_line({"t": TEXT})) == {"t": TEXT}


def test_a_corrupt_numbers_registry_names_its_file(tmp_path):
    # breaker #30: a corrupt reports/numbers/*.json gave a bare JSONDecodeError without the file
    (tmp_path / "llama_bench.json").write_text('{"schema": "benchbook.numbers",\n "numbers": {\n')
    with pytest.raises(ValueError) as e:
        load_all(tmp_path)
    assert str(e.value).startswith(f"{tmp_path / 'llama_bench.json'}:3:1: not a JSON numbers registry (")
    assert str(e.value).endswith(
        "fix: re-run the report stage that writes it (`dvc repro`), or delete llama_bench.json if no "
        "stage writes it"
    )
