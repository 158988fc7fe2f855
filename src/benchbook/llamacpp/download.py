"""Resumable HTTP(S) downloads, checked against a pinned sha256, with a progress bar.

The bytes go to ``<dest>.part`` first.  An interrupted download keeps the partial file; the next
call asks for the rest with ``Range: bytes=<have>-`` and appends when the server answers ``206``
(a server that ignores ranges answers ``200`` and the file starts over).  Only a complete file
whose sha256 equals the pinned one is moved to ``dest``; a mismatch deletes the partial file.
"""

from __future__ import annotations

import os
import urllib.error
import urllib.request
from pathlib import Path

from .fetch import ChecksumError, sha256_file
from .progress import bar


class DownloadError(RuntimeError):
    """An HTTP(S) download failed; the message names the URL, what was kept and the fix."""


def _part(dest: Path) -> Path:
    return dest.with_name(dest.name + ".part")


def download(
    url: str,
    dest: str | Path,
    sha256: str | None,
    *,
    what: str,
    size: int | None = None,
    timeout: float = 60,
    chunk: int = 1 << 20,
    log=print,
    given_on: str | None = None,
) -> Path:
    """Fetch ``url`` to ``dest`` (resuming ``<dest>.part``) and check its sha256; return ``dest``.

    ``size``: expected bytes (optional; shown in the bar when the server sends no length).
    ``sha256`` None: nothing to compare (``benchbook models add URL`` hashes the result itself).
    ``given_on``: where the user gave ``url`` and ``sha256`` when not in params.yaml (e.g. "the
    `benchbook models add` command line"): the fixes in errors point there.

    Raises:
        DownloadError: HTTP error or the connection broke (bytes kept for the next call named).
        ChecksumError: the complete file's sha256 differs from ``sha256`` (both digests shown; the
            partial file is deleted so the next call starts over).
    """
    dest = Path(dest)
    part = _part(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    have = part.stat().st_size if part.exists() else 0
    headers = {"Range": f"bytes={have}-"} if have else {}
    if have:
        log(f"{what}: resuming {url} at byte {have}")
    try:
        resp = urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=timeout)
    except urllib.error.HTTPError as e:
        if e.code == 416 and have:  # nothing left to send: the partial file is complete
            return _finish(part, dest, sha256, what, url, given_on)
        where = f"the URL on {given_on}" if given_on else "the `url` in params.yaml (models.registry)"
        raise DownloadError(
            f"{what}: GET {url} answered HTTP {e.code} {e.reason}; fix: check {where}"
        ) from None
    except (urllib.error.URLError, OSError) as e:
        where = f"the URL on {given_on}" if given_on else "the `url`"
        raise DownloadError(f"{what}: cannot reach {url} ({e}); fix: check the network and {where}") from None
    with resp:
        if have and resp.status != 206:
            have = 0  # the server ignored the range: start over
        length = resp.headers.get("Content-Length")
        total = have + int(length) if length is not None else size
        got = have
        with open(part, "ab" if have else "wb") as out, bar(total, what, unit="B", initial=have) as b:
            try:
                while block := resp.read(chunk):
                    out.write(block)
                    got += len(block)
                    b.update(len(block))
            except OSError as e:  # IncompleteRead is an HTTPException, not an OSError; both caught
                raise _broken(what, url, part, got, total, e) from None
            except Exception as e:  # noqa: BLE001 - http.client.IncompleteRead and friends
                raise _broken(what, url, part, got, total, e) from None
        if total is not None and got < total:
            raise _broken(what, url, part, got, total, "connection closed early")
    return _finish(part, dest, sha256, what, url, given_on)


def _broken(what: str, url: str, part: Path, got: int, total: int | None, why) -> DownloadError:
    of = f" of {total}" if total is not None else ""
    reason = why if isinstance(why, str) else type(why).__name__
    return DownloadError(
        f"{what}: download of {url} broke after {got}{of} bytes ({reason}); {got} bytes kept "
        f"in {part}; fix: run the same command again to resume"
    )


def _finish(
    part: Path, dest: Path, sha256: str | None, what: str, url: str, given_on: str | None = None
) -> Path:
    actual = sha256_file(part) if sha256 is not None else None
    if sha256 is not None and actual != sha256.lower():
        part.unlink()
        where = (
            f"--sha256 (and the URL) on {given_on}" if given_on else "the `sha256` (and `url`) in params.yaml"
        )
        raise ChecksumError(
            f"{what} from {url}: sha256 mismatch\n  expected {sha256}\n  actual   {actual}\n"
            f"fix: check {where}; the download was deleted"
        )
    os.replace(part, dest)
    return dest
