"""Escaping untrusted text (model outputs, claims fields, record strings) for the site's pages.

Pages put tables and lists in raw HTML blocks (```{=html} fences) so that both renderers (Quarto and
smalldocs) pass them through unchanged; inside such a block a value must not open a tag, and must not
close the fence or start Markdown.
"""

from __future__ import annotations

import contextlib
import html
import re
import sys
from collections.abc import Iterator

#: characters ``html_text`` writes as entities beyond ``html.escape``'s ``& < > " '``: a backtick
#: could close the ```{=html} fence; braces could open a Quarto shortcode (``{{< include … >}}``),
#: which Quarto expands inside raw HTML blocks too; ``$`` could open a math span; line breaks could
#: end the block.
_HTML_EXTRA = {"`": "&#96;", "{": "&#123;", "}": "&#125;", "$": "&#36;", "\n": "&#10;", "\r": "&#13;"}

#: invisible characters that change how the text around them reads: bidirectional controls (a
#: right-to-left override U+202E in a claim reverses the audit's own verdict text after it; Unicode
#: Technical Report 36, "Bidirectional Text Spoofing") and the C0/C1 controls but tab, newline and
#: carriage return (ESC starts a terminal escape sequence)
_INVISIBLE = {
    c: f"⟨U+{c:04X}⟩"
    for c in [*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), *range(0x7F, 0xA0), 0x061C, 0x200E, 0x200F]
    + [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]
}


def visible_controls(text) -> str:
    """``str(text)`` with each bidirectional or control character (``_INVISIBLE``) shown as its code
    point, ``⟨U+202E⟩``: neither a page nor a terminal row may be re-ordered or driven by a value.

    >>> visible_controls("ok\u202eevil"), visible_controls("id\x1b[31m")
    ('ok⟨U+202E⟩evil', 'id⟨U+001B⟩[31m')
    """
    return str(text).translate(_INVISIBLE)


class TerminalStream:
    """A text stream (``sys.stdout``/``sys.stderr``) whose every write goes through
    ``visible_controls``: record, snapshot, registry and claims text a command prints cannot clear the
    screen, set the window title (ESC, OSC), send a C1 CSI (U+009B) or re-order the row (U+202E);
    tab, newline and carriage return (progress bars) pass.  Other attributes are the wrapped stream's.
    """

    def __init__(self, stream) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(visible_controls(text))
        return len(text)

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


@contextlib.contextmanager
def terminal_output() -> Iterator[None]:
    """Within the block, ``sys.stdout`` and ``sys.stderr`` are each a ``TerminalStream``: the one
    terminal-escaping path of the CLI (``cli.main`` runs every command inside it).  Subprocesses
    writing to the file descriptors directly (llama.cpp's own output) are not affected."""
    out, err = sys.stdout, sys.stderr
    sys.stdout = TerminalStream(out)
    sys.stderr = TerminalStream(err)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err


def html_text(text) -> str:
    """``str(text)`` HTML-escaped for a raw HTML block: ``& < > " '`` as entities (``html.escape``),
    and also ``_HTML_EXTRA`` (backticks, braces, ``$``, line breaks), so that no value can close the
    ```{=html} fence, turn into live Markdown or math, or hold a Quarto shortcode; bidirectional and
    control characters shown (``visible_controls``).

    >>> html_text('<b>{{< include /etc/os-release >}}</b> $x$')
    '&lt;b&gt;&#123;&#123;&lt; include /etc/os-release &gt;&#125;&#125;&lt;/b&gt; &#36;x&#36;'
    """
    return "".join(_HTML_EXTRA.get(c, c) for c in html.escape(visible_controls(text)))


#: ASCII characters that start or end Markdown or Pandoc syntax (emphasis, links, code, math,
#: citations, shortcodes, raw HTML, table cells, attributes, footnotes), written as entities.
_MARKDOWN_SPECIAL = set("\\`*_{}[]()<>#+!|$~^&\"'@:;=%")


def markdown_text(text) -> str:
    """``str(text)`` as inert Markdown: each character of ``_MARKDOWN_SPECIAL`` as a numeric entity
    (``<`` -> ``&#60;``), line breaks as spaces.  CommonMark and Pandoc turn an entity into the literal
    character and never into syntax, so the text renders as written and cannot open a tag, a link, a
    math span, a citation, a shortcode or a table cell in either renderer; bidirectional and control
    characters are shown (``visible_controls``)."""
    flat = " ".join(visible_controls(text).splitlines())
    return "".join(f"&#{ord(c)};" if c in _MARKDOWN_SPECIAL else c for c in flat)


_UTC_MINUTE = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}")


def minute_text(iso) -> str:
    """A record's UTC time (ISO 8601) to the minute for a page, ``2026-12-01T04:21:38Z`` ->
    ``2026-12-01 04:21``; "-" for None; a value that is not such a time through ``markdown_text``
    (a record's field is any host's text).

    >>> minute_text("2026-12-01T04:21:38.357243Z"), minute_text(None), minute_text("$x$")
    ('2026-12-01 04:21', '-', '&#36;x&#36;')
    """
    if iso is None:
        return "-"
    text = str(iso)
    if _UTC_MINUTE.match(text):
        return text[:16].replace("T", " ")
    return markdown_text(text)


#: characters a code span cannot hold safely: a backtick ends it, ``|`` splits a pipe-table cell even
#: inside code, and ``{{``/``}}`` may start a Quarto shortcode, which Quarto expands even in code
_CODE_UNSAFE = ("`", "|", "{{", "}}")


def code_span(text) -> str:
    """``str(text)`` as an inline code span (```text```), line breaks as spaces.  Inside a code span
    Markdown shows every character literally and decodes no entity, so ``markdown_text`` must never
    be applied inside one (``a&#95;b`` would show as written).  A text a code span cannot hold
    (``_CODE_UNSAFE``, or empty) is returned as ``markdown_text`` instead: literal, not monospaced.

    >>> code_span("unique_experts-n-9"), code_span("a`b")
    ('`unique_experts-n-9`', 'a&#96;b')
    """
    flat = " ".join(visible_controls(text).splitlines())
    if not flat.strip() or any(u in flat for u in _CODE_UNSAFE):
        return markdown_text(flat)
    return f"`{flat}`"


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
