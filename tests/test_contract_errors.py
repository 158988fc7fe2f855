"""What a new measurement's parameters refuse, and how the refusal reads (``experiments.contract``): each
clause names where the value was written (params.yaml ``section.key``, a host profile's
``profiles.<p>.<section>.<key>``, the overrides) and what to write; counts, times and fractions have
bounds; unknown keys are refused at any depth (the closest known one named) while a committed start
record's config keeps them; the typed parts of the sections (depth and speculative configurations,
drafts, the cost model, offload's model, ballast and bandwidth, the GPU draft-self training) and model ids
are checked before anything is resolved; a section that is not a mapping is a ParamsError."""

from __future__ import annotations

import dataclasses

import pytest

from benchbook.draftself import data, train_natural
from benchbook.draftself.model import ModelConfig
from benchbook.experiments import contract
from benchbook.experiments.contract import ParamsError, Source, Sourced
from benchbook.experiments.draftself.plan import DraftselfParams, Kind
from benchbook.experiments.draftself_gpu.plan import MeasureParams
from benchbook.experiments.draftself_gpu.run import DraftselfGpuParams, TinyModel, TrainParams
from benchbook.experiments.llama_bench.plan import LlamaBenchParams
from benchbook.experiments.offload.plan import OffloadParams, SynthModel
from benchbook.experiments.spec_depth.plan import SpecDepthParams
from benchbook.experiments.speculative.plan import SpeculativeParams
from benchbook.experiments.template.plan import TemplateParams
from benchbook.llamacpp import synth
from benchbook.records import iter_records
from conftest import committed_root

#: the committed registry ids, as every "not a models.registry id" fix lists them
IDS = "smollm2-135m-q4_1, smollm2-135m-q8_0, smollm2-135m-q2_k"
LB_KEYS = (
    "models, n_prompt, n_gen, n_depth, repetitions, threads, n_gpu_layers, flash_attn, cold_first_run, "
    "timeout_s"
)


def message(call) -> str:
    with pytest.raises(ParamsError) as e:
        call()
    return str(e.value)


def with_section(params: dict, name: str, **keys) -> dict:
    return {**params, name: {**params[name], **keys}}


# --- where the value came from, and what to write ------------------------------------------------------


def test_a_profiles_value_is_named_at_the_profile_and_an_overrides_value_at_the_option(committed_params):
    # before: both read "params.yaml `llama_bench.threads`"
    gpu = Sourced({"threads": "16"}, Source("params.yaml", "profiles.gpu.llama_bench"))
    assert message(lambda: LlamaBenchParams.from_params(committed_params, gpu)) == (
        "params.yaml `profiles.gpu.llama_bench.threads`: Input should be a valid integer (got '16'); fix: "
        "write an integer >= 1 without quotes ('16' is a string)"
    )
    option = gpu | Sourced({"n_depth": -1}, Source("--overrides"))
    assert message(lambda: LlamaBenchParams.from_params(committed_params, option)) == (
        "`--overrides` key `n_depth`: Input should be greater than or equal to 0 (got -1); fix: write an "
        "integer >= 0; params.yaml `profiles.gpu.llama_bench.threads`: Input should be a valid integer (got "
        "'16'); fix: write an integer >= 1 without quotes ('16' is a string)"
    )


def test_missing_keys_are_named_once_with_what_to_add():
    # before: "`llama_bench.n_gen`: missing; ... fix: correct it"
    assert message(
        lambda: LlamaBenchParams.from_section({"models": ["a"], "n_prompt": 8, "flash_attn": "on"})
    ) == (
        "params.yaml `llama_bench` has no `n_gen`, `n_depth`, `repetitions`, `threads`, `n_gpu_layers`; fix: "
        "add `n_gen:` (an integer >= 1), `n_depth:` (an integer >= 0), `repetitions:` (an integer >= 1), "
        "`threads:` (an integer >= 1), `n_gpu_layers:` (an integer >= 0)"
    )


# --- bounds ---------------------------------------------------------------------------------------------


def test_negative_repetitions_plan_nothing_no_more():
    # before: an empty plan, and run_plan wrote a start and an end record (a "completed" session)
    assert message(lambda: TemplateParams.from_params({"template": {"repetitions": -3}})) == (
        "params.yaml `template.repetitions`: Input should be greater than or equal to 1 (got -3); fix: write "
        "an integer >= 1"
    )
    assert message(lambda: TemplateParams.from_section({"sizes_kib": []})) == (
        "params.yaml `template.sizes_kib`: List should have at least 1 item after validation, not 0 (got "
        "[]); "
        "fix: write a non-empty list (each item an integer >= 1)"
    )


GT0 = "Input should be greater than 0"
GE1 = "Input should be greater than or equal to 1"


@pytest.mark.parametrize(
    ("model", "key", "bad", "said"),
    [
        (LlamaBenchParams, "threads", 0, GE1),
        (LlamaBenchParams, "timeout_s", -1.5, GT0),
        (OffloadParams, "repetitions", 0, GE1),
        (OffloadParams, "timeout_s", 0, GT0),
        (SpecDepthParams, "request_timeout_s", -300, GT0),
        (SpecDepthParams, "n_gen", 0, GE1),
        (SpeculativeParams, "health_timeout_s", 0, GT0),
        (SpeculativeParams, "p_min", 1.5, "Input should be less than or equal to 1"),
        (DraftselfParams, "threshold", -0.1, "Input should be greater than or equal to 0"),
        (DraftselfParams, "repetitions", 0, GE1),
        (MeasureParams, "held_out_per_256", 256, "Input should be less than or equal to 255"),
        (TrainParams, "lr", 0, GT0),
        (TrainParams, "probe_steps", 5, "Input should be greater than or equal to 6"),
    ],
)
def test_every_params_model_bounds_its_counts_times_and_fractions(model, key, bad, said, committed_params):
    section = {
        "threads": 2,
        "ctx_size": 512,
        "repetitions": 1,
        "configs": [{"id": "baseline", "spec_type": "none"}],
    }
    base = section if model is SpeculativeParams else {}
    if model is LlamaBenchParams:
        base = committed_params["llama_bench"]
    assert message(lambda: model.from_section({**base, key: bad})).startswith(
        f"params.yaml `{model.SECTION}.{key}`: {said} (got {bad!r}); fix: write "
    )


# --- unknown keys: refused for a new measurement, kept in a committed config ------------------------------


def test_an_unknown_key_is_refused_naming_the_closest_known_one(committed_params):
    # before: llama_bench.repetitons: 3 was kept and the sweep ran with the section's 5 repetitions
    params = with_section(committed_params, "llama_bench", repetitons=3)
    assert message(lambda: LlamaBenchParams.from_params(params)) == (
        f"params.yaml `llama_bench.repetitons`: unknown key; fix: write `repetitions` (known: {LB_KEYS})"
    )
    assert message(lambda: OffloadParams.from_section({"ballast": {"free_mb": 1024, "free_mib": 1024}})) == (
        "params.yaml `offload.ballast.free_mb`: unknown key; fix: write `free_mib` (known: free_mib, "
        "fake_total_mib)"
    )
    assert message(lambda: OffloadParams.from_section({"model": {"n_layers": 4}})) == (
        "params.yaml `offload.model.n_layers`: unknown key; fix: write `n_layer` (known: arch, n_layer, "
        "n_embd, n_head, n_head_kv, n_ff, n_expert, n_expert_used, n_ff_exp, n_ff_shexp, head_dim, "
        "context_length, weight_type, seed)"
    )


def test_a_committed_start_records_config_keeps_a_key_no_longer_read():
    # the CPU host's llama_bench sessions recorded raw_dir; the speculative GPU sessions recorded profiles
    for folder, model, extra in (
        ("llama_bench", LlamaBenchParams, "raw_dir"),
        ("speculative", SpeculativeParams, "profiles"),
    ):
        configs = [
            r["config"]
            for f in sorted((committed_root() / "data/raw" / folder).glob("*.jsonl"))
            for _, r in iter_records(f)
            if r.get("schema") == "benchbook.session" and r["event"] == "start" and extra in r["config"]
        ]
        assert configs, folder
        for config in configs:
            assert model.from_record(config).config() == config
            assert model.of(config).config() == config
        with pytest.raises(ParamsError, match=rf"\.{extra}`: unknown key"):
            model.from_section(configs[0])


def test_a_recorded_configs_unknown_nested_key_is_kept_too():
    # lenient at every depth: a typed part's extra key stays in the dump (the config hashes as recorded)
    cfg = {"configs": [{"id": "baseline", "role": "baseline", "note": "a key a later version dropped"}]}
    assert SpecDepthParams.from_record(cfg).config()["configs"] == cfg["configs"]
    assert "`spec_depth.configs.0.note`: unknown key" in message(lambda: SpecDepthParams.from_section(cfg))


def test_depth_configurations_are_typed():
    base = {"drafts": {"self": {"model": "target"}}}
    baseline = {"id": "baseline", "role": "baseline"}

    def refused(*configs):
        return message(lambda: SpecDepthParams.from_section({**base, "configs": list(configs)}))

    spec = {"id": "self-n4", "role": "speculative", "draft": "self", "n_max": 4}
    assert refused(baseline, spec, {**spec, "n_max": 8}) == (
        "params.yaml `spec_depth.configs.2.id`: id 'self-n4' is also configuration 1's; fix: give every "
        "configuration its own id (records and tables name it)"
    )
    assert refused(baseline, {**spec, "role": "speculatve"}) == (
        "params.yaml `spec_depth.configs.1.role`: Input should be 'baseline', 'speculative' or 'draft_only' "
        "(got 'speculatve'); fix: write one of baseline, speculative, draft_only"
    )
    assert refused(spec) == (
        "params.yaml `spec_depth.configs`: no baseline configuration (every speedup divides by the same "
        "session's baseline); fix: add {id: baseline, role: baseline}"
    )
    assert refused(baseline, {"id": "x", "draft": "self"}) == (
        "params.yaml `spec_depth.configs.1` has no `role`; fix: add `role:` (one of baseline, speculative, "
        "draft_only)"
    )
    # before: a KeyError from the plan, after the build and the models were resolved
    assert refused(baseline, {**spec, "draft": "q2k"}) == (
        "params.yaml `spec_depth.configs.1.draft`: draft 'q2k' is not a key of `drafts`; fix: name one of "
        "self"
    )
    assert refused(baseline, {"id": "x", "role": "speculative", "draft": "self"}) == (
        "params.yaml `spec_depth.configs.1`: role speculative needs n_max; fix: add `n_max:` (an integer >= "
        "1: "
        "the tokens drafted per step at most)"
    )


def test_speculative_parts_are_typed(committed_params):
    section = committed_params["speculative"]
    ids = list(committed_params["models"]["registry"])

    def refused(**over):
        return message(lambda: SpeculativeParams.resolve(section, "default", over, models=ids))

    assert refused(cost_model={"p_sizes": [1, 2], "n_gen": 32, "repetitons": 5}) == (
        "`overrides` key `cost_model.repetitons`: unknown key; fix: write `repetitions` (known: p_sizes, "
        "n_gen, "
        "repetitions); `overrides` key `cost_model` has no `repetitions`; fix: add `repetitions:` (an "
        "integer "
        ">= 1)"
    )
    assert refused(drafts={"q2k": {"model": "smollm2-135m-q3_k"}}) == (
        "`overrides` key `drafts.q2k.model`: 'smollm2-135m-q3_k' is not a models.registry id; fix: name one "
        "of "
        f"{IDS} (`benchbook models add PATH|URL` registers a file)"
    )
    assert refused(drafts={"self": {"model": "target", "truncate_layers": 20}}) == (
        "`overrides` key `drafts.self`: a draft names model and truncate_layers of model, truncate_layers, "
        "path; "
        "fix: give it exactly one: {model: ID | target}, {truncate_layers: L} or {path: FILE, id: NAME}"
    )
    assert refused(configs=[{"id": "baseline", "spec_type": "none", "policy": "fresh", "draft": "self"}]) == (
        "`overrides` key `configs.0.draft`: spec_type none (plain decoding) names a draft; fix: remove "
        "`draft`, "
        "or set the spec_type that uses it (draft-simple)"
    )
    assert refused(configs=[{"id": "plain", "spec_type": "none"}]) == (
        "`overrides` key `configs`: no baseline configuration (every speedup divides by the same session's "
        "baseline); fix: add {id: baseline, spec_type: none}"
    )
    assert message(lambda: SpeculativeParams.resolve(section, overrides={"profile": "fast"})) == (
        "`overrides` key `profile`: 'fast' is not a profile of params.yaml `speculative.profiles`; fix: name "
        "one of default, full"
    )


def test_the_gpu_draftself_training_is_typed(committed_params):
    # before: NaturalTrainConfig(**train) raised a TypeError after the corpus was read
    sec = Sourced.section(committed_params, "draftself_gpu")
    assert message(lambda: DraftselfGpuParams.from_section(sec | {"train": {"fixed_step": 100}})) == (
        "`overrides` key `train.fixed_step`: unknown key; fix: write `fixed_steps` (known: seed, vocab_size, "
        "seq_len, batch_size, lr, weight_decay, warmup, max_block, p_full_mask, budget_s, max_steps, "
        "fixed_steps, probe_steps, log_every, eval_batches, bf16, model)"
    )
    assert message(
        lambda: DraftselfGpuParams.from_params(with_section(committed_params, "draftself_gpu", mesure={}))
    ) == (
        "params.yaml `draftself_gpu.mesure`: unknown key; fix: write `measure` (known: archive, device, "
        "train, "
        "measure)"
    )
    # the committed section: the training configuration it always made
    p = DraftselfGpuParams.from_params(committed_params)
    train = committed_params["draftself_gpu"]["train"]
    assert train_natural.NaturalTrainConfig(**p.train.config()) == train_natural.NaturalTrainConfig(**train)


def test_the_typed_parts_hold_the_keys_of_what_they_feed():
    # SynthModel -> synth.SynthSpec, TrainParams -> NaturalTrainConfig, TinyModel -> model.ModelConfig
    # (less what the training sets), Kind -> the document kinds of draftself.data
    assert list(SynthModel.__annotations__) == [f.name for f in dataclasses.fields(synth.SynthSpec)]
    assert list(TrainParams.model_fields) == [
        f.name for f in dataclasses.fields(train_natural.NaturalTrainConfig)
    ]
    config_fields = [f.name for f in dataclasses.fields(ModelConfig)]
    assert list(TinyModel.__annotations__) == [n for n in config_fields if n not in ("vocab_size", "mask_id")]
    assert list(Kind.__args__) == list(data.KINDS)
    assert TrainParams().config() == dataclasses.asdict(train_natural.NaturalTrainConfig())


def test_a_model_id_is_checked_against_the_registry_before_any_build(committed_params, monkeypatch, tmp_path):
    from benchbook import resolve
    from benchbook.experiments.llama_bench import run

    def no_build(*_a, **_k):
        raise AssertionError("the toolchain was resolved before the params were checked")

    monkeypatch.setattr(resolve, "get_toolchain", no_build)
    params = with_section(committed_params, "llama_bench", models=["smollm2-135m-q4_1", "smollm2-135m-q4_0"])
    with pytest.raises(ParamsError) as e:
        run.measure(params, root=tmp_path, raw_dir=tmp_path / "raw")
    assert str(e.value) == (
        "params.yaml `llama_bench.models.1`: 'smollm2-135m-q4_0' is not a models.registry id; fix: name one "
        "of "
        f"{IDS} (`benchbook models add PATH|URL` registers a file)"
    )
    assert not (tmp_path / "raw").exists()


# --- a section that is not a mapping ----------------------------------------------------------------------


def test_a_section_that_is_not_a_mapping_is_a_params_error(committed_params):
    # before: TypeError ('list' object is not a mapping) and AttributeError ('str' has no attribute 'get')
    assert message(lambda: LlamaBenchParams.from_params({**committed_params, "llama_bench": [1, 2]})) == (
        "params.yaml `llama_bench` is a list ([1, 2]), not a mapping; fix: write its keys as `key: value` "
        "lines "
        "indented under `llama_bench:`"
    )
    assert message(lambda: TemplateParams.from_section("x")) == (
        "params.yaml `template` is a str ('x'), not a mapping; fix: write its keys as `key: value` lines "
        "indented under `template:`"
    )
    assert message(lambda: DraftselfParams.from_params({"draftself": "measure"})) == (
        "params.yaml `draftself` is a str ('measure'), not a mapping; fix: write its keys as `key: value` "
        "lines indented under `draftself:`"
    )
    assert message(lambda: TemplateParams.from_section({}, [("repetitions", 3)])) == (
        "`overrides` is a list ([('repetitions', 3)]), not a mapping; fix: pass a JSON object of keys and "
        'values, e.g. {"repetitions": 3}'
    )


def test_sourced_keeps_each_keys_place_through_a_merge():
    a = Sourced({"x": 1, "y": 2}, Source("params.yaml", "s"))
    b = a | Sourced({"y": 3}, Source("--overrides"))
    assert b == {"x": 1, "y": 3} and isinstance(b, dict)
    assert [b.source(k).at((k,)) for k in ("x", "y", "z")] == [
        "params.yaml `s.x`",
        "`--overrides` key `y`",
        "params.yaml `s.z`",
    ]
    assert contract.registry_ids({"models": {"registry": {"a": {}}}}) == ["a"]
    assert contract.registry_ids({"models": None}) is None
