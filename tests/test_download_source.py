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
