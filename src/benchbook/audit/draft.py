"""A post -> the entries of a claims file (``benchbook claims draft``; docs/claims.md "Drafting a
claims file from a post").

Every entry is a guess (``reviewed: false``) with the line of the post it came from
(``source_line``) and the sentence or table row it quotes (``quote``).  What is drafted:

* prose: each number with a unit (``draftprose.numbers``) is a claim: metric guessed from the unit
  and the words near it, the value with the digits it was written with, "about", a range, ``±``
  (``spread``), "N GiB of M GiB" (``capacity``), "N of M" (``counts``), ``origin`` when the
  sentence names who published it (``origin_of``); a number that repeats one
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
"""

from __future__ import annotations

import bisect
import re
from dataclasses import replace
from pathlib import Path

from ..ingest.common import IngestError
from ..ingest.read import read_llama_bench
from ..ingest.scan import scan
from ..ingest.serverlog import TIMING_LINE
from ..ingest.settings import flash_attn_word
from .draftcommand import command_lines
from .draftcontext import fill
from .draftcore import (
    NAMED_CONDITION,
    Drafted,
    Entry,
    Num,
    merged,
    number_fields,
    plain_value,
    sentence_at,
    sentence_bounds,
    set_path,
    source_fields,
    stateable,
)
from .draftnames import CLAUSE_ONLY, Mention, clause_bounds, machine_size, mentions
from .draftprose import CAPITALS_ONLY, Number, bound_of, family, metric_of, number_text, numbers
from .draftrelations import pair_units, relations, repetitions
from .drafttable import Tables
from .post import Block, read_post
from .resultlines import Result, results
from .toollines import tool_results

#: a log line a draft keeps as a raw log: llama-server/llama-cli timing and acceptance lines,
#: llama-speculative-simple's counts
_LOG = re.compile(
    r"prompt eval time\s*=|\beval time\s*=|total time\s*=|draft acceptance|n_drafted\s*=|n_accept\s*=|"
    r"print_timing|llama_perf_context_print|common_perf_print|statistics \w+:",
    re.IGNORECASE,
)


#: a sentence quoting someone else's number: an author, vendor, paper or earlier post named
_ORIGIN = re.compile(
    r"(?:according to\s+|\bin\s+)?\b(?:"
    r"(?:the|a|an|their|his|her)\s+(?:[\w.\-]+(?:'s|’s)\s+)?"
    r"(?:(?:earlier|previous|last|older|other|original|official)\s+)?"
    r"|(?:my|our)\s+(?:earlier|previous|last|older|other)\s+)"
    r"(?:author|authors|vendor|blog|paper|posts?|article|announcement|model card|maintainers?|team|"
    r"docs|README)\b"
    r"(?=.{0,120}?\b(?:reports?|gives?|says?|claims?|states?|shows?|lists?|quotes?|managed|measured|"
    r"got|reached|\d))",
    re.IGNORECASE,
)


#: a line of program output stating tokens, a time and a rate ("decoded 202 tokens in 2.533 seconds,
#: speed: 79.745 t/s")
RATE_LINE = re.compile(
    r"\d+\s+tokens\s+in\s+[\d.]+\s*(?:s|sec|seconds)\b.{0,40}?[\d.]+\s*(?:t/s|tok/s|tokens/s)", re.I
)


#: a command line written in a sentence, not in backticks ("with llama-server -m x.gguf -ngl 99 -fa
#: on, generation ran at ..."; quoted ".\\llama-cli -m ... -cnv"): the tool and its flags, each with
#: at most one value, up to the first word that is neither
_PROSE_COMMAND = re.compile(
    r"(?<![\w.-])(?:[\w.~:-]*[/\\])?(?:llama-(?:server|bench|cli|sweep-bench|batched-bench|"
    r"speculative-simple|speculative)|vllm\s+serve(?:\s+[\w./:-]+)?)(?:\.exe)?"
    r"(?:\s+-{1,2}[A-Za-z][\w-]*(?:=[^\s,;()\"'`]+)?(?:\s+(?!-[A-Za-z])[^\s,;()\"'`]+)?)+"
)


#: characters before a number whose words label it (``_Drafter.prose``)
_LABEL_WINDOW = 256


def _sentence(text: str, start: int, bounds: list[int] | None = None) -> str:
    """The sentence of ``text`` around offset ``start`` (``sentence_at``)."""
    return sentence_at(text, start, bounds)[1]


class _Drafter(Tables):
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

    def bench_claim(self, rec: dict) -> None:
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
            cond["model"] = str(model)
            q = re.search(r"\b(I?Q\d\w*)(?:\s*-\s*(Small|Medium|Large|XS|XXS|S|M|L))?", str(model))
            if q:
                size = {"Small": "S", "Medium": "M", "Large": "L"}.get(q.group(2) or "", q.group(2) or "")
                cond["quant"] = q.group(1) + (f"_{size}" if size else "")
        for key, path in (
            ("n_gpu_layers", "offload.n_gpu_layers"),
            ("n_cpu_moe", "offload.n_cpu_moe"),
            ("n_batch", "batch"),
            ("n_ubatch", "ubatch"),
            ("type_k", "type_k"),
            ("type_v", "type_v"),
            ("backends", "backend"),
        ):
            v = lb.get(key)
            if v is not None and not (isinstance(v, str) and "," in v):
                set_path(cond, path, v)
        fa = flash_attn_word(lb.get("flash_attn")) if lb.get("flash_attn") is not None else None
        if fa in ("on", "off"):
            cond["flash_attn"] = fa == "on"
        if depth:
            cond["depth"] = depth
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
        self.add_claim({**fields, **source_fields(line, text)}, f"{metric.split('_')[0]}-{test}-l{line}")
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

    # --- prose ------------------------------------------------------------------------------------
    def prose(self, pieces: list[tuple[int, str]], read: list[str] | None = None) -> None:
        """The numbers and relations of one paragraph (``pieces``: its lines), read as one text so a
        sentence may run over lines; each number keeps the line it is on.  ``read``: the lines as
        numbers are read from them (inline command lines blanked out), quotes keep ``pieces``."""
        text, scanned, starts = "", "", []
        for k, (ln, t) in enumerate(pieces):
            starts.append((len(text), ln))
            lead = len(t) - len(t.lstrip())
            text += t.strip() + " "
            scanned += (read[k] if read is not None else t)[lead : lead + len(t.strip())] + " "
        found = pair_units(scanned, _shared_units(scanned, _from_to_units(scanned, numbers(scanned))))

        def line_of(i: int) -> int:
            return next(ln for at, ln in reversed(starts) if at <= i)

        rels = {(r.number.start, r.number.end): r for r in relations(scanned, found)}
        spans = self.label_spans(scanned)  # once per paragraph: per number it was quadratic
        bounds = sentence_bounds(text)
        named = mentions(text)
        clauses = clause_bounds(text)
        k_named = 0  # the mentions before the current number, taken into self.named
        placed: list[tuple[Number, str]] = []
        origins: dict[int, str | None] = {}
        prev_end = 0
        for n in found:
            # the words since the last number with a unit, within a window: splitting all of them
            # per number was quadratic in a paragraph of unit-less numbers ("1,1,1,…")
            label = scanned[max(prev_end, n.start - _LABEL_WINDOW) : n.start]
            label = re.split(r"[.;,!?]\s", label)[-1]
            if n.unit is not None:
                prev_end = n.end
            line = line_of(n.start)
            s0, sentence = sentence_at(text, n.start, bounds)
            while k_named < len(named) and named[k_named].start < n.start:
                if named[k_named].path not in CLAUSE_ONLY:
                    self.named[named[k_named].path] = named[k_named].value
                k_named += 1
            if (n.start, n.end) in rels:
                continue
            if repetitions(scanned, n):  # "ran it 3 times": a count of runs, no multiple
                self.out.unplaced.append((line, n.text, sentence[:300]))
                continue
            if n.unit is None and any(a <= n.start < b for a, b in spans):
                continue  # "block size 4", "-ncmoe 26": a condition of the numbers near it
            if not stateable(n):
                self.out.unplaced.append((line, n.text, sentence[:300]))
                continue
            fraction = n.unit is None and n.of is None and _acceptance_fraction(scanned, n)
            if n.unit is None and not fraction:
                if n.of is not None:
                    placed.append((n, self.count_claim(n, text, line, sentence)))
                else:
                    self.out.unplaced.append((line, n.text, sentence[:300]))
                continue
            before = scanned[max(0, n.start - 60) : n.start]
            if n.unit_written in CAPITALS_ONLY:  # "296.96 PP": the unit names the test
                before += f" {n.unit_written}"
            elif n.unit_written and re.search(r"/\s*tok|per tok", n.unit_written, re.I):
                before += " per token"  # "45 ms/token": a time per token, whatever the words before
            if fraction:  # "acceptance 0.73 aggregate", "0.79 aggregate acceptance"
                n = replace(n, unit="ratio")
                metric: str | None = "acceptance_rate"
            else:
                metric = metric_of(n.unit, before, scanned[n.end : n.end + 30])
            if (
                metric is None
                or family(n.unit) == "size"
                and (machine_size(text, n.start, n.end, named) or _spec_size(scanned, n.end, self.in_heading))
            ):
                self.out.unplaced.append((line, n.text, sentence[:300]))  # "RTX 5090 32GB": the card's
                continue
            relation = bound_of(scanned, n)
            if relation is not None:  # "40+ tok/s", "<9%", "at least 12 GB": a bound, no value claimed
                cond = merged(
                    merged(self.context(), _in_clause(named, clauses, n.start, text)),
                    self.named_conditions(n.start, s0, sentence, clauses),
                )
                self.bound_statement(n, relation, metric, cond, line, sentence)
                continue
            if self.mean_statement(n, metric, scanned, line, sentence, {cid for _, cid in placed}):
                continue  # "This gives a 89.76 tok/s average." of the rates listed before it
            fields = number_fields(n)
            value = fields.get("value") or "–".join(fields.get("range") or ())
            same = self.by_value.get((str(value), n.unit), [])
            if len(same) == 1 and not n.of and not self.same_sentence(same[0], line, sentence):
                placed.append((n, same[0]))  # the post repeats a number it stated: cite that claim
                self.maybe_log(same[0], metric)
                continue
            cfields = {"metric": metric, **fields}
            if s0 not in origins:  # once per sentence: per number it was quadratic in a long sentence
                origins[s0] = origin_of(sentence)
            origin = origins[s0]
            if origin:
                cfields["origin"] = origin
            cond = merged(
                merged(self.context(), _in_clause(named, clauses, n.start, text)),
                self.named_conditions(n.start, s0, sentence, clauses),
            )
            if cond:
                cfields["conditions"] = cond
            cfields.update(source_fields(line, sentence))
            cid = self.add_claim(cfields, f"{metric.replace('_', '-')}-l{line}", label=label)
            self.maybe_log(cid, metric)
            placed.append((n, cid))
        for m in named[k_named:]:
            if m.path not in CLAUSE_ONLY:
                self.named[m.path] = m.value
        for rel in rels.values():
            self.relation(rel, text, line_of(rel.start), placed, bounds)
        self.tokens_over_time(placed, text, line_of)

    def same_sentence(self, cid: str, line: int, sentence: str) -> bool:
        """Whether claim ``cid`` was drafted from ``sentence`` on ``line``: a value a sentence states
        twice ("83.6 / 65.4 / 76.9, overall 76.9 tok/s": a prompt's rate and the overall one) is
        two claims, where a later sentence repeating it cites the first."""
        c = self.claims.get(cid)  # an index: ``Drafted.claim`` scans every entry
        return c is not None and c.fields.get("source_line") == line and c.fields.get("quote") == sentence

    def inline_commands(self, line: int, text: str) -> str:
        """``text`` with each command line written inline (`` `llama-server -m x.gguf -ngl 99` ``)
        taken as the command for what follows and blanked out (same length: offsets stay)."""

        def take_bare(m: re.Match) -> str:
            found = command_lines([(line, m.group(0).strip())])
            if not found:
                return m.group(0)
            self.command, self.command_tool = found[-1].conditions, found[-1].tool
            return " " * len(m.group(0))

        def take(m: re.Match) -> str:
            found = command_lines([(line, m.group(1))])
            if not found:
                return m.group(0)
            self.command, self.command_tool = found[-1].conditions, found[-1].tool
            return " " * len(m.group(0))

        text = re.sub(r"`([^`]+)`", take, text)
        return _PROSE_COMMAND.sub(take_bare, text) if "-" in text else text

    def label_spans(self, text: str) -> list[tuple[int, int]]:
        """Where ``text`` names a condition with a number (``NAMED_CONDITION``)."""
        return [(m.start("n"), m.end("n")) for m in NAMED_CONDITION.finditer(text)]

    def count_claim(self, n: Number, text: str, line: int, sentence: str) -> str:
        window = text[max(0, n.start - 60) : n.end + 40].lower()
        accepted = re.search(r"accept|수락", window)
        counts = (
            {"accepted": int(float(n.text)), "drafted": int(float(n.of or 1))}
            if accepted
            else {"successes": int(float(n.text)), "trials": int(float(n.of or 1))}
        )
        fields = {
            "metric": "acceptance_rate" if accepted else "proportion",
            "statement": text[n.start : n.end],
            "counts": counts,
        }
        cond = self.conditions()
        if cond:
            fields["conditions"] = cond
        fields.update(source_fields(line, sentence))
        return self.add_claim(fields, f"count-l{line}")

    def maybe_log(self, cid: str, metric: str) -> None:
        """Name the log excerpt right before this paragraph on the first claim of each metric the
        excerpt states (``log_metrics``)."""
        entry = self.claims.get(cid)
        if entry is None or not self.pending_log or metric not in self.log_metrics:
            return
        self.log_metrics.discard(metric)
        entry.fields.setdefault("log", self.pending_log)

    def rate_lines(self, lines: list[tuple[int, str]], skip: set[int]) -> None:
        """Lines of program output stating "N tokens in T s ... R t/s" (``RATE_LINE``:
        llama-speculative's "decoded 202 tokens in 2.533 seconds, speed: 79.745 t/s") drafted as
        prose, each line alone: the tokens, the time and the rate, and the rate as their ratio."""
        for n, t in lines:
            if n not in skip and RATE_LINE.search(t):
                self.prose([(n, t)])

    def tokens_over_time(self, placed: list[tuple[Number, str]], text: str, line_of) -> None:
        """ "N tokens in T s (R t/s)": the rate R is stated as N ÷ T, a ratio statement of the two
        claims (tokens, then the time), in R's unit."""
        for k in range(len(placed) - 2):
            (nt, ct), (ns, cs), (nr, cr) = placed[k : k + 3]
            if (nt.unit, family(ns.unit), family(nr.unit)) != ("tokens", "time", "rate"):
                continue
            if not re.fullmatch(r"\s+in\s+", text[nt.end : ns.start]) or nr.start - ns.end > 40:
                continue
            if nr.range is not None or ns.unit != "s":
                continue  # a time in ms does not divide to the rate's unit: left to the reader
            line = line_of(nr.start)
            sid = self.new_id(f"s-l{line}")
            fields = {
                "kind": "ratio",
                "statement": text[nt.start : nr.end],
                "of": [ct, cs],
                "value": Num(nr.text),
                "unit": nr.unit,
                **source_fields(line, _sentence(text, nr.start)),
            }
            self.out.entries.append(Entry("statement", sid, {"id": sid, **fields}))

    def result_claim(self, r: Result, log: str | None) -> str:
        """A claim of a tool's result line (``resultlines.results``), under the command before it;
        ``log``: the raw log the line is kept in.  A value of 15 or more significant digits (a
        script printing a float whole, ``0.04074668884277344s``, ``69.78935823702163 token/s``: no
        one rounds to that) is written with ``decimals: null``, an exact number, every digit copied
        (the schema counts at most 15 decimals)."""
        fields: dict = {"metric": r.metric, "value": Num(r.value), "unit": r.unit}
        if len(r.value.replace(".", "").lstrip("0")) >= 15:
            fields["decimals"] = None
        if r.spread is not None:
            fields["spread"] = Num(r.spread)
        if r.method:
            fields["method"] = r.method
        if r.counts:
            fields["counts"] = r.counts
        cond = merged(self.conditions(), r.conditions)
        if cond:
            fields["conditions"] = cond
        if log:
            fields["log"] = log
        fields.update(source_fields(r.line, self.post.line(r.line)))
        return self.add_claim(fields, f"{r.metric.replace('_', '-')}-l{r.line}")

    def result_details(self, stated: list[Result], log: str | None) -> None:
        """What a result line on an "N tokens in T s (R t/s)" line tells beyond the prose reader's
        claim of its rate (drafted by ``prose``/``rate_lines``, once): the tool (``method``), the
        conditions (``tokens_generated``) and the ``log`` it is kept in, added to that claim."""
        for r in stated:
            for e in reversed(self.out.entries):
                f = e.fields
                if e.kind == "claim" and f.get("source_line") == r.line and f.get("metric") == r.metric:
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

    # --- the walk -------------------------------------------------------------------------------
    def run(self) -> Drafted:
        covered, bench = self.bench_lines()
        for block in self.post.blocks:
            lines = [ln for ln, _ in block.lines]
            if lines and set(lines) & covered:
                for ln in lines:
                    for rec in bench.get(ln, []):
                        self.bench_claim(rec)
                rest = [(ln, t) for ln, t in block.lines if ln not in covered]
                if block.kind != "code" or not rest:
                    continue
                block = Block("code", rest, info=block.info)
            if block.kind == "text" and block.heading:
                self.out.title = self.out.title or " ".join(t for _, t in block.lines).strip()
                self.command, self.command_tool = {}, None
                # a heading naming the machine, build or model sets them for its section ("M2 Mac
                # Mini, 16GB RAM, llama.cpp b4980") over the title's (the whole post's); what an
                # earlier section named does not carry
                heading = " ".join(t for _, t in block.lines)
                here = {m.path: m.value for m in mentions(heading) if m.path not in CLAUSE_ONLY}
                level_one = re.match(r"#\s", self.post.line(block.lines[0][0]).lstrip()) is not None
                self.lead_in = ""
                if self.title_named is None and level_one:  # the title's names hold for the whole post
                    self.title_named = here
                self.named = {**(self.title_named or {}), **here}
                self.pending_log = None
                rate = _rate_unit(heading)
                self.heading_rate = rate or (self.heading_rate if not level_one else None)
                self.para_rate = None
                self.open_table = None
                # a title's or heading's numbers are stated too ("C1 ~50 tok/s on a 3090")
                self.in_heading = True
                self.prose(list(block.lines), [self.inline_commands(n, t) for n, t in block.lines])
                self.in_heading = False
                continue
            if block.kind == "table":
                had_command = bool(self.command)
                before = len(self.out.groups)
                self.table(block)
                self.pending_log = None
                self.para_rate = None
                gids = [g.id for g in self.out.groups[before:]]
                self.open_table = gids if gids and not had_command else None
                continue
            commands = command_lines(block.lines)
            in_command = {n for c in commands for n in range(c.line, c.last + 1)}
            for c in commands:
                self.command = c.conditions
                self.command_tool = c.tool
            if commands and self.open_table:
                self.command_after_table(commands[0].conditions)
            label_only = len(block.lines) == 1 and block.lines[0][1].strip().endswith(":")
            if not label_only:
                self.open_table = None  # prose between: a later command is not the table's
            pieces = [(n, t) for n, t in block.lines if n not in in_command]
            # a result on an "N tokens in T s (R t/s)" line is drafted by the prose reader (its
            # tokens, time and rate, and the rate as their ratio: ``tokens_over_time``), not twice
            text_of = dict(pieces)
            stated: list[Result] = []
            on_rate_lines: list[Result] = []
            found = results(pieces)
            taken = {r.line for r in found}
            found += tool_results([(n, t) for n, t in pieces if n not in taken], block.kind == "code")
            for r in sorted(found, key=lambda r: (r.line, r.start)):
                (on_rate_lines if RATE_LINE.search(text_of[r.line]) else stated).append(r)
            if block.kind == "code":
                logged = any(_LOG.search(t) for _, t in pieces)
                if logged:
                    self.log(pieces)
                timed = [r for r in stated if logged and TIMING_LINE.search(text_of[r.line])]
                if timed and self.pending_log:
                    self.timing_logs.append((len(self.out.entries), timed, self.pending_log))
                for r in stated:
                    if not (timed and r in timed):
                        self.result_claim(r, self.pending_log if logged else None)
                self.rate_lines(block.lines, in_command)
                self.result_details(on_rate_lines, self.pending_log if logged else None)
                if not logged:
                    self.code_unplaced(pieces, found)
                continue  # code that is neither output, a command nor a log: not prose
            read = [self.inline_commands(n, t) for n, t in pieces]
            for r in stated:  # a result line in prose: drafted once, blanked out of the prose read
                self.result_claim(r, None)
                k = next(k for k, (n, _) in enumerate(pieces) if n == r.line)
                read[k] = read[k][: r.start] + " " * (r.end - r.start) + read[k][r.end :]
            self.prose(pieces, read)
            joined = " ".join(t.strip() for _, t in pieces)
            if joined.endswith(":"):
                self.lead_in = joined
            elif not re.match(r"\s*(?:[-*+•]|\d+[.)])\s", self.post.line(pieces[0][0]) if pieces else ""):
                self.lead_in = ""  # the items of a list keep the line that introduces them
            self.para_rate = _rate_unit(" ".join(read))
            self.result_details(on_rate_lines, None)
            self.pending_log = None
            if pieces and all(_log_line(t) for _, t in pieces):
                self.log(pieces)  # log lines pasted as a paragraph: drafted, and kept as a log
        self.uncited_timings()
        self.rates_of_lines()
        self.no_self_relations()
        fill(self.post, self.out.entries, self.out.groups)  # what the post states around each claim
        return self.out

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

    def code_unplaced(self, pieces: list[tuple[int, str]], found: list[Result]) -> None:
        """The numbers with a unit of a code block that is no log (``pieces``: its lines outside
        command lines) that neither a result line (``found``) nor a claim on their line states:
        listed under ``unplaced``, never dropped (issue 29: "numbers it cannot place are listed")."""
        spans: dict[int, list[tuple[int, int]]] = {}
        for r in found:
            spans.setdefault(r.line, []).append((r.start, r.end))
        claimed: dict[int, set[str]] = {}
        for e in self.out.entries:
            if e.kind == "claim" and e.fields.get("source_line") is not None:
                claimed.setdefault(e.fields["source_line"], set()).add(str(e.fields.get("value")))
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
        itself.  The claims go where the log is in the post."""
        cited = {e.fields.get("log") for e in self.out.entries if e.kind == "claim"}
        for at, timed, log in reversed(self.timing_logs):
            if log in cited:
                continue
            before = len(self.out.entries)
            for r in timed:
                self.result_claim(r, log)
            added = self.out.entries[before:]
            del self.out.entries[before:]
            self.out.entries[at:at] = added


def _from_to_units(text: str, found: list[Number]) -> list[Number]:
    """``found`` with the unit of "from A unit" given to a "to B" that states none ("from 38 t/s
    (without draft) to 33.93 (with draft)"): the second number of a change is in the first's unit
    (within 120 characters, no sentence end between)."""
    out = list(found)
    for i, n in enumerate(out):
        if n.unit is not None or n.of is not None or n.range is not None:
            continue
        if not re.search(r"(?:^|\W)(?:to|→|->)\s*$", text[max(0, n.start - 6) : n.start]):
            continue
        for m in reversed(out[max(0, i - 3) : i]):
            if (
                m.unit is not None
                and n.start - m.end <= 120
                and re.search(r"(?:^|\W)from\s*$", text[max(0, m.start - 8) : m.start])
                and not re.search(r"[.!?](?:\s|$)", text[m.end : n.start])
            ):
                out[i] = replace(n, unit=m.unit, end=n.end)
                break
    return out


#: what joins the numbers of a list that states its unit once: "83.6 / 65.4 / 76.9", "31.9 → 52.8"
_LIST_SEP = re.compile(r"\s*(?:/|→|->)\s*")


#: what may stand between a unitless list and the number whose unit it takes: no digit, no sentence end
_LIST_GAP = re.compile(r",\s*(?:[^\W\d]+\s+){0,3}")


def _shared_units(text: str, found: list[Number]) -> list[Number]:
    """``found`` with a unit given once for several numbers given to each: a list joined by " / " or
    "→" whose last number states the unit ("wall/decode: 101.39 / 102.33 tok/s", "31.9 → 52.8
    tok/s", "23,185 / 22,878 MiB"), or a list of two or more unitless numbers followed by a comma and
    at most three words, then a number with a unit ("40.9 / 41.1 / 40.8, overall median 41.0
    tok/s").  Counts ("438/438"), ranges and numbers glued to names are not lists."""
    out = list(found)
    i = 0
    while i < len(out):
        j = i
        while (
            j + 1 < len(out)
            and out[j].unit is None
            and out[j].of is None
            and out[j].range is None
            and out[j + 1].of is None
            and out[j + 1].range is None
            and _LIST_SEP.fullmatch(text[out[j].end : out[j + 1].start])
        ):
            j += 1
        if j == i:
            i += 1
            continue
        unit = out[j].unit
        if unit is None and j + 1 < len(out) and out[j + 1].unit is not None and out[j + 1].of is None:
            gap = text[out[j].end : out[j + 1].start]
            if _LIST_GAP.fullmatch(gap) and len(gap) <= 30:
                unit = out[j + 1].unit
        if unit is not None and unit not in ("%", "x"):
            for k in range(i, j + 1):
                if out[k].unit is None:
                    out[k] = replace(out[k], unit=unit)
        i = j + 1
    return out


#: an acceptance word right before a fraction: "acceptance 0.73", "Acceptance aggregate 0.69",
#: "accept rate: 0.64"
_ACCEPT_BEFORE = re.compile(
    r"accept\w*(?:[\s:=\"]+(?:rate|ratio|aggregate|avg|average|mean|median|overall|was|is|of))*[\s:=\"]*$",
    re.IGNORECASE,
)


#: ... or right after it, or after a list of labelled fractions: "0.79 aggregate acceptance",
#: "(code 0.87, bash 0.74, prose 0.40 acceptance)"
_ACCEPT_AFTER = re.compile(
    r"(?:,\s*[^\W\d]+\s+\d?\.\d+)*\s+(?:(?:aggregate|average|mean|overall|draft)\s+)?accept", re.IGNORECASE
)


def _acceptance_fraction(text: str, n: Number) -> bool:
    """Whether ``n``, a number written with no unit, is an acceptance rate as a fraction: a decimal
    in [0, 1] (``0.73``, not ``1``) beside an acceptance word (``_ACCEPT_BEFORE``, ``_ACCEPT_AFTER``)."""
    if "." not in n.text or n.spread is not None:
        return False
    try:
        lows = [float(x) for x in (n.range or (n.text,))]
    except ValueError:
        return False
    if not all(0 <= v <= 1 for v in lows):
        return False
    return bool(_ACCEPT_BEFORE.search(text[max(0, n.start - 40) : n.start])) or bool(
        _ACCEPT_AFTER.match(text, n.end)
    )


def _rate_unit(text: str) -> str | None:
    """The rate unit the last rate of ``text`` states (``tok/s``, ``t/s``), None if it states none."""
    rates = [n.unit for n in numbers(text) if family(n.unit) == "rate"]
    return rates[-1] if rates else None


def _in_clause(named: list[Mention], clauses: list[int], at: int, text: str) -> dict:
    """The conditions named in the clause around offset ``at`` (``draftnames.clause_bounds``): of
    several for one condition, the nearest (before it on a tie)."""
    k = bisect.bisect_right(clauses, at) - 1
    lo, hi = clauses[max(k, 0)], clauses[min(k + 1, len(clauses) - 1)]
    best: dict[str, tuple[int, object]] = {}
    for m in named:
        if m.start > at and re.search(r",|\sand\s|\s&\s", text[at : m.start]):
            continue  # named after the number past "and": the next number's ("2.4 t/s and Qwen3 6.1 t/s")
        if lo <= m.start < hi:
            d = abs(at - m.start) + (m.start > at)
            if m.path not in best or d < best[m.path][0]:
                best[m.path] = (d, m.value)
    out: dict = {}
    for path, (_, value) in best.items():
        set_path(out, path, value)
    return out


def _log_line(text: str) -> bool:
    """Whether a line of prose is a log line: a log's words (``_LOG``) followed by ``=`` or ``:``
    and a number ("Aggregate draft acceptance: 0.648", "eval time = 500.00 ms"); prose that
    mentions them ("after partial draft acceptance", "`accept()`") is not."""
    m = _LOG.search(text)
    return bool(m and re.search(r"[=:]\s*[-+]?\d", text[m.start() :]))


def origin_of(sentence: str) -> str | None:
    """Who published a number the sentence quotes (``origin``), when it names someone else: "the
    fork's author reports", "the vendor's blog gives", "in my earlier posts", "according to the
    paper" (``_ORIGIN``); None for the post's own numbers."""
    m = _ORIGIN.search(sentence)
    return re.sub(r"^(?:in|according to)\s+", "", m.group(0).strip(), flags=re.IGNORECASE) if m else None


#: what follows a size that is a machine's memory, not a measurement: its kind ("64GB DDR5", "32 GB
#: LPDDR5X", "24GB GDDR6X", "80GB HBM3")
_MEMORY_KIND = re.compile(r"\s*(?:of\s+)?(?:LP|G)?DDR\d|\s*(?:of\s+)?HBM\d?e?\b", re.IGNORECASE)


#: what follows a size in a title or heading that makes it the machine's ("16GB VRAM")
_MEMORY_WORD = re.compile(r"\s*(?:of\s+)?(?:VRAM|RAM|memory|unified)\b", re.IGNORECASE)


def _spec_size(text: str, end: int, heading: bool) -> bool:
    """Whether the size ending at ``text[end]`` is a hardware spec (SOURCES.md: specs are the
    ``systems``, not claims): followed by a memory kind (``_MEMORY_KIND``: "64GB DDR5"; "32GB of
    RAM" may be a measured size: "used 32GB of RAM"), or, in a title or heading, by a memory word
    ("16GB VRAM")."""
    return bool(_MEMORY_KIND.match(text, end) or heading and _MEMORY_WORD.match(text, end))


def _as_written(value, text: str) -> str:
    """``value`` with the digits ``text`` shows it with (the first number in ``text`` equal to it),
    else as Python prints it."""
    if value is None:
        return "0"
    for m in re.finditer(r"\d+(?:\.\d+)?", text):
        if abs(float(m.group(0)) - float(value)) < 1e-9:
            return m.group(0)
    return repr(float(value)) if isinstance(value, float) else str(value)


def draft_text(text: str, name: str = "post.md") -> Drafted:
    """The ``Drafted`` entries of a post's ``text`` (module doc); ``name`` is the post's file name
    (for llama-bench records and messages).  Never raises on any text: what cannot be read is a
    note or an unplaced number."""
    post = read_post(text)
    return _Drafter(post, name).run()
