"""Tables -> claims: a Markdown, HTML or aligned text table gives one claim per value cell, grouped
per value column (``Group``: the column's metric, unit and the command's conditions), the row's
label cells as conditions (``draftcore.LABELS``); a column relating others ("speedup", "vs
baseline") gives statements (``table_relations``); a command line right after a table that had
none sets its conditions (``command_after_table``).

The module's helpers read a table's shape: which columns label rows and which state values
(``_relating_column``, ``_cells_condition``, ``_rate_columns``, ``_ratio_column``,
``_tokens_column``, ``_metric_header``, ``_header_unit``, ``_names_metric``), a table written
sideways (``_transposed``) and a table of settings, not results (``_settings_table``).

Where it sits: ``Tables`` extends ``draftsides.Sides`` (a table's bounds are statements);
``draft._Drafter`` calls ``table`` for each table block of the post.
"""

from __future__ import annotations

import copy
import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from itertools import combinations

from ..ingest.settings import flash_attn_word
from .draftbyvalue import as_multiple, decimals_of, stated_interval
from .draftcolumn import column_machine
from .draftcommand import DEVICE_BACKENDS, QUANT_TYPE, drop_path, has_path, kv_cache_type, put_path
from .draftcontext import (
    BACKEND_NAMES,
    ENGINE_OWN,
    FLAGS_ONLY,
    HEADER_EXTREME,
    MLX_APPS,
    cell_conditions,
    cell_test_metric,
    flag_settings,
    flat_paths,
    header_settings,
    is_test_cell,
)
from .draftcore import (
    LABELS,
    Entry,
    Group,
    Num,
    label_key,
    merged,
    number_fields,
    plain_value,
    set_path,
    source_fields,
    stateable,
)
from .draftmetric import PROCESSOR_SPLIT
from .draftnames import (
    ENGINE_SPELLINGS,
    METHOD_WORDS,
    MODEL_FAMILIES,
    SIZED_NAME,
    cell_names,
    decoding_of_cell,
    engine_of_cell,
    engine_version_cell,
    engines_in,
    hardware_of,
    header_decoding,
    mentions,
    model_cell,
    side_builds,
    sized_model,
    without_remark,
)
from .draftprose import (
    ACCEPT_LENGTH_WORDS,
    PER_TOKEN_UNIT,
    RATING_COLUMN,
    Number,
    bound_of,
    family,
    metric_of,
    numbers,
    relative_spread,
    threshold,
    unit_of,
)
from .draftsides import Sides
from .draftwords import DRAFT_MODEL_CJK, NOT_A_PROMPT, count, settings_in_words
from .post import Block
from .toollines import PLURAL, label_metric, label_unit, stat_name
from .units import UnitError, factor

#: row labels under which a size is a measured one ("Peak memory", "Memory used", "KV cache size"),
#: not a card's or a machine's
_MEASURED_SIZE = re.compile(
    r"\b(?:peak|used|usage|use|consum\w*|footprint|resident|rss|alloc\w*|model size|file size|kv cache)\b",
    re.IGNORECASE,
)

#: a memory's name alone ("VRAM", "Memory", "GPU memory"): a card's or machine's size, where nothing
#: says it was used (``_MEASURED_SIZE``)
_CARD_MEMORY = re.compile(r"\W*(?:gpu\s+)?(?:vram|memory|ram|显存|内存)\W*", re.IGNORECASE)
_PAREN = re.compile(r"[(\[].*")
#: a cell that states nothing
#: a cell that states no result: blank, a dash, "N/A", "OOM", and their spellings together ("N/A
#: OOM", "OOM (n/a)", "failed", "crash", "timeout", "not supported")
_NO_RESULT = r"n/?a|none|null|oom|x|fail(?:ed)?|error|crash(?:ed)?|time\s?out|not\s+supported|unsupported"
_EMPTY = re.compile(
    # a footnote's mark after it ("OOM*", "N/A†") leaves it a cell of no result
    rf"^\s*(?:|[-—–?]+|\(?(?:{_NO_RESULT})\)?(?:[\s,/:;-]+\(?(?:{_NO_RESULT})\)?)*)[*†‡¹²³]*\s*$",
    re.IGNORECASE,
)


#: words in a cell before its inline flags naming another run ("145 (vs 131 with `-fa 0`)"): the flags
#: are that run's, not the cell's value's
_OTHER_RUN = re.compile(r"(?i)\b(?:vs\.?|versus|than|compared|without|instead)\b|比")
#: a label cell led by a backend's name and a dash ("rocm-7.14", "vulkan-radv", "cuda-12.8")
_BACKEND_LED_CELL = re.compile(r"[`*_]*(rocm|vulkan|cuda|metal|sycl|hip)[-_]", re.IGNORECASE)
#: a column's metric -> the metric of a signed percentage beside its value in a cell (``cell_extras``)
_CELL_CHANGE = {
    "prefill_tps": "prefill_change",
    "decode_tps": "decode_change",
    "throughput": "throughput_change",
    "ttft": "ttft_change",
}


def _slug(text: str, limit: int = 24) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s[:limit].strip("-") or "x"


#: a column of a drafter's sizes under its own name (SGLang's EAGLE settings "steps", "topk",
#: "num_draft_tokens"; "gamma", "n_draft", "spec tokens"): a row of 0 drafts nothing
_SPEC_COUNT_HEADER = re.compile(
    r"(?i)(?:speculative[_ ])?(?:num[_ ])?"
    r"(?:steps|(?:eagle[_ ])?top[_ ]?k|draft[_ ]tokens|spec(?:ulative)?[_ ]tokens|gamma|n[_ ]draft)"
)
#: a column naming the row's winner or pick ("Winner", "Best", "Faster", "Verdict"): no setting of the
#: row's numbers, whatever engine or machine it names
_VERDICT_HEADER = re.compile(
    r"(?i)\W*(?:winner|best|faster|fastest|verdict|pick|recommended|recommendation)\W*"
)
#: the drafter's sizes no other setting is named by ("num_draft_tokens", "gamma", "n_draft")
_SPEC_COUNT_OWN = re.compile(
    r"(?i)(?:speculative[_ ])?(?:num[_ ])?(?:draft[_ ]tokens|spec(?:ulative)?[_ ]tokens|eagle[_ ]top[_ ]?k)|"
    r"gamma|n[_ ]draft|speculative[_ ]num[_ ]steps"
)


def _spec_count_column(header: list[str], j: int) -> bool:
    """Whether column ``j`` of ``header`` is a drafter's size (``_SPEC_COUNT_HEADER``): "steps" and
    "topk" only beside a column no other setting is named by (``_SPEC_COUNT_OWN``), a sampler's top-k
    being as common."""
    name = header[j].strip().strip("*_`")
    if not _SPEC_COUNT_HEADER.fullmatch(name):
        return False
    return any(_SPEC_COUNT_OWN.fullmatch(h.strip().strip("*_`")) for h in header)


#: a label column's header about decoding: its Yes/No cells state the decoding (``decoding_of_cell``)
_DECODING_HEADER = re.compile(r"\b(?:spec\w*|MTP|draft(?:ing)?|drafted)\b", re.IGNORECASE)
#: a decoding column named "Draft" alone: a small whole number under it is the tokens drafted a step
_DRAFT_ALONE = re.compile(r"\W*drafts?\W*", re.IGNORECASE)
#: label cells that name one condition whatever the column's header says: quantisations, llama.cpp
#: builds
_CELL_KINDS = (
    # llama.cpp's types and the GPU formats (a "Mode" column of GPTQ cells is the quant, no decoding)
    (
        "quant",
        re.compile(
            r"(?:UD-)?I?Q\d(?:_[A-Z0-9]+)*|BF16|F16|FP16|F32|FP8|MXFP[468]|NVFP4|GPTQ|AWQ|EXL[23]|INT[48]|NF4",
            re.IGNORECASE,
        ),
    ),
    ("build", re.compile(r"b\d{4,5}")),
)
#: a table column's header that relates numbers (its cells are multiples or changes); other
#: languages' words for a speedup or improvement factor too ("改善倍率", "倍率", "高速化", "加速比",
#: "提升", "배율", "향상", "Beschleunigung", "ускорение", "прирост")
_RELATING_HEADER = re.compile(
    # words from their start: "ratio" is no "Generation", "gain" no "Again"
    r"\bvs\.?\b|\b(?:versus|spee?d-?up|slow-?down|gain|change|delta|diff|ratio|relative|improvement|uplift|"
    r"faster|slower|boost|loss|regression|beschleunigung|ускорени|прирост)|Δ|(?<!\.)\bx\b|×|"
    r"倍率|改善|高速化|加速比|提升|差异|差距|배율|향상|차이|"
    # a header ending in "比" or "比率" (a ratio: "req/s比", "速度比"; not "比例" nor "占比", a share,
    # nor "比较")
    r"(?<!占)比率?(?=\s*(?:[(（]|$))|"
    # one column's numbers over another's ("E1 over vanilla", "E3 over E1": a spreadsheet's ratio column)
    r"\S\s+over\s+\S",
    re.IGNORECASE,
)
#: a row label naming the baseline of a table's comparisons
_BASELINE = re.compile(
    r"\b(?:baseline|base|plain|vanilla|autoregressive|without|no[- ]?(?:spec|draft|mtp)|spec[- ]?off|off)\b",
    re.IGNORECASE,
)


#: how far (relative) each row's rate over a baseline may be from the row's stated multiple for an
#: unlabelled rate before a table to be that baseline (``Table.prose_baseline``)
_COLUMN_FIT = 0.1


def _mid_of(cell: str) -> float | None:
    """The number a table cell states (a range by its middle), or None where it states none or
    several."""
    found = numbers(cell)
    if len(found) != 1:
        return None
    n = found[0]
    try:
        return (float(n.range[0]) + float(n.range[1])) / 2 if n.range else float(n.text)
    except ValueError:
        return None


def _column_fits(body: list[list[str]], rate_col: int, ratio_col: int, base: float | None) -> bool:
    """Whether every row of ``body`` (two or more) states a rate in ``rate_col`` and a multiple in
    ``ratio_col`` with rate / ``base`` within ``_COLUMN_FIT`` of the multiple."""
    if not base:
        return False
    fits = 0
    for row in body:
        if max(rate_col, ratio_col) >= len(row):
            return False
        rate, ratio = _mid_of(row[rate_col]), _mid_of(row[ratio_col])
        if rate is None or not ratio:
            return False
        if abs(rate / base - ratio) / ratio > _COLUMN_FIT:
            return False
        fits += 1
    return fits >= 2


#: a change in % said with its direction in words ("13% slower", "84% faster", "10% más compacto")
_WORDED_CHANGE = re.compile(
    r"\d\s*%\s*(?:faster|slower|quicker|better|worse|higher|lower|more|less|más|menos|schneller|langsamer)\b",
    re.IGNORECASE,
)


#: how near (relative, ``Sides._error``) a relating cell's value must be to its pair's in the other
#: order for that order to be taken ("+3.64%" over 35.0378 and 33.8086: the second to the first)
_ORDER_FIT = 0.01
#: the words of ``_WORDED_CHANGE`` saying the change is a drop
_LESS_WORD = re.compile(
    r"slower|worse|lower|less|smaller|menos|langsamer|compact[oa]?|kleiner", re.IGNORECASE
)


def _worded_drop(words: str, written: str) -> bool:
    """Whether a change written with no sign (``written``: "13", not "+13" or "-13") is a drop by
    the words beside it (``_LESS_WORD``: "13% slower", "(10% más compacto)", "8% less")."""
    return not written.startswith(("+", "-", "−")) and _LESS_WORD.search(words) is not None


def _relating_column(header: str, cells: list[str]) -> bool:
    """Whether a table column of multiples or percentages relates the row's numbers: its header
    says so (``_RELATING_HEADER``: "vs baseline", "Speedup", "Gain", "Δ") or its cells are signed
    ("+6.2%", "-11%"); an acceptance or utilisation column is a quantity of its own."""
    if re.search(r"accept|util|share|hit|rate\b|occupancy|load", header, re.IGNORECASE):
        return False
    # "+6.2%", "**−11%**", "vLLM +14%" (the side it is of named before it), "✅ +84% faster!", "⚠️ 13%
    # slower!" (a mark before it; a change said in words), "Cluster (+20%)" (the winner of the row and
    # its lead in parentheses)
    signed = [
        c
        for c in cells
        if re.match(r"[\W_]*(?:[^\W\d][\w.\-]*\s+)?\(?[+\-−]\s*\d", c) or _WORDED_CHANGE.search(c)
    ]
    return (
        bool(_RELATING_HEADER.search(header))
        or (bool(cells) and len(signed) >= max(1, len(cells) // 2))
        or _multiples_of_one_row(cells)
    )


def _multiples_of_one_row(cells: list[str]) -> bool:
    """Whether a column's cells are multiples written with decimals, one of them 1 ("1.00x",
    "1.44x", "1.45x" under no header, MTPLX's tune table): each row's multiple of the 1.00x row's
    (a count of devices, "1x" / "2x", has no decimals)."""
    said = [numbers(c)[:1] for c in cells if not _EMPTY.match(c)]
    if len(said) < 2 or not all(n and n[0].unit == "x" and n[0].range is None for n in said):
        return False
    return any("." in n[0].text for n in said) and any(plain_value(n[0].text) == 1.0 for n in said)


#: a relating header whose plain numbers are multiples ("Speedup": 1.412, "Eval Relative Performance":
#: 1.946, "加速比", "배율"), not changes in % nor a setting
_MULTIPLE_HEADER = re.compile(
    r"\b(?:spee?d-?up|relative|faster|slower)|×|(?<!\.)\bx\b|倍率|加速比|倍|배율|배|\S\s+over\s+\S",
    re.IGNORECASE,
)
#: a relating column's cell naming its row as the one the others are relative to ("baseline", "ref")
_BASELINE_CELL = re.compile(
    r"\W*(?:baseline|base|ref(?:erence)?|基准|基線|ベースライン|기준)\W*", re.IGNORECASE
)


def _multiple_column(header: str, cells: list[str]) -> str | None:
    """ "x" for a relating column (``_relating_column``) of plain numbers under a header naming a
    multiple (``_MULTIPLE_HEADER``: "Speedup" over 1.412, 2.089; "Eval Relative Performance" over
    1.946, 1.000), a cell naming the baseline allowed ("baseline"); else None: the header gives
    no unit and the numbers write none, so without it they were read as rates ("Speedup" names
    speed) or as the rows' labels."""
    if _header_unit(header) is not None or not _MULTIPLE_HEADER.search(header):
        return None
    stated = [c for c in cells if not _EMPTY.match(c) and not _BASELINE_CELL.fullmatch(c)]
    if not stated or not _relating_column(header, stated):
        return None
    for c in stated:
        found = numbers(c)
        if len(found) != 1 or found[0].unit is not None or found[0].range is not None:
            return None
        if not re.fullmatch(r"\W*[~≈]?\s*\d+(?:\.\d+)?\s*\W*", c):
            return None
    return "x"


def _cells_condition(cells: list[str]) -> str | None:
    """The condition a table's label column sets when every cell of it is one kind of name
    (``_CELL_KINDS``: a quant column headed "양자화 포맷", a build column headed "version"),
    ``hardware`` when every cell names hardware, ``backend`` when every cell opens with a backend's
    name ("Vulkan", "CUDA 12 llama.cpp"), ``model`` when every cell opens with a model's name
    (``draftnames.mentions``: "| Model / Quant |" over "Qwen3.6-27B-IQ4_KS"); None otherwise."""
    if not cells:
        return None
    for path, pat in _CELL_KINDS:
        if all(pat.fullmatch(c.strip().strip("*`")) for c in cells):
            return path
    # (a card by its number alone, "| 5070 Ti | 4090 |" transposed into a column: ``hardware_of``;
    # beside them, a row relating them, "Delta", names none)
    machines = [c for c in cells if not _RELATING_HEADER.fullmatch(c.strip().strip("*`"))]
    if machines and all(
        any(m.path == "hardware" and m.start == 0 for m in mentions(c.strip())) or hardware_of(c)
        for c in machines
    ):
        return "hardware"
    backends = [mentions(c.strip().strip("*`")) for c in cells]
    if all(ms and ms[0].path == "backend" and ms[0].start == 0 for ms in backends) and all(
        m.path in ("backend", "engine") for ms in backends for m in ms
    ):
        return "backend"  # LM Studio's "| Runtime |" over "Vulkan", "ROCm", "CUDA 12 llama.cpp"
    if all(engine_version_cell(c) or engine_of_cell(c, set()) for c in cells):
        return "engine"  # "| llamafile-0.7 |", "| llama.cpp 2024-03-26 |" under any header
    # "| Model / Quant |" over "Qwen3.6-27B-IQ4_KS": every cell opens with a model's name
    # (and names nothing else: "Llama 3.3 70B Q4 · 2× RTX 5090" is a configuration, ``cell_names``)
    named = [mentions(c.strip().strip("*`")) for c in cells]
    if all(any(m.path == "model" and m.start == 0 for m in ms) for ms in named) and all(
        m.path in ("model", "quant") for ms in named for m in ms
    ):
        return "model"
    if any(_PROMPT_CELL.search(c) for c in cells) and all(_scenario(c) for c in cells):
        return "prompt"
    return None


#: a label cell naming a workload by the word prompt ("Short prompt", "コードのプロンプト"), never a
#: phase ("Prompt processing", "prompt eval": ``_PHASE_CELL``); "No GPU scenarios" or "Production
#: workloads" under "Best use case" is a use, not a run's prompt
_PROMPT_CELL = re.compile(r"\bprompts?\b|プロンプト|提示词", re.I)
#: a column header naming its phase: its rates are that phase's whatever a row's test cell says
_PHASE_HEADER = re.compile(
    r"\b(?:pp|tg|prefill|prompt|decode|decoding|gen\w*|eval\w*|ttft|tpot)(?:\b|\d)", re.I
)
#: a column headed by a llama-bench test alone ("pp512", "tg 128", "pp512 t/s")
_TEST_HEADER = re.compile(r"(?:pp|tg)\s?\d+(?:\s*\(?(?:t/s|tok/s)\)?)?", re.I)
#: a signed change in a cell, after its value, against a row it names ("121.0 (+142% base, +39%
#: nvidia)", "+12% vs baseline")
_NAMED_CHANGE = re.compile(
    r"(?<![\w.])(?P<v>[+\-−]\d+(?:\.\d+)?)\s?%\s+(?:vs\.?\s+|over\s+|against\s+)?(?P<name>[A-Za-z][\w.-]*)"
)
_PHASE_CELL = re.compile(r"\bprompt\s+(?:processing|process|eval\w*|tokens?|phase|speed|rate)\b|\bpp\d", re.I)
#: a change in parentheses after a cell's value, naming no row ("96.1 (+52%)", "7.24 tok/s (19.6% más
#: rápido)", "2.0 GB (10% más compacto)"): against another value of the row (``Tables.named_changes``)
_BARE_CHANGE = re.compile(
    r"\d[^()（）\d]{0,16}[(（]\s*(?P<v>[+\-−]?\d+(?:\.\d+)?)\s?%(?P<words>[^()（）]{0,30})[)）]"
)


def _scenario(cell: str) -> bool:
    """Whether a label cell may name a workload scenario (``_cells_condition``: a column of "Short
    Prompt", "Long Prompt", "Reasoning"): one to four words, the first no number, naming no metric,
    phase, setting, decoding, machine, engine, model or quant."""
    text = cell.strip().strip("*_`").strip()
    if not re.fullmatch(r"[^\W\d_][\w.+#/'-]*(?:\s+[\w.+#/'()-]+){0,3}", text):
        return False
    if _PHASE_CELL.search(text) or _names_metric(text) or cell_conditions(text):
        return False
    return not (mentions(text) or header_decoding(text) or header_settings(text))


#: a table header naming a setting as a flag does: words joined by "-" or "_" ("draft-p-min", "n_ctx")
#: a column of the power each row's card was set to ("Power limit", "PL (W)", "TDP"): settings
_POWER_HEADER = re.compile(r"(?i)[\s*_`]*(?:power[ _-]?(?:limit|cap)|pl|tdp)(?:\s*\(w\))?[\s*_`]*")
_SETTING_HEADER = re.compile(r"^\s*-{0,2}[A-Za-z]+(?:[-_][A-Za-z]+)+\s*$")


#: a column's header naming a quantity no phase's rate is: a count of parts or runs, a size, a
#: setting, a ratio ("| Experts |", "| GPUs |", "| Max batch |", "| Block size |", "| Runs |",
#: "| Speedup |"): under a heading naming a rate, the table mixes quantities
_NOT_A_RATE_HEADER = re.compile(
    r"(?i)\b(?:experts?|gpus?|cards?|nodes?|batch|block|size|layers?|params?|parameters|runs?|trials?|"
    r"speed-?up|ratio|relative|accept\w*|latency|ttft|tpot|vram|memory|ram)\b"
)


def _phase_label(label: str) -> bool:
    """Whether a short label (five words at most) names a phase's rate, not its time or tokens
    ("C1 decode, greedy", "Prefill @10K"; not "Prefill time")."""
    return (
        _RATE_PHASE.search(label) is not None
        and _TIMED.search(label) is None
        and len(re.findall(r"\w+", label)) <= 5
    )


#: a column (or a row) of the values a reader should aim for, no run's ("| Good value |" over "50+ t/s
#: typical", "<5s on SSD"; "Recommended", "Ideal"): a scale's thresholds, no results
_TARGET_HEADER = re.compile(
    # (not "good" alone, a row's feel; not "Expected speed", a post's own prediction: a claim)
    r"\W*(?:good\s+(?:values?|range)|(?:recommended|ideal)(?:\s+(?:values?|range|speed|rate))?)\W*",
    re.IGNORECASE,
)
#: a target's column, a value to aim for beside one achieved ("| Target | Achieved |"; a "Target"
#: alone is speculative decoding's target model as often)
_GOAL_HEADER = re.compile(r"\W*(?:target|goal)(?:\s+values?)?\W*", re.IGNORECASE)
_ACHIEVED_HEADER = re.compile(r"\W*(?:achieved|actual|measured|results?|observed)\b.*", re.IGNORECASE)


def _targets_of(header: list[str], body: list[list[str]]) -> Callable[[str, list[str]], bool]:
    """``targets(column header, row labels)``: whether a cell is a value to aim for, no run's: under
    or beside a label of one (``_TARGET_HEADER``: "Good value", "Recommended", "Ideal"; a
    "Target"/"Goal" only in a table that also heads an achieved value, ``_ACHIEVED_HEADER``)."""
    names = [_unmarked(h) for h in header] + [_unmarked(r[0]) for r in body if r]
    goals = any(_ACHIEVED_HEADER.fullmatch(x) for x in names)

    def targets(column: str, labels: list[str]) -> bool:
        return any(
            _TARGET_HEADER.fullmatch(_unmarked(x)) or (goals and _GOAL_HEADER.fullmatch(_unmarked(x)))
            for x in [column, *labels]
        )

    return targets


def _test_depth(label: str, siblings: list[str]) -> int | None:
    """The depth (tokens already in the context) of a llama-bench test's ``label``: N of "pp512 @
    dN"; 0 for a test named without it ("pp512") among ``siblings`` (the other labels of its row or
    column) of which one writes a depth, as llama-bench names a test at ``n_depth`` 0 (its
    ``test::name()``; ``is_test_cell``, ``cell_conditions``); None for any other label, or where no
    sibling writes one."""
    if not is_test_cell(label):
        return None
    depth = cell_conditions(label).get("depth")
    if depth is not None:
        return int(str(depth))
    return 0 if any(is_test_cell(x) and "depth" in cell_conditions(x) for x in siblings) else None


def _column_unit(header: str, cells: list[str]) -> str | None:
    """The unit a column's header or its first cell states ("tok/s" of "| Decode (tok/s) |" or of
    "| 41.5 tok/s |"), else None."""
    return _header_unit(header) or _cell_unit(next(iter(cells), ""))


def _plain_cell(found: list[Number]) -> object:
    """The number a table cell writes with no unit, as a value to compare ("41.5" -> 41.5, a range
    "40-55*" -> (40.0, 55.0)); None for a cell stating a unit or no number."""
    if not found or found[0].unit is not None:
        return None
    n = found[0]
    if n.range is not None:
        low, high = plain_value(n.low), plain_value(n.high)
        return None if low is None or high is None else (low, high)
    return plain_value(n.text)


#: the decodings a claims file names (docs/claims.md)
_DECODINGS = frozenset({"plain", "speculative", "draft-self"})
#: a configuration's name numbered from zero ("C0", "C0 baseline"): no run has zero requests at once
_CONFIG_ZERO = re.compile(r"[cC]0(?!\d)(?![.,]\d)")


#: headers of columns of two-decimal numbers that are no rates: bits per weight, sampling settings, a
#: quality's divergence or perplexity
_NOT_RATE_HEADER = re.compile(
    r"(?i)\b(?:bpw|bits?|top[ _-]?[pk]|min[ _-]?p|p[ _-]?min|draft[ _-]?p|kld|ppl|perplexity|temp\w*)\b"
)


def _measured_repeats(header: str, cells: list[str], plain: list[object]) -> bool:
    """Whether a column of plain numbers under ``header`` that repeats a value is still one of
    measurements: three cells or more, most of them distinct, each written to two decimals or more
    ("30.03" in the baseline's row and again in a configuration that ran no faster: a coincidence of
    two runs), under no header of a setting or quality (``_NOT_RATE_HEADER``: "bpw" over 4.55 twice);
    a setting's column repeats its few round values ("8", "0.7")."""
    return (
        len(cells) >= 3
        and 2 * len(set(plain)) > len(plain)
        and all(re.search(r"\d\.\d\d", c) for c in cells)
        and not _NOT_RATE_HEADER.search(header)
    )


def _setting_header(header: str) -> bool:
    """Whether a column's header is a setting's name written as a flag ("draft-p-min", "n_ctx"):
    ``_SETTING_HEADER``, but not an engine's name so written ("mlx-lm", "llama-cpp-python": a column
    of that engine's results), nor a name in title case ("Least-busy", "Round-robin": a routing
    compared, its column of results)."""
    return (
        _SETTING_HEADER.search(header) is not None
        and not engines_in(header)
        and not re.fullmatch(r"\s*[A-Z][a-z]+(?:-[a-z]+)+\s*", header)
    )


def _key(header: str) -> str:
    k = re.sub(r"\W+", "_", header.lower()).strip("_")  # any script's letters: "模型", "显存_g"
    return k if k and not k[0].isdigit() else f"c_{k or 'row'}"


#: a tool's snake_case key ending in its unit (a benchmark script's JSON or CSV keys: "duration_s",
#: "mean_ttft_ms", "ram_peak_gb", "output_tok_s", "req_s"): the unit by its last part
_KEY_UNIT = re.compile(
    # lower case, as such keys are written: "Q4_K_S", "Q5_K_S" are quantisations, never "… seconds"
    # (a statistic's word after the unit: "wall_s_total", "ttft_ms_p99", "gen_tok_s_mean")
    r"(?:(?:[a-z][a-z0-9]*(?:_[a-z0-9]+)*?_)?(?P<u>tok_s|toks_s|tokens_s|req_s)"
    r"|[a-z][a-z0-9]+(?:_[a-z0-9]+)*?_(?P<v>ms|s|sec|secs|gb|gib|mb|mib|tps|rps|pct))"
    r"(?:_(?P<stat>total|sum|mean|avg|median|std|min|max|p\d{1,3}(?:\.\d+)?))?"
)
_KEY_UNITS = {
    "ms": "ms",
    "s": "s",
    "sec": "s",
    "secs": "s",
    "gb": "GB",
    "gib": "GiB",
    "mb": "MB",
    "mib": "MiB",
    "tps": "tok/s",
    "tok_s": "tok/s",
    "toks_s": "tok/s",
    "tokens_s": "tok/s",
    "req_s": "req/s",
    "rps": "req/s",
    "pct": "%",
}


#: a header's part naming a quantity and its unit in parentheses ("Request throughput (req/s)")
_HEADER_PART = re.compile(r"\s*(?P<w>[^()/]*[^\W\d_][^()/]*?)\s*\((?P<u>[^()]{1,12})\)\s*")


def header_parts(header: str) -> list[tuple[str, str]]:
    """The quantities a header lists with "/" between them, each with its unit in parentheses
    ("Offline Request throughput (req/s)/ Token throughput (tok/s)" -> [("Offline Request
    throughput", "req/s"), ("Token throughput", "tok/s")]); empty for any other header."""
    text = header.strip().strip("*_`")
    parts = []
    pos = 0
    while pos < len(text):
        m = _HEADER_PART.match(text, pos)
        if m is None:
            return []
        unit = unit_of(m.group("u").strip())
        if unit is None:
            return []
        parts.append((m.group("w").strip(), unit))
        pos = m.end()
        if pos < len(text):
            if text[pos] != "/":
                return []
            pos += 1
    return parts if len(parts) >= 2 else []


def _slashed(cell: str, n: int) -> list[Number] | None:
    """The ``n`` plain numbers of a cell written "14.33/6895.75" (no unit, one "/" between each),
    else None."""
    text = cell.strip().strip("*_`").strip()
    pieces = [p.strip() for p in text.split("/")]
    if len(pieces) != n:
        return None
    out = []
    for p in pieces:
        ns = numbers(p)
        if len(ns) != 1 or ns[0].unit is not None or ns[0].range is not None or ns[0].start != 0:
            return None
        out.append(ns[0])
    return out


#: a row of lengths in tokens named without a unit (genai-perf's "Output sequence length")
_LENGTH_ROW = re.compile(r"(?i)\b(?:input|output|prompt)\s+(?:sequence\s+)?length\b")


#: a row's label counting things other than tokens ("Total samples processed", "Requests completed",
#: "Number of prompts"): its plain number is no quantity in the column's unit
_COUNT_ROW = re.compile(
    r"(?i)^\W*(?:total\s+|number\s+of\s+|num\s+)?(?:samples?|requests?|prompts?|queries|images|items)"
    r"(?:\s+(?:processed|completed|sent|served|run|total))?\W*$"
)


def _share_of_one(text: str) -> bool:
    """Whether a number as written lies between 0 and 1 (an acceptance written as a fraction)."""
    try:
        return 0 <= float(text.replace(",", "")) <= 1
    except ValueError:
        return False


def _row_unit(label: str) -> str | None:
    """The unit a row's label writes in parentheses at its end ("Output length (tokens)", "출력 길이
    (토큰)", "Peak memory (GB)", a colon after it: "Total Latency (ms):") or in words for a count of
    tokens ("Token Evaluation Count"), None where it writes none."""
    m = re.search(r"[(（]\s*([^()（）]{1,12}?)\s*[)）]\s*[:：]?\s*$", label.strip().strip("*_`"))
    if m is None:
        # a count of tokens by its words ("Token Evaluation Count", "Prompt token count", "Tokens
        # generated"): tokens, whatever unit its columns' times are in
        # ("Average completion tokens", "Max prompt tokens": a statistic of a count of tokens)
        counted = re.search(
            r"(?i)\btokens?\b.*\bcount\b|\bcount\s+of\s+tokens\b|^\W*tokens?\s+generated\W*$"
            r"|^\W*(?:avg|average|mean|median|min|max|total|p\d{2})\s+(?:[a-z]+\s+)?tokens\W*$",
            label,
        )
        if counted:
            return "tokens"
        # a drafter's acceptance named by the row ("| Acceptance | 0.87 aggregate … |" under a column
        # of rates, h557): a ratio of accepted to drafted tokens
        accepted = re.fullmatch(r"(?i)\W*(?:draft\s+)?accept(?:ance|ed)?(?:\s+(?:rate|ratio))?\W*", label)
        return "ratio" if accepted else None
    word = m.group(1).strip()
    if re.fullmatch(r"(?i)tokens?|토큰|トークン|令牌|词元|токен\w*", word):
        return "tokens"
    return unit_of(word)


#: a statistic's name alone in a cell or header ("avg", "min", "P99", "median", "std")
def _per_token_cells(column: list[str]) -> bool:
    """Whether every filled cell of a column writes its time per token ("1.2 秒/token", "45 ms/tok")."""
    said = [numbers(c)[:1] for c in column if not _EMPTY.match(c)]
    return bool(said) and all(x and PER_TOKEN_UNIT.search(x[0].unit_written or "") for x in said)


#: a row's label naming a sum of the rows above ("Total", "Sum", "合计") or another statistic of them
_SUM_ROW = re.compile(r"[\s*_`]*(?:total|sum|overall|合计|总计|合計|итого)[\s*_`:]*", re.IGNORECASE)
_STAT_ROW = re.compile(
    r"[\s*_`]*(?:min(?:imum)?|max(?:imum)?|median|p\d{2}(?:\.\d+)?|std\.?|stdev|std\s?dev|mode|最小|最大|中位数?)"
    r"[\s*_`:]*",
    re.IGNORECASE,
)
#: a row's label saying it is the mean of the rows above ("**Average**", "Avg.", "Mean", "平均", "Ø")
_MEAN_ROW = re.compile(
    r"[\s*_`]*(?:average|avg\.?|mean|平均(?:值|値)?|durchschnitt|moyenne|promedio|média|среднее|ø)[\s*_`:]*",
    re.IGNORECASE,
)
_STAT_CELL = re.compile(r"(?i)min|max|avg|average|mean|median|std|stdev|p\d{2}(?:\.\d)?")


#: a quantisation alone as a column's header ("FP8", "W4A8_AWQ", "Q4_K_M", "INT4", "4-bit", "AWQ")
_QUANT_HEADER = re.compile(
    rf"(?:UD-)?{QUANT_TYPE}|(?i:fp8|fp16|bf16|fp32|int8|int4|fp4|nvfp4|mxfp4|"
    r"(?:awq|gptq)(?:[- ](?:int\d|\d-?bits?))?|exl2|"
    r"w\d{1,2}a\d{1,2}(?:[_-](?:awq|gptq|fp8|int8|smoothquant))?|\d{1,2}-?bits?)"
)


def column_quant(header: str) -> str | None:
    """The quantisation a value column's ``header`` is, alone or with a note in parentheses ("FP8",
    "W4A8_AWQ", "Q4_K_M (Granite)", "AWQ INT4"), as written, a ggml type without the file format
    before it ("GGUF Q4_K_M" -> "Q4_K_M"); None for any other header."""
    text = _PAREN.sub(" ", header.strip().strip("*_`")).strip().strip("*_`")
    # (the file format before a ggml type is packaging, no part of it: "| GGUF Q4_K_M | AWQ INT4 |")
    text = re.sub(rf"^(?i:GGUF|MLX)\s+(?=(?:UD-)?{QUANT_TYPE}$)", "", text)
    return text if _QUANT_HEADER.fullmatch(text) else None


@functools.lru_cache(maxsize=512)  # asked for each column of a table more than once
def _header_unit(header: str) -> str | None:
    """The unit a table header names: after a number put before it, as a unit written alone, in
    parentheses of any script ("推理速度（token/s）"), or in words ("每秒生成的令牌数", tokens per
    second: ``toollines.label_unit``); a count of tokens or layers only where written first.  Bold
    or code marks around the header ("**512 tokens (generation, seconds)**") are no part of it."""
    header = header.strip().strip("*_`").strip()
    # a backslash for the rate's slash ("average tk\s", as typed on Windows): the same rate
    header = re.sub(r"(?i)\b(t|tk|toks?|tokens?)\\s\b", r"\1/s", header)
    if _STAT_CELL.fullmatch(header):
        return None  # a statistic's column ("| avg | min | max |", genai-perf's): "min" is no minutes
    per_second = re.search(r"[(（]\s*per\s+sec(?:ond)?\s*[)）]", header, re.I)
    if per_second and re.search(r"(?i)\btok(?:en)?s?\b", header):
        return "tok/s"  # genai-perf's "Output token throughput (per sec)": tokens a second
    if per_second and re.search(r"(?i)\brequests?\b", header):
        return "req/s"  # "Request throughput (per sec)"
    if re.search(r"[(（]\s*ts\s*[)）]\s*$", header):
        return "t/s"  # "Baseline (ts)": tokens a second written without the slash
    if re.fullmatch(r"S(?:_\w+)?\s+t/s", header):
        return "t/s"  # llama-batched-bench's and llama-sweep-bench's "S_PP t/s", "S t/s": no seconds
    keyed = _KEY_UNIT.fullmatch(header)
    if keyed:  # "duration_s", "ram_peak_gb", "output_tok_s": a tool's key, its unit its last part
        return _KEY_UNITS[(keyed.group("u") or keyed.group("v")).lower()]
    timed = re.search(
        r"[(（]\s*(?:[^()（）]*[,;，]\s*)?(seconds?|secs?|s|ms|minutes?|min)\s*[)）]\s*$", header, re.I
    )
    if timed and timed.group(1) == "s" and PLURAL.search(header[: timed.start()].rstrip()):
        timed = None  # "GPU(s)", "Prompt token(s)", "Request(s)": a plural, no seconds
    if timed:  # "512 tokens (generation, seconds)": the time the tokens took, not a count of tokens
        word = timed.group(1).lower()
        return "ms" if word == "ms" else "min" if word.startswith("min") else "s"
    if re.search(
        r"\bacc(?:e?pt)?\w*\.?\s*(?:length|len)\b|\bmean\s+accepted\s+tokens\b|\btok(?:ens?)?\s*(?:/|per)\s*step\b",
        header,
        re.IGNORECASE,
    ):
        return "tokens"  # "Mean Acceptance Length", "Accept Len": tokens accepted per verify step
    # "Token Generation Speed", "Token throughput": tokens per second, a rate, never a count of tokens
    speed = re.search(r"speed|throughput|速度|속도", header, re.IGNORECASE)
    # (a statistic leading it is no unit: "Min Latency" is the least latency, never minutes)
    unled = header[m.end() :].lstrip() if (m := HEADER_EXTREME.search(header)) else header
    for n in numbers("1 " + re.sub(r"[()\[\]（）]", " ", unled)):
        if n.unit and n.start == 0 and not (speed and family(n.unit) == "tokens"):
            return n.unit
    named = label_unit(header)
    if named is not None and family(named) not in ("tokens", "layers"):
        return named
    # a unit after a number of the header is that number's, not the column's: "Theoretical max (5.1 GB
    # model)" holds rates of a 5.1 GB model
    m = re.search(
        r"(?<![\d.]\s)(?<![\d.])(tok/s|t/s|tokens/s|tps|GiB|GB|MiB|MB|ms|%)(?![A-Za-z])",
        header,
        re.IGNORECASE,
    )  # ("tok/step", tokens a step: no rate)
    if m:
        low = m.group(1).lower()  # "Output Tok/s", "Speed (T/S)": the unit as a claims file writes it
        spelled = {"tokens/s": "tok/s", "tps": "tok/s", "gib": "GiB", "gb": "GB", "mib": "MiB", "mb": "MB"}
        return spelled.get(low, low)
    if re.search(r"\b(?:tg|pp)\s?\d*\s?/\s?s\b", header, re.IGNORECASE):
        return "t/s"  # "TG/s", "PP/s": llama-bench's tests (prompt processing, generation) as rates
    if re.fullmatch(r"\W*(?:ppl|perplexity)\b.*", header, re.IGNORECASE):
        return "PPL"
    last = re.search(r"(?:\(|\s)(?:sec|seconds|s)\)?$", header.strip(), re.IGNORECASE)
    if last and not (header.strip().endswith("(s)") and PLURAL.search(header.strip()[:-3])):
        return "s"  # "Time (s)", "T_PP s" (llama-sweep-bench's time columns); not "GPU(s)"
    return None


#: llama.cpp's timing names as a column's header ("eval time", "prompt eval time", "mean eval time"):
#: its timing lines state them in ms, the unit a table of their figures leaves unwritten
_TIMING_HEADER = re.compile(r"\W*(?:mean\s+|avg\.?\s+|average\s+)?(?:prompt\s+)?eval\s+time\W*", re.I)


#: a header naming a part of a request's time with no unit: the time to its first token
_PART_TIME_HEADER = re.compile(
    r"(?i)\W*(?:mean\s+|avg\.?\s+|average\s+|median\s+)?(?:ttft|time\s+to\s+first\s+token)\W*"
)


def _part_time_unit(header: list[str], body: list[list[str]], j: int) -> str | None:
    """The unit of column ``j``, a time to first token written with no unit (``_PART_TIME_HEADER``),
    where one other column is the whole run's time in seconds or ms its header gives or implies
    ("Duration", "Total (s)": ``_header_unit``, ``_timing_unit``), each row one request (no column
    of requests at once, no "Benchmark duration") and each row's first token no later than its
    whole run: that column's unit; else None.  Issue 29's corpus: h610 ("| TTFT | … | Duration |"
    over "0.47" beside "42.41")."""
    if not _PART_TIME_HEADER.fullmatch(header[j]):
        return None
    wholes = [
        (k, u)
        for k, h in enumerate(header)
        if k != j
        and _ELAPSED_HEADER.search(_unmarked(h))
        and family(u := (_header_unit(h) or _timing_unit(_unmarked(h)) or "")) == "time"
    ]
    if len(wholes) != 1 or wholes[0][1] not in ("s", "ms"):
        return None
    if any(LABELS.get(label_key(h), ("",))[0] == "concurrency" for h in header) or re.search(
        r"(?i)bench", header[wholes[0][0]]
    ):
        # (requests run at once, "Benchmark duration": the whole benchmark's time, not a request's;
        # vLLM's serving benchmark prints its TTFT in ms beside a duration in s)
        return None
    k, unit = wholes[0]
    rows = [
        (plain_value(r[j]), plain_value(r[k])) for r in body if max(j, k) < len(r) and not _EMPTY.match(r[j])
    ]
    if not rows or any(a is None or b is None or a > b for a, b in rows):
        return None
    return unit


def _timing_unit(header: str) -> str | None:
    """ "ms" for a header of llama.cpp's timing names over plain numbers (``_TIMING_HEADER``) or of a
    time per output token or between tokens ("Baseline TPOT", "ITL": vLLM's serving benchmark states
    them in ms); "s" for the time a run took (``_ELAPSED_HEADER``); else None."""
    if _TIMING_HEADER.fullmatch(header) or re.search(r"(?i)\b(?:tpot|itl)\b", header):
        return "ms"
    # the time a whole run took, its unit unwritten ("| Time taken |" over "37.003", "| Elapsed |",
    # "| Wall time |"): seconds, the unit a stopwatch and ``time`` report it in
    return "s" if _ELAPSED_HEADER.fullmatch(header.strip().strip("*_`")) else None


#: a time written as minutes and seconds ("2:56.08", "1:33"), hours before them ("1:30:00"): the
#: hours (``h``), minutes (``m``), seconds (``s``) and the seconds' decimals (``d``)
_CLOCK = re.compile(r"(?:(?P<h>\d{1,2}):(?=[0-5]\d:))?(?P<m>\d{1,3}):(?P<s>[0-5]\d(?:\.(?P<d>\d+))?)")

_ELAPSED_HEADER = re.compile(
    r"(?:total\s+)?(?:time\s+taken|elapsed(?:\s+time)?|wall(?:[\s-]*clock)?(?:\s+time)?|total\s+time|"
    r"run\s+time|duration)",
    re.IGNORECASE,
)


def _spanned_header(header: list[str], body: list[list[str]]) -> tuple[list[str], dict[int, int]]:
    """A header naming its measurement once over several columns ("| eval time |  |  |": a spanned
    cell pasted as one named and blank ones): the blank headers take the name before them where
    that name is a measurement (``_names_metric``, ``_MEASURE_HEADER``) and every cell of the blank
    column is a plain number; returns the header and, for each column of such a run, its 1-based
    place in the run (``run_index``).  Issue 29's corpus: p122."""
    out = list(header)
    runs: dict[int, int] = {}
    for j in range(1, len(out)):
        if out[j].strip() or not out[j - 1].strip():
            continue
        name = out[j - 1]
        if not (_names_metric(name) or _MEASURE_HEADER.search(name)):
            continue
        cells = [r[j] for r in body if j < len(r) and not _EMPTY.match(r[j])]
        if not cells or not all(re.fullmatch(r"\s*[~≈]?\s*\d[\d.,]*\s*", c) for c in cells):
            continue
        out[j] = name
        runs.setdefault(j - 1, 1)
        runs[j] = runs[j - 1] + 1
    return out, runs


#: a cell that is one plain number ("2.36", "1,024"): a value, never a column's name
_BARE_NUMBER = re.compile(r"\s*[~≈]?\s*\d[\d.,]*\s*")


def two_row_header(block: Block) -> Block:
    """A table pasted from a spreadsheet into a GitHub issue, its header in two rows: the first names
    a measurement once over the columns it spans and leaves the rest blank ("  | AL |   |", "  |
    TPOT ms |   |   |"), the second, below the rule, names each column ("K | Eagle 1 | Eagle 3 |
    Gain %"); the numbers follow.  Returns the table with one header, each column named by its
    own name and the spanning name in parentheses ("Eagle 1 (AL)", "vanilla (TPOT ms)", as a unit
    is written after a header); a blank column (a spacer) ends the span ("E1 over vanilla" after it
    names a ratio, not a TPOT).  Any other table is returned as it is.  Issue 29's corpus: h395."""
    rows = block.rows
    if len(rows) < 3:
        return block
    top, names, first = rows[0], rows[1], rows[2]
    filled = [j for j, c in enumerate(top) if c.strip()]
    if not filled or top[0].strip() or 2 * len(filled) > len(top):
        return block
    if sum(1 for c in names if c.strip()) < 2 or any(_BARE_NUMBER.fullmatch(c) for c in names):
        return block  # the second row is a row of values: the first is a header with blanks
    if not any(_BARE_NUMBER.fullmatch(c) for c in first[1:]):
        return block
    merged: list[str] = []
    span = ""
    for j, name in enumerate(names):
        above = top[j].strip() if j < len(top) else ""
        if above:
            span = above
        elif not name.strip():
            span = ""  # a spacer column ends the span
        merged.append(f"{name.strip()} ({span})" if span and name.strip() else name.strip() or span)
    return replace(block, rows=[merged, *rows[2:]], row_lines=block.row_lines[1:])


def _mean_columns(header: list[str], runs: dict[int, int]) -> dict[int, list[int]]:
    """The columns stating the mean of a run of columns (``_spanned_header``): "mean eval time"
    after three "eval time" columns -> that column: the run's columns."""
    out: dict[int, list[int]] = {}
    for j, h in enumerate(header):
        m = re.fullmatch(r"\W*(?:mean|avg\.?|average)\s+(.+?)\W*", h, re.IGNORECASE)
        if m is None:
            continue
        cols = [k for k in runs if header[k].strip().lower() == m.group(1).strip().lower()]
        if len(cols) >= 2:
            out[j] = cols
    return out


def _headerless(rows: list[list[str]]) -> bool:
    """Whether a table's first row is a row of values, not its header: pasted without a header
    ("Llama2 | EXL2 4.0 bpw | 7B | 164 t/s | 197 t/s" over "-- | --"; rows of "| Llama 3.3 70B Q4 ·
    2× RTX 5090 | Ollama 28 tok/s · vLLM 32 tok/s | vLLM +14% |" with no rule): a cell after the
    first states a number with its unit, and every other row states one in the same column."""
    # a number in parentheses is the header's qualifier ("Theoretical max (5.1 GB model)",
    # "DeepSeek-R1:14B（32GB）"), no value
    cols = [
        j
        for j, c in enumerate(rows[0])
        if j and any(n.unit for n in numbers(re.sub(r"[(（][^)）]*[)）]", "", c))[:1])
    ]
    if not cols or _METRIC_CORNER.fullmatch(_unmarked(rows[0][0])):
        return False  # (a corner saying the rows are metrics, "| 指标 |", heads the table)
    if len(rows) == 1:
        return True
    if label_key(rows[0][0]) in LABELS:
        return False
    return any(all(j < len(r) and any(n.unit for n in numbers(r[j])[:1]) for r in rows[1:]) for j in cols)


#: what separates the numbers of one cell: a slash or a middle dot between spaces ("116.9 / 120.7",
#: "Ollama 28 tok/s · vLLM 32 tok/s"; never "tok/s", "12/19/32")
_PIECES = re.compile(r"\s+/\s+|\s*[·•、]\s*")
#: a device's name before its busy share in a cell of several ("CPU 60%、GPU 45%"): each its own metric
_PIECE_DEVICE = re.compile(r"(?i)cpu|gpu|npu")
#: a statistic written after its number ("41.3 mean / 41.4 median")
_PIECE_STAT = re.compile(r"(?i)(mean|median|avg|average|min|max|p\d{2})")


def _cell_unit(cell: str) -> str | None:
    """The unit of a cell's first number, or the one its numbers share written after the last
    ("92 / 79 / 68 / 59 %": ``cell_pieces``); none for a value with its spread in % ("85.30 ±
    4.1%": the column's other cells or its label give it)."""
    first = numbers(cell)[:1]
    if (
        first
        and first[0].unit == "%"
        and first[0].spread is not None
        # ("87.7% ± 1.2%": the value's own unit, its spread in the same)
        and not re.match(r"\s*%", cell[first[0].start + len(first[0].text) :])
    ):
        return None  # "85.30 ± 4.1%": a spread in % of the value, whose unit the column gives
    if first and first[0].unit:
        return first[0].unit
    pieces = cell_pieces(cell, "", None) if first else []
    return pieces[0][0].unit if pieces else None


def _piece_setting(word: str) -> dict:
    """The setting one listed word names by its shape: "C4" (``cell_conditions``), a quant
    ("Q5_K_M", ``_CELL_KINDS``); {} for another word."""
    said = cell_conditions(word)
    if not said and dict(_CELL_KINDS)["quant"].fullmatch(word.strip("*_`")):
        said = {"quant": word.strip("*_`")}
    return said


def listed_settings(texts: list[str], count: int) -> list[dict] | None:
    """The settings one of ``texts`` (a row's labels, a header) lists in ``count`` pieces between
    slashes, each piece naming one by its shape (``_piece_setting``: "C2 / C4 / C8 decode" ->
    concurrency 2, 4, 8; "Q4_K_M / Q8_0" -> quant), the same setting in each; None where none lists
    them."""
    for text in texts:
        parts = _PIECES.split(text.strip().strip("*_`").strip())
        if len(parts) != count:
            continue
        # the last piece may carry the label's own words ("C8 decode, greedy"): its first word lists
        said = [
            _piece_setting(p.split(maxsplit=1)[0]) or cell_conditions(p) if p.split() else {} for p in parts
        ]
        if all(said) and len({tuple(sorted(d)) for d in said}) == 1:
            return said
    return None


def cell_pieces(cell: str, header: str, unit: str | None) -> list[tuple[Number, dict]]:
    """The numbers of a table cell stating several of one column's kind, each with the conditions
    that tell it from the others: a statistic after it ("41.3 mean / 41.4 median": ``other.stat``),
    an engine before it ("Ollama 28 tok/s · vLLM 32 tok/s": ``engine``), else its place (a draft
    position, from 0, where the header says "position"; a run, from 1, otherwise: "116.9 / 120.7 /
    120.7", "92 / 79 / 68 / 59 %").  A unit written only after the last is every number's.  Empty
    where the cell is one number, a piece holds other words or not one number ("0 errors / 0 MiB
    VRAM growth"), or a unit is not of the column's family.  Issue 29's corpus: p152, p155, p156, p161."""
    text = cell.strip().strip("*_`").strip()
    parts = _PIECES.split(text)
    if len(parts) < 2:
        return []
    found: list[tuple[Number, str]] = []
    for part in parts:
        ns = numbers(part)
        if len(ns) != 1 or ns[0].range is not None or not stateable(ns[0]):
            return []
        n = ns[0]
        found.append((n, (part[: n.start] + " " + part[n.end :]).strip(" *_`")))
    units = [n.unit for n, _ in found]
    if any(units[:-1]) and len(set(units)) != 1:
        return []
    carried = units[-1] or unit
    if carried is None or (unit is not None and family(carried) != family(unit)):
        return []
    words = [w for _, w in found]
    out: list[tuple[Number, dict]] = []
    for k, (n, word) in enumerate(found):
        extra: dict = {}
        if not word:
            if any(words):
                return []
            if re.search(r"(?i)position", header):
                extra = {"other": {"draft_position": k}}
            else:
                extra = {"run_index": k + 1}
        elif _PIECE_STAT.fullmatch(word):
            extra = {"other": {"stat": stat_name(word)}}
        elif len(engines := engines_in(word)) == 1 and re.fullmatch(r"[\w.\- ]+", word):
            extra = {"engine": engines.pop()}
        elif _PIECE_DEVICE.fullmatch(word) and (n.unit or carried) == "%":
            extra = {"metric": metric_of("%", word)}  # "CPU 60%、GPU 45%": each device's busy share
        else:
            return []
        out.append((replace(n, unit=n.unit or carried), extra))
    return out


def _names_metric(label: str) -> bool:
    """Whether a table label names a metric: a unit (``_header_unit``), a rate's or test's words
    (``_metric_header``), acceptance/latency words, or the time something took (``_TIME_TAKEN``)."""
    return bool(
        _header_unit(label)
        or _metric_header(label)
        or re.search(r"accept|latency|ttft|throughput|吞吐|速度|延迟|遅延|耗时|延時", label, re.IGNORECASE)
        or _DRAFT_RATE.search(label)
        or _TIME_TAKEN.search(label)
    )


#: a label naming the time something took ("Total Execution Time", "Model Load Time", "Processing
#: Time", "Time taken", "Duration"): a metric, the unit its cells write
_TIME_TAKEN = re.compile(
    r"\b(?:execution|load(?:ing)?|processing|total|wall|elapsed|generation|inference|response|run)\s+time\b|"
    r"\btime\s+taken\b|\bduration\b",
    re.IGNORECASE,
)


def _rate_columns(
    header: list[str], body: list[list[str]], kinds: list[str], j: int, lead: str | None = None
) -> dict[int, str]:
    """A table's columns of numbers with a unit other than j's, a multiple, a percentage or a
    fraction, and not relating ones: column -> its unit's family ("rate", "size", ...); a "lead"
    column's unit is the caption's or paragraph's (``lead``)."""
    out: dict[int, str] = {}
    for k, h in enumerate(header):
        if k == j or kinds[k] not in ("value", "lead"):
            continue
        cells = [r[k] for r in body if k < len(r) and not _EMPTY.match(r[k])]
        u = _header_unit(h) or next((n.unit for c in cells for n in numbers(c)[:1] if n.unit), None)
        if u is None and kinds[k] == "lead":
            u = lead
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
    for fam in dict.fromkeys(cols.values()):  # the columns' order, not a set's (hash) order
        same = [k for k, f in cols.items() if f == fam]
        ceiling = [k for k in same if _CEILING_HEADER.search(header[k])]
        if len(same) == 2 and len(ceiling) == 1:
            return next(k for k in same if k != ceiling[0]), ceiling[0]
    return None


def _relation_sides(
    header: list[str], body: list[list[str]], kinds: list[str], j: int, unit: str, lead: str | None = None
) -> str | None:
    """How a table's relating column ``j`` (multiples "x" or changes "%": "vs baseline",
    "Speedup") finds the two sides of each cell in the table: "pair" (two rate columns of one unit
    in the row: "Standard t/s | TurboQuant t/s | Gain"), "row" (one rate column, and a row to read
    as the baseline: labelled baseline/plain/off/no-spec, or whose cell is 1× / 0%), else None: the
    other side is not in the table ("Baseline | Best speedup" with the speculative rate not given,
    or no baseline row), so the cells are claims of the change, not statements with guessed sides
    (issue 29: a self-ratio and other rows' baselines were cited)."""
    rate_units = _rate_columns(header, body, kinds, j, lead)
    if any(
        f in ("rate", "requests") for f in rate_units.values()
    ):  # "Speedup" beside a file size and the VRAM: the rates
        rate_units = {k: f for k, f in rate_units.items() if f in ("rate", "requests")}
    fams = list(rate_units.values())
    if any(fams.count(f) >= 2 for f in fams):
        return "pair"
    if any(
        len(cell_pieces(row[k], header[k], None)) >= 2 for k in rate_units for row in body if k < len(row)
    ):
        return "pair"  # "Ollama 28 tok/s · vLLM 32 tok/s": the two sides in one cell
    if len(rate_units) != 1 or _BASELINE.search(header[next(iter(rate_units))]):
        return None  # "Baseline | Best speedup": the row's other rate is not in the table
    kinds_of_rows = [
        " ".join(c for k, c in enumerate(row[: len(header)]) if kinds[k] == "label" and not _EMPTY.match(c))
        for row in body
    ]
    if any(_BASELINE.search(lab) for lab in kinds_of_rows):
        return "row"
    if any(j < len(row) and _BASELINE_CELL.fullmatch(row[j]) for row in body):
        return "row"  # "| 11 tokens | 83.6 | baseline |" under "Slowdown"
    one = 1.0 if unit == "x" else 0.0
    if any(plain_value(n.text) == one for row in body if j < len(row) for n in numbers(row[j])[:1]):
        return "row"
    return None


def _unit_factor(unit: str | None, to: str | None) -> float:
    """``units.factor`` (a difference in ms of claims in s: 1000), 1 where not one known quantity."""
    try:
        return factor(unit, to)
    except UnitError:
        return 1.0


def _percent_ratios(cells: list[str]) -> bool:
    """Whether a relating column's percentages are ratios, not changes: every cell's first number
    unsigned, from 20% to 500%, one at least 100% ("vs upstream": 73%, 102%, 127% of the other
    engine's rate); a change is written signed ("+6.2%") or is small."""
    firsts = [ns[0] for c in cells if not _EMPTY.match(c) and (ns := numbers(c))]
    values = [plain_value(n.text) for n in firsts if n.unit == "%" and n.range is None]
    if not firsts or len(values) != len(firsts) or any(re.match(r"\W*[+\-−]", c) for c in cells):
        return False
    return all(v is not None and 20 <= v <= 500 for v in values) and max(v or 0 for v in values) >= 100


def _quotients(
    header: list[str], body: list[list[str]], kinds: list[str], j: int, lead: str | None = None
) -> bool:
    """Whether a column of multiples its header does not call relating ("| baseline | bf16 drafter |
    8-bit drafter | bf16 | 8-bit |" over "38.48 | 68.54 | 87.28 | 1.78x | 2.27x") holds, in two rows or
    more and in every row stating one, a quotient of two rate cells of its row as written (within
    1%, or 0.01 of a multiple rounded to two places): the speedups of those cells, statements to
    draft, not claims of their own."""
    cols = _rate_columns(header, body, kinds, j, lead)
    cols = {k: f for k, f in cols.items() if f in ("rate", "requests")}
    if len(cols) < 2:
        return False
    held = 0
    for row in body:
        first = [n for n in numbers(row[j]) if n.unit == "x"][:1] if j < len(row) else []
        stated = plain_value(first[0].text) if first and first[0].range is None else None
        if stated is None:
            if j < len(row) and not _EMPTY.match(row[j]):
                return False
            continue
        cells = [v for k in cols if k < len(row) and (v := _mid_of(row[k]))]
        if not any(
            a and abs(b / a - stated) <= max(0.01 * stated, 0.0051)
            for i, a in enumerate(cells)
            for k, b in enumerate(cells)
            if i != k
        ):
            return False
        held += 1
    return held >= 2


def _column_relates(
    header: list[str], body: list[list[str]], kinds: list[str], j: int, unit: str, lead: str | None = None
) -> bool:
    """Whether a relating column's cells (``_relation_sides`` found where its sides are) are what
    the sides give: False where no row's number is, within a tenth, the quotient or change of two
    rate cells of its row (either order) or of its rate cell and the same column's cell of a
    baseline row (labelled baseline, or whose cell is 1× / 0% / "baseline"): "vs upstream" over
    "73% → 97% (mlx-lm)" beside Before 120.68 and After 160.90 (+33%) states each build against a
    third engine the table does not give, no change from Before to After.  True where the table
    gives no two cells to test (a baseline in the prose above it).  ``lead``: the unit of "lead"
    columns (``_rate_columns``)."""
    cols = _rate_columns(header, body, kinds, j, lead)
    if any(f in ("rate", "requests") for f in cols.values()):  # beside a file size and VRAM: the rates
        cols = {k: f for k, f in cols.items() if f in ("rate", "requests")}
    labels = [
        " ".join(c for k, c in enumerate(row[: len(header)]) if kinds[k] == "label" and not _EMPTY.match(c))
        for row in body
    ]
    # ("| vllm | sglang | boost |" over "0.032 | 0.016 | 200%": a ratio written in per cent)
    percent_ratio = unit == "%" and _percent_ratios([r[j] for r in body if j < len(r)])
    one = 1.0 if unit == "x" else 100.0 if percent_ratio else 0.0
    bases = [
        r
        for r, row in enumerate(body)
        if _BASELINE.search(labels[r])
        or (j < len(row) and _BASELINE_CELL.fullmatch(row[j]))
        or (j < len(row) and any(plain_value(n.text) == one for n in numbers(row[j])[:1]))
    ]
    tested = False
    for r, row in enumerate(body):
        # "73% → 97%": the first, as drafted; "+4.2s (+110.53%)": the change, not the difference
        first = [n for n in numbers(row[j]) if n.unit in ("x", "%", None)][:1] if j < len(row) else []
        stated = plain_value(first[0].text.replace("−", "-")) if first and first[0].range is None else None
        if stated is None or r in bases:
            continue
        cells = {k: v for k in cols if k < len(row) and (v := _mid_of(row[k]))}
        options = [
            (a, b) for ka, a in cells.items() for kb, b in cells.items() if ka != kb and cols[ka] == cols[kb]
        ]
        options += [
            (b, a)
            for base in bases
            for k, a in cells.items()
            if k < len(body[base]) and (b := _mid_of(body[base][k]))
        ]
        for a, b in options:
            tested = True
            got = b / a if unit == "x" else b / a * 100 if percent_ratio else (b / a - 1) * 100
            # (a ratio in per cent within a hundredth: "73% → 97%" of an engine the table does not
            # give is no ratio of its 120.68 and 160.90, 75%)
            if abs(got - stated) <= (0.015 if percent_ratio else 0.1) * max(abs(stated), 1.0):
                return True
    return not tested


#: a header naming the draft's acceptance by its rate alone ("draft rate", "Draft-Rate")
_DRAFT_RATE = re.compile(r"\bdraft[ _-]?rate\b", re.IGNORECASE)


def _ratio_column(header: str, cells: list[str]) -> str | None:
    """ "ratio" for an acceptance column written as fractions with no unit ("Acceptance": 0.73,
    "0.38-0.90"; "draft rate": the drafted tokens' rate of acceptance, ``_DRAFT_RATE``) or a score's
    ("Accuracy": 0.955, "N/A", ``_SCORE_HEADER``): every cell with a number has numbers from 0 to 1
    only; else None."""
    if (
        not re.search(r"accept", header, re.IGNORECASE)
        and not _DRAFT_RATE.search(header)
        and not _SCORE_HEADER.search(header)
    ):
        return None
    found = [numbers(c) for c in cells if not _EMPTY.match(c)]
    if not found or not all(found):
        return None
    values = [
        float(x) for ns in found for n in ns for x in (n.range or (n.text,)) if plain_value(x) is not None
    ]
    ok = all(not n.unit for ns in found for n in ns) and values and all(0 <= v <= 1 for v in values)
    return "ratio" if ok else None


def _tokens_column(header: str, cells: list[str]) -> str | None:
    """ "tokens" for a column of whole numbers under a header naming tokens in any script and no
    rate ("総トークン", "Total tokens"; not "トークン速度", "tok/s"); else None.  A header a table's
    label names (``LABELS``: "Tokens", "Output tokens") is the tokens generated, a condition."""
    accept_length = re.search(rf"{ACCEPT_LENGTH_WORDS}|(?-i:\b[MA]?AL\b)", header, re.IGNORECASE)
    if accept_length and cells and all(re.fullmatch(r"\s*\d+(?:\.\d+)?\s*", c) for c in cells):
        return "tokens"  # "acc len", "AL", "τ": a mean of tokens accepted per verify step
    if not re.search(
        r"トークン|토큰|令牌|токен|\btokens?\b", header, re.IGNORECASE
    ) and not _LENGTH_ROW.search(header):
        return None
    if re.search(r"/|速度|per\b|\brate\b|秒|초|speed|throughput", header, re.IGNORECASE):
        return None
    # (a length's statistics are whole or not: genai-perf's "Output sequence length" mean 296.60)
    whole = r"\s*[\d,]+\s*" if not _LENGTH_ROW.search(header) else r"\s*[\d,]+(?:\.\d+)?\s*"
    ok = cells and all(re.fullmatch(whole, c) for c in cells)
    return "tokens" if ok else None


#: a table's corner cell saying its rows are metrics ("Metric", "指标", "指標", "Kennzahl", "Метрика",
#: "지표"): configurations are its columns
_METRIC_CORNER = re.compile(
    r"\W*(?:metrics?|指标|指標|評価指標|kennzahl|metrik|метрика|показатель|지표|메트릭)\W*", re.I
)


def _named_row(label: str, body: list[list[str]]) -> int | None:
    """The row a row of changes names in parentheses ("**Gain (Mean TTFT)**" -> the row labelled
    "Mean TTFT (ms)": its label, unit apart), where its words relate (``_RELATING_HEADER``) and one
    other row's label is that name; else None."""
    m = re.fullmatch(r"\W*([^()]*?)\s*\(([^()]+)\)\W*", label)
    if m is None or _RELATING_HEADER.search(m.group(1)) is None:
        return None
    name = m.group(2).strip().lower()
    rows = [
        r
        for r, row in enumerate(body)
        if row and re.sub(r"\s*\([^()]*\)\s*$", "", row[0].strip().strip("*_` ")).lower() == name
    ]
    return rows[0] if len(rows) == 1 else None


def _transposed(rows: list[list[str]]) -> str | None:
    """How a table is laid out when its metrics are rows: "rows" (the first column names metrics,
    "Avg tok/s", "MTP accept", in two or more rows and in more rows than the header names
    configurations with a unit: a transposed table, configurations as columns), "keyvalue" (two
    columns, the header row itself a metric and its value: "| 吞吐（tokens/s） | 1581 |"), else None.
    Issue 29's corpus: p04, p52."""
    header, body = rows[0], rows[1:]
    if len(header) == 2 and _names_metric(header[0]) and re.fullmatch(r"[~≈]?\s*[\d.,]+\s*", header[1]):
        return "keyvalue"
    if len(header) > 2 and _METRIC_CORNER.fullmatch(_unmarked(header[0])) and len(body) >= 2:
        return "rows"
    if len(header) == 2 and _METRIC_CORNER.fullmatch(_unmarked(header[0])) and len(body) >= 2:
        return "rows"  # "| 指标 | 最终配置 | 原始配置 (vLLM) |": its corner says the rows are metrics
    if any(_names_metric(h) and not _RELATING_HEADER.search(h) for h in header[1:]):
        return None  # a "% Difference" column relates the configurations: no metric of its own
    # a row's first cell names a metric ("Avg tok/s"), it is no value ("12 tok/s" under "Speed")
    # (or writes its unit in parentheses: "Output sequence length (tokens)", "Peak memory (GB)";
    # genai-perf's "Output sequence length" beside them)
    naming = sum(
        1
        for r in body
        if r
        and (
            _names_row(_unmarked(r[0]))
            or _row_unit(_unmarked(r[0])) not in (None, "ratio")  # (an "Acceptance" row: no metric's row)
            or _LENGTH_ROW.search(r[0])
        )
    )
    # a short label naming a phase's rate ("| C1 decode, greedy | 133 | 135.5 |" beside "| GSM8K |
    # 96.5% | 98.3% |", "| Prompt Processing | 5–10% slower |"): a metric's row
    naming += sum(1 for r in body if r and not _names_row(_unmarked(r[0])) and _phase_label(_unmarked(r[0])))
    if not any(n.unit for r in body for c in r[1:] for n in numbers(c)[:1]):
        # a spreadsheet's rows of plain numbers labelled by phase ("Prefill", "Decode", "Time prefill"):
        # metrics as rows; beside cells stating their units a phase's row is read as it stands
        naming += sum(1 for r in body if r and _PHASE_LABEL.fullmatch(re.sub(r"[*_`]", "", r[0])))
    # one row naming its metric over configurations ("| metric | Qwen3-8B | Qwen3-4B |" over "|
    # `output_tok_s` | 40.0 | 45.0 |") is the same table with one metric
    return "rows" if naming >= 2 and naming * 2 >= len(body) or naming == len(body) == 1 else None


#: a KV cache's data type as a cell writes it ("FP8", "fp8_e4m3", "BF16", "q8_0", "auto")
_KV_DTYPE = re.compile(
    r"\s*[*_`]*(?:fp8(?:[_-]e[45]m[23])?|e[45]m[23]|bf16|f16|fp16|f32|fp32|q\d_\w+|q\d|int[48]|fp4|nvfp4|"
    r"turbo\d|auto)[*_`]*\s*",
    re.IGNORECASE,
)


#: a cell that is a measured time: "42.5s", "3m 12s", "1:02:03", "850 ms"
_MEASURED_CELL = re.compile(
    r"(?i)~?\d+(?:\.\d+)?\s?(?:ms|s|sec|secs|seconds|min|mins|minutes|h|hours?)"
    r"|\d+\s?(?:h|m|min)\s?\d+(?:\.\d+)?\s?(?:m|min|s|sec)|\d{1,2}:\d{2}(?::\d{2})?(?:\.\d+)?"
)


def _spanned_labels(body: list[list[str]], columns: list[int]) -> dict[tuple[int, int], str]:
    """The blank cells of label ``columns`` that repeat the cell above, as a table drawn with
    merged cells leaves them ("| Codellama-7b.Q5_K_M.gguf | Quick sort … | 1 | 98% |" then "|   |
    | 2 | 174% |": the model and question of every thread count): (row, column) -> the last
    written cell above, where the first label column's first row is written and the row states
    something outside its labels in the units of the row above; only the blank cells before the
    row's first written label cell
    ("|| ngl 1 | | 23% CPU |": the model above, run with one layer on the GPU; the cells after it
    are blank).  A dash or "n/a" is a cell of its own."""
    out: dict[tuple[int, int], str] = {}
    if not columns or not body or columns[0] >= len(body[0]) or not body[0][columns[0]].strip():
        return out
    last: dict[int, str] = {}
    for r, row in enumerate(body):
        cells = [(j, row[j].strip() if j < len(row) else "") for j in columns]
        written = [j for j, c in cells if c.strip("*_`")]
        blank = [j for j, c in cells if not c.strip("*_`")]
        values = any(c.strip() for k, c in enumerate(row) if k not in columns)
        above = body[r - 1] if r else []
        # (a row of other units than the row above states something else of it: "| | Vulkan +5.3% |"
        # under rates is the change between the rows above, no run of the row above's; read only
        # for a row with a blank label: its cells' numbers once more)
        if (
            r
            and blank
            and values
            and all(
                family(_cell_unit(c)) == family(_cell_unit(above[k]))
                for k, c in enumerate(row)
                if k not in columns and k < len(above) and c.strip() and above[k].strip()
            )
        ):
            for j in blank:
                if j in last and (not written or j < min(written)):
                    out[(r, j)] = last[j]
        for j, c in cells:
            if c.strip("*_`"):
                last[j] = c
    return out


def _label_cells(key: str, cells: list[str]) -> bool:
    """Whether a column under the known label ``key`` (``LABELS``) holds that label's values: a KV
    cache column its data types ("| KV cache | FP8 |"), not sizes ("| KV cache | 4.5 GB |": a result);
    a named column ("Runtime") not when every cell is a time (``_MEASURED_CELL``: "42.5s"); any other
    label's column, always."""
    if LABELS[key][1] == "kv":
        return all(_KV_DTYPE.fullmatch(c) for c in cells)
    if (
        LABELS[key][1] == "str"
        and cells
        and all(_MEASURED_CELL.fullmatch(c.strip().strip("*_`")) for c in cells)
    ):
        return False  # "| Runtime | 42.5s |", "| Engine | 3m 12s |": times a run took, results
    if (
        LABELS[key][1] == "str"
        and cells
        and all(re.fullmatch(r"[\s*_]*\d+(?:\.\d+)?\s*%[\s*_]*", c) for c in cells if not _EMPTY.match(c))
        and not all(_EMPTY.match(c) for c in cells)
    ):
        return False  # "| CPU |" over "98%", "174%": the processor's utilisation, a result, no processor
    if (
        LABELS[key][0] == "prompt"
        and cells
        and all(re.fullmatch(r"[\s*_]*\d+\.\d+[\s*_]*", c) for c in cells)
    ):
        return False  # "| Dtype | Prompt | Generation |" over "494.712 | 26.333": the prompt's rate, a result
    if cells and all(
        (ns := numbers(c)) and family(ns[0].unit) in ("rate", "requests")
        for c in cells
        if not _EMPTY.match(c)
    ):
        return False  # "| Concurrency | 2.47 tok/s | 4.56 req/s |" (metrics as rows): rates, results
    return True


def _decoding_label(cell: str) -> str | None:
    """The decoding a row's label names where that is all it names ("Baseline", "Vanilla", "w/o
    spec", "EAGLE-3", "Spec (k=4)": ``draftnames.header_decoding``); None for a cell of more words
    or naming a model, quant or machine too ("27B IQ3+MTP (A)", "Best (no MTP)": the table's other
    columns say how each row decoded), or a yes/no (a column about something else)."""
    text = re.sub(r"\s*\([^()]*\)\s*$", "", cell.strip().strip("*_`")).strip()
    if not text or len(text.split()) > 3 or any(m.path != "decoding" for m in mentions(text)):
        return None
    if re.fullmatch(r"(?i)specs?|specification|spec sheet", text):
        return None  # "| Spec | 400 |" beside "| Measured | 350 |": the data sheet's figure
    return header_decoding(text)


def _unmarked(cell: str) -> str:
    """A label cell without its Markdown marks ("**Avg tok/s**", "*TTFT*"); a tool's snake_case key
    keeps its underscores ("`duration_s`": ``_KEY_UNIT``)."""
    bare = cell.strip().strip("*_`").strip()
    return bare if _KEY_UNIT.fullmatch(bare) else re.sub(r"[*_`]", "", cell)


def _names_row(label: str) -> bool:
    """Whether a row's first cell names a metric (``_names_metric``, or memory: "VRAM") and is no
    value ("12 tok/s" under "Speed"); a count before the metric's words is part of the name ("3200
    tokens (prompt processing, seconds)")."""
    if re.fullmatch(r"\W*[~≈]?\d[\d.,]*\s*[^\s\d(]*\W*", label):
        return False  # "12 tok/s", "41.5": a value
    if re.match(r"\W*\d", label) and not any(
        re.search(r"[^\W\d_]", p) and _names_metric(p) for p in re.findall(r"\(([^()]*)\)", label)
    ):
        # "16K ctx", "230 W (ours)": a setting, its remark names no metric in words
        return False
    memory = re.fullmatch(r"\W*(?:vram|memory|ram|显存|内存)(?:\s+\w+)?\W*", label, re.IGNORECASE)
    return _names_metric(label) or memory is not None


#: a column's header naming a phase's rate and the setting it ran at, no unit ("Gen 72k", "Decode
#: @ 32K", "PP 4096"): a rate in the unit the table's other rate columns state
_PHASE_COLUMN = re.compile(
    r"(?:gen|generation|decode|prefill|pp|tg)\s*(?:@\s*)?\d+(?:\.\d+)?\s?[kK]?(?:\s*(?:ctx|context|tokens?))?",
    re.I,
)
#: a caption saying what the two numbers of each cell are ("Values are decode tokens per second /
#: time to first token in milliseconds", "Cells show tok/s / TTFT (ms)"): each side's words
_PAIR_CAPTION = re.compile(
    r"\b(?:values?|numbers?|cells?|entries|figures?|results?)\s+(?:are|show|give|read|as)\s+(?:the\s+)?"
    # the sides split at a spaced slash ("tok/s / TTFT (ms)": a unit's slash is no split)
    r"(?P<a>(?:(?!\s/\s)[^.;:]){2,60}?)\s+/\s+(?P<b>(?:(?!\s/\s)[^;:]){2,60}?)\s*(?:[.;:](?!\d)|$)",
    re.IGNORECASE,
)
#: a cell of two numbers, a slash between ("81.0 / 51")
_PAIR_CELL = re.compile(
    r"[^\w\-–—]*(?:(?P<a>\d[\d.,]*)|[-–—]|n/?a)\s*/\s*(?:(?P<b>\d[\d.,]*)|[-–—]|n/?a)[^\w\-–—]*", re.I
)


def cell_pair(caption: str) -> tuple[str, str] | None:
    """The two quantities a caption says each cell of the table below holds, "A / B" (``_PAIR_CAPTION``),
    each side naming a unit (``toollines.label_unit``: "decode tokens per second" -> tok/s, "time to
    first token in milliseconds" -> ms); None otherwise.  Issue 29's corpus: p170."""
    m = _PAIR_CAPTION.search(caption or "")
    if m is None:
        return None
    a, b = m.group("a").strip(), m.group("b").strip()
    return (a, b) if label_unit(a) and label_unit(b) else None


def _split_pairs(block: Block, pair: tuple[str, str]) -> Block:
    """``block`` with each column of "A / B" cells (``_PAIR_CELL``; one side a dash, "40 / –", and
    cells stating no result, "crashed", allowed) split in two, headed by the column's header and
    each side's words in parentheses ("Gemma 4 E2B (decode tokens per second)"), so each number is
    read with its own unit and metric; the block as it is where no column holds such pairs."""
    header, body = block.rows[0], block.rows[1:]
    paired = [
        j
        for j in range(1, len(header))
        if (cells := [r[j] for r in body if j < len(r) and not _EMPTY.match(r[j])])
        and all(_PAIR_CELL.fullmatch(c) for c in cells)
    ]
    if not paired:
        return block
    rows = []
    for r, row in enumerate(block.rows):
        out: list[str] = []
        for j, cell in enumerate(row):
            if j not in paired:
                out.append(cell)
            elif r == 0:
                out += [f"{cell} ({pair[0]})", f"{cell} ({pair[1]})"]
            elif (m := _PAIR_CELL.fullmatch(cell)) is not None:
                out += [m.group("a") or "", m.group("b") or ""]  # "40 / –": the second not measured
            else:
                out += [cell, cell]  # "crashed": neither number
        rows.append(out)
    return replace(block, rows=rows)


#: a llama.cpp tool named in a label cell ("raw llama-server", "llama-bench (CUDA)"): the engine
_LLAMA_TOOL = re.compile(r"(?<![\w-])llama-(?:server|cli|bench|batched-bench|speculative)(?![\w-])", re.I)
#: a phase's word alone, naming its rate, time or tokens ("Prefill", "Decode", "Time prefill",
#: "Tokens decode"): a table's row of measurements, no prompt
#: a header naming a phase's rate, whose unit the field writes tokens per second ("decode",
#: "Prefill @10K", "tg128", "gen speed"); ``_TIMED``: one naming its time or count instead
#: (llama-bench's bare "pp"/"tg" head its test sizes, 512 and 128, as often as rates: a test with
#: its size, "pp512", or a word; PCIe's "gen" is its generation)
_RATE_PHASE = re.compile(
    r"(?<![A-Za-z])(?:decode|decoding|prefill|generation|(?<!pcie )(?<!pcie-)gen|pp\d+|tg\d+|"
    r"prompt processing|eval rate)(?![A-Za-z])",
    re.IGNORECASE,
)
_TIMED = re.compile(
    r"(?i)\b(?:time|ttft|latency|duration|tokens|count|len(?:gth)?|ms|sec|seconds|steps?|chunks?|"
    r"lanes?|size|batch(?:es)?|layers?|calls?|runs?)\b|\(s\)"
)
_PHASE_LABEL = re.compile(
    r"\W*(?:(?:time|tokens?|speed)\s+)?(?:prefill|decode|generation|prompt processing|eval)"
    r"(?:\s+(?:time|tokens?|speed))?\W*",
    re.IGNORECASE,
)


#: llama-batched-bench's own columns (tools/batched-bench: S_PP and S_TG are summed over the ``B``
#: sequences decoded at once, N_KV the cache cells they fill)
_BATCHED_COLUMNS = re.compile(r"^(?:S_PP|S_TG|T_PP|T_TG|N_KV)\b", re.IGNORECASE)


#: llama-batched-bench's setting columns (``label_key``) -> the condition each row's cell sets: the
#: prompt's and the generation's tokens of each sequence, the sequences at once, the cache cells
#: filled (B × (PP + TG), no depth of one sequence)
_BATCHED_LABELS = {
    "pp": "other.prompt_tokens",
    "tg": "tokens_generated",
    "b": "concurrency",
    "nkv": "other.n_kv",
}


#: a unit written in a header ("Δ (t/s)", "delta tok/s", "gain %", "ms"), not one its words imply
_WRITTEN_UNIT = re.compile(r"(?i)t/s|tok(?:ens?)?/s|\bms\b|\(s\)|[KMG]i?B\b|%|×|\bx\b")
#: a rate column's header naming its workload before the rate ("Code TPS", "Chat tok/s", "Math
#: t/s (avg)"): that column's prompt, the word as written
_WORKLOAD_HEADER = re.compile(
    r"(?i)(?P<w>code|coding|chat|narrative|math|reasoning|summar\w*|creative|writing|translation|qa|rag"
    r"|agentic|json|prose|story)\s*(?:\s(?:tps|tok/s|t/s|tokens?/s|speed|rate|throughput)"
    # (or its unit in parentheses: "| code (t/s) | chat (t/s) |")
    r"|\(\s*(?:tps|tok/s|t/s|tokens?/s)\s*\))(?:\s*\([^()]*\))?"
)
#: a phase named in a header ("PP speedup", "TG delta", "Prefill gain")
_PHASE_WORD = re.compile(r"(?i)\b(?:pp|tg|prefill|decode|prompt|generation|gen)\b")


def _phase_of(header: str) -> str | None:
    """ "pp" or "tg": the phase a header names (``_PHASE_WORD``), None for none or both."""
    said = {"pp" if w.lower() in ("pp", "prefill", "prompt") else "tg" for w in _PHASE_WORD.findall(header)}
    return said.pop() if len(said) == 1 else None


#: a cell of counts: "143/164" (k of n)
_FRACTION = re.compile(r"(\d+)\s*/\s*(\d+)")
#: a cell's word of a setting switched on or off ("graphs off", "FA on", "with MTP")
_SWITCHED = re.compile(r"(?i)\b(?:on|off|enabled?|disabled?|with|without|w/o|yes|no)\b")
#: a header naming a score of tasks passed ("pass@1", "HumanEval+", "accuracy", "GSM8K")
_SCORE_HEADER = re.compile(r"(?i)pass@\d+|accura|humaneval|gsm8k|mmlu|score|solved|correct")
#: a draft model's cell saying the row has none ("None", "-", "n/a", "off")
_NO_DRAFT = re.compile(r"(?i)none|no|off|n/?a|[-—–]")


def _no_draft(cell: str) -> bool:
    """A drafting column's cell that drafts nothing: "none", "off", "n/a", a dash (``_NO_DRAFT``),
    or those with their reason ("n/a - no mtp", "none (baseline)", "off: plain"), each part a
    no-draft word or a label of plain decoding (``_decoding_label``)."""
    text = cell.strip().strip("*_`").strip()
    if _NO_DRAFT.fullmatch(text):
        return True
    parts = [p for p in re.split(r"\s+[-—–]\s+|\s*[(),:;]\s*", text) if p.strip()]
    return len(parts) > 1 and all(
        _NO_DRAFT.fullmatch(p.strip()) or _decoding_label(p) == "plain" for p in parts
    )


#: a cell written in quotes ("“解释勾股定理”", "'Write a haiku'"): a prompt's text as typed
_QUOTED = re.compile(r"[\"“「『'‘].+[\"”」』'’]")

#: headers naming a model only where their cells read as one ("| target | draft |" over "7B -q4"; a
#: build's "| Target |" over "CUDA", a "| Verifier |" of yes and no name none)
_TARGET_LABELS = frozenset(
    {"target", "target model", "main model", "verifier", "verifier model", "主模型", "目标模型"}
)
#: headers naming a machine only where their cells read as one ("| Machine |" over "M4 Mac mini (16GB,
#: current)", "Dell Pro Max GB10"; a "| Host |" of "localhost" or a "| Machine |" of "A" and "B" none)
_MACHINE_LABELS = frozenset(
    {"machine", "test machine", "host", "rig", "computer", "机器", "マシン", "машина"}
)


def _names_model(cell: str) -> bool:
    """Whether a cell reads as a model's name: one a post's prose names (``mentions``) or a size in
    billions or millions ("7B -q4", "0.5B")."""
    name, _ = model_cell(cell)
    return any(m.path == "model" for m in mentions(cell)) or bool(
        re.search(r"(?<![\w.])\d+(?:\.\d+)?\s?[BbMm]\b", name)
    )


def _machine_cell(cell: str) -> str | None:
    """The machine a "| Machine |" cell names ("M4 Mac mini (16GB, current)" -> "Apple M4 (Mac mini)",
    "Dell Pro Max GB10" -> "NVIDIA GB10"), as ``hardware_of`` or the post's names read it; None
    where it names none ("localhost", "A")."""
    got = hardware_of(cell) or cell_names(cell).get("hardware")
    return str(got) if got else None


#: what a "K" header's parentheses may name that is no draft size ("K (active experts)", "K (top-k
#: sampling)", "K (beams)", "K (shots)"): any other ("K (MTP)", "Draft length (max)") keeps it one
_OTHER_K = re.compile(r"(?i)expert|active|top[-_ ]?k|sampl|beam|thread|layer|shot|neighbo|retriev|cluster")
#: the words after a percentage that name it a drafter's acceptance ("(51% acceptance)", "51% accepted")
_ACCEPTANCE_AFTER = re.compile(
    r"\s*(?:draft(?:ed)?\s+)?(?:acceptance|accept(?:ed)?|acc\.)(?:\s+rate)?(?![\w-])", re.I
)
#: a workload cell whose last part, after a comma or in closing parentheses, names the run's
#: decoding: "ordinary prose, no speculation", "code (MTP k=2)"
_WORKLOAD_TAIL = re.compile(r"(?P<w>[^,()]+?)\s*(?:,\s*(?P<d>[^,()]+?)|\(\s*(?P<p>[^()]+?)\s*\))\s*")
#: a drafting method's name (``draftnames.METHOD_WORDS``), "EAGLE 3" and "lookahead" alone too
_METHODS = rf"{METHOD_WORDS}|eagle[- ]\d|lookahead"
#: a workload's last part that names a decoding and at most its settings: "no speculation", "n-gram
#: default", "MTP k=2", "EAGLE-3, 4 draft tokens", "spec on"; not "speculative fiction", "spec document",
#: "MTP-style outline" (words of the prompt's own)
_DECODING_PART = re.compile(
    # (one word of decoding at least: "enabled", "1" alone name none)
    r"(?i)(?=.*(?:speculat|spec\b|draft|mtp|eagle|medusa|dflash|dspark|n-?gram|lookahead|lookup|"
    r"autoregressive|baseline|plain|vanilla))"
    r"(?:\s*(?:no|without|w/o|non[- ]?|plain|baseline|autoregressive|vanilla|speculative|speculation|"
    r"spec(?:ulative)?\s+decoding|spec|draft(?:ing)?|draft\s+model|self[- ]speculative|mtp|"
    rf"{_METHODS}|decoding|default|on|off|enabled|disabled|"
    r"[kn]\s*=\s*\d{1,3}|\d{1,3}\s+(?:draft\s+)?tokens?|\d{1,3}|[,=+])\s*)+"
)
#: a drafting method's name in a workload's last part ("EAGLE-3", "ngram", "Medusa")
_METHOD_PART = re.compile(rf"(?i)\b(?:{_METHODS})\b")
#: a part that is only a yes or a no ("prose, no"): no decoding named
_YES_NO = re.compile(r"(?i)yes|no|on|off|none|n/?a|[✓✔✗✘×x-]")


def _workload_decoding(cell: str) -> tuple[str, str, list[tuple[str, object]]] | None:
    """A prompt's cell that names the run's decoding in its last part ("ordinary prose, no
    speculation", "ordinary prose, MTP k=2", "summaries (EAGLE-3)"): ``(prompt, decoding, [draft
    size])``, the decoding as ``decoding_of_cell`` reads the part (plain, speculative, draft-self)
    and the draft size it writes ("k=2": ``block_max``); None where the part names no decoding or
    the prompt's own words do.  Issue 29's corpus: h608."""
    m = _WORKLOAD_TAIL.fullmatch(cell.strip().strip("*_`"))
    if m is None:
        return None
    part = (m.group("d") or m.group("p")).strip()
    if _YES_NO.fullmatch(part) or not _DECODING_PART.fullmatch(part):
        return None  # "Haiku, enabled", "recursion (1)", "a story (speculative fiction)": no decoding named
    # (a drafting method's name alone, "EAGLE-3", "ngram": speculative, drafting from another model
    # or the context; ``decoding_of_cell`` keeps it as written under a "Mode" column)
    decoded = decoding_of_cell(part, "") or ("speculative" if _METHOD_PART.search(part) else None)
    if decoded is None or decoding_of_cell(m.group("w"), "") is not None:
        return None
    said: list[tuple[str, object]] = []
    settings_in_words(part, said)
    return m.group("w").strip(), decoded, [(p, v) for p, v in said if p == "block_max"]


#: a column headed "提示" (Chinese for a hint as often as a prompt): the prompt where its cells are quoted
_HINT_OR_PROMPT = "提示"


#: a label column naming each row's draft model ("Draft", "Draft model", "Spec Dec (B)": a size in
#: billions) or its weights ("Draft quant", "Spec Quant")
_DRAFT_COLUMN = re.compile(
    r"(?i)\W*(?:draft(?:er)?(?:\s+model)?|spec(?:ulative)?[\s_-]*dec(?:oding)?(?:\s+model)?"
    rf"|{DRAFT_MODEL_CJK})\W*(?:\(\s*B\s*\))?\W*"
)
_BITS = re.compile(r"[\s*_`]*[2-8][\s*_`]*")
_BARE = re.compile(r"\s*\d+(?:\.\d+)?\s*")
_DRAFT_QUANT_COLUMN = re.compile(
    r"(?i)\W*(?:draft|spec(?:ulative)?(?:[\s_-]*dec(?:oding)?)?)[\s_-]*quant\w*\W*"
)
#: a model's family and version (and size) leading a quant column's cell ("GLM-4.7-", "Qwen3-8B-")
_MODEL_PREFIX = re.compile(
    rf"(?i)(?:{MODEL_FAMILIES})[-\s]?\d+(?:\.\d+)*(?:[-\s]\d+(?:\.\d+)?[BM])?[-\s](?=[A-Za-z0-9])"
)
#: a quantisation method a model's name carries without its bits ("-GPTQ", "-AWQ", "-EXL2") and a
#: cell of bits alone ("4-bit", "8bit"): together the weights' quant, "GPTQ 4-bit"
_METHOD_QUANT = re.compile(r"(?i)gptq|awq|exl[23]")
_BITS_CELL = re.compile(r"(?i)\d{1,2}[- ]?bits?")
_FLOAT_CELL = re.compile(r"(?i)float(?:16|32)|b?fp?(?:16|32)|half")
#: a model card's name for its own model in a comparison ("This Model", "this model", "Ours")
_THIS_MODEL = re.compile(r"(?i)this\s+model|our\s+model|ours")
#: a header naming counts ("Drafted", "Accepted", "Output tokens", "Requests", "n_drafted")
_COUNT_HEADER = re.compile(r"(?i)\b(?:drafted|accepted|tokens?|counts?|requests?|reqs|runs?|n_\w+)\b")
#: a column of acceptance rates or lengths ("Acceptance", "Accept rate", "accept len", "α")
_ACCEPT_HEADER = re.compile(r"(?i)\baccept|^\W*α\W*$|接受率|採択率")


def is_batched_bench(header: list[str]) -> bool:
    """Whether a table's ``header`` is llama-batched-bench's (its "B" column beside one of its own
    columns, ``_BATCHED_COLUMNS``: "| PP | TG | B | N_KV | T_PP s | S_PP t/s |", a hand-made "| B |
    Parent S_TG t/s |"): its "B" is the sequences decoded at once, a ``concurrency``, not llama.cpp's
    ``-b`` batch of tokens."""
    if not any(h.strip().strip("*_`") == "B" for h in header):
        return False
    return any(_BATCHED_COLUMNS.search(w) for h in header for w in h.strip().strip("*_`").split())


#: a header naming a quantity other than a rate (memory, a size, a time, power, heat)
_OTHER_QUANTITY = re.compile(
    r"\b(?:v?ram|mem\w*|size|gb|gib|mb|mib|disk|power|watts?|temp\w*|ttft|tpot|latency|time|duration|"
    r"seconds?|ms|accuracy|score|ppl|perplexity)\b|显存|内存|功耗",
    re.IGNORECASE,
)
#: a table header naming a measurement ("TTFT", "Duration", "Latency"): its numbers are results,
#: never a row's condition, and listed as unplaced where the header gives no unit
#: a benchmark tool printing its latencies in one unit a post may leave out of its table (TensorRT-LLM's
#: gptSessionBenchmark and gptManagerBenchmark: "latency(ms)")
_TOOL_LATENCY = re.compile(r"\bgpt(?:Session|Manager)Benchmark\b")
_LATENCY_HEADER = re.compile(r"(?i)\blatency\b")
_MEASURE_HEADER = re.compile(
    r"\b(?:ttft|tpot|itl|e2el?|latency|duration|elapsed|time|wall|ppl|perplexity|throughput|speed|"
    r"memory|vram|accuracy|score)\b|耗时|时间|延迟|時間|速度|시간",
    re.IGNORECASE,
)
#: the settings a row's label may write in words (``Tables._table``)
_ROW_WORDED = frozenset({"concurrency", "cap", "tokens_generated", "ctx", "block_max"})
#: a word after a number of a header saying what the number counts, no release ("4.0 bpw", "0.7 util",
#: "8 bit"): ``Tables.header_versions``
_NOT_RELEASE = re.compile(r"(?i)\s*(?:bpw|bits?|util\w*|gb|gib|mb|b\b|x\b|%|k\b|temp\w*|ctx)")
#: a column's header opening with a release ("0.28 tok/s", "v1.2.3 TTFT"): ``Tables.header_versions``
_HEADER_VERSION = re.compile(r"\W*(?P<v>v?\d+\.\d+(?:\.\d+)*)\s+(?=[^\W\d])")
#: a column of the models' sizes in parameters ("Params", "Parameters", "Size", "# Params", "参数量")
#: and its cells ("70B", "1.5B", "135M", "30B-A3B")
_PARAMS_HEADER = re.compile(
    r"(?i)\W*(?:#\s*)?(?:params?|parameters?|(?:model\s+)?size|参数量?|參數量?|パラメータ数?)\W*"
)
_PARAMS_CELL = re.compile(r"\d+(?:\.\d+)?\s?[BM](?:[-/]A\d+(?:\.\d+)?B)?")
#: the header of a two-column table of settings ("| Setting | Value |", "| Component | Spec |")
_SETTINGS_HEADER = (
    re.compile(
        r"^\W*(?:settings?|parameters?|params?|options?|config(?:uration)?|keys?|items?|specs?|"
        r"components?|hardware|system|environment|env|property|name|"
        r"项目|項目|参数|參數|设置|設定|配置|环境|環境|항목|설정|구성|환경|"
        r"einstellung(?:en)?|komponente|parametro|paramètre|параметр)\W*$",
        re.IGNORECASE,
    ),
    re.compile(
        r"^\W*(?:values?|settings?|config(?:uration)?|specs?|details?|spec(?:ification)?s?|"
        r"配置|值|数值|設定|設定値|値|内容|说明|설정|값|내용|wert|werte|valeur|valor|значение)\W*$",
        re.IGNORECASE,
    ),
)


#: a settings row naming the model's file: a size in it is the weights' ("Ollama format | GGUF Q6_K (6.7 GB)")
_FILE_ROW = re.compile(r"(?i)\b(?:format|file|weights|gguf|checkpoint)\b|模型文件|ファイル")


#: the units a machine's specification is given in: its memory, bandwidth, compute and power
_SPEC_FAMILIES = frozenset({"size", "bandwidth", "compute", "power"})


#: words of a measurement in a table's labels ("| cap | theory | copy |": a probe's copy bandwidth
#: beside the card's theoretical one; "measured", "achieved", 实测)
_MEASURED_LABEL = re.compile(
    r"(?i)\b(?:copy|measured|achieved|actual|observed|bench\w*|probe\w*|result\w*|used|usage|draw|peak"
    r"|consum\w*|load(?:ed)?|vram)\b|实测|测得|測定|実測|占用|使用|消耗|显存"
)


def _spec_table(header: list[str], body: list[list[str]]) -> bool:
    """Whether a table's cells state only specifications of machines: every number with a unit in a
    size, bandwidth, compute or power (``_SPEC_FAMILIES``), at least one so; no rate, time, share or
    multiple (a result), and no label naming a measurement (``_MEASURED_LABEL``)."""
    units = [n.unit for row in body for cell in row for n in numbers(cell) if n.unit]
    labels = [*header, *(row[0] for row in body if row)]
    return (
        bool(units)
        and all(family(u) in _SPEC_FAMILIES for u in units)
        and not any(_MEASURED_LABEL.search(x) for x in labels)
        # (a row of the weights' file states its size: "| Ollama format | GGUF Q6_K (6.7 GB) |")
        and not any(row and _FILE_ROW.search(row[0]) for row in body)
        # (labels naming a model or its quantisation: what each run used, "| Qwen3-8B Q4_K_M | 6.1 GB |")
        and not any(m.path in ("model", "quant") for x in labels for m in mentions(x))
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


def _lead_prompt(header: str) -> str | None:
    """The prompt a column of rates with no unit of its own names (a "lead" column: its unit is the
    paragraph's or heading's): a header of one to three words that names no metric, setting,
    decoding, hardware, engine, model, quant or build is the workload the column ran ("| python |
    TS | swift |" under "33.92 tokens/second": the prompts' languages); None otherwise ("RTX 4090",
    "MTP", "Run 1", "n_max=4")."""
    text = header.strip().strip("*_`").strip()
    # a remark in parentheses after the words ("P1 code (py)", "P2 prose (mmap)") is the prompt's too
    bare = re.sub(r"\s*\([^()]{1,20}\)$", "", text) or text
    if not re.fullmatch(r"[^\W\d_][\w.+#-]*(?:\s+[^\W\d_][\w.+#-]*){0,2}", bare):
        return None  # one to three words, none starting with a digit: no count, no "Run 1"
    if label_key(text) in LABELS or _names_metric(text) or _RELATING_HEADER.search(text):
        return None
    if _PHASE_LABEL.fullmatch(text):  # "| Prefill | Decode |": phases, no prompts
        return None
    if NOT_A_PROMPT.match(text):  # "this box", "my run": a setup or a source, not a prompt
        return None
    if mentions(text) or header_decoding(text) or header_settings(text) or _BASELINE.search(text):
        return None
    if any(pat.fullmatch(text) for _, pat in _CELL_KINDS) or re.search(r"\brun\b|\btrial\b", text, re.I):
        return None
    return text


def _metric_header(header: str) -> bool:
    return bool(re.search(r"\b(?:pp|tg)\s?\d+\b|speed|throughput|tok/s|t/s", header, re.IGNORECASE))


#: a label column's header whose cells name a type that is no model's quantisation or machine (a
#: KV cache's "q8_0+q8_0", a draft's): ``cell_names`` is not asked
_NOT_NAMES = re.compile(r"(?i)\bkv\b|cache|-ctk|-ctv|type_k|type_v|draft")


#: an engine cell with a note in parentheses listing its setup ("ollama (Q4, llama.cpp)")
_ENGINE_NOTE = re.compile(r"([^()]+?)\s*\(([^()]+)\)")
#: an engine cell naming the device or backend it ran on in parentheses ("llama.cpp (CPU)")
_ENGINE_DEVICE = re.compile(r"(.+?)\s*\(\s*(CPU|GPU|CUDA|Metal|Vulkan|ROCm|SYCL)\s*\)", re.IGNORECASE)
#: "llama.cpp (CPU)", "llama.cpp (Vulkan)": the backend a device's word names (llama.cpp's device
#: names, ``draftcommand.DEVICE_BACKENDS``), or "GPU"
_DEVICE_NAMES = {**DEVICE_BACKENDS, "gpu": "GPU"}


class Tables(Sides):
    """The drafter's tables: one claim per value cell, groups per value column, statements from
    relating columns."""

    # --- tables -----------------------------------------------------------------------------------
    def table(self, block: Block) -> None:
        """Draft the claims, groups and statements of a table ``block`` (module doc), then give the
        command above it to its own engine's rows only (``_other_engines``)."""
        start, groups = len(self.out.entries), len(self.out.groups)
        self._table(block)
        self._other_engines(start, [g.id for g in self.out.groups[groups:]])

    def _other_engines(self, start: int, gids: list[str]) -> None:
        """A table under a command whose rows name another engine ("| vLLM | Qwen2.5-7B AWQ | 98.2 |"
        below "llama-bench -m qwen2.5-7b-q4_k_m.gguf -ngl 99 -fa 1"): the command's settings (its
        model file's quant, -ngl, -fa, -t) are its own engine's rows', not the table's; moved from the
        table's groups to the rows naming the command's engine or none.  ``start``: the first entry
        the table drafted; ``gids``: its groups."""
        own = self.conditions()
        engine = own.get("engine")
        if not engine or not gids:
            return
        ours = set(gids)
        rows_of: dict[str, list] = {}  # each group's rows, gathered once (a table of 10,000 groups)
        for e in self.out.entries[start:]:
            if e.kind == "claim" and e.group in ours:
                rows_of.setdefault(e.group, []).append(e)
        named = {(e.fields.get("conditions") or {}).get("engine") for rows in rows_of.values() for e in rows}
        if not named - {None, engine}:
            return
        # (its own settings only: the model and the sampling a comparison's runs share stay shared)
        own_settings = {p: v for p, v in flat_paths(own).items() if ENGINE_OWN.match(p)}
        for gid in gids:
            shared = self.groups[gid].fields.get("conditions") or {}
            said = flat_paths(shared)
            moved = {p: v for p, v in own_settings.items() if p in said and said[p] == v}
            for p in moved:
                drop_path(shared, p)
            for e in rows_of.get(gid, []) if moved else []:
                cond = e.fields.get("conditions") or {}
                if cond.get("engine") not in (None, engine):
                    continue
                e.fields["conditions"] = cond
                for p, v in moved.items():
                    if not has_path(cond, p):
                        put_path(cond, p, v)

    def cell_share(self, header: str, cell: str, cid: str, value: str, line: int) -> None:
        """A claim of the percentage in parentheses after a cell's value that relates no cells
        ("| Memory (VRAM) |" over "4.78 GB (20.20%)"): the share of the card's memory a size is
        (``memory_utilization``), else the share the header's words name (``metric_of``: "Successful
        Requests" -> a success rate), with the cell's claim's conditions."""
        entry = self.claims[cid]
        shared = self.groups[entry.group].fields if entry.group in self.groups else {}
        unit = entry.fields.get("unit", shared.get("unit"))
        if family(unit) == "size":
            metric = "memory_utilization"
        else:
            metric = metric_of("%", header) or "share"
            if metric == "share" and re.search(r"(?i)\bsucce", header):
                metric = "success_rate"
        fields: dict = {"metric": metric, "value": Num(value), "unit": "%"}
        cond = merged(shared.get("conditions") or {}, entry.fields.get("conditions") or {})
        if cond:
            fields["conditions"] = cond
        fields.update(source_fields(line, f"{header}: {cell}"))
        self.add_claim(fields, f"{metric.replace('_', '-')}-l{line}", None, f"{header} {cell}")

    @functools.cached_property
    def tool_latency(self) -> bool:
        """Whether the post runs a tool printing its latencies in ms (``_TOOL_LATENCY``), read once
        (per table column it was quadratic in a post of many tables)."""
        return _TOOL_LATENCY.search(self.post.text) is not None

    def header_versions(self, header: list[str], kinds: list[str]) -> dict[int, str]:
        """column -> the release its header opens with, where the value columns' headers name two
        or more ("| 0.28 tok/s | 0.29 tok/s | 0.28 pool |": releases compared), each as the post
        writes it in full where it writes one release of those digits ("0.29" -> "0.29.0" under
        "vLLM 0.29.0"); empty otherwise."""
        found = {
            j: m.group("v")
            for j, h in enumerate(header)
            if kinds[j] in ("value", "lead")
            and (m := _HEADER_VERSION.match(h))
            and not _NOT_RELEASE.match(h, m.end())
        }
        if len(set(found.values())) < 2:
            return {}
        # (releases of an engine the post names with one of them: "vLLM 0.28.0"; "| 12.4 t/s | 12.8 t/s
        # |" of CUDA toolkits, "| 0.7 util |" are none)
        # (or after the word "version": "on two different version (v0.5.0 and v0.7.0)")
        if not any(
            re.search(
                rf"(?i)(?<![\w.-])(?:{ENGINE_SPELLINGS})\s*v?{re.escape(v.lstrip('v'))}(?![\d])",
                self.post.text,
            )
            or re.search(
                rf"(?i)\b(?:versions?|releases?)\b[^.\n]{{0,40}}?(?<![\w.])v?{re.escape(v.lstrip('v'))}(?![\d])",
                self.post.text,
            )
            for v in found.values()
        ):
            return {}
        full: dict[str, str] = {}
        for v in set(found.values()):
            bare = v.lstrip("v")
            spelled = set(
                re.findall(rf"(?<![\w.])v?({re.escape(bare)}(?:\.\d+)+)(?![\w]|\.\d)", self.post.text)
            )
            full[v] = spelled.pop() if len(spelled) == 1 else bare
        return {j: full[v] for j, v in found.items()}

    def _table(self, block: Block) -> None:
        block = two_row_header(block)
        pair = cell_pair(self.para_text)
        if pair is not None:
            block = _split_pairs(block, pair)
        if _headerless(block.rows):
            # a row pasted without its header ("Llama2 | EXL2 4.0 bpw | 7B | 164 t/s | 197 t/s" over
            # "-- | --"), or rows with no header at all: the first is read as the header; it is a row
            # of values, columns unnamed
            line = block.row_lines[0] if block.row_lines else block.start
            lines = [line, line, *block.row_lines[1:]]
            block = replace(block, rows=[[""] * len(block.rows[0]), *block.rows], row_lines=lines)
        if len(block.rows) < 2:
            return
        shape = _transposed(block.rows)
        if shape is not None:
            block = block.transposed(header_is_data=shape == "keyvalue")
        rows = block.rows
        header, body = rows[0], rows[1:]
        header, runs = _spanned_header(header, body)
        width = len(header)
        targets = _targets_of(header, body)
        if self.spec_section and _spec_table(header, body):
            # "## 硬件配置概览" over "| 内存 | 16GB 统一内存 |", "| 内存带宽 | 120GB/s |": the machines'
            # specifications (docs/claims.md: ``systems``, no claims), listed as not placed
            for r, row in enumerate(body):
                for j, cell in enumerate(row):
                    line = block.line_of(r + 1, j)
                    self.out.unplaced += [(line, n.text, self.post.line(line)[:300]) for n in numbers(cell)]
            return
        if _settings_table(header, body):
            # "| GPU | A100 40GB |", "| n_ctx | 2048 |": the setup a post ran, no result
            for r, row in enumerate(body):
                for j, cell in enumerate(row[1:width], start=1):
                    line = block.line_of(r + 1, j)
                    for n in numbers(cell):
                        if family(n.unit) == "size" and _FILE_ROW.search(row[0]) and stateable(n):
                            # "| Ollama format | GGUF Q6_K (6.7 GB) |": the size of the weights, a claim
                            fields = {"metric": "model_size", **number_fields(n)}
                            # the names of this number's part of the cell ("Q4_K_M ≈ 636 MiB;Q8_0 ≈ 1.09 GiB")
                            part = re.split(r"[;,；，]", cell[: n.start])[-1]
                            file_names: dict = {p: v for p, v in cell_names(part).items() if p == "quant"}
                            engines = engines_in(row[0])
                            if len(engines) == 1:
                                file_names["engine"] = engines.pop()
                            if file_names:
                                fields["conditions"] = {**self.context(), **file_names}
                            fields.update(source_fields(line, self.post.line(line)))
                            self.add_claim(fields, f"model-size-l{line}", None, f"{row[0]} {cell}")
                        else:
                            self.out.unplaced.append((line, n.text, self.post.line(line)[:300]))
            return
        kinds: list[str] = []
        test_columns: set[int] = set()  # llama-bench's test column: labels, never rates
        prompt_rates: set[int] = set()  # a "Prompt" column of rates beside a generation's
        tool_units: dict[int, str] = {}  # a column in the unit its tool prints (``_TOOL_LATENCY``)
        batched_bench = is_batched_bench(header)
        for j, h in enumerate(header):
            key = label_key(h)
            if batched_bench and key in _BATCHED_LABELS:
                kinds.append("label")  # "| PP | TG | B | N_KV |": each row's setting, no rate
                continue
            cells = [r[j] for r in body if j < len(r) and not _EMPTY.match(r[j])]
            # a first column's number in parentheses qualifies its label ("短文本 (512 tokens)"): no value
            with_unit = [
                u for c in cells if (u := _cell_unit(re.sub(r"\([^)]*\btokens?\)", "", c) if j == 0 else c))
            ]
            head_unit = (
                _header_unit(h)
                or _multiple_column(h, cells)
                or _ratio_column(h, cells)
                or (_tokens_column(h, cells) if j else None)
                or (_timing_unit(h) if not with_unit else None)
            )
            # a table of metrics as rows, configurations as columns: its row of token counts
            # ("Generated tokens  80  88  70") is one more result of each configuration, not a label
            # (a cap on them is a setting: "| Max Tokens | 256 |")
            counted = (
                shape == "rows"
                and j > 0
                and _tokens_column(h, cells) is not None
                and LABELS.get(key, ("",))[0] != "cap"
            )
            # a setting's word with a unit of a result ("Prompt (t/s)", "Batch (ms)", "Context
            # (GB)") heads results: a rate, time or size column whatever its word; with a count
            # ("Context (tokens)") or no unit it is the setting
            measured = family(_header_unit(h)) not in (None, "tokens", "layers")
            # a first column of whole request rates ("| QPS | Baseline TPOT |" over 1, 2, 4): the rate a
            # serving benchmark sent, a setting of each row
            sent = (
                j == 0
                and family(head_unit) == "requests"
                and all(re.fullmatch(r"\s*\d+\s*", c) for c in cells)
            )
            if cells and all(is_test_cell(c) for c in cells):  # "| pp 512 |", "| pp2048 tg128 @ d0 |"
                test_columns.add(j)
            if (
                sent
                or j in test_columns
                # a table of metrics as rows: its first column was the header, the configurations'
                # names ("DeepSeek-R1:14B（32GB）": a size in parentheses names the machine's memory)
                or j == 0
                and shape == "rows"
                # "| Engine (output tok/s) |" over "vLLM", "SGLang": the rows' labels, the unit the
                # other columns' (``first_unit``)
                or j == 0
                and cells
                # (names, with versions or sizes: "vLLM 0.6.3", "Qwen3-8B"; no number with a unit:
                # "PTQ1_0 (5.53 GiB)" states a size, no bare value either)
                and not any(re.fullmatch(r"[\s*_~≈]*[\d.,]+[\s*_]*", c) for c in cells)
                and not any(x.unit for c in cells for x in numbers(c))
                or _POWER_HEADER.fullmatch(h)  # "| Power limit |" over "230 W": each row's setting
                or (key in LABELS and not counted and not measured and _label_cells(key, cells))
                or j == 0
                and not head_unit
                and not with_unit
                # a first column headed by a llama-bench test over numbers ("| pp512 | tg128 |" over
                # "| 1234.5 | 45.6 |"): rates, not the rows' labels
                and not (
                    _TEST_HEADER.fullmatch(h.strip().strip("*_`"))
                    and cells
                    and all(numbers(c) for c in cells)
                )
            ):
                kinds.append("label")
            elif (
                shape == "rows"
                and _CARD_MEMORY.fullmatch(_unmarked(h))
                and family(head_unit or (with_unit[0] if with_unit else None)) == "size"
                and all(r and any(m.path == "hardware" for m in mentions(r[0])) for r in body)
            ):
                # a table of metrics as rows, its "| VRAM | 80 GB | 94 GB |" row under columns of
                # cards ("| Metric | A100 | H100 |"): each card's memory, no measurement; under
                # columns of models or versions it is what each used ("GPU memory | 58.9 GiB")
                kinds.append("unplaced")
            elif (
                re.fullmatch(r"(?i)\W*(?:pp|dp|ep)\W*", _unmarked(h))
                and any(re.fullmatch(r"(?i)\W*tp\W*", _unmarked(o)) for o in header)
                and cells
                and all(re.fullmatch(r"\s*\d{1,2}\s*", c) for c in cells)
            ):
                # "| TP | PP |" over "4 | 2": the pipeline's parallel size beside the tensor's, no prompt
                # rate (``draftcontext.parallel_rows``)
                kinds.append("label")
            elif (
                _PARAMS_HEADER.fullmatch(_unmarked(h))
                and cells
                and all(_PARAMS_CELL.fullmatch(c.strip().strip("*_`")) for c in cells)
            ):
                # "| Params |" over "70B", "8B": each row's model's size, a label (``sized_model``),
                # no measurement in bytes
                kinds.append("label")
            elif head_unit or with_unit or _metric_header(h):
                kinds.append("value")
            elif (
                key == "prompt"
                and not _label_cells(key, cells)
                and any(_RATE_PHASE.search(o) for o in header if o is not h)
            ):
                # "| Dtype | Prompt | Generation |" over "494.712 | 26.333": the prompt's rate beside
                # the generation's
                kinds.append("value")
                prompt_rates.add(j)
            elif (
                j > 0
                and self.tool_latency
                and _LATENCY_HEADER.search(h)
                and cells
                and all(_plain_cell(numbers(c)) is not None for c in cells)
            ):
                # "| v0.5 Latency |" over 292.48 in a post running TensorRT-LLM's gptSessionBenchmark,
                # which prints "latency(ms)": its latencies in ms
                kinds.append("lead")
                tool_units[j] = "ms"
            elif j > 0 and (timed := _part_time_unit(header, body, j)) is not None:
                # "| TTFT | … | Duration |" over "0.47" beside "42.41": a part of the run the row
                # times, in the unit of its whole time
                kinds.append("lead")
                tool_units[j] = timed
            elif j > 0 and _MEASURE_HEADER.search(h) and cells and all(numbers(c) for c in cells):
                kinds.append("unplaced")  # "TTFT", "Duration" over plain numbers: no unit to state
            else:
                kinds.append("label")
        # "| eval time | | | mean eval time |": the mean of the run columns, a statement of each row
        means = _mean_columns(header, runs)
        for j in means:
            kinds[j] = "mean"
        post_rate = min(self.post_rates) if len(self.post_rates) == 1 else None
        lead_unit = self.para_rate or self.heading_rate or post_rate
        stating = [
            j
            for j, k in enumerate(kinds)
            if k == "value" and not _relating_column(header[j], [r[j] for r in body if j < len(r)])
        ]
        # the unit each stating column's header or first cell states, once per column
        stated_unit = {j: _column_unit(header[j], [r[j] for r in body if j < len(r)]) for j in stating}
        # "Here is TPOT(s):" over a table whose cells state no unit: its columns of plain numbers are
        # that metric in that unit
        caption_quantity = self.para_quantity if not any(stated_unit.values()) else None
        if caption_quantity is not None:
            lead_unit = caption_quantity[1]
        # a table and post stating no rate unit at all, whose columns a phase's rate heads ("| Power
        # limit | Narr / code decode | Prefill @10K |" over 36.74, 749): llama.cpp's and every
        # engine's unit of those, tokens per second, implied (drafted unreviewed like all else)
        implied = (
            lead_unit is None
            and not self.post_rates
            and not any(family(u) == "rate" for u in stated_unit.values())
        )
        if implied:
            lead_unit = "t/s"
        # (under a heading naming a phase's rate alone, "## Decode Throughput" over "| Concurrency |
        # Solo | Cluster TP=2 |", the columns compared are all of that rate, whatever they name)
        # (not a table mixing other quantities, "| Experts |", "| GPUs | Max batch |", "| Acceptance |":
        # its columns are no rates all)
        phase_heading = (
            implied
            and _phase_label(self.heading_text)
            and not any(_ACCEPT_HEADER.search(h) or _NOT_A_RATE_HEADER.search(h) for h in header[1:])
        )
        # a table whose columns state other metrics' units (a table of metrics as rows: "GSM8K" in %,
        # "tok/step" in tokens) and no rate: only its columns a phase's rate heads take the rate unit
        # (a column of multiples states no metric of its own: "| baseline | bf16 drafter | bf16 |" over
        # "38.48 | 68.54 | 1.78x" under "Decode-only tok/s": the speedups of the rates beside it)
        multiples = {j for j in stating if family(stated_unit[j]) == "multiple"}
        other_units = [
            j
            for j in stating
            if not _ACCEPT_HEADER.search(header[j])
            and family(stated_unit[j]) != "rate"
            and j not in multiples
        ]
        strict = implied or bool(other_units)
        # (a column of acceptance fractions beside them states no unit: "| n-max | Overall | P1 code
        # | … | Acceptance |" over "43.9 … 0.60-0.95" under "43.9 tok/s median")
        if lead_unit is not None and all(
            _ACCEPT_HEADER.search(header[j]) or (strict and j in other_units) or j in multiples
            for j in stating
        ):
            # a table that states no unit, under a paragraph or heading stating a rate: its columns
            # of distinct plain numbers (not the first, not a setting's: a known label, a flag's
            # name "draft-p-min", "n_ctx") are rates in that unit
            configs = sum(column_quant(h) is not None for h in header)
            for j, h in enumerate(header):
                cells = [r[j] for r in body if j < len(r) and not _EMPTY.match(r[j])]
                # a run that failed ("N/A OOM") is a result of the column too, no label
                failed = [r[j] for r in body if j < len(r) and r[j].strip() and _EMPTY.match(r[j])]
                plain = [_plain_cell(ns) for ns in map(numbers, cells)]
                if (
                    j > 0
                    and j not in test_columns
                    and (j not in stating or strict and not stated_unit[j])
                    and (not strict or _phase_label(h) or phase_heading and not other_units)
                    # (only a column naming no other quantity: "| RAM used |", "| peak mem |" over
                    # 9.1 are sizes, no rates in the caption's unit)
                    and not _OTHER_QUANTITY.search(h)
                    and not _COUNT_HEADER.search(h)  # "| Drafted | Accepted |": counts, no rates
                    and label_key(h) not in LABELS
                    and not _setting_header(h)
                    and cells
                    # (one row: only under headers naming the configurations compared, quantisations
                    # "| FP8 | W4A8_AWQ | FP16 |", where a lone number is no label's)
                    and (len(cells) + len(failed) >= 2 or configs >= 2 and column_quant(h) is not None)
                    and None not in plain
                    # (a baseline's column may repeat its one run: "| Baseline | With flag |" over
                    # "63.3 | 96.1" and "63.3 | 116.3")
                    and (
                        len(set(plain)) == len(plain)
                        or caption_quantity is not None  # "Here is TPOT(s):": two runs may tie
                        or header_decoding(h) == "plain"
                        or _measured_repeats(h, cells, plain)
                    )
                ):
                    kinds[j] = "lead"
        # "| Engine (output tok/s) | conc=8 | conc=16 |": the label column's header states the unit of
        # the columns of plain numbers beside it, each headed by a setting (``cell_conditions``)
        first_unit = _header_unit(header[0]) if kinds and kinds[0] == "label" else None
        setting_columns: set[int] = set()
        if family(first_unit) in ("rate", "time") and not stating:
            for j, h in enumerate(header[1:], 1):
                cells = [r[j] for r in body if j < len(r) and not _EMPTY.match(r[j])]
                if (
                    kinds[j] == "label"
                    and cell_conditions(h)
                    and cells
                    and None not in map(_plain_cell, map(numbers, cells))
                ):
                    kinds[j] = "lead"
                    setting_columns.add(j)
            if setting_columns:
                lead_unit = first_unit
        # a column of plain numbers headed by a phase's word and a setting ("| Code TPS | Gen 72k | Gen
        # 128k |": generation rates at two context fills) in a table whose other columns state one
        # rate unit: rates in that unit
        rates = {u for u in stated_unit.values() if u is not None and family(u) == "rate"}
        phase_unit: dict[int, str] = {}
        if len(rates) == 1:
            # the stated rates' scale: a column of plain numbers of the same scale beside them ("|
            # quant | base tok/s | code | factual |" over 15.1, 19.7, 17.5) holds more of those rates
            stated: list[float] = [
                x
                for j in stating
                for r in body
                if j < len(r) and (ns := numbers(r[j])) and (x := plain_value(ns[0].text)) is not None
            ]
            low, high = (min(stated), max(stated)) if stated else (0.0, 0.0)
            for j, h in enumerate(header):
                cells = [r[j] for r in body if j < len(r) and not _EMPTY.match(r[j])]
                values = [
                    plain_value(ns[0].text) if (ns := numbers(c)) and ns[0].unit is None else None
                    for c in cells
                ]
                if j == 0 or j in test_columns or kinds[j] != "label" or not cells or None in values:
                    continue
                given: list[float] = [v for v in values if v is not None]
                phase = _PHASE_COLUMN.fullmatch(h.strip().strip("*_`")) is not None
                # a plain word's column (no label the table reader knows, no flag, no relation) whose
                # numbers, all different, lie within the stated rates' range widened threefold
                alike = (
                    label_key(h) not in LABELS
                    and not _setting_header(h)
                    and not _RELATING_HEADER.search(h)
                    and len(set(given)) == len(given) >= 2
                    and low > 0
                    and all(low / 3 <= y <= high * 3 for y in given)
                    and any(y != int(y) for y in given + stated)
                )
                if phase or alike:
                    kinds[j] = "lead"
                    phase_unit[j] = next(iter(rates))
        if not any(k in ("value", "lead", "mean") for k in kinds):
            # no column of results: the table's plain numbers are listed as not placed, never dropped
            # ("| Llama 8B | Qwen 7B |" over "| 45.2 | 51.3 |": rates of no stated unit)
            for r, row in enumerate(body):
                for j, cell in enumerate(row[:width]):
                    if re.fullmatch(r"\s*[*_`]*[~≈]?\s*-?\d[\d,]*(?:\.\d+)?\s*[*_`]*\s*", cell):
                        at = block.line_of(r + 1, j)
                        self.out.unplaced += [(at, n.text, self.post.line(at)[:300]) for n in numbers(cell)]
        # the prompts the lead columns' headers name; none where one of them names none ("| README |
        # this box |": the columns are sources, not prompts)
        sides = side_builds(header)  # "| Before | After |", "PP-512 (PR)" beside "PP-512 (master)"
        header_versions = self.header_versions(header, kinds)
        # (under a heading naming the rate, "## Prefill Throughput" over "| Solo | Cluster |", the
        # columns are the set-ups compared: no prompts)
        lead_prompts = {
            j: _lead_prompt(h)
            for j, h in enumerate(header)
            if kinds[j] == "lead" and j not in sides and not (phase_heading and not _phase_label(h))
        }
        if None in lead_prompts.values():
            lead_prompts = {}
        self.tables += 1  # counted, not recounted from the groups: that was quadratic in a long post
        table_groups: list[str] = []
        tno = self.tables
        groups: dict[int, str] = {}
        related: dict[int, str] = {}
        gain_columns: dict[int, int] = {}  # a column of changes -> the column it names
        efficiency: dict[int, tuple[int, int]] = {}
        cell_ids: dict[tuple[int, int], str] = {}  # (row, column) -> the claim drafted for the cell
        piece_ids: dict[tuple[int, int], list[str]] = {}  # a cell of several numbers: each one's claim
        changes: list[tuple[int, int, Number, int]] = []  # a row of changes under rate columns
        row_labels: list[str] = []
        count_columns: dict[int, str] = {}  # a column of "k/n" counts -> its metric
        for j, h in enumerate(header):
            if kinds[j] not in ("value", "lead"):
                continue
            cells = [r[j] for r in body if j < len(r) and not _EMPTY.match(r[j])]
            fractions = [_FRACTION.fullmatch(c.strip().strip("*_`")) for c in cells]
            if cells and all(
                f and 0 < int(f.group(2)) and int(f.group(1)) <= int(f.group(2)) for f in fractions
            ):
                # "| HumanEval+ pass@1 |" over "143/164": how many of how many passed, no rate
                kinds[j] = "counts"
                count_columns[j] = "accuracy" if _SCORE_HEADER.search(h) else "proportion"
                continue
            unit = (
                phase_unit.get(j)
                or tool_units.get(j)
                or (lead_unit if kinds[j] == "lead" else None)
                or _header_unit(h)
                or _multiple_column(h, [r[j] for r in body if j < len(r)])
                or _ratio_column(h, [r[j] for r in body if j < len(r)])
                or _tokens_column(h, [r[j] for r in body if j < len(r) and not _EMPTY.match(r[j])])
                or next((u for r in body if j < len(r) and (u := _cell_unit(r[j]))), None)
                or _timing_unit(h)
            )
            column = [r[j] for r in body if j < len(r)]
            cell_units = {_cell_unit(c) for c in column if not _EMPTY.match(c)}
            if (
                unit not in ("x", "%")
                and not _WRITTEN_UNIT.search(h)
                and len(cell_units) == 1
                and cell_units <= {"x", "%"}
                and _PHASE_WORD.search(h)
                and _relating_column(h, column)
            ):
                # "| PP speedup |" over "1.15x (+15.0%)", "| TG delta |" over "+0.3%": the phase its
                # header names is what it relates, not its unit; its cells' multiples or changes are
                unit = cell_units.pop()
            elif (
                unit not in ("x", "%", None)
                and cell_units == {"x"}
                and all(_cell_unit(c) == "x" for c in column if numbers(c))
                and _RELATING_HEADER.search(_WRITTEN_UNIT.sub(" ", h))
            ):
                # "| req/s比 |", "| tok/s ratio |" over "1.41×" beside the two machines' req/s columns:
                # the header names the quantity it relates, its cells write multiples
                unit = "x"
            if unit is None and (_metric_header(h) or j in prompt_rates):
                unit = "t/s"
            metric = (
                (
                    "accuracy"
                    if _SCORE_HEADER.search(h) and not re.search(r"accept", h, re.I)
                    else "acceptance_rate"
                )
                if unit == "ratio"
                else label_metric(h, unit)
                if unit
                else None
            )
            if kinds[j] == "lead" and caption_quantity is not None and unit == caption_quantity[1]:
                metric = caption_quantity[0]  # "Here is TPOT(s):": the caption names the metric
            elif kinds[j] == "lead" and phase_heading and not _phase_label(h) and unit is not None:
                # "## Prefill Throughput" over "| Solo | Cluster |": the heading's phase names the metric
                metric = label_metric(self.heading_text, unit) or metric
            if unit is not None and family(unit) == "time" and _per_token_cells(column):
                metric = label_metric(f"{h} per token", unit)  # "| 1.2 秒/token |": a time per token
            if metric is None:
                kinds[j] = "unplaced"  # its numbers are listed, not dropped
                continue
            if unit == "%" and (sides_of := _efficiency_sides(header, body, kinds, j)) is not None:
                efficiency[j] = sides_of  # "Efficiency: 63%": the row's observed over its ceiling
                continue
            if (
                unit == "%"
                and (named_col := _named_row(h, [[x] for x in header])) is not None
                and named_col != j
            ):
                # "| Gain (Mean TTFT) |" beside "| Mean TTFT (ms) |" (a table of metrics as rows, read
                # sideways): each cell a change of that column's cells (``gain_cell``)
                gain_columns[j] = named_col
                continue
            if (
                unit in ("x", "%")
                and _relating_column(h, [r[j] for r in body if j < len(r)])
                and (
                    _relation_sides(header, body, kinds, j, unit, lead_unit) is not None
                    or self.prose_baseline(header, body, kinds, j) is not None
                )
                and _column_relates(header, body, kinds, j, unit, lead_unit)
            ) or (unit == "x" and _quotients(header, body, kinds, j, lead_unit)):
                related[j] = unit  # a "vs baseline" / "Gain" column: statements, not claims
                continue
            if j in setting_columns and unit is not None:
                metric = label_metric(header[0], unit) or metric  # the label column's words name it
            if unit in ("x", "%") and _relating_column(h, [r[j] for r in body if j < len(r)]):
                # "Best speedup" against a speculative rate the table does not give, or with no row
                # to read as the baseline: claims of the change (the metric "speedup"), no sides guessed
                metric = (
                    "speedup"
                    if unit == "x" or _percent_ratios([r[j] for r in body if j < len(r)])
                    else "speed_change"
                    if label_metric(h, "t/s")
                    else "change"
                )
            test = re.search(r"\b(pp|tg)\s?(?:\(\s*)?(\d+)\b", h, re.IGNORECASE)  # "tg128", "TG (256)"
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
            if test and test.group(1).lower() == "tg":  # a tg test's column: the tokens it generated
                gfields.setdefault("conditions", {})["tokens_generated"] = int(test.group(2))
            depth = _test_depth(h, header) if test else None
            if depth is not None:  # "| pp512 @ d2048 |", "| pp512 |" beside it: the test's depth
                gfields.setdefault("conditions", {}).setdefault("depth", depth)
            decoding = header_decoding(h)  # "Baseline" -> plain, "Best speculative result" -> speculative
            if decoding is not None:
                gfields.setdefault("conditions", {})["decoding"] = decoding
            for setting, said in header_settings(h).items():  # "MTP (n_max=6)": the column's draft size
                set_path(gfields.setdefault("conditions", {}), setting, said)
            workload = _WORKLOAD_HEADER.fullmatch(h.strip().strip("*_`"))
            if workload is not None:  # "| Code TPS | Narr. TPS |": each column's prompt
                gfields.setdefault("conditions", {})["prompt"] = workload.group("w")
            if j in sides:  # "| Before | After |": the build before or after the change measured
                gfields.setdefault("conditions", {})["build"] = sides[j]
            engines = engines_in(_PAREN.sub("", h))
            if len(engines) == 1:  # "MLC LLM (tok/sec)" beside "Exllama (tok/sec)": the column's engine
                gfields.setdefault("conditions", {})["engine"] = engines.pop()
                remark = re.search(r"[(（]\s*([^()（）]{1,20}?)\s*[)）]", h)
                if remark is not None and _QUANT_HEADER.fullmatch(remark.group(1)):
                    # "| vLLM(FP8) | SGLang(FP8) |": the engine's run of weights of that type
                    gfields["conditions"].setdefault("quant", remark.group(1))
            if j in header_versions:  # "| 0.28 tok/s | 0.29 tok/s |": the column's release
                gfields.setdefault("conditions", {})["build"] = header_versions[j]
            versioned = engine_version_cell(h)
            if versioned is not None:  # "| mlx-lm 0.31.0 | mlx-lm 0.31.3 |": the column's build
                gfields.setdefault("conditions", {}).update(engine=versioned[0], build=versioned[1])
            quant = column_quant(h)
            if quant is not None:  # "| FP8 | W4A8_AWQ | FP16 |": the column's quantisation
                gfields.setdefault("conditions", {})["quant"] = quant
            named_models = [m for m in mentions(_PAREN.sub("", h).strip()) if m.path == "model"]
            if len(named_models) == 1 and named_models[0].start == 0:
                # "| Tool | Gemma 4 E2B | Qwen3.6 27B |": the column's model
                gfields.setdefault("conditions", {})["model"] = named_models[0].value
            elif not named_models and (family_model := self.model_by_family(h)) is not None:
                # "| qwen | gemma |" under links to "gemma-2-27b-it-Q5_K_L.gguf" and "Qwen2.5-32B-…
                # Q5_K_M.gguf": the one model the post names of that family, with its file's quant
                for family_path, family_value in family_model.items():
                    gfields.setdefault("conditions", {})[family_path] = family_value
            machine = column_machine(h)
            for setting, said in cell_conditions(h).items() if j in setting_columns else ():
                set_path(gfields.setdefault("conditions", {}), setting, said)  # "conc=8": the column's
            if j in runs:  # "| eval time | | |": the header's measurement again, one run a column
                gfields.setdefault("conditions", {})["run_index"] = runs[j]
            if machine is not None:  # "| RTX 3090 | RTX 4090 |", "V1: 3090Ti": the column's machine
                gfields.setdefault("conditions", {})["hardware"] = machine
            if kinds[j] == "lead" and (task := lead_prompts.get(j)) is not None:
                gfields.setdefault("conditions", {})["prompt"] = task  # "| python | TS | swift |"
            self.out.groups.append(Group(gid, gfields, block.start))
            self.groups[gid] = self.out.groups[-1]
            table_groups.append(gid)
            groups[j] = gid
        by_cells = {
            j: path
            for j in range(width)
            if kinds[j] == "label"
            # (a draft model's column names models too: the draft's, never the row's model)
            and not _DRAFT_COLUMN.fullmatch(header[j] or "")
            and not _DRAFT_QUANT_COLUMN.fullmatch(header[j] or "")
            for path in [_cells_condition([r[j] for r in body if j < len(r) and not _EMPTY.match(r[j])])]
            if path
        }
        # a KV cache column whose cells are all data types: the cache's types (``_label_cells``)
        kv_types = {
            j
            for j, h in enumerate(header)
            if LABELS.get(label_key(h), ("", ""))[1] == "kv"
            and _label_cells(label_key(h), [r[j] for r in body if j < len(r) and not _EMPTY.match(r[j])])
        }
        # the columns naming a draft model on some rows: a row with none there decodes plainly
        draft_columns = {
            j
            for j in range(width)
            if _DRAFT_COLUMN.fullmatch(header[j] or "")
            and any(j < len(r) and not _EMPTY.match(r[j]) for r in body)
        }
        # label columns numbering configurations from "C0" ("C0 baseline", "C1 fixed 3"): names
        numbered = {
            j
            for j in range(width)
            if any(j < len(r) and _CONFIG_ZERO.match(r[j].strip().strip("*_`")) for r in body)
        }
        # the one app running MLX models the post names ("using LM Studio"): a row's MLX is its backend
        hosts = sorted(MLX_APPS & self.engines_named)
        # a label column naming both sides of a change in its cells (a table of metrics as rows, its
        # columns "Before" / "After" turned into rows): each row's build, as the header row's would be
        row_sides = {j: side_builds([r[j] if j < len(r) else "" for r in body]) for j in range(width)}
        # a column of the prompt's size ("| ISL |", "| Input size in tokens |"): the rows' prompt
        prompt_sized = any(LABELS.get(label_key(h), ("", ""))[:2] == ("prompt", "tokens") for h in header)
        drafters = any(_DRAFT_COLUMN.fullmatch(h or "") for h in header)  # "| Drafter |", "| Draft model |"
        # value columns naming their decoding ("| No spec | Spec |", "| 无推测解码 | 有推测解码 |")
        decoded_columns = any(
            kinds[j] in ("value", "lead") and header_decoding(h) is not None for j, h in enumerate(header)
        )
        spans = _spanned_labels(
            body, [j for j in range(width) if kinds[j] == "label" and j not in draft_columns]
        )
        # (a model column whose names mostly state their sizes: a size column is no part of them)
        model_cells = [
            r[j]
            for r in body
            for j in range(min(width, len(r)))
            if kinds[j] == "label" and LABELS.get(label_key(header[j]), ("",))[0] == "model" and r[j].strip()
        ]
        names_sized = len(model_cells) >= 2 and 2 * sum(
            bool(SIZED_NAME.search(c)) for c in model_cells
        ) > len(model_cells)
        # "| Draft | … | MTP acceptance |": the table's drafting is the model's own heads
        mtp_table = any(re.search(r"\bMTP\b", h, re.IGNORECASE) for h in header)
        gain_cells: list[tuple[int, int, Number, int, int]] = []
        for r, row in enumerate(body):
            line = block.line_of(r + 1, 0)
            cond: dict = {}
            labels = []
            row_metric = None  # a llama-bench test's row ("| pp 512 |"): its rates' metric
            row_named = None  # a "| Metric |" column's cell ("TTFT"): what the row's cells measure
            # a row of changes ("| % Difference | 7.5 | -37.5 |", a transposed table's change column):
            # its plain numbers are changes in %, of the two rows above, never a label's condition
            changes_row = bool(row) and "%" in row[0] and _RELATING_HEADER.search(row[0]) is not None
            # ... or of multiples ("| batched ratio | 0.327 | 0.160 |", a transposed ratio column: each
            # a statement of the pair it fits, ``_fitting_pair``, else listed)
            # (its label words only: "Llama 3.3 70B Q4 · 2× RTX 5090" names a run, its × a count)
            multiples_row = (
                bool(row)
                and not changes_row
                and not re.search(r"\d", row[0])
                and _RELATING_HEADER.search(row[0]) is not None
                and (_MULTIPLE_HEADER.search(row[0]) is not None or re.search(r"(?i)\bratio\b", row[0]))
            )
            # ... or a row of changes naming the row it changes ("| **Gain (Mean TTFT)** | | +35.7% |"
            # under "| Mean TTFT (ms) | 3588 | 2307 |"): each cell a change of that row's cells, from
            # the one its value fits to the cell above it (``gain_cells``)
            named_row = _named_row(row[0], body) if row and not changes_row and not multiples_row else None
            for j, cell in enumerate(row[:width]):
                cell = spans.get((r, j), cell)  # noqa: PLW2901 (a spanned cell reads as the one above)
                if (changes_row or multiples_row or named_row is not None) and kinds[j] == "label":
                    continue
                if named_row is not None:
                    found = [n for n in numbers(cell) if n.unit == "%" and n.range is None and stateable(n)]
                    if len(found) == 1:
                        gain_cells.append((r, j, found[0], block.line_of(r + 1, j), named_row))
                    else:
                        at = block.line_of(r + 1, j)
                        self.out.unplaced += [(at, n.text, self.post.line(at)[:300]) for n in numbers(cell)]
                    continue
                if kinds[j] == "unplaced":
                    at = block.line_of(r + 1, j)
                    self.out.unplaced += [(at, n.text, self.post.line(at)[:300]) for n in numbers(cell)]
                    continue
                if kinds[j] == "label" and j in draft_columns and "decoding" not in cond:
                    if not cell.strip() or _no_draft(cell):
                        # "| Spec Dec (B) |" over "-" beside rows naming a draft: no draft, plain
                        set_path(cond, "decoding", "plain")
                if (
                    kinds[j] == "label"
                    and LABELS.get(label_key(header[j]), ("",))[0] == "block_max"
                    and _no_draft(cell)
                    and "decoding" not in cond
                ):
                    # "| draft-n-max |" over "none" beside rows of sizes: the row that drafts nothing
                    set_path(cond, "decoding", "plain")
                if kinds[j] != "label" or _EMPTY.match(cell):
                    continue
                if _METRIC_CORNER.fullmatch(_unmarked(header[j])) and _SETTINGS_HEADER[1].match(cell):
                    continue  # "| Metric | Value |" turned: the row's "Value" is the header of its cells
                labels.append(cell)
                row_metric = row_metric or cell_test_metric(cell)
                if _METRIC_CORNER.fullmatch(_unmarked(header[j])):
                    row_named = cell.strip().strip("*_`")
                # "c4", "pp2048 tg128 @ d4096": settings by their shape (not in a column numbering
                # configurations from "C0": no run has zero requests, so its "C2" is a name)
                shaped = cell_conditions(cell) if j not in numbered else {}
                if j not in numbered and "depth" not in shaped:
                    depth = _test_depth(cell, [x[j] for x in body if j < len(x)])
                    if depth is not None:  # "| pp512 |" over "| pp512 @ d2048 |": at depth 0
                        shaped = {**shaped, "depth": depth}
                if shaped and LABELS.get(label_key(header[j]), ("",))[0] not in ("prompt", "model"):
                    for shaped_path, shaped_value in shaped.items():
                        set_path(cond, shaped_path, shaped_value)
                    continue
                if _VERDICT_HEADER.fullmatch(_unmarked(header[j])):
                    # "| Winner |" over "🟢 MTPLX": which side won the row, no condition of its numbers
                    set_path(cond, "other." + _key(header[j]), cell.strip().strip("*_` "))
                    continue
                path, typ = LABELS.get(label_key(header[j]), ("", "str"))
                said = re.search(r"[(（]([^()（）]+)[)）]", header[j])
                if path == "block_max" and said and _OTHER_K.search(said.group(1)):
                    # "| K (active experts) |": the K its parentheses name, no draft size
                    path, typ = "other." + _key(said.group(1)), "str"
                if (
                    path == "model" and label_key(header[j]) in _TARGET_LABELS and not _names_model(cell)
                ) or (
                    path == "hardware"
                    and label_key(header[j]) in _MACHINE_LABELS
                    and _machine_cell(cell) is None
                ):
                    # "| Target |" over "CUDA", "| Host |" over "localhost": no model, no machine
                    path, typ = "other." + _key(header[j]), "str"
                if (
                    not path
                    and _unmarked(header[j]).strip() == _HINT_OR_PROMPT
                    and _QUOTED.fullmatch(cell.strip())
                ):
                    path, typ = "prompt", "str"  # "| 提示 |" over "“解释勾股定理”": the prompt (quoted)
                if path == "prompt" and typ == "str" and re.fullmatch(r"[\s*_#]*\d{1,3}[\s*_]*", cell):
                    path = "other." + _key(header[j])  # "| Question |" over "1", "2": the question's number
                elif path == "prompt" and typ == "str" and prompt_sized:
                    # "| Scenario | Input size in tokens |": the prompt is the sized one, the
                    # scenario's name kept as written
                    path = "other." + _key(header[j])
                if batched_bench and label_key(header[j]) in _BATCHED_LABELS:
                    path, typ = _BATCHED_LABELS[label_key(header[j])], "int"
                if label_key(header[j]) == "width" and drafters:
                    # "| Drafter | Width |": the tokens each draft step proposes (a width elsewhere is a
                    # beam's or a model's, kept as written)
                    path, typ = "block_max", "int"
                if typ == "kv":
                    if j in kv_types:
                        # "| KV cache | FP8 |": the cache's type, K and V, never the weights'
                        kv = kv_cache_type(cell.strip().strip("*_`"))
                        if kv is not None:
                            set_path(cond, "type_k", kv)
                            set_path(cond, "type_v", kv)
                        continue
                    path, typ = "", "str"  # "| KV cache | 4500 |", "on": kept as written (other.)
                # cells that are all quants, builds or hardware say what the column is, whatever its header
                path = by_cells.get(j) or path or "other." + _key(header[j] or "row")
                if path.startswith("other.") and _DRAFT_COLUMN.fullmatch(header[j] or ""):
                    path = "other.draft_model"
                elif path.startswith("other.") and _DRAFT_QUANT_COLUMN.fullmatch(header[j] or ""):
                    path = "other.draft_quant"
                typ = "str" if j in by_cells else typ
                if path == "build" and not re.search(r"\d", cell) and _SWITCHED.search(cell):
                    # "| build | … |" over "graphs off", "graphs on": a setting switched, no build's name
                    # (a branch's is one: "master", "cuda-graphs"); the post's build holds
                    path = "other." + _key(header[j] or "row")
                value: object = cell
                if path == "hardware" and PROCESSOR_SPLIT.search(cell):
                    # ollama ps's PROCESSOR ("100% GPU", "11%/89% CPU/GPU"): where the model sits
                    path = "other.processor"
                if path.startswith("other.") and r in row_sides.get(j, {}):
                    path, value = "build", row_sides[j][r]
                if path.startswith("other.") and _STAT_CELL.fullmatch(cell.strip().strip("*_`")):
                    # "avg", "P99", "median" (a statistic's column of a table of metrics as rows, or a
                    # row's): the statistic each number is, as a claims file writes it
                    path, value = "other.stat", stat_name(cell.strip().strip("*_`"))
                if (
                    path.startswith("other.")
                    and _spec_count_column(header, j)
                    and cell.strip().strip("*_`") == "0"
                    and any(j < len(r) and re.fullmatch(r"\s*[1-9]\d*\s*", r[j]) for r in body)
                    # (every drafter's size of the row 0: a sampler's top-k of 0 beside 4 draft
                    # tokens drafts)
                    and all(
                        row[k].strip().strip("*_`") == "0"
                        for k in range(min(width, len(row)))
                        if _spec_count_column(header, k)
                    )
                ):
                    # "| steps | topk | num_draft_tokens |" over 0 beside 3, 4: the row that drafts
                    # nothing, its settings kept as written
                    set_path(cond, "decoding", "plain")
                if typ == "int":
                    # "4096", "16K" (a size in K: ``draftcontext.count``), "0 (cold)"
                    m = re.fullmatch(
                        r"\s*(\d+(?:\.\d+)?)\s?([kK])?\s*(?:\([^)]*\))?\s*", cell.replace(",", "")
                    )
                    whole = count(m.group(1), m.group(2)) if m else None
                    if whole is None and m and m.group(1) == "0":
                        whole = 0
                    if (
                        whole == 0
                        and path == "block_max"
                        and not any(_no_draft(r[j]) for r in body if j < len(r))
                    ):
                        # "| draft-n-max |" over 0 beside 4, 8: the row that drafts nothing (where
                        # another row says "none", 0 is a size the drafter was run at)
                        set_path(cond, "decoding", "plain")
                        continue
                    if whole is None:
                        path, value = "other." + _key(header[j]), cell
                    else:
                        value = whole
                elif typ == "temp":
                    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*", cell.strip("*_`"))
                    if m is None or float(m.group(1)) > 2:
                        path, value = "other." + _key(header[j]), cell  # no temperature a sampler takes
                    else:
                        value = f"temperature {m.group(1)}"
                elif typ == "tokens":
                    # "| ISL | … |" over "128", "8k": a prompt of that many tokens
                    m = re.fullmatch(r"\s*(\d+)\s?([kK])?\s*", cell.replace(",", ""))
                    value = f"{m.group(1)}{'K' if m.group(2) else ''} tokens" if m else cell
                elif typ == "decoding":
                    # a "Mode" cell naming no decoding ("Post-merge baseline smoke"): the row's own
                    # name for its run, kept under the header's name, no decoding
                    decoded = decoding_of_cell(cell, header[j], mtp_table)
                    if decoded is None and cell.strip().strip("*_`").lower() in _DECODINGS:
                        decoded = cell.strip().strip("*_`").lower()  # "draft-self" as the schema writes it
                    if decoded is None:
                        path = "other." + re.sub(r"\W+", "_", label_key(header[j])).strip("_")
                    elif (
                        (weights := cell_names(cell).get("quant")) is not None
                        and not has_path(cond, "quant")
                        # (not "Baseline (BF16 KV cache)", "Baseline (vs BF16)": the cache's, another's)
                        and not re.search(r"(?i)\bkv\b|cache|\bvs\.?\s|\bthan\b", cell)
                    ):
                        set_path(
                            cond, "quant", weights
                        )  # "Baseline (BF16)": plain decoding, of these weights
                    value = decoded or cell
                elif path.startswith("other.") and _DECODING_HEADER.search(header[j]):
                    # a label column saying whether the run drafted ("Speculative": Yes/No, "MTP": ✓)
                    decoded = decoding_of_cell(cell, header[j], mtp_table)
                    if decoded is not None:
                        path, value = "decoding", decoded
                        drafted = re.fullmatch(r"\s*([1-9]|1\d)\s*", cell)
                        if drafted and _DRAFT_ALONE.fullmatch(header[j]) and not has_path(cond, "block_max"):
                            # "| Draft |" over "1": the row drafts, that many tokens a step
                            set_path(cond, "block_max", int(drafted.group(1)))
                elif typ == "fa":
                    word = flash_attn_word(cell)
                    if word not in ("on", "off"):
                        path = "other.flash_attn"
                    else:
                        value = word == "on"
                if path == "backend" and isinstance(value, str):
                    # "CUDA 12 llama.cpp", "ROCm 6.4.1": the backend by its name alone
                    said = mentions(value.strip().strip("*_`"))
                    if said and said[0].path == "engine" and said[0].start == 0:
                        # "| Backend |" over "ExLlamaV2", "TRT-LLM + ModelRunnerCpp": a column of
                        # engines under another name, each row's engine ("llama.cpp (CUDA)": and the
                        # backend it names)
                        backend = next((m.value for m in said if m.path == "backend"), None)
                        if backend is not None and not has_path(cond, "backend"):
                            set_path(cond, "backend", backend)
                        path = "engine"
                    value = next((m.value for m in said if m.path == path), value)
                elif path == "hardware" and isinstance(value, str) and re.fullmatch(r"\s*\d{1,2}\s*", value):
                    path, value = "other.gpus", int(value)  # "| GPU(s) | 8 |": how many, no machine
                elif path == "hardware" and isinstance(value, str) and len(in_cell := cell_names(value)) >= 2:
                    # "| Setup |" over "RTX 4090, vLLM 0.6.3, Qwen2.5-7B AWQ": each setting the cell
                    # lists, the machine one of them
                    for named_path, named in in_cell.items():
                        if named_path != "hardware" and named_path not in cond:
                            set_path(cond, named_path, named)
                    value = in_cell.get("hardware") or hardware_of(value) or without_remark(value)
                elif path == "hardware" and isinstance(value, str):
                    # "RTX 4090" -> "NVIDIA GeForce RTX 4090"; "CPU only (no GPU)" -> "CPU only"
                    value = (
                        _machine_cell(value)
                        if label_key(header[j]) in _MACHINE_LABELS
                        else hardware_of(value)
                    ) or without_remark(value)
                elif (
                    path == "model" and isinstance(value, str) and _THIS_MODEL.fullmatch(value.strip("*_` "))
                ):
                    continue  # "| This Model |" of a model card: the card's own model (its title's)
                elif path == "model" and isinstance(value, str):
                    # "Qwen2.5-Coder 14B" -> "Qwen2.5-Coder-14B"; llama-bench's "llama 7B Q4_0": the
                    # quant apart
                    value, quant = model_cell(value)
                    if quant and "quant" not in cond:
                        set_path(cond, "quant", quant)
                    elif (
                        quant and _BITS_CELL.fullmatch(str(cond["quant"])) and not _BITS_CELL.fullmatch(quant)
                    ):
                        # "GPTQ" of the name at the bits a column gave ("4-bit"); a type of the name
                        # ("Q4_0") says more than its bits
                        set_path(
                            cond,
                            "quant",
                            f"{quant} {cond['quant']}" if _METHOD_QUANT.fullmatch(quant) else quant,
                        )
                    bare = re.sub(r"\s*\([^()]*\)\s*$", "", value)
                    if quant is None and _QUANT_HEADER.fullmatch(bare):
                        # "| Model |" over "BF16 (baseline)" beside "This Model": the weights' type of
                        # the card's model, no model's name
                        path, value = "quant", bare
                elif (
                    path == "prompt" and isinstance(value, str) and (worded_run := _workload_decoding(value))
                ):
                    # "| workload |" over "ordinary prose, MTP k=2": the prompt, and the row's decoding
                    # (and draft size) its last part names
                    value, decoded, sized = worded_run
                    if "decoding" not in cond and not decoded_columns:
                        set_path(cond, "decoding", decoded)
                        for sized_path, sized_value in sized:
                            if not has_path(cond, sized_path):
                                set_path(cond, sized_path, sized_value)
                elif path == "prompt" and isinstance(value, str) and _QUOTED.fullmatch(value):
                    value = value[1:-1].strip()  # "| “解释勾股定理” |": the prompt, its quotes apart
                elif path in ("other.draft_model", "other.draft") and isinstance(value, str):
                    drafted = re.fullmatch(r"\s*([1-9]|1\d)\s*", value)
                    if _no_draft(value):
                        # "| Draft |" over "None": the row decodes plainly, with no draft model
                        path, value = "decoding", "plain"
                    elif drafted and _DRAFT_ALONE.fullmatch(header[j]):
                        # "| Draft |" over "2" beside "| MTP acceptance |": tokens drafted a step
                        set_path(cond, "block_max", int(drafted.group(1)))
                        path, value = "decoding", "draft-self" if mtp_table else "speculative"
                    else:
                        # a draft model's cell "0.5B (Q8_0)": its quant is the draft's (SOURCES.md)
                        path = "other.draft_model"
                        if re.search(r"\(\s*B\s*\)", header[j]) and _BARE.fullmatch(value):
                            value = value.strip() + "B"  # "1.5" under "Spec Dec (B)": billions
                        value, quant = model_cell(re.sub(r"\s*[(（]([^()（）]*)[)）]\s*$", r" \1", value))
                        if quant:
                            set_path(cond, "other.draft_quant", quant)
                        if "decoding" not in cond and not decoded_columns:
                            # a draft model drafts; the model's own heads ("| Drafter |" over "mtp")
                            # draft from the model itself (``header_decoding``); where value columns
                            # name their decoding ("| 无推测解码 | 有推测解码 |"), each column's holds
                            heads = header_decoding(value) == "draft-self"
                            set_path(cond, "decoding", "draft-self" if heads else "speculative")
                elif path == "quant" and isinstance(value, str) and (named := _MODEL_PREFIX.match(value)):
                    # "| Квантование |" over "GLM-4.7-QuantTrio-Int4": the quant after the model's name
                    value = value[named.end() :]
                elif (
                    path == "quant"
                    and _FLOAT_CELL.fullmatch(str(value).strip("*_` "))
                    and _METHOD_QUANT.fullmatch(str(cond.get("quant") or ""))
                ):
                    # "| TheBloke/X-GPTQ | float16 |" under "Dtype": the type the method's kernels
                    # compute in, the weights stay GPTQ
                    path = "other.dtype"
                elif (
                    path == "quant"
                    and _BITS_CELL.fullmatch(str(value).strip("*_` "))
                    and _METHOD_QUANT.fullmatch(str(cond.get("quant") or ""))
                ):
                    # "| Model | Precision |" over "TheBloke/Llama-2-7B-GPTQ | 4-bit": the method the
                    # model's name carries, at the bits the cell gives ("GPTQ 4-bit")
                    value = f"{cond['quant']} {str(value).strip('*_` ')}"
                elif (
                    path == "quant"
                    and _BITS_CELL.fullmatch(str(value).strip("*_` "))
                    and cond.get("quant")
                    and not _BITS_CELL.fullmatch(str(cond["quant"]))
                ):
                    # "| Ollama q4_0 | 4-bit |": the type another cell names says more than its bits
                    path = "other.precision"
                elif path in ("quant", "other.draft_quant") and _BITS.fullmatch(str(value)):
                    # "| Quant |" over "4" (beside "Q4_K_M" in LM Studio's tables): weights of that
                    # many bits, as "4bit" is written
                    value = str(value).strip().strip("*_`") + "bit"
                elif (
                    path.startswith("other.")
                    and isinstance(value, str)
                    and not _NOT_NAMES.search(header[j] or "")
                ):
                    # "| Config |" over "GGUF Q4_K_M, 2x3090": the quant and hardware it names too
                    for named_path, named in cell_names(value).items():
                        if named_path == "engine" and named == "MLX" and len(hosts) == 1:
                            # "| Type |" over "MLX" in a post "using LM Studio": the app ran the
                            # row through its MLX engine (an "| Engine |" column's MLX stays the engine)
                            named_path, named = "backend", "MLX"
                            if "engine" not in cond:
                                set_path(cond, "engine", hosts[0])
                        if named_path not in cond:
                            set_path(cond, named_path, named)
                    # "| Method |" over "Baseline", "EAGLE-3", "w/o spec": the row's decoding, over
                    # the post's ("EAGLE-3 speculative decoding" in the title)
                    said = _decoding_label(value)
                    if said is not None and "decoding" not in cond:
                        set_path(cond, "decoding", said)
                    if said is not None:
                        # "| Setup |" over "Plain", "Speculative (n=8)": the label says the decoding
                        # and nothing else (its remark apart): kept as a second condition, it made
                        # every pair of rows differ in two ("not comparable")
                        remark = re.search(r"\(([^()]*)\)\s*$", value.strip().strip("*_`"))
                        said_size = header_settings(remark.group(1)) if remark else {}
                        drafted = (
                            re.fullmatch(r"\s*(\d{1,2})\s+(?:draft\s+)?tokens?\s*", remark.group(1))
                            if remark
                            else None
                        )
                        if not said_size and drafted and said in ("speculative", "draft-self"):
                            # "With MTP (2 tokens)": the tokens drafted each step
                            said_size = {"block_max": int(drafted.group(1))}
                        for size_path, size in said_size.items():  # "Spec (k=4)": its draft size
                            if not has_path(cond, size_path):
                                set_path(cond, size_path, size)
                        # a remark of more than the decoding ("Spec (n=8)") is kept, not one
                        # saying it again ("Baseline (non-MTP)")
                        value = (
                            remark.group(1).strip()
                            if remark and not said_size and _decoding_label(remark.group(1)) is None
                            else ""
                        )
                    # "A, batch, 64 concurrent 128 in / 512 out": the requests in flight and the cap
                    # the row's label writes in words (``settings_in_words``), the row's own
                    in_words: list[tuple[str, object]] = []
                    settings_in_words(value, in_words)
                    for worded_path, worded_value in in_words:
                        if worded_path in _ROW_WORDED and not has_path(cond, worded_path):
                            set_path(cond, worded_path, worded_value)
                    if _LLAMA_TOOL.search(value) and not has_path(cond, "engine"):
                        set_path(cond, "engine", "llama.cpp")  # "raw llama-server": llama.cpp's tool
                    versioned = engine_version_cell(value)
                    if versioned is not None and "build" not in cond:  # "mlx-lm 0.31.0": its build
                        set_path(cond, "build", versioned[1])
                elif path == "engine" and isinstance(value, str):
                    device = _ENGINE_DEVICE.fullmatch(value.strip())
                    if device and not has_path(cond, "backend"):
                        # "llama.cpp (CPU)", "llama.cpp (GPU)": the engine, and where it ran
                        set_path(cond, "backend", _DEVICE_NAMES.get(device.group(2).lower(), device.group(2)))
                        value = device.group(1)
                    noted = _ENGINE_NOTE.fullmatch(value.strip().strip("*_`"))
                    if noted and not device:
                        # "ollama (Q4, llama.cpp)", "mlx (Q8, AMX)": the engine, and what the
                        # parentheses list (its quant, its machine)
                        for named_path, named in cell_names(noted.group(2)).items():
                            if named_path in ("quant", "hardware") and not has_path(cond, named_path):
                                set_path(cond, named_path, named)
                        value = noted.group(1).strip("*_` ")
                    versioned = engine_version_cell(value)
                    if versioned is not None:  # "llamafile-0.7": the engine, and the build it ran
                        value = versioned[0]
                        if not has_path(cond, "build"):
                            set_path(cond, "build", versioned[1])
                    value = engine_of_cell(value, self.engines_named) or value  # "LCP" -> "llama.cpp"
                    run_parts = re.split(r"\s*[,;]\s*|\s+/\s+", value) if isinstance(value, str) else []
                    engines_said = list(
                        dict.fromkeys(str(m.value) for m in mentions(str(value)) if m.path == "engine")
                    )
                    if len(run_parts) >= 2 and engines_said:
                        # "LM Studio, MLX engine, same checkpoint": a list of the run's parts, the
                        # first engine named the row's; an app's MLX engine is its backend
                        value = engines_said[0]
                        if "MLX" in engines_said[1:] and not has_path(cond, "backend"):
                            set_path(cond, "backend", "MLX")
                if value != "":
                    set_path(cond, path, value)
                led = (
                    _BACKEND_LED_CELL.match(value)
                    if isinstance(value, str) and path.startswith("other.")
                    else None
                )
                if led is not None and not has_path(cond, "backend"):
                    # "| image |" over "rocm-7.14", "vulkan-radv-performance" (a container image or
                    # build named for its backend): the row's backend, its name kept as written
                    set_path(cond, "backend", BACKEND_NAMES[led.group(1).lower()])
                if isinstance(value, str) and len(value) >= 3 and not re.fullmatch(r"[\d.\s]+", value):
                    self.vocab.setdefault(value.lower(), (path, value))
            sized_model(cond, names_sized)  # "| Llama | GPTQ | 7B |": the model of that size, "Llama-7B"
            for j, count_metric in count_columns.items():
                got = _FRACTION.fullmatch(row[j].strip().strip("*_`")) if j < len(row) else None
                if got is None:
                    continue
                line = block.line_of(r + 1, j)
                fields = {
                    "metric": count_metric,
                    "statement": f"{header[j]} {got.group(0)}",
                    "counts": {"successes": int(got.group(1)), "trials": int(got.group(2))},
                }
                if cond:
                    fields["conditions"] = copy.deepcopy(cond)
                fields.update(source_fields(line, f"{header[j]}: {row[j]} — {self.post.line(line)}"))
                cell_ids[r, j] = self.add_claim(
                    fields, f"t{tno}-{_slug(header[j])}-r{r + 1}", None, header[j]
                )
            row_cond = cond
            for j, gid in groups.items():
                cond = row_cond
                if j >= len(row) or _EMPTY.match(row[j]):
                    continue
                line = block.line_of(r + 1, j)
                said = row[j]
                flags = [c for c in re.findall(r"`([^`]+)`", said) if FLAGS_ONLY.match(c)]
                if flags and _OTHER_RUN.search(said.split("`", 1)[0]):
                    flags = []  # "145 (vs 131 with `-fa 0`)": the flags of the run compared, not this one's
                if flags:
                    # "~6,630 tok/s (`-b 4096 -ub 2048`, +20%)": the flags the cell's run was given, its
                    # settings, no numbers of its own
                    settings = flag_settings(" ".join(flags))
                    if settings:
                        cond = merged(row_cond, {})  # (the cell's own copy: the row's other cells keep none)
                        for setting, value in settings:
                            set_path(cond, setting, value)
                    for code in flags:
                        said = said.replace(f"`{code}`", " ", 1)
                found = [n for n in numbers(said) if n.unit or not n.unit_written]
                if (changes_row or multiples_row) and found and found[0].unit is None:
                    found[0] = replace(found[0], unit="%" if changes_row else "x")
                if found and (not stateable(found[0]) or targets(header[j], labels)):
                    # (a value to aim for, "| Target |" beside "| Achieved |", "| Expected |": no run's)
                    self.out.unplaced.append((line, found[0].text, self.post.line(line)[:300]))
                    continue
                if not found:
                    continue
                n = found[0]
                if (
                    n.unit == "%"
                    and n.spread is not None
                    and family(self.groups[gid].fields.get("unit")) in ("rate", "time")
                ):
                    # "85.30 ± 4.1%" under a column of rates: the rate and its spread in % of it
                    n = replace(n, unit=None, spread=relative_spread(n.text, n.spread))
                clock = _CLOCK.fullmatch(row[j].strip().strip("*_`"))
                if clock and self.groups[gid].fields.get("unit") == "s":
                    # "| Time taken |" over "2:56.08" beside "54.522": minutes and seconds, 176.08 s;
                    # "1:30:00" hours, minutes and seconds, 5400 s
                    hours = int(clock.group("h") or 0)
                    seconds = hours * 3600 + int(clock.group("m")) * 60 + float(clock.group("s"))
                    n = replace(
                        n, text=f"{seconds:.{len(clock.group('d') or '')}f}", unit="s", low=None, high=None
                    )
                    written = "h:min:s" if clock.group("h") else "min:s"
                    fields = {**number_fields(n), "note": f"written {clock.group(0)} ({written})"}
                    fields.pop("unit", None)
                    if cond:
                        fields["conditions"] = cond
                    fields.update(source_fields(line, f"{header[j]}: {row[j]} — {self.post.line(line)}"))
                    cell_ids[r, j] = self.add_claim(
                        fields, f"{gid}-r{r + 1}", gid, " ".join([header[j], *labels])
                    )
                    continue
                parts = header_parts(header[j])
                if len(parts) >= 2 and (split := _slashed(row[j], len(parts))) is not None:
                    # "| Request throughput (req/s)/ Token throughput (tok/s) |" over "14.33/6895.75":
                    # each number the header's part in its place, its own metric and unit
                    shared = self.groups[gid].fields.get("conditions")
                    for k, (piece, (words, unit)) in enumerate(zip(split, parts, strict=True)):
                        fields = {
                            **number_fields(replace(piece, unit=unit)),
                            "metric": label_metric(words, unit),
                        }
                        both = merged(shared if isinstance(shared, dict) else {}, cond)
                        if both:
                            fields["conditions"] = both
                        fields.update(source_fields(line, f"{header[j]}: {row[j]} — {self.post.line(line)}"))
                        cid = self.add_claim(
                            fields, f"{gid}-r{r + 1}-{k + 1}", None, " ".join([words, *labels])
                        )
                        cell_ids.setdefault((r, j), cid)
                    continue
                pieces = cell_pieces(row[j], header[j], self.groups[gid].fields.get("unit"))
                if pieces and all(extra == {"run_index": k + 1} for k, (_, extra) in enumerate(pieces)):
                    # "| C2 / C4 / C8 decode | 264.6 / 484.3 / 1003.8 |": the settings the label
                    # lists in the same order, not runs
                    listed = listed_settings([*labels, header[j]], len(pieces))
                    if listed is not None:
                        pieces = [(piece, said) for (piece, _), said in zip(pieces, listed, strict=True)]
                if pieces:
                    # "116.9 / 120.7 / 120.7", "41.3 mean / 41.4 median", "Ollama 28 tok/s · vLLM 32
                    # tok/s": one claim per number, each with what tells it from the others
                    for k, (piece, extra) in enumerate(pieces):
                        fields = number_fields(piece)
                        fields.pop("unit", None)
                        if "metric" in extra:  # "CPU 60%、GPU 45%": each piece's own metric
                            fields["metric"] = extra["metric"]
                        fields["conditions"] = merged(cond, {p: v for p, v in extra.items() if p != "metric"})
                        quote = f"{header[j]}: {row[j]} — {self.post.line(line)}"
                        fields.update(source_fields(line, quote))
                        cid = self.add_claim(
                            fields, f"{gid}-r{r + 1}-{k + 1}", gid, " ".join([header[j], *labels])
                        )
                        cell_ids.setdefault((r, j), cid)
                        piece_ids.setdefault((r, j), []).append(cid)
                    continue
                # (the first of its labels naming one: "| **Token Usage** | Average completion tokens |")
                row_unit = next((u for x in labels if (u := _row_unit(x))), None) if n.unit is None else None
                if row_unit == "ratio" and not _share_of_one(n.text):
                    row_unit = None  # "| Acceptance | 87 |": no share of one (a percentage unwritten)
                if n.unit is None and row_unit is None and any(_COUNT_ROW.search(x) for x in labels):
                    # "| Total samples processed | 82 |" under a column of seconds: a count, no time
                    self.out.unplaced.append((line, n.text, self.post.line(line)[:300]))
                    continue
                if (
                    row_unit is not None
                    and family(row_unit) != family(self.groups[gid].fields.get("unit"))
                    and self.groups[gid].fields.get("unit") not in ("x", "%")
                ):
                    # "| Output length (tokens) | 672 | 547 |" under columns of times: the row's own
                    # unit (not under a column of multiples or changes: "| pp512 | … | batched ratio |"
                    # over 0.327 relates the row's rates)
                    n = replace(n, unit=row_unit)
                if n.unit and family(n.unit) != family(self.groups[gid].fields.get("unit")):
                    # "-23%" under a t/s column (a row of changes): not a rate of the column; a
                    # change of the column's two rows when the table has two (``column_changes``)
                    # a row labelled only as a change ("| Delta | -7.43% |": a transposed Delta column)
                    relating = all(_RELATING_HEADER.search(x) for x in labels)
                    if n.unit in ("x", "%") and relating and stateable(n) and n.range is None:
                        changes.append((r, j, n, line))
                    elif (own := self.own_unit_cell(n, labels)) is not None:
                        # "| Peak memory | 1.1 GB | 2.0 GB |" under columns of rates (a row per
                        # measurement): a claim in the cell's unit, the row naming its metric
                        fields = {**number_fields(n), "metric": own}
                        shared = self.groups[gid].fields.get("conditions")
                        if merged(shared if isinstance(shared, dict) else {}, cond):
                            fields["conditions"] = merged(shared if isinstance(shared, dict) else {}, cond)
                        fields.update(source_fields(line, f"{header[j]}: {row[j]} — {self.post.line(line)}"))
                        label = " ".join([header[j], *labels])
                        cell_ids[r, j] = self.add_claim(fields, f"{gid}-r{r + 1}", None, label)
                    else:
                        self.out.unplaced.append((line, n.text, self.post.line(line)[:300]))
                    continue
                if n.unit in ("x", "%") and any(
                    (r, k) in cell_ids
                    and self.groups[groups[k]].fields.get("unit") == n.unit
                    and plain_value(str(self.claims[cell_ids[r, k]].fields.get("value")))
                    == plain_value(n.text)
                    for k in groups
                    if k < j
                ):
                    continue  # "1.85× on math | up to 1.85×": the row's multiple again, that claim
                relation = bound_of(row[j], n) if n.range is None else None
                if relation is not None and (
                    threshold(" | ".join(c for k, c in enumerate(row) if k != j))
                    or any(RATING_COLUMN.match(h) for k, h in enumerate(header) if k != j)
                ):
                    # ">50 tok/s | Excellent — feels instant", "| Speed | Feel |": a scale's row, no
                    # result: listed
                    self.out.unplaced.append((line, n.text, self.post.line(line)[:300]))
                    continue
                if relation is not None:
                    # "up to 2.03×" with no other cell stating it, ">50 tok/s", "<6GB": a bound, no
                    # value claimed
                    metric = str(self.groups[gid].fields.get("metric"))
                    quote = f"{header[j]}: {row[j]} — {self.post.line(line)}"
                    self.bound_statement(n, relation, metric, {**self.context(), **cond}, line, quote)
                    continue
                fields = number_fields(n)
                if n.unit is None or n.unit == self.groups[gid].fields.get("unit"):
                    fields.pop("unit", None)  # the column's unit; "223 ms" under "6.9 秒": its own
                if (
                    row_metric
                    and self.groups[gid].fields.get("metric") in ("decode_tps", "prefill_tps")
                    and not _PHASE_HEADER.search(header[j])  # "| tg128 | 256 |" under "PP (tok/s)"
                ):
                    fields["metric"] = row_metric  # "| pp 512 | 1125.99 ± 0.69 |" under "master t/s"
                unit = n.unit or self.groups[gid].fields.get("unit")
                named = metric_of(unit, row_named + " ") if row_named and unit else None
                if named and named != metric_of(unit, "") and "metric" not in fields:
                    # "| Metric |" over "TTFT" beside "2.52s": the row's measure, whatever the column's
                    fields["metric"] = named
                if cond:
                    fields["conditions"] = cond
                fields.update(source_fields(line, f"{header[j]}: {row[j]} — {self.post.line(line)}"))
                label = " ".join([header[j], *labels])
                cell_ids[r, j] = self.add_claim(fields, f"{gid}-r{r + 1}", gid, label)
                if len(found) > 1:
                    self.cell_extras(said, found[1:], gid, cond, line, f"{header[j]}: {row[j]}", label)
            row_labels.append(" ".join(labels))
        for j, of_cols in means.items():
            of = [cell_ids.get((r, k)) for r in range(len(body)) for k in of_cols]
            self.mean_cells(header[j], body, block, j, of)
        self.named_changes(header, body, block, cell_ids, row_labels)
        self.mean_rows(header, body, block, cell_ids, row_labels)
        for r, j, n, line in changes:
            rows_of = [cell_ids[k, j] for k in range(len(body)) if (k, j) in cell_ids]
            kind = "ratio" if n.unit == "x" else "percent_change"
            if 2 < len(rows_of) <= 12:
                # three rows or more ("single-token | batched | llama.cpp | batched ratio"): the one
                # pair whose values give the stated figure (pairs of a dozen at most: every pair of
                # a pasted sheet's thousand columns would be quadratic)
                rows_of = self._fitting_pair(kind, n, rows_of)
            if len(rows_of) != 2:
                self.out.unplaced.append((line, n.text, self.post.line(line)[:300]))
                continue
            worded = _WORDED_CHANGE.search(body[r][j])
            if kind == "percent_change" and worded and not n.text.startswith(("+", "-", "−")):
                # "| Memory usage | 24GB | 22GB | 8% less |": a drop; "| First token latency | 45ms |
                # 38ms | 16% faster |": faster, a lower time: the sign whose pair fits the better
                # (only for a time: a rate said "faster" that fell is the post's error to report)
                faster_time = re.search(r"faster|quicker", worded.group(0), re.IGNORECASE) and all(
                    family(self.profile[c][0]) == "time" for c in rows_of
                )
                if _worded_drop(worded.group(0), n.text) or faster_time and self._closer_drop(n, rows_of):
                    n = replace(n, text="-" + n.text)
            of = [self.first_stated(c) for c in self._change_sides(kind, n, rows_of)]
            self.cell_statement(
                kind, header[j], body[r][j], of, n.text.lstrip("+"), "x" if kind == "ratio" else "%", line
            )
        for j, jx in gain_columns.items():
            named_cells = [cell_ids.get((k, jx)) for k in range(len(body))]
            for r, row in enumerate(body):
                found = [n for n in numbers(row[j]) if n.unit == "%"] if j < len(row) else []
                line = block.line_of(r + 1, j)
                if len(found) == 1 and found[0].range is None and stateable(found[0]):
                    self.gain_cell(header[j], row[j], found[0], line, named_cells, r)
                else:
                    self.out.unplaced += [(line, n.text, self.post.line(line)[:300]) for n in found]
        for r, j, n, line, rx in gain_cells:
            self.gain_cell(header[j], body[r][j], n, line, [cell_ids.get((rx, k)) for k in range(width)], j)
        for j, (num, den) in efficiency.items():
            for r, row in enumerate(body):
                found = [n for n in numbers(row[j]) if n.unit == "%"] if j < len(row) else []
                if not found or not stateable(found[0]) or found[0].range is not None:
                    continue
                if (r, num) not in cell_ids or (r, den) not in cell_ids:
                    continue
                of = [self.first_stated(cell_ids[r, num]), self.first_stated(cell_ids[r, den])]
                self.cell_statement(
                    "ratio", header[j], row[j], of, found[0].text, "%", block.line_of(r + 1, j)
                )
        if related:
            self.table_relations(
                header, body, block.row_lines, block.start, groups, related, cell_ids, row_labels, piece_ids
            )

    def model_by_family(self, header: str) -> dict | None:
        """The model a column's ``header`` names by its family's word alone ("qwen", "Gemma"): the
        one model the post names whose name starts with it (``mentions``), and the quantisation
        named with it (a file's "…-Q5_K_L.gguf"); None where the header is no one word, or the post
        names none or several models of it."""
        word = _PAREN.sub("", header).strip().strip("*_`").strip()
        if not re.fullmatch(r"[A-Za-z][A-Za-z]{2,}", word):
            return None
        if self.post_models is None:
            found = mentions(self.post.text)
            self.post_models = {}
            for k, m in enumerate(found):
                if m.path == "model" and isinstance(m.value, str):
                    quant = next(
                        (x.value for x in found[k + 1 : k + 3] if x.path == "quant" and x.start == m.start),
                        None,
                    )
                    self.post_models.setdefault(m.value, quant)
        mine = [v for v in self.post_models if v.lower().startswith(word.lower())]
        if len({v.lower() for v in mine}) != 1:
            return None
        quant = self.post_models[mine[0]]
        return {"model": mine[0], **({"quant": quant} if quant else {})}

    def cell_extras(
        self, cell: str, extras: list[Number], gid: str, cond: dict, line: int, quote: str, label: str
    ) -> None:
        """The numbers of a value cell after the one its column reads ("17.3 t/s (weighted, 126K
        tokens)", "24.5 t/s (weighted over 23.4M tokens), bursts 28-39 t/s", h557): a count of
        tokens is a claim of its own (its metric from the words before it in the cell), a range in
        the column's unit one of the column's metric, a signed percentage in a column of rates or
        TTFTs the change of its metric (``_CELL_CHANGE``: "~6,630 tok/s (+20%)" a prefill_change),
        under the row's conditions; any other is listed (issue 29: no number dropped)."""
        unit = self.groups[gid].fields.get("unit")
        column_metric = self.groups[gid].fields.get("metric")
        for n in extras:
            own = family(n.unit) == "tokens" and n.unit_written
            ranged = n.range is not None and n.unit is not None and family(n.unit) == family(unit)
            # "~6,630 tok/s (+20%)" in a column of rates: the rate's change (from what the cell does
            # not say), signed as written
            # (not one in parentheses of its own, "116.3 (+84%)": a change of the row's cells,
            # ``named_changes``)
            change = (
                _CELL_CHANGE.get(str(column_metric))
                if n.unit == "%"
                and n.range is None
                and re.match(r"[+\-−](?![-/])", cell[n.start : n.end])
                and not re.search(r"(?:\+/?|±)\s*$", cell[: n.start])  # "(+/-5%)": a margin, no change
                and _BARE_CHANGE.search(cell) is None
                else None
            )
            if not (own or ranged or change) or not stateable(n):
                self.out.unplaced.append((line, n.text, self.post.line(line)[:300]))
                continue
            fields = number_fields(n)
            fields["metric"] = change or (metric_of(n.unit, cell[: n.start]) if own else column_metric)
            if cond:
                fields["conditions"] = copy.deepcopy(cond)
            fields.update(source_fields(line, f"{quote} — {self.post.line(line)}"))
            self.add_claim(fields, f"{gid}-x{line}", None, label)

    def gain_cell(self, header: str, cell: str, n: Number, line: int, row: list[str | None], j: int) -> None:
        """A cell of a row (or column) of changes naming another (``_named_row``: "+35.7%" under "8k
        TP4PCP2" in "Gain (Mean TTFT)") as a percent change of that row's claims (``row``, by
        position): to its cell at ``j`` from the one other cell whose value gives the stated change
        either way (a gain of a time is its fall: 3588 -> 2307 ms is -35.7%, the sign the values
        give), the nearest before ``j`` where several do; listed where none does."""
        to = row[j] if j < len(row) else None
        stated = plain_value(n.text.lstrip("+"))
        if to is None or stated is None:
            self.out.unplaced.append((line, n.text, self.post.line(line)[:300]))
            return
        fits = []
        for k, c in enumerate(row):
            if k == j or c is None:
                continue
            implied = self._implied("percent_change", c, to)
            if implied is not None and abs(abs(implied) - abs(stated)) <= max(0.01 * abs(stated), 0.051):
                fits.append((k > j, abs(k - j), k, c, implied))
        if not fits:
            self.out.unplaced.append((line, n.text, self.post.line(line)[:300]))
            return
        _, _, _, start, implied = min(fits)
        value = n.text.lstrip("+-−")
        value = f"-{value}" if implied < 0 else value
        self.cell_statement("percent_change", header, cell, [self.first_stated(start), to], value, "%", line)

    def cell_statement(
        self, kind: str, header: str, cell: str, of: Sequence[str | None], value: str, unit: str, line: int
    ) -> None:
        """A statement a table cell makes (a change, a ratio) of the claims ``of``: its ``value``
        as written (a leading "+" dropped) in ``unit``, quoted with its column's ``header``."""
        sid = self.new_id(f"s-l{line}")
        fields = {
            "kind": kind,
            "statement": f"{header}: {cell}",
            "of": list(of),
            "value": Num(value.lstrip("+")),
            "unit": unit,
            **source_fields(line, f"{header}: {cell} — {self.post.line(line)}"),
        }
        self.out.entries.append(Entry("statement", sid, {"id": sid, **fields}))

    def mean_rows(
        self,
        header: list[str],
        body: list[list[str]],
        block: Block,
        cell_ids: dict[tuple[int, int], str],
        row_labels: list[str],
    ) -> None:
        """A row labelled as the mean of the rows above it (``_MEAN_ROW``: "| **Average** | **40.7** |"
        under runs 1, 2 and 3): each of its cells a statement of kind mean over the same column's
        claims of the rows since the table's start or the last such row (two or more; the audit
        then checks the mean); the cell stays a claim too, as a post's printed mean is one."""
        first = 0
        for r, label in enumerate(row_labels):
            if not _MEAN_ROW.fullmatch(label):
                continue
            # the rows since the last mean row, but a sum's ("Total"); none where a statistic's row is
            # among them ("Min", "Max", "Median": a table of statistics, not of runs)
            above = [q for q in range(first, r) if not _SUM_ROW.fullmatch(row_labels[q])]
            stats = any(_STAT_ROW.fullmatch(row_labels[q]) for q in range(first, r))
            first = r + 1
            if len(above) < 2 or stats:
                continue
            for j in range(len(header)):
                if (r, j) not in cell_ids or any((q, j) not in cell_ids for q in above):
                    continue
                found = numbers(body[r][j])
                if not found or not stateable(found[0]) or found[0].range is not None:
                    continue
                cid = cell_ids[r, j]
                unit = self.claims[cid].fields.get("unit") or self.groups[
                    str(self.claims[cid].group)
                ].fields.get("unit")
                line = block.line_of(r + 1, j)
                sid = self.new_id(f"s-l{line}")
                fields = {
                    "kind": "mean",
                    "statement": f"{label.strip().strip('*_')} {header[j]}: {body[r][j].strip().strip('*_')}",
                    "of": [self.first_stated(cell_ids[q, j]) for q in above],
                    "value": Num(found[0].text),
                    "unit": unit,
                    **source_fields(line, f"{header[j]}: {body[r][j]} — {self.post.line(line)}"),
                }
                self.out.entries.append(Entry("statement", sid, {"id": sid, **fields}))

    def named_changes(
        self,
        header: list[str],
        body: list[list[str]],
        block: Block,
        cell_ids: dict[tuple[int, int], str],
        row_labels: list[str],
    ) -> None:
        """Statements of the changes a cell states beside its value against other rows it names
        (``_NAMED_CHANGE``: "| turbo | 121.0 (+142% base, +39% nvidia) |" with rows labelled "base"
        and "nvidia"): a percent change from the named row's claim in that column to the cell's; or
        against the column a name heads in the same row ("| | Base model | NVIDIA quant |"); a name
        that labels no row or column, or several, leaves the number as it was (unplaced).  A change
        in parentheses naming none ("116.3 (+84%)", ``_BARE_CHANGE``) is against the row's other
        value whose pair gives it."""
        by_label: dict[str, list[int]] = {}
        for r, label in enumerate(row_labels):
            by_label.setdefault(label.strip().strip("*_`").lower(), []).append(r)
        for (r, j), cid in list(cell_ids.items()):
            cell = body[r][j] if j < len(body[r]) else ""
            bare = _BARE_CHANGE.search(cell)
            if bare is not None and not _NAMED_CHANGE.search(cell):
                # "| same box | 63.3 | 116.3 (+84%) |": from the row's other value whose pair gives it
                value = bare.group("v").replace("−", "-")
                if _worded_drop(bare.group("words"), value):
                    value = "-" + value  # "(10% más compacto)", "(13% slower)": a drop
                stated = float(value)
                fits = [
                    cell_ids[r, k]
                    for k in range(len(header))
                    if k != j
                    and (r, k) in cell_ids
                    and self._error(
                        "percent_change", self._implied("percent_change", cell_ids[r, k], cid), stated
                    )
                    <= _ORDER_FIT
                ]
                if len(fits) == 1:
                    self.cell_statement(
                        "percent_change",
                        header[j],
                        cell,
                        [fits[0], cid],  # (as a named change cites them: the row's own cells)
                        value,
                        "%",
                        block.line_of(r + 1, j),
                    )
                elif not fits and not bare.group("words").strip() and value[0].isdigit():
                    # "4.78 GB (20.20%)", "100 (100.0%)": no change of another cell, the share the
                    # cell's quantity is of a whole (the card's memory, the requests sent), a claim
                    self.cell_share(header[j], cell, cid, value, block.line_of(r + 1, j))
                continue
            for m in _NAMED_CHANGE.finditer(cell):
                name = m.group("name").lower()
                # the row labelled so, or the one row whose label it opens ("base" of "Base model")
                rows = by_label.get(name) or [
                    k
                    for label, at in by_label.items()
                    if re.match(rf"\W*{re.escape(name)}\b", label)
                    for k in at
                ]
                # or a column the name heads ("| | Base model | NVIDIA quant | Turbo |" over "18.5 GiB
                # (-68% base, -40% nvidia)"): the same row's cell in that column
                cols = [
                    k
                    for k, h in enumerate(header)
                    if k != j
                    and (r, k) in cell_ids
                    and re.match(rf"\W*{re.escape(name)}\b", h, re.IGNORECASE)
                ]
                if len(rows) == 1 and rows[0] != r and (rows[0], j) in cell_ids:
                    of = [cell_ids[rows[0], j], cid]  # from the named row to this one
                elif not rows and len(cols) == 1:
                    of = [cell_ids[r, cols[0]], cid]  # from the named column's cell to this one
                else:
                    continue
                value = m.group("v").replace("−", "-")
                self.cell_statement(
                    "percent_change", header[j], cell, of, value, "%", block.line_of(r + 1, j)
                )

    def _closer_drop(self, n: Number, rows_of: list[str]) -> bool:
        """Whether an unsigned change ``n`` over a column's two rows fits them better as a drop
        (-n%) than as a rise (+n%), either order."""
        a, b = (plain_value(str(self.claims[c].fields.get("value"))) for c in rows_of)
        stated = plain_value(n.text)
        if not a or not b or stated is None:
            return False
        changes = [(b / a - 1) * 100, (a / b - 1) * 100]
        return min(abs(x + stated) for x in changes) < min(abs(x - stated) for x in changes)

    def _change_sides(self, kind: str, n: Number, rows_of: list[str]) -> list[str]:
        """The sides of a table's change cell over its column's two rows, in the order whose values
        give the stated change: a ratio's [numerator, denominator], a percent change's [from, to]
        ("| metric | granite | gemma | delta |" over "| tok/s | 102.91 | 89.72 | +14.7% |": from
        gemma to granite); from the first row to the second where the values do not tell."""
        first = rows_of[::-1] if kind == "ratio" else rows_of
        a, b = (plain_value(str(self.claims[c].fields.get("value"))) for c in first)
        stated = plain_value(n.text.lstrip("+"))
        if a is None or b is None or stated is None or not a or not b:
            return first

        def implied(x: float, y: float) -> float:  # of [x, y]
            return x / y if kind == "ratio" else (y / x - 1) * 100

        if abs(implied(b, a) - stated) < abs(implied(a, b) - stated):
            return first[::-1]
        return first

    def _fitting_pair(self, kind: str, n: Number, rows_of: list[str]) -> list[str]:
        """The two claims of ``rows_of`` (a column's cells) whose values give a table's stated ratio
        or change ``n`` (either order, within 1%, or 0.005 of a multiple and 0.05 of a change
        written to two places); [] where no pair or several do (``_change_sides`` then orders the
        pair)."""
        stated = plain_value(n.text.lstrip("+"))
        values = {c: plain_value(str(self.claims[c].fields.get("value"))) for c in rows_of}
        fits = []
        for a, b in combinations(rows_of, 2):
            x, y = values[a], values[b]
            if stated is None or not x or not y:
                continue
            got = [x / y, y / x] if kind == "ratio" else [(x / y - 1) * 100, (y / x - 1) * 100]
            if any(
                abs(g - stated) <= max(0.01 * abs(stated), 0.0051 if kind == "ratio" else 0.051) for g in got
            ):
                fits.append([a, b])
        return fits[0] if len(fits) == 1 else []

    def own_unit_cell(self, n: Number, labels: list[str]) -> str | None:
        """The metric of a cell ``n`` written in a unit of another quantity than its column's, where
        its row's label cells (``labels``) name the measurement ("Peak memory" over "1.1 GB", "TTFT"
        over "230 ms"): a size only under a label naming a measured one (``_MEASURED_SIZE``: not
        "VRAM" over a card's "24 GB"); None where no metric is named so."""
        words = " ".join(labels)
        if n.unit == "ratio":
            # (``_row_unit``: a row naming a drafter's acceptance; "87" or "2.9" under it is no share
            # of one, a percentage or an acceptance length the post does not say: listed)
            fits = words and n.range is None and stateable(n) and _share_of_one(n.text)
            return "acceptance_rate" if fits else None
        if (
            not words
            or n.range is not None
            or not stateable(n)
            or family(n.unit)
            not in ("size", "time", "rate", "requests", "bandwidth", "iops", "power", "compute", "tokens")
        ):
            return None
        if family(n.unit) == "size" and not _MEASURED_SIZE.search(words):
            return None
        return label_metric(words, str(n.unit))

    def mean_cells(self, header: str, body: list[list[str]], block: Block, j: int, of: list) -> None:
        """Each row's cell of a mean column (``_mean_columns``) as a statement of kind mean over the
        row's claims of the run's columns (``of``: row by row, the run's columns in order), where
        every one of them was drafted; else its number is listed as unplaced."""
        per_row = len(of) // max(len(body), 1)
        for r, row in enumerate(body):
            if j >= len(row) or _EMPTY.match(row[j]):
                continue
            line = block.line_of(r + 1, j)
            found = numbers(row[j])
            sides = of[r * per_row : (r + 1) * per_row]
            if not found or not stateable(found[0]) or None in sides:
                self.out.unplaced += [(line, n.text, self.post.line(line)[:300]) for n in found]
                continue
            unit = self.groups[str(self.claims[sides[0]].group)].fields.get("unit")
            sid = self.new_id(f"s-l{line}")
            fields = {
                "kind": "mean",
                "statement": f"{header} {row[j]}",
                "of": [self.first_stated(c) for c in sides],
                "value": Num(found[0].text),
                "unit": unit,
                **source_fields(line, f"{header}: {row[j]} — {self.post.line(line)}"),
            }
            self.out.entries.append(Entry("statement", sid, {"id": sid, **fields}))

    def prose_baseline(
        self, header: list[str], body: list[list[str]], kinds: list[str], j: int
    ) -> str | None:
        """The claim a table's relating column ``j`` ("Speedup", "vs baseline") is over where the
        table has no baseline row and one rate column: the last claim before the table, outside
        any table (no group), of a rate, whose words before the number name a baseline
        (``_BASELINE``: "baseline 42.45 tok/s", "without speculation: 31 t/s") or whose decoding is
        plain, of the column's kind of rate (a prompt rate for a prompt rate); else None."""
        rates = [k for k, f in _rate_columns(header, body, kinds, j).items() if f == "rate"]
        if len(rates) != 1 or _BASELINE.search(header[rates[0]]):
            return None  # "Baseline | Best speedup": the row's other rate is not in the table
        cells = [r[rates[0]] for r in body if rates[0] < len(r) and not _EMPTY.match(r[rates[0]])]
        unit = _header_unit(header[rates[0]]) or next(
            (n.unit for c in cells for n in numbers(c)[:1] if n.unit), None
        )
        prefill = label_metric(header[rates[0]], unit or "t/s") == "prefill_tps"
        for cid in reversed(self.claim_ids[-60:]):
            entry = self.claims[cid]
            if entry.group is not None or family(self.profile[cid][0]) != "rate":
                continue
            if (entry.fields.get("metric") == "prefill_tps") != prefill:
                continue
            plain = (entry.fields.get("conditions") or {}).get("decoding") == "plain"
            if plain or _BASELINE.search(self.labels.get(cid, "")):
                return cid
        # no rate named a baseline: the last rate before the table that every row's multiple is the
        # row's rate over ("| 106 tok/s | 8.4x |", "| 85 tok/s | 6.7x |" after "only 12.64 tok/s"),
        # each within ``_COLUMN_FIT`` (a post rounds loosely, a range row by its middle)
        for cid in reversed(self.claim_ids[-60:]):
            entry = self.claims[cid]
            if entry.group is not None or family(self.profile[cid][0]) != "rate":
                continue
            if (entry.fields.get("metric") == "prefill_tps") != prefill:
                continue
            if _column_fits(body, rates[0], j, self._value(cid)):
                return cid
            break  # only the last rate before the table
        return None

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
        pieces: dict[tuple[int, int], list[str]] | None = None,
    ) -> None:
        """A table column of multiples or percentages that relate the row's numbers ("vs baseline",
        "Speedup", "Gain": ``_relating_column``): a statement per cell.  With two or more columns of
        one family in the row ("Standard t/s | TurboQuant t/s | Gain"), it relates the first two: a
        percent change from the first to the second, a ratio of the second to the first; with one,
        it relates the row's cell to the same column's cell of the baseline row (the row labelled
        baseline/plain/off/without..., or whose cell says "baseline", else the row whose multiple is
        1 or change 0; ``_relation_sides`` decides beforehand that the table gives both sides): a
        ratio of the row over the baseline, a percent change from the baseline to the row.  Where
        exactly one pair of those cells (either order; any rate column against any baseline row:
        "Eval Relative Performance" against the 1.000 row of the same quant) gives the stated value,
        that pair (``_fitting_cells``).  The baseline row's own
        cell ("1.00×") relates it to itself: no statement."""
        fam = {j: family(self.groups[g].fields.get("unit")) for j, g in groups.items()}
        col_of = {c: k for (_, k), c in cells.items()}
        units_of: dict[int, str | None] | None = None  # value column -> the unit its header writes
        for j, unit in related.items():
            # (a ratio in per cent, "boost 200%" of 0.032 over 0.016: ``_percent_ratios``)
            scale = 100.0 if unit == "%" and _percent_ratios([r[j] for r in body if j < len(r)]) else 1.0
            kind = "ratio" if unit == "x" or scale == 100.0 else "percent_change"
            # the family the column relates: the rates where the row has any ("Speedup" beside a
            # file size and the VRAM used relates the throughput), else the first column's
            related_fam = "rate" if "rate" in fam.values() else None
            # the unit the column's header writes ("| req/s比 |"), the quantity it relates; each
            # column's written unit, read once a table
            own = _header_unit(header[j])
            own = own if own not in (None, "x", "%") and own.lower() in header[j].lower() else None
            if own is not None and units_of is None:
                units_of = {k: _header_unit(header[k]) for k in groups}
            base_claim = self.prose_baseline(header, body, ["value"] * len(header), j)
            base_row = next((r for r, lab in enumerate(row_labels) if _BASELINE.search(lab)), None)
            if base_row is None:
                base_row = next(
                    (r for r, row in enumerate(body) if j < len(row) and _BASELINE_CELL.fullmatch(row[j])),
                    None,
                )
            # the rows the column is relative to: the one a label or a cell names the baseline, else
            # those whose cell is 1× / 0% ("1.000" for llama.cpp's Q8_0 and its Q4_K_M rows); beside a
            # named baseline a row of 1.00× is a relation of its own (13.47 / 13.53)
            base_rows = (
                [base_row]
                if base_row is not None
                else [
                    r
                    for r, row in enumerate(body)
                    if j < len(row)
                    for n in numbers(row[j])[:1]
                    if plain_value(n.text) == (1.0 if unit == "x" else 0.0)
                ]
            )
            if base_row is None and base_rows:
                base_row = base_rows[0]
            for r, row in enumerate(body):
                if j >= len(row) or _EMPTY.match(row[j]):
                    continue
                line = at[r + 1] if r + 1 < len(at) else start
                self.cell_differences(
                    header[j], row[j], line, [cells[r, k] for k in sorted(groups) if (r, k) in cells]
                )
                found = [n for n in numbers(row[j]) if n.unit in ("x", "%", None)]
                if not found or not stateable(found[0]):
                    continue
                n = found[0]
                if n.range is not None and (unit != "x" or n.range[0].startswith(("-", "−"))):
                    continue  # a range of multiples ("7-8倍") is stated as one; of changes, none yet
                worded = _WORDED_CHANGE.search(row[j])
                if (
                    kind == "percent_change"
                    and worded
                    and n.range is None
                    and _worded_drop(worded.group(0), n.text)
                ):
                    n = replace(n, text="-" + n.text)  # "⚠️ 13% slower!": a drop of 13%
                mine = [cells[r, k] for k in sorted(groups) if (r, k) in cells]
                if related_fam is not None:
                    mine = [c for c in mine if fam.get(col_of[c]) == related_fam]
                named = _PHASE_WORD.search(header[j])
                phase = _phase_of(named.group(0)) if named else None  # its first phase word's
                if phase is not None:
                    # "| PP speedup |", "| TG delta |" beside both phases' columns: its phase's columns
                    mine = [c for c in mine if _phase_of(header[col_of[c]]) == phase] or mine
                if own is not None and units_of is not None:
                    # "| req/s比 |" over "1.41×" beside req/s and tok/s columns: the quantity its
                    # header writes, whatever family the other relating columns relate
                    every = [cells[r, k] for k in sorted(groups) if (r, k) in cells]
                    mine = (
                        [c for c in mine if units_of[col_of[c]] == own]
                        or [c for c in every if units_of[col_of[c]] == own]
                        or mine
                    )
                same = [c for c in mine if fam.get(col_of[c]) == fam.get(col_of[mine[0]])] if mine else []
                if len(same) == 1 and len((pieces or {}).get((r, col_of[same[0]]), [])) >= 2:
                    same = (pieces or {})[r, col_of[same[0]]]  # "Ollama 28 tok/s · vLLM 32 tok/s": its two
                against = [(base, col_of[c], c) for base in base_rows for c in mine if r not in base_rows]
                fitted = (
                    self._fitting_cells(kind, n, same, against, cells, scale) if n.range is None else None
                )
                if fitted is None and scale == 100.0:
                    # a ratio in per cent no pair of its row gives ("300%" beside 2000 and 2100): listed
                    self.out.unplaced.append((line, n.text, self.post.line(line)[:300]))
                    continue
                if fitted is None and r in base_rows:
                    continue  # "1.000", "baseline": the row the others are relative to, none of its own
                if fitted is not None:
                    sides = fitted  # the one pair of cells giving the stated value
                elif len(same) >= 2:
                    a, b = same[0], same[1]
                    sides = [b, a] if kind == "ratio" else [a, b]
                    said = plain_value(n.text.replace("−", "-")) if n.range is None else None
                    if said is not None:
                        # "| control t/s | candidate t/s | delta |" over "35.0378 | 33.8086 | +3.64%": the
                        # change the cell states is from the second to the first; the order whose
                        # values give it, where only that one does
                        here = self._error(kind, self._implied(kind, *sides), said / scale)
                        flipped = self._error(kind, self._implied(kind, *sides[::-1]), said / scale)
                        if flipped < here and flipped <= _ORDER_FIT:
                            sides = sides[::-1]
                else:
                    col = col_of[mine[0]] if mine else None
                    if col is None or base_row == r:
                        continue
                    if base_row is not None and (base_row, col) in cells:
                        base_c = cells[base_row, col]
                    elif base_row is None and base_claim is not None:
                        base_c = base_claim  # "baseline 42.45 tok/s" in the prose above the table
                    else:
                        continue
                    mine_c = cells[r, col]
                    sides = [mine_c, base_c] if kind == "ratio" else [base_c, mine_c]
                line = at[r + 1] if r + 1 < len(at) else start
                value = n.text if not n.text.startswith("+") else n.text[1:]
                sid = self.new_id(f"s-l{line}")
                stated: dict = (
                    {"range": [Num(n.range[0]), Num(n.range[1])]}
                    if n.range is not None
                    else {"value": Num(value)}
                )
                fields = {
                    "kind": kind,
                    "statement": f"{header[j]}: {row[j]}",
                    "of": [self.first_stated(c) for c in sides],
                    **stated,
                    "unit": "x" if unit == "x" else "%",
                    **source_fields(line, f"{header[j]}: {row[j]} — {self.post.line(line)}"),
                }
                self.out.entries.append(Entry("statement", sid, {"id": sid, **fields}))
                also = [m for m in numbers(row[j]) if m.unit == "%" and m.range is None and m is not n]
                for m in [m for m in also if _ACCEPTANCE_AFTER.match(row[j], m.end)]:
                    # "1.33x (51% acceptance)": the drafting side's acceptance rate, no change
                    also.remove(m)
                    self.acceptance_cell(
                        m, sides[0] if kind == "ratio" else sides[-1], header[j], row[j], line
                    )
                if (
                    kind == "ratio"
                    and scale == 1.0
                    and n.range is None
                    and len(also) == 1
                    and stateable(also[0])
                ):
                    # "1.15x (+15.0%)": the same pair's change too, from the first side to the second
                    pid = self.new_id(f"s-l{line}")
                    change = {
                        **fields,
                        "kind": "percent_change",
                        "of": fields["of"][::-1],
                        "value": Num(also[0].text.removeprefix("+")),
                        "unit": "%",
                    }
                    self.out.entries.append(Entry("statement", pid, {"id": pid, **change}))

    def acceptance_cell(self, n: Number, side: str, header: str, cell: str, line: int) -> None:
        """A percentage a relating cell names as the drafter's acceptance ("1.33x (51% acceptance)",
        ``_ACCEPTANCE_AFTER``): a claim of ``acceptance_rate`` under the conditions of ``side``, the
        drafting run the cell's multiple is of (its group's and its own).  Issue 29's corpus: h607."""
        if not stateable(n):
            self.out.unplaced.append((line, n.text, self.post.line(line)[:300]))
            return
        entry = self.claims[side]
        shared = self.groups[str(entry.group)].fields.get("conditions") if entry.group is not None else None
        cond = merged(copy.deepcopy(shared or {}), copy.deepcopy(entry.fields.get("conditions") or {}))
        fields = number_fields(n)
        fields["metric"] = "acceptance_rate"
        if cond:
            fields["conditions"] = cond
        fields.update(source_fields(line, f"{header}: {cell} — {self.post.line(line)}"))
        self.add_claim(fields, f"acceptance-l{line}", None, f"{header} acceptance")

    def cell_differences(self, header: str, cell: str, line: int, mine: list[str]) -> None:
        """The numbers of a relating cell in the unit of its row's cells ("+4.2s" of "**+4.2s
        (+110.53%)**" beside 3.8s and 8s): each a ``difference`` statement of the one ordered pair
        of the row's claims (``mine``) of its unit's family whose difference it is, to its stated
        digits (8 - 3.8 = 4.2; "-0.88s": 0.68 - 1.56); none where no single pair gives it."""
        for n in numbers(cell):
            fam = family(n.unit)
            if fam in (None, "ratio", "multiple") or n.range is not None:
                continue
            stated = plain_value(n.text.replace("−", "-").lstrip("+"))
            if stated is None:
                continue
            step = 10.0 ** -decimals_of(n.text.lstrip("+-−"))
            same = [c for c in mine if family(self.profile[c][0]) == fam]
            fits = []
            for a in same:
                for b in same:
                    got = self._implied("difference", a, b) if a != b else None
                    if (
                        got is not None
                        and abs(got * _unit_factor(self.profile[a][0], n.unit) - stated) <= step / 2 + 1e-9
                    ):
                        fits.append([a, b])
            if len(fits) != 1:
                continue
            sid = self.new_id(f"s-l{line}")
            fields = {
                "kind": "difference",
                "statement": f"{header}: {cell}",
                "of": [self.first_stated(c) for c in fits[0]],
                "value": Num(n.text.replace("−", "-").lstrip("+")),
                "unit": n.unit,
                **source_fields(line, f"{header}: {cell} — {self.post.line(line)}"),
            }
            self.out.entries.append(Entry("statement", sid, {"id": sid, **fields}))

    def _fitting_cells(
        self,
        kind: str,
        n: Number,
        same: list[str],
        against: list[tuple[int, int, str]],
        cells: dict[tuple[int, int], str],
        scale: float = 1.0,
    ) -> list[str] | None:
        """The sides of a relating cell ``n`` (a multiple or change of ``kind``) that give its value
        as written (``draftbyvalue.stated_interval``, within 1% where the digits are coarser): of the
        ordered pairs of the row's cells of one family (``same``: "PP-512 (PR) | PP-512 (master) |
        Speedup": PR over master, 157.5 / 111.5 = 1.412) and of a row's cell with the same column's
        cell of a baseline row (``against``: (baseline row, column, the row's claim); "Eval Relative
        Performance" 1.946 = 5.80 / 2.98, the llama.cpp row of the same quant), the only one that
        fits; None where none or several do (then the column's default order stands).  ``scale``: 100
        for a ratio written in per cent ("200%": 2.0)."""
        stated = plain_value(n.text.replace("−", "-").lstrip("+"))
        if stated is None:
            return None
        stated /= scale
        options: list[list[str]] = [[a, b] for a in same for b in same if a != b]
        for base, col, mine_c in against:
            if (base, col) in cells:
                base_c = cells[base, col]
                options.append([mine_c, base_c] if kind == "ratio" else [base_c, mine_c])
        lo, hi = (
            x / scale for x in stated_interval(stated * scale, decimals_of(n.text.lstrip("+-−")), n.about)
        )
        slack = 0.01 * abs(as_multiple(kind, stated))
        fits = []
        for a, b in options:
            got = self._implied(kind, a, b)
            if got is None:
                continue
            if lo <= got <= hi or abs(as_multiple(kind, got) - as_multiple(kind, stated)) <= slack:
                fits.append([a, b])
        fits = [f for i, f in enumerate(fits) if f not in fits[:i]]
        return fits[0] if len(fits) == 1 else None

    def command_after_table(self, conditions: dict) -> None:
        """A command line right after a table (only a label such as "Server command:" between) that
        no command line preceded: its conditions are the table's groups' (under what they state)."""
        for gid in self.open_table or []:
            fields = self.groups[gid].fields
            fields["conditions"] = merged(conditions, fields.get("conditions") or {})
        self.open_table = None
