"""Build ids from inputs (issue 30 item 3): the same pinned source, flags, backend and compiler give the
same cache folder name, the same cmake flags and byte-identical binaries (so the same ``toolchain_id``)
under any ``BENCHBOOK_CACHE``.  Before, the binaries held their build folder as RUNPATH and the source
folder in ``__FILE__`` strings: a new user's build of the pinned source under another cache was
``f0e8e665…`` against the committed ``cdea05bd…``.  Measured builds: docs/running.md, "What `make run`
measures"."""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from benchbook.llamacpp import loader
from benchbook.llamacpp import toolchain as tc
from benchbook.llamacpp.toolchain import ToolchainError
from benchbook.paths import cache_dir


def test_the_cache_folder_and_the_recorded_flags_do_not_name_the_cache(tmp_path, monkeypatch):
    seen = []

    def fake_build(tree, root, flags, backend, src, tools, key, desc, jobs, log, extra=None):
        seen.append((root.parent.name, root.name, flags, key))
        return tc.Toolchain(root / tc.BIN_SUBDIR, {"toolchain_id": "x"})

    monkeypatch.setattr(tc, "_build_tree", fake_build)
    monkeypatch.setattr(tc, "check_build_tools", lambda: {"compiler": "c++ 12"})
    monkeypatch.setattr(tc, "_extract_source", lambda sdist, spec: Path("/nowhere"))
    monkeypatch.setattr(tc, "pypi_sdist", lambda *a: Path("/nowhere.tar.gz"))
    for cache in ("cacheA", "some/where/else"):
        monkeypatch.setenv("BENCHBOOK_CACHE", str(tmp_path / cache))
        tc.build(tc.SourceSpec(), "cpu", amx="on")
    assert seen[0] == seen[1]  # the same folder name, flags and key
    assert seen[0][:2] == ("toolchains", "b11434-cpu-c03f59d29bebb95e")
    assert not any(str(tmp_path) in f for f in seen[0][2])
    assert "-DCMAKE_BUILD_RPATH_USE_ORIGIN=ON" in seen[0][2]


def test_the_configure_command_puts_the_folders_in_the_prefix_maps(tmp_path):
    flags = tc.cmake_flags("cpu", 11434, amx="on")
    cmd = tc.configure_command(Path("/c/src/b0a2/llama.cpp"), Path("/c/toolchains/k/build"), flags)
    assert cmd[:5] == ["cmake", "-S", "/c/src/b0a2/llama.cpp", "-B", "/c/toolchains/k/build"]
    maps = "-ffile-prefix-map=/c/src/b0a2/llama.cpp=. -ffile-prefix-map=/c/toolchains/k/build=build"
    assert cmd[-2:] == [f"-DCMAKE_C_FLAGS={maps}", f"-DCMAKE_CXX_FLAGS={maps}"]
    # a user's own C++ flags join ours instead of replacing them (cmake keeps the last -D)
    mine = tc.cmake_flags("cpu", 11434, ["-DCMAKE_CXX_FLAGS:STRING=-O3", "-DGGML_NATIVE=OFF"], amx="on")
    assert mine[-3:] == [
        "-DCMAKE_C_FLAGS=-ffile-prefix-map=<src>=. -ffile-prefix-map=<build>=build",
        "-DCMAKE_CXX_FLAGS=-ffile-prefix-map=<src>=. -ffile-prefix-map=<build>=build -O3",
        "-DGGML_NATIVE=OFF",
    ]
    with pytest.raises(ToolchainError) as e:
        tc.configure_command(Path("/my cache/src"), Path("/my cache/build"), flags)
    assert str(e.value) == (
        "/my cache/src: the llama.cpp build folder's path holds white space, which the compiler flags "
        "cannot carry; fix: set BENCHBOOK_CACHE to a folder whose path has no spaces"
    )


def test_the_echoed_configure_command_carries_the_real_folders(tmp_path, monkeypatch):
    monkeypatch.setattr(tc, "run_logged", lambda cmd, lf, desc, targets=(): 1)  # configure fails at once
    said: list[str] = []
    with pytest.raises(ToolchainError, match="exit 1"):
        flags = tc.cmake_flags("cpu", 11434, amx="on")
        tc._build_tree(tmp_path / "src", tmp_path, flags, "cpu", {}, {}, "k", "d", 1, said.append)
    assert shlex.split(said[0][2:])[-1] == f"-DCMAKE_CXX_FLAGS=-ffile-prefix-map={tmp_path}/src=. " + (
        f"-ffile-prefix-map={tmp_path}/build=build"
    )


def test_holding_paths_names_the_files_that_hold_a_folder(tmp_path):
    (tmp_path / "libllama.so").write_bytes(b"\x7fELF..." + str(tmp_path / "build").encode() + b"\0")
    (tmp_path / "llama-bench").write_bytes(b"\x7fELF...$ORIGIN\0./ggml/src/ggml.c\0")
    assert tc.holding_paths(tmp_path, ["llama-bench", "libllama.so"], [tmp_path / "build"]) == ["libllama.so"]
    assert tc.holding_paths(tmp_path, ["llama-bench"], [tmp_path / "build", tmp_path / "src"]) == []


def _cached_builds() -> list[Path]:
    return sorted((cache_dir() / "toolchains").glob("b11434-cpu-*/build/bin/llama-bench"))


def test_a_cached_build_holds_origin_as_runpath_and_no_folder():
    """The cached builds of this machine: one made with ``$ORIGIN`` holds neither its folder nor the
    source's; one made before (its flags lack ``CMAKE_BUILD_RPATH_USE_ORIGIN``) holds its build folder."""
    builds = _cached_builds()
    if not builds or shutil.which("readelf") is None:
        pytest.skip("no cached llama.cpp CPU build (or no readelf)")
    for exe in builds:
        root = exe.parents[2]
        flags = (root / "toolchain.json").read_text()
        names = [p.name for p in exe.parent.iterdir() if p.is_file() and not p.is_symlink()]
        if "CMAKE_BUILD_RPATH_USE_ORIGIN" in flags:
            # CMake writes "$ORIGIN:" (an empty entry after it, which glibc reads as the current folder:
            # loader.check refuses a library found that way); no folder of the cache or source
            assert loader.runpath(exe) in ("$ORIGIN", "$ORIGIN:")
            assert tc.holding_paths(exe.parent, names, [cache_dir()]) == []
        else:
            out = subprocess.run(["readelf", "-d", str(exe)], capture_output=True, text=True).stdout
            assert f"[{exe.parent}:" in out
