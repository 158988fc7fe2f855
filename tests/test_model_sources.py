"""Model sources beyond wheels: a local file (in place), an HTTP(S) URL (resumable, loopback server),
a Hugging Face repository (offline, pre-filled hub cache); `benchbook models add` edits params.yaml
keeping every other byte."""

import hashlib
import http.server
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import yaml

from benchbook import resolve
from benchbook.llamacpp import download, registry
from benchbook.llamacpp import models as models_mod
from benchbook.llamacpp.fetch import ChecksumError
from benchbook.llamacpp.models import ModelError
from conftest import committed_root

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SHA = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"


def _last_digit_off(sha: str) -> str:
    return sha[:-1] + ("0" if sha[-1] != "0" else "1")


class _Server:
    """A loopback HTTP server for one blob at /m.gguf with Range support, and no ETag (a server that
    ignores If-Range: every Range gets a 206); ``blob`` and ``modified`` (a ``Last-Modified`` header)
    can change between requests; ``content_range``: send ``Content-Range: bytes a-b/TOTAL`` on a 206
    (a Range past the end gets 416 with the total); ``break_after`` bytes makes the next response stop
    early (then close), to interrupt a download.  ``ranges``: the Range header of each request;
    ``seen``: (Range, If-Range) of each."""

    def __init__(self, blob: bytes, modified: str | None = None, content_range: bool = False):
        self.blob, self.modified, self.content_range = blob, modified, content_range
        self.break_after: int | None = None
        self.ranges: list[str | None] = []
        self.seen: list[tuple[str | None, str | None]] = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_GET(self):
                if self.path != "/m.gguf":
                    self.send_error(404)
                    return
                rng = self.headers.get("Range")
                outer.ranges.append(rng)
                outer.seen.append((rng, self.headers.get("If-Range")))
                start = int(rng.split("=")[1].split("-")[0]) if rng else 0
                if start and start >= len(outer.blob) and outer.content_range:
                    self.send_response(416)
                    self.send_header("Content-Range", f"bytes */{len(outer.blob)}")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                body = outer.blob[start:]
                self.send_response(206 if rng else 200)
                if rng and outer.content_range:
                    self.send_header(
                        "Content-Range", f"bytes {start}-{len(outer.blob) - 1}/{len(outer.blob)}"
                    )
                if outer.modified:
                    self.send_header("Last-Modified", outer.modified)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if outer.break_after is not None:
                    body, outer.break_after = body[: outer.break_after], None
                    self.wfile.write(body)
                    self.wfile.flush()
                    self.close_connection = True
                    return
                self.wfile.write(body)

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/m.gguf"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("BENCHBOOK_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("BENCHBOOK_QUIET", "1")
    return tmp_path / "cache"


def _serve_and_fetch(blob: bytes, tmp_path, cut: int):
    """Fetch ``blob`` through a url entry; the first attempt breaks after ``cut`` bytes."""
    srv = _Server(blob)
    try:
        sha = hashlib.sha256(blob).hexdigest()
        reg = {"u": {"source": "url", "url": srv.url, "sha256": sha}}
        srv.break_after = cut
        with pytest.raises(download.DownloadError) as e:
            models_mod.fetch(reg, "u", log=lambda *_: None)
        part = models_mod.models_dir() / f"{sha}.gguf.part"
        assert str(e.value) == (
            f"model u: download of {srv.url} broke after {cut} of {len(blob)} bytes "
            f"(connection closed early); {cut} bytes kept in {part}; fix: run the same "
            "command again to resume"
        )
        assert part.stat().st_size == cut
        rec = models_mod.fetch(reg, "u", log=lambda *_: None)
        assert srv.ranges == [None, f"bytes={cut}-"]  # the second request asked only for the rest
        assert rec["sha256"] == sha and rec["origin"] == {"source": "url", "url": srv.url}
        assert Path(rec["path"]).read_bytes() == blob and not part.exists()
        # a cached url model needs no server
        assert models_mod.fetch(reg, "u", log=lambda *_: None)["path"] == rec["path"] and len(srv.ranges) == 2
        return srv, rec
    finally:
        srv.close()


def test_url_download_resumes_after_interruption(cache, tmp_path):
    _serve_and_fetch(b"GGUF" + bytes(range(256)) * 1000, tmp_path, cut=100_000)


@pytest.mark.integration
def test_url_serves_the_default_model(cache, tmp_path):
    src = Path.home() / ".cache/benchbook/models" / f"{DEFAULT_SHA}.gguf"
    if not src.exists():
        pytest.skip("default model not in ~/.cache/benchbook/models; fix: benchbook models fetch")
    _serve_and_fetch(src.read_bytes(), tmp_path, cut=60_000_000)


def test_url_wrong_sha256_in_last_digit_is_rejected_and_deleted(cache):
    blob = b"W" * 5000
    srv = _Server(blob)
    try:
        sha = hashlib.sha256(blob).hexdigest()
        reg = {"u": {"source": "url", "url": srv.url, "sha256": _last_digit_off(sha)}}
        with pytest.raises(ChecksumError) as e:
            models_mod.fetch(reg, "u", log=lambda *_: None)
        assert str(e.value) == (
            f"model u from {srv.url}: sha256 mismatch\n  expected {_last_digit_off(sha)}\n"
            f"  actual   {sha}\nfix: check the `sha256` (and `url`) in params.yaml; the download "
            "was deleted"
        )
        assert (
            list(models_mod.models_dir().glob("*.part")) == []
            and list(models_mod.models_dir().glob("*.gguf")) == []
        )
        with pytest.raises(download.DownloadError, match=r"answered HTTP 404"):
            models_mod.fetch({"u": {**reg["u"], "url": srv.url + "x"}}, "u", log=lambda *_: None)
    finally:
        srv.close()


def test_file_source_used_in_place_and_checked(cache, tmp_path):
    f = tmp_path / "mine.gguf"
    f.write_bytes(b"GGUF" + b"M" * 2044)  # a GGUF's magic first: models fetch checks it
    sha = hashlib.sha256(b"GGUF" + b"M" * 2044).hexdigest()
    reg = {"mine": {"source": "file", "path": str(f), "sha256": sha, "size_bytes": 2048}}
    rec = models_mod.fetch(reg, "mine", log=lambda *_: None)
    assert rec["path"] == str(f) and rec["origin"] == {"source": "file", "path": str(f)}
    assert list(models_mod.models_dir().glob("*.gguf")) == []  # never copied
    # changed in place with the same size: a session's check refuses it, naming the fix
    with open(f, "r+b") as fh:
        fh.seek(1000)
        fh.write(b"X")
    with pytest.raises(ModelError) as e:
        models_mod.fetch(reg, "mine", log=lambda *_: None, full_check=True)
    assert str(e.value).startswith(f"model mine {f}: sha256 is ")
    assert str(e.value).endswith(
        f"fix: restore the file, or if the change is deliberate register it again: "
        f"`benchbook models add {f} --id mine --replace`"
    )
    with pytest.raises(
        ModelError, match=rf"mine: {f} has 2048 bytes, `models.registry.mine.size_bytes` says 2047"
    ):
        models_mod.fetch({"mine": {**reg["mine"], "size_bytes": 2047}}, "mine", log=lambda *_: None)
    with pytest.raises(ModelError, match=r"gone.gguf \(`models.registry.mine.path`\) does not exist; fix:"):
        models_mod.fetch(
            {"mine": {**reg["mine"], "path": str(tmp_path / "gone.gguf")}}, "mine", log=lambda *_: None
        )


def _hub_cache(home: Path, repo: str, revision: str, filename: str, blob: bytes) -> None:
    """A Hugging Face hub cache as huggingface_hub lays it out (blobs, snapshots/<commit>, refs)."""
    base = home / "hub" / f"models--{repo.replace('/', '--')}"
    digest = hashlib.sha256(blob).hexdigest()
    (base / "blobs").mkdir(parents=True)
    (base / "blobs" / digest).write_bytes(blob)
    snap = base / "snapshots" / revision
    snap.mkdir(parents=True)
    (snap / filename).symlink_to(base / "blobs" / digest)


def test_hf_source_offline_from_a_filled_cache(cache, tmp_path, monkeypatch):
    pytest.importorskip(
        "huggingface_hub", reason="huggingface_hub (pinned in requirements.lock) not installed"
    )
    blob, rev = b"H" * 3000, "0123456789abcdef0123456789abcdef01234567"
    _hub_cache(tmp_path / "hf", "someone/tiny-gguf", rev, "tiny.Q8_0.gguf", blob)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    import importlib

    import huggingface_hub.constants as hc

    importlib.reload(hc)  # the hub reads HF_HOME / HF_HUB_OFFLINE at import
    sha = hashlib.sha256(blob).hexdigest()
    ent = {
        "source": "hf",
        "repo": "someone/tiny-gguf",
        "file": "tiny.Q8_0.gguf",
        "revision": rev,
        "sha256": sha,
    }
    rec = models_mod.fetch({"h": ent}, "h", log=lambda *_: None)
    assert rec["origin"] == {
        "source": "hf",
        "repo": "someone/tiny-gguf",
        "file": "tiny.Q8_0.gguf",
        "revision": rev,
    }
    assert rec["path"] == str(cache / "models" / f"{sha}.gguf") and Path(rec["path"]).read_bytes() == blob
    with pytest.raises(ChecksumError, match=f"expected {_last_digit_off(sha)}"):
        models_mod.fetch({"h": {**ent, "sha256": _last_digit_off(sha)}}, "h", log=lambda *_: None)
    with pytest.raises(
        ModelError, match=r"model h: huggingface_hub could not get other.gguf from someone/tiny-gguf"
    ):
        models_mod.fetch({"h": {**ent, "file": "other.gguf"}}, "h", log=lambda *_: None)


def _project(tmp_path) -> Path:
    """A copy of the project's committed params.yaml (git HEAD: a local ``models add`` must not change the
    expected bytes), dvc.yaml and .gitignore in a fresh git repository."""
    proj = tmp_path / "proj"
    proj.mkdir()
    shutil.copy(committed_root() / "params.yaml", proj / "params.yaml")
    for name in ("dvc.yaml", ".gitignore"):
        shutil.copy(ROOT / name, proj / name)
    subprocess.run(["git", "init", "-q"], cwd=proj, check=True)
    return proj


def _cli(args, cwd, env):
    return subprocess.run(
        [sys.executable, "-m", "benchbook.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=120,
    )


def test_models_add_file_keeps_params_bytes_and_registers_it(cache, tmp_path):
    proj = _project(tmp_path)
    f = tmp_path / "elsewhere" / "My-Model.Q8_0.gguf"
    f.parent.mkdir()
    f.write_bytes(b"GGUF" + b"Q" * 4092)  # a GGUF's magic first: models add checks it
    sha = hashlib.sha256(b"GGUF" + b"Q" * 4092).hexdigest()
    before = (proj / "params.yaml").read_text()
    env = {"BENCHBOOK_CACHE": str(cache)}
    r = _cli(["models", "add", str(f)], proj, env)
    assert r.returncode == 0, r.stderr
    after = (proj / "params.yaml").read_text()
    # exactly the entry's lines inserted after the registry's last entry; nothing else changed
    anchor = "    smollm2-135m-q2_k: {derived_from: smollm2-135m-q4_1, quantize: Q2_K}\n"
    added = (
        "    my-model-q8_0:\n      source: file\n      path: <models>/My-Model.Q8_0.gguf\n"
        f"      sha256: {sha}\n      size_bytes: 4096\n"
    )
    assert after == before.replace(anchor, anchor + added)  # no folder of this machine in params.yaml
    assert "added models.registry.my-model-q8_0 in" in r.stdout
    assert f"(this machine's path, {f}, is in params.local.yaml: git-ignored, never committed)" in r.stdout
    local = yaml.safe_load((proj / "params.local.yaml").read_text())
    assert local == {"model_paths": {"my-model-q8_0": str(f)}}
    ent = resolve.load_params(proj)["models"]["registry"]["my-model-q8_0"]
    assert ent["path"] == str(f)  # loading the params reads the local companion
    assert models_mod.fetch({"x": ent}, "x", log=lambda *_: None)["sha256"] == sha
    # a clone on another machine (no params.local.yaml): the same command records its own path
    (proj / "params.local.yaml").unlink()
    r1 = _cli(["models", "add", str(f), "--id", "my-model-q8_0"], proj, env)
    assert r1.returncode == 0, r1.stderr
    assert r1.stdout.splitlines()[-2:] == [
        "its path on this machine is in params.local.yaml (git-ignored)",
        "nothing to add: use 'my-model-q8_0' (under llama_bench.models, or speculative.target)",
    ]
    assert resolve.load_params(proj)["models"]["registry"]["my-model-q8_0"]["path"] == str(f)
    # the same file and id again: it is already that model, nothing changes (issue 33 §2)
    r2 = _cli(["models", "add", str(f), "--id", "my-model-q8_0"], proj, env)
    assert r2.returncode == 0 and r2.stdout.splitlines()[-1] == (
        "nothing to add: use 'my-model-q8_0' (under llama_bench.models, or speculative.target)"
    )
    assert (proj / "params.yaml").read_text() == after
    # the file changed under the same id: refused, then replaced with --replace
    f.write_bytes(b"GGUF" + b"R" * 6)
    r2 = _cli(["models", "add", str(f), "--id", "my-model-q8_0"], proj, env)
    assert (
        r2.returncode == 2
        and "already has 'my-model-q8_0'; fix: choose another id (--id NAME) or pass --replace" in r2.stderr
    )
    r3 = _cli(["models", "add", str(f), "--id", "my-model-q8_0", "--replace"], proj, env)
    assert r3.returncode == 0 and r3.stdout.startswith("replaced models.registry.my-model-q8_0")
    sha_r = hashlib.sha256(b"GGUF" + b"R" * 6).hexdigest()
    assert (proj / "params.yaml").read_text() == before.replace(
        anchor, anchor + added.replace(sha, sha_r).replace("4096", "10")
    )


def test_models_add_refuses_a_file_git_would_commit_and_a_missing_one(cache, tmp_path):
    proj = _project(tmp_path)
    inside = proj / "m.gguf"
    inside.write_bytes(b"x")
    env = {"BENCHBOOK_CACHE": str(cache)}
    r = _cli(["models", "add", str(inside)], proj, env)
    assert r.returncode == 2 and r.stderr == (
        f"benchbook: error: {inside} is inside the repository and not ignored "
        "by git, so it could be committed; fix: move it outside the repository "
        "(models are never committed) or add it to .gitignore\n"
    )
    r = _cli(["models", "add", str(tmp_path / "nope.gguf")], proj, env)
    assert (
        r.stderr == f"benchbook: error: {tmp_path / 'nope.gguf'}: no such file; fix: give the path of a GGUF "
        "file (or an http(s):// URL)\n"
    )


def test_models_add_url_downloads_into_the_cache(cache, tmp_path):
    proj = _project(tmp_path)
    blob = b"GGUF" + b"U" * 5996
    srv = _Server(blob)
    try:
        r = _cli(["models", "add", srv.url, "--id", "web"], proj, {"BENCHBOOK_CACHE": str(cache)})
        assert r.returncode == 0, r.stderr
        ent = yaml.safe_load((proj / "params.yaml").read_text())["models"]["registry"]["web"]
        sha = hashlib.sha256(blob).hexdigest()
        assert ent == {"source": "url", "url": srv.url, "sha256": sha, "size_bytes": 6000}
        assert (cache / "models" / f"{sha}.gguf").read_bytes() == blob
        assert (
            models_mod.fetch({"web": ent}, "web", log=lambda *_: None)["sha256"] == sha
            and len(srv.ranges) == 1
        )
    finally:
        srv.close()


def test_model_id_for_names():
    assert registry.model_id_for("/x/SmolLM2-135M-Instruct.Q8_0.gguf") == "smollm2-135m-instruct-q8_0"
    # URL-encoded: %20 is a space (breaker item 28: it gave "tiny-20model")
    assert registry.model_id_for("https://h/a/b/Tiny%20Model.gguf?download=1") == "tiny-model"


@pytest.mark.parametrize(
    "entry,msg",
    [
        (
            "{source: file, path: /m.gguf, sha256: " + "a" * 64 + "}",
            "(source: file) lacks size_bytes; fix: add it",
        ),
        (
            "{source: url, url: 'http://h/m.gguf', sha256: abc}",
            "`models.registry.x.sha256` is 'abc', not 64 hex digits",
        ),
        (
            "{source: hf, repo: a/b, file: m.gguf, sha256: " + "a" * 64 + "}",
            "(source: hf) lacks revision; fix: add it",
        ),
        ("{source: ftp, path: m}", "`models.registry.x` needs `source:` one of pypi_wheel, file, url, hf"),
    ],
)
def test_new_sources_validated_in_params(tmp_path, entry, msg):
    (tmp_path / "dvc.yaml").write_text("stages: {}\n")
    (tmp_path / "params.yaml").write_text(
        f"toolchain:\n  user_build_dir: /x\nmodels:\n  registry:\n    x: {entry}\n"
    )
    with pytest.raises(resolve.ParamsError) as e:
        resolve.load_params(tmp_path)
    assert str(e.value).startswith(f"{tmp_path / 'params.yaml'}: `models.registry.x") and msg in str(e.value)
