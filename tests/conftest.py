"""Shared fixtures: the repository, its params, and the real toolchain/models from the cache.

Integration fixtures skip (with the fix in the reason) when the toolchain or models are absent;
`make test` builds/fetches them first, so in CI they run.
"""

from __future__ import annotations

import atexit
import functools
import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import papermill as pm
import psutil
import pytest

from benchbook import resolve

ROOT = Path(__file__).resolve().parents[1]

# Tests that `dvc init` a scratch project would otherwise run DVC's analytics there (this repository
# turns it off in .dvc/config): a detached reporter per command, and a temp file it leaves in /tmp.
os.environ["DVC_NO_ANALYTICS"] = "1"
# Verification records of users' own model files (``models.user_file_state``) go to a scratch folder,
# never this user's ~/.local/state/benchbook (subprocesses inherit it).
os.environ["BENCHBOOK_STATE"] = tempfile.mkdtemp(prefix="bb-state-")
atexit.register(shutil.rmtree, os.environ["BENCHBOOK_STATE"], True)


@functools.lru_cache(maxsize=1)
def cached_server_env() -> dict:
    """The cached llama.cpp build and default model for tests against a real llama-server (skips, with
    the reason, where either is missing): ``tc`` (the toolchain), ``bin`` (llama-server), ``model`` (its
    cache entry), ``toolchain`` (its record), ``P`` (params.yaml)."""
    import yaml

    from benchbook.llamacpp import models

    P = yaml.safe_load((Path(__file__).resolve().parents[1] / "params.yaml").read_text())
    try:
        tc = resolve.get_toolchain(P, build=False)
    except Exception as e:  # noqa: BLE001 - any missing piece means: skip with the reason
        pytest.skip(f"no llama.cpp build in the cache: {e}")
    hit = models._cached(P["models"]["default"])
    if hit is None:
        pytest.skip("default model not in the cache; run a measurement stage once to fetch it")
    return {"tc": tc, "bin": tc.binary("llama-server"), "model": hit, "toolchain": tc.record, "P": P}


def stand_in_host():
    """A ``HostSnapshot`` of a made-up 2-core host (id ``testhost``) for runner tests that need one."""
    from benchbook.provenance import HostSnapshot

    return HostSnapshot(
        host_id="testhost",
        hostname="t",
        cpu_model="t",
        cpu_logical=2,
        cpu_physical=2,
        ram_bytes=1,
        os="t",
        machine="t",
    )


COPY_PREFIX = "benchbook-committed-"


def _remove_stale_copies() -> list[Path]:
    """Remove ``<tmp>/benchbook-committed-<pid>-*`` copies whose process is gone; returns them."""
    stale = []
    for d in Path(tempfile.gettempdir()).glob(f"{COPY_PREFIX}*-*"):
        pid = d.name[len(COPY_PREFIX) :].split("-", 1)[0]
        if pid.isdigit() and not psutil.pid_exists(int(pid)):
            shutil.rmtree(d, ignore_errors=True)
            stale.append(d)
    return stale


@functools.cache
def committed_root() -> Path:
    """A copy of the committed ``data/`` and ``params.yaml`` (git HEAD) for the tests that assert exact
    facts about the committed raw data: records that a local ``make run`` appended (this host's own
    measurements, not committed) must not change what they check.  The working tree itself when this
    is not a git checkout.

    One copy per test process (about 27 MB, named with the process id), removed when the process
    exits; the tests only read it.  Copies left by processes that died without running their exit
    handlers (SIGKILL, a timeout) are removed here first.  A copy per call, never removed, once filled
    the CI host's disk (2,058 copies, 53 GB)."""
    _remove_stale_copies()
    try:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", "HEAD", "data", "params.yaml"],
            capture_output=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return ROOT
    dst = Path(tempfile.mkdtemp(prefix=f"{COPY_PREFIX}{os.getpid()}-"))
    atexit.register(shutil.rmtree, dst, ignore_errors=True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(dst, filter="data")
    return dst


@pytest.fixture(autouse=True)
def _checkpoint_warned_env(monkeypatch):
    """Each test starts with no draft-self checkpoint warned of by a parent process
    (``experiments.draftself.run.WARNED_ENV``, which ``resolve_checkpoint`` sets in ``os.environ``):
    a warning one test's checkpoint gave is not another test's."""
    monkeypatch.setenv("BENCHBOOK_CHECKPOINT_WARNED", "")


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def params() -> dict:
    return resolve.load_params(ROOT)


@pytest.fixture(scope="session")
def committed_params() -> dict:
    """The committed ``params.yaml`` (git HEAD): for tests whose expected values name the registry's ids
    or other committed settings, which the README's own ``benchbook models add`` edits locally."""
    return resolve.load_params(committed_root())


@pytest.fixture(scope="session")
def toolchain(params):
    try:
        return resolve.get_toolchain(params, build=False)
    except Exception as e:  # noqa: BLE001
        pytest.skip(f"llama.cpp toolchain not built ({e}); fix: `benchbook toolchain build`")


@pytest.fixture(scope="session")
def models(params, toolchain):
    ids = ["smollm2-135m-q4_1", "smollm2-135m-q8_0", "smollm2-135m-q2_k"]
    return {m["model_id"]: m for m in resolve.get_models(params, ids, toolchain, log=lambda *_: None)}


def nbval_notebook(root: Path, name: str, tmp_path: Path, parameters: dict) -> Path:
    """Inject ``parameters`` into ``notebooks/<name>`` (papermill ``--prepare-only``, nothing executed)
    as ``tmp_path/<name>``, then run it under ``pytest --nbval-lax`` in ``tmp_path``; the notebook's own
    assert cells decide.  Returns the prepared notebook's path; fails the test with nbval's output."""
    dst = tmp_path / name
    pm.execute_notebook(str(root / "notebooks" / name), str(dst), prepare_only=True, parameters=parameters)
    r = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--nbval-lax", str(dst)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 0, r.stdout[-3000:]
    return dst
