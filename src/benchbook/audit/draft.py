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
* relating phrases (``draftprose.relations``): a statement citing the two claims when both sides are
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
from dataclasses import dataclass, field
from pathlib import Path

from ..ingest.common import IngestError
from ..ingest.read import read_llama_bench
from ..ingest.scan import scan
from ..ingest.settings import flash_attn_word
from .draftcommand import command_lines
from .draftprose import Number, family, metric_of, numbers, relations
from .post import Block, Post, read_post
from .resultlines import Result, results


class Num(str):
    """A number as written in the post (``"42.70"``): written to YAML as is, so the loader counts
    the digits it was stated with."""


#: a log line a draft keeps as a raw log: llama-server/llama-cli timing and acceptance lines,
#: llama-speculative-simple's counts
_LOG = re.compile(
    r"prompt eval time\s*=|\beval time\s*=|total time\s*=|draft acceptance|n_drafted\s*=|n_accept\s*=|"
    r"print_timing|llama_perf_context_print|common_perf_print|statistics \w+:",
    re.IGNORECASE,
)
#: table headers (lower case, dashes and punctuation dropped) -> the condition they set, and its type
LABELS: dict[str, tuple[str, str]] = {
    **dict.fromkeys(("ncmoe", "ncpumoe", "cpumoe", "moe layers on cpu"), ("offload.n_cpu_moe", "int")),
    **dict.fromkeys(("ngl", "ngpulayers", "gpu layers", "gpulayers"), ("offload.n_gpu_layers", "int")),
    **dict.fromkeys(("c", "ctx", "nctx", "context", "context length", "ctxsize"), ("ctx", "int")),
    **dict.fromkeys(
        ("block", "block size", "blockmax", "block max", "draft max", "draftmax"), ("block_max", "int")
    ),
    **dict.fromkeys(("prompt", "task", "workload"), ("prompt", "str")),
    **dict.fromkeys(("model",), ("model", "str")),
    **dict.fromkeys(("quant", "quantization", "quantisation", "quant type"), ("quant", "str")),
    **dict.fromkeys(
        (
            "tokens",
            "generated",
            "tokens generated",
            "generated tokens",
            "ngen",
            "gen tokens",
            "output tokens",
        ),
        ("tokens_generated", "int"),
    ),
    **dict.fromkeys(("depth", "d", "ndepth"), ("depth", "int")),
    **dict.fromkeys(("batch", "b", "nbatch", "batch size"), ("batch", "int")),
    **dict.fromkeys(("ubatch", "ub", "nubatch"), ("ubatch", "int")),
    **dict.fromkeys(("fa", "flash attn", "flash attention", "flashattn"), ("flash_attn", "fa")),
    **dict.fromkeys(("ctk", "typek", "type k", "k cache"), ("type_k", "str")),
    **dict.fromkeys(("ctv", "typev", "type v", "v cache"), ("type_v", "str")),
    **dict.fromkeys(("backend",), ("backend", "str")),
    **dict.fromkeys(
        ("concurrency", "parallel", "np", "users", "concurrent requests"), ("concurrency", "int")
    ),
    **dict.fromkeys(("mode", "decoding"), ("decoding", "str")),
    **dict.fromkeys(("gpu", "hardware", "device"), ("hardware", "str")),
    **dict.fromkeys(("engine",), ("engine", "str")),
    **dict.fromkeys(("build", "commit", "version"), ("build", "str")),
    **dict.fromkeys(("run", "run index", "trial"), ("run_index", "int")),
}
#: words that name a metric, for finding the claim a phrase names ("plain decoding")
_METRIC_WORDS_OF = {"decode_tps": "decode decoding generation tg", "prefill_tps": "prefill prompt pp"}
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
#: how many of the claims drafted last a relating phrase's other side is looked for among
_REACH = 400
#: how far from a number (characters) a sentence's words are read as its conditions
_NEAR = 60
#: a condition named with its number in prose: "block size 4", "-ncmoe 26", "ctx 8192", "-ngl=99"
_NAMED = re.compile(
    r"(?P<label>block(?: size)?|-{0,2}n?cmoe|n_cpu_moe|-{0,2}n-cpu-moe|-ngl|n_gpu_layers|ctx|context|"
    r"batch(?: size)?|ubatch|depth|draft[ -]max|--draft-max)\s*(?:=|:|of|is)?\s*(?P<n>\d+)"
    r"(?![\d.]|\s*(?:tok|t/s|%|x|×|GB|GiB|MB|ms|s\b))",
    re.IGNORECASE,
)
_PAREN = re.compile(r"[(\[].*")
#: a cell that states nothing
_EMPTY = re.compile(r"^\s*(?:|[-—–?]+|n/?a|none|null|oom|x)\s*$", re.IGNORECASE)
_STOP = frozenset(
    "the a an of on in at to and or is was are with for by from than as this that my its it our "
    "their same pc time times about roughly".split()
)


@dataclass
class Entry:
    """A drafted claim (``kind`` claim), statement (statement) or todo statement (todo): its ``id``
    and its fields in the order a claims file writes them; ``group``: the table group of a claim
    from a table (``Group``)."""

    kind: str
    id: str
    fields: dict
    group: str | None = None


@dataclass
class Group:
    """A table's value column as a ``groups:`` entry: the fields its claims share."""

    id: str
    fields: dict
    line: int


@dataclass
class Drafted:
    """What a post gave: ``entries`` (claims, statements, todo statements in post order),
    ``groups``, ``logs`` (file name -> raw text), ``unplaced`` ``(line, number, text)``, ``title``
    and ``notes`` (what could not be read, e.g. a llama-bench table that failed to parse)."""

    entries: list[Entry] = field(default_factory=list)
    groups: list[Group] = field(default_factory=list)
    logs: dict[str, str] = field(default_factory=dict)
    unplaced: list[tuple[int, str, str]] = field(default_factory=list)
    title: str | None = None
    notes: list[str] = field(default_factory=list)

    def claim(self, cid: str) -> Entry | None:
        return next((e for e in self.entries if e.kind == "claim" and e.id == cid), None)


def _slug(text: str, limit: int = 24) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s[:limit].strip("-") or "x"


def _label_key(header: str) -> str:
    h = re.sub(r"\(.*?\)", "", header.lower())
    h = re.sub(r"[`*_\-–—:]+", "", h.replace("_", "")).strip()
    return re.sub(r"\s+", " ", h)


def _sentence_bounds(text: str) -> list[int]:
    """Where the sentences of ``text`` start, and ``len(text) + 1``: ``_sentence``'s ``bounds``."""
    return [0] + [m.end() for m in re.finditer(r"(?<=[.!?。！？])\s+", text)] + [len(text) + 1]


def _sentence(text: str, start: int, bounds: list[int] | None = None) -> str:
    """The sentence of ``text`` around offset ``start`` (``bounds``: ``_sentence_bounds(text)``,
    computed once for many numbers of one text)."""
    bounds = bounds if bounds is not None else _sentence_bounds(text)
    k = bisect.bisect_right(bounds, start) - 1
    if 0 <= k < len(bounds) - 1:
        return text[bounds[k] : bounds[k + 1]].strip()
    return text.strip()


def _set(d: dict, path: str, value) -> None:
    node = d
    parts = path.split(".")
    for p in parts[:-1]:
        node = node.setdefault(p, {})
    node[parts[-1]] = value


def _merged(base: dict, over: dict) -> dict:
    out = {k: (dict(v) if isinstance(v, dict) else v) for k, v in base.items()}
    for k, v in over.items():
        out[k] = _merged(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[\w.]+", text.lower()) if len(w) > 1 and w not in _STOP}


class _Drafter:
    def __init__(self, post: Post, name: str):
        self.post = post
        self.name = name
        self.out = Drafted()
        self.ids: set[str] = set()
        self.command: dict = {}
        self.command_tool: str | None = None
        self.by_value: dict[tuple[str, str | None], list[str]] = {}
        self.pending_log: str | None = None
        self.log_metrics: set[str] = set()
        self.claims: dict[str, Entry] = {}
        self.claim_ids: list[str] = []
        self.groups: dict[str, Group] = {}
        self.profile: dict[str, tuple[str | None, set[str]]] = {}
        self.vocab: dict[str, tuple[str, object]] = {}

    def new_id(self, base: str) -> str:
        base = base.strip("-") or "c"
        cid, k = base, 2
        while cid in self.ids:
            cid, k = f"{base}-{k}", k + 1
        self.ids.add(cid)
        return cid

    # --- claims ---------------------------------------------------------------------------------
    def add_claim(self, fields: dict, base: str, group: str | None = None, label: str = "") -> str:
        cid = self.new_id(base)
        entry = Entry("claim", cid, {"id": cid, **fields}, group)
        self.out.entries.append(entry)
        self.claims[cid] = entry
        self.claim_ids.append(cid)
        shared = self.groups[group].fields if group is not None else {}
        value = fields.get("value") or "–".join(fields.get("range") or ())
        unit = fields.get("unit") or shared.get("unit")
        self.by_value.setdefault((str(value), unit), []).append(cid)
        named = _METRIC_WORDS_OF.get(str(fields.get("metric") or shared.get("metric") or ""), "")
        self.profile[cid] = (unit, _words(f"{label} {_flat(fields.get('conditions', {}))} {named}"))
        return cid

    def conditions(self) -> dict:
        return _merged({}, self.command)

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
                _set(cond, path, v)
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
        self.add_claim({**fields, **_where(line, text)}, f"{metric.split('_')[0]}-{test}-l{line}")

    # --- tables -----------------------------------------------------------------------------------
    def table(self, block: Block) -> None:
        if len(block.rows) < 2:
            return
        shape = _transposed(block.rows)
        if shape is not None:
            block = block.transposed(header_is_data=shape == "keyvalue")
        rows = block.rows
        header, body = rows[0], rows[1:]
        width = len(header)
        kinds: list[str] = []
        for j, h in enumerate(header):
            key = _label_key(h)
            cells = [r[j] for r in body if j < len(r) and not _EMPTY.match(r[j])]
            with_unit = [n for c in cells for n in numbers(c)[:1] if n.unit]
            head_unit = _header_unit(h) or _ratio_column(h, cells)
            if key in LABELS or j == 0 and not head_unit and not with_unit:
                kinds.append("label")
            elif head_unit or with_unit or _metric_header(h):
                kinds.append("value")
            else:
                kinds.append("label")
        tno = sum(1 for g in self.out.groups if g.id.startswith("t")) + 1
        groups: dict[int, str] = {}
        for j, h in enumerate(header):
            if kinds[j] != "value":
                continue
            unit = (
                _header_unit(h)
                or _ratio_column(h, [r[j] for r in body if j < len(r)])
                or next((n.unit for r in body if j < len(r) for n in numbers(r[j])[:1] if n.unit), None)
            )
            if unit is None and _metric_header(h):
                unit = "t/s"
            metric = "acceptance_rate" if unit == "ratio" else metric_of(unit, h) if unit else None
            if metric is None:
                continue
            test = re.search(r"\b(pp|tg)\s?(\d+)\b", h, re.IGNORECASE)
            method = None
            if test:
                method = f"{test.group(1).lower()}{test.group(2)}"
                if self.command_tool == "llama-bench":
                    method = f"llama-bench {method}"
            gid = self.new_id(f"t{tno}-{_slug(_PAREN.sub('', h) or h, 12)}")
            gfields: dict = {"metric": metric, "unit": unit}
            if method:
                gfields["method"] = method
            if self.command:
                gfields["conditions"] = self.conditions()
            self.out.groups.append(Group(gid, gfields, block.start))
            self.groups[gid] = self.out.groups[-1]
            groups[j] = gid
        for r, row in enumerate(body):
            line = block.line_of(r + 1, 0)
            cond: dict = {}
            labels = []
            for j, cell in enumerate(row[:width]):
                if kinds[j] != "label" or _EMPTY.match(cell):
                    continue
                labels.append(cell)
                path, typ = LABELS.get(_label_key(header[j]), ("other." + _key(header[j] or "row"), "str"))
                value: object = cell
                if typ == "int":
                    m = re.fullmatch(r"\s*-?(\d+)\s*", cell.replace(",", ""))
                    if not m:
                        path, value = "other." + _key(header[j]), cell
                    else:
                        value = int(m.group(1))
                elif typ == "fa":
                    word = flash_attn_word(cell)
                    if word not in ("on", "off"):
                        path = "other.flash_attn"
                    else:
                        value = word == "on"
                _set(cond, path, value)
                if isinstance(value, str) and len(value) >= 3 and not re.fullmatch(r"[\d.\s]+", value):
                    self.vocab.setdefault(value.lower(), (path, value))
            for j, gid in groups.items():
                if j >= len(row) or _EMPTY.match(row[j]):
                    continue
                line = block.line_of(r + 1, j)
                found = [n for n in numbers(row[j]) if n.unit or not n.unit_written]
                if found and not stateable(found[0]):
                    self.out.unplaced.append((line, found[0].text, self.post.line(line)[:300]))
                    continue
                if not found:
                    continue
                n = found[0]
                if n.unit and family(n.unit) != family(self.groups[gid].fields.get("unit")):
                    # a cell in another unit ("-23%" under a t/s column): not the column's quantity
                    self.out.unplaced.append((line, n.text, self.post.line(line)[:300]))
                    continue
                fields = _number_fields(n)
                fields.pop("unit", None)
                if cond:
                    fields["conditions"] = cond
                fields.update(_where(line, f"{header[j]}: {row[j]} — {self.post.line(line)}"))
                self.add_claim(fields, f"{gid}-r{r + 1}", gid, " ".join([header[j], *labels]))

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
        found = numbers(scanned)

        def line_of(i: int) -> int:
            return next(ln for at, ln in reversed(starts) if at <= i)

        rels = {id(r.number): r for r in relations(scanned, found)}
        spans = self.label_spans(scanned)  # once per paragraph: per number it was quadratic
        bounds = _sentence_bounds(text)
        placed: list[tuple[Number, str]] = []
        prev_end = 0
        for n in found:
            label = scanned[prev_end : n.start]
            label = re.split(r"[.;,!?]\s", label)[-1]
            if n.unit is not None:
                prev_end = n.end
            line = line_of(n.start)
            sentence = _sentence(text, n.start, bounds)
            if id(n) in rels:
                continue
            if n.unit is None and any(a <= n.start < b for a, b in spans):
                continue  # "block size 4", "-ncmoe 26": a condition of the numbers near it
            if not stateable(n):
                self.out.unplaced.append((line, n.text, sentence[:300]))
                continue
            if n.unit is None:
                if n.of is not None:
                    placed.append((n, self.count_claim(n, text, line, sentence)))
                else:
                    self.out.unplaced.append((line, n.text, sentence[:300]))
                continue
            metric = metric_of(n.unit, scanned[max(0, n.start - 60) : n.start], scanned[n.end : n.end + 30])
            if metric is None:
                self.out.unplaced.append((line, n.text, sentence[:300]))
                continue
            fields = _number_fields(n)
            value = fields.get("value") or "–".join(fields.get("range") or ())
            same = self.by_value.get((str(value), n.unit), [])
            if len(same) == 1 and not n.of:
                placed.append((n, same[0]))  # the post repeats a number it stated: cite that claim
                self.maybe_log(same[0], metric)
                continue
            cfields = {"metric": metric, **fields}
            origin = origin_of(sentence)
            if origin:
                cfields["origin"] = origin
            cond = _merged(self.conditions(), self.named_conditions(text, n.start, sentence))
            if cond:
                cfields["conditions"] = cond
            cfields.update(_where(line, sentence))
            cid = self.add_claim(cfields, f"{metric.replace('_', '-')}-l{line}", label=label)
            self.maybe_log(cid, metric)
            placed.append((n, cid))
        for rel in rels.values():
            self.relation(rel, text, line_of(rel.start), placed)

    def inline_commands(self, line: int, text: str) -> str:
        """``text`` with each command line written inline (`` `llama-server -m x.gguf -ngl 99` ``)
        taken as the command for what follows and blanked out (same length: offsets stay)."""

        def take(m: re.Match) -> str:
            found = command_lines([(line, m.group(1))])
            if not found:
                return m.group(0)
            self.command, self.command_tool = found[-1].conditions, found[-1].tool
            return " " * len(m.group(0))

        return re.sub(r"`([^`]+)`", take, text)

    def label_spans(self, text: str) -> list[tuple[int, int]]:
        """Where ``text`` names a condition with a number (``_NAMED``)."""
        return [(m.start("n"), m.end("n")) for m in _NAMED.finditer(text)]

    def named_conditions(self, text: str, at: int, sentence: str) -> dict:
        """The conditions the sentence around offset ``at`` names: a label with a number ("block
        size 4", "-ncmoe 26": ``_NAMED``) and a label value the post's tables use ("WSL2",
        "draft-self"), within ``_NEAR`` characters of the number; of several for one field, the
        nearest."""
        s0 = text.find(sentence)
        rel = at - s0
        found: dict[str, tuple[int, object]] = {}

        def offer(path: str, pos: int, value: object) -> None:
            score = abs(rel - pos) + (pos > rel)  # the nearest; before it on a tie
            if score <= _NEAR and (path not in found or score < found[path][0]):
                found[path] = (score, value)

        # only the part of the sentence within reach (``_NEAR``, and a margin for a match's length):
        # reading the whole sentence for each of its numbers was quadratic in a long sentence
        w0 = max(0, rel - _NEAR - 256)
        near = sentence[w0 : max(0, rel + _NEAR + 256)]
        for m in _NAMED.finditer(near):
            path, typ = LABELS.get(_label_key(m.group("label")), ("", ""))
            if path and typ == "int":
                offer(path, w0 + m.start(), int(m.group("n")))
        low = near.lower()
        for word, (path, value) in self.vocab.items():
            for m in re.finditer(rf"(?<![\w-]){re.escape(word)}(?![\w-])", low):
                offer(path, w0 + m.start(), value)
        out: dict = {}
        for path, (_, value) in found.items():
            _set(out, path, value)
        return out

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
        fields.update(_where(line, sentence))
        return self.add_claim(fields, f"count-l{line}")

    def maybe_log(self, cid: str, metric: str) -> None:
        """Name the log excerpt right before this paragraph on the first claim of each metric the
        excerpt states (``log_metrics``)."""
        entry = self.claims.get(cid)
        if entry is None or not self.pending_log or metric not in self.log_metrics:
            return
        self.log_metrics.discard(metric)
        entry.fields.setdefault("log", self.pending_log)

    # --- relations ----------------------------------------------------------------------------
    def relation(self, rel, text: str, line: int, placed: list[tuple[Number, str]]) -> None:
        n = rel.number
        sentence = _sentence(text, n.start)
        if not stateable(n) or (n.range is not None and rel.sign < 0):
            self.out.unplaced.append((line, n.text, sentence[:300]))
            return
        s0 = text.find(sentence)
        in_sentence = [
            (m, cid)
            for m, cid in placed
            if s0 <= m.start < s0 + len(sentence) and family(m.unit) not in ("ratio", "multiple", None)
        ]
        fams = {family(m.unit) for m, _ in in_sentence}
        sides: list[str] | None = None
        ordered_by_value = False
        if len(in_sentence) == 2 and len(fams) == 1:
            (na, a), (nb, b) = in_sentence
            worded = re.search(r"\b(?:from|than)\b", sentence, re.IGNORECASE)
            later_first = re.search(r"\bfrom\b", sentence, re.IGNORECASE) is not None
            if not worded:
                # no "than"/"from" (another language's word order, a list): the sides in the order
                # the stated value needs (a gain: the larger over the smaller), said in a note
                ordered_by_value = True
                larger_wanted = rel.sign > 0 and (rel.kind == "percent_change" or _multiple(n) >= 1)
                big_first = _mid(na) >= _mid(nb)
                sides = [a, b] if big_first == larger_wanted else [b, a]
                if rel.kind == "percent_change":
                    sides.reverse()  # a change from the smaller to the larger
            elif rel.kind == "percent_change":
                sides = [a, b] if later_first else [b, a]  # "A is 40% faster than B": from B to A
            else:
                sides = [b, a] if (rel.sign < 0) != later_first else [a, b]  # from 310 to 1,420: 1,420 / 310
        before = [(m, cid) for m, cid in in_sentence if m.end <= n.start]
        if sides is None and before and rel.other:
            subject_n, subject = before[-1]
            other = self.named_by(rel.other, exclude={subject}, fam=family(subject_n.unit))
            if other is not None:
                sides = [subject, other] if rel.kind == "ratio" else [other, subject]
                if rel.kind == "ratio" and rel.sign < 0:
                    sides.reverse()
        value = n.text
        if rel.kind == "percent_change" and rel.sign < 0 and not value.startswith("-"):
            value = "-" + value
        fields: dict = {"kind": rel.kind, "statement": sentence}
        if ordered_by_value and sides is not None:
            fields["note"] = "sides ordered by their values: the sentence does not say which is which"
        sid = self.new_id(f"s-l{line}")
        if sides is not None:
            fields["of"] = sides
        else:
            candidates = [cid for _, cid in in_sentence] + self.candidates(
                rel.other, {c for _, c in in_sentence}
            )
            fields = {
                "todo": "name the two sides in `of` (the claims it relates), then delete `todo`",
                **fields,
                "of": list(dict.fromkeys(candidates)),
            }
        if n.range is not None and rel.sign > 0:
            fields["range"] = [Num(n.range[0]), Num(n.range[1])]  # "2–3× faster"
        elif n.range is None:
            fields["value"] = Num(value.lstrip("+"))
        if n.about:
            fields["about"] = True
        fields["unit"] = "%" if n.unit == "%" else "x"
        fields.update(_where(line, sentence))
        self.out.entries.append(Entry("statement" if sides else "todo", sid, {"id": sid, **fields}))

    def named_by(self, words: str, exclude: set[str], fam: str | None) -> str | None:
        """The claim whose quote and conditions share most words with ``words`` (two or more, and
        more than any other claim of the family ``fam``), or None."""
        scored = self.scored(words, exclude, fam)
        if not scored or scored[0][0] < 2 or (len(scored) > 1 and scored[1][0] == scored[0][0]):
            return None
        return scored[0][1]

    def scored(self, words: str, exclude: set[str], fam: str | None = None) -> list[tuple[int, str]]:
        """Claims sharing words with ``words`` (their label, conditions and metric's words), most
        first: among the last ``_REACH`` claims drafted (a post relates numbers it has stated, and
        a long post stays linear)."""
        want = _words(words)
        out = []
        for cid in self.claim_ids[-_REACH:]:
            if cid in exclude:
                continue
            unit, have = self.profile[cid]
            if fam is not None and family(unit) != fam:
                continue
            score = len(want & have)
            if score:
                out.append((score, cid))
        return sorted(out, key=lambda x: -x[0])

    def candidates(self, words: str, exclude: set[str]) -> list[str]:
        return [cid for _, cid in self.scored(words, exclude)[:4]]

    def result_claim(self, r: Result, log: str | None) -> str:
        """A claim of a tool's result line (``resultlines.results``), under the command before it;
        ``log``: the raw log the line is kept in."""
        fields: dict = {"metric": r.metric, "value": Num(r.value), "unit": r.unit}
        if r.method:
            fields["method"] = r.method
        if r.counts:
            fields["counts"] = r.counts
        cond = _merged(self.conditions(), r.conditions)
        if cond:
            fields["conditions"] = cond
        if log:
            fields["log"] = log
        fields.update(_where(r.line, self.post.line(r.line)))
        return self.add_claim(fields, f"{r.metric.replace('_', '-')}-l{r.line}")

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
                self.pending_log = None
                self.prose(block.lines)  # a title's or heading's numbers are stated too
                continue
            if block.kind == "table":
                self.table(block)
                self.pending_log = None
                continue
            commands = command_lines(block.lines)
            in_command = {n for c in commands for n in range(c.line, c.last + 1)}
            for c in commands:
                self.command = c.conditions
                self.command_tool = c.tool
            pieces = [(n, t) for n, t in block.lines if n not in in_command]
            stated = results(pieces)
            if block.kind == "code":
                logged = any(_LOG.search(t) for _, t in pieces)
                if logged:
                    self.log(pieces)
                for r in stated:
                    self.result_claim(r, self.pending_log if logged else None)
                continue  # code that is neither output, a command nor a log: not prose
            read = [self.inline_commands(n, t) for n, t in pieces]
            for r in stated:  # a result line in prose: drafted once, blanked out of the prose read
                self.result_claim(r, None)
                k = next(k for k, (n, _) in enumerate(pieces) if n == r.line)
                read[k] = read[k][: r.start] + " " * (r.end - r.start) + read[k][r.end :]
            self.prose(pieces, read)
            self.pending_log = None
            if pieces and all(_log_line(t) for _, t in pieces):
                self.log(pieces)  # log lines pasted as a paragraph: drafted, and kept as a log
        return self.out


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


def _mid(n: Number) -> float:
    """The middle of a drafted number (a range's midpoint)."""
    if n.range is not None:
        return (float(n.range[0]) + float(n.range[1])) / 2
    return float(n.text)


def _multiple(n: Number) -> float:
    """A stated ratio as a multiple: "57%" -> 0.57, "2.1×" -> 2.1."""
    return _mid(n) / 100 if n.unit == "%" else _mid(n)


def _flat(d: dict) -> str:
    return " ".join(f"{k} {_flat(v) if isinstance(v, dict) else v}" for k, v in d.items())


def _key(header: str) -> str:
    k = re.sub(r"\W+", "_", header.lower()).strip("_")  # any script's letters: "模型", "显存_g"
    return k if k and not k[0].isdigit() else f"c_{k or 'row'}"


def _header_unit(header: str) -> str | None:
    for n in numbers("1 " + re.sub(r"[()\[\]]", " ", header)):
        if n.unit and n.start == 0:
            return n.unit
    m = re.search(r"(tok/s|t/s|tokens/s|tps|GiB|GB|MiB|MB|ms|%)", header, re.IGNORECASE)
    if m:
        return {"tokens/s": "tok/s", "tps": "tok/s", "gib": "GiB", "gb": "GB", "mib": "MiB", "mb": "MB"}.get(
            m.group(1).lower(), m.group(1)
        )
    if re.search(r"\b(?:sec|seconds|s)\)?$", header.strip(), re.IGNORECASE) and "(" in header:
        return "s"
    return None


def _names_metric(label: str) -> bool:
    """Whether a table label names a metric: a unit (``_header_unit``), a rate's or test's words
    (``_metric_header``), or acceptance/latency words."""
    return bool(
        _header_unit(label)
        or _metric_header(label)
        or re.search(r"accept|latency|ttft|throughput|吞吐|速度", label, re.IGNORECASE)
    )


def _ratio_column(header: str, cells: list[str]) -> str | None:
    """ "ratio" for an acceptance column written as fractions with no unit ("Acceptance": 0.73,
    "0.38-0.90"): every cell with a number has numbers from 0 to 1 only; else None."""
    if not re.search(r"accept", header, re.IGNORECASE):
        return None
    found = [numbers(c) for c in cells if not _EMPTY.match(c)]
    if not found or not all(found):
        return None
    values = [float(x) for ns in found for n in ns for x in (n.range or (n.text,)) if _plain(x) is not None]
    ok = all(not n.unit for ns in found for n in ns) and values and all(0 <= v <= 1 for v in values)
    return "ratio" if ok else None


def _transposed(rows: list[list[str]]) -> str | None:
    """How a table is laid out when its metrics are rows: "rows" (the first column names metrics,
    "Avg tok/s", "MTP accept", in two or more rows and in more rows than the header names
    configurations with a unit: a transposed table, configurations as columns), "keyvalue" (two
    columns, the header row itself a metric and its value: "| 吞吐（tokens/s） | 1581 |"), else None.
    Issue 29's corpus: p04, p52."""
    header, body = rows[0], rows[1:]
    if len(header) == 2 and _names_metric(header[0]) and re.fullmatch(r"[~≈]?\s*[\d.,]+\s*", header[1]):
        return "keyvalue"
    if any(_names_metric(h) for h in header[1:]):
        return None
    naming = sum(1 for r in body if r and _names_metric(re.sub(r"[*_`]", "", r[0])))
    return "rows" if naming >= 2 and naming * 2 >= len(body) else None


def _metric_header(header: str) -> bool:
    return bool(re.search(r"\b(?:pp|tg)\s?\d+\b|speed|throughput|tok/s|t/s", header, re.IGNORECASE))


def _plain(text: str | None) -> float | None:
    """A drafted number's value when a claims file can state it (finite, at most 15 digits before
    and after the point: ``schema.Claim.decimals``), else None."""
    if text is None:
        return None
    m = re.fullmatch(r"-?(\d+)(?:\.(\d+))?", text)
    if not m or len(m.group(1)) > 15 or len(m.group(2) or "") > 15:
        return None
    return float(text)


def stateable(n: Number) -> bool:
    """Whether a claims file can state ``n`` as a claim (the schema's rules, so a draft always loads):
    every number plain (``_plain``), no negative value but a change in %, a count "k of n" with
    0 ≤ k ≤ n and n ≥ 1 whole numbers."""
    texts = [n.low, n.high] if n.range is not None else [n.text]
    values = [_plain(t) for t in texts]
    if any(v is None for v in values) or (n.spread is not None and _plain(n.spread) is None):
        return False
    if n.unit != "%" and any((v or 0) < 0 for v in values):
        return False
    if n.unit is None and n.of is not None:
        k, of = _plain(n.text), _plain(n.of)
        return (
            k is not None
            and of is not None
            and k.is_integer()
            and of.is_integer()
            and 0 <= k <= of
            and of >= 1
        )
    return True


def _number_fields(n: Number) -> dict:
    fields: dict = {}
    if n.range is not None:
        fields["range"] = [Num(n.range[0]), Num(n.range[1])]
    else:
        fields["value"] = Num(n.text)
    if n.about:
        fields["about"] = True
    fields["unit"] = n.unit
    if n.spread is not None:
        fields["spread"] = Num(n.spread)
    if n.of is not None and n.of_unit == n.unit and (_plain(n.of) or 0) > 0:
        fields["capacity"] = Num(n.of)
    return fields


def _where(line: int, quote: str) -> dict:
    return {"source_line": line, "quote": quote.strip()[:500]} if line else {"quote": quote.strip()[:500]}


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
