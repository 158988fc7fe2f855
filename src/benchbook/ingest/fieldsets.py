"""The llama-bench field sets of one ingested file, said so that a reader knows what differs and what
it means (the ``benchbook ingest`` summary line).

llama-bench renamed fields once: builds before ``load_mode``/``backends`` print ``use_mmap``, one
boolean per backend (``cuda``, ``metal``, ``vulkan``...) and a boolean ``flash_attn`` (field set 1);
b11434 prints ``load_mode``, ``backends`` and an integer ``flash_attn`` (field set 2).  A row naming
neither kind (a Markdown table of defaults) is read by its build: set 1 below build 6000
(``llama_bench.field_version``).  Set-1 rows are read into b11434's names
(``migrations.legacy_llama_bench_row``), so rows of both sets compare field by field; a field only
later builds print stays unknown (absent) in the older rows.
"""

from __future__ import annotations

#: what each field set is, in the words the summary prints
SET_FIELDS = {
    1: "old names: use_mmap, one boolean per backend (cuda, metal...), a boolean flash_attn, "
    "or neither kind and a build before 6000",
    2: "b11434's names: load_mode, backends, an integer flash_attn",
}
#: what a set-1 row means for the user (printed once when a file holds one)
MIGRATED = (
    "set-1 rows were read into b11434's names (use_mmap -> load_mode, backend booleans -> backends, "
    "flash_attn -> 1/0), so they compare with set-2 rows field by field; fields only newer builds print "
    "are unknown in them"
)


def line_list(lines: list[int]) -> str:
    """``line 9`` or ``lines 3-5, 9``: sorted, runs of consecutive lines joined.

    >>> line_list([9]), line_list([4, 3, 5, 9, 9])
    ('line 9', 'lines 3-5, 9')
    """
    runs: list[list[int]] = []
    for n in sorted(set(lines)):
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    text = ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)
    return f"line{'s' if len(runs) > 1 or runs[0][0] != runs[0][1] else ''} {text}"


def field_sets(records: list[dict]) -> str | None:
    """What the llama-bench records of one file say about their field sets (module doc): each set
    present with its fields and the source lines of its rows, and, where a set-1 row is among them,
    what its reading means.  None when no record is a llama-bench row.

    >>> field_sets([{"llama_bench_fields": 2, "source_line": 3}, {"llama_bench_fields": 1, "source_line": 9}])
    ... # doctest: +NORMALIZE_WHITESPACE
    "llama-bench field sets differ: set 1 (old names: use_mmap, one boolean per backend (cuda, metal...),
    a boolean flash_attn, or neither kind and a build before 6000) at line 9; set 2 (b11434's names:
    load_mode, backends, an integer flash_attn) at line 3 -- set-1 rows were read into b11434's names
    (use_mmap -> load_mode, backend booleans -> backends, flash_attn -> 1/0), so they compare with set-2
    rows field by field; fields only newer builds print are unknown in them"
    """
    by_set: dict[int, list[int]] = {}
    for r in records:
        if "llama_bench_fields" in r:
            by_set.setdefault(r["llama_bench_fields"], []).append(r.get("source_line") or 0)
    if not by_set:
        return None
    sets = "; ".join(
        f"set {k} ({SET_FIELDS.get(k, 'unknown')}) at {line_list(v)}" for k, v in sorted(by_set.items())
    )
    head = "llama-bench field sets differ: " if len(by_set) > 1 else "llama-bench field "
    return head + sets + (f" -- {MIGRATED}" if 1 in by_set else "")
