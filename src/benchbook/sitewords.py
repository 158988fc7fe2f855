"""The words the site publishes beside its numbers, checked at build time.

``wording.check_page`` finds a characterising word ("faster", "slower", "a gain", "about zero") that
the number it sits beside does not support.  ``site.render`` runs it on everything a page shows
before rendering, so a page that says "Self-drafting is faster" beside a speedup of 0.48 [0.28, 0.82]
fails the build, naming the page, the sentence and the number (it used to run only in the tests):

* a ``.qmd`` page with its ``{{< include >}}`` files expanded in place (recursively; paths relative
  to the including file, or to the site root when they start with ``/``, as ``sitecheck.page_vars``);
* a notebook page: its Markdown cells and its saved ``text/markdown`` and ``text/plain`` stream
  outputs (what the report notebooks print).
"""

from __future__ import annotations

import json
from pathlib import Path

from .sitecheck import INCLUDE
from .wording import check_page


def page_text(source: Path, root: Path, _seen: tuple[Path, ...] = ()) -> str:
    """The prose a page shows: a ``.qmd`` with its includes expanded, a notebook's Markdown cells and
    Markdown/stream outputs (module doc).  A missing include adds nothing (the renderer reports it)."""
    if source in _seen or not source.is_file():
        return ""
    if source.suffix == ".ipynb":
        return _notebook_text(source)
    text = source.read_text(errors="replace")

    def expand(match) -> str:
        inc = match.group(1)
        path = root / inc.lstrip("/") if inc.startswith("/") else source.parent / inc
        return "\n\n" + page_text(path.resolve(), root, (*_seen, source)) + "\n\n"

    return INCLUDE.sub(expand, text)


def _notebook_text(nb: Path) -> str:
    parts = []
    for cell in json.loads(nb.read_text()).get("cells", []):
        if cell.get("cell_type") == "markdown":
            parts.append("".join(cell.get("source", [])))
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if "text/markdown" in data:
                parts.append("".join(data["text/markdown"]))
            elif out.get("output_type") == "stream":
                parts.append("".join(out.get("text", [])))
    return "\n\n".join(parts)


def wording_problems(root: Path, pages: list[Path], registry: dict[str, dict]) -> list[str]:
    """One line per characterising word on ``pages`` that its number does not support
    (``wording.check_page``: page, word, key, value and interval, the number as shown, the sentence)."""
    problems = []
    for page in pages:
        name = str(page.relative_to(root)) if page.is_relative_to(root) else str(page)
        problems += check_page(page_text(page.resolve(), root.resolve()), registry, name)
    return problems
