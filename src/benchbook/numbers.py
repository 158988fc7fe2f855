"""The numbers registry: every number a page shows, with its provenance.

Each report stage publishes its numbers through ``publish`` (the only writer) to
``reports/numbers/<experiment>.json``; ``load_all`` merges them for the site.  One file per
experiment because DVC stages cannot share an output.

An entry (``Number``) carries: a ``key`` that is stable across runs (derived from the
configuration, never from run ids: see ``make_key``), value, unit, n, sd, 95% interval, how it
was computed (``ci_method``: "none: n < 3" / "none" when no interval is given) and the unit of
replication (``replication``: what varied between the n samples: "repetitions of one output",
"prompts", "sessions" ...), the source records (file + line ranges and run ids), the computation (function
name), command(s) (argv lists), toolchain/build, model sha256, host id, measurement time span and
caveat ids.  Pages read numbers only from here (``site`` turns them into ``_variables.yml``).

Every number names its build: ``build`` (one line, ``build_label``: "b11434 (unknown) cpu" for
llama.cpp; the runtime for our own draft-self decoder), ``build_number`` and ``build_commit`` (llama.cpp's;
null where the source does not state them: unknown) and ``toolchain_id`` (the snapshot id; ``unknown:<group>``
for ingested data).  ``publish`` refuses a number without ``build``.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
from dataclasses import dataclass, field, fields
from pathlib import Path

SCHEMA = "benchbook.numbers"
SCHEMA_VERSION = 1
#: A registry key: characters both renderers read literally in ``{{< var KEY >}}`` (no ``.``).
KEY = re.compile(r"[a-z0-9_-]+")
#: Units of quantities that are positive by definition (rates, speed ratios): their interval must be too.
POSITIVE_UNITS = ("tok/s", "×", "MiB/s")


def make_key(*parts) -> str:
    """A stable registry key from configuration parts: lowercase ``[a-z0-9_-]``, parts joined by ``-``.

    Only characters that every renderer reads literally in ``{{< var KEY >}}``: Quarto splits a var
    key at ``.`` and looks up a nested key (``parseOption`` in quarto-cli
    ``src/resources/filters/quarto-pre/options.lua``), so a dot becomes ``_`` like any other character.

    >>> make_key("lb", "SmolLM2-135M-Q4_1", "tg", 32)
    'lb-smollm2-135m-q4_1-tg-32'
    >>> make_key("ds", "coreset0.6")
    'ds-coreset0_6'
    """
    return "-".join(re.sub(r"[^a-z0-9_-]+", "_", str(p).lower()).strip("_") for p in parts)


def make_key_expr(*parts):
    """Vectorized ``make_key`` over Polars expressions/column names (same result per row).

    ``parts`` are expressions, or strings taken as column names; wrap constants in ``pl.lit``.
    """
    import polars as pl

    cleaned = [
        (pl.col(p) if isinstance(p, str) else p)
        .cast(pl.String)
        .str.to_lowercase()
        .str.replace_all(r"[^a-z0-9_-]+", "_")
        .str.strip_chars("_")
        for p in parts
    ]
    return pl.concat_str(cleaned, separator="-")


def line_ranges(lines: list[int]) -> list[list[int]]:
    """Compress sorted-or-not line numbers into inclusive ranges: [3,4,5,9] -> [[3,5],[9,9]]."""
    out: list[list[int]] = []
    for x in sorted(set(int(v) for v in lines)):
        if out and x == out[-1][1] + 1:
            out[-1][1] = x
        else:
            out.append([x, x])
    return out


def row_sources(row: dict) -> list[dict]:
    """``Number.sources`` of a table row that read the lines ``row["lines"]`` of each of ``row["files"]``."""
    return [{"file": str(f), "lines": line_ranges(row["lines"])} for f in row["files"]]


def row_measured(row: dict) -> dict:
    """The ``Number`` fields naming what measured a table row (one configuration of one session):
    ``commands`` (its one ``argv``), ``toolchain_id``, ``model_sha256``, ``host_id``, ``session_id``,
    ``measured_from``/``measured_to`` (its ``started_at``/``ended_at``).  Raises KeyError naming a
    column the row lacks."""
    return {
        "commands": [list(row["argv"])],
        "toolchain_id": row["toolchain_id"],
        "model_sha256": row["model_sha256"],
        "host_id": row["host_id"],
        "session_id": row["session_id"],
        "measured_from": row["started_at"],
        "measured_to": row["ended_at"],
    }


@dataclass
class Number:
    """One published number; see the module docstring for the meaning of each field."""

    key: str
    value: float
    unit: str
    label: str
    n: int
    computation: str
    sd: float | None = None
    ci95: list[float] | None = None
    ci_method: str | None = None
    #: the unit the interval replicates over ("repetitions", "prompts", "sessions"); DESIGN.md "Statistics"
    replication: str | None = None
    sources: list[dict] = field(default_factory=list)  # [{"file": str, "lines": [[a, b], ...]}]
    run_ids: list[str] = field(default_factory=list)
    commands: list[list[str]] = field(default_factory=list)
    toolchain_id: str | None = None
    build: str | None = None
    build_number: int | None = None
    build_commit: str | None = None
    model_sha256: str | None = None
    host_id: str | None = None
    session_id: str | None = None
    measured_from: str | None = None
    measured_to: str | None = None
    caveats: list[str] = field(default_factory=list)
    experiment: str | None = None

    def check(self) -> None:
        """Raise ValueError naming the key when a field is unusable (NaN value, bad interval, no source)."""
        if not isinstance(self.value, (int, float)) or not math.isfinite(self.value):
            raise ValueError(f"number {self.key}: value {self.value!r} is not a finite number")
        if self.ci95 is not None and not (len(self.ci95) == 2 and self.ci95[0] <= self.ci95[1]):
            raise ValueError(f"number {self.key}: ci95 {self.ci95} is not [low, high]")
        if not self.sources and not self.run_ids:
            raise ValueError(f"number {self.key}: no source records; every number must come from raw records")
        if not KEY.fullmatch(self.key):
            raise ValueError(
                f"number {self.key!r}: key must match [a-z0-9_-]+ (a dot is a nested key in "
                "Quarto's var shortcode; build keys with make_key)"
            )
        if self.ci95 is not None and self.unit in POSITIVE_UNITS and not self.ci95[0] > 0:
            raise ValueError(
                f"number {self.key}: ci95 {self.ci95} leaves the domain of a positive value "
                f"{self.value}; fix: a log-scale interval (stats.log_t_interval)"
            )
        if not self.replication:
            raise ValueError(
                f"number {self.key}: no replication; state what varied between its n samples "
                "(publish(..., replication=...) or Number.replication)"
            )
        if not self.build:
            raise ValueError(
                f"number {self.key}: no build; every number names the build that produced it "
                "(numbers.build_of / build_label: llama.cpp build number, commit and backend, or the "
                "runtime of our own decoder)"
            )


def build_of(
    toolchain: dict | None, build_number: int | None = None, build_commit: str | None = None
) -> dict:
    """``{"build", "build_number", "build_commit"}`` for a ``Number`` measured with ``toolchain`` (a
    ``benchbook.toolchain`` snapshot, or None when unknown); a record's own build number/commit win.

    >>> build_of({"build_number": 11434, "build_commit": "unknown", "backend": "cpu"})["build"]
    'b11434 (unknown) cpu'
    """
    tc = toolchain or {}
    number = build_number if build_number is not None else tc.get("build_number")
    commit = build_commit if build_commit is not None else tc.get("build_commit")
    return {
        "build": build_label(number, commit, tc.get("backend")),
        "build_number": number,
        "build_commit": commit,
    }


def build_label(build_number: int | None, build_commit: str | None, backend: str | None = None) -> str:
    """One-line llama.cpp build of a number: ``b11434 (unknown) cpu``; an unknown build number reads
    ``b? (unknown)`` (stated as unknown, never guessed).

    >>> build_label(11434, "unknown", "cpu")
    'b11434 (unknown) cpu'
    >>> build_label(None, None)
    'b? (unknown)'
    """
    number = build_number if build_number is not None else "?"
    return f"b{number} ({build_commit or 'unknown'}) {backend or ''}".strip()


_FIELDS = None


def _as_dict(num: Number) -> dict:
    """``dataclasses.asdict`` without its deep copy (values are JSON-ready already); 10x faster."""
    global _FIELDS
    if _FIELDS is None:
        _FIELDS = [f.name for f in fields(Number)]
    return {k: getattr(num, k) for k in _FIELDS}


def _relative_source(src: dict, root: Path, done: dict[str, str] | None = None) -> dict:
    """``src`` with its ``file`` relative to ``root`` when it lies under it: a registry names files as
    the repository does, never by one machine's absolute path (a clone elsewhere reads the same keys).
    ``done``: file as given -> as written, filled as files are resolved (one resolve per file)."""
    name = src["file"]
    if done is not None and name in done:
        return src if done[name] == name else {**src, "file": done[name]}
    path, out = Path(name), name
    if path.is_absolute() and path.resolve().is_relative_to(root):
        out = str(path.resolve().relative_to(root))
    if done is not None:
        done[name] = out
    return src if out == name else {**src, "file": out}


#: read buffer of ``cited_sha256`` (1 MiB: half the time of the 8 KiB default on a large raw file)
_READ_BUFFER = 1 << 20


def cited_sha256(root: str | Path, numbers) -> dict[str, str | None]:
    """``{file: sha256}`` of the raw lines ``numbers`` cite, per source file (``None``: file missing).

    ``numbers`` are ``Number`` objects or registry entries (dicts).  A file's digest covers the
    union of its cited lines in line order, each as ``<line number>:<bytes of the line>``, so an
    edited or removed cited record changes it while lines appended later (append-only raw data) do
    not.  ``file`` is as the number states it, relative to ``root``.
    """
    wanted: dict[str, set[int]] = {}
    for num in numbers:
        for src in num["sources"] if isinstance(num, dict) else num.sources:
            lines = wanted.setdefault(src["file"], set())
            for first, last in src["lines"]:
                lines.update(range(int(first), int(last) + 1))
    out: dict[str, str | None] = {}
    for name, lines in sorted(wanted.items()):
        path = Path(root) / name
        if not path.is_file():
            out[name] = None
            continue
        digest = hashlib.sha256()
        with path.open("rb", buffering=_READ_BUFFER) as fh:
            for number, line in enumerate(fh, start=1):
                if number in lines:
                    digest.update(b"%d:" % number + line)
        out[name] = digest.hexdigest()
    return out


def _default_root() -> Path:
    from .paths import repo_root

    try:
        return repo_root()
    except FileNotFoundError:
        return Path.cwd()


def publish(
    path: str | Path,
    experiment: str,
    numbers: list[Number],
    *,
    root: str | Path | None = None,
    replication: str | None = None,
) -> Path:
    """Write ``numbers`` as the registry file for ``experiment`` (atomic replace).

    A number without ``replication`` gets ``replication`` (the experiment's usual unit of
    replication); one without an interval and without ``ci_method`` gets "none: n < 3" (n below
    ``stats.MIN_N_INTERVAL``) or "none".

    A source ``file`` given as an absolute path under ``root`` is written relative to it.

    The file also records ``cited_sha256``: the digest of the raw lines the numbers cite, per file
    relative to ``root`` (default: the repository holding the working directory), which the site
    build compares with the raw data it renders against.

    Raises:
        ValueError: a number fails ``Number.check`` or two share a key.
    """
    seen = set()
    base = Path(_default_root() if root is None else root).resolve()
    relative: dict[str, str] = {}
    for num in numbers:
        num.sources = [_relative_source(src, base, relative) for src in num.sources]
        num.experiment = experiment
        num.replication = num.replication or replication
        if num.ci95 is None and num.ci_method is None:
            num.ci_method = "none: n < 3" if num.n < 3 else "none"
        num.check()
        if num.key in seen:
            raise ValueError(f"duplicate number key {num.key} in experiment {experiment}")
        seen.add(num.key)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    entries = {n.key: _as_dict(n) for n in numbers}
    doc = {
        "schema": SCHEMA,
        "schema_version": SCHEMA_VERSION,
        "experiment": experiment,
        "cited_sha256": cited_sha256(_default_root() if root is None else root, numbers),
        "numbers": entries,
    }
    tmp = path.with_suffix(".tmp")
    # one number per line: diff-friendly, and the C JSON encoder (indent= would use the slow Python one)
    head = json.dumps({k: v for k, v in doc.items() if k != "numbers"}, ensure_ascii=False)[:-1]
    body = ",\n".join(
        f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False, allow_nan=False)}" for k, v in entries.items()
    )
    tmp.write_text(f'{head}, "numbers": {{\n{body}\n}}}}\n')
    os.replace(tmp, path)
    return path


def load_all(directory: str | Path) -> dict[str, dict]:
    """Merge every ``*.json`` registry file of ``directory`` into ``{key: entry}``.

    Raises:
        ValueError: a file is not JSON (file:line:column; fix: re-run its report stage), a key
            appears in two files, or a file has another schema.
    """
    merged: dict[str, dict] = {}
    for p in sorted(Path(directory).glob("*.json")):
        try:
            doc = json.loads(p.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError) as e:
            where = f"{p}:{e.lineno}:{e.colno}" if isinstance(e, json.JSONDecodeError) else str(p)
            raise ValueError(
                f"{where}: not a JSON numbers registry ({e}); fix: re-run the report stage that writes "
                f"it (`dvc repro`), or delete {p.name} if no stage writes it"
            ) from None
        if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
            doc = doc if isinstance(doc, dict) else {}
            raise ValueError(f"{p}: not a numbers registry (schema {doc.get('schema')!r})")
        for k, v in doc["numbers"].items():
            if k in merged:
                raise ValueError(f"{p}: number key {k} already published by {merged[k]['experiment']}")
            merged[k] = v
    return merged
