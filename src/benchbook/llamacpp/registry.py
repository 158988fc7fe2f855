"""``benchbook models add``: a registry entry for a local GGUF or a URL, written into ``params.yaml``.

The entry pins the file's sha256 (and size), so ``models.fetch`` verifies it before every use.  A file
whose bytes a registry entry already names is not registered twice: its id becomes an alias of that
entry (``{alias_of: <id>}``, ``registered_as``), so the project's model keeps its name on every page.  The
file is edited as text: the entry's lines are inserted at the end of ``models.registry`` (or replace
the lines of an entry with the same id), so every other byte — comments, key order, flow-style
mappings — stays as it was; the result is re-read and must equal the old mapping plus the entry.
A local file is used in place and must not be one that git would commit; the params name it
``<models>/NAME`` (``public_entry``) and its folder on this machine goes to the params file's
git-ignored companion ``params.local.yaml`` (``write_local_path``), so committed params name no folder
of the machine that registered the file (the project's ``params.yaml`` and a write-up's alike).
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path, PurePath
from urllib.parse import unquote

import yaml

from benchbook import atomicfile
from benchbook.paths import MODELS_PREFIX, local_file

from .download import download
from .fetch import sha256_file
from .verify import gguf_problem


class RegistryError(ValueError):
    """An entry cannot be added; the message names the file, the id or the path, and the fix."""


@dataclass(frozen=True)
class Added:
    """What ``add`` wrote: the id, its entry, the params file, and whether an old entry was replaced."""

    model_id: str
    entry: dict
    params_file: Path
    replaced: bool


#: a registry id: lowercase letters, digits, ``-`` and ``_``, starting with a letter or digit.  No dot
#: (Quarto reads a dot in a ``{{< var >}}`` key as a nested key, and ids name numbers' keys), no
#: space, colon or markup (ids land in YAML, file names and pages).
ID_PATTERN = re.compile(r"[a-z0-9][a-z0-9_-]*")


def check_id(model_id: str) -> str:
    """``model_id`` when it is a valid registry id (``ID_PATTERN``).

    Raises:
        RegistryError: names the id, what is allowed and a valid spelling to use.
    """
    if not ID_PATTERN.fullmatch(model_id):
        suggestion = re.sub(r"[^a-z0-9_]+", "-", model_id.lower()).strip("-") or "model"
        raise RegistryError(
            f"--id {model_id!r}: a registry id is lowercase letters, digits, '-' and '_' (no dot: Quarto "
            f"reads it as a nested key; no space, colon or markup); fix: --id {suggestion}"
        )
    return model_id


def registered_as(registry: dict, sha256: str, sha_of) -> str | None:
    """The first id of ``registry`` (in its order) whose file has ``sha256``, aliases left out;
    ``sha_of(registry, id)`` gives an id's file sha256 or None (``models.file_sha256``: pinned, or
    that of a derived model's cached file).  None when no entry names those bytes."""
    for model_id, ent in registry.items():
        if isinstance(ent, dict) and "alias_of" not in ent and sha_of(registry, model_id) == sha256:
            return model_id
    return None


def duplicates(registry: dict, sha_of) -> list[tuple[str, list[str]]]:
    """``(sha256, ids)`` for every file that two or more non-alias ids of ``registry`` name (``sha_of``
    as in ``registered_as``), ids in registry order: one file under several names, whose numbers
    would read as different models.  The fix is ``{alias_of: <first id>}`` for the others."""
    by_sha: dict[str, list[str]] = {}
    for model_id, ent in registry.items():
        if isinstance(ent, dict) and "alias_of" not in ent and (sha := sha_of(registry, model_id)):
            by_sha.setdefault(sha, []).append(model_id)
    return [(sha, ids) for sha, ids in by_sha.items() if len(ids) > 1]


def model_id_for(name: str) -> str:
    """A registry id from a file name: the stem (URL-decoded: ``q2%20model.gguf`` is ``q2 model``)
    lower-cased, runs of other characters as ``-`` (``SmolLM2-135M.Q8_0.gguf`` -> ``smollm2-135m-q8_0``)."""
    stem = Path(unquote(name.split("?")[0].rstrip("/"))).name
    stem = stem[: -len(".gguf")] if stem.lower().endswith(".gguf") else stem
    return re.sub(r"[^a-z0-9_]+", "-", stem.lower()).strip("-") or "model"


def is_url(target: str) -> bool:
    return target.startswith(("http://", "https://"))


def _inside_git(root: Path, path: Path) -> bool:
    """True when ``path`` lies in the repository at ``root`` and git would not ignore it."""
    try:
        path.resolve().relative_to(root.resolve())
    except ValueError:
        return False
    r = subprocess.run(["git", "check-ignore", "-q", str(path.resolve())], cwd=root, capture_output=True)
    return r.returncode != 0


def entry_for(
    target: str, root: Path, *, sha256: str | None = None, models_dir: Path | None = None, log=print
) -> dict:
    """The registry entry for a local GGUF path or an HTTP(S) URL.

    A path: ``{source: file, path (absolute), sha256, size_bytes}`` (hashed here).  A URL:
    ``{source: url, url, sha256, size_bytes}``; the file is downloaded into ``models_dir`` (the
    cache, so the first ``models fetch`` finds it) and hashed; ``sha256`` given is checked instead.

    Raises:
        RegistryError: no such file; the file (or the download) is not a GGUF (``verify.gguf_problem``);
            the file is inside the repository and not git-ignored.
        download.DownloadError, fetch.ChecksumError: the download failed or has another sha256.
    """
    if is_url(target):
        if models_dir is None:
            raise RegistryError("entry_for(url) needs models_dir (the cache's models folder)")
        tmp = models_dir / f"add-{model_id_for(target)}.gguf"
        download(
            target,
            tmp,
            sha256,
            what=f"model {model_id_for(target)}",
            log=log,
            given_on="the `benchbook models add` command line",
        )
        bad = gguf_problem(tmp, full=True)
        if bad:
            tmp.unlink()  # our own download in the cache, never the user's file
            raise RegistryError(
                f"{target}: the download is {bad}; nothing was registered; fix: give the URL of the file "
                "itself (Hugging Face: https://huggingface.co/<repo>/resolve/<revision>/<file>.gguf)"
            )
        digest = sha256_file(tmp)
        dest = models_dir / f"{digest}.gguf"
        tmp.replace(dest)
        return {"source": "url", "url": target, "sha256": digest, "size_bytes": dest.stat().st_size}
    path = Path(target).expanduser()
    if path.is_dir():
        raise RegistryError(f"{path}: is a folder, not a file; fix: give the path of the .gguf file in it")
    if path.exists() and not path.is_file():  # a device or a FIFO: never read (/dev/zero has no end)
        raise RegistryError(
            f"{path}: not a regular file (a device, FIFO or socket); fix: give the path of a GGUF file"
        )
    if not path.is_file():
        raise RegistryError(f"{path}: no such file; fix: give the path of a GGUF file (or an http(s):// URL)")
    if _inside_git(root, path):
        raise RegistryError(
            f"{path} is inside the repository and not ignored by git, so it could be committed; "
            "fix: move it outside the repository (models are never committed) or add it to "
            ".gitignore"
        )
    bad = gguf_problem(path, full=True)
    if bad:
        raise RegistryError(
            f"{path}: {bad}; nothing was registered; fix: download the GGUF itself (Hugging Face: the "
            "'/resolve/' link, or `huggingface-cli download`) and add that file"
        )
    digest = sha256_file(path)
    if sha256 and digest != sha256.lower():
        raise RegistryError(
            f"{path}: sha256 is {digest}, --sha256 says {sha256}; fix: check the file or the value"
        )
    return {
        "source": "file",
        "path": str(path.resolve()),
        "sha256": digest,
        "size_bytes": path.stat().st_size,
    }


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _registry_block(lines: list[str], params_file: Path) -> tuple[int, int, int]:
    """``(first, end, col)``: the registry's entries are ``lines[first:end]``, keys at column ``col``."""

    def find(key: str, start: int, col: int) -> int:
        for i in range(start, len(lines)):
            if re.match(rf"^ {{{col}}}{re.escape(key)}:\s*(#.*)?$", lines[i].rstrip("\n")):
                return i
            if lines[i].strip() and not lines[i].lstrip().startswith("#") and _indent(lines[i]) < col:
                break
        raise RegistryError(
            f"{params_file}: no block-style `{key}:` line found for models.registry; fix: write "
            "`models:` and `registry:` as block mappings (one key per line), as committed"
        )

    m = find("models", 0, 0)
    reg = find("registry", m + 1, _indent(lines[m + 1]) if m + 1 < len(lines) else 2)
    col = None
    end = reg + 1
    for i in range(reg + 1, len(lines)):
        text = lines[i]
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        if _indent(text) <= _indent(lines[reg]):
            break
        col = _indent(text) if col is None else col
        end = i + 1
    return reg + 1, end, col if col is not None else _indent(lines[reg]) + 2


def _entry_lines(model_id: str, entry: dict, col: int) -> list[str]:
    text = yaml.safe_dump({model_id: entry}, default_flow_style=False, sort_keys=False, width=4096)
    return [" " * col + line + "\n" for line in text.splitlines()]


def add(params_file: Path, model_id: str, entry: dict, *, replace: bool = False) -> Added:
    """Write ``entry`` as ``models.registry.<model_id>`` into ``params_file`` (text insertion, see the
    module docstring) and return what was done.

    Raises:
        RegistryError: the id exists and ``replace`` is False; the registry is not a block mapping;
            the edited file would not read back as the old mapping plus the entry.
    """
    text = params_file.read_text()
    before = yaml.safe_load(text)
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    first, end, col = _registry_block(lines, params_file)
    registry = before["models"]["registry"]
    replaced = model_id in registry
    if replaced and not replace:
        raise RegistryError(
            f"{params_file}: models.registry already has {model_id!r}; fix: choose another id "
            "(--id NAME) or pass --replace"
        )
    if replaced:
        start = next(
            i for i in range(first, end) if re.match(rf"^ {{{col}}}{re.escape(model_id)}:", lines[i])
        )
        stop = next(
            (
                i
                for i in range(start + 1, end)
                if lines[i].strip() and _indent(lines[i]) <= col and not lines[i].lstrip().startswith("#")
            ),
            end,
        )
        lines[start:stop] = _entry_lines(model_id, entry, col)
    else:
        lines[end:end] = _entry_lines(model_id, entry, col)
    new_text = "".join(lines)
    after = yaml.safe_load(new_text)
    expect = dict(before)
    expect["models"] = {**before["models"], "registry": {**registry, model_id: entry}}
    if after != expect:
        raise RegistryError(
            f"{params_file}: inserting {model_id!r} would change other keys (unusual layout of "
            "models.registry); fix: add the entry by hand: " + str(entry)
        )
    atomicfile.write_text(params_file, new_text)
    return Added(model_id, entry, params_file, replaced)


def public_entry(entry: dict) -> dict:
    """A registry entry as a committed params file holds it: a ``source: file`` path as
    ``<models>/NAME`` (issue 33 §3: no folder of this machine; ``write_local_path`` keeps the real
    one), other entries as given."""
    if entry.get("source") != "file":
        return entry
    return {**entry, "path": MODELS_PREFIX + PurePath(str(entry["path"])).name}


def write_local_path(params_file: Path, model_id: str, path: str | Path) -> Path:
    """Record where ``model_id``'s file lies on this machine in the params file's local companion
    (``paths.local_file``: ``params.local.yaml``, ``writeups/NAME/params.local.yaml``; git-ignored),
    other entries kept; the params themselves name it ``<models>/NAME`` (``public_entry``).
    ``resolve.with_local_paths`` reads it back when the params load.  Returns the local file."""
    local = local_file(params_file)
    doc = yaml.safe_load(local.read_text()) if local.is_file() else None
    paths = dict(doc.get("model_paths") or {}) if isinstance(doc, dict) else {}
    paths[model_id] = str(Path(path).expanduser().resolve())
    atomicfile.write_text(
        local,
        "# where this machine keeps the model files the params name as <models>/NAME (git-ignored: it holds "
        "this machine's folders)\n" + yaml.safe_dump({"model_paths": paths}, sort_keys=True),
    )
    return local
