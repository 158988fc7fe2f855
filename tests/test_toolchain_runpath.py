"""Why a build in another cache folder is another toolchain (README, "What `make run` measures"): the
binaries hold their build folder as RUNPATH, so their sha256, hence ``toolchain_id``, depends on
``BENCHBOOK_CACHE`` (a new user's build of the pinned source under another cache: ``f0e8e665…``,
the committed one ``cdea05bd…``)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from benchbook.paths import cache_dir


def test_the_cached_binaries_hold_their_build_folder_as_runpath():
    builds = sorted((cache_dir() / "toolchains").glob("b11434-cpu-*/build/bin/llama-bench"))
    if not builds or shutil.which("readelf") is None:
        pytest.skip("no cached llama.cpp CPU build (or no readelf)")
    out = subprocess.run(["readelf", "-d", str(builds[0])], capture_output=True, text=True, check=True).stdout
    runpath = [line for line in out.splitlines() if "(RUNPATH)" in line or "(RPATH)" in line]
    assert len(runpath) == 1 and f"[{builds[0].parent}:" in runpath[0], runpath
