"""Shared fixtures: the repository, its params, and the real toolchain/models from the cache.

Integration fixtures skip (with the fix in the reason) when the toolchain or models are absent;
`make test` builds/fetches them first, so in CI they run.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchbook import resolve

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def params() -> dict:
    return resolve.load_params(ROOT)


@pytest.fixture(scope="session")
def toolchain(params):
    try:
        return resolve.get_toolchain(params, build=False)
    except Exception as e:  # noqa: BLE001
        pytest.skip(f"llama.cpp toolchain not built ({e}); fix: `benchbook toolchain build`")


@pytest.fixture(scope="session")
def models(params, toolchain):
    ids = ["smollm2-135m-q4_1", "smollm2-135m-q8_0", "smollm2-135m-q2_k"]
    return {m["model_id"]: m for m in resolve.get_models(params, ids, toolchain, log=lambda *_: None)}
