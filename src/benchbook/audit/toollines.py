"""Lines of a tool's or log's output that state a number under a label, read as claims
(``benchbook claims draft``; the shapes ``resultlines`` does not know).

A code block of pasted output states its numbers as ``label: value unit``, ``Label (unit): value``,
``key=value`` or aligned columns, where the prose reader (``draftprose.numbers``) would find no
sentence around them.  Read here, line by line:

* llama.cpp's timing lines (``TIMING_LINE``, shared with ``ingest.serverlog``: llama-server's
  ``print_timing``, ``llama_perf_context_print``, ``common_perf_print``, ``llama_print_timings``):
  ``prompt eval time = 519.43 ms / 56 tokens (9.28 ms per token, 107.81 tokens per second)`` is a
  prompt eval time (``prompt_eval_ms``), a time per token and a prefill rate, ``eval time = ... / 159
  runs (..., 79.85 tokens per second)`` the same of decoding (``eval_ms``) with its tokens generated
  (llama.cpp counts a run per token generated), the sampler's line the same of sampling
  (``sampling_ms``), ``load time = 728.24 ms`` a load time, ``total time = 2674.12 ms`` the total
  (``total_ms``: the names the log check computes, docs/claims.md), the old ``main``'s ``predict
  time = 37065.80 ms / 226.01 ms per token`` its loop's duration and time per token; a rate printed
  ``inf`` or zero (a phase that did not run) is not a result, its "0.00 ms" times are.  Read in
  prose too (the shape is the tool's, whatever surrounds it);
* ``label: value [unit]``, ``Label (unit): value`` and ``label   value`` (two or more spaces, or a
  tab: an aligned table whose rows are metrics): ``ollama run --verbose`` (``eval rate: 25.63
  tokens/s``, ``load duration: 24.89ms``, ``eval count: 41 token(s)``), vLLM's
  ``benchmark_serving.py``/``vllm bench serve`` and SGLang's ``bench_serving`` summaries (``Output
  token throughput (tok/s): 4111.93``, ``Mean TTFT (ms): 45.6``: the statistic, ``mean``, ``median``,
  ``p99``..., as the condition ``other.stat``), a script's ``decode speed: 69.78 token/s``;
* a value printed with thousands separators (``Total output tokens: 106,678``); a label naming an
  acceptance rate (``Acceptance rate at token 2: 0.21``: a fraction whatever other word the label
  has, its position as ``other.draft_position``); a count under a label naming what it counts
  (``Number of draft proposals: 43,221``: in ``proposals``; a workload's size, "Number of prompts",
  is no result); a label spelled as a flag (``num-speculative-tokens: 3``) is a setting; two or more
  such lines with no unit written, pasted in prose without a code fence, are read too (``_pasted``);
* ``key=value`` and JSON ``"key": value`` pairs whose key names a unit (``ttft_ms``, ``wall_s_total``,
  ``decode_tps``, ``predicted_per_second``, ``vram_peak_mib``): the unit from the key's words;
* a line of several ``label: value`` parts (``_segments``: SGLang's ``bench_speculative``); a script's
  "[0.24.0] tok/sec: 65.05, dt: 14.70, toks: 956" (its version tag the build, ``toks`` a count and
  ``dt`` the seconds the count over the rate gives: ``_implied_times``); vLLM's engine log line with
  several requests running ("Running: 337 reqs": ``input_throughput`` and ``throughput``, one
  request's prefill and decode rates otherwise); LMDeploy's statistics listed with their values
  ("first token latency(s)(min, max, ave): 0.099, 4.162, 0.664": ``_stat_list``);
* TAP lines (``ok 3 - decode 41.2 t/s >= 40``): the numbers of the description with a unit, not the
  threshold the test compares them with;
* llama.cpp's ``llama_memory_breakdown_print`` rows: the model, context and compute memory of each
  device and of the host, in MiB (``_memory``);
* perplexities (``PPL=1.79``, llama-perplexity's ``Final estimate: PPL = 5.9066 +/- 0.03336``): a
  ``perplexity`` claim in ``PPL`` with its ``+/-`` as ``spread`` and the line's ``ctx=``.

The unit comes from the words after the value, else from the label (``(ms)``, ``Prompt tok/s``),
else (a whole number under a label naming tokens: ``output token: 1000``) tokens; a line with no unit
states nothing here (``port: 8080``, ``compute capability: 8.9``).  A label naming a setting
(``_SETTING``: port, seed, timeout, max tokens, request rate...) is no result, and a size only under
a label naming a measured size (``_SIZE_LABEL``: used, peak, buffer, file size...): ``GPU: 24 GB``
describes the machine.  The metric comes from the label (``label_metric``, then ``draftprose.metric_of``).
"""

from __future__ import annotations

import csv
import math
import re
from dataclasses import replace

from ..ingest.serverlog import TIMING_LINE
from .draftcommand import KOBOLD_SETTINGS, kobold_backend, kobold_model
from .draftcore import set_path
from .draftprose import (
    ACCEPT_LENGTH_WORDS,
    PROGRESS,
    TTFT_WORDS,
    family,
    metric_of,
    numbers,
    scaled,
    unit_of,
)
from .draftwords import settings_in_words
from .resultlines import Result

_NUM = r"\d+(?:\.\d+)?"
#: a number a tool prints, with thousands separated by commas or not (``106,678``, ``1,234.5``)
_GROUPED = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
#: ``label SEP value [unit] [rest]``: SEP ``:``, ``=``, two spaces or a tab; the rest at most a note
#: in parentheses or a comment
#: (the runs of white space taken whole, atomic and possessive: each split of a run of spaces
#: between the label's end, the separator and the value was tried, a line of 400 spaces took
#: minutes: the same matches, as what follows each run starts with no white space)
_LABELLED = re.compile(
    # (SGLang's "#Input tokens: 10354": a count's "#" glued to its label)
    # (a run's tag in brackets before the label: "[Model Load]", a version "[0.24.0] tok/sec: 65.05")
    rf"^[\s>*•+\-]*+(?P<label>(?:\[(?:[A-Za-z][\w ]{{0,20}}|v?\d+(?:\.\d+){{1,3}})\]\s*+)?"
    # (or a part's number glued to its letter: "155H:  51.6ms/token", "7900XTX: 30 t/s")
    rf"#?(?:[^\W\d_]|\d{{2,5}}[A-Za-z]{{1,3}}\b|\d(?:\.\d)?[BbMm]\b)[^:=\n]{{0,60}}?)"
    rf"(?>\s*(?::|=)|\s{{2,}}|\s*\t)\s*+"
    rf"(?:\[[\w:./-]{{1,20}}\]\s*+)?"  # the device it was read on: "VRAM, Model: [cuda:0] 3,390.76 MB"
    r"(?P<about>(?:around|about|approx\.?|approximately|roughly|~|≈)\s*+)?"  # "prompt_token/s: around 303.8"
    rf"(?P<v>{_GROUPED})(?![\d.,]\d)(?:\s*+(?P<unit>[^\s\d(),;|:=]+(?:\(s\))?))?"
    r"\s*+(?P<rest>\([^()]*\)|[#;|].*|//.*)?\s*$"
)
#: a ``key=value`` or ``"key": value`` pair: the key one word (``ttft_ms``, ``timings.prompt_ms``)
_PAIR = re.compile(
    # a unit in parentheses may end the key (TensorRT-LLM's "latency(ms)", "build_time(s)")
    rf"(?<![\w/.\"])\"?(?P<k>[A-Za-z_][\w.]*(?:\([A-Za-z/]{{1,8}}\))?)\"?\s*[:=]\s*(?P<v>{_NUM})(?![\w.])(?!\s?[%/])"
)
#: TensorRT-LLM's ``benchmarks/python/benchmark.py`` result line: "[BENCHMARK] model_name llama_13b
#: world_size 2 ... latency(ms) 4409.816 ... tokens_per_sec 43.09": keys and values parted by spaces
_TRT_BENCHMARK = re.compile(r"^\s*\[BENCHMARK\]\s")
_SPACED_PAIR = re.compile(rf"(?<=\s)(?P<k>[A-Za-z_][\w.]*(?:\([A-Za-z/]{{1,8}}\))?) (?P<v>{_NUM})(?=\s|$)")
#: a perplexity: ``PPL=1.79``, llama-perplexity's ``Final estimate: PPL = 5.9066 +/- 0.03336``,
#: ``perplexity: 6.12``
_PPL = re.compile(
    rf"\b(?:PPL|perplexity)\s*[=:]\s*(?P<v>{_NUM})(?![\d.])(?:\s*(?:\+/-|±)\s*(?P<sd>{_NUM}))?",
    re.IGNORECASE,
)
#: a number beside a perplexity on its line: the baseline's ("baseline 1.76", "vs 5.91") or the
#: difference ("Δ=0.03", "delta +0.12")
_PPL_BESIDE = re.compile(rf"\b(?P<w>baseline|base|vs\.?|Δ|delta)\s*[=:]?\s*\+?(?P<v>{_NUM})(?![\d.])", re.I)
#: the context size a line sets beside its result (``ctx=4096  turbo2: PPL=1.79``, ``n_ctx = 512``)
_CTX = re.compile(r"\b(?:n_ctx|ctx|ctx[_-]size)\s*[=:]\s*(?P<n>\d+)\b", re.IGNORECASE)
#: a row of llama.cpp's ``llama_memory_breakdown_print`` table (MiB): a device's ``| - CUDA0 (RTX
#: 4090) | total = free + (self = model + context + compute) + unaccounted |`` or the host's ``| -
#: Host | self = model + context + compute |``
_MEMORY_ROW = re.compile(
    r"memory_breakdown_print:\s*\|\s*-\s*(?P<name>[^|]+?)\s*\|\s*(?:\d+\s*=\s*\d+\s*\+\s*\(\s*)?"
    r"(?P<self>\d+)\s*=\s*(?P<model>\d+)\s*\+\s*(?P<context>\d+)\s*\+\s*(?P<compute>\d+)"
)
#: a TAP result line: ``ok 3 - description``, ``not ok 4 description``
_TAP = re.compile(r"^\s*(?:not\s+)?ok\s+\d+\b\s*(?:-\s*)?(?P<desc>.*)$")
#: a comparison in a TAP description: the threshold after it is the test's, not a result
_COMPARE = re.compile(r"(?:>=|<=|==|!=|>|<|≥|≤)\s*$")
#: labels naming a setting or an identity, not a result
_SETTING = re.compile(
    r"\b(?:port|seed|timeout|interval|delay|limit|budget|max[ _-]?(?:tokens?|new|len|seq|num)|"
    r"request[ _-]?rate|traffic|burstiness|ctx|context|batch|threads?|capability|version|build|"
    r"temperature|temp|top[ _-]?[kp]|penalty|id|pid|num[ _-]?prompts|concurrency|parallel|"
    r"n[ _-]?(?:ctx|batch|ubatch|gpu|threads|predict|draft|parallel)|num[ _-]?spec(?:ulative)?[ _-]?tokens|"
    # the KV cache pool's fill at one moment of a server's log ("GPU KV cache usage: 1.2%"): no result
    r"kv[ _-]?cache[ _-]usage|"
    # the machine's devices ("Number of CUDA devices: 1", "GPUs: 8"): a setup, no result
    r"(?:number[ _-]+of|num|n)[ _-]+(?:(?:cuda|gpu|rocm|metal|sycl|vulkan)[ _-]+)?"
    r"(?:devices?|gpus?|cards?|nodes?)|"
    r"(?:devices?|gpus?)[ _-]?count)\b",
    re.IGNORECASE,
)
#: a label spelled as a command-line flag (``num-speculative-tokens``, ``--draft-max``,
#: ``ngram-prompt-lookup-max``): a setting written in a config, not a result
_FLAG_NAME = re.compile(r"(?:--?)?[a-z][a-z0-9]*(?:-[a-z0-9]+)+")
#: labels under which a size is a measured one (not the machine's: "GPU: 24 GB")
_SIZE_LABEL = re.compile(
    r"used|usage|peak|alloc|buffer|size|file|weights|\bkv\b|cache|footprint|consum|resident|rss|"
    r"\bvram\b.*(?:used|peak)|total|\bvram\s*,\s*(?:model|inference|cache)\b",  # exllama's "VRAM, Model:"
    re.IGNORECASE,
)
#: a statistic leading a label ("Mean TTFT (ms)", "P99 ITL (ms)", "Median E2E Latency (ms)")
_STAT = re.compile(r"^\s*(mean|median|avg|average|std|min|max|p\d{1,2}(?:\.\d+)?)\b", re.IGNORECASE)
#: words of a key (split at ``_`` ``.`` ``-``) -> the unit they name
_KEY_UNITS = {
    "ms": "ms",
    "s": "s",
    "sec": "s",
    "secs": "s",
    "seconds": "s",
    "tps": "tok/s",
    "mib": "MiB",
    "gib": "GiB",
    "mb": "MB",
    "gb": "GB",
    "pct": "%",
    "percent": "%",
    # a count of tokens (an OpenAI-style usage object's "prompt_tokens", "completion_tokens")
    "tokens": "tokens",
}


#: the words before "tokens" in a key naming a run's own count ("prompt_tokens", "completionTokens")
_COUNTED_TOKENS = frozenset(
    {"prompt", "completion", "total", "input", "output", "generated", "new", "decode"}
)
#: a rate of tokens said in words, no unit written: "每秒生成的令牌数" (tokens generated per second),
#: "每秒令牌数", "tokens per second", "1秒あたりのトークン数", "초당 토큰"
_RATE_WORDS = re.compile(
    r"每秒.{0,6}?(?:令牌|token|词元)|(?:令牌|token|词元)s?\s*每秒|秒(?:あたり|間).{0,4}?トークン|초당\s*토큰|"
    r"tokens? (?:per|a) second",
    re.IGNORECASE,
)


#: a label that is all a phase's rate, llama.cpp's words for its two tests ("PROMPT PROCESSING", "Token
#: generation", "generation speed"): a rate of tokens where no unit is written ("PP: 512", "TG: 128"
#: are as often a test's sizes: none)
_RATE_LABEL = re.compile(
    r"(?:prompt\s+processing|token\s+generation|text\s+generation|(?:prompt|generation|decode|decoding|eval)\s+speed)",
    re.IGNORECASE,
)
#: a line that is one rate label, "is" and its value ("PROMPT PROCESSING IS 250"), read as
#: "label: value" (``_is_as_colon``)
_IS_VALUE = re.compile(
    r"^(?P<label>\s*[*_]*[^\W\d][\w ]{1,30}?)(?P<is>\s+(?:is|IS|Is|was|WAS)\s+)(?P<v>\d[\d,]*(?:\.\d+)?)\s*$"
)


def _is_as_colon(text: str) -> str:
    """``text`` with the "is" of a ``_IS_VALUE`` line whose label is a rate's (``_RATE_LABEL``) as a
    colon, the same length (offsets kept): "PROMPT PROCESSING IS 250" -> "PROMPT PROCESSING:   250";
    any other line as it is."""
    m = _IS_VALUE.match(text)
    if m is None or not _RATE_LABEL.fullmatch(m.group("label").strip(" *_")):
        return text
    return text[: m.start("is")] + ":" + " " * (len(m.group("is")) - 1) + text[m.end("is") :]


#: a label naming the tokens accepted per verify step (SGLang's "Acceptance length", "accept length",
#: "mean accepted length"): tokens, whatever unit is written
_ACCEPT_LENGTH = re.compile(ACCEPT_LENGTH_WORDS, re.IGNORECASE)
#: a label naming a length in tokens ("Average input length", "output length"): tokens where no unit
#: is written
_LENGTH_LABEL = re.compile(
    r"\b(?:input|prompt|output|generated?|completion|accept\w*)\s+(?:length|len)\b", re.IGNORECASE
)


#: a label naming an acceptance rate ("Acceptance rate at token 2", "draft acceptance", "accept
#: rate"), not a length of accepted tokens
_ACCEPT_RATE = re.compile(r"\baccept\w*(?:\s+rate)?\b(?!\s+(?:length|len|tokens?|count))", re.IGNORECASE)
#: the position a label names ("Acceptance rate at token 2", "at position 3", "pos 0")
_POSITION = re.compile(r"\b(?:at\s+)?(?:token|position|pos|step|depth)\s+(?P<k>\d+)\s*$", re.IGNORECASE)
#: a count's label: "Number of draft proposals", "# of accepted tokens", "Count of requests",
#: "Anzahl der Tokens"; the noun it counts is its last word (a participle after it dropped:
#: "Number of draft tokens generated")
_COUNT_LABEL = re.compile(
    r"^\s*(?:(?:total\s+)?number|num|#|count|anzahl|nombre|número)\s+(?:of|der|de)\s+(?P<what>[^\W\d][\w\s-]{0,50}?)\s*$",
    re.IGNORECASE,
)
#: a label naming a measured peak of requests in flight (vLLM's ``vllm bench serve``: "Peak concurrent
#: requests: 16.00", "peak active sequences"; a "max running requests" is a server's setting): in
#: requests, whole or mean
_PEAK_REQUESTS = re.compile(
    r"^\s*peak\s+(?:concurrent|running|active|in[- ]flight)\s+(?P<what>requests|reqs|sequences|seqs)\s*$",
    re.IGNORECASE,
)
#: nouns a count of is the size of a workload (a condition), not a result
_WORKLOAD_NOUNS = re.compile(
    r"^(?:prompts?|requests?|samples?|questions?|runs?|iterations?|gpus?|threads?)$", re.I
)


def _counted(label: str) -> tuple[str, str] | None:
    """The unit and metric of a count under a label naming what it counts (``_COUNT_LABEL``):
    ``tokens`` for tokens (metric from ``label_metric``: ``draft_tokens``, ``accepted_tokens``), else
    the plural noun counted (``Number of draft proposals`` -> ``proposals``, metric
    ``draft_proposals``); None for another label or a workload's size (``_WORKLOAD_NOUNS``: "Number
    of prompts" is a condition)."""
    m = _COUNT_LABEL.match(label) or _COUNT_LABEL.match(
        # (vLLM's spec_decode.py: "num_drafts", "total_num_output_tokens": "total number of output tokens")
        re.sub(r"^(total_)?num_(?=[a-z])", r"\1number of ", label).replace("_", " ")
    )
    if m is None:
        return None
    if label.strip() == "num_drafts":  # vLLM's "num_drafts": the draft proposals made (p146)
        return "proposals", "draft_proposals"
    words = [w for w in re.split(r"[\s-]+", m.group("what").lower()) if w]
    while len(words) > 1 and re.search(r"(?:ed|ing)$", words[-1]):
        words.pop()  # "tokens generated", "tokens processing"
    if any(re.fullmatch(r"tokens?", w) for w in words):
        return "tokens", label_metric(" ".join(words), "tokens") or "tokens"
    noun = words[-1] if words else ""
    if not noun.endswith("s") or _WORKLOAD_NOUNS.match(noun) or len(noun) < 4:
        return None
    return noun, "_".join(words)


#: whom a rate in a label's parentheses is counted per ("tps/user", "tokens/s/gpu"): the rate's unit
#: is what stands before it
_PER_WHOM = re.compile(
    r"\s*/\s*(?:users?|gpus?|req(?:uest)?s?|seqs?|sequences?|cards?|devices?)$", re.IGNORECASE
)


#: nouns a tool writes with "(s)" glued for its plural ("Socket(s)", "Core(s) per socket", "NUMA
#: node(s)", "eval count: 41 token(s)"): things counted, so the "(s)" is no unit of seconds
PLURAL = re.compile(
    r"(?i)\b(?:socket|core|thread|token|node|gpu|cpu|device|run|request|item|layer|model|file|user|"
    r"prompt|sequence|slot|die|cluster|step|iteration|sample|batch|card)$"
)


#: a label that is a phase's two letters alone ("PP", "TG", llama.cpp's and KoboldCpp's words)
_PHASE_ALONE = re.compile(r"\s*[*_]*(?:PP|TG|pp|tg)[*_]*\s*")


def _test_size(value: str) -> bool:
    """Whether a value after "PP:" or "TG:" is as likely a test's size as a rate: a whole power of
    two from 16 on (llama-bench's -p 512, -n 128)."""
    v = value.replace(",", "")
    return v.isdigit() and int(v) >= 16 and int(v) & (int(v) - 1) == 0


def label_unit(label: str) -> str | None:
    """The unit a label names: in parentheses or brackets of any script (``TTFT (ms)``, ``吞吐（tokens/s）``),
    as a word of two or more characters (``Prompt tok/s``, ``Decode TPS``), or a rate of tokens in
    words (``_RATE_WORDS``: ``每秒生成的令牌数`` -> tok/s); None if none."""
    for m in re.finditer(r"[(\[（]\s*([^()\[\]（）]{1,20}?)\s*[)\]）]", label):
        if m.group(1) == "s" and PLURAL.search(label[: m.start()]):
            continue  # lscpu's "Socket(s)", "Thread(s) per core", "token(s)": a plural, no seconds
        u = unit_of(m.group(1)) or unit_of(_PER_WHOM.sub("", m.group(1)))
        if u is not None:
            return u
    if re.search(r"tokens? (?:per|a) second", label, re.IGNORECASE):
        return "tok/s"  # "decode tokens per second": not the "second" alone (s)
    if _RATE_LABEL.fullmatch(label.strip(" *_")):
        return "tok/s"  # "Token generation": a rate, not tokens
    words = label.split()
    for k in range(len(words) - 1, -1, -1):
        word = words[k].strip("()[]（）").rstrip(",;")  # "Decode-only tok/s, median of 3 runs"
        if word in ("시간", "時間"):
            continue  # "로딩 시간", "処理時間": "time" in a label, not hours
        if k > 0 and re.fullmatch(r"[(\[（]?[\d.,]+", words[k - 1]):
            continue  # "Theoretical max (5.1 GB model)": the GB is the 5.1's, not the label's
        if k + 1 < len(words) and re.fullmatch(r"(?i)size:?|degree:?|rank:?", words[k + 1]):
            continue  # trtllm-bench's "PP Size:", "TP Size:": a parallelism's size, no pp rate
        if len(words) == 1 and word.upper() in ("PP", "TG"):
            continue  # "PP: 512" alone: the caller reads the value (``_phase_size``)
        if len(word) >= 2 and word.lower() not in ("x", "s", "h", "min", "tok"):
            # "prompt_token/s": the unit after a word it is joined to by "_"
            u = unit_of(word) or (unit_of(word.rsplit("_", 1)[1]) if "_" in word and "/" in word else None)
            if u is not None:
                return u
    return "tok/s" if _RATE_WORDS.search(label) else None


def _key_unit(key: str) -> str | None:
    """The unit a key names by its words (``_KEY_UNITS``; ``tok_s``, ``tokens_per_second``,
    ``per_second``: tok/s) or in parentheses at its end (``latency(ms)``), None if none."""
    low = key.lower()
    if re.fullmatch(r"(?:total|load|prompt_eval|eval)_duration", low):
        return "ns"  # Ollama's API response ("eval_duration": 4709213000): nanoseconds
    if re.fullmatch(r"(?:prompt_eval|eval)_count", low):
        return "tokens"  # and its counts of prompt and generated tokens
    paren = re.search(r"\(([a-z/]{1,8})\)$", low)
    if paren is not None:  # "latency(ms)", "gpu_peak_mem(gb)", "build_time(s)"
        if paren.group(1) == "s" and PLURAL.search(low[: paren.start()]):
            return None  # "Socket(s)": a plural (``PLURAL``)
        return unit_of(paren.group(1)) or unit_of(paren.group(1).upper()) or _KEY_UNITS.get(paren.group(1))
    if re.search(r"(?:^|[_.])(?:tok(?:ens)?_(?:per_)?s(?:ec(?:ond)?)?|per_second|t_s)(?:$|[_.])", low):
        # ("requests_per_second", "requestsPerSecond": requests a second, no tokens)
        return "req/s" if re.search(r"(?:^|[_.])req(?:uest)?s?[_.]", low) else "tok/s"
    words = re.split(r"[_.\-]+", low)
    # (a count's "tokens" only after the words naming a run's own counts, "prompt_tokens",
    # "total_generated_tokens": a label's last word "Prompt tokens: 7530 in 6.51s" is read as a line,
    # ``_labelled``; a usage object's "cached_tokens", "reasoning_tokens" are parts of those)
    counted = len(words) >= 2 and words[-1] == "tokens" and all(w in _COUNTED_TOKENS for w in words[:-1])
    found = [_KEY_UNITS[w] for w in words if w in _KEY_UNITS and (w != "tokens" or counted)]
    return found[-1] if len(found) == 1 or (found and len(set(found)) == 1) else None


def label_metric(label: str, unit: str) -> str | None:
    """The metric a tool's label names: throughput, prompt/prefill rates, TTFT, TPOT, ITL and
    end-to-end latency, load time (the words of vLLM's, SGLang's, ollama's and llama.cpp's output),
    else ``draftprose.metric_of``."""
    low = re.sub(r"[_.]+", " ", label.lower())
    if unit == "PPL":
        return "perplexity"
    fam = family(unit)
    if fam == "rate":
        # "tput" (InferenceX's tables: "Total tput/GPU", "Input tput/GPU") is the token throughput
        low = re.sub(r"\b(total|input|output)\s+tput\b", r"\1 token throughput", low)
        if re.search(r"\b(?:decod\w*|generation)\s+(?:throughput|speed)", low):
            return "decode_tps"  # "Decode Throughput (toks/sec)": the decode phase's rate
        if re.search(r"\b(?:prefill|prompt)\s+(?:throughput|speed)", low):
            return "prefill_tps"  # SGLang's "Prefill. ... throughput": the prompt phase's rate
        # vLLM's summary names its rates: "Input token throughput" (prompt tokens over wall time),
        # "Peak output token throughput", "Total token throughput" (input and output)
        if re.search(r"\b(?:input|prompt)\s+tok(?:en)?s?\s+throughput", low):
            return "input_throughput"
        if re.search(r"\bpeak\b.*\bthroughput", low):
            return "peak_throughput"
        if re.search(
            r"\btotal\s+tok(?:en)?s?\s+throughput|\b(?:prompt|input)\s*\+\s*(?:completion|output)\b", low
        ):
            # (LMDeploy's "token throughput (prompt + completion token)": input and output tokens)
            return "total_throughput"
        if re.search(r"throughput|吞吐|\boutput\s+tok(?:en)?s?\s*/\s*s|\boutput\s+(?:token\s+)?rate\b", low):
            # vLLM's "Output token throughput", a table's "Output Tok/s", EvalScope's "Avg Output Rate"
            return "throughput"
        # (a count of prompts or a prompt's length is no phase: "HE 10-prompt aggregate decode",
        # "decode on a 512-token prompt")
        counted = re.sub(r"\b\d+[\s-](?:tokens?[\s-])?prompts?\b", " ", low)
        if re.search(r"\b(?:prompt|prefill|pp|input)\b|预填充|プロンプト|프롬프트", counted):
            return "prefill_tps"
    if fam == "time":
        # llama.cpp's timing words in a label ("Prompt Eval (ms)", "eval time"): the log check's names;
        # Ollama's "prompt eval duration"/"eval duration" are durations (SOURCES.md's convention)
        if re.search(r"\bprompt[ _]eval\b(?!\s*(?:duration|rate|count))", low):
            return "prompt_eval_ms"
        if re.search(r"(?<!prompt )\beval[ _]time\b", low):
            return "eval_ms"
        if re.search(TTFT_WORDS, low):
            return "ttft"
        if re.search(r"tpot|time per output token", low):
            return "tpot"
        if re.search(r"\bitl\b|inter[ -]token", low):
            return "itl"
        if re.search(r"per[- ]token|/\s*tok(?:en)?\b", low):
            return "ms_per_token"  # "Per-token latency (ms)", "Latency (ms/token)", "ms per token"
        # latency, load time or a duration in any of the drafter's languages: ``draftprose``'s time
        # words (平均レイテンシ, 延迟, "Response Time"), one list for prose and labels
        return metric_of(unit, low) or "duration"
    if fam == "size" and re.match(r"\s*vram\s*,", low):
        return "vram"  # exllama's "VRAM, Model:", "VRAM, Inference:": the GPU memory each part took
    if fam == "tokens":
        if _ACCEPT_LENGTH.search(low) or re.search(r"\b[MA]?AL\b", label):
            return "mean_accepted_length"  # (the papers' capitals: "AL", "MAL", "Eagle 3 (AL)")
        if re.search(r"\baccepted\s+(?:draft\s+)?tokens?\b", low):
            return "accepted_tokens"
        if re.search(r"\b(?:draft|drafted)\s+tokens?\b", low):
            return "draft_tokens"
        return "tokens"
    return metric_of(unit, low)


def stat_name(word: str) -> str:
    """A statistic's word as a claims file writes it (``other.stat``): "avg"/"average" -> "mean",
    the others lower case ("Median" -> "median", "P99" -> "p99")."""
    word = word.lower()
    return {"avg": "mean", "average": "mean"}.get(word, word)


#: a percentile anywhere in a label ("latency P99 ms", a key "latencyP99Ms" or "ttft_p95_ms")
_PERCENTILE = re.compile(r"(?i)(?<![A-Za-z0-9])(p\d{1,2}(?:\.\d+)?)(?![A-Za-z0-9])")


def _stat(label: str) -> dict:
    m = _STAT.match(label) or _PERCENTILE.search(label)
    return {"other": {"stat": stat_name(m.group(1))}} if m else {}


#: a timing line's time -> its metric (``load time`` and ``total time`` state no tokens per second):
#: the names the log check computes from the same lines (``logs.METRIC_UNITS``: ``prompt_eval_ms``,
#: ``eval_ms``, ``total_ms``; docs/claims.md), ``sampling_ms`` beside them and the schema's
#: ``load_time`` (the corpus's convention, SOURCES.md)
_TIMING_METRIC = {
    "load": "load_time",
    "sample": "sampling_ms",
    "sampling": "sampling_ms",
    "prompt eval": "prompt_eval_ms",
    "eval": "eval_ms",
    "total": "total_ms",
    "predict": "duration",  # the old main's loop over the prompt and the generated tokens
}
#: a timing line's tokens per second -> its metric
_TIMING_RATE = {
    "sample": "sampling_tps",
    "sampling": "sampling_tps",
    "prompt eval": "prefill_tps",
    "eval": "decode_tps",
}


#: a structured log's field naming llama.cpp as the line's source (logfmt ``component=llama.cpp``)
_LOG_COMPONENT = re.compile(r"\b(?:component|source|backend|runner)=[\"']?llama\.cpp\b")


#: the most timing lines run together on one long line that are read (``tool_results``)
_RUN_TOGETHER = 8


def _timing(n: int, text: str) -> list[Result]:
    """The results of a llama.cpp timing line (module doc): each number it states, the time in ms
    (``prompt_eval_ms``, ``eval_ms``, ``sampling_ms``, ``load_time``, ``total_ms``), the ms per
    token (``ms_per_token``, the phase as ``other.phase``) and the tokens per second
    (``prefill_tps``, ``decode_tps``, ``sampling_tps``); a rate printed ``inf``/``nan`` or zero
    (llama.cpp's line for a phase that did not run) is no result, its "0.00 ms" times are (stated
    as the post printed them: issue 29's corpus p201, h516).  Every result spans the whole
    timing text, so a reader blanking them out leaves no "49 tokens" of it behind.  A line holding
    several ("prompt eval time = … tokens per second) eval time = …": a forum's paste that lost its
    line breaks, h562) gives each one's."""
    return [r for m in TIMING_LINE.finditer(text) for r in _timing_of(n, text, m)]


def _timing_of(n: int, text: str, m: re.Match) -> list[Result]:
    """``_timing``'s results of one timing text ``m`` on the line ``text``."""
    what = m.group("what")
    prefix = re.match(r"\s*(?:slot\s+)?(\w+):", text)
    method = prefix.group(1) if prefix and prefix.group(1) != "slot" else "llama.cpp timings"
    a, b = m.start(), m.end()

    def stated(v: str | None) -> bool:
        return v is not None and v not in ("inf", "nan")

    if not stated(m.group("ms")):
        return []
    cond: dict = {"tokens_generated": int(m.group("n"))} if what == "eval" and m.group("n") else {}
    if _LOG_COMPONENT.search(text):
        # a log wrapping the line names who printed it (Docker Model Runner's logfmt
        # 'msg="prompt eval time = …" component=llama.cpp'): the engine that ran
        cond["engine"] = "llama.cpp"
    out = [Result(n, _TIMING_METRIC[what], m.group("ms"), "ms", a, b, None, dict(cond), method)]
    if stated(m.group("per_token")):
        phase = {**cond, "other": {"phase": "sampling" if what.startswith("sampl") else what}}
        out.append(Result(n, "ms_per_token", m.group("per_token"), "ms", a, b, None, phase, method))
    if stated(m.group("per")):  # the old main's "predict time = A ms / B ms per token"
        out.append(Result(n, "ms_per_token", m.group("per"), "ms", a, b, None, dict(cond), method))
    if what in _TIMING_RATE and stated(m.group("tps")) and float(m.group("tps")) > 0:
        out.append(Result(n, _TIMING_RATE[what], m.group("tps"), "tok/s", a, b, None, dict(cond), method))
    return out


#: an aligned row of one label and two or more values ("Decode (t/s)     88.1     86.4": a metric's
#: row under configurations whose header is not a table's)
_ROW_CELL = re.compile(r"(?:^|(?<=\s\s)|(?<=\t))(?P<c>\S(?:\S| (?! ))*)")


def _row_values(n: int, text: str) -> list[Result] | None:
    """The results of an aligned row ``label  v1  v2 …`` (``_ROW_CELL``: cells parted by two or more
    spaces or a tab): each value read as the line ``label  v`` (``_labelled``), at its own offset;
    None where the line is no such row."""
    cells = [(c.start("c"), c.group("c")) for c in _ROW_CELL.finditer(text)]
    if len(cells) < 3 or not re.match(r"[^\W\d_]", cells[0][1]):
        return None
    if not all(re.fullmatch(_GROUPED, c) for _, c in cells[1:]):
        return None
    out: list[Result] = []
    label = cells[0][1]
    for at, c in cells[1:]:
        for r in _labelled(n, f"{label}  {c}"):
            shift = at - (len(label) + 2)
            r.start += shift
            r.end += shift
            out.append(r)
    return out


#: a label with its unit and the statistics it lists, then their values in order (LMDeploy's
#: profile_throughput: "first token latency(s)(min, max, ave): 0.099, 4.162, 0.664", "per-token
#: latency(s) percentile(50, 75, 95, 99): [0.032, 0.034, 0.231, 0.41]"); or the unit after each
#: value instead (LMDeploy's older profile_generation: "first_token latency(min, max, ave): 45.43s,
#: 94.67s, 89.29s")
_STAT_LIST = re.compile(
    rf"^\s*(?P<label>[^\W\d_][^:()\n]{{0,40}}?)\s*(?:\((?P<unit>[^()\d]{{1,8}})\))?\s*(?P<pct>percentiles?)?\s*"
    rf"\((?P<names>[\w.]+(?:\s*,\s*[\w.]+)+)\)\s*:\s*\[?"
    rf"(?P<vals>{_NUM}(?P<each>\s?[a-zµ/]{{1,8}}(?![\w/]))?(?:\s*,\s*{_NUM}(?P=each)?)+)\s*\]?\s*$",
    re.IGNORECASE,
)


#: a statistic's name in a stat list's parentheses ("min", "ave", "p99", a percentile's "50")
_STAT_NAME = re.compile(r"(?i)min|max|ave|avg|average|mean|median|std|stdev|std\.?dev|p?\d{1,2}(?:\.\d)?")


def _stat_list(n: int, text: str) -> list[Result]:
    """The results of a line listing statistics of one label (``_STAT_LIST``): one per value, its
    statistic (``other.stat``: "min", "max", "ave" -> "mean", a percentile's "50" -> "p50") from
    the names in parentheses in order; none where the names and values differ in number or the
    unit is none known."""
    m = _STAT_LIST.match(text)
    if m is None:
        return []
    names = [x.strip() for x in m.group("names").split(",")]
    if not all(_STAT_NAME.fullmatch(x) for x in names):
        return []  # "TTFT (vLLM, SGLang): 120ms, 95ms", "(cold, warm)": sides or runs, no statistics
    spans = list(re.finditer(_NUM, text[m.start("vals") : m.end("vals")]))
    written = m.group("unit") or m.group("each")
    if not written or (m.group("unit") and m.group("each")):
        return []  # no unit, or two ("(s)" and "45.43ms"): no reading
    if m.group("each") and len(re.findall(rf"{_NUM}{re.escape(m.group('each'))}\b", m.group("vals"))) != len(
        spans
    ):
        return []  # "45.43s, 94.67, 89.29ms": each value its own unit, or none
    unit = unit_of(written.strip())
    if unit is None or len(names) != len(spans):
        return []
    metric = label_metric(m.group("label"), unit)
    if metric is None:
        return []
    out = []
    for name, v in zip(names, spans, strict=True):
        stat = f"p{name}" if m.group("pct") and re.fullmatch(r"\d+(?:\.\d+)?", name) else stat_name(name)
        stat = {"ave": "mean"}.get(stat, stat)
        at = m.start("vals") + v.start()
        out.append(
            Result(n, metric, v.group(), unit, at, at + len(v.group()), None, {"other": {"stat": stat}})
        )
    return out


def _code_spans(n: int, text: str) -> list[Result]:
    """The results of a prose line's inline code spans that are each a tool's ``label: value unit``
    line quoted whole ("`throughput: 70.98455828512093 token/s`"): read as that line (``_labelled``),
    its label naming the metric, offsets those of ``text``; a span with no unit written is none."""
    out: list[Result] = []
    for m in re.finditer(r"`([^`\n]{3,100})`", text):
        shaped = _LABELLED.match(m.group(1))
        if shaped is None or shaped.group("unit") is None:
            continue
        for r in _labelled(n, m.group(1)):
            out.append(replace(r, start=r.start + m.start(1), end=r.end + m.start(1)))
    return out


def _labelled(n: int, text: str, section: str | None = None) -> list[Result]:
    """The result of a ``label: value unit`` line (module doc), or none; an aligned row of several
    values (``_row_values``) gives one each; ``section``: the unit the section's header states
    ("-- Request Latency Breakdown (ms) ---"), for a label naming none."""
    row = _row_values(n, text)
    if row is not None:
        return row
    m = _LABELLED.match(text)
    if m is None:
        return []
    label = m.group("label").strip()
    if _SETTING.search(label) or _FLAG_NAME.fullmatch(label):
        return []
    value = m.group("v").replace(",", "")
    written = m.group("unit")
    pos = _POSITION.search(label)
    unit: str | None
    # "Accepted Rate: 58.68": a rate past 1 with no sign written is in percent
    in_percent = (
        written is None and "." in value and 1 < float(value) <= 100 and re.search(r"(?i)rate", label)
    )
    if _ACCEPT_RATE.search(label) and (
        (written is None and float(value) <= 1) or (written == "%" and float(value) <= 100) or in_percent
    ):
        # "Acceptance rate at token 2: 0.21": a fraction (or a percentage) whatever word the label has
        cond = {"other": {"draft_position": int(pos.group("k"))}} if pos else {}
        unit = "ratio" if written is None and not in_percent else "%"
        return [Result(n, "acceptance_rate", value, unit, m.start("v"), m.end(), None, cond)]
    if pos is not None:
        label = label[: pos.start()].rstrip()  # "at token 4" is a position, not the unit
    if written is not None:
        unit = unit_of(re.sub(r"\(s\)$", "s", written)) or unit_of(re.sub(r"\(s\)$", "", written))
        if unit is None:
            return []  # "8080 (default)" is no unit; "41 layers" is
        if len(written) == 1 and written.isupper() and m.end("v") == m.start("unit"):
            return []  # "3950X", "8060S": a product's name, not a multiple or seconds
    elif (peak := _PEAK_REQUESTS.match(label)) is not None:
        what = {"reqs": "requests", "seqs": "sequences"}.get(
            peak.group("what").lower(), peak.group("what").lower()
        )
        peak_metric = re.sub(r"\W+", "_", f"{label.split()[0]} {label.split()[1]} {what}".lower())
        return [Result(n, peak_metric, value, what, m.start("v"), m.end(), None, {})]
    else:
        counted = _counted(label) if "." not in value else None
        if counted is not None:
            return [Result(n, counted[1], value, counted[0], m.start("v"), m.end(), None, _stat(label))]
        unit = label_unit(_TAG.sub("", label)) or section
        if unit is None and _PHASE_ALONE.fullmatch(_TAG.sub("", label)) and not _test_size(value):
            unit = "t/s"  # "PP: 1534.21", "TG: 45.67": a phase's rate ("PP: 512" is a test's size)
        if re.fullmatch(r"(?:n_?)?toks", _TAG.sub("", label), re.IGNORECASE) and "." not in value:
            unit = "tokens"  # "toks: 956" (a script's count of the tokens generated): no rate's unit
        if unit is None and re.search(r"\btokens?\b|\bcount\b", label, re.IGNORECASE):
            unit = "tokens" if "." not in value else None
        if unit is None and _LENGTH_LABEL.search(label):
            unit = "tokens"  # "Acceptance length: 5.36", "Average input length: 1052.17": means of tokens
    if unit is None or (family(unit) == "size" and not _SIZE_LABEL.search(label)):
        return []
    metric = label_metric(_STAT.sub("", label), unit)
    if metric is None:
        return []
    if metric in ("duration", "latency") and written and re.search(r"/\s*(?:tok(?:en)?s?|T)$", written):
        metric = "ms_per_token"  # "Max1100: 8.6ms/token", "(14.9ms/T)": a time per token, not a duration
    if _VLLM_AVG.match(f"{label}:"):
        # vLLM's engine log line alone ("Avg prompt throughput: 3431.0 tokens/s"): the engine's whole
        # rate, its requests' tokens a second summed (``_segments`` reads a "Running: 1 reqs" beside it)
        metric = {"prefill_tps": "input_throughput", "decode_tps": "throughput"}.get(metric, metric)
    found = Result(n, metric, value, unit, m.start("v"), m.end(), None, _stat(label))
    found.about = m.group("about") is not None
    return [found]


#: where a line of several ``label: value`` results splits ("#questions: 80, Throughput: 276.30
#: token/s, Acceptance length: 5.36")
_SEGMENT = re.compile(r",\s+|;\s+|\s+\|\s+")


def _segments(n: int, text: str) -> list[Result]:
    """The results of a line of several ``label: value [unit]`` parts separated by ``,``/``;``/``|``
    (SGLang's ``bench_speculative``: ``#questions: 80, Throughput: 276.30 token/s, Acceptance length:
    5.36``), each part read as a line of its own (``_labelled``), offsets those of the whole line;
    none where fewer than two parts have the shape ``label: value``."""
    cuts = [0]
    for m in _SEGMENT.finditer(text):
        cuts += [m.start(), m.end()]
    cuts.append(len(text))
    parts = [(cuts[k], text[cuts[k] : cuts[k + 1]]) for k in range(0, len(cuts), 2)]
    shaped = [(at, p) for at, p in parts if re.search(rf":\s*{_NUM}", p)]
    if len(shaped) < 2:
        return []
    # a phase heading the line (SGLang's bench_one_batch: "Prefill. latency: 0.03 s, throughput:
    # 29628.53 token/s"): each part's label is of that phase
    phase = _LINE_PHASE.match(text)
    out: list[Result] = []
    for at, p in shaped:
        part = re.sub(r"^[#\s]+", lambda m: " " * len(m.group()), p)
        # a log line's prefix ("INFO 05-01 12:00:00 metrics.py:341] ", vLLM's), blanked: its clock and
        # file:line are no label's value
        part = _LOG_PREFIX.sub(lambda m: " " * len(m.group()), part)
        # a heading's label before the first result's ("SpecDecoding metrics: Draft acceptance rate:
        # 38.8%", vLLM's): one label of both, its colon a space ("Prefill: throughput: 1200.5 tok/s"
        # keeps its phase word)
        part = _LEAD_LABEL.sub(lambda m: m.group().replace(":", " "), part)
        if phase and at > 0 and not _LINE_PHASE.match(part):
            label_end = part.index(":")
            word = "Total token" if phase.group("p").lower() == "total" else phase.group("p")
            part = f"{word} {part[:label_end].strip()}{part[label_end:]}"
            shift = len(p) - len(part)
            got = _labelled(n, part)
            for r in got:
                r.start, r.end = r.start + shift, r.end + shift
        else:
            got = _labelled(n, part)
        for r in got:
            if phase and family(r.unit) == "time":
                r.conditions = merged_other(r.conditions, {"phase": phase.group("p").lower()})
            r.start += at
            r.end += at
            out.append(r)
    running = _RUNNING_REQS.search(text)
    if running is not None and int(running.group("n")) <= 1 and _VLLM_AVG.search(text):
        # vLLM's engine log ("Avg prompt throughput: 11244.6 tokens/s, Avg generation throughput:
        # 267.6 tokens/s, Running: 337 reqs") is the engine's whole rate (``_labelled``); with one
        # request running (or none left: the interval's last), that request's own rates
        for r in out:
            r.metric = {"input_throughput": "prefill_tps", "throughput": "decode_tps"}.get(r.metric, r.metric)
    tag = _VERSION_TAG.match(text)
    if out and tag is not None:  # "[0.24.0] tok/sec: …, toks: 956": the version the run was of
        for r in out:
            r.conditions = {"build": tag.group("v"), **r.conditions}
    return out + _implied_times(n, shaped, out)


#: a label before another label and its value ("SpecDecoding metrics: Draft acceptance rate: 38.8%")
_LEAD_LABEL = re.compile(r"^\s*[^\W\d][^:\n]{0,40}:\s*(?=[^\W\d][^:\n]{0,60}:\s*[\d.]+)")
#: the requests a serving engine's log line says were running (vLLM's "Running: 337 reqs"), beside
#: its averaged rates ("Avg prompt throughput", "Avg generation throughput"; another tool's "Running:
#: 8 reqs | gen tok/s: 41.7 (per request avg)" is none)
_RUNNING_REQS = re.compile(r"\bRunning:\s*(?P<n>\d+)\s*reqs?\b")
_VLLM_AVG = re.compile(r"(?i)\bAvg (?:prompt|generation) throughput:")
#: a version in brackets opening a line of results ("[0.24.0] tok/sec: 65.05, dt: 14.70, toks: 956"):
#: three parts or a "v" ("[12.52] tok/sec: …" is a clock's seconds, no version)
_VERSION_TAG = re.compile(r"^\s*\[(?P<v>v\d+(?:\.\d+){1,3}|\d+(?:\.\d+){2,3})\]\s")
#: labels of a number that is no time (``_implied_times``)
_NOT_TIME = re.compile(r"(?i)batch|\bbs\b|concurr|parallel|\bn\b|^n_|num|count|ctx|seq|req|slot|layer|thread")
#: a run's tag in brackets before a label (``_LABELLED``)
_TAG = re.compile(r"^\s*\[[^\]]*\]\s*")


def _implied_times(n: int, shaped: list[tuple[int, str]], found: list[Result]) -> list[Result]:
    """The parts of a line of ``label: value`` parts (``_segments``) whose value has no unit but is
    the seconds the line's rate and token count imply ("tok/sec: 65.048, dt: 14.697, toks: 956":
    956 / 14.697 = 65.05 tok/s): a ``duration`` in s, where count / value is the rate within 1%,
    and the count the rate's and the duration's ``tokens_generated``; none where the line has no
    one rate and one count."""
    rates = [r for r in found if family(r.unit) == "rate"]
    counts = [r for r in found if r.unit == "tokens"]
    if len(rates) != 1 or len(counts) != 1:
        return []
    rate, count = float(rates[0].value), float(counts[0].value)
    out = []
    for at, part in shaped:
        m = re.match(rf"\s*(?P<label>[A-Za-z_][\w ]{{0,20}}?)\s*:\s*(?P<v>{_NUM})\s*$", part)
        if m is None or any(at <= r.start < at + len(part) for r in found):
            continue
        if _SETTING.search(m.group("label")) or _NOT_TIME.search(m.group("label")):
            continue  # "batch: 4", "n: 3": a setting or a count, however it divides
        v = float(m.group("v"))
        if v > 0 and rate > 0 and abs(count / v - rate) <= 0.01 * rate:
            # the count is then the tokens the rate's run generated
            rates[0].conditions = {**rates[0].conditions, "tokens_generated": int(count)}
            cond = dict(rates[0].conditions)
            out.append(
                Result(n, "duration", m.group("v"), "s", at + m.start("v"), at + m.end("v"), None, cond)
            )
    return out


#: a logger's clock opening a line: a date and time ("2024/07/11 23:37:56 ", "2024-07-11T23:37:56.123Z ",
#: "[2024-07-11 23:37:56,123] ") or a time alone in brackets ("[23:37:56] ")
_CLOCK_PREFIX = re.compile(
    r"^\s*\[?(?:\d{4}[-/.]\d{2}[-/.]\d{2}[ T]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?"
    r"|(?<=\[)\d{2}:\d{2}:\d{2}(?:[.,]\d+)?)\]?\s+(?=\S)"
)
#: a logger's prefix before a message ("INFO 05-01 12:00:00 metrics.py:341] ", "(APIServer pid=1) INFO …]")
_LOG_PREFIX = re.compile(
    r"^\s*(?:\([^)]*\)\s*)?(?:INFO|WARNING|WARN|DEBUG|ERROR)\b[^\]\n]{0,80}\]\s*(?:Engine\s+\d+:\s*)?"
)
#: a phase word opening a line of results ("Prefill.", "Decode:", "Total.")
_LINE_PHASE = re.compile(r"\s*(?P<p>Prefill|Decode|Prompt|Generation|Total)\b[.:]?\s", re.IGNORECASE)


def merged_other(cond: dict, other: dict) -> dict:
    """``cond`` with ``other`` added under its ``other`` (a new dict; ``cond`` unchanged)."""
    return {**cond, "other": {**(cond.get("other") or {}), **other}}


def _pairs(n: int, text: str) -> list[Result]:
    """The results of the ``key=value`` / ``"key": value`` pairs of a line whose key names a unit;
    on TensorRT-LLM's ``[BENCHMARK]`` line, its ``key value`` pairs (``_SPACED_PAIR``)."""
    out: list[Result] = []
    trt = _TRT_BENCHMARK.match(text) is not None
    pairs = _SPACED_PAIR if trt else _PAIR
    # mlx_lm's benchmark line ("prompt_tps=…, generation_tps=…, peak_memory=9.545"): its peak memory
    # in GB, as mlx_lm prints it (``mx.get_peak_memory() / 1e9``)
    mlx = _MLX_KEYS.search(text) is not None
    # a line of a run's settings ("concurrency: 64, input_tokens: 1, output_tokens: 2048", LMDeploy's
    # profile_generation): its lengths in tokens are set, no result
    found = list(pairs.finditer(text))
    settings = not trt and any(_SETTING.search(_key_words(p.group("k"))) for p in found)
    for p in found:
        key = p.group("k")
        if len(key) == 1:
            continue  # "S=1", "B=4": a variable's letter (exllama's perf prints S, the sequences), no unit
        # a camelCase key, as an app's JSON writes it ("generationTPS", "ttftMs", "memoryUsedGB",
        # "modelLoadTimeS"): its words apart, as a snake_case key has them
        key = _CAMEL.sub("_", key)
        words = _key_words(key)
        lead = text[: p.start()]
        if len(found) == 1 and re.fullmatch(r"\s*[A-Za-z0-9][A-Za-z0-9+ ]*\s", lead):
            # a label of words before it, the line's one pair ("1st token average latency(ms): 617.64",
            # IPEX-LLM's benchmark csv): the whole label names the metric
            words = f"{lead.strip()} {words}"
        unit = _key_unit(key) or ("GB" if mlx and key.lower() == "peak_memory" else None)
        if unit is None and re.search(r"accept", key, re.IGNORECASE) and float(p.group("v")) <= 1:
            # "aggregate_accept_rate": 0.9393: an acceptance rate as a fraction
            out.append(Result(n, "acceptance_rate", p.group("v"), "ratio", p.start(), p.end()))
            continue
        if unit is None or _SETTING.search(words):
            continue
        if settings and unit == "tokens" and re.search(r"(?i)\b(?:input|output|prompt|in|out)\b", words):
            continue
        if family(unit) == "size" and (not _SIZE_LABEL.search(words) or _CAPACITY_KEY.search(words)):
            continue  # ("memoryTotalGB": 12, "vram_total_gb": the card's size, no measurement)
        metric = label_metric(words, unit)
        if metric is not None:
            out.append(Result(n, metric, p.group("v"), unit, p.start(), p.end(), None, _stat(words)))
    if trt:  # the line's own settings: the model it names, its batch and output length
        told = _trt_settings(text)
        for r in out:
            r.conditions = {**told, **r.conditions}
            if r.metric == "decode_tps" and int(told.get("batch") or 1) > 1:
                r.metric = "throughput"  # tokens_per_sec over a batch of 64 requests: their sum
    return out


def _key_words(key: str) -> str:
    """A key's words apart: camelCase and ``_``/``.``/``-`` as spaces ("generationTPS" -> "generation
    TPS", "input_tokens" -> "input tokens")."""
    return re.sub(r"[_.\-]+", " ", _CAMEL.sub("_", key))


#: a key's words naming a capacity, not a measured size ("total", "capacity", "available", "free")
_CAPACITY_KEY = re.compile(r"(?i)\b(?:total|capacity|available|free|max)\b")
_MLX_KEYS = re.compile(r"\bprompt_tps\s*=.*\bgeneration_tps\s*=")
#: where a camelCase key's words part: a capital after a small letter or digit ("ttft|Ms"), the last
#: capital of a run before a small letter ("TPS|Rate"); a run of capitals stays one word ("TPS", "GB")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?<![KMG]i)(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def _trt_settings(text: str) -> dict:
    """The settings TensorRT-LLM's ``[BENCHMARK]`` line states: ``model_name`` (the model as
    written), ``batch_size`` (``batch``; a serving engine's concurrency, ``draftcommand.serving_batch``)
    and ``output_length`` (``cap``: the tokens each request may generate)."""
    out: dict = {}
    if (m := re.search(r"\bmodel_name\s+(\S+)", text)) is not None:
        out["model"] = m.group(1)
    if (m := re.search(r"\bbatch_size\s+(\d+)\b", text)) is not None:
        out["batch"] = int(m.group(1))
    if (m := re.search(r"\boutput_length\s+(\d+)\b", text)) is not None:
        out["cap"] = int(m.group(1))
    return out


def _memory(n: int, text: str) -> list[Result]:
    """The parts of a ``llama_memory_breakdown_print`` row (``_MEMORY_ROW``): model, context and
    compute in MiB, each not zero, under ``other.component`` (``Host model``); host memory (``Host``,
    ``CPU…``) is ``ram``, a device's ``vram``."""
    m = _MEMORY_ROW.search(text)
    if m is None:
        return []
    name = m.group("name")
    metric = "ram" if re.match(r"host|cpu", name, re.IGNORECASE) else "vram"
    out = []
    for part in ("model", "context", "compute"):
        if int(m.group(part)) > 0:
            cond = {"other": {"component": f"{name} {part}"}}
            out.append(Result(n, metric, m.group(part), "MiB", m.start(part), m.end(part), None, cond))
    return out


def _perplexity(n: int, text: str) -> list[Result]:
    """The perplexities a line states (``_PPL``), each with its ``+/-`` as ``spread`` and the
    line's ``ctx=`` as a condition; after it the baseline's perplexity and the difference the line
    states beside it (``_PPL_BESIDE``: "(baseline 1.76, Δ=0.03)"), in PPL."""
    m = _PPL.search(text)
    if m is None:
        return []
    ctx = _CTX.search(text)
    cond = {"ctx": int(ctx.group("n"))} if ctx else {}
    out = [Result(n, "perplexity", m.group("v"), "PPL", m.start(), m.end(), None, cond, None, m.group("sd"))]
    # "(baseline 1.76, Δ=0.03 ✓)": the baseline's perplexity and the difference, in PPL too
    for x in _PPL_BESIDE.finditer(text, m.end()):
        metric = "perplexity" if x.group("w").lower().startswith(("base", "vs")) else "perplexity_delta"
        out.append(Result(n, metric, x.group("v"), "PPL", x.start("v"), x.end("v"), None, dict(cond)))
    return out


#: the result of a computation written out ("512 ops/clock/CU * 40 CU * 2.9e9 clock / 1e12 = 59.392
#: FP16 TFLOPS"): what follows the line's last ``=``
_EQUALS_RESULT = re.compile(r"=\s*(?P<rest>[^=]{1,40})$")


def _computed(n: int, text: str) -> list[Result]:
    """The result a line computes (``_EQUALS_RESULT``): one number with a unit after its last ``=``,
    nothing after it; the metric from the words before (``draftprose.metric_of``)."""
    m = _EQUALS_RESULT.search(text.rstrip())
    if m is None:
        return []
    found = numbers(m.group("rest"))
    if len(found) != 1 or found[0].unit is None or m.group("rest")[found[0].end :].strip():
        return []
    x, at = found[0], m.start("rest")
    metric = metric_of(x.unit, text[: m.start()])
    if metric is None or x.unit is None or x.range is not None:
        return []
    return [Result(n, metric, x.text, x.unit, at + x.start, at + x.end)]


def _tap(n: int, text: str) -> list[Result]:
    """The results of a TAP line's description: its numbers with a unit, not a compared threshold."""
    m = _TAP.match(text)
    if m is None:
        return []
    desc, at = m.group("desc"), m.start("desc")
    out: list[Result] = []
    for x in numbers(desc):
        if x.unit is None or x.range is not None or _COMPARE.search(desc[: x.start]):
            continue
        metric = metric_of(x.unit, desc[: x.start], desc[x.end :])
        if metric is not None:
            out.append(Result(n, metric, x.text, x.unit, at + x.start, at + x.end, None, {}, "TAP"))
    return out


#: a section's header in a tool's output, no value on it: a banner ("= PERFORMANCE OVERVIEW", a rule
#: of "=") or a title ruled off by dashes, with the unit of the section's values in parentheses
#: ("-- Request Latency Breakdown (ms) -----"); the unit (``u``) holds for the section's labels
#: naming none
_SECTION = re.compile(
    r"^\s*(?:[=#]+\s*[A-Za-z][^:=\d]*|-{2,}\s*[A-Za-z][^:=\d()]*?(?:\((?P<u>[^()\d]{1,12})\))?\s*-{2,}|[=\-]{3,})\s*$"
)


def _rate_labelled(text: str) -> bool:
    """Whether a prose line is one ``label: value`` whose label names a rate's or a time's unit and
    no unit follows the value ("prompt_token/s: around 303.8", "TTFT (ms): 41"): a result."""
    m = _LABELLED.match(text)
    return (
        m is not None and m.group("unit") is None and family(label_unit(m.group("label"))) in ("rate", "time")
    )


#: one ``key=value`` pair of a number, as a program prints it (no spaces around "=")
_PAIR_SHAPE = re.compile(r"(?<![\w.])[A-Za-z_][\w.]*=\d+(?:\.\d+)?(?![\w.])")


def _pasted(lines: list[tuple[int, str]]) -> set[int]:
    """The lines of ``lines`` that are tool output pasted without a code fence: two or more
    consecutive lines each ``label: value`` with no unit written after the value (``Total output
    tokens: 106,678`` / ``Mean acceptance length: 2.47``), which the prose reader cannot place."""
    bare = [n for n, t in lines if (m := _LABELLED.match(t)) is not None and m.group("unit") is None]
    have = set(bare)
    return {n for n in bare if n - 1 in have or n + 1 in have}


#: a line holding one number alone ("35783.34", "1,024"), the value under a label line
_VALUE_ALONE = re.compile(r"\s*(?P<v>\d[\d,]*(?:\.\d+)?)\s*")


def _stacked(lines: list[tuple[int, str]]) -> dict[int, str]:
    """value line -> its label, for a run of two or more label lines each followed by a line of its
    value alone (a rendered table or a tool's summary copied a cell a line: "Mean TTFT (ms)" over
    "24437.27"): the label names a unit (``label_unit``), holds no "=" or ":", and is no number."""
    out: dict[int, str] = {}
    for (n, label), (m, value) in zip(lines, lines[1:], strict=False):
        text = label.strip().strip("*_")
        if m != n + 1 or not _VALUE_ALONE.fullmatch(value) or _VALUE_ALONE.fullmatch(text):
            continue
        if len(text) <= 60 and not re.search(r"[:=]", text) and label_unit(text) is not None:
            out[m] = text
    lone = {m for m in out if m - 2 not in out and m + 2 not in out}
    return {m: t for m, t in out.items() if m not in lone}


#: a JSON object's key opening a nested object on its line (``"ttft_ms": {``), and a closing brace
_JSON_OPEN = re.compile(r'^\s*"(?P<k>[A-Za-z_][\w.]*)"\s*:\s*\{\s*$')
_JSON_CLOSE = re.compile(r"^\s*\}\s*,?\s*$")
_JSON_NUMBER = re.compile(rf'^\s*"(?P<k>[A-Za-z_][\w.]*)"\s*:\s*(?P<v>{_NUM})\s*,?\s*$')


def _nested(n: int, text: str, keys: list[str]) -> list[Result]:
    """The result of a JSON line ``"min": 66.97,`` inside objects opened by ``keys`` (``"ttft_ms":
    {``): read as the pair ``min_ttft_ms=66.97`` (the statistic first, then what it is of: the unit
    and metric from the outer key), at the line's own span."""
    m = _JSON_NUMBER.match(text)
    if m is None or not keys:
        return []
    got = _pairs(n, f"{m.group('k')}_{keys[-1]}={m.group('v')}")
    return [replace(r, start=m.start("v"), end=m.end("v")) for r in got]


#: a stat card copied from a page, one line: the value, then what it is with its unit word, then
#: the setting it ran at ("4108 TRT-LLM TPS @ c=64", "22 TRT-LLM TTFT ms @ c=1", "135 tok/s peak")
#: the units a page's stat card writes (one line or two)
_CARD_UNITS = r"TPS|tok/s|t/s|tokens/s|RPS|req/s|ms"
_STAT_CARD = re.compile(
    rf"^\s*[*_]*(?P<v>{_GROUPED})[*_]*\s+(?P<label>[A-Za-z][\w.+-]*(?:\s+[A-Za-z][\w.+-]*){{0,3}}?)\s+"
    rf"(?P<unit>{_CARD_UNITS}|s)(?:\s*@\s*(?P<at>[^@]{{1,40}}))?\s*$",
    re.IGNORECASE,
)


def _stat_card(n: int, text: str) -> list[Result]:
    """The result of a stat card's line (``_STAT_CARD``): its unit from the unit word, its metric
    from the label and the unit (``label_metric``: "TRT-LLM TPS" a rate, "TTFT ms" the TTFT), the
    settings after "@" (``draftwords.settings_in_words``: "c=64" -> ``concurrency``); none for
    another line."""
    m = _STAT_CARD.match(text)
    if m is None:
        return []
    unit = unit_of(m.group("unit")) or unit_of(m.group("unit").lower())
    if unit is None:
        return []
    label = f"{m.group('label')} {m.group('unit')}"
    metric = label_metric(label, unit)
    if metric is None:
        return []
    said: list[tuple[str, object]] = []
    settings_in_words(m.group("at") or "", said)
    cond = {p: v for p, v in said if p == "concurrency"}
    return [Result(n, metric, m.group("v").replace(",", ""), unit, m.start("v"), m.end(), None, cond)]


#: a stat card copied from a page over two lines: the value alone, in thousands or not ("88k",
#: "4,108"), then what it is with its unit word ("Peak tok/s", "TTFT ms")
_CARD_VALUE = re.compile(rf"^\s*[*_#]*\s*(?P<v>{_GROUPED})(?P<k>[kKM])?[*_]*\s*$")
_CARD_LABEL = re.compile(
    # (one word naming the figure at most: "Peak tok/s", "Decode TPS"; not a title, "Settings for max TPS")
    r"^\s*[*_]*(?P<label>(?:(?:peak|max|avg|average|mean|median|total|output|input|decode|decoding|prefill"
    rf"|prompt|gen|generation|throughput|ttft|tpot|itl|latency)\s+)?)(?P<unit>{_CARD_UNITS})[*_]*\s*$",
    re.IGNORECASE,
)


def _split_cards(lines: list[tuple[int, str]]) -> dict[int, Result]:
    """value line -> its result, for a stat card copied over two lines (``_CARD_VALUE`` right over
    ``_CARD_LABEL``: "88k" over "Peak tok/s"): the unit from the unit word, the metric from the label
    and the unit (``label_metric``), a value in thousands with its precision (``scaled``)."""
    out: dict[int, Result] = {}
    text_of = dict(lines)
    for (n, value), (m, label) in zip(lines, lines[1:], strict=False):
        v, lab = _CARD_VALUE.match(value), _CARD_LABEL.match(label)
        if m != n + 1 or v is None or lab is None:
            continue
        if text_of.get(n - 1, "").strip():
            # a label line over the value ("Output tok/s" over "1234.5" over "Peak tok/s" over "2000"):
            # labels over their values (``_stacked``), the label under a value the next one's
            continue
        unit = unit_of(lab.group("unit")) or unit_of(lab.group("unit").lower())
        metric = label_metric(f"{lab.group('label')}{lab.group('unit')}", unit) if unit else None
        if unit is None or metric is None:
            continue
        digits, decimals = v.group("v").replace(",", ""), None
        if v.group("k"):
            digits, decimals = scaled(digits, v.group("k"))
        out[n] = Result(n, metric, digits, unit, v.start("v"), v.end(), decimals=decimals)
    return out


#: a line listing every run's value under one label ("Throughput values: 62.75, 63.09, 62.81"): three
#: or more bare numbers, the unit on another line of the block
_VALUE_LIST = re.compile(
    r"\s*(?P<label>[A-Za-z][\w /()-]{0,40}?)\s+(?:values|runs|samples|results)\s*:\s*"
    r"(?P<list>\d+(?:\.\d+)?(?:\s*,\s*\d+(?:\.\d+)?){2,})\s*$",
    re.IGNORECASE,
)


def _value_lists(lines: list[tuple[int, str]]) -> dict[int, list[Result]]:
    """line -> the results of a ``_VALUE_LIST`` line of a code block: one per value, ``run_index``
    1, 2, … in the order listed, in the unit and metric of another line of the block whose label
    names the same quantity with a unit ("Median throughput: 62.79 req/s"); none where no line
    gives the unit."""
    out: dict[int, list[Result]] = {}
    for n, t in lines:
        m = _VALUE_LIST.match(t)
        if m is None:
            continue
        word = m.group("label").split()[-1].lower()
        unit = next(
            (
                x.unit
                for k, u in lines
                if k != n and word in u.split(":", 1)[0].lower()
                for x in numbers(u.split(":", 1)[-1])
                if x.unit
            ),
            None,
        )
        metric = label_metric(m.group("label"), unit) if unit else None
        if unit is None or metric is None:
            continue
        got = []
        for k, v in enumerate(re.finditer(r"\d+(?:\.\d+)?", m.group("list"))):
            start = m.start("list") + v.start()
            got.append(
                Result(n, metric, v.group(), unit, start, start + len(v.group()), None, {"run_index": k + 1})
            )
        out[n] = got
    return out


#: llama-server's ``timings`` object (tools/server/server.cpp, ``result_timings::to_json``): field ->
#: (metric, unit, phase); the counts ``prompt_n``/``predicted_n`` are the conditions of the others
_SERVER_TIMINGS = {
    "prompt_ms": ("prompt_eval_ms", "ms", "prompt"),
    "prompt_per_token_ms": ("ms_per_token", "ms", "prompt"),
    "prompt_per_second": ("prefill_tps", "tok/s", "prompt"),
    "predicted_ms": ("eval_ms", "ms", "predicted"),
    "predicted_per_token_ms": ("ms_per_token", "ms", "predicted"),
    "predicted_per_second": ("decode_tps", "tok/s", "predicted"),
    "draft_n": ("draft_tokens", "tokens", "predicted"),
    "draft_n_accepted": ("accepted_tokens", "tokens", "predicted"),
}
_TIMING_FIELD = re.compile(
    rf'"(?P<k>prompt_n|predicted_n|{"|".join(_SERVER_TIMINGS)})"\s*:\s*(?P<v>-?{_NUM}(?:[eE][-+]?\d+)?)(?![\w.])'
)


#: llama-server's progress while it generates ("n_gen =    100, tg =  21.82 t/s, tg_3s =  22.04 t/s"):
#: the rate over the tokens generated so far, and over the last seconds
_PROGRESS_LINE = re.compile(
    rf"\bn_gen\s*=\s*(?P<n>\d+)\s*,\s*tg\s*=\s*(?P<tg>{_NUM})\s*t/s"
    rf"(?:\s*,\s*tg_(?P<w>\d+)s\s*=\s*(?P<last>{_NUM})\s*t/s)?"
)


def _progress(n: int, text: str) -> list[Result]:
    """The rates of llama-server's progress line (``_PROGRESS_LINE``): ``tg`` the decode rate over the
    ``n_gen`` tokens generated so far (``tokens_generated``), ``tg_3s`` over the last 3 seconds
    (``other.window`` "last 3 s", ``other.n_gen``); none for another line."""
    m = _PROGRESS_LINE.search(text)
    if m is None:
        return []
    gen = int(m.group("n"))
    out = [
        Result(
            n, "decode_tps", m.group("tg"), "t/s", m.start("tg"), m.end("tg"), None, {"tokens_generated": gen}
        )
    ]
    if m.group("last"):
        window = {"other": {"window": f"last {m.group('w')} s", "n_gen": gen}}
        out.append(
            Result(n, "decode_tps", m.group("last"), "t/s", m.start("last"), m.end("last"), None, window)
        )
    return out


#: a count llama-server prints (``prompt_n``, ``predicted_n``, ``draft_n``): a whole number, not negative
_COUNT = re.compile(r"\d{1,12}")
_N_FIELDS = ("prompt_n", "predicted_n")


def server_timings(lines: list[tuple[int, str]]) -> dict[int, list[Result]]:
    """line -> the results of llama-server's ``timings`` objects in ``lines`` (a code block: a
    response printed by ``jq .timings``, indented a field a line, or compact JSON on one line), read
    where two or more of its fields are (``_SERVER_TIMINGS``): ``prompt_ms`` the prompt eval time
    (``prompt_eval_ms``), ``predicted_ms`` the eval time (``eval_ms``), the per-token times
    (``ms_per_token``, ``other.phase`` "prompt eval"/"eval" as ``_timing`` names them), the rates
    (``prefill_tps``, ``decode_tps``) and the draft's counts (``draft_n`` -> ``draft_tokens``,
    ``draft_n_accepted`` -> ``accepted_tokens``); an object's ``predicted_n`` is the
    ``tokens_generated`` of its eval fields and its ``prompt_n`` the ``other.prompt_tokens`` of its
    prompt fields.  An object ends where a field repeats (the next request's) or a line closes one;
    a zero time or rate (a phase that did not run) is no result.  Each result spans its value."""
    objects: list[list[tuple[int, re.Match]]] = [[]]
    for n, t in lines:
        for m in _TIMING_FIELD.finditer(t):
            if any(f.group("k") == m.group("k") for _, f in objects[-1]):
                objects.append([])
            objects[-1].append((n, m))
        if objects[-1] and _JSON_CLOSE.match(t):
            objects.append([])
    out: dict[int, list[Result]] = {}
    for fields in objects:
        if len(fields) < 2:
            continue
        said = {m.group("k"): m.group("v") for _, m in fields}
        # (a count is a whole number as the server prints it: "1e400" or "-5" is none)
        prompt_n, predicted_n = (x if x and _COUNT.fullmatch(x) else None for x in map(said.get, _N_FIELDS))
        counts: dict[str, dict] = {
            "prompt": {"other": {"prompt_tokens": int(prompt_n)}} if prompt_n else {},
            "predicted": {"tokens_generated": int(predicted_n)} if predicted_n else {},
        }
        for n, m in fields:
            if m.group("k") not in _SERVER_TIMINGS:
                continue
            metric, unit, phase = _SERVER_TIMINGS[m.group("k")]
            value = m.group("v")
            if unit == "tokens" and not _COUNT.fullmatch(value):
                continue  # a negative or fractional count: no count the server prints
            if unit != "tokens" and not 0 < float(value) < math.inf:
                continue  # a phase that did not run (0), or no number ("-1", "1e400")
            cond: dict = dict(counts[phase])
            if metric == "ms_per_token":
                cond = merged_other(cond, {"phase": "prompt eval" if phase == "prompt" else "eval"})
            got = Result(n, metric, value, unit, m.start("v"), m.end("v"), None, cond, "llama-server timings")
            out.setdefault(n, []).append(got)
    return out


#: KoboldCpp's benchmark CSV (koboldcpp.py's ``--benchmark`` file: "Timestamp,Backend,Layers,Model,
#: MaxCtx,GenAmount,ProcessingTime,ProcessingSpeed,GenerationTime,GenerationSpeed,TotalTime,Output,
#: Flags"): its header line, each column's result or setting by name
_KOBOLD_CSV_HEAD = re.compile(r"^\s*Timestamp,Backend,Layers,Model,.*\bProcessingTime,ProcessingSpeed\b")
#: column -> (metric, unit, phase): the times in seconds and rates in tokens a second it prints unlabelled
_KOBOLD_CSV_RESULTS = {
    "ProcessingTime": ("duration", "s", "prefill"),
    "ProcessingSpeed": ("prefill_tps", "t/s", None),
    "GenerationTime": ("duration", "s", "decode"),
    "GenerationSpeed": ("decode_tps", "t/s", None),
    "TotalTime": ("duration", "s", "total"),
}


def kobold_csv(lines: list[tuple[int, str]]) -> dict[int, list[Result]]:
    """line -> the results of each row of KoboldCpp's benchmark CSV in ``lines`` (``_KOBOLD_CSV_HEAD``
    names its columns; a row is a line of as many comma-separated cells or fewer, right under the header
    or another row): ProcessingTime/GenerationTime/TotalTime as ``duration`` in s (``other.phase``
    prefill, decode, total), ProcessingSpeed as ``prefill_tps`` and GenerationSpeed as ``decode_tps`` in
    t/s, with the row's settings as conditions (Layers -> ``offload.n_gpu_layers``, MaxCtx -> ``ctx``,
    GenAmount -> ``tokens_generated``, the backend its library's name says, the model file's model and
    quant).  A cell that is no positive number is no result.  Each result spans its cell."""
    out: dict[int, list[Result]] = {}
    columns: list[str] | None = None
    for n, t in lines:
        if _KOBOLD_CSV_HEAD.match(t):
            columns = [c.strip() for c in t.split(",")]
            continue
        if columns is None:
            continue
        cells = next(csv.reader([t]), [])  # (a quoted cell may hold commas: Output "1, 1, 1")
        if len(cells) < 7 or len(cells) > len(columns):
            columns = None  # the rows ended
            continue
        row = dict(zip(columns, cells, strict=False))
        cond: dict = {}
        for col, path in KOBOLD_SETTINGS.items():
            if _COUNT.fullmatch((row.get(col) or "").strip()):
                set_path(cond, path, int(row[col]))
        backend = kobold_backend(row.get("Backend") or "")
        if backend:
            cond["backend"] = backend
        if (row.get("Model") or "").strip():
            model, quant = kobold_model(row["Model"])
            cond["model"] = model
            if quant:
                cond["quant"] = quant
        at = 0
        for col, cell in zip(columns, cells, strict=False):
            value = cell.strip()
            found = t.find(value, at) if value else -1
            if found >= 0:
                at = found + len(value)  # each cell's place in the line, in order
            if col not in _KOBOLD_CSV_RESULTS:
                continue
            if found < 0 or not re.fullmatch(r"\d+(?:\.\d+)?", value) or float(value) == 0:
                continue
            metric, unit, phase = _KOBOLD_CSV_RESULTS[col]
            here = merged_other(dict(cond), {"phase": phase}) if phase else dict(cond)
            got = Result(
                n,
                metric,
                value,
                unit,
                found,
                found + len(value),
                None,
                here,
                "KoboldCpp benchmark",
            )
            out.setdefault(n, []).append(got)
    return out


def tool_results(lines: list[tuple[int, str]], code: bool = True) -> list[Result]:
    """The results stated by ``lines`` (``(line, text)``, module doc), in line order: in a code block
    (``code``) every shape; in prose llama.cpp's timing lines, a run of pasted ``label: value``
    lines with no unit written (``_pasted``: the unit from the label) and a line of two or more
    ``key=value`` pairs (``_PAIR_SHAPE``, read by ``_pairs``); a sentence "Speed: 40 t/s" is the prose
    reader's."""
    out: list[Result] = []
    # a clock before each line ("2024/07/11 23:37:56 Benchmark Duration (sec): 120.10", Go's log
    # package; "[2024-07-11 23:37:56,123] …"): blanked, offsets kept; its numbers are no result
    lines = [(n, _is_as_colon(_CLOCK_PREFIX.sub(lambda m: " " * len(m.group()), t))) for n, t in lines]
    pasted = set() if code else _pasted(lines)
    stacked = _stacked(lines)
    cards = {} if code else _split_cards(lines)
    section: str | None = None
    keys: list[str] = []  # the JSON objects open at this line ("ttft_ms": {)
    listed = _value_lists(lines) if code else {}
    timings = server_timings(lines) if code else {}
    kobold = kobold_csv(lines) if any("ProcessingTime,ProcessingSpeed" in t for _, t in lines) else {}
    for n, t in lines:
        if n in listed:
            out.extend(listed[n])
            continue
        if n in kobold:  # a row of KoboldCpp's benchmark CSV: its cells by the header's names
            out.extend(kobold[n])
            continue
        if n in timings:  # llama-server's timings object: its fields, with their counts
            out.extend(timings[n])
            continue
        if code and (opened := _JSON_OPEN.match(t)) is not None:
            keys.append(opened.group("k"))
            continue
        if code and keys and _JSON_CLOSE.match(t):
            keys.pop()
            continue
        if code and keys and (inner := _nested(n, t, keys)):
            out.extend(inner)
            continue
        if len(t) > 400 and not (_TRT_BENCHMARK.match(t) and len(t) < 2000):
            # no tool prints a result line this long (but TensorRT-LLM's one line of all); a paste
            # that lost its line breaks holds a few of llama.cpp's timing lines run together (h562):
            # read where they are few (each result reads its line again: hundreds were quadratic)
            if len(TIMING_LINE.findall(t, 0, 20_000)) <= _RUN_TOGETHER:
                out.extend(_timing(n, t))
            continue
        if n in cards:  # "88k" over "Peak tok/s": a page's stat card, a line each
            out.append(cards[n])
            continue
        if n in stacked:  # "Mean TTFT (ms)" over "24437.27": the value read under its label
            lead = len(t) - len(t.lstrip())
            got = _labelled(n, f"{stacked[n]}: {t.strip()}")
            out.extend(replace(r, start=lead, end=lead + len(t.strip())) for r in got)
            continue
        if code and (head := _SECTION.match(t)) is not None:
            section = unit_of(head.group("u")) if head.group("u") else None
            continue
        got = _timing(n, t) or _progress(n, t)
        if not got and (n in pasted or not code and _rate_labelled(t)):
            got = _labelled(n, t)
        if not got and not code and _stat_card(n, t):
            got = _stat_card(n, t)  # "4108 TRT-LLM TPS @ c=64": a page's stat card
        if not got and not code and (len(_PAIR_SHAPE.findall(t)) >= 2 or _TRT_BENCHMARK.match(t)):
            # a run's "key=value" pairs pasted without a code fence ("Pre: prompt_tps=27330.184,
            # generation_tps=184.120, peak_memory=9.545"): a program printed them, as in a block
            got = _pairs(n, t)
        if not got and not code and "`" in t:
            got = _code_spans(n, t)  # "The result I get is `throughput: 70.98 token/s` while …"
        if not got and TIMING_LINE.search(t) is None and code and not PROGRESS.search(t):
            # (a tqdm bar's line, "Processed prompts: 100%|███| 1/1 [00:01<00:00, 1.72s/it, est. speed
            # input: …]", is a sentence of rates after its progress fields: the prose reader's)
            got = (
                _tap(n, t)
                if _TAP.match(t)
                else _memory(n, t)
                or _stat_list(n, t)
                or _perplexity(n, t)
                or _labelled(n, t, section)
                or _segments(n, t)
                or _pairs(n, t)
                or _computed(n, t)
            )
        out.extend(got)
    return out
