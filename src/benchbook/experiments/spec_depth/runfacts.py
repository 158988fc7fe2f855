"""What a depth number's runs state about themselves: the model file and the times they measured, read from
the ``benchbook.spec_depth.request`` and llama-bench row records by ``run_id`` (``run_facts``), and the
run ids and commands of the records a number cites, by their lines (``cited_runs``).  The depth numbers
named no ``model_sha256`` and no ``measured_from``/``measured_to``, so the page's "What was measured"
read "Model files: —" and gave no dates (the offload page's defect, item 31 of the new-user report); and
no run id or command (issue 26)."""

from __future__ import annotations

from pathlib import Path

from benchbook.measured import parse_utc
from benchbook.records import read_records
from benchbook.schemas import LLAMA_BENCH_SCHEMAS

from . import EXPERIMENT, REQUEST_SCHEMA


def run_index(raw: Path) -> dict[str, list[dict]]:
    """``{run_id: [record, ...]}`` of every request and llama-bench record under ``raw/spec_depth``
    (quarantined files left out).

    Raises:
        records.RecordError: a line is not a record (file:line).
    """
    files = [
        f
        for f in sorted((Path(raw) / EXPERIMENT).glob("*.jsonl"))
        if not f.name.endswith(".quarantine.jsonl")
    ]
    out: dict[str, list[dict]] = {}
    for schema in (REQUEST_SCHEMA, *LLAMA_BENCH_SCHEMAS):  # the llama-bench rows: the one kind, retired ones
        for rec in read_records(files, schema=schema):
            if rec.get("run_id"):
                out.setdefault(rec["run_id"], []).append(rec)
    return out


def run_facts(index: dict[str, list[dict]], run_ids: list[str]) -> dict:
    """The ``Number`` fields ``run_ids``' records state: ``model_sha256`` (the one target model file they
    ran, ``model_sha256`` of the records; None when several or none), ``measured_from`` (the earliest
    ``started_at``) and ``measured_to`` (the latest ``ended_at``).

    >>> idx = {"a": [{"model_sha256": "s", "started_at": "2026-11-30T22:20:59Z",
    ...               "ended_at": "2026-11-30T22:22:53Z"}]}
    >>> run_facts(idx, ["a", "missing"])["model_sha256"], run_facts(idx, [])["measured_from"]
    ('s', None)
    """
    recs = [r for i in run_ids for r in index.get(i, [])]
    shas = {r["model_sha256"] for r in recs if r.get("model_sha256")}
    starts = [r["started_at"] for r in recs if r.get("started_at")]
    ends = [r["ended_at"] for r in recs if r.get("ended_at")]
    return {
        "model_sha256": shas.pop() if len(shas) == 1 else None,
        "measured_from": min(starts, key=parse_utc) if starts else None,
        "measured_to": max(ends, key=parse_utc) if ends else None,
    }


def records_at(index: dict[str, list[dict]]) -> dict[tuple[str, int], dict]:
    """``{(file, line): record}`` of every record of ``run_index``'s ``index`` (``read_records``' ``_file``
    and ``_line``): the records a number's ``sources`` cite, by their lines."""
    return {(r["_file"], r["_line"]): r for recs in index.values() for r in recs}


def cited_runs(at: dict[tuple[str, int], dict], file: str, lines: list[int]) -> dict:
    """The ``Number`` fields naming the records at ``lines`` of ``file`` (``at``: ``records_at``):
    ``run_ids`` (each once, in line order) and ``commands`` (their distinct ``argv`` lists, in line
    order: a llama-server argv differs between repetitions by its port).  Lines holding no record of
    ``at`` are left out.

    >>> at = {("f", 3): {"run_id": "a", "argv": ["x", "1"]}, ("f", 4): {"run_id": "b", "argv": ["x", "1"]}}
    >>> cited_runs(at, "f", [4, 3, 9])
    {'run_ids': ['a', 'b'], 'commands': [['x', '1']]}
    """
    recs = [at[(file, i)] for i in sorted(set(lines)) if (file, i) in at]
    commands = [list(r["argv"]) for r in recs if r.get("argv")]
    return {
        "run_ids": list(dict.fromkeys(r["run_id"] for r in recs if r.get("run_id"))),
        "commands": [list(c) for c in dict.fromkeys(tuple(c) for c in commands)],
    }
