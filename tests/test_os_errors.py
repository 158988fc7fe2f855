"""An ``OSError`` (a folder where a file should be, a full disk, a read-only file system) is one
``benchbook: error: <path>: <reason>; fix: …`` line and exit 2, never a traceback (issue 34 §9)."""

from __future__ import annotations

import errno

from benchbook import cli, errors


def test_records_repair_on_a_directory_is_one_line(tmp_path, capsys):
    # before: an IsADirectoryError traceback
    assert cli.main(["records", "repair", str(tmp_path)]) == errors.EXIT_ERROR
    assert capsys.readouterr().err == (
        f"benchbook: error: {tmp_path}: not a benchbook raw file (its name does not end in .jsonl), nothing "
        "touched; fix: `records repair` only mends a raw records file (data/raw/**/*.jsonl) whose last line "
        "was torn\n"
    )


def test_a_full_disk_and_a_read_only_folder_are_one_line_each(capsys):
    full = OSError(errno.ENOSPC, "No space left on device", "params.yaml")
    assert errors.report(full) == errors.EXIT_ERROR
    ro = OSError(errno.EROFS, "Read-only file system", "data/raw/llama_bench/h.jsonl")
    errors.report(ro)
    cache = NotADirectoryError(errno.ENOTDIR, "Not a directory", "/home/u/.cache/benchbook/logs")
    errors.report(cache)
    assert capsys.readouterr().err.splitlines() == [
        "benchbook: error: params.yaml: No space left on device; fix: free disk space there, then run again "
        "(a rewritten file keeps its old content; a record cut short at the end of a raw file is moved aside "
        "when the file is next written)",
        "benchbook: error: data/raw/llama_bench/h.jsonl: Read-only file system; fix: the file system is "
        "read-only: run from a writable copy (or set BENCHBOOK_CACHE)",
        "benchbook: error: /home/u/.cache/benchbook/logs: Not a directory; fix: a file stands where a "
        "folder should be: move it away",
    ]
    # control: benchbook's own FileNotFoundError keeps its message (it names the path and the fix)
    errors.report(FileNotFoundError("x/params.yaml not found; run from the benchbook repository"))
    assert capsys.readouterr().err == (
        "benchbook: error: x/params.yaml not found; run from the benchbook repository\n"
    )


def test_a_full_raw_folder_names_the_raw_file(tmp_path, monkeypatch, capsys):
    # before: "benchbook: error: ?: No space left on device" (write/fsync name no file); seen on a full
    # 64 KiB tmpfs with `benchbook ingest … --out` and `records repair`
    import os

    from benchbook import records

    raw = tmp_path / "raw" / "h.jsonl"
    w = records.RecordWriter(raw)

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(records.os, "fsync", full)
    try:
        w.append(records.build("quarantine", file="f", line=1, byte_offset=0, raw="x", quarantined_at="t"))
    except OSError as e:
        errors.report(e)
    monkeypatch.setattr(records.os, "fsync", os.fsync)
    w.close()
    assert capsys.readouterr().err.startswith(f"benchbook: error: {raw}: No space left on device; fix: free ")


def test_a_read_only_folder_names_the_file_being_rewritten_not_its_temporary(tmp_path, monkeypatch, capsys):
    # before: "benchbook: error: …/.params.yaml.s7olhwxh.tmp: Read-only file system" (`models add` with
    # params.yaml on a read-only mount)
    from benchbook import atomicfile

    def read_only(dir, prefix, suffix):
        raise OSError(errno.EROFS, "Read-only file system", f"{dir}/{prefix}abc{suffix}")

    monkeypatch.setattr(atomicfile.tempfile, "mkstemp", read_only)
    try:
        atomicfile.write_text(tmp_path / "params.yaml", "x")
    except OSError as e:
        errors.report(e)
    assert capsys.readouterr().err == (
        f"benchbook: error: {tmp_path / 'params.yaml'}: Read-only file system; fix: the file system is "
        "read-only: run from a writable copy (or set BENCHBOOK_CACHE)\n"
    )


def test_a_file_where_the_cache_folder_should_be(tmp_path, monkeypatch, capsys):
    # before: "File exists; fix: something already stands at that path: move it away"
    (tmp_path / "cache").write_text("")
    monkeypatch.setenv("BENCHBOOK_CACHE", str(tmp_path / "cache"))
    assert cli.main(["doctor"]) == errors.EXIT_ERROR
    assert capsys.readouterr().err == (
        f"benchbook: error: {tmp_path / 'cache'}: Not a directory; fix: a file stands where a folder should "
        "be: move it away\n"
    )


def test_records_repair_of_a_missing_file_is_an_error_not_intact(tmp_path, capsys):
    # before: "…/absent.jsonl: intact", exit 0
    assert cli.main(["records", "repair", str(tmp_path / "absent.jsonl")]) == errors.EXIT_ERROR
    assert capsys.readouterr().err == (
        f"benchbook: error: {tmp_path / 'absent.jsonl'}: No such file or directory; fix: check the path (a "
        "folder on it may be missing, or the file was never made)\n"
    )
