"""The depth tables' published cells: the registry key of each number ``report.build`` publishes from a
row of ``analysis.depth_table``, for ``numtable.md_table(..., key_of=cell_key, published=...)``, which
writes such a cell as its ``{{< var KEY__v >}}`` link (``numtable.var_cell``: the site renders the
registry value linked to its provenance entry, as the llama-bench, speculative and offload tables do)
and every other cell as a plain number.
"""

from __future__ import annotations

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


def cell_key(row: dict, col: str) -> str | None:
    """``number_key`` of a ``PUBLISHED`` column's cell; None for any other column (not a number the
    report publishes).

    >>> row = {"host_id": "3f1dfa40cbf1eb67", "config_id": "baseline", "depth": 0}
    >>> cell_key(row, "decode_tps"), cell_key(row, "tau")
    ('spec_depth-h3f1dfa40-baseline-d0-decode_tps', None)
    """
    return number_key(row, col) if col in PUBLISHED else None
