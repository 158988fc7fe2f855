"""Where things live: the repository root and the per-machine cache outside it.

The cache (toolchains keyed by source sha256 + backend + cmake flags, models keyed by
sha256, downloads) defaults to ``$XDG_CACHE_HOME/benchbook`` (``~/.cache/benchbook``);
``BENCHBOOK_CACHE`` overrides it.  Nothing in the cache is ever committed.  What is true only of this
machine's own files (the verification records of ``source: file`` models) is kept out of the cache, in
``state_dir()`` (``$XDG_STATE_HOME/benchbook``, ``~/.local/state/benchbook``; ``BENCHBOOK_STATE``).
"""

from __future__ import annotations

import errno
import os
import re
from pathlib import Path, PurePosixPath, PureWindowsPath


def cache_dir() -> Path:
    """Return the cache root (created if missing).

    Raises:
        NotADirectoryError: a file stands where the cache folder (or a folder above it) should be
            (``mkdir`` alone says "File exists" for the folder itself).
        OSError: the folder cannot be made (read-only, no permission).
    """
    root = cache_root()
    if root.exists() and not root.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(root))
    root.mkdir(parents=True, exist_ok=True)
    return root


def cache_root() -> Path:
    """Where the cache is (``BENCHBOOK_CACHE``, else ``$XDG_CACHE_HOME/benchbook``); nothing is created."""
    env = os.environ.get("BENCHBOOK_CACHE")
    if env:
        return Path(env)
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "benchbook"


def state_dir() -> Path:
    """Return this machine's benchbook state folder (created if missing): ``BENCHBOOK_STATE``, else
    ``$XDG_STATE_HOME/benchbook`` (``~/.local/state/benchbook``).  Neither the cache (which is shared by
    checkouts and may be copied to another machine) nor the project (committed): it holds what is true
    only of this machine's own files, the verification records of ``source: file`` models
    (``models.user_file_state``).

    Raises:
        OSError: the folder cannot be made (a file in its place, read-only, no permission).
    """
    env = os.environ.get("BENCHBOOK_STATE")
    root = (
        Path(env)
        if env
        else Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state") / "benchbook"
    )
    root.mkdir(parents=True, exist_ok=True)
    return root


def repo_root(start: Path | None = None) -> Path:
    """Return the repository root: the nearest parent holding ``params.yaml`` and ``dvc.yaml``.

    Raises:
        FileNotFoundError: when no such directory is found above ``start`` (default: cwd).
    """
    env = os.environ.get("BENCHBOOK_ROOT")
    if env:
        return Path(env)
    here = (start or Path.cwd()).resolve()
    for p in (here, *here.parents):
        if (p / "params.yaml").exists() and (p / "dvc.yaml").exists():
            return p
    raise FileNotFoundError(
        f"no benchbook project (params.yaml + dvc.yaml) at or above {here}; "
        "run from the repository or set BENCHBOOK_ROOT"
    )


#: how a cache path appears in any host's records (``$XDG_CACHE_HOME/benchbook``, ``~/.cache/benchbook``)
CACHE_MARKER = "/.cache/benchbook/"
#: a short option glued to an absolute path (``-m/home/u/x.gguf``)
_GLUED = re.compile(r"^(-[A-Za-z]{1,4})([/~].*)$")
#: an environment variable's name (``NAME=value`` before a command)
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
#: a Windows absolute path (``C:\\…``, ``C:/…``)
_WINDOWS_ABS = re.compile(r"^[A-Za-z]:[\\/]")


def public_path(arg: str, root: str | Path | None = None) -> str:
    """A command argument as it may be published: nothing of the machine's own folders leaves it
    (issue 33 §3: a user's home folder and file layout are private).

    * a path in a benchbook cache (``…/.cache/benchbook/…``, or this machine's ``$BENCHBOOK_CACHE``):
      ``<cache>/…`` (toolchains and models are keyed by content, so the rest identifies them);
    * a path under ``root`` (the repository): relative to it;
    * any other absolute path (POSIX, ``~/…``, Windows or UNC): its file name, as ``<models>/NAME`` for
      a ``.gguf`` and ``<local>/NAME`` otherwise;
    * the same inside ``--opt=PATH``, ``NAME=PATH`` (an environment assignment), a short option glued
      to its path (``-m/home/u/x.gguf``) and each item of a comma list (llama-bench ``-m a,b``);
    * text with a space in it (a prompt) and anything else: unchanged.

    >>> public_path("/root/.cache/benchbook/models/ab.gguf"), public_path("/home/u/m/my-model.gguf")
    ('<cache>/models/ab.gguf', '<models>/my-model.gguf')
    >>> public_path("--model=/home/u/x.gguf"), public_path("-m"), public_path("/repo/data/p.txt", "/repo")
    ('--model=<models>/x.gguf', '-m', 'data/p.txt')
    >>> public_path("/home/u/a.gguf,/home/u/b.gguf"), public_path("LD_LIBRARY_PATH=/home/u/lib")
    ('<models>/a.gguf,<models>/b.gguf', 'LD_LIBRARY_PATH=<local>/lib')
    >>> public_path("-m/home/u/x.gguf"), public_path("/think about a/b")
    ('-m<models>/x.gguf', '/think about a/b')
    """
    if any(c.isspace() for c in arg):
        return arg
    if m := _GLUED.match(arg):
        return m.group(1) + public_path(m.group(2), root)
    if "=" in arg:
        name, value = arg.split("=", 1)
        if name.startswith("-") or _ENV_NAME.match(name):
            return f"{name}={public_path(value, root)}"
    if "," in arg:
        return ",".join(public_path(part, root) for part in arg.split(","))
    i = arg.find(CACHE_MARKER)
    if i >= 0:
        return "<cache>/" + arg[i + len(CACHE_MARKER) :]
    own = os.environ.get("BENCHBOOK_CACHE")
    if own and arg.startswith(own.rstrip("/") + "/"):
        return "<cache>/" + arg[len(own.rstrip("/")) + 1 :]
    if root is not None and arg.startswith(str(root).rstrip("/") + "/"):
        return arg[len(str(root).rstrip("/")) + 1 :]
    if _WINDOWS_ABS.match(arg) or arg.startswith("\\\\"):
        name = PureWindowsPath(arg).name
    elif arg.startswith(("/", "~/")) and arg.count("/") >= 2:
        name = PurePosixPath(arg).name
    else:
        return arg
    return f"<models>/{name}" if name.lower().endswith(".gguf") else f"<local>/{name}"


#: a path inside free text: ``/`` or ``~/`` not preceded by a word character, up to a space, quote or bracket
#: (the rest of a public path, ``<cache>/…``, ``<models>/…``, ``<local>/…``, is no path again: publishing
#: text twice changes nothing more; a log is published when its server exits, and again by a session
#: opening on its file)
_PATH_IN_TEXT = re.compile(r"(?<![\w.:/])(?<!<cache>)(?<!<models>)(?<!<local>)(?:~/|/)[^\s\"'()<>\[\],;]+")


def public_text(text: str | None, root: str | Path | None = None) -> str | None:
    """Free text (a tool's stderr quoted as a failure reason) with each absolute path in it made
    public (``public_path``): ``… /root/.cache/benchbook/toolchains/x/libggml-cuda.so.0(+0x1) …`` ->
    ``… <cache>/toolchains/x/libggml-cuda.so.0(+0x1) …``.  None stays None.

    >>> public_text("failed to load /home/u/m/x.gguf: out of memory")
    'failed to load <models>/x.gguf: out of memory'
    >>> public_text("load <cache>/toolchains/t/bin/llama-server <models>/x.gguf")  # twice: unchanged
    'load <cache>/toolchains/t/bin/llama-server <models>/x.gguf'
    """
    if text is None:
        return None

    def one(m: re.Match) -> str:
        found = m.group(0)
        path = found.rstrip(":.")  # "… x.gguf: out of memory": the colon ends the sentence, not the path
        return public_path(path, root) + found[len(path) :] if path.count("/") >= 2 else found

    return _PATH_IN_TEXT.sub(one, text)


#: record fields whose text a model or a person wrote (prompts, outputs, a quoted source line): recorded
#: as they are, since a path in them is data, not this machine's layout
VERBATIM_FIELDS = frozenset(
    {"content", "output_text", "prompt", "prompts", "text", "answer_expected", "source_text", "raw"}
    | {"messages"}
)


def public_record(rec, root: str | Path | None = None):
    """A record (any JSON value) as a raw file may hold it: every string made public (issue 33 §3) -
    a string without blanks (a path, an argv item, ``--opt=PATH``) by ``public_path``, a string with
    blanks (a failure reason, a tool's stderr tail) by ``public_text`` - except under the fields of
    ``VERBATIM_FIELDS`` (a prompt, a model's output).  Mapping keys, numbers and ids are unchanged;
    applying it twice changes nothing more (``<cache>/…`` is no absolute path).

    The measurement runs the real paths; only what is recorded is public.  ``resolve_public`` gives a
    path back where a reader opens it.

    >>> public_record({"argv": ["llama-bench", "-m", "/home/u/.cache/benchbook/models/ab.gguf"],
    ...                "bench": {"model_filename": "/home/u/m/my.gguf"}})
    {'argv': ['llama-bench', '-m', '<cache>/models/ab.gguf'], 'bench': {'model_filename': '<models>/my.gguf'}}
    >>> public_record({"prompt": "/home/u/notes.txt", "reason": "exit 1: /home/u/m/x.gguf: no such file"})
    {'prompt': '/home/u/notes.txt', 'reason': 'exit 1: <models>/x.gguf: no such file'}
    """
    if isinstance(rec, dict):
        return {k: v if k in VERBATIM_FIELDS else public_record(v, root) for k, v in rec.items()}
    if isinstance(rec, list):
        return [public_record(v, root) for v in rec]
    if isinstance(rec, str):
        return public_text(rec, root) if any(c.isspace() for c in rec) else public_path(rec, root)
    return rec


def resolve_public(
    arg: str, root: str | Path | None = None, models: dict[str, str | Path] | None = None
) -> str:
    """A recorded path as this machine's path, for a reader that opens it: ``<cache>/…`` under this
    machine's ``cache_dir()``; ``<models>/NAME`` as the path ``models`` (file name -> path, e.g. the
    registry's ``source: file`` entries) gives for NAME, else unchanged (only the name was recorded); a
    relative path under ``root``; an absolute path (an older record) as it is.

    >>> import os; os.environ["BENCHBOOK_CACHE"] = "/c"
    >>> resolve_public("<cache>/models/ab.gguf"), resolve_public("data/p.txt", "/repo")
    ('/c/models/ab.gguf', '/repo/data/p.txt')
    >>> resolve_public("<models>/x.gguf", models={"x.gguf": "/home/u/x.gguf"}), resolve_public("/old/a.gguf")
    ('/home/u/x.gguf', '/old/a.gguf')
    >>> del os.environ["BENCHBOOK_CACHE"]
    """
    if arg.startswith("<cache>/"):
        return str(cache_root() / arg[len("<cache>/") :])
    if arg.startswith("<models>/"):
        found = (models or {}).get(arg[len("<models>/") :])
        return str(found) if found is not None else arg
    if arg.startswith("<local>/") or arg.startswith(("/", "~")) or _WINDOWS_ABS.match(arg):
        return arg
    return str(Path(root) / arg) if root is not None else arg


def record_root(raw_file: str | Path) -> Path | None:
    """The repository a raw file lies in (``repo_root`` above its folder), which its records' paths are
    written relative to; None for a file outside any benchbook project."""
    try:
        return repo_root(Path(raw_file).parent)
    except FileNotFoundError:
        return None


#: where a model file that params name only as ``<models>/NAME`` lies on this machine: a file beside the
#: params file (``params.yaml`` -> ``params.local.yaml``), ignored by git, ``{model_paths: {id: path}}``
LOCAL_STEM = ".local"
MODELS_PREFIX = "<models>/"


def local_file(params_file: str | Path) -> Path:
    """The machine-local companion of a params file: ``writeups/w/params.yaml`` ->
    ``writeups/w/params.local.yaml`` (git-ignored: it holds this machine's folders)."""
    p = Path(params_file)
    return p.with_name(f"{p.stem}{LOCAL_STEM}{p.suffix}")
