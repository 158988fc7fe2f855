"""Write-ups on the site: ``writeups/<name>/`` holds a report notebook executed on the write-up's own
raw data (``<name>/raw/``) and the numbers registry it published (``<name>/reports/numbers/``,
committed).  The site renders the notebook (``_quarto.yml``: ``writeups/*/*.ipynb``) and, from that
registry and the write-up's snapshots, one provenance page per experiment at
``writeups/<name>/provenance/<experiment>.qmd`` (``_quarto.yml``: ``writeups/*/provenance/*.qmd``),
so the keys of the notebook's numbers table (``numtable.numbers_table`` with ``to_root="./"``) link to
entries that exist.  A write-up's numbers never enter the site's own registry: keys of two
registries may coincide.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from benchbook import atomicfile

from . import sitepages
from .numbers import load_all

#: the folder of the write-ups, relative to the repository root
WRITEUPS = "writeups"
#: from ``writeups/<name>/provenance/`` to the site root (where ``provenance.html`` lies)
TO_ROOT = "../../../"


def writeup_dirs(root: Path) -> list[Path]:
    """Every ``writeups/<name>/`` of ``root`` with a numbers registry (``reports/numbers/*.json``), sorted."""
    base = Path(root) / WRITEUPS
    if not base.is_dir():
        return []
    return sorted(d for d in base.iterdir() if d.is_dir() and any((d / "reports" / "numbers").glob("*.json")))


def registry_dir(writeup: Path) -> Path:
    """The registry folder of a write-up: ``<writeup>/reports/numbers``."""
    return writeup / "reports" / "numbers"


def _snapshots(snapshots_dir: Path) -> dict[str, dict[str, dict]]:
    """The write-up's snapshots (``sitepages.read_snapshots``: models by sha256, both layouts)."""
    return sitepages.read_snapshots(snapshots_dir)


def provenance_pages(root: Path) -> list[Path]:
    """Write ``writeups/<name>/provenance/<experiment>.qmd`` for every write-up of ``root`` (the folder
    is replaced; model, host and toolchain facts from ``<name>/raw/snapshots``); return the pages
    written, sorted."""
    written = []
    for d in writeup_dirs(root):
        nums = load_all(registry_dir(d))
        snapshots = _snapshots(d / "raw" / "snapshots")
        prov = d / sitepages.PROVENANCE_DIR
        if prov.is_dir():
            shutil.rmtree(prov)
        prov.mkdir()
        for exp in sorted({n.get("experiment") or "other" for n in nums.values()}):
            page = prov / f"{exp}.qmd"
            atomicfile.write_text(page, sitepages.provenance_page(nums, exp, snapshots, TO_ROOT))
            written.append(page)
    return written
