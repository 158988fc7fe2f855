"""The drafter's core (``benchbook claims draft``, ``draft``): what a draft is made of, and the state
and steps every part of the drafter shares.

* the public data: ``Num`` (a number as written), ``Entry`` (a drafted claim, statement or todo),
  ``Group`` (a table's value column), ``Drafted`` (all a post gave);
* ``DraftCore``: the drafter's state while it reads a post (the command line and conditions in force,
  the claims so far by id and by value) and the steps every part uses: ids (``new_id``), claims
  (``add_claim``), the conditions a claim takes (``conditions``, ``context``, ``named_conditions``)
  and look-ups of the claims drafted so far (``flat_conditions``, ``metric_of_claim``,
  ``first_stated``);
* helpers the parts share: a text's sentences (``sentence_at``), nested paths (``set_path``,
  ``merged``), a number's fields (``number_fields``, ``plain_value``, ``stateable``), where an entry
  came from (``source_fields``).

Where it sits: the bottom of the drafter's layers, ``draftcore`` <- ``draftsides`` (statements and
their sides) <- ``drafttable`` (tables) and ``draftsentences`` (prose) <- ``draft`` (reads a post's
blocks in order: command lines, logs, tool output, llama-bench tables; then the clean-up passes).
It reads the post's context (``draftcontext``) and names (``draftnames``); it imports no layer
above it.
"""

from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass, field
from typing import Any

from .draftcommand import plain_run
from .draftnames import builds_engine, engines_in, mentions
from .draftprose import Number, family
from .draftprose import numbers as _numbers
from .draftwords import PROMPT_SETS, count, grouped_count
from .post import Post
from .resultlines import Result

#: a line's head label, up to its colon ("Batch 64: …", "- n-max 4: …"): no number with a unit in it
_HEAD_LABEL = re.compile(r"\s*(?:[-*•]\s+)?[A-Za-z][\w .=/-]{0,30}?\s*[:：]\s")


class Num(str):
    """A number as written in the post (``"42.70"``): written to YAML as is, so the loader counts
    the digits it was stated with."""


#: table headers (lower case, dashes and punctuation dropped) -> the condition they set, and its type
LABELS: dict[str, tuple[str, str]] = {
    **dict.fromkeys(("ncmoe", "ncpumoe", "cpumoe", "moe layers on cpu"), ("offload.n_cpu_moe", "int")),
    **dict.fromkeys(("ngl", "ngpulayers", "gpu layers", "gpulayers"), ("offload.n_gpu_layers", "int")),
    **dict.fromkeys(
        ("c", "ctx", "nctx", "context", "context length", "ctxsize", "context size", "context window")
        # in other languages ("| 컨텍스트 | 동시 요청 |", "| Контекст |", "上下文长度", "コンテキスト長")
        + ("컨텍스트", "컨텍스트 길이", "контекст", "длина контекста", "上下文", "上下文长度", "上下文長度")
        + ("コンテキスト", "コンテキスト長", "kontext", "kontextlänge", "contexto", "contexte"),
        ("ctx", "int"),
    ),
    # a KV cache type for both K and V ("| KV cache | FP8 |", vLLM's --kv-cache-dtype): ``kv``
    **dict.fromkeys(
        ("kv cache", "kv cache dtype", "kv cache type", "kv dtype", "kv type", "kvcache"),
        ("type_k", "kv"),
    ),
    # llama-bench's threads column ("th" in the old tool's tables, "threads" now): the corpus's
    # ``other.threads``
    **dict.fromkeys(("th", "threads", "nthreads", "n threads"), ("other.threads", "int")),
    # ollama ps's UNTIL ("4 minutes from now", "Forever"): how long the model stays loaded, no result
    "until": ("other.until", "str"),
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
            "draftnmax",  # llama-server's --spec-draft-n-max without its "spec-" ("| draft-n-max |")
            "num spec tokens",
            "num speculative tokens",
            "spec tokens",
            "speculative tokens",
            "draft length",
            # the tokens each draft step proposes ("| Draft width |"; a "Width" beside a drafter
            # column too: ``drafttable``)
            "draft width",
            # a speculative table's K, the tokens drafted a step (vLLM's num_speculative_tokens,
            # the papers' K/γ: "| K | Eagle 1 | Eagle 3 |")
            "k",
            "γ",
        ),
        ("block_max", "int"),
    ),
    **dict.fromkeys(
        ("prompt", "task", "workload", "scenario", "use case", "task type")
        # the question asked of a chat model in each row ("| Model | Question | Threads |")
        + ("question", "query", "user prompt", "input prompt", "问题", "提问", "質問")
        # the prompt itself ("| 提示词 |", "| プロンプト |"; a bare "| 提示 |" is as often a tip, read as a
        # prompt where its cells are quoted: ``drafttable``)
        + ("提示词", "プロンプト", "프롬프트", "промпт")
        # in other languages ("| 场景 | vLLM(FP8) |": the scenario each row ran)
        + (
            "场景",
            "测试场景",
            "場景",
            "任务",
            "任务类型",
            "シナリオ",
            "タスク",
            "시나리오",
            "작업",
            "сценарий",
            "задача",
        ),
        ("prompt", "str"),
    ),
    # a serving benchmark's input and output sequence lengths ("| ISL | OSL |"): the prompt's tokens
    # ("128 tokens", as the prose's "ISL=128" is drafted), the tokens each request generated
    # (not genai-perf's "Input sequence length" rows: statistics of lengths, not one run's setting)
    **dict.fromkeys(
        ("isl", "input seq len", "input seqlen", "input tokens per request", "input tokens", "input length")
        + ("input len", "prompt length", "prompt tokens per request", "prompt len")
        # AutoAWQ's benchmark table ("| Batch Size | Prefill Length | Decode Length |")
        + ("prefill length", "prefill len")
        # ("| Input size in tokens | Output size in tokens |", vLLM's benchmark_throughput.py tables)
        + ("input size", "input size in tokens", "prompt size", "prompt size in tokens"),
        ("prompt", "tokens"),
    ),
    **dict.fromkeys(
        (
            "osl",
            "output seq len",
            "output seqlen",
            "output tokens per request",
            "generated tokens per request",
        )
        + ("output length", "output len", "decode length", "decode len", "generation length", "gen length")
        + ("output size", "output size in tokens"),
        ("tokens_generated", "int"),
    ),
    **dict.fromkeys(
        ("model", "模型", "モデル", "модель", "모델", "modell", "modèle", "modelo")
        + ("model name", "模型名称", "模型名", "모델명", "모델 이름", "モデル名")
        # the model a draft drafts for ("| target | draft |", "| Main model | Draft model |")
        + ("target", "target model", "main model", "verifier", "verifier model", "主模型", "目标模型"),
        ("model", "str"),
    ),
    **dict.fromkeys(
        ("quant", "quantization", "quantisation", "quant type", "量化", "量子化", "квантизация", "양자화")
        + ("양자화 여부", "양자화 방식", "量化方式", "量子化方式", "квантование", "квант", "quantisierung")
        # the weights' numeric type ("| Precision |" over "4-bit", "16-bit"; "| Dtype |" over "fp16")
        + ("precision", "dtype", "data type", "weight precision", "weights precision", "精度"),
        ("quant", "str"),
    ),
    # a request's cap on the tokens it generates (a settings table's "| Max Tokens | 256 |", the
    # OpenAI API's max_tokens, llama.cpp's n_predict) and its sampling temperature ("| Temperature |
    # 0.7 |": ``sampling: temperature 0.7``, as a command's --temp is drafted)
    **dict.fromkeys(
        ("max tokens", "maxtokens", "max new tokens", "maxnewtokens", "max output tokens")
        + ("max completion tokens", "npredict", "n predict", "num predict", "numpredict"),
        ("cap", "int"),
    ),
    **dict.fromkeys(("temperature", "temp", "sampling temperature"), ("sampling", "temp")),
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
    # a decode row's cache fill ("| n_kv | tok/s |": the tokens already in the KV cache, as
    # llama-sweep-bench's N_KV column; llama-batched-bench's N_KV is its sequences' total, drafttable)
    **dict.fromkeys(("depth", "d", "ndepth", "nkv", "kv depth", "kv position"), ("depth", "int")),
    # a batch size: llama.cpp's ``-b`` (tokens); a serving engine's is its concurrency
    # (``draftcommand.serving_batch``, after the engine is known)
    **dict.fromkeys(("batch", "b", "bs", "nbatch", "batch size", "batchsize"), ("batch", "int")),
    **dict.fromkeys(("ubatch", "ub", "nubatch", "microbatch", "micro batch"), ("ubatch", "int")),
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
            "maxnumseqs",
            "max num seqs",
            # abbreviated ("Conc.", "Concurr."), and in other languages ("并发请求数", "同時リクエスト数")
            *("conc", "conc.", "concurr.", "concurrent", "parallel requests", "streams", "num streams"),
            *(
                "并发",
                "并发数",
                "并发请求数",
                "并发请求",
                "并发用户数",
                "並發數",
                "同時実行数",
                "同時リクエスト数",
            ),
            *("並列数", "параллельность", "параллельных запросов", "동시 요청 수", "동시성", "동시 요청"),
            *("параллельные запросы", "одновременные запросы", "concurrencia", "nebenläufigkeit"),
        ),
        ("concurrency", "int"),
    ),
    **dict.fromkeys(("mode", "decoding"), ("decoding", "decoding")),
    **dict.fromkeys(
        (
            *("gpu", "hardware", "device", "显卡", "硬件", "ハードウェア", "видеокарта", "그래픽카드"),
            *("디바이스", "장치", "设备", "デバイス"),
            # the machine a row ran on ("| Machine |" over "M4 Mac mini (16GB, current)")
            *("machine", "test machine", "host", "rig", "computer", "机器", "マシン", "машина"),
            # a CPU column of a CPU-only run ("CPU型号": its model)
            *("cpu", "cpu model", "cpu型号", "processor", "处理器", "プロセッサ", "процессор"),
        ),
        ("hardware", "str"),
    ),
    **dict.fromkeys(
        (
            "engine",
            "runtime",
            "framework",
            "inference engine",
            "backend engine",
            "引擎",
            "推理引擎",
            "框架",
            "エンジン",
            "движок",
            "엔진",
        ),
        ("engine", "str"),
    ),
    **dict.fromkeys(("build", "commit", "version"), ("build", "str")),
    # (and in other languages: "| Lauf |", "| Durchlauf |", "| Versuch |", "| 次数 |" is a count)
    **dict.fromkeys(
        ("run", "run index", "trial", "try", "attempt", "run no", "run #", "lauf", "durchlauf", "versuch"),
        ("run_index", "int"),
    ),
}
#: words that name a metric, for finding the claim a phrase names ("plain decoding")
METRIC_WORDS_OF = {"decode_tps": "decode decoding generation tg", "prefill_tps": "prefill prompt pp"}
#: how far from a number (characters) a sentence's words are read as its conditions
_NEAR = 60
#: a public benchmark's prompt set named for a number, in parentheses after it or after "on"/"for"
#: ("+12% (MT-Bench) to +16% (HumanEval)", "2.1x on GSM8K"): the prompts it ran (its name as written)
PROMPT_SET = re.compile(
    # (or a line's label: "- HumanEval: 218.23 tok/s (AR 58.25, 3.75x)", "**GSM8K**: 179 tok/s")
    # (or after a comma beside another: "- HumanEval: 218 tok/s, MT-Bench: 150 tok/s")
    r"(?:\(\s*|\b(?:on|for|with)\s+(?:the\s+)?"
    r"|(?P<lead>(?:(?m:^)[^\S\n]*(?:[-*+•][^\S\n]+)?|[,;][^\S\n]*)(?:\*\*|__|`)?))"
    rf"(?P<d>{PROMPT_SETS})(?![\w-])(?(lead)(?:\*\*|__|`)?[^\S\n]*[:：])",
    re.IGNORECASE,
)
#: words of training a model on data (``PROMPT_SET``'s data sets are no prompts there)
_TRAINED_ON = re.compile(r"(?i)\b(?:train|fine[- ]?tun|distill|calibrat|pretrain)\w*")
#: a condition named with its number in prose: "block size 4", "-ncmoe 26", "ctx 8192", "-ngl=99", "K=3"
NAMED_CONDITION = re.compile(
    # (a speculative run's K or γ only with "=": "3.15ms (K=3)"; "ngl 1" as a table's row writes it)
    r"(?P<label>block(?: size)?|-{0,2}n?cmoe|n_cpu_moe|-{0,2}n-cpu-moe|-?ngl|n_gpu_layers|"
    r"ctx|context(?:[ _]length)?|"
    r"(?<![\w-])[Kγ](?=\s*=)|"
    # ("microbatch 2048" is no batch; "nbatch 512", "nctx 8192", "maxctx" are)
    r"(?<!micro)(?<!micro-)batch(?:[ _-]size)?|ubatch|micro-?batch|depth|draft[ -]max|--draft-max|n[-_ ]max"
    r"|--spec-draft-n-max)"
    # (a dash as the separator: "ngl-17", "context length - 2048", as a forum post lists settings)
    r"\s*(?:=|:|of|is|-(?=\d)|\s[-–—]\s)?\s*"
    # a count in thousands written with K ("ctx 37K", "depth 4k")
    # (its K kept: "context of 65k tokens" is 65536, never 65)
    # (thousands grouped: "Context: 131,072 tokens")
    r"(?P<n>\d{1,3}(?:,\d{3})+(?!\d|,\d)|\d+(?:\.\d+)?(?=[kK]\b)|\d+)(?P<k>[kK]\b)?(?![kK])"
    # (one of a pair is no count of its own: "ubatch 2048/512" names two settings)
    r"(?!/\d)"
    # (not a rate or size after it: "batch 8 tok/s"; a count of tokens is the setting's own unit)
    # (a sentence's full stop after it is no decimal: "at n-max 7.")
    r"(?!\d|\.\d|\s*(?:tok(?:en)?s?\s*/|t/s|%|x|×|GB|GiB|MB|ms|s\b))",
    re.IGNORECASE,
)


#: a llama-bench test's name in prose ("tg128", "pp512 @ d16384", "pp2048@d4096")
#: (or a depth alone, "d16384", the test before it read again at that depth: no tg's tokens then)
_TEST_NAME = re.compile(
    r"(?<![\w-])(?:(?P<t>pp|tg)(?P<n>\d{1,5})(?:\s*@\s*d(?P<d>\d{1,6}))?|d(?P<alone>\d{3,6}))(?![\w-])",
    re.IGNORECASE,
)


#: a number and the unit written after it, right before an opening parenthesis ("45 tok/s (", "0.52 t/s (")
_NUMBER_BEFORE_PAREN = re.compile(r"(?<![\w.])(\d[\d,]*(?:\.\d+)?)\s*(?:[^\s\d()（）]{1,12}\s*)?[(（]$")


def paren_owner(text: str, pos: int) -> int | None:
    """Where the number starts whose parenthesis holds offset ``pos`` of ``text``: "(K=8)" right after
    "52 tok/s" is that number's remark (``DraftCore.named_conditions``); None where ``pos`` is in
    no parenthesis or one after no number."""
    opened = max(text.rfind("(", max(0, pos - 40), pos + 1), text.rfind("（", max(0, pos - 40), pos + 1))
    if opened < 0 or ")" in text[opened:pos] or "）" in text[opened:pos]:
        return None
    m = _NUMBER_BEFORE_PAREN.search(text, max(0, opened - 30), opened + 1)
    return m.start(1) if m else None


def in_own_aside(text: str, at: int, pos: int) -> bool:
    """Whether offset ``pos`` of ``text``, after the number at ``at``, stands in parentheses opened
    after that number which hold a number with a unit of their own ("vLLM scales 3.9x (llama.cpp
    only manages 1.2x)"): a name there is the aside's number's, not the one at ``at``; a label in
    parentheses with no such number ("45 tok/s (llama.cpp)", "(RTX 4090)") is not an aside."""
    opened = text.rfind("(", at, pos)
    if opened < 0 or text.find(")", opened, pos) >= 0:
        return False
    closed = text.find(")", pos)
    inner = text[opened + 1 : closed if closed >= 0 else min(len(text), pos + 200)]
    return any(family(n.unit) in _RESULT_FAMILIES for n in _numbers(inner) if n.unit is not None)


#: the units of an aside's own result ("only manages 1.2x", "30 tok/s", "12% slower", "120 ms"); not
#: a machine's size ("(RTX 4090, 24 GB)": a label of the number before it)
_RESULT_FAMILIES = frozenset({"rate", "multiple", "ratio", "time"})


#: a number and its unit right before a name, a preposition between or none ("71.9 tok/s baseline",
#: "40 t/s with Qwen3", "70.1 tok/s at n-max 4"): the name is written after that number, its label
AFTER_NUMBER = re.compile(
    r"\d(?:[\d.,]*\d)?[ \t]?(?:%|×|[A-Za-z]+(?:/[A-Za-z]+)?)[ \t]+(?:(?:with|on|using|for|at|via|in)[ \t]+)?$"
)
#: what ends one number's part of a sentence before the next ("…, 65.0 tok/s", "… and 170.3 tok/s")
AND_SEP = re.compile(r",|\sand\s|\s&\s")


def named_count(m: re.Match) -> int | None:
    """The whole count a ``NAMED_CONDITION`` match states, K read as ``draftwords.count`` reads it:
    "ctx 37K" -> 37000, "depth 4k" -> 4096, "-ngl 99" -> 99; thousands grouped ("ctx 131,072") only
    where the count is a power of two or of thousands (``grouped_count``), else None ("ubatch
    128,256,512" lists a sweep)."""
    got = count(m.group("n"), m.group("k")) if m.group("k") else None
    if got is not None:
        return got
    if "," in m.group("n"):
        return grouped_count(m.group("n"))
    return int(float(m.group("n")))


_STOP = frozenset(
    "the a an of on in at to and or is was are with for by from than as this that my its it our "
    "their same pc time times about roughly".split()
)


@dataclass
class Entry:
    """A drafted claim (``kind`` claim), statement (statement) or todo statement (todo): its ``id``
    and its fields in the order a claims file writes them; ``group``: the table group of a claim
    from a table (``Group``); ``origins``: condition path -> where the drafter took a condition its
    own words do not state from (``draftcontext.fill``: "line 3, setup"; written as
    ``draft.conditions_from``, shown on the audit page)."""

    kind: str
    id: str
    fields: dict
    group: str | None = None
    origins: dict[str, str] = field(default_factory=dict)


@dataclass
class Group:
    """A table's value column as a ``groups:`` entry: the fields its claims share; ``origins`` as
    ``Entry``'s."""

    id: str
    fields: dict
    line: int
    origins: dict[str, str] = field(default_factory=dict)


@dataclass
class Drafted:
    """What a post gave: ``entries`` (claims, statements, todo statements in post order),
    ``groups``, ``logs`` (file name -> raw text), ``unplaced`` ``(line, number, text)``, ``title``
    and ``notes`` (what could not be read, e.g. a llama-bench table that failed to parse), ``link``."""

    entries: list[Entry] = field(default_factory=list)
    groups: list[Group] = field(default_factory=list)
    logs: dict[str, str] = field(default_factory=dict)
    unplaced: list[tuple[int, str, str]] = field(default_factory=list)
    title: str | None = None
    notes: list[str] = field(default_factory=list)
    #: where the post was published (``claims draft --link``, a saved page's canonical address)
    link: str | None = None

    def claim(self, cid: str) -> Entry | None:
        return next((e for e in self.entries if e.kind == "claim" and e.id == cid), None)


#: a sentence quoting someone else's number: an author, vendor, paper, earlier post or someone
#: ("someone on the forum reported", "a user on r/LocalLLaMA got") named
_ORIGIN = re.compile(
    r"(?:according to\s+|\bin\s+)?\b(?:"
    r"(?:the|a|an|their|his|her)\s+(?:[\w.\-]+(?:'s|’s)\s+)?"
    r"(?:(?:earlier|previous|last|older|other|original|official)\s+)?"
    r"|(?:my|our)\s+(?:earlier|previous|last|older|other)\s+)"
    r"(?:author|authors|vendor|blog|paper|posts?|article|announcement|model card|maintainers?|team|"
    r"docs|README)\b"
    # someone else: "someone on the forum reported", "a user on r/LocalLLaMA got", "others report"
    r"|\b(?:someone|somebody|others|other (?:people|users)|people|a (?:user|commenter|redditor|poster|friend)"
    r"|another (?:user|commenter|redditor|poster)|one (?:user|commenter|redditor))"
    r"(?:\s+(?:on|in|at|from)\s+(?:the\s+)?[\w/.\-]+(?:\s+(?:forum|thread|discord|issue|repo))?)?"
    r"(?=\s+(?:\w+\s+)?(?:report(?:s|ed)?|get|gets|got|measured?|saw|sees?|claim(?:s|ed)?|posted|says?|said)\b)"
    r"(?=.{0,120}?\b(?:reports?|gives?|says?|claims?|states?|shows?|lists?|quotes?|managed|measured|"
    r"got|reached|\d))",
    re.IGNORECASE,
)


#: the author taking something from a source ("I tried the prompts", "we used the settings")
_TOOK_FROM = re.compile(r"\b(?:I|we)\s+(?:\w+\s+)?(?:tried|used|took|ran|copied|followed|borrowed)\b", re.I)
#: what the author took being the source's numbers ("I used the numbers from the paper"): still theirs
_THEIR_NUMBERS = re.compile(r"\b(?:numbers?|figures?|results?|scores?|speeds?|rates?|timings?|data)\b", re.I)


#: a source's number given after it ("which reports", "who measured", "they got")
_REPORTED = re.compile(
    r"\b(?:which|who|that|they|it)\s+(?:\w+\s+)?(?:reports?|reported|measured|got|gets|claims?|claimed|"
    r"shows?|showed|lists?|gives?|gave|reached|achieved|saw)\b",
    re.I,
)


@functools.lru_cache(maxsize=256)  # asked once per number of a sentence: a sentence read once
def _origin_match(sentence: str) -> re.Match | None:
    """The first ``_ORIGIN`` of ``sentence`` that names who published a number, not what the author
    took from them: "I tried the three example prompts from the docs on my M1 Ultra" (a source after
    "from", in a clause whose subject is the first person) names where the prompts came from, and
    the M1 Ultra and the rates are the author's."""
    ends: list[int] | None = None
    for m in _ORIGIN.finditer(sentence):
        if re.search(r"\bfrom\s+$", sentence[max(0, m.start() - 6) : m.start()], re.I):
            if ends is None:  # the clause ends once per sentence (a sentence of many sources: linear)
                ends = [c.end() for c in _CLAUSE_END.finditer(sentence)]
            k = bisect.bisect_right(ends, m.start()) - 1
            start = max(ends[k] if k >= 0 else 0, m.start() - 160)
            took = sentence[start : m.start()]
            # ... unless the sentence goes on to give the source's number ("from the blog, which
            # reports 80 tok/s", "from the authors who measured 80 tok/s", "and they got 80")
            theirs = _REPORTED.search(sentence, m.end(), m.end() + 80)
            if _TOOK_FROM.search(took) and not _THEIR_NUMBERS.search(took) and theirs is None:
                continue
        return m
    return None


def origin_of(sentence: str) -> str | None:
    """Who published a number the sentence quotes (``origin``), when it names someone else: "the
    fork's author reports", "the vendor's blog gives", "in my earlier posts", "according to the
    paper" (``_ORIGIN``, not a source the author took inputs from: ``_origin_match``); None for the
    post's own numbers."""
    m = _origin_match(sentence)
    return re.sub(r"^(?:in|according to)\s+", "", m.group(0).strip(), flags=re.IGNORECASE) if m else None


#: where a clause ends and the next begins ("…, I couldn't reproduce that", "… which matches")
_CLAUSE_END = re.compile(r"[,;:(]\s*|\s(?:but|while|whereas|which|and)\s")
#: the author speaking: a clause opened by the first person ("I got", "(got 58 … on my card)")
_FIRST_PERSON = re.compile(
    r"\s*(?:but\s+|and\s+|so\s+|while\s+|whereas\s+|(?:al)?though\s+)?(?:I|I'm|I've|I'd|we|we've|my|our|me)\b",
    re.I,
)
#: a sentence opened by the author running something ("I have tested", "We ran", "I measured"; not
#: "I read about", which reports someone else's)
_FIRST_PERSON_RUN = re.compile(
    r"\s*(?:I|we)(?:\s+(?:have|had|also))*(?:'ve)?\s+(?:tested|test|ran|run|measured|benchmarked|tried|"
    r"got|get|used|compared|profiled)\b",
    re.I,
)
#: a clause set against the one before it ("…, but I do not see a speedup mentioned in the paper")
_CONTRAST = re.compile(r"[,;]?\s(?:but|yet|while|whereas|although|though|however)\s", re.I)
#: a clause comparing the author's number with others' ("…, which matches what others report")
_AGREES = re.compile(
    r"\b(?:which|matching|match(?:es)?|in line with|consistent with|similar to|like what)\b", re.I
)


def origin_at(sentence: str, at: int) -> str | None:
    """``origin_of`` for the number at offset ``at`` of ``sentence``: the quoted person's number
    lies in the clauses from the one naming them up to a clause in the first person (the author's
    own: "Someone reported 2.5x on a 4090, I couldn't reproduce that (got 58 tok/s …)"); a number
    before a clause that compares it with theirs is the author's too ("about 6% lower, which
    matches what others report", ``_AGREES``), and so is one in a sentence the author opens in the
    first person before a clause set against the other's ("I have tested … on llama-7b, but I do not
    see a speedup mentioned in the paper", ``_CONTRAST``); a number before a plain "…, according to
    the paper" is theirs.  None for the post's own numbers."""
    origin = origin_of(sentence)
    if origin is None:
        return None
    m = _origin_match(sentence)
    assert m is not None
    if at < m.start():
        if _AGREES.search(sentence, at, m.start()):
            return None
        if _FIRST_PERSON_RUN.match(sentence) and _CONTRAST.search(sentence, at, m.start()):
            # "I have tested AWQ and GPTQ on llama-7b, but I do not see a speedup mentioned in the
            # paper": the author's clause, set against what the other says
            return None
        return origin
    for cut in _CLAUSE_END.finditer(sentence, m.end(), at):
        if _FIRST_PERSON.match(sentence, cut.end()):
            return None
    return origin


def others_conditions(cond: dict, sentence: str, at: int) -> dict:
    """The conditions of someone else's number at offset ``at`` of ``sentence`` (a claim with an
    ``origin``): the post's own ``cond`` with the hardware the number's clause names instead of
    the post's ("someone reported 2.5x on a 4090, so my 3090 is in line": RTX 4090); none named,
    ``cond`` as it is (the corpus's convention: a quoted number under the post's setup)."""
    out = dict(cond)
    cuts = [m.end() for m in re.finditer(r"[,;:]\s|\s(?:so|but|while|whereas)\s", sentence)]
    lo = max((c for c in cuts if c <= at), default=0)
    hi = min((c for c in cuts if c > at), default=len(sentence))
    hardware = [m for m in mentions(sentence[lo:hi]) if m.path == "hardware"]
    if hardware:
        out["hardware"] = min(hardware, key=lambda m: abs(lo + m.start - at)).value
    return out


def label_key(header: str) -> str:
    """A table header as ``LABELS`` keys it: lower case, no parentheses, dashes, underscores,
    backticks, asterisks or colons, spaces single ("N-GPU Layers (ngl)" -> "ngpu layers"); a header
    of another language with the English word in parentheses, "模型 (Model)", "量化 (Quantization)",
    by that word where only it is a key."""
    h = _bare_key(re.sub(r"[(（].*?[)）]", "", header))
    if h not in LABELS and not re.search(r"[a-z0-9]", h):  # no Latin word outside the parentheses
        inner = [_bare_key(x) for x in re.findall(r"[(（](.*?)[)）]", header)]
        h = next((k for k in inner if k in LABELS and len(k) > 2), h)
    return h


def _bare_key(header: str) -> str:
    h = re.sub(r"[`*_\-–—:]+", "", header.lower().replace("_", "")).strip()
    return re.sub(r"\s+", " ", h)


class Bounds(list):
    """Where the sentences of a text start (``sentence_bounds``), and each sentence once cut out
    (``found``: its index -> ``sentence_at``'s answer): cutting it out again for each of its numbers
    copied the sentence per number, quadratic in a long sentence of many numbers."""

    def __init__(self, starts: list[int]):
        super().__init__(starts)
        self.found: dict[int, tuple[int, str]] = {}


def sentence_bounds(text: str) -> Bounds:
    """Where the sentences of ``text`` start, and ``len(text) + 1``: ``sentence_at``'s ``bounds``."""
    # a full stop of Chinese or Japanese ends a sentence with no space after it ("…一倍。这不是…");
    # the point of an abbreviation inside a sentence ends none ("50 vs. 20 tok/s", "e.g. 4-bit")
    return Bounds(
        [0]
        + [
            m.end()
            for m in re.finditer(
                r"(?<=[.!?])(?<!\b[Vv][Ss]\.)(?<!\b[Ee]\.[Gg]\.)(?<!\b[Ii]\.[Ee]\.)(?<!\b[Cc][Ff]\.)\s+|(?<=[。！？])\s*(?=\S)|(?<=[!?])(?=[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])",
                text,
            )
        ]
        + [len(text) + 1]
    )


def sentence_at(text: str, start: int, bounds: list[int] | None = None) -> tuple[int, str]:
    """Where the sentence of ``text`` around offset ``start`` begins, and the sentence (stripped);
    ``bounds``: ``sentence_bounds(text)``, computed once for many numbers of one text.  The offset
    comes from the bounds: finding the sentence's text again cost a pass over the text per number
    (quadratic in a long sentence) and found an earlier sentence of the same words."""
    bounds = bounds if bounds is not None else sentence_bounds(text)
    k = bisect.bisect_right(bounds, start) - 1
    found = bounds.found if isinstance(bounds, Bounds) else {}
    if k in found:
        return found[k]
    a, b = (bounds[k], bounds[k + 1]) if 0 <= k < len(bounds) - 1 else (0, len(text))
    raw = text[a:b]
    found[k] = (a + len(raw) - len(raw.lstrip()), raw.strip())
    return found[k]


def set_path(d: dict, path: str, value) -> None:
    """Set ``value`` at the dotted ``path`` of the nested dict ``d`` ("offload.n_gpu_layers"), making
    the dicts on the way."""
    node = d
    parts = path.split(".")
    for p in parts[:-1]:
        node = node.setdefault(p, {})
    node[parts[-1]] = value


def merged(base: dict, over: dict) -> dict:
    """``base`` with ``over`` laid on it, nested dicts merged key by key (``over`` wins); neither is
    changed."""
    out = {k: (dict(v) if isinstance(v, dict) else v) for k, v in base.items()}
    for k, v in over.items():
        out[k] = merged(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def word_set(text: str) -> set[str]:
    """The words of ``text`` (lower case, two characters or more, no stop words: ``_STOP``)."""
    return {w for w in re.findall(r"[\w.]+", text.lower()) if len(w) > 1 and w not in _STOP}


def _flat(d: dict) -> str:
    return " ".join(f"{k} {_flat(v) if isinstance(v, dict) else v}" for k, v in d.items())


_PLAIN_NUMBER = re.compile(r"-?(\d+)(?:\.(\d+))?")


#: the most decimals a number written as a double's shortest repr has ("4.3245438351374705",
#: "0.9718493085998489": 16 or 17); more than ``schema.Claim.decimals``'s 15 is stated as exact
_REPR_DECIMALS = 17


def machine_float(text: str) -> bool:
    """Whether ``text`` is a number a program printed at full precision: a fraction of 15 or more
    significant digits (Python's repr of a double has up to 17: "19.689866304397583",
    "0.04074668884277344"; no one rounds to that), stated as an exact value: ``decimals: null``
    (the hand files' convention for machine floats; the schema counts at most 15 decimals)."""
    m = _PLAIN_NUMBER.fullmatch(text)
    if m is None or not m.group(2) or len(m.group(2)) > _REPR_DECIMALS:
        return False
    return len((m.group(1) + m.group(2)).lstrip("0")) >= 15


def plain_value(text: str | None) -> float | None:
    """A drafted number's value when a claims file can state it (finite, at most 15 digits before
    the point and 15 after it, ``schema.Claim.decimals``, or a program's full-precision print:
    ``machine_float``), else None."""
    if text is None:
        return None
    m = _PLAIN_NUMBER.fullmatch(text)
    if not m or len(m.group(1)) > 15 or len(m.group(2) or "") > _REPR_DECIMALS:
        return None
    return float(text)


def stateable(n: Number) -> bool:
    """Whether a claims file can state ``n`` as a claim (the schema's rules, so a draft always loads):
    every number plain (``plain_value``), no negative value but a change in %, a count "k of n" with
    0 ≤ k ≤ n and n ≥ 1 whole numbers."""
    texts = [n.low, n.high] if n.range is not None else [n.text]
    values = [plain_value(t) for t in texts]
    if any(v is None for v in values) or (n.spread is not None and plain_value(n.spread) is None):
        return False
    if any(machine_float(t) for t in (*texts[1 if n.range is None else 2 :], n.spread or "", n.of or "")):
        return False  # only a value states "exact" (``decimals: null``): no range, spread or count
    if n.unit != "%" and any((v or 0) < 0 for v in values):
        return False
    if n.unit is None and n.of is not None:
        k, of = plain_value(n.text), plain_value(n.of)
        return (
            k is not None
            and of is not None
            and k.is_integer()
            and of.is_integer()
            and 0 <= k <= of
            and of >= 1
        )
    return True


def number_fields(n: Number) -> dict:
    """The fields a claim takes from how ``n`` was written: ``value`` (as written: ``Num``) or
    ``range``, ``about`` where stated, ``unit``, ``spread`` and ``capacity`` where stated."""
    fields: dict = {}
    if n.range is not None:
        fields["range"] = [Num(n.range[0]), Num(n.range[1])]
    else:
        fields["value"] = Num(n.text)
        if machine_float(n.text):
            fields["decimals"] = None
        elif n.decimals is not None:
            fields["decimals"] = n.decimals  # "10k": 10000 to the thousand (``draftprose.scaled``)
    if n.about:
        fields["about"] = True
    fields["unit"] = n.unit
    if n.spread is not None:
        fields["spread"] = Num(n.spread)
    if n.of is not None and n.of_unit == n.unit and (plain_value(n.of) or 0) > 0:
        fields["capacity"] = Num(n.of)
    return fields


#: the most characters of its sentence an entry quotes (``quote``, a statement's ``statement``): a
#: sentence of thousands of numbers quoted whole by each made the claims file quadratic in it
QUOTE = 500


def source_fields(line: int, quote: str) -> dict:
    """Where an entry came from: ``source_line`` (where known, else none) and ``quote`` (stripped, at
    most ``QUOTE`` characters)."""
    cut = quote.strip()[:QUOTE]
    return {"source_line": line, "quote": cut} if line else {"quote": cut}


#: the conditions two claims of one value must share to be one run stated twice (``first_stated``)
_SAME_RUN = frozenset({"model", "quant", "hardware", "engine", "build", "backend", "decoding", "prompt"})


class DraftCore:
    """The drafter's state while it reads one post, and the steps every part of it uses (ids,
    claims, conditions); the parts (``Sides``, ``Tables``, ``Sentences``) and ``draft._Drafter``
    build on it."""

    def __init__(self, post: Post, name: str):
        self.post = post
        self.name = name
        self.link: str | None = None  # where the post was published (``draft.draft_text``)
        self.out = Drafted()
        self.ids: set[str] = set()
        self.command: dict = {}
        self.command_tool: str | None = None
        #: whether the section being read is over the setup (``draftcontext.setup_heading``:
        #: "Setup", "Commands"), the command lines read in it, and the one command line of such a
        #: section, which the sections after it keep (``draft._Drafter.run``)
        self.setup_section = False
        self.spec_section = False  # under a heading of the machines' specifications (``spec_heading``)
        #: the run a heading names ("### Run 2"): its section's code blocks' (``draft._run_of_block``)
        self.section_run: int | None = None
        self.section_commands: set[str] = set()
        self.setup_command: tuple[dict, str | None] = ({}, None)
        self.by_value: dict[tuple[str, str | None], list[str]] = {}
        #: (value as a number, unit) -> the first claim stating it (a test line restating it cites it)
        self.by_number: dict[tuple[float, str | None], str] = {}
        #: (value as a number, unit) -> how many claims state it (``restated_in``: one only)
        self.number_count: dict[tuple[float, str | None], int] = {}
        #: (model, quant, size, unit) of the llama-bench size cells drafted (``bench_size``: once each)
        self.bench_sizes: set[tuple[str, str, str, str]] = set()
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
        #: each claim's words before its number in a sentence ("baseline" in "baseline 42.45 tok/s")
        self.labels: dict[str, str] = {}
        self.vocab: dict[str, tuple[str, object]] = {}
        #: the post's model names -> the quant named with each (``Tables.model_by_family``), read once
        self.post_models: dict[str, object] | None = None
        self.tables = 0
        self.in_heading = False  # reading a title or heading (``_spec_size``)
        #: claims of relating phrases drafted from a title or heading (``Sides.headline_statements``)
        self.headline_claims: list[str] = []
        self.multiple_claims: list[tuple[str, str]] = []  # (claim, its phase): ``Sides.later_sides``
        self.compare_claims: dict[int, list[str]] = {}  # a comparison row's claims by line: ``compared_row``
        self.bare_pairs: list[tuple[str, str, str]] = []  # (change claim, from, to): the same
        self.suffix: dict[str, int] = {}
        #: conditions named in the section's prose so far (``draftnames``): path -> value
        self.named: dict[str, object] = {}
        #: the list item read last: its last line, what the list's items named, the paths they name
        #: apart, and what was named before the list (``draftsentences``' ``_list_names``)
        self._list_item: tuple[int, dict[str, object], set[str], dict[str, object]] | None = None
        self.title_named: dict[str, object] | None = None
        #: the engines the post names anywhere: what an abbreviation in a table stands for ("LCP")
        self.engines_named = engines_in(post.text)
        #: the rate unit the last paragraph and the section's heading (else the title) state: the unit
        #: of a table that states none ("Baseline: 33.92 tokens/second" above a table of rates)
        self.para_rate: str | None = None
        #: the paragraph right before the block being read (a table's caption: "Values are decode
        #: tokens per second / time to first token in milliseconds"), "" after a heading or table
        self.para_text = ""
        #: the time or size metric and unit the paragraph's last line names alone ("Here is TPOT(s):" over a
        #: table of plain numbers): the metric and unit of a table that states none (``caption_quantity``)
        self.para_quantity: tuple[str, str] | None = None
        self.heading_rate: str | None = None
        #: the text of the section's heading, its marks left out ("Decode Throughput")
        self.heading_text = ""
        #: the metric of times a heading names ("延迟对比(P99)": latency), per heading level
        self.heading_times: list[tuple[int, str]] = []
        self.heading_time: str | None = None
        #: the rates the open headings state, with their levels (``heading_level``), outermost first
        self.heading_rates: list[tuple[float, str]] = []
        #: the rate units the post's paragraphs stated so far: where they state one, it is the unit
        #: of a table further on that states none and has no rate above it ("the speed is only 1.53
        #: tokens/s ..." in the question, a reply's table of plain numbers)
        self.post_rates: set[str] = set()
        #: the rate unit a caption of the section names with no number ("Output tokens/s on H100
        #: BS1"): the unit of the bare "label: N" results under it
        self.caption_rate: str | None = None
        #: the groups of the last table drafted with no command line before it, while only a label
        #: ("Server command:") stands between it and the next block: a command line there is its
        self.open_table: list[str] | None = None
        #: the last paragraph when it ends with ":" and introduces what follows ("From 16 → 32
        #: concurrency:" above a list of changes), else ""
        self.lead_in = ""
        #: whether the relating phrase being drafted is about speed ("faster", "slower", ``_SPEED``):
        #: its sides are rates (``relation``, ``_scope``)
        self.rates_only = False
        #: the post line of the relating phrase being drafted (``Sides.relation``, ``Sides._pick``)
        self.phrase_line = 0
        #: the timing lines of each log excerpt: (where in ``out.entries``, results, log name, the
        #: command in force), drafted at the end where no claim names the log (``uncited_timings``)
        self.timing_logs: list[tuple[int, list[Result], str, dict]] = []
        #: the post's lines each log excerpt was kept from (``log``): a claim read from them is the
        #: log's own, not prose citing it
        self.log_lines: dict[str, set[int]] = {}
        #: what the relating phrases of the paragraph being drafted read of its sentences and
        #: clauses, read once per sentence or clause (``Sides._once``): a memo for each of the last
        #: few texts read, most recent first
        self._memo: list[tuple[str, dict[tuple, Any]]] = []
        #: each claim's ``flat_conditions`` while the relations of a paragraph are drafted, else None
        self._flat: dict[str, dict[str, object]] | None = None
        #: a source line's numbers with a unit, (text, unit), read once a line (``line_units``)
        self._line_units: dict[int, list[tuple[str, str | None]]] = {}
        #: meanwhile, the (condition, value) pairs the last claims state: where in ``claim_ids`` the
        #: claims counted start and end, and each pair's count (``Sides._recent_values``)
        self._values: tuple[int, int, dict[tuple[str, str], int]] | None = None
        #: where the relating phrases of the paragraph being drafted start (their numbers' offsets)
        self.rel_starts: list[int] = []
        #: bounds of a ratio or change and their sides, whose sets are written at the end
        #: (``bound_sets``: the claims' conditions are filled last)
        self.ratio_bounds: list[tuple[Entry, list[str]]] = []
        #: where in ``claim_ids`` the current section (since the last heading) starts, and whether
        #: ``_scope`` keeps to it (a relating phrase's sides are sought there first)
        self.section_start = 0
        self.section_only = False

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
        """A claim of ``fields`` (a row of ``group`` where given) with a new id from ``base``,
        indexed by line, value, number and words; its id.  A machine's float (``decimals: None``,
        ``machine_float``) or a number in thousands ("4.2k": decimals -2) is a claim of its own with
        the group's metric, unit and conditions: a table row states no decimals but its digits' (a
        null cell is the group's)."""
        if (
            group is not None
            and "decimals" in fields
            and (fields["decimals"] is None or fields["decimals"] < 0)
        ):
            shared = self.groups[group].fields
            own = merged(shared.get("conditions") or {}, fields.get("conditions") or {})
            fields = {k: shared[k] for k in ("metric", "unit") if k in shared} | fields
            fields = fields | ({"conditions": own} if own else {})
            group = None
        if isinstance(fields.get("conditions"), dict):
            plain_run(fields["conditions"])  # a baseline beside a speculative command drafts nothing
        cid = self.new_id(base)
        cond = fields.get("conditions")
        if isinstance(cond, dict) and not builds_engine(cond.get("build"), cond.get("engine")):
            # "llama.cpp b4000 … 21% faster than Ollama": the build is llama.cpp's, not Ollama's
            fields = {**fields, "conditions": {k: v for k, v in cond.items() if k != "build"}}
        entry = Entry("claim", cid, {"id": cid, **fields}, group)
        self.out.entries.append(entry)
        self.claims[cid] = entry
        self.claim_ids.append(cid)
        if fields.get("source_line") is not None:
            self.by_line.setdefault(fields["source_line"], []).append(entry)
        self.labels[cid] = label
        shared = self.groups[group].fields if group is not None else {}
        value = fields.get("value") or "–".join(fields.get("range") or ())
        unit = fields.get("unit") or shared.get("unit")
        self.by_value.setdefault((str(value), unit), []).append(cid)
        if (x := plain_value(str(value))) is not None:
            self.by_number.setdefault((round(x, 9), unit), cid)
            self.number_count[round(x, 9), unit] = self.number_count.get((round(x, 9), unit), 0) + 1
        metric = str(fields.get("metric") or shared.get("metric") or "")
        named = f"{METRIC_WORDS_OF.get(metric, '')} {metric.replace('_', ' ')}"
        self.profile[cid] = (unit, word_set(f"{label} {_flat(fields.get('conditions', {}))} {named}"))
        for word in self.profile[cid][1]:
            self.by_word.setdefault(word, []).append(len(self.claim_ids) - 1)
        return cid

    def conditions(self) -> dict:
        return merged({}, self.command)

    def context(self, named: dict[str, object] | None = None, engine: object = None) -> dict:
        """The command's conditions, and the conditions the section's prose named before
        (``named``: ``self.named``) where the command sets none.  ``engine``: the engine the claim's
        own clause names; another than the command's ("llama-server …" above, "ollama の推論速度は
        9.8 tps"): that command ran another engine, none of its settings are the claim's."""
        out = self.conditions()
        if engine is not None and out.get("engine") not in (None, engine):
            out = {}
        for path, value in (self.named if named is None else named).items():
            if path not in out:
                set_path(out, path, value)
        return out

    def named_conditions(self, at: int, s0: int, sentence: str, clauses: list[int] | None = None) -> dict:
        """The conditions the sentence around offset ``at`` names: a label with a number ("block
        size 4", "-ncmoe 26": ``NAMED_CONDITION``) and a label value the post's tables use ("WSL2",
        "draft-self") and a public benchmark's prompt set (``PROMPT_SET``: "+12% (MT-Bench)"), within
        ``_NEAR`` characters of the number; of several for one field, the
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
            if not lo <= pos < hi or value is None:
                return
            if (
                pos < rel
                and AFTER_NUMBER.search(sentence, max(0, pos - 24), pos)
                and AND_SEP.search(sentence, pos, rel)
            ):
                return  # "70.1 tok/s at n-max 4, 65.0 tok/s at n-max 8": the 4 is the first number's
            if pos > rel and in_own_aside(sentence, rel, pos):
                return  # "3.9x (llama.cpp only manages 1.2x)": the aside's number's name
            if score <= _NEAR and (path not in found or score < found[path][0]):
                found[path] = (score, value)

        # only the part of the sentence within reach (``_NEAR``, and a margin for a match's length):
        # reading the whole sentence for each of its numbers was quadratic in a long sentence
        w0 = max(0, rel - _NEAR - 256)
        near = sentence[w0 : max(0, rel + _NEAR + 256)]
        for m in NAMED_CONDITION.finditer(near):
            path, typ = LABELS.get(label_key(m.group("label")), ("", ""))
            if path and typ == "int":
                # in parentheses right after a number ("45 tok/s (K=3) and 52 tok/s (K=8)"): that
                # number's alone, whatever is nearer
                owner = paren_owner(sentence, w0 + m.start())
                if owner is None:
                    offer(path, w0 + m.start(), named_count(m))
                elif owner == rel:
                    offer(path, rel, named_count(m))
        # a llama-bench test naming the rate after it ("tg128 が約10.37 t/s", "pp512 @ d16384 is 214
        # t/s"): the tokens its tg test generates, the depth it ran at; the last test before the
        # number only ("pp512 ~330 t/s, tg128 ~10 t/s": the tg is the second's)
        tests = [m for m in _TEST_NAME.finditer(near) if w0 + m.end() <= rel]
        if tests:
            test = tests[-1]
            if (test.group("t") or "").lower() == "tg":
                offer("tokens_generated", w0 + test.start(), int(test.group("n")))
            if test.group("d") or test.group("alone"):
                offer("depth", w0 + test.start(), int(test.group("d") or test.group("alone")))
        for m in PROMPT_SET.finditer(near):
            if _TRAINED_ON.search(near, max(0, m.start() - 40), m.start()):
                continue  # "trained on ShareGPT", "fine-tuned Llama 3 8B with Alpaca": the data it learnt
            offer("prompt", w0 + m.start("d"), m.group("d"))
        low = near.lower()
        for word, (path, value) in self.vocab.items():
            if word not in low:  # most are not: no pattern to compile and run
                continue
            for m in re.finditer(rf"(?<![\w-]){re.escape(word)}(?![\w-])", low):
                offer(path, w0 + m.start(), value)
        head = _HEAD_LABEL.match(sentence)
        if head is not None and head.end() <= rel:
            # a line's head label ("Batch 64: 16 batches, total …ms, avg …ms, std …ms, p95 …ms"):
            # the setting of every number after it, however far, where none nearer names one
            for m in NAMED_CONDITION.finditer(sentence, 0, head.end()):
                path, typ = LABELS.get(label_key(m.group("label")), ("", ""))
                if path and typ == "int" and path not in found:
                    found[path] = (_NEAR, named_count(m))
        out: dict = {}
        for path, (_, value) in found.items():
            set_path(out, path, value)
        return out

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

        walk(merged(shared, entry.fields.get("conditions", {})), "")
        if self._flat is not None:
            self._flat[cid] = out
        return out

    def metric_of_claim(self, cid: str) -> str | None:
        entry = self.claims[cid]
        shared = self.groups[entry.group].fields if entry.group in self.groups else {}
        return entry.fields.get("metric") or shared.get("metric")

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
        # or the one cell of another table before it with the same metric too (a summary table
        # repeating a results table's row: "| `output_tok_s` | 102.91 |", then "| `output_tok_s` |
        # 102.91 | 89.72 | +14.7% |")
        if first or cid not in same:
            return cid
        metric = self.metric_of_claim(cid)
        table = self.groups[e.group].line  # the table's first line: a column's group is one of many
        mine = self.flat_conditions(cid)

        def agrees(c: str) -> bool:  # no condition both state differs ("Llama-3.1-8B" vs "Qwen3-4B")
            theirs = self.flat_conditions(c)
            return all(theirs[k] == v for k, v in mine.items() if k in theirs and k in _SAME_RUN)

        earlier = [
            c
            for c in same[: same.index(cid)]
            if (g := self.claims[c].group) in self.groups
            and self.groups[g].line != table
            and self.metric_of_claim(c) == metric
            and agrees(c)
        ]
        return earlier[0] if len(earlier) == 1 else cid
