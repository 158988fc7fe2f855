"""Write-ups on the site: ``writeups/<name>/`` holds a report notebook executed on the write-up's own
raw data (``<name>/raw/``) and the numbers registry it published (``<name>/reports/numbers/``,
committed).  The site renders the notebook (``_quarto.yml``: ``writeups/*/*.ipynb``) and, from that
registry and the write-up's snapshots, one provenance page per experiment at
``writeups/<name>/provenance/<experiment>.qmd`` (``_quarto.yml``: ``writeups/*/provenance/*.qmd``),
so the keys of the notebook's numbers table (``numtable.numbers_table`` with ``to_root="./"``) link to
entries that exist.  A write-up's numbers never enter the site's own registry: keys of two
registries may coincide.

A write-up's own pages (``writeups/<name>/*.qmd``: ``index.qmd`` from ``benchbook writeup new``) quote
its numbers as ``{{< var <name>--<key> >}}`` (``page_key``: the write-up's name, two hyphens, the key
of its registry, as ``benchbook numbers --writeup <name>`` prints it); ``_variables.yml`` holds them
beside the site's (``page_numbers``), each linking to the write-up's provenance page relative to the
write-up's folder.  Such a page includes its own generated parts (``pages_parts``):
``_generated/<page>-measured.md`` and ``_generated/<page>-caveats.md`` in the write-up's folder, over the
numbers the page quotes.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from benchbook import atomicfile

from . import sitepages
from .numbers import load_all
from .sitecheck import CELL_SUFFIX, page_vars

#: the folder of the write-ups, relative to the repository root
WRITEUPS = "writeups"
#: from ``writeups/<name>/provenance/`` to the site root (where ``provenance.html`` lies)
TO_ROOT = "../../../"
#: from ``writeups/<name>/`` (a write-up's own page) to the site root
PAGE_TO_ROOT = "../../"
#: between a write-up's name and a key of its registry in a page key (``page_key``)
KEY_SEP = "--"
#: the folder of a write-up's generated page parts, relative to the write-up
GEN = "_generated"


def page_key(name: str, key: str) -> str:
    """The ``{{< var >}}`` name of the number ``key`` of write-up ``name``: ``<name>--<key>``
    (``my-gguf--lb-my-model-tg64-warm``)."""
    return f"{name}{KEY_SEP}{key}"


def page_numbers(root: Path) -> dict[str, dict[str, dict]]:
    """Each write-up's numbers (``writeup_dirs``) by page key (``page_key``): ``{name: {page key:
    number}}``, the numbers unchanged (their ``key`` and ``experiment`` make the provenance link,
    ``provenance/<experiment>.qmd#n-KEY`` from the write-up's folder)."""
    return {
        d.name: {page_key(d.name, k): n for k, n in load_all(registry_dir(d)).items()}
        for d in writeup_dirs(root)
    }


def pages(root: Path) -> list[Path]:
    """The write-ups' own pages: ``writeups/<name>/*.qmd``, sorted."""
    base = Path(root) / WRITEUPS
    return sorted(base.glob("*/*.qmd")) if base.is_dir() else []


def _to_root(text: str) -> str:
    """Generated Markdown written for the site root, its links to ``provenance.qmd`` made to work from
    a write-up's folder."""
    return text.replace("](provenance.qmd", f"]({PAGE_TO_ROOT}provenance.qmd")


def pages_parts(root: Path, order: list[str] | None = None) -> dict[Path, str]:
    """The generated parts of each write-up page that includes them (``writeups/<name>/<page>.qmd``
    including ``_generated/<page>-measured.md`` or ``_generated/<page>-caveats.md``): path -> text,
    over the numbers the page quotes (``{{< var <name>--KEY >}}``): "what was measured"
    (``sitepages.measured_md``, the write-up's snapshots) and the caveat legend
    (``sitepages.page_legend_md``, markers numbered by the site's ``order``)."""
    out: dict[Path, str] = {}
    numbers = page_numbers(root)
    for page in pages(root):
        folder = page.parent
        mine = numbers.get(folder.name, {})
        text = page.read_text(errors="replace")
        quoted = page_vars(page.resolve(), Path(root).resolve())
        keys = {k.removesuffix(CELL_SUFFIX) for k in quoted} & set(mine)
        measured, legend = f"{GEN}/{page.stem}-measured.md", f"{GEN}/{page.stem}-caveats.md"
        if measured in text:
            snaps = _snapshots(folder / "raw" / "snapshots")
            out[folder / measured] = (
                _to_root(sitepages.measured_md(mine, None, snaps, keys)) if keys else "No number here yet.\n"
            )
        if legend in text:
            out[folder / legend] = (
                _to_root(sitepages.page_legend_md(mine, keys, order)) if keys else "No number here yet.\n"
            )
    return out


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
