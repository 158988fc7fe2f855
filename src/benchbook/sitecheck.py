"""Checks of the site's sources and of the pages a renderer built from them.

Each function returns what it found (typed results or a list of problems, one line each naming the
file and the fix); ``benchbook.site.render`` turns problems into a failed build.  They exist
because a renderer can succeed while the page lies:

* ``page_links``: every ``{{< var KEY >}}`` of a page's sources (includes followed) must appear
  in the built page as a link that a browser resolves to ``provenance/<experiment>.html#n-KEY`` of the
  site root.  Renderers write that link in different forms: smalldocs ``provenance/e.html#n-KEY``,
  Quarto ``./provenance/e.html#n-KEY`` on a top-level page and ``../provenance/…`` one folder down (its
  project offset before the site-absolute output path: quarto-cli
  ``src/project/types/website/website-utils.ts`` ``resolveProjectInputLinks``, with ``projectOffset`` of
  ``src/project/project-shared.ts``), so links are resolved against the page's URL, not matched as text.
  Quarto prints ``?var:KEY`` and a warning for an unknown or dotted key (quarto-cli
  ``src/resources/filters/quarto-pre/shortcodes-handlers.lua`` ``handleVars``); smalldocs prints
  nothing, so only counting links catches a blank.
* ``unknown_shortcodes``: Quarto's text for a key it could not find, ``?var:KEY`` / ``?meta:KEY`` /
  ``?env:NAME`` (quarto-cli ``src/resources/pandoc/datadir/init.lua`` ``error_output``, and
  ``handleMeta``), found in the built HTML whatever the renderer printed.
* ``notebook_html_outputs``: Quarto adds require.js and jQuery from a CDN to a notebook page with any
  ``text/html`` or ``application/javascript`` output (quarto-cli ``src/core/jupyter/widgets.ts``,
  ``extractJupyterWidgetDependencies``), with no option to turn it off.
* ``renderer_warnings``: warning lines a renderer printed while exiting 0, ANSI colour codes removed
  first: smalldocs ``warning: …``; Quarto ``WARN: …`` in yellow from its TypeScript side (quarto-cli
  ``src/core/log.ts`` ``StdErrOutputHandler.format``: the level name, then ``colors.yellow``) and
  ``WARNING (file:line) …`` in yellow from its Lua filters (``src/resources/filters/common/log.lua``
  ``warn``, ``lunacolors.yellow``: ``ESC[33m … ESC[39m``), both coloured even when piped; pandoc's
  ``[WARNING] …``.
* ``stale_registry``: the registry was derived from raw lines that have changed since
  (``benchbook.numbers.cited_sha256``).
* ``script_urls``: a script that builds an external URL (a loader that fetches a library from a CDN)
  makes the page fetch it at run time, though no attribute names it; the HTML check cannot see it.
* ``unexecuted_cells``: a report notebook whose code cell never ran, or ran and showed nothing, is a
  page that lacks what its source promises (a stale copy, or a section that raised before its output).
"""

from __future__ import annotations

import html as html_lib
import json
import re
from collections import Counter
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import esprima

from .numbers import SCHEMA as NUMBERS_SCHEMA
from .numbers import cited_sha256

VAR = re.compile(r"\{\{<\s*var\s+([^\s>]+)\s*>\}\}")
#: ``{{< var KEY__v >}}``: the number of ``KEY`` without its unit, for a table whose header names the unit.
CELL_SUFFIX = "__v"
#: ``{{< var PREFIX__cfg >}}``: a table row's label naming the caveats said once for the numbers of one
#: configuration in that row (``benchbook.pagemarks``); not a number, so no provenance link is expected.
CFG_SUFFIX = "__cfg"


def base_key(var: str) -> str:
    """The registry key a ``{{< var >}}`` name quotes: ``KEY`` for ``KEY`` and for ``KEY__v``."""
    return var.removesuffix(CELL_SUFFIX)


INCLUDE = re.compile(r"\{\{<\s*include\s+([^\s>]+)\s*>\}\}")
#: a warning line, colour codes removed: ``warning: …`` (smalldocs), ``WARN: …`` / ``WARNING (…) …``
#: (Quarto), ``[WARNING] …`` (pandoc)
WARNING = re.compile(r"^\s*\[?(warning|warn)\b", re.I | re.M)
#: an ANSI escape sequence (ECMA-48): CSI (``ESC [`` … final byte, colours among them), OSC (``ESC ]`` …
#: BEL or ``ESC \``), or a two-character escape
ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])")
#: Quarto's output for a shortcode key it could not find (``?var:KEY``, ``?meta:KEY``, ``?env:NAME``)
UNKNOWN_SHORTCODE = re.compile(r"\?(var|meta|env):[^\s<\"']+")
#: where a provenance link of the site root leads: ``provenance.html`` or ``provenance/<experiment>.html``
PROVENANCE_PAGE = re.compile(r"^provenance(?:/[a-z0-9_]+)?\.html$")
#: a write-up's own provenance page, ``writeups/<name>/provenance/<experiment>.html`` (``sitewriteups``):
#: its ``#n-KEY`` is the page key ``<name>--KEY`` (``sitewriteups.page_key``)
WRITEUP_PROVENANCE_PAGE = re.compile(r"^writeups/([a-z0-9][a-z0-9_-]*)/provenance/[a-z0-9_]+\.html$")
#: an ``<a>`` element's ``href`` (double-quoted, as both renderers write them)
_A_HREF = re.compile(r'<a\b[^>]*?\bhref="([^"]*)"')
#: the made-up origin under which a site-relative page path is resolved like a URL (a link that climbs
#: above the site root leaves ``_SITE_BASE`` and points nowhere in the site)
_SITE_BASE = "http://site.invalid/site-root/"

HTML_MIMES = ("text/html", "application/javascript")


@dataclass(frozen=True)
class PageLinks:
    """One page: ``wanted`` ``{{< var >}}`` uses in its sources, ``linked`` of them found as provenance
    links in the built page, and the keys (with how many uses) that are not."""

    page: str
    wanted: int
    linked: int
    unlinked: dict[str, int]


def page_vars(source: Path, root: Path, _seen: tuple[Path, ...] = ()) -> Counter:
    """Keys of every ``{{< var KEY >}}`` in ``source`` and the files it includes (recursively), counted.

    Include paths are relative to the including file (Quarto's ``include`` shortcode), or to ``root``
    when they start with ``/``.  A missing include adds nothing (the renderer reports it).
    """
    if source in _seen or not source.is_file():
        return Counter()
    text = source.read_text(errors="replace")
    keys = Counter(base_key(k) for k in VAR.findall(text) if not k.endswith(CFG_SUFFIX))
    for inc in INCLUDE.findall(text):
        path = root / inc.lstrip("/") if inc.startswith("/") else source.parent / inc
        keys += page_vars(path.resolve(), root, (*_seen, source))
    return keys


def built_page(site: Path, root: Path, source: Path) -> Path:
    """The HTML page a renderer writes for ``source`` (``a/b.qmd`` or ``a/b.ipynb`` -> ``a/b.html``)."""
    return site / source.relative_to(root).with_suffix(".html")


def resolve_link(page: str, href: str) -> tuple[str, str] | None:
    """Where a browser goes from ``href`` (as written in the attribute, HTML-escaped) on the page at
    site-relative path ``page`` (``audits/a.html``): ``(site-relative path, fragment)``, both
    percent-decoded; ``None`` for an external URL or a link that climbs above the site root.

    Resolution is RFC 3986 section 5.2 (``urllib.parse.urljoin``), so ``./provenance/e.html``,
    ``provenance/e.html`` and, one folder down, ``../provenance/e.html`` all give ``provenance/e.html``.

    >>> resolve_link("index.html", "./provenance/e.html#n-k")
    ('provenance/e.html', 'n-k')
    >>> resolve_link("audits/a.html", "../provenance/e.html#n-k")
    ('provenance/e.html', 'n-k')
    """
    url = urlsplit(urljoin(_SITE_BASE + page, html_lib.unescape(href)))
    base = urlsplit(_SITE_BASE)
    if (url.scheme, url.netloc) != (base.scheme, base.netloc) or not url.path.startswith(base.path):
        return None
    return unquote(url.path[len(base.path) :]), unquote(url.fragment)


def provenance_links(page: str, html: str) -> Counter:
    """Registry keys of the ``<a href>`` links of ``html`` (the page at site-relative path ``page``)
    that resolve (``resolve_link``) to ``#n-KEY`` on the site root's ``provenance.html`` or
    ``provenance/<experiment>.html``, counted; a link to a write-up's own provenance page
    (``WRITEUP_PROVENANCE_PAGE``) counts as its page key ``<name>--KEY``."""
    found: Counter = Counter()
    for href in _A_HREF.findall(html):
        target = resolve_link(page, href)
        if not target or not target[1].startswith("n-"):
            continue
        if PROVENANCE_PAGE.match(target[0]):
            found[target[1][2:]] += 1
        elif m := WRITEUP_PROVENANCE_PAGE.match(target[0]):
            found[f"{m.group(1)}--{target[1][2:]}"] += 1
    return found


def page_links(root: Path, site: Path, sources: list[Path]) -> list[PageLinks]:
    """For each source page, its ``{{< var >}}`` uses against the provenance links of its built page.

    A link counts when a browser on that page resolves it to ``#n-KEY`` of ``provenance.html`` or
    ``provenance/<experiment>.html`` at the site root (``provenance_links``: the ``_variables.yml`` value
    rendered, in whichever form the renderer writes it); a key used twice needs two links; ``KEY__v``
    counts as a use of ``KEY``.
    """
    out = []
    for src in sources:
        wanted = page_vars(src.resolve(), root.resolve())
        page = built_page(site, root, src)
        html = page.read_text(errors="replace") if page.is_file() else ""
        found = provenance_links(page.relative_to(site).as_posix(), html)
        unlinked = {k: n - found[k] for k, n in sorted(wanted.items()) if found[k] < n}
        out.append(
            PageLinks(
                str(src.relative_to(root)),
                sum(wanted.values()),
                sum(wanted.values()) - sum(unlinked.values()),
                unlinked,
            )
        )
    return out


def notebook_html_outputs(notebooks: list[Path]) -> list[str]:
    """``file: cell N: MIME`` for every ``text/html`` or ``application/javascript`` output."""
    bad = []
    for nb in notebooks:
        cells = json.loads(nb.read_text()).get("cells", [])
        for i, cell in enumerate(cells):
            for output in cell.get("outputs", []):
                for mime in HTML_MIMES:
                    if mime in output.get("data", {}):
                        bad.append(f"{nb}: cell {i}: {mime}")
    return bad


#: code cells that show nothing by design: the parameters cell and the one papermill injects
QUIET_TAGS = frozenset({"parameters", "injected-parameters"})


def unexecuted_cells(notebooks: list[Path]) -> list[str]:
    """``file: cell N (id): why`` for each code cell of ``notebooks`` that never ran
    (``execution_count`` null), that raised (an ``error`` output), or that ran and has no output
    (the cells tagged ``QUIET_TAGS`` excepted)."""
    bad = []
    for nb in notebooks:
        cells = json.loads(nb.read_text()).get("cells", [])
        for i, cell in enumerate(cells):
            if cell.get("cell_type") != "code":
                continue
            where = f"{nb}: cell {i} ({cell.get('id', 'no id')})"
            outputs = cell.get("outputs", [])
            if cell.get("execution_count") is None:
                bad.append(f"{where}: never executed")
            elif errors := [o.get("ename", "an error") for o in outputs if o.get("output_type") == "error"]:
                bad.append(f"{where}: raised {errors[0]}")
            elif not outputs and not QUIET_TAGS & set(cell.get("metadata", {}).get("tags", [])):
                bad.append(f"{where}: executed with no output")
    return bad


#: ``<script type=…>`` values a browser runs (no ``type``: JavaScript); JSON and templates are data
JS_TYPES = frozenset({"", "text/javascript", "application/javascript", "module", "text/ecmascript"})
#: string literals that name an XML namespace or a JSON schema, never fetched by the browser
NAMESPACES = re.compile(
    r"^https?://(www\.w3\.org/(2000/svg|1999/xhtml|1999/xlink|1998/Math/MathML|2000/xmlns/?)$)", re.I
)
_URL = re.compile(r"^\s*((https?|wss?):)?(\\?/){2}[^\s/\\]", re.I)  # any case; JSON's "\/" escape too


class _Scripts(HTMLParser):
    """The bodies of a page's inline scripts that a browser runs, with the line each starts on."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.scripts: list[tuple[int, str]] = []
        self._in: int | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: (v or "") for k, v in attrs}
        if tag == "script" and "src" not in a and a.get("type", "").strip().lower() in JS_TYPES:
            self._in = self.getpos()[0]

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in = None

    def handle_data(self, data: str) -> None:
        if self._in is not None:
            self.scripts.append((self._in, data))


def script_urls(code: str) -> list[str]:
    """The string and template literals of JavaScript ``code`` that begin an external URL
    (``https://…``, ``http://…`` or protocol-relative ``//host…``), as written.

    Tokenized with esprima (tolerant mode), so URLs in comments and regular expressions do not count
    and a URL built by concatenation (``"https://cdn.x/" + name``) or a template does.  Not counted:
    XML namespace URIs (``NAMESPACES``: ``createElementNS`` never fetches them) and the value of a
    ``"$schema"`` key (Vega-Lite specs name their schema; vega-embed does not fetch it).  Code that
    esprima cannot tokenize is returned as one entry saying so (a check must not pass unread code).
    """
    try:
        tokens = esprima.tokenize(code, {"tolerant": True})
    except Exception as e:  # esprima raises its own Error class (not an Exception subclass hierarchy we know)
        return [f"script not tokenizable ({e})"]
    out = []
    for i, tok in enumerate(tokens):
        if tok.type not in ("String", "Template"):
            continue
        text = tok.value[1:]  # drop the opening quote or backtick (a template's middle part: its brace)
        if not _URL.match(text):
            continue
        if NAMESPACES.match(text.rstrip("\"'`")):
            continue
        prev = [t.value for t in tokens[max(i - 2, 0) : i]]
        if prev and prev[-1] == ":" and len(prev) == 2 and prev[0].strip("\"'") == "$schema":
            continue
        out.append(tok.value[:120])
    return out


def inline_script_urls(html: str) -> list[str]:
    """``line N: literal`` for each external URL literal (``script_urls``) of ``html``'s inline scripts."""
    parser = _Scripts()
    parser.feed(html)
    parser.close()
    return [
        f"inline script at line {line}: {url}" for line, code in parser.scripts for url in script_urls(code)
    ]


def renderer_warnings(output: str) -> list[str]:
    """The warning lines (``WARNING``) of a renderer's stdout+stderr, ANSI escape sequences removed
    first (Quarto colours its warnings even when its output is piped)."""
    return [line.strip() for line in ANSI.sub("", output).splitlines() if WARNING.match(line)]


def unknown_shortcodes(site: Path) -> list[str]:
    """``page: ?var:KEY`` (sorted, one per page and text) for every ``?var:``/``?meta:``/``?env:`` text in
    the HTML pages of ``site``: what Quarto writes where a shortcode names a key it does not have
    (``UNKNOWN_SHORTCODE``), whether or not its warning was seen."""
    site = Path(site)
    return sorted(
        {
            f"{page.relative_to(site).as_posix()}: {m.group(0)}"
            for page in site.rglob("*.html")
            for m in UNKNOWN_SHORTCODE.finditer(page.read_text(errors="replace"))
        }
    )


def stale_registry(root: Path, numbers_dir: Path) -> list[str]:
    """One line per registry file whose cited raw lines no longer hash as when it was published.

    Also a line for a registry without ``cited_sha256`` (published before digests existed) and for
    a cited file that is missing.
    """
    bad = []
    for path in sorted(Path(numbers_dir).glob("*.json")):
        doc = json.loads(path.read_text())
        if doc.get("schema") != NUMBERS_SCHEMA:
            continue
        fix = f"fix: dvc repro {doc.get('experiment')}_report"
        recorded = doc.get("cited_sha256")
        if recorded is None:
            bad.append(f"{path}: no cited_sha256 (published by older code); {fix}")
            continue
        now = cited_sha256(root, doc["numbers"].values())
        for name in sorted(set(recorded) | set(now)):
            if now.get(name) is None:
                bad.append(f"{path}: cites {name}, which is missing under {root}; {fix}")
            elif recorded.get(name) != now[name]:
                bad.append(f"{path}: the lines it cites in {name} changed since it was published; {fix}")
    return bad
