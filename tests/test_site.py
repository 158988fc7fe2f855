"""Site build from committed raw data: offline, every number linked to provenance, escaping, chart draws."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from benchbook import site
from benchbook.experiments.llama_bench import report as llama_bench_report
from benchbook.numbers import Number, publish
from benchbook.numfmt import fmt_interval

QUARTO = {
    "project": {
        "type": "website",
        "output-dir": "_site",
        "render": ["index.qmd", "llama_bench.qmd", "provenance.qmd", "provenance/*.qmd"],
    },
    "website": {
        "title": "t",
        "navbar": {
            "left": [
                {"href": "index.qmd", "text": "Overview"},
                {"href": "llama_bench.qmd", "text": "llama-bench"},
                {"href": "provenance.qmd", "text": "Provenance"},
            ]
        },
    },
    "format": {"html": {"theme": "litera"}},
}


@pytest.fixture(scope="module")
def built(tmp_path_factory, root, params):
    d = tmp_path_factory.mktemp("site")
    for f in ("llama_bench.qmd", "provenance.qmd"):
        shutil.copy(root / f, d / f)
    # this site has no report notebook; a link to it would be a renderer warning (which fails the build)
    page = d / "llama_bench.qmd"
    text = page.read_text()
    page.write_text(text.replace("(reports/notebooks/llama_bench_report.ipynb)", "(provenance.qmd)"))
    # the real overview quotes every experiment's numbers; this site publishes only llama-bench's (its
    # markers listed in the page's own legend: a page showing a marker without one fails the build)
    (d / "index.qmd").write_text(
        "---\ntitle: t\n---\nHeadline {{< var lb-smollm2-135m-q4_1-tg64-warm >}}\n\n"
        "{{< include _generated/page-index-caveats.md >}}\n"
    )
    (d / "_quarto.yml").write_text(yaml.safe_dump(QUARTO))
    rep = d / "reports"
    res = llama_bench_report.derive(
        root / "data/raw/llama_bench",
        root / "data/raw/snapshots",
        rep / "llama_bench",
        rep / "numbers" / "llama_bench.json",
        rep / "metrics" / "llama_bench.json",
        thresholds=params["report"],
        root=root,
    )
    raw = next((root / "data/raw/llama_bench").glob("*.jsonl")).relative_to(root).as_posix()
    evil = Number(
        key="zz-evil",
        value=1.0,
        unit="tok/s",
        label='<script>alert("x")</script> & <b>',
        n=1,
        computation="test",
        sources=[{"file": raw, "lines": [[1, 1]]}],
        commands=[["llama-bench", "-m", "<img src=x onerror=alert(1)>"]],
        build="<i>b1</i>",
    )
    publish(rep / "numbers" / "zz.json", "zz", [evil], root=root, replication="runs")
    built = site.render(d, raw_root=root)
    assert [(p.page, p.wanted, p.linked) for p in built.pages] == [
        ("index.qmd", 1, 1),
        (
            "llama_bench.qmd",
            9 + 6 * len({n.host_id for n in res.numbers}),
            9 + 6 * len({n.host_id for n in res.numbers}),
        ),
        ("provenance.qmd", 0, 0),
        ("provenance/llama_bench.qmd", 0, 0),
        ("provenance/zz.qmd", 0, 0),
    ]
    return d / "_site", res


def test_site_is_offline(built):
    out, _ = built
    assert (out / "index.html").exists() and (out / "site_libs/vega/vega-bundle.js").stat().st_size > 500_000
    assert site.check_offline(out) == []


def test_every_number_on_llama_bench_page_links_to_provenance(built):
    out, res = built
    page = (out / "llama_bench.html").read_text()
    prov = (out / "provenance/llama_bench.html").read_text()
    assert "{{<" not in page and "?var" not in page
    # value [low, high] (numfmt.fmt_interval), the unit only where the table header does not name it
    links = re.findall(
        # smalldocs writes the link as the variable has it; Quarto with its offset (quarto_form.href)
        r'<a href="(?:\./)?provenance/llama_bench\.html#(n-[a-z0-9_.\-]+)" '
        r'title="(n=\d+[^"]*)">([0-9][^<]*)</a>',
        page,
    )
    hosts = {n.host_id for n in res.numbers}
    # headline: 3 models × (pp warm, tg warm, tg cold); "every host": 3 models × (pp, tg) per host
    assert len(links) == 9 + 6 * len(hosts)
    ids = set(re.findall(r'id="(n-[^"]+)"', prov))
    assert {a for a, _, _ in links} <= ids
    registry = {n.key: n for n in res.numbers}
    for anchor, title, text in links:
        num = registry[anchor[2:]]
        shown = fmt_interval(num.value, num.ci95)  # e.g. 49,711.14 ± 3% -> "49,700 [48,200, 51,200]"
        assert text.split(" †")[0] in (shown, f"{shown} tok/s")
        assert title.startswith(f"n={num.n}")
    # the table's cells hold nothing but linked numbers
    table = page[page.index("<tbody>") : page.index("</tbody>")]
    cells = re.findall(r"<td>(.*?)</td>", table)
    assert sum("provenance/llama_bench.html#n-" in c for c in cells) == 9


def test_untrusted_text_is_escaped(built):
    out, _ = built
    prov = (out / "provenance/zz.html").read_text()
    assert '<script>alert("x")</script>' not in prov and "&lt;script&gt;" in prov
    assert "<img src=x" not in prov and "&lt;img src=x onerror=alert(1)&gt;" in prov


def test_check_offline_catches_external_resources(tmp_path):
    (tmp_path / "a.html").write_text(
        '<p><a href="https://example.org">plain link is fine</a></p>'
        '<svg xmlns="http://www.w3.org/2000/svg"></svg>'
    )
    assert site.check_offline(tmp_path) == []
    (tmp_path / "b.html").write_text('<script src="https://cdn.jsdelivr.net/npm/vega@5"></script>')
    (tmp_path / "c.css").write_text("@import url(https://fonts.googleapis.com/css2?family=X);")
    (tmp_path / "d.html").write_text('<img src="//example.org/x.png">')
    (tmp_path / "e.html").write_text('<meta http-equiv="refresh" content="0; url=https://evil.example/">')
    (tmp_path / "f.svg").write_text('<svg><image href="https://example.org/i.png"/></svg>')
    (tmp_path / "g.html").write_text('<img srcset="https://example.org/a.png 2x">')
    bad = site.check_offline(tmp_path)
    assert sorted(b.split(":")[0] for b in bad) == ["b.html", "c.css", "d.html", "e.html", "f.svg", "g.html"]


def test_values_cannot_break_out_of_the_raw_html_block():
    from benchbook.sitepages import provenance_entry

    md = provenance_entry(
        {
            "key": "k",
            "value": 1.0,
            "unit": "x",
            "n": 1,
            "label": "a\n```\n[x](javascript:alert(3))",
            "computation": "c",
            "sources": [],
            "commands": [["a`b"]],
        },
        {"hosts": {}, "models": {}, "toolchains": {}},
    )
    block = md[md.index("```{=html}") :]
    assert block.count("```") == 2  # the fence opened by us and the one that closes it
    assert "&#96;&#96;&#96;" in md and "&#10;" in md and "a&#96;b" in md


def test_a_page_referencing_an_unpublished_number_fails_the_build(tmp_path):
    (tmp_path / "p.qmd").write_text("x {{< var lb-nope >}} y {{< var ok >}}")
    assert site.missing_vars(tmp_path, {"ok"}) == ["p.qmd: lb-nope"]


@pytest.mark.integration
def test_chart_draws_offline_in_headless_chromium(built, tmp_path):
    chromium = shutil.which("chromium")
    if not chromium:
        pytest.skip("chromium not installed; fix: apt-get install -y chromium (make test does it)")
    out, _ = built
    dom = subprocess.run(
        [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={tmp_path}",
            "--virtual-time-budget=5000",
            "--dump-dom",
            (out / "llama_bench.html").as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    assert 'data-rendered="vega"' in dom  # bb-charts.js replaced the SVG fallback with the live chart
    assert 'role="graphics-document"' in dom or "<svg" in dom


def test_a_dotted_key_renders_no_link_and_fails_the_count(tmp_path):
    from benchbook.sitecheck import page_links

    (tmp_path / "p.qmd").write_text("a {{< var ok >}} b {{< var x.y >}} c {{< include inc.md >}}")
    (tmp_path / "inc.md").write_text("{{< var ok >}}")
    (tmp_path / "_site").mkdir()
    # what smalldocs printed for a dotted key: nothing where the link should be
    link = '<a href="provenance.html#n-ok">1</a>'
    (tmp_path / "_site/p.html").write_text(f"a {link} b  c {link}")
    [links] = page_links(tmp_path, tmp_path / "_site", [tmp_path / "p.qmd"])
    assert (links.page, links.wanted, links.linked, links.unlinked) == ("p.qmd", 3, 2, {"x.y": 1})


def test_notebook_html_outputs_and_renderer_warnings_are_found(tmp_path):
    from benchbook.sitecheck import notebook_html_outputs, renderer_warnings

    nb = {
        "cells": [
            {"cell_type": "code", "outputs": [{"data": {"text/markdown": "|a|"}}]},
            {"cell_type": "code", "outputs": [{"data": {"text/html": "<table>", "text/plain": "t"}}]},
        ]
    }
    (tmp_path / "n.ipynb").write_text(json.dumps(nb))
    assert notebook_html_outputs([tmp_path / "n.ipynb"]) == [f"{tmp_path / 'n.ipynb'}: cell 1: text/html"]
    out = "wrote 10 page(s)\nwarning: execute.enabled is ignored\nWARN (x.qmd) Unknown var a.b specified\nok"
    assert renderer_warnings(out) == [
        "warning: execute.enabled is ignored",
        "WARN (x.qmd) Unknown var a.b specified",
    ]


def test_a_changed_cited_raw_line_makes_the_registry_stale(tmp_path):
    from benchbook.sitecheck import stale_registry

    raw = tmp_path / "data/raw/e/h.jsonl"
    raw.parent.mkdir(parents=True)
    raw.write_text('{"tg": 120.99}\n{"other": 1}\n')
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
    publish(tmp_path / "reports/numbers/e.json", "e", [num], root=tmp_path, replication="runs")
    assert stale_registry(tmp_path, tmp_path / "reports/numbers") == []
    with raw.open("a") as fh:  # appending (append-only raw data) keeps the cited lines as they were
        fh.write('{"tg": 99}\n')
    assert stale_registry(tmp_path, tmp_path / "reports/numbers") == []
    raw.write_text(raw.read_text().replace("120.99", "100.00"))
    assert stale_registry(tmp_path, tmp_path / "reports/numbers") == [
        f"{tmp_path / 'reports/numbers/e.json'}: the lines it cites in data/raw/e/h.jsonl changed since "
        "it was published; fix: dvc repro e_report"
    ]


def test_markdown_text_is_inert_in_markdown():
    from benchbook.escape import markdown_table, markdown_text

    assert markdown_text("<b>|`$x$`[a](b)@c") == (
        "&#60;b&#62;&#124;&#96;&#36;x&#36;&#96;&#91;a&#93;&#40;b&#41;&#64;c"
    )
    assert markdown_text("a\nb 1.5, -2/3") == "a b 1.5, -2/3"

    class Frame:
        columns = ["k", "v"]

        def iter_rows(self):
            return iter([("a|b", None), ("c", [1, 2])])

    assert markdown_table(Frame()) == "| k | v |\n|---|---|\n| a&#124;b |  |\n| c | 1, 2 |\n"


def test_check_offline_reads_scripts(tmp_path):
    """A loader that builds a CDN URL in JavaScript fetches it though no attribute names it
    (issue 28 §10): inline scripts and our own .js files are tokenized, their URL strings counted."""
    (tmp_path / "ok.html").write_text(
        "<script>\n// see https://example.org for the idea\nvar re = /https:\\/\\/x/;\n"
        'document.createElementNS("http://www.w3.org/2000/svg", "g");</script>'
        '<script type="application/json">{"u": "https://example.org/data"}</script>'
    )
    (tmp_path / "reports").mkdir()
    (tmp_path / "reports/ok.spec.js").write_text(
        'window.BB_SPECS["a"] = {"$schema": "https://vega.github.io/schema/vega-lite/v5.json"};'
    )
    (tmp_path / "site_libs/vega").mkdir(parents=True)
    (tmp_path / "site_libs/vega/vega-bundle.js").write_text('var loader = "https://vendored.example/";')
    assert site.check_offline(tmp_path) == []
    (tmp_path / "loader.html").write_text(
        '<p>x</p>\n<script>\nvar s = document.createElement("script");\n'
        's.src = "https://cdn.jsdelivr.net/npm/" + name + "@5";</script>'
    )
    (tmp_path / "reports/data.spec.js").write_text(
        'window.BB_SPECS["b"] = {"data": {"url": "//example.org/d.csv"}};'
    )
    (tmp_path / "site_libs/vega/bb-charts.js").write_text("var u = `https://unpkg.com/${lib}`;")
    assert site.check_offline(tmp_path) == [
        'loader.html: inline script at line 2: "https://cdn.jsdelivr.net/npm/"',
        'reports/data.spec.js: script string "//example.org/d.csv"',
        "site_libs/vega/bb-charts.js: script string `https://unpkg.com/${",
    ]


def test_script_urls_in_any_case_escaped_or_websocket():
    """Breaker finding 13: upper-case schemes, JSON's escaped slashes and websockets were missed."""
    from benchbook.sitecheck import script_urls

    code = 'a = "HTTPS://CDN.X/a.js"; b = "https:\\/\\/cdn.x/b"; c = "wss://x.org/s"; d = "/local/x";'
    assert script_urls(code) == ['"HTTPS://CDN.X/a.js"', '"https:\\/\\/cdn.x/b"', '"wss://x.org/s"']
    assert script_urls('createElementNS("HTTP://WWW.W3.ORG/2000/svg", "g")') == []


def test_unexecuted_cells(tmp_path):
    """A report notebook's code cell that never ran, raised or showed nothing fails the build
    (issue 28 §10); the parameters cells show nothing by design."""
    from benchbook.sitecheck import unexecuted_cells

    def cell(cid, count, outputs, tags=()):
        return {
            "cell_type": "code",
            "id": cid,
            "execution_count": count,
            "metadata": {"tags": list(tags)},
            "outputs": outputs,
            "source": [],
        }

    shown = [{"output_type": "stream", "name": "stdout", "text": ["ok\n"]}]
    good = {
        "cells": [
            cell("p", 1, [], ["parameters"]),
            cell("i", 2, [], ["injected-parameters"]),
            cell("r", 3, shown),
        ]
    }
    bad = {
        "cells": [
            {"cell_type": "markdown", "id": "m", "metadata": {}, "source": []},
            cell("never", None, []),
            cell("quiet", 4, []),
            cell(
                "boom",
                5,
                [{"output_type": "error", "ename": "AssertionError", "evalue": "", "traceback": []}],
            ),
        ]
    }
    (tmp_path / "good.ipynb").write_text(json.dumps(good))
    (tmp_path / "bad.ipynb").write_text(json.dumps(bad))
    assert unexecuted_cells([tmp_path / "good.ipynb"]) == []
    assert unexecuted_cells([tmp_path / "bad.ipynb"]) == [
        f"{tmp_path / 'bad.ipynb'}: cell 1 (never): never executed",
        f"{tmp_path / 'bad.ipynb'}: cell 2 (quiet): executed with no output",
        f"{tmp_path / 'bad.ipynb'}: cell 3 (boom): raised AssertionError",
    ]
    fixtures = sorted((Path(__file__).parent / "fixtures/notebooks").glob("*_report.ipynb"))
    assert len(fixtures) == 7 and unexecuted_cells(fixtures) == []


def test_every_experiment_page_opens_with_what_was_measured():
    """The README promises that each experiment page opens with "What was measured": every page of
    ``_quarto.yml`` named after an experiment package (``src/benchbook/experiments/<name>/``) has that
    heading first after its front matter, followed by the block ``site.generate`` writes for it
    (``_generated/<name>-measured.md``); a new user found spec_depth's and tool_gap's pages without it."""
    root = Path(__file__).resolve().parents[1]
    experiments = {
        p.name
        for p in (root / "src" / "benchbook" / "experiments").iterdir()
        if (p / "__init__.py").is_file()
    }
    # the experiment pages at the site's root (``provenance/<name>.qmd`` is another page, generated
    # by ``make run``: a clone that ran it read that one too and failed)
    pages = [
        p for p in site.sources(root) if p.suffix == ".qmd" and p.stem in experiments and p.parent == root
    ]
    assert {p.stem for p in pages} == experiments - {"template"}
    for page in pages:
        body = page.read_text().split("---\n", 2)[2].lstrip("\n")
        assert body.startswith(
            f"## What was measured\n\n{{{{< include _generated/{page.stem}-measured.md >}}}}\n"
        ), page.name
