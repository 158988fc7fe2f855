"""Resumable HTTP(S) downloads, checked against a pinned sha256, with a progress bar.

The bytes go to ``<dest>.part`` first.  An interrupted download keeps the partial file; the next
call asks for the rest with ``Range: bytes=<have>-`` and appends when the server answers ``206``
(a server that ignores ranges answers ``200`` and the file starts over).  Only a complete file
whose sha256 equals the pinned one is moved to ``dest``; a mismatch deletes the partial file.

A partial file is keyed by what it is a part of: ``<dest>.part.source.json`` records its URL and the
server's validators (``ETag``, ``Last-Modified``).  A resume asks for the rest only of the same URL, with
``If-Range`` (a changed file answers ``200`` with the whole new body); a partial file of another URL,
or one with no record (an older benchbook's), is started over, so the bytes of two files are never
joined (an interrupted ``models add URL1`` then ``models add URL2`` with the same file name did that).
So is a partial file of a server that sent no validator when no sha256 is pinned (a changed file could
not be told from the same one), and a ``206`` whose ``Content-Range`` does not start at the byte asked.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from pathlib import Path

from .. import atomicfile
from .fetch import ChecksumError, sha256_file
from .progress import bar


class DownloadError(RuntimeError):
    """An HTTP(S) download failed; the message names the URL, what was kept and the fix."""


def _part(dest: Path) -> Path:
    return dest.with_name(dest.name + ".part")


def _source_file(part: Path) -> Path:
    """Where the URL and validators of ``part`` are recorded."""
    return part.with_name(part.name + ".source.json")


def _source(part: Path) -> dict:
    """The recorded source of ``part`` (``{}``: none, or unreadable)."""
    try:
        rec = json.loads(_source_file(part).read_text())
    except (OSError, ValueError):
        return {}
    return rec if isinstance(rec, dict) else {}


def _drop(part: Path) -> None:
    part.unlink(missing_ok=True)
    _source_file(part).unlink(missing_ok=True)


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
    known = _source(part) if have else {}
    if have and known.get("url") != url:
        was = f"of {known['url']}" if known.get("url") else "of an unrecorded URL"
        log(f"{what}: the partial download in {part} is {was}, not {url}: starting over")
        _drop(part)
        have, known = 0, {}
    validator = known.get("etag") or known.get("last_modified")
    if have and not validator and sha256 is None:
        # nothing tells a changed file from the same one (no ETag/Last-Modified, no pinned sha256): a
        # resume could join two versions' bytes under a sha256 neither has, and nothing would notice
        log(f"{what}: {url} sent no ETag or Last-Modified and no sha256 is pinned: starting over")
        _drop(part)
        have, known = 0, {}
    headers = {"Range": f"bytes={have}-"} if have else {}
    if have and validator:
        headers["If-Range"] = validator  # a changed file: 200 and the whole new body, never a splice
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
            have = 0  # the server ignored the range, or the file changed (If-Range): start over
        got_range = resp.headers.get("Content-Range")
        if have and got_range and not got_range.startswith(f"bytes {have}-"):
            have = 0  # a 206 of another range than the one asked for: never appended
            _drop(part)
            resp.close()
            return download(
                url,
                dest,
                sha256,
                what=what,
                size=size,
                timeout=timeout,
                chunk=chunk,
                log=log,
                given_on=given_on,
            )
        etag, modified = resp.headers.get("ETag"), resp.headers.get("Last-Modified")
        if have and known.get("etag") and etag and etag != known["etag"]:
            # a 206 of another version of the file (a server that ignored If-Range): start over
            log(f"{what}: {url} changed since the partial download (ETag {known['etag']} -> {etag})")
            _drop(part)
            resp.close()
            return download(
                url,
                dest,
                sha256,
                what=what,
                size=size,
                timeout=timeout,
                chunk=chunk,
                log=log,
                given_on=given_on,
            )
        atomicfile.write_text(
            _source_file(part), json.dumps({"url": url, "etag": etag, "last_modified": modified})
        )
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
        _drop(part)
        where = (
            f"--sha256 (and the URL) on {given_on}" if given_on else "the `sha256` (and `url`) in params.yaml"
        )
        raise ChecksumError(
            f"{what} from {url}: sha256 mismatch\n  expected {sha256}\n  actual   {actual}\n"
            f"fix: check {where}; the download was deleted"
        )
    os.replace(part, dest)
    _source_file(part).unlink(missing_ok=True)
    return dest
