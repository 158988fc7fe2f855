"""A partial download is keyed by its URL (issue 34 §5): an interrupted ``models add URL1`` then
``models add URL2`` with the same file name resumed at the old byte offset and registered a
half-and-half GGUF under a sha256 neither file has.  Now the partial file of another URL starts over."""

from __future__ import annotations

import hashlib

import pytest

from benchbook.llamacpp import download
from test_model_sources import _Server


def test_a_partial_download_of_another_url_is_started_over(tmp_path):
    first, second = b"GGUF" + b"\x01" * 50_000, b"GGUF" + b"\x02" * 50_000
    one, two = _Server(first), _Server(second)
    dest = tmp_path / "add-m.gguf"  # `models add` names the download by the URL's file name: the same
    lines: list[str] = []
    try:
        one.break_after = 20_000
        with pytest.raises(download.DownloadError):
            download.download(one.url, dest, None, what="model m", log=lines.append)
        assert (tmp_path / "add-m.gguf.part").stat().st_size == 20_000
        got = download.download(two.url, dest, None, what="model m", log=lines.append)
        # before: Range bytes=20000- to the second server, and 20,000 bytes of the first file in front
        assert two.ranges == [None]
        assert got.read_bytes() == second
        assert hashlib.sha256(got.read_bytes()).hexdigest() == hashlib.sha256(second).hexdigest()
        part = tmp_path / "add-m.gguf.part"
        assert lines == [
            f"model m: the partial download in {part} is of {one.url}, not {two.url}: starting over"
        ]
        assert sorted(p.name for p in tmp_path.iterdir()) == ["add-m.gguf"]  # no part, no source record
    finally:
        one.close()
        two.close()


def test_the_same_url_resumes_and_an_unrecorded_partial_starts_over(tmp_path):
    blob = b"GGUF" + bytes(range(256)) * 200
    sha = hashlib.sha256(blob).hexdigest()
    srv = _Server(blob)
    dest = tmp_path / "m.gguf"
    try:
        srv.break_after = 10_000
        with pytest.raises(download.DownloadError):
            download.download(srv.url, dest, sha, what="m", log=lambda *_: None)
        assert download.download(srv.url, dest, sha, what="m", log=lambda *_: None).read_bytes() == blob
        assert srv.ranges == [None, "bytes=10000-"]  # control: the same URL resumes (sha256 pinned)
        # a partial file an older benchbook left (no record of its URL): not trusted, started over
        dest.unlink()
        (tmp_path / "m.gguf.part").write_bytes(b"junk" * 100)
        lines: list[str] = []
        assert download.download(srv.url, dest, sha, what="m", log=lines.append).read_bytes() == blob
        assert srv.ranges[-1] is None and "of an unrecorded URL" in lines[0]
    finally:
        srv.close()


def _Changing(blob: bytes, modified: str | None = None, content_range: bool = True) -> _Server:
    """The loopback server as some CDNs and simple servers are: no ETag, If-Range ignored, a
    ``Content-Range`` with the total on each 206 unless ``content_range`` is False."""
    return _Server(blob, modified, content_range)


MON = "Mon, 30 Nov 2026 10:00:00 GMT"
TUE = "Tue, 01 Dec 2026 10:00:00 GMT"


def _interrupted(srv: _Changing, dest, sha=None, cut=20_000) -> list[str]:
    """Download from ``srv`` and break after ``cut`` bytes; return the log lines so far."""
    lines: list[str] = []
    srv.break_after = cut
    with pytest.raises(download.DownloadError):
        download.download(srv.url, dest, sha, what="m", log=lines.append)
    return lines


@pytest.mark.parametrize(
    ("modified", "content_range", "new", "why"),
    [
        # same size, a new Last-Modified, no ETag: the server honoured no If-Range
        (TUE, True, b"GGUF" + b"\x02" * 50_000, f"Last-Modified {MON} -> {TUE}"),
        # no validator but the size: Content-Range's total differs
        (None, True, b"GGUF" + b"\x02" * 60_000, "size 50004 -> 60004 bytes"),
        # no Content-Range either: have + Content-Length differs from the recorded size
        (None, False, b"GGUF" + b"\x02" * 60_000, "size 50004 -> 60004 bytes"),
    ],
)
def test_a_changed_remote_file_without_etag_is_started_over(tmp_path, modified, content_range, new, why):
    """issue 34 §5 leftover: the same URL, no ETag, and the remote file changed between the interrupted
    download and the next: before, the 206 was appended at the old offset (20,000 bytes of the old file,
    then the new one's tail: a sha256 neither file has).  Now the 206 is checked against the partial's
    record (Last-Modified, total size) and the download starts over: the new file whole."""
    old = b"GGUF" + b"\x01" * 50_000
    srv = _Changing(old, MON if modified else None, content_range)
    dest = tmp_path / "m.gguf"
    try:
        _interrupted(srv, dest)
        srv.blob, srv.modified = new, modified
        lines: list[str] = []
        # pinned: without a validator and a pin nothing is resumed at all (started over at once)
        got = download.download(srv.url, dest, hashlib.sha256(new).hexdigest(), what="m", log=lines.append)
        assert got.read_bytes() == new
        assert [r for r, _ in srv.seen] == [None, "bytes=20000-", None]
        assert lines == [
            f"m: resuming {srv.url} at byte 20000",
            f"m: {srv.url} changed since the partial download ({why}): starting over",
        ]
        assert sorted(p.name for p in tmp_path.iterdir()) == ["m.gguf"]
    finally:
        srv.close()


def test_an_unchanged_remote_file_resumes_with_its_validators(tmp_path):
    """Control: the same file (same Last-Modified, same total) resumes at the old offset, asking with
    If-Range, and the pinned sha256 holds."""
    blob = b"GGUF" + bytes(range(256)) * 200
    srv = _Changing(blob, MON)
    dest = tmp_path / "m.gguf"
    sha = hashlib.sha256(blob).hexdigest()
    try:
        _interrupted(srv, dest, sha, 10_000)
        record = download._source(tmp_path / "m.gguf.part")
        assert record == {"url": srv.url, "etag": None, "last_modified": MON, "total": len(blob)}
        assert download.download(srv.url, dest, sha, what="m", log=lambda *_: None).read_bytes() == blob
        assert srv.seen == [(None, None), ("bytes=10000-", MON)]
    finally:
        srv.close()


def test_a_resume_that_misses_the_pinned_sha256_is_started_over_once(tmp_path):
    """A change no header shows (same size, no ETag, no Last-Modified): the spliced file misses the
    pinned sha256, so the download starts over once and the new file, whole, is checked again; a pin
    the new file does not have either still fails (the download deleted)."""
    old, new = b"GGUF" + b"\x01" * 50_000, b"GGUF" + b"\x02" * 50_000
    srv = _Changing(old, None)
    dest = tmp_path / "m.gguf"
    try:
        _interrupted(srv, dest, hashlib.sha256(new).hexdigest())
        srv.blob = new
        lines: list[str] = []
        got = download.download(srv.url, dest, hashlib.sha256(new).hexdigest(), what="m", log=lines.append)
        assert got.read_bytes() == new and [r for r, _ in srv.seen] == [None, "bytes=20000-", None]
        assert (
            lines[-1]
            == f"m: the resumed download of {srv.url} does not hash to the pinned sha256: starting over"
        )
        dest.unlink()
        srv.blob = old
        _interrupted(srv, dest, hashlib.sha256(new).hexdigest())
        srv.blob = b"GGUF" + b"\x03" * 50_000
        with pytest.raises(download.ChecksumError, match="sha256 mismatch"):
            download.download(srv.url, dest, hashlib.sha256(new).hexdigest(), what="m", log=lambda *_: None)
        assert sorted(p.name for p in tmp_path.iterdir()) == []
    finally:
        srv.close()


def test_a_remote_file_shorter_than_the_partial_is_not_taken_as_complete(tmp_path):
    """A 416 (nothing after byte ``have``) meant "the partial file is complete"; when the file changed
    to fewer bytes than were kept, its Content-Range total says otherwise: started over."""
    srv = _Changing(b"GGUF" + b"\x01" * 50_000, None)
    dest = tmp_path / "m.gguf"
    try:
        _interrupted(srv, dest, cut=30_000)
        srv.blob = b"GGUF" + b"\x02" * 10_000
        lines: list[str] = []
        pin = hashlib.sha256(srv.blob).hexdigest()  # pinned: a resume is tried (no pin: started over at once)
        assert download.download(srv.url, dest, pin, what="m", log=lines.append).read_bytes() == srv.blob
        assert (
            lines[-1]
            == f"m: {srv.url} changed since the partial download (size 30000 -> 10004 bytes): starting over"
        )
    finally:
        srv.close()


def test_a_changed_file_at_the_same_url_is_never_spliced_without_a_validator(tmp_path):
    """A server that sends no ETag/Last-Modified, no sha256 pinned (`models add URL`): an interrupted
    download is started over, since nothing could tell a changed file from the same one.  Before
    (fault catalogue W03): ``Range: bytes=20000-`` and 20,000 bytes of the old file in front of the new
    one's tail, registered under a sha256 neither file has."""
    first, second = b"GGUF" + b"\x01" * 50_000, b"GGUF" + b"\x02" * 50_000
    srv = _Server(first)
    dest = tmp_path / "add-m.gguf"
    lines: list[str] = []
    try:
        srv.break_after = 20_000
        with pytest.raises(download.DownloadError):
            download.download(srv.url, dest, None, what="model m", log=lines.append)
        srv.blob = second  # the same URL now serves another file
        got = download.download(srv.url, dest, None, what="model m", log=lines.append)
        assert got.read_bytes() == second and srv.ranges == [None, None]
        assert lines == [
            f"model m: {srv.url} sent no ETag or Last-Modified and no sha256 is pinned: starting over"
        ]
    finally:
        srv.close()
