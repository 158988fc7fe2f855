"""Dead links in a built site: every local ``href`` and ``src`` of every HTML page must name a file
of the site, and a ``#fragment`` of an HTML page an ``id`` on that page.

External URLs (any ``scheme:`` in any case: ``http:``, ``HTTPS:``, ``mailto:``, ``tel:``, ``ftp:``,
``data:``, ``javascript:``, and ``//host``) are not followed here (``sitecheck.external_refs`` refuses
the ones a browser would fetch).  A link that resolves outside the site folder is dead too: the site is
served from that folder alone.  A link to a folder (``sub/``, ``sub``) stands for its ``index.html``
(what a web server serves there), so a folder without one is dead, and a ``#fragment`` is looked for
in it.  Only an ``id`` attribute is a fragment's target (not ``data-id``).
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from urllib.parse import unquote

#: an href or src attribute's value (double-quoted, as both renderers write them)
_LINK = re.compile(r"""\b(?:href|src)="([^"]*)\"""")
_ID = re.compile(r"""(?<![\w-])id="([^"]*)\"""")
#: a URL scheme (RFC 3986 section 3.1: a letter, then letters, digits, ``+``, ``-``, ``.``), or ``//``
_EXTERNAL = re.compile(r"^(?:[A-Za-z][A-Za-z0-9+.-]*:|//)")


def _ids(page: Path, cache: dict[Path, set[str]]) -> set[str]:
    if page not in cache:
        cache[page] = {html.unescape(i) for i in _ID.findall(page.read_text(errors="replace"))}
    return cache[page]


def dead_links(site: Path) -> list[str]:
    """``page: link (why)`` for every local link of ``site``'s HTML pages whose file is missing, lies
    outside ``site``, or (an HTML page's ``#fragment``) names no ``id`` there; sorted, one per page and
    link."""
    site = Path(site).resolve()
    ids: dict[Path, set[str]] = {}
    bad = set()
    for page in sorted(site.rglob("*.html")):
        for raw in _LINK.findall(page.read_text(errors="replace")):
            link = html.unescape(raw)
            if not link or _EXTERNAL.match(link) or link.startswith("#") and len(link) == 1:
                continue
            path, _, fragment = link.partition("#")
            path = path.split("?", 1)[0]
            target = (page.parent / unquote(path)).resolve() if path else page
            folder = target.is_dir()
            if folder:
                target = target / "index.html"
            where = f"{page.relative_to(site).as_posix()}: {link}"
            if not target.is_relative_to(site):
                bad.add(f"{where} (outside the site)")
            elif not target.exists():
                bad.add(
                    f"{where} ({'a folder without index.html' if folder else 'no such file in the site'})"
                )
            elif fragment and target.suffix == ".html" and unquote(fragment) not in _ids(target, ids):
                bad.add(f"{where} (no id {fragment!r} on that page)")
    return sorted(bad)
