"""The measurement stages depend on exactly the model registry entries they measure.

``benchbook models add`` appends an entry to ``models.registry``; were a stage to depend on all of
``models``, a plain ``dvc repro`` would then measure again (a new user saw ``changed deps …
params.yaml: modified: models`` after the README's own "Your model" step).
"""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def _closure(registry: dict, ids: set[str]) -> set[str]:
    """``ids`` and every entry they are derived from (``derived_from``), transitively."""
    todo, out = list(ids), set(ids)
    while todo:
        src = registry[todo.pop()].get("derived_from")
        if src and src not in out:
            out.add(src)
            todo.append(src)
    return out


def _used(params: dict, stage: str) -> set[str]:
    registry = params["models"]["registry"]
    if stage == "llama_bench":
        ids = set(params["llama_bench"]["models"])
    else:
        sp = params["speculative"]
        ids = {sp["target"]} | {
            d["model"] for d in sp["drafts"].values() if d.get("model") not in (None, "target")
        }
    return _closure(registry, ids)


def _listed(stage: str) -> tuple[set[str], list[str]]:
    stages = yaml.safe_load((ROOT / "measure" / "dvc.yaml").read_text())["stages"]
    names = [p for p in stages[stage]["params"] if isinstance(p, str)]
    prefix = "models.registry."
    return {p[len(prefix) :] for p in names if p.startswith(prefix)}, names


def test_measurement_stages_list_the_registry_entries_they_measure():
    params = yaml.safe_load((ROOT / "params.yaml").read_text())
    for stage in ("llama_bench", "speculative"):
        listed, names = _listed(stage)
        assert "models" not in names, f"{stage}: depends on all of `models`"
        assert listed == _used(params, stage), stage
    assert _used(params, "speculative") == {"smollm2-135m-q4_1", "smollm2-135m-q2_k", "smollm2-135m-q8_0"}


def test_an_added_model_is_in_no_measurement_stage_params():
    params = yaml.safe_load((ROOT / "params.yaml").read_text())
    params["models"]["registry"]["my-q8_0"] = {"source": "file", "path": "/x.gguf", "sha256": "0" * 64}
    for stage in ("llama_bench", "speculative"):
        listed, _ = _listed(stage)
        assert "my-q8_0" not in listed and _used(params, stage) == listed
