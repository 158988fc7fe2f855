"""``benchbook audit`` (also ``python -m benchbook.audit``, the DVC stage's command).

    benchbook audit CLAIMS.yaml... [--logs DIR] [--pair SPEC=BASELINE]... [--out DIR] [--pages DIR] [--check]
    benchbook audit --all data/claims [--out reports/audit] [--pages audits]
    benchbook audit POST.md [...]      (a post: drafted into POST.claims.yaml beside it, then audited)
    benchbook audit - < POST.md        (a post on stdin: drafted into ./post.claims.yaml, then audited)

Writes one verdict record per claim, statement and log entry to ``<out>/<claims stem>.jsonl`` and one
page per claims file to ``<pages>/<claims stem>.qmd`` (``--all`` also ``<pages>/index.qmd``).  The
defaults: ``reports/audit`` and ``audits`` with ``--all`` (the ``audit`` stage, whose outputs the site
renders and which removes pages of files not in its folder); otherwise a folder of each file's own in
the cache, ``<cache>/audits/<digest of the file's path>/`` (``adhoc_folder``: a file audited on its own
writes nothing in the working folder, and a post nothing beside it but its draft, ``POST.claims.yaml``
and ``POST.claims.logs/``; two posts of one folder never share a folder), unless ``--out`` names one
(a file audited on its own is not on the site: put it in ``data/claims`` for that).  Without
``--logs``, the raw logs of ``X.yaml`` are read from the folder ``X.logs/`` beside it when there is one
(``run.logs_beside``): that is how the ``audit`` stage checks claims with ``log:``.  It
prints, per claims file, a line naming the file and the records it was checked against, then a
tab-separated table (id, kind, stated, recomputed, difference and difference %, verdict,
reproducible here: ``terminal``) to stdout, and the time taken to stderr.  "Reproducible here" is
judged against ``params.yaml`` ``audit.here`` and ``models.registry`` when ``params.yaml`` is in the
working folder.  Exit status: 0 whatever the
verdicts (``--check``: 1 where any is inconsistent, for a check in CI); 2 on malformed input (one
``benchbook: error:`` line naming file:line, the field and the fix).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

import yaml

from .. import errors
from . import run, terminal, toolgap
from .draftfile import draft_post, read_post, read_stdin, summary
from .recompute import INCONSISTENT
from .schema import load
from .verdicts import Here

#: Where ``--all`` (the ``audit`` stage) writes records and pages: stage outputs, rendered by the site.
STAGE_OUT, STAGE_PAGES = "reports/audit", "audits"
#: Where a claims file audited on its own writes both without --out: a folder of its own in the cache
ADHOC = "<cache>/audits/<digest>"


def adhoc_folder(path: str | Path) -> Path:
    """The folder of records and page of a claims file audited on its own without ``--out``:
    ``<cache>/audits/<first 16 hex digits of the sha256 of its resolved path>/`` (``paths.cache_dir``),
    one per file: nothing is written in the working folder or beside a post but its draft (a new user's
    ``benchbook audit POST.md`` left ``reports/audit-adhoc/`` in the folder it ran in).

    Raises:
        OSError: the cache folder cannot be made (``paths.cache_dir``).
    """
    import hashlib

    from ..paths import cache_dir

    digest = hashlib.sha256(str(Path(path).resolve()).encode()).hexdigest()[:16]
    return cache_dir() / "audits" / digest


def where(args: argparse.Namespace, path: str | Path) -> tuple[Path, Path]:
    """``(records folder, pages folder)`` of the claims file ``path``: ``--out`` and ``--pages`` (the
    pages beside the records where only ``--out`` is given), else its ``adhoc_folder`` for each."""
    out = Path(args.out) if args.out else adhoc_folder(path)
    return out, Path(args.pages) if args.pages else out


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="benchbook audit", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "files",
        nargs="*",
        help="claims files (docs/claims.md), or posts to draft one from (POST.md, .txt, .html; - for stdin)",
    )
    ap.add_argument(
        "--logs", default=None, help="folder of raw llama.cpp outputs (what `benchbook ingest` reads)"
    )
    ap.add_argument(
        "--link",
        default=None,
        help="where the one post named was published (as `benchbook claims draft --link`: source.link, "
        "an engine's repository the engine of a post naming none)",
    )
    ap.add_argument(
        "--pair",
        action="append",
        default=[],
        metavar="SPEC=BASELINE",
        help="a speculative log and its baseline log (file names under --logs); repeatable",
    )
    ap.add_argument(
        "--all", default=None, metavar="DIR", help="audit every *.yaml and *.yml of DIR (the DVC stage)"
    )
    ap.add_argument(
        "--check",
        action="store_true",
        help="exit 1 where any verdict is inconsistent (a check in CI); without it the exit status is 0 "
        "whatever the verdicts, 2 on malformed input",
    )
    ap.add_argument(
        "--out",
        default=None,
        help=f"folder for the verdict records (JSONL; default {STAGE_OUT} with --all, else {ADHOC} per file)",
    )
    ap.add_argument(
        "--pages",
        default=None,
        help=f"folder for the audit pages (.qmd; default {STAGE_PAGES} with --all, else --out, else {ADHOC})",
    )
    return ap


def _pairs(items: list[str]) -> dict[str, str]:
    pairs = {}
    for p in items:
        spec, sep, base = p.partition("=")
        if not sep or not spec or not base:
            raise ValueError(f"--pair {p!r}: write SPEC_LOG=BASELINE_LOG (file names under --logs)")
        pairs[spec] = base
    return pairs


def here_of(params: Path = Path("params.yaml")) -> tuple[Here, str]:
    """What "reproducible here" is judged against, and where it came from: ``params`` (``audit.here``
    and ``models.registry``) when it exists, else the defaults of ``Here``; the label says "defaults"
    where ``params`` has no ``audit.here`` (it named ``params.yaml audit.here`` for values it lacked).
    ``Here.tool_gap``: the tool_gap registry beside ``params`` (``toolgap.REGISTRY``), when present.

    Raises:
        ValueError: ``audit.here`` holds a string where a list is needed (``Here.from_params``);
            ``params`` is not UTF-8 or not YAML (names the file and the fix).
    """
    gap = toolgap.read_registry(params.parent / toolgap.REGISTRY)  # the measured tool gap, if any
    if params.exists():
        text = errors.read_utf8(
            params, "", "save it as UTF-8 text or compare with the committed file (`git diff params.yaml`)"
        )
        try:
            data = yaml.safe_load(text) or {}
        except yaml.YAMLError as e:
            raise ValueError(
                f"{params}: not YAML ({str(e).splitlines()[0]}); fix: restore it from git "
                "(`git restore params.yaml`) or correct the line named"
            ) from None
        here = replace(Here.from_params(data), tool_gap=gap)
        if not (data.get("audit") or {}).get("here"):
            return here, f"defaults: {params} has no audit.here"
        return here, f"{params} audit.here"
    return Here(tool_gap=gap), f"defaults: no {params} in this folder"


#: suffixes of a claims file; any other file named to ``benchbook audit`` is a post, drafted first
CLAIMS_SUFFIXES = (".yaml", ".yml")


def claims_of(name: str, link: str | None = None) -> str:
    """The claims file to audit for ``name``: itself, or for a post (a file not ending in
    ``CLAIMS_SUFFIXES``: Markdown, text, HTML) the claims file drafted beside it
    (``draftfile.draft_post``: reviewed entries of an earlier draft kept), for ``-`` the post read
    from stdin, drafted into ``post.claims.yaml`` in the working folder (as ``benchbook claims draft
    -``); ``link`` where the post was published (``draft.draft_text``); the guessed entries printed to
    stderr.

    Raises:
        ValueError: a missing post or one that cannot be drafted (binary, too large: names it and the
            fix).
    """
    text = None
    if name == "-":  # a post piped in: drafted into post.claims.yaml in the working folder
        text = read_stdin()
    elif Path(name).suffix.lower() in CLAIMS_SUFFIXES or not Path(name).is_file():
        return name  # a claims file, or no file at all (the audit names what stands there)
    out, drafted, guessed = draft_post(name, None, text, link)
    print("\n".join(summary(name, out, drafted, guessed)), file=sys.stderr)
    return str(out)


def check_inputs(names: list[str]) -> None:
    """Read every file named to ``benchbook audit`` before anything is drafted or written: a claims
    file (``CLAIMS_SUFFIXES``; or what is no file) must load (``schema.load``), a post must read as the
    drafter reads it (``draftfile.read_post``: not binary, not too large); ``-`` (stdin) is read
    later, once.  So
    ``benchbook audit a.md b.md`` with a bad ``b.md`` refuses both and writes no ``a.claims.yaml``.

    Raises:
        ValueError, OSError, schema.ClaimsError: the first file that cannot be read (names it and the
            fix, as the audit or the drafter would).
    """
    for name in names:
        if name == "-":
            continue
        path = Path(name)
        if path.suffix.lower() in CLAIMS_SUFFIXES or not path.is_file():
            load(path)  # a claims file, or no file at all (a folder, a missing path: named as the audit does)
        else:
            read_post(path)


def audit(args: argparse.Namespace) -> list[run.Audit]:
    """Run the audit the parsed ``args`` ask for; returns the audits (records and pages written).

    Raises:
        ValueError: malformed input or options (ClaimsError, LogsError, IngestError, RecomputeError).
    """
    here, _ = here_of()
    if args.all:
        if args.files or args.logs:
            raise ValueError(
                "--all DIR audits every claims file of DIR on its own; drop the files and --logs "
                "(the logs of DIR/X.yaml go in the folder DIR/X.logs/)"
            )
        return run.audit_dir(args.all, args.out, args.pages, here)
    if not args.files:
        raise ValueError("name a claims file (benchbook audit data/claims/X.yaml) or --all data/claims")
    if args.files.count("-") > 1:
        raise ValueError("- (a post on stdin) named twice; fix: name it once, other posts by their files")
    if args.link and len(args.files) != 1:
        raise ValueError("--link names where one post was published; fix: audit that post alone with it")
    check_inputs(args.files)  # a bad file refuses the run before any post's draft is written
    files = [claims_of(f, args.link) for f in args.files]
    audits = [run.audit_file(f, args.logs, _pairs(args.pair), here) for f in files]
    names = run.slugs([a.path for a in audits])  # two files of one name never overwrite each other
    for a in audits:
        out, pages = where(args, a.path)
        run.write(a, out, pages, names[a.path], source=str(a.path))
    return audits


def main(argv: list[str] | None = None, render=None) -> int:
    """Parse ``argv``, audit, print the summary; 0 on success whatever the verdicts, 2 on malformed
    input; with ``--check``, 1 where a verdict is inconsistent (the summary names how many).  ``render``:
    ``(pages folder, page names) -> folder of HTML pages | None``, for the pages of files audited on
    their own (``benchbook audit`` passes ``siterenderer.render_pages``; the site layer is above this
    one); None renders nothing."""
    args = parser().parse_args(argv)
    if args.all:
        args.out, args.pages = args.out or STAGE_OUT, args.pages or STAGE_PAGES
    t = time.monotonic()
    try:
        audits = audit(args)
    except errors.USER_ERRORS as e:  # bad input, a folder given as a file, an unwritable --out: one line
        return errors.report(e)
    here, here_from = here_of()
    for a in audits:
        print("\n".join(terminal.lines(a, here, here_from)))
    n = sum(len(a.verdicts) for a in audits)
    names = run.slugs([a.path for a in audits])
    dirs = [(args.out, args.pages)] * len(audits) if args.all else [where(args, a.path) for a in audits]
    # each page rendered in a project of its own (two posts of one folder shared one)
    sites = [
        None if args.all or render is None else render(p, [names[a.path]])
        for a, (_, p) in zip(audits, dirs, strict=True)
    ]
    shown = ", ".join(str(s / f"{names[a.path]}.html") for a, s in zip(audits, sites, strict=True) if s)
    outs = ", ".join(dict.fromkeys(f"{o}/" for o, _ in dirs))
    pages = ", ".join(dict.fromkeys(f"{p}/" for _, p in dirs))
    print(
        f"audited {n} claims/statements/log entries of {len(audits)} file(s) "
        f"in {time.monotonic() - t:.2f} s; "
        + (f"records and pages in {outs}" if outs == pages else f"records in {outs}, pages in {pages}")
        + (f"; open {shown}" if shown else ""),
        file=sys.stderr,
    )
    if args.check:
        bad = [f"{a.path}: {v.id}" for a in audits for v in a.verdicts if v.consistency == INCONSISTENT]
        if bad:
            print(f"--check: {len(bad)} inconsistent verdict(s): " + ", ".join(bad[:10]), file=sys.stderr)
            return 1
    return 0
