"""A copied cache's binaries load the libraries beside them, or `doctor` and every session say so
(issue 34 §9: a copied cache's binaries loaded the original cache's libraries, `doctor` said ok while
every run exited 127).  Real ELF files: a one-function ``libllama.so.0`` and a ``llama-bench`` that
links it, built with ``cc`` in a temporary folder (none of them is run; ``ldd`` maps them)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from benchbook import resolve
from benchbook.llamacpp import loader
from benchbook.llamacpp import toolchain as tc
from benchbook.llamacpp.toolchain import ToolchainError

ROOT = Path(__file__).resolve().parents[1]
NEEDS_CC = pytest.mark.skipif(
    not (shutil.which("cc") and shutil.which("ldd") and shutil.which("readelf")),
    reason="needs cc, ldd, readelf",
)


def _build(bin_dir: Path, rpath: str) -> Path:
    """``bin_dir`` with ``libllama.so.0.6.0`` (and the ``libllama.so.0`` link, as llama.cpp's build
    makes it) and ``llama-bench`` whose RUNPATH is ``rpath``."""
    bin_dir.mkdir(parents=True)
    (bin_dir / "lib.c").write_text("int llama_answer(void) { return 42; }\n")
    (bin_dir / "main.c").write_text(
        "int llama_answer(void);\nint main(void) { return llama_answer() - 42; }\n"
    )
    cc = ["cc", "-O1", "-fPIC"]
    lib = ["-shared", "-Wl,-soname,libllama.so.0", "-o", "libllama.so.0.6.0", "lib.c"]
    subprocess.run([*cc, *lib], cwd=bin_dir, check=True)
    (bin_dir / "libllama.so.0").symlink_to("libllama.so.0.6.0")
    exe = [
        "-o",
        "llama-bench",
        "main.c",
        "-L.",
        "-l:libllama.so.0",
        "-Wl,--enable-new-dtags",
        f"-Wl,-rpath,{rpath}",
    ]
    subprocess.run([*cc, *exe], cwd=bin_dir, check=True)
    for f in ("lib.c", "main.c"):
        (bin_dir / f).unlink()
    return bin_dir


def _check(bin_dir: Path) -> str:
    return loader.check(bin_dir, ["llama-bench"], what="toolchain t", fix="rebuild")


@NEEDS_CC
def test_an_origin_runpath_build_works_from_a_copy_with_the_original_gone(tmp_path):
    a = _build(tmp_path / "A" / "bin", "$ORIGIN")
    b = tmp_path / "B" / "bin"
    shutil.copytree(a, b, symlinks=True)  # cp -r keeps the links as links
    shutil.rmtree(tmp_path / "A")
    assert loader.runpath(b / "llama-bench") == "$ORIGIN"
    assert _check(b) == f"the 1 binaries load llama.cpp's 1 libraries from {b} (RUNPATH $ORIGIN)"


@NEEDS_CC
def test_an_absolute_runpath_copy_loads_the_original_then_exits_127(tmp_path):
    # before: the copy's sha256 checks passed and `doctor` said ok; runs used A's libraries, then exit 127
    a = _build(tmp_path / "A" / "bin", str(tmp_path / "A" / "bin"))
    b = tmp_path / "B" / "bin"
    shutil.copytree(a, b, symlinks=True)
    assert _check(a).endswith(f"from {a} (RUNPATH {a})")  # in its own folder it is fine
    with pytest.raises(loader.LoaderError) as e:
        _check(b)
    assert str(e.value) == (
        f"toolchain t: llama-bench would load libllama.so.0 from {a}/libllama.so.0, outside its folder {b} "
        f"(its RUNPATH: {a}), not the library the toolchain record verified; fix: rebuild"
    )
    shutil.rmtree(tmp_path / "A")
    with pytest.raises(loader.LoaderError) as e:
        _check(b)
    assert str(e.value) == (
        f"toolchain t: llama-bench cannot load libllama.so.0 (not found; its RUNPATH: {a}): every run "
        "would exit 127; fix: rebuild"
    )


@NEEDS_CC
def test_siblings_a_dropped_link_and_ld_library_path(tmp_path, monkeypatch):
    a = _build(tmp_path / "A" / "bin", "$ORIGIN")
    b = tmp_path / "B" / "bin"
    shutil.copytree(a, b, symlinks=True)
    # LD_LIBRARY_PATH comes before RUNPATH: every run would load A's library
    monkeypatch.setenv("LD_LIBRARY_PATH", str(a))
    with pytest.raises(loader.LoaderError, match=f"would load libllama.so.0 from {a}/libllama.so.0, outside"):
        _check(b)
    monkeypatch.delenv("LD_LIBRARY_PATH")
    # a copy that drops symbolic links (`rsync -r`): the sha256 of every file still matches
    (b / "libllama.so.0").unlink()
    with pytest.raises(
        loader.LoaderError, match=r"cannot load libllama.so.0 \(not found; its RUNPATH: \$ORIGIN\)"
    ):
        _check(b)


@NEEDS_CC
def test_a_library_found_in_the_current_folder_through_an_empty_runpath_entry(tmp_path, monkeypatch):
    # CMake's build RUNPATH ends with an empty entry ("$ORIGIN:"), the current folder to glibc: a binary
    # whose own folder lacks a library loads it from wherever it is run (ldd prints no "=>" for it)
    a = _build(tmp_path / "A" / "bin", "$ORIGIN:")
    lone = tmp_path / "lone"
    lone.mkdir()
    shutil.copy(a / "llama-bench", lone)
    monkeypatch.chdir(a)
    with pytest.raises(loader.LoaderError) as e:
        _check(lone)
    assert str(e.value) == (
        f"toolchain t: llama-bench would load libllama.so.0 from {a}/libllama.so.0, outside its folder "
        f"{lone} (its RUNPATH: $ORIGIN:), not the library the toolchain record verified; fix: rebuild"
    )
    assert _check(a).startswith("the 1 binaries load llama.cpp's 1 libraries")  # its own folder: fine


def test_a_file_that_is_no_dynamic_binary_is_not_checked(tmp_path):
    (tmp_path / "llama-bench").write_text("#!/bin/sh\n")
    assert loader.resolved(tmp_path / "llama-bench") is None
    assert _check(tmp_path) == f"not checked (no ldd, or no dynamic binary in {tmp_path})"


def _cached(cache: Path, bin_src: Path) -> Path:
    """A cached toolchain at the folder ``benchbook`` looks for (``resolve.get_toolchain``) holding the
    files of ``bin_src`` (links kept) and their ``toolchain.json``."""
    params = resolve.load_params(ROOT)
    t = params["toolchain"]
    backend = tc.detect_backend() if t.get("backend", "auto") == "auto" else t["backend"]
    flags = tc.cmake_flags(backend, 11434, t.get("extra_cmake_flags") or [], t.get("amx", "auto"))
    root = (
        cache / "toolchains" / f"b11434-{backend}-{tc.toolchain_key(t['source']['sha256'], backend, flags)}"
    )
    shutil.copytree(bin_src, root / tc.BIN_SUBDIR, symlinks=True)
    files = {
        n: hashlib.sha256((root / tc.BIN_SUBDIR / n).read_bytes()).hexdigest()
        for n in ("llama-bench", "libllama.so.0.6.0")
    }
    rec = {"schema": "benchbook.toolchain", "toolchain_id": "0123456789abcdef", "build_number": 11434}
    rec |= {"build_commit": "unknown", "backend": backend, "bin_dir": tc.BIN_SUBDIR, "files_sha256": files}
    (root / "toolchain.json").write_text(json.dumps(rec))
    return root


def _doctor(cache: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "BENCHBOOK_CACHE": str(cache), "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run(
        [sys.executable, "-m", "benchbook.cli", "doctor"], cwd=ROOT, env=env, capture_output=True, text=True
    )


@NEEDS_CC
def test_doctor_on_a_good_and_on_a_broken_copied_cache(tmp_path):
    good = _cached(tmp_path / "cacheB", _build(tmp_path / "A" / "bin", "$ORIGIN"))
    shutil.rmtree(tmp_path / "A")
    out = _doctor(tmp_path / "cacheB").stdout
    assert (
        "ok   toolchain b11434 (commit unknown: built from a source archive without git metadata) "
        f"backend=cpu id=0123456789abcdef at {good / tc.BIN_SUBDIR}\n"
    ) in out
    assert (
        f"ok   libraries: the 1 binaries load llama.cpp's 1 libraries from {good / tc.BIN_SUBDIR} "
        "(RUNPATH $ORIGIN)\n"
    ) in out
    old = tmp_path / "cacheA" / "bin"  # a build from before `$ORIGIN`, copied, the original deleted
    bad = _cached(tmp_path / "cacheC", _build(old, str(old)))
    shutil.rmtree(tmp_path / "cacheA")
    r = _doctor(tmp_path / "cacheC")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert (
        f"MISS toolchain: toolchain {bad.name}: llama-bench cannot load libllama.so.0 (not found; its "
        f"RUNPATH: {old}): every run would exit 127; fix: copy the cache again with its symbolic links "
        f"(`cp -a`, `rsync -a`), or delete {bad} and run `benchbook toolchain build` (a rebuild, "
        f"{tc.BUILD_TIME})\n"
    ) in r.stdout


@NEEDS_CC
def test_a_user_build_whose_binaries_load_another_folders_library_is_refused(tmp_path, monkeypatch):
    a = _build(tmp_path / "A" / "bin", str(tmp_path / "A" / "bin"))
    b = tmp_path / "B" / "bin"
    shutil.copytree(a, b, symlinks=True)
    monkeypatch.setattr(tc, "fingerprint", lambda p, **kw: {"files_sha256": {"llama-bench": "x"}})
    with pytest.raises(
        ToolchainError, match=f"toolchain at {b}: llama-bench would load libllama.so.0 from {a}/"
    ):
        tc.from_user_dir(b)
    user = tc.from_user_dir(a)  # in place: its own libraries
    assert user.libraries == f"the 1 binaries load llama.cpp's 1 libraries from {a} (RUNPATH {a})"
