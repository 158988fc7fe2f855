"""Synthetic GGUF models (``llamacpp.synth``), their placement and bytes per token (``llamacpp.weights``):
exact tensor sizes of a tiny spec, determinism, the tokenizer copied, and the real llama-bench loading a
tiny MoE with ``-ncmoe`` 0 and all."""

from __future__ import annotations

import json
import subprocess

import gguf
import numpy as np
import pytest

from benchbook.llamacpp import synth, weights

N_VOCAB = 64


@pytest.fixture(scope="module")
def tok_gguf(tmp_path_factory):
    """A tokenizer-only GGUF: 64 tokens, gpt2 model, two merges."""
    path = tmp_path_factory.mktemp("tok") / "tok.gguf"
    w = gguf.GGUFWriter(str(path), "llama")
    w.add_tokenizer_model("gpt2")
    w.add_token_list([f"t{i}" for i in range(N_VOCAB)])
    w.add_token_types([1] * N_VOCAB)
    w.add_token_merges(["t 1", "t 2"])
    w.add_bos_token_id(1)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_ti_data_to_file()
    w.close()
    return path


def test_plan_bytes_of_the_tiny_moe():
    t = {p.name: p for p in synth.plan(synth.SynthSpec(), N_VOCAB)}
    # Q8_0: 34 bytes per 32 weights; experts (8, 256, 256) = 524288 weights -> 557056 bytes
    assert t["blk.0.ffn_up_exps.weight"].shape == (8, 256, 256)
    assert t["blk.0.ffn_down_exps.weight"].n_bytes == 557056
    assert t["blk.3.attn_k.weight"].shape == (128, 256)  # 2 KV heads x 64
    assert t["blk.3.attn_k.weight"].n_bytes == 34816  # 32768 / 32 * 34
    assert t["token_embd.weight"].n_bytes == 17408  # 64 x 256 / 32 * 34
    assert t["blk.1.ffn_gate_inp.weight"].n_bytes == 8192  # router F32: 8 x 256 x 4
    assert t["blk.1.attn_q_norm.weight"].shape == (64,)
    # 2 x 17408 + 1024 (output_norm) + 4 layers x (2560 norms + 208896 attn + 8192 router + 3 x 557056)
    assert sum(p.n_bytes for p in t.values()) == 7599104


def test_shared_expert_only_with_qwen2moe():
    names = [p.name for p in synth.plan(synth.SynthSpec(arch="qwen2moe", n_ff_shexp=128), N_VOCAB)]
    assert "blk.0.ffn_gate_inp_shexp.weight" in names and "blk.0.ffn_down_shexp.weight" in names
    with pytest.raises(synth.SynthError, match="qwen3moe has no shared expert"):
        synth.SynthSpec(n_ff_shexp=128).check()
    with pytest.raises(synth.SynthError, match="blocks of 32"):
        synth.SynthSpec(n_ff_exp=100).check()


def test_write_is_deterministic_and_carries_the_tokenizer(tmp_path, tok_gguf):
    spec = synth.SynthSpec(n_layer=2, seed=7)
    a = synth.write(spec, tok_gguf, tmp_path / "a.gguf", log=lambda *_: None)
    b = synth.write(spec, tok_gguf, tmp_path / "b.gguf", log=lambda *_: None)
    c = synth.write(synth.SynthSpec(n_layer=2, seed=8), tok_gguf, tmp_path / "c.gguf", log=lambda *_: None)
    assert a.sha256 == b.sha256 != c.sha256
    rec = a.record()
    assert rec["synthetic_inputs"] is True and rec["model_id"] == "synthetic-qwen3moe-L2-E8-K2-d256-q8_0-s7"
    assert rec["expert_bytes_per_layer"] == 3 * 557056
    r = gguf.GGUFReader(str(tmp_path / "a.gguf"))
    assert r.fields["tokenizer.ggml.tokens"].contents()[:3] == ["t0", "t1", "t2"]
    assert r.fields["qwen3moe.expert_used_count"].contents() == 2
    # Q8_0 block: fp16 scale 1 / (73.9 * sqrt(256)) then 32 int8 quants
    blk = r.get_tensor(next(i for i, t in enumerate(r.tensors) if t.name == "blk.0.ffn_up_exps.weight"))
    scale = np.frombuffer(bytes(np.asarray(blk.data).reshape(-1)[:2]), dtype=np.float16)[0]
    assert scale == np.float16(1 / (73.9 * 16))


def test_placement_and_decode_bytes(tmp_path, tok_gguf):
    made = synth.write(synth.SynthSpec(), tok_gguf, tmp_path / "m.gguf", log=lambda *_: None)
    lay = weights.layout(made.path)
    assert (lay.n_layer, lay.n_expert, lay.n_expert_used) == (4, 8, 2)
    # active experts: 557056 * 2 // 8 = 139264 per tensor, 3 per block, 4 blocks = 1671168;
    # other tensors 879616, output 17408, one token_embd row 17408 // 64 = 272
    assert weights.decode_bytes(lay, 0) == weights.DecodeBytes(2568464, 2568192, 272)
    assert weights.decode_bytes(lay, 99) == weights.DecodeBytes(2568464, 897024, 1671440)
    p = weights.placement(lay, 2)
    assert p.cpu_expert_blocks == [0, 1] and p.expert_bytes_cpu == 3342336
    assert p.gpu_bytes == 879616 + 17408 + 3342336 and p.cpu_bytes == 3342336 + 17408
    assert p.override_regex == r"blk\.(0|1)\.ffn_(up|down|gate|gate_up)_(ch|)exps"
    assert weights.placement(lay, 0).override_regex is None


def test_real_llama_bench_runs_the_tiny_moe_with_ncmoe_0_and_all(tmp_path, toolchain, models):
    tok = models["smollm2-135m-q4_1"]
    made = synth.write(synth.SynthSpec(), tok["path"], tmp_path / "moe.gguf", log=lambda *_: None)
    out = subprocess.run(
        [
            str(toolchain.binary("llama-bench")),
            "-m",
            str(made.path),
            "-p",
            "16",
            "-n",
            "4",
            "-r",
            "1",
            "-t",
            "2",
            "-ncmoe",
            "0,4",
            "-o",
            "jsonl",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    rows = [json.loads(x) for x in out.stdout.splitlines() if x.strip()]
    assert sorted((r["n_cpu_moe"], r["n_gen"] > 0) for r in rows) == [
        (0, False),
        (0, True),
        (4, False),
        (4, True),
    ]
    assert all(r["model_type"].startswith("qwen3moe") and r["avg_ts"] > 0 for r in rows)
