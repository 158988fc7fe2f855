"""The draft-self checkpoint store (``draftself.store``): the runners keep the checkpoint they measured
with by sha256 and name it in the session start record, a pulled copy is found by sha256, and the
caveat ``checkpoint_unavailable`` fires exactly when the checkpoint is not kept."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import sys
import tarfile
import types
from pathlib import Path

import pytest

from benchbook.draftself import data, store
from benchbook.draftself.model import save
from benchbook.experiments.draftself import run
from benchbook.experiments.draftself_gpu.report import build
from conftest import committed_root
from test_draftself import tiny

#: the checkpoints of the two committed H200 sessions (57a59f95 the published one, 33165c04 the older)
PUBLISHED_SHA = "800546b9ae05202423726be3009716aa7d7a0600f40d9afa3724aa76300fa2bf"
OLDER_SHA = "c3da4658a38d3c4a4406a2aaf5affd38e4f78fbaf718b74c804e37729f8bcbb3"


def test_keep_places_the_file_by_sha256_and_find_returns_it(tmp_path):
    ck = tmp_path / "cache" / "x.pt"
    ck.parent.mkdir()
    ck.write_bytes(b"weights")
    sha = hashlib.sha256(b"weights").hexdigest()
    rel = store.keep(ck, tmp_path / "repo", sha, {"experiment": "draftself"})
    assert rel == f"data/artifacts/checkpoints/{sha}.pt"
    kept = tmp_path / "repo" / rel
    assert kept.read_bytes() == b"weights"
    assert json.loads(kept.with_suffix(".json").read_text()) == {
        "about": {"experiment": "draftself"},
        "bytes": 7,
        "sha256": sha,
    }
    assert store.keep(ck, tmp_path / "repo", sha) == rel  # again: nothing changes
    assert store.find(tmp_path / "repo", sha) == kept
    assert store.find(tmp_path / "repo", "0" * 64) is None
    kept.unlink()
    kept.write_bytes(b"damaged")  # a file that no longer hashes to its name is not returned
    assert store.find(tmp_path / "repo", sha) is None
    with pytest.raises(ValueError, match=r"x\.pt: sha256 differs from 0000000000000000…"):
        store.keep(ck, tmp_path / "other", "0" * 64)


def test_kept_means_in_the_store_with_its_dvc_pointer(tmp_path):
    rel = store.stored_path(PUBLISHED_SHA)
    assert not store.is_kept(f"/tmp/bbcache/draftself_gpu/{PUBLISHED_SHA}.pt", tmp_path)  # the H200 runs'
    assert not store.is_kept(None, tmp_path)
    assert not store.is_kept(rel, tmp_path)  # placed, never `dvc add`-ed (or lost with a lent machine)
    (tmp_path / rel).parent.mkdir(parents=True)
    (tmp_path / f"{rel}.dvc").write_text("outs:\n- md5: 0\n")
    assert store.is_kept(rel, tmp_path)
    # elsewhere under data/artifacts (the models' folder) is not the checkpoint store
    assert not store.is_kept(f"data/artifacts/models/{PUBLISHED_SHA}.pt", tmp_path)


def test_the_cpu_runner_keeps_the_checkpoint_it_measured_and_records_its_path(tmp_path):
    ck = tmp_path / "cache" / "m.pt"
    ck.parent.mkdir()
    save(tiny(4, vocab=len(data.Tokenizer().vocab)).float(), ck)
    sha = hashlib.sha256(ck.read_bytes()).hexdigest()
    params = {"n_tokens": 4, "prompt_kinds": ["letters"], "ks": [2], "sequential_ks": [], "iterative_ks": []}
    params |= {"coreset_masses": [], "repetitions": 1, "threads": 1, "prompts_per_kind": 1}
    raw = tmp_path / "data" / "raw" / "draftself"
    out = run.measure_session(params, ck, raw, root=tmp_path, log=lambda *a: None)
    starts = [
        json.loads(line)
        for line in out.raw_file.read_text().splitlines()
        if '"benchbook.session"' in line and '"start"' in line
    ]
    assert [s["checkpoint"] for s in starts] == [f"data/artifacts/checkpoints/{sha}.pt"]
    assert (tmp_path / starts[0]["checkpoint"]).read_bytes() == ck.read_bytes()
    desc = json.loads((tmp_path / f"data/artifacts/checkpoints/{sha}.json").read_text())
    assert (desc["sha256"], desc["bytes"]) == (sha, ck.stat().st_size)
    assert desc["about"]["experiment"] == "draftself"
    # a clone whose cache lacks it (the manifest's path and key name nothing here) takes the kept copy
    manifest = tmp_path / "data" / "draftself" / "checkpoint.json"
    manifest.parent.mkdir(parents=True)
    manifest.write_text(json.dumps({"sha256": sha, "key": "nokey", "path": str(tmp_path / "gone.pt")}))
    found, _ = run.resolve_checkpoint(manifest, log=lambda *a: None)
    assert found == tmp_path / f"data/artifacts/checkpoints/{sha}.pt"


def _root_with(tmp_path: Path, checkpoint: str | None, pointer: bool) -> Path:
    """A copy of the committed draftself_gpu records whose published session (57a59f95) names
    ``checkpoint`` (None: as committed) in its start record, with that path's ``.dvc`` pointer when
    ``pointer``."""
    raw = tmp_path / "data" / "raw"
    shutil.copytree(committed_root() / "data" / "raw" / "draftself_gpu", raw / "draftself_gpu")
    shutil.copytree(committed_root() / "data" / "raw" / "snapshots", raw / "snapshots")
    if checkpoint is not None:
        f = raw / "draftself_gpu" / "e3618a24b4e44752.jsonl"
        lines = f.read_text().splitlines()
        for i, line in enumerate(lines):
            rec = json.loads(line)
            if rec.get("event") == "start" and rec["session_id"].startswith("57a59f95"):
                rec["checkpoint"] = checkpoint
                lines[i] = json.dumps(rec)
        f.write_text("\n".join(lines) + "\n")
    if pointer:
        (tmp_path / f"{checkpoint}.dvc").parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / f"{checkpoint}.dvc").write_text("outs:\n- md5: 0\n")
    return tmp_path


def _unavailable(root: Path) -> list[str]:
    params = {"report": {"high_cv": 0.05, "min_n": 3, "busy_load_per_core": 0.5}}
    res = build(params, root=root, raw_dir=Path("data/raw"), reports_dir=Path("reports"))
    assert len(res.numbers) == 130
    return sorted(n.key for n in res.numbers if "checkpoint_unavailable" in n.caveats)


def test_checkpoint_unavailable_fires_only_where_the_checkpoint_is_not_kept(tmp_path):
    # as committed: both H200 sessions name /tmp/bbcache/draftself_gpu/<sha256>.pt on the returned
    # machine, so all 130 numbers carry it (122 of the published session + 2 trainings × 4)
    assert len(_unavailable(_root_with(tmp_path / "a", None, False))) == 130
    kept = store.stored_path(PUBLISHED_SHA)
    # the runner put it in the store on a lent machine, but it never came back (no pointer): all 130
    assert len(_unavailable(_root_with(tmp_path / "b", kept, False))) == 130
    # kept and `dvc add`-ed: only the older training's 4 numbers (checkpoint c3da4658…, not kept) remain
    assert _unavailable(_root_with(tmp_path / "c", kept, True)) == [
        f"draftself_gpu-t33165c04-{col}"
        for col in ("held_out_loss_next", "n_params", "steps", "train_seconds")
    ]


class _CharTokenizer:
    """A stand-in for the BPE tokenizer (``tokenizers`` is on the device image only): one id per
    character, 40 ids, ``<mask>`` = 1."""

    def token_to_id(self, token: str) -> int:
        assert token == "<mask>"
        return 1

    def encode(self, text: str):
        return types.SimpleNamespace(ids=[3 + ord(ch) % 37 for ch in text])

    def encode_batch(self, texts):
        return [self.encode(t) for t in texts]

    def get_vocab_size(self) -> int:
        return 40

    def decode(self, ids) -> str:
        return " ".join(map(str, ids))


def test_the_gpu_runner_keeps_the_checkpoint_it_measured_and_records_its_path(tmp_path, monkeypatch):
    # a short run of the draftself_gpu runner on the CPU: a 5-file archive (3 held out), a character
    # tokenizer, 2 training steps of a one-layer model, 1 prompt per class, AR and k = 2, 1 repetition
    from benchbook.draftself import natural
    from benchbook.experiments.draftself_gpu import caveat_rows
    from benchbook.experiments.draftself_gpu import run as gpu_run

    files = {f"p/{name}": (f"{name} line {i}\n" * 60).encode() for i, name in enumerate(["a.md", "b.md"])}
    files |= {f"p/{name}": (f"x{i} = {i}\n" * 90).encode() for i, name in enumerate(["c.py", "d.c", "e.h"])}
    with tarfile.open(tmp_path / "src.tar.gz", "w:gz") as tar:
        for name, body in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(body)
            tar.addfile(info, io.BytesIO(body))
    held = {p for p in files if natural.split_of(p, 128) == "held_out"}
    assert held == {"p/a.md", "p/c.py", "p/d.c"}  # sha256's first byte < 128: one prose, two code
    monkeypatch.setattr(natural, "train_tokenizer", lambda texts, vocab: _CharTokenizer())
    monkeypatch.setattr(natural, "tokenizer_json", lambda tok: '{"chars": 40}')
    monkeypatch.setitem(sys.modules, "tokenizers", types.SimpleNamespace(__version__="stand-in"))
    monkeypatch.setenv("BENCHBOOK_CACHE", str(tmp_path / "cache"))  # the runner saves it there first
    over = {
        "device": "cpu",
        "archive": str(tmp_path / "src.tar.gz"),
        "train": {
            "vocab_size": 40,
            "seq_len": 16,
            "batch_size": 2,
            "warmup": 1,
            "fixed_steps": 2,
            "log_every": 1,
            "eval_batches": 1,
            "model": {
                "d_model": 16,
                "n_layers": 1,
                "n_heads": 2,
                "dense": True,
                "d_ff": 32,
                "max_seq_len": 64,
            },
        },
        "measure": {"n_tokens": 4, "prompts_per_class": 1, "prompt_tokens": 8, "ks": [2], "repetitions": 1},
    }
    over["measure"] |= {"held_out_per_256": 128}
    out = gpu_run.measure({}, root=tmp_path, raw_dir=Path("data/raw"), overrides=over, log=lambda *a: None)
    assert out.ran == 4  # 2 prompts × (AR, k = 2) × 1 repetition
    lines = out.raw_file.read_text().splitlines()
    # its run records have the committed H200 records' fields, in their order
    committed = (committed_root() / "data/raw/draftself_gpu/e3618a24b4e44752.jsonl").read_text().splitlines()
    run_rec = next(json.loads(x) for x in lines if '"benchbook.draftself.run"' in x)
    assert list(run_rec) == list(next(json.loads(x) for x in committed if '"benchbook.draftself.run"' in x))
    starts = [json.loads(x) for x in lines if '"benchbook.session"' in x and '"start"' in x]
    trained = json.loads((out.raw_file.with_suffix(".train.jsonl")).read_text().splitlines()[0])
    sha = trained["model_sha256"]
    assert [s["checkpoint"] for s in starts] == [f"data/artifacts/checkpoints/{sha}.pt"]
    kept = tmp_path / starts[0]["checkpoint"]
    assert (
        hashlib.sha256(kept.read_bytes()).hexdigest() == sha
        and kept.stat().st_size == trained["checkpoint_bytes"]
    )
    about = json.loads(kept.with_suffix(".json").read_text())["about"]
    assert about == {
        "experiment": "draftself_gpu",
        "tokenizer_sha256": trained["tokenizer_sha256"],
        "corpus_sha256": trained["corpus"]["corpus_sha256"],
    }
    # the caveat's column: placed in the store but not `dvc add`-ed -> not kept; with its pointer -> kept
    raw = tmp_path / "data" / "raw" / "draftself_gpu"
    assert caveat_rows.session_checkpoints(raw, tmp_path)[sha]["stored"] is False
    kept.with_name(kept.name + ".dvc").write_text("outs:\n- md5: 0\n")
    assert caveat_rows.session_checkpoints(raw, tmp_path)[sha]["stored"] is True
