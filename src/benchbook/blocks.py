"""What the generic notebooks show of an experiment, as typed blocks.

``notebooks/report.ipynb`` (``-p experiment NAME``) shows what ``experiments.<NAME>.report.sections``
yields, ``notebooks/measure.ipynb`` what ``experiments.<NAME>.run.sections`` yields, both through
``show``: the experiment decides what its executed notebook holds and the two notebooks serve every
experiment.  A block is one output of the executed notebook; the kinds are those a report notebook may
hold (the site renders it, and Quarto loads scripts from a CDN for any ``text/html`` output: DESIGN.md,
"Quarto facts"):

* ``Markdown``: ``text/markdown`` (headings, prose, tables through ``numtable.frame_table``);
* ``Svg``: a chart file, ``image/svg+xml``;
* ``Value``: an object as IPython shows a cell's value (a dict: its ``text/plain`` pretty print);
* ``Text``: printed text, a stdout stream (a notebook's closing ``ok: 12 configurations``).

A report's ``sections(res, paths)`` (``paths``: a ``Paths``) and a run's ``sections(result)`` are
generators: their checks (plain ``assert``) run after the blocks before them
are shown, so a failing check fails the notebook below the tables it is about.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Markdown:
    """A ``text/markdown`` output."""

    text: str


@dataclass(frozen=True)
class Svg:
    """A chart: the SVG file at ``path``, shown as ``image/svg+xml``."""

    path: Path


@dataclass(frozen=True)
class Value:
    """An object shown by its IPython representation (``text/plain`` for a dict or a list)."""

    value: Any


@dataclass(frozen=True)
class Text:
    """Printed text (a stdout stream output; a newline is added)."""

    text: str


Block = Markdown | Svg | Value | Text


@dataclass(frozen=True)
class Paths:
    """Where a report notebook runs: the repository ``root``, the raw-data root ``raw_dir`` and the
    reports root ``reports_dir`` (both absolute), and ``to_root``, the relative path from the executed
    notebook to the folder holding ``provenance/`` (``../../`` for ``reports/notebooks/``; a write-up's
    own folder: ``./``)."""

    root: Path
    raw_dir: Path
    reports_dir: Path
    to_root: str = "../../"


def show(blocks: Iterable[Block]) -> None:
    """Display ``blocks`` in order in the running IPython kernel (one output each).

    Raises:
        TypeError: an item is not a ``Block`` (names its type).
    """
    from IPython.display import SVG, display
    from IPython.display import Markdown as MarkdownOutput

    for block in blocks:
        if isinstance(block, Markdown):
            display(MarkdownOutput(block.text))
        elif isinstance(block, Svg):
            display(SVG(filename=str(block.path)))
        elif isinstance(block, Value):
            display(block.value)
        elif isinstance(block, Text):
            print(block.text)
        else:
            raise TypeError(
                f"a notebook block is a Markdown, Svg, Value or Text of benchbook.blocks, got "
                f"{type(block).__name__}; fix: yield one of those from the experiment's sections()"
            )
