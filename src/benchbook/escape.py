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
