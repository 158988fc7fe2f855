"""Caveat markers as the site shows them: numbered per page in reading order, and said once per
configuration row.

* **Per page, in reading order.**  A number's text is one entry of ``_variables.yml``, the same on every
  page that quotes it, so the sources carry one site-wide numbering: ``†1`` is the first caveat rule a
  reader meets going through the site's pages in their order (``_quarto.yml`` ``render``), ``†2`` the
  next new one, and so on (``rule_order``; rules of numbers no page shows follow, then the rest of
  ``caveats.RULES``), so a digit names one rule in every source.  After rendering, each built page's
  markers are renumbered in its own reading order (``renumber_html``: the first rule the page shows is
  ``†1``, legends included, one rule per digit on the page), so a page never reads †1, †2, †4 because
  another page met a rule first.  A legend lists its markers in its page's reading order
  (``page_rules``), so after renumbering it reads †1, †2, †3 from the top.
* **Every marker in a legend.**  A page that shows a marker lists it in a legend it includes: its
  experiment's ``_generated/<experiment>-caveats.md`` or its own ``_generated/page-<name>-caveats.md``
  (``site.page_legends``, over the numbers it quotes); ``unlisted_markers`` names the markers that are not.
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
from . import sitepages
from .sitecheck import CELL_SUFFIX, CFG_SUFFIX, INCLUDE, VAR


@dataclass
class PageMarks:
    """What ``page_marks`` found: ``order`` (rule ids; marker ``†i`` = position i+1 in every source, before
    ``renumber_html`` numbers each built page in its reading order),
    ``said_once`` (experiment -> its rules said once for its page, never marked), ``cell_said`` (registry
    key -> rules its ``__v`` cells leave to their row's label), ``cfg`` (``PREFIX`` of a ``PREFIX__cfg``
    label -> (experiment, rules said there)) and ``unknown_cfg`` (``page: PREFIX`` of labels whose prefix
    names no registry key)."""

    order: list[str] = field(default_factory=list)
    said_once: dict[str, list[str]] = field(default_factory=dict)
    cell_said: dict[str, list[str]] = field(default_factory=dict)
    cfg: dict[str, tuple[str, list[str]]] = field(default_factory=dict)
    unknown_cfg: list[str] = field(default_factory=list)

    def markers(self) -> dict[str, str]:
        """Rule id -> ``†i`` (every rule of ``caveats.RULES`` has one, the same in every source)."""
        return sitepages.markers(self.order)

    def shown(self, name: str, nums: dict[str, dict]) -> list[str]:
        """The rules whose markers ``{{< var name >}}`` shows, in ``caveats.RULES`` order: a ``PREFIX__cfg``
        label its row's rules; a number its caveats less those said once for its experiment and, as a
        ``KEY__v`` cell, less those its row's label says; nothing for a key not in ``nums``."""
        if name.endswith(CFG_SUFFIX):
            return self.cfg.get(name.removesuffix(CFG_SUFFIX), ("", []))[1]
        key = name.removesuffix(CELL_SUFFIX)
        num = nums.get(key)
        if num is None:
            return []
        dropped = self.cell_said.get(key) if name.endswith(CELL_SUFFIX) else None
        return _shown(num, self.said_once.get(num.get("experiment") or "", []), dropped)


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


def page_rules(text: str, nums: dict[str, dict], marks: PageMarks) -> list[str]:
    """The rules whose markers the page ``text`` (includes pasted) shows, in order of first appearance
    (``marks.shown`` of each ``{{< var >}}``): its reading order, ``†1`` first after ``renumber_html``."""
    seen: list[str] = []
    for name in VAR.findall(text):
        seen += [r for r in marks.shown(name, nums) if r not in seen]
    return seen


#: a caveat marker in built HTML: the dagger (literal or as an entity) and its comma-separated digits at
#: the end of a link's text (a number, a row label) or of a legend's bold marker; a "†1" in prose is not one
HTML_MARKER = re.compile(r"(†|&dagger;|&#8224;|&#x2020;)(\d+(?:,\d+)*)(?=</a>|</strong>)")


def renumber_html(html: str) -> tuple[str, dict[int, int]]:
    """``html`` with its caveat markers (``HTML_MARKER``) numbered in reading order: the first digit met
    becomes 1, the next new one 2, …, every occurrence of a digit (cells, prose, legends, row labels)
    mapped alike and each marker's digits ascending; and the mapping ``{site digit: page digit}``.  The
    digits of the sources name one rule each on the whole site (``rule_order``), so on one page the
    mapping is one-to-one and every marker still names the rule its legend line does."""
    mapping: dict[int, int] = {}
    for m in HTML_MARKER.finditer(html):
        for d in map(int, m.group(2).split(",")):
            mapping.setdefault(d, len(mapping) + 1)

    def swap(m: re.Match) -> str:
        return m.group(1) + ",".join(map(str, sorted(mapping[int(d)] for d in m.group(2).split(","))))

    return HTML_MARKER.sub(swap, html), mapping


def renumber_site(site: Path, root: Path, pages: list[Path]) -> int:
    """Renumber the markers of the built page of each source of ``pages`` (``renumber_html``; the page
    of ``a/b.qmd`` is ``site/a/b.html``) in place; return how many pages changed."""
    changed = 0
    for src in pages:
        built = site / src.relative_to(root).with_suffix(".html")
        if not built.is_file():
            continue
        html = built.read_text(errors="replace")
        new, _ = renumber_html(html)
        if new != html:
            built.write_text(new)
            changed += 1
    return changed


def rule_order(texts: list[str], nums: dict[str, dict], marks: PageMarks) -> list[str]:
    """Rule ids in order of first appearance among the markers of ``texts`` (the site's pages in order,
    their includes pasted; ``marks.shown``), then the other rules of ``nums``' numbers (less those said
    once for their experiment), then the rest of ``caveats.RULES`` (each in ``caveats.RULES`` order)."""
    seen: list[str] = []
    for text in texts:
        seen += [r for r in page_rules(text, nums, marks) if r not in seen]
    # then the rules of numbers no page shows (their legends still count them), then the rest
    mine = {r for n in nums.values() for r in _shown(n, marks.said_once.get(n.get("experiment") or "", []))}
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
    """The site's marker numbering and configuration labels for ``pages`` (sources under ``root``, in the
    site's order) over ``nums`` (``numbers.load_all``), ``wide`` being each experiment's rules said once
    for its page."""
    marks = PageMarks(said_once=dict(wide))
    texts = {p: page_text(p.resolve(), root.resolve()) for p in pages}
    cells_in_rows: dict[str, list[set[str]]] = {}
    for p, text in texts.items():
        for k, sets in config_rows(text, nums, wide, marks, _name(p, root)).items():
            cells_in_rows.setdefault(k, []).extend(sets)
    for k, sets in cells_in_rows.items():
        said = set.intersection(*sets)
        if said:
            marks.cell_said[k] = [r for r in caveats_mod.RULES if r in said]
    marks.order = rule_order(list(texts.values()), nums, marks)
    return marks


def unlisted_markers(root: Path, pages: list[Path], nums: dict[str, dict], marks: PageMarks) -> list[str]:
    """``page: †i (rule) beside KEY`` for every marker that a page of ``pages`` shows (``marks.shown``)
    and no legend in its text lists (``sitepages.legend_entry``; the page's includes pasted, so run it
    after the legends are generated), once per page and rule."""
    out = []
    marker = marks.markers()
    for p in pages:
        text = page_text(p.resolve(), root.resolve())
        first: dict[str, str] = {}
        for name in VAR.findall(text):
            for r in marks.shown(name, nums):
                if sitepages.legend_entry(marker[r], r) not in text:
                    first.setdefault(r, name)
        out += [f"{_name(p, root)}: {marker[r]} ({r}) beside {name}" for r, name in first.items()]
    return out


def _name(page: Path, root: Path) -> str:
    return str(page.relative_to(root)) if page.is_relative_to(root) else str(page)
