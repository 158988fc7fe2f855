"""The outputs behind the draft-self numbers: every prompt and variant of the reported session, escaped,
with sha256 and token count, and a variant that differs from AR greedy highlighted from where it diverges.

Rows are ``benchbook.outputs.OutputRow``s rendered by ``benchbook.outputs.outputs_md`` (the speculative
page's section, the same look): the run records (``benchbook.draftself.run``: ``output_text``,
``output_sha256``, ``n_tokens``, ``stop_type``) of the session, each compared with the AR run
(``config_name == "ar"``) of the same prompt and repetition.  The generated token ids come from the
per-step records (``benchbook.draftself.step``, their ``committed`` tokens in step order; written for the
first repetition); where a run has none, the first differing token is the first differing
whitespace-separated word (the corpus is word-level: ``draftself.data`` joins tokens with spaces).
"""

from __future__ import annotations

from pathlib import Path

from benchbook.outputs import OutputRow, first_difference, outputs_md
from benchbook.records import read_records

#: The baseline's name on the page (its configuration is ``ar``).
BASELINE = "AR greedy"
RUN_SCHEMA = "benchbook.draftself.run"
STEP_SCHEMA = "benchbook.draftself.step"


def steps_file(runs_file: Path) -> Path:
    """Where the per-step records of ``runs_file`` are: ``<host_id>.steps.jsonl`` beside ``<host_id>.jsonl``,
    ``steps.jsonl`` beside the committed ``runs.jsonl``."""
    runs_file = Path(runs_file)
    if runs_file.name == "runs.jsonl":
        return runs_file.with_name("steps.jsonl")
    return runs_file.with_name(runs_file.name.removesuffix(".jsonl") + ".steps.jsonl")


def generated_tokens(steps: list[dict]) -> dict[str, list[int]]:
    """``{run_id: token ids}``: each run's steps in ``step`` order, their ``committed`` tokens concatenated.

    >>> generated_tokens([{"run_id": "r", "step": 1, "committed": [5, 6]}, {"run_id": "r", "step": 0,
    ...     "committed": [4]}])
    {'r': [4, 5, 6]}
    """
    by_run: dict[str, list[tuple[int, list[int]]]] = {}
    for s in steps:
        committed = [int(t) for t in s.get("committed") or []]
        by_run.setdefault(s["run_id"], []).append((int(s["step"]), committed))
    return {run: [t for _, ts in sorted(parts) for t in ts] for run, parts in by_run.items()}


def output_rows(runs: list[dict], tokens: dict[str, list[int]]) -> list[OutputRow]:
    """One row per run record of ``runs`` (one session), compared with the AR run of the same prompt and
    repetition: token ids from ``tokens`` when both runs have them, else the output's words.  The AR
    configuration is named ``BASELINE``.  Sorted by prompt, baseline first, then variant and repetition."""
    ar = {(r["prompt_id"], r["rep"]): r for r in runs if r["config_name"] == "ar"}
    rows = []
    for r in runs:
        base = ar.get((r["prompt_id"], r["rep"]))
        text = r.get("output_text") or ""
        diff_token = diff_char = None
        if base is not None and r["config_name"] != "ar" and r["output_sha256"] != base["output_sha256"]:
            mine, theirs = tokens.get(r["run_id"]), tokens.get(base["run_id"])
            if mine is not None and theirs is not None:
                diff_token = first_difference(mine, theirs)
            else:  # no step records: the words of the output (one token each)
                diff_token = first_difference(text.split(), (base.get("output_text") or "").split())
            diff_char = first_difference(text, base.get("output_text") or "")
        rows.append(
            OutputRow(
                r["session_id"],
                r["prompt_id"],
                BASELINE if r["config_name"] == "ar" else r["config_name"],
                int(r["rep"]),
                text,
                r["output_sha256"],
                int(r.get("n_tokens") or 0),
                r.get("stop_type"),
                diff_token,
                diff_char,
            )
        )
    return sorted(rows, key=lambda o: (o.prompt_id, o.config_id != BASELINE, o.config_id, o.rep))


def session_outputs_md(runs_file: Path, session_id: str) -> str:
    """``outputs_md`` of every run of ``session_id`` in ``runs_file`` (its steps from ``steps_file``)."""
    runs = [r for r in read_records([Path(runs_file)], RUN_SCHEMA) if r["session_id"] == session_id]
    steps_path = steps_file(Path(runs_file))
    steps = (
        [s for s in read_records([steps_path], STEP_SCHEMA) if s["session_id"] == session_id]
        if steps_path.is_file()
        else []
    )
    return outputs_md(output_rows(runs, generated_tokens(steps)), baseline=BASELINE, anchor="ds-out")
