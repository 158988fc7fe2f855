"""A post -> the entries of a claims file (``benchbook claims draft``; docs/claims.md "Drafting a
claims file from a post").

Every entry is a guess (``reviewed: false``) with the line of the post it came from
(``source_line``) and the sentence or table row it quotes (``quote``).  What is drafted:

* prose: each number with a unit (``draftprose.numbers``) is a claim: metric guessed from the unit
  and the words near it, the value with the digits it was written with, "about", a range, ``±``
  (``spread``), "N GiB of M GiB" (``capacity``), "N of M" (``counts``), ``origin`` when the
  sentence names who published it (``draftsentences.origin_of``); a number that repeats one
  already drafted (same value as written, same unit) cites that claim instead of a new one; numbers
  with no unit are listed in ``draft.unplaced``, never dropped;
* tables: a Markdown, HTML or aligned text table gives one claim per value cell, grouped per value
  column (``groups:``: the column's metric, unit and the command's conditions), the row's label
  cells as conditions (``LABELS`` maps known headers to condition fields; others go under
  ``other``); pasted llama-bench output is read by ``benchbook ingest``'s readers
  (``ingest.read_llama_bench``), one claim per row (avg_ts, with stddev_ts as ``spread``);
* command lines (``draftcommand``): their conditions go to every claim after them up to the next
  command line or heading;
* relating phrases (``draftrelations.relations``): a statement citing the two claims when both sides are
  identified (both in the sentence, or one there and the other named by the words after the
  phrase: the claim sharing most words with them), else a ``todo`` statement with the candidates;
* log excerpts (server timing and acceptance lines): kept as raw logs (``Drafted.logs``: file name
  -> text) to be written beside the claims file, and named by ``log:`` on the rate and acceptance
  claims of the prose right after them (or right before, where nothing follows in the section); a
  paragraph is a log only when every line of it is a log line (``_log_line``), and its numbers
  are drafted all the same (one log-looking line never swallows a paragraph's numbers);
* result lines of a tool's output (``resultlines``: llama-cli's ``[ Prompt: … | Generation: … ]``,
  llama-speculative's ``encoded/decoded … speed:`` and ``n_drafted``/``n_accept``/``accept =``,
  ``key=value`` lines, "Aggregate draft acceptance: 0.648"): a claim each, in a code block or in
  prose, naming the raw log the lines are kept in;
* titles and headings: their numbers are drafted like prose (the title's "110 tok/s").

The drafter in layers, each on the one below, none importing one above (``_Drafter`` is the lot):

* ``draftcore``: the data above (``Num``, ``Entry``, ``Group``, ``Drafted``), the state while a post
  is read and the steps every part uses (``DraftCore``: ids, ``add_claim``, conditions);
* ``draftsides``: relating phrases, means and bounds -> statements, and finding their sides (``Sides``);
* ``drafttable`` (``Tables``) and ``draftsentences`` (``Sentences``): tables and prose -> claims;
* here: ``_Drafter.run`` walks the post's blocks in order (command lines, log excerpts, tool output,
  llama-bench tables read here; tables and prose handed to their parts), then the clean-up passes
  (``rates_of_lines``, ``no_self_relations``, ``uncited_timings``); ``draft_text`` is the entry point.
"""

from __future__ import annotations

import bisect
import copy
import functools
import re
from collections.abc import Callable
from functools import cached_property
from pathlib import Path

from ..ingest.common import IngestError
from ..ingest.read import read_llama_bench
from ..ingest.scan import scan
from ..ingest.serverlog import TIMING_LINE
from ..ingest.settings import flash_attn_word
from . import schema
from .draftcommand import (
    DRAFTING_FLAG,
    command_lines,
    flag_decoding,
    kobold_console,
    plain_rows,
    plain_run,
    serving,
    serving_batch,
    serving_client,
)
from .draftcontext import (
    ANY_COMMAND,
    LLAMA_TOOL_NAMED,
    aside_lead,
    clause_engines,
    context_of,
    fill,
    header_settings,
    heading_level,
    line_run,
    model_lines,
    named_once,
    parallel_rows,
    prompt_lines,
    run_label,
    same_card_fuller,
    setup_heading,
    spec_heading,
)
from .draftcore import (
    Drafted,
    Entry,
    Num,
    machine_float,
    merged,
    origin_at,
    plain_value,
    set_path,
    source_fields,
)
from .draftheadlines import headline_statements
from .draftmetric import (
    settle_phases,
    settle_rates,
    settle_sizes,
    settle_stat_columns,
    settle_tests,
    settle_times,
)
from .draftnames import (
    CLAUSE_ONLY,
    CPU,
    MODEL_FAMILIES,
    SIZED_NAME,
    cpu_names,
    hardware_of,
    header_decoding,
    mentions,
    model_cell,
    side_labels,
    supposed_spans,
)
from .draftprose import (
    ABOUT,
    DOT_GROUPED,
    Number,
    dot_grouping,
    family,
    labelled_bare,
    metric_of,
    number_text,
    numbers,
)
from .draftrepeats import stated_repeats
from .draftsentences import RATE_LINE, Sentences, labels_number_clear, stat_list
from .drafttable import Tables
from .draftwords import engine_versions
from .post import Block, Post, is_html, page_link, read_post
from .resultlines import Result, owned, results
from .toollines import label_metric, label_unit, tool_results
from .units import UnitError, factor

#: a configuration file's key over targets, not results ("slo:", "targets:", "limits:")
_TARGET_KEY = re.compile(
    r"(?i)\s*[\"']?(?:slos?|slas?|targets?|limits?|thresholds?|goals?)[\"']?\s*[:=]\s*\{?\s*$"
)

#: the time metrics a heading names for its section (a request's latencies; not a load's, whose
#: word a heading uses for other things: "Add ExLlamaV2 loaders")
_HEADING_TIMES = frozenset({"ttft", "latency", "tpot", "itl", "e2e_latency"})

#: a log line a draft keeps as a raw log: llama-server/llama-cli timing and acceptance lines,
#: llama-speculative-simple's counts
_LOG = re.compile(
    r"prompt eval time\s*=|\beval time\s*=|total time\s*=|draft acceptance|n_drafted\s*=|n_accept\s*=|"
    r"print_timing|llama_perf_context_print|common_perf_print|statistics \w+:",
    re.IGNORECASE,
)


#: an Apple desktop named alone ("on a single Mac Studio", "my mac mini"): ``_Drafter.mac_machine``
_BARE_MAC = re.compile(r"(?<![\w-])(?P<m>Mac\s?Studio|Mac\s?mini)(?![\w-])", re.IGNORECASE)


class _Drafter(Tables, Sentences):
    """The drafter: reads a post's blocks in order (``run``) and hands each to the part that
    drafts it (tables, sentences, logs and tool output), then cleans up."""

    # --- llama-bench output through the ingest readers --------------------------------------------
    def bench_lines(self) -> tuple[set[int], dict[int, list[dict]]]:
        """Lines of llama-bench output (skipped by every other reader) and its records by line."""
        found, _ = scan(self.post.text)
        covered: set[int] = {line for line, _, _ in found.builds}
        for seg in found.segments:
            if seg.table is None or seg.table.kind != "other":
                covered.update(range(seg.start, seg.end + 1))
        if not found.segments:
            return covered, {}
        try:
            got = read_llama_bench(Path(self.name), self.post.text)
        except IngestError as e:
            self.out.notes.append(f"llama-bench output not read: {e}")
            return set(), {}
        by_line: dict[int, list[dict]] = {}
        for rec in got.records:
            if rec.get("schema") == "benchbook.llama_bench":
                by_line.setdefault(int(rec.get("source_line") or 0), []).append(rec)
        return covered, by_line

    def bench_claim(self, rec: dict, deep: bool = False) -> None:
        """The claim of one llama-bench (or sweep-bench) record ``rec`` (``ingest``'s), its conditions
        from the record's columns over the post's; ``deep``: the table holds rows at a depth ("pp2048
        @ d10000"), so a row without one is at depth 0 (llama-bench's default ``-d 0``)."""
        lb = rec.get("llama_bench") or {}
        n_prompt, n_gen, depth = lb.get("n_prompt") or 0, lb.get("n_gen") or 0, lb.get("n_depth") or 0
        metric = "prefill_tps" if n_gen == 0 else "decode_tps" if n_prompt == 0 else "throughput"
        test = f"pp{n_prompt}" if n_gen == 0 else f"tg{n_gen}" if n_prompt == 0 else f"pp{n_prompt}+tg{n_gen}"
        tool = (rec.get("uninterpreted") or {}).get("tool") or "llama-bench"
        method = f"{tool} {test}" + (f" @ d{depth}" if depth else "")
        text = rec.get("source_text") or ""
        cond = self.conditions()
        model = lb.get("model_type")
        if model:
            # llama-bench's "llama 7B Q4_0": the model, the quantisation apart (``model_cell``)
            name, quant = model_cell(str(model))
            if name and _ARCH_LABEL.match(str(model)) and cond.get("model"):
                # "deepseek2 30B.A3B" (the GGUF's architecture, llama-bench's label for any model of
                # it) under a post or command naming the model ("GLM-4.7-Flash-IQ4_XS.gguf"): that name
                name = ""
            if name:  # not llama-bench's "deepseek4 ?B Q8_0": the post's model stands
                cond["model"] = name
            if quant:
                cond["quant"] = quant
            found = r"\b(I?Q\d\w*)(?:\s*-\s*(Small|Medium|Large|XS|XXS|S|M|L))?"
            q = None if quant else re.search(found, str(model))
            if q:
                size = {"Small": "S", "Medium": "M", "Large": "L"}.get(q.group(2) or "", q.group(2) or "")
                cond["quant"] = q.group(1) + (f"_{size}" if size else "")
        of_file = dict(cond)  # the model and setup, before the row's test settings: its size's
        compare = rec.get("compare") or {}
        if compare.get("label"):
            # compare-llama-bench's (or a hand-made) "t/s <label>" columns: what tells them apart
            for path, value in _compare_label(str(compare["label"])).items():
                set_path(cond, path, value)
        for key, path in (
            ("n_threads", "other.threads"),
            ("n_gpu_layers", "offload.n_gpu_layers"),
            ("n_cpu_moe", "offload.n_cpu_moe"),
            ("n_batch", "batch"),
            ("n_ubatch", "ubatch"),
            ("type_k", "type_k"),
            ("type_v", "type_v"),
            ("backends", "backend"),
        ):
            v = lb.get(key)
            if key == "backends" and isinstance(v, str) and (m := _BACKEND_NOTE.fullmatch(v)):
                # "Vulkan (master)", "Vulkan (PR)": the backend and, in the user's parentheses, the build
                v = m.group("b")
                if "build" not in cond:
                    cond["build"] = m.group("n")
            if v is not None and not (isinstance(v, str) and "," in v):
                set_path(cond, path, v)
        fa = flash_attn_word(lb.get("flash_attn")) if lb.get("flash_attn") is not None else None
        if fa in ("on", "off"):
            cond["flash_attn"] = fa == "on"
        if depth or deep or ("sweep-bench" in tool and lb.get("n_depth") is not None):
            cond["depth"] = depth  # a sweep's N_KV column states each row's depth, its first 0 too
        if n_gen:
            cond["tokens_generated"] = n_gen  # a tg test generates exactly n tokens
        fields: dict = {
            "metric": metric,
            "value": Num(_as_written(lb.get("avg_ts"), text)),
            "unit": "t/s",
            "method": method,
        }
        if lb.get("stddev_ts") is not None:
            fields["spread"] = Num(_as_written(lb["stddev_ts"], text.split("±")[-1] if "±" in text else text))
        fields["conditions"] = cond
        line = int(rec.get("source_line") or 0)
        cid = self.add_claim(
            {**fields, **source_fields(line, text)}, f"{metric.split('_')[0]}-{test}-l{line}"
        )
        if compare.get("labels") and compare.get("speedup_stated") is not None:
            self.compared_row(line, text, compare, cid)
        self.bench_size(text, of_file, line)
        extra = rec.get("uninterpreted") or {}
        for column in ("T_PP s", "T_TG s"):  # llama-sweep-bench's time of the row's test: a claim too
            if extra.get(column) is not None:
                timed = {
                    "metric": "duration",
                    "value": Num(_as_written(extra[column], text)),
                    "unit": "s",
                    "method": f"{tool} {test} ({column.split()[0]})",
                    "conditions": dict(cond),
                }
                self.add_claim({**timed, **source_fields(line, text)}, f"duration-{test}-l{line}")

    def bench_size(self, text: str, cond: dict, line: int) -> None:
        """The size column of a llama-bench row (``text``: "| llama 1B Q4_K - Medium | 636.18 MiB |
        1.10 B | …"): the model file's size, a ``model_size`` claim in the unit llama-bench prints
        (``llama-bench.cpp`` writes MiB under 1 GiB, else GiB), once per model and size of the post
        (every row of one model repeats it); ``cond``: the model and the post's setup, before the
        row's test settings."""
        m = re.search(r"\|\s*(?P<v>\d+(?:\.\d+)?)\s*(?P<u>[KMG]iB|[KMG]B)\s*\|", text)
        if m is None:
            return
        key = (str(cond.get("model")), str(cond.get("quant")), m.group("v"), m.group("u"))
        if key in self.bench_sizes:
            return
        self.bench_sizes.add(key)
        fields = {
            "metric": "model_size",
            "value": Num(m.group("v")),
            "unit": m.group("u"),
            "conditions": dict(cond),
        }
        self.add_claim({**fields, **source_fields(line, text)}, f"model-size-l{line}")

    def captioned(self, pieces: list[tuple[int, str]]) -> list[Result]:
        """The bare ``label: N`` results of prose lines under a caption naming their rate unit
        (``caption_rate``: "Output tokens/s on H100 BS1" over "vanilla (`model`): 133", "K=2:
        201.69, speedup: 1.51x"); a label naming a setting ("Threads: 8") is none."""
        out: list[Result] = []
        unit = str(self.caption_rate)
        for n, t in pieces:
            for label, value, start, end in labelled_bare(t):
                if _SETTING_WORD.search(label):
                    continue
                metric = label_metric(label, unit) or "decode_tps"
                out.append(Result(n, metric, value, unit, start, end))
        return out

    def result_claim(self, r: Result, log: str | None) -> str:
        """A claim of a tool's result line (``resultlines.results``), under the command before it;
        ``log``: the raw log the line is kept in.  A value of 15 or more significant digits (a
        script printing a float whole, ``0.04074668884277344s``, ``69.78935823702163 token/s``: no
        one rounds to that) is written with ``decimals: null``, an exact number, every digit copied
        (the schema counts at most 15 decimals)."""
        if (
            r.method == "TAP"
            and family(r.unit) in ("rate", "size", "time", "tokens")
            and (x := plain_value(r.value)) is not None
            and (round(x, 9), r.unit) in self.by_number
        ):
            # a test's line comparing results ("ok 8 - q8_0 KV memory (34 MiB) < f16 (64 MiB)")
            # restates the claims it checks: it cites the first, no second claim
            return self.by_number[(round(x, 9), r.unit)]
        fields: dict = {"metric": r.metric, "value": Num(r.value), "unit": r.unit}
        if machine_float(r.value):
            fields["decimals"] = None
        elif r.decimals is not None:
            fields["decimals"] = r.decimals
        if r.spread is not None:
            fields["spread"] = Num(r.spread)
        if r.about:
            fields["about"] = True
        if r.method:
            fields["method"] = r.method
        if r.counts:
            fields["counts"] = r.counts
        cond = merged(self.conditions(), r.conditions)
        cond = _label_conditions(self.post.line(r.line)[: r.start], cond)
        if cond:
            fields["conditions"] = cond
        if log:
            fields["log"] = log
        fields.update(source_fields(r.line, self.post.line(r.line)))
        if self.code_block_of(r.line) is None and (origin := origin_at(self.post.line(r.line), r.start)):
            fields["origin"] = origin  # "The README says `throughput: 200.5 token/s`": the README's number
        return self.add_claim(fields, f"{r.metric.replace('_', '-')}-l{r.line}")

    def result_details(self, stated: list[Result], log: str | None) -> None:
        """What a result line on an "N tokens in T s (R t/s)" line tells beyond the prose reader's
        claim of its rate (drafted by ``prose``/``rate_lines``, once): the tool (``method``), the
        conditions (``tokens_generated``) and the ``log`` it is kept in, added to that claim."""
        for r in stated:
            for e in reversed(self.by_line.get(r.line, [])):  # not every entry: per line, quadratic
                f = e.fields
                if f.get("metric") == r.metric:
                    if r.method and "method" not in f:
                        f["method"] = r.method
                    cond = merged(f.get("conditions") or {}, r.conditions)
                    if cond:
                        f["conditions"] = cond
                    if log and "log" not in f:
                        f["log"] = log
                    break

    # --- logs -----------------------------------------------------------------------------------
    def log(self, lines: list[tuple[int, str]]) -> None:
        name = f"post-l{lines[0][0]}.log"
        self.out.logs[name] = "\n".join(t for _, t in lines) + "\n"
        self.log_lines[name] = {n for n, _ in lines}
        self.pending_log = name
        body = self.out.logs[name]
        self.log_metrics = {
            metric
            for metric, pat in (
                ("prefill_tps", r"prompt eval time"),
                ("decode_tps", r"(?<!prompt )\beval time|n_predict|decoded"),
                ("acceptance_rate", r"draft acceptance|n_accept"),
            )
            if re.search(pat, body)
        }

    def compared_row(self, line: int, text: str, compare: dict, cid: str) -> None:
        """Collect the claims of a comparison row's columns (``bench_claim``); at its last column,
        its "Speedup" cell as a ratio statement of the last column's claim over the first's (the
        ratio compare-llama-bench prints, ``ingest.markdown.compare_rows``)."""
        row = self.compare_claims.setdefault(line, [])
        row.append(cid)
        if compare["label"] != compare["labels"][-1] or len(row) < 2:
            return
        cell = re.findall(r"\|\s*([\d.]+)\s*(?=\|?\s*$)", text)
        written = cell[-1] if cell else str(compare["speedup_stated"])
        sid = self.new_id(f"s-l{line}")
        fields = {
            "kind": "ratio",
            "statement": f"Speedup {written} ({compare['labels'][-1]} over {compare['labels'][0]})",
            "of": [row[-1], row[0]],
            "value": Num(written),
            "unit": "x",
            **source_fields(line, text),
        }
        self.out.entries.append(Entry("statement", sid, {"id": sid, **fields}))

    # --- the walk -------------------------------------------------------------------------------
    def run(self) -> Drafted:
        covered, bench = self.bench_lines()
        blocks = self.post.blocks
        aside: dict[str, object] | None = None  # what an aside's prose named, kept for its block alone
        # the first entry of a block under "The results were roughly:", and the line after which
        # its numbers are (the lead-in may open the block's own paragraph: "测试结果大概是：" over its rows)
        approx_from: tuple[int, int] | None = None
        for i, block in enumerate(blocks):
            self.approximate(approx_from)
            approx_from = None
            prev = blocks[i - 1] if i else None
            if (
                not block.heading
                and prev is not None
                and prev.kind == "text"
                and not prev.heading
                and _APPROX_LEAD.search(" ".join(t for _, t in prev.lines))
            ):
                # the block right under "The results were roughly:", no later one
                approx_from = (len(self.out.entries), 0)
            elif block.kind == "text" and not block.heading:
                led = [n for n, t in block.lines[:-1] if _APPROX_LEAD.search(t)]
                approx_from = (len(self.out.entries), led[0]) if led else None
            if aside is not None and prev is not None and prev.kind != "text":
                # the block an aside introduced is read ("For comparison, vLLM 0.6.3 …:" over its
                # log): the names before the aside hold again for what follows
                self.named, aside = aside, None
            if (
                block.kind == "text"
                and not block.heading
                and aside_lead(self.post, block, blocks[i + 1] if i + 1 < len(blocks) else None)
            ):
                aside = dict(self.named)
            lines = [ln for ln, _ in block.lines]
            if lines and set(lines) & covered:
                recs = [rec for ln in lines for rec in bench.get(ln, [])]
                # a llama-bench table with "@ d10000" rows: its rows without are at depth 0
                deep = any((rec.get("llama_bench") or {}).get("n_depth") for rec in recs)
                for rec in recs:
                    self.bench_claim(rec, deep)
                rest = [(ln, t) for ln, t in block.lines if ln not in covered]
                if block.kind != "code" or not rest:
                    continue
                block = Block("code", rest, info=block.info)
            if block.kind == "text" and block.heading:
                self.out.title = self.out.title or " ".join(t for _, t in block.lines).strip()
                if self.setup_section and len(self.section_commands) == 1:
                    # "## Commands" (a setup heading) holding one command line, then "## Results":
                    # that command ran the results of the sections after it, up to another command
                    self.setup_command = (self.command, self.command_tool)
                title = " ".join(t for _, t in block.lines)
                engines = {m.value for m in mentions(title) if m.path == "engine"}
                carried, tool = self.setup_command
                if engines and engines != {carried.get("engine")}:
                    carried, tool = {}, None  # "## Ollama results" after a vLLM setup command
                self.command, self.command_tool = carried, tool
                self.setup_section = setup_heading(title)
                self.spec_section = spec_heading(title)
                self.section_run = run_label(title + ":")  # "### Run 2": its section's runs
                self.section_commands = set()
                self.section_start = len(self.claim_ids)
                # a heading naming the machine, build or model sets them for its section ("M2 Mac
                # Mini, 16GB RAM, llama.cpp b4980") over the title's (the whole post's); what an
                # earlier section named does not carry
                heading = " ".join(t for _, t in block.lines)
                here = named_once(mentions(heading), CLAUSE_ONLY)  # "MLX vs llama.cpp": neither engine
                if here.get("engine") in clause_engines(heading):
                    del here["engine"]  # "… 1.5 tokens/s, while LM Studio can reach 65": the second's
                level_one = (
                    block.front or re.match(r"#\s", self.post.line(block.lines[0][0]).lstrip()) is not None
                )
                self.lead_in = ""
                if self.title_named is None and level_one:  # the title's names hold for the whole post
                    self.title_named = here
                self.named = {**(self.title_named or {}), **here}
                self.pending_log = None
                # a heading naming a time's metric ("### 2.2 延迟对比(P99)", "[Bug] Slower TTFT
                # Performance"): the metric of its section's times no word near them names
                level = heading_level(self.post, block)
                time_metric = metric_of("ms", heading)
                self.heading_time = _scoped(
                    self.heading_times, level, time_metric if time_metric in _HEADING_TIMES else None
                )
                rate = _rate_unit(heading) or _caption_unit(heading)  # "吞吐量 (requests/sec)"
                # a heading's rate holds for its section and the sections under it, not for a sibling
                # ("## Result Summary (generation t/s)", then "## Run Configuration Set": that
                # table's "fixed 3" is no rate)
                self.heading_rate = _scoped(self.heading_rates, level, rate)
                self.heading_text = re.sub(r"^[#\s]+", "", heading)
                self.para_rate = None
                self.para_quantity = None
                self.para_text = ""
                self.caption_rate = None
                self.open_table = None
                # a title's or heading's numbers are stated too ("C1 ~50 tok/s on a 3090")
                self.in_heading = True
                self.prose(list(block.lines), [self.inline_commands(n, t) for n, t in block.lines])
                self.in_heading = False
                continue
            if block.kind == "table":
                had_command = bool(self.command)
                before = len(self.out.groups)
                held = self.command
                if self.lead_in and self.command:
                    # "The base model speed:" over a table, a speculative command above both: the
                    # label's arm for this table only, as over a code block
                    self.command = _arm_of_label(self.lead_in, self.command)
                self.table(block)
                self.command = held
                self.pending_log = None
                self.para_rate = None
                self.para_quantity = None
                self.para_text = ""
                gids = [g.id for g in self.out.groups[before:]]
                self.open_table = gids if gids and not had_command else None
                continue
            commands = command_lines(block.lines, code=block.kind == "code")
            in_command = {n for c in commands for n in range(c.line, c.last + 1)}
            #: line -> the conditions a command line of this block sets (an unknown tool's: none), for
            #: the results under it up to the next command (``_command_of_line``)
            starts: list[tuple[int, dict]] = []
            for c in commands:
                server = self.command if self.command_tool and not serving_client(self.command_tool) else None
                if (
                    serving_client(c.tool)
                    and server
                    and c.conditions.get("model") in (None, server.get("model"))
                ):
                    # "python -m sglang.bench_serving --num-prompts 500" after the server's launch
                    # line (naming no model, or the server's): the client measures the server it was
                    # pointed at, its model and flags
                    self.command = merged(server, c.conditions)
                else:
                    self.command = c.conditions
                self.command_tool = c.tool
                self.section_commands.add(c.text)
                starts.append((c.line, self.command))
            if commands and self.open_table:
                self.command_after_table(commands[0].conditions)
            label_only = len(block.lines) == 1 and block.lines[0][1].strip().endswith((":", "："))
            if not label_only:
                self.open_table = None  # prose between: a later command is not the table's
            pieces = [(n, t) for n, t in block.lines if n not in in_command]
            for c in commands:
                # a command line that runs on into its output (a paste that lost its line breaks:
                # "llama-server \ -m … --port 8502 \ prompt eval time = 94593.62 ms / 12717 tokens …"):
                # the output is read, the command blanked (h562)
                last = self.post.line(c.last)
                output = TIMING_LINE.search(last)
                if output is not None:
                    pieces.append((c.last, " " * output.start() + last[output.start() :]))
            pieces.sort(key=lambda p: p[0])
            # a result on an "N tokens in T s (R t/s)" line is drafted by the prose reader (its
            # tokens, time and rate, and the rate as their ratio: ``tokens_over_time``), not twice
            text_of = dict(pieces)
            stated: list[Result] = []
            on_rate_lines: list[Result] = []
            found = results(pieces)
            taken = {r.line for r in found} | {n for n, t in pieces if owned(t)}
            found += tool_results([(n, t) for n, t in pieces if n not in taken], block.kind == "code")
            if block.kind == "text" and self.caption_rate is not None:
                taken = {r.line for r in found}
                found += self.captioned([(n, t) for n, t in pieces if n not in taken])
            rate_line: dict[int, bool] = {}  # each line searched once (a line of 800 results searched
            for r in sorted(found, key=lambda r: (r.line, r.start)):  # 800 times was quadratic)
                if r.line not in rate_line:
                    rate_line[r.line] = RATE_LINE.search(text_of[r.line]) is not None
                (on_rate_lines if rate_line[r.line] else stated).append(r)
            if block.kind == "code":
                held = self.command
                if self.lead_in and self.command and _other_engine(self.lead_in, self.command):
                    # "Log excerpt from llama-server (4090, `-c 8192 -np 4 -fa`):" after a `vllm serve`
                    # command: another engine's output, none of that command's settings
                    self.command = {}
                elif self.lead_in and self.command:
                    # "base (concurrency = 1):" over the output of a speculative server's benchmark:
                    # the label's arm (plain: none of the command's drafting), for this block only
                    self.command = _arm_of_label(self.lead_in, self.command)
                logged = any(_LOG.search(t) for _, t in pieces)
                if logged:
                    self.log(pieces)
                timed = [r for r in stated if logged and TIMING_LINE.search(text_of[r.line])]
                if timed and self.pending_log:
                    self.timing_logs.append((len(self.out.entries), timed, self.pending_log, self.command))
                drafted_of: dict[int, list[tuple[int, int, str]]] = {}
                labels = _labels_in_code(pieces, {r.line for r in found})
                k = _run_of_block(prev, self.post.line) or self.section_run

                def of_block(
                    command: dict, pieces: list = pieces, found: list = found, k: int | None = k
                ) -> dict:
                    """``command`` with what the block's head line and console lines state, and the
                    run its label names."""
                    out = merged(_block_head(pieces, {r.line for r in found}), command or {})
                    # KoboldCpp's console lines ("Generating (78 / 387 tokens)", "CtxLimit: 1754/8192"):
                    # the block's generation, its settings under the command's
                    out = merged(kobold_console(pieces), out)
                    if k is not None and "run_index" not in out:
                        out = {**out, "run_index": k}  # "Run 2:" over the block
                    return out

                block_command = of_block(self.command)
                # a second command in the block ("mlx_lm generate …", its output, "mtplx tune …", its
                # output): each output under its own command, an unknown tool's setting nothing
                # (not after a server's launch line: "vllm serve …" then "guidellm benchmark …" measures it)
                servers = [c.line for c in commands if serving(c.tool)]
                starts += [
                    (n, {})
                    for n, t in pieces
                    if ANY_COMMAND.match(t) and not _log_line(t) and not any(s < n for s in servers)
                ]
                starts.sort(key=lambda s: s[0])
                # a prompt printed before each result ("prompt = Write a step-by-step guide …" over
                # "eval rate: 19.56 tokens/s", then the next prompt): each result's own (h560)
                asked = prompt_lines(pieces)
                asked_at = [n for n, _ in asked]  # (searched by bisection: a long output's lines)
                # a model named before each run's results ("model_name = phi3:mini", its rates, then
                # "model_name = llama3:8b"): each result's own
                models = model_lines(pieces)
                models_at = [n for n, _ in models]
                for r in stated:
                    if not (timed and r in timed):
                        label = next((t for n, t in reversed(labels) if n < r.line), None)
                        here = _command_of_line(r.line, starts, block_command, of_block)
                        self.command = _arm_of_label(label, here) if label else here
                        k_asked = bisect.bisect_left(asked_at, r.line) - 1
                        if len(asked) >= 2 and k_asked >= 0:
                            self.command = {**self.command, "prompt": asked[k_asked][1]}
                        k_model = bisect.bisect_left(models_at, r.line) - 1
                        if len({str(m) for _, m in models}) >= 2 and k_model >= 0:
                            self.command = {**self.command, **models[k_model][1]}
                        cid = self.result_claim(r, self.pending_log if logged else None)
                        drafted_of.setdefault(r.line, []).append((r.start, r.end, cid))
                self.command = block_command
                for ln, items in drafted_of.items():  # "ok 8 - q8_0 KV (34 MiB) < f16 KV (64 MiB)"
                    self.comparisons(text_of[ln], sorted(items), ln, text_of[ln].strip())
                self.rate_lines(block.lines, in_command)
                self.result_details(on_rate_lines, self.pending_log if logged else None)
                if not logged:
                    self.rated_code_lines(
                        pieces,
                        found,
                        functools.partial(
                            _command_of_line, starts=starts, block_command=block_command, of_block=of_block
                        ),
                    )
                    self.code_unplaced(pieces, found)
                self.command = held
                continue  # code that is neither output, a command nor a log: not prose
            read = [self.inline_commands(n, t) for n, t in pieces]
            held = self.command
            if pieces and self.command:
                self.command = _arm_of_label(pieces[0][1], self.command)
            for r in stated:  # a result line in prose: drafted once, blanked out of the prose read
                self.result_claim(r, None)
                k = next(k for k, (n, _) in enumerate(pieces) if n == r.line)
                read[k] = read[k][: r.start] + " " * (r.end - r.start) + read[k][r.end :]
            self.prose(pieces, read)
            if self.command is not held and not commands:
                self.command = held
            joined = " ".join(t.strip() for _, t in pieces)
            if joined.endswith((":", "：")):  # (a full-width colon in Chinese and Japanese)
                self.lead_in = joined
            elif not re.match(r"\s*(?:[-*+•]|\d+[.)])\s", self.post.line(pieces[0][0]) if pieces else ""):
                self.lead_in = ""  # the items of a list keep the line that introduces them
            # a rate stated, or named alone in a caption line ("吞吐量 (requests/sec)", "Results in tok/s:")
            self.para_rate = _rate_unit(" ".join(read)) or _caption_unit(joined.rstrip(":"))
            self.para_quantity = caption_quantity(pieces[-1][1]) if pieces else None
            self.para_text = joined
            rates = (n.unit for n in numbers(" ".join(read)) if n.unit and family(n.unit) in _RATE_FAMILIES)
            self.post_rates.update(rates)
            if not any(n.unit for n in numbers(joined)) and (caption := _caption_unit(joined)):
                self.caption_rate = caption
            self.result_details(on_rate_lines, None)
            self.pending_log = None
            if pieces and all(_log_line(t) for _, t in pieces):
                self.log(pieces)  # log lines pasted as a paragraph: drafted, and kept as a log
        self.approximate(approx_from)
        self.uncited_timings()
        self.rates_of_lines()
        headline_statements(self, self.drop_claim)
        self.later_sides()  # "3 times slower" above the logs that state its two rates
        self.no_self_relations()
        self.generated_counts()
        self.io_lengths()
        fill(self.post, self.out.entries, self.out.groups, self.link)  # what the post states around each
        plain_rows(self.out.entries, self.out.groups)  # a plain row under a speculative command
        parallel_rows(self.out.entries, self.out.groups)  # "| TP x EP | 4x4 |": four of the machine
        self.serving_batches()
        self.fork_engine()  # "beellama.cpp" named, a llama-server command run: the fork's
        self.engine_builds()  # "vLLM 0.5.0 vs SGLang 0.2.0": each engine's claims its own version
        self.version_labels()  # "0.8.4", "fp16" alone over a code block: that block's runs' release, quant
        self.release_lines()  # "1.66.1 - prompt processing …" / "1.67 - …": each line's release
        self.cpu_machine()  # "Ryzen 7 5700G" and no GPU: the CPU ran them
        self.apu_names()  # "Strix Halo", "Ryzen AI Max+ 395", "Radeon 8060S": one chip, one name
        self.machine_chips()  # "DGX Spark" and its "GB10": one machine, one name
        self.side_machines()  # a bound over "RTX 6000" where the claims name "RTX 6000 Ada Generation"
        self.size_model()  # "benchmark for 70B model" and no model named: the model is "70B"
        self.script_arms()  # "python bench.py" vs "python bench.py --with_speculation True": each block's
        self.mac_machine()  # "on a single Mac Studio" and no machine named: the machine is it
        stated_repeats(self.post, self.out.entries, self.out.groups)  # "median of 3 runs"
        self.repeated_runs()
        settle_rates(self.out.entries, self.out.groups, self.code_block_of)  # one stream's rate or many
        settle_sizes(self.out.entries, self.out.groups)  # ollama ps's SIZE beside its CPU/GPU split
        settle_times(self.out.entries)  # a time that is 1000 ÷ the rate beside it: per token
        settle_stat_columns(self.out.entries, self.out.groups)  # a "std" column of the latency's
        settle_phases(self.post.line, self.out.entries)  # exllama's "-- Measuring prompt speed"
        settle_tests(self.out.entries, self.out.groups)  # a pp512 test generates nothing
        self.bound_sets()
        self.contradicted_bounds()  # "50 tps …, while llama-cli … over 140 tps": its set is not drafted
        self.one_quantity()  # "2.47 tok/s | 4.56 req/s | 6.22 req/s (+152% base)": no statement
        for fields in [g.fields for g in self.out.groups] + [e.fields for e in self.out.entries]:
            if isinstance(fields.get("conditions"), dict):
                _within_schema(fields["conditions"])
        return self.out

    def io_lengths(self) -> None:
        """Give each claim on a result line that states its lengths as key=value words
        (``_IO_LENGTHS``: MLC LLM's "params:  input=16 output=128 prefill_time 0.081 sec, …") the
        run's generated tokens (``tokens_generated``) and prompt tokens (``other.prompt_tokens``),
        where the claim has none."""
        searched: dict[
            int, re.Match | None
        ] = {}  # each line once (per claim, a long line's claims were quadratic)
        for e in self.out.entries:
            if e.kind != "claim" or "source_line" not in e.fields:
                continue
            line = int(e.fields["source_line"])
            if line not in searched:
                searched[line] = _IO_LENGTHS.search(self.post.line(line))
            lengths = searched[line]
            if lengths is None:
                continue
            cond = e.fields.setdefault("conditions", {})
            cond.setdefault("tokens_generated", int(lengths.group("out")))
            other = cond.setdefault("other", {})
            other.setdefault("prompt_tokens", int(lengths.group("in")))

    def approximate(self, start: tuple[int, int] | None) -> None:
        """Mark the claims drafted from entry ``start[0]`` on, of lines after line ``start[1]`` (a
        block under a lead-in that calls its numbers approximate, ``_APPROX_LEAD``: "测试结果大概是：",
        "The results were roughly:"), ``about``, as "about" before each number would
        (``draftprose.ABOUT``); none where ``start`` is None."""
        if start is None:
            return
        for e in self.out.entries[start[0] :]:
            if (
                e.kind == "claim"
                and e.fields.get("value") is not None
                and int(e.fields["source_line"]) > start[1]
            ):
                e.fields["about"] = True

    def one_quantity(self) -> None:
        """A ratio, change or difference citing claims whose units are of no one quantity ("+152%
        base" of a cell in req/s over the row's first cell in tok/s, the post's own slip) is a
        todo naming the units: the audit refuses such a statement (``recompute``: "numbers in
        different units"), and one statement refused stopped the audit of the whole post."""
        for k, entry in enumerate(self.out.entries):
            f = entry.fields
            if entry.kind != "statement" or f.get("kind") not in ("ratio", "percent_change", "difference"):
                continue
            if f.get("kind") == "ratio" and f.get("unit") not in (None, "x", "%"):
                continue  # "35 tokens in 0.184 seconds, speed: 190.678 t/s": a quotient of two quantities
            cited = [self.profile[c][0] for c in f.get("of", []) if c in self.profile]
            if len(cited) != 2:
                continue
            try:
                factor(cited[0], cited[1])
            except UnitError:
                todo = (
                    f"the claims it cites are in {cited[0]} and {cited[1]}, no one quantity: name two of "
                    "one quantity in `of` (or fix a unit the post mistyped), then delete `todo`"
                )
                fields = {"id": f["id"], "todo": todo, **{x: v for x, v in f.items() if x != "id"}}
                self.out.entries[k] = Entry("todo", entry.id, fields, entry.group)

    def serving_batches(self) -> None:
        """A batch size of a claim whose engine (its own or its group's, after ``fill``) is not
        llama.cpp's kind is its concurrency (``draftcommand.serving_batch``)."""
        engine_of = {g.id: (g.fields.get("conditions") or {}).get("engine") for g in self.out.groups}
        for g in self.out.groups:
            serving_batch(g.fields.get("conditions") or {})
        for e in self.out.entries:
            cond = e.fields.get("conditions")
            if e.kind != "claim" or not cond or "batch" not in cond:
                continue
            serving_batch(cond, engine_of.get(e.group) if e.group is not None else None)

    def engine_builds(self) -> None:
        """Each engine's version where the post writes one per engine (``engine_versions``: "vLLM
        0.5.0 vs SGLang 0.2.0"): a claim or group of that engine (after ``fill``) gets its engine's
        version as ``build`` where it has none or has another engine's; a claim of an engine with
        no version of its own loses another engine's.  The group's conditions are its rows'."""
        versions = engine_versions(self.post.text)
        if not versions:
            return
        owner = {v: e for e, v in versions.items()}

        def settle(cond: dict, engine: object, origins: dict[str, str]) -> None:
            build = cond.get("build")
            if not isinstance(engine, str):
                return
            theirs = isinstance(build, str) and owner.get(build) not in (None, engine)
            if engine in versions and (build is None or theirs):
                cond["build"] = versions[engine]
                origins["build"] = f"{engine} {versions[engine]}, as the post writes it"
            elif theirs:
                del cond["build"]

        engine_of: dict[str, object] = {}
        for g in self.out.groups:
            cond = g.fields.get("conditions")
            if isinstance(cond, dict):
                engine_of[g.id] = cond.get("engine")
                settle(cond, cond.get("engine"), g.origins)
        for e in self.out.entries:
            cond = e.fields.get("conditions")
            if e.kind != "claim" or not isinstance(cond, dict):
                continue
            if e.group is None or "engine" in cond or "build" in cond:
                settle(cond, cond.get("engine", engine_of.get(e.group or "")), e.origins)
        # a group's build of one engine over rows of others ("| ik_llama.cpp |" under a group
        # given llama.cpp's build): the build goes down to its engine's rows, none to the others'
        rows: dict[str, list] = {}
        for e in self.out.entries:
            if e.kind == "claim" and e.group is not None:
                rows.setdefault(e.group, []).append(e)
        for g in self.out.groups:
            cond = g.fields.get("conditions")
            if not isinstance(cond, dict):
                continue
            build = cond.get("build")
            if not isinstance(build, str) or owner.get(build) is None:
                continue
            own = [(e, e.fields.get("conditions") or {}) for e in rows.get(g.id, [])]
            if all(c.get("engine", cond.get("engine")) == owner[build] or "build" in c for _, c in own):
                continue
            del cond["build"]
            for e, c in own:
                if "build" not in c and c.get("engine", cond.get("engine")) == owner[build]:
                    e.fields.setdefault("conditions", {})["build"] = build
                    e.origins["build"] = g.origins.get(
                        "build", f"{owner[build]} {build}, as the post writes it"
                    )

    def fork_engine(self) -> None:
        """A post about one fork of llama.cpp ("Anbeeld/beellama.cpp issue #40", "ik_llama.cpp") that
        never names llama.cpp itself runs the fork's tools: a claim's or group's ``engine``
        llama.cpp (a ``llama-server`` command's) is that fork.  A post naming llama.cpp too (a fork
        against mainline) keeps each as drafted."""
        if not _FORK_HINT.search(self.post.text):
            return  # no fork's name at all (a search of names over a long post only where one may be)
        # (a name inside a path is a folder's: "~/src/vulkan-llama.cpp/build/bin/llama-server"; a
        # language's binding is no fork: "go-llama.cpp", "node-llama.cpp")
        named = {
            m.value
            for m in mentions(self.post.text)
            if m.path == "engine" and not _IN_PATH.match(self.post.text, m.start)
        }
        forks = {
            e
            for e in named
            if isinstance(e, str) and e.endswith("llama.cpp") and e != "llama.cpp" and not _BINDING.match(e)
        }
        if len(forks) != 1 or "llama.cpp" in named or _UPSTREAM.search(self.post.text):
            return  # (llama.cpp by its other names: "mainline", "upstream")
        fork = forks.pop()
        for fields, origins in [(g.fields, g.origins) for g in self.out.groups] + [
            (e.fields, e.origins) for e in self.out.entries if e.kind == "claim"
        ]:
            cond = fields.get("conditions")
            if isinstance(cond, dict) and cond.get("engine") == "llama.cpp":
                cond["engine"] = fork
                origins["engine"] = f"{fork}, the one engine the post names (its tools are llama.cpp's)"

    def release_lines(self) -> None:
        """Lines of prose each led by a release and a dash (``_RELEASE_LINE``: "1.66.1 - prompt
        processing 8k = 82.44 sec, generation speed = 6.85 t/s", "1.67 - …"), two or more naming
        different releases: a list of the releases compared, each line's claims that release's
        ``build``.  One such line alone ("## 3.2 - Results", "12.5 - tokens per second") names none."""
        led: dict[int, str] = {}
        for block in self.post.blocks:
            if block.kind != "text" or block.heading:
                continue
            for n, t in block.lines:
                m = _RELEASE_LINE.match(t)
                if m is not None:
                    led[n] = m.group("v")
        if len(led) < 2 or len(set(led.values())) < 2:
            return
        for e in self.out.entries:
            line = e.fields.get("source_line")
            if e.kind == "claim" and e.group is None and line in led:
                e.fields.setdefault("conditions", {})["build"] = led[line]
                e.origins.pop("build", None)  # its own line's

    @cached_property
    def code_lines(self) -> dict[int, int]:
        """line -> the index of the post's code block holding it."""
        return {n: k for k, b in enumerate(self.post.blocks) if b.kind == "code" for n, _ in b.lines}

    def code_block_of(self, line: int) -> int | None:
        """The index of the code block of the post holding ``line``, None outside one."""
        return self.code_lines.get(line)

    def version_labels(self) -> None:
        """A paragraph ending in a release alone ("0.8.4", "1.68 benchmark:", ``_VERSION_ALONE``) or a
        weights' format alone ("fp16", "w8a8", "Q4_K_M:", ``_QUANT_ALONE``) right over a code block or
        table labels that block: each claim or group drafted from its lines gets that release as
        ``build`` (that format as ``quant``), over one taken from elsewhere in the post (a version
        written once, a label above), not over one its own lines state ("Benchmark Completed -
        v1.79.1" under a "1.78" the author copied: the tool's print wins).  A side of a change
        alone ("Pre:" over one block, "Post:" over the next: ``draftnames.side_labels``, both sides
        named) labels its block's ``build`` so too."""
        blocks = self.post.blocks
        spans: list[tuple[int, int, int, str, str]] = []  # (first, last, label line, path, value)
        # a post setting the KV cache's type ("-ctk q8_0", "KV cache"): "f16:" and "q8_0:" over its
        # blocks name the cache's type compared, not the weights'
        kv_compared = _KV_WORDS.search(self.post.text) is not None
        # "Pre:" over one code block and "Post:" over the next (h559): each block's build, the side
        over = {
            block.lines[-1][0]: (block.lines[-1][1], below)
            for block, below in zip(blocks, blocks[1:], strict=False)
            if block.kind == "text" and not block.heading and block.lines and below.kind in ("code", "table")
        }
        for n, side in side_labels({n: t for n, (t, _) in over.items()}).items():
            lines = [k for k, _ in over[n][1].lines] or over[n][1].row_lines
            if lines:
                spans.append((min(lines), max(lines), n, "build", side))
        for block, below in zip(blocks, blocks[1:], strict=False):
            if (
                block.kind != "text"
                or block.heading
                or not block.lines
                or below.kind not in ("code", "table")
            ):
                continue
            last = block.lines[-1][1]
            if len(last) > 60:
                continue  # (a label is short: a long line of spaces made the two patterns quadratic)
            told = _VERSION_ALONE.fullmatch(last)
            path = "build"
            if told is None and not kv_compared:
                told, path = _QUANT_ALONE.fullmatch(last), "quant"
            if told is None:
                continue
            lines = [n for n, _ in below.lines] or below.row_lines
            if lines:
                spans.append((min(lines), max(lines), block.lines[-1][0], path, told.group("v")))
        for block in blocks:
            if block.kind != "text" or block.heading or len(block.lines) < 2:
                continue
            # lines of a paragraph that are a release alone, or with its backend ("1.108.2 CUDA" over
            # "PP 1713 TG 40", "1.109.2 Vulkan" over the next): each labels the lines after it, up to
            # the next such line
            found = [
                (k, told.group("v"), bool(told.group("rest").strip()))
                for k, (_, t) in enumerate(block.lines)
                if len(t) <= 60
                and (told := _VERSION_LINE.fullmatch(t))
                and _only_backends(told.group("rest"))
                and _release_like(told.group("v"))
                # (not the value of a label on the line above: "Python version:" over "3.12.4")
                and not (k and block.lines[k - 1][1].rstrip().endswith((":", "：")))
            ]
            # a release with its backend labels its lines; a release alone only among others
            # ("1.108.2" over some lines, "1.109.2" over the next): a lone "550.127.08" is no label
            alone = {v for _, v, backed in found if not backed}
            at = [(k, v, backed) for k, v, backed in found if backed or len(alone) >= 2]
            ends = [k for k, _, _ in at[1:]] + [len(block.lines)] if at else []
            for (k, v, backed), nxt in zip(at, ends, strict=True):
                if k + 1 < nxt:
                    # (a release alone gives way to an engine's version the post writes: "v1.0.0"
                    # over a fine-tune's runs of "llama.cpp b5500" is the checkpoint's)
                    path = "build" if backed else "build?"
                    spans.append((block.lines[k + 1][0], block.lines[nxt - 1][0], block.lines[k][0], path, v))
        if not spans:
            return

        def label(line: object) -> tuple[int, int, int, str, str] | None:
            return next((x for x in spans if isinstance(line, int) and x[0] <= line <= x[1]), None)

        def settle(fields: dict, origins: dict[str, str], span: tuple[int, int, int, str, str]) -> None:
            cond = fields.setdefault("conditions", {})
            path = span[3]
            if path == "build?":
                if "build" in cond:
                    return
                path = "build"
            if path in cond:
                where = origins.get(path)
                if where is None or path == "quant" and "command" in where:
                    return  # the claim's own line states it; a command's model file names its quant
                at = re.match(r"lines? (\d+)", where)
                if at is not None and span[0] <= int(at.group(1)) <= span[1]:
                    return  # its block states it
            cond[path] = span[4]
            origins[path] = f"line {span[2]}, label"

        for g in self.out.groups:
            span = label(g.fields.get("source_line"))
            rows = [e for e in self.out.entries if e.group == g.id]
            span = span or (label(rows[0].fields.get("source_line")) if rows else None)
            if span is not None:
                settle(g.fields, g.origins, span)
        for e in self.out.entries:
            if e.kind != "claim" or e.group is not None:
                continue
            span = label(e.fields.get("source_line"))
            if span is not None:
                settle(e.fields, e.origins, span)

    def apu_names(self) -> None:
        """One name for an APU the post names by several (``apu_name``: "Strix Halo" in the title,
        "AMD RYZEN AI MAX+ 395" and "Radeon 8060S" in its setup): every claim's and group's
        hardware that is one of them becomes "AMD Ryzen AI Max+ 395 (Radeon 8060S)", the chip
        with its graphics, as the post writes their numbers."""
        name = apu_name(self.post.text)
        if name is None:
            return
        for fields in [g.fields for g in self.out.groups] + [e.fields for e in self.out.entries]:
            cond = fields.get("conditions")
            if (
                isinstance(cond, dict)
                and isinstance(cond.get("hardware"), str)
                and _APU.fullmatch(cond["hardware"])
            ):
                cond["hardware"] = name

    def machine_chips(self) -> None:
        """One name for a machine the post names by itself and by its chip (``_MACHINE_CHIPS``: "DGX
        Spark" in the title, "It packs a Blackwell GB10 GPU" in the text): every claim's and group's
        hardware that is either, its count kept ("2x NVIDIA DGX Spark"), becomes the machine with
        its chip in parentheses ("NVIDIA DGX Spark (GB10)"), as the corpus writes it."""
        for machine, (chip, others) in _MACHINE_CHIPS.items():
            short = machine.split(" ", 1)[1]
            if (
                not re.search(rf"(?i)\b{re.escape(short)}\b", self.post.text)
                or not re.search(rf"\b{re.escape(chip.split()[-1])}\b", self.post.text)
                or re.search(others, self.post.text)  # ("Dell Pro Max GB10" beside the Spark: two machines)
            ):
                continue
            either = re.compile(rf"(?P<n>\d+\s?x\s)?(?:{re.escape(machine)}|{re.escape(chip)})")
            for fields in [g.fields for g in self.out.groups] + [e.fields for e in self.out.entries]:
                over = fields.get("over")
                sides = [over.get(k) for k in ("numerator", "denominator")] if isinstance(over, dict) else []
                # (a bound's selector too: "50+ tokens per second on the NVIDIA DGX Spark")
                for cond in [fields.get("conditions"), *sides]:
                    if isinstance(cond, dict) and isinstance(cond.get("hardware"), str):
                        m = either.fullmatch(cond["hardware"])
                        if m:
                            cond["hardware"] = f"{m.group('n') or ''}{machine} ({chip.split()[-1]})"

    def side_machines(self) -> None:
        """A statement's side (a bound's selector, a relation's numerator or denominator) that names
        its machine short where the claims name it in full ("GLM-4.7-Flash Achieves 2000+ Tokens/Sec
        on RTX 6000" in the title, "on a single NVIDIA RTX 6000 Ada GPU" in the text): the claims'
        name (``draftcontext.same_card_fuller``), as a claim's own short name becomes the setup's."""
        named = list(
            dict.fromkeys(
                cond["hardware"]
                for fields in [g.fields for g in self.out.groups] + [e.fields for e in self.out.entries]
                if isinstance(cond := fields.get("conditions"), dict)
                and isinstance(cond.get("hardware"), str)
            )
        )
        for e in self.out.entries:
            over = e.fields.get("over")
            for side in [over.get(k) for k in ("numerator", "denominator")] if isinstance(over, dict) else []:
                if isinstance(side, dict) and isinstance(side.get("hardware"), str):
                    full = same_card_fuller(side["hardware"], named, self.post.text)
                    if full is not None:
                        side["hardware"] = full

    def cpu_backend_machine(self, cpu: str) -> None:
        """A claim (or table row) run on the CPU backend ("CPU Mode" beside "Vulkan (GPU) Mode": its
        ``backend`` CPU) in a post naming one CPU (``cpu``) ran on that CPU, whatever GPU the post
        names for its other runs: its ``hardware``, where neither it nor its row names a machine of
        its own (the context's GPU is replaced)."""
        origin = "the post's one CPU, the run's backend the CPU"
        groups = {g.id: g for g in self.out.groups}
        for e in self.out.entries:
            if e.kind != "claim" or "origin" in e.fields:
                continue
            own = e.fields.get("conditions") or {}
            shared = (groups[e.group].fields.get("conditions") or {}) if e.group in groups else {}
            if (
                own.get("backend", shared.get("backend")) != "CPU"
                or e.origins.get("hardware") is None
                and "hardware" in own
            ):
                continue
            own["hardware"] = cpu
            e.fields["conditions"] = own
            e.origins["hardware"] = origin

    def cpu_machine(self) -> None:
        """A post that names one CPU (``cpu_names``) and, for a claim, no other machine: the CPU
        is that claim's ``hardware`` (a CPU-only run: "Ryzen 7 5700G", "Intel Core Ultra 9 275HX"). A
        CPU beside a named GPU is not read as the machine (``mentions`` reads no CPU); a claim
        quoting someone else (``origin``) keeps what its sentence says."""
        cpus = cpu_names(self.post.text)
        if len(cpus) != 1:
            return
        number = re.fullmatch(r"Intel Core i\d-(\d{4,5}\w*)", cpus[0])
        if number and not re.search(rf"(?i)\b(?:intel|core|i\d)[\s-]*{number.group(1)}", self.post.text):
            # an Intel part by its number alone ("on a 14900K"): the machine only where the post
            # says "CPU" and writes no card's number alone ("4090 + 13900K", "14900K / 4090")
            # (a card named in advice is none the post ran: those sentences blanked, in one pass)
            parts, last = [], 0
            for a, b in supposed_spans(self.post.text):
                parts += [self.post.text[last:a], " " * (b - a)]
                last = b
            text = "".join([*parts, self.post.text[last:]])
            if not re.search(r"\bCPU\b", text) or _BARE_CARD.search(text):
                return
        self.cpu_backend_machine(cpus[0])
        if context_of(self.post).machines_named:
            # "my home box (RTX 4090 24GB, Ryzen 9 7950X, …)": a GPU named, the CPU is its host's, and
            # a claim naming no machine is of a GPU's run, not the CPU's
            return
        cpu = cpus[0]
        origin = "the post's one CPU, no other machine named"
        # the groups a row of which names its machine, gathered once (per group: quadratic)
        rows_named = {
            e.group
            for e in self.out.entries
            if e.group is not None and "hardware" in (e.fields.get("conditions") or {})
        }
        self.where_unset("hardware", cpu, origin, rows_named)

    def size_model(self) -> None:
        """A post that names its model by a size alone ("benchmark for 70B model", "a 13B GPTQ
        (128g)", "13B 模型", "mlx normal model,27b": ``_SIZE_MODEL``), one size only, and where no
        model named elsewhere is of another size: that size, as written, is the ``model`` of each
        claim that has none (the expected files' convention, "the model as the post writes it";
        "model,27b" in a title over a reply's "Qwen3.6-27B" command).  Issue 29's corpus: p132, h516,
        h522."""
        text = self.post.text
        self.clause_sizes(opening=_SIZE_MODEL.search(text) is not None)
        written = (
            m.group("size") or m.group("size2")
            for m in _SIZE_MODEL.finditer(text)
            # (not a named model's size, "Llama 3.1 8B q4_k_m", "Miqu 70B model"; not a draft's, "draft
            # model: 1B")
            if not _FAMILY_BEFORE.search(text, max(0, m.start() - 24), m.start())
            and not _NAME_BEFORE.search(text, max(0, m.start() - 24), m.start())
            and not re.search(r"(?i)draft", text[max(0, m.start() - 20) : m.start()])
        )
        sizes = {w.upper(): w for w in written}
        # (a size joined to it: "the 7B and the 13B models" names two)
        sizes.update((m.group(1).upper(), m.group(1)) for m in _JOINED_SIZE.finditer(text))
        if len(sizes) != 1:
            return
        size = next(iter(sizes.values()))
        said = [x.fields for x in self.out.groups] + [e.fields for e in self.out.entries if e.kind == "claim"]
        named = {str((f.get("conditions") or {}).get("model") or "") for f in said} - {""}
        of_size = re.compile(rf"(?i)(?<![\d.]){re.escape(size)}(?![\w.])")
        if any(not of_size.search(m) for m in named):
            return  # a model of another size named: the size alone may be either's
        self.where_unset("model", size, "the one size the post names its model by")

    def clause_sizes(self, opening: bool) -> None:
        """A claim with no model whose clause names a model by its size: after a preposition and an
        article after its number ("~108 tokens/s on a 7B", "~35–40 t/s on a 32B": ``_ON_A_SIZE``,
        h555), or, in a post naming its models by size (``opening``), at the clause's start before
        its number ("14b模型大概是6秒，7b是3.8秒", "the 14b model takes 6 s, 7b 3.8 s", h551): the
        model of that size, as written (a clause runs from the comma, semicolon or colon before).
        """
        # each line's numbers read once, by the value as written (a sentence of 3000 numbers: linear)
        by_line: dict[int, dict[tuple[str, float], Number]] = {}
        ends: dict[int, list[int]] = {}  # where each line's numbers end, in order
        for e in self.out.entries:
            if e.kind != "claim" or e.group is not None or "origin" in e.fields:
                continue
            value, span = e.fields.get("value"), e.fields.get("range")
            if "model" in (e.fields.get("conditions") or {}) or (value is None and not span):
                continue
            line_at = e.fields.get("source_line") or 0
            line = self.post.line(line_at)
            if line_at not in by_line:
                by_line[line_at] = {}
                found = numbers(line)
                ends[line_at] = [x.end for x in found]
                for x in found:
                    key = ("range", x.range[0]) if x.range is not None else ("value", x.text)
                    if (v := plain_value(number_text(key[1]))) is not None:
                        by_line[line_at].setdefault((key[0], v), x)
            kind = "value" if value is not None else "range"
            said = plain_value(str(value if value is not None else (span or [None])[0]))
            n = by_line[line_at].get((kind, said)) if said is not None else None
            if n is None:
                continue
            # (a clause's words within 120 characters of its number: a long line read once per claim)
            before = re.split(_CLAUSE_END, line[max(0, n.start - 120) : n.start])[-1]
            # (from the number before it too: "the 7B model gives 30 t/s and the 13B model gives 20 t/s")
            k = bisect.bisect_right(ends[line_at], n.start) - 1
            at = max(n.start - len(before), ends[line_at][k] if k >= 0 else 0)
            sizes = (
                [
                    m.group(1)
                    for m in _CLAUSE_SIZE.finditer(line, at, n.start)
                    # (not a draft's: "(draft model: 1B) gives me 60 tokens/s")
                    if not re.search(r"(?i)draft", line[max(0, m.start() - 20) : m.start()])
                ]
                if opening
                else []
            )
            after = _ON_A_SIZE.search(re.split(_CLAUSE_END, line[n.end : n.end + 120])[0])
            # (one size only: "The 7B and the 13B models give 30 t/s and 20 t/s" pairs them in order)
            size = sizes[0] if len(set(sizes)) == 1 else after.group(1) if after and not sizes else None
            if size is not None:
                e.fields.setdefault("conditions", {})["model"] = size
                e.origins["model"] = "the size its clause names"

    def script_arms(self) -> None:
        """Two or more code blocks running one script (a tool no reader knows: "python
        benchmark_speculative.py"), some with a drafting flag ("--with_speculation True",
        "--use-mtp": ``draftcommand.DRAFTING_FLAG``, ``flag_decoding``) and some without: each
        block's claims decode as its command says, plainly where it sets no such flag, over a
        decoding the post's words guessed (h566:
        the vanilla run's 305.54 toks/s is plain, the speculative run's 74.31 speculative)."""
        runs: list[tuple[Block, str, str]] = []
        for block in self.post.blocks:
            if block.kind != "code":
                continue
            for _, t in block.lines:
                m = _SCRIPT_LINE.match(t)
                if m is not None:
                    drafting = [
                        flag_decoding(f.group("name"), f.group("v")) for f in DRAFTING_FLAG.finditer(t)
                    ]
                    runs.append(
                        (
                            block,
                            m.group("script"),
                            next((d for d in drafting if d is not None and d != "plain"), "plain"),
                        )
                    )
                    break
        by_script: dict[str, list[tuple[Block, str]]] = {}
        for block, script, decoding in runs:
            by_script.setdefault(script, []).append((block, decoding))
        arms = {
            n: decoding
            for blocks in by_script.values()
            if len({d for _, d in blocks}) >= 2
            for block, decoding in blocks
            for n, _ in block.lines
        }
        for e in self.out.entries:
            line = e.fields.get("source_line")
            if e.kind != "claim" or line not in arms or "origin" in e.fields:
                continue
            if not str(e.origins.get("decoding", "")).startswith(f"line {line},"):  # (not its own words)
                e.fields.setdefault("conditions", {})["decoding"] = arms[line]
                e.origins["decoding"] = "its code block's command (another block runs the script otherwise)"

    def mac_machine(self) -> None:
        """A post that names one Apple desktop by its name alone ("Complete evaluation infrastructure
        on a single Mac Studio", ``_BARE_MAC``) and no machine otherwise (no chip, card or CPU named:
        "Mac Studio M2 Ultra" names its chip, read by ``mentions``): that desktop is the ``hardware``
        of each claim that has none ("Apple Mac Studio", the vendor's full name).  Issue 29's corpus:
        h535."""
        names = {
            "Apple Mac Studio" if "studio" in m.group("m").lower() else "Apple Mac mini"
            for m in _BARE_MAC.finditer(self.post.text)
        }
        if not names:
            # no desktop either: Apple's chips as a family ("on an Apple Silicon Mac (M-series)",
            # "Measured this session (M-series, …)"), as written (p176, h372)
            family = [
                re.sub(
                    r"\s+",
                    " ",
                    f"Apple {m.group('f')}" if m.group("f").lower().startswith("m") else m.group("f"),
                )
                for m in _APPLE_FAMILY.finditer(self.post.text)
            ]
            names = {max(family, key=len)} if family else set()  # (the fullest: "Apple Silicon Mac")
        if len(names) != 1 or context_of(self.post).machines_named:
            return
        said = [x.fields for x in self.out.groups] + [e.fields for e in self.out.entries if e.kind == "claim"]
        if any((f.get("conditions") or {}).get("hardware") for f in said):
            return
        self.where_unset("hardware", names.pop(), "the one Apple desktop the post names, no chip named")

    def where_unset(
        self, path: str, value: object, origin: str, rows_named: set | frozenset = frozenset()
    ) -> None:
        """Give ``path`` the post-wide ``value`` (its ``origin`` as the audit page shows it) on each
        group and each ungrouped claim that has none: not a group one of whose rows names its own
        (``rows_named``: group ids), not a claim quoting someone else (``origin``)."""
        for g in self.out.groups:
            if path not in (g.fields.get("conditions") or {}) and g.id not in rows_named:
                g.fields.setdefault("conditions", {})[path] = value
                g.origins[path] = origin
        grouped = {g.id for g in self.out.groups}
        for e in self.out.entries:
            if e.kind != "claim" or e.group in grouped or "origin" in e.fields:
                continue
            if path not in (e.fields.get("conditions") or {}):
                e.fields.setdefault("conditions", {})[path] = value
                e.origins[path] = origin

    def repeated_runs(self) -> None:
        """The same result line printed again in one block with new numbers ("total  19.72 ms,
        50.71 tok/sec" three times; "Output generated in 8.11 seconds (…)" per run) reports one
        run each: the claims of its k-th printing get ``run_index: k`` (``_repeated_lines``).  A
        block with label lines (``_labels_in_code``: "EAGLE-3:", "k=4:" before each result)
        repeats its lines per arm, not per run: no index.  Then adjacent blocks as one, for the
        lines no block indexed alone (``_adjacent_blocks``: one paste a run, between blank lines)."""
        by_line: dict[int, list[Entry]] = {}
        for e in self.out.entries:
            if e.kind == "claim" and e.group is None:
                by_line.setdefault(int(e.fields.get("source_line") or 0), []).append(e)
        lines = set(by_line)  # once: per block it was quadratic in a long post
        found: dict[int, int] = {}
        for block in self.post.blocks:
            if block.kind == "table" or _labels_in_code(block.lines, lines):
                continue
            found.update(_repeated_lines(block.lines, lines))
        for joined in _adjacent_blocks(self.post):
            rest = lines - set(found)
            first = next((n for n, _ in joined if n in rest), None)
            # a label between results names each one's arm; one above them all ("Results:") none
            if first is None or any(n > first for n, _ in _labels_in_code(joined, rest)):
                continue
            runs = _repeated_lines(joined, rest)
            # only results between the printings (prose between them, "I then turned FA off and
            # got", changed the arm)
            if runs and all(
                n in lines or _RULE_LINE.fullmatch(t) for n, t in joined if min(runs) < n < max(runs)
            ):
                found.update(runs)
        for ln, k in found.items():
            for e in by_line[ln]:
                cond = e.fields.setdefault("conditions", {})
                cond.setdefault("run_index", k)

    def generated_counts(self) -> None:
        """The tokens a generation produced, stated on its rate's line ("Output generated in 8.11
        seconds (24.65 tokens/s, 200 tokens, ...)", "Generation: 256 tokens, 31.8 tokens-per-sec",
        "2590 tokens in 59.6s (43.4 tok/s)"): ``tokens_generated`` of the line's decode rate and
        of its time, where the line holds one count of tokens (``_COUNT_OF_TOKENS``) and a decode
        rate; a count in a prompt's or context's words is none.  A result line of its own counting
        the generated tokens (ollama --verbose's "eval count", a script's "output token: 1000":
        ``_EVAL_COUNT``) gives it to the generation's lines within three lines (its duration and
        rate, "decode time", "decode speed"), and to the run's total duration where its block holds
        one count."""
        by_line: dict[int, list[Entry]] = {}
        for e in self.out.entries:
            if e.kind == "claim" and e.group is None and e.fields.get("source_line"):
                by_line.setdefault(int(e.fields["source_line"]), []).append(e)
        counted: dict[int, int] = {}  # line -> the ollama eval count before it in its block
        for block in self.post.blocks:
            found = [(n, int(m.group(1))) for n, t in block.lines if (m := _EVAL_COUNT.match(t))]
            for n, t in block.lines:
                if _EVAL_LINE.match(t):
                    # the nearest count within three lines, the one before on a tie
                    near = [(abs(k - n) + (k > n) * 0.5, v) for k, v in found if abs(k - n) <= 3]
                    if near:
                        counted[n] = min(near)[1]
                elif len(found) == 1 and _TOTAL_LINE.match(t):
                    counted[n] = found[0][1]  # the run's total time: its one generation's count
        for line, claims in by_line.items():
            if line in counted:  # "eval count: 480 token(s)" beside its generation's duration and rate
                for e in claims:
                    e.fields.setdefault("conditions", {}).setdefault("tokens_generated", counted[line])
                continue
            if not any(e.fields.get("metric") == "decode_tps" for e in claims):
                continue
            counts = {
                int(m.group(1).replace(",", ""))
                for m in _COUNT_OF_TOKENS.finditer(self.post.line(line))
                if not _PROMPT_COUNT.search(self.post.line(line), max(0, m.start() - 16), m.start())
            }
            if len(counts) != 1:
                continue
            n = counts.pop()
            for e in claims:
                if e.fields.get("metric") in ("decode_tps", "duration"):
                    cond = e.fields.setdefault("conditions", {})
                    cond.setdefault("tokens_generated", n)

    def rates_of_lines(self) -> None:
        """A rate on its own line right after a token count and a time in seconds on the lines just
        before it ("decode time: 14.33s / output token: 1000 / decode speed: 69.79 token/s", a
        script's printout) that equals the count over the time to its stated digits: a ratio
        statement of the two claims (the count, then the time), in the rate's unit.  Only where the
        quotient agrees: a rate beside unrelated counts is left alone."""
        at: dict[int, list[Entry]] = {}
        for e in self.out.entries:
            line = e.fields.get("source_line")
            if e.kind == "claim" and isinstance(line, int) and e.group is None:
                at.setdefault(line, []).append(e)
        cited = {tuple(e.fields["of"]) for e in self.out.entries if isinstance(e.fields.get("of"), list)}
        for line, here in at.items():
            for rate in here:
                if family(rate.fields.get("unit")) != "rate" or "value" not in rate.fields:
                    continue
                near = [e for k in (line - 1, line - 2, line - 3) for e in at.get(k, [])]
                tokens = [e for e in near if e.fields.get("unit") == "tokens" and "value" in e.fields]
                times = [e for e in near if e.fields.get("unit") == "s" and "value" in e.fields]
                stated = str(rate.fields["value"])
                digits = len(stated.split(".")[1]) if "." in stated else 0
                value = plain_value(stated) or 0.0
                pairs = [
                    (t, d)
                    for t in tokens
                    for d in times
                    if (plain_value(str(d.fields["value"])) or 0) > 0
                    and abs(
                        (plain_value(str(t.fields["value"])) or 0)
                        / (plain_value(str(d.fields["value"])) or 1)
                        - value
                    )
                    <= 0.5 * 10.0**-digits + 1e-9 * value
                ]
                if len(pairs) != 1 or (pairs[0][0].id, pairs[0][1].id) in cited:
                    continue
                t, d = pairs[0]
                sid = self.new_id(f"s-l{line}")
                fields = {
                    "kind": "ratio",
                    "statement": str(rate.fields.get("quote") or ""),
                    "of": [t.id, d.id],
                    "value": rate.fields["value"],
                    "unit": rate.fields.get("unit"),
                    **source_fields(line, str(rate.fields.get("quote") or "")),
                }
                if "decimals" in rate.fields:
                    fields["decimals"] = rate.fields["decimals"]  # every digit of a printed float
                self.out.entries.append(Entry("statement", sid, {"id": sid, **fields}))

    def no_self_relations(self) -> None:
        """A statement relating one claim to itself (``of`` citing an id twice: a ratio of 1 by
        construction, issue 29) states nothing the claims do not: it becomes a todo statement
        citing the claim once, for the reader to name the other side."""
        for k, e in enumerate(self.out.entries):
            of = e.fields.get("of")
            if e.kind != "statement" or not isinstance(of, list) or len(set(of)) == len(of):
                continue
            fields: dict = {
                "id": e.id,
                "todo": "name the two sides in `of` (the claims it relates), then delete `todo`",
            }
            fields.update({key: v for key, v in e.fields.items() if key != "id"})
            fields["of"] = list(dict.fromkeys(of))
            self.out.entries[k] = Entry("todo", e.id, fields, e.group)

    def rated_code_lines(
        self, pieces: list[tuple[int, str]], found: list[Result], command_at: Callable[[int], dict]
    ) -> None:
        """The lines of a code block that is no log (``pieces``: its lines outside command lines)
        that print a rate, or times after their statistics' words (``stat_list``: "Batch 64: …, avg
        1611.47ms, std 143.69ms"), in words no tool reader knows (a script's own summary: "lmdeploy
        运行时间: 23355.06 毫秒, 4.32 token/s.", "vllm: 2.75 token/s"): drafted as prose, each line alone, as
        ``rate_lines`` drafts a generator's summary line, under the command ``command_at`` gives
        for its line; lines a result (``found``) or ``RATE_LINE`` already drafted are left to them,
        but for the figures beside a result that no reader took ("warmup  12 tok   124 ms TTFT
        148 ms total   82.1 tok/s": the count and the times beside the rate), read as prose with
        the result's words blanked."""
        held = self.command
        done = {r.line for r in found}
        spans: dict[int, list[tuple[int, int]]] = {}
        for r in found:
            spans.setdefault(r.line, []).append((r.start, r.end))
        # a configuration's targets ("slo:" over "  tpot: avg 20ms, p99 50ms"): no results
        targets = any(_TARGET_KEY.match(t) for _, t in pieces)
        for n, t in pieces:
            if n in done and not RATE_LINE.search(t) and not _log_line(t) and "|" not in t:
                # a result read on the line, more figures beside it that no reader knows ("warmup
                # 12 tok   124 ms TTFT    148 ms total   82.1 tok/s": the rate read, the count and
                # times not): those drafted as prose, the result's words blanked
                rest = [
                    x
                    for x in numbers(t)
                    # (times, counts and rates: a tool's shares and caps beside its results, "GPU KV
                    # cache usage: 0.5%", nvidia-smi's box, are no results of the run)
                    if family(x.unit) in ("time", "tokens", "rate")
                    and not any(a <= x.start < b for a, b in spans.get(n, ()))
                    and not t.startswith("=", x.end)  # "B=4 S=1": a key's letter, no unit
                ]
                if rest:
                    blanked = t
                    for a, b in spans.get(n, ()):
                        blanked = blanked[:a] + " " * (b - a) + blanked[b:]
                    self.command = command_at(n)
                    listed = len(self.out.unplaced)
                    self.prose([(n, t)], [blanked])
                    # (the line's other numbers, a log's date and ids, were the code block's to list
                    # or not: only those of the figures read here stay listed)
                    mine = {x.text for x in rest}
                    self.out.unplaced[listed:] = [u for u in self.out.unplaced[listed:] if u[1] in mine]
                continue
            if n in done or RATE_LINE.search(t) or n in self.by_line:
                continue
            said = [x for x in numbers(t) if x.unit is not None]
            # a status card's "label: value" line stating a rate, a percentage, a count of tokens
            # or a size used of a whole ("VRAM: 24GB 중 21.3GB 사용", "수락률 97/95/91%", "AL 3.4–3.8")
            labelled = _CARD_LINE.match(t) is not None and any(
                (family(x.unit) in ("ratio", "tokens") and _ACCEPT_WORDS.search(t)) or x.of is not None
                for x in said
            )
            listed = stat_list(t, said) and not targets
            if any(family(x.unit) == "rate" for x in said) or labelled or listed:
                self.command = command_at(n)
                self.prose([(n, t)])
        self.command = held

    def code_unplaced(self, pieces: list[tuple[int, str]], found: list[Result]) -> None:
        """The numbers with a unit of a code block that is no log (``pieces``: its lines outside
        command lines) that neither a result line (``found``) nor a claim on their line states:
        listed under ``unplaced``, never dropped (issue 29: "numbers it cannot place are listed")."""
        spans: dict[int, list[tuple[int, int]]] = {}
        for r in found:
            spans.setdefault(r.line, []).append((r.start, r.end))
        claimed = {  # the claims of its lines (every entry read per block was quadratic in a long post)
            line: {str(e.fields.get("value")) for e in self.by_line.get(line, [])} for line, _ in pieces
        }
        for line, t in pieces:
            for n in numbers(t):
                if n.unit is None or any(a <= n.start < b for a, b in spans.get(line, ())):
                    continue
                if number_text(n.text) in claimed.get(line, ()) or n.text in claimed.get(line, ()):
                    continue
                self.out.unplaced.append((line, n.text, t.strip()[:300]))

    def uncited_timings(self) -> None:
        """The timing lines of a log excerpt (``toollines``: llama.cpp's ``prompt eval time = ...
        tokens per second``) are claims only where no claim of the post names that log: a log the
        prose states numbers of ("That is 24.4 tok/s" after it) is the evidence the audit checks
        them against, not more claims; a log pasted with nothing said of it states its numbers
        itself.  The claims go where the log is in the post, under the command in force there."""
        # a claim read from the log's own lines (its acceptance line) is the log stating a number,
        # not the prose citing it: only claims from lines outside the log count
        cited = {
            log
            for e in self.out.entries
            if e.kind == "claim"
            and (log := e.fields.get("log")) is not None
            and e.fields.get("source_line") not in self.log_lines.get(log, ())
        }
        into: dict[int, list[Entry]] = {}  # where -> the claims that go there, the earlier log's first
        last = self.command
        for at, timed, log, command in reversed(self.timing_logs):
            if log in cited:
                continue
            before = len(self.out.entries)
            self.command = command  # the command before the log, not the post's last
            for r in timed:
                self.result_claim(r, log)
            into[at] = self.out.entries[before:] + into.get(at, [])
            del self.out.entries[before:]
        self.command = last
        if into:  # put in at once: one insertion per log moved every entry after it, per log
            entries, self.out.entries = self.out.entries, []
            for k in range(len(entries) + 1):
                self.out.entries += into.get(k, [])
                if k < len(entries):
                    self.out.entries.append(entries[k])


#: a count of tokens on a line ("200 tokens", "1,024 tokens"), not a rate ("tokens/s", "tokens per
#: second", "tokens-per-sec")
_COUNT_OF_TOKENS = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+)\s+tokens\b(?!\s*/|\s*per\b|-per)", re.I)
#: a result line counting the generated tokens (ollama --verbose's "eval count:    480 token(s)",
#: not "prompt eval count"; a script's "output token:  1000", "generated tokens: 256") and the lines of
#: that generation beside it ("eval duration: 12.81s", "eval rate: 37.47 tokens/s", "decode time:",
#: "decode speed:")
_EVAL_COUNT = re.compile(
    r"^[\s*_>]*(?:eval count|output tokens?|generated tokens|completion tokens|tokens generated)\s*[:=]"
    r"\s*\**\s*(\d+)(?![\d.,])",
    re.IGNORECASE,
)
_EVAL_LINE = re.compile(
    r"^[\s*_>]*(?:eval (?:duration|rate)|decode (?:time|speed|rate|throughput)|generation (?:time|speed)):",
    re.IGNORECASE,
)
_TOTAL_LINE = re.compile(r"^[\s*_>]*total duration:", re.IGNORECASE)
#: words before a count that make it the prompt's or the context's ("Prompt: 14 tokens")
_PROMPT_COUNT = re.compile(r"prompt|input|context|prefill|encoded", re.IGNORECASE)


#: a result line's prompt and generated lengths as key=value words ("input=16 output=128")
_IO_LENGTHS = re.compile(r"\binput=(?P<in>\d+)\s+output=(?P<out>\d+)\b")
#: a lead-in whose last word before its colon makes the numbers below approximate ("The results were
#: roughly:", "测试结果大概是：", "結果は約：")
_APPROX_LEAD = re.compile(rf"(?i)(?<![A-Za-z0-9])(?:{ABOUT})\s*[:：]\s*$")


def _scoped(stack: list, level: float, value: str | None) -> str | None:
    """What the open headings state (``stack``: (level, value), outermost first, changed in place)
    once a heading of ``level`` opens, stating ``value`` or None: its own where it states one, else
    the nearest enclosing heading's; a sibling's or a deeper one's no more."""
    while stack and stack[-1][0] >= level:
        stack.pop()
    if value:
        stack.append((level, value))
    return stack[-1][1] if stack else None


def _other_engine(lead_in: str, command: dict) -> bool:
    """Whether a lead-in names one engine (``mentions``, or a llama.cpp tool:
    ``draftcontext.LLAMA_TOOL_NAMED``) and ``command`` (the command line above) runs another: the
    block it introduces is not that command's run."""
    engines = {m.value for m in mentions(lead_in) if m.path == "engine"}
    if LLAMA_TOOL_NAMED.search(lead_in):
        engines.add("llama.cpp")
    ran = command.get("engine")
    return len(engines) == 1 and isinstance(ran, str) and ran not in engines


def _arm_of_label(text: str, command: dict) -> dict:
    """The command's conditions for the numbers under a label naming their arm: the label is
    ``text`` up to its first ":" (40 characters at most: "vanilla, [02", "k=2", "base (concurrency =
    1)"), its decoding named as a column header names it (``draftnames.header_decoding``) or its
    draft size (``draftcontext.header_settings``: "k=2", "n_max=0" plain).  A copy with the label's
    arm where it differs from the command's (plain: none of the command's drafting,
    ``draftcommand.plain_run``), else ``command`` itself.  A label naming one engine other than the
    command's, or where no command named one ("SGLang 0.4.5 (same client command, …):", "vLLM:" over
    its results; its colon within 80 characters) gives that engine and its version, none of the
    command's build or backend."""
    label = text.split(":", 1)[0]
    # (a label ends at its colon and opens with the engine: a sentence with no colon, "unlike ollama,
    # …", or "Unlike Ollama, the GPU was busy: …" names no arm)
    named = [m for m in mentions(label) if m.path == "engine"] if ":" in text[:81] else []
    engines = {str(m.value) for m in named}
    lead = len(label) - len(label.lstrip(" *_#`>-"))  # the label's own start, past its markup
    if len(engines) == 1 and named[0].start <= lead and command.get("engine") not in engines:
        # "SGLang 0.4.5 (same client command, `--backend sglang`):" over a serving benchmark's output,
        # a vLLM command above: the engine the label names ran these numbers, at the version it names
        engine = engines.pop()
        command = {k: copy.deepcopy(v) for k, v in command.items() if k not in ("build", "backend")}
        if isinstance(command.get("other"), dict):  # a client's "--backend vllm": the other server's
            command["other"] = {k: v for k, v in command["other"].items() if k != "backend"}
        command["engine"] = engine
        if (version := engine_versions(label).get(engine)) is not None:
            command["build"] = version
    if len(label) > 40:
        return command
    said = {k: v for k, v in header_settings(label).items() if k != "other.stat"}  # no arm's
    decoding = header_decoding(label)
    if decoding is not None:
        said.setdefault("decoding", decoding)
    if not said or all(command.get(k) == v for k, v in said.items()):
        return command
    if said.get("decoding") == "plain" and command.get("decoding") == "plain":
        return command
    out = {**copy.deepcopy(command), **said}
    plain_run(out)
    return out


def _label_conditions(before: str, cond: dict) -> dict:
    """``cond`` (a result's conditions) with what the label before its value (``before``: the line up
    to the value, "A770: ") names for that line alone: a device ("A770: 14.5ms/token", "RTX 4090: 52
    t/s"), the CPU ("CPU: 5.2 t/s": backend CPU, no GPU), a quant ("Q8_0:", "fp16:"), a size of the
    model ("13B:" under "llama2 int4"), or a model ("llama-2-13b:"); ``cond`` as it is for any other
    line."""
    lead = re.fullmatch(r"\s*(?:[-*•]\s+)?(?P<l>[^:=\s][^:=]{0,39}?)\s*[:=]\s*", before)
    label = lead.group("l").strip() if lead else ""
    if not label:
        return cond
    if hardware := hardware_of(label):
        return merged(cond, {"hardware": hardware})  # that line's machine, over the post's
    if _CPU_LABEL.fullmatch(label):
        out = merged(cond, {"backend": "CPU"})
        if isinstance(out.get("hardware"), str) and not CPU.fullmatch(out["hardware"]):
            del out["hardware"]
        return out
    if _QUANT_LABEL.fullmatch(label):
        return merged(cond, {"quant": label})
    size = re.fullmatch(r"(\d+(?:\.\d+)?)\s?([BM])", label, re.IGNORECASE)
    if size:
        model = cond.get("model")
        if isinstance(model, str) and not SIZED_NAME.search(model):
            return merged(cond, {"model": f"{model}-{size.group(1)}{size.group(2).upper()}"})
        return cond
    return merged(cond, _model_label(label))


#: a label that is the CPU alone ("CPU", "CPU-only")
_CPU_LABEL = re.compile(r"(?i)cpu(?:[- ]only)?")


def _model_label(label: str) -> dict:
    """The model (and quant) a result line's label names when it names nothing else ("llama-2-13b",
    "Qwen3-8B Q4_K_M"); ``{}`` otherwise."""
    said = mentions(label)
    models = [m for m in said if m.path == "model"]
    if len(models) != 1 or any(m.path not in ("model", "quant") for m in said):
        return {}
    return {m.path: m.value for m in said}


#: a label that is all a quantisation ("Q8_0", "IQ4_XS", "fp16", "bf16", "int4", "4bit", "AWQ")
_QUANT_LABEL = re.compile(
    r"(?i)(?:UD-)?I?Q\d(?:_[A-Z0-9]{1,3}){0,3}|fp(?:4|6|8|16|32)|bf16|f16|f32|int[48]|[2-8][- ]?bits?"
    r"|awq|gptq|mxfp[468]|nvfp4"
)


def _run_of_block(prev: Block | None, raw: Callable[[int], str]) -> int | None:
    """The run a code block's output is, by the one line of text right above it naming it ("Run 2:",
    "**Run 1**", "- 2nd run:", ``draftcontext.run_label``; ``raw``: a line of the post as written,
    its bold marks kept); None where the line names none."""
    if prev is None or prev.kind != "text" or prev.heading or len(prev.lines) != 1:
        return None
    return line_run(raw(prev.lines[0][0]))


def _block_head(lines: list[tuple[int, str]], results: set[int]) -> dict:
    """The model and quant a code block's first line names when no result is on it and results
    follow ("llama2-7b int4, sym, g128, comp_dtype=fp32" over "A770: 14.5ms/token"): the block's
    runs'; ``{}`` where it names none, or several of either ("llama2-7b vs mistral-7b")."""
    first = next(((n, t) for n, t in lines if t.strip()), None)
    if first is None or first[0] in results or not any(n > first[0] for n in results):
        return {}
    if ":" in first[1] or "：" in first[1] or re.search(r"(?i)\bdraft|\bassistant", first[1]):
        # a label or a key's line ("elapsed:5m", ``_labels_in_code``'s), or the draft's weights
        # ("qwen2-0.5b int4 draft model"): no head naming the model run
        return {}
    out: dict = {}
    for path in ("model", "quant"):
        values = {m.value for m in mentions(first[1]) if m.path == path}
        if len(values) == 1:
            out[path] = values.pop()
    return out if "model" in out else {}


def _command_of_line(
    line: int, starts: list[tuple[int, dict]], block_command: dict, of_block: Callable[[dict], dict]
) -> dict:
    """The command conditions of a code block's result ``line``: where the block holds two or more
    command lines (``starts``: line, what it sets; an unknown tool's line sets nothing), those of
    the last one above the line (``of_block`` adds the block's own); else the block's
    (``block_command``)."""
    own = next((c for n, c in reversed(starts) if n < line), None)
    last_known = next((c for _, c in reversed(starts) if c), None)  # (what ``block_command`` is of)
    if len(starts) > 1 and own is not None and own is not last_known:
        return of_block(own)
    return block_command


#: a model named by its size alone: before "model" or a weights' format ("for 70B model", "a 13B
#: GPTQ", "13B 模型", "35B 모델", "65B benchmark") or after "model," ("mlx normal model,27b")
_SIZE_MODEL = re.compile(
    r"(?<![\w.+-])(?P<size>\d+(?:\.\d+)?[BbMm])(?=[\s-]?(?:models?\b|模型|모델|モデル|GPTQ|AWQ|EXL2|GGUF|"
    r"benchmark|[Ff][Pp]?16\b|[Qq]\d))"
    r"|(?i:\bmodels?\s?[,:，]\s?)(?P<size2>\d+(?:\.\d+)?[Bb])(?![\w.])"
)


#: a size joined by "and", "or", "vs", a comma or a slash to a size before "model(s)" ("the 7B and the
#: 13B models", "7B/13B models")
_JOINED_SIZE = re.compile(
    r"(?<![\w.+-])(\d+(?:\.\d+)?[Bb])\s*(?:,|and|or|vs\.?|/|&)\s*(?:the\s+|a\s+)?\d+(?:\.\d+)?[Bb][\s-]?models?\b"
)
#: a command running a script no reader knows ("python benchmark_speculative.py --with_speculation True")
_SCRIPT_LINE = re.compile(r"\s*(?:\$\s*)?python[\d.]*\s+(?:-m\s+)?(?P<script>[\w./-]+\.py|[\w.]+)(?=\s|$)")


#: a card's number written alone ("4090", "3060 Ti", "7900 XTX"): a GPU the post names without its brand
_BARE_CARD = re.compile(r"(?<![\w.])(?:[1-5]0[5-9]0(?:\s?Ti)?|[5-9][6-9]00\s?XTX?)(?![\w.])")
#: Apple's chips named as a family, no chip ("Apple Silicon Mac", "Apple Silicon", "M-series")
_APPLE_FAMILY = re.compile(r"\b(?P<f>Apple\s+Silicon(?:\s+Mac)?|M-series)\b", re.IGNORECASE)
#: a model's size alone in a clause ("7b是3.8秒", "70B: 5 tok/s"): not glued to a Latin name or a unit (CJK
#: words may touch it: "14b模型")
_CLAUSE_SIZE = re.compile(r"(?<![A-Za-z0-9_.+-])(\d+(?:\.\d+)?[Bb])(?![A-Za-z0-9_/]|\.\d)")
#: a model's size after a preposition and an article, right after a number ("108 tokens/s on a 7B")
_ON_A_SIZE = re.compile(
    r"^\s*\b(?:on|with|for|using|from)\s+(?:a|an|the)\s+(\d+(?:\.\d+)?[Bb])(?![A-Za-z0-9_/]|\.\d)",
    re.IGNORECASE,
)
_CLAUSE_END = r"[,，;；:：。]"


#: a line of one character repeated, a tool's separator between its runs (mlx_lm's "==========")
_RULE_LINE = re.compile(r"\s*([=\-*#~_])\1{4,}\s*")


def _pasted(block: Block) -> bool:
    """Whether a block is a tool's output pasted: a code block, or lines every one of which is a
    timing or log line (``TIMING_LINE``, ``_log_line``: llama_print_timings pasted as text); a
    paragraph or a list item of prose is none ("- Llama-3-8B gives 95.2 t/s")."""
    return block.kind == "code" or all(TIMING_LINE.search(t) or _log_line(t) for _, t in block.lines)


#: a model family and its version right before a size (``size_model``: "Llama 3.1 8B" is a name)
_FAMILY_BEFORE = re.compile(rf"(?i)(?:{MODEL_FAMILIES})(?![\w.]*\.cpp)[\w.]*(?:[\s-]+[\w.]+){{0,2}}[\s-]+$")
#: a capitalised word right before a size, no word of a sentence's ("Miqu 70B", not "For 70B" or "A 13B"):
#: a name no list of families knows, whose size alone is not the model's name
_NAME_BEFORE = re.compile(
    r"(?<![\w.-])(?!(?i:a|an|the|my|our|this|that|for|with|on|of|in|at|to|and|or|vs|using|run|ran|"
    r"running|test|tested|testing|benchmark|model|models|both|each|one|same|new|old|big|small)\b)"
    r"[A-Z][\w-]*[\s-]$"
)


def _adjacent_blocks(post: Post) -> list[list[tuple[int, str]]]:
    """The lines of each run of adjacent blocks of ``post`` that are neither tables nor headings:
    blocks with only blank lines or code fences between them ("Here are 3 sample results:" and
    one llama_print_timings paste a run, each between blank lines) are one printing after another
    for ``_repeated_lines``.  Issue 29's held-out h516."""
    out: list[list[tuple[int, str]]] = []
    last = -1
    for block in post.blocks:
        if block.kind == "table" or block.heading or not block.lines or not _pasted(block):
            last = -1
            continue
        first = block.lines[0][0]
        between = [post.line(n) for n in range(last + 1, first)] if 0 < last < first else None
        if out and between is not None and all(not t or t.startswith(("```", "~~~")) for t in between):
            out[-1].extend(block.lines)
        else:
            out.append(list(block.lines))
        last = block.lines[-1][0]
    return out


def _labels_in_code(lines: list[tuple[int, str]], results: set[int]) -> list[tuple[int, str]]:
    """The label lines of a code block's output, ``(line, text)`` in order: a line with no result
    (``results``: the lines that have one) ending in ":" ("EAGLE-3 (num_steps=8):", "k=4:") names
    the arm of the result lines after it, up to the next label (``_arm_of_label`` reads it)."""
    return [(n, t.strip()) for n, t in lines if n not in results and re.fullmatch(r"[^:]{1,40}:", t.strip())]


#: a number in a result line, for its shape (``_repeated_lines``)
_A_NUMBER = re.compile(r"\d+(?:[.,]\d+)*|(?i:\b(?:inf|nan)\b)")  # llama.cpp prints "inf" for a rate over 0 ms


def _repeated_lines(lines: list[tuple[int, str]], claimed: set[int]) -> dict[int, int]:
    """line -> its run (1, 2, ...) for the result lines of a block's ``lines`` (those in
    ``claimed``) whose shape comes two or more times with other numbers each time: the k-th printing
    is run k.  The shape is the text with its numbers blanked, a quote's "> " dropped, but a
    label's before its ":" kept ("Acceptance at token 2: 0.22" names its position, no run).  A
    shape printed once or with the same numbers again, or one with a line between its printings
    that states a number but no result ("tp = 4", "Generating 128 tokens...": the arm changed;
    not where every printing follows the same such line, a script's banner before each run), is none."""
    seen: dict[str, list[tuple[int, str]]] = {}
    for n, t in lines:
        if n not in claimed:
            continue
        text = re.sub(r"\s+", " ", re.sub(r"^\s*(?:>\s*)+", "", t)).strip()  # its numbers' padding none
        label, colon, rest = text.partition(":")
        shape = label + colon + _A_NUMBER.sub("#", rest) if colon else _A_NUMBER.sub("#", text)
        # (a value alone on its line is no printing of one result line: labels stacked over their
        # values, "Output tok/s" over "1234.5" over "Peak tok/s" over "2000", state other quantities)
        if "#" in shape and shape.strip() != "#":
            seen.setdefault(shape, []).append((n, text))
    setting = [(n, t.strip()) for n, t in lines if n not in claimed and re.search(r"\d", t)]
    at = [n for n, _ in setting]  # (in line order: the setting line before a printing by bisection)
    out: dict[int, int] = {}
    for printed in seen.values():
        first, last = printed[0][0], printed[-1][0]
        if len(printed) < 2 or len({t for _, t in printed}) < len(printed):
            continue
        # the setting lines between the printings: the arm changed, unless each printing follows the
        # same one ("Warming up [0.30.6] / granite4:latest" printed before each run of a script;
        # "ctx = 4096" / "ctx = 32768" before alternate printings is two arms)
        if bisect.bisect_left(at, last) > bisect.bisect_right(at, first):  # one between the printings
            before = {setting[k - 1][1] if (k := bisect.bisect_left(at, n)) else None for n, _ in printed}
            if len(before) > 1:
                continue
        out.update({n: k for k, (n, _) in enumerate(printed, 1)})
    return out


#: a label naming a setting or a count, not a result: "Threads: 8", "Draft: 8", "n_ctx: 4096"
_SETTING_WORD = re.compile(
    r"(?i)\b(?:threads?|draft|batch|ctx|context|seed|port|temp(?:erature)?|top[-_ ]?[kp]|layers?|ngl|"
    r"prompts?|tokens?|runs?|iterations?|size|version|build|n[_-]\w+)\b"
)


#: the unit families of a rate a paragraph states (tokens or requests per second)
_RATE_FAMILIES = ("rate", "requests")


#: a status card's line: a label of words (any script), a colon, then its value ("VRAM: 24GB 중 21.3GB
#: 사용", "추론 디코딩(Spec-decode): MTP n=3 · 수락률 97/95/91%"); not a log's prefixed line
#: words of a draft's acceptance on a status card's line (its rate, its length): "Fan: 60%" or
#: "Prompt: 512 tokens" states no acceptance
_ACCEPT_WORDS = re.compile(r"accept|\bAL\b|수락|採択|受理|接受|接收率|принят", re.I)
_CARD_LINE = re.compile(r"^\s*[^\W\d_][^:=\[\]|]{0,40}?[:：]\s+\S")


#: AMD's Strix Halo by any of its names: the platform, the chip, its graphics (a count before none)
#: a machine sold around one chip -> that chip (NVIDIA's product page: the DGX Spark is the GB10
#: Grace Blackwell superchip's desktop), as ``mentions`` names them
#: (with the other makers' machines around the same chip: a post naming one of them compares two)
_MACHINE_CHIPS = {
    "NVIDIA DGX Spark": (
        "NVIDIA GB10",
        r"(?i)\bDell\s+Pro\s+Max\b|\bAscent\s+GX10\b|\bGX10\b|ThinkStation\s+PGX|EdgeXpert|AI\s+TOP\s+ATOM",
    )
}
_APU = re.compile(r"AMD (?:Strix Halo|Ryzen AI Max\+? \d{3}|Radeon 80[456]0S)", re.IGNORECASE)
#: the lower bound of each whole-number condition the claims schema bounds (``schema.Conditions``:
#: ``concurrency``, ``run_index`` >= 1)
_LOWEST = {
    name: bound.ge
    for name, info in schema.Conditions.model_fields.items()
    for bound in info.metadata
    if getattr(bound, "ge", None) is not None
}


def _within_schema(conditions: dict) -> None:
    """Drop from ``conditions`` (changed in place) a number below what the schema allows (``_LOWEST``:
    a llama-batched-bench row "| 512 | 128 | 0 |" read as concurrency 0): a value the post states
    in no unit the file can hold, left unstated rather than written into a file that will not load."""
    for name, lowest in _LOWEST.items():
        value = conditions.get(name)
        if isinstance(value, int | float) and not isinstance(value, bool) and value < lowest:
            del conditions[name]


#: a comparison column's label naming a build: a commit, a build number, a branch or a side of the
#: change ("t/s master", "t/s 3069e316", "t/s b5635", "t/s PR")
_BUILD_LABEL = re.compile(
    r"(?i)^(?:[0-9a-f]{7,40}|b\d{4,5}|master|main|pr|this pr|before|after|base|baseline|patched|unpatched)$"
)


def _compare_label(label: str) -> dict[str, object]:
    """The conditions a comparison column's label names (dotted paths): a build (``_BUILD_LABEL``:
    "master", "3069e316"), the conditions its words name ("CPU only": backend CPU, "RTX 4090":
    hardware), else the label as ``other.compare``."""
    if _BUILD_LABEL.match(label.strip()):
        return {"build": label.strip()}
    named = named_once([m for m in mentions(label) if m.path in ("hardware", "engine", "quant", "backend")])
    if re.search(r"(?i)\bCPU[- ]only\b|^CPU$", label):
        named["backend"] = "CPU"
    return named or {"other.compare": label.strip()}


_APU_CHIP = re.compile(r"Ryzen\s+AI\s+Max\s?(\+?)\s?(\d{3})", re.IGNORECASE)
_APU_GRAPHICS = re.compile(r"Radeon\s+(80[456]0S)\b", re.IGNORECASE)


def apu_name(text: str) -> str | None:
    """The one name of the Strix Halo APU a post names by its chip ("Ryzen AI Max+ 395", written
    once or the same each time) and, where it names it, its graphics ("Radeon 8060S"): "AMD Ryzen AI
    Max+ 395 (Radeon 8060S)", the chip's own graphics where the post names none (``_APU_GPU``); None
    where the post names no chip or two."""
    chips = {(m.group(1), m.group(2)) for m in _APU_CHIP.finditer(text)}
    if len({n for _, n in chips}) != 1:
        return None
    plus = "+" if any(p for p, _ in chips) else ""
    name = f"AMD Ryzen AI Max{plus} {next(iter(chips))[1]}"
    gpus = {m.group(1).upper() for m in _APU_GRAPHICS.finditer(text)}
    if not gpus and next(iter(chips))[1] in _APU_GPU:
        gpus = {_APU_GPU[next(iter(chips))[1]]}  # the graphics every such chip has, named or not
    return f"{name} (Radeon {gpus.pop()})" if len(gpus) == 1 else name


#: the graphics of each Ryzen AI Max chip (AMD's specifications): what runs a Vulkan or ROCm model
#: on it, as a post naming only the chip leaves unwritten
_APU_GPU = {"395": "8060S", "390": "8050S", "385": "8050S", "380": "8040S"}


def _caption_unit(text: str) -> str | None:
    """The rate unit a caption names with no number ("Output tokens/s on H100 BS1"), else None; a
    line ending in ":" introduces what follows, no caption."""
    if text.rstrip().endswith((":", "：")) or len(text) > 120:
        return None
    unit = label_unit(text)
    return unit if family(unit) in ("rate", "requests") else None


#: the families of a quantity a caption line may name for a table of plain numbers below it (rates:
#: ``_caption_unit``)
_CAPTION_FAMILIES = frozenset({"time", "size"})


def caption_quantity(line: str) -> tuple[str, str] | None:
    """(metric, unit) of a short line naming a time or size metric and its unit and no number,
    ending in a colon ("Here is TPOT(s):", "TTFT (ms):", "Latency in ms:", "VRAM usage (GB):"): the
    cells of the table below it that state no unit (``drafttable``); None for any other line
    (``toollines.label_unit`` and ``label_metric`` read the words)."""
    text = line.strip().strip("*_` ")
    if not text.endswith((":", "：")) or len(text) > 60 or any(n.unit for n in numbers(text)):
        return None
    unit = label_unit(text.rstrip(":：*_ "))
    if unit is None or family(unit) not in _CAPTION_FAMILIES:
        return None
    metric = label_metric(text.rstrip(":："), unit)
    return (metric, unit) if metric is not None and metric != "size" else None


def _rate_unit(text: str) -> str | None:
    """The rate unit the last rate of ``text`` states (``tok/s``, ``t/s``), None if it states none."""
    rates = [n.unit for n in numbers(text) if family(n.unit) == "rate"]
    return rates[-1] if rates else None


#: a paragraph's last line that is a release alone, or a release and the word for its run ("0.8.4"
#: over a block of its runs' output, "1.68 benchmark:", "v0.6.8 results", "1.77 console:")
_VERSION_ALONE = re.compile(
    r"[*_\s]*(?P<v>v?\d+\.\d+(?:\.\d+)*(?:\.post\d+)?)(?:\s+(?:benchmarks?|results?|runs?|console|output|logs?))?"
    r"[*_\s]*[:：]?[*_\s]*",
    re.IGNORECASE,
)


#: a line of a paragraph naming a release, with its backend or not ("1.108.2 CUDA", "v0.6.3",
#: "b4521 Vulkan"): a label of the lines under it (``version_labels``); a version of two parts only
#: with its "v" ("0.85" alone is a number)
_VERSION_LINE = re.compile(
    r"[*_\s]*(?P<v>v?\d+\.\d+\.\d+(?:\.\d+)*|v\d+\.\d+|b\d{4,5})(?P<rest>(?:\s+[A-Za-z][\w.+-]*){0,2})"
    r"[*_\s]*[:：]?[*_\s]*"
)


#: llama-bench's model label by a GGUF architecture ("deepseek2 30B.A3B", "qwen3moe 30B.A3B", "llama
#: 7B"): an architecture's id in lower case, then a size
_ARCH_LABEL = re.compile(r"[a-z][a-z0-9]*\s+\d+(?:\.\d+)?[BM](?:\.A\d+(?:\.\d+)?B)?\b")
#: a fork's name of llama.cpp's, "beellama.cpp", "ik_llama.cpp" (``fork_engine``)
_FORK_HINT = re.compile(r"(?i)[a-z0-9][_-]?llama\.cpp")
#: an engine's name as a folder of a path ("vulkan-llama.cpp/build/bin"): ``fork_engine``
_IN_PATH = re.compile(r"[\w.-]*llama\.cpp[/\\]")
#: a language's binding of llama.cpp, no fork of it (``fork_engine``)
_BINDING = re.compile(
    r"(?i)(?:go|node|py|python|rust|rs|java|dotnet|net|ruby|swift|dart|flutter|react)[-_]llama\.cpp"
)
#: llama.cpp named as a fork's threads name it (``fork_engine``)
_UPSTREAM = re.compile(r"(?i)\b(?:mainline|upstream|stock|vanilla|ggerganov|ggml-org|original)\b|\bno fork\b")


def _release_like(version: str) -> bool:
    """Whether ``version`` may be a release of an engine: not a date ("2025.05.14"), an address
    ("192.168.1.20") or a driver's number ("550.127.08": a first part of three digits)."""
    parts = version.lstrip("vb").split(".")
    return len(parts) <= 3 and len(parts[0]) <= 2 or version.startswith("b") and len(parts) == 1


def _only_backends(words: str) -> bool:
    """Whether ``words`` (after a release on its line) are none, or backends only ("CUDA", "ROCm")."""
    if not words.strip():
        return True
    found = mentions(words)
    return bool(found) and all(m.path == "backend" for m in found) and len(found) == len(words.split())


#: words of a KV cache's type being set (``version_labels``)
_KV_WORDS = re.compile(r"(?i)(?<![\w-])(?:-ctk|-ctv|--cache-type-[kv])\b|\bkv[ -]?cache\b")
#: a weights' format alone on a paragraph's last line over a code block or table ("fp16", "w8a8",
#: "**Q4_K_M:**", "INT4 results"): a label naming the block's quant (``version_labels``)
_QUANT_ALONE = re.compile(
    r"[*_\s]*(?P<v>(?:fp|bf)(?:16|32)|fp[468]|int[48]|w\d{1,2}a\d{1,2}|nf4|awq|gptq|mxfp[468]|nvfp4|"
    r"(?:UD-)?I?Q\d(?:_[A-Z0-9]+)+|Q8_0|F16|BF16)(?:\s+(?:results?|runs?|output|logs?))?[*_\s]*[:：]?[*_\s]*",
    re.IGNORECASE,
)


#: a prose line led by a release and a dash, then words ("1.66.1 - prompt processing 8k = 82.44 sec");
#: not a range ("1.5 - 2.0 t/s") nor a result's unit ("12.5 - tokens per second")
_RELEASE_LINE = re.compile(
    r"\s*(?P<v>v?\d+\.\d+(?:\.\d+)*)\s+[-–—]\s+(?!tok|t/s|tps|ms\b|sec|second|GB|MB|%)(?=[^\W\d_]{3})",
    re.IGNORECASE,
)


def _log_line(text: str) -> bool:
    """Whether a line of prose is a log line: a log's words (``_LOG``) followed by ``=`` or ``:``
    and a number ("Aggregate draft acceptance: 0.648", "eval time = 500.00 ms"); prose that
    mentions them ("after partial draft acceptance", "`accept()`") is not."""
    m = _LOG.search(text)
    return bool(m and re.search(r"[=:]\s*[-+]?\d", text[m.start() :]))


#: a llama-bench backend cell with the user's note in parentheses ("Vulkan (master)", "CUDA (PR)")
_BACKEND_NOTE = re.compile(r"\s*(?P<b>[A-Za-z][\w,]*)\s*\((?P<n>[^()]{1,24})\)\s*")


def _as_written(value, text: str) -> str:
    """``value`` with the digits ``text`` shows it with (the first number in ``text`` equal to it),
    else as Python prints it."""
    if value is None:
        return "0"
    for m in re.finditer(r"\d+(?:\.\d+)?", text):
        if abs(float(m.group(0)) - float(value)) < 1e-9:
            return m.group(0)
    return repr(float(value)) if isinstance(value, float) else str(value)


def draft_text(text: str, name: str = "post.md", link: str | None = None) -> Drafted:
    """The ``Drafted`` entries of a post's ``text`` (module doc); ``name`` is the post's file name
    (for llama-bench records and messages); ``link`` where it was published (``claims draft
    --link``; else a saved page's own canonical address, ``post.page_link``): the draft's
    ``source.link``, and a repository's engine where the post names none (``draftcontext.fill``).
    Never raises on any text: what cannot be read is a note or an unplaced number."""
    if link is None and is_html(text):
        link = page_link(text)
    post = read_post(text)
    grouped = DOT_GROUPED.set(dot_grouping(post.text))  # "42.582 ms" of a German post: 42582 ms
    try:
        drafter = _Drafter(post, name)
        drafter.link = link
        drafter.out.link = link
        return drafter.run()
    finally:
        DOT_GROUPED.reset(grouped)
        # (the per-text caches hold this post's paragraphs: a process drafting many posts keeps none)
        labels_number_clear()
