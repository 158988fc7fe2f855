"""The one report pipeline: what every experiment's ``report.build`` does between its raw records and
its registry file, in one function (``publish_report``; issue 26 §2).

An experiment declares what is its own in a ``Report`` (its policy name, its raw folder, how its
session's runs are planned, its table kind for the caveat rules, its ``table`` and ``numbers``
callables) and ``publish_report`` does the rest, in this order:

1. ``params.yaml`` ``report`` checked once (``caveats.check_report``: thresholds, ``confidence``,
   ``primary_host``);
2. the sessions checked and selected by the one policy table (``measured.check`` or the experiment's own
   layout's check, then ``measured.select`` with ``POLICIES[name]``), the runs of each session checked
   against the plan its start record makes (``Report.planned``) where the policy says sessions plan
   their runs; no published session: a ``RuntimeError`` listing every session skipped and why;
3. the experiment's table of the published sessions (``Report.table(inputs)``);
4. the caveat rules on that table (``Inputs.judge``: ``caveats.evaluate_per_host``, each row judged with
   the thresholds of ``params.yaml`` ``report`` and its own host's snapshot, ``caveats.host_thresholds``:
   its core count), where the experiment names its table kind (``Report.caveat_kind``); or, where a
   number reads several rows, on one row per number after they are built (``Report.caveat_rows``,
   ``judge_numbers``); an experiment with several tables judges each through ``Inputs.judge``;
5. the numbers (``Report.numbers(inputs, table)``), their citations filled from the rows each names
   (``cite``: sources, run ids, commands, build label, model, host, session, time span);
6. the generic publish checks and the registry file (``numbers.publish``: finite values, units from
   ``numbers.Unit``, a log-scale interval if and only if n >= 3 for a rate or ratio, or the reason it
   has none; a command on every number, run ids that are exactly those of the records it cites).

An experiment's report module keeps what is its own: its tables, charts, page fragments and sections.
Through it now: ``template``, ``llama_bench``, ``draftself`` and ``draftself_gpu`` (the two variants of
draft-self), ``spec_depth``, ``speculative``, ``offload`` and ``tool_gap``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from benchbook import caveats, measured
from benchbook.numbers import Number, build_of, line_ranges, publish
from benchbook.provenance import read_snapshots


@dataclass(frozen=True)
class Where:
    """The paths of one report: the experiment's raw ``folder`` (``data/raw/<name>``), the ``snapshots``
    store (``data/raw/snapshots``), the ``out`` folder of its tables and charts (``reports/<name>``),
    its registry file ``numbers`` (``reports/numbers/<name>.json``) and the ``root`` the registry
    names cited files relative to (None: the repository holding the working directory)."""

    folder: Path
    snapshots: Path
    out: Path
    numbers: Path
    root: Path | None = None
    #: host snapshot files of an older layout read too (draft-self's ``data/raw/draftself/hosts.jsonl``)
    legacy_hosts: tuple[Path, ...] = ()

    @classmethod
    def of(
        cls, name: str, *, root: Path, raw_dir: Path, reports_dir: Path, folder: str | None = None
    ) -> Where:
        """The standard layout of a stage: ``raw_dir``/``reports_dir`` relative to ``root`` unless
        absolute (``benchbook.experiments``); ``folder``: the raw folder's name (default ``name``)."""
        root = Path(root)
        raw, reports = root / raw_dir, root / reports_dir
        return cls(
            raw / (folder or name),
            raw / "snapshots",
            reports / name,
            reports / "numbers" / f"{name}.json",
            root,
        )

    @property
    def raw(self) -> Path:
        """The raw folder holding every experiment's (``data/raw``)."""
        return self.folder.parent


@dataclass(frozen=True)
class Inputs:
    """What ``publish_report`` gives an experiment's ``table`` and ``numbers``: the whole ``params``
    (``params.yaml``; None where a caller gives only its ``report`` section), that ``report`` section
    checked (``caveats.check_report``), the paths (``where``), the ``selection`` made
    (``measured.Selection``), and the host and toolchain snapshots by id (``provenance.read_snapshots``)."""

    name: str
    params: Mapping | None
    report: dict
    where: Where
    selection: measured.Selection
    hosts: dict[str, dict]
    toolchains: dict[str, dict]

    @property
    def confidence(self) -> float:
        """The confidence level of every interval (``params.yaml`` ``report.confidence``, 0.95)."""
        return float(self.report["confidence"])

    @property
    def primary_host(self) -> str | None:
        """``params.yaml`` ``report.primary_host`` (None: the newest session's host)."""
        return self.report["primary_host"]

    def session_ids(self) -> list[str]:
        """The ids of the published sessions (``Selection.published``), in the policy's order."""
        return [c.session_id for c in self.selection.published]

    def thresholds(self, host_id: str | None) -> dict:
        """The caveat thresholds a row of host ``host_id`` is judged by (``caveats.host_thresholds``)."""
        return caveats.host_thresholds(self.report, self.hosts.get(str(host_id)))

    def judge(self, table: pl.DataFrame, kind: str, rules: list[str] | None = None) -> pl.DataFrame:
        """``table`` + ``caveats``: the rules of table kind ``kind`` (``rules``: those run, default all),
        each row judged with the ``params.yaml`` ``report`` thresholds and its own host's snapshot
        (column ``host_id``; ``caveats.evaluate_per_host``): how every report evaluates its caveats.

        Raises:
            ValueError: as ``caveats.evaluate_per_host``."""
        return caveats.evaluate_per_host(table, kind, self.report, self.hosts, rules)


@dataclass(frozen=True)
class Report:
    """What one experiment plugs into ``publish_report``.

    ``name``: its policy in ``measured.POLICIES`` and its registry file ``numbers/<name>.json``;
    ``table(inputs) -> polars.DataFrame``: the rows its numbers are built from, of the published
    sessions (a ``host_id`` column where ``caveat_kind`` is given); ``numbers(inputs, table) ->
    list[Number]``; ``replication``: the default unit of replication of its numbers; ``folder``: its raw
    folder under ``raw_dir`` (default ``name``); ``planned(inputs) -> measured.Planned``: the runs a
    session's start record plans (required where the policy's ``planned`` is True); ``check(folder) ->
    {session_id: SessionCheck}``: an experiment whose raw layout is its own (draft-self's
    ``sessions.jsonl``) checks its sessions itself; ``caveat_kind``/``caveat_rules``: the table kind
    of ``caveats.evaluate`` and the rules run (None: the experiment's table carries no caveat columns);
    ``caveat_rows(inputs, table, numbers) -> polars.DataFrame``: where a number reads more than one row
    of the table (a speedup reads two configurations, a cost-model residual every run holding a pass it
    used), one row per number, in their order, with the columns its rules read and ``host_id``: the
    rules are then evaluated on these rows after the numbers are built and each number's ``caveats`` set
    from its row (``judge_numbers``); without it ``table`` (a ``polars.DataFrame``) is evaluated before
    the numbers, which read their row's ``caveats``.  ``table`` may return any object its ``numbers``
    and ``caveat_rows`` read (an experiment's several tables) where ``caveat_rows`` is given.
    ``fix``: the command that measures a session (named when none passes).  ``empty_ok``: no published
    session is no error: ``publish_report`` publishes an empty registry and returns without a table
    (``Published.table`` None; the experiment's page says that none is published yet: offload, whose
    sessions need a CUDA host)."""

    name: str
    table: Callable[[Inputs], Any]
    numbers: Callable[[Inputs, Any], list[Number]]
    replication: str
    folder: str | None = None
    planned: Callable[[Inputs], measured.Planned] | None = None
    check: Callable[[Path], dict[str, measured.SessionCheck]] | None = None
    caveat_kind: str | None = None
    caveat_rules: list[str] | None = None
    caveat_rows: Callable[[Inputs, Any, list[Number]], pl.DataFrame] | None = None
    fix: str = ""
    empty_ok: bool = False


@dataclass
class Published:
    """What ``publish_report`` did: its ``inputs``, the ``table`` (with ``caveats`` where evaluated),
    the published ``numbers`` and the registry ``path`` written."""

    inputs: Inputs
    table: Any
    numbers: list[Number]
    path: Path = field(default_factory=Path)


def select(spec: Report, report: Mapping | None, where: Where, params: Mapping | None = None) -> Inputs:
    """Steps 1 and 2 of ``publish_report``: ``report`` (``params.yaml`` ``report``) checked, the sessions
    of ``where.folder`` checked (against their plan where the policy says they plan their runs) and
    selected by ``measured.POLICIES[spec.name]``, the snapshots read.

    Raises:
        ValueError: ``report`` is invalid (``caveats.check_report``).
        RuntimeError: no session passes the checks (the message lists each skipped one and the fix).
    """
    checked = caveats.check_report(dict(report) if report is not None else None)
    hosts = read_snapshots(where.snapshots, "host", legacy=where.legacy_hosts)
    toolchains = read_snapshots(where.snapshots, "toolchain")
    pre = Inputs(spec.name, params, checked, where, _EMPTY, hosts, toolchains)
    if spec.check is not None:
        checks = spec.check(where.folder)
    else:
        checks = measured.check(spec.name, where.folder, spec.planned(pre) if spec.planned else None)
    picked = measured.select(spec.name, checks, checked["primary_host"])
    if not picked.published and not spec.empty_ok:
        raise RuntimeError(
            f"no completed {spec.name} session under {where.folder} that passes the checks; fix: "
            f"{spec.fix or f'`dvc repro -f -s {spec.name}`'}\n{measured.skipped_markdown(picked.skipped)}"
        )
    return Inputs(spec.name, params, checked, where, picked, hosts, toolchains)


_EMPTY = measured.Selection("", [], [], {})


def publish_report(
    spec: Report, params: Mapping | None, where: Where, report: Mapping | None = None
) -> Published:
    """The report pipeline (module docstring): select, table, caveats, numbers, checks, publish.
    ``params``: ``params.yaml`` (its ``report`` section unless ``report`` is given: a caller with only
    that section passes ``params=None``).  Writes ``where.numbers`` (``numbers.publish``) and nothing
    else; the experiment writes its own tables and charts from what it returns.

    Raises:
        ValueError: ``report`` is invalid; a number fails the publish checks (the message names its key
            and the fix; nothing is written).
        RuntimeError: no session passes the checks (and ``spec.empty_ok`` is False).
    """
    inputs = select(spec, (params or {}).get("report") if report is None else report, where, params)
    if not inputs.selection.published:  # spec.empty_ok: an empty registry, no table
        publish(where.numbers, spec.name, [], root=where.root)
        return Published(inputs, None, [], where.numbers)
    table = spec.table(inputs)
    if spec.caveat_kind is not None and spec.caveat_rows is None:
        table = inputs.judge(table, spec.caveat_kind, spec.caveat_rules)
    nums = spec.numbers(inputs, table)
    if spec.caveat_kind is not None and spec.caveat_rows is not None:
        judge_numbers(
            nums, spec.caveat_rows(inputs, table, nums), spec.caveat_kind, inputs, spec.caveat_rules
        )
    publish(where.numbers, spec.name, nums, root=where.root, replication=spec.replication)
    return Published(inputs, table, nums, where.numbers)


def judge_numbers(
    nums: list[Number], rows: pl.DataFrame, kind: str, inputs: Inputs, rules: list[str] | None = None
) -> pl.DataFrame:
    """Set each number's ``caveats`` from its row of ``rows`` (one per number, same order, with
    ``host_id``): ``caveats.evaluate_per_host`` with table kind ``kind``, the ``params.yaml`` ``report``
    thresholds and each row's own host snapshot.  Returns the evaluated rows in the numbers' order.

    Raises:
        ValueError: ``rows`` has not one row per number; as ``caveats.evaluate``."""
    if rows.height != len(nums):
        raise ValueError(
            f"judge_numbers: {rows.height} caveat rows for {len(nums)} numbers; one row per number"
        )
    judged = inputs.judge(rows.with_row_index("_number"), kind, rules).sort("_number")
    for num, ids in zip(nums, judged["caveats"].to_list(), strict=True):
        num.caveats = list(ids)
    return judged.drop("_number")


def cite(
    rows: dict | Iterable[dict],
    *,
    commands: list[list[str]] | None = None,
    toolchains: Mapping[str, dict] | None = None,
) -> dict:
    """The citation fields of a ``Number`` built from table ``rows`` (one row, or several: a ratio names
    both of its rows), each row naming what it read: ``files`` and ``lines`` (its records), ``run_ids``,
    and where the table has them ``argv``, ``host_id``, ``session_id``, ``toolchain_id``,
    ``model_sha256``, ``started_at``/``ended_at``, ``build_number``/``build_commit`` or ``runtime``.

    Returns ``{"sources", "run_ids", "commands", "host_id", "session_id", "toolchain_id",
    "model_sha256", "measured_from", "measured_to", "build", ...}``: sources merged per file (line ranges,
    ``numbers.line_ranges``), run ids in row order without repeats, a field the rows disagree on left out
    (None), the time span the earliest start to the latest end, the commands each row's ``argv`` (else
    ``commands``: the command of a session whose records hold no argv), the build label from the row's
    toolchain snapshot (``numbers.build_of``, ``toolchains``) or its ``runtime`` (our own decoder).

    Raises:
        KeyError: a row without ``files``, ``lines`` or ``run_ids``.
        ValueError: no rows.
    """
    rows = [rows] if isinstance(rows, dict) else list(rows)
    if not rows:
        raise ValueError("cite: no rows; a number names the rows it is built from")
    lines: dict[str, list[int]] = {}
    for r in rows:
        for f in r["files"]:
            lines.setdefault(str(f), []).extend(r["lines"])
    run_ids = list(dict.fromkeys(i for r in rows for i in r["run_ids"]))
    argvs = [list(r["argv"]) for r in rows if r.get("argv")]
    out: dict = {
        "sources": [{"file": f, "lines": line_ranges(v)} for f, v in lines.items()],
        "run_ids": run_ids,
        "commands": list({tuple(a): a for a in argvs}.values()) or list(commands or []),
    }
    for col in ("host_id", "session_id", "toolchain_id", "model_sha256"):
        values = {r.get(col) for r in rows}
        out[col] = values.pop() if len(values) == 1 else None
    starts = [r["started_at"] for r in rows if r.get("started_at")]
    ends = [r["ended_at"] for r in rows if r.get("ended_at")]
    out["measured_from"] = min(starts, key=measured.parse_utc) if starts else None
    out["measured_to"] = max(ends, key=measured.parse_utc) if ends else None
    first = rows[0]
    if "build_number" in first or toolchains is not None:
        tc = (toolchains or {}).get(str(out["toolchain_id"]), {})
        out |= build_of(tc, first.get("build_number"), first.get("build_commit"))
    elif first.get("runtime"):
        out["build"] = first["runtime"]
    return out
