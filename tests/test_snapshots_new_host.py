"""What a new host adds to the snapshot store (the README's "On a new host ..."): a snapshot is stored
once per id, by whichever host wrote it first, so a new host measuring the committed models writes its
own host snapshot but no `data/raw/snapshots/models/<host_id>.jsonl` (a new user expected one)."""

from __future__ import annotations

import shutil

from benchbook import provenance
from conftest import committed_root

DEFAULT_MODELS = ("smollm2-135m-q4_1", "smollm2-135m-q8_0", "smollm2-135m-q2_k")


def test_a_new_host_with_the_committed_models_writes_no_models_file(tmp_path):
    d = tmp_path / "snapshots"
    shutil.copytree(committed_root() / "data" / "raw" / "snapshots", d)
    models = provenance.read_snapshots(d, "model")
    mine = [m for m in models.values() if m["model_id"] in DEFAULT_MODELS]
    assert sorted(m["model_id"] for m in mine) == sorted(DEFAULT_MODELS)
    for m in mine:
        rec = {k: v for k, v in m.items() if k not in ("_file", "_line")}
        assert not provenance.store_snapshot(d, "model", rec, "feedfacefeedface")
    assert not (d / "models" / "feedfacefeedface.jsonl").exists()
    # its host snapshot is new: that file appears
    host = {**provenance.host_snapshot().record(), "host_id": "feedfacefeedface"}
    assert provenance.store_snapshot(d, "host", host, "feedfacefeedface")
    assert (d / "hosts" / "feedfacefeedface.jsonl").exists()
