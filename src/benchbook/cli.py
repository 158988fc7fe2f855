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
benchbook measure [STAGE...]     measure what this host lacks, as `benchbook run` does, without the site;
                                 through DVC, or each stage's own command where DVC is absent
benchbook records repair FILE    move a torn last line aside (quarantine) and report it
benchbook site build             render the site (quarto when on PATH, else smalldocs)
benchbook numbers [PATTERN]      registered keys with value [95% interval], unit, n and caveats (--json)
benchbook new-page NAME --experiment EXP [--match PATTERN]
                                 write NAME.qmd bound to an experiment's numbers; list it in _quarto.yml
benchbook ingest FILE...         read external llama.cpp output (llama-bench, server log, speculative-simple)
benchbook audit CLAIMS.yaml...   a verdict per published claim [--logs DIR] [--pair SPEC=BASELINE];
                                 --all DIR audits every claims file of DIR (the `audit` stage);
                                 a post (POST.md, .txt, .html) is drafted first (`claims draft`)
benchbook claims draft POST [-o CLAIMS.yaml] [--link URL]
                                 draft a claims file from a published post (Markdown, text, HTML, - for
                                 stdin); re-running keeps the entries you reviewed
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

from . import errors, escape, resolve
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


def _checked_params(root: Path) -> dict:
    """``params.yaml`` of ``root`` (``resolve.load_params``) with its ``report`` section checked too
    (``caveats.check_report``): a typo there (`report.hihg_cv`) is named before anything is measured,
    not by the first report stage after the measurements.

    Raises:
        ValueError: a params error, naming the key and the fix.
    """
    from . import caveats

    params = resolve.load_params(root)
    caveats.check_report(params.get("report"))
    return params


def cmd_doctor(args) -> int:
    from .llamacpp.toolchain import ToolchainBuilding

    root = repo_root()
    params = _checked_params(root)
    problems = waiting = 0
    print(f"project   {root}")
    print(f"cache     {cache_dir()}")
    try:
        tc = resolve.get_toolchain(params, build=False)
        r = tc.record
        commit = r.get("build_commit")
        if commit in (None, "unknown"):  # llama.cpp's build-info without git metadata (an sdist build)
            commit = "commit unknown: built from a source archive without git metadata"
        print(
            f"{_ok(True)} toolchain b{r.get('build_number')} ({commit}) "
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
    from .llamacpp import registry
    from .llamacpp.models import _cached, file_sha256

    for mid in reg:
        if "alias_of" in reg[mid]:
            print(f"info model {mid}: an alias of {reg[mid]['alias_of']} (the same file)")
            continue
        try:
            hit = _cached(mid, reg)
        except Exception as e:  # noqa: BLE001 - doctor reports every failure with its fix (a read-only cache)
            problems += 1
            print(f"{_ok(False)} model {mid}: {e}")
            continue
        print(
            f"{_ok(bool(hit))} model {mid}"
            + (f" sha256={hit['sha256'][:16]}… {hit['path']}" if hit else "  fix: `benchbook models fetch`")
        )
        problems += not hit
    try:
        dups = registry.duplicates(reg, file_sha256)
    except Exception as e:  # noqa: BLE001 - doctor reports every failure with its fix
        problems += 1
        print(f"{_ok(False)} models (same file under two ids): {e}")
        dups = []
    for sha, ids in dups:
        problems += 1
        print(
            f"{_ok(False)} model {', '.join(ids[1:])}: the same file as {ids[0]} (sha256 {sha[:16]}…), so "
            f"pages would show one model under two names; fix: in params.yaml write "
            + "; ".join(f"`{i}: {{alias_of: {ids[0]}}}`" for i in ids[1:])
        )
    from .site import renderer

    try:
        name, path = renderer()
        print(f"{_ok(True)} site renderer: {name} ({path})")
    except Exception as e:  # noqa: BLE001 - doctor reports every failure with its fix
        problems += 1
        print(f"{_ok(False)} site renderer: {e}")
    from .provenance import gpu_info

    try:
        gpus = gpu_info()
    except Exception as e:  # noqa: BLE001 - doctor reports every failure with its fix
        print(f"info GPU: not listed ({e})")
        gpus = []
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
    ``models.registry`` entry into params.yaml (comments and key order kept) and print it.  A local
    file is written ``path: <models>/NAME``, its folder into git-ignored ``params.local.yaml``
    (``registry.public_entry``/``write_local_path``).  A file whose
    bytes an entry already names is "already <id>": its id (when another) is written as an alias of
    that entry (``{alias_of: <id>}``), never as a second model."""
    from .llamacpp import registry
    from .llamacpp.models import file_sha256, models_dir

    root = repo_root()
    params = resolve.load_params(root)  # a broken params.yaml is reported before anything is downloaded
    model_id = registry.check_id(args.id) if args.id else registry.model_id_for(args.target)
    entry = registry.entry_for(args.target, root, sha256=args.sha256, models_dir=models_dir())
    reg = params["models"]["registry"]
    existing = registry.registered_as(reg, entry["sha256"], file_sha256)
    if existing is not None and not (existing == model_id and args.replace):
        print(
            f"this file is already {existing} (sha256 {entry['sha256']}): it is measured and shown as "
            + existing
        )
        if existing == model_id or reg.get(model_id) == {"alias_of": existing}:
            if existing == model_id and entry.get("source") == "file":  # this machine's path of it
                local = registry.write_local_path(root / "params.yaml", model_id, entry["path"])
                print(f"its path on this machine is in {local.name} (git-ignored)")
            print(f"nothing to add: use {existing!r} (under llama_bench.models, or speculative.target)")
            return 0
        done = registry.add(root / "params.yaml", model_id, {"alias_of": existing}, replace=args.replace)
        resolve.load_params(root)
        print(
            f"{'replaced' if done.replaced else 'added'} models.registry.{model_id} in {done.params_file} "
            f"as an alias: {{alias_of: {existing}}} (its numbers and pages name {existing})"
        )
        return 0
    done = registry.add(root / "params.yaml", model_id, registry.public_entry(entry), replace=args.replace)
    if entry.get("source") == "file":  # the params name <models>/NAME; the folder stays on this machine
        local = registry.write_local_path(root / "params.yaml", model_id, entry["path"])
    resolve.load_params(root)
    print(f"{'replaced' if done.replaced else 'added'} models.registry.{model_id} in {done.params_file}:")
    for k, v in done.entry.items():
        print(f"  {k}: {v}")
    if entry.get("source") == "file":
        print(f"  (this machine's path, {entry['path']}, is in {local.name}: git-ignored, never committed)")
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
    """``benchbook numbers [PATTERN] [--writeup NAME]``: print the matching registered numbers
    (``writeup.rows``) of the site's registry or of write-up NAME's (keys as its pages quote them,
    ``NAME--KEY``)."""
    from dataclasses import asdict

    from .writeup import rows, table

    found = rows(writeup_registry(repo_root(), args.writeup), args.pattern, args.writeup)
    print(json.dumps([asdict(r) for r in found], indent=1) if args.json else table(found))
    return 0


def writeup_registry(root: Path, name: str | None) -> Path:
    """The numbers folder of write-up ``name`` (``writeups/NAME/reports/numbers``), or of the site (None).

    Raises:
        writeup.WriteupError: no such write-up registry (the known write-ups listed)."""
    from . import sitewriteups
    from .writeup import WriteupError

    if name is None:
        return root / "reports" / "numbers"
    folder = root / sitewriteups.WRITEUPS / name
    if folder not in sitewriteups.writeup_dirs(root):
        known = ", ".join(d.name for d in sitewriteups.writeup_dirs(root)) or "none"
        raise WriteupError(
            f"--writeup {name}: no write-up registry {folder / 'reports' / 'numbers'} (write-ups: {known}); "
            f"fix: `benchbook writeup new {name} --model FILE` makes one"
        )
    return sitewriteups.registry_dir(folder)


def cmd_new_page(args) -> int:
    """``benchbook new-page NAME --experiment EXP [--writeup W]``: scaffold a page (``writeup.new_page``);
    with ``--writeup`` in ``writeups/W/`` over that write-up's numbers."""
    from .writeup import new_page

    root = repo_root()
    path = new_page(
        root,
        args.name,
        args.experiment,
        args.match,
        force=args.force,
        writeup=args.writeup,
        numbers_dir=writeup_registry(root, args.writeup),
    )
    print(f"wrote {path} (listed in _quarto.yml); render: benchbook site build")
    return 0


def cmd_writeup_new(args) -> int:
    """``benchbook writeup new NAME --model FILE|URL|ID``: ``writeupnew.new``; prints what it wrote and
    the time of each step."""
    from . import writeupnew

    t0 = time.monotonic()
    overrides = None
    if args.overrides:
        try:
            overrides = json.loads(args.overrides)
        except json.JSONDecodeError as e:
            raise ValueError(
                f"--overrides: not JSON ({e}: {args.overrides!r:.60}); fix: a JSON object of keys and "
                """values, e.g. --overrides '{"repetitions": 3}'"""
            ) from None
    done = writeupnew.new(
        repo_root(), args.name, args.model, args.experiment, overrides, force=args.force, log=say
    )
    for line in writeupnew.summary(done, repo_root(), args.name):
        print(line)
    print(f"total {time.monotonic() - t0:.1f} s")
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


def cmd_claims_draft(args) -> int:
    """``benchbook claims draft POST [-o CLAIMS.yaml] [--link URL]``
    (``benchbook.audit.draftfile.draft_post``)."""
    from .audit.draftfile import draft_post, read_stdin, summary

    # bytes, decoded as a file's are (a Latin-1 or UTF-16 paste; a stream that never ends stops at the limit)
    text = read_stdin() if args.post == "-" else None
    out, drafted, guessed = draft_post(args.post, args.out, text, args.link)
    print("\n".join(summary(args.post, out, drafted, guessed)), file=sys.stderr)
    return 0


def cmd_audit(args) -> int:
    """``benchbook audit ...``: ``benchbook.audit.command`` (its own options; ``benchbook audit -h``)."""
    from .audit.command import main as audit_main
    from .siterenderer import render_pages

    return audit_main(args.rest, render=render_pages)


#: the experiment a stage's session records name, where it is not the stage's own (draft-self on the
#: GPU records its sessions as draft-self's, in its own folder)
SESSION_EXPERIMENT = {"draftself_gpu": "draftself"}
#: stages whose runtime is not a llama.cpp build (PyTorch): any completed session of the host counts
NO_TOOLCHAIN = ("draftself", "draftself_gpu")


def measurement_stages(params: dict, picked) -> tuple[list[str], dict[str, str]]:
    """The measurement stages of ``benchbook.stages.EXPERIMENTS`` whose section ``params`` has, in
    pipeline order: (those this host measures, ``{host-bound stage: why this host does not}``).  A
    host-bound stage is measured where ``profiles.host_bound_skip(picked)`` is None (the ``gpu``
    profile of a host with an NVIDIA GPU, or a profile chosen by ``$BENCHBOOK_PROFILE``)."""
    from .experiments import profiles
    from .stages import EXPERIMENTS

    why_not = profiles.host_bound_skip(picked)
    here, skipped = [], {}
    for exp in EXPERIMENTS:
        if exp.name not in params:
            continue
        if exp.host_bound and why_not:
            skipped[exp.name] = why_not
        else:
            here.append(exp.name)
    return here, skipped


def measured_here(
    root: Path,
    params: dict,
    host_id: str,
    toolchain_id: str | None,
    picked=None,
    log=None,
    raw_dir: str | Path = "data/raw",
) -> dict[str, bool]:
    """Per measurement stage this host measures (``measurement_stages``: the host-bound ones only where
    the profile ``picked`` runs them): does the raw data (``root/raw_dir``, the committed data plus this
    clone's) hold a completed session of this host (and, for the llama.cpp experiments, of this build —
    a rebuilt toolchain measures itself again) that ran what ``params`` asks for now?

    Every experiment keeps one file per host whose shared-session start records carry host and
    toolchain ids (draft-self's toolchain is its runtime, so any completed session of this host counts);
    committed draft-self sessions from before the shared session are in ``sessions.jsonl``.  A session
    whose recorded config differs from the parameters this host resolves now (``experiments.drift``:
    params.yaml's section with the profile ``picked``, default ``profiles.pick(params)``) does not
    count, so the stage measures again; ``log`` (e.g. ``print``) gets one line per such session naming
    its differences.  A start record without a config (older records) counts as it did.  A session the
    reports would not publish (``session_checks``: a lost row, a run outside its
    session, a failed run) does not count either, and ``log`` gets its first reason; where the checks
    cannot be imported (a GPU host without the report libraries, ``scripts/gpu_session.sh``), an ended
    session counts and ``log`` says so.
    """
    import importlib

    from .experiments import drift, profiles
    from .records import iter_records

    picked = picked or profiles.pick(params)
    raw = root / raw_dir
    out = {}
    for stage in measurement_stages(params, picked)[0]:
        f = raw / stage / f"{host_id}.jsonl"
        experiment = SESSION_EXPERIMENT.get(stage, stage)
        starts: dict[str, dict] = {}
        ended: set[str] = set()
        importlib.import_module(f"benchbook.experiments.{stage}")  # declares its own record kinds
        if f.exists():
            for _, r in iter_records(f):
                if r.get("schema") == "benchbook.session" and r.get("experiment") == experiment:
                    if r["event"] == "start":
                        starts.setdefault(r["session_id"], r)
                    else:
                        ended.add(r["session_id"])
        built_here = [
            starts[sid]
            for sid in sorted(ended & set(starts))
            if stage in NO_TOOLCHAIN or starts[sid].get("toolchain_id") == toolchain_id
        ]
        now = drift.current(stage, params, picked) if built_here and stage in drift.EXPERIMENTS else None
        checks: dict = {}
        if built_here:
            try:
                checks = session_checks(root, stage, raw_dir)
            except ImportError as e:  # polars/altair absent: the device image of scripts/gpu_session.sh
                if log:
                    log(
                        f"{stage}: sessions not checked as the reports check them ({e.name} is not "
                        "installed): an ended session counts as measured"
                    )
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
    legacy = raw / "draftself/sessions.jsonl"
    if "draftself" in out and not out["draftself"] and legacy.exists():
        out["draftself"] = any(r.get("host_id") == host_id for _, r in iter_records(legacy))
    return out


def measuring_line(
    root: Path,
    params: dict,
    stage: str,
    host_id: str,
    toolchain_id: str | None,
    picked=None,
    raw_dir: str | Path = "data/raw",
) -> str:
    """What ``benchbook run`` says before it measures ``stage`` on this host: "resuming session X (k of n
    done)" when this host's raw file holds an interrupted session of this build that ran what ``params``
    asks now (``session.open_session``, ``experiments.drift``: the session the stage will resume; n is
    the plan's runs where the experiment declares them, ``PLANNED``), else that no completed session
    exists and a new one is measured."""
    from .experiments import drift, profiles
    from .session import open_session

    where = f"host {host_id}" + ("" if stage in NO_TOOLCHAIN else f" with toolchain {toolchain_id}")
    experiment = SESSION_EXPERIMENT.get(stage, stage)
    open_one = open_session(root / raw_dir / stage / f"{host_id}.jsonl", experiment)
    start = open_one.start if open_one else {}
    same_build = stage in NO_TOOLCHAIN or start.get("toolchain_id") == toolchain_id
    if open_one is None or not same_build or "config" not in start:
        return f"no completed {stage} session for {where}: measuring on this host"
    picked = picked or profiles.pick(params)
    now = drift.current(stage, params, picked) if stage in drift.EXPERIMENTS else None
    if now is not None and drift.differences(start["config"], now):
        return (
            f"{stage}: session {open_one.session_id} of {where} was interrupted under other parameters: "
            "measuring a new session"
        )
    total = _planned_count(stage, start)
    of = f" of {total}" if total is not None else ""
    return f"{stage}: resuming session {open_one.session_id} ({open_one.done}{of} done) for {where}"


def _planned_count(stage: str, start: dict) -> int | None:
    """How many runs the session of ``start`` plans (its report module's ``PLANNED``), or None where
    the experiment declares none or its config no longer reads."""
    import importlib

    try:
        planned = getattr(importlib.import_module(f"benchbook.experiments.{stage}.report"), "PLANNED", None)
        return len(planned.runs(start)) if planned is not None else None
    except (ImportError, ValueError):
        return None


def session_checks(root: Path, stage: str, raw_dir: str | Path = "data/raw") -> dict:
    """``{session_id: measured.SessionCheck}`` of ``stage``'s sessions under ``root/raw_dir``, checked
    as its report checks them (``measured.check`` with the experiment's planned runs; draft-self: its
    ``sessioncheck``), so that "measured here" and the pages agree on which sessions count.

    Raises:
        ImportError: the report libraries (polars, altair) are not installed."""
    from . import measured

    folder = root / raw_dir / stage
    if stage in ("draftself", "draftself_gpu"):  # the draft-self layout, either variant
        from .experiments.draftself import sessioncheck

        return sessioncheck.check(folder, stage)
    if stage == "llama_bench":
        from .experiments.llama_bench.report import PLANNED

        return measured.check(stage, folder, PLANNED)
    if stage == "offload":
        from .experiments.offload.report import PLANNED as OFFLOAD_PLANNED

        return measured.check(stage, folder, OFFLOAD_PLANNED)
    if stage == "speculative":
        from .experiments.speculative.plan import planned

        return measured.check(stage, folder, planned(root / raw_dir / "snapshots"))
    if stage == "spec_depth":
        from .experiments.spec_depth.runlabels import planned as depth_planned

        return measured.check(stage, folder, depth_planned(root / raw_dir / "snapshots"))
    return measured.check(stage, folder)


def measure_missing(
    root: Path,
    params: dict,
    host_id: str,
    toolchain_id: str | None,
    picked,
    run_stage,
    timings: dict,
    only: list[str] | None = None,
    raw_dir: str | Path = "data/raw",
) -> list[str]:
    """Measure on this host each stage it has no completed session of (``measured_here``), one at a
    time in pipeline order: ``run_stage(stage)`` (through DVC in ``benchbook run``; the stage's own
    command where DVC is absent, ``benchbook measure``); ``only``: these stages alone.  The host-bound
    stages this host does not run are said in one line (``experiments.__main__.skip_line``) and skipped.
    Stores ``measure_<stage>_s`` (wall seconds) in ``timings``; returns the stages measured."""
    from .experiments.__main__ import skip_line

    skipped = {s: why for s, why in measurement_stages(params, picked)[1].items() if not only or s in only}
    if skipped:
        print(skip_line(", ".join(skipped), next(iter(skipped.values()))))
    ran = []
    here = measured_here(root, params, host_id, toolchain_id, picked=picked, log=print, raw_dir=raw_dir)
    for stage, done in here.items():
        if done or (only and stage not in only):
            continue
        print(measuring_line(root, params, stage, host_id, toolchain_id, picked, raw_dir))
        t_stage = time.monotonic()
        run_stage(stage)
        timings[f"measure_{stage}_s"] = time.monotonic() - t_stage
        ran.append(stage)
    return ran


def stage_argv(root: Path, stage: str, raw_dir: str = "data/raw", overrides: str | None = None) -> list[str]:
    """The command that measures ``stage`` without DVC, from its definition in ``measure/dvc.yaml``: a
    ``python -m ...`` command as written (a host-bound stage's ``python -m benchbook.experiments NAME
    --if-runnable``) with this interpreter, a notebook stage as ``python -m benchbook.experiments NAME``
    (what its notebook calls: ``run.measure``); then ``--raw-dir raw_dir`` and ``--overrides`` (JSON).

    Raises:
        KeyError: ``stage`` is not a stage of ``measure/dvc.yaml``."""
    import yaml

    cmd = yaml.safe_load((root / MEASURE_DVC).read_text())["stages"][stage]["cmd"]
    words = shlex.split(cmd)
    if Path(words[0]).name.startswith("python") and words[1:3] == ["-m", "benchbook.experiments"]:
        argv = [sys.executable, *words[1:]]
    else:
        argv = [sys.executable, "-m", "benchbook.experiments", stage]
    return argv + ["--raw-dir", str(raw_dir)] + (["--overrides", overrides] if overrides else [])


def cmd_measure(args) -> int:
    """``benchbook measure [STAGE...]``: measure on this host each measurement stage it has no completed
    session of, as ``benchbook run`` does (``measure_missing``: the same stages, rule, skip line for the
    host-bound ones its profile does not run, resume of an unfinished session), without a site: through
    DVC where it is installed, else each stage's own command (``stage_argv``: a GPU host with python3
    alone, ``scripts/gpu_session.sh``).  ``--raw-dir`` and ``--overrides`` (a dry run) imply no DVC."""
    from .experiments import profiles
    from .llamacpp.toolchain import ToolchainError
    from .provenance import host_snapshot

    root = repo_root()
    params = _checked_params(root)
    picked = profiles.pick(params)
    here, skipped = measurement_stages(params, picked)
    unknown = [s for s in args.stages if s not in here and s not in skipped]
    if unknown:
        raise ValueError(
            f"no measurement stage {', '.join(map(repr, unknown))}; fix: name one of "
            f"{', '.join([*here, *skipped])}"
        )
    bad = [o for o in args.overrides if "=" not in o]
    if bad:
        raise ValueError(
            f"--overrides {bad[0]!r:.60}: expected STAGE=JSON; fix: write e.g. "
            """--overrides 'llama_bench={"repetitions": 3}'"""
        )
    overrides = dict(o.split("=", 1) for o in args.overrides)
    if any(s not in [*here, *skipped] for s in overrides):
        raise ValueError(f"--overrides {sorted(overrides)}: each must be STAGE=JSON with a measurement stage")
    try:
        toolchain_id = resolve.get_toolchain(params, build=False).toolchain_id
    except ToolchainError as e:  # its stages measure and say the fix; draft-self needs no build
        print(f"no llama.cpp build found ({e}): its stages count as not measured here")
        toolchain_id = None
    without_dvc = (
        args.without_dvc
        or args.raw_dir != "data/raw"
        or bool(overrides)
        or not (venv_tool("dvc") and venv_tool("papermill") and (root / ".dvc").is_dir())
    )
    if without_dvc:

        def run_stage(stage: str) -> None:
            argv = stage_argv(root, stage, args.raw_dir, overrides.get(stage))
            print(f"$ {shlex.join(argv)}", flush=True)
            subprocess.run(argv, cwd=root, check=True, env=tool_env())
    else:
        run, _ = stage_runner(root, verbose=True)
        dvc = [sys.executable, "-m", "dvc"]

        def run_stage(stage: str) -> None:
            for up in upstream_stages(root / MEASURE_DVC, stage):
                run(dvc + ["repro", "--no-run-cache", "--single-item", f"{MEASURE_DVC}:{up}"])
            run(dvc + ["repro", "--no-run-cache", "--force", "--single-item", f"{MEASURE_DVC}:{stage}"])

    timings: dict[str, float] = {}
    host_id = host_snapshot().host_id
    ran = measure_missing(
        root, params, host_id, toolchain_id, picked, run_stage, timings, args.stages or None, args.raw_dir
    )
    print(f"measured {', '.join(ran) if ran else 'nothing new'} on host {host_id} (profile {picked.name})")
    if timings:
        print("timings: " + ", ".join(f"{k}={v:.1f}" for k, v in timings.items()))
    return 0


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
                rc = wait_interruptibly(child)
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

                def copy_output(out=proc.stdout, lf=lf) -> None:
                    for line in out:
                        with log_lock:
                            lf.write(line)
                        m = re.match(r"^Running stage '([^']+)'", line)
                        if m:
                            progress.say(f"stage {m.group(1)} ...")
                        elif progress.is_notice(line):  # a warning the user must see, not only the log
                            progress.say(line.rstrip("\n"))

                # the output is copied by a thread: the main thread must never block in a read, or a
                # Ctrl-C that the kernel hands to another thread waits for the stage's next line
                reader = threading.Thread(target=copy_output, daemon=True)
                reader.start()
                try:
                    rc = wait_interruptibly(proc)
                except KeyboardInterrupt:
                    stop_process_group(proc)
                    raise Interrupted(argv) from None
                finally:
                    reader.join(timeout=30)
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


def wait_interruptibly(proc: subprocess.Popen, poll_s: float = 0.2) -> int:
    """``proc.wait()`` in steps of ``poll_s`` seconds, so Ctrl-C raises ``KeyboardInterrupt`` here
    within ``poll_s``.  A plain ``wait()`` (or a read of its output) blocks the main thread in one
    system call; a signal sent to the process group is delivered to any thread of ours that does not
    block it (a library's native thread), the main thread's call is then not interrupted, and Python
    runs the handler only when that call returns: a new user's Ctrl-C of ``make run`` took 106 s (the
    stage's next output line), and a second one in a test did nothing for 40 s."""
    while True:
        try:
            return proc.wait(timeout=poll_s)
        except subprocess.TimeoutExpired:
            continue


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

    def logged(message) -> None:
        if isinstance(message, dict) and isinstance(message.get("step"), int):
            TRAINING_STEP[0] = message["step"]  # the wait's progress bar (cmd_run) reads it
        log(message)

    resolve_checkpoint(root / "data/draftself/checkpoint.json", log=logged)


#: the last training step ``prepare_draftself_checkpoint`` logged (0: none yet), for the progress bar
#: ``cmd_run`` shows while it waits for the training (a new user saw 17 minutes of one still line)
TRAINING_STEP = [0]


def training_steps(root: Path) -> int | None:
    """The steps of the draft-self training ``data/draftself/checkpoint.json``'s ``train_config``
    names; None where the manifest or the field is missing (the bar then counts without a total)."""
    try:
        steps = (json.loads((root / "data/draftself/checkpoint.json").read_text()).get("train_config") or {})[
            "steps"
        ]
    except (OSError, ValueError, KeyError, AttributeError):
        return None
    return steps if isinstance(steps, int) else None


def wait_for_training(pretrain: Background, steps: int | None, poll_s: float = 2.0) -> float:
    """Wait for the draft-self training thread ``pretrain``, showing its step (``TRAINING_STEP``, of
    ``steps``: the manifest's ``train_config.steps``) as a progress bar on stderr; returns the
    thread's wall time in seconds (``Background.wait``, which re-raises its exception)."""
    from .llamacpp import progress

    if pretrain.thread.is_alive():
        with progress.bar(steps, "draft-self training", unit="step") as b:
            while pretrain.thread.is_alive():
                pretrain.thread.join(timeout=poll_s)
                b.update(TRAINING_STEP[0] - b.n)
    return pretrain.wait()


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
    params = _checked_params(root)
    from .experiments import profiles

    profiles.pick(params)  # a $BENCHBOOK_PROFILE params.yaml lacks: said now, not after the first site
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
        timings["draftself_train_s"] = wait_for_training(pretrain, training_steps(root))
        timings["draftself_train_wait_s"] = time.monotonic() - t
    t = time.monotonic()

    def run_stage(stage: str) -> None:
        # upstream (draftself_train) only when changed: --force would retrain it too
        for up in upstream_stages(root / MEASURE_DVC, stage):
            run(dvc + ["repro", "--no-run-cache", "--single-item", f"{MEASURE_DVC}:{up}"])
        run(dvc + ["repro", "--no-run-cache", "--force", "--single-item", f"{MEASURE_DVC}:{stage}"])

    measure_missing(root, params, host_id, tc.toolchain_id, profiles.pick(params), run_stage, timings)
    timings["measure_new_host_s"] = time.monotonic() - t
    t = time.monotonic()
    run(dvc + ["repro", "--no-run-cache"])
    timings["dvc_repro_s"] = time.monotonic() - t
    new = export_artifacts(root, params)
    if new:
        run(dvc + ["add", *[str(p.relative_to(root)) for p in new]])
        print(
            f"{len(new)} new artifact(s) under data/artifacts (this host's models and draft-self "
            "checkpoint, named by sha256): this clone's site needs nothing more; to share them, commit "
            "their .dvc/.json files and `dvc push` (the remote: ../benchbook-dvc-remote, "
            'docs/running.md "More than one machine"), and other clones `dvc pull` them instead of '
            "downloading, quantizing or training"
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
    ms = sub.add_parser(
        "measure",
        help="measure what this host has no completed session of (as `benchbook run`, no site; "
        "without DVC where it is absent)",
    )
    ms.add_argument("stages", nargs="*", help="only these measurement stages (default: every one)")
    ms.add_argument("--raw-dir", default="data/raw", help="raw data folder (not data/raw: without DVC)")
    ms.add_argument(
        "--overrides",
        action="append",
        default=[],
        metavar="STAGE=JSON",
        help="keys merged into STAGE's section after the profile (a dry run; without DVC)",
    )
    ms.add_argument("--without-dvc", action="store_true", help="run each stage's command, not `dvc repro`")
    ms.set_defaults(fn=cmd_measure)
    nb = sub.add_parser("numbers", help="registered numbers: key, value [95%% interval], unit, n, caveats")
    nb.add_argument("pattern", nargs="?", default=None, help="substring of the key, or a glob (lb-*-warm)")
    nb.add_argument("--json", action="store_true", help="one JSON object per number")
    nb.add_argument("--writeup", default=None, help="the numbers of write-up NAME (writeups/NAME/)")
    nb.set_defaults(fn=cmd_numbers)
    npg = sub.add_parser("new-page", help="write NAME.qmd bound to an experiment's numbers")
    npg.add_argument("name")
    npg.add_argument("--experiment", required=True, help="experiment whose numbers the page quotes")
    npg.add_argument("--match", default=None, help="only the keys matching this substring or glob")
    npg.add_argument("--force", action="store_true", help="overwrite an existing page")
    npg.add_argument("--writeup", default=None, help="a page of write-up NAME (writeups/NAME/), its numbers")
    npg.set_defaults(fn=cmd_new_page)
    wp = sub.add_parser("writeup").add_subparsers(dest="sub", required=True)
    wn = wp.add_parser("new", help="measure one GGUF into writeups/NAME/ and write its page")
    wn.add_argument("name")
    wn.add_argument("--model", default=None, help="a GGUF file, an http(s) URL or a models.registry id")
    wn.add_argument("--experiment", default="llama_bench", help="llama_bench (default) or speculative")
    wn.add_argument(
        "--overrides", default=None, help="JSON merged into its section, e.g. '{\"repetitions\": 3}'"
    )
    wn.add_argument("--force", action="store_true", help="rewrite index.qmd (your edits to it are lost)")
    wn.set_defaults(fn=cmd_writeup_new)
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
    cl = sub.add_parser("claims", help="claims files: draft one from a published post")
    clsub = cl.add_subparsers(dest="claims_cmd", required=True)
    cd = clsub.add_parser(
        "draft",
        help="a post (Markdown, text, HTML saved from a browser, - for stdin) -> a claims file to review",
    )
    cd.add_argument("post", help="the post's file, or - to read stdin")
    cd.add_argument(
        "-o",
        "--out",
        default=None,
        help="the claims file (default: POST's folder, <stem>.claims.yaml; stdin: post.claims.yaml)",
    )
    cd.add_argument(
        "--link",
        default=None,
        help="where the post was published (source.link; an engine's repository, e.g. an issue of "
        "github.com/vllm-project/vllm, is the engine of a post that names none); a saved page's own "
        "canonical address by default",
    )
    cd.set_defaults(fn=cmd_claims_draft)
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
    with escape.terminal_output():  # record/snapshot/registry text printed cannot drive the terminal
        return _run(args, stops)


def _run(args, stops) -> int:
    """``args.fn(args)`` with benchbook's errors, interrupts and failed stages reported as one line."""
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
