"""Facts the README states beside the data they come from: the "Q2_K" file's real tensor types (its
model snapshot) and the draft-self training time a DVC remote saves ("Time of a first run")."""

from __future__ import annotations

import json
import re
from pathlib import Path

from conftest import committed_root

#: the page of the user's guide these facts moved to (the README links it)
README = Path(__file__).resolve().parents[1] / "docs" / "running.md"


def _paragraph(start: str) -> str:
    text = README.read_text()
    i = text.index(start)
    return " ".join(text[i : text.index("\n\n", i)].split())


def test_the_q2_k_paragraph_states_the_snapshot_tensor_types():
    snapshots = (committed_root() / "data" / "raw" / "snapshots" / "models").glob("*.jsonl")
    manifests = [
        rec["manifest"]
        for f in snapshots
        for line in f.read_text().splitlines()
        if (rec := json.loads(line)).get("model_id") == "smollm2-135m-q2_k"
    ]
    assert manifests and {m["file_type_declared"] for m in manifests} == {"MOSTLY_Q2_K"}
    types = manifests[0]["tensor_types"]
    # Q4_0 180, Q3_K 30, Q8_0 1, F32 61 (272 tensors); the same in every host's snapshot
    assert all(m["tensor_types"] == types for m in manifests)
    stated = ", ".join(f"{t} ×{types[t]['count']}" for t in ("Q4_0", "Q3_K", "Q8_0")) + " and F32 ×61"
    assert stated == "Q4_0 ×180, Q3_K ×30, Q8_0 ×1 and F32 ×61" and types["F32"]["count"] == 61
    text = _paragraph('**A "Q2_K" file holds other tensor types.**')
    assert "declares `MOSTLY_Q2_K`" in text and f"records {stated}:" in text
    # the fallback: 576-wide rows are not a multiple of 256 (n_embd 576 = 2.25 x 256)
    assert manifests[0]["n_embd"] == 576 and 576 % 256 != 0 and "576-wide rows" in text


def test_the_dvc_remote_note_quotes_the_measured_training_time():
    text = _paragraph("What a remote saves a second clone")
    training = re.search(r"the draft-self training \(([\d.]+) s", text)
    assert training and training.group(1) == "383.6"
    assert f"| draft-self training | {training.group(1)} s, beside the build |" in README.read_text()
