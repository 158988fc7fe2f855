"""The write-up workflow: find a registered number by key, and scaffold a page bound to an experiment.

``benchbook numbers [PATTERN]`` lists registered keys with value, unit, n, interval and caveats
(``rows``, ``table``); ``benchbook new-page NAME --experiment EXP`` writes ``NAME.qmd``: the
experiment's "what was measured" block, a table of its numbers (``{{< var KEY__v >}}``, units in
the header) and its caveat legend, and lists the page in ``_quarto.yml`` (``new_page``).
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass
from pathlib import Path

from benchbook import atomicfile

from .numbers import load_all
from .numfmt import fmt_interval
from .sitecheck import CELL_SUFFIX
from .sitewriteups import WRITEUPS, page_key

#: A page name: lowercase letters, digits, ``_`` and ``-`` (it becomes ``NAME.qmd`` and ``NAME.html``).
PAGE_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*")
#: the front-matter line marking a page ``new_page`` wrote: only such a page may be rewritten (``force``);
#: every other page (the site's home, the experiment pages, a hand-written one) is never overwritten
#: the longest page or write-up name (it becomes a file and a folder name, under the file system's 255 bytes)
NAME_MAX = 64


def shown_name(name: str) -> str:
    """``name`` quoted for a message, a long one cut to its first 24 characters (``'aaa…'``)."""
    return repr(name) if len(name) <= NAME_MAX else repr(name[:24]) + "…"


def name_problem(name: str) -> str | None:
    """What is wrong with a page or write-up ``name`` (``PAGE_NAME``, at most ``NAME_MAX`` characters), in
    words with the fix; None when it is fine."""
    if len(name) > NAME_MAX:
        return f"{len(name)} characters, longer than {NAME_MAX}; fix: a shorter name"
    if name and not PAGE_NAME.fullmatch(name[0]) and PAGE_NAME.fullmatch("a" + name[1:]):
        return f"must start with a lowercase letter or a digit, not {name[0]!r}; fix: drop or change it"
    if not PAGE_NAME.fullmatch(name):
        return "use lowercase letters, digits, '_' and '-', starting with a letter or digit"
    return None


MARK = "# written by `benchbook new-page`: --force may rewrite this page"


class WriteupError(ValueError):
    """A pattern matched nothing, a page name is unusable, or the page exists; the message says the fix."""


@dataclass(frozen=True)
class NumberRow:
    """One registered number as an author needs it: ``key`` (for ``{{< var KEY >}}``), ``shown`` (value
    and interval as the pages round them), ``unit``, ``n``, ``interval`` (``[low, high]`` or None),
    ``ci_method``, ``replication`` (None where the registry has none) and ``caveats`` (rule ids)."""

    key: str
    shown: str
    unit: str
    n: int
    interval: list[float] | None
    ci_method: str | None
    replication: str | None
    caveats: list[str]
    experiment: str | None


def rows(numbers_dir: Path, pattern: str | None = None, writeup: str | None = None) -> list[NumberRow]:
    """Registered numbers whose key matches ``pattern`` (a glob when it has ``*?[``, else a substring;
    None: all), sorted by key.  ``writeup``: ``numbers_dir`` is write-up ``writeup``'s registry, and
    keys are as its pages quote them (``sitewriteups.page_key``: ``NAME--KEY``).

    Raises:
        WriteupError: no registry under ``numbers_dir``, or nothing matches ``pattern``.
    """
    nums = load_all(Path(numbers_dir)) if Path(numbers_dir).is_dir() else {}
    if writeup is not None:
        nums = {page_key(writeup, k): n for k, n in nums.items()}
    if not nums:
        raise WriteupError(f"{numbers_dir}: no numbers registry; fix: run the report stages (`dvc repro`)")
    glob = pattern is not None and any(c in pattern for c in "*?[")
    out = []
    for key, n in sorted(nums.items()):
        if pattern is None or (fnmatch.fnmatchcase(key, pattern) if glob else pattern in key):
            out.append(
                NumberRow(
                    key,
                    fmt_interval(n["value"], n.get("ci95")),
                    n.get("unit") or "",
                    int(n["n"]),
                    n.get("ci95"),
                    n.get("ci_method"),
                    n.get("replication"),
                    list(n.get("caveats") or []),
                    n.get("experiment"),
                )
            )
    if not out:
        raise WriteupError(
            f"no registered key matches {pattern!r} ({len(nums)} keys); fix: a substring such as 'spec-self' "
            "or a glob such as 'lb-*-tg64-warm'"
        )
    return out


def table(found: list[NumberRow]) -> str:
    """Plain-text columns: key, value [interval], unit, n, caveats (one number per line)."""
    head = ("key", "value [95% interval]", "unit", "n", "caveats")
    lines = [head] + [(r.key, r.shown, r.unit, str(r.n), ",".join(r.caveats) or "-") for r in found]
    widths = [max(len(line[i]) for line in lines) for i in range(len(head) - 1)]
    return "\n".join(
        "  ".join(cell.ljust(w) for cell, w in zip(line[:-1], widths, strict=True)) + "  " + line[-1]
        for line in lines
    )


def page_legend(name: str) -> str:
    """The generated caveat legend of the new page ``name`` (``site.generate`` writes it for each page
    that includes it, counting over the page's own numbers): ``_generated/page-NAME-caveats.md``."""
    return f"_generated/page-{name}-caveats.md"


def page_measured(name: str) -> str:
    """The generated "What was measured" block of the new page ``name``, over the page's own numbers
    (``site.page_measured``): ``_generated/page-NAME-measured.md``."""
    return f"_generated/page-{name}-measured.md"


def page_source(name: str, experiment: str, found: list[NumberRow]) -> str:
    """The ``.qmd`` text of a new page on ``experiment``: title, what was measured (``page_measured``:
    the hosts, models, sessions and n of the page's own numbers), a table of ``found``
    (one row per number, ``{{< var KEY__v >}}`` cells, the unit in its own column), a prose line with
    ``{{< var KEY >}}`` (value, interval and unit), and the caveat legend of the page's own numbers
    (``page_legend``)."""
    body = [
        f'---\ntitle: "{name}"\n{MARK}\n---\n',
        "## What was measured\n",
        f"{{{{< include {page_measured(name)} >}}}}\n",
        "## Numbers\n",
        f"Numbers of the `{experiment}` experiment (`benchbook numbers` lists every key).\n",
        "| number | value [95% interval] | unit | n |",
        "|---|---|---|---|",
    ]
    body += [f"| `{r.key}` | {{{{< var {r.key}{CELL_SUFFIX} >}}}} | {r.unit or '—'} | {r.n} |" for r in found]
    body += [
        "",
        f"Write prose around a number with its unit: {{{{< var {found[0].key} >}}}}.\n",
        "## Caveats\n",
        f"{{{{< include {page_legend(name)} >}}}}\n",
    ]
    return "\n".join(body)


def add_to_quarto(root: Path, page: str) -> bool:
    """Add ``page`` to ``project.render`` of ``root/_quarto.yml`` as a new list line after the last
    render entry (the file's other bytes unchanged); False when it is listed already.

    Raises:
        WriteupError: ``_quarto.yml`` has no ``render:`` list.
    """
    cfg = Path(root) / "_quarto.yml"
    lines = cfg.read_text().splitlines(keepends=True)
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == "render:")
    except StopIteration:
        raise WriteupError(f"{cfg}: no project.render list; fix: add `render:` with the pages") from None
    end = start + 1
    while end < len(lines) and lines[end].lstrip().startswith("- "):
        if lines[end].split("#")[0].strip()[2:].strip() == page:
            return False
        end += 1
    indent = (
        lines[start + 1][: len(lines[start + 1]) - len(lines[start + 1].lstrip())]
        if end > start + 1
        else "    "
    )
    lines.insert(end, f"{indent}- {page}\n")
    atomicfile.write_text(cfg, "".join(lines))
    return True


def new_page(
    root: Path,
    name: str,
    experiment: str,
    pattern: str | None = None,
    *,
    force: bool = False,
    writeup: str | None = None,
    numbers_dir: Path | None = None,
) -> Path:
    """Write ``root/NAME.qmd`` bound to ``experiment``'s numbers (those matching ``pattern`` when given)
    and list it in ``_quarto.yml``; return its path.  ``writeup``: the page is
    ``writeups/<writeup>/NAME.qmd`` over that write-up's registry (``numbers_dir``), its keys
    ``<writeup>--KEY`` and its generated parts in the write-up's ``_generated/`` (``sitewriteups``),
    rendered by the glob ``writeups/*/*.qmd``.

    Raises:
        WriteupError: ``name`` is not ``[a-z0-9][a-z0-9_-]*``; the page exists and ``new_page`` did not
            write it (``MARK``: never overwritten), or exists without ``force``; the experiment is not
            registered (the known ones listed) or has no number matching ``pattern``.
    """
    if problem := name_problem(name):
        raise WriteupError(f"page name {shown_name(name)}: {problem} (it becomes NAME.qmd)")
    folder = Path(root) / WRITEUPS / writeup if writeup else Path(root)
    numbers_dir = numbers_dir or Path(root) / "reports" / "numbers"
    path = folder / f"{name}.qmd"
    if path.exists() and MARK not in path.read_text(errors="replace").split("\n---", 1)[0]:
        raise WriteupError(
            f"{path} exists and was not written by `benchbook new-page` (a page of the site or your own): "
            "it is never overwritten, --force included; fix: choose another NAME"
        )
    if path.exists() and not force:
        raise WriteupError(
            f"{path} exists; fix: choose another NAME, or pass --force to rewrite it (your edits to it "
            "are lost)"
        )
    every = rows(numbers_dir, None, writeup)
    known = sorted({r.experiment for r in every if r.experiment})
    if experiment not in known:
        raise WriteupError(
            f"experiment {experiment!r} has no registered numbers; known experiments: "
            f"{', '.join(known) or 'none (run the pipeline first)'}; fix: --experiment one of them"
        )
    found = [r for r in rows(numbers_dir, pattern, writeup) if r.experiment == experiment]
    if not found:
        raise WriteupError(
            f"experiment {experiment!r} has no registered number matching {pattern!r}; fix: "
            f"`benchbook numbers {pattern}` lists the matching keys and their experiments"
        )
    text = page_source(name, experiment, found)
    if writeup:  # the write-up's own generated parts, beside the page (sitewriteups.pages_parts)
        text = text.replace(page_measured(name), f"_generated/{name}-measured.md")
        text = text.replace(page_legend(name), f"_generated/{name}-caveats.md")
    atomicfile.write_text(path, text)
    add_to_quarto(Path(root), "writeups/*/*.qmd" if writeup else path.name)
    return path
