"""The built site in a real browser (system chromium over the DevTools protocol, ``tests/cdp.py``).

A site is built from the committed raw data (the three report notebooks run by papermill, the audit
of ``data/claims``) plus planted untrusted text: a ``<script>``, a ``</script>`` and an
``<img onerror>`` in a model output (a notebook's table and printed output), in a record string
(a number's label, unit and command: provenance page and link titles), in chart data and tooltips,
and in a claims file (audit page).  Served from 127.0.0.1, every page must load with no console
error and no request leaving 127.0.0.1; every chart must become a Vega view whose tooltip shows on
hover; every provenance link must resolve; no payload may run, on any page or in the search box.
"""

from __future__ import annotations

import functools
import http.server
import json
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import yaml

import quarto_form
from cdp import Browser

PAGES = [
    "index.qmd",
    "llama_bench.qmd",
    "speculative.qmd",
    "draftself.qmd",
    "offload.qmd",
    "spec_depth.qmd",
    "draftself_gpu.qmd",
    "tool_gap.qmd",
    "provenance.qmd",
]
REPORTS = [
    "llama_bench_report",
    "speculative_report",
    "draftself_report",
    "offload_report",
    "spec_depth_report",
    "draftself_gpu_report",
    "tool_gap_report",
]
#: Each payload sets window.__bb_pwned when it runs.
PAYLOADS = [
    '<script>window.__bb_pwned="script"</script>',
    '</script><script>window.__bb_pwned="close-script"</script>',
    "<img src=x onerror=\"window.__bb_pwned='img'\">",
]
PLANTED = " ".join(PAYLOADS)
HOVER_JS = """window.__bbPoints = function (i) {
  const el = document.querySelectorAll('.bb-chart')[i];
  el.scrollIntoView({block: 'center', behavior: 'instant'});
  const out = [];
  el.querySelectorAll('g.role-mark > path, g.role-mark > rect, g.role-mark > line, g.role-mark > circle')
    .forEach(m => { const r = m.getBoundingClientRect();
                    if (r.width + r.height > 0) out.push([r.x + r.width / 2, r.y + r.height / 2]); });
  return out;
};"""
TOOLTIP_JS = (
    "(() => { const t = document.querySelector('#vg-tooltip-element');"
    " return t && t.classList.contains('visible') ? t.innerText : null })()"
)


def _planted_notebook(path: Path) -> None:
    """An executed notebook whose outputs hold a model output with the payloads: a table made by
    ``markdown_table`` and the raw text printed as a stream."""
    import nbformat
    import polars as pl

    from benchbook.escape import markdown_table

    table = markdown_table(pl.DataFrame({"config": ["self-n4"], "content": [PLANTED]}))
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("# Planted model output"),
        nbformat.v4.new_code_cell(
            "show(table)",
            execution_count=1,
            outputs=[
                nbformat.v4.new_output("display_data", data={"text/markdown": table, "text/plain": "table"})
            ],
        ),
        nbformat.v4.new_code_cell(
            "print(content)",
            execution_count=2,
            outputs=[nbformat.v4.new_output("stream", name="stdout", text=PLANTED + "\n")],
        ),
    ]
    path.write_text(nbformat.writes(nb))


def _planted_chart(out_dir: Path) -> None:
    import altair as alt
    import polars as pl

    from benchbook import charts

    data = pl.DataFrame(
        {
            "config": [PLANTED, "plain"],
            "n": [3, 3],
            "value": [1.0, 2.0],
            "ci_low": [0.5, 1.5],
            "ci_high": [1.5, 2.5],
        }
    ).to_dicts()
    chart = (
        alt.Chart(alt.Data(values=data))
        .mark_point(size=200, filled=True)
        .encode(x="config:N", y="value:Q", tooltip=["config:N", "n:Q", "ci_low:Q", "ci_high:Q"])
    )
    charts.save(chart, out_dir, "planted")


@pytest.fixture(scope="module")
def site_dir(root, tmp_path_factory):
    from benchbook import site
    from benchbook.numbers import Number, publish

    d = tmp_path_factory.mktemp("browser-site")
    for name in [*PAGES, "favicon.svg", "benchbook.css"]:
        shutil.copy(root / name, d / name)
    # the write-up the navigation links to: its executed notebook, committed registry and snapshots
    shutil.copytree(root / "writeups", d / "writeups", ignore=shutil.ignore_patterns("provenance"))
    cfg = yaml.safe_load((root / "_quarto.yml").read_text())
    cfg["project"]["render"] = [
        *cfg["project"]["render"],
        "planted.qmd",
        "reports/notebooks/planted_report.ipynb",
    ]
    (d / "_quarto.yml").write_text(yaml.safe_dump(cfg, sort_keys=False))
    (d / "reports" / "notebooks").mkdir(parents=True)
    for name in REPORTS:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "papermill",
                "notebooks/report.ipynb",
                str(d / "reports" / "notebooks" / f"{name}.ipynb"),
                "--cwd",
                ".",
                "-p",
                "root",
                ".",
                "-p",
                "experiment",
                name.removesuffix("_report"),
                "-p",
                "reports_dir",
                str(d / "reports"),
                "--no-progress-bar",
            ],
            cwd=root,
            check=True,
            capture_output=True,
        )
    claims = d / "claims"
    claims.mkdir()
    shutil.copy(root / "data/claims/clover-35b-a3b-blog.yaml", claims / "clover-35b-a3b-blog.yaml")
    doc = yaml.safe_load((root / "data/claims/clover-35b-a3b-blog.yaml").read_text())
    doc["source"]["title"] = PLANTED
    doc["claims"][0]["note"] = PLANTED
    doc["claims"][0]["method"] = PLANTED
    (claims / "planted.yaml").write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False))
    subprocess.run(
        [
            sys.executable,
            "-m",
            "benchbook.audit",
            "--all",
            str(claims),
            "--out",
            str(d / "reports" / "audit"),
            "--pages",
            str(d / "audits"),
        ],
        cwd=root,
        check=True,
        capture_output=True,
    )
    raw = next((root / "data/raw/llama_bench").glob("*.jsonl")).relative_to(root).as_posix()
    registry = publish(
        d / "reports" / "numbers" / "zz.json",
        "zz",
        [
            Number(
                key="zz-planted",
                value=1.0,
                unit="tok/s",  # publish takes a numbers.Unit only: the planted unit is written below
                label=PLANTED,
                n=3,
                ci_method=f"none: {PLANTED}",  # why it has no interval (numbers.NO_INTERVAL): planted
                computation=PLANTED,
                sources=[{"file": raw, "lines": [[1, 1]]}],
                commands=[["llama-bench", "-m", PLANTED]],
                build=PLANTED,
            )
        ],
        root=root,
        replication="runs",
    )
    # a registry edited by hand (or by older code) can still hold any unit: the site escapes it
    doc = json.loads(registry.read_text())
    doc["numbers"]["zz-planted"]["unit"] = PLANTED
    registry.write_text(json.dumps(doc))
    _planted_chart(d / "reports" / "zz")
    _planted_notebook(d / "reports" / "notebooks" / "planted_report.ipynb")
    (d / "planted.qmd").write_text(
        "---\ntitle: Planted\n---\n\nA number with planted unit and label: {{< var zz-planted >}}.\n\n"
        '```{=html}\n<script src="site_libs/vega/bb-charts.js"></script>\n'
        '<div class="bb-chart" data-spec="planted"><img src="reports/zz/planted.svg" alt="planted"></div>\n'
        '<script src="reports/zz/planted.spec.js"></script>\n'
        '<script src="site_libs/vega/vega-bundle.js"></script>\n```\n'
    )
    t0 = time.monotonic()
    built = site.render(d, raw_root=root)
    print(f"site build with {built.renderer}: {time.monotonic() - t0:.1f} s")
    return d / "_site", built


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    chromium = shutil.which("chromium")
    if not chromium:
        pytest.skip("chromium not installed; fix: apt-get install -y chromium (make test does it)")
    with Browser(chromium, tmp_path_factory.mktemp("chromium-profile")) as b:
        yield b


@pytest.fixture(scope="module")
def visits(site_dir, browser):
    """Every page of the built site opened once: requests, console errors, charts, links, payload state."""
    out, _ = site_dir

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(out)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}/"
    page = browser.page()
    seen = {}
    for html in sorted(out.rglob("*.html")):
        rel = html.relative_to(out).as_posix()
        page.goto(base + rel)
        page.wait_for(
            "[...document.querySelectorAll('.bb-chart')].every(e => e.dataset.rendered || e.dataset.error)"
        )
        page.evaluate(HOVER_JS)
        tooltips = []
        for i in range(page.evaluate("document.querySelectorAll('.bb-chart').length")):
            shown = None
            for x, y in page.evaluate(f"window.__bbPoints({i})")[:60]:
                page.call("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y)
                time.sleep(0.05)
                shown = page.evaluate(TOOLTIP_JS)
                if shown:
                    break
            tooltips.append(shown)
        seen[rel] = {
            "requests": [
                e["params"]["request"]["url"]
                for e in page.events
                if e["method"] == "Network.requestWillBeSent"
            ],
            "errors": [
                json.dumps(e["params"])[:300]
                for e in page.events
                if e["method"] == "Runtime.exceptionThrown"
                or (e["method"] == "Runtime.consoleAPICalled" and e["params"]["type"] == "error")
                or (e["method"] == "Log.entryAdded" and e["params"]["entry"]["level"] == "error")
            ],
            "charts": page.evaluate(
                "[...document.querySelectorAll('.bb-chart')].map(e => [e.dataset.spec,"
                " e.dataset.rendered || e.dataset.error])"
            ),
            "tooltips": tooltips,
            "links": page.evaluate(
                '[...document.querySelectorAll(\'a[href*="provenance"][href*="#n-"]\')].map(a => a.href)'
            ),
            "ids": page.evaluate("[...document.querySelectorAll('[id]')].map(e => e.id)"),
            "pwned": page.evaluate("window.__bb_pwned || null"),
            "img_x": page.evaluate("document.querySelectorAll('img[src=\"x\"]').length"),
            "text": page.evaluate("document.body.innerText"),
        }
    # the search box: type a word of the payloads and hover every result
    page.goto(base + "index.html")
    page.evaluate(
        "(() => { const i = document.querySelector('.smalldocs-search input'); i.focus();"
        " i.value = 'bb_pwned'; i.dispatchEvent(new Event('input')); })()"
    )
    page.wait_for("document.querySelectorAll('.search-result').length > 0")
    for x, y in page.evaluate(
        "[...document.querySelectorAll('.search-result')].map(a => {"
        " const r = a.getBoundingClientRect(); return [r.x + 5, r.y + 5]; })"
    ):
        page.call("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y)
    seen["search"] = {
        "results": page.evaluate("document.querySelectorAll('.search-result').length"),
        "pwned": page.evaluate("window.__bb_pwned || null"),
        "img_x": page.evaluate("document.querySelectorAll('img[src=\"x\"]').length"),
        "text": page.evaluate("document.querySelector('.smalldocs-search-results').innerText"),
    }
    server.shutdown()
    return base, seen


def test_every_page_opens_without_console_errors(visits):
    _, seen = visits
    pages = [p for p in seen if p != "search"]
    # the 24 pages of the built site (index, llama_bench, speculative, draftself, offload, spec_depth,
    # draftself_gpu, tool_gap; the provenance index + one per experiment: draftself, draftself_gpu,
    # llama_bench, offload, spec_depth, speculative, tool_gap; 7 report notebooks (offload and spec_depth
    # since item 22 of the new-user report, tool_gap since issue 31); 2 audit pages; the user-gguf
    # write-up's notebook and its provenance page) + 4 planted ones
    assert len(pages) == 31, pages
    assert {"reports/notebooks/offload_report.html", "reports/notebooks/spec_depth_report.html"} <= set(pages)
    assert {
        "writeups/user-gguf/llama_bench_report.html",
        "writeups/user-gguf/provenance/llama_bench.html",
    } <= set(pages)
    assert {p: v["errors"] for p, v in seen.items() if p != "search" and v["errors"]} == {}


def test_no_request_leaves_the_site(visits):
    base, seen = visits
    local = (base, "data:", "blob:")
    outside = {
        p: [u for u in v["requests"] if not u.startswith(local)] for p, v in seen.items() if p != "search"
    }
    assert {p: u for p, u in outside.items() if u} == {}
    assert sum(len(v["requests"]) for p, v in seen.items() if p != "search") > 14


def test_every_chart_becomes_a_vega_view_with_a_tooltip(visits, site_dir):
    _, seen = visits
    charts = [(p, spec, state) for p, v in seen.items() if p != "search" for spec, state in v["charts"]]
    # llama-bench 1, speculative 3, draft-self 3 (experts_vs_bound's element after its script), offload 1,
    # spec_depth 1, tool_gap 1 (the waterfall of its one host), planted 1
    assert len(charts) == 11 and all(state == "vega" for _, _, state in charts), charts
    tips = {
        (p, spec): tip
        for p, v in seen.items()
        if p != "search"
        for (spec, _), tip in zip(v["charts"], v["tooltips"], strict=True)
    }
    assert all(tips.values()), [k for k, t in tips.items() if not t]
    planted = tips[("planted.html", "planted")]
    assert "config" in planted and "n\t" in planted and "ci_low" in planted and "ci_high" in planted
    assert "<img src=x" in planted  # the payload shows as text in the tooltip


def test_every_number_link_resolves(visits):
    _, seen = visits
    base, _ = visits
    # the site's provenance pages and a write-up's own (writeups/<name>/provenance/)
    ids = {p: set(v["ids"]) for p, v in seen.items() if ("/" + p).rsplit("/", 2)[-2] == "provenance"}
    links = [(p, href) for p, v in seen.items() if p != "search" for href in v["links"]]
    assert len(links) >= 6 + 21 + 32 + 87  # the var uses of index, llama_bench, speculative, draftself
    # every link goes to [writeups/<name>/]provenance/<experiment>.html#n-KEY, and that page has the anchor
    target = [(p, h.removeprefix(base).split("#", 1)) for p, h in links]
    assert [(p, t) for p, t in target if t[1] not in ids.get(t[0], set())] == []


def test_no_local_link_of_the_built_site_is_dead(site_dir):
    from benchbook.sitelinks import dead_links

    site, _ = site_dir
    assert dead_links(site) == []
    # the write-up's number keys go to its own provenance page, which holds their anchors
    page = (site / "writeups" / "user-gguf" / "llama_bench_report.html").read_text()
    keys = ["lb-my-q8_0-pp128-warm", "lb-my-q8_0-tg64-warm"]
    # (smalldocs writes the link as the notebook has it; Quarto with its offset, ./provenance/…)
    assert all(re.search(f'href="(\\./)?provenance/llama_bench.html#n-{k}"', page) for k in keys)
    prov = (site / "writeups" / "user-gguf" / "provenance" / "llama_bench.html").read_text()
    assert all(f'id="n-{k}"' in prov for k in keys)


def test_planted_payloads_stay_inert_text_everywhere(visits):
    _, seen = visits
    assert {p: v["pwned"] for p, v in seen.items() if v["pwned"]} == {}
    assert {p: v["img_x"] for p, v in seen.items() if v["img_x"]} == {}
    shown_on = sorted(p for p, v in seen.items() if p != "search" and "<img src=x onerror=" in v["text"])
    # prose and tables (provenance: label, unit, command), the planted page's number, the notebook table and
    # printed output, the audit page of the planted claims file
    assert shown_on == [
        "audits/planted.html",
        "planted.html",
        "provenance/zz.html",
        "reports/notebooks/planted_report.html",
    ]
    # smalldocs' index drops the tags' text; what is left is shown as text and runs nothing
    assert seen["search"]["results"] == 2 and 'window.__bb_pwned="script"' in seen["search"]["text"]


LAYOUT_JS = """(() => {
  const lum = c => { const [r, g, b] = c.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number).map(v => {
      v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const bg = getComputedStyle(document.body).backgroundColor;
  const bgL = bg === 'rgba(0, 0, 0, 0)' ? 1 : lum(bg);
  const ratio = el => { const l = lum(getComputedStyle(el).color);
    return (Math.max(l, bgL) + 0.05) / (Math.min(l, bgL) + 0.05); };
  const links = [...document.querySelectorAll('a[href*="provenance/"][href*="#n-"]')];
  const scrolls = el => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX);
  return {
    page: document.documentElement.scrollWidth, viewport: innerWidth,
    tables: [...document.querySelectorAll('main table')].map(t => ({
      fits: t.scrollWidth <= t.clientWidth + 1, scrolls: scrolls(t),
      right: t.getBoundingClientRect().right})),
    charts: [...document.querySelectorAll('.bb-chart')].map(c => ({
      content: c.scrollWidth, box: c.clientWidth, right: c.getBoundingClientRect().right})),
    minContrast: Math.min(...links.map(ratio)),
    underlined: links.every(a => getComputedStyle(a).textDecorationLine.includes('underline')),
    findings: document.querySelectorAll('.bb-finding').length,
    labelled: [...document.querySelectorAll('.bb-chart svg')].every(s => (s.getAttribute('aria-label') || '')
      .length > 20),
  };
})()"""


#: adds a stylesheet after every other one, then measures the inline code of the main column (outside code
#: blocks and tables, which scroll): how much there is, how much cannot wrap (``white-space`` ``pre`` or
#: ``nowrap``), how far past the window its right edge reaches, and the page's width
CODE_JS = """((css) => { const s = document.createElement('style'); s.textContent = css;
  document.head.appendChild(s);
  const codes = [...document.querySelectorAll('main code')].filter(c => !c.closest('pre, table'));
  return {codes: codes.length,
    nowrap: codes.filter(c => ['pre', 'nowrap'].includes(getComputedStyle(c).whiteSpace)).length,
    over: Math.max(0, ...codes.map(c => Math.ceil(c.getBoundingClientRect().right - innerWidth))),
    page: document.documentElement.scrollWidth}; })(%s)"""
#: the control: inline code that does not wrap, as Quarto's rule makes it where benchbook.css does not
#: reach (code outside ``p``/``dd``, which Quarto lets wrap)
NO_WRAP = (
    "main :not(pre):not(p):not(dd) > code { white-space: pre !important; overflow-wrap: normal !important; }"
)


def test_tables_and_charts_fit_the_column_at_800_px(site_dir, browser):
    """At 800 px no page is wider than the window: a wide table scrolls inside its own box (benchbook.css:
    ``display: block; overflow-x: auto``), a chart is never wider than its box; number links keep a
    contrast of at least 4.5:1 (WCAG 2.1 AA, 1.4.3) and an underline (not colour alone); every chart has
    a finding in text and keeps its alt text on the live view.

    Issue 32 §4: under Quarto's stylesheet a sha256 in "What was measured" made five pages 815-821 px
    wide.  With Quarto's inline-code rules added after every stylesheet (``quarto_form.CODE_RULES``:
    ``code { white-space: pre }``) every inline code of the main column can still wrap and no page is
    wider than 800 px; in a 480 px window (narrower than a sha256 in one line, as Quarto's column was)
    no inline code reaches past the window, while the control, inline code kept on one line, does."""
    out, _ = site_dir
    page = browser.page()
    page.call("Emulation.setDeviceMetricsOverride", width=800, height=900, deviceScaleFactor=1, mobile=False)
    facts = {}
    for name in ("speculative.html", "draftself.html", "llama_bench.html", "offload.html", "spec_depth.html"):
        page.goto((out / name).as_uri())
        page.wait_for(
            "[...document.querySelectorAll('.bb-chart')].every(e => e.dataset.rendered || e.dataset.error)"
        )
        facts[name] = page.evaluate(LAYOUT_JS)
        facts[name]["quarto"] = page.evaluate(CODE_JS % json.dumps(quarto_form.CODE_RULES))
    page.call("Emulation.setDeviceMetricsOverride", width=480, height=900, deviceScaleFactor=1, mobile=False)
    for name, f in facts.items():
        page.goto((out / name).as_uri())
        f["quarto_480"] = page.evaluate(CODE_JS % json.dumps(quarto_form.CODE_RULES))
        f["no_wrap_480"] = page.evaluate(CODE_JS % json.dumps(NO_WRAP))
    print({n: (f["quarto"], f["quarto_480"], f["no_wrap_480"]) for n, f in facts.items()})
    for name, f in facts.items():
        assert f["quarto"]["codes"] > 0 and f["quarto"]["nowrap"] == 0, (name, f["quarto"])
        assert f["quarto"]["page"] <= 800 and f["quarto_480"]["over"] == 0, (
            name,
            f["quarto"],
            f["quarto_480"],
        )
    assert any(f["no_wrap_480"]["over"] > 0 for f in facts.values()), {
        n: f["no_wrap_480"] for n, f in facts.items()
    }
    for name, f in facts.items():
        assert f["page"] <= f["viewport"], (name, f["page"])
        assert all(t["fits"] or t["scrolls"] for t in f["tables"]), (name, f["tables"])
        assert all(t["right"] <= 800 for t in f["tables"]), (name, f["tables"])
        assert all(c["content"] <= c["box"] and c["right"] <= 800 for c in f["charts"]), (name, f["charts"])
        assert f["minContrast"] >= 4.5 and f["underlined"] and f["labelled"], (name, f)
    # at 1280 px too: the navigation bar once made every page 1,567 px wide (eleven top-level items)
    page.call("Emulation.setDeviceMetricsOverride", width=1280, height=900, deviceScaleFactor=1, mobile=False)
    for name in ("index.html", "speculative.html", "draftself.html", "spec_depth.html"):
        page.goto((out / name).as_uri())
        wide = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert wide[0] <= wide[1], (name, wide)
    # the draft-self table is wider than the column: it scrolls (it ran past the column before)
    assert any(not t["fits"] and t["scrolls"] for t in facts["draftself.html"]["tables"])
    assert (facts["speculative.html"]["findings"], facts["draftself.html"]["findings"]) == (3, 3)
