"""The site's renderer as an input of the site stage: which one builds the pages and its version.

``quarto`` when it is on PATH, otherwise the offline fallback ``smalldocs`` (PyPI).  The two write the
same pages in different forms (link prefixes, stylesheet rules), so a site built by one is not the site
the other would build.  The stage ``site_renderer`` (``python -m benchbook.siterenderer``, DVC
``always_changed``: it runs on every ``dvc repro`` and takes a fraction of a second) writes ``RECORD``,
whose text changes only when the renderer or its version does; the ``site`` stage depends on it, so a
clone built once with the fallback is rebuilt when Quarto appears on PATH, and not otherwise.

``RECORD`` is a Quarto metadata file (``_quarto.yml``: ``metadata-files: [reports/site/renderer.yml]``,
merged into the project's configuration by both renderers: quarto-cli ``src/config/metadata.ts``
``includedMetadata``, smalldocs ``config.load``) holding the page footer that names the renderer and
its version, so every page says what built it.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

from benchbook import atomicfile

#: the record the ``site_renderer`` stage writes and the ``site`` stage depends on (repository-relative)
RECORD = "reports/site/renderer.yml"
#: what each renderer is, for the footer
ABOUT = {"quarto": "Quarto", "smalldocs": "smalldocs, the offline fallback for Quarto (PyPI)"}


class RendererError(RuntimeError):
    """The renderer cannot say its version; the message names the command and the fix."""


@dataclass(frozen=True)
class Renderer:
    """The renderer the site is built with: ``name`` (``quarto`` or ``smalldocs``), the ``path`` of its
    executable and its ``version`` as it prints it (``1.7.34``, ``0.5.4``)."""

    name: str
    path: str
    version: str


def which() -> tuple[str, str]:
    """``("quarto", path)`` when quarto is on PATH, else ``("smalldocs", path)`` (on PATH, or beside this
    Python)."""
    q = shutil.which("quarto")
    if q:
        return "quarto", q
    sd = shutil.which("smalldocs") or str(Path(sys.executable).with_name("smalldocs"))
    return "smalldocs", sd


def version(exe: str) -> str:
    """The version ``exe --version`` prints: the last word of its first line (``quarto --version`` prints
    ``1.7.34``, ``smalldocs --version`` prints ``smalldocs 0.5.4``).

    Raises:
        RendererError: the command fails, cannot run or prints nothing.
    """
    try:
        proc = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise RendererError(f"{exe} --version: {e}; fix: reinstall the renderer, or take it off PATH") from e
    words = (proc.stdout.strip().splitlines() or [""])[0].split()
    if proc.returncode != 0 or not words:
        raise RendererError(
            f"{exe} --version exited {proc.returncode} and printed {proc.stdout[:200]!r}; "
            "fix: reinstall the renderer, or take it off PATH"
        )
    return words[-1]


def find() -> Renderer:
    """The renderer ``which`` finds, with its ``version``.

    Raises:
        RendererError: see ``version``.
    """
    name, path = which()
    return Renderer(name, path, version(path))


def footer(renderer: Renderer) -> str:
    """The page footer (Markdown) naming the renderer and its version:
    ``Built by Quarto 1.7.34.`` or ``Built by smalldocs 0.5.4 (…fallback…).``"""
    about = ABOUT.get(renderer.name, renderer.name)
    head, _, rest = about.partition(", ")
    return f"Built by {head} {renderer.version}" + (f" ({rest})." if rest else ".")


def record_text(renderer: Renderer) -> str:
    """``RECORD``'s text for ``renderer``: a comment naming it, and ``website.page-footer.center``
    (``footer``); the same renderer and version always give the same text (no date, no path)."""
    head = (
        "# written by benchbook.siterenderer (stage site_renderer): the renderer the site is built with.\n"
        f"# renderer: {renderer.name} {renderer.version}\n"
    )
    body = {"website": {"page-footer": {"center": footer(renderer)}}}
    return head + yaml.safe_dump(body, allow_unicode=True, sort_keys=False, width=10_000)


def write(root: Path, renderer: Renderer | None = None) -> Path:
    """Write ``root/RECORD`` for ``renderer`` (default: ``find()``) when its text differs (a file
    rewritten with the same text would still look changed to a tool that reads modification times);
    return its path.

    Raises:
        RendererError: see ``version``.
    """
    path = Path(root) / RECORD
    text = record_text(renderer or find())
    if not path.is_file() or path.read_text() != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomicfile.write_text(path, text)
    return path


#: the project file of the pages of files audited on their own: a website of those pages alone, with
#: the site's stylesheet (verdict colours, wide tables) copied beside it (``STYLESHEET``)
ADHOC_PROJECT = (
    "# written by `benchbook audit`: renders the pages of claims files audited on their own\n"
    "project:\n  type: website\n  output-dir: _site\nformat:\n  html:\n    theme: cosmo\n"
    "    css: benchbook.css\n"
)
#: the site's stylesheet (``_quarto.yml``'s ``format.html.css``), in the repository the package runs from
STYLESHEET = Path(__file__).resolve().parents[2] / "benchbook.css"


def render_pages(pages: Path, names: list[str]) -> Path | None:
    """Render the pages ``<pages>/<name>.qmd`` of files audited on their own to HTML with the site's
    renderer (``siterenderer.which``: Quarto on PATH, else the offline fallback), in a project of
    their own in the cache (``<cache>/audit-pages/<digest of the pages folder and the names>/``: one
    project per page where ``benchbook audit`` renders each apart, so two posts of one folder never
    share one: ``_quarto.yml``
    and copies of the pages), never inside the repository: rendered beside the pages, under
    ``reports/``, their ``_site/site_libs`` scripts were copied into the site's ``_site`` by its
    ``reports/**/*.js`` resources and failed ``make run``'s offline check (a new user's finding).
    Returns that project's ``_site`` folder, or None (a line to stderr says why) when the renderer
    is missing or fails: the ``.qmd`` pages and the records stay."""
    import hashlib
    import shutil
    import subprocess

    from .paths import cache_dir

    digest = hashlib.sha256("\n".join([str(pages.resolve()), *sorted(names)]).encode()).hexdigest()[:16]
    project = cache_dir() / "audit-pages" / digest
    project.mkdir(parents=True, exist_ok=True)
    if STYLESHEET.is_file():  # an installed package without the repository: Quarto's theme alone
        shutil.copyfile(STYLESHEET, project / STYLESHEET.name)
        (project / "_quarto.yml").write_text(ADHOC_PROJECT)
    else:
        (project / "_quarto.yml").write_text(ADHOC_PROJECT.replace("    css: benchbook.css\n", ""))
    for name in names:
        shutil.copyfile(pages / f"{name}.qmd", project / f"{name}.qmd")
    name, exe = which()
    try:
        out = subprocess.run([exe, "render", str(project)], capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as e:
        print(f"benchbook: the pages in {pages}/ were not rendered ({name}: {e})", file=sys.stderr)
        return None
    if out.returncode != 0:
        why = (out.stderr or out.stdout).strip().splitlines()[-1:] or ["no output"]
        print(f"benchbook: the pages in {pages}/ were not rendered ({name}: {why[0]})", file=sys.stderr)
        return None
    return project / "_site"


def main() -> int:
    """The stage ``site_renderer``: write the record of the repository this runs in and print it."""
    from .paths import repo_root

    found = find()
    path = write(repo_root(), found)
    print(f"site renderer: {found.name} {found.version} ({found.path}) -> {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
