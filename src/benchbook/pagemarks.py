"""Caveat markers as a page shows them: numbered per page, and said once per configuration row.

* **Numbering per page.**  ``†1`` is the first caveat rule a reader meets on the experiment's page, ``†2``
  the next new one, and so on, in the order the page's sources quote its numbers (``{{< var >}}``,
  includes followed); the legend lists them in the same order.  Rules of the experiment's numbers that
  the page never shows follow, in ``caveats.RULES`` order.  A new rule in ``caveats.RULES`` therefore
  renumbers no page.  The experiment's page is ``<experiment>.qmd``, else the first source that includes
  ``_generated/<experiment>-caveats.md`` (its legend); a number quoted on another page (a write-up from
  ``benchbook new-page``, whose own legend ``_generated/page-NAME-caveats.md`` counts its numbers) carries
  its experiment's numbering.
* **Said once per configuration.**  A table row's label cell may hold ``{{< var PREFIX__cfg >}}``: the
  rules attached to *every* number of that row whose key starts with ``PREFIX-`` (at least two of them),
  beyond the rules said once for the whole page (``sitepages.experiment_wide``), are shown once there,
  and those numbers' cells (``{{< var KEY__v >}}``) no longer repeat them.  A cell used in several rows
  drops only the rules all of its rows say; quoted in prose (``{{< var KEY >}}``) a number keeps every
  marker.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from . import caveats as caveats_mod
from .sitecheck import CELL_SUFFIX, CFG_SUFFIX, INCLUDE, VAR


@dataclass
class PageMarks:
    """What ``page_marks`` found: ``order`` (experiment -> rule ids, marker ``†i`` = position i+1),
    ``cell_said`` (registry key -> rules its ``__v`` cells leave to their row's label), ``cfg`` (``PREFIX``
    of a ``PREFIX__cfg`` label -> (experiment, rules said there)) and ``unknown_cfg`` (``page: PREFIX`` of
    labels whose prefix names no registry key)."""

    order: dict[str, list[str]] = field(default_factory=dict)
    cell_said: dict[str, list[str]] = field(default_factory=dict)
    cfg: dict[str, tuple[str, list[str]]] = field(default_factory=dict)
    unknown_cfg: list[str] = field(default_factory=list)

    def markers(self, experiment: str) -> dict[str, str]:
        """Rule id -> ``†i`` on ``experiment``'s page (every rule of ``caveats.RULES`` has one)."""
        order = self.order.get(experiment) or list(caveats_mod.RULES)
        return {rule: f"†{i}" for i, rule in enumerate(order, start=1)}


def page_text(source: Path, root: Path, _seen: tuple[Path, ...] = ()) -> str:
    """``source`` with every ``{{< include FILE >}}`` replaced by that file's text (recursively; paths
    relative to the including file, or to ``root`` when they start with ``/``; a missing file: nothing)."""
    if source in _seen or not source.is_file():
        return ""
    text = source.read_text(errors="replace")

    def paste(m: re.Match) -> str:
        inc = m.group(1)
        path = root / inc.lstrip("/") if inc.startswith("/") else source.parent / inc
        return page_text(path.resolve(), root, (*_seen, source))

    return INCLUDE.sub(paste, text)


def _shown(num: dict, wide: list[str], dropped: list[str] | None = None) -> list[str]:
    """The rules a number's marker shows: its caveats minus ``wide`` and ``dropped``, in RULES order."""
    mine = set(num.get("caveats") or []) - set(wide) - set(dropped or [])
    return [r for r in caveats_mod.RULES if r in mine]


def rule_order(
    text: str, nums: dict[str, dict], experiment: str, wide: list[str], marks: PageMarks
) -> list[str]:
    """Rule ids in order of first appearance among ``experiment``'s markers in ``text`` (a page with its
    includes pasted), then the other rules of ``experiment``'s numbers, then the rest of ``caveats.RULES``
    (each in ``caveats.RULES`` order)."""
    seen: list[str] = []
    for name in VAR.findall(text):
        if name.endswith(CFG_SUFFIX):
            exp, rules = marks.cfg.get(name.removesuffix(CFG_SUFFIX), ("", []))
            shown = rules if exp == experiment else []
        else:
            key = name.removesuffix(CELL_SUFFIX)
            num = nums.get(key)
            if num is None or num.get("experiment") != experiment:
                continue
            shown = _shown(num, wide, marks.cell_said.get(key) if name.endswith(CELL_SUFFIX) else None)
        seen += [r for r in shown if r not in seen]
    # then the experiment's rules the page does not show (its legend still counts them), then the rest
    mine = {
        c for n in nums.values() if n.get("experiment") == experiment for c in n.get("caveats") or []
    } - set(wide)
    rest = [r for r in caveats_mod.RULES if r not in seen]
    return seen + [r for r in rest if r in mine] + [r for r in rest if r not in mine]


def _rows(text: str) -> list[list[str]]:
    """The ``{{< var >}}`` names of each Markdown table row (a line starting with ``|``) of ``text``."""
    return [VAR.findall(line) for line in text.splitlines() if line.lstrip().startswith("|")]


def config_rows(
    text: str, nums: dict[str, dict], wide: dict[str, list[str]], marks: PageMarks, page: str
) -> dict[str, list[set[str]]]:
    """Fill ``marks.cfg`` from the rows of ``text`` that hold a ``PREFIX__cfg`` label (see the module
    docstring; a prefix matching no registry key goes to ``marks.unknown_cfg``) and return, per registry
    key quoted as a ``__v`` cell, the rules each of its rows leaves to its label (an empty set for a row
    without one)."""
    cells_in_rows: dict[str, list[set[str]]] = {}
    for row in _rows(text):
        labels = [n.removesuffix(CFG_SUFFIX) for n in row if n.endswith(CFG_SUFFIX)]
        cells = [n.removesuffix(CELL_SUFFIX) for n in row if n.endswith(CELL_SUFFIX)]
        for prefix in labels:
            if not any(k.startswith(prefix + "-") for k in nums):
                marks.unknown_cfg.append(f"{page}: {prefix}")
                continue
            mine = [k for k in cells if k.startswith(prefix + "-") and k in nums]
            exp = (nums[mine[0]].get("experiment") or "") if mine else ""
            common: set[str] = set()
            if len(mine) >= 2:
                common = set.intersection(*(set(_shown(nums[k], wide.get(exp, []))) for k in mine))
            old = marks.cfg.get(prefix)
            if old is not None:  # the same label in two rows: only what both say
                common &= set(old[1])
            marks.cfg[prefix] = (exp, [r for r in caveats_mod.RULES if r in common])
            for k in mine:
                cells_in_rows.setdefault(k, []).append(common)
        for k in cells:
            if not any(k.startswith(p + "-") for p in labels):
                cells_in_rows.setdefault(k, []).append(set())  # a row without its label: nothing dropped
    return cells_in_rows


def page_marks(root: Path, pages: list[Path], nums: dict[str, dict], wide: dict[str, list[str]]) -> PageMarks:
    """Per-page marker numbering and configuration labels for ``pages`` (sources under ``root``) over
    ``nums`` (``numbers.load_all``), ``wide`` being each experiment's rules said once for its page."""
    marks = PageMarks()
    texts = {p: page_text(p.resolve(), root.resolve()) for p in pages}
    cells_in_rows: dict[str, list[set[str]]] = {}
    for p, text in texts.items():
        name = str(p.relative_to(root)) if p.is_relative_to(root) else str(p)
        for k, sets in config_rows(text, nums, wide, marks, name).items():
            cells_in_rows.setdefault(k, []).extend(sets)
    for k, sets in cells_in_rows.items():
        said = set.intersection(*sets)
        if said:
            marks.cell_said[k] = [r for r in caveats_mod.RULES if r in said]
    for exp in sorted({str(n["experiment"]) for n in nums.values() if n.get("experiment")}):
        legend = f"_generated/{exp}-caveats.md"
        with_legend = [p for p in pages if legend in p.read_text(errors="replace")]
        # the experiment's own page (``<experiment>.qmd``) before a write-up scaffolded by new-page
        page = next((p for p in with_legend if p.stem == exp), with_legend[0] if with_legend else None)
        text = texts.get(page, "") if page is not None else ""
        marks.order[exp] = rule_order(text, nums, exp, wide.get(exp, []), marks)
    return marks
