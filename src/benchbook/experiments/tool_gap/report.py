"""Tool-gap report: each host's newest session -> the parts of the gap (``analysis.decompose``) -> numbers
in the registry, a waterfall chart and one sentence per factor.

Per host ``h<8 hex>``: ``tool_gap-h<host>-<part>-ms`` (ms per token, Welch's interval, or Student-t
over pairs), ``…-<part>-share`` (the part ÷ the total; only where the total's interval excludes 0,
``analysis.measurable``), ``…-start-tok_s`` / ``…-end-tok_s``
(llama-bench's tg rate at depth 0 and the combined server configuration's reported rate, log-scale
intervals), ``…-total-ms`` and ``…-verify-k<k>`` (the server's verify step ÷ llama-bench's pass, ×).
Published through the one report pipeline (``reporting.publish_report``): each number cites the records
its part read (``reporting.cite``) and carries the shared caveat rules' findings on them
(``CAVEAT_RULES``, table kind ``llama_bench``, the host's own thresholds: ``caveat_rows``).
The page's sentences and tables quote every published number as its ``{{< var >}}`` shortcode
(``numtable.var_cell``, ``md_table``), so each links to its provenance entry.
Without a measured session the stage writes pages saying so and an empty registry file (the site then
shows no number of this experiment rather than failing).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import altair as alt
import polars as pl

from benchbook import atomicfile, blocks, charts, measured
from benchbook.experiments import reporting
from benchbook.numbers import Number, Unit, make_key, publish
from benchbook.numfmt import fmt_interval, fmt_number
from benchbook.numtable import md_table, var_cell

from ..drift import start_records
from . import EXPERIMENT
from .analysis import BOUND, Decomposition, Part, decompose, load_bench, load_requests, measurable

#: what each part is, in words (the sentences and the table); ``{depth}``, ``{n_probs}``: the session's
LABELS = {
    "start": "llama-bench tg at an empty context",
    "depth": "context depth (llama-bench -d {depth} against an empty context)",
    "server_loop": "the server's own work per token (same depth, batch and flash attention as llama-bench)",
    "first_token": "first-token accounting (the server counts n tokens over n − 1 timed decode steps)",
    "template": "the chat template and special tokens (prompt as templated text, not token ids)",
    "sampler": "the server's default sampler chain (against one top-k 1 sampler)",
    "n_probs": "n_probs ({n_probs} candidates returned per token)",
    "stream": "streaming (server-sent events)",
    "prompt_cache": "slot reuse and the prompt cache",
    "server_defaults": "the server's own -b/-ub/-fa defaults (against llama-bench's)",
    "residual": "residual (the factors' interactions and what the parts leave unexplained)",
    "end": "llama-server decode, every factor at once",
    "total": "the whole gap",
    "http": "the HTTP+JSON path (client wall time against the server's own timings)",
    "cold": "the first request of a fresh server (llama-bench discards a warm-up run)",
}
#: the command that measures a session (the experiment is host-bound: no DVC measurement stage)
MEASURE_COMMAND = ["python", "-m", "benchbook.experiments", EXPERIMENT]


def label(pid: str, cfg: dict) -> str:
    """The words of part ``pid`` (``LABELS``; ``verify-k<k>``: the verify step of k+1 positions)."""
    if pid.startswith("verify-k"):
        k = int(pid.removeprefix("verify-k"))
        return f"the verify step ({k + 1} positions inside the server ÷ llama-bench -p {k + 1})"
    return LABELS[pid].format(depth=cfg.get("depth"), n_probs=cfg.get("n_probs"))


def part_key(host_id: str, pid: str, quantity: str | None = None) -> str:
    """The registry key of part ``pid``'s ``quantity`` on host ``host_id`` (module doc): ``"ms"``,
    ``"share"`` or ``"tok_s"``; None for a verify ratio (``verify-k<k>``, ×).

    >>> part_key("8b0c3265623b43b7", "depth", "ms"), part_key("8b0c3265623b43b7", "verify-k4")
    ('tool_gap-h8b0c3265-depth-ms', 'tool_gap-h8b0c3265-verify-k4')
    """
    return make_key(EXPERIMENT, f"h{host_id[:8]}", pid, *([quantity] if quantity else []))


def quote(
    key: str, published: Collection[str], value: float, ci: list[float] | None, unit: str | None
) -> str:
    """Registry number ``key`` in a sentence: its ``{{< var KEY >}}`` link where ``published`` (the site
    shows ``value [interval] unit``, ``numtable.var_cell``), else that text; ``unit=None``: the value
    and interval alone (``KEY__v``: a share, its unit in the words around it)."""
    text = fmt_number({"value": value, "ci95": ci, "unit": unit}) if unit else fmt_interval(value, ci)
    return var_cell(key, published, text, unit=unit is not None)


def sentence(p: Part, cfg: dict, host_id: str = "", published: Collection[str] = ()) -> str:
    """One sentence from part ``p``'s number: whether it adds or removes time, its ms per token and its
    share of the gap, each with its interval; "no measurable effect" when the interval spans 0; a verify
    ratio in ×.  The numbers of host ``host_id`` that are among the ``published`` keys are their
    ``{{< var >}}`` links (``quote``), the others the same text.

    >>> sentence(Part("stream", "part", 0.5, [0.2, 0.8], "welch", 5, share=0.25), {})
    'Streaming (server-sent events) adds time: 0.50 [0.20, 0.80] ms per token, 0.250 of the gap.'
    >>> keys = {"tool_gap-habcd1234-stream-ms"}
    >>> sentence(Part("stream", "part", 0.5, [0.2, 0.8], "welch", 5), {}, "abcd1234", keys)
    'Streaming (server-sent events) adds time: {{< var tool_gap-habcd1234-stream-ms >}} per token.'
    """
    what = label(p.id, cfg)
    if "_" not in what.split()[0]:  # a parameter's name (n_probs) keeps its spelling
        what = what[0].upper() + what[1:]
    if p.kind == "verify":
        ratio = quote(part_key(host_id, p.id), published, round(p.ms, 4), p.ci, Unit.SPEEDUP)
        none = "" if p.ci else " (no interval: fewer than 3 samples)"
        return f"{what}: the server's verify step takes {ratio} llama-bench's pass{none}."
    ms = quote(part_key(host_id, p.id, "ms"), published, round(p.ms, 5), p.ci, Unit.MS) + " per token"
    if p.share is not None:
        ms += f", {quote(part_key(host_id, p.id, 'share'), published, round(p.share, 4), p.share_ci, None)}"
        ms += " of the gap"
    if p.kind == "residual":
        return f"{what}: {ms}."
    how = "adds time" if p.ms > 0 else "removes time"
    if p.ci is None:
        return f"{what} {how}: {ms} (no interval: fewer than 3 repetitions)."
    if p.ci[0] <= 0 <= p.ci[1]:
        return f"{what}: no measurable effect ({ms}; the 95% interval spans 0)."
    return f"{what} {how}: {ms}."


def waterfall_rows(d: Decomposition, cfg: dict) -> list[dict]:
    """The waterfall's bars in order: ``start`` (0 to llama-bench's step), each part floating from the
    running sum, ``residual``, ``end`` (0 to the server's step); ``lo``/``hi`` (ms per token), the
    interval around each part's top (``ci_lo``/``ci_hi``), its share and the words."""
    rows, cum = [], 0.0
    for i, p in enumerate(d.parts):
        if p.kind in ("start", "end"):
            lo, hi = 0.0, p.ms
            cum = p.ms if p.kind == "start" else cum
        else:
            lo, hi = cum, cum + p.ms
            cum = hi
        ci = [lo + p.ci[0], lo + p.ci[1]] if p.ci and p.kind == "part" else [None, None]
        rows.append(
            {
                "order": i,
                "bar": p.id,
                "kind": p.kind if p.kind != "part" else ("slower" if p.ms > 0 else "faster"),
                "lo": lo,
                "hi": hi,
                "ms": p.ms,
                "ci_lo": ci[0],
                "ci_hi": ci[1],
                "share": f"{p.share:.0%}" if p.share is not None else "",
                "rate": f"{p.rate:.1f} tok/s" if p.rate is not None else "",
                "what": label(p.id, cfg),
            }
        )
    return rows


def chart_waterfall(d: Decomposition, cfg: dict) -> alt.LayerChart:
    """The waterfall from llama-bench's tg step to the server's (ms per token; the rates at both ends in
    the tooltip), each part with its interval, the residual shown as its own bar."""
    rows = waterfall_rows(d, cfg)
    base = alt.Chart(alt.Data(values=rows))
    x = alt.X("bar:N", sort=[r["bar"] for r in rows], title=None, axis=alt.Axis(labelAngle=-40))
    bars = base.mark_bar().encode(
        x=x,
        y=alt.Y("lo:Q", title="ms per generated token"),
        y2="hi:Q",
        color=alt.Color(
            "kind:N",
            title="bar",
            scale=alt.Scale(
                domain=["start", "slower", "faster", "residual", "end"],
                range=["#4c78a8", "#e45756", "#54a24b", "#bab0ac", "#f58518"],
            ),
        ),
        tooltip=[
            alt.Tooltip("what:N", title="part"),
            alt.Tooltip("ms:Q", format=".4f", title="ms per token"),
            alt.Tooltip("share:N", title="share of the gap"),
            alt.Tooltip("rate:N", title="rate"),
        ],
    )
    err = base.mark_rule(color="black").encode(x=x, y="ci_lo:Q", y2="ci_hi:Q")
    title = [f"host {d.host_id[:8]}: llama-bench tg → llama-server decode"]
    if not measurable(d.total):  # no shares: the parts in ms per token with their intervals
        title.append("no measurable gap to decompose (the total's interval spans 0): parts in ms/token")
    return (bars + err).properties(width=520, height=280, title=title)


@dataclass
class ToolGapReport:
    """What ``build`` computed: per host the ``sessions`` reported and their ``decompositions``, the
    ``sentences`` and ``tables`` (the parts and verify tables) per host as the page shows them (Markdown,
    each published number a ``{{< var >}}`` shortcode), the published ``numbers`` and the ``skipped``
    sessions."""

    sessions: dict[str, measured.SessionCheck] = field(default_factory=dict)
    decompositions: dict[str, Decomposition] = field(default_factory=dict)
    configs: dict[str, dict] = field(default_factory=dict)
    sentences: dict[str, list[str]] = field(default_factory=dict)
    tables: dict[str, str] = field(default_factory=dict)
    numbers: list[Number] = field(default_factory=list)
    skipped: list[measured.SessionCheck] = field(default_factory=list)
    charts: dict[str, str] = field(default_factory=dict)


#: the caveat rules a tool-gap number is judged by (table kind ``llama_bench``: each number's row holds
#: the fewest repetitions, the noisiest sample and the host's load over the records it read)
CAVEAT_RULES = ["single_run", "high_variance", "busy_host"]


@dataclass
class Tables:
    """What ``tables`` gives ``table_numbers`` and ``caveat_rows``: per host its ``decompositions`` and
    ``configs`` (the start record's), and ``records``: every record read, by ``(file, line)``, as
    ``reporting.cite`` reads a row (files, lines, run_ids, argv, host_id, session_id, toolchain_id,
    model_sha256, started_at, ended_at, load1_max, others_cpu_pct_max)."""

    decompositions: dict[str, Decomposition]
    configs: dict[str, dict]
    records: dict[tuple[str, int], dict]
    #: per number key, the part whose samples it read (its caveat row)
    read: dict[str, Part] = field(default_factory=dict)


_CITED = ("run_id", "argv", "host_id", "session_id", "toolchain_id", "model_sha256", "started_at", "ended_at")


def tables(inputs: reporting.Inputs) -> Tables:
    """Each published session (``tool_gap`` policy: every host's newest) decomposed (``analysis.decompose``
    with its start record's config and ``report.confidence``), and the records read by their place.

    Raises:
        ValueError: a published session lacks what the decomposition needs (``decompose``)."""
    raw = inputs.where.raw
    bench, reqs = load_bench(raw), load_requests(raw)
    records: dict[tuple[str, int], dict] = {}
    for r in [*bench.to_dicts(), *reqs.to_dicts()]:
        records[(r["file"], r["line"])] = {
            "files": [r["file"]],
            "lines": [r["line"]],
            "run_ids": [r["run_id"]],
            **{k: r.get(k) for k in _CITED[1:]},
            "load1_max": r.get("load1_max"),
            "others_cpu_pct_max": r.get("others_cpu_pct_max"),
        }
    decs, cfgs = {}, {}
    for sess in sorted(inputs.selection.published, key=lambda c: str(c.host_id)):
        cfg = start_records(sess.file, EXPERIMENT)[sess.session_id]["config"]
        sid = pl.col("session_id") == sess.session_id
        decs[str(sess.host_id)] = decompose(bench.filter(sid), reqs.filter(sid), cfg, inputs.confidence)
        cfgs[str(sess.host_id)] = cfg
    return Tables(decs, cfgs, records)


def table_numbers(inputs: reporting.Inputs, t: Tables) -> list[Number]:
    """Every host's numbers (``part_numbers``), in host order."""
    out: list[Number] = []
    for host, d in t.decompositions.items():
        out += part_numbers(d, t.configs[host], t, inputs.toolchains)
    return out


def caveat_rows(_inputs: reporting.Inputs, t: Tables, nums: list[Number]) -> pl.DataFrame:
    """One row per number (``reporting.judge_numbers``, table kind ``llama_bench``, ``CAVEAT_RULES``):
    ``host_id``, ``run_ids``, ``n`` (the fewest repetitions of the samples it read: ``single_run``),
    ``cv`` (the noisiest of them, ``Part.cv``: ``high_variance``), ``load1_max`` and
    ``others_cpu_pct_max`` (the highest over the records it cites: ``busy_host`` with the host's own core
    count; null where the records hold no load snapshot)."""
    rows = []
    for num in nums:
        p = t.read[num.key]
        recs = [t.records[c] for c in p.cites if c in t.records]
        loads = [r["load1_max"] for r in recs if r["load1_max"] is not None]
        others = [r["others_cpu_pct_max"] for r in recs if r["others_cpu_pct_max"] is not None]
        rows.append(
            {
                "key": num.key,
                "host_id": num.host_id,
                "run_ids": list(num.run_ids),
                "n": num.n,
                "cv": p.cv,
                "load1_max": max(loads, default=None),
                "others_cpu_pct_max": max(others, default=None),
            }
        )
    return pl.DataFrame(
        rows,
        schema={
            "key": pl.String,
            "host_id": pl.String,
            "run_ids": pl.List(pl.String),
            "n": pl.Int64,
            "cv": pl.Float64,
            "load1_max": pl.Float64,
            "others_cpu_pct_max": pl.Float64,
        },
    )


#: what the tool-gap experiment plugs into the one report pipeline (``reporting.publish_report``)
REPORT = reporting.Report(
    EXPERIMENT,
    table=tables,
    numbers=table_numbers,
    replication="repetitions",
    caveat_kind="llama_bench",
    caveat_rules=CAVEAT_RULES,
    caveat_rows=caveat_rows,
    fix="`python -m benchbook.experiments tool_gap` on a quiet host",
)


def part_numbers(d: Decomposition, cfg: dict, t: Tables, toolchains: dict) -> list[Number]:
    """The registry numbers of one host's decomposition (module doc), each cited from the records its
    part read (``reporting.cite``); records in ``t.read`` which part each number read."""
    out = []

    def common(p: Part, key: str) -> dict:
        t.read[key] = p
        rows = [t.records[c] for c in p.cites]
        return {
            "n": p.n,
            **reporting.cite(rows, commands=[MEASURE_COMMAND], toolchains=toolchains),
            "computation": "benchbook.experiments.tool_gap.analysis.decompose",
        }

    for p in [*d.parts, d.total, *d.extras]:
        if p.kind in ("start", "end"):
            key = part_key(d.host_id, p.id, "tok_s")
            ci_method = "student-t on the log scale (delta method), n >= 3, over repetitions"
            out.append(
                Number(
                    key=key,
                    value=round(p.rate or 0.0, 3),
                    unit=Unit.TOK_S,
                    label=f"{label(p.id, cfg)}: rate",
                    ci95=p.rate_ci,
                    ci_method=ci_method if p.rate_ci else None,
                    **common(p, key),
                )
            )
            continue
        if p.kind == "verify":
            key = part_key(d.host_id, p.id)
            out.append(
                Number(
                    key=key,
                    value=round(p.ms, 4),
                    unit=Unit.SPEEDUP,
                    label=label(p.id, cfg),
                    ci95=p.ci,
                    ci_method=p.ci_method,
                    **common(p, key),
                )
            )
            continue
        # a residual is total minus the parts: one value, no replicate interval
        no_ci = "none: the total minus the sum of the parts" if p.kind == "residual" else None
        key = part_key(d.host_id, p.id, "ms")
        out.append(
            Number(
                key=key,
                value=round(p.ms, 5),
                unit=Unit.MS,
                label=f"{label(p.id, cfg)}: ms per generated token",
                ci95=p.ci,
                ci_method=p.ci_method or no_ci,
                **common(p, key),
            )
        )
        if p.share is not None:
            key = part_key(d.host_id, p.id, "share")
            share_read = Part(  # a share reads its part and the total
                p.id,
                p.kind,
                p.share,
                None,
                None,
                min(p.n, d.total.n),
                tuple(dict.fromkeys(p.cites + d.total.cites)),
                tuple(dict.fromkeys(p.run_ids + d.total.run_ids)),
                cv=max((c for c in (p.cv, d.total.cv) if c is not None), default=None),
            )
            out.append(
                Number(
                    key=key,
                    value=round(p.share, 4),
                    unit=Unit.FRACTION,
                    label=f"{label(p.id, cfg)}: share of the gap",
                    ci95=p.share_ci,
                    ci_method=f"{p.ci_method}; the part's interval ÷ the total's mean"
                    if p.share_ci
                    else no_ci,
                    **common(share_read, key),
                )
            )
    return out


def not_measured(rep: Path, skipped: list[measured.SessionCheck], root: Path) -> None:
    """The page's includes when no session is published (each says so and how to measure one)."""
    msg = (
        "No tool_gap session is published yet. Measure one on a quiet host: "
        "`python -m benchbook.experiments tool_gap` (module docstring of "
        "`benchbook.experiments.tool_gap`).\n"
    )
    for name in ("parts.md", "sentences.md", "waterfall.md", "verify.md"):
        atomicfile.write_text(rep / EXPERIMENT / name, msg if name == "parts.md" else "")
    atomicfile.write_text(rep / EXPERIMENT / "skipped.md", measured.skipped_markdown(skipped, root))


def gap_sentence(host: str, d: Decomposition, published: Collection[str] = ()) -> str:
    """The sentence before the parts: both rates, the measured total and whether the parts sum to it; a
    total whose interval spans 0 (``analysis.measurable``) is said to be no measurable gap, and the parts
    follow in ms per token alone.  The published numbers are their ``{{< var >}}`` links (``quote``)."""
    start, end, resid = d.parts[0], d.parts[-1], d.parts[-2]

    def ms(p: Part) -> str:
        return quote(part_key(host, p.id, "ms"), published, round(p.ms, 5), p.ci, Unit.MS)

    def rate(p: Part) -> str:
        return quote(part_key(host, p.id, "tok_s"), published, round(p.rate or 0.0, 3), p.rate_ci, Unit.TOK_S)

    head = (
        f"Host `{host[:8]}` (session `{d.session_id[:8]}`, {d.n_gen} tokens, depth {d.depth}): "
        f"llama-bench tg {rate(start)}, llama-server {rate(end)}; "
    )
    if not measurable(d.total):
        return head + (
            f"no measurable gap to decompose: the total is {ms(d.total)} per token and its 95% interval "
            "spans 0, so the parts are given in ms per token only, not as shares of the gap (their sum "
            f"leaves a residual of {ms(resid)} per token)."
        )
    assert resid.share is not None  # a measurable total gives every part its share (``decompose``)
    share = quote(part_key(host, resid.id, "share"), published, round(resid.share, 4), None, None)
    bound = (
        f"The parts sum to the measured total within {BOUND:.0%}: the residual is {share} of it."
        if d.within_bound
        else f"The parts do NOT sum to the measured total within {BOUND:.0%}: the residual is {share} of "
        "it (shown as its own bar)."
    )
    return (
        head
        + (
            f"the gap is {ms(d.total)} per token. "
            if d.total.ms >= 0
            else f"here the server is faster: the gap is {ms(d.total)} per token (shares of a negative "
            "gap: a part that slows the server has a negative share). "
        )
        + bound
    )


#: the parts table's columns (``md_table``): a published number's cell is its ``{{< var KEY__v >}}`` link
PART_COLUMNS = {
    "host": ("host", 0),
    "id": ("part", 0),
    "kind": ("kind", 0),
    "ms": ("ms per token [95% interval]", 0),
    "n": ("n", 0),
    "share": ("share of the gap [95% interval]", 0),
    "rate": ("tok/s [95% interval]", 0),
}
#: the verify table's columns
VERIFY_COLUMNS = {
    "host": ("host", 0),
    "id": ("step", 0),
    "ms": ("server ÷ llama-bench (×) [95% interval]", 0),
    "n": ("n", 0),
}


def table_rows(d: Decomposition) -> pl.DataFrame:
    """One row per bar, the total and each extra: ``host`` (8 hex), ``host_id``, ``id``, ``kind``, ``n``
    and the texts of ``ms`` (a verify ratio: ×), ``share`` and ``rate`` with their intervals
    (``numfmt.fmt_interval``, as the registry's values are rounded; None where the part has none)."""

    def text(value: float | None, ci: list[float] | None, places: int) -> str | None:
        return None if value is None else fmt_interval(round(value, places), ci)

    rows = [
        {
            "host": d.host_id[:8],
            "host_id": d.host_id,
            "id": p.id,
            "kind": p.kind,
            "ms": text(p.ms, p.ci, 4 if p.kind == "verify" else 5),
            "n": p.n,
            "share": text(p.share, p.share_ci, 4),
            "rate": text(p.rate, p.rate_ci, 3),
        }
        for p in [*d.parts, d.total, *d.extras]
    ]
    return pl.DataFrame(rows, schema={k: pl.Int64 if k == "n" else pl.String for k in rows[0]})


def cell_key(row: dict, col: str) -> str | None:
    """The registry key of a table cell's number (``md_table``'s ``key_of``): a part's ms and share, the
    rates at both ends, a verify ratio; None for the ms per token at both ends (their rates are published)."""
    start_end = row["kind"] in ("start", "end")
    if col == "ms" and not start_end:
        return part_key(row["host_id"], row["id"], None if row["kind"] == "verify" else "ms")
    if col == "share":
        return part_key(row["host_id"], row["id"], "share")
    if col == "rate" and start_end:
        return part_key(row["host_id"], row["id"], "tok_s")
    return None


def parts_markdown(d: Decomposition, published: Collection[str] = ()) -> tuple[str, str]:
    """The parts table and the verify table of one host (``md_table``): every number among the
    ``published`` keys is its ``{{< var KEY__v >}}`` link (``cell_key``); the verify table is empty
    without a verify step."""
    rows = table_rows(d)
    parts = md_table(
        rows.filter(pl.col("kind") != "verify"), PART_COLUMNS, key_of=cell_key, published=published
    )
    ver = rows.filter(pl.col("kind") == "verify")
    verify = "" if ver.is_empty() else md_table(ver, VERIFY_COLUMNS, key_of=cell_key, published=published)
    return parts, verify


def build(params: dict, *, root: Path, raw_dir: Path, reports_dir: Path) -> ToolGapReport:
    """The stage ``tool_gap_report``: each host's newest session that passes the checks
    (``measured.POLICIES["tool_gap"]``), decomposed (``analysis.decompose`` with its start record's
    config), published through the one report pipeline (``reporting.publish_report``: citations from the
    records each number read, caveats by the shared rules with each host's own thresholds,
    ``caveat_rows``); writes ``parts.md``, ``sentences.md``, ``waterfall.md`` (the charts),
    ``verify.md``, ``skipped.md`` and ``parts.csv`` under ``reports_dir/tool_gap/``.  No session yet:
    those pages say so and the registry file is empty.

    Raises:
        ValueError: a published session lacks what the decomposition needs (``decompose``); a number
            fails the publish checks.
        records.RecordError: a raw line fails its kind's checks (file:line, field, fix).
    """
    root = Path(root)
    rep = root / reports_dir
    (rep / EXPERIMENT).mkdir(parents=True, exist_ok=True)
    where = reporting.Where.of(EXPERIMENT, root=root, raw_dir=raw_dir, reports_dir=reports_dir)
    folder = where.folder
    picked = measured.select(EXPERIMENT, measured.check(EXPERIMENT, folder) if folder.is_dir() else {})
    if not picked.published:
        res = ToolGapReport(skipped=picked.skipped)
        not_measured(rep, picked.skipped, root)
        publish(where.numbers, EXPERIMENT, [], root=root, replication="repetitions")
        return res
    done = reporting.publish_report(REPORT, params, where)
    t: Tables = done.table
    res = ToolGapReport(
        sessions=done.inputs.selection.by_host(), skipped=done.inputs.selection.skipped, numbers=done.numbers
    )
    published = {n.key for n in done.numbers}  # their table cells and sentences link to their entries
    parts_md, sentences_md, charts_md, verify_md, frames = [], [], [], [], []
    for host, d in t.decompositions.items():
        cfg = t.configs[host]
        res.decompositions[host], res.configs[host] = d, cfg
        words = [
            sentence(p, cfg, host, published) for p in [*d.parts, *d.extras] if p.kind not in ("start", "end")
        ]
        gap = gap_sentence(host, d, published)
        missing = f" Not measured in this session: {', '.join(d.missing)}." if d.missing else ""
        sentences_md.append(gap + missing + "\n\n" + "\n".join(f"- {s}" for s in words) + "\n")
        frame = d.frame().with_columns(pl.lit(host[:8]).alias("host"))
        frames.append(frame)
        parts, verify = parts_markdown(d, published)
        parts_md.append(parts)
        if verify:
            verify_md.append(verify)
        res.tables[host] = "\n".join(x for x in (parts, verify) if x)
        name = f"waterfall_{host[:8]}"
        charts.save(chart_waterfall(d, cfg), rep / EXPERIMENT, name)
        res.charts[host] = name
        charts_md.append(
            "```{=html}\n"
            f'<figure class="bb-figure"><div class="bb-chart" data-spec="{name}"><img '
            f'src="reports/{EXPERIMENT}/{name}.svg" alt="waterfall from the llama-bench tg step to the '
            f'server decode step, host {host[:8]}"></div></figure>\n'
            f'<script src="reports/{EXPERIMENT}/{name}.spec.js"></script>\n```\n'
        )
        res.sentences[host] = [gap, *words]
    out = rep / EXPERIMENT
    atomicfile.write_text(out / "parts.md", "\n\n".join(parts_md))
    atomicfile.write_text(out / "sentences.md", "\n".join(sentences_md))
    atomicfile.write_text(out / "waterfall.md", "\n".join(charts_md))
    atomicfile.write_text(out / "verify.md", "\n\n".join(verify_md))
    atomicfile.write_text(out / "skipped.md", measured.skipped_markdown(res.skipped, root))
    pl.concat(frames, how="diagonal_relaxed").write_csv(out / "parts.csv")
    return res


def sections(res: ToolGapReport, paths: blocks.Paths) -> Iterator[blocks.Block]:
    """What the report notebook shows (``notebooks/report.ipynb -p experiment tool_gap``): per host the
    sentences, the parts and the waterfall, each published number linked to its provenance entry
    (``numtable.link_cells``), then the published numbers; the checks (``AssertionError`` on a failed
    one): each host's waterfall ends where its bars add up to, and every part has a share."""
    from benchbook.numtable import link_cells, numbers_table

    yield blocks.Markdown("# Why llama-bench and llama-server disagree")
    if not res.sessions:
        yield blocks.Text("no tool_gap session published yet: `python -m benchbook.experiments tool_gap`")
        return
    for host, d in res.decompositions.items():
        words = "\n".join(f"- {s}" for s in res.sentences[host])
        yield blocks.Markdown(link_cells(words, res.numbers, to_root=paths.to_root))
        yield blocks.Markdown(link_cells(res.tables[host], res.numbers, to_root=paths.to_root))
        yield blocks.Svg(paths.reports_dir / EXPERIMENT / f"{res.charts[host]}.svg")
        summed = d.parts[0].ms + sum(p.ms for p in d.parts if p.kind in ("part", "residual"))
        assert abs(summed - d.parts[-1].ms) <= 1e-9 * max(1.0, abs(summed)), (summed, d.parts[-1].ms)
        assert all(p.share is not None for p in d.parts if p.kind == "part") or not (
            d.total.ms and measurable(d.total)
        )
    yield blocks.Markdown(numbers_table(res.numbers, to_root=paths.to_root))
    yield blocks.Text(f"ok: {len(res.numbers)} numbers, {len(res.decompositions)} hosts")
