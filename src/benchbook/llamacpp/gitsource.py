"""A llama.cpp source from a local git checkout (upstream or a fork): ``toolchain.source: {git: PATH,
ref: BRANCH_OR_COMMIT, label: NAME}``.

``ref`` is resolved to a commit.  When that commit is the checkout's ``HEAD``, the build uses the
working tree as it is, so uncommitted changes count: their hash (``diff_sha256``: sha256 over
``git diff HEAD --binary`` and the untracked, non-ignored files' names and bytes) joins the commit in
the build's identity.  Another commit is exported with ``git archive`` (clean).  The identity —
commit + diff hash — takes the place of the sdist's sha256 in the toolchain cache key, and the
record names the checkout, ref, commit, branch, diff hash and the label, which pages show so that a
fork's numbers are never taken for mainline's.
"""

from __future__ import annotations

import hashlib
import io
import shutil
import subprocess
import tarfile
from dataclasses import dataclass
from pathlib import Path

from benchbook import atomicfile


class GitSourceError(RuntimeError):
    """The checkout or ref cannot be used; the message names ``toolchain.source`` and the fix."""


def _git(path: Path, *args: str, binary: bool = False):
    r = subprocess.run(["git", "-C", str(path), *args], capture_output=True, text=not binary)
    if r.returncode != 0:
        err = r.stderr if not binary else r.stderr.decode(errors="replace")
        raise GitSourceError(
            f"toolchain.source.git {path}: `git {' '.join(args)}` failed: {err.strip()[:300]}; "
            "fix: point `git` at a llama.cpp checkout and `ref` at one of its branches or commits"
        )
    return r.stdout


@dataclass(frozen=True)
class GitSource:
    """A resolved git source: checkout path, ref as written, label, full commit, branch (or None),
    hash of uncommitted changes (None: clean or not HEAD), build number (commit count)."""

    path: Path
    ref: str
    label: str
    commit: str
    branch: str | None
    diff_sha256: str | None
    build_number: int

    @property
    def identity(self) -> str:
        """What the cache key hashes in place of a source sha256."""
        return f"git:{self.commit}+{self.diff_sha256 or 'clean'}"

    @property
    def build_commit(self) -> str:
        """The commit as the binaries report it: 8 hex digits, ``-dirty`` with uncommitted changes."""
        return self.commit[:8] + ("-dirty" if self.diff_sha256 else "")

    def record(self) -> dict:
        return {
            "git": str(self.path),
            "ref": self.ref,
            "commit": self.commit,
            "branch": self.branch,
            "diff_sha256": self.diff_sha256,
            "label": self.label,
        }


def diff_sha256(path: Path) -> str | None:
    """sha256 of the checkout's uncommitted changes (tracked diff against HEAD, then each untracked
    non-ignored file's name and bytes); None when there are none."""
    diff = _git(path, "diff", "HEAD", "--binary", binary=True)
    untracked = sorted(_git(path, "ls-files", "--others", "--exclude-standard", "-z").split("\0"))
    untracked = [u for u in untracked if u]
    if not diff and not untracked:
        return None
    h = hashlib.sha256(diff)
    for name in untracked:
        h.update(b"\0untracked\0" + name.encode() + b"\0")
        h.update((path / name).read_bytes())
    return h.hexdigest()


def resolve(path: str | Path, ref: str | None, label: str) -> GitSource:
    """Resolve ``ref`` (default ``HEAD``) in the checkout at ``path``.

    Raises:
        GitSourceError: not a git checkout, unknown ref, or an empty label.
    """
    path = Path(path).expanduser().resolve()
    if not label:
        raise GitSourceError(
            "toolchain.source.label is empty; fix: name the build (e.g. the fork's name), it is "
            "shown with every number measured with it"
        )
    if not (path / ".git").exists():
        raise GitSourceError(
            f"toolchain.source.git {path} is not a git checkout; fix: the folder you cloned "
            "llama.cpp (or the fork) into"
        )
    ref = ref or "HEAD"
    commit = _git(path, "rev-parse", "--verify", f"{ref}^{{commit}}").strip()
    head = _git(path, "rev-parse", "HEAD").strip()
    is_branch = (
        subprocess.run(["git", "-C", str(path), "show-ref", "--verify", "-q", f"refs/heads/{ref}"]).returncode
        == 0
    )
    branch: str | None
    if is_branch:
        branch = ref
    elif commit == head:
        branch = _git(path, "rev-parse", "--abbrev-ref", "HEAD").strip()
        branch = None if branch == "HEAD" else branch
    else:
        branch = None
    count = int(_git(path, "rev-list", "--count", commit).strip())
    return GitSource(path, ref, label, commit, branch, diff_sha256(path) if commit == head else None, count)


def source_tree(src: GitSource, dest: Path) -> Path:
    """The tree to build: the checkout itself when the commit is its HEAD (uncommitted changes
    included), else ``git archive`` of the commit extracted into ``dest`` (reused when complete)."""
    if src.commit == _git(src.path, "rev-parse", "HEAD").strip():
        return src.path
    if (dest / ".complete").exists():
        return dest
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    blob = _git(src.path, "archive", "--format=tar", src.commit, binary=True)
    with tarfile.open(fileobj=io.BytesIO(blob)) as tf:
        tf.extractall(dest, filter="data")
    atomicfile.write_text(dest / ".complete", src.commit + "\n")
    return dest
