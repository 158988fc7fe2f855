"""Smoke runs of the generic notebooks for draft-self (papermill ``-p experiment draftself``) on a tiny
random model, into a temp dir."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import papermill as pm
import pytest
import torch

from benchbook.draftself import data
from benchbook.draftself.model import ModelConfig, TinyLM, save

NB = Path(__file__).resolve().parents[1] / "notebooks"


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory):
    d = tmp_path_factory.mktemp("ck")
    torch.manual_seed(0)
    tok = data.Tokenizer()
    m = TinyLM(
        ModelConfig(
            vocab_size=len(tok.vocab),
            mask_id=tok.mask_id,
            d_model=32,
            n_layers=2,
            n_heads=2,
            d_ff=32,
            n_experts=8,
            top_k=2,
            d_expert=16,
            max_seq_len=128,
        )
    )
    save(m, d / "tiny.pt")
    sha = hashlib.sha256((d / "tiny.pt").read_bytes()).hexdigest()
    man = {
        "schema": "benchbook.draftself.checkpoint",
        "schema_version": 1,
        "path": str(d / "tiny.pt"),
        "sha256": sha,
        "train_seconds": 0.0,
        "final_loss_next": 5.0,
        "final_loss_masked": 5.0,
        "n_params": 1,
        "train_config": {},
    }
    (d / "checkpoint.json").write_text(json.dumps(man, indent=1))
    return d / "checkpoint.json"


def test_measure_and_report_notebooks(tmp_path, checkpoint):
    overrides = {
        "n_tokens": 8,
        "prompt_kinds": ["letters", "story"],
        "ks": [2, 4],
        "sequential_ks": [4],
        "iterative_ks": [4],
        "coreset_k": 4,
        "coreset_masses": [0.6],
        "coreset_min": 2,
        "repetitions": 2,
        "threads": 1,
    }
    # the notebooks read the checkpoint manifest at <root>/data/draftself/checkpoint.json
    (tmp_path / "data" / "draftself").mkdir(parents=True)
    shutil.copy(checkpoint, tmp_path / "data" / "draftself" / "checkpoint.json")
    common = {
        "root": str(tmp_path),
        "params_file": str(NB.parent / "params.yaml"),
        "raw_dir": "raw",
        "reports_dir": "rep",
    }
    pm.execute_notebook(
        str(NB / "measure.ipynb"),
        str(tmp_path / "m.ipynb"),
        cwd=str(tmp_path),
        parameters={**common, "overrides": json.dumps(overrides), "experiment": "draftself"},
        progress_bar=False,
    )
    raw = tmp_path / "raw" / "draftself"
    from benchbook.provenance import host_snapshot

    host = host_snapshot().host_id  # host-keyed raw files, the host snapshot in the shared store
    assert (raw / f"{host}.jsonl").exists() and (raw / f"{host}.steps.jsonl").exists()
    assert (tmp_path / "raw" / "snapshots" / "hosts" / f"{host}.jsonl").exists()
    pm.execute_notebook(
        str(NB / "report.ipynb"),
        str(tmp_path / "r.ipynb"),
        cwd=str(tmp_path),
        parameters={**common, "experiment": "draftself"},
        progress_bar=False,
    )
    nums = json.loads((tmp_path / "rep/numbers/draftself.json").read_text())["numbers"]
    assert "draftself-ds-k4-batched-one_pass-predictable-tau" in nums
    assert (tmp_path / "rep/draftself/tau_vs_k.svg").exists() and (
        tmp_path / "rep/draftself/tau_vs_k.vl.json"
    ).exists()


def test_page_references_only_published_keys(tmp_path, checkpoint):
    """Every {{< var KEY >}} of draftself.qmd is published by the report for the default configs."""
    import re

    from benchbook.experiments.draftself import report, run
    from benchbook.sitecheck import CFG_SUFFIX, base_key

    man = json.loads(checkpoint.read_text())
    run.measure_session(
        {"n_tokens": 6, "repetitions": 1, "threads": 1},
        man["path"],
        tmp_path / "raw",
        root=tmp_path,
        log=lambda *a: None,
    )
    out = report.derive(tmp_path / "raw", checkpoint, tmp_path / "rep", tmp_path / "numbers.json")
    keys = {n.key for n in out.numbers}
    page = (NB.parent / "draftself.qmd").read_text()
    # KEY__v (a table cell: the number without its unit) quotes KEY
    names = re.findall(r"\{\{< var ([a-z0-9_.\-]+) >\}\}", page)
    used = {base_key(k) for k in names if not k.endswith(CFG_SUFFIX)}
    assert used and used <= keys, sorted(used - keys)
    # a row label PREFIX__cfg (the caveats said once for a configuration) names the start of published keys
    labels = [k.removesuffix(CFG_SUFFIX) for k in names if k.endswith(CFG_SUFFIX)]
    assert labels and all(any(key.startswith(p + "-") for key in keys) for p in labels), labels
