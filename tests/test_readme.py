"""The user's guide's commands work as written (the README and the docs pages it links, ``GUIDE``):
every command of their ```sh blocks is listed here with how
it is checked, and is executed on a fresh clone (a `git clone` of this repository's HEAD whose
`.venv` is the running interpreter's venv, as `scripts/setup.sh` would leave it).  The long ones
(`make run`, `make test`, the analysis benchmark) run in a slow-marked test (BENCHBOOK_SLOW=1);
the fast test checks their recipes with `make -n`."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
VENV = Path(sys.executable).parent.parent
SLOW = pytest.mark.skipif(not os.environ.get("BENCHBOOK_SLOW"), reason="slow (minutes); set BENCHBOOK_SLOW=1")

Q8_0 = "~/.cache/benchbook/models/7b46609d11703c058397e5cfe4cc6e4b2508cb1eb4c80ddc472a5d421fbdb508.gguf"
WRITEUP_ADD = ".venv/bin/benchbook models add " + Q8_0 + " --id my-q8_0"
WRITEUP_MEASURE = (
    ".venv/bin/python -m benchbook.experiments llama_bench --raw-dir writeups/user-gguf/raw --overrides "
    '\'{"models": ["my-q8_0"], "repetitions": 3, "cold_first_run": false, "timeout_s": 3600}\''
)
WRITEUP_PAGE = (
    ".venv/bin/papermill notebooks/report.ipynb writeups/user-gguf/llama_bench_report.ipynb "
    "--cwd . -p root . -p experiment llama_bench -p params_file writeups/user-gguf/params.yaml "
    "-p raw_dir writeups/user-gguf/raw -p reports_dir writeups/user-gguf/reports -p to_root ./ "
    "--no-progress-bar"
)

#: Every README command -> ("fresh": run here on a clone without models or binaries | "cached": run
#: with the real cache, skipped when it lacks the build | "slow"), the argv it runs as (placeholders
#: filled in; {file} is a GGUF outside the clone), and the check of its result.
CHECKS = {
    "make run": ("slow", None),
    "make test": ("slow", None),
    ".venv/bin/benchbook run --from-data": ("fresh", ".venv/bin/benchbook run --from-data"),
    ".venv/bin/benchbook doctor": ("fresh", ".venv/bin/benchbook doctor"),
    ".venv/bin/benchbook toolchain build": ("cached", ".venv/bin/benchbook toolchain build"),
    ".venv/bin/benchbook models fetch [ID]": ("cached", ".venv/bin/benchbook models fetch smollm2-135m-q4_1"),
    ".venv/bin/benchbook models add PATH|URL [--id ID]": (
        "fresh",
        ".venv/bin/benchbook models add {file} --id mine",
    ),
    ".venv/bin/dvc metrics show": ("fresh", ".venv/bin/dvc metrics show"),
    # the write-up walk-through ("Your model: a write-up"): register, measure (slow: the real Q8_0 of the
    # cache, registered again over the stand-in), render its page from the committed write-up raw data
    WRITEUP_ADD: ("fresh", ".venv/bin/benchbook models add {file} --id my-q8_0"),
    WRITEUP_MEASURE: (
        "slow",
        ".venv/bin/benchbook models add " + Q8_0 + " --id my-q8_0 --replace && " + WRITEUP_MEASURE,
    ),
    WRITEUP_PAGE: ("fresh", WRITEUP_PAGE),
    ".venv/bin/benchbook ingest FILE... [--host NAME] [--build N]": (
        "fresh",
        ".venv/bin/benchbook ingest tests/fixtures/llama_bench_b11434.jsonl",
    ),
    ".venv/bin/benchbook audit CLAIMS.yaml [--logs DIR] [--pair SPEC=BASELINE]": (
        "fresh",
        ".venv/bin/benchbook audit data/claims/clover-35b-a3b-blog.yaml",
    ),
    # issue 29: a saved post drafted into a claims file beside it, then audited
    ".venv/bin/benchbook audit POST.md": (
        "fresh",
        ".venv/bin/benchbook audit tests/fixtures/draft/clover-blog.md",
    ),
    ".venv/bin/benchbook stages check": ("fresh", ".venv/bin/benchbook stages check"),
    ".venv/bin/benchbook stages write": ("fresh", ".venv/bin/benchbook stages write"),
    ".venv/bin/benchbook hosts": ("fresh", ".venv/bin/benchbook hosts"),
    ".venv/bin/benchbook artifacts add": ("fresh", ".venv/bin/benchbook artifacts add"),
    ".venv/bin/benchbook artifacts import": ("fresh", ".venv/bin/benchbook artifacts import"),
    ".venv/bin/benchbook numbers spec-self-n4-code": (
        "fresh",
        ".venv/bin/benchbook numbers spec-self-n4-code",
    ),
    ".venv/bin/benchbook new-page self-draft-note --experiment speculative --match spec-self-n4-code": (
        "fresh",
        ".venv/bin/benchbook new-page self-draft-note --experiment speculative --match spec-self-n4-code",
    ),
    ".venv/bin/benchbook site build": ("fresh", ".venv/bin/benchbook site build"),
    "python scripts/bench_analysis.py": ("slow", "python scripts/bench_analysis.py"),
    # issue 33 §1: a write-up in one command (measures: slow) and a write-up's numbers (committed)
    ".venv/bin/benchbook writeup new my-gguf --model ~/models/my-model.Q4_1.gguf": (
        "slow",
        "cp ~/.cache/benchbook/models/b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53.gguf "
        "../my-model.Q4_1.gguf && .venv/bin/benchbook writeup new my-gguf --model ../my-model.Q4_1.gguf "
        """--overrides '{"repetitions": 2, "n_gen": 16, "n_prompt": 32, "cold_first_run": false}'""",
    ),
    ".venv/bin/benchbook numbers --writeup user-gguf": (
        "fresh",
        ".venv/bin/benchbook numbers --writeup user-gguf",
    ),
    # issue 29 item 4: the drafter scored on the corpus, printed figures (the 10 MB robustness input takes
    # minutes); tests/test_claims_draft.py drafts and loads every post of it
    "PYTHONPATH=src .venv/bin/python scripts/draft_measure.py --corpus": ("slow", None),
    "PYTHONPATH=src .venv/bin/python scripts/draft_measure.py --corpus --posts 'h*' --no-robust": (
        "slow",
        None,
    ),
    (
        "PYTHONPATH=src .venv/bin/python scripts/draft_measure.py --corpus "
        "--posts 'p7*,p8*,p9*,p1??_*,p2??_*' --no-robust"
    ): ("slow", None),
    # the audit's verdicts on drafted corpus posts (false accusations); tests/test_draft_s53_kinds.py
    # runs it on two posts
    "PYTHONPATH=src .venv/bin/python scripts/draft_verdicts.py [--posts 'h*']": ("slow", None),
}


def readme_commands(text: str) -> list[str]:
    """The commands of every ```sh block (indented blocks too): each line without its trailing
    comment; blank lines and comment-only lines (a comment's continuation) skipped."""
    out = []
    for block in re.findall(r"^[ \t]*```sh\n(.*?)^[ \t]*```", text, re.S | re.M):
        for line in block.splitlines():
            cmd = re.sub(r"\s+#.*$", "", line).strip()
            if cmd and not cmd.startswith("#"):
                out.append(cmd)
    return out


#: The user's guide: the README and the pages it links for running, the pipeline and claims.
GUIDE = ("README.md", "docs/running.md", "docs/pipeline.md", "docs/claims.md")


def test_every_readme_command_is_checked():
    per_page = {page: readme_commands((ROOT / page).read_text()) for page in GUIDE}
    for page, cmds in per_page.items():
        assert len(cmds) == len(set(cmds)), page
    assert sorted({c for cmds in per_page.values() for c in cmds}) == sorted(CHECKS)
    # the README's own: the two commands and one example of each use
    assert per_page["README.md"] == [
        "make run",
        "make test",
        ".venv/bin/benchbook hosts",
        ".venv/bin/benchbook numbers spec-self-n4-code",
        ".venv/bin/benchbook new-page self-draft-note --experiment speculative --match spec-self-n4-code",
        ".venv/bin/benchbook site build",
        ".venv/bin/benchbook writeup new my-gguf --model ~/models/my-model.Q4_1.gguf",
        ".venv/bin/benchbook audit POST.md",
        ".venv/bin/benchbook audit CLAIMS.yaml [--logs DIR] [--pair SPEC=BASELINE]",
    ]


def test_readme_command_parser():
    text = (
        "x\n```sh\nmake run    # a\n            # b\n\n.venv/bin/x y  # c\n```\n"
        "  ```sh\n  z --q\n  ```\n```yaml\nk: v\n```\n"
    )
    assert readme_commands(text) == ["make run", ".venv/bin/x y", "z --q"]


@pytest.fixture(scope="module")
def clone(tmp_path_factory):
    """A fresh clone of HEAD with `.venv` linked to the running venv; an empty cache (no models or
    binaries) and `src/` of the clone first on the import path."""
    base = tmp_path_factory.mktemp("readme")
    repo = base / "clone"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(repo)], check=True)
    (repo / ".venv").symlink_to(VENV)
    gguf = base / "outside" / "mine.gguf"
    gguf.parent.mkdir()
    gguf.write_bytes(b"GGUF" + b"\0" * 60)
    env = {
        **os.environ,
        "PYTHONPATH": str(repo / "src"),
        "BENCHBOOK_CACHE": str(base / "cache"),
        "PATH": os.environ.get("PATH", ""),
    }
    env.pop("BENCHBOOK_ROOT", None)
    return {"repo": repo, "env": env, "file": gguf}


def _run(argv: str, clone, env=None, timeout=600):
    return subprocess.run(
        argv.split(),
        cwd=clone["repo"],
        env=env or clone["env"],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


#: pyzmq's event loop logging a socket closed under it while papermill's kernel shuts down (a race of
#: jupyter_client and pyzmq on a loaded host, seen once in a new user's `make test`: "Traceback ...
#: zmqstream.py ... _log_error ... zmq.error.ZMQError: Socket operation on non-socket"): logged, not
#: raised; the notebook ran and the command exits 0
_KERNEL_SHUTDOWN_NOISE = re.compile(
    # the traceback's own lines (indented), blank lines and a chained exception's, up to its last line
    r"Traceback \(most recent call last\):\n"
    r"(?:[ \t].*\n|\n|(?:During handling|The above exception|Traceback \(most recent).*\n)*?"
    r"zmq\.error\.ZMQError: Socket operation on non-socket\n?"
)


def _without_kernel_shutdown_noise(stderr: str) -> str:
    """``stderr`` without pyzmq's logged shutdown tracebacks (``_KERNEL_SHUTDOWN_NOISE``); any other
    traceback stays, so a command that crashes still fails the test."""
    return _KERNEL_SHUTDOWN_NOISE.sub("", stderr)


def test_kernel_shutdown_noise_is_the_only_traceback_passed_over():
    noise = (
        "Input Notebook: x\nTraceback (most recent call last):\n"
        '  File "zmqstream.py", line 585, in _log_error\n'
        "    f.result()\nzmq.error.ZMQError: Socket operation on non-socket\nExecuting: 100%\n"
    )
    assert "Traceback" not in _without_kernel_shutdown_noise(noise)
    crash = 'Traceback (most recent call last):\n  File "x.py", line 1\nValueError: bad\n'
    assert _without_kernel_shutdown_noise(noise + crash).count("Traceback") == 1
    # a crash followed by the noise: the crash's traceback stays (its last line is no zmq error)
    assert _without_kernel_shutdown_noise(crash + noise).count("Traceback") == 1


def test_fresh_clone_commands(clone):
    """The order matters: the first site before `dvc metrics show` (metrics are stage outputs) and
    `models add` last (it edits params.yaml)."""
    order = [
        ".venv/bin/benchbook run --from-data",
        ".venv/bin/benchbook doctor",
        ".venv/bin/dvc metrics show",
        ".venv/bin/benchbook ingest FILE... [--host NAME] [--build N]",
        ".venv/bin/benchbook audit CLAIMS.yaml [--logs DIR] [--pair SPEC=BASELINE]",
        ".venv/bin/benchbook audit POST.md",
        ".venv/bin/benchbook stages check",
        ".venv/bin/benchbook stages write",
        WRITEUP_PAGE,
        ".venv/bin/benchbook hosts",
        ".venv/bin/benchbook artifacts import",
        ".venv/bin/benchbook artifacts add",
        ".venv/bin/benchbook numbers spec-self-n4-code",
        ".venv/bin/benchbook numbers --writeup user-gguf",
        ".venv/bin/benchbook new-page self-draft-note --experiment speculative --match spec-self-n4-code",
        ".venv/bin/benchbook site build",
        ".venv/bin/benchbook models add PATH|URL [--id ID]",
        WRITEUP_ADD,
    ]
    assert sorted(order) == sorted(k for k, (kind, _) in CHECKS.items() if kind == "fresh")
    results = {}
    for key in order:
        r = _run(CHECKS[key][1].format(file=clone["file"]), clone)
        results[key] = r
        assert "Traceback" not in _without_kernel_shutdown_noise(r.stderr), (key, r.stderr[-2000:])
    site = results[".venv/bin/benchbook run --from-data"]
    assert site.returncode == 0, site.stderr[-3000:]
    assert (clone["repo"] / "_site" / "index.html").exists()
    assert f"site from the committed raw data: {clone['repo'] / '_site' / 'index.html'}\n" in site.stdout
    assert "stage site ..." in site.stderr
    doctor = results[".venv/bin/benchbook doctor"]
    assert doctor.returncode == 1 and "MISS toolchain: no llama.cpp build in the cache" in doctor.stdout
    assert results[".venv/bin/dvc metrics show"].returncode == 0
    assert "reports/metrics/llama_bench.json" in results[".venv/bin/dvc metrics show"].stdout
    assert results[".venv/bin/benchbook ingest FILE... [--host NAME] [--build N]"].returncode == 0
    assert (
        results[".venv/bin/benchbook audit CLAIMS.yaml [--logs DIR] [--pair SPEC=BASELINE]"].returncode == 0
    )
    post = results[".venv/bin/benchbook audit POST.md"]
    assert post.returncode == 0, post.stderr[-2000:]
    assert (clone["repo"] / "tests/fixtures/draft/clover-blog.claims.yaml").exists()
    assert "consistent" in post.stdout
    assert results[".venv/bin/benchbook stages check"].returncode == 0
    written = results[".venv/bin/benchbook stages write"]  # a clone's files are what the list writes
    assert (written.returncode, written.stdout) == (0, "dvc.yaml and measure/dvc.yaml: unchanged\n")
    hosts = results[".venv/bin/benchbook hosts"]
    assert hosts.returncode == 0 and hosts.stdout.startswith(
        "host 246274abff670295: CPU AMD EPYC (2 threads)"
    )
    # an empty cache and nothing pulled: nothing to import, nothing to add
    imported = results[".venv/bin/benchbook artifacts import"]
    assert (imported.returncode, imported.stdout) == (0, "")
    added = results[".venv/bin/benchbook artifacts add"]
    assert added.returncode == 0 and added.stdout.startswith("0 new artifact(s)"), added.stdout
    mine = results[
        ".venv/bin/benchbook numbers --writeup user-gguf"
    ]  # keys as the write-up's pages quote them
    assert mine.returncode == 0 and mine.stdout.splitlines()[1:] == [
        "user-gguf--lb-my-q8_0-pp128-warm  698.8 [689.9, 707.9]  tok/s  3  between_session_spread",
        "user-gguf--lb-my-q8_0-tg64-warm   84.5 [82.4, 86.6]     tok/s  3  between_session_spread",
    ], mine.stdout
    numbers = results[".venv/bin/benchbook numbers spec-self-n4-code"]
    assert numbers.returncode == 0 and numbers.stdout.splitlines()[2].split()[:5] == [
        "spec-self-n4-code_echo-decode",
        "36.9",
        "[30.0,",
        "45.4]",
        "tok/s",
    ], numbers.stdout
    page = results[
        ".venv/bin/benchbook new-page self-draft-note --experiment speculative --match spec-self-n4-code"
    ]
    assert (
        page.returncode == 0
        and "{{< var spec-self-n4-code_echo-speedup__v >}}"
        in (clone["repo"] / "self-draft-note.qmd").read_text()
    )
    build = results[".venv/bin/benchbook site build"]
    assert (
        build.returncode == 0
        and "  self-draft-note.qmd: 6 of 6 quoted numbers linked to provenance" in build.stdout
    )
    # the README's prose edit ("Edit the prose, e.g.") renders its decode number as the README says,
    # markers included (it said †1,2,3 beside four caveats; cap_by_design is said once for the page)
    readme = (ROOT / "README.md").read_text()
    writing = readme[readme.index("**2. Write up a number.**") :]
    prose = re.search(r"^```markdown\n(.*?)^```", writing, re.S | re.M)
    rendered = re.search(r"renders each `\{\{< var >\}\}` as `([^`]+)`", writing)
    # issue 33 §4: markers numbered per page in reading order (the site's order made them †1,5,6)
    assert prose and rendered and rendered.group(1) == "36.9 [30.0, 45.4] tok/s †1,2,3"
    with open(clone["repo"] / "self-draft-note.qmd", "a") as f:
        f.write("\n" + prose.group(1))
    build = _run(CHECKS[".venv/bin/benchbook site build"][1], clone)
    assert build.returncode == 0 and "  self-draft-note.qmd: 10 of 10 quoted numbers linked" in build.stdout
    assert rendered.group(1) + "</a>" in (clone["repo"] / "_site" / "self-draft-note.html").read_text()
    add = results[".venv/bin/benchbook models add PATH|URL [--id ID]"]
    assert add.returncode == 0 and add.stdout.startswith("added models.registry.mine in ")
    add = results[WRITEUP_ADD]
    # the stand-in file is the one just added as `mine`: one model per sha256, `my-q8_0` an alias of it
    # (issue 33 §2: before, a second entry, and pages named the first file by the second id)
    assert add.returncode == 0 and add.stdout.startswith("this file is already mine (sha256 ")
    assert "models.registry.my-q8_0" in add.stdout and "as an alias: {alias_of: mine}" in add.stdout
    # the write-up's page from its committed raw data: the user's model
    page = results[WRITEUP_PAGE]
    assert page.returncode == 0, page.stderr[-3000:]
    numbers = json.loads((clone["repo"] / "writeups/user-gguf/reports/numbers/llama_bench.json").read_text())
    assert numbers["numbers"] and all(n["label"].startswith("my-q8_0 ") for n in numbers["numbers"].values())
    # the newest session ran on the quiet host (3.6 s); the two earlier ones on a busy host (load 16-30)
    # lie far outside its intervals
    assert all(
        "between_session_spread" in n["caveats"] and "busy_host" not in n["caveats"]
        for n in numbers["numbers"].values()
    )
    assert {n["session_id"] for n in numbers["numbers"].values()} == {"b74a0236104a4c8084e9fb008b636372"}


def test_cached_commands(clone):
    """`toolchain build` and `models fetch` with this machine's cache (a build would take 14 min)."""
    env = {**clone["env"]}
    env.pop("BENCHBOOK_CACHE")
    build = _run(CHECKS[".venv/bin/benchbook toolchain build"][1], clone, env)
    if build.returncode != 0 and "cannot build" in build.stderr:
        pytest.skip("no cached llama.cpp build and no compiler")
    assert build.returncode == 0 and "toolchain ready in " in build.stdout, build.stderr[-2000:]
    fetch = _run(CHECKS[".venv/bin/benchbook models fetch [ID]"][1], clone, env)
    assert fetch.returncode == 0 and fetch.stdout.startswith("smollm2-135m-q4_1: llama 134,515,008 params")


def test_make_recipes(clone):
    recipes = {
        "run": ["./scripts/setup.sh", ".venv/bin/benchbook run"],
        "test": [
            "./scripts/setup.sh --test",
            ".venv/bin/ruff check src tests scripts",
            ".venv/bin/ruff format --check src tests scripts",
            ".venv/bin/python -m mypy",
            ".venv/bin/python -m pytest -q -p no:cacheprovider",
        ],
        "repro": [".venv/bin/dvc repro"],
    }
    for target, lines in recipes.items():
        r = subprocess.run(
            ["make", "--no-print-directory", "-n", target], cwd=clone["repo"], capture_output=True, text=True
        )
        assert r.returncode == 0 and [line.strip() for line in r.stdout.splitlines()] == lines, r.stdout
    r = subprocess.run(
        ["make", "--no-print-directory", "-n", "run", "VERBOSE=1"],
        cwd=clone["repo"],
        capture_output=True,
        text=True,
    )
    assert r.stdout.splitlines()[1] == ".venv/bin/benchbook run --verbose"


def test_make_repro_finds_the_stage_commands_in_the_venv(clone):
    """`make repro` works from a shell whose PATH lacks the venv (a bare `.venv/bin/dvc repro` there fails:
    the stage commands' `python` is the system one, "No module named 'benchbook'"): its recipes see
    `.venv/bin` first on PATH, so `python`, `papermill`, `benchbook` and `dvc` are the venv's."""
    env = {**clone["env"], "PATH": "/usr/local/bin:/usr/bin:/bin"}
    r = subprocess.run(
        [
            "make",
            "-s",
            "--no-print-directory",
            "--eval",
            "bb-which: ; @for c in python papermill benchbook dvc; do command -v $$c; done",
            "bb-which",
        ],
        cwd=clone["repo"],
        env=env,
        capture_output=True,
        text=True,
    )
    venv_bin = clone["repo"] / ".venv" / "bin"
    assert r.returncode == 0 and r.stdout.splitlines() == [
        str(venv_bin / name) for name in ("python", "papermill", "benchbook", "dvc")
    ], r.stdout + r.stderr


@pytest.mark.slow
@SLOW
@pytest.mark.parametrize("key", [k for k, (kind, _) in CHECKS.items() if kind == "slow"])
def test_slow_commands(clone, key):
    """`make run`/`make test` on the clone (setup finds the venv ready; the cache is this machine's)."""
    env = {**clone["env"]}
    env.pop("BENCHBOOK_CACHE")
    argv = key if CHECKS[key][1] is None else CHECKS[key][1]
    r = subprocess.run(
        argv, shell=True, cwd=clone["repo"], env=env, capture_output=True, text=True, timeout=3600
    )
    assert r.returncode == 0, r.stderr[-3000:]
    if key == "make run":
        assert (clone["repo"] / "_site" / "index.html").exists() and "site: " in r.stdout
    shutil.rmtree(clone["repo"] / "_site", ignore_errors=True)
