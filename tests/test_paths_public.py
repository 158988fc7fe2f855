"""Nothing private leaves the machine (issue 33 §3): every raw record a measurement writes holds
commands and paths relative to the repository, the cache (``<cache>/…``) or as a file's name
(``<models>/NAME``), whatever the model's source; the measurement itself ran the real paths, and the
readers that need a path back (resume, recompute, a reader opening the file) still work.

The user here is alice: home ``<tmp>/home/alice``, cache ``<tmp>/home/alice/.cache/benchbook``, her own
GGUF in ``<tmp>/home/alice/models`` (``source: file``, outside the repository), the repository in
``<tmp>/home/alice/src/proj``.  No written line may name her home folder."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchbook import resolve
from benchbook.experiments.llama_bench.analysis import load_llama_bench, rate_stats
from benchbook.experiments.llama_bench.plan import LlamaBenchParams, plan
from benchbook.experiments.llama_bench.run import run_session
from benchbook.llamacpp.server import LlamaServer
from benchbook.llamacpp.toolchain import Toolchain
from benchbook.paths import public_record, resolve_public
from benchbook.provenance import host_snapshot
from benchbook.records import RecordWriter, iter_records, repair
from benchbook.schemas import build
from benchbook.session import Session

FIX = Path(__file__).parent / "fixtures" / "llama_bench_b11434.jsonl"
ROOT = Path(__file__).resolve().parents[1]

#: a fake llama-bench: the fixture's two rows (3 samples each) with ``model_filename`` = its ``-m``, as
#: llama-bench prints it; a model named ``bad`` fails as llama-bench does, naming the file on stderr
FAKE_BENCH = """
import json, sys
model = sys.argv[sys.argv.index("-m") + 1]
if "bad" in model:
    sys.stderr.write(f"llama_model_load: error loading model: failed to open {model}: No such file\\n")
    sys.exit(1)
for line in open(sys.argv[0] + ".rows"):
    print(json.dumps({**json.loads(line), "model_filename": model}))
"""


@pytest.fixture
def alice(tmp_path, monkeypatch):
    """alice's folders: ``home``, ``cache`` (with the build and a cached model), ``models`` (her own
    file), ``repo`` (a benchbook project); HOME and XDG_CACHE_HOME point at them."""
    home = tmp_path / "home" / "alice"
    cache = home / ".cache" / "benchbook"
    bin_dir = cache / "toolchains" / "b11434-cpu-0123456789abcdef" / "build" / "bin"
    bin_dir.mkdir(parents=True)
    bench = bin_dir / "llama-bench"
    bench.write_text(f"#!{sys.executable}\n{FAKE_BENCH}")
    bench.chmod(0o755)
    Path(f"{bench}.rows").write_text(FIX.read_text())
    mine = home / "models" / "my-model.gguf"
    mine.parent.mkdir(parents=True)
    _tiny_gguf(mine, 64)
    cached = cache / "models" / f"{'c' * 64}.gguf"
    cached.parent.mkdir(parents=True)
    _tiny_gguf(cached, 32)
    repo = home / "src" / "proj"
    repo.mkdir(parents=True)
    (repo / "params.yaml").write_text("{}\n")
    (repo / "dvc.yaml").write_text("stages: {}\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.delenv("BENCHBOOK_CACHE", raising=False)
    monkeypatch.delenv("BENCHBOOK_ROOT", raising=False)
    return {"home": home, "cache": cache, "bin_dir": bin_dir, "bench": bench, "mine": mine,
            "cached": cached, "repo": repo}  # fmt: skip


def _tiny_gguf(path: Path, n: int) -> None:
    """A valid GGUF v3 with one f32 tensor of ``n`` values (distinct files for distinct ``n``)."""
    import gguf
    import numpy as np

    w = gguf.GGUFWriter(str(path), "llama")
    w.add_tensor("a", np.arange(n, dtype=np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def _sha(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


def _models(a) -> list[dict]:
    """alice's file (``source: file``, outside the repository) and a registry model in the cache."""
    mine, cached, size = a["mine"], a["cached"], lambda p: p.stat().st_size
    return [
        {"model_id": "my-model", "path": str(mine), "sha256": _sha(mine), "size_bytes": size(mine),
         "origin": {"source": "file", "path": str(mine)}},
        {"model_id": "cached", "path": str(cached), "sha256": _sha(cached), "size_bytes": size(cached),
         "origin": {"source": "hf", "repo": "x/y", "file": "y.gguf"}},
    ]  # fmt: skip


CFG = {"n_prompt": 16, "n_gen": 8, "n_depth": 0, "repetitions": 3, "threads": 1, "n_gpu_layers": 0,
       "flash_attn": "off", "cold_first_run": False, "models": ["my-model", "cached"]}  # fmt: skip


def _private_lines(folder: Path, home: Path) -> list[str]:
    """Every line of every file under ``folder`` naming alice's home or its ``/home/alice`` tail."""
    hits = []
    for f in sorted(p for p in folder.rglob("*") if p.is_file()):
        for i, line in enumerate(f.read_text(errors="replace").splitlines(), 1):
            if str(home) in line or "/home/alice" in line:
                hits.append(f"{f.relative_to(folder)}:{i}: {line[:160]}")
    return hits


def _measure(a, raw_dir: Path):
    """One llama_bench session of alice's two models into ``raw_dir`` (snapshots included)."""
    models = _models(a)
    committed = next(iter_records(ROOT / "data" / "raw" / "snapshots" / "toolchains.jsonl"))[1]
    rec = {k: v for k, v in committed.items() if k not in ("schema", "schema_version")}
    rec |= {"toolchain_id": "0123456789abcdef", "bin_dir": str(a["bin_dir"])}
    rec["cmake_flags"] = [*rec["cmake_flags"], f"-DCMAKE_INSTALL_PREFIX={a['home']}/opt"]
    tc = Toolchain(a["bin_dir"], rec)
    host = resolve.store_snapshots(raw_dir / "snapshots", tc, models)
    raw_file = raw_dir / "llama_bench" / f"{host.host_id}.jsonl"
    res = run_session(
        cfg=CFG,
        bench_bin=tc.binary("llama-bench"),
        models=models,
        toolchain={"toolchain_id": tc.toolchain_id},
        host=host,
        root=a["repo"],
        raw_file=raw_file,
        log=lambda *_: None,
    )
    return res, raw_file, host, models


def test_a_measurement_records_no_private_path(alice):
    """Every line written by a llama_bench session (its records, the host, toolchain and model
    snapshots) holds no folder of alice's: the argv's model as ``<models>/my-model.gguf`` (her file)
    or ``<cache>/models/…`` (a cached model), llama-bench's own ``model_filename`` the same, the
    toolchain's ``bin_dir`` as ``<cache>/toolchains/…``."""
    raw_dir = alice["repo"] / "writeups" / "mine" / "raw"
    res, raw_file, _, _ = _measure(alice, raw_dir)
    assert (res.ran, res.failed) == (2, 0)
    assert _private_lines(raw_dir, alice["home"]) == []
    recs = [r for _, r in iter_records(raw_file)]
    rows = [r for r in recs if r["schema"] == "benchbook.llama_bench"]
    assert [r["argv"][2] for r in rows] == ["<models>/my-model.gguf"] * 2 + [
        f"<cache>/models/{'c' * 64}.gguf"
    ] * 2
    assert [r["llama_bench"]["model_filename"] for r in rows] == [r["argv"][2] for r in rows]
    assert all(r["argv"][0] == "llama-bench" for r in rows)
    snaps = raw_dir / "snapshots"
    (tc,) = [r for f in (snaps / "toolchains").glob("*.jsonl") for _, r in iter_records(f)]
    assert tc["bin_dir"] == "<cache>/toolchains/b11434-cpu-0123456789abcdef/build/bin"
    assert tc["cmake_flags"][-1] == "-DCMAKE_INSTALL_PREFIX=<local>/opt"
    mrecs = {r["model_id"]: r for f in (snaps / "models").glob("*.jsonl") for _, r in iter_records(f)}
    assert mrecs["my-model"]["origin"] == {"source": "file", "path": "<models>/my-model.gguf"}


def test_a_failed_run_and_a_torn_line_record_no_private_path(alice):
    """A failed run's stderr tail (llama-bench naming the file it could not open) and a quarantined
    torn line's ``file`` name no folder of alice's either."""
    bad = alice["home"] / "models" / "bad.gguf"
    bad.write_bytes(b"GGUF")
    raw_file = alice["repo"] / "data" / "raw" / "llama_bench" / "h.jsonl"
    host = host_snapshot()
    res = run_session(
        cfg={**CFG, "models": ["bad"]},
        bench_bin=alice["bench"],
        models=[{"model_id": "bad", "path": str(bad), "sha256": _sha(bad)}],
        toolchain={"toolchain_id": "t"},
        host=host,
        root=alice["repo"],
        raw_file=raw_file,
        log=lambda *_: None,
    )
    assert res.failed == 1
    (failed,) = [r for _, r in iter_records(raw_file) if r["schema"] == "benchbook.run_failed"]
    assert failed["stderr_tail"] == (
        "llama_model_load: error loading model: failed to open <models>/bad.gguf: No such file\n"
    )
    torn = '{"schema": "benchbook.llama_bench", "argv": ["llama-bench", "-m", "<models>/ba'
    with open(raw_file, "a") as f:
        f.write(torn)
    moved = repair(raw_file)
    assert moved is not None and moved["file"] == str(raw_file)  # the caller is told the real path
    q = json.loads(raw_file.with_name(raw_file.name + ".quarantine.jsonl").read_text())
    assert (q["file"], q["raw"]) == ("data/raw/llama_bench/h.jsonl", torn)  # the torn bytes verbatim
    assert _private_lines(raw_file.parent, alice["home"]) == []


def test_a_session_start_and_a_server_log_record_no_private_path(alice):
    """A session's start record (its config: a draft file, the prompts file in the repository), a
    request record (server argv, its log's path) and the server's log file itself (llama-server
    prints the model's path) are written public; prompts and model outputs stay verbatim."""
    raw = alice["repo"] / "data" / "raw" / "speculative"
    log_path = raw / "logs" / "s-r0.log"
    draft = alice["home"] / "models" / "draft.gguf"
    config = {"draft_path": str(draft), "prompts_file": str(alice["repo"] / "data" / "p.yaml")}
    meta = {"host_id": "h", "toolchain_id": "t", "config": config}
    with Session.open(raw / "h.jsonl", "speculative", meta):
        pass
    start = next(r for _, r in iter_records(raw / "h.jsonl"))
    assert start["config"] == {"draft_path": "<models>/draft.gguf", "prompts_file": "data/p.yaml"}
    # the same record as a request writer builds it: the server's argv and log, a prompt, an output
    rec = {"argv": [str(alice["bin_dir"] / "llama-server"), "-m", str(alice["mine"]), "-md", str(draft)],
           "server": {"log": str(log_path)}, "prompt": f"cat {alice['home']}/notes.txt",
           "content": f"{alice['home']}/notes.txt"}  # fmt: skip
    assert public_record(rec, alice["repo"]) == {
        "argv": ["<cache>/toolchains/b11434-cpu-0123456789abcdef/build/bin/llama-server", "-m",
                 "<models>/my-model.gguf", "-md", "<models>/draft.gguf"],
        "server": {"log": "data/raw/speculative/logs/s-r0.log"},
        "prompt": rec["prompt"], "content": rec["content"],
    }  # fmt: skip
    # llama-server's log: written by the server with the real paths, public once it has exited
    log_path.parent.mkdir(parents=True, exist_ok=True)
    text = (
        f'=== benchbook: start ["{alice["bin_dir"]}/llama-server", "-m", "{alice["mine"]}"]\n'
        f"srv    load_model: loading model '{alice['cached']}'\n"
        f"llama_model_loader: loaded meta data from {alice['mine']} (version GGUF V3)\n"
    )
    log_path.write_text(text)
    srv = LlamaServer(["llama-server"], log_path)
    srv.proc = subprocess.Popen(["true"])
    srv.publish_log()  # still running: the log is left as the server writes it
    srv.proc.wait()
    srv.publish_log()
    assert log_path.read_text() == (
        '=== benchbook: start ["<cache>/toolchains/b11434-cpu-0123456789abcdef/build/bin/llama-server", '
        '"-m", "<models>/my-model.gguf"]\n'
        f"srv    load_model: loading model '<cache>/models/{'c' * 64}.gguf'\n"
        "llama_model_loader: loaded meta data from <models>/my-model.gguf (version GGUF V3)\n"
    )
    assert _private_lines(raw, alice["home"]) == []


def test_public_records_round_trip_resume_recompute_and_open(alice):
    """The round trip on public records: an interrupted session resumes (its keys were hashed with the
    real paths at plan time, the records keep them), the report's reader recomputes the same numbers
    from them, and ``resolve_public`` gives the recorded model paths back as files that hold the
    recorded sha256 (``<cache>/…`` on this machine; ``<models>/NAME`` from the registry's files)."""
    raw_dir = alice["repo"] / "data" / "raw"
    res, raw_file, host, models = _measure(alice, raw_dir)
    lines = raw_file.read_text().splitlines()
    # kill after the first run: drop the second run's rows and the end record
    first = [ln for ln in lines if json.loads(ln).get("model_id") != "cached" and '"end"' not in ln]
    raw_file.write_text("\n".join(first) + "\n")
    tc = {"toolchain_id": "0123456789abcdef"}
    again = run_session(cfg=CFG, bench_bin=alice["bench"], models=models, toolchain=tc, host=host,
                        root=alice["repo"], raw_file=raw_file, log=lambda *_: None)  # fmt: skip
    assert (again.resumed, again.session_id, again.skipped, again.ran) == (True, res.session_id, 1, 1)
    recs = [r for _, r in iter_records(raw_file)]
    rows = [r for r in recs if r["schema"] == "benchbook.llama_bench"]
    # recompute: the run keys from the plan (real paths) are the recorded ones
    planned = {
        r.key for r in plan(LlamaBenchParams.from_section(CFG), models, "0123456789abcdef", host.host_id)
    }
    assert {r["run_key"] for r in rows} == planned
    # the reader: four rows (2 models x pp, tg), the fixture's rates
    stats = rate_stats(load_llama_bench(raw_dir))
    assert stats.height == 4
    assert sorted(stats["llama_bench_avg_ts"].to_list()) == [27.152278, 27.152278, 76.836787, 76.836787]
    # the paths back: <cache>/ on this machine, <models>/NAME by the registry's file names
    by_name = {Path(m["path"]).name: m["path"] for m in models if m["model_id"] == "my-model"}
    for r in rows:
        back = Path(resolve_public(r["argv"][2], alice["repo"], by_name))
        assert back.is_file() and _sha(back) == r["model_sha256"], r["argv"][2]
    assert _private_lines(raw_dir, alice["home"]) == []


def test_an_older_record_with_absolute_paths_is_read_as_it_is(alice):
    """Committed raw records are append-only: an older record with absolute paths is read as it was
    written (``resolve_public`` returns it; pages make it public when they show it), and a writer that
    quotes another person's file (ingest) keeps it verbatim."""
    old = "/root/.cache/benchbook/models/" + "a" * 64 + ".gguf"
    assert resolve_public(old) == old
    out = alice["repo"] / "data" / "external" / "x.jsonl"
    with RecordWriter(out, public=False) as w:
        w.append(
            build("quarantine", file="/home/bob/log.txt", line=1, byte_offset=0, raw="x", quarantined_at="t")
        )
    assert json.loads(out.read_text())["file"] == "/home/bob/log.txt"


def test_a_log_a_signal_left_private_is_published_when_the_session_opens_again(alice):
    """A run stopped by SIGTERM or kill -9 never reached ``LlamaServer.stop`` (found on a clean clone's
    `make run` stopped with SIGTERM: its last server log kept 6 `/root/.cache` paths): the next
    ``Session.open`` on that raw file publishes the logs of its newest session; a public log is left
    untouched, and so is another session's (another host's committed log: not this file's to rewrite)."""
    raw = alice["repo"] / "data" / "raw" / "speculative"
    meta = {"host_id": "h"}
    with Session.open(raw / "h.jsonl", "speculative", meta) as s:
        sid = s.session_id[:8]
    (raw / "logs").mkdir(parents=True)
    left = raw / "logs" / f"{sid}-self-n4-r0.log"
    left.write_text(f"srv    load_model: loading model '{alice['mine']}'\n")
    done = raw / "logs" / f"{sid}-baseline-r0.log"
    done.write_text("srv    load_model: loading model '<models>/my-model.gguf'\n")
    other = raw / "logs" / "0123abcd-baseline-r0.log"
    other.write_text("srv    load_model: loading model '/root/.cache/benchbook/models/x.gguf'\n")
    before = done.stat().st_mtime_ns, other.read_text()
    # the session did not end (a killed run): it is resumed, and its logs published
    lines = (raw / "h.jsonl").read_text().splitlines()
    (raw / "h.jsonl").write_text("\n".join(x for x in lines if '"event":"end"' not in x) + "\n")
    with Session.open(raw / "h.jsonl", "speculative", meta) as s:
        assert s.resumed and s.session_id[:8] == sid
    assert left.read_text() == "srv    load_model: loading model '<models>/my-model.gguf'\n"
    assert (done.stat().st_mtime_ns, other.read_text()) == before
    assert _private_lines(raw, alice["home"]) == []


def test_publishing_a_log_twice_changes_nothing_more(alice, tmp_path):
    """A log is published when its server exits and again when a session opens on its file: text made
    public was published again into ``<cache><local>/llama-server`` (the rest of ``<cache>/…`` read as an
    absolute path; seen on a clean clone's CI, where the fake server had exited before the first call)."""
    from benchbook.records import publish_log

    log = tmp_path / "s-r0.log"
    log.write_text(f'start ["{alice["bin_dir"]}/llama-server", "-m", "{alice["mine"]}"]\n')
    assert publish_log(log) is True
    once = log.read_text()
    assert once == (
        'start ["<cache>/toolchains/b11434-cpu-0123456789abcdef/build/bin/llama-server", "-m", '
        '"<models>/my-model.gguf"]\n'
    )
    assert publish_log(log) is False and log.read_text() == once
