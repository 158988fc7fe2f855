"""The ``benchbook`` command line.

benchbook doctor                 what is present, what is missing and the exact fix
benchbook toolchain build        build (or find) llama.cpp; prints the toolchain record
benchbook models fetch [ID...]   fetch/derive models (default: every registry id); prints manifests
benchbook models add PATH|URL    register your GGUF (file in place, or a URL) by sha256 in params.yaml
benchbook run [--verbose] [--from-data]
                                 the main job: the site from committed data first, then toolchain,
                                 models, measure on this host if needed, `dvc repro`, print the site
                                 path (stage output to a log file unless --verbose; progress bars
                                 for builds, downloads, sessions); --from-data: the first site only
benchbook records repair FILE    move a torn last line aside (quarantine) and report it
benchbook site build             render the site (quarto when on PATH, else smalldocs)
benchbook numbers [PATTERN]      registered keys with value [95% interval], unit, n and caveats (--json)
benchbook new-page NAME --experiment EXP [--match PATTERN]
                                 write NAME.qmd bound to an experiment's numbers; list it in _quarto.yml
benchbook ingest FILE...         read external llama.cpp output (llama-bench, server log, speculative-simple)
benchbook audit CLAIMS.yaml...   a verdict per published claim [--logs DIR] [--pair SPEC=BASELINE];
                                 --all DIR audits every claims file of DIR (the `audit` stage)
benchbook stages check           compare each dvc.yaml stage's code deps with its import closure, and the
                                 files with what `stages write` writes
benchbook stages write           write dvc.yaml and measure/dvc.yaml from the stage list (benchbook.stages)
benchbook artifacts add|import   models and the draft-self checkpoint to/from the DVC remote's folder
                                 (data/artifacts; then `dvc push`) / from a `dvc pull` into the cache
benchbook hosts                  every host of the committed raw data: CPU/GPU, memory, builds, sessions
benchbook synth-model [...]      write a random-weight GGUF (llama / qwen3moe / qwen2moe) with the default
                                 model's tokenizer; prints its manifest (sha256, bytes per role)
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from . import errors, resolve
from .paths import cache_dir, repo_root


def tool_env() -> dict:
    """The environment for DVC and its stage commands: this interpreter's bin/ (the project venv)
    first on PATH, so `papermill`, `benchbook` and `python` in dvc.yaml resolve to the venv's,
    whether or not the user activated it."""
    bindir = str(Path(sys.executable).parent)
    path = os.environ.get("PATH", "")
    return {**os.environ, "PATH": bindir + (os.pathsep + path if path else "")}


def venv_tool(name: str) -> str | None:
    """Path of ``name`` in this interpreter's bin/ or on PATH (None when neither has it)."""
    here = Path(sys.executable).parent / name
    return str(here) if here.exists() else shutil.which(name)


def _ok(flag: bool) -> str:
    return "ok  " if flag else "MISS"


def cmd_doctor(args) -> int:
    from .llamacpp.toolchain import ToolchainBuilding

    root = repo_root()
    params = resolve.load_params(root)
    problems = waiting = 0
    print(f"project   {root}")
    print(f"cache     {cache_dir()}")
    try:
        tc = resolve.get_toolchain(params, build=False)
        r = tc.record
        print(
            f"{_ok(True)} toolchain b{r.get('build_number')} ({r.get('build_commit')}) "
            f"backend={r.get('backend')} "
            f"id={r['toolchain_id']} at {tc.bin_dir}"
        )
        if tc.libraries:  # what the loader loads (a copied cache's binaries could load another's)
            print(f"{_ok(True)} libraries: {tc.libraries}")
    except ToolchainBuilding as e:  # not missing: another process is making it
        waiting += 1
        print(f"WAIT toolchain: {e}")
    except Exception as e:  # noqa: BLE001 - doctor reports every failure with its fix
        problems += 1
        print(f"{_ok(False)} toolchain: {e}")
    reg = params["models"]["registry"]
    from .llamacpp.models import _cached

    for mid in reg:
        hit = _cached(mid, reg)
        print(
            f"{_ok(bool(hit))} model {mid}"
            + (f" sha256={hit['sha256'][:16]}… {hit['path']}" if hit else "  fix: `benchbook models fetch`")
        )
        problems += not hit
    from .site import renderer

    name, path = renderer()
    print(f"{_ok(True)} site renderer: {name} ({path})")
    from .provenance import gpu_info

    gpus = gpu_info()
    print(f"info GPU: {', '.join(g['name'] for g in gpus) if gpus else 'none (CPU backend)'}")
    for tool, fix in (
        ("cmake", "apt-get install -y cmake"),
        ("c++", "apt-get install -y build-essential"),
        ("dvc", "./scripts/setup.sh (installs the pinned dependencies into .venv)"),
        ("papermill", "./scripts/setup.sh (installs the pinned dependencies into .venv)"),
        ("fincore", "apt-get install -y util-linux"),
    ):
        have = venv_tool(tool) is not None
        problems += not have
        print(f"{_ok(have)} {tool}" + ("" if have else f"  fix: {fix}"))
    parts = [f"{waiting} being made (wait for it)"] * bool(waiting)
    parts += [f"{problems} missing (fixes above)"] * bool(problems)
    print(", ".join(parts) or "all present")
    return 0 if not problems and not waiting else 1


def cmd_toolchain_build(args) -> int:
    params = resolve.load_params(repo_root())
    t0 = time.monotonic()
    tc = resolve.get_toolchain(params, build=True)
    rec = dict(tc.record)
    rec["files_sha256"] = f"{len(rec['files_sha256'])} files"
    print(json.dumps(rec, indent=1))
    print(f"toolchain ready in {time.monotonic() - t0:.1f} s: {tc.bin_dir}")
    return 0


def cmd_models_fetch(args) -> int:
    from .llamacpp.models import manifest, type_histogram_line

    params = resolve.load_params(repo_root())
    ids = args.ids or list(params["models"]["registry"])
    needs_tc = any("derived_from" in params["models"]["registry"].get(i, {}) for i in ids)
    tc = resolve.get_toolchain(params, build=True) if needs_tc else None
    for rec in resolve.get_models(params, ids, tc):
        man = manifest(rec["path"], rec["sha256"])
        print(
            f"{rec['model_id']}: {man['architecture']} {man['parameter_count']:,} params, "
            f"{man['n_layer']} layers, "
            f"declared {man['file_type_declared']}, tensors: {type_histogram_line(man)}, "
            f"{man['size_bytes'] / 2**20:.1f} MiB, sha256 {rec['sha256']}"
        )
    return 0


def cmd_synth_model(args) -> int:
    """``benchbook synth-model``: the GGUF of the given shape (``llamacpp.synth``), tokenizer from
    ``--tokenizer-from`` or the default model (fetched when absent); prints the manifest as JSON."""
    from dataclasses import fields

    from .llamacpp import synth

    spec = synth.SynthSpec(**{f.name: getattr(args, f.name) for f in fields(synth.SynthSpec)})
    if args.tokenizer_from:
        tok, tok_sha = Path(args.tokenizer_from), None
    else:
        params = resolve.load_params(repo_root())
        rec = resolve.get_models(params, [params["models"]["default"]], None)[0]
        tok, tok_sha = Path(rec["path"]), rec["sha256"]
    res = synth.write(spec, tok, args.out, tokenizer_sha256=tok_sha)
    print(json.dumps(res.record(), indent=1))
    return 0


def cmd_models_add(args) -> int:
    """``benchbook models add PATH|URL``: hash the file (download a URL into the cache first), write a
    ``models.registry`` entry into params.yaml (comments and key order kept) and print it."""
    from .llamacpp import registry
    from .llamacpp.models import models_dir

    root = repo_root()
    params = resolve.load_params(root)  # a broken params.yaml is reported before anything is downloaded
    model_id = registry.check_id(args.id) if args.id else registry.model_id_for(args.target)
    entry = registry.entry_for(args.target, root, sha256=args.sha256, models_dir=models_dir())
    done = registry.add(root / "params.yaml", model_id, entry, replace=args.replace)
    twins = registry.same_file_ids(params["models"]["registry"], entry["sha256"], model_id)
    if twins:
        print(
            f"warning: the same file (sha256 {entry['sha256']}) is also registered as "
            f"{', '.join(twins)}: numbers of the two ids are one model's; remove the ids you do not need "
            "from models.registry in params.yaml",
            file=sys.stderr,
        )
    resolve.load_params(root)
    print(f"{'replaced' if done.replaced else 'added'} models.registry.{model_id} in {done.params_file}:")
    for k, v in entry.items():
        print(f"  {k}: {v}")
    print(
        f"use it: list {model_id!r} under llama_bench.models (or speculative.target) in params.yaml; "
        f"`benchbook models fetch {model_id}` checks it now"
    )
    return 0


def cmd_records_repair(args) -> int:
    import errno

    from .records import repair

    if not Path(args.file).exists():  # `repair` finds nothing to do in a missing file: say it is missing
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), args.file)
    moved = repair(args.file)
    if moved:
        print(
            f"moved torn line {moved['file']}:{moved['line']} (byte {moved['byte_offset']}) to "
            f"{args.file}.quarantine.jsonl"
        )
    else:
        print(f"{args.file}: intact")
    return 0


def cmd_site_build(args) -> int:
    from .site import main as site_main

    return site_main()


def cmd_numbers(args) -> int:
    """``benchbook numbers [PATTERN]``: print the matching registered numbers (``writeup.rows``)."""
    from dataclasses import asdict

    from .writeup import rows, table

    found = rows(repo_root() / "reports" / "numbers", args.pattern)
    print(json.dumps([asdict(r) for r in found], indent=1) if args.json else table(found))
    return 0


def cmd_new_page(args) -> int:
    """``benchbook new-page NAME --experiment EXP``: scaffold a page (``writeup.new_page``)."""
    from .writeup import new_page

    path = new_page(repo_root(), args.name, args.experiment, args.match, force=args.force)
    print(f"wrote {path} (listed in _quarto.yml); render: benchbook site build")
    return 0


def cmd_stages_check(args) -> int:
    """Each stage's ``src/benchbook`` deps against its static import closure (``benchbook.stagedeps``),
    then each pipeline file against what ``benchbook stages write`` writes (``benchbook.stages.check``);
    prints one line per stage and, for a wrong one, the exact deps; one line per stale file.  Exit 1 on
    a finding."""
    from . import stages
    from .stagedeps import check, report

    root = repo_root()
    results = [r for f in DVC_FILES if (root / f).exists() for r in check(root, root / f)]
    print(report(results))
    stale = stages.check(root)
    print(
        "\n".join(stale) if stale else f"{' and '.join(DVC_FILES)}: as `benchbook stages write` writes them"
    )
    return 0 if all(r.ok for r in results) and not stale else 1


def cmd_stages_write(args) -> int:
    """``benchbook stages write``: ``dvc.yaml`` and ``measure/dvc.yaml`` from ``benchbook.stages.PIPELINE``
    (each stage's code deps its import closure); prints what changed."""
    from . import stages

    root = repo_root()
    changed = stages.write(root)
    names = [str(p.relative_to(root)) for p in changed]
    print(f"wrote {', '.join(names)}" if names else f"{' and '.join(DVC_FILES)}: unchanged")
    return 0


#: The pipeline files: the derived stages (lock per machine, git-ignored) and the measurement stages
#: (lock committed; see the header of measure/dvc.yaml).
DVC_FILES = ("dvc.yaml", "measure/dvc.yaml")
MEASURE_DVC = "measure/dvc.yaml"


def used_model_ids(params: dict) -> list[str]:
    """Every registry id a measurement of ``params`` resolves: ``llama_bench.models``, the speculative
    target and its drafts' ``model`` entries (``target`` meaning the target)."""
    ids = set(params["llama_bench"]["models"])
    spec = params.get("speculative") or {}
    if spec:
        target = spec.get("target", params["models"]["default"])
        ids.add(target)
        for d in (spec.get("drafts") or {}).values():
            if isinstance(d, dict) and d.get("model"):
                ids.add(target if d["model"] == "target" else d["model"])
    return sorted(ids)


def export_artifacts(root: Path, params: dict) -> list[Path]:
    """Place this host's cached models (``llamacpp.artifacts.export_models``) and the draft-self
    checkpoint named by ``data/draftself/checkpoint.json`` (``<key>.pt`` + its summary ``<key>.json``,
    only when the cached file has the manifest's sha256) under ``data/artifacts/``; returns the large
    files for ``dvc add`` that have no ``.dvc`` file yet, with the checkpoints measurement sessions kept
    (``draftself.store``: ``data/artifacts/checkpoints/<sha256>.pt``)."""
    from .draftself import store
    from .llamacpp import artifacts
    from .llamacpp.fetch import sha256_file

    big = [
        e.gguf for e in artifacts.export_models(root, params["models"]["registry"], used_model_ids(params))
    ]
    manifest = root / "data/draftself/checkpoint.json"
    if manifest.exists():
        man = json.loads(manifest.read_text())
        cached = cache_dir() / "draftself" / f"{man['key']}.pt"
        dest = root / "data/artifacts/draftself" / f"{man['key']}.pt"
        # only the checkpoint the manifest names (its sha256): another host's retraining may differ bitwise
        if cached.exists() and cached.with_suffix(".json").exists() and sha256_file(cached) == man["sha256"]:
            dest.parent.mkdir(parents=True, exist_ok=True)
            if not dest.exists():
                shutil.copyfile(cached, dest)
            if not dest.with_suffix(".json").exists():
                shutil.copyfile(cached.with_suffix(".json"), dest.with_suffix(".json"))
            big.append(dest)
    big += sorted((root / store.STORE_DIR).glob("*.pt"))
    return [p for p in big if not p.with_name(p.name + ".dvc").exists()]


def cmd_artifacts_add(args) -> int:
    """``benchbook artifacts add``: ``export_artifacts`` then ``dvc add`` of the new files; prints what to
    commit and push."""
    root = repo_root()
    new = export_artifacts(root, resolve.load_params(root))
    if new:
        subprocess.run(
            [sys.executable, "-m", "dvc", "add", *[str(p.relative_to(root)) for p in new]],
            cwd=root,
            check=True,
            env=tool_env(),
        )
    for p in new:
        print(f"added {p.relative_to(root)}.dvc")
    print(
        f"{len(new)} new artifact(s); commit data/artifacts (the .dvc and .json files) and run `dvc push` "
        "so that other clones `dvc pull` them instead of downloading, quantizing or training"
    )
    return 0


def cmd_artifacts_import(args) -> int:
    """``benchbook artifacts import``: pulled models into the cache by sha256 (the draft-self checkpoint
    is copied by ``draftself.train.ensure_checkpoint`` when a stage needs it)."""
    from .llamacpp import artifacts

    root = repo_root()
    for r in artifacts.import_models(root, resolve.load_params(root)["models"]["registry"]):
        print(f"{r.model_id} {r.sha256[:16]}: {r.path if r.path else 'skipped: ' + str(r.why)}")
    return 0


def cmd_hosts(args) -> int:
    """``benchbook hosts``: the table of ``hosts.hosts_table`` over the committed raw data."""
    from .hosts import hosts_table

    print(hosts_table(repo_root() / "data/raw"), end="")
    return 0


def cmd_ingest(args) -> int:
    """Read external llama.cpp output into benchbook records (see ``benchbook.ingest``): by default each
    file's records go to ``data/external/<group>/<file name>.jsonl``; ``--out`` appends all to one file,
    ``--stdout`` prints them.  Every file is read and checked before anything is written."""
    from .ingest import default_out, ingest_text, not_yet_in, read_source, summary, write_records
    from .records import json_line

    per_file = []
    for f in args.files:
        text, how = read_source(Path(f))
        if how:
            print(f"{f}: {how}", file=sys.stderr)
        read = ingest_text(
            Path(f),
            text,
            args.format,
            args.build,
            args.host,
            getattr(args, "fork", None),
        )
        got = read.records
        print(f"{f}: {summary(got)}", file=sys.stderr)
        for line in read.notes + read.skipped:
            print(f"{f}: {line}", file=sys.stderr)
        per_file.append(got)
    if args.stdout:
        for r in (r for got in per_file for r in got):
            print(json_line(r))  # U+2028 and kin escaped: the lines stay JSONL lines
        return 0
    if args.out:
        targets = [(Path(args.out), [r for got in per_file for r in got])]
    else:
        root = repo_root() if not args.root else Path(args.root)
        targets = [(default_out(root, got, args.host), got) for got in per_file]
    for out, recs in targets:
        fresh, dup = not_yet_in(recs, out)
        if dup:
            print(
                f"{dup} record(s) already in {out} (same source file and line): not appended again",
                file=sys.stderr,
            )
        print(f"appended {write_records(fresh, out)} records to {out}", file=sys.stderr)
    return 0


def cmd_audit(args) -> int:
    """``benchbook audit ...``: ``benchbook.audit.command`` (its own options; ``benchbook audit -h``)."""
    from .audit.command import main as audit_main

    return audit_main(args.rest)


def measured_here(
    root: Path,
    params: dict,
    host_id: str,
    toolchain_id: str | None,
    picked=None,
    log=None,
) -> dict[str, bool]:
    """Per measurement stage: does the committed raw data hold a completed session of this host
    (and, for the llama.cpp experiments, of this build — a rebuilt toolchain measures itself again)
    that ran what ``params`` asks for now?

    Every experiment keeps one file per host whose shared-session start records carry host and
    toolchain ids (draft-self's toolchain is its runtime, so any completed session of this host counts);
    committed draft-self sessions from before the shared session are in ``sessions.jsonl``.  A session
    whose recorded config differs from the parameters this host resolves now (``experiments.drift``:
    params.yaml's section with the profile ``picked``, default ``profiles.pick(params)``) does not
    count, so the stage measures again; ``log`` (e.g. ``print``) gets one line per such session naming
    its differences.  A start record without a config (older records) counts as it did.  A session the
    reports would not publish (``session_checks``: a lost row, a run outside its
    session, a failed run) does not count either, and ``log`` gets its first reason.
    """
    from .experiments import drift, profiles
    from .records import iter_records

    picked = picked or profiles.pick(params)
    out = {}
    for stage in ("llama_bench", "speculative", "draftself"):
        if stage not in params:
            continue
        f = root / "data/raw" / stage / f"{host_id}.jsonl"
        starts: dict[str, dict] = {}
        ended: set[str] = set()
        if f.exists():
            for _, r in iter_records(f):
                if r.get("schema") == "benchbook.session" and r.get("experiment") == stage:
                    if r["event"] == "start":
                        starts.setdefault(r["session_id"], r)
                    else:
                        ended.add(r["session_id"])
        built_here = [
            starts[sid]
            for sid in sorted(ended & set(starts))
            if stage == "draftself" or starts[sid].get("toolchain_id") == toolchain_id
        ]
        now = drift.current(stage, params, picked) if built_here else None
        checks = session_checks(root, stage) if built_here else {}
        done = False
        for start in built_here:
            diff = drift.differences(start["config"], now) if "config" in start and now else []
            check = checks.get(start["session_id"])
            if diff:
                why = f"ran other parameters than params.yaml asks now ({'; '.join(diff)})"
            elif check is not None and not check.ok:
                why = f"is not published ({check.reasons[0]})"
            else:
                done = True
                continue
            if log:
                log(f"{stage}: session {start['session_id']} {why}: it does not count as measured")
        out[stage] = done
    legacy = root / "data/raw/draftself/sessions.jsonl"
    if "draftself" in out and not out["draftself"] and legacy.exists():
        out["draftself"] = any(r.get("host_id") == host_id for _, r in iter_records(legacy))
    return out


def session_checks(root: Path, stage: str) -> dict:
    """``{session_id: measured.SessionCheck}`` of ``stage``'s committed sessions under ``root/data/raw``,
    checked as its report checks them (``measured.check`` with the experiment's planned runs; draft-self:
    its ``sessioncheck``), so that "measured here" and the pages agree on which sessions count."""
    from . import measured

    folder = root / "data/raw" / stage
    if stage == "draftself":
        from .experiments.draftself import sessioncheck

        return sessioncheck.check(folder)
    if stage == "llama_bench":
        from .experiments.llama_bench.report import PLANNED

        return measured.check(stage, folder, PLANNED)
    return measured.check(stage, folder)


def stage_runner(root: Path, verbose: bool):
    """A function ``run(argv)`` for DVC commands of ``benchbook run``.

    Verbose: the command's output goes to the terminal unchanged.  Otherwise it goes to a log file
    (``<cache>/logs/run-<UTC time>.log``: papermill's per-cell logs, the kernel's warnings, DVC's
    output); the terminal shows one line per stage DVC starts, each warning (``progress.NOTICE``: a
    retrained checkpoint that differs, a busy host) and the measurement sessions' progress
    bars (``progress.follow`` of the command's own progress file, ``run-<time>.<i>.progress.jsonl``;
    each bar is closed when its session ends); a failure prints the log's tail.  Two commands may
    run at once (their lines go to the same log).

    Returns ``(run, log_path)``; ``run(argv, extra_env=None)`` raises CalledProcessError on a non-zero
    exit.
    """
    import itertools
    import re
    import threading

    from .llamacpp import progress

    logs = cache_dir() / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    log_path = logs / f"run-{stamp}.log"
    prune_run_logs(logs, keep=RUN_LOGS_KEPT - 1)  # with this run's: RUN_LOGS_KEPT
    calls = itertools.count(1)
    log_lock = threading.Lock()

    def run(argv: list[str], extra_env: dict | None = None) -> None:
        if verbose:
            child = subprocess.Popen(
                argv, cwd=root, env={**tool_env(), **(extra_env or {})}, start_new_session=True
            )
            try:
                rc = child.wait()
            except KeyboardInterrupt:
                stop_process_group(child)
                raise Interrupted(argv) from None
            if rc != 0:
                raise subprocess.CalledProcessError(rc, argv)
            return
        # one progress file per command: a later command never redraws an earlier one's bars
        prog = logs / f"run-{stamp}.{next(calls)}.progress.jsonl"
        stop = threading.Event()
        follower = threading.Thread(target=progress.follow, args=(prog, stop), daemon=True)
        follower.start()
        env = {**tool_env(), progress.PROGRESS_ENV: str(prog), **(extra_env or {})}
        try:
            with open(log_path, "a") as lf:
                lf.write(f"$ {shlex.join(map(str, argv))}\n")
                lf.flush()
                proc = subprocess.Popen(
                    argv,
                    cwd=root,
                    env=env,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT,
                    text=True,
                    errors="replace",
                    start_new_session=True,  # its own process group: Ctrl-C reaches it through us
                )
                assert proc.stdout is not None  # stdout=PIPE
                try:
                    for line in proc.stdout:
                        with log_lock:
                            lf.write(line)
                        m = re.match(r"^Running stage '([^']+)'", line)
                        if m:
                            progress.say(f"stage {m.group(1)} ...")
                        elif progress.is_notice(line):  # a warning the user must see, not only the log
                            progress.say(line.rstrip("\n"))
                    rc = proc.wait()
                except KeyboardInterrupt:
                    stop_process_group(proc)
                    raise Interrupted(argv) from None
        finally:
            stop.set()
            follower.join()
            prog.unlink(missing_ok=True)  # its bars are drawn: the file has no reader left
        if rc != 0:
            tail = log_path.read_text(errors="replace").splitlines()[-40:]
            print("\n".join(tail), file=sys.stderr)
            print(f"(full log: {log_path}; `benchbook run --verbose` shows it as it runs)", file=sys.stderr)
            raise subprocess.CalledProcessError(rc, argv)

    return run, log_path


#: ``benchbook run`` logs kept in ``<cache>/logs`` (the newest runs'; older ones are removed)
RUN_LOGS_KEPT = 20


def prune_run_logs(logs: Path, keep: int) -> list[Path]:
    """Remove the files of all but the ``keep`` newest runs from ``logs`` (``run-<UTC time>.log`` and
    that run's ``run-<UTC time>.<i>.progress.jsonl``; the time in the name orders them); returns the
    removed paths.  A log per ``benchbook run``, never removed, grew the cache without bound."""
    runs: dict[str, list[Path]] = {}
    for f in logs.glob("run-*"):
        runs.setdefault(f.name.split(".")[0], []).append(f)
    removed = []
    for stamp in sorted(runs)[: max(len(runs) - keep, 0)]:
        for f in runs[stamp]:
            f.unlink(missing_ok=True)
            removed.append(f)
    return removed


class Interrupted(Exception):
    """Ctrl-C during a command of ``benchbook run``; its process group has been stopped."""

    def __init__(self, argv: list[str]):
        self.what = " ".join(map(str, argv[2:] if argv[1:2] == ["-m"] else argv))
        super().__init__(self.what)


#: The one line ``benchbook`` prints on Ctrl-C (exit 130 = 128 + SIGINT, the shell's convention).
INTERRUPTED = errors.INTERRUPTED


def stop_process_group(proc: subprocess.Popen, grace_s: float = 10.0) -> None:
    """Stop ``proc`` and every process of its group (it was started with ``start_new_session``): SIGINT
    (DVC and papermill clean up and release their locks), then SIGTERM, then SIGKILL, each after
    ``grace_s`` seconds without an exit of ``proc``; then SIGTERM to what is left of the group (a
    process that ignores SIGINT, e.g. one started in the background).  Returns once ``proc`` exited."""
    import signal

    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            break
        try:
            proc.wait(timeout=grace_s)
            break
        except subprocess.TimeoutExpired:
            continue
    proc.wait()
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        pass


#: Set for the first render of `benchbook run` (before this host measures): a sentence for the site to show.
SITE_NOTE_ENV = "BENCHBOOK_SITE_NOTE"


def raw_data_words(root: Path) -> str:
    """What the site's raw data is, in words: ``the committed raw data``, or where ``data/raw`` holds
    files git does not (``provenance.uncommitted_raw``: this clone's own sessions), ``the committed raw
    data and 2 uncommitted raw files of this clone (data/raw/a.jsonl, data/raw/b.jsonl)`` (at most 3
    named).  ``--from-data`` said "committed" while the site showed a local, uncommitted session."""
    from .provenance import uncommitted_raw

    extra = uncommitted_raw(root)
    if not extra:
        return "the committed raw data"
    named = ", ".join(extra[:3]) + (f" and {len(extra) - 3} more" if len(extra) > 3 else "")
    files = "file" if len(extra) == 1 else "files"
    return f"the committed raw data and {len(extra)} uncommitted raw {files} of this clone ({named})"


def from_data_stages(root: Path) -> list[str]:
    """The stages that derive reports and the site from committed raw data, upstream first: every
    ``*_report`` stage, ``audit``, ``site_renderer`` (the site's record of its renderer) and ``site`` of
    ``dvc.yaml`` (no toolchain, model or measurement)."""
    import yaml

    stages = list(yaml.safe_load((root / "dvc.yaml").read_text())["stages"])
    tail = ("audit", "site_renderer", "site")
    return [s for s in stages if s.endswith("_report")] + [s for s in tail if s in stages]


def upstream_stages(dvc_file: Path, stage: str) -> list[str]:
    """Stages of ``dvc_file`` whose outputs ``stage`` depends on, in file order."""
    import yaml

    stages = yaml.safe_load(dvc_file.read_text())["stages"]
    deps = set(stages[stage].get("deps") or [])
    out = []
    for name, st in stages.items():
        outs = {next(iter(o)) if isinstance(o, dict) else o for o in st.get("outs") or []}
        if name != stage and outs & deps:
            out.append(name)
    return out


class Background:
    """``fn()`` in a thread, started now; ``wait()`` joins it, re-raises its exception and returns its
    wall time in seconds; ``result`` is what ``fn`` returned."""

    def __init__(self, fn):
        import threading

        self.error: BaseException | None = None
        self.seconds = 0.0
        self.result: Any = None

        def body() -> None:
            t = time.monotonic()
            try:
                self.result = fn()
            except BaseException as e:  # re-raised by wait() in the caller's thread
                self.error = e
            self.seconds = time.monotonic() - t

        self.thread = threading.Thread(target=body, daemon=True)
        self.thread.start()

    def wait(self) -> float:
        self.thread.join()
        if self.error is not None:
            raise self.error
        return self.seconds


def say(line: str) -> None:
    """Print ``line`` on stdout above any progress bar (``tqdm.write`` clears and redraws the bars): the
    build's bar runs beside the first site's stage lines."""
    from tqdm import tqdm

    tqdm.write(line, file=sys.stdout)


def toolchain_and_models(root: Path, params: dict, timings: dict):
    """Build or find the toolchain, then fetch the models the measurement stages use (placing first
    what ``dvc pull`` brought); returns the toolchain and stores ``toolchain_s`` and ``models_s`` (wall
    seconds) in ``timings``.  Runs beside the first site: its messages go through ``say``.

    Raises:
        llamacpp.toolchain.ToolchainError, llamacpp.models.ModelError: as ``resolve.get_toolchain`` and
        ``resolve.get_models`` (the message names the fix).
    """
    from .llamacpp import artifacts

    t = time.monotonic()
    tc = resolve.get_toolchain(params, build=True, log=say)
    timings["toolchain_s"] = time.monotonic() - t
    t = time.monotonic()
    artifacts.import_models(root, params["models"]["registry"], log=say)  # what `dvc pull` brought
    resolve.get_models(params, used_model_ids(params), tc, log=say)
    timings["models_s"] = time.monotonic() - t
    return tc


def prepare_draftself_checkpoint(root: Path, log_path: Path | None = None) -> None:
    """Make the checkpoint that ``data/draftself/checkpoint.json`` names present in the cache: the
    cached file, the copy ``dvc pull`` brought, or trained again from the manifest's train config
    (``experiments.draftself.run.resolve_checkpoint``); the ``draftself`` stage then finds it there.
    Its messages and the training's per-step losses go to ``log_path`` (the run's log file), not to the
    terminal, where the build's progress line runs at the same time (a warning, ``progress.NOTICE``:
    both); to the terminal when None (``--verbose``)."""
    from .experiments.draftself.run import resolve_checkpoint
    from .llamacpp import progress

    def log(message) -> None:
        if log_path is None:
            print(f"draftself checkpoint: {message}", flush=True)
            return
        with open(log_path, "a", encoding="utf-8") as f:
            f.write(f"draftself checkpoint: {message}\n")
        if progress.is_notice(f"draftself checkpoint: {message}"):  # a warning: the terminal too
            progress.say(f"draftself checkpoint: {message}")

    resolve_checkpoint(root / "data/draftself/checkpoint.json", log=log)


def cmd_run(args) -> int:
    """Main job.  First the site from the committed raw data (readable in about a minute); the llama.cpp
    build and the model fetch start beside it (the site's stages use one core and wait on I/O for much
    of their time); then a measurement stage is forced once on a host
    that has no completed session of it in the committed raw data (a new machine measures itself);
    then a plain ``dvc repro`` re-renders, and this host's models and draft-self checkpoint are placed
    under ``data/artifacts/`` and ``dvc add``-ed for ``dvc push`` (``export_artifacts``).  Models that
    ``dvc pull`` brought are imported into the cache first, so nothing pushed is made again.
    ``--from-data`` stops after the first site.

    The draft-self checkpoint (pulled, cached, or trained: ``experiments.draftself.run.resolve_checkpoint``;
    training is one thread and not a timed measurement) is made beside the llama.cpp build and the model
    fetch, which leave a core idle on a 2-core host for much of their time; it is joined before the first
    measurement, so no timed measurement shares the machine with it.  The timings line gives each step's
    wall time (``toolchain_s``, ``models_s`` and ``draftself_train_s`` overlap ``first_site_s`` and each
    other; ``toolchain_wait_s`` is the time the build kept the run waiting after the first site)."""
    root = repo_root()
    params = resolve.load_params(root)
    from . import caveats

    caveats.check_report(params.get("report"))  # a typo there failed the first report stage (KeyError)
    run, log_path = stage_runner(root, args.verbose)
    if not args.verbose:
        print(
            f"benchbook run: stage output goes to {log_path} (--verbose or `make run VERBOSE=1` shows it)",
            file=sys.stderr,
        )
    dvc = [sys.executable, "-m", "dvc"]
    timings: dict[str, float] = {}
    t = time.monotonic()
    note = (
        {}
        if args.from_data
        else {
            SITE_NOTE_ENV: "This host's measurements are in progress; these pages show the committed raw "
            "data and are rendered again when they finish."
        }
    )
    pretrain = build = None
    if not args.from_data:
        from .provenance import host_snapshot

        host_id = host_snapshot().host_id
        # draft-self's check needs no toolchain: known before the build
        if not measured_here(root, params, host_id, None).get("draftself", True):
            pretrain = Background(
                lambda: prepare_draftself_checkpoint(root, None if args.verbose else log_path)
            )
        build = Background(lambda: toolchain_and_models(root, params, timings))
    try:
        run(dvc + ["repro", "--no-run-cache", "--single-item", *from_data_stages(root)], note)
    except BaseException:
        if build is not None:  # its cmake would go on without us: let it finish (Ctrl-C stops it)
            say("waiting for the llama.cpp build started beside the first site (Ctrl-C stops it)")
            build.thread.join()
        raise
    timings["first_site_s"] = time.monotonic() - t
    say(
        f"site from {raw_data_words(root)}: {root / '_site' / 'index.html'}"
        + (
            ""
            if args.from_data
            else " (next: toolchain and models, any measurement this host lacks, the site again)"
        )
    )
    if build is None:
        print("timings: " + ", ".join(f"{k}={v:.1f}" for k, v in timings.items()))
        return 0
    t = time.monotonic()
    build.wait()
    timings["toolchain_wait_s"] = time.monotonic() - t
    tc = build.result
    if pretrain is not None:  # before any measurement: none overlaps with the training
        if pretrain.thread.is_alive():
            say(
                "waiting for the draft-self training to finish before measuring (it shares the cores "
                "a measurement would time)"
            )
        t = time.monotonic()
        timings["draftself_train_s"] = pretrain.wait()
        timings["draftself_train_wait_s"] = time.monotonic() - t
    t = time.monotonic()
    for stage, done in measured_here(root, params, host_id, tc.toolchain_id, log=print).items():
        if not done:
            print(
                f"no completed {stage} session for host {host_id} with toolchain {tc.toolchain_id}: "
                "measuring on this host"
            )
            t_stage = time.monotonic()
            # upstream (draftself_train) only when changed: --force would retrain it too
            for up in upstream_stages(root / MEASURE_DVC, stage):
                run(dvc + ["repro", "--no-run-cache", "--single-item", f"{MEASURE_DVC}:{up}"])
            run(dvc + ["repro", "--no-run-cache", "--force", "--single-item", f"{MEASURE_DVC}:{stage}"])
            timings[f"measure_{stage}_s"] = time.monotonic() - t_stage
    timings["measure_new_host_s"] = time.monotonic() - t
    t = time.monotonic()
    run(dvc + ["repro", "--no-run-cache"])
    timings["dvc_repro_s"] = time.monotonic() - t
    new = export_artifacts(root, params)
    if new:
        run(dvc + ["add", *[str(p.relative_to(root)) for p in new]])
        print(
            f"{len(new)} new artifact(s) under data/artifacts: commit their .dvc/.json files and `dvc push`"
        )
    print("timings: " + ", ".join(f"{k}={v:.1f}" for k, v in timings.items()))
    print(f"site: {root / '_site' / 'index.html'}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="benchbook", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("doctor").set_defaults(fn=cmd_doctor)
    tcp = sub.add_parser("toolchain").add_subparsers(dest="sub", required=True)
    tcp.add_parser("build").set_defaults(fn=cmd_toolchain_build)
    mp = sub.add_parser("models").add_subparsers(dest="sub", required=True)
    f = mp.add_parser("fetch")
    f.add_argument("ids", nargs="*")
    f.set_defaults(fn=cmd_models_fetch)
    a = mp.add_parser("add", help="register a local GGUF (used in place) or an http(s) URL by its sha256")
    a.add_argument("target", metavar="PATH|URL")
    a.add_argument("--id", default=None, help="registry id (default: from the file name)")
    a.add_argument("--sha256", default=None, help="expected sha256 (checked; default: computed)")
    a.add_argument("--replace", action="store_true", help="replace an entry with the same id")
    a.set_defaults(fn=cmd_models_add)
    rp = sub.add_parser("records").add_subparsers(dest="sub", required=True)
    r = rp.add_parser("repair")
    r.add_argument("file")
    r.set_defaults(fn=cmd_records_repair)
    sp = sub.add_parser("site").add_subparsers(dest="sub", required=True)
    sp.add_parser("build").set_defaults(fn=cmd_site_build)
    rn = sub.add_parser("run", help="the main job (see the module docstring)")
    rn.add_argument(
        "--verbose",
        action="store_true",
        help="show DVC's and papermill's output (per-cell logs) instead of a log file",
    )
    rn.add_argument(
        "--from-data",
        action="store_true",
        help="only the reports and the site from the raw data of data/raw (committed, plus any this "
        "clone added; no build or measuring)",
    )
    rn.set_defaults(fn=cmd_run)
    nb = sub.add_parser("numbers", help="registered numbers: key, value [95%% interval], unit, n, caveats")
    nb.add_argument("pattern", nargs="?", default=None, help="substring of the key, or a glob (lb-*-warm)")
    nb.add_argument("--json", action="store_true", help="one JSON object per number")
    nb.set_defaults(fn=cmd_numbers)
    npg = sub.add_parser("new-page", help="write NAME.qmd bound to an experiment's numbers")
    npg.add_argument("name")
    npg.add_argument("--experiment", required=True, help="experiment whose numbers the page quotes")
    npg.add_argument("--match", default=None, help="only the keys matching this substring or glob")
    npg.add_argument("--force", action="store_true", help="overwrite an existing page")
    npg.set_defaults(fn=cmd_new_page)
    stp = sub.add_parser("stages").add_subparsers(dest="sub", required=True)
    stp.add_parser("check").set_defaults(fn=cmd_stages_check)
    stp.add_parser("write").set_defaults(fn=cmd_stages_write)
    arp = sub.add_parser("artifacts").add_subparsers(dest="sub", required=True)
    arp.add_parser(
        "add", help="place models and the checkpoint under data/artifacts and `dvc add` them"
    ).set_defaults(fn=cmd_artifacts_add)
    arp.add_parser("import", help="pulled models into the model cache by sha256").set_defaults(
        fn=cmd_artifacts_import
    )
    sub.add_parser(
        "hosts", help="hosts of the committed raw data with their builds and sessions"
    ).set_defaults(fn=cmd_hosts)
    ig = sub.add_parser(
        "ingest", help="read llama-bench/llama-server/llama-speculative-simple output into records"
    )
    ig.add_argument("files", nargs="+")
    ig.add_argument(
        "--format",
        default="auto",
        choices=["auto", "json", "jsonl", "csv", "md", "sql", "server-log", "spec-simple"],
    )
    ig.add_argument(
        "--build",
        type=int,
        default=None,
        help="llama.cpp build number, when the files do not print it (also a hint for field-name versions)",
    )
    ig.add_argument(
        "--fork",
        default=None,
        help="the output comes from this fork of llama.cpp: its build counter is kept as fork_build_number",
    )
    ig.add_argument(
        "--host",
        default=None,
        help="a name saying these files come from one host (default: each file's host is its own unknown)",
    )
    ig.add_argument(
        "--out",
        default=None,
        help="one JSONL file to append every record to "
        "(default: data/external/<host or file sha256[:16]>/<file>.jsonl)",
    )
    ig.add_argument(
        "--root", default=None, help="project root for the default output (default: found from cwd)"
    )
    ig.add_argument("--stdout", action="store_true", help="print the records instead of writing them")
    ig.set_defaults(fn=cmd_ingest)
    sm = sub.add_parser("synth-model", help="write a random-weight GGUF of a chosen architecture and shape")
    from .llamacpp.synth import SynthSpec

    d = SynthSpec()
    for name, typ, hlp in (
        ("arch", str, "llama | qwen3moe | qwen2moe (shared expert)"),
        ("n_layer", int, "blocks"),
        ("n_embd", int, "hidden size"),
        ("n_head", int, "attention heads"),
        ("n_head_kv", int, "KV heads"),
        ("n_ff", int, "dense FFN width"),
        ("n_expert", int, "routed experts"),
        ("n_expert_used", int, "experts per token (top-K)"),
        ("n_ff_exp", int, "width of one expert"),
        ("n_ff_shexp", int, "shared expert width (qwen2moe)"),
        ("head_dim", int, "per-head width (default n_embd/n_head)"),
        ("context_length", int, "context length written"),
        ("weight_type", str, "Q8_0 | F16 | F32"),
        ("seed", int, "random seed"),
    ):
        sm.add_argument(
            "--" + name.replace("_", "-"),
            dest=name,
            type=typ,
            default=getattr(d, name),
            help=f"{hlp} (default {getattr(d, name)})",
        )
    sm.add_argument(
        "--tokenizer-from",
        default=None,
        help="GGUF whose tokenizer.* keys are copied (default: the default model of params.yaml)",
    )
    sm.add_argument("--out", default=None, help="output file (default: <cache>/models/synth-<key>.gguf)")
    sm.set_defaults(fn=cmd_synth_model)
    au = sub.add_parser(
        "audit",
        add_help=False,
        help="a verdict per published claim of a claims file (and raw logs); audit -h for options",
    )
    au.add_argument("rest", nargs=argparse.REMAINDER)
    au.set_defaults(fn=cmd_audit)
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["audit"]:  # every option after `audit` is audit's own (-h, --all, --logs before files)
        args = argparse.Namespace(fn=cmd_audit, rest=argv[1:])
    else:
        args = ap.parse_args(argv)
    # `kill`, `timeout`, a closed terminal stop `benchbook run` as Ctrl-C does
    stops = (
        errors.stop_signals_interrupt() if getattr(args, "cmd", None) == "run" else contextlib.nullcontext()
    )
    try:
        with stops:
            return args.fn(args)
    except Interrupted as e:
        print(INTERRUPTED.format(what=f" `{e.what}`"), file=sys.stderr)
        return errors.EXIT_INTERRUPTED
    except KeyboardInterrupt:
        cmd = getattr(args, "cmd", "audit")
        run_line = INTERRUPTED.format(what=" `benchbook run`")
        line = run_line if cmd == "run" else f"benchbook: interrupted `{cmd}`"
        print(line, file=sys.stderr)
        return errors.EXIT_INTERRUPTED
    except subprocess.CalledProcessError as e:
        print(
            f"benchbook: error: {' '.join(map(str, e.cmd[2:]))} failed (exit {e.returncode}); "
            "the failing stage's output is above; after fixing it, run `make run` again (finished stages "
            "are not redone)",
            file=sys.stderr,
        )
        return errors.EXIT_ERROR
    except errors.USER_ERRORS as e:
        return errors.report(e)


if __name__ == "__main__":
    sys.exit(main())
