"""Tool-gap report: each host's newest session -> the parts of the gap (``analysis.decompose``) -> numbers
in the registry, a waterfall chart and one sentence per factor.

Per host ``h<8 hex>``: ``tool_gap-h<host>-<part>-ms`` (ms per token, Welch's interval, or Student-t
over pairs), ``…-<part>-share`` (the part ÷ the total), ``…-start-tok_s`` / ``…-end-tok_s``
(llama-bench's tg rate at depth 0 and the combined server configuration's reported rate, log-scale
intervals), ``…-total-ms`` and ``…-verify-k<k>`` (the server's verify step ÷ llama-bench's pass, ×).
Without a measured session the stage writes pages saying so and an empty registry file (the site then
shows no number of this experiment rather than failing).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import altair as alt
import polars as pl

from benchbook import atomicfile, blocks, charts, measured
from benchbook.numbers import Number, Unit, build_of, line_ranges, make_key, publish
from benchbook.provenance import read_snapshots

from ..drift import start_records
from . import EXPERIMENT
from .analysis import BOUND, Decomposition, Part, decompose, load_bench, load_requests

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


def _ms(x: float) -> str:
    return f"{x:.3g}"


def sentence(p: Part, cfg: dict) -> str:
    """One sentence from part ``p``'s number: what it adds or removes per token, its share of the gap and
    its interval; "no measurable effect" when the interval spans 0; a verify ratio in ×.

    >>> sentence(Part("stream", "part", 0.5, [0.2, 0.8], "welch", 5, share=0.25), {})
    'Streaming (server-sent events) adds 0.5 ms per token: 25% of the gap (95% interval 0.2 to 0.8 ms).'
    """
    what = label(p.id, cfg)
    if "_" not in what.split()[0]:  # a parameter's name (n_probs) keeps its spelling
        what = what[0].upper() + what[1:]
    if p.kind == "verify":
        ci = (
            f" (95% interval {p.ci[0]:.2f} to {p.ci[1]:.2f})"
            if p.ci
            else " (no interval: fewer than 3 samples)"
        )
        return f"{what}: the server's verify step takes {p.ms:.2f}× llama-bench's pass{ci}."
    share = f": {p.share:.0%} of the gap" if p.share is not None else ""
    if p.kind == "residual":
        return f"{what}: {_ms(p.ms)} ms per token{share}."
    if p.ci is None:
        how = "adds" if p.ms > 0 else "removes"
        return f"{what} {how} {_ms(abs(p.ms))} ms per token{share} (no interval: fewer than 3 repetitions)."
    if p.ci[0] <= 0 <= p.ci[1]:
        return (
            f"{what}: no measurable effect ({_ms(p.ms)} ms per token{share}; the 95% interval "
            f"{_ms(p.ci[0])} to {_ms(p.ci[1])} ms spans 0)."
        )
    how = "adds" if p.ms > 0 else "removes"
    ci = f"95% interval {_ms(p.ci[0])} to {_ms(p.ci[1])} ms"
    return f"{what} {how} {_ms(abs(p.ms))} ms per token{share} ({ci})."


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
    return (bars + err).properties(
        width=520, height=280, title=f"host {d.host_id[:8]}: llama-bench tg → llama-server decode"
    )


@dataclass
class ToolGapReport:
    """What ``build`` computed: per host the ``sessions`` reported and their ``decompositions``, the
    ``sentences`` per host, the published ``numbers`` and the ``skipped`` sessions."""

    sessions: dict[str, measured.SessionCheck] = field(default_factory=dict)
    decompositions: dict[str, Decomposition] = field(default_factory=dict)
    configs: dict[str, dict] = field(default_factory=dict)
    sentences: dict[str, list[str]] = field(default_factory=dict)
    numbers: list[Number] = field(default_factory=list)
    skipped: list[measured.SessionCheck] = field(default_factory=list)
    charts: dict[str, str] = field(default_factory=dict)


def part_numbers(d: Decomposition, cfg: dict, facts: dict) -> list[Number]:
    """The registry numbers of one host's decomposition (module doc); ``facts``: the records by run id
    (``argv``, ``started_at``, ``ended_at``) and the session's build fields."""
    host = f"h{d.host_id[:8]}"
    out = []

    def common(p: Part) -> dict:
        recs = [facts["runs"][i] for i in p.run_ids if i in facts["runs"]]
        files: dict[str, list[int]] = {}
        for f, line in p.cites:
            files.setdefault(f, []).append(line)
        cmds = list({tuple(r["argv"]): list(r["argv"]) for r in recs if r.get("argv")}.values())
        starts = sorted(r["started_at"] for r in recs if r.get("started_at"))
        ends = sorted(r["ended_at"] for r in recs if r.get("ended_at"))
        return {
            "n": p.n,
            "sources": [{"file": f, "lines": line_ranges(sorted(ls))} for f, ls in files.items()],
            "run_ids": list(dict.fromkeys(p.run_ids)),
            "commands": cmds or [MEASURE_COMMAND],
            "host_id": d.host_id,
            "session_id": d.session_id,
            "toolchain_id": d.toolchain_id,
            "model_sha256": d.model_sha256,
            "measured_from": starts[0] if starts else None,
            "measured_to": ends[-1] if ends else None,
            "computation": "benchbook.experiments.tool_gap.analysis.decompose",
            **facts["build"],
        }

    everything = [*d.parts, d.total, *d.extras]
    for p in everything:
        if p.kind in ("start", "end"):
            ci_method = "student-t on the log scale (delta method), n >= 3, over repetitions"
            out.append(
                Number(
                    key=make_key(EXPERIMENT, host, p.id, "tok_s"),
                    value=round(p.rate or 0.0, 3),
                    unit=Unit.TOK_S,
                    label=f"{label(p.id, cfg)}: rate",
                    ci95=p.rate_ci,
                    ci_method=ci_method if p.rate_ci else None,
                    **common(p),
                )
            )
            continue
        if p.kind == "verify":
            out.append(
                Number(
                    key=make_key(EXPERIMENT, host, p.id),
                    value=round(p.ms, 4),
                    unit=Unit.SPEEDUP,
                    label=label(p.id, cfg),
                    ci95=p.ci,
                    ci_method=p.ci_method,
                    **common(p),
                )
            )
            continue
        # a residual is total minus the parts: one value, no replicate interval
        no_ci = "none: the total minus the sum of the parts" if p.kind == "residual" else None
        out.append(
            Number(
                key=make_key(EXPERIMENT, host, p.id, "ms"),
                value=round(p.ms, 5),
                unit=Unit.MS,
                label=f"{label(p.id, cfg)}: ms per generated token",
                ci95=p.ci,
                ci_method=p.ci_method or no_ci,
                **common(p if p.kind != "residual" else d.total),
            )
        )
        if p.share is not None:
            out.append(
                Number(
                    key=make_key(EXPERIMENT, host, p.id, "share"),
                    value=round(p.share, 4),
                    unit=Unit.FRACTION,
                    label=f"{label(p.id, cfg)}: share of the gap",
                    ci95=p.share_ci,
                    ci_method=f"{p.ci_method}; the part's interval ÷ the total's mean"
                    if p.share_ci
                    else no_ci,
                    **common(p if p.kind != "residual" else d.total),
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


def build(params: dict, *, root: Path, raw_dir: Path, reports_dir: Path) -> ToolGapReport:
    """The stage ``tool_gap_report``: each host's newest session that passes the checks
    (``measured.POLICIES["tool_gap"]``), decomposed (``analysis.decompose`` with its start record's
    config); publishes ``reports_dir/numbers/tool_gap.json`` and writes ``parts.md``, ``sentences.md``,
    ``waterfall.md`` (the charts), ``verify.md``, ``skipped.md`` and ``parts.csv`` under
    ``reports_dir/tool_gap/``.  No session yet: those pages say so and the registry file is empty.

    Raises:
        ValueError: a published session lacks what the decomposition needs (``decompose``).
        records.RecordError: a raw line fails its kind's checks (file:line, field, fix).
    """
    from benchbook.numtable import frame_table

    root = Path(root)
    raw, rep = root / raw_dir, root / reports_dir
    confidence = float(((params or {}).get("report") or {}).get("confidence", 0.95))
    (rep / EXPERIMENT).mkdir(parents=True, exist_ok=True)
    folder = raw / EXPERIMENT
    picked = measured.select(EXPERIMENT, measured.check(EXPERIMENT, folder) if folder.is_dir() else {})
    res = ToolGapReport(sessions=picked.by_host(), skipped=picked.skipped)
    if not res.sessions:
        not_measured(rep, picked.skipped, root)
        publish(rep / "numbers" / f"{EXPERIMENT}.json", EXPERIMENT, [], root=root, replication="repetitions")
        return res
    bench, reqs = load_bench(raw), load_requests(raw)
    toolchains = read_snapshots(raw / "snapshots", "toolchain")
    runs = {r["run_id"]: r for r in [*bench.to_dicts(), *reqs.to_dicts()]}
    parts_md, sentences_md, charts_md, verify_md, frames = [], [], [], [], []
    for host, sess in sorted(res.sessions.items()):
        cfg = start_records(sess.file, EXPERIMENT)[sess.session_id]["config"]
        sid = pl.col("session_id") == sess.session_id
        d = decompose(bench.filter(sid), reqs.filter(sid), cfg, confidence)
        res.decompositions[host], res.configs[host] = d, cfg
        facts = {"runs": runs, "build": build_of(toolchains.get(d.toolchain_id))}
        res.numbers += part_numbers(d, cfg, facts)
        words = [sentence(p, cfg) for p in [*d.parts, *d.extras] if p.kind not in ("start", "end")]
        bound = (
            f"The parts sum to the measured total within {BOUND:.0%}: the residual is "
            f"{abs(d.parts[-2].ms / d.total.ms):.0%} of it."
            if d.within_bound
            else f"The parts do NOT sum to the measured total within {BOUND:.0%}: the residual is "
            f"{abs(d.parts[-2].ms / d.total.ms):.0%} of it (shown as its own bar)."
        )
        gap = (
            f"Host `{host[:8]}` (session `{d.session_id[:8]}`, {d.n_gen} tokens, depth {d.depth}): "
            f"llama-bench tg {d.parts[0].rate:.1f} tok/s, llama-server {d.parts[-1].rate:.1f} tok/s; "
            + (
                f"the gap is {d.total.ms:.3g} ms per token. "
                if d.total.ms >= 0
                else f"here the server is faster by {-d.total.ms:.3g} ms per token (shares of a negative "
                "gap: a part that slows the server has a negative share). "
            )
            + bound
        )
        missing = f" Not measured in this session: {', '.join(d.missing)}." if d.missing else ""
        sentences_md.append(gap + missing + "\n\n" + "\n".join(f"- {s}" for s in words) + "\n")
        frame = d.frame().with_columns(pl.lit(host[:8]).alias("host"))
        frames.append(frame)
        shown = frame.filter(pl.col("kind") != "verify").select(
            "host", "id", "kind", "ms", "ci_low", "ci_high", "n", "share"
        )
        parts_md.append(frame_table(shown))
        ver = frame.filter(pl.col("kind") == "verify").select("host", "id", "ms", "ci_low", "ci_high", "n")
        if not ver.is_empty():
            verify_md.append(frame_table(ver.rename({"ms": "server ÷ llama-bench (×)"})))
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
    publish(
        rep / "numbers" / f"{EXPERIMENT}.json", EXPERIMENT, res.numbers, root=root, replication="repetitions"
    )
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
    sentences, the parts and the waterfall, then the published numbers; the checks (``AssertionError``
    on a failed one): each host's waterfall ends where its bars add up to, and every part has a share."""
    from benchbook.numtable import frame_table, numbers_table

    yield blocks.Markdown("# Why llama-bench and llama-server disagree")
    if not res.sessions:
        yield blocks.Text("no tool_gap session published yet: `python -m benchbook.experiments tool_gap`")
        return
    for host, d in res.decompositions.items():
        yield blocks.Markdown("\n".join(f"- {s}" for s in res.sentences[host]))
        yield blocks.Markdown(frame_table(d.frame()))
        yield blocks.Svg(paths.reports_dir / EXPERIMENT / f"{res.charts[host]}.svg")
        summed = d.parts[0].ms + sum(p.ms for p in d.parts if p.kind in ("part", "residual"))
        assert abs(summed - d.parts[-1].ms) <= 1e-9 * max(1.0, abs(summed)), (summed, d.parts[-1].ms)
        assert all(p.share is not None for p in d.parts if p.kind == "part") or not d.total.ms
    yield blocks.Markdown(numbers_table(res.numbers, to_root=paths.to_root))
    yield blocks.Text(f"ok: {len(res.numbers)} numbers, {len(res.decompositions)} hosts")
