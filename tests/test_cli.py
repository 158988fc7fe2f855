"""CLI: doctor reports what is there and the fix for what is not."""

import json
import subprocess
import sys

import pytest


def run(args, cwd, env=None):
    return subprocess.run(
        [sys.executable, "-m", "benchbook.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


@pytest.mark.integration
def test_doctor_reports_toolchain_models_renderer_gpu(root, toolchain, models):
    r = run(["doctor"], root)
    out = r.stdout
    # llama.cpp's build-info says "unknown" without git metadata (our sdist build): doctor says why
    assert (
        "ok   toolchain b11434 (commit unknown: built from a source archive without git metadata) "
        f"backend=cpu id={toolchain.toolchain_id}"
    ) in out
    for mid in ("smollm2-135m-q4_1", "smollm2-135m-q8_0", "smollm2-135m-q2_k"):
        assert f"ok   model {mid} sha256=" in out
    assert "site renderer: " in out and "GPU: " in out


def test_doctor_names_fixes_when_cache_is_empty(root, tmp_path):
    import os

    env = {**os.environ, "BENCHBOOK_CACHE": str(tmp_path)}
    r = run(["doctor"], root, env)
    assert r.returncode == 1
    assert (
        "MISS toolchain: no llama.cpp build in the cache" in r.stdout
        and "fix: `benchbook toolchain build`" in r.stdout
    )
    assert "MISS model smollm2-135m-q4_1  fix: `benchbook models fetch`" in r.stdout


def test_unknown_model_on_command_line_lists_known_ids(root):
    r = run(["models", "fetch", "nope"], root)
    assert r.returncode == 2 and "unknown model id 'nope'" in r.stderr and "smollm2-135m-q4_1" in r.stderr


def test_stage_commands_find_the_venv_tools_without_activation(monkeypatch):
    import os
    from pathlib import Path

    from benchbook import cli

    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    env = cli.tool_env()
    first = env["PATH"].split(os.pathsep)[0]
    assert first == str(Path(sys.executable).parent) and (Path(first) / "papermill").exists()
    assert env["PATH"].endswith("/usr/bin:/bin")
    assert cli.venv_tool("dvc") == str(Path(sys.executable).parent / "dvc")


def test_measured_here_is_per_host_and_toolchain(committed_params):
    from benchbook import cli
    from benchbook.experiments import profiles
    from conftest import committed_root

    root, params = committed_root(), committed_params
    cpu = profiles.Picked("cpu", "test")
    lines: list[str] = []
    lb = cli.measured_here(root, params, "246274abff670295", "6bcbdc2942c465ab", cpu, lines.append)
    # that host's speculative sessions predate `log_verbosity: 4` in params.yaml: measured again
    assert lb == {"llama_bench": True, "speculative": False, "draftself": True}
    assert len(lines) == 3 and lines[0].endswith(
        "(`log_verbosity`: the session ran with it unset, params.yaml asks 4): it does not count as measured"
    )
    other_build = cli.measured_here(root, params, "246274abff670295", "0000000000000000", cpu)
    assert other_build == {"llama_bench": False, "speculative": False, "draftself": True}
    assert cli.measured_here(root, params, "ffffffffffffffff", "6bcbdc2942c465ab") == {
        "llama_bench": False,
        "speculative": False,
        "draftself": False,
    }


def test_a_session_that_ran_other_params_is_measured_again(tmp_path, committed_params):
    """Locked params say 5 repetitions, the records 3 (a session run with --overrides): DVC calls the
    stage up to date, the records do not (issue 28 §10); the stage measures again, saying why."""
    from benchbook import cli
    from benchbook.experiments import drift, profiles

    cpu = profiles.Picked("cpu", "test")
    params = committed_params
    config = drift.current("llama_bench", params, cpu).config()
    assert config["repetitions"] == 5
    raw = tmp_path / "data/raw/llama_bench"
    raw.mkdir(parents=True)

    def write(cfg: dict) -> None:
        head = {"schema": "benchbook.session", "schema_version": 1, "experiment": "llama_bench"}
        ids = {"session_id": "s" * 32, "host_id": "h" * 16, "toolchain_id": "t" * 16}
        (raw / f"{'h' * 16}.jsonl").write_text(
            json.dumps({**head, **ids, "event": "start", "at": "2026-12-01T00:00:00Z", "config": cfg})
            + "\n"
            + json.dumps({**head, **ids, "event": "end", "at": "2026-12-01T00:01:00Z"})
            + "\n"
        )

    write({**config, "repetitions": 3, "raw_dir": "data/raw/llama_bench"})
    lines: list[str] = []
    assert cli.measured_here(tmp_path, params, "h" * 16, "t" * 16, cpu, lines.append)["llama_bench"] is False
    assert lines == [
        f"llama_bench: session {'s' * 32} ran other parameters than params.yaml asks now (`repetitions`: "
        "the session ran 3, params.yaml asks 5): it does not count as measured"
    ]
    write({**config, "raw_dir": "data/raw/llama_bench"})  # the runner's own key is no parameter
    # no drift line now; but a session with no measurement records is one the reports would not publish,
    # so it does not count as measured either (issue 34 §4: before, any end record counted)
    assert cli.measured_here(tmp_path, params, "h" * 16, "t" * 16, cpu, lines.append)["llama_bench"] is False
    assert len(lines) == 2 and lines[1] == (
        f"llama_bench: session {'s' * 32} is not published ({raw / ('h' * 16 + '.jsonl')}: "
        f"session {'s' * 32} "
        "planned ('smollm2-135m-q2_k', 'cold') but has no such run: an incomplete table): it does not count "
        "as measured"
    )


def test_doctor_says_wait_while_another_process_builds_the_toolchain(root, tmp_path):
    # new user: `doctor` during `benchbook run`'s build said "MISS toolchain ... fix: `benchbook toolchain
    # build`", which would start a second build into the same folder
    import json
    import os
    import re

    env = {**os.environ, "BENCHBOOK_CACHE": str(tmp_path)}
    first = run(["doctor"], root, env).stdout
    folder = tmp_path / re.search(r"\(" + re.escape(str(tmp_path)) + r"/(toolchains/[^)]+)\)", first).group(1)
    folder.mkdir(parents=True)
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    (folder / "building.json").write_text(json.dumps({"pid": int(gone.stdout), "started_at": "x"}))
    assert (
        "MISS toolchain: no llama.cpp build in the cache" in run(["doctor"], root, env).stdout
    )  # killed build
    (folder / "building.json").write_text(
        json.dumps({"pid": os.getpid(), "started_at": "2026-12-01T06:00:00Z"})
    )
    r = run(["doctor"], root, env)
    assert r.returncode == 1
    assert (
        f"WAIT toolchain: being built now by process {os.getpid()} (started 2026-12-01T06:00:00Z; "
        f"progress in {folder / 'build.log'}); wait for it to finish, do not start another build\n"
    ) in r.stdout
    assert "MISS toolchain" not in r.stdout
    # the toolchain waits; the 3 models of the registry are missing (this cache is empty)
    assert r.stdout.splitlines()[-1] == "1 being made (wait for it), 3 missing (fixes above)"


def test_the_first_site_says_when_it_shows_uncommitted_raw_data(tmp_path):
    # new user: `benchbook run --from-data` printed "site from the committed raw data" while the site
    # showed this clone's uncommitted llama_bench session
    from benchbook import cli

    def git(*args):
        subprocess.run(["git", *args], cwd=tmp_path, check=True, capture_output=True)

    git("init", "-q")
    raw = tmp_path / "data" / "raw"
    (raw / "speculative").mkdir(parents=True)
    (raw / "speculative" / "h1.jsonl").write_text("{}\n")
    git("add", "-A")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "raw")
    assert cli.raw_data_words(tmp_path) == "the committed raw data"
    (raw / "llama_bench").mkdir()
    (raw / "llama_bench" / "h2.jsonl").write_text("{}\n")  # a session of this clone, never committed
    (raw / "speculative" / "h1.jsonl").write_text("{}\n{}\n")  # a committed file with new records
    (raw / "speculative" / "r0.log").write_text("server log\n")  # no raw record file: not counted
    assert cli.raw_data_words(tmp_path) == (
        "the committed raw data and 2 uncommitted raw files of this clone "
        "(data/raw/llama_bench/h2.jsonl, data/raw/speculative/h1.jsonl)"
    )
    assert cli.raw_data_words(tmp_path / "data") == "the committed raw data"  # no data/raw below it


def test_a_resumed_session_is_named_with_its_progress(tmp_path, committed_params):
    """Issue 33 §5: resuming a killed session said "no completed session … measuring on this host"; it
    says which session it resumes and how far it got (k of n: the plan of its start record)."""
    from benchbook import cli
    from benchbook.experiments import drift, profiles

    cpu = profiles.Picked("cpu", "test")
    config = {
        **drift.current("llama_bench", committed_params, cpu).config(),
        "raw_dir": "data/raw/llama_bench",
    }
    raw = tmp_path / "data/raw/llama_bench"
    raw.mkdir(parents=True)
    head = {"schema": "benchbook.session", "schema_version": 1, "experiment": "llama_bench"}
    ids = {"session_id": "s" * 32, "host_id": "h" * 16, "toolchain_id": "t" * 16}
    start = json.dumps({**head, **ids, "event": "start", "at": "2026-12-01T00:00:00Z", "config": config})
    runs = [
        json.dumps(
            {"schema": "benchbook.llama_bench", "schema_version": 2, "session_id": "s" * 32, "run_key": k}
        )
        for k in ("k1", "k2")
    ]
    (raw / f"{'h' * 16}.jsonl").write_text("\n".join([start, *runs]) + "\n")

    def line(toolchain: str) -> str:
        return cli.measuring_line(tmp_path, committed_params, "llama_bench", "h" * 16, toolchain, cpu)

    # 3 models, each a cold and a warm run: 6 planned, 2 done
    assert line("t" * 16) == (
        f"llama_bench: resuming session {'s' * 32} (2 of 6 done) for host {'h' * 16} "
        f"with toolchain {'t' * 16}"
    )
    # controls: another build starts anew; no open session says so as before
    assert (
        line("u" * 16) == f"no completed llama_bench session for host {'h' * 16} with toolchain {'u' * 16}: "
        "measuring on this host"
    )
    with open(raw / f"{'h' * 16}.jsonl", "a") as f:
        f.write(json.dumps({**head, **ids, "event": "end", "at": "2026-12-01T00:01:00Z"}) + "\n")
    assert line("t" * 16).startswith("no completed llama_bench session for host")
