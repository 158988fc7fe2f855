"""What the dynamic loader loads for a toolchain's binaries: each of llama.cpp's own libraries from the
toolchain's folder, or the run fails (issue 34 §9, issue 30 "build ids from inputs").

A binary finds ``libllama``/``libggml*``/``libmtmd`` through its RUNPATH.  A build made before build
ids came from inputs holds its build folder's absolute path there, so a copied cache's binaries load
the *original* cache's libraries (not the ones whose sha256 the toolchain record verified) and, once
that cache is gone, every run exits 127 ("error while loading shared libraries").  Builds now hold
``$ORIGIN`` (``toolchain.cmake_flags``).  ``check`` asks the loader itself, through ``ldd``
(glibc's ``ld.so --list``: it maps the libraries and runs none of the binary's code), with this
process's environment (``LD_LIBRARY_PATH`` included, as every run has it), and says where a library
would come from.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

#: llama.cpp's own libraries (sonames): a toolchain folder's binaries must load these from the folder
OWN_LIBRARY = re.compile(r"^lib(llama|ggml|mtmd)[-.]")
#: one line of ``ldd``: ``libllama.so.0 => /x/libllama.so.0 (0x…)`` or ``libfoo.so => not found``
_LDD_LINE = re.compile(r"^\s*(\S+) => (.*?)(?: \(0x[0-9a-fA-F]+\))?\s*$")
#: a library ``ldd`` found through a relative RUNPATH entry prints no ``=>``: ``libfoo.so (0x…)``.  CMake
#: ends the build RUNPATH with an empty entry (``$ORIGIN:``), which glibc reads as the current folder.
_LDD_RELATIVE = re.compile(r"^\s*([^\s/]+\.so[.\d]*) \(0x[0-9a-fA-F]+\)\s*$")
NOT_FOUND = "not found"


class LoaderError(RuntimeError):
    """A binary would load a library from outside its toolchain folder, or cannot load one at all."""


@dataclass(frozen=True)
class Loaded:
    """One library the loader resolves for ``binary``: ``soname`` as the binary (or a library it
    loads) names it, and ``path``, the file the loader would map (None: not found)."""

    binary: str
    soname: str
    path: str | None


def resolved(exe: Path, timeout_s: float = 30.0) -> list[Loaded] | None:
    """The libraries ``ldd exe`` says the loader maps for ``exe`` (transitively, with its path or None
    when not found); None when it cannot say (no ``ldd`` on PATH, or ``exe`` is not a dynamic ELF
    file of this machine: a static binary, a script)."""
    ldd = shutil.which("ldd")
    if ldd is None:
        return None
    try:
        out = subprocess.run([ldd, str(exe)], capture_output=True, text=True, timeout=timeout_s)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode != 0 and "=>" not in out.stdout:
        return None
    found = []
    for line in out.stdout.splitlines():
        m = _LDD_LINE.match(line)
        if m:
            path = None if m.group(2).strip() == NOT_FOUND else m.group(2).strip()
            found.append(Loaded(exe.name, m.group(1), path))
        elif (rel := _LDD_RELATIVE.match(line)) and not rel.group(1).startswith("linux-vdso"):
            found.append(Loaded(exe.name, rel.group(1), str(Path.cwd() / rel.group(1))))
    return found


def runpath(exe: Path) -> str | None:
    """The RUNPATH (or RPATH) of ``exe`` as ``readelf -d`` prints it (``$ORIGIN``, or an absolute
    folder); None when it has none or ``readelf`` is absent."""
    readelf = shutil.which("readelf")
    if readelf is None:
        return None
    try:
        out = subprocess.run([readelf, "-d", str(exe)], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = re.search(r"\((?:RUNPATH|RPATH)\)\s+Library r(?:un)?path: \[(.*)\]", out.stdout)
    return m.group(1) if m else None


def check(bin_dir: Path, binaries: list[str], *, what: str, fix: str, own_only: bool = True) -> str:
    """Check that each of ``binaries`` (names in ``bin_dir``) loads llama.cpp's libraries from
    ``bin_dir``; return a one-line summary (for ``benchbook doctor``).

    ``own_only`` (our cached builds): every library named like llama.cpp's (``OWN_LIBRARY``) must be
    the file of that name in ``bin_dir``; otherwise (a user's build, whose libraries may be installed
    elsewhere) only the libraries that ``bin_dir`` holds must be those.  Any library not found is an
    error: the binary could not start (exit 127).  ``what`` names the toolchain in messages, ``fix`` is
    the remedy appended.

    Raises:
        LoaderError: ``<what>: <binary> would load <soname> from <path>, outside its folder …`` or
            ``<what>: <binary> cannot load <soname> (not found …): every run would exit 127``, with
            the binary's RUNPATH and ``fix``.
    """
    bin_dir = Path(bin_dir)
    checked, own = 0, set()
    for name in binaries:
        exe = bin_dir / name
        libs = resolved(exe)
        if libs is None:
            continue
        checked += 1
        for lib in libs:
            mine = OWN_LIBRARY.match(lib.soname) if own_only else (bin_dir / lib.soname).exists()
            if lib.path is None:
                raise LoaderError(
                    f"{what}: {name} cannot load {lib.soname} (not found; its RUNPATH: {runpath(exe)}): "
                    f"every run would exit 127; fix: {fix}"
                )
            if not mine:
                continue
            if Path(lib.path).resolve() != (bin_dir / lib.soname).resolve():
                raise LoaderError(
                    f"{what}: {name} would load {lib.soname} from {lib.path}, outside its folder {bin_dir} "
                    f"(its RUNPATH: {runpath(exe)}), not the library the toolchain record verified; "
                    f"fix: {fix}"
                )
            own.add(lib.soname)
    if not checked:
        return f"not checked (no ldd, or no dynamic binary in {bin_dir})"
    rp = {runpath(bin_dir / n) for n in binaries}
    rp_words = ", ".join(sorted(str(r) for r in rp))
    return f"the {checked} binaries load llama.cpp's {len(own)} libraries from {bin_dir} (RUNPATH {rp_words})"
