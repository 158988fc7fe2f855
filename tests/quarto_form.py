"""What Quarto writes, encoded from quarto-cli's source, for tests of pages in Quarto's form.

Quarto cannot be installed here (CI has none); each function states the quarto-cli file and function it
follows, so a test can build HTML, renderer output or stylesheet rules as Quarto would.
"""

from __future__ import annotations

import posixpath

#: lunacolors.yellow (quarto-cli ``src/resources/filters/common/lunacolors.lua``: ``init('yellow',
#: {33, 39})``) and Deno's ``colors.yellow`` (``fmt/colors``, used by ``src/core/log.ts``)
YELLOW, DEFAULT_FG = "\x1b[33m", "\x1b[39m"


def href(page: str, link: str) -> str:
    """The ``href`` Quarto writes in a website page for a Markdown link to an input file.

    quarto-cli ``src/project/types/website/website-utils.ts`` ``resolveProjectInputLinks``: the link is
    made project-relative (``join(dirname(sourceRelative), linkHref)``), resolved to its output
    (``src/project/project-index.ts`` ``resolveInputTarget``: ``"/" + join(hrefDir, stem + ".html")``)
    and written as ``offset + outputHref + hash``, where ``offset`` is ``projectOffset``
    (``src/project/project-shared.ts``: ``relative(dirname(input), projectDir) || "."``).  So a
    top-level page gets ``./provenance/e.html#n-KEY`` and a page one folder down ``../provenance/…``.

    ``page``: the page's source, project-relative (``index.qmd``, ``audits/a.qmd``); ``link``: the
    Markdown link target as written (``provenance/e.qmd#n-KEY``).
    """
    path, _, fragment = link.partition("#")
    folder = posixpath.dirname(page)
    target = posixpath.normpath(posixpath.join(folder, path))
    out_dir, name = posixpath.split(target)
    output_href = "/" + posixpath.join(out_dir, posixpath.splitext(name)[0] + ".html")
    offset = posixpath.relpath(".", folder) if folder else "."
    return offset + output_href + (f"#{fragment}" if fragment else "")


def lua_warning(message: str, where: str = "/opt/quarto/share/filters/main.lua:255") -> str:
    """A warning of Quarto's Lua filters as it reaches stderr: quarto-cli
    ``src/resources/filters/common/log.lua`` ``warn``: ``lunacolors.yellow("WARNING (" .. caller_info
    .. ") " .. message .. "\\n")``; the colour closes after the newline, at the start of the next line."""
    return f"{YELLOW}WARNING ({where}) {message}\n{DEFAULT_FG}"


def cli_warning(message: str) -> str:
    """A warning of Quarto's TypeScript side: quarto-cli ``src/core/log.ts``
    ``StdErrOutputHandler.format``: ``levelName + ": " + msg`` (``WARN``), then ``colors.yellow``, then
    the newline."""
    return f"{YELLOW}WARN: {message}{DEFAULT_FG}\n"


def unknown_key(shortcode: str, key: str) -> str:
    """Quarto's HTML where a ``var``/``meta`` shortcode names a key it does not have: quarto-cli
    ``src/resources/pandoc/datadir/init.lua`` ``error_output`` (``"?" .. shortcode .. ":" .. key`` in a
    ``Strong``) and ``src/resources/filters/quarto-pre/shortcodes-handlers.lua`` ``handleMeta``."""
    return f"<strong>?{shortcode}:{key}</strong>"


#: Quarto's rules for inline code (quarto-cli ``src/resources/formats/html/_quarto-rules.scss``): every
#: ``code`` keeps its spaces and never wraps; only ``p code`` and ``dd code`` wrap again (issue 2649)
CODE_RULES = (
    "dd code:not(.sourceCode), p code:not(.sourceCode) { white-space: pre-wrap; }\n"
    "code { white-space: pre; }\n"
)
