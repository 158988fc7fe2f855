"""Checks of the site's sources and of the pages a renderer built from them.

Each function returns what it found (typed results or a list of problems, one line each naming the
file and the fix); ``benchbook.site.render`` turns problems into a failed build.  They exist
because a renderer can succeed while the page lies:

* ``page_links``: every ``{{< var KEY >}}`` of a page's sources (includes followed) must appear
  in the built page as a link to ``provenance/<experiment>.html#n-KEY``.  Quarto prints
  ``?var:KEY`` and a warning for an unknown or dotted key (quarto-cli
  ``src/resources/filters/quarto-pre/shortcodes-handlers.lua`` ``handleVars``); smalldocs prints
  nothing, so only counting links catches a blank.
* ``notebook_html_outputs``: Quarto adds require.js and jQuery from a CDN to a notebook page with any
  ``text/html`` or ``application/javascript`` output (quarto-cli ``src/core/jupyter/widgets.ts``,
  ``extractJupyterWidgetDependencies``), with no option to turn it off.
* ``renderer_warnings``: warning lines a renderer printed while exiting 0 (smalldocs ``warning: …``,
  Quarto ``WARN …`` / ``WARNING …``).
* ``stale_registry``: the registry was derived from raw lines that have changed since
  (``benchbook.numbers.cited_sha256``).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

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
WARNING = re.compile(r"^\s*(warning|warn)\b", re.I | re.M)
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


def page_links(root: Path, site: Path, sources: list[Path]) -> list[PageLinks]:
    """For each source page, its ``{{< var >}}`` uses against the provenance links of its built page.

    A link counts when it is ``<a href="[../]*provenance[/EXPERIMENT].html#n-KEY"`` (the ``_variables.yml``
    value rendered); a key used twice needs two links; ``KEY__v`` counts as a use of ``KEY``.
    """
    out = []
    for src in sources:
        wanted = page_vars(src.resolve(), root.resolve())
        page = built_page(site, root, src)
        html = page.read_text(errors="replace") if page.is_file() else ""
        found = Counter(
            re.findall(r'<a\b[^>]*\bhref="(?:\.\./)*provenance(?:/[a-z0-9_]+)?\.html#n-([a-z0-9_-]+)"', html)
        )
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


def renderer_warnings(output: str) -> list[str]:
    """The warning lines of a renderer's stdout+stderr."""
    return [line.strip() for line in output.splitlines() if WARNING.match(line)]


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
