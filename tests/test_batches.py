"""Reading a file batch by batch (issue 11, Performance): each batch of lines is decoded, validated and
flattened before the next, and the result is the one a single pass over the file gives."""

import pytest

from benchbook import jsonl
from benchbook.experiments.llama_bench import analysis
from benchbook.records import RecordError
from test_analysis import write
from test_identity import pp512, stats


def test_invalid_records_are_counted_over_the_whole_file_not_per_batch(tmp_path, monkeypatch):
    # batches of 2 lines; lines 2 and 4 lack run_id: one error naming line 2 and one more record
    monkeypatch.setattr(jsonl, "_READ_BATCH", 2)
    recs = [pp512(r, [1000] * 3) for r in "abcd"]
    recs[1]["run_id"] = None
    recs[3]["run_id"] = None
    write(tmp_path / "h.jsonl", recs)
    with pytest.raises(RecordError) as e:
        analysis.load_llama_bench(tmp_path)
    assert str(e.value).startswith(f"{tmp_path / 'h.jsonl'}:2: field 'run_id'")
    assert "(1 more invalid records;" in str(e.value)
    report: dict = {}
    flat = analysis.load_llama_bench(tmp_path, on_error="skip", report=report)
    assert flat["line"].to_list() == [1, 3] and report["invalid"] == 2
    assert [x.split(": ")[0] for x in report["invalid_examples"]] == [
        f"{tmp_path / 'h.jsonl'}:2",
        f"{tmp_path / 'h.jsonl'}:4",
    ]


def test_integer_load_mode_rows_are_counted_over_the_whole_file(tmp_path, monkeypatch):
    # batches of 2 lines; load_mode is the integer 1 on lines 2, 3 and 4: one warning naming line 2 and
    # the 2 other rows (counted across the batches)
    monkeypatch.setattr(jsonl, "_READ_BATCH", 2)
    recs = [pp512(r, [1000] * 3, load_mode=1 if r != "a" else "mmap") for r in "abcd"]
    st, warned = stats(tmp_path, recs)
    assert st["load_mode"].to_list() == ["mmap", None] and st["n"].to_list() == [3, 9]
    lm = [w for w in warned if "load_mode" in w]
    assert len(lm) == 1 and lm[0].startswith(f"{tmp_path / 'h.jsonl'}:2:")
    assert lm[0].endswith("(2 more rows in this file)")


def test_one_batch_and_many_batches_give_the_same_statistics(tmp_path, monkeypatch):
    recs = [pp512(f"r{i}", [1000 + i, 1010 + i, 990 + i], n_ubatch=512 * (1 + i % 2)) for i in range(7)]
    whole, _ = stats(tmp_path, recs)
    monkeypatch.setattr(jsonl, "_READ_BATCH", 3)
    monkeypatch.setattr(jsonl, "_DECODE_SLICE", 2)
    batched, _ = stats(tmp_path, recs)
    assert batched.equals(whole)
    assert whole["n_ubatch"].to_list() == [512, 1024] and whole["n"].to_list() == [12, 9]
