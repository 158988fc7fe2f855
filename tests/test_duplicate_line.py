"""A duplicated raw line is reported and dropped, and a headline from an older session or another host
than the primary says so on the page (issue 34 §7).

Before: one llama-bench row appended twice unpublished the newest session with a misleading reason ("its
samples sum to 1.396 s but the invocation's wall time is 1.178 s") and every headline number moved to an
older session silently (q8_0 pp128 warm 621.03 -> 494.24 tok/s on the committed data; 769.73 -> 351.04
in the report); a primary host with no passing session gave its headline to another host while the page
said that every host's newest session passed.
"""

from __future__ import annotations

import html
import shutil
from pathlib import Path

from benchbook import measured, resolve
from benchbook.experiments.llama_bench import report
from conftest import committed_root

HOST = "246274abff670295"
NEWEST = "d2ee0d2ad2874050b015ff06a4c62196"


def _derive(tmp_path: Path, duplicate: bool):
    raw = tmp_path / "data" / "raw"
    shutil.copytree(committed_root() / "data" / "raw", raw)
    f = raw / "llama_bench" / f"{HOST}.jsonl"
    lines = f.read_text().splitlines()
    start = max(i for i, line in enumerate(lines) if '"benchbook.session"' in line and '"start"' in line)
    row = next(i for i in range(start, len(lines)) if '"benchbook.llama_bench"' in lines[i])
    if duplicate:
        lines.insert(row + 1, lines[row])
    f.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out"
    res = report.derive(
        raw / "llama_bench",
        raw / "snapshots",
        out / "lb",
        out / "numbers.json",
        out / "metrics.json",
        resolve.load_params(committed_root())["report"],
        root=tmp_path,
    )
    return res, html.unescape((out / "lb" / "skipped.md").read_text()), row + 1


def test_a_duplicated_row_is_dropped_and_reported_and_the_headline_stays(tmp_path):
    clean, _, _ = _derive(tmp_path / "clean", duplicate=False)
    res, page, line = _derive(tmp_path / "dup", duplicate=True)
    key = "lb-smollm2-135m-q8_0-pp128-warm"
    value = {n.key: n.value for n in res.numbers}[key]
    # before: 494.24 (from the older session 2f3374db); now the newest session's, as without the copy
    assert value == {n.key: n.value for n in clean.numbers}[key] == 621.03
    assert {n.session_id for n in res.numbers if n.host_id == HOST} == {NEWEST}
    assert page.startswith("Every host's newest completed session passed the checks")
    assert (
        f"- session `{NEWEST}`:\n  - data/raw/llama_bench/{HOST}.jsonl:{line + 1}: a duplicate of line "
        f"{line} (run 66968c9cfd044550b7afa27c66a1797f, same row): dropped, the first copy kept"
    ) in page
    assert "samples sum to" not in page


def _check(sid: str, host: str, ended: str, ok: bool) -> measured.SessionCheck:
    return measured.SessionCheck(
        session_id=sid,
        experiment="speculative",
        host_id=host,
        started_at="2026-12-01T00:00:00Z",
        ended_at=ended,
        file="f.jsonl",
        reasons=[] if ok else ["f.jsonl:3 (run r1): ran outside its session"],
    )


def test_a_headline_from_another_host_than_the_primary_says_so():
    checks = {
        "p1": _check("p1", "primary0", "2026-12-01T02:00:00Z", ok=False),
        "o1": _check("o1", "other000", "2026-12-01T01:00:00Z", ok=True),
    }
    picked = measured.select("speculative", checks, "primary0")
    assert picked.chosen is not None and picked.chosen.host_id == "other000"
    # before: skipped held only the chosen host's failures (none): "every host's newest ... passed"
    assert [c.session_id for c in picked.skipped] == ["p1"]
    page = html.unescape(
        measured.skipped_markdown(picked.skipped, published=picked.published, primary_host="primary0")
    )
    assert page.endswith(
        "The numbers on this page come from host `other000`, not the primary host `primary0` "
        "(params.yaml `report.primary_host`): no session of the primary host passed the checks.\n"
    )


def test_a_headline_from_an_older_session_says_so_and_a_clean_one_says_nothing():
    checks = {
        "new": _check("new", "h1", "2026-12-01T02:00:00Z", ok=False),
        "old": _check("old", "h1", "2026-12-01T01:00:00Z", ok=True),
    }
    picked = measured.select("speculative", checks, "h1")
    page = html.unescape(
        measured.skipped_markdown(picked.skipped, published=picked.published, primary_host="h1")
    )
    assert page.endswith(
        "The numbers of host `h1` come from session `old` (ended 2026-12-01T01:00:00Z), older than its "
        "newest: the 1 newer session of that host did not pass the checks (above).\n"
    )
    # control: the newest session passes -> neither sentence
    clean = {"old": _check("old", "h1", "2026-12-01T01:00:00Z", ok=True)}
    picked = measured.select("speculative", clean, "h1")
    assert measured.skipped_markdown(picked.skipped, published=picked.published, primary_host="h1") == (
        "Every host's newest completed session passed the checks (measured in the session, complete).\n"
    )


def test_a_duplicated_session_start_or_end_line_is_reported_and_dropped(tmp_path):
    """A session's start or end line appended twice was tolerated silently (fault catalogue, left by the
    breaker): no number moved, but nothing said so.  Now each is listed as dropped; the numbers stay."""
    raw = tmp_path / "data" / "raw"
    shutil.copytree(committed_root() / "data" / "raw", raw)
    f = raw / "llama_bench" / f"{HOST}.jsonl"
    lines = f.read_text().splitlines()
    start = max(i for i, line in enumerate(lines) if '"benchbook.session"' in line and '"start"' in line)
    end = max(i for i, line in enumerate(lines) if '"benchbook.session"' in line and '"end"' in line)
    lines.insert(end + 1, lines[end])
    lines.insert(start + 1, lines[start])
    f.write_text("\n".join(lines) + "\n")
    checks = measured.check_sessions([f], "llama_bench", ("benchbook.llama_bench",))
    assert checks[NEWEST].ok
    assert checks[NEWEST].notes == [
        f"{f}:{start + 2}: a duplicate of the session's start record at line {start + 1}: dropped, "
        "the first kept",
        f"{f}:{end + 3}: a duplicate of the session's end record at line {end + 2}: dropped, the first kept",
    ]
