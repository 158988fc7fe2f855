"""Kinds fixed in issue 29's session 70 (the forty-eighth held-out set's misses, read after a
forty-ninth set replaced it as the clean one), each with controls."""

from __future__ import annotations

from benchbook.audit.draftcommand import command_lines, model_and_quant
from benchbook.audit.draftnames import cpu_names, mentions
from benchbook.audit.draftprose import numbers
from drafting import conditions as _cond
from drafting import drafted as _drafted


def test_a_cpu_named_alone_and_with_its_count_is_one_machine():
    """ "AMD EPYC 7713" in a title over "2× AMD EPYC 7713" in the setup (h546) is the counted one;
    "dual Epyc 9175F" (h554) is AMD's EPYC in any case; two different CPUs stay two."""
    assert cpu_names("3.6tok/s on AMD EPYC 7713\n- 2× AMD EPYC 7713 64-Core Processor") == [
        "2x AMD EPYC 7713"
    ]
    assert cpu_names("(dual Epyc 9175F, 16 x DDR5 6400 MT/s RAM)") == ["2x AMD EPYC 9175F"]
    assert cpu_names("Dual EPYC 9654 and an epyc 7763") == ["2x AMD EPYC 9654", "AMD EPYC 7763"]
    assert cpu_names("on an EPYC 7763") == ["AMD EPYC 7763"]


def test_a_count_of_cpus_or_memory_modules_is_no_multiple():
    """ "2× AMD EPYC 7713", "32×128GB Samsung DIMMs", "16 x DDR5 6400" (h546, h554) count parts;
    "2x faster" and "2x RTX 3090" keep their meanings."""

    def units(text: str) -> list:
        return [(n.text, n.unit) for n in numbers(text) if n.unit == "x"]

    assert units("2× AMD EPYC 7713 64-Core Processor") == []
    assert units("Total 4096 GB DDR4 (32×128GB Samsung DIMMs, DDR4-3200)") == []
    assert units("dual Epyc 9175F, 16 x DDR5 6400 MT/s RAM") == []
    assert units("it is 2x faster than before") == [("2", "x")]


def test_a_repository_name_after_its_owner_with_an_engine_as_its_format():
    """ "mateogrgic/GLM-5.2-colibri-int4-with-int8-mtp" (h546): GLM-5.2 in int4 (the engine's name
    where a format's stands); a family named with no version stays no model."""
    assert model_and_quant("GLM-5.2-colibri-int4-with-int8-mtp") == ("GLM-5.2", "int4")
    said = {
        (m.path, m.value) for m in mentions("Model: mateogrgic/GLM-5.2-colibri-int4-with-int8-mtp (383.7 GB)")
    }
    assert ("model", "GLM-5.2") in said and ("quant", "int4") in said
    assert not [m for m in mentions("Model: someone/colibri-weights") if m.path == "model"]


def test_a_wrapped_command_and_colibris_cli():
    """ "numactl --interleave=all ./llama-bench …" and "taskset -c 0-15 llama-cli …" are the tool's
    lines; colibri's "./coli run … --gpu none --temp 0 "test"" (h546) is its engine on the CPU, its
    prompt the word after its flags; llama.cpp's "--device none" is the CPU too."""
    [c] = command_lines(
        [(1, "numactl --interleave=all ./llama-bench -m Qwen3-8B-Q4_K_M.gguf -ngl 0")], code=True
    )
    assert c.tool == "llama-bench" and c.conditions["model"] == "Qwen3-8B"
    [c] = command_lines([(1, "taskset -c 0-15 llama-cli -m x.gguf --device none -p hi")], code=True)
    assert c.conditions["backend"] == "CPU"
    line = (
        'OMP_NUM_THREADS=96 DRAFT=3 numactl --interleave=all ./coli run --ram 1000 --gpu none --temp 0 "test"'
    )
    [c] = command_lines([(1, line)], code=True)
    assert c.conditions == {
        "engine": "colibri",
        "other": {"ram": 1000},
        "backend": "CPU",
        "sampling": "temperature 0",
        "prompt": "test",
    }
    assert command_lines([(1, "numactl --hardware")], code=True) == []


def test_a_draft_column_of_a_table_of_mtp_runs(tmp_path):
    """ "| Draft |" over "1" beside "| MTP acceptance |" (h546): the model's own heads drafting one
    token a step; under "Draft" alone in a table of no MTP, speculative."""
    text = (
        "Run | Draft | Decode tok/s | MTP acceptance\n-- | -- | -- | --\n"
        "1 | 1 | 1.57 | 65%\n2 | 1 | 3.55 | 65%\n"
    )
    cf = _drafted(text, tmp_path)
    got = {(c.value, _cond(cf, c).get("decoding"), _cond(cf, c).get("block_max")) for c in cf.claims}
    assert got == {(1.57, "draft-self", 1), (3.55, "draft-self", 1), (65, "draft-self", 1)}
    cf = _drafted("| Draft | Decode tok/s |\n|---|---|\n| yes | 3.5 |\n| no | 2.0 |\n", tmp_path)
    got = [(c.value, _cond(cf, c).get("decoding"), _cond(cf, c).get("block_max")) for c in cf.claims]
    assert got == [(3.5, "speculative", None), (2.0, "plain", None)]
