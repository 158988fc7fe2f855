"""The offload sweep on a registered MoE (issue 30 item 2): ``offload.model`` names a registry id as well
as a synthetic spec, the budget is an emulated card or the GPU's own free memory, recorded with every
point, and the page names the model measured.  A tiny synthetic MoE GGUF registered as a file model;
llama-bench is a script that fails out of memory (no llama.cpp runs)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from types import SimpleNamespace

import gguf
import pytest

from benchbook import resolve
from benchbook.errors import ParamsError
from benchbook.experiments import profiles
from benchbook.experiments.offload import run
from benchbook.experiments.offload.plan import OffloadParams
from benchbook.llamacpp import cudamem, synth

TINY = synth.SynthSpec(
    arch="qwen3moe", n_layer=2, n_embd=64, n_head=2, n_head_kv=1, n_ff=64, n_expert=4, n_expert_used=2,
    n_ff_exp=32, weight_type="F32",
)  # fmt: skip


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """(tokenizer-only GGUF (a dense llama file), the tiny MoE written with its tokenizer)."""
    folder = tmp_path_factory.mktemp("moe")
    tok = folder / "tok.gguf"
    w = gguf.GGUFWriter(str(tok), "llama")
    w.add_tokenizer_model("gpt2")
    w.add_token_list([f"t{i}" for i in range(64)])
    w.add_token_types([1] * 64)
    w.add_token_merges(["t 1", "t 2"])
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_ti_data_to_file()
    w.close()
    moe = synth.write(TINY, tok, folder / "my-moe.gguf", log=lambda *a: None).path
    return tok, Path(moe)


def _record(model_id: str, path: Path) -> dict:
    return {"model_id": model_id, "path": str(path), "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}


def test_offload_model_is_a_registry_id_or_a_synthetic_spec():
    ids = ["smollm2-135m-q4_1", "my-moe"]
    assert OffloadParams.from_section({"model": "my-moe"}, models=ids).config()["model"] == "my-moe"
    assert OffloadParams.from_section({}, models=ids).config()["model"] == {}  # the synthetic default
    assert OffloadParams.from_section({"model": {"arch": "qwen3moe"}}, models=ids).model == {
        "arch": "qwen3moe"
    }
    with pytest.raises(ParamsError) as e:
        OffloadParams.from_section({"model": "my-mo"}, models=ids)
    assert str(e.value).startswith(
        "params.yaml `offload.model`: 'my-mo' is not a models.registry id; fix: name one of "
        "smollm2-135m-q4_1, my-moe"
    )
    # the budget: MiB left free (an emulated card), or null: the GPU's own free memory
    assert OffloadParams.from_section({"ballast": {"free_mib": None}}).config()["ballast"] == {
        "free_mib": None
    }
    run.check_model("my-moe")  # a registry id: its file is checked once fetched


def test_measure_sweeps_the_registered_moe_and_refuses_a_dense_one(monkeypatch, tmp_path, files):
    tok, moe = files
    records = {"smollm2-135m-q4_1": _record("smollm2-135m-q4_1", tok), "my-moe": _record("my-moe", moe)}
    params = {
        "models": {"default": "smollm2-135m-q4_1", "registry": dict.fromkeys(records, {"source": "file"})},
        "offload": {"model": "my-moe", "n_cpu_moe": [0, 2]},
    }
    seen = {}
    monkeypatch.delenv("BENCHBOOK_PROFILE", raising=False)
    monkeypatch.setattr(profiles, "pick", lambda params, **kw: profiles.Picked(None, "test"))
    monkeypatch.setattr(
        resolve,
        "get_toolchain",
        lambda params, build=False: SimpleNamespace(
            record={"toolchain_id": "t" * 16}, binary=lambda name: tmp_path / name
        ),
    )
    monkeypatch.setattr(
        resolve, "get_models", lambda params, ids, tc, log=print: [dict(records[i]) for i in ids]
    )
    monkeypatch.setattr(
        resolve,
        "store_snapshots",
        lambda folder, tc, models: SimpleNamespace(
            record=lambda: {"host_id": "h" * 16}, models=seen.setdefault("snapshots", models)
        ),
    )
    monkeypatch.setattr(
        run,
        "run_session",
        lambda **kw: (
            seen.update(kw)
            or run.OffloadResult(
                experiment="offload", session_id="s", resumed=False, ran=0, skipped=0, failed=0
            )
        ),
    )
    run.measure(params, root=tmp_path, raw_dir=Path("raw"), log=lambda *a: None)
    assert (seen["model"]["model_id"], seen["model"]["synthetic_inputs"]) == ("my-moe", False)
    assert seen["snapshots"][0] is seen["model"]  # its manifest (GGUF metadata) goes to the snapshot
    records["my-moe"] = _record("my-moe", tok)  # a dense file registered as the sweep's model
    with pytest.raises(
        ParamsError,
        match=r"'my-moe' is not a mixture-of-experts model \(its GGUF metadata: "
        r"architecture llama, no llama.expert_count\)",
    ):
        run.measure(params, root=tmp_path, raw_dir=Path("raw"), log=lambda *a: None)


def test_every_point_records_the_real_free_memory_as_its_budget(tmp_path, files):
    _, moe = files
    bench = tmp_path / "llama-bench"
    bench.write_text("#!/bin/sh\necho 'cudaMalloc failed: out of memory' >&2\nexit 1\n")
    bench.chmod(0o755)
    cfg = OffloadParams.from_section(
        {"n_cpu_moe": [0, 2], "ballast": {"free_mib": None, "fake_total_mib": 4096},
         "bandwidth": {"mib": 1, "iters": 1}, "timeout_s": 30}
    ).config()  # fmt: skip
    raw = tmp_path / "raw.jsonl"
    res = run.run_session(
        cfg=cfg, bench_bin=bench, model={**_record("my-moe", moe), "synthetic_inputs": False}, others=[],
        toolchain={"toolchain_id": "t" * 16}, host={"host_id": "h" * 16}, root=tmp_path, raw_file=raw,
        picked=profiles.Picked(None, "test"), log=lambda *a: None,
    )  # fmt: skip
    failed = [json.loads(x) for x in raw.read_text().splitlines() if '"benchbook.run_failed"' in x]
    assert res.failed == 2 and [r["n_cpu_moe"] for r in failed] == [0, 2]
    for r in failed:
        # no ballast held: the fake 4096 MiB device's own free memory is the budget, on every point
        assert (r["budget_free_mib"], r["ballast"]["held_mib"], r["synthetic_inputs"]) == (4096, 0, False)
        assert r["config"]["budget_free_mib"] is None and r["reason"].startswith("out of memory")
    bytes_recs = [json.loads(x) for x in raw.read_text().splitlines() if "offload.model_bytes" in x]
    assert {(r["n_expert"], r["n_layer"], r["synthetic_inputs"]) for r in bytes_recs} == {(4, 2, False)}


def test_a_ballast_of_none_holds_nothing():
    with cudamem.Ballast(None, fake_total_mib=2048) as b:
        assert (b.state["held_mib"], b.state["free_after_mib"], b.state["target_free_mib"]) == (0, 2048, 2048)
