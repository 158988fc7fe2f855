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

A server may ignore ``If-Range`` and send no ``ETag`` (issue 34 §5 leftover): a ``206`` is then checked
against the record of the partial file - the whole file's size (``Content-Range: bytes a-b/TOTAL``, else
``have + Content-Length``), ``Last-Modified`` and the range's first byte (``have``) - and any difference
means the remote file is not the one the partial file is a part of: the download starts over.  A
resumed download whose complete file misses the pinned sha256 (a change no header showed) is started
over once, then checked again.  A partial file of a server that sent no validator is started over
before any request when no sha256 is pinned: a changed file of the same size could not be told from
the same one, and nothing would check the joined bytes.
"""

from __future__ import annotations

import json
import os
import re
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


#: ``Content-Range: bytes FIRST-LAST/TOTAL`` (RFC 9110 §14.4; TOTAL ``*`` when the server does not know it)
_CONTENT_RANGE = re.compile(r"bytes\s+(\d+)-(\d+)/(\d+|\*)")


def _changed(known: dict, have: int, headers) -> str | None:
    """Why a ``206`` answer to ``Range: bytes=<have>-`` is not the rest of the file the partial file is
    a part of (``known``: its record), or None when nothing says so: another ``ETag`` or
    ``Last-Modified``, another total size, or a range that does not start at ``have``."""
    etag, modified = headers.get("ETag"), headers.get("Last-Modified")
    if known.get("etag") and etag and etag != known["etag"]:
        return f"ETag {known['etag']} -> {etag}"
    if known.get("last_modified") and modified and modified != known["last_modified"]:
        return f"Last-Modified {known['last_modified']} -> {modified}"
    m = _CONTENT_RANGE.fullmatch((headers.get("Content-Range") or "").strip())
    if m and int(m.group(1)) != have:
        return f"the server sent bytes from {m.group(1)}, not from {have}"
    total = _total(headers, have, 206)
    if known.get("total") is not None and total is not None and total != known["total"]:
        return f"size {known['total']} -> {total} bytes"
    return None


def _total(headers, have: int, status: int) -> int | None:
    """The whole file's size from a response: ``Content-Range``'s total on a ``206`` (else ``have`` +
    ``Content-Length``), ``Content-Length`` on a ``200``; None when not stated."""
    if status == 206:
        m = _CONTENT_RANGE.fullmatch((headers.get("Content-Range") or "").strip())
        if m and m.group(3) != "*":
            return int(m.group(3))
    length = headers.get("Content-Length")
    if length is None or not length.strip().isdigit():
        return None
    return (have if status == 206 else 0) + int(length)


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
    again = dict(what=what, size=size, timeout=timeout, chunk=chunk, log=log, given_on=given_on)
    try:
        resp = urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=timeout)
    except urllib.error.HTTPError as e:
        if e.code == 416 and have:
            # nothing left to send: the partial file is complete - if its size is the whole file's
            m = re.fullmatch(r"bytes\s+\*/(\d+)", (e.headers.get("Content-Range") or "").strip())
            total = int(m.group(1)) if m else known.get("total")
            if total is None or total == have:
                return _finish(part, dest, sha256, what, url, given_on)
            why = f"size {have} -> {total} bytes"
            log(f"{what}: {url} changed since the partial download ({why}): starting over")
            _drop(part)
            return download(url, dest, sha256, **again)
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
        etag, modified = resp.headers.get("ETag"), resp.headers.get("Last-Modified")
        if have and (changed := _changed(known, have, resp.headers)):
            # a 206 of another version of the file (a server that ignored If-Range): start over
            log(f"{what}: {url} changed since the partial download ({changed}): starting over")
            _drop(part)
            resp.close()
            return download(url, dest, sha256, **again)
        total = _total(resp.headers, have, 206 if have else 200)
        atomicfile.write_text(
            _source_file(part),
            json.dumps({"url": url, "etag": etag, "last_modified": modified, "total": total}),
        )
        total = total if total is not None else size
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
    actual = sha256_file(part) if sha256 is not None else None
    if have and sha256 is not None and actual != sha256.lower():
        # resumed, and the whole misses the pin: the remote file changed in a way no header said (or
        # the partial bytes were damaged); the bytes are not trusted, the download starts over once
        log(f"{what}: the resumed download of {url} does not hash to the pinned sha256: starting over")
        _drop(part)
        return download(url, dest, sha256, **again)
    return _finish(part, dest, sha256, what, url, given_on, actual)


def _broken(what: str, url: str, part: Path, got: int, total: int | None, why) -> DownloadError:
    of = f" of {total}" if total is not None else ""
    reason = why if isinstance(why, str) else type(why).__name__
    return DownloadError(
        f"{what}: download of {url} broke after {got}{of} bytes ({reason}); {got} bytes kept "
        f"in {part}; fix: run the same command again to resume"
    )


def _finish(
    part: Path,
    dest: Path,
    sha256: str | None,
    what: str,
    url: str,
    given_on: str | None = None,
    actual: str | None = None,
) -> Path:
    """Move the complete ``part`` to ``dest`` when its sha256 (``actual``, computed here when None) is the
    pinned one; else delete it and raise ChecksumError (both digests shown)."""
    if actual is None and sha256 is not None:
        actual = sha256_file(part)
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
