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
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..ingest.common import IngestError
from ..ingest.read import read_llama_bench
from ..ingest.scan import scan
from ..ingest.serverlog import TIMING_LINE
from ..ingest.settings import flash_attn_word
from .draftcommand import command_lines
from .draftcontext import cell_conditions, count, fill
from .draftnames import (
    CLAUSE_ONLY,
    Mention,
    clause_bounds,
    decoding_of_cell,
    engine_of_cell,
    engines_in,
    hardware_of,
    header_decoding,
    machine_size,
    mentions,
    model_of,
    without_remark,
)
from .draftprose import CAPITALS_ONLY, Number, bound_of, family, metric_of, number_text, numbers
from .draftrelations import pair_units, relations, repetitions
from .post import Block, Post, read_post
from .resultlines import Result, results
from .toollines import label_metric, label_unit, tool_results
from .units import UnitError, factor


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
        (
            "block",
            "block size",
            "blockmax",
            "block max",
            "draft max",
            "draftmax",
            "nmax",
            "n max",
            "specdraftnmax",
        ),
        ("block_max", "int"),
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
        (
            "concurrency",
            "max concurrency",
            "parallel",
            "np",
            "users",
            "concurrent requests",
            "concurrent users",
            "max concurrent requests",
        ),
        ("concurrency", "int"),
    ),
    **dict.fromkeys(("mode", "decoding"), ("decoding", "decoding")),
    **dict.fromkeys(("gpu", "hardware", "device"), ("hardware", "str")),
    **dict.fromkeys(
        ("engine", "runtime", "framework", "inference engine", "backend engine"), ("engine", "str")
    ),
    **dict.fromkeys(("build", "commit", "version"), ("build", "str")),
    **dict.fromkeys(("run", "run index", "trial"), ("run_index", "int")),
}
#: words that name a metric, for finding the claim a phrase names ("plain decoding")
_METRIC_WORDS_OF = {"decode_tps": "decode decoding generation tg", "prefill_tps": "prefill prompt pp"}
#: a word saying a number is the mean of others ("a 89.76 tok/s average", "averaged", "on average",
#: "mean", "avg", 平均, 평균, Durchschnitt, moyenne, promedio)
_MEAN = re.compile(r"\baverag\w*|\bmean\b|\bavg\b|平均|평균|durchschnitt\w*|moyenne|promedio", re.IGNORECASE)
#: words that make a relating phrase one about speed: its sides are rates
_SPEED = re.compile(
    r"faster|slower|quicker|speed|schneller|langsamer|rapide|lent|rápido|lento|速|快|慢|빠|느|遅",
    re.IGNORECASE,
)
#: what ends a clause around a relating phrase (``_Drafter._clause_of``)
_CLAUSE_CUT = re.compile(r"[,;:()\[\]]\s|[()\[\]]|\s[—–]\s|\bbut\b|\band\b(?=\s+[~≈]?\d)")
#: every offset where a ``_CLAUSE_CUT`` starts (overlapping ones too: ``re.search``'s answer from any
#: offset is the first of them at or after it)
_CLAUSE_CUT_AT = re.compile(rf"(?=(?:{_CLAUSE_CUT.pattern}))")
#: words that may open a clause before a relating phrase ("a", "just", "about", "~"; ``sides_in_scope``)
_OPENS = re.compile(r"\W*(?:(?:a|an|the|just|only|about|around|roughly|nearly|almost|some|~|≈)\W*)*")
#: words every claim of a metric shares (its name, its unit's words): they name no side
_GENERIC = frozenset(
    " ".join(_METRIC_WORDS_OF.values()).split()
    + "decode prefill tps rate speed throughput tok t/s tokens faster slower".split()
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
#: how many of the claims drafted last a relating phrase's other side is looked for among
_REACH = 400
#: how far from a number (characters) a sentence's words are read as its conditions
_NEAR = 60
#: a condition named with its number in prose: "block size 4", "-ncmoe 26", "ctx 8192", "-ngl=99"
_NAMED = re.compile(
    r"(?P<label>block(?: size)?|-{0,2}n?cmoe|n_cpu_moe|-{0,2}n-cpu-moe|-ngl|n_gpu_layers|ctx|context|"
    r"batch(?: size)?|ubatch|depth|draft[ -]max|--draft-max|n[-_ ]max|--spec-draft-n-max)\s*(?:=|:|of|is)?\s*"
    r"(?P<n>\d+)"
    r"(?![\d.]|\s*(?:tok|t/s|%|x|×|GB|GiB|MB|ms|s\b))",
    re.IGNORECASE,
)
_PAREN = re.compile(r"[(\[].*")
#: a line of program output stating tokens, a time and a rate ("decoded 202 tokens in 2.533 seconds,
#: speed: 79.745 t/s")
_RATE_LINE = re.compile(
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


#: characters before a number whose words label it (``_Drafter.prose``)
_LABEL_WINDOW = 256


def _slug(text: str, limit: int = 24) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s[:limit].strip("-") or "x"


#: a label column's header about decoding: its Yes/No cells state the decoding (``decoding_of_cell``)
_DECODING_HEADER = re.compile(r"\b(?:spec\w*|MTP|draft(?:ing)?|drafted)\b", re.IGNORECASE)


def _label_key(header: str) -> str:
    h = re.sub(r"\(.*?\)", "", header.lower())
    h = re.sub(r"[`*_\-–—:]+", "", h.replace("_", "")).strip()
    return re.sub(r"\s+", " ", h)


class _Bounds(list):
    """Where the sentences of a text start (``_sentence_bounds``), and each sentence once cut out
    (``found``: its index -> ``_sentence_at``'s answer): cutting it out again for each of its numbers
    copied the sentence per number, quadratic in a long sentence of many numbers."""

    def __init__(self, starts: list[int]):
        super().__init__(starts)
        self.found: dict[int, tuple[int, str]] = {}


def _sentence_bounds(text: str) -> _Bounds:
    """Where the sentences of ``text`` start, and ``len(text) + 1``: ``_sentence``'s ``bounds``."""
    return _Bounds([0] + [m.end() for m in re.finditer(r"(?<=[.!?。！？])\s+", text)] + [len(text) + 1])


def _sentence_at(text: str, start: int, bounds: list[int] | None = None) -> tuple[int, str]:
    """Where the sentence of ``text`` around offset ``start`` begins, and the sentence (stripped);
    ``bounds``: ``_sentence_bounds(text)``, computed once for many numbers of one text.  The offset
    comes from the bounds: finding the sentence's text again cost a pass over the text per number
    (quadratic in a long sentence) and found an earlier sentence of the same words."""
    bounds = bounds if bounds is not None else _sentence_bounds(text)
    k = bisect.bisect_right(bounds, start) - 1
    found = bounds.found if isinstance(bounds, _Bounds) else {}
    if k in found:
        return found[k]
    a, b = (bounds[k], bounds[k + 1]) if 0 <= k < len(bounds) - 1 else (0, len(text))
    raw = text[a:b]
    found[k] = (a + len(raw) - len(raw.lstrip()), raw.strip())
    return found[k]


def _sentence(text: str, start: int, bounds: list[int] | None = None) -> str:
    """The sentence of ``text`` around offset ``start`` (``_sentence_at``)."""
    return _sentence_at(text, start, bounds)[1]


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


def _side_names(text: str) -> set[str]:
    """The words of ``text`` that may name one side of a comparison: no metric's or unit's words
    (``_GENERIC``), no numbers."""
    return {w for w in _words(text) - _GENERIC if not re.fullmatch(r"[\d.]+", w)}


#: the most numbers of its sentence a todo statement lists as candidates (the nearest to its phrase)
_CANDIDATES = 12


class _Placed(list):
    """The numbers a paragraph placed, ``(Number, claim id)`` in text order, indexed for its relating
    phrases (``_Drafter.relation``): those starting in a sentence or clause found by bisection, a
    number's claim by the number, each claim's last place, and the measured numbers (no ratio or
    multiple) and the rates apart.  Each phrase read every placed number of its paragraph, quadratic
    in a paragraph of many phrases and numbers.  Not changed once built."""

    def __init__(self, items: list[tuple[Number, str]]):
        super().__init__(items)
        self.starts = [m.start for m, _ in self]
        self.ordered = all(a <= b for a, b in zip(self.starts, self.starts[1:], strict=False))
        self.ids = {id(m): cid for m, cid in self}  # a number's claim
        self.last: dict[str, int] = {}  # a claim's last place
        for m, cid in self:
            self.last[cid] = max(self.last.get(cid, -1), m.start)
        self._kinds: dict[str, _Placed] = {}

    def measured(self) -> _Placed:
        """Those whose unit is no ratio or multiple (and that have one)."""
        if "measured" not in self._kinds:
            self._kinds["measured"] = _Placed(
                [(m, c) for m, c in self if family(m.unit) not in ("ratio", "multiple", None)]
            )
        return self._kinds["measured"]

    def rates(self) -> _Placed:
        """Those whose unit is a rate."""
        if "rates" not in self._kinds:
            self._kinds["rates"] = _Placed([(m, c) for m, c in self if family(m.unit) == "rate"])
        return self._kinds["rates"]

    def _span(self, lo: int, hi: int) -> tuple[int, int]:
        return bisect.bisect_left(self.starts, lo), bisect.bisect_left(self.starts, hi)

    def within(self, lo: int, hi: int) -> list[tuple[Number, str]]:
        """Those starting at ``lo`` up to ``hi``, in order."""
        if not self.ordered:
            return [(m, c) for m, c in self if lo <= m.start < hi]
        a, b = self._span(lo, hi)
        return self[a:b]

    def how_many(self, lo: int, hi: int) -> int:
        """How many start at ``lo`` up to ``hi``."""
        if not self.ordered:
            return len(self.within(lo, hi))
        a, b = self._span(lo, hi)
        return b - a

    def last_in(self, lo: int, hi: int) -> tuple[Number, str] | None:
        """The last (in order) of those starting at ``lo`` up to ``hi``."""
        if not self.ordered:
            return next(reversed(self.within(lo, hi)), None)
        a, b = self._span(lo, hi)
        return self[b - 1] if b > a else None

    def last_before(self, lo: int, hi: int, at: int) -> tuple[Number, str] | None:
        """The last (in order) of those starting at ``lo`` up to ``hi`` that ends by ``at``."""
        if not self.ordered:
            return next((x for x in reversed(self.within(lo, hi)) if x[0].end <= at), None)
        a, b = self._span(lo, hi)
        k = min(b, bisect.bisect_right(self.starts, at)) - 1  # later ones start after ``at``
        while k >= a and self[k][0].end > at:
            k -= 1
        return self[k] if k >= a else None

    def nearest(self, lo: int, hi: int, at: int, most: int) -> list[tuple[Number, str]]:
        """Those starting at ``lo`` up to ``hi``, in order: all where at most ``most``, else the
        ``most`` nearest to offset ``at`` (the earlier on a tie)."""
        if self.how_many(lo, hi) <= most:
            return self.within(lo, hi)
        if not self.ordered:
            near = sorted(self.within(lo, hi), key=lambda x: abs(x[0].start - at))[:most]
            return [x for x in self if x in near]
        a, b = self._span(lo, hi)
        j = min(max(bisect.bisect_left(self.starts, at), a), b)
        i = j
        while j - i < most:  # widen towards the nearer side
            if i > a and (j >= b or at - self.starts[i - 1] <= self.starts[j] - at):
                i -= 1
            else:
                j += 1
        return self[i:j]


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
        #: source line -> the claims drafted from it, in order (``result_details``, ``code_unplaced``)
        self.by_line: dict[int, list[Entry]] = {}
        #: word -> where in ``claim_ids`` the claims whose profile holds it are (``scored``)
        self.by_word: dict[str, list[int]] = {}
        self.vocab: dict[str, tuple[str, object]] = {}
        self.tables = 0
        self.in_heading = False  # reading a title or heading (``_spec_size``)
        self.suffix: dict[str, int] = {}
        #: conditions named in the section's prose so far (``draftnames``): path -> value
        self.named: dict[str, object] = {}
        self.title_named: dict[str, object] | None = None
        #: the engines the post names anywhere: what an abbreviation in a table stands for ("LCP")
        self.engines_named = engines_in(post.text)
        #: the rate unit the last paragraph and the section's heading (else the title) state: the unit
        #: of a table that states none ("Baseline: 33.92 tokens/second" above a table of rates)
        self.para_rate: str | None = None
        self.heading_rate: str | None = None
        #: the groups of the last table drafted with no command line before it, while only a label
        #: ("Server command:") stands between it and the next block: a command line there is its
        self.open_table: list[str] | None = None
        #: the last paragraph when it ends with ":" and introduces what follows ("From 16 → 32
        #: concurrency:" above a list of changes), else ""
        self.lead_in = ""
        #: whether the relating phrase being drafted is about speed ("faster", "slower", ``_SPEED``):
        #: its sides are rates (``relation``, ``_scope``)
        self.rates_only = False
        #: the timing lines of each log excerpt: (where in ``out.entries``, results, log name),
        #: drafted at the end where no claim names the log (``uncited_timings``)
        self.timing_logs: list[tuple[int, list[Result], str]] = []
        #: what the relating phrases of the paragraph being drafted read of its sentences and
        #: clauses, read once per sentence or clause (``_once``)
        self._memo: tuple[str | None, dict[tuple, Any]] = (None, {})
        #: each claim's ``flat_conditions`` while the relations of a paragraph are drafted, else None
        self._flat: dict[str, dict[str, object]] | None = None
        #: meanwhile, the (condition, value) pairs the last claims state: where in ``claim_ids`` the
        #: claims counted start and end, and each pair's count (``_recent_values``)
        self._values: tuple[int, int, dict[tuple[str, str], int]] | None = None

    def new_id(self, base: str) -> str:
        """``base``, or ``base-2``, ``base-3``... the first not taken; the suffix to try next is kept
        per base (``suffix``): counting up from 2 each time was quadratic in the claims of one line."""
        base = base.strip("-") or "c"
        cid, k = base, self.suffix.get(base, 2)
        if cid in self.ids:
            cid = f"{base}-{k}"
            while cid in self.ids:
                k += 1
                cid = f"{base}-{k}"
            self.suffix[base] = k + 1
        self.ids.add(cid)
        return cid

    # --- claims ---------------------------------------------------------------------------------
    def add_claim(self, fields: dict, base: str, group: str | None = None, label: str = "") -> str:
        cid = self.new_id(base)
        entry = Entry("claim", cid, {"id": cid, **fields}, group)
        self.out.entries.append(entry)
        self.claims[cid] = entry
        self.claim_ids.append(cid)
        if fields.get("source_line") is not None:
            self.by_line.setdefault(fields["source_line"], []).append(entry)
        shared = self.groups[group].fields if group is not None else {}
        value = fields.get("value") or "–".join(fields.get("range") or ())
        unit = fields.get("unit") or shared.get("unit")
        self.by_value.setdefault((str(value), unit), []).append(cid)
        metric = str(fields.get("metric") or shared.get("metric") or "")
        named = f"{_METRIC_WORDS_OF.get(metric, '')} {metric.replace('_', ' ')}"
        self.profile[cid] = (unit, _words(f"{label} {_flat(fields.get('conditions', {}))} {named}"))
        for word in self.profile[cid][1]:
            self.by_word.setdefault(word, []).append(len(self.claim_ids) - 1)
        return cid

    def conditions(self) -> dict:
        return _merged({}, self.command)

    def context(self, named: dict[str, object] | None = None) -> dict:
        """The command's conditions, and the conditions the section's prose named before
        (``named``: ``self.named``) where the command sets none."""
        out = self.conditions()
        for path, value in (self.named if named is None else named).items():
            if path not in out:
                _set(out, path, value)
        return out

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
                self.add_claim({**timed, **_where(line, text)}, f"duration-{test}-l{line}")

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
        if _settings_table(header, body):
            # "| GPU | A100 40GB |", "| n_ctx | 2048 |": the setup a post ran, no result
            for r, row in enumerate(body):
                for j, cell in enumerate(row[1:width], start=1):
                    line = block.line_of(r + 1, j)
                    self.out.unplaced += [(line, n.text, self.post.line(line)[:300]) for n in numbers(cell)]
            return
        kinds: list[str] = []
        for j, h in enumerate(header):
            key = _label_key(h)
            cells = [r[j] for r in body if j < len(r) and not _EMPTY.match(r[j])]
            with_unit = [n for c in cells for n in numbers(c)[:1] if n.unit]
            head_unit = (
                _header_unit(h) or _ratio_column(h, cells) or (_tokens_column(h, cells) if j else None)
            )
            if key in LABELS or j == 0 and not head_unit and not with_unit:
                kinds.append("label")
            elif head_unit or with_unit or _metric_header(h):
                kinds.append("value")
            elif j > 0 and _MEASURE_HEADER.search(h) and cells and all(numbers(c) for c in cells):
                kinds.append("unplaced")  # "TTFT", "Duration" over plain numbers: no unit to state
            else:
                kinds.append("label")
        lead_unit = self.para_rate or self.heading_rate
        if lead_unit is not None and "value" not in kinds:
            # a table that states no unit, under a paragraph or heading stating a rate: its columns
            # of distinct plain numbers (not the first, not a setting's: a known label, a flag's
            # name "draft-p-min", "n_ctx") are rates in that unit
            for j, h in enumerate(header):
                cells = [r[j] for r in body if j < len(r) and not _EMPTY.match(r[j])]
                plain = [
                    _plain(ns[0].text) if ns and ns[0].unit is None else None for ns in map(numbers, cells)
                ]
                if (
                    j > 0
                    and _label_key(h) not in LABELS
                    and not _SETTING_HEADER.search(h)
                    and len(cells) >= 2
                    and None not in plain
                    and len(set(plain)) == len(plain)
                ):
                    kinds[j] = "lead"
        self.tables += 1  # counted, not recounted from the groups: that was quadratic in a long post
        table_groups: list[str] = []
        tno = self.tables
        groups: dict[int, str] = {}
        related: dict[int, str] = {}
        efficiency: dict[int, tuple[int, int]] = {}
        cell_ids: dict[tuple[int, int], str] = {}  # (row, column) -> the claim drafted for the cell
        changes: list[tuple[int, int, Number, int]] = []  # a row of changes under rate columns
        row_labels: list[str] = []
        for j, h in enumerate(header):
            if kinds[j] not in ("value", "lead"):
                continue
            unit = (
                (lead_unit if kinds[j] == "lead" else None)
                or _header_unit(h)
                or _ratio_column(h, [r[j] for r in body if j < len(r)])
                or _tokens_column(h, [r[j] for r in body if j < len(r) and not _EMPTY.match(r[j])])
                or next((n.unit for r in body if j < len(r) for n in numbers(r[j])[:1] if n.unit), None)
            )
            if unit is None and _metric_header(h):
                unit = "t/s"
            metric = "acceptance_rate" if unit == "ratio" else label_metric(h, unit) if unit else None
            if metric is None:
                kinds[j] = "unplaced"  # its numbers are listed, not dropped
                continue
            if unit == "%" and (sides_of := _efficiency_sides(header, body, kinds, j)) is not None:
                efficiency[j] = sides_of  # "Efficiency: 63%": the row's observed over its ceiling
                continue
            if (
                unit in ("x", "%")
                and _relating_column(h, [r[j] for r in body if j < len(r)])
                and _relation_sides(header, body, kinds, j, unit) is not None
            ):
                related[j] = unit  # a "vs baseline" / "Gain" column: statements, not claims
                continue
            if unit in ("x", "%") and _relating_column(h, [r[j] for r in body if j < len(r)]):
                # "Best speedup" against a speculative rate the table does not give, or with no row
                # to read as the baseline: claims of the change (the metric "speedup"), no sides guessed
                metric = "speedup" if unit == "x" else "speed_change" if label_metric(h, "t/s") else "change"
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
            if self.command or self.named:
                gfields["conditions"] = self.context()
            decoding = header_decoding(h)  # "Baseline" -> plain, "Best speculative result" -> speculative
            if decoding is not None:
                gfields.setdefault("conditions", {})["decoding"] = decoding
            self.out.groups.append(Group(gid, gfields, block.start))
            self.groups[gid] = self.out.groups[-1]
            table_groups.append(gid)
            groups[j] = gid
        by_cells = {
            j: path
            for j in range(width)
            if kinds[j] == "label" and _label_key(header[j]) not in LABELS
            for path in [_cells_condition([r[j] for r in body if j < len(r) and not _EMPTY.match(r[j])])]
            if path
        }
        for r, row in enumerate(body):
            line = block.line_of(r + 1, 0)
            cond: dict = {}
            labels = []
            # a row of changes ("| % Difference | 7.5 | -37.5 |", a transposed table's change column):
            # its plain numbers are changes in %, of the two rows above, never a label's condition
            changes_row = bool(row) and "%" in row[0] and _RELATING_HEADER.search(row[0]) is not None
            for j, cell in enumerate(row[:width]):
                if changes_row and kinds[j] == "label":
                    continue
                if kinds[j] == "unplaced":
                    at = block.line_of(r + 1, j)
                    self.out.unplaced += [(at, n.text, self.post.line(at)[:300]) for n in numbers(cell)]
                    continue
                if kinds[j] != "label" or _EMPTY.match(cell):
                    continue
                labels.append(cell)
                shaped = cell_conditions(cell)  # "c4", "pp2048 tg128 @ d4096": settings by their shape
                if shaped and LABELS.get(_label_key(header[j]), ("",))[0] not in ("prompt", "model"):
                    for shaped_path, shaped_value in shaped.items():
                        _set(cond, shaped_path, shaped_value)
                    continue
                path, typ = LABELS.get(_label_key(header[j]), ("", "str"))
                path = path or by_cells.get(j) or "other." + _key(header[j] or "row")
                value: object = cell
                if typ == "int":
                    # "4096", "16K" (a size in K: ``draftcontext.count``), "0 (cold)"
                    m = re.fullmatch(
                        r"\s*(\d+(?:\.\d+)?)\s?([kK])?\s*(?:\([^)]*\))?\s*", cell.replace(",", "")
                    )
                    whole = count(m.group(1), m.group(2)) if m else None
                    if whole is None and m and m.group(1) == "0":
                        whole = 0
                    if whole is None:
                        path, value = "other." + _key(header[j]), cell
                    else:
                        value = whole
                elif typ == "decoding":
                    value = decoding_of_cell(cell, header[j]) or cell
                elif path.startswith("other.") and _DECODING_HEADER.search(header[j]):
                    # a label column saying whether the run drafted ("Speculative": Yes/No, "MTP": ✓)
                    decoded = decoding_of_cell(cell, header[j])
                    if decoded is not None:
                        path, value = "decoding", decoded
                elif typ == "fa":
                    word = flash_attn_word(cell)
                    if word not in ("on", "off"):
                        path = "other.flash_attn"
                    else:
                        value = word == "on"
                if path == "hardware" and isinstance(value, str):
                    # "RTX 4090" -> "NVIDIA GeForce RTX 4090"; "CPU only (no GPU)" -> "CPU only"
                    value = hardware_of(value) or without_remark(value)
                elif path == "model" and isinstance(value, str):
                    value = model_of(value) or value  # "Qwen2.5-Coder 14B" -> "Qwen2.5-Coder-14B"
                elif path == "engine" and isinstance(value, str):
                    value = engine_of_cell(value, self.engines_named) or value  # "LCP" -> "llama.cpp"
                _set(cond, path, value)
                if isinstance(value, str) and len(value) >= 3 and not re.fullmatch(r"[\d.\s]+", value):
                    self.vocab.setdefault(value.lower(), (path, value))
            for j, gid in groups.items():
                if j >= len(row) or _EMPTY.match(row[j]):
                    continue
                line = block.line_of(r + 1, j)
                found = [n for n in numbers(row[j]) if n.unit or not n.unit_written]
                if changes_row and found and found[0].unit is None:
                    found[0] = replace(found[0], unit="%")
                if found and not stateable(found[0]):
                    self.out.unplaced.append((line, found[0].text, self.post.line(line)[:300]))
                    continue
                if not found:
                    continue
                n = found[0]
                if n.unit and family(n.unit) != family(self.groups[gid].fields.get("unit")):
                    # "-23%" under a t/s column (a row of changes): not a rate of the column; a
                    # change of the column's two rows when the table has two (``column_changes``)
                    if n.unit in ("x", "%") and not labels and stateable(n) and n.range is None:
                        changes.append((r, j, n, line))
                    else:
                        self.out.unplaced.append((line, n.text, self.post.line(line)[:300]))
                    continue
                if n.unit in ("x", "%") and any(
                    (r, k) in cell_ids
                    and self.groups[groups[k]].fields.get("unit") == n.unit
                    and _plain(str(self.claims[cell_ids[r, k]].fields.get("value"))) == _plain(n.text)
                    for k in groups
                    if k < j
                ):
                    continue  # "1.85× on math | up to 1.85×": the row's multiple again, that claim
                relation = bound_of(row[j], n) if n.range is None else None
                if relation is not None and n.unit in ("x", "%"):
                    # "up to 2.03×" with no other cell stating it: a bound, no value claimed
                    metric = str(self.groups[gid].fields.get("metric"))
                    quote = f"{header[j]}: {row[j]} — {self.post.line(line)}"
                    self.bound_statement(n, relation, metric, {**self.context(), **cond}, line, quote)
                    continue
                fields = _number_fields(n)
                fields.pop("unit", None)
                if cond:
                    fields["conditions"] = cond
                fields.update(_where(line, f"{header[j]}: {row[j]} — {self.post.line(line)}"))
                label = " ".join([header[j], *labels])
                cell_ids[r, j] = self.add_claim(fields, f"{gid}-r{r + 1}", gid, label)
            row_labels.append(" ".join(labels))
        for r, j, n, line in changes:
            rows_of = [cell_ids[k, j] for k in range(len(body)) if (k, j) in cell_ids]
            if len(rows_of) != 2:
                self.out.unplaced.append((line, n.text, self.post.line(line)[:300]))
                continue
            kind = "ratio" if n.unit == "x" else "percent_change"
            sid = self.new_id(f"s-l{line}")
            fields = {
                "kind": kind,
                "statement": f"{header[j]}: {body[r][j]}",
                "of": rows_of[::-1] if kind == "ratio" else rows_of,  # from the first row to the second
                "value": Num(n.text.lstrip("+")),
                "unit": "x" if kind == "ratio" else "%",
                **_where(line, f"{header[j]}: {body[r][j]} — {self.post.line(line)}"),
            }
            self.out.entries.append(Entry("statement", sid, {"id": sid, **fields}))
        for j, (num, den) in efficiency.items():
            for r, row in enumerate(body):
                found = [n for n in numbers(row[j]) if n.unit == "%"] if j < len(row) else []
                if not found or not stateable(found[0]) or found[0].range is not None:
                    continue
                if (r, num) not in cell_ids or (r, den) not in cell_ids:
                    continue
                line = block.line_of(r + 1, j)
                sid = self.new_id(f"s-l{line}")
                fields = {
                    "kind": "ratio",
                    "statement": f"{header[j]}: {row[j]}",
                    "of": [self.first_stated(cell_ids[r, num]), self.first_stated(cell_ids[r, den])],
                    "value": Num(found[0].text.lstrip("+")),
                    "unit": "%",
                    **_where(line, f"{header[j]}: {row[j]} — {self.post.line(line)}"),
                }
                self.out.entries.append(Entry("statement", sid, {"id": sid, **fields}))
        if related:
            self.table_relations(
                header, body, block.row_lines, block.start, groups, related, cell_ids, row_labels
            )

    def table_relations(
        self,
        header: list[str],
        body: list[list[str]],
        at: list[int],
        start: int,
        groups: dict[int, str],
        related: dict[int, str],
        cells: dict[tuple[int, int], str],
        row_labels: list[str],
    ) -> None:
        """A table column of multiples or percentages that relate the row's numbers ("vs baseline",
        "Speedup", "Gain": ``_relating_column``): a statement per cell.  With two or more columns of
        one family in the row ("Standard t/s | TurboQuant t/s | Gain"), it relates the first two: a
        percent change from the first to the second, a ratio of the second to the first; with one,
        it relates the row's cell to the same column's cell of the baseline row (the row labelled
        baseline/plain/off/without..., else the row whose multiple is 1 or change 0;
        ``_relation_sides`` decides beforehand that the table gives both sides): a ratio of the row
        over the baseline, a percent change from the baseline to the row.  The baseline row's own
        cell ("1.00×") relates it to itself: no statement."""
        fam = {j: self.groups[g].fields.get("unit") for j, g in groups.items()}
        col_of = {c: k for (_, k), c in cells.items()}
        for j, unit in related.items():
            kind = "ratio" if unit == "x" else "percent_change"
            base_row = next((r for r, lab in enumerate(row_labels) if _BASELINE.search(lab)), None)
            if base_row is None:
                base_row = next(
                    (
                        r
                        for r, row in enumerate(body)
                        if j < len(row)
                        for n in numbers(row[j])[:1]
                        if _plain(n.text) == (1.0 if unit == "x" else 0.0)
                    ),
                    None,
                )
            for r, row in enumerate(body):
                if j >= len(row) or _EMPTY.match(row[j]):
                    continue
                found = [n for n in numbers(row[j]) if n.unit in ("x", "%", None)]
                if not found or not stateable(found[0]) or found[0].range is not None:
                    continue
                n = found[0]
                mine = [cells[r, k] for k in sorted(groups) if (r, k) in cells]
                same = [c for c in mine if fam.get(col_of[c]) == fam.get(col_of[mine[0]])]
                if len(same) >= 2:
                    a, b = same[0], same[1]
                    sides = [b, a] if kind == "ratio" else [a, b]
                else:
                    col = next((k for k in sorted(groups) if (r, k) in cells), None)
                    if col is None or base_row is None or base_row == r or (base_row, col) not in cells:
                        continue
                    mine_c, base_c = cells[r, col], cells[base_row, col]
                    sides = [mine_c, base_c] if kind == "ratio" else [base_c, mine_c]
                line = at[r + 1] if r + 1 < len(at) else start
                value = n.text if not n.text.startswith("+") else n.text[1:]
                sid = self.new_id(f"s-l{line}")
                fields = {
                    "kind": kind,
                    "statement": f"{header[j]}: {row[j]}",
                    "of": [self.first_stated(c) for c in sides],
                    "value": Num(value),
                    "unit": "x" if unit == "x" else "%",
                    **_where(line, f"{header[j]}: {row[j]} — {self.post.line(line)}"),
                }
                self.out.entries.append(Entry("statement", sid, {"id": sid, **fields}))

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
        bounds = _sentence_bounds(text)
        named = mentions(text)
        clauses = clause_bounds(text)
        k_named = 0  # the mentions before the current number, taken into self.named
        placed: list[tuple[Number, str]] = []
        here: set[str] = set()  # the claims of ``placed``
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
            s0, sentence = _sentence_at(text, n.start, bounds)
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
                    here.add(placed[-1][1])
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
                cond = _merged(
                    _merged(self.context(), _in_clause(named, clauses, n.start, text)),
                    self.named_conditions(n.start, s0, sentence, clauses),
                )
                self.bound_statement(n, relation, metric, cond, line, sentence)
                continue
            if self.mean_statement(n, metric, scanned, line, sentence, here):
                continue  # "This gives a 89.76 tok/s average." of the rates listed before it
            fields = _number_fields(n)
            value = fields.get("value") or "–".join(fields.get("range") or ())
            same = self.by_value.get((str(value), n.unit), [])
            if len(same) == 1 and not n.of and not self.same_sentence(same[0], line, sentence):
                placed.append((n, same[0]))  # the post repeats a number it stated: cite that claim
                here.add(same[0])
                self.maybe_log(same[0], metric)
                continue
            cfields = {"metric": metric, **fields}
            if s0 not in origins:  # once per sentence: per number it was quadratic in a long sentence
                origins[s0] = origin_of(sentence)
            origin = origins[s0]
            if origin:
                cfields["origin"] = origin
            cond = _merged(
                _merged(self.context(), _in_clause(named, clauses, n.start, text)),
                self.named_conditions(n.start, s0, sentence, clauses),
            )
            if cond:
                cfields["conditions"] = cond
            cfields.update(_where(line, sentence))
            cid = self.add_claim(cfields, f"{metric.replace('_', '-')}-l{line}", label=label)
            self.maybe_log(cid, metric)
            placed.append((n, cid))
            here.add(cid)
        for m in named[k_named:]:
            if m.path not in CLAUSE_ONLY:
                self.named[m.path] = m.value
        # the relations read the claims' conditions (plain_baseline changes one's: it says so)
        self._flat, self._values = {}, None
        indexed = _Placed(placed)
        try:
            for rel in rels.values():
                self.relation(rel, text, line_of(rel.start), indexed, bounds)
        finally:
            self._flat, self._values = None, None
        self.tokens_over_time(placed, text, line_of, bounds)

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
        """Where ``text`` names a condition with a number (``_NAMED``)."""
        return [(m.start("n"), m.end("n")) for m in _NAMED.finditer(text)]

    def named_conditions(self, at: int, s0: int, sentence: str, clauses: list[int] | None = None) -> dict:
        """The conditions the sentence around offset ``at`` names: a label with a number ("block
        size 4", "-ncmoe 26": ``_NAMED``) and a label value the post's tables use ("WSL2",
        "draft-self"), within ``_NEAR`` characters of the number; of several for one field, the
        nearest; ``s0``: where the sentence starts in the text ``at`` is an offset of."""
        rel = at - s0
        found: dict[str, tuple[int, object]] = {}
        # the clause of the number (``clauses``: where the text's clauses start): a label in
        # another clause ("85 t/s, and with a draft model (--draft-max 16) it reached 141 t/s")
        # is the other number's
        k = bisect.bisect_right(clauses, at) - 1 if clauses else -1
        lo, hi = (
            (clauses[k] - s0, clauses[k + 1] - s0) if clauses and 0 <= k < len(clauses) - 1 else (-1, 1 << 60)
        )

        def offer(path: str, pos: int, value: object) -> None:
            score = abs(rel - pos) + (pos > rel)  # the nearest; before it on a tie
            if not lo <= pos < hi:
                return
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
            if word not in low:  # most are not: no pattern to compile and run
                continue
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
    def relation(self, rel, text: str, line: int, placed: _Placed, bounds: list[int] | None = None) -> None:
        n = rel.number
        if n.text.startswith("+"):
            n = replace(n, text=n.text[1:])  # "+1,134 MiB": the sign is the direction, stated apart
        s0, sentence = _sentence_at(text, n.start, bounds)
        if stateable(n) and n.range is not None and rel.sign < 0 and rel.kind == "ratio":
            self.multiple_claim(n, rel.sign, s0, sentence, line)  # "5–14x regression": slowdown
            return
        if not stateable(n):
            self.out.unplaced.append((line, n.text, sentence[:300]))
            return
        if n.range is not None and rel.sign < 0:  # "3.6–4.5% lower": the change, no sides stated
            if rel.kind == "percent_change":
                self.change_claim(rel, text, s0, sentence, line)
            else:
                self.out.unplaced.append((line, n.text, sentence[:300]))
            return
        if n.range is None and self.restated(rel, text, s0, sentence, line, placed):
            return
        # "23% slower for the 35B MoE on 16GB", "2× slower on workloads above 1000 tokens": a phrase
        # about speed relates rates, not the sizes or token counts beside it
        lo_c, hi_c = self._clause_of(text, n.start, s0, sentence)
        self.rates_only = self._once(
            text, ("speed", lo_c, hi_c), lambda: bool(_SPEED.search(text, lo_c, hi_c))
        )
        if self.rates_only and rel.pair is None:  # "speed up of 4141 ms / 1640 ms = 2.5x": its pair
            placed = placed.rates()
        # the measured numbers of its sentence: how many, and the nearest (a todo lists them)
        measured, s_end = placed.measured(), s0 + len(sentence)
        n_in = measured.how_many(s0, s_end)
        in_sentence = measured.nearest(s0, s_end, n.start, _CANDIDATES)
        fams = {family(m.unit) for m, _ in in_sentence}
        sides: list[str] | None = None
        ordered_by_value = False
        by_number = placed.ids
        note: str | None = None
        if rel.pair is not None and id(rel.pair[0]) in by_number and id(rel.pair[1]) in by_number:
            sides = [by_number[id(rel.pair[0])], by_number[id(rel.pair[1])]]  # from A to B
            if rel.kind == "difference":
                sides.reverse()  # "20,366 MiB / 21,500 MiB (+1,134 MiB)": the second less the first
        elif (
            n_in == 2
            and len(fams) == 1
            and re.search(r"→|->", text[in_sentence[0][0].end : in_sentence[1][0].start])
        ):
            # "3.3GB → 970MB, 70% less": from the first to the second, whatever their values
            (_, a), (_, b) = in_sentence
            sides = [a, b] if rel.kind == "percent_change" else [b, a]
        elif (
            n_in == 2
            and len(fams) == 1
            and not (  # "Rates 40.1 / 41.3 tok/s, +12% over last week": a list, the other side named
                _side_names(rel.other)
                and re.fullmatch(r"\s*/\s*", text[in_sentence[0][0].end : in_sentence[1][0].start])
            )
        ):
            (na, a), (nb, b) = in_sentence
            worded, later_first = self._once(
                text,
                ("from", s0),
                lambda: (
                    re.search(r"\b(?:from|than)\b", sentence, re.IGNORECASE) is not None,
                    re.search(r"\bfrom\b", sentence, re.IGNORECASE) is not None,
                ),
            )
            if not worded:
                # no "than"/"from" (another language's word order, a list): the sides in the order
                # the stated value needs (a gain: the larger over the smaller), said in a note
                ordered_by_value = True
                larger_wanted = rel.sign > 0 and (rel.kind == "percent_change" or _multiple(n) >= 1)
                big_first = _mid(na) >= _mid(nb) * _factor(nb.unit, na.unit)  # 3.3 GB > 970 MB
                sides = [a, b] if big_first == larger_wanted else [b, a]
                if rel.kind == "percent_change":
                    sides.reverse()  # a change from the smaller to the larger
            elif rel.kind == "percent_change":
                sides = [a, b] if later_first else [b, a]  # "A is 40% faster than B": from B to A
            else:
                sides = [b, a] if (rel.sign < 0) != later_first else [a, b]  # from 310 to 1,420: 1,420 / 310
        before = measured.last_before(s0, s_end, n.start)
        if sides is None and before is not None and rel.other:
            subject_n, subject = before
            other = self.named_by(rel.other, exclude={subject}, fam=family(subject_n.unit))
            if other is not None:
                sides = [subject, other] if rel.kind == "ratio" else [other, subject]
                if rel.kind == "ratio" and rel.sign < 0:
                    sides.reverse()
        if sides is None and rel.other and n_in < 2:
            # "b11434 is about 2× faster than b4000": the sides named by a condition's values
            # the words before it in its sentence, within a window (the whole sentence before each
            # phrase was quadratic in a long sentence of many of them)
            subject = text[max(s0, n.start - _LABEL_WINDOW) : n.start]
            pair = self.sides_by_condition(subject, rel.other, sentence)
            if pair is not None:
                subject, other = pair
                sides = [subject, other] if rel.kind == "ratio" else [other, subject]
                if rel.kind == "ratio" and rel.sign < 0:
                    sides.reverse()
        if sides is None:
            found = self.sides_in_scope(rel, text, s0, sentence, placed)
            if found is not None:
                sides, note = found
        if sides is not None and len(sides) == 2:
            self.plain_baseline(sides)
        value = n.text
        if rel.kind == "percent_change" and rel.sign < 0 and not value.startswith("-"):
            value = "-" + value
        fields: dict = {"kind": rel.kind, "statement": sentence[:_QUOTE]}
        if ordered_by_value and sides is not None:
            fields["note"] = "sides ordered by their values: the sentence does not say which is which"
        elif note and sides is not None:
            fields["note"] = note
        sid = self.new_id(f"s-l{line}")
        if sides is not None:
            fields["of"] = sides
        else:
            candidates = [cid for _, cid in in_sentence] + [
                c
                for c in self.candidates(rel.other, {c for _, c in in_sentence})
                if not self.rates_only or family(self.profile[c][0]) == "rate"
            ]
            candidates += self.scope_candidates(rel, text, s0, sentence)
            named_other = _side_names(rel.other)
            if named_other and not any(
                named_other & self.profile[c][1] for c in candidates if c in self.profile
            ):
                candidates = []  # "+12% over last week": the other side it names is no claim here
            if not named_other and len(set(candidates)) < 2:
                candidates = []  # "the dense model gets 42% slower": one claim is no pair, none named
            if not candidates and rel.kind == "percent_change":
                # "the dense model gets 42% slower", "+18.8% on the same kind of prompt": no rate
                # of either side stated: a claim of the change (issue 29's corpus convention)
                self.change_claim(rel, text, s0, sentence, line)
                return
            if not candidates and rel.kind == "ratio" and n.unit == "%":
                # "busy 95% of the time": a share of something the post states no number of
                self.share_claim(n, text, s0, sentence, line)
                return
            if not candidates and rel.kind == "ratio":
                # "nearly 2x faster", "5–14x regression" with no claim it could relate: a claim of
                # the multiple itself (what the post states), not a statement with nothing to cite
                self.multiple_claim(n, rel.sign, s0, sentence, line)
                return
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
        fields["unit"] = n.unit if rel.kind == "difference" else "%" if n.unit == "%" else "x"
        fields.update(_where(line, sentence))
        self.out.entries.append(Entry("statement" if sides else "todo", sid, {"id": sid, **fields}))

    def _clause_of(self, text: str, at: int, s0: int, sentence: str) -> tuple[int, int]:
        """Where the clause around offset ``at`` of ``text`` begins and ends, inside its sentence
        (``s0``, ``sentence``): up to ",", ";", ":", " — ", "(", ")", "but", or "and" before a number on
        either side ("2.5x generation and 15x prompt eval": two clauses)."""
        end = s0 + len(sentence)
        ends, starts = self._clause_cuts(text, s0, end)
        k = bisect.bisect_right(ends, at)  # the last cut ending at or before it
        j = bisect.bisect_left(starts, at)  # the first cut starting at or after it
        return (ends[k - 1] if k else s0), (starts[j] if j < len(starts) else end)

    def _clause_cuts(self, text: str, s0: int, end: int) -> tuple[list[int], list[int]]:
        """Where the clause cuts (``_CLAUSE_CUT``) of the sentence ``text[s0:end]`` end, read left
        to right, and where any starts (``_CLAUSE_CUT_AT``), once per sentence (``_once``)."""
        return self._once(
            text,
            ("cuts", s0, end),
            lambda: (
                [m.end() for m in _CLAUSE_CUT.finditer(text, s0, end)],
                [m.start() for m in _CLAUSE_CUT_AT.finditer(text, s0, end)],
            ),
        )

    def _once(self, text: str, key: tuple, make: Callable[[], Any]) -> Any:
        """``make()``, computed once per paragraph ``text`` and ``key`` (what a sentence or clause
        of it says: its clause cuts, its words): a long sentence of many relating phrases read the
        whole sentence or clause again for each of them, quadratic in its length."""
        if self._memo[0] is not text:
            self._memo = (text, {})
        memo = self._memo[1]
        if key not in memo:
            memo[key] = make()
        return memo[key]

    def _clause_words(self, text: str, lo: int, hi: int) -> tuple[str, set[str]]:
        """The clause ``text[lo:hi]`` and its words (``_words``), once per clause (``_once``)."""
        return self._once(text, ("words", lo, hi), lambda: (text[lo:hi], _words(text[lo:hi])))

    def restated(self, rel, text: str, s0: int, sentence: str, line: int, placed: _Placed) -> bool:
        """A change or multiple with no claim in its clause that restates an earlier statement of
        the same kind and sides, as rounded ("+65%" after "31.9 → 52.8 tok/s (+65.5%)": within one
        unit of its last digit, same sign): a statement citing the same sides, said in a note.
        True when drafted."""
        n = rel.number
        if rel.pair is not None or rel.kind == "difference":
            return False
        lo, hi = self._clause_of(text, n.start, s0, sentence)
        if placed.measured().how_many(lo, hi):
            return False
        value = _plain(n.text.replace("−", "-"))
        if value is None:
            return False
        if rel.kind == "percent_change" and rel.sign < 0 and value > 0:
            value = -value
        step = 10.0 ** -(len(n.text.split(".")[1]) if "." in n.text else 0)
        hits = []
        for e in self.out.entries[-60:]:  # the entries drafted last: a restatement follows soon
            f = e.fields
            if (
                e.kind != "statement"
                or f.get("kind") != rel.kind
                or "value" not in f
                or len(f.get("of", [])) != 2
            ):
                continue
            prev = _plain(str(f["value"]))
            if prev is not None and prev != value and abs(prev - value) < step and prev * value > 0:
                hits.append(e)
        if len({tuple(e.fields["of"]) for e in hits}) != 1:
            return False
        first = hits[0]
        sid = self.new_id(f"s-l{line}")
        fields: dict = {"kind": rel.kind, "statement": sentence[:_QUOTE], "of": list(first.fields["of"])}
        fields["value"] = Num(str(value) if value != int(value) or "." in n.text else str(int(value)))
        if n.about:
            fields["about"] = True
        fields["unit"] = "%" if rel.kind == "percent_change" else "x"
        fields["note"] = f"restates {first.id} ({first.fields['value']}) as rounded"
        fields.update(_where(line, sentence))
        self.out.entries.append(Entry("statement", sid, {"id": sid, **fields}))
        return True

    def share_claim(self, n: Number, text: str, s0: int, sentence: str, line: int) -> None:
        """A claim of a percentage "N% of X" where no claim of X is drafted ("busy 95% of the
        time"): its metric from the words near it (``metric_of``: share, acceptance_rate)."""
        metric = metric_of("%", text[max(0, n.start - 60) : n.start], text[n.end : n.end + 30]) or "share"
        cfields: dict = {"metric": metric, **_number_fields(n)}
        cond = _merged(self.context(), self.named_conditions(n.start, s0, sentence))
        if cond:
            cfields["conditions"] = cond
        cfields.update(_where(line, sentence))
        self.add_claim(cfields, f"{metric.replace('_', '-')}-l{line}")

    def change_claim(self, rel, text: str, s0: int, sentence: str, line: int) -> None:
        """A claim of a percent change whose sides the post does not state ("the dense model gets
        42% slower", "3.6–4.5% lower", "+18.8%"): ``decode_change`` / ``prefill_change`` where the
        words name the rate, else ``speed_change`` for faster/slower, else ``change``; the value
        signed (a range of a decrease is ``[-high, -low]``)."""
        n = rel.number
        lo, hi = self._clause_of(text, n.start, s0, sentence)
        metric = self._once(text, ("change", lo, hi, s0), lambda: _change_metric(text[lo:hi], sentence))
        fields = _number_fields(n)
        negative = rel.sign < 0
        if n.range is not None:
            low, high = (n.range[0].lstrip("+-−"), n.range[1].lstrip("+-−"))
            fields["range"] = [Num(f"-{high}"), Num(f"-{low}")] if negative else [Num(low), Num(high)]
        else:
            v = n.text.replace("−", "-").lstrip("+")
            fields["value"] = Num(f"-{v}" if negative and not v.startswith("-") else v)
        cfields: dict = {"metric": metric, **fields}
        cond = _merged(self.context(), self.named_conditions(n.start, s0, sentence))
        if cond:
            cfields["conditions"] = cond
        cfields.update(_where(line, sentence))
        self.add_claim(cfields, f"{metric.replace('_', '-')}-l{line}")

    def _scope(self) -> list[str]:
        """The claims a relating phrase may relate (the last 60 drafted: a post discusses its tables
        in later sections), one per number: a claim repeating an earlier one's metric, value and unit is left
        out (the post states the number once; the expected files cite the first)."""
        ids = self.claim_ids[-60:]
        seen: set[tuple] = set()
        out = []
        for cid in ids:
            f = self.claims[cid].fields
            unit = self.profile[cid][0]
            if family(unit) in ("ratio", "multiple", None) or "counts" in f:
                continue
            if self.rates_only and family(unit) != "rate":
                continue
            key = (self.metric_of_claim(cid), str(f.get("value") or f.get("range")), unit)
            if key in seen:
                continue
            seen.add(key)
            out.append(cid)
        return out

    def _named_in(self, words: str, ids: list[str], want: set[str] | None = None) -> list[str]:
        """Of ``ids``, those sharing most words with ``words`` (their label, conditions, metric's
        words; ``want``: ``_words(words)`` where known); all of them when none shares a word."""
        want = _words(words) if want is None else want
        scored = [(len(want & self.profile[c][1]), c) for c in ids]
        best = max((k for k, _ in scored), default=0)
        return [c for k, c in scored if k == best]

    def _value(self, cid: str) -> float | None:
        f = self.claims[cid].fields
        if f.get("value") is not None:
            return _plain(str(f["value"]))
        r = f.get("range")
        return (float(r[0]) + float(r[1])) / 2 if r else None

    def _implied(self, kind: str, a: str, b: str) -> float | None:
        """What a statement of ``kind`` over sides ``[a, b]`` computes to (a ratio, a change in %)."""
        va, vb = self._value(a), self._value(b)
        if va is None or vb is None or vb == 0 or va == 0:
            return None
        vb *= _factor(self.profile[b][0], self.profile[a][0])
        if kind == "ratio":
            return va / vb
        if kind == "percent_change":
            return (vb / va - 1) * 100
        return va - vb

    def _error(self, kind: str, implied: float | None, stated: float) -> float:
        """How far a pair's ``implied`` value is from the ``stated`` one, relative (ratios as
        multiples: -23.7% against -23% is 0.009)."""
        if implied is None:
            return float("inf")
        if kind == "percent_change":
            return abs((1 + implied / 100) - (1 + stated / 100)) / max(abs(1 + stated / 100), 1e-9)
        return abs(implied - stated) / max(abs(stated), 1e-9)

    def sides_in_scope(
        self, rel, text: str, s0: int, sentence: str, placed: _Placed
    ) -> tuple[list[str], str] | None:
        """The sides of a relating phrase whose sentence does not give both (``relation``), among
        the claims of the current part of the post (``_scope``), and a note saying how:

        * one number in its clause (the subject: "a 20% boost to 34 t/s", "jumps to 144 t/s
          (1.47x)"): the other side is an earlier claim of the same metric, on the side the change
          goes from (below it for a gain), the one the clause's words name (``_named_in``), else
          the one whose value gives the stated one (within 6%, 12% "about"), else the only one;
        * none: two claims of one metric that the clause's words name ("2.5x generation", "Median
          TTFT nearly triples"), from the one whose condition value the text names first to the
          other ("From 16 → 32 concurrency:" in the sentence or the line that introduces it), else
          ordered by value for the direction stated (a gain from the smaller to the larger), the
          only pair or the one whose value gives the stated one.

        None when no single pair remains (a todo lists the candidates)."""
        n = rel.number
        if rel.kind not in ("ratio", "percent_change") or n.range is not None:
            return None
        stated = _plain(n.text.replace("−", "-"))
        if stated is None:
            return None
        if rel.kind == "percent_change" and rel.sign < 0 and stated > 0:
            stated = -stated
        gain = stated > 0 if rel.kind == "percent_change" else (stated >= 1) == (rel.sign > 0)
        if rel.kind == "ratio" and rel.sign < 0:
            stated = 1 / stated if stated else stated
        tol = 0.12 if n.about else 0.06
        lo, hi = self._clause_of(text, n.start, s0, sentence)
        clause, clause_words = self._clause_words(text, lo, hi)
        measured = placed.measured()
        if measured.how_many(lo, hi) > 1:
            return None
        anchors = measured.within(lo, hi)
        if not anchors and _OPENS.fullmatch(text, lo, n.start):
            # the phrase opens its clause ("144 t/s (1.47x)", "2085 t/s PP — nearly 4× Ollama and
            # 3.8× mlx_lm"): the last number of the clauses before it, over clauses of other
            # multiples, is its subject
            cur = lo
            for _ in range(3):
                if cur <= s0:
                    break
                lo2 = self._clause_of(text, max(s0, cur - 2), s0, sentence)[0]
                last = measured.last_in(lo2, cur)
                if last is not None:
                    anchors, lo = [last], lo2
                    break
                if lo2 >= cur or not re.search(r"\d\s*(?:×|x\b|times)", text[lo2:cur]):
                    break  # a clause that is no other multiple: no subject before it
                cur = lo2
        if anchors:
            return self._from_subject(
                rel, anchors[0][1], text[lo : anchors[0][0].start], placed, gain, stated, tol
            )
        scope = self._scope()
        if len(scope) < 2:
            return None
        # the clause's words before it, within a window (its whole clause before each phrase was
        # quadratic in a long clause of many of them)
        subject_words = text[max(lo, n.start - _LABEL_WINDOW) : n.start]
        if _words(subject_words) - _GENERIC:
            named = self._named_in(subject_words, scope)
            if len(named) == 1:  # "MTP gives 40% more": the words before it name one claim, the subject
                found = self._from_subject(
                    rel, named[0], subject_words, placed, gain, stated, tol, must_fit=True
                )
                if found is not None:
                    return found
        named = self._named_in(clause, scope, clause_words)
        if len(named) == len(scope) and not clause_words & set().union(*(self.profile[c][1] for c in scope)):
            return None  # the clause names nothing the claims state: no pair to guess
        context = f"{self.lead_in} {clause}"
        ordered = self._condition_pairs(context, named)
        pairs = ordered or [
            (a, b) for i, a in enumerate(named) for b in named[i + 1 :] if self._comparable(a, b)
        ]
        oriented = []
        for a, b in pairs:
            va, vb = self._value(a), self._value(b)
            if va is None or vb is None or va == vb:
                continue
            larger_b = vb * _factor(self.profile[b][0], self.profile[a][0]) > va
            frm, to = (a, b) if ordered or larger_b == gain else (b, a)
            oriented.append([to, frm] if rel.kind == "ratio" else [frm, to])
        pick = self._pick(rel.kind, oriented, stated, tol)
        if pick is None:
            return None
        sides, how = pick
        return sides, f"sides: {how} of the claims the sentence names"

    def _from_subject(
        self,
        rel,
        subject: str,
        before_words: str,
        placed: _Placed,
        gain: bool,
        stated: float,
        tol: float,
        must_fit: bool = False,
    ) -> tuple[list[str], str] | None:
        """The sides of a phrase whose subject is known (``sides_in_scope``): the other side is an
        earlier claim of the subject's metric on the side the change comes from (below it for a
        gain), named by the words after the phrase (``rel.other``; of those, the ones differing from
        the subject only in what the words name) and the ones before the subject
        (``before_words``), then the only one or the one whose value gives ``stated`` (the only one
        too where ``must_fit``: a subject named by words alone, not by its number)."""
        if subject not in self.claims:
            return None
        vs = self._value(subject)
        end = rel.number.end  # a claim stated after the phrase is no side it comes from
        others = [
            c
            for c in self._scope()
            if self._comparable(c, subject) and c != subject and placed.last.get(c, -1) <= end
        ]
        if vs is None:
            return None
        # the other side is where the change comes from: below the subject for a gain
        others = [
            c
            for c in others
            if (v := self._value(c)) is not None
            and v * _factor(self.profile[c][0], self.profile[subject][0]) != vs
            and ((v * _factor(self.profile[c][0], self.profile[subject][0]) < vs) == gain)
        ]
        other_words = _side_names(rel.other)
        if other_words:  # "2.4 times this PC's plain decoding": the claims those words name
            others = [c for c in others if other_words & self.profile[c][1]]
            # "2085 t/s PP — nearly 4× Ollama": of those, the ones differing from the subject
            # only in what the words name (the engine), not in model or quant as well
            mine = self.flat_conditions(subject)
            alike = [
                c
                for c in others
                if all(
                    v == mine[k] or _words(str(v)) <= other_words
                    for k, v in self.flat_conditions(c).items()
                    if k in mine
                )
            ]
            others = alike or others
        if not others:
            return None
        named = self._named_in(before_words, others)
        pick = self._pick(
            rel.kind,
            [([subject, c] if rel.kind == "ratio" else [c, subject]) for c in named],
            stated,
            tol,
            must_fit,
        )
        if pick is None:
            return None
        sides, how = pick
        return sides, f"the other side: {how} before it in the post"

    def _comparable(self, a: str, b: str) -> bool:
        """Whether two claims may be the sides of one comparison: one metric, units of one family,
        and, for table cells, one column (a mean and a median TTFT are not compared)."""
        ga, gb = self.claims[a].group, self.claims[b].group
        return (
            self.metric_of_claim(a) == self.metric_of_claim(b)
            and family(self.profile[a][0]) == family(self.profile[b][0])
            and (ga is None or gb is None or ga == gb)
        )

    def _pick(
        self, kind: str, options: list[list[str]], stated: float, tol: float, must_fit: bool = False
    ) -> tuple[list[str], str] | None:
        """Of candidate sides, the only one, or the one whose value gives ``stated`` (within
        ``tol``, and clearly closer than the next; the only one too where ``must_fit``); None
        otherwise."""
        options = [o for i, o in enumerate(options) if o not in options[:i]]
        if len(options) == 1 and not must_fit:
            return options[0], "the only pair"
        scored = sorted(
            (self._error(kind, self._implied(kind, o[0], o[1]), stated), k) for k, o in enumerate(options)
        )
        if not scored or scored[0][0] > tol:
            return None
        if len(scored) > 1 and scored[1][0] <= 2 * scored[0][0] + 0.01:
            return None
        return options[scored[0][1]], "the pair whose values give the stated value"

    def _condition_pairs(self, context: str, ids: list[str]) -> list[tuple[str, str]]:
        """Pairs of ``ids`` told apart by one condition whose two values the ``context`` names in
        order ("From 16 → 32 concurrency": concurrency 16, then 32), the first named first."""
        flat = {c: self.flat_conditions(c) for c in ids}
        low = context.lower()
        pairs: list[tuple[str, str]] = []
        for path in {p for f in flat.values() for p in f}:
            where: dict[object, int] = {}
            for f in flat.values():
                v = f.get(path)
                if v is None or isinstance(v, bool) or v in where:
                    continue
                m = re.search(rf"(?<![\w.-]){re.escape(str(v).lower())}(?![\w.])", low)
                if m:
                    where[v] = m.start()
            if len(where) != 2:
                continue
            v1, v2 = sorted(where, key=lambda v: where[v])
            for a in ids:
                if flat[a].get(path) != v1:
                    continue
                for b in ids:
                    if (
                        flat[b].get(path) == v2
                        and self._comparable(a, b)
                        and all(flat[b].get(k) == x for k, x in flat[a].items() if k != path and k in flat[b])
                    ):
                        pairs.append((a, b))
        return pairs

    def scope_candidates(self, rel, text: str, s0: int, sentence: str) -> list[str]:
        """The claims of the current part of the post a todo lists for a relating phrase whose
        sides were not found: those its clause's words name (none when it names none), at most 6."""
        lo, hi = self._clause_of(text, rel.number.start, s0, sentence)
        scope = self._scope()
        want = self._clause_words(text, lo, hi)[1]
        scored = sorted(((len(want & self.profile[c][1]), c) for c in scope), key=lambda x: -x[0])
        best = scored[0][0] if scored else 0
        if best == 0:
            return []
        named = [c for k, c in scored if k == best]
        return named[:6] if len(named) >= 2 else []

    def mean_statement(
        self, n: Number, metric: str, text: str, line: int, sentence: str, here: set[str]
    ) -> bool:
        """A number stated as the average of numbers listed before it ("This gives a 89.76 tok/s
        average" after nine per-prompt rates): a mean word within 30 characters (``_MEAN``), and
        the last two or more claims of its metric and unit family drafted before this paragraph
        (the longest such run, not crossing a claim of the metric from another table column) whose
        mean rounds to it (within half a unit of its last digit; 5% for "about"): a ``mean``
        statement citing them, no claim.  True when drafted."""
        if n.range is not None or n.spread is not None or n.unit is None:
            return False
        if not _MEAN.search(text[max(0, n.start - 30) : n.end + 30]):
            return False
        value = _plain(n.text)
        if value is None:
            return False
        members: list[str] = []
        for cid in reversed(self.claim_ids[-60:]):
            if cid in here:
                continue
            if self.metric_of_claim(cid) != metric or family(self.profile[cid][0]) != family(n.unit):
                continue
            if members and self.claims[cid].group != self.claims[members[-1]].group:
                break
            members.append(cid)
        members.reverse()
        step = 10.0 ** -(len(n.text.split(".")[1]) if "." in n.text else 0)
        tol = value * 0.05 if n.about else step / 2 + 1e-9
        for k in range(len(members), 1, -1):
            chosen = members[-k:]
            values = [self._value(c) for c in chosen]
            if any(v is None for v in values):
                continue
            mean = (
                sum(
                    (v or 0) * _factor(self.profile[c][0], n.unit)
                    for v, c in zip(values, chosen, strict=True)
                )
                / k
            )
            if abs(mean - value) <= tol:
                sid = self.new_id(f"s-l{line}")
                fields: dict = {
                    "kind": "mean",
                    "statement": sentence[:_QUOTE],
                    "of": chosen,
                    "value": Num(n.text),
                }
                if n.about:
                    fields["about"] = True
                fields["unit"] = n.unit
                fields["note"] = f"the mean of the {k} claims of {metric} before it"
                fields.update(_where(line, sentence))
                self.out.entries.append(Entry("statement", sid, {"id": sid, **fields}))
                return True
        return False

    def multiple_claim(self, n: Number, sign: int, s0: int, sentence: str, line: int) -> None:
        """A ``speedup`` (``slowdown`` for "slower", "regression") claim of a multiple whose sides
        the post does not state ("nearly 2x faster"), under the conditions the section and the
        sentence name.  "the 15× headline" restating a multiple the post stated before (one claim
        of that value and unit) is that claim: nothing new drafted."""
        metric = "slowdown" if sign < 0 else "speedup"
        if n.range is None and _ends_with(_RESTATED, sentence, max(0, n.start - s0)):
            same = self.by_value.get((str(Num(n.text.lstrip("+"))), n.unit), [])
            if len(same) == 1 and self.claims[same[0]].fields.get("metric") == metric:
                return
        cfields: dict = {"metric": metric, **_number_fields(n)}
        cond = _merged(self.context(), self.named_conditions(n.start, s0, sentence))
        if cond:
            cfields["conditions"] = cond
        cfields.update(_where(line, sentence))
        self.add_claim(cfields, f"{metric}-l{line}")

    def command_after_table(self, conditions: dict) -> None:
        """A command line right after a table (only a label such as "Server command:" between) that
        no command line preceded: its conditions are the table's groups' (under what they state)."""
        for gid in self.open_table or []:
            fields = self.groups[gid].fields
            fields["conditions"] = _merged(conditions, fields.get("conditions") or {})
        self.open_table = None

    def bound_statement(
        self, n: Number, relation: str, metric: str, cond: dict, line: int, sentence: str
    ) -> None:
        """A ``bound`` statement for a number written as a bound ("40+ tok/s", "<9%", "at least 12
        GB", ``draftprose.bound_of``): every claim of ``metric`` under the conditions the sentence
        and section name (``cond``, its plain top-level values) is ``relation`` (below | above) the
        number, in its unit (``schema.Statement``; docs/claims.md, "bound")."""
        numerator: dict[str, object] = {"metric": metric}
        numerator.update(
            {k: v for k, v in cond.items() if k != "other" and isinstance(v, str | int | float | bool)}
        )
        fields: dict = {
            "kind": "bound",
            "statement": sentence[:_QUOTE],
            "over": {"numerator": numerator},
            "relation": relation,
            "value": Num(n.text.lstrip("+")),
        }
        if n.about:
            fields["about"] = True
        fields["unit"] = n.unit
        fields.update(_where(line, sentence))
        sid = self.new_id(f"s-l{line}")
        self.out.entries.append(Entry("statement", sid, {"id": sid, **fields}))

    def plain_baseline(self, sides: list[str]) -> None:
        """A comparison of a speculative side with one whose decoding is not stated compares it with
        plain decoding ("85 t/s, and with a draft model it reached 141 t/s, 1.66x faster"): the
        other side's ``decoding`` is set to plain (a prose claim of its own, not a table row)."""
        decodings = [self.flat_conditions(c).get("decoding") for c in sides]
        if sorted(map(str, decodings)) != ["None", "speculative"]:
            return
        other = self.claims[sides[decodings.index(None)]]
        if other.group is None:
            other.fields.setdefault("conditions", {})["decoding"] = "plain"
            if self._flat is not None:
                self._flat.pop(other.id, None)
                self._values = None

    def flat_conditions(self, cid: str) -> dict[str, object]:
        """A drafted claim's conditions (its group's under its own), flat: ``{"build": "b4000",
        "offload.n_gpu_layers": 99}``; not to be changed (while relations are drafted, one dict
        per claim is kept in ``_flat``: each relation read those of the last ``_REACH`` claims)."""
        if self._flat is not None and cid in self._flat:
            return self._flat[cid]
        entry = self.claims[cid]
        shared = self.groups[entry.group].fields.get("conditions", {}) if entry.group in self.groups else {}
        out: dict[str, object] = {}

        def walk(d: dict, prefix: str) -> None:
            for k, v in d.items():
                if isinstance(v, dict):
                    walk(v, f"{prefix}{k}.")
                else:
                    out[f"{prefix}{k}"] = v

        walk(_merged(shared, entry.fields.get("conditions", {})), "")
        if self._flat is not None:
            self._flat[cid] = out
        return out

    def metric_of_claim(self, cid: str) -> str | None:
        entry = self.claims[cid]
        shared = self.groups[entry.group].fields if entry.group in self.groups else {}
        return entry.fields.get("metric") or shared.get("metric")

    def sides_by_condition(self, subject: str, other: str, sentence: str) -> tuple[str, str] | None:
        """The two claims a comparison names by the values of one condition: a value of it in the
        words before the stated number (``subject``: "b11434 is about") and another in the words
        naming the other side (``other``: "b4000"), each the condition of a drafted claim (among
        the last ``_REACH``) that agrees with the other on metric and every other condition both
        state (the sides differ in the one condition named; one stated on one side only is not
        different).  Of several such pairs (a table of pp and tg per
        build) the one of the metric the sentence names ("prompt processing"); None when no
        single pair remains."""
        recent = self.claim_ids[-_REACH:]
        low_s, low_o = subject.lower(), other.lower()

        def said(value: str, words: str) -> bool:
            return re.search(rf"(?<![\w.-]){re.escape(value.lower())}(?![\w])", words) is not None

        values = self._recent_values()
        in_subject = [(p, v) for p, v in values if said(v, low_s)]
        in_other = [(p, v) for p, v in values if said(v, low_o)] if in_subject else []
        flat = {cid: self.flat_conditions(cid) for cid in recent} if in_other else {}
        pairs: list[tuple[str, str]] = []
        for p, v1 in in_subject:
            for p2, v2 in in_other:
                if p2 != p or v1 == v2:
                    continue
                for a in recent:
                    if flat[a].get(p) != v1:
                        continue
                    for b in recent:
                        if (
                            flat[b].get(p) == v2
                            and self.metric_of_claim(a) == self.metric_of_claim(b)
                            and all(flat[b][k] == x for k, x in flat[a].items() if k != p and k in flat[b])
                        ):
                            pairs.append((a, b))
        pairs = list(dict.fromkeys(pairs))
        if len(pairs) > 1:
            named = [
                m
                for m, words in _METRIC_WORDS_OF.items()
                if re.search(rf"\b(?:{words.replace(' ', '|')})", sentence, re.I)
            ]
            pairs = [(a, b) for a, b in pairs if self.metric_of_claim(a) in named] if len(named) == 1 else []
        return pairs[0] if len(pairs) == 1 else None

    def _recent_values(self) -> list[tuple[str, str]]:
        """The (condition, value) pairs of string values of two characters or more that the last
        ``_REACH`` claims state (``flat_conditions``; ``sides_by_condition``).  While the relations
        of a paragraph are drafted the pairs are counted once and the count moved along as claims
        are added (``_values``): read from every recent claim per phrase, a paragraph of thousands
        of phrases read millions of conditions."""

        def pairs(k: int) -> list[tuple[str, str]]:
            f = self.flat_conditions(self.claim_ids[k])
            return [(p, v) for p, v in f.items() if isinstance(v, str) and len(v) >= 2]

        n = len(self.claim_ids)
        lo = max(0, n - _REACH)
        if self._flat is None:  # not within a paragraph's relations: read them all
            return list({pair for k in range(lo, n) for pair in pairs(k)})
        a, b, counts = self._values if self._values is not None else (lo, lo, {})
        for k in range(max(a, b, lo), n):
            for pair in pairs(k):
                counts[pair] = counts.get(pair, 0) + 1
        for k in range(a, min(b, lo)):
            for pair in pairs(k):
                counts[pair] -= 1
                if not counts[pair]:
                    del counts[pair]
        self._values = (lo, n, counts)
        return list(counts)

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
        first = max(0, len(self.claim_ids) - _REACH)
        shared: dict[int, int] = {}  # where in claim_ids -> how many of the words its profile holds
        for word in _words(words):  # from the index: per phrase, every recent profile was read
            at = self.by_word.get(word, [])
            for k in at[bisect.bisect_left(at, first) :]:
                shared[k] = shared.get(k, 0) + 1
        out = []
        for k in sorted(shared):
            cid = self.claim_ids[k]
            if cid in exclude or (fam is not None and family(self.profile[cid][0]) != fam):
                continue
            out.append((shared[k], cid))
        return sorted(out, key=lambda x: -x[0])

    def candidates(self, words: str, exclude: set[str]) -> list[str]:
        return [cid for _, cid in self.scored(words, exclude)[:4]]

    def rate_lines(self, lines: list[tuple[int, str]], skip: set[int]) -> None:
        """Lines of program output stating "N tokens in T s ... R t/s" (``_RATE_LINE``:
        llama-speculative's "decoded 202 tokens in 2.533 seconds, speed: 79.745 t/s") drafted as
        prose, each line alone: the tokens, the time and the rate, and the rate as their ratio."""
        for n, t in lines:
            if n not in skip and _RATE_LINE.search(t):
                self.prose([(n, t)])

    def tokens_over_time(
        self, placed: list[tuple[Number, str]], text: str, line_of, bounds: list[int] | None = None
    ) -> None:
        """ "N tokens in T s (R t/s)": the rate R is stated as N ÷ T, a ratio statement of the two
        claims (tokens, then the time), in R's unit; ``bounds``: ``_sentence_bounds(text)``."""
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
                **_where(line, _sentence(text, nr.start, bounds)),
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
        cond = _merged(self.conditions(), r.conditions)
        if cond:
            fields["conditions"] = cond
        if log:
            fields["log"] = log
        fields.update(_where(r.line, self.post.line(r.line)))
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
                    cond = _merged(f.get("conditions") or {}, r.conditions)
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
                (on_rate_lines if _RATE_LINE.search(text_of[r.line]) else stated).append(r)
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

    def first_stated(self, cid: str) -> str:
        """The claim a table cell's claim ``cid`` repeats: the one claim of the prose before it with
        the same value and unit ("101 tok/s" in the title, then in a table row: SOURCES.md, "a
        number the post repeats with the same digits cites the first claim"), else ``cid``."""
        e = self.claims.get(cid)
        if e is None or e.group is None:
            return cid
        shared = self.groups[e.group].fields
        value = e.fields.get("value") or "–".join(e.fields.get("range") or ())
        same = self.by_value.get((str(value), e.fields.get("unit") or shared.get("unit")), [])
        first = [c for c in same if c != cid and self.claims[c].group is None]
        if len(first) == 1 and same.index(first[0]) < same.index(cid):
            return first[0]
        return cid

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
                value = _plain(stated) or 0.0
                pairs = [
                    (t, d)
                    for t in tokens
                    for d in times
                    if (_plain(str(d.fields["value"])) or 0) > 0
                    and abs(
                        (_plain(str(t.fields["value"])) or 0) / (_plain(str(d.fields["value"])) or 1) - value
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
                    **_where(line, str(rate.fields.get("quote") or "")),
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
        itself.  The claims go where the log is in the post."""
        cited = {e.fields.get("log") for e in self.out.entries if e.kind == "claim"}
        into: dict[int, list[Entry]] = {}  # where -> the claims that go there, the earlier log's first
        for at, timed, log in reversed(self.timing_logs):
            if log in cited:
                continue
            before = len(self.out.entries)
            for r in timed:
                self.result_claim(r, log)
            into[at] = self.out.entries[before:] + into.get(at, [])
            del self.out.entries[before:]
        if into:  # put in at once: one insertion per log moved every entry after it, per log
            entries, self.out.entries = self.out.entries, []
            for k in range(len(entries) + 1):
                self.out.entries += into.get(k, [])
                if k < len(entries):
                    self.out.entries.append(entries[k])


#: label cells that name one condition whatever the column's header says: quantisations, llama.cpp
#: builds
_CELL_KINDS = (
    ("quant", re.compile(r"(?:UD-)?I?Q\d(?:_[A-Z0-9]+)*|BF16|F16|F32|FP8|MXFP4", re.IGNORECASE)),
    ("build", re.compile(r"b\d{4,5}")),
)


#: a table column's header that relates numbers (its cells are multiples or changes)
_RELATING_HEADER = re.compile(
    r"\bvs\.?\b|versus|speed-?up|gain|change|delta|Δ|diff|ratio|relative|improvement|uplift|"
    r"faster|slower|boost|loss|\bx\b|×",
    re.IGNORECASE,
)
#: the words right before a number that restate one already given: "not the 15× headline", "that
#: 2x figure"
_RESTATED = re.compile(
    r"\b(?:the|that|this|those|these|its|their)\s+(?:same\s+|quoted\s+|claimed\s+)?$", re.I
)

#: a row label naming the baseline of a table's comparisons
_BASELINE = re.compile(
    r"\b(?:baseline|base|plain|vanilla|autoregressive|without|no[- ]?(?:spec|draft|mtp)|spec[- ]?off|off)\b",
    re.IGNORECASE,
)


def _relating_column(header: str, cells: list[str]) -> bool:
    """Whether a table column of multiples or percentages relates the row's numbers: its header
    says so (``_RELATING_HEADER``: "vs baseline", "Speedup", "Gain", "Δ") or its cells are signed
    ("+6.2%", "-11%"); an acceptance or utilisation column is a quantity of its own."""
    if re.search(r"accept|util|share|hit|rate\b|occupancy|load", header, re.IGNORECASE):
        return False
    signed = [c for c in cells if re.match(r"\s*\**\s*[+\-−]\s*\d", c)]
    return bool(_RELATING_HEADER.search(header)) or (bool(cells) and len(signed) >= max(1, len(cells) // 2))


def _cells_condition(cells: list[str]) -> str | None:
    """The condition a table's label column sets when every cell of it is one kind of name
    (``_CELL_KINDS``: a quant column headed "양자화 포맷", a build column headed "version"), or
    ``hardware`` when every cell names hardware (``draftnames.mentions``); None otherwise."""
    if not cells:
        return None
    for path, pat in _CELL_KINDS:
        if all(pat.fullmatch(c.strip().strip("*`")) for c in cells):
            return path
    if all(any(m.path == "hardware" and m.start == 0 for m in mentions(c.strip())) for c in cells):
        return "hardware"
    return None


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


#: a table header naming a setting as a flag does: words joined by "-" or "_" ("draft-p-min", "n_ctx")
_SETTING_HEADER = re.compile(r"^\s*-{0,2}[A-Za-z]+(?:[-_][A-Za-z]+)+\s*$")


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
        _set(out, path, value)
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


def _factor(unit: str | None, to: str | None) -> float:
    """``units.factor`` (970 MB in GB: 0.97), 1 where the units are not of one known quantity."""
    try:
        return factor(unit, to)
    except UnitError:
        return 1.0


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


@functools.lru_cache(maxsize=512)  # asked for each column of a table more than once
def _header_unit(header: str) -> str | None:
    """The unit a table header names: after a number put before it, as a unit written alone, in
    parentheses of any script ("推理速度（token/s）"), or in words ("每秒生成的令牌数", tokens per
    second: ``toollines.label_unit``); a count of tokens or layers only where written first."""
    for n in numbers("1 " + re.sub(r"[()\[\]（）]", " ", header)):
        if n.unit and n.start == 0:
            return n.unit
    named = label_unit(header)
    if named is not None and family(named) not in ("tokens", "layers"):
        return named
    # a unit after a number of the header is that number's, not the column's: "Theoretical max (5.1 GB
    # model)" holds rates of a 5.1 GB model
    m = re.search(r"(?<![\d.]\s)(?<![\d.])(tok/s|t/s|tokens/s|tps|GiB|GB|MiB|MB|ms|%)", header, re.IGNORECASE)
    if m:
        low = m.group(1).lower()  # "Output Tok/s", "Speed (T/S)": the unit as a claims file writes it
        spelled = {"tokens/s": "tok/s", "tps": "tok/s", "gib": "GiB", "gb": "GB", "mib": "MiB", "mb": "MB"}
        return spelled.get(low, low)
    if re.search(r"\b(?:tg|pp)\s?\d*\s?/\s?s\b", header, re.IGNORECASE):
        return "t/s"  # "TG/s", "PP/s": llama-bench's tests (prompt processing, generation) as rates
    if re.fullmatch(r"\W*(?:ppl|perplexity)\b.*", header, re.IGNORECASE):
        return "PPL"
    if re.search(r"(?:\(|\s)(?:sec|seconds|s)\)?$", header.strip(), re.IGNORECASE):
        return "s"  # "Time (s)", "T_PP s" (llama-sweep-bench's time columns)
    return None


def _names_metric(label: str) -> bool:
    """Whether a table label names a metric: a unit (``_header_unit``), a rate's or test's words
    (``_metric_header``), or acceptance/latency words."""
    return bool(
        _header_unit(label)
        or _metric_header(label)
        or re.search(r"accept|latency|ttft|throughput|吞吐|速度", label, re.IGNORECASE)
    )


def _rate_columns(header: list[str], body: list[list[str]], kinds: list[str], j: int) -> dict[int, str]:
    """A table's columns of numbers with a unit other than j's, a multiple, a percentage or a
    fraction, and not relating ones: column -> its unit's family ("rate", "size", ...)."""
    out: dict[int, str] = {}
    for k, h in enumerate(header):
        if k == j or kinds[k] not in ("value", "lead"):
            continue
        cells = [r[k] for r in body if k < len(r) and not _EMPTY.match(r[k])]
        u = _header_unit(h) or next((n.unit for c in cells for n in numbers(c)[:1] if n.unit), None)
        if u is not None and u not in ("x", "%", "ratio") and not _relating_column(h, cells):
            out[k] = family(u) or u
    return out


#: a column of percentages that are one column of the row over another: "Efficiency", "Utilization"
_EFFICIENCY_HEADER = re.compile(r"\b(?:efficiency|utili[sz]ation|of (?:theoretical|peak|max))\b", re.I)
#: the header of the column an efficiency is taken of: "Theoretical max", "Peak", "Roofline"
_CEILING_HEADER = re.compile(r"\b(?:theoretical|theory|max(?:imum)?|peak|ceiling|roofline|limit)\b", re.I)


def _efficiency_sides(
    header: list[str], body: list[list[str]], kinds: list[str], j: int
) -> tuple[int, int] | None:
    """The two columns an "Efficiency" column of percentages relates in each row (``_EFFICIENCY_HEADER``):
    (the measured column, the ceiling column), two columns of one unit family of which exactly one
    names a ceiling ("Theoretical max | Observed | Efficiency": observed over theoretical, 101 /
    160 = 63%); else None."""
    if not _EFFICIENCY_HEADER.search(header[j]):
        return None
    cols = _rate_columns(header, body, kinds, j)
    for fam in set(cols.values()):
        same = [k for k, f in cols.items() if f == fam]
        ceiling = [k for k in same if _CEILING_HEADER.search(header[k])]
        if len(same) == 2 and len(ceiling) == 1:
            return next(k for k in same if k != ceiling[0]), ceiling[0]
    return None


def _relation_sides(
    header: list[str], body: list[list[str]], kinds: list[str], j: int, unit: str
) -> str | None:
    """How a table's relating column ``j`` (multiples "x" or changes "%": "vs baseline",
    "Speedup") finds the two sides of each cell in the table: "pair" (two rate columns of one unit
    in the row: "Standard t/s | TurboQuant t/s | Gain"), "row" (one rate column, and a row to read
    as the baseline: labelled baseline/plain/off/no-spec, or whose cell is 1× / 0%), else None: the
    other side is not in the table ("Baseline | Best speedup" with the speculative rate not given,
    or no baseline row), so the cells are claims of the change, not statements with guessed sides
    (issue 29: a self-ratio and other rows' baselines were cited)."""
    rate_units = _rate_columns(header, body, kinds, j)
    fams = list(rate_units.values())
    if any(fams.count(f) >= 2 for f in fams):
        return "pair"
    if len(rate_units) != 1 or _BASELINE.search(header[next(iter(rate_units))]):
        return None  # "Baseline | Best speedup": the row's other rate is not in the table
    kinds_of_rows = [
        " ".join(c for k, c in enumerate(row[: len(header)]) if kinds[k] == "label" and not _EMPTY.match(c))
        for row in body
    ]
    if any(_BASELINE.search(lab) for lab in kinds_of_rows):
        return "row"
    one = 1.0 if unit == "x" else 0.0
    if any(_plain(n.text) == one for row in body if j < len(row) for n in numbers(row[j])[:1]):
        return "row"
    return None


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


def _tokens_column(header: str, cells: list[str]) -> str | None:
    """ "tokens" for a column of whole numbers under a header naming tokens in any script and no
    rate ("総トークン", "Total tokens"; not "トークン速度", "tok/s"); else None.  A header a table's
    label names (``LABELS``: "Tokens", "Output tokens") is the tokens generated, a condition."""
    if not re.search(r"トークン|토큰|令牌|токен|\btokens?\b", header, re.IGNORECASE):
        return None
    if re.search(r"/|速度|per\b|rate|秒|초|speed|throughput", header, re.IGNORECASE):
        return None
    ok = cells and all(re.fullmatch(r"\s*[\d,]+\s*", c) for c in cells)
    return "tokens" if ok else None


def _transposed(rows: list[list[str]]) -> str | None:
    """How a table is laid out when its metrics are rows: "rows" (the first column names metrics,
    "Avg tok/s", "MTP accept", in two or more rows and in more rows than the header names
    configurations with a unit: a transposed table, configurations as columns), "keyvalue" (two
    columns, the header row itself a metric and its value: "| 吞吐（tokens/s） | 1581 |"), else None.
    Issue 29's corpus: p04, p52."""
    header, body = rows[0], rows[1:]
    if len(header) == 2 and _names_metric(header[0]) and re.fullmatch(r"[~≈]?\s*[\d.,]+\s*", header[1]):
        return "keyvalue"
    if any(_names_metric(h) and not _RELATING_HEADER.search(h) for h in header[1:]):
        return None  # a "% Difference" column relates the configurations: no metric of its own
    # a row's first cell names a metric ("Avg tok/s"), it is no value ("12 tok/s" under "Speed")
    naming = sum(
        1 for r in body if r and _names_metric(re.sub(r"[*_`]", "", r[0])) and not re.match(r"\W*\d", r[0])
    )
    return "rows" if naming >= 2 and naming * 2 >= len(body) else None


#: a table header naming a measurement ("TTFT", "Duration", "Latency"): its numbers are results,
#: never a row's condition, and listed as unplaced where the header gives no unit
_MEASURE_HEADER = re.compile(
    r"\b(?:ttft|tpot|itl|e2el?|latency|duration|elapsed|time|wall|ppl|perplexity|throughput|speed|"
    r"memory|vram|accuracy|score)\b|耗时|时间|延迟|時間|速度|시간",
    re.IGNORECASE,
)
#: the header of a two-column table of settings ("| Setting | Value |", "| Component | Spec |")
_SETTINGS_HEADER = (
    re.compile(
        r"^\W*(?:settings?|parameters?|params?|options?|config(?:uration)?|keys?|items?|specs?|"
        r"components?|hardware|system|environment|env|property|name)\W*$",
        re.IGNORECASE,
    ),
    re.compile(
        r"^\W*(?:values?|settings?|config(?:uration)?|specs?|details?|spec(?:ification)?s?)\W*$",
        re.IGNORECASE,
    ),
)


def _settings_table(header: list[str], body: list[list[str]]) -> bool:
    """Whether a table lists settings, not results: two columns under a settings header
    (``_SETTINGS_HEADER``: "| Setting | Value |") and no row naming a metric ("| Decode | 41 t/s |"
    is a result whatever the header)."""
    if len(header) != 2 or not all(p.match(h) for p, h in zip(_SETTINGS_HEADER, header, strict=True)):
        return False
    return not any(
        r
        and (
            _names_metric(r[0])
            or any(family(n.unit) in ("rate", "ratio", "multiple") for n in numbers(r[-1]))
        )
        for r in body
    )


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


def _metric_header(header: str) -> bool:
    return bool(re.search(r"\b(?:pp|tg)\s?\d+\b|speed|throughput|tok/s|t/s", header, re.IGNORECASE))


_PLAIN_NUMBER = re.compile(r"-?(\d+)(?:\.(\d+))?")


def _plain(text: str | None) -> float | None:
    """A drafted number's value when a claims file can state it (finite, at most 15 digits before
    and after the point: ``schema.Claim.decimals``), else None."""
    if text is None:
        return None
    m = _PLAIN_NUMBER.fullmatch(text)
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


def _change_metric(clause: str, sentence: str) -> str:
    """The metric of a percent change whose sides are not stated (``_Drafter.change_claim``), from
    the words of its ``clause``, else of its ``sentence``."""
    words = clause.lower()
    if not re.search(
        r"prefill|prompt|\bpp|decod|generat|\btg|output|fast|slow|speed|throughput|rate|速|遅|快|慢|领先|优",
        words,
    ):
        words = sentence.lower()  # "Rates 40.1 / 41.3 tok/s, +12% over last week": the sentence's
    if re.search(r"prefill|prompt|\bpp\b|pp\d", words):
        return "prefill_change"
    if re.search(r"decod|generat|\btg\b|tg\d|output", words):
        return "decode_change"
    if re.search(r"fast|slow|speed|throughput|t/s|tok/s|rate|速|遅|快|慢|领先|优", words):
        return "speed_change"  # "10%程度高速化", "15%程度遅くなった", "略优 4–5%"
    return "change"


def _ends_with(pattern: re.Pattern, text: str, end: int) -> bool:
    """Whether ``pattern``, anchored at its end (``$``) and spanning at most two words of up to 16
    characters and the spaces after each (``_RESTATED``: "the same "), matches ``text[:end]``:
    searched from two words before ``end``, not from the start (per number of a long sentence that
    was quadratic); ``\\b`` still sees the character before where the search starts."""
    i = end
    for _ in range(2):
        while i > 0 and text[i - 1].isspace():
            i -= 1
        k = max(0, i - 16)
        while i > k and not text[i - 1].isspace():
            i -= 1
    return pattern.search(text, max(0, i - 16), end) is not None


#: the most characters of its sentence an entry quotes (``quote``, a statement's ``statement``): a
#: sentence of thousands of numbers quoted whole by each made the claims file quadratic in it
_QUOTE = 500


def _where(line: int, quote: str) -> dict:
    cut = quote.strip()[:_QUOTE]
    return {"source_line": line, "quote": cut} if line else {"quote": cut}


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
