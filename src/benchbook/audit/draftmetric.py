"""Which rate a drafted rate claim is: one stream's or many streams' (``benchbook claims draft``).

The words a post labels a rate with ("Throughput", "tok/s") do not say whether it is one request's
generation rate or a rate summed over requests; the conditions around it do.  The draft corpus's
convention (tests/fixtures/draft_corpus/SOURCES.md, its header; the same as vLLM's benchmark
output): a generation rate of one stream or one request is ``decode_tps`` whatever its label
("Throughput", SGLang's "Throughput:", "TPS per request"); ``throughput`` is a rate summed over a
batch or concurrent requests, or taken over wall time ("Output token throughput", "avg throughput"
of a batched rollout, "wall" rates).

``settle_rates`` is a pass over the drafted claims once their context is filled in
(``draftcontext.fill``), so a concurrency a table row, a list of settings or a heading states is
known:

* a rate of several streams (a table row's own ``concurrency`` above 1, or the words "8-stream",
  "8 concurrent", "batch size 8" in its sentence) is ``throughput``, unless the words name one
  request or stream ("per request", "per user", "single stream", "на запрос") or its label names the
  decode phase ("tg t/s", "decode": llama-benchy's per-request rates at c2/c4);
* a rate labelled as a sum or a wall-clock rate ("total TPS", "aggregate", "wall", "общий TPS", or
  after it: "98 tok/s cumulative") is ``throughput``;
* a peak rate ("peak TPS", "Tokens/Sec (Peak)") is ``peak_throughput`` unless its words name one
  stream ("single stream peak": ``decode_tps``);
* a rate labelled only "throughput" (no word of a sum: total, aggregate, overall, avg, system,
  wall, output token, batch; 吞吐 under a batch) with nothing saying several streams ran is
  ``decode_tps``.

Beside it, passes of the same kind for sizes and times: ``settle_sizes`` (``ollama ps``'s SIZE
is ``memory_used``), ``settle_times`` (a time that is 1000 ÷ the rate beside it is per token) and
``settle_stat_columns`` (a "標準偏差" or "min/max" column of times is the metric of the column it
describes); ``settle_phases`` for exllama's result lines under its "-- Measuring prompt speed"
section lines; and ``settle_tests`` for the lengths a llama-bench test's name fixes (pp512, tg128).

Where it sits: ``draft._Drafter.run`` calls them after ``fill``; it reads and changes
``draftcore.Entry``/``Group`` fields only.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence

from .draftcore import Entry, Group, merged
from .draftprose import family, numbers
from .draftwords import settings_in_words

#: words naming one request or stream: its rate is one stream's whatever ran beside it
_ONE_STREAM = re.compile(
    r"\bper[- ](?:request|req|user|stream|sequence|seq|client)\b|\bsingle[- ](?:stream|request|user)\b|"
    r"\bone (?:stream|request|user)\b|на запрос|на поток|每(?:个)?请求|单(?:个)?请求|单流|"
    r"リクエストあたり|요청당",
    re.IGNORECASE,
)
#: words naming several streams run at once, with their count: "8-stream", "8 concurrent requests",
#: "batch size 8", "at 64 parallel requests", "c8"/"C8" (llama-benchy's and serving tables' labels)
_STREAMS = re.compile(
    r"\b(?P<a>\d+)[-\u2010\u2011 ](?:streams?|concurrent|parallel|users|clients|simultaneous)\b|"
    r"\bbatch(?:[ _-]?size)?\s*(?:=|:|of)?\s*(?P<b>\d+)\b|"
    r"\bconcurrency\s*(?:=|:|of)?\s*(?P<c>\d+)\b|(?<![\w.])[cC](?P<d>\d{1,4})\b|"
    r"(?P<e>\d+)\s*(?:параллельн\w*|одновременн\w*)\s+запрос|并发\s*(?:数)?\s*(?P<f>\d+)|(?P<g>\d+)\s*并发|"
    r"同時(?:実行|リクエスト|接続|ユーザー)数?\s*(?P<j>\d+)|同時\s?(?P<k>\d+)\s*(?=の|並列|リクエスト|ユーザー|接続|件)|"
    r"\b(?:at|with|при)\s+(?P<h>\d+)\s+(?:concurrent\s+|parallel\s+)?(?:requests|запрос\w*)|"
    # SGLang's scheduler line: "#running-req: 8" (the requests its decode batch ran)
    r"#running-req:\s*(?P<i>\d+)",
    re.IGNORECASE,
)
#: a rate's label saying it is a sum or a wall-clock rate, not one stream's: kept as ``throughput``
_SUMMED = re.compile(
    r"\b(?:total|aggregate|overall|avg|average|mean|system|combined|wall|offline|output\s+tok(?:en)?s?|"
    r"batch\w*)\b|общий|суммарн",
    re.IGNORECASE,
)
#: a label naming a rate summed over streams or taken over wall time ("total TPS", "aggregate",
#: "wall", "общий TPS"): ``throughput`` whatever ran
#: (llama-batched-bench's "S t/s": all the tokens of all its sequences over the whole time)
_TOTAL = re.compile(
    r"\b(?:total|aggregate|combined|system|wall)\b|общий|суммарн|^\W*S\s+t/s(?![\w/])", re.IGNORECASE
)
#: a set of prompts counted in a label ("10-prompt", "80 prompts")
_PROMPT_SET = re.compile(r"\b\d+[\s-]prompts?\b", re.IGNORECASE)
#: a word right after a rate saying it is summed over the streams: "98 tok/s cumulative", "310 t/s
#: aggregate", "520 tok/s combined", "in total"
_SUMMED_AFTER = re.compile(r"\W*(?:cumulative|aggregate|combined|in total|total|summed)\b", re.IGNORECASE)
#: "eff"/"effective" between a rate's number and its unit ("38.0 eff tok/s", "41 effective t/s"): the
#: rate over the whole request, ``effective_tps``
_EFFECTIVE = r"\s*(?:eff|effective)\.?\s+(?:tok|t/s|tps|token)"
#: a label naming the decode phase ("tg t/s", "decode", "generation"): each request's own rate, at
#: any concurrency (llama-benchy's tg at c2/c4), unless it says it is a sum (``_SUMMED``)
_DECODE_PHASE = re.compile(r"\b(?:tg\d*|decod\w*|generat\w*|gen)\b", re.IGNORECASE)
#: vLLM's tqdm progress line: "est. speed input: 47.09 toks/s, output: 128.64 toks/s"
VLLM_PROGRESS = re.compile(r"\bspeed input:[^,]*,\s*output\b")
#: a label naming throughput
_THROUGHPUT = re.compile(r"throughput|吞吐|スループット|처리량|пропускн", re.IGNORECASE)


def _streams(words: str, row: bool = False) -> int | None:
    """The most streams ``words`` say ran at once (``_STREAMS``, ``draftwords.settings_in_words``'s
    concurrency), None if they name none.  ``row``: the words are a table cell's header and row,
    whose "C8" label the row's own conditions already read (``draftcontext.cell_conditions``); a
    "C2 fixed 12" there names a configuration, no two streams."""
    counts = [
        int(next(g for g in m.groups() if g is not None))
        for m in _STREAMS.finditer(words)
        if not (row and m.group("d") is not None)
    ]
    said: list[tuple[str, object]] = []
    settings_in_words(words, said)  # "Throughput (50 req)", "tok/s @ c=8": the words' own settings
    counts += [v for p, v in said if p == "concurrency" and isinstance(v, int)]
    return max(counts) if counts else None


@functools.lru_cache(maxsize=16)
def _numbers_of(quote: str) -> tuple:
    """``numbers(quote)``, kept for the claims of one line (each claim of a long line read all of
    it again: quadratic)."""
    return tuple(numbers(quote))


def _words(e: Entry) -> tuple[str, str]:
    """The words labelling a claim, and those right after its number: a table cell's header as its
    quote gives it ("Throughput: 58.25 tok/s — | row |" -> "Throughput: 58.25 tok/s") and its row;
    in prose, the words of its clause between the last number with a unit before it and its
    number ("… 62–74 tokens/sec 8-stream throughput: 95–108 tokens/sec" -> " 8-stream throughput: "),
    and those after it to the end of its clause ("89 tokens/sec at batch size 8, while" -> " at
    batch size 8"); the whole sentence where its number is not found."""
    quote = str(e.fields.get("quote") or "")
    if e.group is not None:
        head, _, row = quote.partition(" — ")
        return head, row
    stated = e.fields.get("value")
    if stated is None and e.fields.get("range"):
        stated = f"{e.fields['range'][0]}–{e.fields['range'][1]}"
    last = 0
    lead = ""  # the words before a list of sides' "name = value" ("同時32の出力スループット:")
    found = _numbers_of(quote)
    for k, n in enumerate(found):
        if n.text == str(stated) and _in_list(quote, found, k) is not None:
            return _in_list(quote, found, k) or "", ""
        if n.text == str(stated):
            stop = next((m.start for m in found[k + 1 :] if m.unit is not None), len(quote))
            after = re.split(r"[,;:.!?](?:\s|$)|[，；。]", quote[n.end : stop])[0]
            # the label's own clause: "77 tok/s at batch size 8, while ours reached 33 tok/s"
            label = re.split(
                r"[,;](?:\s|$)|[，；]|\s(?:and|while|but|whereas|а|и|но)\s", quote[last : n.start]
            )[-1]
            if last:
                # a tool's aligned line ("148 ms total   82.1 tok/s"): the word right after the number
                # before, a column's gap after it, names that number, not this one
                label = re.sub(r"^[^\S\n]*[^\W\d]+(?=[^\S\n]{2,})", "", label)
            if lead and _SIDE_ONLY.fullmatch(quote[last : n.start]):
                # "…スループット:H100×4 = 5414 tok/s, A100×4 = 3723 tok/s": the second side's label is
                # the list's lead and its own name
                label = lead + label
            return label, after
        if n.unit is not None:
            side = _SIDE_LEAD.search(quote, last, n.start)
            if side is not None and (not last or side.start() == last):
                lead = side.group("lead")
            elif not _SIDE_ONLY.fullmatch(quote[last : n.start]):
                lead = ""
            last = n.end
    return quote, ""


#: the label of the first side of a list "label: A = 5414 tok/s, B = 3723 tok/s" (its lead, to the
#: colon, and the side's name before "=") and of the sides after it (", B = ")
_SIDE_LEAD = re.compile(r"(?P<lead>[^,;，；]*[:：])\s*[^\s=:,;，；]+(?:\s[^\s=:,;，；]+)?\s*=\s*$")
_SIDE_ONLY = re.compile(r"\s*[,，、]\s*[^\s=:,;，；]+(?:\s[^\s=:,;，；]+)?\s*=\s*")


#: labels joined by a slash before values joined by a slash: "wall/decode: 101.39 / 102.33 tok/s"
_LABEL_LIST = re.compile(r"(?P<words>[^\W\d]+(?:\s*/\s*[^\W\d]+)+)\s*[:=]?[\s*_`]*$")


def _in_list(quote: str, found: Sequence, k: int) -> str | None:
    """The label of the ``k``-th number of ``found`` where it is one of a list "A / B" under labels
    "w1/w2" of as many words (``_LABEL_LIST``): its own word; None where it is no such list."""
    first = k
    while first > 0 and re.fullmatch(r"\s*/\s*", quote[found[first - 1].end : found[first].start]):
        first -= 1
    last = k
    while last + 1 < len(found) and re.fullmatch(r"\s*/\s*", quote[found[last].end : found[last + 1].start]):
        last += 1
    if first == last:
        return None
    m = _LABEL_LIST.search(quote, 0, found[first].start)
    words = re.split(r"\s*/\s*", m.group("words")) if m else []
    return words[k - first] if len(words) == last - first + 1 else None


#: ``ollama ps``'s PROCESSOR column beside a size: "100% GPU", "11%/89% CPU/GPU", "30%/70%"
PROCESSOR_SPLIT = re.compile(r"\b\d{1,3}%\s*(?:GPU|CPU)\b|\b\d{1,3}%\s*/\s*\d{1,3}%|\bCPU/GPU\b")


def settle_sizes(entries: list[Entry], groups: list[Group]) -> None:
    """Sizes whose kind their row says: a size on a line or table row with ``ollama ps``'s split of
    the model between CPU and GPU ("14 GB | 100% GPU", "25 GB 11%/89% CPU/GPU": ``PROCESSOR_SPLIT``)
    is the model's whole footprint, GPU and host, ``memory_used`` (SOURCES.md: "`ollama ps`'s SIZE"),
    whatever its header calls it; in place, as ``settle_rates``."""
    by_id = {g.id: g for g in groups}
    cells: dict[str, list[Entry]] = {}
    for e in entries:
        if e.kind != "claim":
            continue
        group = by_id.get(e.group) if e.group is not None else None
        shared = group.fields if group is not None else {}
        metric = e.fields.get("metric", shared.get("metric"))
        unit = e.fields.get("unit", shared.get("unit"))
        if family(unit) != "size" or metric not in ("vram", "ram", "size", "model_size", "memory_used"):
            continue
        quote = str(e.fields.get("quote") or "")
        row = quote.partition(" — ")[2] if group is not None else quote
        if not PROCESSOR_SPLIT.search(row):
            continue
        if group is not None:
            cells.setdefault(group.id, []).append(e)
        else:
            e.fields["metric"] = "memory_used"
    for gid, column in cells.items():
        if len(column) == sum(1 for e in entries if e.group == gid):
            by_id[gid].fields["metric"] = "memory_used"


def settle_times(entries: list[Entry]) -> None:
    """A time in ms and a rate in tokens per second drafted from one line, the time 1000 ÷ the rate
    to the digits written (tinygrad's "total 19.72 ms, 50.71 tok/sec"): the time is per token
    (``ms_per_token``), not a duration; in place."""
    by_line: dict[object, list[Entry]] = {}
    for e in entries:
        if e.kind == "claim" and e.group is None and "value" in e.fields:
            by_line.setdefault(e.fields.get("source_line"), []).append(e)
    for here in by_line.values():
        times = [e for e in here if e.fields.get("unit") == "ms" and e.fields.get("metric") == "duration"]
        rates = [e for e in here if family(e.fields.get("unit")) == "rate"]
        for t in times:
            for r in rates:
                ms, tps = float(str(t.fields["value"])), float(str(r.fields["value"]))
                written = str(t.fields["value"])
                step = 10.0 ** -(len(written.split(".")[1]) if "." in written else 0)
                if tps > 0 and abs(1000.0 / tps - ms) <= step:
                    t.fields["metric"] = "ms_per_token"
                    break


#: a table header naming only a statistic of the quantity beside it ("標準偏差", "最小/最大", "Std",
#: "min / max", "p95", 标准差, 표준편차): the column is that quantity's, not one of its own
_STAT_ONLY = re.compile(
    r"(?:\W|_)*(?:(?:std(?:dev)?|standard\s+deviation|stddev|σ|min(?:imum)?|max(?:imum)?|median|"
    r"p\d{2}(?:\.\d)?|標準偏差|最小|最大|中央値|标准差|最小值|最大值|中位数|표준편차|최소|최대|중앙값)(?:\W|_)*)+",
    re.IGNORECASE,
)


def _header(e: Entry) -> str:
    """The header of a table cell's column, from its quote ("標準偏差: 0.079秒 — | row |" -> "標準偏差")."""
    head = str(e.fields.get("quote") or "").partition(" — ")[0]
    return head.rpartition(":")[0].strip() if ":" in head else ""


def settle_stat_columns(entries: list[Entry], groups: list[Group]) -> None:
    """A table column of times whose header names only a statistic ("標準偏差", "最小/最大", "Std",
    ``_STAT_ONLY``) beside a column of the same rows whose header names the quantity ("平均レイテンシ":
    ``latency``) is that quantity's: it takes the metric of the nearest such column before it (a
    duration only where no column names one); in place, as ``settle_rates``."""
    cells: dict[str, list[Entry]] = {}
    for e in entries:
        if e.kind == "claim" and e.group is not None:
            cells.setdefault(e.group, []).append(e)
    rows = {gid: frozenset(e.fields.get("source_line") for e in column) for gid, column in cells.items()}
    named: list[Group] = []
    for g in groups:
        column = cells.get(g.id)
        if not column or family(str(g.fields.get("unit"))) != "time":
            continue
        header = _header(column[0])
        if not _STAT_ONLY.fullmatch(header):
            if g.fields.get("metric") != "duration":
                named.append(g)
            continue
        if g.fields.get("metric") != "duration":
            continue
        same = [n for n in named if rows[n.id] == rows[g.id]]
        if same:
            g.fields["metric"] = same[-1].fields["metric"]


#: exllama's test_benchmark_inference section lines: " -- Measuring prompt speed...", " -- Inference,
#: first pass." (the prompt's pass) before its "** Length 128 tokens: 355.78 t/s" and "** Speed:"
#: lines; " -- Measuring token speed...", " -- Generating 128 tokens..." before generation's
_EXLLAMA_SECTION = re.compile(r"^\s*--\s+(?P<words>.*)$")
_EXLLAMA_PROMPT = re.compile(r"\bprompt speed\b|\bfirst pass\b", re.IGNORECASE)


#: a line labelling the result lines under it as the prompt's pass ("Prefill:", "Prompt
#: processing", "**PP:**"): a label alone, no number
_PREFILL_LABEL = re.compile(
    r"\s*(?:[#>*_-]+\s*)?(?:prefill|pre-fill|prompt(?:\s+(?:processing|eval\w*|speed|phase))?|pp)"
    r"\s*[*_]*\s*[:：]?\s*[*_]*\s*",
    re.IGNORECASE,
)
#: a result line of a list of them, its label before a ":" ("Length   256:     113.75 tokens/s")
_RECORD_LINE = re.compile(r"\s*(?:[-*+•]\s+)?[^\W\d][^:]{0,30}:\s*[\d.]")


def _under_prefill_label(line_of: Callable[[int], str], line: int) -> bool:
    """Whether result line ``line`` is one of a run of ``label: value`` lines (``_RECORD_LINE``)
    right under a line labelling them all as the prompt's pass (``_PREFILL_LABEL``), and its own
    label names no phase ("Length 256: 113.75 tokens/s" under "Prefill:")."""
    own = line_of(line)
    if _RECORD_LINE.match(own) is None or _DECODE_PHASE.search(own.split(":", 1)[0]):
        return False
    for k in range(line - 1, max(0, line - 40), -1):
        above = line_of(k)
        if _PREFILL_LABEL.fullmatch(above):
            return True
        if _RECORD_LINE.match(above) is None or _DECODE_PHASE.search(above.split(":", 1)[0]):
            return False  # (a line between naming the decode phase ends the label's list)
    return False


def settle_phases(line_of: Callable[[int], str], entries: list[Entry]) -> None:
    """A rate on an exllama "** " result line (``_EXLLAMA_SECTION``) under a section line naming the
    prompt's pass ("-- Measuring prompt speed...", "-- Inference, first pass.") is ``prefill_tps``
    whatever its own label ("** Speed: 1423.20 tokens/second"); so is one of a list of result lines
    under a label line naming that pass (``_under_prefill_label``: exllamav3's perf.py prints
    "Prefill:" over "Length 256: 113.75 tokens/s"); ``line_of``: a line of the post by its number
    (``Post.line``); in place."""
    for e in entries:
        line = e.fields.get("source_line")
        if e.kind != "claim" or e.group is not None or e.fields.get("metric") != "decode_tps":
            continue
        if isinstance(line, int) and _under_prefill_label(line_of, line):
            e.fields["metric"] = "prefill_tps"
            continue
        if not isinstance(line, int) or not line_of(line).startswith("**"):
            continue
        for k in range(line - 1, max(0, line - 12), -1):
            m = _EXLLAMA_SECTION.match(line_of(k))
            if m is not None:
                if _EXLLAMA_PROMPT.search(m.group("words")):
                    e.fields["metric"] = "prefill_tps"
                break
            if not line_of(k).startswith("**"):
                break


def settle_rates(
    entries: list[Entry], groups: list[Group], block_of: Callable[[int], int | None] = lambda _line: None
) -> None:
    """Give each rate claim of ``entries`` (``decode_tps`` or ``throughput``, in a rate's unit) the
    metric its streams make it (module doc, ``_wanted``), in place.  A table's column (a ``Group``)
    whose cells all want one other metric gets it; a cell that differs from its column gets its own
    ``metric`` (a claim's own field wins over its group's: the claims file's ``metric`` column).
    Claims of other metrics are left alone.  ``block_of``: a line -> the code block it is in (None
    outside one); a concurrency printed in the claim's own block ("concurrency: 256" over LMDeploy's
    "token throughput (completion token): 4022.103 token/s") is its run's, as a table row's is."""
    by_id = {g.id: g for g in groups}
    cells: dict[str, list[tuple[Entry, str]]] = {}
    for e in entries:
        if e.kind != "claim":
            continue
        group = by_id.get(e.group) if e.group is not None else None
        shared = group.fields if group is not None else {}
        line = e.fields.get("source_line")
        printed = "`" in str(e.fields.get("quote") or "") or (
            isinstance(line, int) and block_of(line) is not None
        )
        want = _wanted(e, shared, _in_block(e, block_of), printed)
        if group is not None and "metric" not in e.fields:
            cells.setdefault(group.id, []).append((e, want or str(shared.get("metric"))))
        elif want is not None:
            e.fields["metric"] = want
    for gid, column in cells.items():
        group = by_id[gid]
        wants = {w for _, w in column}
        if len(wants) == 1:
            group.fields["metric"] = wants.pop()
            continue
        for e, w in column:
            if w != group.fields.get("metric"):
                # the cell's own metric, right after its id (where a claims file writes it)
                fields = {k: v for k, v in e.fields.items() if k == "id"}
                fields["metric"] = w
                fields.update({k: v for k, v in e.fields.items() if k != "id"})
                e.fields.clear()
                e.fields.update(fields)


def _in_block(e: Entry, block_of: Callable[[int], int | None]) -> bool:
    """Whether the claim's concurrency was taken from a line of its own code block (``e.origins``:
    "line 15, mention")."""
    at = re.match(r"lines? (\d+)", e.origins.get("concurrency", ""))
    line = e.fields.get("source_line")
    if at is None or not isinstance(line, int):
        return False
    block = block_of(line)
    return block is not None and block_of(int(at.group(1))) == block


#: engines whose benchmark command's concurrency is of requests at once (LMDeploy's profile scripts'
#: --concurrency); vLLM's and SGLang's servers' --max-num-seqs is a cap, no streams of a request
_CLIENT_CONCURRENCY_ENGINES = frozenset({"LMDeploy"})


def _wanted(e: Entry, shared: dict, block_streams: bool = False, printed: bool = False) -> str | None:
    """The metric a rate claim ``e`` (its group's fields ``shared``) should have by its streams
    (module doc), None where it is no rate of decoding or its metric stays; ``block_streams``: its
    concurrency is its own code block's (``_in_block``); ``printed``: its line is a tool's output (in
    a code block or inline code), whose concurrency a serving engine's benchmark command set."""
    metric = e.fields.get("metric", shared.get("metric"))
    unit = e.fields.get("unit", shared.get("unit"))
    quote = str(e.fields.get("quote") or "")
    if family(unit) == "rate" and metric in ("prefill_tps", "decode_tps") and VLLM_PROGRESS.search(quote):
        # vLLM's tqdm line "est. speed input: 47.09 toks/s, output: 128.64 toks/s": prompt tokens and
        # generated tokens over the run's wall time (read as prefill and decode rates while the
        # relations that compare them were drafted)
        want = "input_throughput" if metric == "prefill_tps" else "throughput"
        return want
    if metric not in ("decode_tps", "throughput", "peak_throughput") or family(unit) != "rate":
        return None
    value = e.fields.get("value")
    if value is not None and re.search(rf"(?<![\d.,]){re.escape(str(value))}{_EFFECTIVE}", quote, re.I):
        return "effective_tps"  # "38.0 eff tok/s": the rate over the whole request, prompt included
    own = e.fields.get("conditions") or {}
    cond = merged(shared.get("conditions") or {}, own)
    label, after = _words(e)
    if metric == "peak_throughput":
        # the peak of one stream ("single stream peak") is that stream's decode rate; a concurrency of
        # 1 filled in from the post's context is no such word (a table of engines' peaks under it)
        return "decode_tps" if _ONE_STREAM.search(f"{label} {after}") else None
    other: dict = cond["other"] if isinstance(cond.get("other"), dict) else {}
    # several streams: a table row's own concurrency (a "C8" or "Concurrency" cell), or the words
    # labelling the number; a command's parallel slots (-np 4) serve one request all the same (a
    # prose claim's own conditions are its sentence's: "88.5 tok/s at 16 concurrent requests and
    # 40.5 tok/s with 1 request" gives both the 16, so only its words count)
    # (a scheduler's line states its own: SGLang's "#running-req: 8" beside its rate; a timing line's
    # concurrency is its command's, as a prose claim's)
    # (a serving engine's benchmark command sets its requests at once: LMDeploy's profile_generation
    # --concurrency 64; not llama.cpp's slots, nor vLLM's --max-num-seqs cap)
    origin = e.origins.get("concurrency", "")
    by_command = (
        printed
        and re.fullmatch(r"(?:line \d+(?:, command)?)?", origin) is not None
        and cond.get("engine") in _CLIENT_CONCURRENCY_ENGINES
    )
    line_streams = e.fields.get("method") == "SGLang" or block_streams or by_command
    concurrency = own.get("concurrency") if e.group is not None or line_streams else None
    if isinstance(concurrency, int):
        streams: int | None = concurrency
    elif e.group is not None:
        # a table cell: its header's "C8" is eight streams; its row's "C2 fixed 12" names a configuration
        # (a row's own "C8" label is its conditions' already)
        counts = [c for c in (_streams(label), _streams(after, row=True)) if c is not None]
        streams = max(counts) if counts else None
    else:
        streams = _streams(f"{label} {after}")
    if streams is None and isinstance(own.get("concurrency"), int):
        # "batch 8, input 128, output 256: 206.32 token/s" of a serving engine: the batch its
        # words state is the claim's concurrency (``draftcommand.serving_batch``), 8 streams
        n, before = own["concurrency"], quote.split(str(value))[0] if value is not None else label
        # (the words since the last rate before it, in its clause: "77 tokens/sec at batch size 8,
        # while ours reached 33 tokens/sec" gives the 33 no batch)
        rated = [x for x in numbers(before) if family(x.unit) == "rate"]
        before = before[rated[-1].end :] if rated else before
        before = re.split(r"(?i)\b(?:while|whereas|but)\b|;", before)[-1]
        if re.search(rf"(?i)\b(?:batch(?:[ _-]?size)?|bs)\s*(?:=|:|of)?\s*{n}(?![\d.])", before):
            streams = n
    if streams is None and _PROMPT_SET.search(label):
        # "HE 10-prompt aggregate decode": the aggregate over a set of prompts run one after
        # another, no sum over streams at once
        label = _TOTAL.sub(" ", label)
    batched = any("batch" in str(k).lower() and str(v).isdigit() and int(v) > 1 for k, v in other.items())
    phase = _DECODE_PHASE.search(label) is not None and not _SUMMED.search(label)
    if _ONE_STREAM.search(f"{label} {after}") or (phase and metric == "decode_tps"):
        want = "decode_tps"
    elif (streams is not None and streams > 1) or _TOTAL.search(label) or _SUMMED_AFTER.match(after):
        want = "throughput"
    elif metric == "throughput" and _THROUGHPUT.search(label) and not _SUMMED.search(label) and not batched:
        want = "decode_tps"
    else:
        return None
    return want if want != metric else None


#: a llama-bench test by its name, as a method or a claim's method after its tool's name ("pp512",
#: "llama-bench tg128", "tg128 @ d8192", "pp4096+tg128"): a prompt of ``p`` tokens, ``g`` generated
_BENCH_TEST = re.compile(r"(?:^|\s)(?:pp(?P<p>\d+)(?:\+tg(?P<pg>\d+))?|tg(?P<g>\d+))(?:\s*@\s*d\d+[kK]?)?$")


def settle_tests(entries: list[Entry], groups: list[Group]) -> None:
    """A llama-bench test's lengths fix what a command or the words around it set for the post
    (tools/llama-bench: a ``ppN`` test processes an N-token prompt and generates nothing, a ``tgN``
    test generates N tokens from an empty prompt, ``ppN+tgM`` both, each at the depth ``@ dD``
    names; the corpus writes them ``other.prompt_tokens: N`` and ``tokens_generated: M``): a claim
    or group whose method names a test gets the test's lengths and loses what the test does not
    have (a ``-n 128`` of its command on a pp test, a ``-p 512`` on a tg test).  In place."""
    for fields in [g.fields for g in groups] + [e.fields for e in entries if e.kind == "claim"]:
        m = _BENCH_TEST.search(str(fields.get("method") or ""))
        if m is None:
            continue
        prompt, generated = m.group("p"), m.group("g") or m.group("pg")
        cond = fields.setdefault("conditions", {})
        # a copy: the groups of one table may share their ``other`` (one command's)
        other = dict(cond["other"]) if isinstance(cond.get("other"), dict) else {}
        if prompt is not None:
            other["prompt_tokens"] = int(prompt)  # the test's, whatever "-p" the command lists
        else:
            other.pop("prompt_tokens", None)
        if generated is not None:
            cond["tokens_generated"] = int(generated)
        else:
            cond.pop("tokens_generated", None)
        if other:
            cond["other"] = other
        else:
            cond.pop("other", None)
        if not cond:
            del fields["conditions"]
