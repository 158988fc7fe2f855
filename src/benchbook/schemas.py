"""Every record kind benchbook writes or reads, declared once (DESIGN.md, "Records").

A kind (``Kind``) is a schema name, its current version and a table of ``Field`` s: name, Polars
type, unit, required or optional, the version that added it and what it means (llama.cpp's own
field names are kept for llama.cpp's values).  Everything else is derived from that table:

* ``polars_schema(kind)``: the dict for ``pl.read_ndjson(schema=...)`` / ``str.json_decode`` reads
  (nested objects as ``pl.Struct``, lists as ``pl.List``).  A free-form object (a map whose keys are
  data, e.g. ``files_sha256``, or an experiment's own ``config``) has no Polars type: it is kept in
  the record and checked on write, but not read by Polars.
* ``checks(kind)``: vectorized checks ``{name: (ok_expr, message)}`` in the shape
  ``jsonl.validate`` takes, so its ``file:line: field 'x' <message>`` errors stay as they are
  (``only``/``members``: just the fields a reader decodes).
* ``build(kind, **fields) -> dict``: what writers append.  It fills ``schema``/``schema_version``
  (and ``event`` for the session kinds) and refuses a missing required field, an unknown field (unless
  the kind, or that nested object, is declared open: llama-bench's and llama-server's own dicts) and
  a value of the wrong type, each with a ``RecordError`` naming the field and the fix.
* ``check_kinds(frame)`` / ``check_record(rec, where)``: a record of an unknown kind, or of a version
  newer than this code knows, is an error naming ``file:line``; older versions are upgraded by
  ``migrations`` (``CURRENT`` and ``derived_migrations()`` below are what it registers).
  ``records.RecordWriter``/``iter_records`` apply the same kind/version check to every line.
* ``declare(kind)``: an experiment's own kind, declared with the same vocabulary in its package
  (``experiments/template``), joins ``KINDS``/``CURRENT``.

Reads stay vectorized: nothing here builds a Python object per record on the read path; the
declaration is consulted once per frame.

One llama-bench row kind.  Every llama-bench output row, whichever experiment ran it and native or
ingested, is a ``benchbook.llama_bench`` record (v3): ``experiment`` and the fields of its use tell them
apart (``phase`` on a sweep's rows, ``role`` target | draft on a cost model's, offload's point:
``n_cpu_moe``, ``placement``, ``decode_bytes``, ``ballast``, ``budget_free_mib``), each field required
only on the rows of the experiments that carry it (``Field.experiments``).  The kinds it replaced
(``benchbook.speculative_cost``, ``benchbook.spec_depth.bench``, ``benchbook.offload``: committed
records, written by no runner now) stay declared as they were written and are read as it
(``migrations.RETIRED``; ``benchrows`` reads them all: ``LLAMA_BENCH_SCHEMAS``).

Native and ingested records are the same kinds.  ``benchbook.llama_bench`` v2 and
``benchbook.speculative_request`` v2 carry ``origin``: ``"native"`` (our runners; v1 records are
native by migration) or ``"ingested:<sha256 of the source file>"``, with ``source_file``,
``source_line``, ``source_format`` and ``source_sha256`` pointing into the source.  Fields marked
``required="native"`` (argv, load snapshots, run_key, raw samples...) must be present on native
records and may be absent on ingested ones.  ``benchbook.ingest.speculative_simple`` (a
``llama-speculative-simple`` summary) has no native counterpart and stays a kind of its own.

Unknown.  A fact the source does not state is *unknown*, a value of its own:

* identifiers (``host_id``, ``session_id``, ``toolchain_id``, ``model_sha256``) hold
  ``unknown(group)`` = ``"unknown:<group>"``, where ``group`` is the first 16 hex of the source file's
  sha256 (or a name the user gives to say that several files share a host).  A grouping on these
  columns therefore never pools unknown with unknown across source files, and ``is_unknown(col)``
  lets a caveat treat the value as unknown, never as "different";
* numbers the source does not state (``build_number``, n, ``samples_ns``, ``started_at``...) are
  null (absent).  A llama-bench row without ``samples_ns`` (markdown, CSV) keeps ``avg_ts`` and
  ``stddev_ts`` as stated: n is unknown and no interval is formed; no samples are invented.

Units are in the names (``_ns``, ``_ms``, ``_s``, ``_tps``, ``_bytes``, ``_mib``, ``_mhz``, ``_pct``)
except for llama.cpp's own names (``avg_ts``, ``model_size``, ``predicted_per_second``...), which
keep upstream's spelling and say their unit in ``Field.unit``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import polars as pl

#: a Polars type as the declarations name it: a class (``pl.String``) or an instance (``pl.List(S)``);
#: the public spelling of polars' own ``PolarsDataType``
PolarsDataType = pl.DataType | type[pl.DataType]


class RecordError(ValueError):
    """A raw file holds a line that is not a valid record; the message names file:line and the fix.

    Defined here, the lowest module of the records contract, so that ``records`` (which re-exports
    it) can check every record it reads or writes against these declarations without an import cycle."""


S, Int, F, B = pl.String, pl.Int64, pl.Float64, pl.Boolean
L = pl.List

NATIVE = "native"
UNKNOWN_PREFIX = "unknown:"
#: unit -> the suffix a field name carries (DESIGN.md, "Records")
UNITS = {
    "ns": "_ns",
    "ms": "_ms",
    "s": "_s",
    "tps": "_tps",
    "bytes": "_bytes",
    "mib": "_mib",
    "mhz": "_mhz",
    "pct": "_pct",
}


class SchemaError(RecordError):
    """A record of an unknown kind, of a version newer than this code, or not matching its declaration;
    the message names file:line (or the field) and the fix."""


@dataclass(frozen=True, eq=False)
class Field:
    """One field of a kind (or of a nested object).

    ``dtype``: the Polars type; derived from ``members`` for a nested object (``many``: a list of
    them); None for a free-form value (``py`` says which JSON type: dict or list), not read by Polars.
    ``required``: True (key present, value non-null unless ``nullable``), False (may be absent or null),
    or ``"native"`` (required on native records only).  ``experiments``: the requirement holds only on
    records whose ``experiment`` is one of these (empty: on every record); a field a kind's uses do not
    all carry (``benchbook.llama_bench``: ``phase`` on sweeps, ``role`` on cost models).  ``since``: the
    kind version that added it;
    ``backfill``: the value rows of older versions get on upgrade (None: null).  ``open``: a nested
    object that may hold keys beyond ``members`` (a tool's own dict).  ``name_kept``: a name that
    does not end in its unit, kept because it is llama.cpp's (or psutil's) own or committed data has it.
    """

    name: str
    dtype: PolarsDataType | None
    meaning: str
    unit: str | None = None
    required: bool | str = True
    nullable: bool = False
    since: int = 1
    backfill: object = None
    members: tuple[Field, ...] = ()
    many: bool = False
    open: bool = False
    py: type | None = None
    name_kept: bool = False
    experiments: tuple[str, ...] = ()


def obj(
    name: str,
    meaning: str,
    *members: Field,
    many: bool = False,
    open: bool = False,
    required: bool | str = True,
    nullable: bool = False,
    since: int = 1,
    experiments: tuple[str, ...] = (),
) -> Field:
    """A nested object field whose Polars type is the Struct of its members (a List of it when ``many``)."""
    st = pl.Struct({m.name: m.dtype for m in members if m.dtype is not None})
    return Field(
        name,
        L(st) if many else st,
        meaning,
        required=required,
        nullable=nullable,
        since=since,
        members=members,
        many=many,
        open=open,
        experiments=experiments,
    )


def free(name: str, meaning: str, py: type = dict, **kw) -> Field:
    """A free-form JSON value (keys are data, or shape varies by experiment): kept, not read by Polars."""
    return Field(name, None, meaning, py=py, **kw)


def opt(name: str, dtype: PolarsDataType | None, meaning: str, unit: str | None = None, **kw) -> Field:
    return Field(name, dtype, meaning, unit, required=False, **kw)


def native(name: str, dtype: PolarsDataType, meaning: str, unit: str | None = None, **kw) -> Field:
    return Field(name, dtype, meaning, unit, required=NATIVE, **kw)


@dataclass(frozen=True, eq=False)
class Kind:
    """One record kind: ``schema`` + ``version`` + fields.  ``event`` discriminates the two kinds sharing
    ``benchbook.session``; ``open``: top-level fields beyond the declaration are allowed; ``document``:
    a whole JSON file rather than JSONL lines; ``checks``: value checks beyond presence,
    ``(name, lambda: ok_expr, message)``
    (message None: the generated one); ``manual_steps``: versions whose upgrade is hand-written in
    ``migrations`` (not derivable by backfill); ``written_by``/``read_by``: where, today."""

    key: str
    schema: str
    version: int
    meaning: str
    fields: tuple[Field, ...]
    event: str | None = None
    open: bool = False
    document: bool = False
    checks: tuple[tuple[str, Callable[[], pl.Expr], str | None], ...] = ()
    manual_steps: tuple[int, ...] = ()
    written_by: tuple[str, ...] = ()
    read_by: tuple[str, ...] = ()

    def field(self, name: str) -> Field:
        return next(f for f in self.fields if f.name == name)

    @property
    def has_origin(self) -> bool:
        return any(f.name == "origin" for f in self.fields)


# ---- shared pieces -------------------------------------------------------------------------------


def _load(name: str, when: str, required: bool | str = True, experiments: tuple[str, ...] = ()) -> Field:
    return obj(
        name,
        f"host load {when} (provenance.load_snapshot)",
        Field("loadavg", L(F), "1, 5, 15 min load averages"),
        Field("governor", S, "cpufreq scaling governor; null where unreadable", nullable=True),
        Field("cpu_mhz", Int, "current CPU clock; null where unreadable", "mhz", nullable=True),
        obj(
            "top_processes",
            "busiest other processes by CPU percent since the previous snapshot",
            Field("pid", Int, "process id"),
            Field("name", S, "process name"),
            Field("cpu_percent", F, "CPU percent (100 = one core)", "pct", name_kept=True),
            many=True,
        ),
        required=required,
        experiments=experiments,
    )


#: the host-load snapshot field (``provenance.load_snapshot``) for an experiment's own record kind
load_field = _load


def _git() -> tuple[Field, ...]:
    return (
        Field("git_commit", S, "benchbook's git HEAD; null outside a git checkout", nullable=True),
        Field(
            "git_dirty",
            B,
            "code or params differ from HEAD (data outputs excluded); null outside git",
            nullable=True,
        ),
    )


def _origin(since: int) -> tuple[Field, ...]:
    return (
        Field(
            "origin",
            S,
            "'native' (our runner) or 'ingested:<sha256 of the source file>'",
            since=since,
            backfill=NATIVE,
        ),
        opt("source_file", S, "ingested: the source file as given to `benchbook ingest`", since=since),
        opt(
            "source_line",
            Int,
            "ingested: 1-based line of the row (first line of a request) in source_file",
            since=since,
        ),
        opt(
            "source_format",
            S,
            "ingested: json | jsonl | csv | md | sql | sweep-bench | compare | server-log | spec-simple",
            since=since,
        ),
        opt("source_sha256", S, "ingested: sha256 of the source file", since=since),
        opt("source_text", S, "ingested: the raw source line (first 2000 characters)", since=since),
        free(
            "uninterpreted",
            "ingested: every source field benchbook did not interpret, name -> raw value",
            required=False,
            since=since,
        ),
        opt(
            "ingest_notes",
            L(S),
            "ingested: what ingest did to the values (cells filled, spellings read)",
            since=since,
        ),
        opt(
            "inconsistent",
            L(S),
            "ingested: derived values of the source line that disagree with their own inputs (flagged, kept)",
            since=since,
        ),
        free(
            "compare",
            "ingested comparison table row (compare-llama-bench): labels, this value's label, stated and "
            "recomputed ratio",
            required=False,
            since=since,
        ),
    )


_NEED = "is missing or of the wrong type; fix: the record is not {schema} v{version} - re-run or repair it"

#: llama-bench's own row (``tools/llama-bench/llama-bench.cpp``, ``test::get_fields``, b11434); open:
#: rows of other builds carry other fields (``use_mmap``, per-backend booleans: see migrations).
LLAMA_BENCH_ROW = (
    native(
        "build_commit",
        S,
        "llama.cpp commit llama-bench was built from; ingested: null = unknown",
        name_kept=True,
    ),
    native(
        "build_number",
        Int,
        "llama.cpp build number (b11434 -> 11434); ingested: null = unknown (a fork's counter: "
        "fork_build_number)",
        name_kept=True,
    ),
    opt("cpu_info", S, "CPU name as llama-bench saw it"),
    opt("gpu_info", S, "GPU names as llama-bench saw them"),
    opt("backends", S, "comma-joined ggml backends (v2 field set)"),
    opt("model_filename", S, "GGUF path given with -m"),
    opt("model_type", S, "llama.cpp model description"),
    opt("model_size", Int, "model tensor bytes", "bytes", name_kept=True),
    opt("model_n_params", Int, "model parameter count"),
    opt("n_batch", Int, "-b"),
    opt("n_ubatch", Int, "-ub"),
    opt("n_threads", Int, "-t"),
    opt("cpu_mask", S, "-C"),
    opt("cpu_strict", B, "--cpu-strict"),
    opt("poll", Int, "--poll"),
    opt("type_k", S, "-ctk"),
    opt("type_v", S, "-ctv"),
    opt("n_gpu_layers", Int, "-ngl"),
    opt("n_cpu_moe", Int, "-ncmoe"),
    opt("split_mode", S, "-sm"),
    opt("main_gpu", Int, "-mg"),
    opt("no_kv_offload", B, "-nkvo"),
    opt("flash_attn", Int, "-fa: 1 on, 0 off, -1 auto"),
    opt("devices", S, "-dev"),
    opt("tensor_split", S, "-ts"),
    opt("tensor_buft_overrides", S, "-ot"),
    opt("load_mode", S, "mmap | none ... (v2 field set; older builds: use_mmap)"),
    opt("lazy_mode", S, "lazy load mode"),
    opt("embeddings", B, "-embd"),
    opt("no_op_offload", Int, "-nopo"),
    opt("no_host", B, "--no-host"),
    opt("repack", B, "--repack"),
    opt("fit_target", Int, "fit target"),
    opt("fit_min_ctx", Int, "fit minimum context"),
    Field("n_prompt", Int, "prompt tokens of the test (-p); 0 for a tg test", name_kept=True),
    Field("n_gen", Int, "generated tokens of the test (-n); 0 for a pp test", name_kept=True),
    opt("n_depth", Int, "tokens already in the KV cache (-d)"),
    opt("test_time", S, "when the test ran (ISO 8601)"),
    opt("avg_ns", Int, "mean of samples_ns", "ns"),
    opt("stddev_ns", Int, "sd of samples_ns", "ns"),
    Field("avg_ts", F, "mean of per-repetition rates 1e9*(n_prompt+n_gen)/samples_ns", "tps", name_kept=True),
    opt("stddev_ts", F, "sample sd of the per-repetition rates", "tps", name_kept=True),
    native(
        "samples_ns", L(Int), "per-repetition wall time; absent in markdown/CSV sources (n unknown)", "ns"
    ),
    opt("samples_ts", L(F), "per-repetition rates", "tps", name_kept=True),
)


def _is_native() -> pl.Expr:
    """True on native rows (v1 rows have no origin column value: native)."""
    return pl.col("origin").fill_null(NATIVE) == NATIVE


def _lb(field: str) -> pl.Expr:
    return pl.col("llama_bench").struct.field(field)


def _samples_ok() -> pl.Expr:
    s = _lb("samples_ns")
    # an element that is null, not an integer or out of the i64 range decodes as null: list.min skips
    # nulls, so without the null count such an element would silently change n or the mean
    return (s.list.len() > 0) & (s.list.drop_nulls().list.len() == s.list.len()) & (s.list.min() > 0)


#: the experiments whose llama-bench rows are a configured sweep: ``phase`` and the llama-bench arguments
#: in ``config`` (``LLAMA_BENCH_CONFIG``), each row a test of the sweep
SWEEPS = ("llama_bench", "offload")
#: the experiments whose llama-bench rows are a speculative cost model's (``costmodel.bench_terms``): ``role``
#: target | draft, the target's pp and tg tests and each draft's tg test, measured in the session
COST_MODELS = ("speculative", "spec_depth")


def _of(experiments: tuple[str, ...]) -> pl.Expr:
    """True on records of one of ``experiments`` (a null ``experiment`` counts as one: checked)."""
    return pl.col("experiment").is_in(list(experiments)).fill_null(True)


_SAMPLES_NS_MSG = (
    "must be a non-empty list of positive nanoseconds (llama-bench's raw samples; every element an "
    "integer > 0, none null); fix: run llama-bench with -o jsonl, whose rows carry samples_ns"
)


def _load_ok(name: str) -> pl.Expr:
    return (pl.col(name).struct.field("loadavg").list.len() >= 1) | ~_is_native()


_LLAMA_BENCH_CHECKS = (
    (
        "phase",
        lambda: (
            pl.col("phase").is_in(["cold", "warm"])
            | (pl.col("phase").is_null() & (~_is_native() | ~_of(SWEEPS)))
        ),
        "must be 'cold' or 'warm'",
    ),
    ("llama_bench.n_prompt", lambda: _lb("n_prompt") >= 0, "must be an integer >= 0"),
    ("llama_bench.n_gen", lambda: _lb("n_gen") >= 0, "must be an integer >= 0"),
    (
        "llama_bench.n_prompt+n_gen",
        lambda: _lb("n_prompt") + _lb("n_gen") > 0,
        "must be > 0 (a test of no tokens)",
    ),
    (
        "llama_bench.samples_ns",
        lambda: _samples_ok() | (~_is_native() & _lb("samples_ns").is_null()),
        _SAMPLES_NS_MSG,
    ),
    ("llama_bench.avg_ts", lambda: _lb("avg_ts") > 0, "must be a positive float (llama-bench avg_ts)"),
    ("llama_bench.build_number", lambda: _lb("build_number").is_not_null() | ~_is_native(), None),
    (
        "load_start.loadavg",
        lambda: _load_ok("load_start") | (pl.col("load_start").is_null() & ~_of(("llama_bench",))),
        None,
    ),
    (
        "load_end.loadavg",
        lambda: _load_ok("load_end") | (pl.col("load_end").is_null() & ~_of(("llama_bench",))),
        None,
    ),
    # v3: the checks of the kinds it replaced (``benchbook.offload``: its sweep rows read samples_ts)
    ("status", lambda: pl.col("status") == "ok", "must be 'ok' (failures are benchbook.run_failed)"),
    (
        "n_cpu_moe",
        lambda: pl.col("n_cpu_moe").is_null() | (pl.col("n_cpu_moe") >= 0),
        "must be an integer >= 0",
    ),
    (
        "llama_bench.samples_ts",
        lambda: (
            ((_lb("samples_ts").list.len() > 0) & (_lb("samples_ts").list.min() > 0))
            | (_lb("samples_ts").is_null() & ~(_is_native() & _of(("offload",))))
        ),
        "must be a non-empty list of positive rates (llama-bench -o jsonl); fix: re-run the point",
    ),
)

_RUN = (
    Field(
        "run_id", S, "one invocation (llama-bench) or request (server); 32 hex; ingested: hash of source+line"
    ),
    native("run_key", S, "16 hex: config + model + toolchain + host; a resumed session skips completed keys"),
    Field("session_id", S, "one invocation of a measurement stage; ingested: unknown:<group>"),
    Field("experiment", S, "llama_bench | speculative | draftself"),
    Field("host_id", S, "benchbook.host snapshot id; ingested: unknown:<group>"),
    Field("toolchain_id", S, "benchbook.toolchain snapshot id; ingested: unknown:<group>"),
)

#: the llama-bench arguments of a run's ``config`` (the llama_bench kind; experiments that drive
#: llama-bench, e.g. offload, add their own fields after these)
LLAMA_BENCH_CONFIG = (
    Field("n_prompt", Int, "-p"),
    Field("n_gen", Int, "-n"),
    Field("n_depth", Int, "-d"),
    Field("repetitions", Int, "-r"),
    Field("threads", Int, "-t"),
    Field("n_gpu_layers", Int, "-ngl"),
    Field("flash_attn", S, "-fa as given (on|off|auto)"),
    Field("model_id", S, "registry id"),
)

_MODEL_ID = Field("model_id", S, "registry id; ingested: llama-bench's model_filename")
_MODEL_SHA256 = Field("model_sha256", S, "sha256 of the GGUF; ingested: unknown:<group>")
_ARGV = native("argv", L(S), "exact argv, binary by name")
_ROWS = (
    native("row_index", Int, "0-based index of this row among the invocation's rows"),
    native("rows_total", Int, "rows the invocation printed; fewer rows with one run_id = cut short"),
    native("run_complete", B, "true on the invocation's last row"),
)
_ROW = obj("llama_bench", "llama-bench's own row (-o jsonl), verbatim", *LLAMA_BENCH_ROW, open=True)

# ---- offload's sweep point: the fields of its llama-bench rows and of its failed points ----------------

#: bytes one decoded token reads (``llamacpp.weights.decode_bytes``); also ``benchbook.offload.model_bytes``
DECODE_BYTES = obj(
    "decode_bytes",
    "bytes one decoded token reads at this n_cpu_moe (llamacpp.weights.decode_bytes)",
    Field("total", Int, "gpu + cpu", "bytes", name_kept=True),
    Field("gpu", Int, "read from GPU-resident tensors", "bytes", name_kept=True),
    Field(
        "cpu",
        Int,
        "read from CPU-resident tensors (experts of the CPU blocks, one token_embd row)",
        "bytes",
        name_kept=True,
    ),
)
_SYNTHETIC = Field("synthetic_inputs", B, "true: the model is a generated synthetic MoE (llamacpp.synth)")
_N_CPU_MOE = Field("n_cpu_moe", Int, "-ncmoe: expert blocks 0 .. n-1 on the CPU")
_PLACEMENT = obj(
    "placement",
    "the resolved tensor placement of -ngl 99 -ncmoe n (llamacpp.weights.placement)",
    Field("n_cpu_moe", Int, "-ncmoe"),
    Field("n_layer", Int, "blocks of the model"),
    Field("cpu_expert_blocks", L(Int), "blocks whose experts are on the CPU"),
    Field("expert_bytes_cpu", Int, "expert weights on the CPU", "bytes", name_kept=True),
    Field("expert_bytes_gpu", Int, "expert weights on the GPU", "bytes", name_kept=True),
    Field("gpu_bytes", Int, "every tensor on the GPU", "bytes"),
    Field("cpu_bytes", Int, "CPU experts + token_embd", "bytes"),
    Field("override_regex", S, "the -ot regex -ncmoe stands for; null when nothing moves", nullable=True),
)
_BALLAST = obj(
    "ballast",
    "the memory ballast's state (llamacpp.cudamem.BallastState), or {error} when it failed",
    opt("mode", S, "cuda | fake"),
    opt("device", S, "device name"),
    opt("total_mib", Int, "device memory", "mib"),
    opt("free_before_mib", Int, "free before the ballast", "mib"),
    opt("target_free_mib", Int, "the budget asked for", "mib"),
    opt("held_mib", Int, "held by the ballast", "mib"),
    opt("free_after_mib", Int, "free with the ballast held", "mib"),
    opt("allocations", Int, "allocations it took"),
    opt("error", S, "why the ballast failed"),
    open=True,
)
_BUDGET = Field(
    "budget_free_mib", Int, "GPU memory the ballast leaves free (the capacity of the point)", "mib"
)
_GPU_BEFORE = opt(
    "gpu_used_before_mib", F, "GPU memory in use just before the run (ballast and others included)", "mib"
)
_OFFLOAD = ("offload",)

LLAMA_BENCH = Kind(
    "llama_bench",
    "benchbook.llama_bench",
    3,
    "one output row of one llama-bench invocation (a pp or tg test), the row verbatim under llama_bench: "
    "the one kind of every llama-bench row (v3), each use told apart by its fields: a sweep's rows "
    "(experiment llama_bench: phase, cold first run; offload: the n_cpu_moe point under a GPU memory "
    "budget, placement, bytes per token, ballast) and a speculative cost model's (speculative, "
    "spec_depth: role target | draft; n_depth under llama_bench).  The kinds it replaced "
    "(benchbook.speculative_cost, benchbook.spec_depth.bench, benchbook.offload) are read as it "
    "(migrations.RETIRED)",
    (
        *_RUN,
        _MODEL_ID,
        _MODEL_SHA256,
        native(
            "phase",
            S,
            "cold (page cache evicted, --no-warmup -r 1) | warm (llama-bench's warm-up, then -r): sweeps "
            "only; ingested: null (unknown)",
            experiments=SWEEPS,
        ),
        native(
            "role",
            S,
            "target | draft: the model's part in a speculative cost model (model_id is that model)",
            since=3,
            experiments=COST_MODELS,
        ),
        opt(
            "profile", S, "the host profile the session ran with (experiments.profiles); null: none", since=3
        ),
        opt("profile_reason", S, "why that profile was picked; null: none defined", since=3),
        obj(
            "config",
            "the run's configuration as its plan gives it (hashed into run_key); members per use, open: an "
            "experiment's own plan keys are kept",
            *(f if f.name == "model_id" else replace(f, experiments=SWEEPS) for f in LLAMA_BENCH_CONFIG),
            Field("phase", S, "cold | warm", experiments=("llama_bench",)),
            Field("n_cpu_moe", Int, "-ncmoe", since=3, experiments=_OFFLOAD),
            Field(
                "budget_free_mib",
                Int,
                "GPU memory the ballast leaves free",
                "mib",
                since=3,
                experiments=_OFFLOAD,
            ),
            Field("role", S, "target | draft", since=3, experiments=COST_MODELS),
            Field(
                "argv_tail", L(S), "llama-bench's arguments after -m", since=3, experiments=("speculative",)
            ),
            required=NATIVE,
            open=True,
        ),
        _ARGV,
        *_git(),
        native(
            "started_at", S, "UTC ISO 8601 start of the invocation; ingested: llama-bench's test_time, if any"
        ),
        native("ended_at", S, "UTC ISO 8601 end of the invocation"),
        _load("load_start", "before the invocation", NATIVE, experiments=("llama_bench",)),
        _load("load_end", "after the invocation", NATIVE, experiments=("llama_bench",)),
        obj(
            "cache_state",
            "page-cache state of the GGUF before the run",
            Field("method", S, "posix_fadvise_dontneed (cold) | null (warm)", nullable=True),
            Field(
                "resident_before_pct",
                F,
                "fincore residency before; null without fincore",
                "pct",
                nullable=True,
            ),
            opt("resident_after_pct", F, "cold: residency after eviction", "pct"),
            opt("evicted", B, "cold: residency after < 5%"),
            opt(
                "mapped_by_pids",
                L(Int),
                "cold: processes whose mappings kept the file resident "
                "(llamacpp.bench.mapped_by); absent before it was recorded",
            ),
            required=NATIVE,
            experiments=("llama_bench",),
        ),
        native("peak_rss_bytes", Int, "peak RSS of the process tree while it ran", "bytes"),
        opt("peak_gpu_mem_mib", F, "peak GPU memory while it ran; null without a GPU", "mib"),
        native("wall_ns", Int, "wall time of the invocation", "ns", experiments=SWEEPS),
        *_ROWS,
        Field("status", S, "ok"),
        # offload's sweep point (v3; the kind benchbook.offload held them before)
        replace(_SYNTHETIC, required=NATIVE, since=3, experiments=_OFFLOAD),
        replace(_N_CPU_MOE, required=NATIVE, since=3, experiments=_OFFLOAD),
        replace(_PLACEMENT, required=NATIVE, since=3, experiments=_OFFLOAD),
        replace(DECODE_BYTES, required=NATIVE, since=3, experiments=_OFFLOAD),
        replace(_BALLAST, required=NATIVE, since=3, experiments=_OFFLOAD),
        replace(_BUDGET, required=NATIVE, since=3, experiments=_OFFLOAD),
        replace(_GPU_BEFORE, since=3),
        _ROW,
        opt(
            "llama_bench_fields",
            Int,
            "field set the source printed: 1 (use_mmap, per-backend booleans, bool "
            "flash_attn: the row holds them converted to b11434's names, migrations.legacy_llama_bench_row), "
            "2 (load_mode/backends, b11434); absent = 2",
            since=2,
        ),
        *_origin(2),
    ),
    checks=_LLAMA_BENCH_CHECKS,
    written_by=(
        "experiments/{llama_bench,offload,speculative,spec_depth}/run.py -> llamacpp/bench.py:append_result",
        "ingest.py:read_llama_bench (origin ingested)",
    ),
    read_by=(
        "benchrows.py:iter_rows/read (polars_schema, checks, migrations.upgrade_as): the analyses of "
        "llama_bench, offload, speculative (cost_model) and spec_depth (bench_table)",
        "session.py:Session.open (run_key, status, run_complete)",
        "audit/logs.py",
    ),
)

RUN_FAILED = Kind(
    "run_failed",
    "benchbook.run_failed",
    1,
    "an invocation or request that failed: the failing run's own fields plus the error (open: each runner "
    "adds its run fields)",
    (
        *_RUN,
        Field("status", S, "failed"),
        Field("error", S, "what went wrong"),
        Field("returncode", Int, "exit status; null when the process never exited", nullable=True),
        opt("stderr_tail", S, "last 4000 characters of stderr (llama-bench)"),
        opt("log_tail", S, "tail of the server log (llama-server)"),
        opt("stage", S, "server_start | request"),
        opt("kind", S, "ServerError kind (e.g. request_timeout)"),
        opt(
            "reason",
            S,
            "one phrase for why (offload: 'out of memory: <line>', 'timeout', 'exit <code>: <line>', "
            "'no memory budget: <error>')",
        ),
    ),
    open=True,
    written_by=(
        "llamacpp/bench.py:append_result",
        "experiments/speculative/run.py:run_session",
        "experiments/offload/run.py:run_session (with the point's fields: offload.POINT)",
    ),
    read_by=(
        "experiments/speculative/analysis.py:load_failures (read_records)",
        "experiments/offload/analysis.py:load (the point: schemas.OFFLOAD_POINT)",
    ),
)

SESSION_START = Kind(
    "session_start",
    "benchbook.session",
    1,
    "start of a measurement session (one invocation of a measurement stage); open: the caller's meta "
    "(host_id, toolchain_id, config) is spread into it",
    (
        Field("event", S, "start"),
        Field("session_id", S, "32 hex; a resumed session keeps its id"),
        Field("experiment", S, "llama_bench | speculative | draftself"),
        Field("resumed", B, "this start continues an interrupted session"),
        opt("abandoned_session_id", S, "an interrupted session not resumed (its meta changed)"),
        opt("meta_hash", S, "16 hex of the meta; resume only when it matches"),
        Field("at", S, "UTC ISO 8601"),
        opt("host_id", S, "meta: host snapshot id"),
        opt("toolchain_id", S, "meta: toolchain snapshot id"),
        free("config", "meta: the stage's resolved configuration (shape per experiment)", required=False),
    ),
    event="start",
    open=True,
    written_by=("session.py:Session.open",),
    read_by=(
        "session.py:Session.open/completed_sessions",
        "experiments/llama_bench/report.py (read_records)",
        "experiments/draftself/analysis.py:sessions",
        "cli.py:measured_here",
    ),
)

SESSION_END = Kind(
    "session_end",
    "benchbook.session",
    1,
    "end of a completed session (never written for an interrupted one)",
    (
        Field("event", S, "end"),
        Field("session_id", S, "the session's id"),
        Field("experiment", S, "its experiment"),
        Field("at", S, "UTC ISO 8601"),
    ),
    event="end",
    written_by=("session.py:Session.close",),
    read_by=SESSION_START.read_by,
)

HOST = Kind(
    "host",
    "benchbook.host",
    1,
    "stable host facts, stored once per host_id and referenced",
    (
        Field("host_id", S, "16 hex of the facts (RAM rounded to GiB)"),
        Field("hostname", S, "platform.node()"),
        Field("cpu_model", S, "/proc/cpuinfo model name"),
        Field("cpu_logical", Int, "logical CPUs"),
        Field("cpu_physical", Int, "physical cores"),
        Field("ram_bytes", Int, "total RAM", "bytes"),
        Field("os", S, "system and kernel release"),
        Field("machine", S, "architecture"),
        obj(
            "gpus",
            "NVIDIA GPUs (nvidia-smi); [] when none",
            Field("name", S, "GPU name"),
            Field("driver", S, "driver version"),
            Field("memory_total_mib", Int, "device memory", "mib"),
            Field("clock_max_sm_mhz", S, "max SM clock as nvidia-smi prints it", "mhz", nullable=True),
            many=True,
        ),
    ),
    written_by=(
        "provenance.py:HostSnapshot.record -> store_snapshot (data/raw/snapshots/hosts/<host_id>.jsonl; "
        "committed: snapshots/hosts.jsonl, draftself/hosts.jsonl)",
    ),
    read_by=("provenance.py:read_snapshots (the experiments' reports)",),
)

TOOLCHAIN = Kind(
    "toolchain",
    "benchbook.toolchain",
    1,
    "a llama.cpp build, fingerprinted by its binaries",
    (
        Field("toolchain_id", S, "16 hex over the sorted name:sha256 list of binaries and libs"),
        Field("build_number", Int, "llama.cpp build number"),
        Field("build_commit", S, "commit, or 'unknown' (sdist)"),
        Field("library_version", S, "llama-cli --version"),
        Field("built_with", S, "compiler line of --version"),
        Field("backend", S, "cpu | cuda | ..."),
        obj(
            "backends_listed",
            "llama-bench --list-devices (accelerators only)",
            Field("name", S, "device"),
            Field("description", S, "device description"),
            Field("memory_mib", Int, "total", "mib"),
            Field("free_mib", Int, "free", "mib"),
            many=True,
        ),
        Field("backends", L(S), "CPU plus the listed device families"),
        Field("cmake_flags", L(S), "exact flags"),
        Field("compiler", S, "compiler id"),
        obj(
            "source",
            "source archive",
            Field("project", S, "PyPI project"),
            Field("version", S, "its version"),
            Field("sha256", S, "archive sha256"),
            Field("subdir", S, "llama.cpp folder inside it"),
            open=True,
        ),
        Field("bin_dir", S, "folder of the binaries"),
        free("files_sha256", "binary/library name -> sha256"),
        opt("build_seconds", F, "build time (absent for a user build)", "s", name_kept=True),
        opt("cache_key", S, "toolchain cache key"),
    ),
    written_by=("llamacpp/toolchain.py:fingerprint/build -> resolve.py:store_snapshots",),
    read_by=(
        "provenance.py:read_snapshots (llama-bench and speculative reports: the build of every number)",
    ),
)

MODEL = Kind(
    "model",
    "benchbook.model",
    1,
    "a model file: the record models.fetch returns (with path) and its snapshot (without path, with key "
    "and GGUF manifest)",
    (
        Field("model_id", S, "registry id"),
        opt("path", S, "local file (fetch record only)"),
        Field("sha256", S, "file sha256"),
        Field("size_bytes", Int, "file size", "bytes"),
        free(
            "origin",
            "wheel (source, project, version, wheel_sha256, member), derivation (derived_from, "
            "parent_sha256, quantize, argv, quantize_binary) or truncation (method, n_layers, src_sha256)",
        ),
        opt("key", S, "snapshot key model_id:sha256"),
        opt(
            "synthetic_inputs",
            B,
            "true for a generated model (llamacpp.synth; origin holds its synth manifest)",
        ),
        free("manifest", "GGUF metadata and tensor types (models.manifest); snapshot only", required=False),
    ),
    written_by=(
        "llamacpp/models.py:_record",
        "experiments/speculative/run.py:resolve_drafts",
        "resolve.py:store_snapshots",
    ),
    read_by=("provenance.py:read_snapshots (experiments/llama_bench/report.py:sections)",),
)

_REQ_BODY = obj(
    "request",
    "the /completion body sent (greedy: temperature 0, top_k 1, every penalty off); ingested: the fields "
    "the saved request states",
    native("prompt", S, "templated prompt"),
    native("n_predict", Int, "cap"),
    native("cache_prompt", B, "false"),
    native("return_tokens", B, "true"),
    native("stream", B, "false"),
    native("temperature", F, ""),
    native("top_k", Int, ""),
    native("top_p", F, ""),
    native("min_p", F, ""),
    native("typical_p", F, ""),
    native("top_n_sigma", F, ""),
    native("xtc_probability", F, ""),
    native("repeat_penalty", F, ""),
    native("repeat_last_n", Int, ""),
    native("presence_penalty", F, ""),
    native("frequency_penalty", F, ""),
    native("dry_multiplier", F, ""),
    native("mirostat", Int, ""),
    native("dynatemp_range", F, ""),
    native("seed", Int, ""),
    native("ignore_eos", B, ""),
    required=NATIVE,
)

_TIMINGS = obj(
    "timings",
    "llama-server's response timings (tools/server), or the same values from a server log",
    opt("cache_n", Int, "prompt tokens reused from the cache"),
    Field("prompt_n", Int, "prompt tokens evaluated"),
    Field("prompt_ms", F, "prompt evaluation time", "ms"),
    opt("prompt_per_token_ms", F, "", "ms"),
    opt("prompt_per_second", F, "", "tps", name_kept=True),
    opt("predicted_n", Int, "tokens generated"),
    opt("predicted_ms", F, "generation time", "ms"),
    opt("predicted_per_token_ms", F, "", "ms"),
    opt("predicted_per_second", F, "", "tps", name_kept=True),
    opt("draft_n", Int, "drafted tokens"),
    opt("draft_n_accepted", Int, "accepted drafted tokens"),
    opt("total_ms", F, "server log only: its 'total time' line", "ms"),
    opt("total_n", Int, "server log only: tokens of its 'total time' line"),
    opt(
        "draft_mean_len",
        F,
        "server log only: 'mean len' of the draft acceptance line (tokens per verify step)",
    ),
    open=True,
)

_METRICS_COUNTERS = (
    "prompt_tokens_total",
    "prompt_tokens_cached_total",
    "prompt_seconds_total",
    "tokens_predicted_total",
    "tokens_predicted_seconds_total",
    "n_decode_total",
    "spec_decode_num_draft_tokens_total",
    "spec_decode_num_accepted_tokens_total",
    "spec_decode_num_drafts_total",
)

SPECULATIVE_REQUEST = Kind(
    "speculative_request",
    "benchbook.speculative_request",
    2,
    "one /completion request to llama-server (native), or one request's timing lines of a server log "
    "(ingested)",
    (
        *_RUN,
        *_git(),
        obj(
            "config",
            "the request's configuration (hashed into run_key)",
            Field("config_id", S, ""),
            Field("spec_type", S, "none | draft-simple | ngram-*"),
            Field("draft_model_id", S, "", nullable=True),
            Field("n_max", Int, "", nullable=True),
            Field("n_min", Int, "", nullable=True),
            Field("p_min", F, "", nullable=True),
            Field("policy", S, "fresh | same"),
            Field("threads", Int, ""),
            Field("ctx_size", Int, ""),
            Field("extra_args", L(S), ""),
            Field("prompt_id", S, ""),
            Field("cap", Int, ""),
            Field("rep", Int, ""),
            required=NATIVE,
        ),
        native("argv", L(S), "llama-server argv"),
        Field("model_id", S, "target registry id; ingested: unknown:<group>"),
        Field("model_sha256", S, "target sha256; ingested: unknown:<group>"),
        opt("draft_model_id", S, "draft registry id; null without a draft model"),
        opt("draft_model_sha256", S, "draft sha256"),
        native("prompt_id", S, "data/prompts/speculative.yaml id"),
        native("cap", Int, "n_predict"),
        native("rep", Int, "repetition"),
        native("policy", S, "fresh (server per config+rep) | same (one server)"),
        Field("status", S, "ok"),
        native("started_at", S, "UTC ISO 8601"),
        native("ended_at", S, "UTC ISO 8601"),
        _load("load_start", "before the request", NATIVE),
        _load("load_end", "after the request", NATIVE),
        obj(
            "server",
            "the serving process",
            Field("port", Int, "127.0.0.1 port"),
            Field("pid", Int, "process id"),
            Field("load_ms", F, "start-up until /health ok", "ms"),
            Field("request_index", Int, "requests it served before"),
            Field("log", S, "its log file"),
            Field("ports_tried", L(Int), "ports tried before one was free"),
            required=NATIVE,
        ),
        native("prompt_text_sha256", S, "sha256 of the templated prompt"),
        _REQ_BODY,
        _TIMINGS,
        native("stop_type", S, "limit | eos | word (llama-server)"),
        native("cap_hit", B, "stop_type == limit"),
        native("tokens", L(Int), "generated token ids"),
        native("content", S, "generated text"),
        native("content_sha256", S, "sha256 of content"),
        native("tokens_predicted", Int, "llama-server's count"),
        native("tokens_evaluated", Int, "llama-server's count"),
        native("truncated", B, "llama-server's flag"),
        Field(
            "generation_settings",
            None,
            "llama-server's echo of the sampler settings it used",
            py=dict,
            required=NATIVE,
        ),
        free("metrics_before", "/metrics before the request (llamacpp:* without prefix)", required=NATIVE),
        free("metrics_after", "/metrics after the request", required=NATIVE),
        obj(
            "metrics_delta",
            "after - before of the counters (per-position counters too: open)",
            *(Field(c, F, "/metrics counter difference") for c in _METRICS_COUNTERS),
            open=True,
            required=NATIVE,
        ),
        native("verify_steps", F, "metrics_delta.spec_decode_num_drafts_total"),
        native("peak_rss_bytes", Int, "peak RSS during the request", "bytes"),
        native("server_peak_rss_bytes", Int, "peak RSS of the server so far", "bytes"),
        opt("peak_gpu_mem_mib", F, "peak GPU memory; null without a GPU", "mib"),
        opt("answer_expected", S, "the prompt's recorded answer"),
        opt("answer_found", B, "answer_pattern matched"),
        free(
            "spec_stats",
            "sessions at -lv 4: the increase over this request of the server's speculative counters "
            "(llamacpp.specstats: calls_begin/calls_draft/calls_accept, gen_drafts, acc_drafts, gen_tokens, "
            "acc_tokens, t_begin_ms/t_draft_ms/t_accept_ms, impl); null: no statistics line (baseline, "
            "or none logged); absent: a session below -lv 4",
            required=False,
            nullable=True,
        ),
        opt(
            "build_number",
            Int,
            "llama.cpp build number (native: the toolchain snapshot's; ingested: --build or null = unknown)",
            since=2,
        ),
        opt("build_commit", S, "llama.cpp commit where known", since=2),
        opt("slot_id", Int, "ingested: slot id of the log line", since=2),
        opt("task_id", Int, "ingested: task id of the log line", since=2),
        opt("source_lines", L(Int), "ingested: every log line the request's values came from", since=2),
        obj(
            "client",
            "ingested: the client's own clock for the request (saved responses with client records)",
            opt("first_content_ms", F, "request sent -> first content received", "ms"),
            opt("done_ms", F, "request sent -> response complete (end to end)", "ms"),
            opt("sent_at", S, "when the request was sent, as the client recorded it"),
            required=False,
            since=2,
        ),
        *_origin(2),
    ),
    checks=(
        ("status", lambda: pl.col("status") == "ok", "must be 'ok' (failures are benchbook.run_failed)"),
    ),
    written_by=("experiments/speculative/run.py:run_session", "ingest.py:read_server_log (origin ingested)"),
    read_by=("experiments/speculative/analysis.py:load_requests (read_records)", "audit/logs.py"),
)

# ---- retired llama-bench row kinds: committed records, read as benchbook.llama_bench v3 -----------------
# Each stays declared as it was written (its records validate against it: tests/test_schemas.py counts them);
# nothing writes them now.  ``migrations.RETIRED`` reads each as the one kind (its fields are the one kind's
# fields of the same names), ``benchrows`` reads them with the one kind's rows.

SPECULATIVE_COST = Kind(
    "speculative_cost",
    "benchbook.speculative_cost",
    1,
    "one llama-bench row of the cost model (target with -p 1,k+1..., drafts with -n), same session "
    "(retired: benchbook.llama_bench v3, experiment speculative, role)",
    (
        *_RUN,
        *_git(),
        obj(
            "config",
            "",
            Field("role", S, "target | draft"),
            Field("model_id", S, ""),
            Field("argv_tail", L(S), ""),
        ),
        Field("argv", L(S), "exact argv"),
        Field("role", S, "target | draft"),
        Field("model_id", S, "registry id"),
        Field("model_sha256", S, "sha256"),
        Field("started_at", S, "UTC"),
        Field("ended_at", S, "UTC"),
        Field("peak_rss_bytes", Int, "peak RSS", "bytes"),
        Field("row_index", Int, ""),
        Field("rows_total", Int, ""),
        Field("run_complete", B, ""),
        Field("status", S, "ok"),
        obj("llama_bench", "llama-bench's own row", *LLAMA_BENCH_ROW, open=True),
    ),
    checks=(("llama_bench.samples_ns", lambda: _samples_ok(), _SAMPLES_NS_MSG),),
    written_by=("experiments/speculative/run.py:run_cost_model before benchbook.llama_bench v3 (none now)",),
    read_by=("benchrows.py (migrations.RETIRED: read as benchbook.llama_bench v3)",),
)

#: the fields every spec_depth record starts with (``benchbook.spec_depth.request`` too)
SPEC_DEPTH_HEAD = (
    Field("run_id", S, "32 hex"),
    Field("run_key", S, "16 hex: config + models + build + host"),
    Field("session_id", S, "the shared session"),
    Field("experiment", S, "spec_depth"),
    Field("host_id", S, "host snapshot id"),
    Field("toolchain_id", S, "toolchain snapshot id"),
    Field("profile", S, "host profile (experiments.profiles); null: none", nullable=True),
    Field("git_commit", S, "benchbook's git HEAD", nullable=True),
    Field("git_dirty", B, "code or params differ from HEAD", nullable=True),
    Field("started_at", S, "UTC ISO 8601"),
    Field("ended_at", S, "UTC ISO 8601"),
    Field("argv", L(S), "exact argv"),
    Field("model_id", S, "registry id of the model run (the target, or the draft for role draft)"),
    Field("model_sha256", S, "sha256 of that model file"),
)

SPEC_DEPTH_BENCH = Kind(
    "spec_depth_bench",
    "benchbook.spec_depth.bench",
    1,
    "one llama-bench row of the depth sweep (-d), target or draft model (retired: benchbook.llama_bench "
    "v3, experiment spec_depth, role; n_depth in the row)",
    (
        *SPEC_DEPTH_HEAD,
        Field("role", S, "target | draft"),
        Field("config", pl.Struct({"role": S, "model_id": S}), "role and model", required=False),
        Field("row_index", Int, "row of the invocation"),
        Field("rows_total", Int, "rows the invocation printed"),
        Field("run_complete", B, "last row of the invocation"),
        Field("status", S, "ok"),
        Field("llama_bench", None, "llama-bench's own row", py=dict),
    ),
    open=True,
    written_by=("experiments/spec_depth/run.py:run_bench before benchbook.llama_bench v3 (none now)",),
    read_by=("benchrows.py (migrations.RETIRED: read as benchbook.llama_bench v3)",),
)

#: the fields every offload record starts with (``run.run_session``'s ``common`` plus the run ids)
OFFLOAD_HEAD = (
    *(f for f in _RUN if f.name in ("run_id", "run_key", "session_id")),
    Field("experiment", S, "offload"),
    *(f for f in _RUN if f.name in ("host_id", "toolchain_id")),
    Field(
        "profile",
        S,
        "the host profile the session ran with (experiments.profiles); null: none defined",
        nullable=True,
    ),
    Field("profile_reason", S, "why that profile was picked; null: none defined", nullable=True),
    *_git(),
)

#: the fields of one offload sweep point, on its llama-bench rows and on its ``benchbook.run_failed``
#: record (a failed point: out of memory, crash, timeout, no budget; ``experiments.offload.analysis``
#: checks those records against this declaration)
OFFLOAD_POINT = (
    _MODEL_ID,
    _MODEL_SHA256,
    _SYNTHETIC,
    Field("phase", S, "warm (llama-bench's warm-up run, then -r repetitions)"),
    obj(
        "config",
        "the point's configuration (hashed into run_key)",
        *LLAMA_BENCH_CONFIG,
        Field("n_cpu_moe", Int, "-ncmoe"),
        Field("budget_free_mib", Int, "GPU memory the ballast leaves free", "mib"),
    ),
    _ARGV,
    _N_CPU_MOE,
    _PLACEMENT,
    DECODE_BYTES,
    _BALLAST,
    _BUDGET,
    opt("started_at", S, "UTC ISO 8601 start of the invocation (absent: never started, no budget)"),
    opt("ended_at", S, "UTC ISO 8601 end of the invocation"),
    _load("load_start", "before the invocation", False),  # absent on a point that never started (no budget)
    _load("load_end", "after the invocation", False),
    _GPU_BEFORE,
    opt("peak_gpu_mem_mib", F, "peak GPU memory in use while it ran (ballast and others included)", "mib"),
    opt("peak_rss_bytes", Int, "peak RSS of the process tree while it ran", "bytes"),
    opt("wall_ns", Int, "wall time of the invocation", "ns"),
)

OFFLOAD = Kind(
    "offload",
    "benchbook.offload",
    1,
    "one llama-bench output row (pp or tg) at one n_cpu_moe point under the GPU memory budget, the row "
    "verbatim under llama_bench (retired: benchbook.llama_bench v3, experiment offload)",
    (
        *OFFLOAD_HEAD,
        *OFFLOAD_POINT,
        *_ROWS,
        Field("status", S, "ok"),
        _ROW,
    ),
    checks=(
        (
            "status",
            lambda: pl.col("status") == "ok",
            "must be 'ok' (failed points are benchbook.run_failed)",
        ),
        ("phase", lambda: pl.col("phase") == "warm", "must be 'warm'"),
        ("n_cpu_moe", lambda: pl.col("n_cpu_moe") >= 0, "must be an integer >= 0"),
        (
            "llama_bench.n_prompt+n_gen",
            lambda: _lb("n_prompt") + _lb("n_gen") > 0,
            "must be > 0 (a test of no tokens)",
        ),
        (
            "llama_bench.samples_ts",
            lambda: (_lb("samples_ts").list.len() > 0) & (_lb("samples_ts").list.min() > 0),
            "must be a non-empty list of positive rates (llama-bench -o jsonl); fix: re-run the point",
        ),
        (
            "llama_bench.avg_ts",
            lambda: _lb("avg_ts") > 0,
            "must be a positive float (llama-bench avg_ts)",
        ),
    ),
    written_by=("experiments/offload/run.py:run_session before benchbook.llama_bench v3 (none now)",),
    read_by=("benchrows.py (migrations.RETIRED: read as benchbook.llama_bench v3)",),
)

#: every schema a llama-bench row is stored under: the one kind, then the retired kinds read as it
LLAMA_BENCH_SCHEMAS = (LLAMA_BENCH.schema, SPECULATIVE_COST.schema, SPEC_DEPTH_BENCH.schema, OFFLOAD.schema)

_DS_HEAD = (
    Field("session_id", S, "draft-self session (32 hex)"),
    Field("experiment", S, "draftself"),
    Field("host_id", S, "host snapshot id"),
    Field("model_sha256", S, "checkpoint sha256"),
    *_git(),
)
_DS_CONFIG = obj(
    "config",
    "the run's configuration (hashed into run_key)",
    Field("decoder", S, "ar | draftself"),
    opt("k", Int, "block size"),
    opt("verify", S, "batched | sequential"),
    opt("draft", S, "one_pass | iterative"),
    opt("threshold", F, "iterative: confidence threshold"),
    opt("coreset_mass", F, ""),
    opt("coreset_min", Int, ""),
    opt("coreset_apply", S, ""),
    Field("name", S, "config name"),
    Field("n_tokens", Int, "tokens generated"),
    Field("dtype", S, "float32 | float64"),
    Field("threads", Int, "torch threads"),
    Field("prompt_id", S, "prompt id"),
)
#: v2: the shared session (start/end records in ``data/raw/draftself/<host_id>.jsonl``), the runtime that
#: ran the decoder (the draft-self counterpart of a llama.cpp toolchain) and the host's load per run
_DS_V2 = (
    Field(
        "toolchain_id",
        S,
        "16 hex of the runtime (torch + Python versions, torch threads): the draft-self build",
        since=2,
    ),
    Field("runtime", S, "the runtime in words, e.g. 'torch 2.5.1+cpu, Python 3.11.2'", since=2),
)
_DS_RUN_HEAD = (
    Field("run_id", S, "32 hex"),
    Field("run_key", S, "16 hex: config + rep + model + host"),
    _DS_CONFIG,
    Field("rep", Int, "timed repetition (1-based; 0 is the unwritten warm-up)"),
    Field("started_at", S, "UTC"),
    Field("ended_at", S, "UTC"),
)

DRAFTSELF_RUN = Kind(
    "draftself_run",
    "benchbook.draftself.run",
    2,
    "one decode of one prompt by one configuration",
    (
        *_DS_HEAD,
        *_DS_V2,
        *_DS_RUN_HEAD,
        _load("load_start", "before the run", False),
        _load("load_end", "after the run (top_processes: CPU percent over the run)", False),
        Field("config_name", S, "config name"),
        Field("prompt_id", S, ""),
        Field("prompt_kind", S, "document kind"),
        Field("predictable", B, "prompt class"),
        Field("prompt_tokens", Int, "prompt length"),
        Field("n_experts", Int, "experts (null: dense)", nullable=True),
        Field("top_k", Int, "experts per token (null: dense)", nullable=True),
        Field("n_layers", Int, ""),
        Field("output_text", S, ""),
        Field("output_sha256", S, "sha256 of the token ids' JSON"),
        Field("equals_ar", B, "same tokens as greedy AR (lossless)"),
        Field("stop_type", S, "length"),
        Field("n_tokens", Int, "tokens generated"),
        Field("forward_passes", Int, ""),
        obj(
            "passes_by_kind",
            "forward passes per kind",
            opt("prefill", Int, ""),
            opt("draft", Int, ""),
            opt("verify", Int, ""),
            opt("decode", Int, ""),
            open=True,
        ),
        Field("tokens_per_pass", F, ""),
        Field("decode_wall_ns", Int, "", "ns"),
        Field("decode_tps", F, "", "tps"),
        opt("verify_steps", Int, "draft-self only"),
        opt("tau", F, "tokens per verify step"),
        opt("accepted_total", Int, ""),
        opt("drafted_total", Int, ""),
        opt("rejections", Int, ""),
        opt("alpha_accept_rate", F, "accepted / drafted"),
        opt("alpha_mle", F, "MLE under independent acceptance"),
        opt("expert_loads", Int, "MoE only"),
        opt("expert_loads_per_token", F, ""),
        obj(
            "unique_experts_per_layer_by_pass",
            "MoE only",
            Field("kind", S, ""),
            Field("n_tokens", Int, ""),
            Field("mean", F, ""),
            Field("passes", Int, ""),
            Field("bound", F, "independent-routing bound"),
            many=True,
            required=False,
        ),
        free("passes", "[kind, n_tokens, wall_ns] per forward pass", py=list),
    ),
    written_by=(
        "experiments/draftself/run.py:measure_session (data/raw/draftself/<host_id>.jsonl; v1: runs.jsonl)",
    ),
    read_by=(
        "experiments/draftself/analysis.py:load_runs (read_records)",
        "session.py:Session.open (run_key)",
    ),
)

DRAFTSELF_STEP = Kind(
    "draftself_step",
    "benchbook.draftself.step",
    2,
    "one decode step (prefill, AR token, or draft+verify)",
    (
        *_DS_HEAD,
        *_DS_V2,
        *_DS_RUN_HEAD,
        Field("step", Int, "0 = prefill"),
        Field("kind", S, "prefill | ar | draftself"),
        Field("committed", L(Int), "tokens committed"),
        Field("accepted", Int, "accepted drafted tokens"),
        Field("proposed", L(Int), "drafted tokens"),
        Field("cache_len_after", Int, ""),
        obj(
            "passes",
            "forward passes of the step",
            Field("kind", S, ""),
            Field("mode", S, ""),
            Field("n_tokens", Int, ""),
            Field("cache_len", Int, ""),
            Field("wall_ns", Int, "", "ns"),
            Field("experts", L(L(Int)), "experts used per layer"),
            many=True,
        ),
        obj(
            "unique_experts",
            "distinct experts (null: dense)",
            Field("draft", L(Int), "", nullable=True),
            Field("verify", L(Int), ""),
            Field("union", L(Int), ""),
            nullable=True,
        ),
        opt("anchor", Int, ""),
        opt("proposed_conf", L(F), ""),
        opt("verifier_argmax", L(Int), ""),
        opt("cache_len_before", Int, ""),
        opt("cache_len_after_draft", Int, ""),
        opt("draft_passes", Int, ""),
        opt("verify_passes", Int, ""),
    ),
    written_by=(
        "experiments/draftself/run.py:measure_session (data/raw/draftself/<host_id>.steps.jsonl; "
        "v1: steps.jsonl)",
    ),
    read_by=(),
)

DRAFTSELF_SESSION = Kind(
    "draftself_session",
    "benchbook.draftself.session",
    1,
    "a draft-self measurement session, written once at its end (data/raw/draftself/sessions.jsonl, committed "
    "data only: sessions are now the shared benchbook.session; readers take both)",
    (
        *_DS_HEAD,
        free("params", "draftself params (run.DEFAULTS + params.yaml)"),
        free("model_config", "ModelConfig.to_dict()"),
        Field("checkpoint", S, "checkpoint path"),
        Field("torch_version", S, ""),
        Field("threads", Int, ""),
        Field("started_at", S, "UTC"),
        _load("load_start", "at the start"),
        Field("resumed", B, ""),
        Field("ended_at", S, "UTC"),
        _load("load_end", "at the end"),
        Field("runs_written", Int, ""),
        Field("runs_skipped", Int, ""),
    ),
    written_by=("draftself/run.py:measure before the shared session (none now)",),
    read_by=("experiments/draftself/analysis.py:sessions -> migrations.legacy_draftself_session",),
)

DRAFTSELF_CHECKPOINT = Kind(
    "draftself_checkpoint",
    "benchbook.draftself.checkpoint",
    1,
    "manifest of the trained draft-self checkpoint (data/draftself/checkpoint.json, one JSON document)",
    (
        Field("sha256", S, "checkpoint sha256"),
        Field("bytes", Int, "checkpoint size", "bytes", name_kept=True),
        Field("path", S, "cached file"),
        Field("key", S, "cache key"),
        Field("trained_now", B, ""),
        Field("host_id", S, "host that wrote the manifest"),
        *_git(),
        opt("git_dirty_paths", L(S), ""),
        Field("written_at", S, "UTC"),
        Field("train_seconds", F, "", "s", name_kept=True),
        obj(
            "curve",
            "training curve",
            Field("step", Int, ""),
            Field("loss_next", F, ""),
            Field("loss_masked", F, ""),
            Field("loss_aux", F, ""),
            Field("lr", F, ""),
            Field("elapsed_s", F, "", "s"),
            many=True,
            open=True,
        ),
        Field("final_loss_next", F, ""),
        Field("final_loss_masked", F, ""),
        Field("n_params", Int, ""),
        Field("corpus_sha256", S, ""),
        Field("corpus_tokens", Int, ""),
        free("model_config", "ModelConfig"),
        free("train_config", "TrainConfig"),
        Field("torch_version", S, ""),
    ),
    document=True,
    written_by=("draftself/train.py:main",),
    read_by=("experiments/draftself/run.py:resolve_checkpoint", "experiments/draftself/report.py"),
)

QUARANTINE = Kind(
    "quarantine",
    "benchbook.quarantine",
    1,
    "a torn last line moved aside (<file>.quarantine.jsonl)",
    (
        Field("file", S, "the raw file"),
        Field("line", Int, "its line number"),
        Field("byte_offset", Int, "where the file was cut", "bytes", name_kept=True),
        Field("raw", S, "the torn bytes (UTF-8, replaced)"),
        Field("quarantined_at", S, "UTC"),
    ),
    written_by=("records.py:repair",),
    read_by=(),
)

NUMBER_ENTRY = (
    Field("key", S, "stable key (numbers.make_key)"),
    Field("value", F, ""),
    Field("unit", S, ""),
    Field("label", S, ""),
    Field("n", Int, "unit of replication count"),
    Field("computation", S, "function"),
    opt("sd", F, ""),
    opt("ci95", L(F), "[low, high]"),
    opt("ci_method", S, "how the interval was formed; 'none: n < 3' / 'none' without one"),
    opt("replication", S, "the unit of replication: what varied between the n samples"),
    free("sources", "[{file, lines: [[a, b]...]}]", py=list),
    Field("run_ids", L(S), ""),
    free("commands", "argv lists", py=list),
    opt("toolchain_id", S, "toolchain snapshot id (unknown:<group> ingested)"),
    opt("build", S, "the build in one line (numbers.build_label, or the draft-self runtime)"),
    opt("build_number", Int, "llama.cpp build number; null = unknown or not llama.cpp"),
    opt("build_commit", S, "llama.cpp commit where known"),
    opt("model_sha256", S, ""),
    opt("host_id", S, ""),
    opt("session_id", S, ""),
    opt("measured_from", S, ""),
    opt("measured_to", S, ""),
    Field("caveats", L(S), "caveat ids"),
    Field("experiment", S, ""),
)

NUMBERS = Kind(
    "numbers",
    "benchbook.numbers",
    1,
    "the numbers registry of one experiment (reports/numbers/<experiment>.json)",
    (
        Field("experiment", S, ""),
        Field("numbers", None, "key -> entry (numbers.Number)", py=dict, members=NUMBER_ENTRY),
        opt(
            "cited_sha256",
            None,
            "raw file -> sha256 of the lines the numbers cite (numbers.cited_sha256; the "
            "site build refuses a registry whose cited lines changed)",
            py=dict,
        ),
    ),
    document=True,
    written_by=("numbers.py:publish",),
    read_by=("numbers.py:load_all", "site.py"),
)

_INGEST_HEAD = (
    Field("source_file", S, "the source as given"),
    Field("source_format", S, ""),
    Field("source_sha256", S, "sha256 of the source"),
    Field("ingested_at", S, "UTC"),
)

INGEST_SPECULATIVE_SIMPLE = Kind(
    "ingest_speculative_simple",
    "benchbook.ingest.speculative_simple",
    1,
    "the summary of one llama-speculative-simple run",
    (
        *_INGEST_HEAD,
        Field("source_line", Int, "first line used"),
        free("source_lines", "value -> line"),
        Field("n_draft_max", Int, "configured maximum (its 'n_draft' line)"),
        Field("n_predict", Int, ""),
        Field("n_drafted", Int, ""),
        Field("n_accept", Int, ""),
        opt("accept_pct", F, "", "pct"),
        opt("encode_n", Int, ""),
        opt("encode_s", F, "", "s"),
        opt("encode_tps", F, "", "tps"),
        opt("decode_n", Int, ""),
        opt("decode_s", F, "", "s"),
        opt("decode_tps", F, "", "tps"),
        Field("alpha", F, "n_accept / n_drafted; null when nothing drafted", nullable=True),
        opt(
            "inconsistent",
            L(S),
            "printed speeds that disagree with their own tokens / seconds (flagged, kept)",
        ),
    ),
    written_by=("ingest.py:read_speculative_simple",),
    read_by=(),
)

KINDS: dict[str, Kind] = {
    k.key: k
    for k in (
        LLAMA_BENCH,
        RUN_FAILED,
        SESSION_START,
        SESSION_END,
        HOST,
        TOOLCHAIN,
        MODEL,
        SPECULATIVE_REQUEST,
        SPECULATIVE_COST,
        SPEC_DEPTH_BENCH,
        OFFLOAD,
        DRAFTSELF_RUN,
        DRAFTSELF_STEP,
        DRAFTSELF_SESSION,
        DRAFTSELF_CHECKPOINT,
        QUARANTINE,
        NUMBERS,
        INGEST_SPECULATIVE_SIMPLE,
    )
}

#: schema name -> the version this code writes and reads (what ``migrations.CURRENT`` should be)
CURRENT: dict[str, int] = {k.schema: k.version for k in KINDS.values()}


def declare(k: Kind) -> Kind:
    """Add an experiment's own kind to ``KINDS``/``CURRENT`` (the package of an experiment declares its
    record kind with the same ``Kind``/``Field`` vocabulary, next to its code; ``experiments/template``).
    Declaring the same kind again is a no-op.

    Raises:
        SchemaError: another kind already has this key or schema name.
    """
    old = KINDS.get(k.key)
    if old is k:
        return k
    clash = old or next((x for x in KINDS.values() if x.schema == k.schema), None)
    if clash is not None:
        if (clash.key, clash.schema, clash.version, [f.name for f in clash.fields]) == (
            k.key,
            k.schema,
            k.version,
            [f.name for f in k.fields],
        ):
            return clash  # the same declaration imported twice (e.g. a module reloaded)
        raise SchemaError(
            f"record kind {k.key!r} ({k.schema}) clashes with the declared {clash.key!r} "
            f"({clash.schema}); fix: give the experiment's kind its own key and schema name"
        )
    KINDS[k.key] = k
    CURRENT[k.schema] = k.version
    return k


def kind(name: str, event: str | None = None) -> Kind:
    """The kind by key (``"llama_bench"``) or schema name (``"benchbook.session"`` needs ``event``).

    Raises:
        SchemaError: no such kind (the message lists the known keys).
    """
    if name in KINDS:
        return KINDS[name]
    hits = [k for k in KINDS.values() if k.schema == name and (k.event is None or k.event == event)]
    if len(hits) != 1:
        raise SchemaError(
            f"record kind {name!r}{f' event {event!r}' if event else ''} is not declared in "
            f"benchbook.schemas; known: {sorted(KINDS)}"
        )
    return hits[0]


def unknown(group: str) -> str:
    """The value of an unknown identifier of one origin group (a source file's sha256[:16], or a name)."""
    return UNKNOWN_PREFIX + group[:16] if len(group) == 64 else UNKNOWN_PREFIX + group


def is_unknown(col: str | pl.Expr) -> pl.Expr:
    """True where an identifier column holds an unknown value (never "different" in a caveat)."""
    c = pl.col(col) if isinstance(col, str) else col
    return c.str.starts_with(UNKNOWN_PREFIX)


# ---- read side: Polars schema, vectorized checks, kind/version check -----------------------------

ENVELOPE = {"schema": S, "schema_version": Int}
#: the columns ``check_kinds`` reads (``event`` tells the two session kinds apart)
KIND_COLUMNS = {**ENVELOPE, "event": S}


def polars_schema(
    name: str, only: Iterable[str] | None = None, members: Mapping[str, Iterable[str]] | None = None
) -> dict[str, PolarsDataType]:
    """``{field: dtype}`` of kind ``name`` for Polars' NDJSON readers: the envelope (``schema``,
    ``schema_version``, and ``event`` for the session kinds) plus every declared field with a Polars
    type (``only``: just these top-level fields; ``members``: for a nested object, just these of its
    members, so a reader decodes only what it reads).  The columns the checks of the chosen fields read
    are added: ``experiment`` where a field is required on some experiments' records only
    (``Field.experiments``), ``origin`` where one is required on native records only.

    Raises:
        SchemaError: ``members`` names a field that is not a declared nested object, or a member it lacks.
    """
    k = kind(name)
    out: dict[str, PolarsDataType] = dict(ENVELOPE)
    if k.event:
        out["event"] = S
    keep = None if only is None else set(only)
    for f in k.fields:
        if f.dtype is not None and (keep is None or f.name in keep):
            out[f.name] = f.dtype
    # the columns the generated checks of the chosen fields read besides them (``checks``): a field
    # required on some experiments' records reads ``experiment``, one required on native records ``origin``
    picked = {p: set(names) for p, names in (members or {}).items()}
    chosen = [
        g
        for f in k.fields
        if f.name in out and f.dtype is not None
        for g in (f, *(m for m in f.members if f.name not in picked or m.name in picked[f.name]))
    ]
    if any(f.experiments for f in chosen):
        out.setdefault("experiment", S)
    if k.has_origin and any(f.required == NATIVE for f in chosen):
        out.setdefault("origin", S)
    for parent, names in (members or {}).items():
        nested = next((x for x in k.fields if x.name == parent and x.members and not x.many), None)
        declared = {m.name: m.dtype for m in nested.members if m.dtype is not None} if nested else {}
        missing = [m for m in names if m not in declared]
        if nested is None or missing:
            raise SchemaError(
                f"{k.schema}: {parent!r} has no declared member(s) {missing or list(names)}; "
                f"declared: {sorted(declared)}"
            )
        out[parent] = pl.Struct({m: declared[m] for m in names})
    return out


def _required_expr(k: Kind, f: Field, e: pl.Expr) -> pl.Expr:
    ok = e.is_not_null()
    if f.required == NATIVE and k.has_origin:
        ok = ok | ~_is_native()
    if f.experiments:
        ok = ok | ~_of(f.experiments)
    if f.since > 1:
        ok = ok | (pl.col("schema_version") < f.since)
    return ok


def checks(
    name: str, only: Iterable[str] | None = None, members: Mapping[str, Iterable[str]] | None = None
) -> dict[str, tuple[pl.Expr, str]]:
    """Vectorized checks of kind ``name`` for ``analysis.validate``: ``{field: (ok_expr, message)}``.

    Generated: ``schema_version`` between 1 and the current version; every required, non-nullable,
    Polars-typed field present (a value of the wrong type decodes as null, so this also catches it),
    nested members of required objects too (``"parent.member"``); native-only fields only on native
    rows, fields of some experiments (``Field.experiments``) only on their rows, fields added in
    version v only on rows of version >= v.  Then the kind's own value checks,
    which replace a generated check of the same name.  ``only`` restricts them to those top-level
    fields (the columns a reader decodes), ``members`` a nested object's checks to those members (as
    ``polars_schema``).
    """
    k = kind(name)
    need = _NEED.format(schema=k.schema, version=k.version)
    decoded = polars_schema(name, only, members)
    present = set(decoded)

    def has(cname: str) -> bool:  # "parent", "parent.member" or "parent.a+b": every part decoded
        parent, _, rest = cname.partition(".")
        if parent not in present:
            return False
        sub = decoded[parent]
        if not rest or not isinstance(sub, pl.Struct):
            return True
        names = set(sub.to_schema())
        return all(part in names for part in rest.split("+"))

    out: dict[str, tuple[pl.Expr, str]] = {}
    for f in k.fields:
        if f.name not in present or f.required is False:
            continue
        if not f.nullable:
            out[f.name] = (_required_expr(k, f, pl.col(f.name)), need)
        if f.members and not f.many:
            for m in f.members:
                if m.required is not False and not m.nullable and m.dtype is not None:
                    e = pl.col(f.name).struct.field(m.name)
                    ok = _required_expr(k, m, e)
                    if f.required == NATIVE and k.has_origin:
                        ok = ok | ~_is_native()
                    if f.experiments:
                        ok = ok | ~_of(f.experiments)
                    if f.since > 1:
                        ok = ok | (pl.col("schema_version") < f.since)
                    if f.nullable:
                        ok = ok | pl.col(f.name).is_null()
                    if has(f"{f.name}.{m.name}"):
                        out[f"{f.name}.{m.name}"] = (ok, need)
    # first: a record of a newer version fails the other checks too, and validate names a row's first
    # failed check (a v99 record read "field 'origin' is missing ... not benchbook.llama_bench v2")
    out.pop("schema_version", None)
    version = (
        pl.col("schema_version").is_between(1, k.version),
        "is missing or newer than this benchbook; fix: update benchbook",
    )
    out = {"schema_version": version, **out}
    for cname, expr, msg in k.checks:
        if has(cname):
            out[cname] = (expr(), msg or need)
    return out


def kind_error(where: str, schema, version, event=None) -> str | None:
    """The message for a record whose kind or version this code cannot read, or None when it can."""
    if schema is None:
        return f"{where}: record lacks 'schema'; fix: this file is not benchbook raw data"
    if schema not in CURRENT:
        return (
            f"{where}: record kind {schema!r} is not declared in benchbook.schemas (known: "
            f"{', '.join(sorted(CURRENT))}); fix: update benchbook, or this file is not benchbook raw data"
        )
    if schema == SESSION_START.schema and event not in ("start", "end"):
        return (
            f"{where}: {schema} record has event {event!r}, not 'start' or 'end'; fix: restore the file "
            "from git"
        )
    cur = CURRENT[schema]
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        return (
            f"{where}: {schema} record lacks schema_version (or it is not an integer >= 1); fix: every "
            "record needs schema_version"
        )
    if version > cur:
        return (
            f"{where}: {schema} schema_version {version} is newer than this benchbook knows ({cur}); fix: "
            "update benchbook (pip install -e .) before reading these records"
        )
    return None


def check_kinds(df: pl.DataFrame) -> pl.DataFrame:
    """Raise ``SchemaError`` at the first row of ``df`` whose kind is unknown or whose version is missing or
    newer than ``CURRENT``; return ``df`` unchanged otherwise (older versions: ``migrations.upgrade``).

    ``df``: columns ``schema``, ``schema_version``, ``file``, ``line`` (as ``analysis.scan_jsonl`` gives
    with ``KIND_COLUMNS``); ``event``, when present, must be start | end on session records.
    Vectorized: one filter.
    """
    if df.is_empty():
        return df
    cur = pl.col("schema").replace_strict(CURRENT, default=None, return_dtype=pl.Int64)
    v = pl.col("schema_version")
    ok = cur.is_not_null() & v.is_not_null() & (v >= 1) & (v <= cur)
    if "event" in df.columns:
        ok = ok & ((pl.col("schema") != SESSION_START.schema) | pl.col("event").is_in(["start", "end"]))
    bad = df.filter(~ok.fill_null(False))
    if bad.is_empty():
        return df
    r = bad.row(0, named=True)
    msg = kind_error(f"{r['file']}:{r['line']}", r["schema"], r["schema_version"], r.get("event", "start"))
    assert msg is not None  # the filter above keeps exactly the rows kind_error rejects
    more = bad.height - 1
    raise SchemaError(msg + (f" ({more} more such records)" if more else ""))


# ---- write side and per-record checks -------------------------------------------------------------

_PY = {pl.String: (str,), pl.Int64: (int,), pl.Float64: (int, float), pl.Boolean: (bool,)}


def _type_ok(v, dtype) -> bool:
    if isinstance(dtype, pl.List):
        return isinstance(v, list) and all(x is None or _type_ok(x, dtype.inner) for x in v)
    if isinstance(dtype, pl.Struct):
        return isinstance(v, dict)
    want = _PY[dtype]
    return isinstance(v, want) and (dtype == pl.Boolean or not isinstance(v, bool))


def _dtype_name(f: Field) -> str:
    return (f.py or dict).__name__ if f.dtype is None else str(f.dtype)


def _check_obj(
    rec: dict,
    fields: tuple[Field, ...],
    is_open: bool,
    where: str,
    label: str,
    version: int,
    is_native: bool,
    path: str = "",
    experiment: str | None = None,
) -> None:
    declared = {f.name for f in fields}
    if not is_open:
        extra = [
            key
            for key in rec
            if key not in declared and not (path == "" and key in ("schema", "schema_version", "event"))
        ]
        if extra:
            raise SchemaError(
                f"{where}{label}: unknown field {path + extra[0]!r}; fix: declare it in benchbook/"
                f"schemas.py (with a version bump) or drop it; declared: {', '.join(sorted(declared))}"
            )
    for f in fields:
        name = path + f.name
        need = (
            f.since <= version
            and (f.required is True or (f.required == NATIVE and is_native))
            and (not f.experiments or experiment is None or experiment in f.experiments)
        )
        if f.name not in rec:
            if need:
                raise SchemaError(
                    f"{where}{label}: required field {name!r} is missing ({f.meaning}); "
                    f"fix: pass {f.name}=<{_dtype_name(f)}>"
                )
            continue
        v = rec[f.name]
        if v is None:
            if need and not f.nullable:
                raise SchemaError(
                    f"{where}{label}: field {name!r} is null; fix: it is required and not nullable "
                    f"({f.meaning})"
                )
            continue
        ok = isinstance(v, f.py or dict) if f.dtype is None else _type_ok(v, f.dtype)
        if not ok:
            raise SchemaError(
                f"{where}{label}: field {name!r} is {type(v).__name__} {str(v)[:40]!r}, declared "
                f"{_dtype_name(f)}{f' ({f.unit})' if f.unit else ''}; fix: write the declared type"
            )
        if f.members:
            items = enumerate(v) if f.many else v.items() if f.dtype is None else [(None, v)]
            for i, item in items:
                sub = name + (f"[{i!r}]" if i is not None else "") + "."
                if not isinstance(item, dict):
                    raise SchemaError(
                        f"{where}{label}: field {sub[:-1]!r} is {type(item).__name__}, declared object"
                    )
                _check_obj(item, f.members, f.open, where, label, version, is_native, sub, experiment)


def check_record(rec: dict, where: str = "") -> Kind:
    """Check one record (a dict) against its declaration; returns its kind.

    Version-aware: a record of an older version is checked against the fields of that version.

    Raises:
        SchemaError: unknown kind, version missing or newer (``where``, e.g. ``file:line``, first), or a
            field missing, unknown (closed kinds) or of the wrong type (the field and the fix named).
    """
    where = where or "record"
    msg = kind_error(where, rec.get("schema"), rec.get("schema_version"), rec.get("event"))
    if msg:
        raise SchemaError(msg)
    k = kind(rec["schema"], rec.get("event"))
    is_native = rec.get("origin", NATIVE) == NATIVE
    _check_obj(
        rec,
        k.fields,
        k.open,
        where + ": " if where else "",
        f"{k.schema} v{rec['schema_version']}",
        rec["schema_version"],
        is_native,
        experiment=_experiment(rec),
    )
    return k


def _experiment(rec: dict) -> str | None:
    e = rec.get("experiment")
    return e if isinstance(e, str) else None


def build(name: str, **fields: Any) -> dict[str, Any]:
    """A record of kind ``name`` (key, e.g. ``"llama_bench"``) at its current version, checked.

    ``schema``/``schema_version`` (and ``event``) are filled; fields go in the order given.

    Raises:
        SchemaError: a required field missing, an unknown field (where the kind is closed) or a value of
            the wrong type; the message names the field and the fix.
    """
    k = kind(name)
    rec = {
        "schema": k.schema,
        "schema_version": k.version,
        **({"event": k.event} if k.event else {}),
        **fields,
    }
    for key in ("schema", "schema_version", "event"):
        if key in fields and fields[key] != rec[key]:
            raise SchemaError(
                f"{k.schema} v{k.version}: field {key!r} is {fields[key]!r}; fix: leave it out, "
                "build() fills it"
            )
    rec.update({"schema": k.schema, "schema_version": k.version})
    is_native = rec.get("origin", NATIVE) == NATIVE
    _check_obj(
        rec,
        k.fields,
        k.open,
        "",
        f"{k.schema} v{k.version}",
        k.version,
        is_native,
        experiment=_experiment(rec),
    )
    return rec


# ---- migrations derived from the declarations ------------------------------------------------------


def backfill_step(name: str, from_version: int) -> Callable[[pl.DataFrame], pl.DataFrame]:
    """``frame -> frame`` upgrading rows of ``from_version`` to ``from_version + 1``: every field added at
    the next version with a ``backfill`` value gets it where null, typed as declared; a field without one
    stays as decoded (null; a column the reader did not decode is not added)."""
    k = kind(name)
    added = [
        f for f in k.fields if f.since == from_version + 1 and f.dtype is not None and f.backfill is not None
    ]

    def step(df: pl.DataFrame) -> pl.DataFrame:
        cols = []
        for f in added:
            lit = pl.lit(f.backfill, dtype=f.dtype)
            cols.append((pl.coalesce(pl.col(f.name), lit) if f.name in df.columns else lit).alias(f.name))
        return df.with_columns(cols) if cols else df

    step.__doc__ = f"{k.schema} v{from_version} -> v{from_version + 1}: backfill {[f.name for f in added]}"
    return step


def derived_migrations() -> dict[tuple[str, int], Callable[[pl.DataFrame], pl.DataFrame]]:
    """``{(schema, v): step}`` for every upgrade that the declarations alone define (added fields with a
    backfill); the ``manual_steps`` of a kind are hand-written in ``migrations``."""
    out = {}
    for k in KINDS.values():
        for v in range(1, k.version):
            if v not in k.manual_steps:
                out[(k.schema, v)] = backfill_step(k.key, v)
    return out
