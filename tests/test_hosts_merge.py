"""Two clones of the committed repository measure as two hosts, commit, and merge through git: no conflict
in raw files, snapshots or lock files, and `dvc repro` afterwards re-runs no measurement of either host.
Artifacts go through the committed default DVC remote (a folder beside the clones) and land in the
model cache by sha256 on the other clone.

The measurement is a stand-in for speed: a `papermill` first on PATH that writes one complete
llama_bench session and a host snapshot for the host named in $STANDIN_HOST, through the project's own
writers (``session.Session``, ``provenance.store_snapshot``); DVC runs the real stage of
``measure/dvc.yaml`` around it, exactly as `benchbook run` forces it on a new host.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchbook import hosts
from benchbook.llamacpp import artifacts
from benchbook.llamacpp import models as models_mod

ROOT = Path(__file__).resolve().parents[1]
MEASURE = "measure/dvc.yaml"

STANDIN = """#!{python}
# stand-in for `papermill notebooks/measure.ipynb ... -p experiment llama_bench`: one complete session of
# host $STANDIN_HOST
import os
from pathlib import Path

from benchbook.provenance import HostSnapshot, store_snapshot
from benchbook.session import Session

host = os.environ["STANDIN_HOST"]
snap = HostSnapshot(host_id=host, hostname=host, cpu_model="stand-in CPU " + host[:4], cpu_logical=2,
                    cpu_physical=2, ram_bytes=16 * 2**30, os="Linux", machine="x86_64")
store_snapshot(Path("data/raw/snapshots"), "host", snap.record(), host)
meta = {{"host_id": host, "toolchain_id": "standin0standin0"}}
with Session.open(Path("data/raw/llama_bench") / f"{{host}}.jsonl", "llama_bench", meta=meta):
    pass
"""


def _run(cwd: Path, *argv: str, env: dict | None = None, check: bool = True) -> subprocess.CompletedProcess:
    proc = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, env=env)
    if check and proc.returncode != 0:
        raise AssertionError(
            f"{' '.join(argv)} in {cwd}: exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
        )
    return proc


def _git(cwd: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    return _run(cwd, "git", "-c", "user.name=t", "-c", "user.email=t@t", *args, check=check)


def _dvc(cwd: Path, *args: str, env: dict) -> subprocess.CompletedProcess:
    return _run(cwd, sys.executable, "-m", "dvc", *args, env=env)


@pytest.fixture(scope="module")
def merged(tmp_path_factory):
    """origin.git, clones a and b (hosts aaaa…, bbbb…) that both measured and committed; b pulled a."""
    if _run(ROOT, "git", "rev-parse", "HEAD", check=False).returncode != 0:
        pytest.skip("not a git checkout")
    tmp = tmp_path_factory.mktemp("hosts")
    _run(tmp, "git", "clone", "-q", "--bare", str(ROOT), "origin.git")
    branch = _run(tmp / "origin.git", "git", "symbolic-ref", "--short", "HEAD").stdout.strip()
    fake_bin = tmp / "bin"
    fake_bin.mkdir()
    (fake_bin / "papermill").write_text(STANDIN.format(python=sys.executable))
    (fake_bin / "papermill").chmod(0o755)
    base_env = {
        **os.environ,
        "PATH": f"{fake_bin}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": str(ROOT / "src"),
        "BENCHBOOK_CACHE": str(tmp / "cache"),
    }
    clones = {"a": tmp / "a", "b": tmp / "b"}
    _git(tmp, "clone", "-q", str(tmp / "origin.git"), "a")
    # the base: measure/dvc.lock in step with the code (after a code change the committer runs
    # `dvc commit -f` on the measurement stages; nothing is measured)
    stages = [f"{MEASURE}:{s}" for s in ("llama_bench", "speculative", "draftself_train", "draftself")]
    _dvc(clones["a"], "commit", "-f", *stages, env=base_env)
    if _git(clones["a"], "status", "--porcelain").stdout:
        _git(clones["a"], "commit", "-q", "-am", "measure/dvc.lock in step with the code")
        _git(clones["a"], "push", "-q", "origin", branch)
    _git(tmp, "clone", "-q", str(tmp / "origin.git"), "b")
    for name, host in (("a", "a" * 16), ("b", "b" * 16)):
        env = {**base_env, "STANDIN_HOST": host}
        _dvc(
            clones[name],
            "repro",
            "--no-run-cache",
            "--force",
            "--single-item",
            f"{MEASURE}:llama_bench",
            env=env,
        )
        _git(clones[name], "add", "-A")
        _git(clones[name], "commit", "-q", "-m", f"host {host}: llama_bench")
    _git(clones["a"], "push", "-q", "origin", branch)
    pull = _git(clones["b"], "pull", "--no-rebase", "--no-edit", "origin", branch, check=False)
    return {"tmp": tmp, "a": clones["a"], "b": clones["b"], "pull": pull, "env": base_env, "branch": branch}


def test_two_hosts_merge_without_conflict(merged):
    pull, b = merged["pull"], merged["b"]
    assert pull.returncode == 0 and "CONFLICT" not in pull.stdout + pull.stderr, pull.stdout + pull.stderr
    # each host committed exactly its own raw and snapshot files; the lock files were not touched
    changed = _git(b, "diff", "--name-only", "HEAD~2", "HEAD").stdout.split()
    assert sorted(changed) == [
        f"data/raw/llama_bench/{'a' * 16}.jsonl",
        f"data/raw/llama_bench/{'b' * 16}.jsonl",
        f"data/raw/snapshots/hosts/{'a' * 16}.jsonl",
        f"data/raw/snapshots/hosts/{'b' * 16}.jsonl",
    ]
    assert _git(b, "status", "--porcelain").stdout == ""
    # both hosts appear, each with one complete llama_bench session
    inv = {h.host_id: h for h in hosts.inventory(b / "data/raw")}
    for host in ("a" * 16, "b" * 16):
        assert [(s.experiment, s.ended is not None) for s in inv[host].sessions] == [("llama_bench", True)]
        assert inv[host].snapshot["cpu_model"] == f"stand-in CPU {host[:4]}"


def test_repro_after_the_merge_reruns_no_measurement(merged):
    b, env = merged["b"], merged["env"]
    status = _dvc(b, "status", MEASURE, env=env)
    assert "up to date" in status.stdout, status.stdout
    # --dry stops at `site`, whose deps a dry run never makes: read what it planned up to there
    dry = _run(b, sys.executable, "-m", "dvc", "repro", "--dry", env=env, check=False).stdout
    assert "Stage 'measure/dvc.yaml:draftself_train' didn't change, skipping" in dry, dry
    ran = {line.split("'")[1] for line in dry.splitlines() if line.startswith("Running stage")}
    assert ran & {"llama_bench", "speculative", "draftself_train", "draftself"} == set(), dry
    assert "llama_bench_report" in ran  # the derived stages do re-run on the merged data


def test_an_artifact_pushed_by_one_clone_is_pulled_into_the_others_cache(merged, monkeypatch):
    a, b, env, tmp = merged["a"], merged["b"], merged["env"], merged["tmp"]
    payload = b"GGUF stand-in model bytes\n"
    sha = hashlib.sha256(payload).hexdigest()
    d = a / artifacts.MODELS_DIR
    d.mkdir(parents=True, exist_ok=True)
    (d / f"{sha}.gguf").write_bytes(payload)
    origin = {"source": "url", "url": "http://127.0.0.1:9/never-fetched.gguf"}
    desc = {"model_id": "standin", "sha256": sha, "size_bytes": len(payload), "origin": origin}
    (d / f"{sha}.json").write_text(json.dumps(desc))
    _dvc(a, "add", str(artifacts.MODELS_DIR / f"{sha}.gguf"), env=env)
    _dvc(a, "push", env=env)
    # the default remote is the folder beside the clones, named relatively in the committed config
    assert (tmp / "benchbook-dvc-remote" / "files" / "md5").is_dir()
    assert (d / f"{sha}.gguf.dvc").exists() and _git(
        a, "check-ignore", "-q", str(d / f"{sha}.gguf")
    ).returncode == 0
    _git(a, "add", "-A")
    _git(a, "commit", "-q", "-m", "artifact")
    _git(a, "push", "-q", "origin", merged["branch"])
    _git(b, "pull", "-q", "--no-rebase", "--no-edit", "origin", merged["branch"])
    _dvc(b, "pull", env=env)
    assert (b / artifacts.MODELS_DIR / f"{sha}.gguf").read_bytes() == payload
    monkeypatch.setenv("BENCHBOOK_CACHE", env["BENCHBOOK_CACHE"])
    registry = {"standin": {"source": "url", "url": origin["url"], "sha256": sha}}
    got = artifacts.import_models(b, registry, log=lambda _: None)
    assert [(i.model_id, i.path) for i in got] == [
        ("standin", Path(env["BENCHBOOK_CACHE"]) / "models" / f"{sha}.gguf")
    ]
    rec = models_mod.fetch(registry, "standin", log=lambda m: pytest.fail(f"fetched again: {m}"))
    assert (rec["sha256"], Path(rec["path"]).read_bytes()) == (sha, payload)
    # a second import finds it in the cache
    assert [i.why for i in artifacts.import_models(b, registry)] == ["already in the cache"]


#: a small real llama-bench session for clone a (params.yaml: one model, -p 16 -n 4 -r 3, no cold run)
SMALL = (
    (
        "  models: [smollm2-135m-q4_1, smollm2-135m-q8_0, smollm2-135m-q2_k]\n",
        "  models: [smollm2-135m-q4_1]\n",
    ),
    ("  n_prompt: 128          # pp test", "  n_prompt: 16           # pp test"),
    ("  n_gen: 64              # tg test", "  n_gen: 4               # tg test"),
    ("  repetitions: 5         # -r (warm", "  repetitions: 3         # -r (warm"),
    ("  cold_first_run: true", "  cold_first_run: false"),
)


def test_a_real_llama_bench_session_merges_beside_a_stand_in_host(toolchain, models, tmp_path):
    """Clone a measures with the real llama-bench (cached build and model), clone b with the stand-in."""
    _run(tmp_path, "git", "clone", "-q", "--bare", str(ROOT), "origin.git")
    fake_bin = tmp_path / "bin"
    fake_bin.mkdir()
    (fake_bin / "papermill").write_text(STANDIN.format(python=sys.executable))
    (fake_bin / "papermill").chmod(0o755)
    # the real papermill of this interpreter's environment first on PATH (pytest may run without the venv's
    # bin/ on PATH, as `.venv/bin/python -m pytest` does)
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "PATH": path}
    a, b = tmp_path / "a", tmp_path / "b"
    for c in (a, b):
        _git(tmp_path, "clone", "-q", str(tmp_path / "origin.git"), c.name)
    stages = [f"{MEASURE}:{s}" for s in ("llama_bench", "speculative", "draftself_train", "draftself")]
    _dvc(a, "commit", "-f", *stages, env=env)  # the base in step with the code (nothing measured)
    _dvc(b, "commit", "-f", *stages, env=env)
    params = (a / "params.yaml").read_text()
    for old, new in SMALL:
        assert params.count(old) == 1, old
        params = params.replace(old, new)
    (a / "params.yaml").write_text(params)
    _dvc(a, "repro", "--no-run-cache", "--force", "--single-item", f"{MEASURE}:llama_bench", env=env)
    changed = _git(a, "status", "--porcelain", "data/raw/llama_bench").stdout.split("\n")[0]
    real_file = changed[3:].strip()  # this machine's data/raw/llama_bench/<host_id>.jsonl (new or appended)
    stand_in = {**env, "PATH": f"{fake_bin}{os.pathsep}{env['PATH']}", "STANDIN_HOST": "b" * 16}
    _dvc(b, "repro", "--no-run-cache", "--force", "--single-item", f"{MEASURE}:llama_bench", env=stand_in)
    for c in (a, b):
        _git(c, "add", "-A", ".", ":!.venv")
        _git(c, "commit", "-q", "-m", f"host of clone {c.name}: llama_bench")
    branch = _run(tmp_path / "origin.git", "git", "symbolic-ref", "--short", "HEAD").stdout.strip()
    _git(a, "push", "-q", "origin", branch)
    pull = _git(b, "pull", "--no-rebase", "--no-edit", "origin", branch, check=False)
    assert pull.returncode == 0 and "CONFLICT" not in pull.stdout + pull.stderr, pull.stdout + pull.stderr
    assert "up to date" in _dvc(b, "status", MEASURE, env=env).stdout
    records = [json.loads(line) for line in (b / real_file).read_text().splitlines()]
    newest = [r for r in records if r["schema"] == "benchbook.session" and r["event"] == "end"][-1][
        "session_id"
    ]
    rows = sorted(
        (
            r["llama_bench"]["n_prompt"],
            r["llama_bench"]["n_gen"],
            len(r["llama_bench"]["samples_ns"]),
            r["status"],
        )
        for r in records
        if r["schema"] == "benchbook.llama_bench" and r["session_id"] == newest
    )
    assert rows == [(0, 4, 3, "ok"), (16, 0, 3, "ok")]  # tg4 and pp16, 3 repetitions each
    assert (b / "data/raw/llama_bench" / f"{'b' * 16}.jsonl").exists()
