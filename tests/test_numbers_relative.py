"""numbers.publish names cited files relative to the repository root, resolving each file once."""

import json

from benchbook.numbers import Number, publish


def _num(key, file, lines):
    return Number(
        key=key,
        value=1.0,
        unit="tok/s",
        label=key,
        n=5,
        computation="x",
        sd=0.1,
        ci95=[0.9, 1.1],
        ci_method="student-t on the log scale",
        commands=[["llama-bench"]],
        sources=[{"file": file, "lines": lines}],
        run_ids=["r"],
        replication="repetitions",
        build="b11434 (unknown) cpu",
    )


def test_files_under_root_relative_others_as_given(tmp_path):
    raw = tmp_path / "repo" / "data" / "h.jsonl"
    raw.parent.mkdir(parents=True)
    raw.write_text('{"run_id": "r"}\n' * 3)
    outside = tmp_path / "elsewhere.jsonl"
    nums = [
        _num("k-a", str(raw), [[1, 1]]),
        _num("k-b", str(raw), [[3, 3]]),  # the same file again: the cached resolution
        _num("k-c", str(outside), [[2, 2]]),
        _num("k-d", "data/h.jsonl", [[2, 2]]),  # relative already
    ]
    out = publish(tmp_path / "reg.json", "bench", nums, root=tmp_path / "repo")
    doc = json.loads(out.read_text())
    files = {k: [s["file"] for s in v["sources"]] for k, v in doc["numbers"].items()}
    assert files == {
        "k-a": ["data/h.jsonl"],
        "k-b": ["data/h.jsonl"],
        "k-c": [str(outside)],
        "k-d": ["data/h.jsonl"],
    }
    assert doc["numbers"]["k-b"]["sources"] == [{"file": "data/h.jsonl", "lines": [[3, 3]]}]
    # lines 1, 2 and 3 of data/h.jsonl are cited; the outside file does not exist
    assert set(doc["cited_sha256"]) == {"data/h.jsonl", str(outside)}
    assert doc["cited_sha256"][str(outside)] is None
