"""What the audit says of drafted posts, against what it says of their hand-checked claims files
(issue 29: a draft that ties a relating phrase to the wrong sides accuses an honest author).

    PYTHONPATH=src python scripts/draft_verdicts.py [--corpus DIR] [--posts 'h*,p0*']

Every post of the draft corpus (``draft_measure.corpus_posts``: ``X.md`` beside ``X.expected.yaml``)
is drafted as ``benchbook claims draft`` drafts it, and both the draft and the expected file are
audited (``run.audit_file``, no logs: their statements are judged against their own claims).  A
drafted statement judged *inconsistent* is matched to the expected statement of the same kind, value
and source line, its twin:

* **false accusation**: the twin is consistent (or within its precision): the draft's sides are
  wrong and the audit blames a number the author got right -- the figure to drive to zero;
* **catch**: the twin is inconsistent too: an error of the post the draft finds on its own;
* **no twin**: the hand file states no such statement (a todo there, or none); each is listed, to
  read: a wrong side the hand file left a todo is a false accusation too.

Also printed: the expected files' own inconsistent statements (the errors the corpus holds), and
drafts the audit refused (a statement it cannot compute stopped the audit of the whole post).
Prints figures only; the test suite asserts kinds, not these counts.
"""

from __future__ import annotations

import argparse
import collections
import fnmatch
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import draft_measure as dm  # noqa: E402

from benchbook import errors  # noqa: E402
from benchbook.audit import run  # noqa: E402
from benchbook.audit.schema import ClaimsFile  # noqa: E402

_CORPUS = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "draft_corpus"


def _key(cf: ClaimsFile, sid: str) -> tuple[str, str, int | None] | None:
    """A statement's twin key: kind, value as written, source line."""
    s = next((s for s in cf.statements if s.id == sid), None)
    return (s.kind, str(s.value), s.source_line) if s is not None else None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=_CORPUS, help="folder of posts and X.expected.yaml")
    ap.add_argument("--posts", default="*", help="comma-separated globs of post file names")
    args = ap.parse_args(argv)
    count: collections.Counter[str] = collections.Counter()
    accused: list[tuple[str, tuple]] = []
    untwinned: list[tuple[str, tuple]] = []
    caught: list[tuple[str, tuple]] = []
    refused: list[tuple[str, str]] = []
    globs = args.posts.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        for post, expected in dm.corpus_posts(args.corpus):
            if not any(fnmatch.fnmatch(post.name, g) for g in globs):
                continue
            dm.draft_file(post, Path(tmp))
            try:
                drafted = run.audit_file(Path(tmp) / f"{post.stem}.claims.yaml")
            except errors.USER_ERRORS as e:
                refused.append((post.name, str(e)[:160]))
                continue
            hand = run.audit_file(expected)
            twins = {_key(hand.claims, v.id): v.consistency for v in hand.verdicts if v.kind == "statement"}
            count["expected inconsistent"] += sum(
                v.kind == "statement" and v.consistency == "inconsistent" for v in hand.verdicts
            )
            for v in drafted.verdicts:
                if v.kind != "statement":
                    continue
                count["drafted statements"] += 1
                if v.consistency != "inconsistent":
                    continue
                count["drafted inconsistent"] += 1
                twin = twins.get(_key(drafted.claims, v.id))
                if twin == "inconsistent":
                    count["catch"] += 1
                    caught.append((post.name, _key(drafted.claims, v.id) or ()))
                elif twin is None:
                    count["no twin"] += 1
                    untwinned.append((post.name, _key(drafted.claims, v.id) or ()))
                else:
                    count["false accusation"] += 1
                    accused.append((post.name, _key(drafted.claims, v.id) or ()))
    print(f"drafted statements:            {count['drafted statements']}")
    print(f"  judged inconsistent:         {count['drafted inconsistent']}")
    print(f"    false accusations:         {count['false accusation']} (the hand file's twin is consistent)")
    print(
        f"    catches:                   {count['catch']} of the {count['expected inconsistent']} "
        "inconsistent statements of the hand files"
    )
    print(f"    no twin:                   {count['no twin']}")
    print(f"drafts the audit refused:      {len(refused)}")
    for name, key in accused:
        print(f"  false accusation: {name}: {key}")
    for name, key in caught:
        print(f"  catch: {name}: {key}")
    for name, key in untwinned:
        print(f"  no twin: {name}: {key}")
    for name, why in refused:
        print(f"  refused: {name}: {why}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
