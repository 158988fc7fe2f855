"""An ``OSError`` (a folder where a file should be, a full disk, a read-only file system) is one
``benchbook: error: <path>: <reason>; fix: …`` line and exit 2, never a traceback (issue 34 §9)."""

from __future__ import annotations

import errno

from benchbook import cli, errors


def test_records_repair_on_a_directory_is_one_line(tmp_path, capsys):
    # before: an IsADirectoryError traceback
    assert cli.main(["records", "repair", str(tmp_path)]) == errors.EXIT_ERROR
    assert capsys.readouterr().err == (
        f"benchbook: error: {tmp_path}: Is a directory; fix: a folder stands where a file should be: give "
        "the file's path, or move the folder away\n"
    )


def test_a_full_disk_and_a_read_only_folder_are_one_line_each(capsys):
    full = OSError(errno.ENOSPC, "No space left on device", "params.yaml")
    assert errors.report(full) == errors.EXIT_ERROR
    ro = OSError(errno.EROFS, "Read-only file system", "data/raw/llama_bench/h.jsonl")
    errors.report(ro)
    cache = NotADirectoryError(errno.ENOTDIR, "Not a directory", "/home/u/.cache/benchbook/logs")
    errors.report(cache)
    assert capsys.readouterr().err.splitlines() == [
        "benchbook: error: params.yaml: No space left on device; fix: free disk space there (the file "
        "written last was not replaced: nothing was cut)",
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
