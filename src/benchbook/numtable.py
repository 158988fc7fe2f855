"""The numbers a report publishes, as a Markdown table whose keys link to their provenance entries.

Report notebooks show it (a ``text/markdown`` output, never HTML), so a reader of a notebook can
follow any number to its records, command, build, model and host, as from the pages.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection
from dataclasses import asdict, is_dataclass

from .escape import markdown_table, markdown_text
from .numfmt import fmt_fixed, fmt_interval, fmt_number, fmt_value

#: From ``reports/notebooks/<name>.html`` to the site root, where ``provenance/`` lies.
NOTEBOOK_TO_ROOT = "../../"


def numbers_table(numbers, *, to_root: str = NOTEBOOK_TO_ROOT) -> str:
    """A pipe table of ``numbers`` (``numbers.Number`` objects or registry dicts), sorted by key:
    key (a link to ``<to_root>provenance/<experiment>.html#n-KEY``), value [95% interval] rounded as on
    the pages, unit, n, host and caveats; every text cell through ``markdown_text``.

    >>> print(numbers_table([{"key": "e-a", "value": 120.97, "ci95": [117.6, 125.3], "unit": "tok/s",
    ...     "n": 5, "caveats": [], "experiment": "e", "host_id": "h1"}]).splitlines()[2])
    | [e-a](../../provenance/e.html#n-e-a) | 121.0 &#91;117.6, 125.3&#93; | tok/s | 5 | h1 |  |
    """
    rows = sorted(
        (asdict(n) if is_dataclass(n) and not isinstance(n, type) else dict(n) for n in numbers),
        key=lambda n: n["key"],
    )
    lines = ["| key | value [95% interval] | unit | n | host | caveats |", "|---|---|---|---|---|---|"]
    for n in rows:
        href = f"{to_root}provenance/{n.get('experiment') or 'other'}.html#n-{n['key']}"
        cells = [
            f"[{markdown_text(n['key'])}]({href})",
            markdown_text(fmt_interval(n["value"], n.get("ci95"))),
            markdown_text(n.get("unit") or ""),
            str(n["n"]),
            markdown_text(n.get("host_id") or ""),
            markdown_text(", ".join(n.get("caveats") or [])),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _cell(x, decimals: int) -> str:
    """One cell of ``md_table``: a ``[low, high]`` list as an interval, a string through
    ``escape.markdown_text`` (ids and labels come from records, which travel between hosts), anything
    else by ``fmt_fixed``."""
    if isinstance(x, str):
        return markdown_text(x)
    if isinstance(x, list):
        return "–" if not x or x[0] is None else f"[{fmt_fixed(x[0], decimals)}, {fmt_fixed(x[1], decimals)}]"
    return fmt_fixed(x, decimals)


def var_cell(key: str, published: Collection[str], text: str, *, unit: bool = False) -> str:
    """``{{< var KEY__v >}}`` (the site renders the registry value linked to its provenance entry; a
    notebook's ``link_cells`` the same link) when ``key`` is among the ``published`` keys, else ``text``
    (a number the report does not publish).  The one writer of a published number's table cell, and
    with ``unit=True`` of a number quoted in prose: ``{{< var KEY >}}``, the value with its interval,
    its unit and every caveat marker (``text`` then carries the unit too).

    >>> var_cell("offload-h1-d2d", {"offload-h1-d2d"}, "4,280"), var_cell("x", (), "4,280")
    ('{{< var offload-h1-d2d__v >}}', '4,280')
    >>> var_cell("offload-h1-d2d", {"offload-h1-d2d"}, "4,280 GB/s", unit=True)
    '{{< var offload-h1-d2d >}}'
    """
    if key not in published:
        return text
    return f"{{{{< var {key} >}}}}" if unit else f"{{{{< var {key}__v >}}}}"


def md_table(
    rows,
    cols: dict[str, tuple[str, int]],
    *,
    key_of: Callable[[dict, str], str | None] | None = None,
    published: Collection[str] = (),
) -> str:
    """A Markdown table of ``rows`` (a Polars DataFrame, or anything with ``iter_rows(named=True)``):
    the columns ``{name: (heading, decimals)}`` in that order, numbers with a fixed number of decimals
    that never shows a non-zero as 0 (``numfmt.fmt_fixed``), ``[low, high]`` lists as intervals, None
    as "–".  ``key_of(row, column)``: the registry key of a cell's number (None: not a registry
    number); a cell whose key is in ``published`` is its ``var_cell`` link.  A string cell goes through
    ``escape.markdown_text`` (a record's id or label stays text); headings are the report's own.

    >>> import polars as pl
    >>> rows = pl.DataFrame({"c": ["a", "b"], "v": [1.5, 2.0]})
    >>> key = lambda row, col: f"e-{row['c']}" if col == "v" else None
    >>> print(md_table(rows, {"c": ("config", 0), "v": ("tok/s", 1)}, key_of=key, published={"e-a"}))
    | config | tok/s |
    |---|---|
    | a | {{< var e-a__v >}} |
    | b | 2.0 |
    <BLANKLINE>
    """

    def cell(row: dict, col: str, decimals: int) -> str:
        text = _cell(row[col], decimals)
        key = key_of(row, col) if key_of is not None and row[col] is not None else None
        return text if key is None else var_cell(key, published, text)

    head = "| " + " | ".join(h for h, _ in cols.values()) + " |"
    sep = "|" + "|".join("---" for _ in cols) + "|"
    body = [
        "| " + " | ".join(cell(r, c, nd) for c, (_, nd) in cols.items()) + " |"
        for r in rows.iter_rows(named=True)
    ]
    return "\n".join([head, sep, *body]) + "\n"


def _shown(x):
    """A notebook cell's value: a float by ``fmt_value`` (three significant digits), NaN or an infinity
    as "—" (no value: AR has no τ), anything else as it is (``markdown_table`` escapes it)."""
    if isinstance(x, float):
        return fmt_value(x) if math.isfinite(x) else "—"
    if isinstance(x, (list, tuple)):  # a list column (per-repetition values): each item so
        return [_shown(v) for v in x]
    return x


def frame_table(frame) -> str:
    """``escape.markdown_table`` of ``frame`` (a Polars DataFrame) with every float rounded as the pages
    round a value without an interval (``numfmt.fmt_value``) and NaN shown as "—": the report
    notebooks' tables, which printed ``nan`` and ``5.035714285714286``.

    >>> import polars as pl
    >>> print(frame_table(pl.DataFrame({"tau": [float("nan"), 5.035714285714286], "runs": [3, 3],
    ...     "reps": [[1.2467211798149442], [0.5, 2.0]]})))
    | tau | runs | reps |
    |---|---|---|
    | — | 3 | 1.25 |
    | 5.04 | 3 | 0.500, 2.00 |
    <BLANKLINE>
    """

    class _Rounded:
        columns = list(frame.columns)

        @staticmethod
        def iter_rows():
            return ([_shown(v) for v in row] for row in frame.iter_rows())

    return markdown_table(_Rounded())


_VAR = re.compile(r"\{\{< var ([a-z0-9_-]+?)(__v)? >\}\}")


def link_cells(md: str, numbers, *, to_root: str = NOTEBOOK_TO_ROOT) -> str:
    """``md`` (a report's Markdown for the site, with ``{{< var KEY >}}`` / ``{{< var KEY__v >}}`` cells)
    for a notebook, where Quarto's ``var`` shortcode would link relative to the site root: each
    shortcode of a key of ``numbers`` becomes ``[value [interval]](LINK)``, LINK being
    ``<to_root>provenance/<experiment>.html#n-KEY`` (``numfmt.fmt_number``; no unit for ``__v``).

    >>> print(link_cells("| {{< var e-a__v >}} |", [{"key": "e-a", "value": 120.97, "ci95": None,
    ...     "unit": "tok/s", "experiment": "e"}]))
    | [121](../../provenance/e.html#n-e-a) |

    Raises:
        ValueError: a shortcode names a key ``numbers`` lacks (the report and its Markdown disagree).
    """
    by = {
        n["key"]: n
        for n in (asdict(x) if is_dataclass(x) and not isinstance(x, type) else dict(x) for x in numbers)
    }

    def one(m: re.Match) -> str:
        n = by.get(m.group(1))
        if n is None:
            raise ValueError(
                f"link_cells: {m.group(0)} names no number of the report; fix: rebuild the report"
            )
        href = f"{to_root}provenance/{n.get('experiment') or 'other'}.html#n-{n['key']}"
        return f"[{markdown_text(fmt_number(n, unit=not m.group(2)))}]({href})"

    return _VAR.sub(one, md)
