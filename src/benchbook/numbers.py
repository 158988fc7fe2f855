"""The numbers registry: every number a page shows, with its provenance.

Each report stage publishes its numbers through ``publish`` (the only writer) to
``reports/numbers/<experiment>.json``; ``load_all`` merges them for the site.  One file per
experiment because DVC stages cannot share an output.

An entry (``Number``) carries: a ``key`` that is stable across runs (derived from the
configuration, never from run ids: see ``make_key``), value, unit, n, sd, 95% interval, how it
was computed (``ci_method``: "none: n < 3", or "none: <why>" when no interval is given) and the unit of
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
import re
from dataclasses import dataclass, field, fields
from enum import StrEnum
from pathlib import Path

from benchbook import atomicfile

from .paths import public_path
from .stats import MIN_N_INTERVAL

SCHEMA = "benchbook.numbers"
SCHEMA_VERSION = 1
#: A registry key: characters both renderers read literally in ``{{< var KEY >}}`` (no ``.``).
KEY = re.compile(r"[a-z0-9_-]+")


class Unit(StrEnum):
    """Every unit a published number may carry: one spelling per quantity, declared once with its
    meaning (the site's unit legend, ``sitepages.measured_md``, shows ``meaning``).  ``positive``: a rate
    or a ratio of positive quantities, never 0 or below, so its interval is on the log scale
    (``stats.log_t_interval``) and its lower end above 0 (``Number.check``).  A member is a ``str``: a
    report writes ``unit=Unit.SPEEDUP`` and the registry holds ``"×"``.

    >>> Unit.SPEEDUP == "×", Unit.SPEEDUP.positive, UNITS["fraction"].positive
    (True, True, False)
    """

    meaning: str
    positive: bool

    def __new__(cls, spelling: str, meaning: str, positive: bool = False) -> Unit:
        unit = str.__new__(cls, spelling)
        unit._value_ = spelling
        unit.meaning = meaning
        unit.positive = positive
        return unit

    # rates
    TOK_S = (
        "tok/s",
        "tokens per second: the mean of per-repetition rates (llama-bench's avg_ts definition); "
        "prefill (pp) and decode (tg) never mixed",
        True,
    )
    MIB_S = ("MiB/s", "mebibytes per second", True)
    GB_S = ("GB/s", "gigabytes per second", True)
    # ratios of positive quantities
    SPEEDUP = (
        "×",
        "a ratio of two times or rates of the same session, host and build: a speedup is baseline time ÷ "
        "configuration time (above 1 is faster); c and r(n) are a pass's time ÷ one target decode step",
        True,
    )
    TAU = (
        "tok/step",
        "τ, tokens committed per verify step, counting the verifier's own token (1 = plain decoding)",
        True,
    )
    TOKENS_PER_PASS = (
        "tokens/pass",
        "tokens committed per forward pass (draft and verify passes both counted)",
        True,
    )
    EXPERT_LOADS_PER_TOKEN = (
        "expert loads/token",
        "distinct experts read per generated token, summed over layers and passes",
        True,
    )
    EXPERTS_PER_LAYER = ("experts/layer", "distinct experts per layer in one forward pass", True)
    # signed or bounded quantities
    FRACTION = (
        "fraction",
        "a fraction: α (accepted ÷ drafted), a share of runs or of output, or a residual, cost model ÷ "
        "measured speedup − 1 (0: the model is exact; +0.2: it promises 20% more than was measured)",
    )
    PERCENT = ("%", "percent")
    SPEEDUP_TREND = (
        "× per repetition",
        "change of the speedup from one repetition to the next (least-squares slope over repetitions: "
        "state carried between requests)",
    )
    MIB_PER_DRAFT_TOKEN = (
        "MiB/draft token",
        "memory per extra draft token (least-squares slope of peak RSS over n_max; may be negative)",
    )
    DRAFTED_PER_STEP = ("drafted/step", "k, tokens drafted per verify step (0: nothing drafted)")
    DECODE_STEPS = (
        "decode steps",
        "a time in target decode steps: a per-step overhead, the verify step's excess over llama-bench's "
        "(k+1)-token pass (may be negative)",
    )
    COEFFICIENT = ("coefficient", "a fitted dimensionless coefficient (β: per-step overhead per (k+1)·c)")
    # times, sizes, counts
    MIB = ("MiB", "mebibytes (2^20 bytes): peak memory")
    MS = ("ms", "milliseconds")
    S = ("s", "seconds")
    NATS = ("nats", "cross-entropy loss in nats")
    PARAMETERS = ("parameters", "model parameters")
    STEPS = ("steps", "training steps")
    BLOCKS = ("blocks", "transformer blocks")


#: Each unit by its spelling (``UNITS["×"] is Unit.SPEEDUP``).
UNITS: dict[str, Unit] = {u.value: u for u in Unit}
#: Units of quantities that are positive by definition (rates, ratios): their interval must be too.
POSITIVE_UNITS = tuple(u.value for u in Unit if u.positive)
#: ``ci_method`` prefix of a number published without an interval: what follows it says why (``publish``
#: refuses a bare "none" from ``MIN_N_INTERVAL`` samples: a reader cannot tell an interval that does not
#: exist from one a report forgot)
NO_INTERVAL = "none: "
#: ``ci_method`` of a number pooled over its requests (totals divided: α = Σ accepted ÷ Σ drafted, τ,
#: a pooled rate) or built from cost-model terms (medians of the session's cost runs): one estimate,
#: not a mean of replicates, so no replicate interval exists for it
NO_INTERVAL_POOLED = "none: pooled over its requests or built from cost-model terms, not a mean of replicates"
#: the same for draft-self numbers, pooled over the prompts and repetitions of a configuration
NO_INTERVAL_POOLED_RUNS = (
    "none: pooled over its prompts and repetitions (totals divided), not a mean of replicates"
)
#: a mean over the forward passes of its runs: the passes are steps of one decoding, not replicates
NO_INTERVAL_PASSES = (
    "none: a mean over the passes of its runs, which are steps of one decoding, not replicates"
)
#: the cost model's gap to the measured speedup (measured ÷ predicted − 1, paired per prompt): a check of
#: the model, stated as a point; the measured speedup beside it carries the interval over prompts
NO_INTERVAL_MODEL_GAP = (
    "none: a check of the cost model against the measured speedup (paired per prompt), stated as a "
    "point; the speedup's interval over prompts is published with the speedup"
)
#: a least-squares slope (speedup over repetitions, memory over n_max): it describes the points it is
#: fitted to, a handful of configurations or repetitions of one server, not a mean of replicates
NO_INTERVAL_SLOPE = (
    "none: a least-squares slope over the points it is fitted to (repetitions or configurations of one "
    "session), not a mean of replicates"
)
#: a rate as a share of a copy bandwidth measured once: the bandwidth record is one measurement (n = 1)
#: whose spread is unknown, so the share has no interval
NO_INTERVAL_ROOFLINE = "none: divided by a device copy bandwidth measured once (one record, spread unknown)"


#: Spellings registries used before ``Unit``, each with the member that replaced it (for error messages).
OLD_SPELLINGS = {
    "x": Unit.SPEEDUP,
    "": Unit.FRACTION,
    "fraction of runs": Unit.FRACTION,
    "tokens": Unit.TAU,
    "tokens/verify step": Unit.TAU,
    "ms/step": Unit.MS,
    "params": Unit.PARAMETERS,
}


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
        """The publish checks one number must pass on its own (``publish`` adds those that read the cited
        records, ``check_citation``): a finite value; a ``Unit`` spelling; a key ``make_key`` can build;
        an interval only from ``MIN_N_INTERVAL`` samples, finite, ``[low, high]``, with its
        ``ci_method`` and ``replication``, on the log scale and above 0 for a positive unit (a rate or a
        ratio); any number from ``MIN_N_INTERVAL`` samples without an interval says why (``ci_method``
        "none: <why>", ``NO_INTERVAL_*``; a bare "none" is refused); a source and a command; a build.

        Raises:
            ValueError: naming the key, what is wrong and the fix.
        """
        if not isinstance(self.value, (int, float)) or not math.isfinite(self.value):
            raise ValueError(f"number {self.key}: value {self.value!r} is not a finite number")
        if self.unit not in UNITS:
            said = OLD_SPELLINGS.get(self.unit)
            raise ValueError(
                f"number {self.key}: unit {self.unit!r} is not a numbers.Unit; fix: "
                + (f"Unit.{said.name} ({said.value!r})" if said is not None else "add it to numbers.Unit")
            )
        positive = UNITS[self.unit].positive
        if self.ci95 is not None:
            if not (len(self.ci95) == 2 and all(math.isfinite(v) for v in self.ci95)):
                raise ValueError(f"number {self.key}: ci95 {self.ci95} is not [low, high] of finite numbers")
            if not self.ci95[0] <= self.ci95[1]:
                raise ValueError(f"number {self.key}: ci95 {self.ci95} is not [low, high]")
            if self.n < MIN_N_INTERVAL:
                raise ValueError(
                    f"number {self.key}: an interval from n = {self.n} (below {MIN_N_INTERVAL}: the t "
                    "quantile makes it meaningless); fix: ci95=None"
                )
            if not self.ci_method or self.ci_method.startswith("none"):
                raise ValueError(
                    f"number {self.key}: ci95 {self.ci95} without its method; fix: ci_method naming it "
                    '("student-t on the log scale (delta method), n >= 3 over ...")'
                )
        if not self.sources and not self.run_ids:
            raise ValueError(f"number {self.key}: no source records; every number must come from raw records")
        if not KEY.fullmatch(self.key):
            raise ValueError(
                f"number {self.key!r}: key must match [a-z0-9_-]+ (a dot is a nested key in "
                "Quarto's var shortcode; build keys with make_key)"
            )
        if self.ci95 is not None and positive and not self.ci95[0] > 0:
            raise ValueError(
                f"number {self.key}: ci95 {self.ci95} leaves the domain of a positive value "
                f"{self.value}; fix: a log-scale interval (stats.log_t_interval)"
            )
        if self.ci95 is not None and positive and "log" not in str(self.ci_method).lower():
            raise ValueError(
                f"number {self.key}: a {self.unit} interval by {self.ci_method!r}, not on the log scale; "
                "fix: a log-scale interval (stats.log_t_interval, stats.paired_ratio_interval) named so "
                "in ci_method"
            )
        if self.ci95 is None and self.n >= MIN_N_INTERVAL and not str(self.ci_method).startswith(NO_INTERVAL):
            fix = "a log-scale interval (stats.log_t_interval)" if positive else "its interval"
            raise ValueError(
                f"number {self.key}: a {self.unit} from n = {self.n} without an interval and without saying "
                f"why (ci_method {self.ci_method!r}); fix: {fix}, or ci_method = a numbers.NO_INTERVAL_* "
                'reason ("none: <why>")'
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
        if not self.commands or not all(self.commands):
            raise ValueError(
                f"number {self.key}: no command; every number names the command(s) that measured the "
                "records it cites (a record's argv, else the command of its session: `dvc repro <stage>` "
                "or `python -m benchbook.experiments <name>`)"
            )


def check_citation(num: Number, cited: dict[str, dict[int, bytes] | None]) -> None:
    """Whether ``num`` names the runs of the records it cites: its ``run_ids`` are exactly the
    ``run_id`` of every cited record that has one (``cited``: ``cited_lines``, file -> line -> bytes;
    a file that is not there cannot be checked, and then a number without run ids fails).  Records
    without a ``run_id`` (a training record, the checkpoint manifest) add none.

    Raises:
        ValueError: naming the key, the run ids missing or not cited, and the fix.
    """
    read: set[str] = set()
    complete = True
    for src in num.sources:
        lines = cited.get(src["file"])
        if lines is None:
            complete = False
            continue
        for first, last in src["lines"]:
            read.update(run for i in range(int(first), int(last) + 1) if (run := _run_id(lines.get(i))))
    missing = read - set(num.run_ids)
    if missing:
        raise ValueError(
            f"number {num.key}: cites records of {len(missing)} run(s) its run_ids leave out "
            f"({', '.join(sorted(missing)[:3])}); fix: run_ids = the run ids of every record it cites"
        )
    stray = set(num.run_ids) - read
    if complete and stray:
        raise ValueError(
            f"number {num.key}: run_ids {', '.join(sorted(stray)[:3])} belong to none of the records it "
            "cites; fix: cite the records of those runs in sources (or drop the ids)"
        )
    if not num.run_ids and not complete:
        raise ValueError(
            f"number {num.key}: no run ids, and its cited files are not there to show their records "
            "have none; fix: run_ids = the run ids of the records it cites"
        )


def _run_id(line: bytes | None) -> str | None:
    """The ``run_id`` of a cited JSONL line (None: no line, not a JSON object, or no run id)."""
    if not line:
        return None
    try:
        rec = json.loads(line)
    except ValueError:
        return None
    return rec.get("run_id") if isinstance(rec, dict) else None


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


def cited_lines(root: str | Path, numbers) -> dict[str, dict[int, bytes] | None]:
    """``{file: {line number: bytes of the line}}`` of the raw lines ``numbers`` cite (``None``: the
    file is missing), each file read once.  ``numbers``: ``Number`` objects or registry entries (dicts);
    ``file`` as the number states it, relative to ``root``."""
    wanted: dict[str, set[int]] = {}
    for num in numbers:
        for src in num["sources"] if isinstance(num, dict) else num.sources:
            lines = wanted.setdefault(src["file"], set())
            for first, last in src["lines"]:
                lines.update(range(int(first), int(last) + 1))
    out: dict[str, dict[int, bytes] | None] = {}
    for name, lines in sorted(wanted.items()):
        path = Path(root) / name
        if not path.is_file():
            out[name] = None
            continue
        got: dict[int, bytes] = {}
        with path.open("rb", buffering=_READ_BUFFER) as fh:
            for number, line in enumerate(fh, start=1):
                if number in lines:
                    got[number] = line
        out[name] = got
    return out


def cited_sha256(root: str | Path, numbers, cited: dict[str, dict[int, bytes] | None] | None = None) -> dict:
    """``{file: sha256}`` of the raw lines ``numbers`` cite, per source file (``None``: file missing).

    ``numbers`` are ``Number`` objects or registry entries (dicts).  A file's digest covers the
    union of its cited lines in line order, each as ``<line number>:<bytes of the line>``, so an
    edited or removed cited record changes it while lines appended later (append-only raw data) do
    not.  ``file`` is as the number states it, relative to ``root``.  ``cited``: ``cited_lines(root,
    numbers)`` when the caller has read them already.
    """
    out: dict[str, str | None] = {}
    for name, got in (cited_lines(root, numbers) if cited is None else cited).items():
        if got is None:
            out[name] = None
            continue
        digest = hashlib.sha256()
        for number, line in sorted(got.items()):
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
    ``stats.MIN_N_INTERVAL``); from ``MIN_N_INTERVAL`` samples the report says why it has none
    (``Number.check`` refuses a bare "none").

    A source ``file`` given as an absolute path under ``root`` is written relative to it.

    Every number is checked before anything is written (the generic publish checks): ``Number.check``
    (finite value, ``Unit``, interval rules, replication, build, command) and ``check_citation`` (its
    run ids are those of the records it cites).

    The file also records ``cited_sha256``: the digest of the raw lines the numbers cite, per file
    relative to ``root`` (default: the repository holding the working directory), which the site
    build compares with the raw data it renders against.

    Raises:
        ValueError: a number fails ``Number.check`` or ``check_citation``, or two share a key (the
            message names the key and the fix; nothing is written).
    """
    seen = set()
    base = Path(_default_root() if root is None else root).resolve()
    relative: dict[str, str] = {}
    for num in numbers:
        num.sources = [_relative_source(src, base, relative) for src in num.sources]
        # no folder of the measuring machine leaves it: <cache>/…, repository-relative, or a file's name
        num.commands = [[public_path(str(a), base) for a in c] for c in num.commands]
        num.experiment = experiment
        num.replication = num.replication or replication
        if num.ci95 is None and num.ci_method is None and num.n < MIN_N_INTERVAL:
            num.ci_method = NO_INTERVAL + "n < 3"
        num.check()
        if num.key in seen:
            raise ValueError(f"duplicate number key {num.key} in experiment {experiment}")
        seen.add(num.key)
    cited = cited_lines(base, numbers)
    for num in numbers:
        check_citation(num, cited)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    entries = {n.key: _as_dict(n) for n in numbers}
    doc = {
        "schema": SCHEMA,
        "schema_version": SCHEMA_VERSION,
        "experiment": experiment,
        "cited_sha256": cited_sha256(base, numbers, cited),
        "numbers": entries,
    }
    # one number per line: diff-friendly, and the C JSON encoder (indent= would use the slow Python one)
    head = json.dumps({k: v for k, v in doc.items() if k != "numbers"}, ensure_ascii=False)[:-1]
    body = ",\n".join(
        f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False, allow_nan=False)}" for k, v in entries.items()
    )
    atomicfile.write_text(path, f'{head}, "numbers": {{\n{body}\n}}}}\n')
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
