"""A post's context as a scope tree (``benchbook claims draft``): the conditions a claim inherits from
what the post states around it, not beside its number.

A post states most conditions once for many numbers: the one machine, model, engine, build and
backend it is about; what a heading, a table's caption, a "Setup:" list or a command line says for
the section below it.  The scopes, outermost first:

* the whole post (its title: the first heading, and everything in it);
* a section: a heading and the blocks under it up to the next heading of its level or higher
  (Markdown ``#`` levels; a heading without ``#`` is level 2), sections nested by level;
* a block: a paragraph, list item, table or code block (a table with its caption: the short
  paragraph right before it).

What a scope states (``stated``): the names ``draftnames.mentions`` finds in its text (hardware,
engine, build, model and quant, backend, flash attention; decoding only in a heading, a caption or a
command line, where it names the section's setting and not a comparison), the flags of the command
lines in it (``draftcommand.command_lines``; inline code too: `` `-np 1 -fa on -ctk q8_0` ``, flags
without a tool), and settings written in words (``_SETTINGS``: "131K context", "q4_0 KV",
"temperature 0", "greedy", "vLLM 0.7.3" -> build ``0.7.3``).

A claim's context (``Context.at``): for each condition, the value of the nearest scope around the
claim's line that states exactly one value for it.  A scope stating two values of one condition
(two GPUs compared, a table of three models) gives neither to the claims around it: they stay with
what their own row, clause or sentence says; a heading's own value counts before its section's body
(the section "RTX 3060" keeps it when a paragraph under it mentions a 4090).  ``fill`` adds the
context under what a drafted entry already states (its own conditions win).  Quoted claims
(``origin``) get none: another author's number ran elsewhere.  Issue 29.
"""

from __future__ import annotations

import bisect
import copy
import math
import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations

from .draftcommand import command_lines, conditions_of, put_path
from .draftnames import DECODING_PHRASE, MODEL_FAMILIES, builds_engine, heading_engine, mentions
from .draftprose import numbers
from .post import Block, Post

#: conditions a scope may state (flat paths as ``Conditions`` has them); others are not carried
CARRIED = frozenset(
    {
        "hardware",
        "engine",
        "build",
        "model",
        "quant",
        "backend",
        "flash_attn",
        "decoding",
        "block_max",
        "ctx",
        "type_k",
        "type_v",
        "concurrency",
        "sampling",
        "prompt",
        "cap",
        "tokens_generated",
        "batch",
        "ubatch",
        "offload.n_gpu_layers",
        "offload.n_cpu_moe",
    }
)
#: conditions a prose paragraph's words do not state for its scope (a paragraph saying "MTP doesn't
#: help" compares; a heading "With MTP" or a command's ``-md`` sets it), and that hold for their own
#: scope only, not for the scopes around it (one section's decoding is one arm of a comparison)
_HEADING_ONLY = frozenset({"decoding"})
#: conditions a paragraph's words state for their own clause only (``draftnames.CLAUSE_ONLY``: "-fa
#: on" in a sentence is its command's), from a heading or caption for the scope
_CLAUSE_WORDS = frozenset({"decoding", "flash_attn"})

_K = r"(?P<n>\d+(?:\.\d+)?)\s?(?P<k>[kK])?"
_ENGINE_WORDS = (
    r"(?P<e>llama\.cpp|ik_llama\.cpp|vllm|sglang|ollama|mlx-lm|lm studio|exllamav2|tensorrt-llm|koboldcpp)"
)
#: settings written in words: pattern -> condition path (the value from the groups, ``_setting``)
_SETTINGS: list[tuple[re.Pattern, str]] = [
    (
        re.compile(
            rf"(?<![\w.]){_K}(?:\s?tokens?)?\s+(?:of\s+)?(?:context|ctx)\b(?!\s*(?:is|was|of)\b)", re.I
        ),
        "ctx",
    ),
    (
        re.compile(
            rf"\b(?:context(?:[ _-](?:length|size|window))?|ctx(?:[ _-]size)?|n_ctx)\s*(?:=|:|of)?\s*{_K}\b",
            re.I,
        ),
        "ctx",
    ),
    # the context in Russian, Chinese, Japanese, Korean ("контекстом (4096 токенов)", "上下文 8192")
    (
        re.compile(
            rf"(?:контекст\w*|上下文(?:长度)?|コンテキスト(?:長)?|컨텍스트)\s*[:：=(（]?\s*{_K}(?![\d.])",
            re.I,
        ),
        "ctx",
    ),
    (
        re.compile(
            r"(?<![\w.])(?P<t>q4_0|q4_1|q5_0|q5_1|q8_0|iq4_nl|f16|bf16|fp8(?:[_ ]e4m3|[_ ]e5m2)?|turbo\d)"
            r"\s+(?:K/V|KV|kv)(?:[ -]cache)?\b",
            re.I,
        ),
        "kv",
    ),
    (
        re.compile(
            r"\b(?:KV|K/V)[ -]cache(?:\s+type)?\s*(?:=|:|in|of)?\s*"
            r"(?P<t>q4_0|q4_1|q5_0|q5_1|q8_0|iq4_nl|f16|bf16|fp8(?:_e4m3|_e5m2)?)(?![\w])",
            re.I,
        ),
        "kv",
    ),
    (
        # "temperature 0", "temp=0.7", "Temperature is set to 0.0", "at a temperature of 0.6", a
        # request's "temperature": 0.1, "температурой (0.7)", "温度 0.7"; a GPU's 85 degrees is none
        # (``_settings``: a sampling temperature is at most 2)
        re.compile(
            r"(?<![\w-])(?:--temp(?:erature)?|temperature|temp|температур\w*|温度)[\"'\\]*\s*"
            r"(?:(?:is|was)\s+)?(?:(?:set|fixed)\s+)?(?:to|of|at|=|:|：|为|設定)?\s*[(（\"']?\s*"
            r"(?P<n>\d+(?:\.\d+)?)(?![\d.]|\s?°|\s?C\b)",
            re.I,
        ),
        "sampling",
    ),
    (re.compile(r"\bgreedy\b", re.I), "greedy"),
    (
        re.compile(
            r"(?<![\w.])(?P<n>\d+)\s+(?:output|generated|new|gen)\s+tokens\b"
            r"|\btokens generated\s*[:=]\s*(?P<m>\d+)"
            # "a 256-token summarization output", "generating 512 tokens", "512 gen" (llama-bench's tg512)
            r"|(?<![\w.])(?P<o>\d+)-token\s+(?:[^\W\d]+\s+){0,2}(?:output|generation|completion)\b"
            r"|\bgenerat(?:e|ed|es|ing)\s+(?P<g>\d+)\s+tokens\b|(?<![\w.])(?P<b>\d+)\s+gen\b"
            # "512 tokens generated", "256 tokens were generated"
            r"|(?<![\w.])(?P<t>\d+)\s+tokens\s+(?:were\s+|are\s+)?generated\b",
            re.I,
        ),
        "generated",
    ),
    (re.compile(r"(?<![\w-])(?:--parallel|-np)[ =](?P<n>\d+)\b"), "concurrency"),
    # a draft size in words: "n-max 3", "n_max=6", "draft-max: 8", "num_speculative_tokens=5",
    # "num spec tokens=1", "num_steps=8", "k=4", "MTP n=4", "draft 5 tokens", "5 draft tokens" (not
    # one of a list: "4, 5 and 6 draft tokens" names no one size)
    (
        re.compile(
            r"(?:\b(?:spec[-_ ])?(?:n[-_ ]?max|draft[-_ ](?:n[-_ ])?max|draft[-_ ](?:size|length|len))"
            r"|\bnum[-_ ]spec(?:ulative)?[-_ ]tokens|\b(?:speculative[-_ ])?num[-_ ]steps"
            r"|(?<![\w-])(?<!top )k|\b(?:MTP|EAGLE-?\d?|draft(?:ing)?)\s+n)"
            r"\s*(?:=|:)?\s*(?P<n>\d{1,3})(?![\w.%]|\s?[–-]\s?\d)"
            r"|\bdraft(?:ing)?\s+(?P<m>\d{1,3})\s+tokens\b"
            r"|(?<![\d,]\s)(?<!\band\s)(?<!\bor\s)(?<![\d.,/–-])(?P<l>\d{1,3})\s+(?:draft(?:ed)?|speculative)\s+tokens\b",
            re.I,
        ),
        "block",
    ),
    (re.compile(r"\b(?:single|one)[ -](?:request|user|stream|slot)\b", re.I), "single"),
    (
        re.compile(
            # ASCII bounds: "使用Ollama 0.15.2在" (a CJK character is a word character)
            rf"(?<![A-Za-z0-9_./-]){_ENGINE_WORDS}\s+(?:version\s+)?(?P<v>v?\d+\.\d+(?:\.\d+)*(?:\.post\d+)?)"
            r"(?![A-Za-z0-9_.])",
            re.I,
        ),
        "version",
    ),
    # a commit the post ran: an engine's name with it ("llama.cpp `9ba73fd`", "vLLM @ 5cbc982"), a
    # key naming it ("vllm_commit": "5cbc982", commit=5cbc982), a full 40-digit SHA anywhere outside a
    # link (a script's short hash, "probe.py at 70a699e4", is none); llama.cpp's build number
    # written without its "b" ("Llama.cpp 5215 (5f5e39e1)", "llama.cpp build 5215")
    (
        re.compile(
            rf"(?<![A-Za-z0-9_./-]){_ENGINE_WORDS}\s*(?:commit|@|at)?\s*[:=]?\s*`?(?P<h>(?=[a-f]*\d)(?=\d*[a-f])[0-9a-f]{{7,40}})`?(?![\w.])"
            r"|(?<![\w-])(?:\w+_)?commit[\"']?\s*[:=]\s*[\"']?(?P<k>[0-9a-f]{7,40})(?![\w.])"
            r"|(?<![\w/#:.=-])(?P<s>[0-9a-f]{40})(?![\w/])"
            r"|(?<![A-Za-z0-9_./-])(?:llama\.cpp|ik_llama\.cpp)\s+(?:build\s+)?(?P<n>\d{4,5})(?![\w.]|\s?(?:t/s|tok|tokens|ms|%))",
            re.I,
        ),
        "commit",
    ),
]
#: a request's parameters in a code block (a curl body's ``"temperature": 0.1``, Python's
#: ``SamplingParams(temperature=0, max_tokens=256)``, a log's ``temp = 0.800``): the sampling and the cap
#: on the tokens each request generates
_REQUEST: list[tuple[re.Pattern, str]] = [
    (
        re.compile(r"(?<![\w-])[\\\"']*(?:temperature|temp)[\\\"']*\s*[:=]\s*(?P<n>\d+(?:\.\d+)?)(?![\d.])"),
        "sampling",
    ),
    (
        re.compile(
            r"(?<![\w-])[\\\"']*(?:max_tokens|max_new_tokens|max_completion_tokens|n_predict|num_predict)"
            r"[\\\"']*\s*[:=]\s*(?P<n>\d+)(?![\d.])"
        ),
        "cap",
    ),
    # a run's record of its build: "vllm_commit": "5cbc982", commit=5cbc982
    (
        re.compile(r"(?<![\w-])(?:\w+_)?commit[\\\"']*\s*[:=]\s*[\\\"']*(?P<n>[0-9a-f]{7,40})(?![\w.])"),
        "build",
    ),
]
#: the backend a build's own words name: a CMake flag ("-DGGML_CUDA=ON", "GGML_CUDA_FORCE_MMQ",
#: "LLAMA_CUBLAS", "GGML_HIP"), a "Backend: vulkan0" line, "CPU-only"
_BACKEND_WORDS = re.compile(
    r"(?<![A-Za-z])D?(?:GGML|LLAMA)_(?P<f>CUDA|CUBLAS|VULKAN|METAL|HIP|HIPBLAS|SYCL|OPENCL)(?![A-Za-z])"
    r"|\bbackend\s*[:=]\s*(?P<k>cuda|vulkan|metal|rocm|hip|sycl|opencl|cpu)\d*\b"
    r"|\b(?P<c>CPU)[- ]only\b",
    re.IGNORECASE,
)
_BACKEND_NAMES = {
    "cuda": "CUDA",
    "cublas": "CUDA",
    "vulkan": "Vulkan",
    "metal": "Metal",
    "hip": "ROCm",
    "hipblas": "ROCm",
    "rocm": "ROCm",
    "sycl": "SYCL",
    "opencl": "OpenCL",
    "cpu": "CPU",
}


def _backends(text: str, out: list[tuple[str, object]]) -> None:
    for m in _BACKEND_WORDS.finditer(text):
        out.append(("backend", _BACKEND_NAMES[(m.group("f") or m.group("k") or m.group("c")).lower()]))


#: inline code that is a list of flags without a tool: `-np 1 -fa on -ctk q8_0`
FLAGS_ONLY = re.compile(r"^\s*-{1,2}[A-Za-z][\w-]*(?:[ =]\S+)?(?:\s+-{1,2}[A-Za-z][\w-]*(?:[ =]\S+)?)*\s*$")


def _flat(d: dict, prefix: str = "") -> dict[str, object]:
    out: dict[str, object] = {}
    for k, v in d.items():
        if isinstance(v, dict):
            out.update(_flat(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


def count(n: str, k: str | None) -> int | None:
    """A token count as written: "8192" -> 8192; with "k", a context size, a power of two where it
    names one ("128k" -> 131072 = 128 x 1024, "131K" -> 131072 = 2^17 in thousands, "262K" ->
    262144), else thousands ("80k" -> 80000); None for a count past a float's range (400 digits)."""
    try:
        v = float(n)
    except ValueError:
        return None
    if not math.isfinite(v * 1000):
        return None
    if k:
        if v.is_integer() and int(v) & (int(v) - 1) == 0:
            return int(v) * 1024
        p2 = 1 << max(0, round(v * 1000).bit_length() - 1)
        near = min((p2, p2 * 2), key=lambda p: abs(p - v * 1000))
        return near if abs(near - v * 1000) <= v * 1000 * 0.01 else int(v * 1000)
    return int(v) if v.is_integer() and v >= 1 else None


def _command_names(conditions: dict, out: list[tuple[str, object]]) -> None:
    """The conditions a command line sets (``draftcommand.conditions_of``) that a scope carries."""
    flat = _flat(conditions)
    for path, value in flat.items():
        if path in CARRIED:
            out.append((path, value))
    if "other.draft_model" in flat:
        out.append(("decoding", "speculative"))


def _settings(text: str, out: list[tuple[str, object]]) -> None:
    for pat, kind in _SETTINGS:
        for m in pat.finditer(text):
            if kind == "ctx":
                v = count(m.group("n"), m.group("k"))
                if v is not None and v >= 256:
                    out.append(("ctx", v))
            elif kind == "kv":
                t = m.group("t").lower().replace(" ", "_")
                out += [("type_k", t), ("type_v", t)]
            elif kind == "sampling":
                if float(m.group("n")) <= 2:
                    out.append(("sampling", f"temperature {m.group('n')}"))
            elif kind == "block":
                out.append(("block_max", int(m.group("n") or m.group("m") or m.group("l"))))
            elif kind == "generated":
                out.append(
                    ("tokens_generated", int(next(g for g in m.group("n", "m", "o", "g", "b", "t") if g)))
                )
            elif kind == "greedy":
                out.append(("sampling", "greedy"))
            elif kind == "concurrency":
                out.append(("concurrency", int(m.group("n"))))
            elif kind == "single":
                out.append(("concurrency", 1))
            elif kind == "version":
                out.append(("build", m.group("v")))
            elif kind == "commit":
                out.append(("build", m.group("h") or m.group("k") or m.group("s") or m.group("n")))


def stated(lines: list[tuple[int, str]], kind: str, heading: bool = False) -> list[tuple[str, object]]:
    """The conditions a block states (module doc): ``(path, value)`` in the order found, each once
    (its command lines' first).  ``kind``: the block's (text | table | code); ``heading``: a heading
    or a table's caption, whose decoding words count."""
    commands, names = _stated(lines, kind, heading)
    return list(dict.fromkeys([*(x for _, got in commands for x in got), *names]))


def _stated(
    lines: list[tuple[int, str]], kind: str, heading: bool = False
) -> tuple[list[tuple[int, list[tuple[str, object]]]], list[tuple[str, object]]]:
    """``stated`` in two parts: the command lines' conditions, each with its line, and the rest."""
    commands: list[tuple[int, list[tuple[str, object]]]] = []
    found = command_lines(lines)
    in_command = {n for c in found for n in range(c.line, c.last + 1)}
    for c in found:
        got: list[tuple[str, object]] = []
        _command_names(c.conditions, got)
        commands.append((c.line, got))
    out: list[tuple[str, object]] = []
    rest = [(n, t) for n, t in lines if n not in in_command]
    if kind == "code":
        # output and logs: no names of the setting (a model's file name in a log), but where a line
        # reports it under its label ("Device 0: NVIDIA GeForce RTX 4070 Ti, compute capability
        # 8.9", "GPU: RTX 3090", "Model:  Llama-3.2-1B-Q4_0.gguf", "ggml_vulkan: 0 = AMD Radeon ...")
        for _, t in rest:
            report = _REPORT_LINE.match(t)
            if report:
                paths = ("model", "quant") if report.group("label").lower() == "model" else ("hardware",)
                out += [(x.path, x.value) for x in mentions(report.group("value")) if x.path in paths]
        text = " ".join(t for _, t in rest)
        for pat, what in _REQUEST:  # and a request's parameters
            for r in pat.finditer(text):
                if what == "cap":
                    out.append(("cap", int(r.group("n"))))
                elif what == "build":
                    out.append(("build", r.group("n")))
                elif float(r.group("n")) <= 2:
                    out.append(("sampling", f"temperature {r.group('n')}"))
        _backends(text, out)  # and a build's or a run's own words for its backend
        return commands, list(dict.fromkeys(out))
    read: set[str] = set()  # the inline code read as a command
    for n, t in rest:
        for code in re.findall(r"`([^`]+)`", t):
            got = []
            inline = command_lines([(n, code)])
            if inline:
                _command_names(inline[0].conditions, got)
            elif FLAGS_ONLY.match(code):
                try:
                    words = shlex.split(code)
                except ValueError:
                    words = code.split()
                cond = conditions_of("flags", words)
                cond.pop("engine", None)
                _command_names(cond, got)
            if got:
                commands.append((n, got))
                read.add(code)
    text = " ".join(t for _, t in rest)
    # a command read above names its models by flag (``-m`` the model, ``-md`` the draft model):
    # its model files are no model the prose names ("With `-md Small-0.5B-Q8_0.gguf` …")
    named = re.sub(r"`([^`]+)`", lambda m: " " if m.group(1) in read else m.group(0), text)
    for m in mentions(named):
        if m.path in _CLAUSE_WORDS and not heading:
            continue
        out.append((m.path, m.value))
    engine = heading_engine(text) if heading else None
    if engine is not None:  # "端到端推理延迟(llama-cli)": the tool's engine
        out.append(("engine", engine))
    _settings(text, out)
    _backends(text, out)
    return commands, list(dict.fromkeys(out))


#: a line of pasted output reporting the machine or the model under its label (``_stated``)
_REPORT_LINE = re.compile(
    r"^\W*(?:\w+:\s+)?(?P<label>hardware|gpu|device\s?\d*|model|ggml_vulkan:\s\d+)\s*[:=]\s*(?P<value>.+)$",
    re.IGNORECASE,
)


@dataclass
class Scope:
    """A scope of the post (module doc): its lines ``first``..``last``, its ``level`` (0 the post,
    1-6 a section, 7 a command line's, 8 a block), what its own head states (``head``: the title,
    heading, caption or command line), what the text in it states (``body``) and what only counts
    against a value (``weak``: a table's cells, each a row's; what a command line or a machine's
    section below states, each for itself), path -> the values named."""

    first: int
    last: int
    level: int
    head: dict[str, list[object]] = field(default_factory=dict)
    body: dict[str, list[object]] = field(default_factory=dict)
    weak: dict[str, list[object]] = field(default_factory=dict)
    children: list[Scope] = field(default_factory=list)
    #: ``value``'s answers, computed once per path (a post of 2,000 tables asks the post's for each)
    known: dict[str, tuple[bool, object]] = field(default_factory=dict)
    #: the children's first lines, for finding the child around a line (``Context.chain``)
    firsts: list[int] = field(default_factory=list)
    #: paths the scope states for itself only, not for the scopes around it
    local: set[str] = field(default_factory=set)

    def value(self, path: str) -> tuple[bool, object]:
        if path not in self.known:
            self.known[path] = self._value(path)
        return self.known[path]

    def _value(self, path: str) -> tuple[bool, object]:
        head = _distinct(self.head.get(path, []))
        if len(head) == 1:
            return True, head[0]
        if head:
            return True, None
        body = _distinct(self.body.get(path, []))
        every = _distinct([*body, *self.weak.get(path, [])])
        if not every:
            return False, None
        return True, (every[0] if len(every) == 1 and _key(every[0]) in {_key(v) for v in body} else None)


def _distinct(values: list[object]) -> list[object]:
    """``values`` with one of each (``_key``), a name said short and in full ("Qwen3.6 35B" and
    "Qwen3.6-35B-A3B", "Apple M4" and "Apple M4 (Mac mini)") once, in full: its words those of
    the one fuller name among them."""
    one = list({_key(v): v for v in reversed(values)}.values())[::-1]
    if len(one) < 2 or not all(isinstance(v, str) for v in one):
        return one
    words = [frozenset(str(_key(v)).split()) for v in one]
    # each value against the values holding its rarest word only (a fuller name holds all its
    # words), counted up to two: each against every other was quadratic (a setup list of 3,000
    # cards, "- GPU: RTX 1" …, took a minute to draft)
    having: dict[str, list[int]] = {}
    for i, ws in enumerate(words):
        for w in ws:
            having.setdefault(w, []).append(i)
    out = []
    for i, v in enumerate(one):
        pool = min((having[w] for w in words[i]), key=len) if words[i] else range(len(one))
        fuller = 0
        for j in pool:
            if words[i] < words[j]:
                fuller += 1
                if fuller > 1:
                    break
        if fuller != 1:
            out.append(v)
    return out if out else one


def _key(v: object) -> object:
    """A value compared for "two different values" (names by their lower-case words)."""
    return re.sub(r"[\W_]+", " ", v.lower()).strip() if isinstance(v, str) else (type(v), v)


def _level(post: Post, block: Block) -> int:
    m = re.match(r"\s*(#{1,6})\s", post.line(block.start))
    return len(m.group(1)) if m else 2


#: a table's label cell naming settings by their own shape: "c4"/"C8" (requests at once, as
#: llama-benchy and vLLM's benchmarks label them), a llama-bench test "pp2048 tg128 @ d4096"
_CELL_CONCURRENCY = re.compile(r"\s*[cC](\d{1,4})(?:\s+[^\W\d]+)?\s*")
_CELL_TEST = re.compile(r"\s*(?:pp(\d+)\s*\+?\s*)?tg(\d+)(?:\s*@\s*d(\d+))?\s*", re.IGNORECASE)


def cell_conditions(cell: str) -> dict[str, object]:
    """The conditions a table's label cell states by its shape (``_CELL_CONCURRENCY``: "c4" ->
    ``concurrency: 4``, "C1 greedy" -> 1; ``_CELL_TEST``: "pp2048 tg128 @ d4096" ->
    ``tokens_generated: 128``, ``depth: 4096``), empty when it is no such cell."""
    text = cell.strip().strip("*_`")
    if FLAGS_ONLY.match(text):  # "--spec-draft-n-max 2", "-ngl 99 -fa on": a row of that setting
        try:
            words = shlex.split(text)
        except ValueError:
            words = text.split()
        flat = _flat(conditions_of("flags", words))
        return {k: v for k, v in flat.items() if k in CARRIED and k not in ("engine", "model", "quant")}
    m = _CELL_CONCURRENCY.fullmatch(text)
    if m and int(m.group(1)) >= 1:
        return {"concurrency": int(m.group(1))}
    m = _CELL_TEST.fullmatch(text)
    if m:
        out: dict[str, object] = {"tokens_generated": int(m.group(2))}
        if m.group(3) is not None:
            out["depth"] = int(m.group(3))
        return out
    return {}


def header_settings(header: str) -> dict[str, object]:
    """The draft size a value column's header states for its column ("MTP (n_max=6 --spec-draft-p-min
    0.75)", "`n_max:16`", "k=4 tok/s": ``block_max``; a size of 0, the column beside them that drafts
    nothing: ``decoding: plain``), empty when it states none or several."""
    sizes = {v for p, v in stated([(0, header)], "text", heading=True) if p == "block_max"}
    if len(sizes) != 1:
        return {}
    size = sizes.pop()
    return {"decoding": "plain"} if size == 0 else {"block_max": size}


class _Models:
    """The models (``_key``) of the command lines that set one value (``Context.bound``), asked
    whether any may be a claim's model (``_same_model``) by their words, not by a pass over all:
    a post of 1,500 command lines, one model each and all ``-p 512``, asked each claim's model
    against 1,500 and took 40 s (quadratic)."""

    def __init__(self) -> None:
        self.sets: set[frozenset[str]] = set()
        self.having: dict[str, list[frozenset[str]]] = {}

    def __bool__(self) -> bool:
        return bool(self.sets)

    def add(self, model: object) -> None:
        words = frozenset(str(model).split())
        if words not in self.sets:
            self.sets.add(words)
            for w in words:
                self.having.setdefault(w, []).append(words)

    def fits(self, model: object) -> bool:
        """Whether ``_same_model(model, m)`` holds for one of the models ``m``."""
        wa = frozenset(str(model).split())
        if wa in self.sets or not wa:
            return bool(self.sets)
        # one holding all of the model's words: among those holding its rarest word
        if any(wa <= wb for wb in min((self.having.get(w, []) for w in wa), key=len)):
            return True
        if len(wa) > 12:  # one whose words are all among the model's: by a pass (few such names)
            return any(wb <= wa for wb in self.sets)
        # ... or by the subsets of the model's words (a name has a few)
        return any(frozenset(c) in self.sets for r in range(len(wa)) for c in combinations(sorted(wa), r))


def _same_model(a: object, b: object) -> bool:
    """Whether two model names (``_key``) may name one model: the words of one among the other's
    ("Qwen3.6 35B" and "Qwen3.6-35B-A3B")."""
    wa, wb = set(str(a).split()), set(str(b).split())
    return wa <= wb or wb <= wa


def _measures(lines: list[tuple[int, str]]) -> bool:
    """Whether a block's text states a measurement: a number with a unit ("141 t/s")."""
    return any(n.unit for n in numbers(" ".join(t for _, t in lines)))


def _caption(block: Block) -> bool:
    """Whether a block right before a table is its caption: a paragraph of one or two lines stating
    no number with a unit ("Approximate tok/s for common setups (Llama 3 8B Q4, 4K context)";
    not "Baseline: 33.92 tokens/second", a claim of its own)."""
    if block.kind != "text" or block.heading or len(block.lines) > 2:
        return False
    return not any(n.unit for n in numbers(" ".join(t for _, t in block.lines)))


def _add(into: dict[str, list[object]], names: list[tuple[str, object]]) -> None:
    for path, value in names:
        into.setdefault(path, []).append(value)


#: a table header naming the draft model's column ("Draft model", "Draft", "draft (quant)")
_DRAFT_COLUMN = re.compile(r"^\W*draft(?:\s+model)?\b", re.IGNORECASE)


class Context:
    """The scope tree of a post (module doc) and each line's context (``at``)."""

    def __init__(self, post: Post):
        last_line = max((n for b in post.blocks for n, _ in b.lines), default=0)
        last_line = max([last_line, *(n for b in post.blocks for n in b.row_lines)])
        self.root = Scope(1, last_line, 0)
        #: (path, value) a command line sets -> the models of those command lines: a setting of
        #: a command for one model is not another model's
        self.bound: dict[tuple[str, object], _Models] = {}
        stack = [self.root]
        titled = False
        blocks = post.blocks
        for i, block in enumerate(blocks):
            lines = block.lines or [
                (n, " | ".join(r)) for n, r in zip(block.row_lines, block.rows, strict=False)
            ]
            if not lines:
                continue
            first = min(n for n, _ in lines)
            last = max([*(n for n, _ in lines), *block.row_lines])
            if block.kind == "text" and block.heading:
                commands, names = _stated(lines, "text", heading=True)
                names = [*(x for _, got in commands for x in got), *names]
                level = _level(post, block)
                if not titled and level == 1:  # the title: what it names holds for the whole post
                    titled = True
                    _add(self.root.head, names)
                    continue
                titled = True
                while stack[-1].level and stack[-1].level >= level:
                    stack.pop()
                section = Scope(first, last, level)
                _add(section.head, names)
                stack[-1].children.append(section)
                stack.append(section)
                continue
            scope = Scope(first, last, 8)
            if block.kind == "table":
                # a draft model's column names the draft's model and quant, not the measured ones
                # ("| Draft model | … |" over "| 0.5B (Q8_0) | …"): its cells state nothing here
                drafts = {
                    j for j, h in enumerate(block.rows[0] if block.rows else []) if _DRAFT_COLUMN.search(h)
                }
                table_lines = [
                    (n, " ".join(c for j, c in enumerate(r) if j not in drafts))
                    for n, r in zip(block.row_lines, block.rows, strict=False)
                ]
                commands, names = _stated(table_lines or lines, "text")
                _add(scope.weak, [*(x for _, got in commands for x in got), *names])  # each cell a row's
                commands = []
                prev = blocks[i - 1] if i else None
                if prev is not None and _caption(prev):
                    caption_commands, caption = _stated(prev.lines, "text", heading=True)
                    _add(scope.head, [*(x for _, got in caption_commands for x in got), *caption])
                    scope.first = min(scope.first, prev.start)
            else:
                commands, names = _stated(lines, block.kind)
                _add(scope.body, names)
                if "block_max" in scope.body and block.kind == "text" and _measures(lines):
                    # "with a draft model (--draft-max 16) it reached 141 t/s": the size of the
                    # sentence's drafting arm, not of the section (a settings line states no rate)
                    scope.local.add("block_max")
            stack[-1].children.append(scope)
            for line, got in commands:
                model = next((_key(v) for k, v in got if k == "model"), None)
                for k, v in got:
                    if model is not None and k not in ("model", "quant", "engine"):
                        self.bound.setdefault((k, _key(v)), _Models()).add(model)
                # a command line holds for what follows it in its section, up to the next command
                # line or heading (``draftcommand``); the one command of a section for all of it
                while stack[-1].level >= 7:
                    stack.pop()
                held = Scope(line, line, 7)
                _add(held.head, got)
                stack[-1].children.append(held)
                stack.append(held)
        self._close(self.root)
        self._chains: dict[int, list[Scope]] = {}

    def _close(self, scope: Scope) -> None:
        """Give each scope the names of everything in it (``body``, ``weak``) and its last line."""
        held = sum(c.level == 7 for c in scope.children)
        for child in scope.children:
            self._close(child)
            # a machine's section, and a command line's where its section has several, each for
            # itself; a section's one command line holds for all of it ("Command used:" below a table)
            apart = child.level == 7 and held > 1 or "hardware" in child.head
            for path, values in (*child.head.items(), *child.body.items()):
                if path in _HEADING_ONLY or path in child.local:
                    continue  # a section's decoding is its own: "### With MTP" is one arm of the post
                (scope.weak if apart else scope.body).setdefault(path, []).extend(values)
            for path, values in child.weak.items():
                if path not in _HEADING_ONLY:
                    scope.weak.setdefault(path, []).extend(values)
            scope.last = max(scope.last, child.last)
        scope.firsts = [c.first for c in scope.children]

    def chain(self, line: int) -> list[Scope]:
        """The scopes around ``line``, innermost first."""
        if line in self._chains:
            return self._chains[line]
        out, scope = [self.root], self.root
        while True:
            # the last child starting at or before the line (children run in post order; a table's
            # caption line is also the paragraph's before it: the first of those)
            k = bisect.bisect_right(scope.firsts, line) - 1
            while k > 0 and scope.children[k - 1].first <= line <= scope.children[k - 1].last:
                k -= 1
            inner = scope.children[k] if k >= 0 and scope.children[k].last >= line else None
            if inner is None:
                break
            out.append(inner)
            scope = inner
        self._chains[line] = out[::-1]
        return self._chains[line]

    def at(self, line: int, model: object = None) -> dict[str, object]:
        """The context of a claim on ``line``: path -> value (module doc).  ``model``: the model the
        claim names itself, if any; a command line's setting for another model (the context's
        model, else this) is left out."""
        out: dict[str, object] = {}
        decided: set[str] = set()
        for scope in self.chain(line):
            for path in sorted({*scope.head, *scope.body, *scope.weak} - decided):  # one order every run
                ok, value = scope.value(path)
                if ok:
                    decided.add(path)
                    if value is not None:
                        out[path] = value
        mine = model if model is not None else out.get("model")
        if mine is not None:
            for path, value in list(out.items()):
                models = self.bound.get((path, _key(value)))
                if models and not models.fits(_key(mine)):
                    del out[path]
        return out


def _has(conditions: dict, path: str) -> bool:
    node: object = conditions
    for p in path.split("."):
        if not isinstance(node, dict) or p not in node:
            return False
        node = node[p]
    return True


def _name_words(key: object) -> set[str]:
    """A model name's words (``_key``), a family's version apart from its name ("llama3.3 70b" ->
    {llama, 3, 70b}): "LLama3.3-70B" and "Llama-3.3-70B-Instruct" are one model said short and in
    full."""
    return set(re.sub(r"(?<=[a-z])(?=\d)", " ", str(key)).split())


def _fuller_of(named: list[object]) -> Callable[[object], object]:
    """``fuller(name)``: the one name among ``named`` (the post's model names) that says what
    ``name`` says and more ("Qwen3.6 35B" -> "Qwen3.6-35B-A3B", "Mistral-7B" ->
    "Mistral-7B-Instruct-v0.3": the post names the model in full once and shortly elsewhere);
    ``name`` itself when none or several do.  ``named``'s words are read once and each name's
    answer found once (per claim, every name of a long post was read again: quadratic)."""
    keyed = {_key(v): v for v in named if isinstance(v, str)}  # the last name of each key
    words = [(_name_words(k), v) for k, v in keyed.items()]
    found: dict[str, object] = {}

    def fuller(name: object) -> object:
        if not isinstance(name, str):
            return name
        if name not in found:
            mine = _name_words(_key(name))
            fuller = [v for w, v in words if mine < w]
            found[name] = fuller[0] if len(fuller) == 1 else name
        return found[name]

    return fuller


#: a model named by its size alone, as a table's model column writes it ("0.8B", "35B-A3B")
_SIZE_ONLY = re.compile(r"\d+(?:\.\d+)?[BM](?:-A\d+(?:\.\d+)?B)?", re.IGNORECASE)
#: a model family with its version and no size ("Qwen 3.5", "Qwen3.5", "Llama 3.1", "Gemma 3")
_FAMILY_VERSION = re.compile(
    rf"(?<![\w.-])(?P<f>{MODEL_FAMILIES})[ -]?(?P<v>\d+(?:\.\d+)?)(?![\w.]|\s?\d+(?:\.\d+)?[BM]\b|-\d)",
    re.IGNORECASE,
)


def family_of(text: str) -> str | None:
    """The one model family with its version ``text`` names ("Qwen 3.5" -> ``Qwen3.5``), None when
    it names none or several: the family of a table's model column that gives sizes only."""
    found = {f"{m.group('f')}{m.group('v')}" for m in _FAMILY_VERSION.finditer(text)}
    return found.pop() if len(found) == 1 else None


def _family_of_names(named: list[object]) -> str | None:
    """The one family the post's sized model names share, as they write it ("Llama2-7B" and
    "Llama2-13b" -> "Llama2"), None when they name none or several: the family of a model the post
    names by its size alone elsewhere ("- 13B: 108.8 token/sec")."""
    found: dict[str, str] = {}
    for v in named:
        m = (
            re.match(r"(?P<f>.+?)[-\s]\d+(?:\.\d+)?[BM](?![A-Za-z])", v, re.IGNORECASE)
            if isinstance(v, str)
            else None
        )
        if m:
            found.setdefault(m.group("f").lower(), m.group("f"))
    return next(iter(found.values())) if len(found) == 1 else None


def _with_family(model: object, family: str | None) -> object:
    """ "0.8B" under a post about one family ("Qwen 3.5") -> "Qwen3.5-0.8B"; anything else as is."""
    if family and isinstance(model, str) and _SIZE_ONLY.fullmatch(model.strip()):
        return f"{family}-{model.strip()}"
    return model


def _drafting_kind(post: Post) -> str | None:
    """The one kind of drafting a post names (``draftnames``' decoding words: MTP -> draft-self, a
    draft model or speculative decoding -> speculative; a ``-md`` flag speculative), None when it
    names none or both."""
    kinds: set[str] = {
        "draft-self" if m.group("self") else "speculative"
        for m in DECODING_PHRASE.finditer(post.text)
        if not m.group("plain")
    }
    if re.search(r"(?<![\w-])(?:-md|--model-draft|--draft-model|--speculative[-_]model)\b", post.text):
        kinds.add("speculative")
    return kinds.pop() if len(kinds) == 1 else None


#: any word of drafting (speculative decoding, a draft model, MTP, EAGLE, Medusa, n-gram or prompt
#: lookup, a draft size, an acceptance), in the languages of the corpus: a post naming none ran
#: every number with plain decoding, every engine's default (``fill``)
_DRAFTING_WORD = re.compile(
    r"specul|draft|\bMTP\b|\bEAGLE\d?\b|\bMedusa\b|\bn-?gram|lookahead|prompt[- _]lookup|"
    r"(?<![\w-])spec[-_ ]|\bDFlash|\bacceptance\b|\baccept(?:ed)? (?:rate|length|len)\b|\bn[-_]max\b|"
    r"(?<![\w-])-md\b|投机|推测|投機|推測|ドラフト|спекул|черновик|추측|드래프트",
    re.IGNORECASE,
)


def names_drafting(text: str) -> bool:
    """Whether ``text`` names any kind of drafting (``_DRAFTING_WORD``: "speculative", "draft
    model", "MTP", "EAGLE-3", "n-gram", "--spec-type", "acceptance rate", 投机解码, спекулятивное)."""
    return _DRAFTING_WORD.search(text) is not None


def fill(post: Post, entries: list, groups: list) -> None:
    """Add each drafted claim's and group's context (``Context.at`` of its line) under the conditions
    it states (module doc): ``entries`` and ``groups`` are ``draft.Entry`` and ``draft.Group``
    objects (``fields`` with ``conditions``, ``source_line``; a group's ``line``), changed in place.
    A condition any row of a group states is left to the rows; a build is not added where the entry
    names another engine than the context's.  A post that names no drafting at all
    (``names_drafting``) gives every claim and group ``decoding: plain``: speculative decoding is
    something a post about it says, and no engine drafts by default."""
    ctx = Context(post)
    plain = not names_drafting(post.text)
    root = ctx.root
    models = [*root.head.get("model", []), *root.body.get("model", []), *root.weak.get("model", [])]
    drafting = _drafting_kind(post)
    family = family_of(post.text) or _family_of_names(models)
    fuller = _fuller_of(models)
    for e in [*entries, *groups]:
        own = e.fields.get("conditions") or {}
        if isinstance(own.get("model"), str):
            own["model"] = fuller(_with_family(own["model"], family))
    rows: dict[str, list[dict]] = {}
    for e in entries:
        if e.kind == "claim" and e.group is not None:
            rows.setdefault(e.group, []).append(e.fields.get("conditions") or {})
    for g in groups:
        mine = rows.get(g.id, [])
        cond = g.fields.setdefault("conditions", {})
        _fill(cond, ctx.at(g.line, cond.get("model")), lambda p, mine=mine: any(_has(r, p) for r in mine))
        if isinstance(cond.get("model"), str):
            cond["model"] = fuller(cond["model"])
        if plain and "decoding" not in cond and not any(_has(r, "decoding") for r in mine):
            cond["decoding"] = "plain"
        if not cond:
            g.fields.pop("conditions")
    by_id = {g.id: g for g in groups}
    for e in entries:
        if e.kind != "claim" or not e.fields.get("source_line"):
            continue
        group_fields = by_id[e.group].fields if e.group in by_id else {}
        shared = group_fields.get("conditions", {})
        metric = e.fields.get("metric") or group_fields.get("metric")
        # its own copy: the cells of a table row share one conditions dict
        cond = copy.deepcopy(e.fields.get("conditions") or {})
        own = cond.get("model") or shared.get("model")
        around = ctx.at(int(e.fields["source_line"]), own)
        if e.fields.get("origin"):
            # someone else's number ("people report 154 t/s on a 4090 with this technique"): their
            # machine and setup, not the post's; the decoding the post is about is theirs too
            around = {p: v for p, v in around.items() if p == "decoding"}
        _fill(cond, around, lambda p, shared=shared: _has(shared, p))
        if not builds_engine(cond.get("build"), cond.get("engine") or shared.get("engine")):
            del cond["build"]  # "21% faster than Ollama" after "llama.cpp b4000": not Ollama's build
        drafted = _has(cond, "block_max") or _has(shared, "block_max") or metric == "acceptance_rate"
        if drafting and drafted and not _has(cond, "decoding") and not _has(shared, "decoding"):
            # a draft size (its own or its scope's: "MTP n=4" in the setup) or an acceptance: a
            # drafting run, of the post's one kind
            cond["decoding"] = drafting
        if plain and not _has(cond, "decoding") and not _has(shared, "decoding"):
            cond["decoding"] = "plain"
        if isinstance(cond.get("model"), str):
            cond["model"] = fuller(cond["model"])
        if "conditions" in e.fields:
            e.fields["conditions"] = cond
        elif cond:
            # conditions go before the quote and line, as the drafter writes them
            fields = {k: v for k, v in e.fields.items() if k not in ("source_line", "quote", "log")}
            tail = {k: e.fields[k] for k in ("log", "source_line", "quote") if k in e.fields}
            e.fields.clear()
            e.fields.update({**fields, "conditions": cond, **tail})


def _fill(cond: dict, context: dict[str, object], taken) -> None:
    for path, value in context.items():
        if _has(cond, path) or taken(path):
            continue
        if path == "block_max" and cond.get("decoding") == "plain":
            continue  # a baseline drafts nothing: the draft size around it is the drafting arm's
        if path == "build" and "engine" in cond and cond["engine"] != context.get("engine"):
            continue
        put_path(cond, path, value)
