"""Site: generate the registry-driven partials, render with Quarto or the offline fallback, check.

Sources are Quarto-native and hand-written (``_quarto.yml``, ``*.qmd``); this module only writes
generated inputs that the pages read unchanged by either renderer:

* ``_variables.yml`` — one entry per registry number: a Markdown link
  ``[72.6 tok/s](provenance.qmd#n-KEY "n=5, 95% CI …")`` used as ``{{< var KEY >}}``;
* ``_generated/provenance.md`` — every number with its records, command, build, model, host, n,
  interval and caveats (included by ``provenance.qmd``); ``_generated/<experiment>-caveats.md`` —
  callouts for the caveats attached to that experiment's numbers; ``_generated/renderer.md`` (the
  renderer and its version, also in every page's footer: ``benchbook.siterenderer``).

Renderer (``benchbook.siterenderer``, an input of the site stage): ``quarto render`` when ``quarto`` is
on PATH, otherwise ``smalldocs render`` (PyPI
``smalldocs``, which reads ``_quarto.yml``, ``_variables.yml``, includes, callouts and saved
notebook outputs; checked in DESIGN.md).  After rendering, chart files and the Vega bundle
(vl-convert's ``javascript_bundle``, no CDN) are copied into ``_site``, then ``check_offline``
verifies that no page makes a browser fetch an external resource.  The build also fails on a stale
registry, HTML notebook outputs, renderer warnings and quoted numbers that did not become provenance
links (``benchbook.sitecheck``), and on a local link of the built site that leads nowhere
(``benchbook.sitelinks``); ``tests/test_site_browser.py`` checks the pages in chromium.  Write-ups
(``writeups/<name>/``) get their notebook rendered and their own provenance pages
(``benchbook.sitewriteups``).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import yaml

from benchbook import atomicfile

from . import outputs, pagemarks, sitepages, siterenderer, sitewriteups
from .escape import markdown_text
from .numbers import load_all
from .numfmt import fmt_interval, fmt_number
from .sitecheck import (
    CELL_SUFFIX,
    CFG_SUFFIX,
    PageLinks,
    inline_script_urls,
    notebook_html_outputs,
    page_links,
    page_vars,
    renderer_warnings,
    script_urls,
    stale_registry,
    unexecuted_cells,
    unknown_shortcodes,
)
from .sitelinks import dead_links
from .siterenderer import which as renderer  # noqa: F401  # `benchbook doctor` asks site for it
from .sitewords import wording_problems

GEN = "_generated"
CHARTS_JS = """// benchbook: replace each static SVG fallback with the interactive Vega-Lite chart.
// Runs once the whole page has loaded, so the order of the chart elements, the spec scripts and this
// script does not matter; a chart whose spec or bundle is missing keeps its SVG and says why.
(function () {
  function draw() {
    document.querySelectorAll('.bb-chart[data-spec]').forEach(function (el) {
      var spec = (window.BB_SPECS || {})[el.dataset.spec];
      if (!window.vegaEmbed) { el.dataset.error = 'vega bundle not loaded'; return; }
      if (!spec) { el.dataset.error = 'no spec ' + el.dataset.spec; return; }
      // the static image's alt text names the chart for screen readers (Vega would say "Vega visualization")
      var img = el.querySelector('img'), alt = img ? img.getAttribute('alt') : '';
      if (alt) { spec = Object.assign({}, spec, {description: alt}); }
      var holder = document.createElement('div');
      window.vegaEmbed(holder, spec, {actions: false, renderer: 'svg'}).then(function () {
        el.replaceChildren(holder); el.dataset.rendered = 'vega';
        var svg = holder.querySelector('svg');
        if (svg && alt) { svg.setAttribute('role', 'img'); svg.setAttribute('aria-label', alt); }
      }).catch(function (e) { el.dataset.error = String(e); });
    });
  }
  if (document.readyState === 'complete') { draw(); } else { window.addEventListener('load', draw); }
})();
"""


def variable_link(
    num: dict,
    said_once: tuple[str, ...] | list[str] = (),
    *,
    unit: bool = True,
    order: list[str] | None = None,
) -> str:
    """The ``_variables.yml`` value for one number: ``[121.0 [117.6, 125.3] tok/s †2](provenance/EXP.qmd#n-KEY
    "title")``, value and interval rounded by ``numfmt.fmt_interval``; ``unit=False`` leaves the unit out
    (the ``KEY__v`` variant, for table cells under a header naming the unit).  The marker names the
    caveats of this number that are not ``said_once`` for its experiment (or its row), numbered by the
    site's ``order`` (``sitepages.markers``); the title states n, the
    interval, its method and unit of replication (``ci_method``, ``replication`` when present) and the
    caveat rule names."""
    ci = num.get("ci95")
    title = f"n={num['n']}"
    if ci:
        shown = fmt_interval(num["value"], ci)  # "v [low, high]"; the title repeats only the interval
        title += f", 95% CI {shown[shown.find(' [') + 1 :] if ' [' in shown else f'[{shown}, {shown}]'}"
        if num.get("ci_method"):
            title += f" ({num['ci_method']})"
        if num.get("replication"):
            title += f", replication: {num['replication']}"
    if num.get("caveats"):
        title += "; caveats: " + ", ".join(num["caveats"])
    title = title.replace('"', "'").replace("\\", "/")
    text = markdown_text(fmt_number(num, unit=unit))  # the unit comes from records
    mark = markdown_text(sitepages.marker_text(num, list(said_once), order))
    return f'[{text}{mark}]({sitepages.provenance_href(num)} "{title}")'


def cfg_link(rules: list[str], order: list[str] | None) -> str:
    """The ``_variables.yml`` value of a ``PREFIX__cfg`` row label (``pagemarks``): the markers of
    ``rules``, linking to the first rule's definition, its title naming them; empty when none."""
    if not rules:
        return ""
    marks = sitepages.markers(order)
    ids = sorted(int(marks[r][1:]) for r in rules)
    title = "said once for this configuration's numbers in this row: " + ", ".join(rules)
    return f'[†{",".join(map(str, ids))}](provenance.qmd#c-{rules[0]} "{title}")'


def variables(
    nums: dict[str, dict],
    marks: pagemarks.PageMarks | None = None,
    writeups: dict[str, dict[str, dict]] | None = None,
) -> dict[str, str]:
    """Every ``_variables.yml`` entry: ``KEY`` (with unit, for prose) and ``KEY__v`` (without, for
    tables), markers numbered once for the sources (each built page renumbered: ``pagemarks``) and a
    cell's markers without those its row's label says (``marks``, from ``pagemarks.page_marks``; default:
    ``caveats.RULES`` order, no row labels); and one ``PREFIX__cfg`` per row label (``cfg_link``); and
    each write-up's numbers under their page keys (``writeups``: ``sitewriteups.page_numbers``), their
    caveats said once counted over the write-up.

    Raises:
        SiteError: a registry key already ends in ``__v`` (its cell variant would collide).
    """
    clash = sorted(k for k in nums if k.endswith(CELL_SUFFIX))
    if clash:
        raise SiteError(
            f"registry keys end in {CELL_SUFFIX!r}, the table-cell suffix: {clash[:5]}; fix: rename them"
        )
    wide = experiment_wide_rules(nums)
    marks = marks or pagemarks.PageMarks()
    out = {}
    order = marks.order or None
    for k, v in sorted(nums.items()):
        said = wide.get(v.get("experiment") or "", [])
        out[k] = variable_link(v, said, order=order)
        out[k + CELL_SUFFIX] = variable_link(v, [*said, *marks.cell_said.get(k, [])], unit=False, order=order)
    for prefix, (_, rules) in sorted(marks.cfg.items()):
        out[prefix + CFG_SUFFIX] = cfg_link(rules, order)
    for mine in (writeups or {}).values():  # page keys <name>--KEY (sitewriteups), links from its folder
        wide_here = experiment_wide_rules(mine)
        for k, v in sorted(mine.items()):
            said = wide_here.get(v.get("experiment") or "", [])
            out[k] = variable_link(v, said, order=order)
            out[k + CELL_SUFFIX] = variable_link(v, said, unit=False, order=order)
    return out


def experiment_wide_rules(nums: dict[str, dict]) -> dict[str, list[str]]:
    """Each experiment's rules said once for its whole page (``sitepages.experiment_wide``)."""
    exps = {n.get("experiment") for n in nums.values() if n.get("experiment")}
    return {exp: sitepages.experiment_wide(nums, exp) for exp in exps if exp}


def caveats_md(
    nums: dict[str, dict], experiment: str, order: list[str] | None = None, listing: list[str] | None = None
) -> str:
    """The caveat legend of ``experiment``'s page (``sitepages.legend_md``): markers in the site's
    ``order``, lines in the reading order of the page that includes it (``listing``), rule names linking
    to their definitions, and the rules said once for the whole experiment."""
    return sitepages.legend_md(nums, experiment, order, listing=listing)


def _reading_orders(root: Path, nums: dict[str, dict], marks: pagemarks.PageMarks) -> dict[str, list[str]]:
    """For each generated part a page includes (``_generated/NAME.md``, as written in the page), the
    reading order of rules (``pagemarks.page_rules``) of the first page in the site's order that
    includes it: the order its legend lists markers in."""
    out: dict[str, list[str]] = {}
    for page in sources(root):
        text = pagemarks.page_text(page.resolve(), root.resolve())
        order = pagemarks.page_rules(text, nums, marks)
        for part in re.findall(rf"{GEN}/[\w.-]+\.md", page.read_text(errors="replace")):
            out.setdefault(part, order)
    return out


def generate(root: Path, *, raw_root: Path | None = None, used: siterenderer.Renderer | None = None) -> dict:
    """Write ``_variables.yml``, ``_generated/*.md`` and ``provenance/<experiment>.qmd`` from
    ``reports/numbers`` and the snapshot store (``<raw_root>/data/raw/snapshots``); return the numbers.

    Per experiment: ``_generated/<experiment>-measured.md`` ("what was measured", included at the top
    of its page) and ``_generated/<experiment>-caveats.md`` (its caveat legend, markers numbered once in
    the sources and row labels ``PREFIX__cfg`` from ``pagemarks``); ``_generated/page-<name>-caveats.md`` for
    each page that includes it (``page_legends``); and ``_generated/speculative-outputs.md``: the model
    outputs of the cited sessions (``benchbook.outputs``).

    Raises:
        SiteError: a row label ``{{< var PREFIX__cfg >}}`` names a prefix no registry key starts with; a
            page shows a caveat marker that no legend it includes lists (``pagemarks.unlisted_markers``)."""
    nums = load_all(root / "reports" / "numbers")
    snapshots = sitepages.read_snapshots(Path(raw_root or root) / "data" / "raw" / "snapshots")
    spec_raw = Path(raw_root or root) / "data" / "raw" / "speculative"
    gen = root / GEN
    gen.mkdir(exist_ok=True)
    # the outputs part first: pages include it, and the marker order reads the pages with their includes
    atomicfile.write_text(
        gen / "speculative-outputs.md",
        outputs.speculative_outputs_md(spec_raw, nums) if spec_raw.is_dir() else "No raw outputs here.\n",
    )
    marks = pagemarks.page_marks(root, sources(root), nums, experiment_wide_rules(nums))
    _fail(
        "row labels {{< var PREFIX__cfg >}} name a configuration prefix no registry key starts with",
        marks.unknown_cfg,
        "correct PREFIX to the registry keys' common start (before the `-` that ends it)",
    )
    atomicfile.write_text(
        root / "_variables.yml",
        "# generated by benchbook.site from reports/numbers and writeups/*/reports/numbers — do not edit\n"
        + yaml.safe_dump(
            variables(nums, marks, sitewriteups.page_numbers(root)), allow_unicode=True, width=10_000
        ),
    )
    atomicfile.write_text(gen / "provenance.md", sitepages.provenance_index_md(nums))
    prov = root / sitepages.PROVENANCE_DIR
    if prov.is_dir():
        shutil.rmtree(prov)
    prov.mkdir()
    listing = _reading_orders(root, nums, marks)
    for exp in sorted({n.get("experiment") or "other" for n in nums.values()}):
        atomicfile.write_text(prov / f"{exp}.qmd", sitepages.provenance_page(nums, exp, snapshots))
        legend = caveats_md(nums, exp, marks.order, listing.get(f"{GEN}/{exp}-caveats.md"))
        atomicfile.write_text(gen / f"{exp}-caveats.md", legend)
        atomicfile.write_text(gen / f"{exp}-measured.md", sitepages.measured_md(nums, exp, snapshots))
    for path, text in page_legends(root, nums, marks.order, listing).items():
        atomicfile.write_text(path, text)
    for path, text in page_measured(root, nums, snapshots).items():
        atomicfile.write_text(path, text)
    _fail(
        "pages show caveat markers that no legend on the page lists (a reader cannot tell what they mean)",
        pagemarks.unlisted_markers(root, sources(root), nums, marks),
        "include the page's own legend, {{< include _generated/page-NAME-caveats.md >}} (NAME: the page's "
        "file name without .qmd), or its experiment's, {{< include _generated/EXPERIMENT-caveats.md >}}",
    )
    sitewriteups.provenance_pages(root)  # writeups/<name>/provenance/*.qmd from each write-up's registry
    for path, text in sitewriteups.pages_parts(root, marks.order).items():  # write-up pages' own parts
        path.parent.mkdir(exist_ok=True)
        atomicfile.write_text(path, text)
    used = used or siterenderer.find()
    atomicfile.write_text(
        gen / "renderer.md",
        f"This site was built by **{used.name} {used.version}** ({siterenderer.ABOUT[used.name]}); every "
        "page's footer says so.\n",
    )
    return nums


def page_legends(
    root: Path,
    nums: dict[str, dict],
    order: list[str] | None = None,
    listing: dict[str, list[str]] | None = None,
) -> dict[Path, str]:
    """The caveat legend of each page that has its own (the overview, a page written by ``benchbook
    new-page``): for every source page that includes ``_generated/page-<its name>-caveats.md``, that path
    and ``sitepages.page_legend_md`` over the numbers the page quotes (``{{< var KEY >}}``, includes
    followed), of whichever experiments, markers numbered as in every source (``order``), lines in the
    page's reading order (``listing``: generated part -> rules, ``_reading_orders``)."""
    out = {}
    for page in sources(root):
        legend = f"{GEN}/page-{page.stem}-caveats.md"
        if legend not in page.read_text(errors="replace"):
            continue
        keys = _page_keys(root, page, nums)
        out[root / legend] = (
            sitepages.page_legend_md(nums, keys, order, (listing or {}).get(legend))
            if keys
            else "No registered number on this page.\n"
        )
    return out


def _page_keys(root: Path, page: Path, nums: dict[str, dict]) -> set[str]:
    """The registry keys ``page`` quotes (``{{< var KEY >}}`` and ``KEY__v``, includes followed)."""
    return {k.removesuffix(CELL_SUFFIX) for k in page_vars(page.resolve(), root.resolve())} & nums.keys()


def page_measured(
    root: Path, nums: dict[str, dict], snapshots: dict[str, dict[str, dict]]
) -> dict[Path, str]:
    """The "What was measured" block of each page that has its own (a ``benchbook new-page`` page): for
    every source page that includes ``_generated/page-<its name>-measured.md``, that path and
    ``sitepages.measured_md`` over the numbers the page quotes only (hosts, models, sessions and n of
    those numbers, not of their whole experiment)."""
    out = {}
    for page in sources(root):
        part = f"{GEN}/page-{page.stem}-measured.md"
        if part in page.read_text(errors="replace"):
            keys = _page_keys(root, page, nums)
            out[root / part] = (
                sitepages.measured_md(nums, None, snapshots, keys) if keys else "No registered number here.\n"
            )
    return out


def sources(root: Path) -> list[Path]:
    """The pages ``_quarto.yml`` renders (``project.render``, globs expanded, sorted within a glob);
    every ``*.qmd`` of ``root`` when there is no ``_quarto.yml``."""
    cfg = root / "_quarto.yml"
    if not cfg.is_file():
        return sorted(root.glob("*.qmd"))
    out: list[Path] = []
    for pattern in (yaml.safe_load(cfg.read_text()).get("project") or {}).get("render") or []:
        out += [p for p in sorted(root.glob(pattern)) if p.is_file() and p not in out]
    return out


def missing_vars(root: Path, keys: set[str], pages: list[Path] | None = None) -> list[str]:
    """``page: key`` for every ``{{< var key >}}`` in ``pages`` (default ``sources(root)``) and the
    files they include, with no registry entry."""
    out = []
    for page in sources(root) if pages is None else pages:
        for k in sorted(page_vars(page.resolve(), root.resolve())):
            if k not in keys:
                out.append(f"{page.relative_to(root)}: {k}")
    return out


def _copy_assets(root: Path, site: Path) -> None:
    import vl_convert as vlc

    vdir = site / "site_libs" / "vega"
    vdir.mkdir(parents=True, exist_ok=True)
    bundle = vdir / "vega-bundle.js"
    if not bundle.exists():
        atomicfile.write_text(bundle, vlc.javascript_bundle())  # type: ignore[call-arg]  # stub: snippet is optional at runtime
    atomicfile.write_text(vdir / "bb-charts.js", CHARTS_JS)
    for p in (root / "reports").rglob("*"):
        if p.suffix in (".svg", ".js") and p.is_file():
            dest = site / p.relative_to(root)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(p, dest)


EXTERNAL = re.compile(
    r"""<(script|link|img|iframe|source|video|audio|embed|object|image|use|track|input|frame)\b"""
    r"""[^>]*?\b(src|href|xlink:href|data|srcset|poster)\s*=\s*["']?\s*(https?:)?//""",
    re.I,
)
META_REFRESH = re.compile(r"""<meta\b[^>]*http-equiv\s*=\s*["']?refresh[^>]*url\s*=\s*(https?:)?//""", re.I)
CSS_EXTERNAL = re.compile(r"""(@import\s+(url\()?\s*["']?|url\(\s*["']?)(https?:)?//""", re.I)


#: third-party bundles copied in whole (their loaders hold URL literals for data a spec could name;
#: our specs name none): ``site_libs/`` is the renderer's and ``_copy_assets``'s vendored code
VENDORED = "site_libs"
#: our own script under ``site_libs`` (``CHARTS_JS``), checked like every script we write
OWN_SCRIPTS = ("site_libs/vega/bb-charts.js",)


def check_offline(site: Path) -> list[str]:
    """Every place in ``site`` (html, css, svg, js) that makes a browser fetch an external resource.

    Counts src/href/srcset/poster/data of script, link, img, iframe, source, SVG image/use... , CSS
    ``url()``/``@import`` and ``<meta http-equiv=refresh>`` with an http(s) or protocol-relative URL;
    plain ``<a href>`` hyperlinks and namespace URIs don't count.  Scripts are tokenized
    (``sitecheck.script_urls``): an inline script or a ``.js`` file of ours (outside ``VENDORED``, and
    ``OWN_SCRIPTS``) with a string that begins an external URL counts, so a loader that builds a CDN
    URL in JavaScript fails the build.
    """
    bad = []
    for p in sorted(site.rglob("*")):
        if not p.is_file():
            continue
        rel = p.relative_to(site)
        if p.suffix in (".html", ".css", ".svg"):
            text = p.read_text(errors="replace")
            for rx in (EXTERNAL, CSS_EXTERNAL, META_REFRESH):
                for m in rx.finditer(text):
                    bad.append(f"{rel}: {text[m.start() : m.start() + 120]!r}")
            if p.suffix == ".html":
                bad += [f"{rel}: {line}" for line in inline_script_urls(text)]
        elif p.suffix == ".js" and (rel.parts[0] != VENDORED or rel.as_posix() in OWN_SCRIPTS):
            bad += [f"{rel}: script string {url}" for url in script_urls(p.read_text(errors="replace"))]
    return bad


class SiteError(RuntimeError):
    """The site cannot be built as it would be published; the message names the page or file and the fix."""


@dataclass(frozen=True)
class SiteBuild:
    """A built site: ``index`` (``_site/index.html``), the ``renderer`` that built it (name and version),
    per page the numbers it quotes and how many of them are linked to provenance, and the build time in
    seconds."""

    index: Path
    renderer: str
    pages: list[PageLinks]
    seconds: float


def _fail(what: str, lines: list[str], fix: str) -> None:
    if lines:
        raise SiteError(f"{what}:\n" + "\n".join(lines[:20]) + f"\nfix: {fix}")


def render(root: Path, *, raw_root: Path | None = None) -> SiteBuild:
    """Check the inputs, generate, render, copy assets, check the pages; return what was built.

    ``raw_root`` holds the raw files the registry cites (default ``root``).

    Raises:
        SiteError: the registry is stale (its cited raw lines changed), a page quotes an unpublished
            number, a page says a word its number does not support ("faster" beside a speedup
            below 1: ``sitewords``), a report notebook has an HTML output or a code cell that did
            not run, raised or showed nothing, the renderer cannot say its version, failed or warned
            (``sitecheck.renderer_warnings``: colour codes removed), a built page shows Quarto's text
            for an unknown key (``?var:KEY``, ``?meta:KEY``), a page fetches an external resource, a
            local link leads nowhere, or a quoted number did not become a link that resolves to its
            provenance entry (``sitecheck.page_links``).

    ``reports/site/renderer.yml`` (``siterenderer.RECORD``: the page footer) is rewritten first when the
    renderer found now is not the one it names.
    """
    t0 = time.monotonic()
    root = Path(root)
    _fail(
        "the numbers registry does not match the raw data it cites (the site would show old numbers)",
        stale_registry(root if raw_root is None else Path(raw_root), root / "reports" / "numbers")
        + [
            line
            for d in sitewriteups.writeup_dirs(root)
            for line in stale_registry(root, sitewriteups.registry_dir(d))
        ],
        "re-run the report stage named above (`dvc repro`; a write-up: the papermill command of its README)",
    )
    try:
        used = siterenderer.find()
    except siterenderer.RendererError as e:
        raise SiteError(str(e)) from e
    siterenderer.write(root, used)  # the page footer; the site stage's record of its renderer (dvc repro)
    nums = generate(root, raw_root=raw_root, used=used)
    pages = sources(root)
    quoted = {**nums, **{k: n for wu in sitewriteups.page_numbers(root).values() for k, n in wu.items()}}
    _fail(
        "pages reference numbers the registry does not hold (a page would show a blank)",
        missing_vars(root, set(quoted), pages),
        "run the report stage that publishes them (`dvc repro`), or correct the key in the page",
    )
    _fail(
        "pages say words that their numbers do not support (the site would contradict its numbers)",
        wording_problems(root, pages, quoted),
        "reword the sentence to what the number says (benchbook.wording.ratio_word / zero_word), "
        "or quote the number that supports the word",
    )
    _fail(
        "report notebooks have HTML outputs (Quarto would load require.js and jQuery from a CDN)",
        notebook_html_outputs([p for p in pages if p.suffix == ".ipynb"]),
        "show tables with benchbook.charts.markdown_table and charts as SVG images",
    )
    _fail(
        "report notebooks have code cells that did not run or showed nothing (the page would lack them)",
        unexecuted_cells([p for p in pages if p.suffix == ".ipynb"]),
        "re-run the notebook's report stage (`dvc repro`); a cell that shows nothing by design belongs "
        "in the notebook's parameters cell",
    )
    name, exe = used.name, used.path
    proc = subprocess.run([exe, "render"], cwd=root, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SiteError(
            f"{name} render failed (exit {proc.returncode}):\n{(proc.stdout + proc.stderr)[-3000:]}"
        )
    _fail(
        f"{name} rendered with warnings",
        renderer_warnings(proc.stdout + proc.stderr),
        "correct the source the warning names (a warning usually means a blank or broken page)",
    )
    site = root / "_site"
    pagemarks.renumber_site(site, root, pages)  # each page's markers in its own reading order
    _fail(
        "pages show a shortcode key the renderer could not find (?var:KEY, ?meta:KEY on the page)",
        unknown_shortcodes(site),
        "correct the key in the page's source, or publish the number it names (`dvc repro`)",
    )
    _copy_assets(root, site)
    _fail(
        "the built site fetches external resources",
        check_offline(site),
        "vendor the resource under site_libs/ or drop it",
    )
    _fail(
        "links in the built site lead nowhere (a file or an anchor the site lacks)",
        dead_links(site),
        "correct the link's source (a page, a generated part or a notebook's output), or render its target",
    )
    links = page_links(root, site, pages)
    _fail(
        "numbers quoted in the sources did not become provenance links in the built pages",
        [f"{p.page}: {k} ({n} of its uses)" for p in links for k, n in p.unlinked.items()],
        "use keys of [a-z0-9_-] only and a renderer that expands {{< var >}}",
    )
    return SiteBuild(site / "index.html", f"{name} {used.version}", links, time.monotonic() - t0)


def main() -> int:
    """The stage ``site`` (``python -m benchbook.site``; also ``benchbook site build``): render the site
    of the repository this runs in and print where it is and which renderer built it."""
    from .paths import repo_root

    built = render(repo_root())
    for p in built.pages:
        print(f"  {p.page}: {p.linked} of {p.wanted} quoted numbers linked to provenance")
    print(f"site: {built.index} (rendered with {built.renderer} in {built.seconds:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
