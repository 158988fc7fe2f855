"""A claims file audited on its own (not ``--all``) writes its records and page under
``reports/audit-adhoc/``: a new user's ``benchbook audit`` of a file outside data/claims wrote
``audits/<name>.qmd``, which the site rendered (``_quarto.yml``: ``audits/*.qmd``) but the audits index
did not list, and which the ``audit`` stage deletes at its next run (its output folder)."""

from __future__ import annotations

import shutil
from pathlib import Path

from benchbook.audit import command

CLOVER = Path(__file__).resolve().parents[1] / "data" / "claims" / "clover-35b-a3b-blog.yaml"


def test_an_adhoc_audit_is_written_outside_the_site(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    mine = tmp_path / "elsewhere" / "my-claims.yaml"
    mine.parent.mkdir()
    shutil.copy(CLOVER, mine)
    assert command.main([str(mine)]) == 0
    assert sorted(p.relative_to(tmp_path).as_posix() for p in (tmp_path / "reports").rglob("*")) == [
        "reports/audit-adhoc",
        "reports/audit-adhoc/my-claims.jsonl",
        "reports/audit-adhoc/my-claims.qmd",
    ]
    assert not (tmp_path / "audits").exists()
    err = capsys.readouterr().err
    assert err.rstrip().endswith("records in reports/audit-adhoc/, pages in reports/audit-adhoc/")


def test_the_stage_still_writes_the_site_folders(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    claims = tmp_path / "data" / "claims"
    claims.mkdir(parents=True)
    shutil.copy(CLOVER, claims / CLOVER.name)
    assert command.main(["--all", "data/claims"]) == 0
    assert sorted(p.name for p in (tmp_path / "audits").iterdir()) == ["clover-35b-a3b-blog.qmd", "index.qmd"]
    assert [p.name for p in (tmp_path / "reports" / "audit").iterdir()] == ["clover-35b-a3b-blog.jsonl"]
    assert not (tmp_path / "reports" / "audit-adhoc").exists()


def test_out_alone_puts_the_pages_beside_the_records(tmp_path, monkeypatch):
    """``--out DIR`` without ``--pages`` wrote the pages into the working directory's
    reports/audit-adhoc/ (a repository checkout gained an untracked folder); they go to DIR now."""
    monkeypatch.chdir(tmp_path)
    assert command.main([str(CLOVER), "--out", "mine"]) == 0
    assert sorted(p.name for p in (tmp_path / "mine").iterdir()) == [
        "clover-35b-a3b-blog.jsonl",
        "clover-35b-a3b-blog.qmd",
    ]
    assert not (tmp_path / "reports").exists()


def test_a_folder_as_the_claims_file_or_a_file_as_out_is_one_error_line(tmp_path, capsys):
    """Breaker finding 16: tracebacks (IsADirectoryError, FileExistsError, 'claims: 7')."""
    (tmp_path / "a-file").write_text("")
    (tmp_path / "c7.yaml").write_text(
        "schema: benchbook.claims\nschema_version: 1\nsource: {kind: blog}\nclaims: 7\n"
    )
    cases = [
        (
            [str(tmp_path), "--out", str(tmp_path / "o")],
            f"{tmp_path}: Is a directory; fix: a folder stands where",
        ),
        ([str(CLOVER), "--out", str(tmp_path / "a-file")], f"{tmp_path / 'a-file'}: File exists; fix:"),
        (
            [str(tmp_path / "c7.yaml"), "--out", str(tmp_path / "o")],
            "c7.yaml:4: claims: Input should be a valid list",
        ),
    ]
    for argv, start in cases:
        assert command.main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("benchbook: error: ") and start in err and "Traceback" not in err
