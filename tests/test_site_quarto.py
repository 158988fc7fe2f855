"""The site under Quarto (issue 32): every Quarto behaviour the build relies on, checked on pages, output
and stylesheet rules written in Quarto's form (``quarto_form``, each function naming the quarto-cli file
it follows).  Quarto is optional at run time and absent here: the end-to-end tests put a stand-in
``quarto`` on PATH that renders with smalldocs and then writes its links as Quarto does, prints
Quarto's coloured warnings or shows Quarto's text for an unknown key.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

import pytest
import yaml

import quarto_form
from benchbook import site, siterenderer, stages
from benchbook.numbers import Number, publish
from benchbook.sitecheck import page_links, renderer_warnings, resolve_link, unknown_shortcodes

TESTS = Path(__file__).parent


def test_quarto_writes_input_links_with_its_project_offset():
    # top-level page: offset "." (projectOffset), output href "/provenance/e.html"
    assert quarto_form.href("index.qmd", "provenance/e.qmd#n-a") == "./provenance/e.html#n-a"
    # one folder down, a link written relative to the page
    assert quarto_form.href("audits/a.qmd", "../provenance/e.qmd#n-a") == "../provenance/e.html#n-a"
    # a notebook two folders down linking to the root's provenance page
    assert (
        quarto_form.href("reports/notebooks/r.ipynb", "../../provenance.qmd#c-rule")
        == "../../provenance.html#c-rule"
    )
    # a provenance page linking back up
    assert quarto_form.href("provenance/e.qmd", "../provenance.qmd") == "../provenance.html"


def test_links_resolve_against_the_page_url():
    assert resolve_link("index.html", "./provenance/e.html#n-a") == ("provenance/e.html", "n-a")
    assert resolve_link("index.html", "provenance/e.html#n-a") == ("provenance/e.html", "n-a")
    assert resolve_link("audits/a.html", "../provenance/e.html#n-a") == ("provenance/e.html", "n-a")
    assert resolve_link("audits/a.html", "./provenance/e.html#n-a") == ("audits/provenance/e.html", "n-a")
    assert resolve_link("index.html", "../provenance/e.html#n-a") is None  # above the site root
    assert resolve_link("index.html", "https://example.org/provenance/e.html#n-a") is None
    assert resolve_link("index.html", "provenance/e.html?x=1#n-b&amp;c") == ("provenance/e.html", "n-b&c")


def _page_links_site(tmp_path: Path, form) -> list:
    """Sources quoting keys a, b (twice, once through an include) and c; pages built with ``form``."""
    (tmp_path / "index.qmd").write_text("{{< var a >}} {{< var b__v >}} {{< include inc.md >}}")
    (tmp_path / "inc.md").write_text("{{< var b >}}")
    (tmp_path / "audits").mkdir()
    (tmp_path / "audits/a.qmd").write_text("{{< var c >}}")
    out = tmp_path / "_site"
    (out / "audits").mkdir(parents=True)

    def a(page: str, link: str) -> str:
        return f'<a href="{form(page, link)}" title="n=5, 95% CI [1, 2]">1.5</a>'

    (out / "index.html").write_text(
        " ".join(a("index.qmd", f"provenance/e.qmd#n-{k}") for k in ("a", "b", "b"))
        # controls that do not count: another anchor kind, an external URL, a link above the root
        + ' <a href="./provenance.html#c-rule">†1</a> <a href="https://x.org/provenance/e.html#n-a">x</a>'
        + ' <a href="../provenance/e.html#n-c">y</a>'
    )
    # a page one folder down: the right link climbs one folder; "./provenance/…" would lead nowhere
    (out / "audits/a.html").write_text(
        a("audits/a.qmd", "../provenance/e.qmd#n-c") + ' <a href="./provenance/e.html#n-c">z</a>'
    )
    return page_links(tmp_path, out, [tmp_path / "index.qmd", tmp_path / "audits/a.qmd"])


def test_number_links_count_in_quartos_form_and_in_smalldocs_form(tmp_path):
    """Issue 32 §1: Quarto writes ``./provenance/e.html#n-KEY`` on a top-level page; the old pattern
    ``(../)*provenance…`` counted 0 of 920 such numbers as linked.  Each page also holds links that must
    not count: a caveat anchor, an external URL, a link above the site root, and on the page one folder
    down ``./provenance/e.html#n-c`` (it leads to ``audits/provenance/``)."""

    def smalldocs_form(page: str, link: str) -> str:  # as written in the source, the suffix changed
        return link.replace(".qmd", ".html")

    for name, form in (("quarto", quarto_form.href), ("smalldocs", smalldocs_form)):
        (tmp_path / name).mkdir()
        links = _page_links_site(tmp_path / name, form)
        assert [(p.page, p.wanted, p.linked, p.unlinked) for p in links] == [
            ("index.qmd", 3, 3, {}),
            ("audits/a.qmd", 1, 1, {}),
        ], name
    # the controls alone: nothing counts
    (tmp_path / "quarto/_site/index.html").write_text(
        '<a href="./provenance.html#c-rule">†1</a> <a href="https://x.org/provenance/e.html#n-a">x</a>'
        ' <a href="../provenance/e.html#n-a">y</a> <a href="./provenance/e.html#a">z</a>'
    )
    (tmp_path / "quarto/_site/audits/a.html").write_text('<a href="./provenance/e.html#n-c">z</a>')
    links = page_links(
        tmp_path / "quarto",
        tmp_path / "quarto/_site",
        [tmp_path / "quarto/index.qmd", tmp_path / "quarto/audits/a.qmd"],
    )
    assert [(p.linked, p.unlinked) for p in links] == [(0, {"a": 1, "b": 2}), (0, {"c": 1})]


def test_quartos_coloured_warnings_are_seen():
    """Issue 32 §2: Quarto colours its warning lines even when piped; the check missed them."""
    output = (
        "\x1b[1mpandoc \x1b[22m\n  to: html\n"
        + quarto_form.lua_warning("Unknown meta key nosuch-key specified in a metadata Shortcode.")
        + quarto_form.cli_warning("Unable to resolve link target: nowhere.qmd")
        + "[WARNING] Could not fetch resource x.png\n"
        + "Output created: _site/index.html\n"
    )
    assert renderer_warnings(output) == [
        "WARNING (/opt/quarto/share/filters/main.lua:255) Unknown meta key nosuch-key specified in a "
        "metadata Shortcode.",
        "WARN: Unable to resolve link target: nowhere.qmd",
        "[WARNING] Could not fetch resource x.png",
    ]
    # clean control: coloured lines that are not warnings
    assert (
        renderer_warnings("\x1b[1mpandoc \x1b[22m\n\x1b[32mOutput created: _site/index.html\x1b[39m\n") == []
    )


def test_quartos_text_for_an_unknown_key_is_found_in_the_html(tmp_path):
    (tmp_path / "audits").mkdir()
    (tmp_path / "index.html").write_text(f"<p>Overview {quarto_form.unknown_key('meta', 'nosuch-key')}</p>")
    (tmp_path / "audits/a.html").write_text(f"<td>{quarto_form.unknown_key('var', 'x.y')}</td>")
    (tmp_path / "clean.html").write_text("<p>What? var: none here; a?b</p>")
    assert unknown_shortcodes(tmp_path) == ["audits/a.html: ?var:x.y", "index.html: ?meta:nosuch-key"]


# ---- the build under a stand-in quarto

FAKE_QUARTO = '''#!{python}
"""A stand-in for quarto: ``--version`` prints 1.7.34; ``render`` renders with smalldocs, then writes
every page's links to the site's HTML pages as Quarto does (``quarto_form.href``)."""
import os, re, subprocess, sys
from pathlib import Path
sys.path.insert(0, {tests!r})
import quarto_form
if sys.argv[1:] == ["--version"]:
    print("1.7.34")
    sys.exit(0)
proc = subprocess.run([{smalldocs!r}, *sys.argv[1:]])
if proc.returncode:
    sys.exit(proc.returncode)
site = Path("_site")
for page in site.rglob("*.html"):
    rel = page.relative_to(site).as_posix()
    def quarto(m):
        link = m.group(1)
        if re.match(r"^([a-zA-Z][a-zA-Z0-9+.-]*:|//|#|/)", link) or ".html" not in link:
            return m.group(0)
        return '<a href="' + quarto_form.href(rel, link) + '"'
    text = re.sub(r'<a href="([^"]*)"', quarto, page.read_text())
    if os.environ.get("FAKE_QUARTO_META") and rel == "index.html":
        text = text.replace("Headline", "Headline " + quarto_form.unknown_key("meta", "nosuch-key"))
    page.write_text(text)
if os.environ.get("FAKE_QUARTO_WARN"):
    sys.stderr.write(quarto_form.lua_warning("Unknown meta key nosuch-key specified in a meta Shortcode."))
'''


@pytest.fixture
def tiny_site(tmp_path, root, monkeypatch):
    """A one-number site (overview and provenance pages) and a stand-in ``quarto`` first on PATH."""
    d = tmp_path / "site"
    (d / "data/raw/e").mkdir(parents=True)
    (d / "data/raw/e/h.jsonl").write_text('{"tg": 120.99}\n')
    num = Number(
        key="e-tg",
        value=120.99,
        unit="tok/s",
        label="tg",
        n=1,
        computation="c",
        sources=[{"file": "data/raw/e/h.jsonl", "lines": [[1, 1]]}],
        commands=[["llama-bench"]],
        build="b11434 (unknown) cpu",
    )
    publish(d / "reports/numbers/e.json", "e", [num], root=d, replication="runs")
    shutil.copy(root / "provenance.qmd", d / "provenance.qmd")
    (d / "index.qmd").write_text(
        "---\ntitle: t\n---\n\nHeadline {{< var e-tg >}}\n\n{{< include _generated/page-index-caveats.md >}}"
        "\n\n{{< include _generated/renderer.md >}}\n"
    )
    cfg = yaml.safe_load((root / "_quarto.yml").read_text())
    cfg["project"]["render"] = ["index.qmd", "provenance.qmd", "provenance/*.qmd"]
    cfg["project"].pop("resources", None)
    cfg["website"] = {"title": "t", "navbar": {"left": [{"href": "index.qmd", "text": "Overview"}]}}
    cfg["format"]["html"].pop("css", None)
    (d / "_quarto.yml").write_text(yaml.safe_dump(cfg, sort_keys=False))
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "quarto"
    smalldocs = shutil.which("smalldocs") or str(Path(sys.executable).with_name("smalldocs"))
    fake.write_text(FAKE_QUARTO.format(python=sys.executable, tests=str(TESTS), smalldocs=smalldocs))
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    return d


def test_a_site_in_quartos_form_builds_and_names_its_renderer(tiny_site):
    """Issue 32 §1 and §3: with quarto on PATH the build accepts Quarto's link form, records the
    renderer for the site stage, and every page's footer names it."""
    built = site.render(tiny_site)
    assert built.renderer == "quarto 1.7.34"
    assert [(p.page, p.wanted, p.linked) for p in built.pages] == [
        ("index.qmd", 1, 1),
        ("provenance.qmd", 0, 0),
        ("provenance/e.qmd", 0, 0),
    ]
    out = tiny_site / "_site"
    assert 'href="./provenance/e.html#n-e-tg"' in (out / "index.html").read_text()
    record = (tiny_site / siterenderer.RECORD).read_text()
    assert yaml.safe_load(record) == {"website": {"page-footer": {"center": "Built by Quarto 1.7.34."}}}
    for page in ("index.html", "provenance.html", "provenance/e.html"):
        footer = re.search(r'<div class="nav-footer-center">(.*?)</div>', (out / page).read_text(), re.S)
        assert footer and "Built by Quarto 1.7.34." in footer.group(1), page
    assert (
        "This site was built by <strong>quarto 1.7.34</strong> (Quarto)" in (out / "index.html").read_text()
    )


def test_an_unknown_key_fails_the_build_though_quarto_said_nothing(tiny_site, monkeypatch):
    """Issue 32 §2: a planted ``{{< meta nosuch-key >}}`` built with exit 0 and showed
    ``?meta:nosuch-key`` on the overview page."""
    monkeypatch.setenv("FAKE_QUARTO_META", "1")
    with pytest.raises(site.SiteError, match=r"(?s)could not find.*index\.html: \?meta:nosuch-key"):
        site.render(tiny_site)


def test_a_coloured_quarto_warning_fails_the_build(tiny_site, monkeypatch):
    monkeypatch.setenv("FAKE_QUARTO_WARN", "1")
    with pytest.raises(site.SiteError, match=r"quarto rendered with warnings:\nWARNING \(.*nosuch-key"):
        site.render(tiny_site)


# ---- the renderer as an input of the site stage


def _exe(tmp_path: Path, name: str, output: str) -> str:
    path = tmp_path / name
    path.write_text(f"#!/bin/sh\necho '{output}'\n")
    path.chmod(0o755)
    return str(path)


def test_the_renderer_record_changes_only_with_the_renderer(tmp_path):
    """Issue 32 §3: a clone built once with the fallback stayed so after Quarto appeared on PATH."""
    assert siterenderer.version(_exe(tmp_path, "quarto", "1.7.34")) == "1.7.34"
    assert siterenderer.version(_exe(tmp_path, "smalldocs", "smalldocs 0.5.4")) == "0.5.4"
    with pytest.raises(siterenderer.RendererError, match="--version exited 0 and printed"):
        siterenderer.version(_exe(tmp_path, "silent", ""))
    fallback = siterenderer.Renderer("smalldocs", "/x/smalldocs", "0.5.4")
    path = siterenderer.write(tmp_path, fallback)
    assert path == tmp_path / "reports/site/renderer.yml"
    assert yaml.safe_load(path.read_text()) == {
        "website": {
            "page-footer": {"center": "Built by smalldocs 0.5.4 (the offline fallback for Quarto (PyPI))."}
        }
    }
    before = (path.read_text(), path.stat().st_mtime_ns)
    # the same renderer elsewhere on disk: the same text, the file not rewritten
    siterenderer.write(tmp_path, siterenderer.Renderer("smalldocs", "/y/smalldocs", "0.5.4"))
    assert (path.read_text(), path.stat().st_mtime_ns) == before
    siterenderer.write(tmp_path, siterenderer.Renderer("quarto", "/opt/quarto/bin/quarto", "1.7.34"))
    assert path.read_text() != before[0] and "renderer: quarto 1.7.34" in path.read_text()


def test_the_site_stage_depends_on_the_renderer_record(root):
    dvc = yaml.safe_load(stages.render(root)[stages.DVC_FILE])["stages"]
    assert dvc["site_renderer"]["cmd"] == "python -m benchbook.siterenderer"
    assert dvc["site_renderer"]["always_changed"] is True
    assert dvc["site_renderer"]["outs"] == [{siterenderer.RECORD: {"cache": False}}]
    assert siterenderer.RECORD in dvc["site"]["deps"]
    # both renderers merge the record into the project's settings (quarto-cli src/config/metadata.ts
    # includedMetadata reads the top-level `metadata-files`)
    assert siterenderer.RECORD in yaml.safe_load((root / "_quarto.yml").read_text())["metadata-files"]


# ---- code that cannot wrap


def test_inline_code_wraps_over_quartos_code_rule(root):
    """Issue 32 §4: Quarto's ``code { white-space: pre }`` (``quarto_form.CODE_RULES``) kept a sha256 in a
    list item on one line.  benchbook.css puts wrapping back for all inline code of the page's main
    column, with a selector more specific than ``code``: (0,0,3) = ``main`` + ``pre`` (inside
    ``:not()``) + ``code`` > (0,0,1); the width itself is checked in chromium
    (``tests/test_site_browser.py``, with Quarto's rules added last)."""
    css = (root / "benchbook.css").read_text()
    rule = re.search(r"main :not\(pre\) > code \{([^}]*)\}", css)
    assert rule and "white-space: pre-wrap" in rule.group(1) and "overflow-wrap: anywhere" in rule.group(1)
    assert "code { white-space: pre; }" in quarto_form.CODE_RULES
