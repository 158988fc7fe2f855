"""Each claims-file error's fix says what to write, not "see README 'Claims files'" (a new user who
copied the README's example got `conditions....: Extra inputs are not permitted; fix: see README
'Claims files' for the field`: the README's own `{...}` sent back to the README), for the three
errors the old example gave: a `{...}` placeholder, an undeclared environment, an undeclared id."""

from __future__ import annotations

import pytest

from benchbook.audit import schema

HEAD = "schema: benchbook.claims\nschema_version: 1\nsource: {kind: blog post}\n"
CLAIM = "claims:\n  - {id: a, metric: decode_tps, value: 10, unit: tok/s, conditions: {env: windows}}\n"


def _error(tmp_path, text: str) -> str:
    f = tmp_path / "c.yaml"
    f.write_text(text)
    with pytest.raises(schema.ClaimsError) as e:
        schema.load(f)
    return str(e.value).replace(str(f), "c.yaml")


def test_a_placeholder_mapping_names_the_fields(tmp_path):
    assert _error(tmp_path, HEAD + "conditions: {...}\n") == (
        "c.yaml:4: conditions....: Extra inputs are not permitted; fix: `{...}` is the claims guide's "
        "placeholder (docs/claims.md): "
        "write the fields or drop the mapping: conditions takes env, hardware, engine, build, model, quant, "
        "offload, decoding, block_max, prompt, tokens_generated, cap, sampling, ctx, batch, ubatch, "
        "flash_attn, type_k, type_v, depth, backend, concurrency, run_index, file_cache, other"
    )


def test_an_unknown_nested_field_names_its_mappings_fields(tmp_path):
    text = HEAD + "claims:\n  - {id: a, metric: m, statement: s, conditions: {offload: {n_gpu_layer: 9}}}\n"
    assert _error(tmp_path, text) == (
        "c.yaml:5: claims.0.conditions.offload.n_gpu_layer: Extra inputs are not permitted; "
        "fix: remove it or rename it: claims.0.conditions.offload takes n_gpu_layers, n_cpu_moe"
    )


def test_an_unknown_top_level_field_names_the_files_fields(tmp_path):
    assert _error(tmp_path, HEAD + "colour: red\n") == (
        "c.yaml:4: colour: Extra inputs are not permitted; fix: remove it or rename it: the file takes "
        "schema, schema_version, source, systems, environments, software, model, settings, conditions, "
        "claims, statements, log_pairs, todo, draft"
    )


def test_a_free_facts_mapping_takes_any_key(tmp_path):
    text = (
        HEAD + "systems: [{id: pc, hardware: X, gpu: {...}}]\nclaims:\n  - {id: a, metric: m, statement: s}\n"
    )
    f = tmp_path / "c.yaml"
    f.write_text(text)
    assert schema.load(f).systems[0].gpu == {"...": None}


def test_an_undeclared_environment_says_how_to_declare_it(tmp_path):
    text = HEAD + "systems: [{id: pc, hardware: X}]\nenvironments: [{id: wsl, system: pc}]\n" + CLAIM
    assert _error(tmp_path, text) == (
        "c.yaml:7: claims.0.conditions.env: 'windows' is not an environments id; known: ['wsl']; "
        "fix: name one of them, or declare it under `environments:` ({id: windows, system: ...})"
    )
    text = HEAD + "conditions: {env: windows}\n" + CLAIM.replace("windows", "null")
    assert _error(tmp_path, text) == (
        "c.yaml:4: conditions.env: 'windows' is not an environments id; known: []; "
        "fix: name one of them, or declare it under `environments:` ({id: windows, system: ...})"
    )


def test_an_undeclared_system_says_how_to_declare_it(tmp_path):
    text = HEAD + "environments: [{id: wsl, system: pc}]\n" + CLAIM.replace("windows", "wsl")
    assert _error(tmp_path, text) == (
        "c.yaml:4: environments.0.system: 'pc' is not a systems id; known: []; "
        "fix: name one of them, or declare it under `systems:` ({id: ..., hardware: ...})"
    )


def test_an_undeclared_id_lists_the_ids(tmp_path):
    text = (
        HEAD
        + CLAIM.replace(", conditions: {env: windows}", "")
        + "statements:\n  - {id: s1, kind: ratio, statement: x, of: [ds-code-win, a], value: 57, unit: '%'}\n"
    )
    assert _error(tmp_path, text) == (
        "c.yaml:7: statements.0.of.0: 'ds-code-win' is neither a claim nor a statement id; "
        "fix: cite one of ['a', 's1'], or add the claim it names under `claims:`"
    )
