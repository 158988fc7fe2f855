"""Links of a built site that lead nowhere, and the write-ups' provenance links.

The write-up's executed notebook (``writeups/user-gguf/llama_bench_report.ipynb``) linked its number
keys to ``../../provenance/llama_bench.html#n-lb-my-q8_0-…``: a page the site renders from its own
registry, which never holds a write-up's numbers, so every link was dead.  Now the notebook links to
``./provenance/`` (``-p to_root ./``), the site renders the write-up and its own provenance pages from
its committed registry (``sitewriteups``), and a build with any dead local link fails (``sitelinks``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from benchbook import site, sitewriteups
from benchbook.sitelinks import dead_links

ROOT = Path(__file__).resolve().parents[1]
WRITEUP = ROOT / "writeups" / "user-gguf"


def test_dead_links_names_each_missing_file_anchor_and_escape(tmp_path):
    s = tmp_path / "_site"
    (s / "sub").mkdir(parents=True)
    (s / "a.html").write_text(
        '<p id="top">x</p><a href="sub/b.html#here">ok</a> <a href="#top">ok</a> <img src="sub/pic.svg">'
        '<a href="https://example.org/x">external</a> <a href="mailto:x@y">mail</a> <a href="#">top</a>'
        '<a href="sub/b.html#gone">anchor</a> <a href="missing.html">file</a>'
        '<a href="../outside.html">up</a>'
    )
    (s / "sub" / "b.html").write_text('<h2 id="here">b</h2><a href="../a.html?x=1#top">back</a>')
    (s / "sub" / "pic.svg").write_text("<svg/>")
    (tmp_path / "outside.html").write_text("exists, but not in the site")
    assert dead_links(s) == [
        "a.html: ../outside.html (outside the site)",
        "a.html: missing.html (no such file in the site)",
        "a.html: sub/b.html#gone (no id 'gone' on that page)",
    ]


def test_a_site_build_with_a_dead_link_fails_naming_page_and_link(tmp_path):
    (tmp_path / "_quarto.yml").write_text(
        yaml.safe_dump(
            {
                "project": {"type": "website", "render": ["p.qmd", "q.qmd"]},
                "format": {"html": {"theme": "litera"}},  # no web font: nothing fetched from outside
            }
        )
    )
    (tmp_path / "q.qmd").write_text("---\ntitle: q\n---\n\n## Here {#here}\n\nText.\n")
    (tmp_path / "p.qmd").write_text("---\ntitle: p\n---\n\n[ok](q.qmd#here) and [dead](q.qmd#nowhere).\n")
    (tmp_path / "reports" / "numbers").mkdir(parents=True)
    with pytest.raises(site.SiteError) as e:
        site.render(tmp_path)
    assert str(e.value).splitlines() == [
        "links in the built site lead nowhere (a file or an anchor the site lacks):",
        "p.html: q.html#nowhere (no id 'nowhere' on that page)",
        "fix: correct the link's source (a page, a generated part or a notebook's output), or render "
        "its target",
    ]


def test_the_writeup_notebook_links_its_keys_to_its_own_provenance_pages():
    nb = json.loads((WRITEUP / "llama_bench_report.ipynb").read_text())
    md = "".join(
        "".join(o["data"]["text/markdown"])
        for c in nb["cells"]
        for o in c.get("outputs", [])
        if "text/markdown" in o.get("data", {})
    )
    links = re.findall(r"\]\(([^)]*provenance[^)]*)\)", md)
    registry = json.loads((WRITEUP / "reports" / "numbers" / "llama_bench.json").read_text())["numbers"]
    # one link per published number, each to ./provenance/<experiment>.html#n-KEY
    assert sorted(links) == sorted(f"./provenance/llama_bench.html#n-{k}" for k in registry)
    assert sorted(registry) == ["lb-my-q8_0-pp128-warm", "lb-my-q8_0-tg64-warm"]


def test_writeup_provenance_pages_hold_every_key_and_link_to_the_site_root(tmp_path):
    root = tmp_path
    dst = root / "writeups" / "user-gguf"
    for sub in ("reports/numbers", "raw/snapshots"):
        src = WRITEUP / sub
        for f in src.rglob("*"):
            if f.is_file():
                (dst / sub / f.relative_to(src)).parent.mkdir(parents=True, exist_ok=True)
                (dst / sub / f.relative_to(src)).write_bytes(f.read_bytes())
    (root / "writeups" / "no-registry").mkdir()  # a folder without reports/numbers is no write-up
    assert sitewriteups.writeup_dirs(root) == [dst]
    pages = sitewriteups.provenance_pages(root)
    assert pages == [dst / "provenance" / "llama_bench.qmd"]
    text = pages[0].read_text()
    assert "{#n-lb-my-q8_0-pp128-warm}" in text and "{#n-lb-my-q8_0-tg64-warm}" in text
    # the caveat rules are on the site root's provenance page, three folders up
    assert "](../../../provenance.qmd#caveat-rules)" in text
    assert '<a href="../../../provenance.html#c-between_session_spread">' in text
    # the model named from the write-up's own (host-keyed) snapshots, not a bare sha256
    assert (
        "model my-q8_0 <code>7b46609d11703c058397e5cfe4cc6e4b2508cb1eb4c80ddc472a5d421fbdb508</code>" in text
    )
