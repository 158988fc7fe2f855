"""The package's layers, lowest first, and the check that no import goes up a layer or round a cycle.

A module may import modules of its own layer or of a lower one, never of a higher one; no two
modules may import each other, directly or through others (function-local imports included).
Besides the order, measurement code and report code stay apart: a measurement module (``MEASUREMENT``)
imports no report module (``REPORT``) and the other way round.  ``tests/test_layers.py`` runs
``check`` on the real tree; docs/DEVELOPING.md's layout section shows the same table.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass
from pathlib import Path

from .imports import Import, package_graph

#: (layer name, module patterns relative to ``benchbook``), lowest layer first.  A new module must
#: match a pattern (``check`` reports it otherwise).
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    (
        "contract",
        (
            "",
            "paths",
            "records",
            "schemas",
            "migrations",
            "session",
            "provenance",
            "jsonl",
            "benchrows",
            "measured",
            "busynow",
            "blocks",
            "errors",
            "escape",  # a leaf (html, re): the session checks' page text escapes what records say
            "atomicfile",  # a leaf (os): every rewritten file, measurement and report alike
        ),
    ),
    ("stats", ("stats", "identity", "costmodel")),
    (
        "report engine",
        ("caveats", "numbers", "charts", "hosts", "wording", "numfmt", "numtable", "outputs"),
    ),
    ("llamacpp", ("llamacpp", "llamacpp.*")),
    ("resolve", ("resolve",)),
    ("draftself", ("draftself", "draftself.*")),
    ("experiments", ("experiments", "experiments.*")),
    ("ingest/audit", ("ingest", "ingest.*", "audit", "audit.*")),
    (
        "site",
        (
            "site",
            "sitecheck",
            "sitepages",
            "pagemarks",
            "sitewords",
            "writeup",
            "sitewriteups",
            "sitelinks",
            "siterenderer",
        ),
    ),
    ("tooling", ("imports", "layers", "stagedeps", "stages")),
    ("cli", ("cli", "__main__", "writeupnew")),
]

#: Modules that measure (drive llama.cpp or a decoder and write raw records).
MEASUREMENT = (
    "llamacpp",
    "llamacpp.*",
    "resolve",
    "experiments.*.run",
    "experiments.harness",
    "experiments.servervisit",
)
#: Modules that turn raw records into tables, numbers, charts, caveats and pages.
REPORT = (
    "experiments.*.analysis",
    "experiments.*.report",
    "costmodel",
    "caveats",
    "numbers",
    "charts",
    "numfmt",
    "numtable",
    "site",
    "sitecheck",
    "sitewords",
    "sitepages",
    "pagemarks",
    "outputs",
    "writeup",
    "sitewriteups",
    "sitelinks",
    "siterenderer",
)


@dataclass(frozen=True)
class Violation:
    """One broken rule: ``where`` (file:line), ``what`` (one line naming both modules and the fix)."""

    where: str
    what: str

    def __str__(self) -> str:
        return f"{self.where}: {self.what}"


def _short(module: str) -> str:
    return module.split(".", 1)[1] if "." in module else ""


def _match(short: str, patterns) -> bool:
    return any(fnmatch.fnmatchcase(short, p) for p in patterns)


def layer_of(module: str) -> int | None:
    """Index in ``LAYERS`` of the dotted ``module`` (``benchbook.x.y``), or None when unassigned."""
    short = _short(module)
    for i, (_, patterns) in enumerate(LAYERS):
        if _match(short, patterns):
            return i
    return None


def _cycles(graph: dict[str, list[Import]]) -> list[list[str]]:
    """Strongly connected components of more than one module (or a module importing itself)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in dict.fromkeys(i.module for i in graph.get(v, [])):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or any(i.module == v for i in graph.get(v, [])):
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def check(root: Path) -> list[Violation]:
    """Every upward import, measurement/report crossing, unassigned module and import cycle under
    ``root/src/benchbook``; [] when the tree keeps its layers."""
    graph = package_graph(root)
    out = []
    for m in sorted(graph):
        lm = layer_of(m)
        if lm is None:
            out.append(
                Violation(
                    m,
                    f"module {m} is in no layer; fix: add it to benchbook.layers.LAYERS "
                    "(and to the layer list of docs/DEVELOPING.md)",
                )
            )
            continue
        for imp in graph[m]:
            li = layer_of(imp.module)
            if li is not None and li > lm:
                out.append(
                    Violation(
                        f"{imp.source}:{imp.line}",
                        f"upward import: {m} (layer {LAYERS[lm][0]!r}) imports {imp.module} "
                        f"(layer {LAYERS[li][0]!r}); fix: move the code it needs down a layer, "
                        "or the importer up",
                    )
                )
            a, b = _short(m), _short(imp.module)
            for side, other, name in ((MEASUREMENT, REPORT, "measurement"), (REPORT, MEASUREMENT, "report")):
                if _match(a, side) and _match(b, other) and not _match(b, side):
                    out.append(
                        Violation(
                            f"{imp.source}:{imp.line}",
                            f"{name} module {m} imports {imp.module} from the other side; fix: "
                            "share the code through a lower layer (records, jsonl, stats)",
                        )
                    )
    for comp in _cycles(graph):
        edges = [f"{i.source}:{i.line} {m} -> {i.module}" for m in comp for i in graph[m] if i.module in comp]
        out.append(
            Violation(
                edges[0].split(" ", 1)[0],
                "import cycle: " + "; ".join(edges) + "; fix: move the shared code into a lower module",
            )
        )
    return out
