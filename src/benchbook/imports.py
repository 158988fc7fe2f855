"""The static import graph of the ``benchbook`` package (``ast``; nothing is imported or executed).

Every ``import``/``from ... import`` statement counts, at module level or inside a function, and
relative imports are resolved against the importing module.  Only modules inside the package are
kept (a file ``src/benchbook/<a>/<b>.py`` is the module ``benchbook.a.b``; a package is its
``__init__.py``).  ``from benchbook import caveats`` imports the module ``benchbook.caveats`` when that
file exists, else the package ``benchbook`` itself.  Importing ``benchbook.a.b`` also runs the
packages ``benchbook`` and ``benchbook.a``: ``closure`` adds their ``__init__.py`` files.

Used by ``benchbook.layers`` (layer order and cycles) and ``benchbook.stagedeps`` (DVC stage deps).
"""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass
from pathlib import Path

PACKAGE = "benchbook"


class ImportGraphError(ValueError):
    """A source file or notebook cannot be parsed; the message names file:line and the fix."""


@dataclass(frozen=True)
class Import:
    """One import statement's target inside the package: ``source`` (file, relative to the repository
    root when built by ``package_graph``) imports ``module`` (dotted name) at ``line`` (1-based)."""

    source: str
    line: int
    module: str


def module_files(src_dir: Path) -> dict[str, Path]:
    """Dotted module name -> file for every ``*.py`` under ``src_dir/benchbook`` (packages as their
    ``__init__.py``)."""
    out = {}
    for f in sorted((Path(src_dir) / PACKAGE).rglob("*.py")):
        parts = list(f.relative_to(src_dir).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = f
    return out


def _resolve(node: ast.ImportFrom | ast.Import, current: str, is_package: bool, known: set[str]) -> list[str]:
    """Package modules named by one import statement of module ``current``."""
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
        return [n for n in (_longest_known(n, known) for n in names) if n]
    if node.level:
        base = current.split(".") if is_package else current.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        mod = ".".join(base + ([node.module] if node.module else []))
    else:
        mod = node.module or ""
    if mod != PACKAGE and not mod.startswith(PACKAGE + "."):
        return []
    out = []
    for a in node.names:
        sub = f"{mod}.{a.name}"
        out.append(sub if sub in known else _longest_known(mod, known))
    return [m for m in dict.fromkeys(out) if m]


def _longest_known(name: str, known: set[str]) -> str | None:
    parts = name.split(".")
    while parts:
        if ".".join(parts) in known:
            return ".".join(parts)
        parts.pop()
    return None


def imports_of_source(
    text: str, source: str, current: str, is_package: bool, known: set[str], line_offset: int = 0
) -> list[Import]:
    """Package imports of Python ``text`` (module ``current``; ``source`` names it in messages).

    Raises:
        ImportGraphError: ``text`` is not valid Python (names source:line).
    """
    try:
        tree = ast.parse(text)
    except SyntaxError as e:
        where = f"{source}:{(e.lineno or 0) + line_offset}"
        raise ImportGraphError(f"{where}: {e.msg}; fix: correct the syntax") from None
    out = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            out += [
                Import(source, node.lineno + line_offset, m)
                for m in _resolve(node, current, is_package, known)
            ]
    return sorted(out, key=lambda i: (i.line, i.module))


def package_graph(root: Path) -> dict[str, list[Import]]:
    """Module -> its package imports, for every module under ``root/src/benchbook``; each ``Import``'s
    ``source`` is the file relative to ``root``."""
    root = Path(root)
    files = module_files(root / "src")
    known = set(files)
    return {
        m: imports_of_source(f.read_text(), str(f.relative_to(root)), m, f.name == "__init__.py", known)
        for m, f in files.items()
    }


def dynamic_imports(
    text: str, source: str, parameters: dict[str, str], known: set[str], line_offset: int = 0
) -> list[Import]:
    """Package modules that ``importlib.import_module(...)`` calls of Python ``text`` name with a
    string or an f-string whose only fields are names of ``parameters`` (a papermill ``-p NAME VALUE``
    of the command running the notebook): ``import_module(f"benchbook.experiments.{experiment}.report")``
    with ``experiment=llama_bench`` imports ``benchbook.experiments.llama_bench.report``.  Names outside
    the package are ignored.

    Raises:
        ImportGraphError: a field is not a parameter of ``parameters`` (the command does not pass it),
        or the module it names does not exist; the message names source:line and the fix.
    """
    out = []
    for node in ast.walk(ast.parse(text)):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        if name != "import_module":
            continue
        arg = node.args[0]
        where = f"{source}:{node.lineno + line_offset}"
        pieces = arg.values if isinstance(arg, ast.JoinedStr) else [arg]
        words = []
        for piece in pieces:
            if isinstance(piece, ast.Constant) and isinstance(piece.value, str):
                words.append(piece.value)
            elif (
                isinstance(piece, ast.FormattedValue)
                and isinstance(piece.value, ast.Name)
                and piece.value.id in parameters
            ):
                words.append(str(parameters[piece.value.id]))
            else:
                field = ast.unparse(piece.value if isinstance(piece, ast.FormattedValue) else piece)
                raise ImportGraphError(
                    f"{where}: import_module names a module through {field!r}, which is not a parameter "
                    f"the command passes ({sorted(parameters) or 'none'}); fix: pass it with "
                    f"`-p {field} VALUE` in the stage's cmd"
                )
        module = "".join(words)
        if module != PACKAGE and not module.startswith(PACKAGE + "."):
            continue
        if module not in known:
            raise ImportGraphError(
                f"{where}: import_module({module!r}) (with {parameters}) names no module under "
                f"src/{PACKAGE}; fix: the `-p` value in the stage's cmd"
            )
        out.append(Import(source, node.lineno + line_offset, module))
    return out


def notebook_imports(
    path: Path, known: set[str], shown_as: str | None = None, parameters: dict[str, str] | None = None
) -> list[Import]:
    """Package imports of the code cells of the notebook at ``path``; ``line`` is ``cell * 1000 + line``
    (cell counted from 1 among all cells), so a message can name cell and line.  IPython magics
    (``%``/``!`` lines) are blanked first.  With ``parameters`` (the papermill parameters of the
    command that runs it), the modules its ``importlib.import_module`` calls name count too
    (``dynamic_imports``): the generic notebooks import an experiment's module by its name.

    Raises:
        ImportGraphError: the file is not a notebook, or a cell is not valid Python; with
        ``parameters``, a dynamic import that they do not resolve (``dynamic_imports``).
    """
    try:
        cells = json.loads(Path(path).read_text())["cells"]
    except (ValueError, KeyError) as e:
        raise ImportGraphError(
            f"{shown_as or path}: not a Jupyter notebook ({e}); fix: restore it from git"
        ) from None
    out = []
    for i, c in enumerate(cells, 1):
        if c.get("cell_type") != "code":
            continue
        src = "".join(c["source"]) if isinstance(c["source"], list) else c["source"]
        src = "\n".join("" if ln.lstrip().startswith(("%", "!")) else ln for ln in src.splitlines())
        shown = f"{shown_as or path} (cell {i})"
        out += imports_of_source(src, shown, "__notebook__", False, known, line_offset=0)
        if parameters is not None:
            out += dynamic_imports(src, shown, parameters, known)
    return out


def closure(start: list[str], graph: dict[str, list[Import]]) -> set[str]:
    """Every package module that importing the modules ``start`` can run: their imports (function-local
    ones included), transitively, plus each module's parent packages."""
    seen: set[str] = set()
    todo = list(start)
    while todo:
        m = todo.pop()
        if m in seen or m not in graph:
            continue
        seen.add(m)
        parts = m.split(".")
        todo += [".".join(parts[:k]) for k in range(1, len(parts))]
        todo += [i.module for i in graph[m]]
    return seen
