"""A published post as blocks with their lines: what ``benchbook claims draft`` reads.

A post is Markdown, plain text or HTML saved from a browser (``read_post``).  HTML is turned into
text first (``html_to_text``, with the standard library's ``html.parser``): block elements end a
line, ``<pre>`` keeps its lines, and an HTML ``<table>`` becomes a Markdown pipe table, so every
later step reads one kind of text; its line numbers are those of that text.  The text is split
into blocks by markdown-it-py (CommonMark with tables): prose (paragraphs, headings, list items:
one ``Block`` per paragraph, each piece of text with the line it is on), tables (Markdown pipe
tables; aligned text tables, whose columns are separated by two or more spaces, found in prose and
code blocks; drawn tables in code blocks: pipe tables without outer pipes, box-drawn tables,
``+---+`` grids) and code (fenced or indented: command lines and log excerpts live there).

Lines are 1-based lines of the text read, as an editor shows them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Literal

from markdown_it import MarkdownIt

#: elements that end a line of text (the rest is inline)
_BLOCK_TAGS = frozenset(
    "p div br li ul ol h1 h2 h3 h4 h5 h6 tr table pre blockquote section article header footer "
    "main aside figure figcaption dt dd hr title".split()
)
_SKIP_TAGS = frozenset({"script", "style", "noscript", "svg", "template", "head"})
#: a column gap in aligned text: two or more spaces, or a tab
_GAP = re.compile(r"\t+| {2,}")
#: a rule line of a table: dashes, ``=``, ``+``, ``|``, ``:`` and box-drawing characters
#: (U+2500-U+257F: ``─━═┏┳┓┡╇┩└┴┘├┼┤│┃``, as Python rich, MySQL-style ``+---+`` grids and
#: hand-drawn tables print them)
#: nvidia-smi's row of a device's figures: "| 30%   62C    P2   350W /  450W |   23456MiB /  24564MiB |
#: 98%   Default |" (fan, temperature, performance state, power draw and cap, memory used and total,
#: utilisation)
NVSMI_ROW = re.compile(
    r"\|\s*(?:\d+%|N/A)\s+(?:\d+C|N/A)\s+P\d+\s+(?:(?P<pw>\d+(?:\.\d+)?)W|N/A)\s*/\s*(?:\d+W|N/A)\s*"
    r"\|\s*(?P<used>\d+)MiB\s*/\s*(?P<total>\d+)MiB\s*\|\s*(?P<util>\d+)%"
)
_DASHES = re.compile(r"^[\s\-=+|:\u2500-\u257f]+$")
#: a cell separator of a drawn table: a pipe or a vertical box-drawing line
_SEP = re.compile(r"[|\u2502\u2503\u2551\u2506\u2507\u250a\u250b\u254e\u254f]")
#: a line a program logs with pipes in it: a word and its colon right before the first pipe
#: ("llama_memory_breakdown_print: | - Host |"), or a C function's name (an underscore in it)
#: before it ("slot print_timing: id  1 | task 0 |"), after llama.cpp's log prefix where it is
#: printed (``common_log``'s "0.06.895.980 I ": minutes.seconds.milliseconds.microseconds and the
#: level letter)
_LOGGED = re.compile(
    # llama-server's log with its clock and level ("1.38.856.530 I slot      release: id  0 | task 0 |
    # stop processing: …"): any component and function before the first "|"
    r"\s*\d+\.\d{2}\.\d{3}\.\d{3}\s+[DIWE]\s+[a-z]\w*\s+\w+:[^|]*\||"
    r"\s*(?:\d+\.\d{2}\.\d{3}\.\d{3}\s+[DIWE]\s+)?(?:\w+:\s*\||(?:[a-z]\w*\s+)?[a-z]+_\w*:[^|:]*\|"
    # the older llama.cpp server's log ("INFO [           print_timings] prompt eval time = … |
    # tid=… id_slot=0"; ik_llama.cpp's still): its "|" parts the message from its fields
    r"|(?:INFO|WARN|ERR|ERROR|VERB|DEBUG)\s+\[\s*\w+\]"
    # a tqdm progress bar ("Processed prompts: 100%|█████| 1/1 [00:01<00:00, …]"): no table's rules
    r"|[^|\n]*\d{1,3}%\s*\|[^|\n]*\|\s*\d+/\d+\s*\[)"
)


@dataclass
class Block:
    """One block of a post: ``kind`` text | table | code; ``lines``: ``(line, text)`` pieces (prose:
    the text of each source line with the markup removed; code: the raw lines); ``rows``: a table's
    cells, the header first, and ``row_lines`` the line of each row; ``info``: a fence's language."""

    kind: Literal["text", "table", "code"]
    lines: list[tuple[int, str]]
    rows: list[list[str]] = field(default_factory=list)
    row_lines: list[int] = field(default_factory=list)
    info: str = ""
    heading: bool = False
    #: a transposed table's line of each cell (``rows``' shape): its cells come from several lines
    cell_lines: list[list[int]] | None = None
    #: the title of the post's front matter (``front_matter``): a level-one heading, though its line
    #: is no ``# `` line
    front: bool = False

    @property
    def start(self) -> int:
        return self.lines[0][0] if self.lines else (self.row_lines[0] if self.row_lines else 0)

    def line_of(self, r: int, j: int) -> int:
        """The line of cell ``j`` of row ``r`` (``rows``' indices, the header row 0)."""
        if self.cell_lines is not None and r < len(self.cell_lines) and j < len(self.cell_lines[r]):
            return self.cell_lines[r][j]
        return self.row_lines[r] if r < len(self.row_lines) else self.start

    def transposed(self, header_is_data: bool = False) -> Block:
        """This table with rows and columns swapped (metrics as rows, configurations as columns ->
        one row per configuration), each cell keeping its line (``cell_lines``).
        ``header_is_data``: the header row is a row of values too (a two-column key/value table,
        "| 吞吐（tokens/s） | 1581 |" over "| 模型 | llama2-7B |"); the new rows then have no label."""
        width = min(len(r) for r in self.rows)
        src = self.rows if header_is_data else self.rows[1:]
        lines = self.row_lines if header_is_data else self.row_lines[1:]
        corner = "" if header_is_data else self.rows[0][0]
        head = [corner, *(r[0] for r in src)]
        rows = [head]
        cells = [[self.row_lines[0] if self.row_lines else self.start] * len(head)]
        for j in range(1, width):
            rows.append(["" if header_is_data else self.rows[0][j], *(r[j] for r in src)])
            cells.append([cells[0][0], *lines[: len(src)]])
        return Block("table", self.lines, rows, [c[-1] for c in cells], self.info, self.heading, cells)


#: the delimiters of a static-site generator's front matter at the very top of a post (Jekyll, Hugo,
#: Hexo, Astro, Quarto: YAML between ``---`` lines, closed by ``---`` or ``...``; Hugo's TOML between
#: ``+++`` lines): opening line -> closing lines
_FRONT = {"---": ("---", "..."), "+++": ("+++",)}
#: a front matter line: a YAML or TOML key, a list item, a comment, a TOML table, an indented or blank
#: line; a post that opens with a thematic break (``---``) and prose is no front matter
_FRONT_LINE = re.compile(r"\s*$|\s|[\w.-]+\s*[:=]|-\s|#|\[")
#: the front matter keys whose value is text of the post: the title (a level-one heading) and its
#: summary (prose); dates, tags, layouts and file names are no part of it
_FRONT_KEY = re.compile(r"(title|subtitle|description|summary|excerpt)\s*[:=]\s*(.*)", re.I)


def front_matter(raw: list[str]) -> tuple[int, list[Block]]:
    """The front matter of a post's lines ``raw``, if it opens with one (``_FRONT``, at most 100
    lines): ``(how many lines it takes, its blocks)``: ``title:`` as a level-one heading block
    (``Block.front``), ``subtitle``/``description``/``summary``/``excerpt`` as prose; ``(0, [])``
    otherwise.  Quoted values are unquoted; a folded value (``>``, ``|``) is read from its indented
    lines.  Read by hand, not with a YAML or TOML parser, so that each piece keeps its line and a
    malformed block still reads (Jekyll docs, "Front Matter"; Hugo docs, "Front matter")."""
    if not raw or raw[0].strip() not in _FRONT:
        return 0, []
    closing = _FRONT[raw[0].strip()]
    end = next((i for i in range(1, min(len(raw), 101)) if raw[i].strip() in closing), None)
    if end is None or end == 1 or not all(_FRONT_LINE.match(ln) for ln in raw[1:end]):
        return 0, []
    out = []
    i = 1
    while i < end:
        m = _FRONT_KEY.fullmatch(raw[i].strip()) if not raw[i][:1].isspace() else None
        i += 1
        if not m:
            continue
        value, at = m.group(2).strip(), i
        if value in (">", "|", ">-", "|-", ">+", "|+", ""):  # a folded or literal block, or a list
            parts = []
            while i < end and (raw[i][:1].isspace() or not raw[i].strip()):
                parts.append((i + 1, raw[i].strip().removeprefix("- ").strip()))
                i += 1
            pieces = [(n, s) for n, s in parts if s]
        else:
            if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
                value = value[1:-1]
            pieces = [(at, value)] if value else []
        if pieces:
            title = m.group(1).lower() == "title"
            out.append(Block("text", pieces, heading=title, front=title))
    return end + 1, out


@dataclass
class Post:
    """A post read (``read_post``): the ``text`` read (HTML turned into text), whether it was HTML,
    and its ``blocks`` in order."""

    text: str
    html: bool
    blocks: list[Block]
    _lines: list[str] | None = field(default=None, repr=False)
    #: the lines of its thematic breaks ("---", "***", "___": Markdown's rules), ascending
    rules: list[int] = field(default_factory=list)
    #: what the drafter's readers work out of the whole post once (``draftcontext.context_of``)
    memo: dict = field(default_factory=dict, repr=False, compare=False)

    def line(self, n: int) -> str:
        """The text of line ``n`` (1-based), stripped; "" outside the text."""
        if self._lines is None:
            self._lines = self.text.splitlines()
        return self._lines[n - 1].strip() if 0 < n <= len(self._lines) else ""


#: a line break inside a table's cell, kept until the table shows whether it lays out text
_BREAK = "\x00"


class _HtmlText(HTMLParser):
    """HTML -> text lines (module doc)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.cur: list[str] = []
        self.skip = 0
        self.pre = 0
        self.rows: list[list[str]] | None = None
        self.cell: list[str] | None = None
        #: the level of the heading open (``<h2>``: 2), 0 outside one
        self.heading = 0

    def _end_line(self) -> None:
        text = "".join(self.cur)
        self.cur = []
        if self.pre:
            self.out.extend(text.split("\n"))
            return
        text = re.sub(r"\s+", " ", text).strip()
        if text and self.heading:
            # a heading as Markdown writes it ("<h2>Results</h2>" -> "## Results"): a section of the
            # post, whose words hold for what follows, as a Markdown post's do
            text = "#" * self.heading + " " + text
        if text:
            self.out.append(text)

    def handle_starttag(self, tag: str, attrs) -> None:  # noqa: ARG002 (HTMLParser's signature)
        if tag in _SKIP_TAGS:
            self.skip += 1
        elif tag == "table":
            self._end_line()
            self.rows = []
        elif tag == "tr" and self.rows is not None:
            self._close_cell()  # "<td>a<tr>": HTML ends a cell and a row where the next begins
            self.rows.append([])
        elif tag in ("td", "th") and self.rows is not None:
            self._close_cell()
            self.cell = []
        elif tag in ("br", *_BLOCK_TAGS) and tag != "table" and self.cell is not None:
            # "prompt<br>tok/sec": one header of two words (a break inside a cell), or the lines of
            # a forum post laid out in a table's cell (``_BREAK``: read as lines when the table is
            # a layout, ``handle_endtag``)
            self.cell.append(_BREAK)
        elif tag == "pre":
            self._end_line()
            self.out.append("```")
            self.pre += 1
        elif tag == "br" and self.heading and self.cell is None:
            self.cur.append(" ")  # "<h2>Setup<br>RTX 3090</h2>": one heading of two lines
        elif tag in _BLOCK_TAGS and self.cell is None:
            self._end_line()
            if re.fullmatch(r"h[1-6]", tag) and not self.pre:
                self.heading = int(tag[1])

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP_TAGS:
            self.skip = max(0, self.skip - 1)
        elif tag in ("td", "th") and self.rows is not None and self.cell is not None:
            self._close_cell()
        elif tag in _BLOCK_TAGS and tag != "table" and self.cell is not None:
            self.cell.append(_BREAK)
        elif tag == "table" and self.rows is not None:
            self._close_cell()  # "<td>6</table>": the last cell ends with its table
            rows = [r for r in self.rows if r]
            lines = [
                [x for x in (re.sub(r"\s+", " ", p).strip() for p in c.split(_BREAK)) if x]
                for r in rows
                for c in r
            ]
            if rows and max(len(r) for r in rows) <= 2 and any(len(" ".join(c).split()) >= 15 for c in lines):
                # a table that lays out text (a forum's author and post side by side, a post of a
                # paragraph or more in a cell): its cells' lines are paragraphs, no table of numbers
                # (a results table's cell with a note under its number stays a table's cell)
                for cell_lines in lines:
                    self.out.extend([*cell_lines, ""] if cell_lines else [])
                self.rows = None
                return
            rows = [
                [re.sub(r"\s+", " ", c.replace(_BREAK, " ")).strip().replace("|", "/") for c in r]
                for r in rows
            ]
            if len(rows) > 2 and len(rows[0]) == 1 and len(rows[1]) > 1:
                # a caption spanning the table ("<th colspan=6>LLM Performance on ...</th>"): a line
                # of text before it, not a header of one column that would cut every row to one cell
                self.out.append(rows.pop(0)[0])
            for i, r in enumerate(rows):
                self.out.append("| " + " | ".join(r) + " |")
                if i == 0:
                    self.out.append("|" + " --- |" * len(r))
            self.out.append("")
            self.rows = None
        elif tag == "pre":
            self._end_line()
            self.out.append("```")
            self.pre = max(0, self.pre - 1)
        elif tag in _BLOCK_TAGS and self.cell is None:
            self._end_line()
            self.heading = 0
            if tag in ("p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "blockquote"):
                self.out.append("")

    def _close_cell(self) -> None:
        """End the open cell (its closing tag, or one HTML lets the next cell, row or the table's end
        imply): its text, breaks kept as ``_BREAK``, to the last row."""
        if self.cell is None or self.rows is None:
            return
        if not self.rows:
            self.rows.append([])
        self.rows[-1].append("".join(self.cell))
        self.cell = None

    def handle_data(self, data: str) -> None:
        if self.skip:
            return
        if self.cell is not None:
            self.cell.append(data)
        else:
            self.cur.append(data)


#: a saved page's own address: ``<link rel="canonical" href=…>``, ``<meta property="og:url" content=…>``
_PAGE_LINK = re.compile(
    r"<link\b[^>]*\brel=[\"']?canonical[\"']?[^>]*\bhref=[\"'](?P<a>https?://[^\"'\s>]+)"
    r"|<link\b[^>]*\bhref=[\"'](?P<b>https?://[^\"'\s>]+)[\"'][^>]*\brel=[\"']?canonical\b"
    r"|<meta\b[^>]*\bproperty=[\"']og:url[\"'][^>]*\bcontent=[\"'](?P<c>https?://[^\"'\s>]+)",
    re.IGNORECASE,
)


def page_link(html: str) -> str | None:
    """The address a page saved from a browser gives itself (``_PAGE_LINK``: its canonical link, else
    its Open Graph URL), in its head (the first 64 KB); None where it gives none."""
    m = _PAGE_LINK.search(html[:65536])
    return next((g for g in m.groups() if g), None) if m else None


def is_html(text: str) -> bool:
    """Whether ``text`` is an HTML page (a doctype, an ``<html>``/``<body>`` tag, or mostly tags
    outside its tables)."""
    head = text.lstrip()[:2000].lower()
    if head.startswith(("<!doctype html", "<html")) or "<body" in head:
        return True
    # tags outside tables: a Markdown post holding an HTML table has them in its tables only
    # (``_table_rows`` reads those line for line)
    rest = _HTML_TABLE.sub("", text[:20000])
    tags = len(re.findall(r"</?(?:p|div|span|table|td|br|li|a)\b[^>]*>", rest, re.IGNORECASE))
    return tags >= 10 and tags * 40 > len(text[:20000].splitlines())


#: an HTML table inside a post that is no HTML page (a Markdown post's ``<table>`` block)
_HTML_TABLE = re.compile(r"<table\b[^>]*>.*?</table\s*>", re.IGNORECASE | re.DOTALL)
#: a tag of such a table: a cell's opening and closing, a row's end, any other
_TABLE_TAG = re.compile(r"<(/?)(t[dh]|tr)\b[^>]*>|<[^>]*>", re.IGNORECASE)


def _table_rows(m: re.Match) -> str:
    """An HTML table of a Markdown post as pipe rows on the lines its rows were on ("<tr><td>Q4_K_M
    </td><td>45.2 tok/s</td></tr>" -> "| Q4_K_M | 45.2 tok/s |"): its line breaks kept, so every line
    after it keeps its number; other tags dropped (a tag's ">" read beside a number was a bound)."""

    def tag(t: re.Match) -> str:
        if t.group(2) is None:
            return ""
        closing, name = t.group(1), t.group(2).lower()
        if name == "tr":
            return "|" if closing else ""
        return " " if closing else "| "

    return _TABLE_TAG.sub(tag, m.group(0))


def html_to_text(text: str) -> str:
    """The text of an HTML page (module doc): one line per block element, ``<pre>`` as a fenced
    block, tables as Markdown pipe tables; blank lines between paragraphs."""
    p = _HtmlText()
    p.feed(text)
    p.close()
    if p.rows is not None:
        p.handle_endtag("table")  # a page ending inside its table: the table as far as it went
    p._end_line()
    out = re.sub(r"\n{3,}", "\n\n", "\n".join(p.out))
    return out.strip("\n") + "\n"


#: a cell of an aligned line: words parted by single spaces, cells by two or more
_CELL = re.compile(r"\S+(?: \S+)*")


def _one_row(kept: list[tuple[int, str]]) -> tuple[list[list[str]], list[int]] | None:
    """A header and one row aligned cell by cell (``ollama ps`` with one model loaded: "NAME  ID  SIZE
    PROCESSOR  UNTIL" over its row): three or more cells each, the header's words no number, every
    header cell starting where a row cell starts (a column printed at its header's position), a
    number in the row; None otherwise (two lines of prose or of a log are not aligned so)."""
    (h, head), (r, row) = kept
    hs, rs = list(_CELL.finditer(head.rstrip())), list(_CELL.finditer(row.rstrip()))
    if len(hs) < 3 or len(hs) != len(rs) or any(re.search(r"\d", c.group(0)) for c in hs):
        return None
    if any(a.start() != b.start() for a, b in zip(hs, rs, strict=True)) or not re.search(r"\d", row):
        return None
    return [[c.group(0) for c in hs], [c.group(0) for c in rs]], [h, r]


def aligned_rows(lines: list[tuple[int, str]]) -> tuple[list[list[str]], list[int]] | None:
    """An aligned text table in ``lines`` (``(line, text)``): three or more lines (a header and two
    rows) splitting at column gaps into the same number (2+) of cells, dash lines skipped; the
    header's first cell may be empty (then it has one cell less); rows with cells left empty are
    read by the columns' positions (``_by_position``).  None when the lines are no such table."""
    kept = [(n, t) for n, t in lines if t.strip() and not _DASHES.match(t)]
    if len(kept) >= 3 and all(_SEP.search(t) for _, t in kept[1:]):
        # columns parted by "|" or a box-drawing bar ("b4363 | 31.7 t/s | 36.1 t/s"), a caption
        # line above with none: a drawn table
        return drawn_rows(lines)
    if len(kept) == 2 and (one := _one_row(kept)) is not None:
        return one
    rows, at = [], []
    for n, t in kept:
        rows.append([c for c in _GAP.split(t.strip()) if c != ""])
        at.append(n)
    while len(rows) > 3 and len(rows[0]) == 1 and len(rows[1]) > 1:
        del rows[0], at[0]  # a caption over the table ("llama-benchy Results")
    if len(rows) < 3:
        return None
    common = min(len(r) for r in rows)
    values = len(rows[0]) > 1 and all(re.search(r"\d", c) for c in rows[0][1:common])
    if values and all(len(r) == common or len(r) == common + 1 and not re.search(r"\d", r[-1]) for r in rows):
        # rows of values, no header, a remark after some ("D2  21.4 tok/s  1.45x  BEST"): no column
        rows = [r[:common] for r in rows]
    width = max(len(r) for r in rows[1:])
    if width < 2 or any(len(r) < 2 for r in rows[1:]):
        return None
    if any(len(r) != width for r in rows[1:]):
        # rows with cells left empty: placed by the columns' positions, or else (the header not
        # aligned over its columns) a row with its last cells empty ("Baseline (non-MTP)  25.3"
        # under four columns) padded where most rows are full
        placed = _by_position([(n, t) for n, t in kept if n in set(at)])
        if placed is not None:
            return placed
        if sum(len(r) == width for r in rows[1:]) * 2 < len(rows) - 1:
            return None
        rows[1:] = [r + [""] * (width - len(r)) for r in rows[1:]]
    if len(rows[0]) == width - 1:
        # a header's empty corner ("   pp512  tg128" over "llama 7B  …"); a first row of values
        # ("AR  14.8 tok/s  1.00x" over "D2  21.4 tok/s  1.45x  BEST"): the cell it lacks is its last
        values = len(rows[0]) > 1 and all(re.search(r"\d", c) for c in rows[0][1:])
        rows[0] = [*rows[0], ""] if values and not re.search(r"\d", rows[0][0]) else ["", *rows[0]]
    if len(rows[0]) != width or not any(re.search(r"\d", c) for r in rows[1:] for c in r):
        return None
    return rows, at


#: a value cell of a table parted by single spaces: a number as a table prints it ("8.2", "1,024",
#: "12.5%"), nothing else
_SPACED_VALUE = re.compile(r"[+\-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?%?|[+\-]?\d+(?:\.\d+)?%?")


def spaced_rows(lines: list[tuple[int, str]]) -> tuple[list[list[str]], list[int]] | None:
    """A table written with single spaces between its cells (a paragraph of lines "模型名称 推理时间(s)
    内存占用(GiB)" / "Llama2-7B 8.2 12.5", the pipes lost): three or more lines that split at
    whitespace into the same number (2+) of cells, the first line a header of labels (no cell of it
    a number) and every other line a label (a letter in it) followed by numbers only
    (``_SPACED_VALUE``).  Prose never has that shape: a sentence's words are not all numbers after
    its first.  None when the lines are no such table."""
    kept = [(n, t.split()) for n, t in lines if t.strip()]
    if len(kept) < 3:
        return None
    width = len(kept[0][1])
    if width < 2 or any(len(cells) != width for _, cells in kept):
        return None
    header = kept[0][1]
    if any(_SPACED_VALUE.fullmatch(c) for c in header):
        return None
    for _, cells in kept[1:]:
        if not re.search(r"[^\W\d_]", cells[0]) or not all(_SPACED_VALUE.fullmatch(c) for c in cells[1:]):
            return None
    return [cells for _, cells in kept], [n for n, _ in kept]


def spaced_tables(lines: list[tuple[int, str]]) -> list[tuple[list[list[str]], list[int]]] | None:
    """Tables copied from a rendered page with single spaces between the cells and labels of
    several words (a paragraph "N = 10 queries vLLM SGLang" / "Mean TTFT (ms) 125.68 66.53" /
    "Median TTFT (ms) 84.61 70.08", then the next table's header "N = 6200 queries vLLM SGLang"):
    each table a header line whose last N words are the column names (no number among them) over
    two or more rows that end in N numbers (``_SPACED_VALUE``, a footnote mark "*" allowed), the
    rest of each line its label (a letter in it); the same N in a table, N >= 2.  Every line of the
    paragraph must belong to one such table; None otherwise (``spaced_rows`` reads the tables whose
    labels are one word)."""
    kept = [(n, t.split()) for n, t in lines if t.strip()]

    def trailing(cells: list[str]) -> int:
        k = 0
        while k < len(cells) - 1 and _SPACED_VALUE.fullmatch(cells[-1 - k].rstrip("*")):
            k += 1
        return k

    out: list[tuple[list[list[str]], list[int]]] = []
    i = 0
    while i < len(kept):
        n0, head = kept[i]
        rows = []
        j = i + 1
        while j < len(kept) and trailing(kept[j][1]) >= 2:
            rows.append(kept[j])
            j += 1
        width = {trailing(cells) for _, cells in rows}
        if len(rows) < 2 or len(width) != 1 or trailing(head) != 0:
            return None
        w = width.pop()
        if len(head) < w or any(not re.search(r"[^\W\d_]", " ".join(c[: len(c) - w])) for _, c in rows):
            return None
        table = [[" ".join(head[: len(head) - w]), *head[len(head) - w :]]]
        table += [[" ".join(c[: len(c) - w]), *(v.rstrip("*") for v in c[len(c) - w :])] for _, c in rows]
        out.append((table, [n0, *(n for n, _ in rows)]))
        i = j
    return out or None


def _spans(text: str) -> list[tuple[int, int, str]]:
    """The cells of an aligned line with their character spans: ``(start, end, text)``."""
    out, at = [], 0
    for part in _GAP.split(text):
        if part:
            start = text.index(part, at)
            out.append((start, start + len(part), part))
            at = start + len(part)
    return out


def _by_position(lines: list[tuple[int, str]]) -> tuple[list[list[str]], list[int]] | None:
    """An aligned table whose rows leave cells empty (a baseline row with no "vs Baseline" cell):
    the header's cells give the columns (each from its start to the next one's), and each cell of
    a row goes to the column it overlaps most, in order, one cell a column; the first column of
    every row filled, a digit in a row.  None when a cell fits no column."""
    if len(lines) < 3:
        return None
    head = _spans(lines[0][1].expandtabs())
    if len(head) < 2:
        return None
    bounds = [(s, head[k + 1][0] if k + 1 < len(head) else 10**6) for k, (s, _, _) in enumerate(head)]
    rows = [[c for _, _, c in head]]
    for _, t in lines[1:]:
        row = [""] * len(head)
        last = -1
        cells = _spans(t.expandtabs())
        if len(cells) < 2:
            return None
        for s, e, c in cells:
            overlap = [min(e, b) - max(s, a) for a, b in bounds]
            j = max(range(len(bounds)), key=lambda k: overlap[k])
            if overlap[j] <= 0 or j <= last:
                return None
            row[j], last = c, j
        if not row[0]:
            return None
        rows.append(row)
    if not any(re.search(r"\d", c) for r in rows[1:] for c in r):
        return None
    return rows, [n for n, _ in lines]


#: a cell holding a label and its value ("ttft 180.28ms (± 54.44)", "Ollama-reported: load duration
#: 0.25ms"): the label (no digit) up to its first number, then the value's unit and spread alone
_PAIR_CELL = re.compile(
    r"(?P<label>[^\d]*?[\s:=])(?=\d)[\d.,]+\s*[^\W\d]*(?:/[^\W\d]+)?%?\s*(?:\(\s*±?\s*[\d.,]+\s*\))?"
)


def _pair_cell(cell: str) -> bool:
    """Whether a cell is a label and its value (``_PAIR_CELL``), the label holding a word."""
    m = _PAIR_CELL.fullmatch(cell)
    return m is not None and re.search(r"[^\W\d]{2}", m.group("label")) is not None


#: a value's unit in a cell (``_PAIR_CELL``'s first row: values, no header's names)
_UNIT_CELL = re.compile(r"\d\s*(?:ms|s|tok/s|t/s|tokens/s|%|GB|MB|GiB|MiB)(?![\w/])")


def drawn_rows(lines: list[tuple[int, str]]) -> tuple[list[list[str]], list[int]] | None:
    """A drawn table in ``lines`` (``(line, text)``): every line that is not a rule (``_DASHES``)
    holds a cell separator (``_SEP``: ``|``, ``│``, ``┃``, ``║``), and all of them split into the
    same number (2+) of cells, the outer separators dropped (a pipe table without outer pipes, a
    box-drawn table, a ``+---+`` grid); a header and at least one row, with a digit in a row; lines
    above it with no separator are a caption, not part of it.  None
    when the lines are no such table."""
    body = [(n, t.strip()) for n, t in lines if t.strip() and not _DASHES.match(t)]
    while body and not _SEP.search(body[0][1]):
        body = body[1:]  # a caption above the table ("llama-benchy Results")
    if not body or not all(_SEP.search(t) for _, t in body):
        return None
    # outer separators: dropped where every line has them (a row "b4363 | 31.7" beside a header
    # "      |  qwen" keeps the header's empty first cell)
    lead = all(_SEP.match(t) for _, t in body)
    trail = all(_SEP.match(t[-1]) for _, t in body)
    rows, at = [], []
    for n, t in body:
        cells = [c.strip() for c in _SEP.split(t)]
        rows.append(cells[1 if lead else 0 : len(cells) - 1 if trail else len(cells)])
        at.append(n)
    width = len(rows[0])
    if len(rows) < 2 or width < 2 or any(len(r) > width or len(r) < 2 for r in rows):
        return None
    # a row with its last cells left empty ("| Baseline | 25.3 |" under four columns) is padded
    # where most rows are full; a table of ragged rows is no table
    if sum(len(r) == width for r in rows[1:]) * 2 < len(rows) - 1:
        return None
    rows[1:] = [r + [""] * (width - len(r)) for r in rows[1:]]
    if not any(re.search(r"\d", c) for r in rows[1:] for c in r):
        return None
    if all(_pair_cell(c) for r in rows for c in r) and any(_UNIT_CELL.search(c) for c in rows[0]):
        # "HTTP: ttft 180.28ms (± 54.44) | ingestion 76.27 tok/s (± 9.39)": a script's result lines,
        # label and value in every cell (its first line too: no header), read line by line
        return None
    first = next(((n, t) for n, t in lines if t.strip()), None)
    if first is not None and first[0] < at[0] and _DASHES.match(first[1]) and _SEP.search(first[1]):
        # a rule first ("-- | -- | --" over "Total Latency (ms): | 262159.4 | 260907.7"): the header
        # row was lost (copied from a rendered page), every line is a row under an empty header
        rows.insert(0, [""] * width)
        at.insert(0, first[0])
    return rows, at


#: a pipe table's rule row written inline, between its header and its rows ("| a | b | |---|---| | 1 |
#: 2 |": a table whose line breaks were lost, as a scraped forum post keeps it)
_INLINE_RULE = re.compile(r"\|\s*\|(?:\s*:?-{2,}:?\s*\|){2,}\s*\|")


def flat_rows(lines: list[tuple[int, str]]) -> tuple[list[list[str]], list[int]] | None:
    """A pipe table written on one line (``lines`` holds that line alone): its header, an inline rule
    (``_INLINE_RULE``) and its rows, each row closed by "| |" before the next; every row as many cells
    as the header (2+), a digit in a row.  All rows are on that line.  None otherwise."""
    if len(lines) != 1:
        return None
    n, text = lines[0]
    rule = _INLINE_RULE.search(text)
    if rule is None:
        return None
    text = text[text.index("|") :]  # "Results: | Engine | … |": a lead-in before the first pipe
    rule = _INLINE_RULE.search(text)
    if rule is None:
        return None
    width = len(re.findall(r":?-{2,}:?", rule.group(0)))
    head = [c.strip() for c in text[: rule.start() + 1].strip().strip("|").split("|")]
    rest = text[rule.end() - 1 :].strip()
    pieces = [p for p in re.split(r"\|\s+\|", rest.strip().strip("|")) if p.strip()]
    rows = [[c.strip() for c in p.split("|")] for p in pieces]
    if width < 2 or len(head) != width or not rows or any(len(r) != width for r in rows):
        return None
    if not any(re.search(r"\d", c) for r in rows for c in r):
        return None
    return [head, *rows], [n] * (len(rows) + 1)


#: a tool's banner or section rule: "====== Serving Benchmark Result ======", "-----Time to First
#: Token-----", a rule alone ("=========")
_BANNER = re.compile(r"^\s*(?:={4,}|-{4,})[^=\n]*?(?:={4,}|-{4,})?\s*$")


def _bannered(run: list[tuple[int, str]]) -> bool:
    """Whether a paragraph's lines hold a tool's banner or rule (``_BANNER``): with lines of ``label:
    value`` (``_labelled_list``), pasted output, not prose."""
    return any(_BANNER.match(t) for _, t in run)


def _labelled_list(run: list[tuple[int, str]]) -> bool:
    """Whether a run of code lines is a list of labelled values, each line ``label:  value``
    (``ollama run --verbose``, a script's ``first token:  0.04s``; a caption line without a value
    allowed), not a table: its values are read line by line (``toollines``)."""
    valued = [t for _, t in run if _GAP.search(t.strip())]
    if valued and all(_SEP.match(t.split(":", 1)[-1].lstrip()) for t in valued):
        return False  # "Total Latency (ms): | 262159.4 | 260907.7": a table's rows, cells after the label
    return len(valued) >= 2 and all(re.match(r"\s*[^:=\d][^:=]{0,60}:\s+\S", t) for t in valued)


def _headers_joined(runs: list[list[tuple[int, str]]]) -> list[list[tuple[int, str]]]:
    """``runs`` (a code block's lines between blank lines) with a header line set off by a blank
    line joined to the rows below it ("          CPU Mode     Vulkan (GPU) Mode", a blank line,
    then "Total Execution Time   22.1s   59.4s" …): a run of one line with no digit and two or more
    columns, where the joined lines read as an aligned table (``aligned_rows``) with it as the header."""
    out: list[list[tuple[int, str]]] = []
    k = 0
    while k < len(runs):
        run = runs[k]
        if (
            len(run) == 1
            and k + 1 < len(runs)
            and len(runs[k + 1]) >= 2
            and not re.search(r"\d", run[0][1])
            and len(re.split(r"\s{2,}|\t", run[0][1].strip())) >= 2
            and aligned_rows(run + runs[k + 1]) is not None
        ):
            out.append(run + runs[k + 1])
            k += 2
            continue
        out.append(run)
        k += 1
    return out


def _code_blocks(lines: list[tuple[int, str]], info: str, indented: bool = False) -> list[Block]:
    """The blocks of a code block's ``lines``: each run of lines between blank lines that is a
    drawn table (``drawn_rows``) or an aligned text table (``aligned_rows``, no line of it a
    command or ``key=value`` log line: ``_looks_code``) is a table, and, of an indented code block
    (``indented``), one of prose (``_indented_prose``: "    By the way, my model is …") text; the
    other runs, together, are code (a command and its output table in one fence give a code block
    and a table)."""
    runs: list[list[tuple[int, str]]] = [[]]
    for n, t in lines:
        if t.strip():
            runs[-1].append((n, t))
        elif runs[-1]:
            runs.append([])
    runs = _headers_joined(runs)
    out: list[Block] = []
    code: list[tuple[int, str]] = []
    for run in runs:
        if not run:
            continue
        if indented and _indented_prose("\n".join(t for _, t in run)):
            if code:
                out.append(Block("code", code, info=info))
                code = []
            out.append(Block("text", [(n, t.strip()) for n, t in run]))
            continue
        # a table a program logs line by line ("llama_memory_breakdown_print: | - Host | 2580 = ...",
        # llama-server's "0.06.895.980 I slot print_timing: id  1 | task 0 | ...") is log output,
        # read line by line (``toollines``)
        # (a line with no "|" among them, "INFO 05-02 10:11:12 [loader.py:458] Loading weights took
        # 3.21 seconds" over tqdm bars, is no table's row either)
        logged = all(_LOGGED.match(t) or "|" not in t for _, t in run) and any(
            _LOGGED.match(t) for _, t in run
        )
        # nvidia-smi's boxes (its rows of a device's figures: power, memory, utilisation) are a tool's
        # output read line by line (``resultlines``), no table of labelled columns
        logged = logged or any(NVSMI_ROW.search(t) for _, t in run)
        table = drawn_rows(run) if not logged and not any(_looks_command(t) for _, t in run) else None
        plain = not logged and not _labelled_list(run)
        if table is None and plain and not any(_looks_code(t) for _, t in run):
            table = aligned_rows(run)
        if table is None and plain:
            # a table under a banner ruled off above it (a benchmark's "----" framed title, "Model:
            # …" lines, a rule, then the header and rows): the lines after the first rule that
            # starts a table are the table, those before it code
            for k in range(1, len(run) - 2):
                if _DASHES.match(run[k - 1][1]) and not any(_looks_code(t) for _, t in run[k:]):
                    table = aligned_rows(run[k:])
                    if table is not None:
                        code.extend(run[:k])
                        run = run[k:]
                        break
        if table is None:
            code.extend(run)
            continue
        if code:
            out.append(Block("code", code, info=info))
            code = []
        out.append(Block("table", run, table[0], table[1], info=info))
    if code or not out:
        out.append(Block("code", code or lines, info=info))
    return out


def _inline_pieces(tok, start: int) -> list[tuple[int, str]]:
    """``(line, text)`` of an inline token: its text without markup, one piece per source line."""
    pieces: list[tuple[int, str]] = []
    cur: list[str] = []
    line = start
    for ch in tok.children or []:
        if ch.type in ("softbreak", "hardbreak"):
            pieces.append((line, "".join(cur)))
            cur, line = [], line + 1
        elif ch.type == "text":
            cur.append(ch.content)
        elif ch.type == "code_inline":
            cur.append(f"`{ch.content}`")  # a command line written inline stays one span
        elif ch.type == "image" and re.search(r"\s", ch.content.strip()):
            # an image's alt text written as words ("![Llama 3 8B Q4_K_M on RTX 4090](chart.png)"); one
            # that is a file's name is none ("![gpt-oss-120b-h100](…/gpt-oss-120b-h100.png)": the chart's
            # slug names no model its numbers ran on)
            cur.append(ch.content)
    pieces.append((line, "".join(cur)))
    return [(n, t) for n, t in pieces if t.strip()]


def _md() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False}).enable("table")


#: a quote's marks before a line's text ("> ", ">> "), the text's own indentation kept
_QUOTE_MARKS = re.compile(r"^ {0,3}(?:> ?)+")
#: a fence opening or closing a code block
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def tab_rows(lines: list[tuple[int, str]]) -> tuple[list[list[str]], list[int]] | None:
    """A table pasted from a spreadsheet in ``lines`` (``(line, text)``): two or more lines, a quote's
    marks before them allowed ("> Prefill\t12.31"), that split at tabs into the same number (3+) of
    cells, the header with a cell of words (its first may be empty: "\tDefault\t--cpu_infer 22", the
    row labels' column) and a digit in a row.  None when the lines are no such table."""
    texts = [_QUOTE_MARKS.sub("", t).rstrip(" \t") for _, t in lines]  # a spreadsheet's trailing tabs
    if all(t.startswith("\t") for t in texts):  # every line indented by a tab: the indent is no cell
        texts = [t[1:] for t in texts]
    rows = [[c.strip() for c in t.split("\t")] for t in texts]
    if len(rows) < 2 or len(rows[0]) < 3 or any(len(r) != len(rows[0]) for r in rows):
        return None
    if not any(re.search(r"[^\W\d_]", c) for c in rows[0]):
        return None
    if not any(re.search(r"\d", c) for r in rows[1:] for c in r):
        return None
    return rows, [n for n, _ in lines]


def _tab_tables(raw: list[str], skip: int) -> list[Block]:
    """The tables pasted with tabs (``tab_rows``) among ``raw``'s lines outside code fences (a fence
    reads its own tables): runs of lines holding a tab, each a table where ``tab_rows`` reads one.
    Markdown reads them otherwise as an indented code block (the header's leading tab) and a
    paragraph, their cells run together."""
    out: list[Block] = []
    fence = ""  # the open fence's marker ("```", "~~~~"): only the same kind closes it
    run: list[tuple[int, str]] = []
    for n, t in [*enumerate(raw[skip:], start=skip + 1), (0, "")]:
        f = _FENCE.match(t)
        if f is not None:
            mark = f.group(1)
            if not fence:
                fence = mark
            elif mark[0] == fence[0] and len(mark) >= len(fence) and not t.strip()[len(mark) :].strip():
                fence = ""
        fenced = bool(fence)
        if not fenced and n and "\t" in _QUOTE_MARKS.sub("", t).strip(" "):
            run.append((n, t))
            continue
        table = tab_rows(run) if len(run) >= 2 else None
        if table is not None:
            out.append(Block("table", run, table[0], table[1]))
        run = []
    return out


def _unpiped(line: str, row: list[str], width: int) -> list[str]:
    """A row of a pipe table whose header has no outer pipes, read as its writer meant it: a row
    opening with an empty cell ("  |   | 2 | 174% | 21.572 | 5.4" under "Model | Question | Threads
    | …") has its first pipe taken for an outer one by GFM, its cells shifted left; where splitting
    ``line`` at every unescaped pipe gives the header's ``width`` cells and GFM's ``row`` ended in
    the empty cell it pads with, those cells (stripped); else ``row``."""
    cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())]
    if len(cells) == width and line.lstrip().startswith("|") and row and row[-1] == "" and cells[-1]:
        return cells
    return row


def blocks_of(text: str, rules: list[int] | None = None) -> list[Block]:
    """The blocks of a Markdown or plain text (module doc), in order.  Tables pasted with tabs
    (``_tab_tables``) are read first and their lines read as blank lines by the Markdown parser.
    ``rules``: where given, the lines of the text's thematic breaks are appended to it (CommonMark's
    rules, as the parser finds them: "***" under a paragraph, "---" under a table's last row)."""
    raw = text.splitlines()
    skip, out = front_matter(raw)  # its lines read as blank lines: every later line keeps its number
    tabbed = _tab_tables(raw, skip)
    if tabbed:
        taken = {n for b in tabbed for n, _ in b.lines}
        # a quote's line keeps its marks, so the quote around the table stays one quote
        kept = [
            ((q.group(0) if (q := _QUOTE_MARKS.match(t)) else "") if k + 1 in taken else t)
            for k, t in enumerate(raw)
        ]
        text = "\n".join(kept)
        raw_md = kept
    else:
        raw_md = raw
    tokens = _md().parse("\n" * skip + "\n".join(raw_md[skip:]) if skip else text)
    i = 0
    heading = False
    while i < len(tokens):
        tok = tokens[i]
        if tok.type == "hr" and tok.map and rules is not None:
            rules.append(tok.map[0] + 1)
        if tok.type == "heading_open":
            heading = True
        elif tok.type == "heading_close":
            heading = False
        if tok.type == "table_open" and tok.map:
            rows: list[list[str]] = []
            row_lines: list[int] = []
            row: list[str] = []
            j = i + 1
            while tokens[j].type != "table_close":
                t = tokens[j]
                if t.type == "tr_open":
                    row = []
                    row_lines.append((t.map[0] + 1) if t.map else 0)
                elif t.type == "inline":
                    row.append("".join(_t for _, _t in _inline_pieces(t, 0)).strip())
                elif t.type == "tr_close":
                    rows.append(row)
                j += 1
            lines = [(n, raw[n - 1]) for n in range(tok.map[0] + 1, tok.map[1] + 1) if n <= len(raw)]
            if rows and row_lines[0] and not raw[row_lines[0] - 1].lstrip().startswith("|"):
                rows = [
                    _unpiped(raw[n - 1], r, len(rows[0])) if n else r
                    for r, n in zip(rows, row_lines, strict=False)
                ]
            out.append(Block("table", lines, rows, row_lines))
            i = j
        elif tok.type == "code_block" and tok.map and _indented_list(tok.content):
            # a nested list indented past its parent's content ("    1. 性能为9 tokens/秒"): prose
            first = tok.map[0] + 1
            lines = [(first + k, t.strip()) for k, t in enumerate(tok.content.splitlines()) if t.strip()]
            out.append(Block("text", lines))
        elif tok.type in ("fence", "code_block") and tok.map:
            first = tok.map[0] + 1 + (tok.type == "fence")
            lines = [(first + k, t) for k, t in enumerate(tok.content.splitlines())]
            info = tok.info.strip()
            if tok.type == "fence" and _GLUED_INFO.match(info):
                # text written on the fence's own line ("```commit e0c93af2a03f… (HEAD -> master)"):
                # the block's first line, not a language's name
                lines, info = [(first - 1, info), *lines], ""
            out.extend(_code_blocks(lines, info, indented=tok.type == "code_block"))
        elif tok.type == "inline" and tok.map:
            lines = [(n, raw[n - 1]) for n in range(tok.map[0] + 1, tok.map[1] + 1) if n <= len(raw)]
            # a paragraph of "label:   value" lines (``ollama run --verbose`` pasted as text) is read
            # line by line, as in a code block, not as a table
            listed = _labelled_list(lines)
            if listed and _bannered(lines):
                # a serving benchmark's summary pasted without a fence ("==== Serving Benchmark Result
                # ====" over "Mean TTFT (ms):   249.49"; its closing rule makes the lines a setext
                # heading): the tool's output, read as a code block
                out.extend(_code_blocks(lines, ""))
                i += 1
                continue
            table = (aligned_rows(lines) or spaced_rows(lines)) if len(lines) >= 3 and not listed else None
            table = table or flat_rows(lines)
            spaced = spaced_tables(lines) if len(lines) >= 3 and not listed and not table else None
            if table:
                out.append(Block("table", lines, table[0], table[1]))
            elif spaced:
                for rows, at in spaced:  # tables whose pipes were lost, one header each
                    out.append(Block("table", [(n, raw[n - 1]) for n in at], rows, at))
            else:
                pieces = _inline_pieces(tok, tok.map[0] + 1)
                if pieces or not heading:  # an empty heading ("# ", "## ![](x.png)") holds no text
                    out.append(Block("text", pieces, heading=heading))
        i += 1
    if tabbed:
        out = sorted([*out, *tabbed], key=lambda b: b.start)  # stable: the parser's order kept
    return out


#: a fence's info string that is text, not a language's name and attributes: two words or more, a
#: digit among them, no attribute's "=" or braces ("```commit e0c93af2a03f5c53 (HEAD -> master)")
_GLUED_INFO = re.compile(r"(?=[^={}]*\d)[^\s={}]+\s+[^={}]+")


#: a list item's line: a number or bullet, then words
_LIST_ITEM = re.compile(r"\s*(?:\d{1,3}[.)]|[-*+•])\s+\S")


def _indented_list(content: str) -> bool:
    """Whether an indented code block's ``content`` is a list indented too far to nest under its
    parent (a note exporter's "  1. 2.1. …" then "    1. …"): every line a list item
    (``_LIST_ITEM``) holding no command, no log line and no tab."""
    lines = [t for t in content.splitlines() if t.strip()]
    return bool(lines) and all(
        _LIST_ITEM.match(t) and not _looks_code(t) and not _looks_command(t) and "\t" not in t for t in lines
    )


#: a sentence of prose: a capital first, words, an end mark; no code's brackets, "=", pipes or paths
_PROSE_LINE = re.compile(r"[A-Z][^=<>{}\[\]|/\\`$#]*[.!?]")


def _indented_prose(content: str) -> bool:
    """Whether an indented code block's ``content`` is prose indented by its writer ("    By the way,
    my model is an standard llama-7B model." after a log): every line a sentence of four words or
    more (``_PROSE_LINE``) holding no command, no log line and no tab."""
    lines = [t.strip() for t in content.splitlines() if t.strip()]
    return bool(lines) and all(
        _PROSE_LINE.fullmatch(t)
        and len(t.split()) >= 4
        and not _looks_code(t)
        and not _looks_command(t)
        and "\t" not in t
        for t in lines
    )


def _looks_command(line: str) -> bool:
    """A command line (never a drawn table's row): a prompt sign, a llama.cpp tool, vLLM, SGLang."""
    return bool(re.search(r"^\s*[$>#❯]\s|llama-\w+\s+-|\bvllm\s+serve\b|\bsglang\.", line))


def _looks_code(line: str) -> bool:
    """A command or log line (never a table row): a llama.cpp tool, a flag, a log's ``=``."""
    return bool(re.search(r"^\s*[$>#]\s|\b\w+\s*=\s*\S|llama-\w+\s+-|\bvllm\b|\bsglang\b", line))


#: characters a post's text drops: the C0 and C1 controls but tab and newline, lone surrogates,
#: and U+FFFE/U+FFFF, none of which YAML may hold (YAML 1.1 §5.1, "c-printable")
_UNWRITABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


#: invisible characters a number may carry from a web page or a chat (zero-width space, word
#: joiner, byte order mark): dropped; zero-width (non-)joiners only beside a digit (they join emoji)
_INVISIBLE = re.compile("[\u200b\u2060\ufeff]|(?<=\\d)[\u200c\u200d]|[\u200c\u200d](?=\\d)")
#: spaces a number is grouped with, or a web page writes for a space: no-break, narrow no-break,
#: figure and thin spaces ("1\u202f234,5 tok/s", HTML's &nbsp;): between digits a narrow no-break
#: space (the one grouping ``draftprose`` reads with a decimal comma after it), elsewhere a space
_SPACES = re.compile("[\u00a0\u2007\u2009\u202f]")
#: such a space between digits with a group of three after it ("1 234", "12 345 678")
_GROUPING = re.compile(
    "(?<=\\d)[\u00a0\u2007\u2009\u202f](?=\\d{3}(?:(?![\\d\\w])|[\u00a0\u2007\u2009\u202f]\\d))"
)


def _grouped(m: re.Match) -> str:
    """A no-break or thin space between a number's digit groups as a narrow no-break space (the
    thousands separator ``draftprose`` reads); one after a name's digits ("Qwen3 235B", "Llama
    3 405B": a letter before the digits, or a letter after the group) a plain space."""
    text, i = m.string, m.start()
    j = i
    while j > 0 and (text[j - 1].isdigit() or text[j - 1] in "\u00a0\u2007\u2009\u202f"):
        j -= 1
    if j > 0 and (text[j - 1].isalpha() or text[j - 1] in "_-."):
        return " "
    return "\x00"  # (a NUL the text cannot hold: the narrow no-break space once the others are spaces)


def read_post(text: str) -> Post:
    """The ``Post`` of a text (module doc): HTML turned into text first; NUL bytes and other C0 and
    C1 controls but tab and newline, lone surrogates and the non-characters U+FFFE/U+FFFF dropped
    (``_UNWRITABLE``: YAML 1.1 §5.1 cannot hold them, so a quote would break the claims file; a binary
    file reads as little text, never as an error); U+2028 and U+2029 read as spaces.  Numbers read
    as their digits say: invisible characters dropped (``_INVISIBLE``), no-break and thin spaces as
    spaces (``_SPACES``; a narrow no-break space between digits, a thousands separator); other
    scripts' digits stay as written (``draftprose`` reads them, quotes show them)."""
    text = _UNWRITABLE.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))
    # a line or paragraph separator inside a line is a space: Markdown and `grep -n` count lines by
    # their newlines alone, and splitting there moved every quote after it off its line
    text = text.replace("\u2028", " ").replace("\u2029", " ")
    html = is_html(text)
    if html:
        text = html_to_text(text)
    else:
        text = _HTML_TABLE.sub(_table_rows, text)  # a Markdown post's HTML table: its rows, line for line
    text = _SPACES.sub(" ", _GROUPING.sub(_grouped, _INVISIBLE.sub("", text))).replace("\x00", "\u202f")
    rules: list[int] = []
    blocks = blocks_of(text, rules)
    return Post(text, html, blocks, rules=rules)
