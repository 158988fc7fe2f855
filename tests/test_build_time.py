"""The time of a first llama.cpp build is said once (``toolchain.BUILD_TIME``) and quoted word for word
by the README, ``scripts/setup.sh`` and every message that announces a build; the measured build of
docs/running.md ("Time of a first run") lies inside its quiet-host range."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from benchbook import resolve
from benchbook.llamacpp import toolchain as tc

ROOT = Path(__file__).resolve().parents[1]


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_build_time_is_the_measured_one():
    assert tc.BUILD_TIME == "~6-7 min on 2 quiet cores, 20+ min on a busy host"
    table = re.search(r"^\| llama\.cpp build \| (\d+) s ", (ROOT / "docs" / "running.md").read_text(), re.M)
    assert table and table.group(1) == "384" and 6 * 60 <= int(table.group(1)) <= 7 * 60


def test_readme_and_setup_quote_it():
    assert f"the llama.cpp build ({tc.BUILD_TIME}, the first time" in _flat((ROOT / "README.md").read_text())
    setup = (ROOT / "scripts" / "setup.sh").read_text()
    assert f"(a first build: {tc.BUILD_TIME}; log: <cache>/toolchains/*/build.log)" in setup
    for old in ("7-14", "7–14", "about 14 min"):
        assert old not in setup and old not in (ROOT / "README.md").read_text()
        assert old not in (ROOT / "docs" / "running.md").read_text()


def test_the_missing_build_message_quotes_it(tmp_path, monkeypatch):
    monkeypatch.setenv("BENCHBOOK_CACHE", str(tmp_path))
    params = yaml.safe_load((ROOT / "params.yaml").read_text())
    with pytest.raises(tc.ToolchainError) as e:
        resolve.get_toolchain(params, build=False)
    assert str(e.value).startswith(f"no llama.cpp build in the cache ({tmp_path / 'toolchains'}/b11434-")
    assert str(e.value).endswith(f"fix: `benchbook toolchain build` ({tc.BUILD_TIME})")
