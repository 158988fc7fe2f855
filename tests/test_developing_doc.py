"""docs/DEVELOPING.md's layout tree names every module of src/benchbook (and only those), and its layer
list is ``benchbook.layers.LAYERS`` (the README's old layout named `toolchain`, `models`, `runners/`,
`analysis`, `speculative`, `*_report`, none of which exist, and its layers left out `sitewords`)."""

from __future__ import annotations

import re
from pathlib import Path

from benchbook import layers

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "DEVELOPING.md"
PKG = ROOT / "src" / "benchbook"


def _tree() -> list[str]:
    text = DOC.read_text()
    block = re.search(r"^```\nsrc/benchbook/\n(.*?)^```", text, re.S | re.M)
    assert block, "docs/DEVELOPING.md has no layout tree"
    return block.group(1).splitlines()


def test_the_tree_names_every_module_and_no_other():
    named = []
    for line in _tree():
        if re.match(r"  \S", line):
            named += re.split(r"\s{3,}", line.strip())[0].split()
    names = {n.split("/")[0] for n in named}
    modules = {p.stem for p in PKG.glob("*.py") if p.stem not in ("__init__", "__main__")}
    packages = {p.parent.name for p in PKG.glob("*/__init__.py")}
    assert names == modules | packages, (names - modules - packages, modules | packages - names)


def test_the_tree_names_every_llamacpp_module():
    lines = _tree()
    start = next(i for i, line in enumerate(lines) if line.startswith("  llamacpp/"))
    end = next(i for i in range(start + 1, len(lines)) if re.match(r"  \S", lines[i]))
    words = set(re.findall(r"\w+", " ".join(lines[start:end])))
    stems = {p.stem for p in (PKG / "llamacpp").glob("*.py") if p.stem != "__init__"}
    assert stems - words == set()


def test_the_layer_list_is_layers_LAYERS():
    stated = re.findall(r"^(\d+)\. ([^:\n]+): (.*)$", DOC.read_text(), re.M)
    expected = []
    for i, (name, patterns) in enumerate(layers.LAYERS, start=1):
        shown = [p + "/" if p + ".*" in patterns else p for p in patterns if p and not p.endswith(".*")]
        expected.append((str(i), name, shown))
    assert [(n, name, re.findall(r"`([^`]+)`", mods)) for n, name, mods in stated] == expected
