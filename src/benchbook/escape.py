"""Escaping untrusted text (model outputs, claims fields, record strings) for the site's pages.

Pages put tables and lists in raw HTML blocks (```{=html} fences) so that both renderers (Quarto and
smalldocs) pass them through unchanged; inside such a block a value must not open a tag, and must not
close the fence or start Markdown.
"""

from __future__ import annotations

import html


def html_text(text) -> str:
    """``str(text)`` HTML-escaped for a raw HTML block: ``& < > " '`` as entities (``html.escape``),
    and also backticks and newlines, so that no value can close the ```{=html} fence and turn into
    live Markdown."""
    return html.escape(str(text)).replace("`", "&#96;").replace("\n", "&#10;").replace("\r", "&#13;")


#: ASCII characters that start or end Markdown or Pandoc syntax (emphasis, links, code, math,
#: citations, shortcodes, raw HTML, table cells, attributes, footnotes), written as entities.
_MARKDOWN_SPECIAL = set("\\`*_{}[]()<>#+!|$~^&\"'@:;=%")


def markdown_text(text) -> str:
    """``str(text)`` as inert Markdown: each character of ``_MARKDOWN_SPECIAL`` as a numeric entity
    (``<`` -> ``&#60;``), line breaks as spaces.  CommonMark and Pandoc turn an entity into the literal
    character and never into syntax, so the text renders as written and cannot open a tag, a link, a
    math span, a citation, a shortcode or a table cell in either renderer."""
    flat = " ".join(str(text).splitlines())
    return "".join(f"&#{ord(c)};" if c in _MARKDOWN_SPECIAL else c for c in flat)


def markdown_table(frame) -> str:
    """A pipe table (Markdown) of ``frame`` (anything with ``columns`` and ``iter_rows()``, e.g. a
    Polars DataFrame), every header and cell through ``markdown_text``; ``None`` as an empty cell,
    lists joined with ``, ``.  Notebooks show tables with it instead of an HTML output."""

    def cell(value) -> str:
        if value is None:
            return ""
        if isinstance(value, (list, tuple)):
            return markdown_text(", ".join(str(v) for v in value))
        return markdown_text(value)

    lines = ["| " + " | ".join(cell(c) for c in frame.columns) + " |", "|" + "---|" * len(frame.columns)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in frame.iter_rows()]
    return "\n".join(lines) + "\n"
