"""A hostile host snapshot, toolchain snapshot and llama-bench stderr: every text a record or snapshot
carries reaches the pages as inert text (issue 34 §1).

Snapshots travel between hosts through git, so a contributor can plant text that a reader's browser
or the builder's Quarto would act on: a ``<script>``, a shortcode that copies a file into the page
(``{{< include … >}}``, ``{{< env … >}}``), a ``{{< var >}}`` that becomes a provenance-linked number,
and ``$…$`` that Pandoc reads as math (two of them failed the build).  Each writer of such text routes
it through ``benchbook.escape``; the generated Markdown holds none of those delimiters, and decoded
(as the reader sees it) shows the planted text as written.
"""

from __future__ import annotations

import html
import json
import shutil
import subprocess
import sys
from pathlib import Path

from benchbook import escape, hosts, measured, resolve
from benchbook.experiments.llama_bench import report as lb_report
from benchbook.experiments.offload import report as offload_report
from conftest import committed_root

#: Planted in every text field of the GPU host's snapshot, its toolchain's label and a failure reason.
PAYLOAD = (
    "<script>alert(1)</script> {{< include /etc/os-release >}} {{< env HOME >}} {{< var lb-x >}} $x$ $y$"
)
HOST = "e3618a24b4e44752"


def _inert(markdown: str, *, own_vars: bool = False, payload: str = PAYLOAD) -> None:
    """No HTML tag, shortcode or math delimiter survives in ``markdown``; ``own_vars``: the page's own
    ``{{< var KEY >}}`` links are allowed, never the planted one; ``payload``: what the reader sees."""
    body = markdown
    if own_vars:
        assert "{{< var lb-x" not in body
        body = "".join(part.split(">}}", 1)[-1] for part in body.split("{{< var lb-"))
    assert "<" not in body and ">" not in body, body
    assert "{{" not in body and "}}" not in body and "$" not in body, body
    assert payload in html.unescape(markdown)  # shown to the reader as written


def _hostile_raw(tmp_path: Path, payload: str = PAYLOAD) -> Path:
    """A copy of the committed ``data/raw`` whose GPU host has PAYLOAD as CPU, OS and GPU name, and
    whose toolchains carry PAYLOAD as their source label."""
    raw = tmp_path / "data" / "raw"
    shutil.copytree(committed_root() / "data" / "raw", raw)
    for f in [*(raw / "snapshots").rglob("host*.jsonl"), *(raw / "snapshots").rglob("hosts/*.jsonl")]:
        lines = []
        for line in f.read_text().splitlines():
            rec = json.loads(line)
            if rec.get("host_id") == HOST and rec.get("schema") == "benchbook.host":
                rec.update(cpu_model=payload, os=payload)
                rec["gpus"] = [{**g, "name": payload} for g in rec.get("gpus") or []]
            lines.append(json.dumps(rec))
        f.write_text("\n".join(lines) + "\n")
    for f in (raw / "snapshots").rglob("toolchain*.jsonl"):
        lines = []
        for line in f.read_text().splitlines():
            rec = json.loads(line)
            if rec.get("schema") == "benchbook.toolchain":
                rec["source"] = {**(rec.get("source") or {}), "label": payload}
            lines.append(json.dumps(rec))
        f.write_text("\n".join(lines) + "\n")
    return raw


def test_the_every_host_panel_shows_a_hostile_snapshot_as_text(tmp_path):
    raw = _hostile_raw(tmp_path)
    panel = hosts.hosts_panel(raw, "offload", None)
    _inert(panel)
    machine = next(line for line in panel.splitlines() if line.startswith("| machine |"))
    # before: "| machine | CPU <script>alert(1)</script> {{< include /etc/os-release >}} … $x$ $y$ (16 …"
    assert machine.startswith(
        "| machine | CPU &#60;script&#62;alert&#40;1&#41;&#60;/script&#62; &#123;&#123;&#60; include"
    )
    builds = next(line for line in panel.splitlines() if line.startswith("| builds |"))
    assert "&#123;&#123;&#60; var lb-x &#62;&#125;&#125;" in builds


def test_the_llama_bench_hosts_table_shows_a_hostile_snapshot_as_text(tmp_path):
    raw = _hostile_raw(tmp_path)
    params = resolve.load_params(committed_root())
    out = tmp_path / "out"
    lb_report.derive(
        raw / "llama_bench",
        raw / "snapshots",
        out / "lb",
        out / "numbers.json",
        out / "metrics.json",
        params["report"],
        root=tmp_path,
    )
    page = (out / "lb" / "hosts.md").read_text()
    _inert(page, own_vars=True)
    # before: host_line was html.escape + "|": "{{< include /etc/os-release >}}" and "$x$" stayed live
    assert "&#123;&#123;&#60; include /etc/os-release &#62;&#125;&#125;" in page


def test_an_offload_failure_reason_from_stderr_is_text(tmp_path):
    from test_offload import _write_session

    path = tmp_path / "raw" / "offload" / "h1.jsonl"
    _write_session(path)
    text = path.read_text().replace("out of memory: cudaMalloc failed", json.dumps(PAYLOAD)[1:-1])
    path.write_text(text)
    offload_report.build(
        {"report": {"confidence": 0.95}}, root=tmp_path, raw_dir=Path("raw"), reports_dir=Path("rep")
    )
    sweep = (tmp_path / "rep/offload/sweep.md").read_text()
    failed = next(line for line in sweep.splitlines() if "failed:" in line)
    # a path in a tool's stderr is shown without the machine's folders (paths.public_text, issue 33 §3)
    _inert(failed, payload=PAYLOAD.replace("/etc/os-release", "<local>/os-release"))
    assert failed.endswith(
        "| failed: &#60;script&#62;alert&#40;1&#41;&#60;/script&#62; "
        "&#123;&#123;&#60; include &#60;local&#62;/os-release &#62;&#125;&#125; "
        "&#123;&#123;&#60; env HOME &#62;&#125;&#125; &#123;&#123;&#60; var lb-x &#62;&#125;&#125; "
        "&#36;x&#36; &#36;y&#36; |"
    )


def test_skipped_sessions_show_record_text_as_text():
    check = measured.SessionCheck(
        session_id=PAYLOAD,
        experiment="llama_bench",
        host_id=PAYLOAD,
        started_at="2026-12-01T00:00:00Z",
        ended_at=PAYLOAD,
        file="data/raw/llama_bench/h.jsonl",
        reasons=[f"run 1: stop_type {PAYLOAD}"],
    )
    page = measured.skipped_markdown([check], drift={PAYLOAD: [f"`model`: the session ran {PAYLOAD!r}"]})
    _inert(page)


def test_html_text_holds_no_shortcode_or_math_inside_a_raw_html_block():
    # Quarto expands shortcodes inside ```{=html} blocks too: braces and $ are entities there as well
    assert escape.html_text(PAYLOAD) == (
        "&lt;script&gt;alert(1)&lt;/script&gt; &#123;&#123;&lt; include /etc/os-release &gt;&#125;&#125; "
        "&#123;&#123;&lt; env HOME &gt;&#125;&#125; &#123;&#123;&lt; var lb-x &gt;&#125;&#125; "
        "&#36;x&#36; &#36;y&#36;"
    )
    assert html.unescape(escape.html_text(PAYLOAD)) == PAYLOAD


def test_the_offline_renderer_shows_the_hostile_panel_as_text(tmp_path):
    """The panel through the site's offline renderer (smalldocs, as ``site.render`` runs it): no script
    element, no file included from outside the project, no provenance link for the planted var, no math.
    Before (the raw text): ``<script>alert(1)</script>`` in the page, the var a link, ``$x$`` a math span."""
    smalldocs = shutil.which("smalldocs") or str(Path(sys.executable).with_name("smalldocs"))
    payload = "<script>alert(1)</script> {{< include ../secret.txt >}} {{< var lb-x >}} $x$ $y$"
    (tmp_path / "secret.txt").write_text("TOP-SECRET-LINE\n")
    site = tmp_path / "site"
    site.mkdir()
    raw = _hostile_raw(tmp_path / "repo", payload)
    (site / "hosts.md").write_text(hosts.hosts_panel(raw, "offload", None))
    (site / "_quarto.yml").write_text(
        "project:\n  type: website\n  render: [index.qmd]\nwebsite:\n  title: t\n"
    )
    (site / "_variables.yml").write_text('lb-x: "[1.0 tok/s](provenance.html#n-lb-x)"\n')
    (site / "index.qmd").write_text("---\ntitle: Hosts\n---\n\n{{< include hosts.md >}}\n")
    subprocess.run([smalldocs, "render"], cwd=site, check=True, capture_output=True)
    page = (site / "_site" / "index.html").read_text()
    assert "<script>alert" not in page and "TOP-SECRET-LINE" not in page
    assert "provenance.html#n-lb-x" not in page and 'class="math' not in page
    assert "TOP-SECRET-LINE" not in (site / "_site" / "search.json").read_text()
    # shown as written
    assert "&lt;script&gt;alert(1)&lt;/script&gt; {{&lt; include ../secret.txt &gt;}}" in page


#: Breaker S1: terminal controls planted in a contributed host snapshot's CPU name: ESC [2J (clear the
#: screen), OSC 0 (window title), BEL, RTL override, C1 CSI.
TERMINAL_PAYLOAD = "AMD \x1b[2J\x1b]0;PWNTITLE\x07EPYC \u202eLTR \x9b31m"
TERMINAL_SHOWN = "AMD ⟨U+001B⟩[2J⟨U+001B⟩]0;PWNTITLE⟨U+0007⟩EPYC ⟨U+202E⟩LTR ⟨U+009B⟩31m"


def _controls(text: str) -> list[str]:
    """The control and bidi characters of ``text`` but tab, newline and carriage return."""
    return [c for c in text if c != escape.visible_controls(c)]


def test_benchbook_hosts_prints_planted_terminal_controls_as_code_points(tmp_path, monkeypatch, capsys):
    from benchbook.cli import main

    raw = _hostile_raw(tmp_path, TERMINAL_PAYLOAD)
    (tmp_path / "params.yaml").write_text((committed_root() / "params.yaml").read_text())
    (tmp_path / "dvc.yaml").write_text("stages: {}\n")
    assert raw.is_dir()
    monkeypatch.chdir(tmp_path)
    assert main(["hosts"]) == 0
    out, err = capsys.readouterr()
    assert TERMINAL_SHOWN in out and _controls(out + err) == []
    assert escape.visible_controls("tab\tnl\ncr\r") == "tab\tnl\ncr\r"  # control: layout characters pass


def test_every_cli_error_line_is_escaped_too(tmp_path, monkeypatch, capsys):
    """The same path covers stderr: a missing file named with an ESC in its name."""
    from benchbook.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["records", "repair", "x\x1b]0;T\x07.jsonl"]) == 2
    out, err = capsys.readouterr()
    assert _controls(out + err) == [] and "x⟨U+001B⟩]0;T⟨U+0007⟩.jsonl" in err
