import json
import os

import pytest

from benchbook import records
from benchbook.records import RecordError, RecordWriter, iter_records, repair
from benchbook.session import Session, completed_sessions, run_key


def rec(i):
    return {"schema": "benchbook.llama_bench", "schema_version": 2, "run_id": f"r{i}", "i": i}


def test_writer_fsyncs_every_record_and_returns_line_numbers(tmp_path, monkeypatch):
    calls = []
    real = os.fsync
    monkeypatch.setattr(records.os, "fsync", lambda fd: (calls.append(fd), real(fd)))
    p = tmp_path / "a.jsonl"
    with RecordWriter(p) as w:
        assert [w.append(rec(i)) for i in range(3)] == [1, 2, 3]
    assert len(calls) == 3
    with RecordWriter(p) as w:  # reopening continues the numbering
        assert w.append(rec(3)) == 4
    assert [r["i"] for _, r in iter_records(p)] == [0, 1, 2, 3]


def test_writer_requires_schema_and_version(tmp_path):
    with RecordWriter(tmp_path / "a.jsonl") as w:
        with pytest.raises(RecordError, match="schema_version"):
            w.append({"schema": "benchbook.host"})
        with pytest.raises(ValueError):  # NaN is not JSON
            w.append({"schema": "benchbook.host", "schema_version": 1, "v": float("nan")})


def test_torn_last_line_is_quarantined_with_position(tmp_path):
    p = tmp_path / "a.jsonl"
    with RecordWriter(p) as w:
        w.append(rec(0))
        w.append(rec(1))
    good = p.read_bytes()
    with open(p, "ab") as f:
        f.write(b'{"schema": "benchbook.llama_bench", "schema_ver')
    moved = repair(p)
    assert moved["line"] == 3 and moved["byte_offset"] == len(good)
    assert moved["raw"] == '{"schema": "benchbook.llama_bench", "schema_ver'
    assert p.read_bytes() == good  # every completed record intact
    q = json.loads((tmp_path / "a.jsonl.quarantine.jsonl").read_text())
    assert moved["file"] == str(p)  # what the caller is told: the real path
    # what is written: no folder of this machine (a file outside a project: its name; issue 33 §3)
    assert q["line"] == 3 and q["file"] == "<local>/a.jsonl"
    assert repair(p) is None


def test_unparseable_middle_line_names_file_and_line(tmp_path):
    p = tmp_path / "a.jsonl"
    p.write_text(json.dumps(rec(0)) + "\nnot json\n" + json.dumps(rec(2)) + "\n")
    with pytest.raises(RecordError, match=r"a\.jsonl:2: not valid JSON"):
        list(iter_records(p))


def _killed(s: Session) -> None:
    """What a kill -9 leaves of ``s``: its file closed without an end record, its lock dropped (the
    kernel drops a ``flock`` with its holder)."""
    s.writer.close()
    assert s.lock is not None
    s.lock.release()


def test_session_resumes_after_kill_and_never_reuses_completed(tmp_path):
    p = tmp_path / "s.jsonl"
    k1, k2 = run_key({"a": 1}, "m", "t", "h"), run_key({"a": 2}, "m", "t", "h")
    assert k1 != k2 and k1 == run_key({"a": 1}, "m", "t", "h")
    s = Session.open(p, "exp")
    s.append({"schema": "benchbook.llama_bench", "schema_version": 2, "run_key": k1})
    _killed(s)  # killed: no end record
    with open(p, "ab") as f:
        f.write(b'{"torn')
    s2 = Session.open(p, "exp")
    assert s2.resumed and s2.session_id == s.session_id
    assert s2.quarantined["line"] == 3
    assert s2.done(k1) and not s2.done(k2)
    s2.append({"schema": "benchbook.llama_bench", "schema_version": 2, "run_key": k2})
    s2.close()
    assert completed_sessions(p, "exp") == [s.session_id]
    s3 = Session.open(p, "exp")
    assert not s3.resumed and s3.session_id != s.session_id and not s3.done(k1)
    s3.close()


def test_partial_row_group_does_not_complete_a_run(tmp_path):
    p = tmp_path / "s.jsonl"
    s = Session.open(p, "exp")
    s.append({"schema": "benchbook.llama_bench", "schema_version": 2, "run_key": "k", "run_complete": False})
    _killed(s)
    assert not Session.open(p, "exp").done("k")


def test_complete_record_without_newline_is_kept_not_quarantined(tmp_path):
    p = tmp_path / "a.jsonl"
    p.write_text(json.dumps(rec(1)) + "\n" + json.dumps(rec(2)))
    assert repair(p) is None
    assert [r["i"] for _, r in iter_records(p)] == [1, 2]
    assert p.read_text().endswith("\n") and not (tmp_path / "a.jsonl.quarantine.jsonl").exists()
    p.write_text(json.dumps(rec(1)) + "\n\n")
    assert repair(p) is None and [r["i"] for _, r in iter_records(p)] == [1]


def test_interrupted_session_is_not_resumed_under_other_conditions(tmp_path):
    p = tmp_path / "s.jsonl"
    s = Session.open(p, "exp", {"toolchain_id": "AAAA", "config": {"repetitions": 5}})
    s.append({"schema": "benchbook.llama_bench", "schema_version": 2, "run_key": "k1"})
    _killed(s)  # killed
    s2 = Session.open(p, "exp", {"toolchain_id": "BBBB", "config": {"repetitions": 5}})
    assert not s2.resumed and s2.session_id != s.session_id and s2.abandoned == s.session_id
    assert not s2.done("k1")
    _killed(s2)
    s3 = Session.open(p, "exp", {"toolchain_id": "BBBB", "config": {"repetitions": 5}})
    assert s3.resumed and s3.session_id == s2.session_id
    s3.close()


def test_fresh_session_env_never_resumes_and_names_the_abandoned_one(tmp_path, monkeypatch):
    p = tmp_path / "s.jsonl"
    meta = {"toolchain_id": "AAAA", "config": {"repetitions": 2}}
    s = Session.open(p, "exp", meta)
    s.append({"schema": "benchbook.llama_bench", "schema_version": 2, "run_key": "k1"})
    _killed(s)  # killed: the same meta would resume it
    monkeypatch.setenv("BENCHBOOK_FRESH_SESSION", "1")
    s2 = Session.open(p, "exp", meta)
    assert not s2.resumed and s2.session_id != s.session_id and s2.abandoned == s.session_id
    assert not s2.done("k1")
    s2.close()
    assert completed_sessions(p, "exp") == [s2.session_id]
    monkeypatch.setenv("BENCHBOOK_FRESH_SESSION", "0")  # "0": resume as usual
    s3 = Session.open(p, "exp", meta)
    assert not s3.resumed  # s2 ended: a completed session is never reused
    _killed(s3)
    assert Session.open(p, "exp", meta).resumed


@pytest.mark.parametrize("off", ["false", "False", "no", "off", " 0 "])
def test_fresh_session_env_set_to_a_word_for_off_still_resumes(tmp_path, monkeypatch, off):
    # BENCHBOOK_FRESH_SESSION=false read as on (only "" and "0" were off): the interrupted session was
    # abandoned (left open, never published) and a new one measured everything again
    p = tmp_path / "s.jsonl"
    meta = {"toolchain_id": "AAAA", "config": {"repetitions": 2}}
    s = Session.open(p, "exp", meta)
    s.append({"schema": "benchbook.llama_bench", "schema_version": 2, "run_key": "k1"})
    _killed(s)  # killed
    monkeypatch.setenv("BENCHBOOK_FRESH_SESSION", off)
    s2 = Session.open(p, "exp", meta)
    assert s2.resumed and s2.session_id == s.session_id and s2.abandoned is None and s2.done("k1")
    _killed(s2)


def test_unknown_kind_or_newer_version_is_refused_on_write_and_read(tmp_path):
    p = tmp_path / "a.jsonl"
    with RecordWriter(p) as w:
        w.append(rec(0))
        with pytest.raises(records.SchemaError, match=r"a\.jsonl:2: record kind 'x\.y' is not declared"):
            w.append({"schema": "x.y", "schema_version": 1})
        with pytest.raises(
            records.SchemaError, match=r"a\.jsonl:2: benchbook\.llama_bench schema_version 9 is newer"
        ):
            w.append({**rec(1), "schema_version": 9})
    with open(p, "a") as f:
        f.write(json.dumps({"schema": "benchbook.host", "schema_version": 7}) + "\n")
    with pytest.raises(
        records.SchemaError, match=r"a\.jsonl:2: benchbook\.host schema_version 7 is newer than this"
    ):
        list(iter_records(p))


def test_snapshot_store_is_host_keyed_and_reads_the_committed_flat_files(tmp_path):
    from pathlib import Path

    from benchbook import provenance

    committed = Path(__file__).resolve().parents[1] / "data" / "raw" / "snapshots"
    d = tmp_path / "snapshots"
    d.mkdir()
    (d / "hosts.jsonl").write_text((committed / "hosts.jsonl").read_text())  # the old layout, as committed
    old = provenance.read_snapshots(d, "host")
    assert sorted(old) == ["246274abff670295", "e3618a24b4e44752"]
    here = provenance.host_snapshot()
    for writer in ("aaaa", "bbbb"):  # two machines store the same and another snapshot: one file each
        other = {**here.record(), "host_id": writer}
        assert provenance.store_snapshot(d, "host", other, writer)
        assert not provenance.store_snapshot(d, "host", other, writer)
    assert not provenance.store_snapshot(d, "host", old["246274abff670295"] | {"_file": None}, "aaaa")
    assert sorted(p.name for p in (d / "hosts").iterdir()) == ["aaaa.jsonl", "bbbb.jsonl"]
    assert sorted(provenance.read_snapshots(d, "host")) == [
        "246274abff670295",
        "aaaa",
        "bbbb",
        "e3618a24b4e44752",
    ]


NOT_JSONL = "not a benchbook raw file (its name does not end in .jsonl)"


@pytest.mark.parametrize(
    ("name", "content", "reason"),
    [
        ("some.gguf", b"GGUF\x03\x00\xff\xfe binary\n\x00\x01 tail without newline", NOT_JSONL),
        ("params.yaml", b"a: 1\nb: 2", NOT_JSONL),
        ("notes.txt", b"hello\nworld", NOT_JSONL),
        ("notes.jsonl", b'hello\n{"x', "line 1 is not a benchbook record"),
        ("blob.jsonl", b"\xff\xfe\x00\n\x00tail", "line 1 is not a benchbook record"),
        ("plain.jsonl", b'{"a": 1}\n{"b', "line 1 is not a benchbook record"),
    ],
)
def test_repair_refuses_a_non_records_file_and_touches_nothing(tmp_path, capsys, name, content, reason):
    """Breaker D1: `records repair some.gguf` cut the model's tail into a quarantine file."""
    from benchbook.cli import main

    p = tmp_path / name
    p.write_bytes(content)
    assert main(["records", "repair", str(p)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"benchbook: error: {p}: {reason}") and "nothing touched; fix: " in err
    assert p.read_bytes() == content
    assert sorted(x.name for x in tmp_path.iterdir()) == [name]  # no quarantine file written


def test_repair_still_mends_records_with_a_torn_last_line(tmp_path):
    """Control for D1: a raw file of records (blank lines allowed) with a torn last line is still mended."""
    p = tmp_path / "a.jsonl"
    good = (json.dumps(rec(0)) + "\n\n" + json.dumps(rec(1)) + "\n").encode()
    p.write_bytes(good + b'{"schema": "benc')
    assert repair(p)["line"] == 4 and p.read_bytes() == good


def test_bytes_that_are_not_utf8_are_named_by_file_and_line(tmp_path):
    """Catalogue R06: a raw file with \\xff\\xfe inside its 4th line ended the report stage in a bare
    ``UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff in position 5451`` traceback."""
    from benchbook.records import RecordError, iter_records

    f = tmp_path / "h.jsonl"
    good = b'{"schema": "benchbook.session", "schema_version": 1, "event": "start"}\n'
    f.write_bytes(good * 3 + b'{"schema": "benchbook.ll\xff\xfeama"}\n' + good)
    with pytest.raises(RecordError) as e:
        list(iter_records(f))
    assert str(e.value) == (
        f"{f}:4: byte 24 of the line is not UTF-8 (invalid start byte); fix: restore the file from git "
        "(raw records are written as UTF-8 JSON lines)"
    )
