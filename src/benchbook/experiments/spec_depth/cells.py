"""The depth tables' published cells as links: a cell whose number the report publishes is written as
``{{< var KEY__v >}}`` (the site renders it as the registry value, linked to its provenance entry, as
the llama-bench and speculative tables do), every other cell as ``numtable.md_table`` writes it.
"""

from __future__ import annotations

from collections.abc import Iterable

from benchbook.numbers import make_key

from . import EXPERIMENT

#: the columns of ``analysis.depth_table`` that ``report.build`` publishes, one number per row each
PUBLISHED = (
    "decode_tps",
    "speedup",
    "prefill_ratio",
    "residual_before",
    "residual_after",
    "residual_overhead",
)


def number_key(row: dict, col: str) -> str:
    """The registry key ``report.build`` publishes for ``col`` of a depth-table row
    (``spec_depth-h<host8>-<config_id>-d<depth>-<col>``).

    >>> number_key({"host_id": "3f1dfa40cbf1eb67", "config_id": "self-n4", "depth": 256}, "speedup")
    'spec_depth-h3f1dfa40-self-n4-d256-speedup'
    """
    return make_key(EXPERIMENT, f"h{row['host_id'][:8]}", row["config_id"], f"d{row['depth']}", col)


class LinkedRows:
    """Rows for ``numtable.md_table`` (``iter_rows(named=True)``): those of ``rows`` with each
    ``PUBLISHED`` cell whose key is in ``published`` replaced by its ``{{< var KEY__v >}}`` shortcode;
    cells of numbers not published stay numbers."""

    def __init__(self, rows, published: Iterable[str]) -> None:
        keys = set(published)
        self._rows = []
        for r in rows.iter_rows(named=True):
            r = dict(r)
            for col in PUBLISHED:
                if r.get(col) is not None and (key := number_key(r, col)) in keys:
                    r[col] = f"{{{{< var {key}__v >}}}}"
            self._rows.append(r)

    def iter_rows(self, named: bool = True) -> list[dict]:
        """The rows, each a dict (``named`` is always True: ``md_table`` reads them by column name)."""
        del named
        return self._rows
