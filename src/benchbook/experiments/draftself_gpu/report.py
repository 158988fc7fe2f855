"""Draft-self on the GPU (a variant of the draft-self experiment): report tables and the numbers registry.

Writes ``reports_dir/draftself_gpu/{train,by_k,per_prompt,curve,verdict,skipped}.md`` and publishes
``reports_dir/numbers/draftself_gpu.json``: per k of the newest session that passes the "measured now,
complete" check (``draftself.sessioncheck``, variant ``draftself_gpu``)
``draftself_gpu-k<k>-tau|alpha|speedup|ds_tps|tau_break_even|residual``,
``draftself_gpu-ar_tps``, ``draftself_gpu-decode_pass_ms``, per prompt ``draftself_gpu-p-<prompt>-k<k>-tau``
and ``draftself_gpu-p-<prompt>-repeat_share``, and per training
``draftself_gpu-t<session8>-train_seconds|steps|held_out_loss_next|n_params``.

Each number cites exactly the runs its computation read (``draftself.report.cite``): τ and α the first
timed repetition of their configuration; a decode rate every run of its configuration; a speedup its
draft-self runs and the AR runs it is divided by; the cost model's residual those and every run holding a
pass of a kind and size whose session mean it used; τ* the runs with (k+1)-token draft and verify
passes and 1-token decode passes; a per-prompt τ its one run, a repeat share the AR run whose output it
reads.  Caveats come from the shared engine over one row per number (``caveat_rows``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from benchbook import atomicfile, blocks, measured
from benchbook.experiments import reporting
from benchbook.experiments.draftself.report import cite, runs_with_passes
from benchbook.numbers import NO_INTERVAL_PASSES, Number, Unit, make_key
from benchbook.numtable import md_table
from benchbook.stats import LOG_T
from benchbook.wording import ratio_word

from ..draftself import sessioncheck
from . import EXPERIMENT
from .analysis import by_k, decode_pass_ms, load, load_train, per_prompt
from .caveat_rows import RULES, Reads, number_table, session_checkpoints

#: The modules whose functions compute this registry's numbers (``Number.computation``).
GPU, CPU = "benchbook.experiments.draftself_gpu.analysis.", "benchbook.experiments.draftself.analysis."
#: The command that measured a session (training and decoding, ``run.measure``): a number's command, as
#: its records hold no argv of their own (the decoder runs in the measuring process, not as a binary).
COMMAND = ["python", "-m", "benchbook.experiments", EXPERIMENT]
#: Each per-k number's ``ci_method``: how its interval over prompts is computed, or why it has none.
#: τ and the decode rates are arithmetic means over prompts (a rate: llama-bench's ``avg_ts``
#: definition) with the log-scale interval of a positive mean (``stats.log_t_interval``, delta
#: method); the speedup and the residual are geometric means over prompts with a Student-t interval
#: on the per-prompt logs (``stats.describe``) taken back through exp.
CI_METHOD = {
    "tau": LOG_T + ", over per-prompt τ",
    "ds_tps": LOG_T + ", over per-prompt mean rates",
    "ar_tps": LOG_T + ", over per-prompt mean rates",
    "speedup": "student-t over per-prompt logs",
    "residual": "student-t over per-prompt logs",
    "alpha": "none: pooled ratio",
    "tau_break_even": "none: computed from session mean pass costs",
}


@dataclass
class DraftselfGpuReport:
    """What the report shows: the published numbers and the tables of the latest session."""

    numbers: list[Number] = field(default_factory=list)
    session_id: str = ""
    train: pl.DataFrame = field(default_factory=pl.DataFrame)
    by_k: pl.DataFrame = field(default_factory=pl.DataFrame)
    per_prompt: pl.DataFrame = field(default_factory=pl.DataFrame)


def verdict_md(table: pl.DataFrame) -> str:
    """One generated sentence per k: τ against its break-even τ* and the speedup against AR, each number
    quoted as ``{{< var KEY >}}`` (its interval and caveat markers beside it on the page).  The words
    follow the intervals: τ is "above" or "below" τ* only when its interval over prompts excludes τ*
    (without an interval, fewer than 3 prompts, the value decides and the words say "(no interval)",
    as ``ratio_word``'s), and the speedup's word is ``wording.ratio_word``'s ("faster" only when the
    whole interval lies above 1); a k without a break-even τ* (its passes not measured) says so."""
    lines = []
    for r in table.iter_rows(named=True):
        key = make_key(EXPERIMENT, f"k{r['k']}")
        star, ci = r["tau_break_even"], r["tau_ci"]
        low, high = (ci[0], ci[1]) if ci else (r["tau"], r["tau"])
        if star is None:  # the session measured no (k+1)-token draft or verify pass
            versus = "has no break-even τ* (no (k+1)-token draft and verify passes measured)"
        else:
            side = "above" if low > star else "below" if high < star else "not distinguishable from"
            side += "" if ci or side.startswith("not") else " (no interval)"
            versus = f"is {side} its break-even τ* {{{{< var {key}-tau_break_even >}}}}"
        word = ratio_word(r["speedup"], r["speedup_ci"])
        sp = word.replace("the baseline", "AR") if word.startswith("not") else f"{word} than AR"
        lines.append(
            f"- k = {r['k']}: mean τ {{{{< var {key}-tau >}}}} {versus}; "
            f"{sp}: {{{{< var {key}-speedup >}}}}; greedy output "
            f"{'equal to' if r['equals_ar_all'] else 'NOT always equal to'} AR on every run."
        )
    return "\n".join(lines) + "\n"


def _var(key: str) -> str:
    """A table cell quoting registry ``key`` without its unit (the header names it)."""
    return f"{{{{< var {key}__v >}}}}"


def _ids(runs: pl.DataFrame, expr: pl.Expr) -> list[str]:
    return runs.filter(expr)["run_id"].to_list()


def session_numbers(
    runs: pl.DataFrame, table: pl.DataFrame, pp: pl.DataFrame, common: dict
) -> tuple[list[Number], dict[str, Reads]]:
    """The numbers of one session (module doc) and what each reads beyond its cited runs (``Reads``)."""
    nums: list[Number] = []
    reads: dict[str, Reads] = {}
    first_rep = pl.col("rep") == pl.col("rep").min()
    ar = pl.col("decoder") == "ar"

    def add(num: Number, read: Reads) -> None:
        nums.append(num)
        reads[num.key] = read

    for r in table.iter_rows(named=True):
        k, name = int(r["k"]), r["config_name"]
        mine = pl.col("config_name") == name
        pair = r["run_ids"]  # the speedup's draft-self runs and the AR runs they are divided by
        used = runs.filter(pl.col("run_id").is_in(pair)).select("pass_kind", "pass_n")
        kinds = sorted(
            {(a, b) for ks, ns in used.iter_rows() for a, b in zip(ks, ns, strict=True) if a != "prefill"}
        )
        cites = {
            "tau": _ids(runs, mine & first_rep),
            "alpha": _ids(runs, mine & first_rep),
            "speedup": pair,
            "ds_tps": _ids(runs, mine),
            "tau_break_even": runs_with_passes(runs, [("draft", k + 1), ("verify", k + 1), ("decode", 1)]),
            "residual": sorted({*pair, *runs_with_passes(runs, kinds)}),
        }
        for col, unit, label, ci_key, computation, read in (
            (
                "tau",
                Unit.TAU,
                "τ (tokens per verify step, mean over prompts)",
                "tau_ci",
                GPU + "per_prompt",
                (0, 1),
            ),
            (
                "alpha",
                Unit.FRACTION,
                "α (accepted ÷ drafted, pooled over prompts)",
                None,
                GPU + "by_k",
                (0, 1),
            ),
            (
                "speedup",
                Unit.SPEEDUP,
                "AR decode time ÷ draft-self decode time",
                "speedup_ci",
                CPU + "speedup",
                (1, 1),
            ),
            (
                "ds_tps",
                Unit.TOK_S,
                "draft-self decode rate (mean over prompts)",
                "ds_tps_ci",
                GPU + "per_prompt",
                (1, 1),
            ),
            (
                "tau_break_even",
                Unit.TAU,
                "break-even τ* = r_draft(k+1) + r_verify(k+1)",
                None,
                CPU + "break_even",
                (1, 0),
            ),
            (
                "residual",
                Unit.FRACTION,
                "cost model ÷ measured speedup − 1",
                "residual_ci",
                CPU + "paired_gap",
                (1, 0),
            ),
        ):
            ci = r.get(ci_key) if ci_key else None
            add(
                Number(
                    key=make_key(EXPERIMENT, f"k{k}", col),
                    value=round(float(r[col]), 4),
                    unit=unit,
                    label=f"draft-self k={k} on the GPU: {label}",
                    n=int(r["prompts"]),
                    computation=computation,
                    ci95=[round(ci[0], 4), round(ci[1], 4)] if ci and ci[0] is not None else None,
                    # a number without an interval over prompts: why it has none (below 3 prompts:
                    # ``publish``'s default)
                    ci_method=CI_METHOD[col] if (ci and ci[0] is not None) or not ci_key else None,
                    replication="prompts",
                    **cite(runs, cites[col]),
                    **common,
                ),
                Reads(
                    timing=bool(read[0]), acceptance=bool(read[1]), k=None if col == "tau_break_even" else k
                ),
            )
    first = table.row(0, named=True)
    add(
        Number(
            key=make_key(EXPERIMENT, "ar_tps"),
            value=round(float(first["ar_tps"]), 2),
            unit=Unit.TOK_S,
            label="plain greedy AR decode rate on the GPU (mean over prompts)",
            n=int(first["prompts"]),
            computation=GPU + "per_prompt",
            ci95=[round(x, 2) for x in first["ar_tps_ci"]] if first["ar_tps_ci"] else None,
            ci_method=CI_METHOD["ar_tps"] if first["ar_tps_ci"] else None,
            replication="prompts",
            **cite(runs, _ids(runs, ar)),
            **common,
        ),
        Reads(timing=True),
    )
    add(
        Number(
            key=make_key(EXPERIMENT, "decode_pass_ms"),
            value=round(decode_pass_ms(runs), 3),
            unit=Unit.MS,
            label="mean wall time of a 1-token decode pass on the GPU (the unit of r)",
            n=int(first["prompts"]),
            computation=CPU + "pass_costs",
            ci_method=NO_INTERVAL_PASSES,
            replication="prompts",
            **cite(runs, runs_with_passes(runs, [("decode", 1)])),
            **common,
        ),
        Reads(timing=True),
    )

    def one_output(key: str, value, unit: Unit, label: str, computation: str, replication: str, run_id):
        """A number of one prompt read from one deterministic output (its one run, n = 1)."""
        add(
            Number(
                key=key,
                value=round(float(value), 4),
                unit=unit,
                label=label,
                n=1,
                computation=GPU + computation,
                replication=replication,
                **cite(runs, [run_id]),
                **common,
            ),
            Reads(acceptance=True),
        )

    for r in pp.filter(ar).iter_rows(named=True):
        p = r["prompt_id"]
        label = f"share of repeated word 4-grams in the AR greedy output of prompt {p}"
        key = make_key(EXPERIMENT, "p", p, "repeat_share")
        once = "none: one deterministic output"
        one_output(key, r["repeat_share"], Unit.FRACTION, label, "repeat_share", once, r["ar_run_id"])
    for r in pp.filter(~ar).iter_rows(named=True):
        p, k = r["prompt_id"], r["k"]
        label = f"draft-self k={k} on the GPU: τ on prompt {p}"
        key = make_key(EXPERIMENT, "p", p, f"k{k}", "tau")
        once = "none: one deterministic output (first timed repetition)"
        one_output(key, r["tau"], Unit.TAU, label, "per_prompt", once, r["first_run_id"])
    return nums, reads


def train_numbers(train: pl.DataFrame) -> list[Number]:
    """Per training record: wall time, steps, held-out loss, parameters (each cites its one line)."""
    nums = []
    for t in train.iter_rows(named=True):
        for col, unit, label in (
            ("train_seconds", Unit.S, "training wall time"),
            ("steps", Unit.STEPS, "training steps"),
            ("held_out_loss_next", Unit.NATS, "held-out next-token loss"),
            ("n_params", Unit.PARAMETERS, "model parameters"),
        ):
            nums.append(
                Number(
                    key=make_key(EXPERIMENT, f"t{t['session_id'][:8]}", col),
                    value=float(t[col]),
                    unit=unit,
                    label=f"draft-self GPU training {t['session_id'][:8]}: {label}",
                    n=1,
                    computation=GPU + "load_train",
                    # the training record holds no run id (one training of the session, not a run)
                    sources=[{"file": str(t["file"]), "lines": [[t["line"], t["line"]]]}],
                    commands=[COMMAND],
                    host_id=t["host_id"],
                    session_id=t["session_id"],
                    model_sha256=t["model_sha256"],
                    build=f"torch {t['torch_version']}, {t['device']}",
                    replication="none: one training",
                )
            )
    return nums


def by_k_md(table: pl.DataFrame) -> str:
    """The per-k table: published numbers as ``{{< var KEY__v >}}`` cells (their caveat markers beside
    them), the row label ``{{< var draftself_gpu-k<k>__cfg >}}`` saying a row's common caveats once; the
    pass-cost ratios, the cost model's prediction and output equality as plain values."""
    head = (
        "| k | prompts | τ [95% CI] | α | r_draft(k+1) | r_verify(k+1) | break-even τ* | AR tok/s "
        "| draft-self tok/s | speedup [95% CI] | cost model | residual [95% CI] | output = AR |"
    )
    lines = [head, "|" + "---|" * 13]
    ar = make_key(EXPERIMENT, "ar_tps")
    for r in table.iter_rows(named=True):
        key = make_key(EXPERIMENT, f"k{r['k']}")
        cells = [
            f"{r['k']} {{{{< var {key}__cfg >}}}}",
            str(r["prompts"]),
            _var(f"{key}-tau"),
            _var(f"{key}-alpha"),
            f"{r['r_draft']:.2f}",
            f"{r['r_verify']:.2f}",
            _var(f"{key}-tau_break_even"),
            _var(ar),
            _var(f"{key}-ds_tps"),
            _var(f"{key}-speedup"),
            f"{r['predicted']:.3f}",
            _var(f"{key}-residual"),
            "yes" if r["equals_ar_all"] else "NO",
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def per_prompt_md(pp: pl.DataFrame) -> str:
    """τ per prompt and k, and the share of repeated 4-grams in the prompt's AR output, as
    ``{{< var >}}`` cells; the row label ``{{< var draftself_gpu-p-<prompt>__cfg >}}``."""
    ks = sorted({int(k) for k in pp.filter(pl.col("decoder") == "draftself")["k"].to_list()})
    prompts = pp.filter(pl.col("decoder") == "ar").sort("prompt_kind", "prompt_id")
    head = "| prompt | kind | AR output repeated 4-grams | " + " | ".join(f"τ k={k}" for k in ks) + " |"
    lines = [head, "|" + "---|" * (3 + len(ks))]
    for r in prompts.iter_rows(named=True):
        key = make_key(EXPERIMENT, "p", r["prompt_id"])
        cells = [
            f"{r['prompt_id']} {{{{< var {key}__cfg >}}}}",
            r["prompt_kind"],
            _var(f"{key}-repeat_share"),
            *(_var(f"{key}-k{k}-tau") for k in ks),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


@dataclass
class Tables:
    """The tables of the published session (``tables``): its ``runs`` (``analysis.load``), ``by_k``,
    ``per_prompt`` and every training record (``train``); ``reads``: what each number reads beyond its
    cited runs (``session_numbers``, filled by ``numbers``)."""

    runs: pl.DataFrame
    by_k: pl.DataFrame
    per_prompt: pl.DataFrame
    train: pl.DataFrame
    reads: dict[str, Reads] = field(default_factory=dict)


def tables(inputs: reporting.Inputs) -> Tables:
    """The tables of the session the pipeline selected (``draftself_gpu`` policy) and every training."""
    runs = load(inputs.where.raw, inputs.session_ids()[0])
    return Tables(runs, by_k(runs), per_prompt(runs), load_train(inputs.where.raw))


def numbers(_inputs: reporting.Inputs, t: Tables) -> list[Number]:
    """The session's numbers (``session_numbers``) and the trainings' (``train_numbers``); each cites
    the runs it read (``draftself.report.cite``) and the session's command, host, model and build."""
    runs = t.runs
    common = {
        "commands": [COMMAND],
        "host_id": runs["host_id"][0],
        "session_id": runs["session_id"][0],
        "model_sha256": runs["model_sha256"][0],
        "build": runs["runtime"][0],
        "toolchain_id": runs["toolchain_id"][0],
        "measured_from": runs["started_at"].min(),
        "measured_to": runs["ended_at"].max(),
    }
    nums, t.reads = session_numbers(runs, t.by_k, t.per_prompt, common)
    return nums + train_numbers(t.train)


def caveat_rows(inputs: reporting.Inputs, t: Tables, nums: list[Number]) -> pl.DataFrame:
    """One row per number (``caveat_rows.number_table``), judged with the session host's thresholds."""
    kept = session_checkpoints(inputs.where.folder, inputs.where.root or Path.cwd())
    rows = number_table(nums, t.reads, t.runs, t.per_prompt, t.by_k, kept)
    return rows.with_columns(pl.lit(t.runs["host_id"][0]).alias("host_id"))


#: what draft-self on the GPU plugs into the one report pipeline (``reporting.publish_report``): its
#: sessions checked as the draft-self experiment's (``draftself.sessioncheck``, this variant's plan), caveats
#: one row per number
REPORT = reporting.Report(
    EXPERIMENT,
    table=tables,
    numbers=numbers,
    replication="prompts",
    check=lambda folder: sessioncheck.check(folder, EXPERIMENT),
    caveat_kind="draftself",
    caveat_rules=RULES,
    caveat_rows=caveat_rows,
    fix=f"run `python -m benchbook.experiments {EXPERIMENT}` on a CUDA host and merge its records with "
    "scripts/gpu_merge_draftself.sh",
)


def build(params: dict, *, root: Path, raw_dir: Path, reports_dir: Path) -> DraftselfGpuReport:
    """The stage ``draftself_gpu_report`` through the one report pipeline (``REPORT``): the session under
    ``raw_dir/draftself_gpu`` that the ``draftself_gpu`` policy publishes (``measured.select``: the
    primary host's newest session that passes ``draftself.sessioncheck.check``, measured in the session and
    complete, else the newest of any host), and every training record.
    ``params``: ``params.yaml``; its ``report`` section gives the caveat thresholds.

    Raises:
        RuntimeError: no completed session passes the check (fix: run ``python -m benchbook.experiments
        draftself_gpu`` on a CUDA host and merge its records with ``scripts/gpu_merge_draftself.sh``).
    """
    where = reporting.Where.of(EXPERIMENT, root=root, raw_dir=raw_dir, reports_dir=reports_dir)
    done = reporting.publish_report(REPORT, params, where)
    t, nums, skipped = done.table, done.numbers, done.inputs.selection.skipped
    runs, table, pp, train = t.runs, t.by_k, t.per_prompt, t.train
    session, root = runs["session_id"][0], Path(root)
    out = where.out
    out.mkdir(parents=True, exist_ok=True)
    tr = train.with_columns(
        session=pl.col("session_id").str.slice(0, 8),
        model=pl.col("model_sha256").str.slice(0, 12),
        tokenizer=pl.col("tokenizer_sha256").str.slice(0, 12),
        corpus=pl.col("corpus_sha256").str.slice(0, 12),
        files=pl.format("{} / {}", "train_files", "held_out_files"),
        params_m=pl.col("n_params") / 1e6,
    )
    atomicfile.write_text(
        out.joinpath("train.md"),
        md_table(
            tr,
            {
                "session": ("session", 0),
                "device": ("GPU", 0),
                "torch_version": ("torch", 0),
                "params_m": ("params (M)", 1),
                "steps": ("steps", 0),
                "train_seconds": ("train s", 1),
                "epochs": ("epochs", 2),
                "final_loss_next": ("train loss (next)", 3),
                "final_loss_masked": ("train loss (masked)", 3),
                "held_out_loss_next": ("held-out loss (next)", 3),
                "model": ("checkpoint sha256", 0),
                "tokenizer": ("tokenizer sha256", 0),
                "corpus": ("corpus sha256", 0),
                "files": ("files train / held-out", 0),
            },
        ),
    )
    curve_rows = []
    for t in train.iter_rows(named=True):
        for c in json.loads(t["curve"]):
            if c["step"] % 500 == 0 or c["step"] == t["steps"]:
                curve_rows.append({"session": t["session_id"][:8], **c})
    atomicfile.write_text(
        out.joinpath("curve.md"),
        md_table(
            pl.DataFrame(curve_rows),
            {
                "session": ("session", 0),
                "step": ("step", 0),
                "loss_next": ("loss (next)", 3),
                "loss_masked": ("loss (masked)", 3),
                "elapsed_s": ("elapsed s", 1),
            },
        ),
    )
    atomicfile.write_text(
        out.joinpath("by_k.md"),
        md_table(
            table,
            {
                "k": ("k", 0),
                "prompts": ("prompts", 0),
                "tau": ("τ", 2),
                "tau_ci": ("τ 95% CI", 2),
                "alpha": ("α", 3),
                "r_draft": ("r_draft(k+1)", 2),
                "r_verify": ("r_verify(k+1)", 2),
                "tau_break_even": ("break-even τ*", 2),
                "ar_tps": ("AR tok/s", 1),
                "ds_tps": ("draft-self tok/s", 1),
                "speedup": ("speedup", 3),
                "speedup_ci": ("speedup 95% CI", 3),
                "predicted": ("cost model", 3),
                "residual": ("residual", 3),
                "equals_ar_all": ("output = AR", 0),
            },
        ),
    )
    wide = (
        pp.filter(pl.col("decoder") == "draftself")
        .pivot(on="k", index=["prompt_id", "prompt_kind", "repeat_share"], values="tau")
        .sort("prompt_kind", "prompt_id")
    )
    ks = [c for c in wide.columns if c not in ("prompt_id", "prompt_kind", "repeat_share")]
    atomicfile.write_text(
        out.joinpath("per_prompt.md"),
        md_table(
            wide,
            {
                "prompt_id": ("prompt", 0),
                "prompt_kind": ("kind", 0),
                "repeat_share": ("AR output repeated 4-grams", 2),
                **{k: (f"τ k={k}", 2) for k in ks},
            },
        ),
    )
    # the page's tables: the published numbers as {{< var >}} cells, each with its caveat markers
    atomicfile.write_text(out.joinpath("by_k_page.md"), by_k_md(table))
    atomicfile.write_text(out.joinpath("per_prompt_page.md"), per_prompt_md(pp))
    atomicfile.write_text(out.joinpath("skipped.md"), measured.skipped_markdown(skipped, root))
    atomicfile.write_text(out.joinpath("verdict.md"), verdict_md(table))
    atomicfile.write_text(
        out.joinpath("facts.json"),
        json.dumps({"decode_pass_ms": round(decode_pass_ms(runs), 3), "session_id": session}) + "\n",
    )
    return DraftselfGpuReport(numbers=nums, session_id=session, train=train, by_k=table, per_prompt=pp)


def sections(res: DraftselfGpuReport, paths: blocks.Paths) -> Iterator[blocks.Block]:
    """What the report notebook shows (``notebooks/report.ipynb -p experiment draftself_gpu``, through
    ``blocks.show``): the training, loss curve, per-k and per-prompt tables ``build`` wrote, then the
    checks (``AssertionError`` on a failed one)."""
    yield blocks.Markdown(
        "# Draft-self on the GPU: report\nTraining (corpus, tokenizer, checkpoint, loss curve) and the "
        "latest session's AR and draft-self runs on held-out natural-text prompts: τ, α, speedup over "
        "prompts, break-even τ*, the cost model's residual."
    )
    out = paths.reports_dir / EXPERIMENT
    for name in ("train", "curve", "by_k", "per_prompt"):
        yield blocks.Markdown((out / f"{name}.md").read_text())
    assert all(n.sources for n in res.numbers)
    yield blocks.Text(f"ok: {len(res.numbers)} numbers, session {res.session_id}")
