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
without a tool), and settings written in words (``draftwords``: "131K context", "q4_0 KV",
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
import functools
import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations

from .draftcommand import (
    HEX_COMMIT,
    KOBOLD_SETTINGS,
    QUANT_TYPE,
    SHELL_PROMPT,
    agreed,
    command_lines,
    conditions_of,
    drop_path,
    has_path,
    is_token_batch,
    kobold_backend,
    kobold_model,
    model_and_quant,
    put_path,
    serving,
    serving_client,
)
from .draftcore import LABELS, label_key, origin_of
from .draftmetric import VLLM_PROGRESS
from .draftnames import (
    CPU,
    DECODING_PHRASE,
    DISCRETE_GPU,
    DRAFT_COUNT,
    ENGINE_SPELLINGS,
    MODEL_FAMILIES,
    MTP_IN_NAME,
    UNUSED_UNIT,
    Mention,
    builds_engine,
    clause_bounds,
    cpu_name,
    cpu_names,
    engine_of_cell,
    engine_spelled,
    engine_version_cell,
    engines_in,
    header_decoding,
    heading_engine,
    in_spans,
    mentions,
    ollama_model,
    placement,
    repository_engine,
    sentence_of,
    side_builds,
    supposed_spans,
)
from .draftprose import family, numbers
from .draftwords import (
    DRAFT_MODEL_CJK,
    NOT_A_PROMPT,
    PROMPT_SET_SETTING,
    REQUEST_SETTINGS,
    config_settings,
    count,
    engine_versions,
    script_settings,
    settings_in_words,
    spec_summary,
)
from .post import Block, Post
from .toollines import stat_name

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
#: the settings of one run (its prompt, the cap and sampling it was given), not of a thread's others
_RUN_SETTINGS = frozenset({"prompt", "cap", "sampling", "tokens_generated"})
#: conditions a prose paragraph's words do not state for its scope (a paragraph saying "MTP doesn't
#: help" compares; a heading "With MTP" or a command's ``-md`` sets it), and that hold for their own
#: scope only, not for the scopes around it (one section's decoding is one arm of a comparison)
_HEADING_ONLY = frozenset({"decoding"})
#: conditions a paragraph's words state for their own clause only (``draftnames.CLAUSE_ONLY``: "-fa
#: on" in a sentence is its command's), from a heading or caption for the scope
_CLAUSE_WORDS = frozenset({"decoding", "flash_attn"})


#: the backend a build's own words name: a CMake flag ("-DGGML_CUDA=ON", "GGML_CUDA_FORCE_MMQ",
#: "LLAMA_CUBLAS", "GGML_HIP"), a "Backend: vulkan0" line, "CPU-only"
_BACKEND_WORDS = re.compile(
    r"(?<![A-Za-z])D?(?:GGML|LLAMA)_(?P<f>CUDA|CUBLAS|VULKAN|METAL|HIP|HIPBLAS|SYCL|OPENCL)(?![A-Za-z])"
    r"|\bbackend\s*[:=]\s*(?P<k>cuda|vulkan|metal|rocm|hip|sycl|opencl|cpu)\d*\b"
    r"|\b(?P<c>CPU)[- ]only\b"
    # a tensor override's device ('-ot "blk\.78\..*=CUDA1"'): the backend the layers it names run on
    r"|(?<![\w-])(?:-ot|--override-tensor)[\s=]+[\"']?[^\"'\s]*=(?P<o>CUDA|Vulkan|SYCL)\d*(?![\w-])"
    # a backend joined to its version, as a release names its build ("CUDA-12 B6318", "ROCm-6.2")
    r"|(?<![\w-])(?P<v>CUDA|Vulkan|ROCm|SYCL)-\d+(?:\.\d+)*(?![\w-])"
    # a llama.cpp change's title opening with its backend ("vulkan: scalar flash attention", "CUDA:
    # faster FA", "ggml-cuda : …"): the backend it changes and its author measured
    r"|(?:^|\n)\s*(?:#+\s*)?(?:ggml[-_ ]?)?(?P<t>cuda|vulkan|metal|rocm|hip|sycl|opencl)\s?:(?!\s*\d)"
    # Huawei's NPUs through CANN: named, or vLLM's plugin for them ("on Ascend NPU", "vllm-ascend")
    r"|(?<![\w-])(?P<a>Ascend[\s-]?NPUs?|vllm[-_]ascend)(?![\w-])"
    # a chip's neural unit a run used ("test on Intel Ultra 9 185H's NPU", "ran on the NPU"; in
    # capitals, the word's own spelling; a sentence denying it is none, ``_backends``)
    r"|(?:['’]s\s+|\bon\s+(?:the\s+|its\s+|an?\s+)?)(?-i:(?P<n>NPU))(?![\w-])",
    re.IGNORECASE,
)
#: the backend of Huawei's Ascend NPUs (CANN), as the corpus names it ("Ascend NPU (vllm-ascend)" under vLLM)
ASCEND_NPU = "Ascend NPU"
#: a machine of Ascend NPUs ("Ascend 910B3", "Huawei Atlas 800I A2")
_ASCEND_MACHINE = re.compile(r"\b(?:Ascend|Atlas)\b")
BACKEND_NAMES = {
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
    "npu": "NPU",
}


#: a backend the post says it chose ("Why we chose Vulkan", "we went with the CUDA backend", "so we
#: settled on ROCm"): of the backends it names, the one that ran its numbers
_CHOSEN_BACKEND = re.compile(
    r"\b(?:chose|chosen|picked|went\s+with|opted\s+for|settled\s+on|switched\s+to|stuck\s+with)\s+"
    r"(?:the\s+)?(?P<b>cuda|vulkan|metal|rocm|hip|sycl|opencl)\b",
    re.IGNORECASE,
)


def _backends(text: str, out: list[tuple[str, object]]) -> None:
    for m in _BACKEND_WORDS.finditer(text):
        if m.group("a"):
            out.append(("backend", ASCEND_NPU))
            continue
        if m.group("n") and (
            UNUSED_UNIT.search(sentence := sentence_of(text, m.start("n"), m.end("n")))
            or DISCRETE_GPU.search(sentence)
        ):
            continue  # "llama.cpp does not use the NPU yet", an NPU listed beside a card: no run on it
        word = (
            m.group("f")
            or m.group("k")
            or m.group("c")
            or m.group("v")
            or m.group("t")
            or m.group("o")
            or m.group("n")
        )
        out.append(("backend", BACKEND_NAMES[word.lower()]))


#: inline code that is a list of flags without a tool: `-np 1 -fa on -ctk q8_0`
#: a long flag written with a dash a blog's typography made of "--" ("–ctx-size", "—flash-attn")
_DASHED_FLAG = re.compile(r"(^|\s)[–—](?=[A-Za-z][\w-]*)")
FLAGS_ONLY = re.compile(r"^\s*-{1,2}[A-Za-z][\w-]*(?:[ =]\S+)?(?:\s+-{1,2}[A-Za-z][\w-]*(?:[ =]\S+)?)*\s*$")


def flat_paths(d: dict, prefix: str = "") -> dict[str, object]:
    """The nested conditions mapping ``d`` as dotted path -> value ({"offload": {"n_gpu_layers": 99}}
    -> {"offload.n_gpu_layers": 99}; a None value kept)."""
    out: dict[str, object] = {}
    for k, v in d.items():
        if isinstance(v, dict):
            out.update(flat_paths(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


#: a tool that runs the model itself (not a client of a server: ``vllm bench serve``, SGLang's
#: ``bench_serving``): what it drafts, its flags say
_CLIENT_TOOL = re.compile(r"bench\s+serve|bench_serving", re.IGNORECASE)


def _command_names(conditions: dict, out: list[tuple[str, object]], tool: str = "") -> None:
    """The conditions a command line sets (``draftcommand.conditions_of``) that a scope carries; a
    ``tool`` that runs the model with no drafting flag (``-md``, ``--spec-type``,
    ``--speculative-config``, ...) decodes plainly: no engine drafts by default (``llama-cli -m x``
    beside ``llama-speculative -m x -md d``)."""
    flat = flat_paths(conditions)
    tag = ollama_model(str(flat["model"])) if tool.startswith("ollama") and "model" in flat else None
    if tag is not None:  # "gpt-oss:20b" -> "gpt-oss-20B", as a tag in prose reads
        flat["model"] = tag[0]
    for path, value in flat.items():
        if path in CARRIED:
            out.append((path, value))
    if "other.draft_model" in flat and "decoding" not in flat:
        out.append(("decoding", "speculative"))
    elif tool and "decoding" not in flat and not _CLIENT_TOOL.search(tool):
        if not any(re.search(r"draft|spec|lookup|eagle|medusa|mtp|block_max", k, re.I) for k in flat):
            out.append(("decoding", "plain"))


#: a line naming the prompt or task under its label ("Prompt: summarize a news article", "Test task:
#: …", "- **Task**: …", "プロンプト：…", "提示词：…", "Промпт: …"): the rest of the line, up to 120
#: characters; not sizes ("Workload: 256 input → 128 output tokens": a count first names no prompt)
_PROMPT_LABEL = re.compile(
    r"^\s*(?:[-*+•]\s+|\d+[.)]\s+)?[*_]*(?:(?:test|benchmark|eval\w*|example|sample|input|user)\s+)?"
    # (a chat tool's turn, "Chat: who are you?" (KTransformers' local_chat), a question typed)
    r"(?:prompt|task|workload|chat(?=\s*[:：]\s*[^:：]+\?\s*$)|"
    r"プロンプト|課題|提示词|提示|任务|промпт|задача|프롬프트|과제|aufgabe)[*_]*\s*[:：][*_]*\s*"
    r"(?P<v>[^\s\d:：].{0,119}?)[\s.。]*$",
    re.IGNORECASE,
)
#: a prompt named by its words before the word "prompt" ("High-accept 2 KB prompt, 256 gen:",
#: "on the coding prompt", "for the wiki-8k prompt"): at a line's start (a list item's) or after on/for/
#: with (the/a), one to three words; a count's phrase keeps the word ("4k-token prompt"); never a
#: phase ("prompt processing", "prompt eval") nor a word that names no prompt ("the same prompt")
_PROMPT_WORDS = re.compile(
    r"(?:(?:^\s*(?:[-*+•]\s+|\d+[.)]\s+)?[*_]*|\b(?:on|for|with|using)\s+(?:the\s+|a\s+|an\s+)?)"
    r"(?P<v>[^\W\d_][\w.+#-]*(?:\s[\w.+#-]+){0,2}?)|(?<![\w.])(?P<n>\d+(?:\.\d+)?\s?[kK]?[- ]tokens?))"
    r"\s+prompt\b"
    # ("Prompt-Processing", "Prompt-Verarbeitung": the phase joined by a dash)
    r"(?![\s-]*(?:processing|process|eval\w*|tokens?|speed|rate|throughput|length|len|cache\w*|size|phase|"
    r"pp|t/s|tok|verarbeitung|geschwindigkeit))",
    re.IGNORECASE,
)


#: words before "prompt" that name the work done on a prompt ("Slowdown on processing prompt", "faster
#: at evaluating prompt"): prompt processing, no prompt named
_PROMPT_ACTION = re.compile(
    r"\b(?:processing|process(?:ed)?|evaluating|evaluation|eval|ingesting|ingestion|encoding|prefill(?:ing)?)$",
    re.IGNORECASE,
)


#: a chat run at the terminal named in a block ("ollama run gemma2:27b", "llama-cli -m …",
#: "mlx_lm.generate"): there the text typed to it under a label ``_CHAT_LABEL`` ("message: tell me a
#: joke", "Input: …") is the prompt; elsewhere "Message:" is any message (an error's)
#: what a user typed at Ollama's prompt (``ollama run …`` then ">>> what is an apple?"); not one of
#: its commands (">>> /set parameter num_ctx 65536") nor Python's (">>> import torch", "f(x)")
_REPL_PROMPT = re.compile(r"^\s*>>>\s+(?!/)(?!(?:import|from|print)\b)(?P<v>[^\s\d(=][^()=]{2,119}?)\s*$")
#: Ollama's chat run at the terminal and the model tag it runs ("$ ollama run gpt-oss:20b --verbose")
#: and the prompt given after the tag ("vulkan$ ollama run --verbose gpt-oss:20b hi"; its flags
#: before or after the tag, ``--keepalive``'s and ``--format``'s with their value: cmd/cmd.go)
_OLLAMA_FLAG = r"(?:--(?:keepalive|format)[=\s]+\S+|--?[A-Za-z][\w-]*)"
_OLLAMA_RUN = re.compile(
    SHELL_PROMPT + rf"ollama\s+run\s+(?:{_OLLAMA_FLAG}\s+)*(?P<tag>[^\s\"'-][^\s\"']*)(?:\s+{_OLLAMA_FLAG})*"
    # (a shell's redirect, pipe or list ends it: "--verbose < prompt.txt" types no prompt)
    r"(?:\s+(?:\"(?P<dq>[^\"]+)\"|'(?P<sq>[^']+)'|"
    r"(?P<bare>[^\s\"'<>|&;-][^\"'<>|&;]*?)(?=\s+--|\s*(?:[<>|&;]|$))))?"
)


def _ollama_runs(lines: list[tuple[int, str]], out: list[tuple[str, object]]) -> None:
    """Append to ``out`` what each ``ollama run`` line of ``lines`` (``(line, text)``) sets: engine
    Ollama, the model and quant its tag names (``ollama_model``) and the prompt typed after the tag
    (``_OLLAMA_RUN``: "$ ollama run --verbose gpt-oss:20b hi" -> prompt "hi")."""
    for _, t in lines:
        ollama = _OLLAMA_RUN.match(t)
        if ollama:
            out.append(("engine", "Ollama"))
            tagged = ollama_model(ollama.group("tag"))
            if tagged is not None:
                out.append(("model", tagged[0]))
                if tagged[1]:
                    out.append(("quant", tagged[1]))
            typed = ollama.group("dq") or ollama.group("sq") or ollama.group("bare")
            if typed:
                out.append(("prompt", typed.strip()))


_CHAT_RUN = re.compile(r"\b(?:ollama\s+run|llama-cli|llama-run|mlx_lm[._]generate|mlx_lm\.chat)\b", re.I)
_CHAT_LABEL = re.compile(
    r"^\s*(?:[-*+•]\s+)?[*_]*(?:message|query|question|input)[*_]*\s*[:：][*_]*\s*"
    r"(?P<v>[^\s\d:：].{0,119}?)[\s.。*_]*$",
    re.IGNORECASE,
)


#: a prompt quoted after the word "prompt" ('Prompt was "They"', 'with the prompt "Write a story
#: about Einstein"', "the prompt `tell me a joke`"): the quoted words, as written
_PROMPT_QUOTED = re.compile(
    # a JSON key's closing quote allowed ('"prompt": "描述一下北京的秋天"'); the opening quote after a
    # space or separator, never the key's own
    r"\bprompt[\"']?(?:\s*(?:was|is|of)\b|\s*[:：=])?\s*(?<=[\s:：=])[\"“「`](?P<v>[^\"”」`\n]{1,120})[\"”」`]"
    # or quoted right before the word naming it ('Simple "refactor the bash script" test')
    r"|(?<![\w\"])[\"“「](?P<w>[^\"”」\n]{3,120})[\"”」]\s+(?:test|prompt|task)\b",
    re.IGNORECASE,
)
#: words before "prompt" that end in a word of the sentence around it, not of a prompt's name ("I
#: used the prompt", "we gave it a prompt"): the prompt is named elsewhere, if at all
_PROMPT_LEAD_END = re.compile(
    # (or a preposition: "Tokens per Prompt" counts a prompt's tokens, names none)
    r"(?:^|\s)(?:the|a|an|it|this|that|same|its|his|her|my|our|their|your|per|each|every|of|for)$",
    re.I,
)
#: a prompt named by its size alone before the word "prompt" ("the long prompt", "Short Prompt")
_SIZED_PROMPT = re.compile(r"(?:long|longer|short|shorter|medium)", re.IGNORECASE)


#: a prompt defined under a short name ("Prompt 1: Write a quicksort algorithm in Python.", "- **Task
#: B**: summarize the article"): the name, then the prompt's words; a line that measures names no
#: prompt (it cites one: "Prompt 1: 15.10 tok/sec without draft"); "Test 1:" names a run, not a prompt
_PROMPT_NAMED = re.compile(
    r"^\s*(?:[-*+•]\s+)?[*_]*(?P<k>(?:prompt|task|query|question)\s*#?\s*(?:\d{1,2}|[A-Z]))[*_]*\s*"
    r"[:：.)][*_]*\s*(?P<v>[^\s\d:：].{0,119}?)[\s.。]*$",
    re.IGNORECASE,
)


#: what a configuration names and a prompt does not
_SETUP_PATHS = frozenset({"model", "engine", "hardware", "quant", "build", "backend"})


def named_prompts(blocks: list[Block]) -> dict[str, str]:
    """The prompts a post defines under a short name (``_PROMPT_NAMED``), by that name in lower
    case with single spaces ("prompt 1" -> "Write a quicksort algorithm in Python. Write code
    only."): a later line labelled "Prompt 1:" measures that prompt (``_line_scopes``).  A name
    defined twice with other words is dropped (which one a line means is not known)."""
    out: dict[str, str] = {}
    twice: set[str] = set()
    for block in blocks:
        if block.kind != "text":
            continue
        for n, t in block.lines:
            m = _PROMPT_NAMED.match(t)
            if m is None or _measures([(n, t)]):
                continue
            if any(x.path in _SETUP_PATHS for x in mentions(m.group("v"))):
                continue  # "Task 1: llama.cpp with Qwen3 8B on an RTX 4090": a configuration, no prompt
            key = _prompt_key(m.group("k"))
            value = m.group("v").strip().strip("\"'「」“”*_`").strip()
            if out.get(key, value) != value:
                twice.add(key)
            out[key] = value
    return {k: v for k, v in out.items() if k not in twice}


def _prompt_key(name: str) -> str:
    """A prompt's short name as ``named_prompts`` keys it: "Prompt #1", "prompt1", "**Prompt 1**" ->
    "prompt 1"."""
    return re.sub(r"^([^\W\d_]+?)[\s#]*(\d{1,2}|[^\W\d_])$", r"\1 \2", name.strip("*_ ").lower())


#: a script's line printing the prompt it sends next ("prompt = Write a step-by-step guide …")
_PROMPT_ASSIGNED = re.compile(r"^\s*prompt\s*=\s*(?P<v>[^\s\d=].{0,119}?)\s*$", re.IGNORECASE)


def prompt_lines(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The lines of a block naming a prompt (``_PROMPT_LABEL``: "Prompt: …"; a script's "prompt = …",
    ``_PROMPT_ASSIGNED``), each ``(line, the prompt as written)``, in order."""
    return [
        (n, m.group("v").strip().strip("\"'“”「」"))
        for n, t in lines
        if (m := _PROMPT_LABEL.match(t) or _PROMPT_ASSIGNED.match(t))
    ]


def model_lines(lines: list[tuple[int, str]]) -> list[tuple[int, dict]]:
    """The lines of a block reporting the model under its label ("model_name =    mistral:7b",
    "Model: Llama-3.2-1B-Q4_0.gguf": ``_REPORT_LINE``), each ``(line, {model, quant})`` as read, in
    order: a script's output running several models, each result under the last one named."""
    out: list[tuple[int, dict]] = []
    for n, t in lines:
        report = _REPORT_LINE.match(t)
        if report is None or not report.group("label").lower().startswith("model"):
            continue
        value = report.group("value").strip().strip('",')
        named = {
            x.path: x.value for x in _path_names(value) or mentions(value) if x.path in ("model", "quant")
        }
        if "model" not in named and re.fullmatch(r"[\w./-]+:[\w.-]+", value):
            named = {"model": value}  # an Ollama tag no reader names ("phi3:mini"): the tag as written
        if "model" in named:
            out.append((n, named))
    return out


def _prompts(lines: list[tuple[int, str]], out: list[tuple[str, object]]) -> None:
    """The prompts a block's lines name (``_PROMPT_LABEL``, ``_PROMPT_WORDS``; ``_CHAT_LABEL``
    where the block runs a chat at the terminal, ``_CHAT_RUN``), as written."""
    chat = any(_CHAT_RUN.search(t) for _, t in lines)
    for _, t in lines:
        m = _PROMPT_LABEL.match(t) or (_CHAT_LABEL.match(t) or _REPL_PROMPT.match(t) if chat else None)
        if m:
            value = m.group("v").strip()
            # a quoted prompt with a remark after it ('"Describe a tavern" (creative writing)'): the quote
            in_quotes = re.match(r"[\"“「'](?P<q>[^\"”」']{2,})[\"”」']", value)
            out.append(
                ("prompt", (in_quotes.group("q") if in_quotes else value).strip("\"'「」“”*_`").strip())
            )
            continue
        quoted = [(q.group("v") or q.group("w")).strip() for q in _PROMPT_QUOTED.finditer(t)]
        if quoted:
            # one prompt a line names ('"coding" test 40 tok/s, "summarize" test 35 tok/s' names two:
            # which number is whose is the line's words', none for the whole line); never a model's
            # or machine's name in quotes ('Ollama "qwen3:8b" test')
            named = {q for q in quoted if not any(x.path in _SETUP_PATHS for x in mentions(q))}
            if len(named) == 1:
                out.append(("prompt", named.pop()))
            continue
        for w in _PROMPT_WORDS.finditer(t):
            if w.group("n"):
                out.append(("prompt", f"{w.group('n')} prompt"))
                continue
            # a line opening "On the coding prompt": the preposition and article are no name
            words = re.sub(
                r"^(?:(?:on|for|with|using|in|at|by)\s+)?(?:(?:the|a|an)\s+)?",
                "",
                w.group("v").strip("*_`"),
                flags=re.I,
            )
            if not words or _PROMPT_LEAD_END.search(words) or _PROMPT_ACTION.search(words):
                continue  # "I used the prompt …", "Slowdown on processing prompt": no prompt's name
            if _SIZED_PROMPT.fullmatch(words):
                # "on the long prompt", "1. Short Prompt (\"Hello\"):": a scenario named by its size,
                # the word "prompt" kept (the size alone names nothing)
                out.append(("prompt", f"{words.lower()} prompt"))
            elif not NOT_A_PROMPT.match(words):
                out.append(("prompt", words))


def _path_names(path: str) -> list[Mention]:
    """What a path names: the names of its last part that names something (``mentions``:
    "~/models/mlx-community/Qwen3-0.6B-8bit", "models/Llama-2-7B/ggml-model-q4_0.bin": the folder
    names the model), none where no part does."""
    return next((hits for p in reversed(re.split(r"[/\\]", path)) if (hits := mentions(p))), [])


#: flags only one serving engine's launcher takes (SGLang's server arguments, vLLM's engine arguments):
#: a script run with two of one set runs that engine
_ENGINE_FLAGS = {
    "SGLang": frozenset(
        {
            "--speculative-algorithm",
            "--speculative-draft-model-path",
            "--speculative-eagle-topk",
            "--speculative-num-draft-tokens",
            "--cuda-graph-max-bs",
            "--mem-fraction-static",
            "--tp-size",
            "--disable-radix-cache",
        }
    ),
    "vLLM": frozenset(
        {
            "--tensor-parallel-size",
            "--gpu-memory-utilization",
            "--speculative-config",
            "--max-num-batched-tokens",
            "--enforce-eager",
        }
    ),
}
#: a Python script run at a shell prompt (``SHELL_PROMPT``: "$ python ../exllamav3/eval/perf.py …",
#: "user@box:~/exllamav3$ python …"), and its model
#: argument (``--model_dir``, ``--model``, ``-m``): a path
_SCRIPT_RUN = re.compile(SHELL_PROMPT + r"python3?\s+(?P<script>\S+\.py)\b")
_MODEL_ARG = re.compile(r"(?:--model[_-]?(?:dir|path)?|-m)[=\s]+(\S+)")


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
    found = command_lines(lines, code=kind == "code")
    in_command = {n for c in found for n in range(c.line, c.last + 1)}
    server = False  # the command before was a server's (not its benchmark client's)
    for c in found:
        got: list[tuple[str, object]] = []
        _command_names(c.conditions, got, c.tool)
        client = serving_client(c.tool)
        if client and server and commands:
            # "vllm serve …" then "vllm bench serve --random-input-len 1024 --max-concurrency 64":
            # one run, the client's settings the server's command's too (as ``draft`` merges them)
            have = {k for k, _ in commands[-1][1]}
            commands[-1][1].extend((k, v) for k, v in got if k not in have)
        else:
            commands.append((c.line, got))
        server = not client
    out: list[tuple[str, object]] = []
    rest = [(n, t) for n, t in lines if n not in in_command]
    if kind == "code" and found:
        # a command of a tool the drafter does not know after a known one in the fence ("mlx_lm
        # generate …", its output, "mtplx tune --model …", its output): the output after it is its
        # run, with the model its flag names, none of the known command's settings
        servers = [c.line for c in found if serving(c.tool)]  # (a server's client measures it)
        unknown = [
            (n, _flag_models([(n, t)]))
            for n, t in rest
            if ANY_COMMAND.match(t) and n > found[0].line and not any(s < n for s in servers)
        ]
        if unknown:
            commands = sorted([*commands, *unknown], key=lambda c: c[0])
    if kind == "code" and not found and rest and all(FLAGS_ONLY.match(t) for _, t in rest if t.strip()):
        # a block of flags alone, no tool ("The key new flags:" over "--flash-attn on" /
        # "--cache-type-k q8_0 --cache-type-v q8_0"): the settings of the runs it introduces
        got = flag_settings(" ".join(t for _, t in rest))
        return [(rest[0][0], got)] if got else [], []
    if kind == "code":
        # output and logs: no names of the setting (a model's file name in a log), but where a line
        # reports it under its label ("Device 0: NVIDIA GeForce RTX 4070 Ti, compute capability
        # 8.9", "GPU: RTX 3090", "Model:  Llama-3.2-1B-Q4_0.gguf", "ggml_vulkan: 0 = AMD Radeon ...")
        for _, t in rest:
            report = _REPORT_LINE.match(t)
            if report:
                label = report.group("label").lower()
                # (trtllm-bench's "Quantization:           FP8": the weights' type)
                paths = (
                    ("model", "quant")
                    if label.startswith("model")
                    else ("quant",)
                    if label == "quantization"
                    else ("hardware",)
                )
                if label == "quantization":
                    quant = model_and_quant(report.group("value").strip().strip('",'))[1]
                    out += [("quant", quant)] if quant else []
                    continue
                in_path = _path_names(report.group("value").strip().strip('",'))
                out += [
                    (x.path, x.value) for x in in_path or mentions(report.group("value")) if x.path in paths
                ]
        for _, t in rest:
            banner = _BANNER.match(t)
            if banner:
                # "----- granite4:latest -----" between a script's runs: the model they ran
                on_banner = mentions(banner.group("v"))
                out += [(x.path, x.value) for x in on_banner if x.path in ("model", "quant")]
        for _, t in rest:
            run = _SCRIPT_RUN.match(t)
            if run:
                # "$ python ../exllamav3/eval/perf.py --model_dir models/Qwen3.8-…-exl3-4.05bpw/": a
                # script of an engine's repository runs that engine, on the model its path names
                out += [(x.path, x.value) for x in mentions(run.group("script")) if x.path == "engine"]
                model = _MODEL_ARG.search(t)
                if model:
                    in_model = _path_names(model.group(1).strip("'\""))
                    out += [(x.path, x.value) for x in in_model if x.path in ("model", "quant")]
        script = next((i for i, (_, t) in enumerate(rest) if _SCRIPT_RUN.match(t)), None)
        if script is not None:
            # "python bench_eagle3.py --speculative-algorithm EAGLE3 --tp-size 2 --dtype bfloat16": a
            # script of no engine's repository, run with flags only one engine takes (``_ENGINE_FLAGS``)
            joined = " ".join(t.rstrip("\\ ") for _, t in rest[script:])
            said = set(re.findall(r"(?<![\w-])--[a-z][\w-]*", joined))
            engines = [e for e, own in _ENGINE_FLAGS.items() if len(said & own) >= 2]
            if len(engines) == 1 and not any(p == "engine" for p, _ in out):
                out.append(("engine", engines[0]))
                long_flags = re.findall(r"(?<![\w-])--[a-z][\w-]*(?:[=\s]+(?!--)[^\s\\]+)?", joined)
                out += [x for x in flag_settings(" ".join(long_flags)) if x[0] != "model"]
        _ollama_runs(rest, out)
        if any(_CHAT_RUN.search(t) for _, t in lines):  # (the command line itself read above)
            # what the user typed at the chat (">>> what is an apple? give a short answer"): the prompt
            for _, t in rest:
                typed = _REPL_PROMPT.match(t) or _CHAT_LABEL.match(t)
                if typed:
                    out.append(("prompt", typed.group("v").strip().strip("\"'“”")))
        script_settings("\n".join(t for _, t in rest), out)  # "torch_dtype=torch.float16"
        assigned = [a.group("v") for a in (_PROMPT_ASSIGNED.match(t) for _, t in rest) if a]
        if len(assigned) == 1 and not any(p == "prompt" for p, _ in out):
            # a script's output printing "prompt = Why is the sky blue?" over its one run's results
            out.append(("prompt", assigned[0].strip("\"'“”「」")))
        config_settings("\n".join(t for _, t in rest), out)  # "gpu_layers = 35", "n_ctx=4096"
        _koboldcpp_benchmark("\n".join(t for _, t in rest), out)
        text = spec_summary(" ".join(t for _, t in rest), out)
        for pat, what in REQUEST_SETTINGS:  # and a request's parameters
            for r in pat.finditer(text):
                if what == "cap":
                    out.append(("cap", int(r.group("n"))))
                elif what == "ctx":
                    out.append(("ctx", int(r.group("n"))))
                elif what in ("build", "prompt"):
                    out.append((what, r.group("n").strip()))
                elif what in ("concurrency", "block_max"):
                    out.append((what, int(r.group("n"))))
                elif float(r.group("n")) <= 2:
                    out.append(("sampling", f"temperature {r.group('n')}"))
        _backends(text, out)  # and a build's or a run's own words for its backend
        _builds(text, out)
        return commands, _counted_devices(lines, list(dict.fromkeys(out)))
    read: set[str] = set()  # the inline code read as a command
    # a block that is flags alone, as a setup list writes them a line each ("- -b 2048", "- –ctx-size
    # 128000": a blog's typography turns "--" into a dash): settings it states, as a setup list's
    # words do (a setup section's hold for the whole post)
    flagged = _DASHED_FLAG.sub(r"\1--", " ".join(t.strip().strip("*_`") for _, t in rest))
    if rest and not heading and FLAGS_ONLY.match(flagged) and re.search(r"\s", flagged.strip()):
        out += flag_settings(flagged)  # settings the block states, as its words would ("ctx-size 128000")
    for n, t in rest:
        for code in re.findall(r"`([^`]+)`", t):
            got = []
            inline = command_lines([(n, code)])
            if inline:
                _command_names(inline[0].conditions, got, inline[0].tool)
            elif FLAGS_ONLY.match(code):
                tool = LLAMA_TOOL_NAMED.search(t)
                got = flag_settings(code, tool.group(0) if tool else "flags")
            if got:
                commands.append((n, got))
                read.add(code)
    text = _own_words(" ".join(t for _, t in rest))
    # a command read above names its models by flag (``-m`` the model, ``-md`` the draft model):
    # its model files are no model the prose names ("With `-md Small-0.5B-Q8_0.gguf` …")
    named = re.sub(r"`([^`]+)`", lambda m: " " if m.group(1) in read else m.group(0), text)
    supposed = supposed_spans(named)
    for m in mentions(named):
        if m.path in _CLAUSE_WORDS and not heading:
            continue
        if m.path == "hardware" and in_spans(supposed, m.start):
            continue  # "Even something like a 3060Ti would be amazing!": advice, no machine run
        out.append((m.path, m.value))
    engine = heading_engine(text) if heading else None
    if engine is not None:  # "端到端推理延迟(llama-cli)": the tool's engine
        out.append(("engine", engine))
    settings_in_words(text, out)
    _prompts(rest, out)
    _backends(text, out)
    _builds(text, out)
    side = _BRANCH_HEADING.fullmatch(text.strip().strip("#*_: ")) if heading else None
    if side is not None:  # "### Main branch" over a sweep's table: the build it ran
        out.append(("build", side.group(0)))
    return commands, _counted_devices(lines, list(dict.fromkeys(out)))


#: a heading that is one side of a change to the code alone ("Main branch", "master", "This PR",
#: "PR #929", "PR branch"): the build of the runs under it, as written
_BRANCH_HEADING = re.compile(
    r"(?:main|master)(?:\s+branch)?|(?:this\s+)?PR(?:\s*#?\d+)?(?:\s+branch)?", re.IGNORECASE
)


#: a list item's lead before its colon, its words in parentheses after it ("* main branch (`--threads
#: 13`): …"): a side of a change where ``_BRANCH_HEADING`` takes it whole
_BRANCH_LEAD = re.compile(
    r"^\s*(?:[-*+•]|\d+[.)])\s+[*_]*(?P<side>[^:()*_\n]{2,20}?)[*_]*\s*(?:\([^)\n]*\))?\s*:"
)


#: a device a llama.cpp backend lists at start ("Device 0: AMD Instinct MI100, gfx908…", "  Device
#: 1: NVIDIA GeForce RTX 3090, compute capability 8.6", "ggml_vulkan: 1 = AMD Radeon RX 7900 XTX")
#: (and vLLM's collect_env: "GPU models and configuration : GPU 0: NVIDIA H100 80GB HBM3", "GPU 1: …")
_DEVICE_LINE = re.compile(
    r"^\W*(?:GPU models and configuration\s*:\s*)?"
    r"(?:(?:Device|GPU)\s+(?P<a>\d+)\s*:|ggml_vulkan:\s*(?P<b>\d+)\s*=)\s*(?P<name>[^,(]+)"
)


#: a tensor- or pipeline-parallel size as posts and launch lines write it ("TP=8", "tp = 4", "TP 8", "tp4",
#: "--tp 2", "--tp-size 8", "-tp 4", "--tensor-parallel-size 4", "tensor_parallel_size=2"; "PP=2",
#: "--pipeline-parallel-size 2"): the run spans TP × PP devices (vLLM's, SGLang's and TensorRT-LLM's
#: meaning of the two sizes); "pp 512" (llama-bench's prompt test) is none
_PARALLEL = re.compile(
    r"(?<![\w-])(?:(?P<t>TP|tp)\s*[=:]\s*|(?-i:TP)\s?|(?-i:tp)(?=\d)|--?(?:tp|tp[-_]size|tensor[-_]parallel[-_]size)[\s=]"
    r"|tensor[-_ ]parallel(?:[-_ ]size)?\s*[=:]?\s*|(?P<p>(?:PP|pp)\s*[=:]\s*|(?-i:PP)\s|--?(?:pp|pp[-_]size"
    r"|pipeline[-_]parallel[-_]size)[\s=]|pipeline[-_ ]parallel(?:[-_ ]size)?\s*[=:]?\s*))"
    r"(?P<n>\d{1,2})(?![\w.])",
    re.IGNORECASE,
)


def parallel_count(text: str) -> int | None:
    """The devices a run of ``text`` spans by its stated parallel sizes (``_PARALLEL``): TP × PP where
    ``text`` states one tensor-parallel size (and at most one pipeline size), None where it states
    none, several, or 1."""
    tp: set[int] = set()
    pp: set[int] = set()
    for m in _PARALLEL.finditer(text):
        (pp if m.group("p") else tp).add(int(m.group("n")))
    if len(tp) != 1 or len(pp) > 1:
        return None
    n = next(iter(tp)) * (next(iter(pp)) if pp else 1)
    return n if n >= 2 else None


#: a table column of a run's parallel sizes, the row's devices ("TP", "TP x EP" over "2x2", "DP x TP" over
#: "2x4", "TP size", "PP"): its key as ``other.`` writes it, each part a size
_PARALLEL_COLUMN = re.compile(
    r"(?:tp|dp|pp|ep)(?:_size|_degree)?(?:_(?:x|×)_(?:tp|dp|pp|ep))*|tensor_parallel(?:_size)?"
)


def parallel_rows(entries: list, groups: list) -> None:
    """Give each table row whose parallel sizes its columns state (``_PARALLEL_COLUMN``) the count of
    its devices in its machine's name, where the machine has none ("AMD Instinct MI300X" with "| TP x EP
    | 4x4 |" -> "4x AMD Instinct MI300X"; "| TP | PP |" over "4 | 2" -> 8x): TP × DP × PP devices, as
    SGLang, vLLM and TensorRT-LLM lay them out (an EP runs inside them); a row of one device, or with
    no TP column, gets no count; so does any claim whose launch line set ``other.tp`` ("--tp 2" on an
    H20 the prose names: "2x NVIDIA H20").  In place."""
    by_id = {g.id: g for g in groups}
    for e in entries:
        if e.kind != "claim":
            continue
        own = e.fields.get("conditions") or {}
        shared = (by_id[e.group].fields.get("conditions") or {}) if e.group in by_id else {}
        # (a launch line's "--tp 2" under ``other`` of the claim or of its table's group)
        other: dict = {
            **(shared["other"] if isinstance(shared.get("other"), dict) else {}),
            **(own["other"] if isinstance(own.get("other"), dict) else {}),
        }
        sizes: dict[str, int] = {}
        columns = False  # whether a table's column stated them (a row's whole layout)
        for key, value in other.items():
            if not _PARALLEL_COLUMN.fullmatch(str(key)):
                whole = _PARALLEL.fullmatch(str(value).strip())
                if whole is not None and not whole.group("p"):  # a "Config" cell "TP8", "tp=4"
                    sizes["tp"] = int(whole.group("n"))
                continue
            parts = re.findall(r"tp|dp|pp|ep|tensor", str(key))
            cells = re.fullmatch(
                r"\s*(?:tp|dp|pp|ep)?\s*(\d{1,2})(?:\s*[x×*]\s*(\d{1,2}))*\s*", str(value), re.I
            )
            numbers = [int(x) for x in re.findall(r"\d{1,2}", str(value))] if cells else []
            if len(numbers) != len(parts):
                continue
            for part, n in zip(parts, numbers, strict=True):
                sizes["tp" if part == "tensor" else part] = n
            # (a table row's own cell, not a launch line's "--tensor-parallel-size 8" beside a
            # "--pipeline-parallel-size 2")
            columns = e.group is not None and key in (own.get("other") or {})
        if "tp" not in sizes:
            continue
        n = sizes["tp"] * sizes.get("dp", 1) * sizes.get("pp", 1)
        hardware = own.get("hardware") or shared.get("hardware")
        if not isinstance(hardware, str):
            continue
        counted = re.match(r"(\d+)x (.+)", hardware)
        if counted is not None and columns and n < int(counted.group(1)):
            # "8x NVIDIA GeForce RTX 5090" in the setup, "| TP | 1 |" in the row: the run used one card
            # of the machine ("4 | 1" under "| TP | PP |" on eight: four), not all of them (a launch
            # line's "--tp 8" beside a "--pipeline-parallel-size" this reads no size of: kept)
            card = counted.group(2)
            e.fields.setdefault("conditions", {})["hardware"] = card if n == 1 else f"{n}x {card}"
            continue
        if n < 2 or counted is not None:
            continue
        e.fields.setdefault("conditions", {})["hardware"] = f"{n}x {hardware}"


#: a setup's count of its GPUs: a count's label ("数量： 2", "GPU count: 4", "Number of GPUs: 8",
#: "卡数：2") or a GPU label's line ending in a count after a comma ("显卡：NVIDIA A800 80GB PCIe, 2")
_DEVICE_COUNT = re.compile(
    r"(?:数量|卡数|显卡数|GPU\s*count|number\s+of\s+(?:gpus|cards))\s*[:：]\s*(?P<n>[1-9])(?!\d|\.\d)"
    r"|^\s*(?:显卡|GPUs?|Graphics)\s*[:：][^,，\n]+[,，]\s*(?P<m>[1-9])\s*$",
    re.IGNORECASE,
)


def _counted_devices(lines: list[tuple[int, str]], out: list[tuple[str, object]]) -> list[tuple[str, object]]:
    """``out`` with the machine of a device list counted: two or more devices of one name listed by
    number (``_DEVICE_LINE``: "Device 0: AMD Instinct MI100", "Device 1: AMD Instinct MI100") are
    "2x AMD Instinct MI100" (SOURCES.md: several devices of one kind are the count in the hardware
    name), in place of the one device's name; so is the one machine ``out`` names where the lines state
    the run's parallel sizes (``parallel_count``: "H200 | TP=8" -> "8x NVIDIA H200"); ``out`` as it is
    otherwise."""
    machines = {v for p, v in out if p == "hardware"}
    if len(machines) == 1 and not re.match(r"\d+x ", str(next(iter(machines)))):
        n = parallel_count(" ".join(t for _, t in lines))
        # (or a setup's count of them: "显卡：NVIDIA A800 80GB PCIe, 2", "A800-80GB 数量： 2", "GPU count: 4")
        counts = {int(m.group("n") or m.group("m")) for _, t in lines for m in _DEVICE_COUNT.finditer(t)}
        if n is None and len(counts) == 1 and (k := counts.pop()) > 1:
            n = k
        if n is not None:
            return [(p, f"{n}x {v}" if p == "hardware" else v) for p, v in out]
    listed: dict[str, set[str]] = {}
    for _, t in lines:
        m = _DEVICE_LINE.match(t)
        if m is None:
            continue
        named = [x.value for x in mentions(m.group("name")) if x.path == "hardware"]
        if named:
            listed.setdefault(str(named[0]), set()).add(m.group("a") or m.group("b"))
    if len(listed) != 1:
        return out
    name, numbers_listed = next(iter(listed.items()))
    if len(numbers_listed) < 2 or re.match(r"\d+x ", name):
        return out
    counted = f"{len(numbers_listed)}x {name}"
    return list(dict.fromkeys((p, counted if p == "hardware" and v == name else v) for p, v in out))


#: a llama.cpp tool named in prose: beside its flags ("llama-cli with `-ngl 99 -n 128`"), over its
#: output ("Log excerpt from llama-server (4090, …):")
LLAMA_TOOL_NAMED = re.compile(r"(?<![\w-])llama-(?:cli|server|run|simple|bench)(?![\w-])")


def flag_settings(flags: str, tool: str = "flags") -> list[tuple[str, object]]:
    """The ``(path, value)`` settings of flags written with no tool (``FLAGS_ONLY``: "-fa on -ctk
    q8_0", a setup list's "--ctx-size 128000"), as a command line's flags give them, no engine;
    ``tool`` the tool the words around them name ("llama-cli with `-ngl 99 -p 512 -n 128`": its "-n"
    a cap), else "flags"."""
    try:
        words = shlex.split(flags)
    except ValueError:
        words = flags.split()
    cond = conditions_of(tool, words)
    cond.pop("engine", None)
    got: list[tuple[str, object]] = []
    _command_names(cond, got)
    return got


def _own_words(text: str) -> str:
    """``text`` with each sentence that quotes someone else's number (``draftcore.origin_of``:
    "Someone on r/LocalLLaMA got 58 tok/s on an RTX 4090") blanked, its length kept: what another
    author ran on is no condition of the post's own claims (module doc: quoted claims get none,
    and give none)."""
    if not origin_of(text):
        return text
    parts = re.split(r"(?<=[.!?。！？])(\s+)", text)
    return "".join(" " * len(p) if origin_of(p) else p for p in parts)


#: a llama.cpp build as its tools print it, its number and commit: llama-bench's "build: 5635
#: (3069e3169)" (older builds "build: 32d9f7d9 (1786)"), ``--version``'s "version: 5635 (3069e3169)",
#: a setup list's "llama-server: 9187 (0253fb21f)", in a log or quoted in prose ("(build: `5635
#: (3069e3169)`)"); the value as printed
_BUILD_LINE = re.compile(
    # or under llama.cpp's or its tool's name in a setup list ("llama.cpp / llama-server: 9187 (0253fb21f)")
    # ("llama.cpp build e9fd8dc (7825)": no colon, the pair in parentheses says what it is)
    r"(?:\b(?:build|version)|(?<![\w-])(?:llama\.cpp|llama-server|llama-cli|llama-bench))(?:\s*[:=]\s*|\s+)`?(?P<v>(?:\d{3,5}|(?=[a-f]*\d)[0-9a-f]{7,40})\s?\((?:\d{3,5}|(?=[a-f]*\d)[0-9a-f]{7,40})\))",
    re.IGNORECASE,
)


#: git log's line of the commit built ("commit e0c93af2a03f5c53d052dfaefd86c06ed3784646 (HEAD -> master)",
#: an issue template's version block): its first 8 hex digits, as a short sha is written
_GIT_LOG_COMMIT = re.compile(r"(?<![\w-])commit\s+(?P<c>[0-9a-f]{8})[0-9a-f]{32}(?![\w])")


#: a link to a commit of a repository on GitHub and similar forges ("[commit](https://github.com/
#: owner/repo/commit/502f6808b8073b87...)"): the build a lead-in says its numbers ran
_COMMIT_LINK = re.compile(r"https?://[\w.-]+/[\w.-]+/(?P<repo>[\w.-]+)/commit/(?P<sha>[0-9a-f]{7,40})\b")


#: ``--version``'s print since llama.cpp numbered its releases ("version: 0.1.0-dev (build 10444, commit
#: 037f2f344)"): the build number and commit, written as the older print writes them ("10444 (037f2f344)")
_BUILD_PRINT = re.compile(
    r"\bversion:\s*[\w.+-]*\s*\(\s*build\s+(?P<n>\d{3,6})\s*,\s*commit\s+(?P<c>(?=[a-f]*\d)[0-9a-f]{7,40})\s*\)",
    re.IGNORECASE,
)


#: KoboldCpp's ``--benchmark`` report (koboldcpp.py: "Benchmark Completed - v1.78 Results:", then
#: "Flags: … Threads=8 … BlasBatchSize=512 FlashAttention=True", "Backend: koboldcpp_cublas.dll",
#: "Layers: 59", "Model: Cydonia-22B-v1.3.i1-IQ4_XS", "MaxCtx: 16384", "GenAmount: 100") and its console's
#: "Processing Prompt [BLAS] (16284 / 16284 tokens)"
_KOBOLD_DONE = re.compile(r"Benchmark Completed - v(?P<v>\d+(?:\.\d+)+)\b")
_KOBOLD_LINE = re.compile(
    r"(?m)^[^\S\n]*(?:(?P<k>Layers|MaxCtx|GenAmount):[^\S\n]*(?P<n>\d+)[^\S\n]*$"
    r"|Backend:[^\S\n]*(?P<b>koboldcpp_\w+?\.(?:dll|so|dylib))\b"
    r"|Model:[^\S\n]*(?P<m>\S+)[^\S\n]*$)"
)
_KOBOLD_FLAG = re.compile(
    r"(?<![\w])(?P<k>Threads|BlasThreads|BlasBatchSize|FlashAttention)=(?P<v>\d+|True|False)\b"
)
_KOBOLD_PROMPT = re.compile(r"Processing Prompt(?: \[BLAS\])? \((?P<n>\d+) / (?P=n) tokens\)")


def _koboldcpp_benchmark(text: str, out: list[tuple[str, object]]) -> None:
    """Add to ``out`` what a pasted KoboldCpp benchmark states of its run (``_KOBOLD_DONE``: engine
    KoboldCpp and the release its results line names, build; ``_KOBOLD_LINE``/``_KOBOLD_FLAG``: the
    layers offloaded, context, tokens generated, threads, BLAS batch size, flash attention, the
    backend its library's name says, the model file's model and quant; ``_KOBOLD_PROMPT``: the
    prompt's tokens, where every request of the block processed the same), nothing where ``text``
    holds no KoboldCpp benchmark."""
    done = _KOBOLD_DONE.search(text)
    prompts = {int(m.group("n")) for m in _KOBOLD_PROMPT.finditer(text)}
    if done is None and not ("CtxLimit:" in text and prompts):
        return
    out.append(("engine", "KoboldCpp"))
    if done is not None:
        out.append(("build", done.group("v")))
    if len(prompts) == 1:  # (requests of several prompt sizes in one block: each its own, none here)
        out.append(("other.prompt_tokens", prompts.pop()))
    for m in _KOBOLD_LINE.finditer(text):
        if m.group("k"):
            out.append((KOBOLD_SETTINGS[m.group("k")], int(m.group("n"))))
        elif m.group("b"):
            backend = kobold_backend(m.group("b"))
            if backend:
                out.append(("backend", backend))
        else:
            model, quant = kobold_model(m.group("m"))
            out += [("model", model)] + ([("quant", quant)] if quant else [])
    for m in _KOBOLD_FLAG.finditer(text):
        if m.group("k") == "FlashAttention":
            out.append(("flash_attn", m.group("v") == "True"))
        elif m.group("v").isdigit():
            out.append((KOBOLD_SETTINGS[m.group("k")], int(m.group("v"))))


def _builds(text: str, out: list[tuple[str, object]]) -> None:
    """Add to ``out`` each llama.cpp build ``text`` prints (``_BUILD_LINE``, ``_BUILD_PRINT``), as
    "number (commit)" or the order printed."""
    for m in _BUILD_LINE.finditer(text):
        out.append(("build", re.sub(r"\s*\(", " (", m.group("v"))))
    for m in _BUILD_PRINT.finditer(text):
        out.append(("build", f"{m.group('n')} ({m.group('c')})"))


def _commit_links(text: str, out: list[tuple[str, object]]) -> None:
    """The build a list's lead-in links (``_COMMIT_LINK``; a link in passing, "see …/commit/…",
    names none): one link is the commit's first 8 hex digits, as a short sha is written
    ("c16cf49c"); links to several repositories' commits (an engine and its compiler) are one
    build, each repository's name and its short sha joined by " + " in the order written."""
    links = list(dict.fromkeys((m.group("repo"), m.group("sha")[:8]) for m in _COMMIT_LINK.finditer(text)))
    if len(links) == 1:
        out.append(("build", links[0][1]))
    elif len({repo for repo, _ in links}) == len(links) > 1:
        out.append(("build", " + ".join(f"{repo} {sha}" for repo, sha in links)))


#: a script's line announcing the run it starts, in words ("Running benchmark on 20 prompts with batch
#: size 10 with max tokens 1024"): its settings
_RUN_BANNER = re.compile(r"\s*(?:Running|Benchmarking|Testing|Starting)\b[^=|]{0,40}\b(?:with|on|using)\b")
#: a benchmark report's line of one setting beside its results (IPEX-LLM's all-in-one csv:
#: "batch_size: 1", "input/ouput tokens: 32-32"): the run's
_REPORT_SETTING = re.compile(
    r"\s*(?:batch[_ ]size|(?:actual\s+)?input\s*/\s*ou?t?put\s+tokens)\s*[:=]\s*[\d-]+\s*$", re.IGNORECASE
)


def _reported(lines: list[tuple[int, str]]) -> list[tuple[str, object]]:
    """What a code block's output reports of the run's machine, build, engine and model
    (``_REPORT_LINE``'s hardware, ``_BUILD_LINE``, vLLM's progress line ``draftmetric.VLLM_PROGRESS``,
    an Ollama tag leading a line of a benchmark script's output: "pxlksr/opencodeinterpreter-ds:6.7b-Q4_K_M
    (5 runs) at …", the settings a script's banner line words, ``_RUN_BANNER``): a declaration of
    the setup, as a "Hardware:" line is."""
    out: list[tuple[str, object]] = []
    # a list of bare tags, three lines or more ("Checking and pulling the following LLM models" over
    # "qwen:1.8b", "phi:2.7b", …): the models fetched, not the one run (h560)
    listed: set[int] = set()
    run: list[int] = []
    for k, (_, t) in enumerate([*lines, (0, "")]):
        if _BARE_TAG.fullmatch(t):
            run.append(k)
            continue
        if len(run) >= 3:
            listed.update(run)
        run = []
    for k, (_, t) in enumerate(lines):
        report = _REPORT_LINE.match(t)
        if report and not report.group("label").lower().startswith("model"):
            out += [(x.path, x.value) for x in mentions(report.group("value")) if x.path == "hardware"]
        _builds(t, out)
        keyed = _ENGINE_VERSION_KEY.match(t)
        if keyed:  # "ollama_version: 0.1.41" (a benchmark script's report): the engine and its release
            out += [("engine", engine_spelled(keyed.group("e"))), ("build", keyed.group("v"))]
        if VLLM_PROGRESS.search(t):  # vLLM's tqdm line ("est. speed input: … toks/s, output: …"): its run
            out.append(("engine", "vLLM"))
        if _RUN_BANNER.match(t) or _REPORT_SETTING.match(t):
            # "Running benchmark on 20 prompts with batch size 10 with max tokens 1024", "batch_size: 1"
            settings_in_words(t, out)
        tag = _LEADING_TAG.match(t) if k not in listed else None
        tagged = ollama_model(tag.group("tag")) if tag and _TAG_NAME.fullmatch(tag.group("name")) else None
        if tagged is not None:
            out.append(("model", tagged[0]))
            if tagged[1]:
                out.append(("quant", tagged[1]))
    return _counted_devices(lines, list(dict.fromkeys(out)))


def _cell_flags(block: Block) -> list[tuple[str, object]]:
    """The settings a setup table's value cells write as flags ("| 参数 | -ngl 99 -t 8 |")."""
    out: list[tuple[str, object]] = []
    for row in block.rows:
        cell = row[-1].strip().strip("`")
        if FLAGS_ONLY.match(cell):
            out += flag_settings(cell)
    return out


#: an Ollama tag (a namespace before it dropped) heading a line of output, with no command before it:
#: the line ends there or a parenthesis follows ("… :6.7b-Q4_K_M (5 runs) at …"; not ``ollama
#: list``'s rows, an id after each tag: installed models, not the one measured); its name a model's
#: (a digit or a dash in it, or a family's: not "elapsed:5m")
_LEADING_TAG = re.compile(
    r"^\s*(?:[\w.-]+/)?(?P<tag>(?P<name>[a-z][\w.-]*):[\w.-]+)\s*(?:$|\()", re.IGNORECASE
)
#: a line that is an Ollama tag alone ("qwen:1.8b", "  - llava:13b")
_BARE_TAG = re.compile(r"\s*(?:[-*]\s+)?(?:[\w.-]+/)?[a-z][\w.-]*:[\w.-]+\s*", re.IGNORECASE)
_TAG_NAME = re.compile(rf"(?i).*[\d-].*|(?:{MODEL_FAMILIES})\w*")
#: a line of pasted output reporting the machine or the model under its label (``_stated``)
#: a banner a script prints over its results, a name between runs of dashes or equals signs
#: ("----- granite4:latest -----", "=== Qwen3-8B Q4_K_M ===")
_BANNER = re.compile(r"^\s*[-=]{3,}\s*(?P<v>[^-=\s][^\n]{0,60}?)\s*[-=]{3,}\s*$")
#: an engine's release under its own key in a script's report ("ollama_version: 0.1.41", "vLLM version:
#: 0.6.3")
_ENGINE_VERSION_KEY = re.compile(
    rf"^\W*(?P<e>{ENGINE_SPELLINGS})[_ ]version\s*[:=]\s*v?(?P<v>\d+(?:\.\d+)+(?:[.+-]?\w+)?|b\d{{3,5}})\b",
    re.IGNORECASE,
)
_REPORT_LINE = re.compile(
    # a JSON key too ('"model": "~/models/mlx-community/Qwen3-0.6B-8bit",')
    # (vLLM's collect_env: "GPU models and configuration : GPU 0: NVIDIA A10", "GPU 0: NVIDIA A100")
    r"^\W*(?:\w+:\s+)?(?P<label>hardware|gpu(?:\s?\d+|\s+models?\s+and\s+configuration|_info|_name)?|device\s?\d*"
    # (a script's keys: "gpu_info: NVIDIA CMP 30HX", "model_name =    mistral:7b")
    r"|model(?:_name)?|"
    r"quantization|ggml_vulkan:\s\d+)(?:\"?\s*[:=]\s*|[^\S\n]{2,}(?=\S))"
    # (or aligned by spaces, a tool's banner: "  GPU      NVIDIA GeForce RTX 4090")
    r"(?P<value>.+)$",
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
    level: float
    head: dict[str, list[object]] = field(default_factory=dict)
    body: dict[str, list[object]] = field(default_factory=dict)
    weak: dict[str, list[object]] = field(default_factory=dict)
    #: what a setup declaration in it states ("Hardware: RTX 3090", "All tests on: ...", a "Setup"
    #: section's list, a key/value configuration table; ``declaration``): it outweighs the body's
    #: passing mentions, here and in the scopes inside (``Context.at``)
    declared: dict[str, list[object]] = field(default_factory=dict)
    children: list[Scope] = field(default_factory=list)
    #: ``decide``'s answers, computed once per path (a post of 2,000 tables asks the post's for each)
    known: dict[str, tuple[bool, object, str]] = field(default_factory=dict)
    #: the children's first lines, for finding the child around a line (``Context.chain``)
    firsts: list[int] = field(default_factory=list)
    #: paths the scope states for itself only, not for the scopes around it
    local: set[str] = field(default_factory=set)
    #: a section over the setup (``_SETUP_HEADING``): all it states is declared
    setup: bool = False
    #: an issue form's "Name and Version" section (``_VERSION_HEADING``): its text is the build
    version: bool = False
    #: a command line stating the settings every run shares (``_COMMON``)
    common: bool = False
    #: a label line's scope (``_label_of``): what it states is its own, never its section's
    label: bool = False
    #: a rule's scope (``_rule_parent``): what follows a thematic break, up to the next one
    rule: bool = False

    def value(self, path: str) -> tuple[bool, object]:
        """Whether the scope decides ``path`` and the value it gives (None: several named)."""
        ok, value, _ = self.decide(path)
        return ok, value

    def decide(self, path: str) -> tuple[bool, object, str]:
        """``value`` with what decided it: "head" (the scope's own heading, caption or command
        line), "declared" (a setup declaration in it) or "body" (what its text mentions)."""
        if path not in self.known:
            self.known[path] = self._value(path)
        return self.known[path]

    def _value(self, path: str) -> tuple[bool, object, str]:
        head = _distinct_of(path, self.head.get(path, []))
        declared = _distinct_of(path, self.declared.get(path, []))
        if len(head) == 1:
            # the title's short name said in full by the setup ("A100" and "NVIDIA A100 40GB PCIe")
            fuller = [v for v in declared if _fuller(v, head[0])]
            if len(fuller) == 1:
                return True, fuller[0], "declared"  # the setup's name for it: a declaration's value
            if path == "build" and not fuller:
                # "LM Studio 0.4" in the title, "LM Studio 0.4.0" in the text: the one version
                # the body writes in full
                fuller = [v for v in _distinct(self.body.get(path, [])) if _fuller_version(v, head[0])]
            if path == "hardware" and not fuller and isinstance(head[0], str):
                # "… for MI300X" in the title, "on 8xMI300X (tp8)" in the text: the title names the
                # card, the text how many ran
                counted = re.compile(r"\d+x " + re.escape(head[0]))
                fuller = [v for v in _distinct(self.body.get(path, [])) if counted.fullmatch(str(v))]
            return True, (fuller[0] if len(fuller) == 1 else head[0]), "head"
        if head:
            return True, None, "head"
        if declared:
            return True, (declared[0] if len(declared) == 1 else None), "declared"
        body = _distinct_of(path, self.body.get(path, []))
        every = _distinct_of(path, [*body, *self.weak.get(path, [])])
        if not every:
            return False, None, "body"
        one = every[0] if len(every) == 1 and _key(every[0]) in {_key(v) for v in body} else None
        return True, one, "body"


def _fuller_version(version: object, short: object) -> bool:
    """Whether ``version`` is ``short`` with more of its parts ("0.4.0" of "0.4", "v1.2.3" of
    "v1.2"): one release written short and in full."""
    if not isinstance(version, str) or not isinstance(short, str):
        return False
    return re.fullmatch(re.escape(short) + r"(?:\.\d+)+", version) is not None


def _fuller(name: object, short: object) -> bool:
    """Whether ``name`` says what ``short`` says and more (``_key`` words: "NVIDIA A100 40GB PCIe"
    of "NVIDIA A100"); False for anything but two names."""
    if not (isinstance(name, str) and isinstance(short, str)):
        return False
    return set(str(_key(short)).split()) < set(str(_key(name)).split())


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
            # (a laptop's part is another chip: "RTX 3060" is no short "RTX 3060 Laptop GPU")
            if words[i] < words[j] and not (words[j] - words[i]) & {"laptop", "mobile"}:
                fuller += 1
                if fuller > 1:
                    break
        if fuller != 1:
            out.append(v)
    return out if out else one


def clause_engines(text: str) -> set[object]:
    """The engines ``text`` (a title) names each in a clause stating a rate of its own, beside
    another clause stating a rate and naming no engine ("… achieves 1.5 tokens/s, while LM Studio
    can reach 65 tokens/s": LM Studio's is the second rate only, the first the post's own engine's);
    none where the rates' clauses all name one or no clause is without."""
    bounds = clause_bounds(text)
    said = mentions(text)
    clauses = []
    for a, b in zip(bounds, bounds[1:], strict=False):
        part = text[a:b]
        rated = any(family(n.unit) == "rate" for n in numbers(part))
        engines = {m.value for m in said if m.path == "engine" and a <= m.start < b}
        if rated:
            clauses.append(engines)
    if len(clauses) < 2 or all(clauses):
        return set()
    return {e for c in clauses for e in c}


def named_once(found: list[Mention], skip: frozenset[str] = frozenset()) -> dict[str, object]:
    """path -> value of each path ``found`` (``mentions`` of one heading or label, in order) names
    with one value (``_distinct``: a name said short and in full is one, given in full; an engine by
    its own name: "llama.cpp" and "llama-cpp-python" are two); a path
    named with two values ("# MLX vs llama.cpp on M2 Max": two engines) is left out, as a scope
    naming several decides none (``Scope._value``). ``skip``: paths not taken."""
    values: dict[str, list[object]] = {}
    for m in found:
        if m.path not in skip:
            values.setdefault(m.path, []).append(m.value)
    return {path: one[0] for path, vs in values.items() if len(one := _distinct_of(path, vs)) == 1}


def _distinct_of(path: str, values: list[object]) -> list[object]:
    """``_distinct`` of a path's values, but an engine's by its own name: "llama.cpp" and
    "llama-cpp-python" are two engines, not one said short and in full."""
    if path == "engine":
        return list({_key(v): v for v in reversed(values)}.values())[::-1]
    if path == "quant":
        # "4bit" and "4-bit" (a repository's name and its card's words): one quantisation
        bits = re.compile(r"(?i)^(\d{1,2})[\s-]?bits?$")
        values = [bits.sub(r"\1bit", v) if isinstance(v, str) else v for v in values]
        # "native MXFP4 quantization" and "At 4-bit precision": the bit width of the format named
        # is no other quantisation ("int4", "NVFP4" alike; not a GGUF type's, ``_BIT_WIDTH``)
        widths = {_bit_width(v) for v in values if not (isinstance(v, str) and bits.match(v))}
        values = [v for v in values if not (isinstance(v, str) and bits.match(v) and int(v[:-3]) in widths)]
    return _distinct(values)


#: the weights' bit width a number format's name writes ("MXFP4", "NVFP4", "int4", "W4A16", "fp8",
#: "bf16"): the digits after its kind; llama.cpp's types are none ("4bit" beside "Q4_K_M" is MLX's
#: 4-bit conversion beside a GGUF, two formats)
_BIT_WIDTH = re.compile(r"(?i)^(?:mx|nv)?(?:fp|int|nf|w|bf)(\d{1,2})(?![\d.])")


def _bit_width(quant: object) -> int | None:
    """The weights' bit width a quantisation's name writes (``_BIT_WIDTH``), else None."""
    m = _BIT_WIDTH.match(quant) if isinstance(quant, str) else None
    return int(m.group(1)) if m else None


def _key(v: object) -> object:
    """A value compared for "two different values" (names by their lower-case words; a dot between
    digits stays in its word: "Qwen3.5-4B" is no fuller "Qwen3-4B", a version is one word)."""
    if not isinstance(v, str):
        return (type(v), v)
    return re.sub(r"(?:(?<!\d)\.|\.(?!\d)|[^\w.]|_)+", " ", v.lower()).strip()


#: the label a setup declaration starts with (``declaration``): the machine, the software, the
#: setup as a whole ("Hardware:", "**GPU**:", "Test rig:", "Environment:", "llama.cpp version:", "All
#: tests on:", "All benchmarks:", 硬件：, 测试环境：, 検証環境：, Оборудование:, 환경:)
_DECLARATION_LABEL = (
    r"(?:(?:my|our|the|test(?:ing)?|benchmark|compute|host|inference)\s+)?(?:hardware|gpus?|cpu|system|set-?up|rig|machine|"
    r"environment|env|platform|build|engine|inference\s+engine|backend|runtime|software|"
    r"config(?:uration)?|device|specs?|host|model|quant(?:i[sz]ation)?|test\s?bed|(?:[\w.]+\s+)?version|"
    # the run's settings ("Settings: …"; "Context: 131,072 tokens · Flash Attention · …", a context's
    # size first: "Context: I was testing …" is a story's background)
    r"settings|context(?=[*_]*\s*[:：=]\s*[*_]*\s*\d))"
    r"|all\s+(?:tests?|benchmarks?|runs?|numbers|results|measurements)(?:\s+(?:were\s+)?(?:run|done|made))?"
    r"(?:\s+(?:on|with))?"
    r"|硬件|环境|测试环境|测试平台|平台|配置|显卡|引擎|后端|ハードウェア|環境|検証環境|実行環境|マシン"
    r"|оборудование|железо|система|конфигурация|стенд|하드웨어|환경|시스템"
)
_DECLARATION = re.compile(
    rf"^[\s>*_|•·-]*(?:\d+[.)]\s*)?[*_]*(?:{_DECLARATION_LABEL})[*_]*\s*(?:[:：=]|\s[-–—]\s)", re.IGNORECASE
)
#: a heading over the setup ("Setup", "Test setup", "Hardware", "System", "Environment", "My rig",
#: "Specs", "Configuration", "测试环境与模型配置", "検証環境", "Тестовый стенд"): what its section
#: states is declared
_SETUP_HEADING = re.compile(
    r"\b(?:set-?up|hardware|system|environment|test\s?rig|rig|specs?|specifications|configuration|"
    r"test\s?bed|machine|platform|"
    # the commands every result ran ("## Commands", "Launch command", "How I ran it", "Reproduce")
    r"commands?|command\s+lines?|launch(?:\s+commands?)?|how\s+I\s+ran\s+it|reproduc\w*)\b|"
    r"环境|硬件|配置|環境|ハードウェア|оборудование|стенд|конфигурац|환경|하드웨어|命令|コマンド",
    re.IGNORECASE,
)


#: a heading over the machines' specifications ("Hardware", "Specs", "Mac mini 硬件配置概览", "スペック")
_SPEC_HEADING = re.compile(
    r"\b(?:hardware|specs?|specifications?)\b|硬件|ハードウェア|スペック|사양|하드웨어|оборудован",
    re.IGNORECASE,
)


def spec_heading(title: str) -> bool:
    """Whether a heading is over the machines' specifications (``_SPEC_HEADING``): a short title of
    at most five words naming hardware or specs ("## Hardware", "## 一、Mac mini 硬件配置概览"; not
    "## Setup" or "## Environment", whose tables state what the runs used)."""
    return bool(_SPEC_HEADING.search(title)) and len(title.split()) <= 5


def setup_heading(title: str) -> bool:
    """Whether a heading is over the setup (``_SETUP_HEADING``): a short title of at most five words
    ("Test setup", "## 2. Hardware and software", "测试环境与模型配置"), not a longer one using the word
    otherwise ("1. System causal model and hard constraints")."""
    words = re.findall(r"[^\W\d_]+", title)
    return bool(_SETUP_HEADING.search(title)) and len(words) <= 5


#: an issue form's heading over the build the reporter ran (llama.cpp's and its forks' bug template:
#: "### Name and Version")
_VERSION_HEADING = re.compile(
    # (an engine's version, as an issue template asks it: "### Ollama version" over "0.4.7")
    r"[#\s]*(?:name\s+and\s+|(?:" + ENGINE_SPELLINGS + r")\s+)?version\s*",
    re.IGNORECASE,
)


#: a git commit's hash, abbreviated or full, with a digit and a letter (not a number, not a word)
_COMMIT_HASH = re.compile(rf"(?<![\w/.-]){HEX_COMMIT}(?![\w/.-])")


def _version_named(lines: list[tuple[int, str]]) -> list[tuple[str, object]]:
    """The build a "Name and Version" section's text names: a printed build ("version: 5635
    (3069e3169)", ``_BUILD_LINE``) or a build number, else the one short line as written ("main
    -head", "b4365 onward"), else the one commit it names ("05e141a6… is the first bad commit");
    nothing for a longer text."""
    out: list[tuple[str, object]] = []
    text = " ".join(t for _, t in lines)
    _builds(text, out)
    commits = set(_COMMIT_HASH.findall(text))
    # (a text saying "commit" only, and naming no release nor build number beside it: "version: b10068
    # (571d0d54)", "vLLM v0.10.1rc1 on commit 9f8e7d6c", "Ollama 0.6.2 … driver deadbeef1", an
    # `ollama ps` model id)
    if (
        not out
        and len(commits) == 1
        and re.search(r"(?i)\bcommit\b", text)
        and not re.search(r"(?i)\bversion\s*:|(?<![\w.])b\d{3,5}\b|(?<![\w.])v?\d+\.\d+", text)
    ):
        out.append(("build", commits.pop()))
        return out
    if not out and len(lines) == 1 and 0 < len(text.strip()) <= 40:
        out.append(("build", text.strip()))
    return out


#: a word of a GPU or its backends: a post with none ran on the CPU
_GPU_WORD = re.compile(
    r"GPU|CUDA|Metal|Vulkan|ROCm|HIP\b|SYCL|OpenCL|显卡|顯卡|グラボ|видеокарт", re.IGNORECASE
)


def _cpu_only(post: Post, root: Scope) -> list[tuple[str, object]]:
    """What a post that runs on the CPU alone declares: it says "CPU" (or names a CPU) and names no
    GPU, no GPU backend and no machine (``_GPU_WORD``, ``mentions``): backend CPU, and the one CPU
    it names by model as the hardware; nothing for any other post."""
    if _GPU_WORD.search(post.text) or any(root.value(p)[0] for p in ("hardware", "backend")):
        return []
    if any(m.path == "hardware" for m in mentions(post.text)):
        return []  # a GPU named where no scope reads it ("RTX 4090: 52 t/s" beside "CPU: 5.2 t/s")
    cpus = list(dict.fromkeys(cpu_name(m) for m in CPU.finditer(post.text)))
    if not cpus and not re.search(r"\bCPU\b", post.text):
        return []
    out: list[tuple[str, object]] = [("backend", "CPU")]
    if len(cpus) == 1:
        # (counted where the post counts it: "dual Epyc 9175F" is "2x AMD EPYC 9175F", ``cpu_names``)
        counted = [c for c in cpu_names(post.text) if re.fullmatch(rf"\d+x {re.escape(cpus[0])}", c)]
        out.append(("hardware", counted[0] if len(counted) == 1 else cpus[0]))
    return out


#: a pull request by its number ("Pull Request #22673", "PR #518", "pull request #518", ".../pull/518")
_PR_NUMBER = re.compile(
    r"\b(?:pull\s+request|PR)\s*#\s*(?P<n>\d{1,6})\b|/pull/(?P<u>\d{1,6})\b", re.IGNORECASE
)
#: the words of a post that ran the pull request it discusses ("with this PR", "benchmarked this PR")
_THIS_PR = re.compile(r"\bthis\s+(?:PR|pull\s+request)\b", re.IGNORECASE)


def _tested_pr(text: str, title: str) -> list[tuple[str, object]]:
    """The build a paragraph says it ran when it says "this PR": the pull request it names by
    number, else the one the title names ("(… pull request #518)"), as ``PR #N``; nothing when it
    says no "this PR" or names several."""
    if not _THIS_PR.search(text):
        return []
    found = {m.group("n") or m.group("u") for m in _PR_NUMBER.finditer(text)}
    if not found:
        found = {m.group("n") or m.group("u") for m in _PR_NUMBER.finditer(title)}
    return [("build", f"PR #{found.pop()}")] if len(found) == 1 else []


#: what only llama.cpp (and its forks) prints or ships: llama-bench's markdown header, its tools'
#: names, its timing lines
_LLAMA_OUTPUT = re.compile(
    r"\|\s*model\s*\|\s*size\s*\|\s*params\s*\|\s*backend\s*\||(?<![\w-])llama-(?:bench|server|cli|"
    r"batched-bench|perplexity|speculative(?:-simple)?)(?![\w-])|llama_perf_context_print|llama_print_timings",
    re.IGNORECASE,
)
#: llama-sweep-bench, the tool only ik_llama.cpp ships (its table's "N_KV | T_PP s" columns too)
_IK_TOOL = re.compile(r"(?<![\w-])(?:llama-)?sweep[- ]bench\b|\bN_KV\s*\|\s*T_PP\b", re.IGNORECASE)


#: the words over a command line that every run shares ("Common flags:", "Shared args", "for all
#: runs", "every test used", "base command")
_COMMON = re.compile(
    r"\b(?:common|shared)\s+(?:flags|args|arguments|options|settings|command|params|parameters)\b"
    r"|\b(?:all|every)\s+(?:runs?|tests?|benchmarks?|configs?|arms)\s+(?:use[ds]?|share[ds]?)?"
    r"|\bbase\s+(?:command|flags|args)\b",
    re.IGNORECASE,
)


#: a first-person sentence that sets up the engine it names next ("I set up vLLM on my RTX 5090",
#: "We ran everything on llama.cpp", "I used SGLang 0.4 for all runs"): the engine the post ran
_SET_UP = re.compile(
    r"(?:^|(?<=[.!?:;]\s))\s{0,3}(?:I|We|I've|We've)\s{1,3}(?:(?:first|then|also)\s+)?"
    r"(?:set\s+up|setup|ran|run|used|use|installed|deployed|served|benchmarked)\s+"
    r"(?:(?:it|everything|all\s+(?:runs|tests)|the\s+models?|both(?:\s+\w+)?)\s+(?:on|with|using|in|through)\s+)?"
    r"(?P<rest>.{0,60})"
)


def _set_up_engine(text: str) -> list[tuple[str, object]]:
    """The engine a first-person setup sentence of ``text`` names first after its verb (``_SET_UP``),
    as ``[("engine", name)]``; nothing where no such sentence names one, names another engine too
    ("I used Ollama for months, but for this test I switched to llama.cpp") or says the engine did
    not run ("I tried SGLang but it crashed": ``_NOT_RUN``)."""
    for m in _SET_UP.finditer(text):
        if _NOT_RUN.search(m.group(0)):
            continue
        found = [x for x in mentions(m.group("rest")) if x.path == "engine"]
        end = _SENTENCE_END.search(text, m.start("rest"))
        sentence = text[m.start("rest") : end.start() if end else len(text)]
        if len({x.value for x in mentions(sentence) if x.path == "engine"}) > 1:
            continue  # "We used Ollama to pull the GGUF, then benchmarked it with llama.cpp": not one
        if found and found[0].start <= 3:
            return [("engine", found[0].value)]
    return []


def declaration(text: str) -> bool:
    """Whether a line declares the setup under its label (``_DECLARATION``: "Hardware: RTX 3090",
    "- **Engine**: llama.cpp b4000", "All tests on: RTX 5080, llama.cpp b9204", "硬件：RTX 4090"); a
    sentence that names a machine in passing ("if you have a 12 GB card") is none, and so is a line
    about a device the runs leave out (``_NOT_USED``: "Non-compute GPU: …, excluded")."""
    m = _DECLARATION.match(text)
    if m is None or _NOT_USED.search(text):
        return False
    # a result under a device's label ("CPU: 5.2 t/s", "GPU: 41 tok/s"): a measurement, no setup
    return not any(family(n.unit) in ("rate", "time") for n in numbers(text[m.end() :]) if n.unit)


#: a sentence's end: a full stop, "!" or "?" before a space and a capital or the line's end
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\"'*])|(?<=[。！？])")


#: words saying a listed setup is not what ran ("my other box", "but I didn't test on it", "things I
#: tried that did not help")
_NOT_RUN = re.compile(
    r"(?i)\b(?:didn't|did not|haven't|have not|never|untested|not tested"
    r"|other\s+(?:box|machine|rig|pc|system)|tried that|didn't help|no help)\b"
)


def settings_sentences(text: str) -> list[str]:
    """The sentences of a prose line that list the setup without a label (``declaration`` reads
    labelled ones): four or more parts between commas or semicolons, at least half of them naming
    a condition (``stated``, ``_features``: "Qwen3.8-27B Q4_0, llama.cpp b10450 SYCL, single Arc Pro
    B70, q4_0 K and V cache, flash attention on, speculative decoding off, n_ctx 262144, 200 tokens
    generated per row, one run."), and no measurement (a number with a unit of a rate, a time or a
    multiple: "the 3090 ran at 24 tok/s, the 4090 at 41 tok/s, ..." compares, it declares nothing),
    three conditions or more, each with one value ("Ollama, vLLM, and llama.cpp" are the arms of a
    comparison)."""
    out = []
    for sentence in _SENTENCE_END.split(text):
        parts = [p for p in re.split(r"[,;，；]\s*", sentence) if p.strip()]
        if len(parts) < 4:
            continue
        if any(family(n.unit) in ("rate", "time", "ratio", "multiple") for n in numbers(sentence)):
            continue
        if _NOT_RUN.search(sentence) or _NOT_USED.search(sentence):
            continue  # "My other box is an RTX 3060, … but I didn't test on it": no setup of the runs
        said = [stated([(0, p)], "text") + _features(p) for p in parts]
        values: dict[str, set] = {}
        for path, value in (x for got in said for x in got):
            values.setdefault(path, set()).add(str(value))
        # one value of each: "Ollama, vLLM, and llama.cpp" lists the arms of a comparison
        if 2 * sum(1 for got in said if got) >= len(parts) and len(values) >= 3:
            if all(len(v) == 1 for v in values.values()):
                out.append(sentence)
    return out


#: a setup line about a device the runs do not use ("Non-compute GPU: …, excluded from compute",
#: "Display GPU: …", "unused")
_NOT_USED = re.compile(
    r"\bnon-?(?:compute|inference)\b|\bexcluded\b|\bunused\b|\bnot used\b|\bdisplay\b", re.I
)


#: flash attention named as a feature the setup uses ("llama.cpp (FlashAttention + CUDA Graph)",
#: "Flash Attention, CUDA graphs"); "no"/"without"/"off"/"disabled" around it names it off
_FEATURE_FA = re.compile(r"(?<![\w-])(?:--)?flash[\s_-]?att(?:ention|n)\b", re.IGNORECASE)
_FEATURE_OFF = re.compile(
    r"\b(?:no|not|without|w/o)\s+$|^\s*[:=]?\s*(?:off|disabled|0|false)\b"
    # (a remark in parentheses after it saying so: "Flash Attention (not supported on this GPU)")
    r"|^\s*[(（][^()（）]{0,12}\b(?:not|no|off|disabled|unsupported|n't)\b",
    re.IGNORECASE,
)


#: a setup declaration saying the runs draft nothing ("Spec decoding: none", "| Speculative decoding |
#: off |", "Draft model: n/a", "MTP: disabled")
_DECODING_OFF = re.compile(
    r"\b(?:spec(?:ulative|ulation)?(?:[ _-]decoding)?|draft(?:ing|[ _-]model)?|MTP)\s*[:=|]?\s*"
    r"(?:none|off|disabled|no|n/a|not used)(?![\w-])",
    re.IGNORECASE,
)
#: a run of flags inside a setup declaration's words ("| Runtime | llama.cpp, --flash-attn on, --jinja |",
#: "Settings: -ngl 99 -c 32768, one slot"): each flag and its value, up to a comma, a semicolon or a
#: closing bracket
_INLINE_FLAGS = re.compile(
    r"(?<![\w-])(?:{flag})(?:\s+(?:{flag}))*".format(flag=r"-{1,2}[A-Za-z][\w-]*(?:[ =](?!-)[^\s,;|)\]]+)?")
)
#: what flags inside a declaration's words may state: the settings, not the model (its ``-m`` file
#: is read where the command is)
_INLINE_PATHS = CARRIED - {"engine", "model", "quant", "hardware", "build", "backend", "prompt"}


#: an item that is a drafting and nothing else: "MTP", "Q4 MTP", "MTP speculative decoding",
#: "speculative decoding", "EAGLE-3", "DFlash", "n-gram drafting", "MTP on"
_DRAFTING_ITEM = re.compile(
    r"(?i)(?:(?:I?Q\d\w*|FP8|BF16|INT8)\s+)?(?:MTP(?:\s+(?:speculative\s+decoding|speculation|drafting))?"
    r"|speculative\s+decoding|spec(?:ulative)?\s+decode|EAGLE[- ]?\d?|DFlash\d?"
    r"|n-?gram\s+(?:drafting|speculation))"
    r"(?:\s+(?:on|enabled))?"
)
#: words saying a drafting is not what ran ("MTP not supported", "could not get MTP to load", "a
#: draft model would not fit", "comes in part 2", "MTP layers stripped", "heads ignored")
_NOT_DRAFTED = re.compile(
    r"(?i)\b(?:not|no|n't|without|w/o|off|disabled|unsupported|stripped|ignored|removed|later|next|will|"
    r"try|tried|plan\w*|part\s+\d|ships?|module|layers|heads)\b"
)
#: words of a comparison in a setup's line ("plain vs MTP", "with and without a draft"): no one decoding
_COMPARED = re.compile(
    r"(?i)\bvs\.?\b|\bversus\b|\bbaseline\b|\bwithout\b|\bcompar\w*|\band\s+no\b|对比|比较"
)
#: the separators of a setup listed on one line ("A | B | C", "A, B, C", "A · B")
_LIST_SEPARATOR = re.compile(r"\s[|·•]\s|,\s|;\s|[:：]\s")
#: a number format alone as a listed item ("FP8", "BF16", "INT4", "W8A8")
_LISTED_FORMAT = re.compile(r"(?i:fp8|fp16|bf16|int8|int4|fp4|nvfp4|mxfp4|w8a8|w4a16|w4a8)")
_CACHE_WORD = re.compile(r"(?i)\bkv\b|cache")


#: a setup declaration's item that is the batch size alone ("batch 512", "n_batch = 2048", "batch
#: size: 8"): a serving engine's is its concurrency (``serving_batch``)
_BATCH_ITEM = re.compile(r"(?i)(?:n_?batch|(?:prompt[ _-]?)?batch(?:[ _-]?size)?)\s*[:=]?\s*(\d{1,5})")
#: the tokens a run may generate listed as an item of its setup ("Output 128", "max output 256")
_OUTPUT_ITEM = re.compile(
    r"(?i)(?:max(?:imum)?[ _-]?)?(?:output|max[ _-]?tokens|n_predict)\s*[:=]?\s*(\d{1,6})"
)


def _features(text: str) -> list[tuple[str, object]]:
    """What a setup declaration's words switch on by naming it (``_FEATURE_FA``): ``flash_attn``
    True for "FlashAttention" in "Engine: llama.cpp (FlashAttention + CUDA Graph)" or "--flash-attn
    on", False for "no flash attention" or "flash attention: off"; nothing where it is not named.
    Its ``decoding``: plain where it says drafting is off (``_DECODING_OFF``), else the one kind of
    drafting its items list (``_DRAFTING_ITEM``: "vision + Q4 MTP" -> draft-self), not where it
    compares arms or says the drafting did not run (``_COMPARED``, ``_NOT_DRAFTED``).
    And the settings of the llama.cpp flags its words hold (``_INLINE_FLAGS``: "llama.cpp, -ngl 99,
    -c 32768" -> ``offload.n_gpu_layers`` 99, ``ctx`` 32768; ``draftcommand`` reads them), and a
    batch size or a cap on the tokens generated listed as an item (``_BATCH_ITEM``, ``_OUTPUT_ITEM``:
    "Prompt-Batch 1024", "Output 128")."""
    out: list[tuple[str, object]] = []
    if _DECODING_OFF.search(text):
        out.append(("decoding", "plain"))
    elif not _COMPARED.search(text) and not _NOT_DRAFTED.search(text):
        # the drafting a setup lists as one of its items ("Context: 131,072 tokens · Flash Attention
        # · … · vision + Q4 MTP", "Serving: vLLM, MTP speculative decoding"): the runs' decoding,
        # where the items name one kind (not a model file's "-MTP" variant, not two arms, not a
        # drafting said to be off, missing or to come)
        kinds = {
            "draft-self" if m.group("self") else "speculative"
            for listed in _LIST_SEPARATOR.split(text)
            for item in re.split(r"\s\+\s", listed)  # ("vision + Q4 MTP": two features)
            if _DRAFTING_ITEM.fullmatch(item.strip(" *_`."))
            for m in DECODING_PHRASE.finditer(item)
            if not m.group("plain") and not DRAFT_COUNT.fullmatch(m.group(0))
        }
        if len(kinds) == 1:
            out.append(("decoding", kinds.pop()))
    items = [x.strip(" *_`") for x in _LIST_SEPARATOR.split(text)]
    for k, item in enumerate(items):
        if _LISTED_FORMAT.fullmatch(item) and not (k and _CACHE_WORD.search(items[k - 1])):
            # "Config: DeepSeek-R1-0528 | SGLang v0.5.7 | FP8 | TP=8": a number format listed as an
            # item of the setup is the weights' (the cache's would say so: "KV cache | FP8")
            out.append(("quant", item))
    for item in items:
        batch = _BATCH_ITEM.fullmatch(item)
        if batch is not None:  # "Context: 32k tokens, batch 512": an item of the setup
            out.append(("batch", int(batch.group(1))))
        output = _OUTPUT_ITEM.fullmatch(item.rstrip(" *_`."))  # (the sentence's last: "**Output 128**.")
        if output is not None:  # "**Context 4096**, **Output 128**": the tokens it may generate
            out.append(("cap", int(output.group(1))))
    for run in _INLINE_FLAGS.finditer(text):
        flat = flat_paths(conditions_of("flags", run.group(0).replace("=", " ").split()))
        out += [(k, v) for k, v in flat.items() if k in _INLINE_PATHS]
    for m in _FEATURE_FA.finditer(text):
        off = _FEATURE_OFF.search(text[max(0, m.start() - 12) : m.start()]) or _FEATURE_OFF.match(
            text[m.end() :]
        )
        out.append(("flash_attn", not off))
    return out


def _setup_table(block: Block) -> bool:
    """Whether a table is a key/value list of the setup: two columns, and two or more of its first
    column's cells (the header's too) setup labels ("| GPU | RTX 4090 |", "| 引擎 | llama.cpp |",
    "| Setting | Value |" over "| Prompt | 256 tokens in, 256 out |")."""
    if not block.rows or any(len(r) != 2 for r in block.rows):
        return False
    label = re.compile(
        rf"[*_`\s]*(?:{_DECLARATION_LABEL}|model|quant\w*|os|模型|量化|参数|項目|项目"
        # a key/value header ("Setting", "Parameter") and the workload's rows
        r"|settings?|parameters?|params?|workload|prompts?|decoding|sampling|concurrency"
        r"|context(?:\s+(?:length|size|window))?)[*_`\s]*",
        re.I,
    )
    return sum(label.fullmatch(r[0]) is not None for r in block.rows) >= 2


#: a configuration's short id in a legend's first column ("C0", "A", "#3", "R2a", "3")
_CONFIG_ID = re.compile(r"#?[A-Za-z]{0,2}-?\d{1,3}[a-z]?|[A-Z]")


def _legend_table(block: Block) -> bool:
    """Whether a table under a setup heading lists configurations, one a row, not the one setup: three
    columns or more, two rows or more under its header, each row's first cell its own short id
    (``_CONFIG_ID``: "| ID | spec type | args |" over "| C0 | none | - |", "| C1 | draft-mtp |
    `--spec-draft-n-max 3` |": C1's draft size is C1's, no other row's); a setup's "| Component |
    Details | Notes |" over "GPU", "Engine" is the one setup."""
    body = block.rows[1:]
    firsts = [r[0].strip().strip("*_`") for r in body if r]
    return (
        len(body) >= 2
        and all(len(r) >= 3 for r in block.rows)
        and all(_CONFIG_ID.fullmatch(f) for f in firsts)
        and len(set(firsts)) == len(firsts)
    )


def heading_level(post: Post, block: Block) -> int:
    """A heading block's level: 1 for a front matter's title, the count of its ATX "#" marks (inside a
    blockquote too: "> ### Results"), 1 for a setext heading underlined with "=", 2 for any other
    heading (underlined with "-", a bold line read as one: a section under the title)."""
    if block.front:  # the title of a front matter
        return 1
    m = re.match(r"\s*(?:>\s*)*(#{1,6})\s", post.line(block.start))
    if m:
        return len(m.group(1))
    under = block.lines[-1][0] + 1 if block.lines else block.start + 1
    return 1 if re.fullmatch(r"\s*(?:>\s*)*=+\s*", post.line(under)) else 2


#: a label cell naming a setting and its number ("conc=8", "ISL: 1024", "ctx=8k")
_CELL_SETTING = re.compile(r"\s*(?P<k>[A-Za-z][\w .-]{0,22}?)\s*[=:＝]\s*(?P<n>\d+)(?P<x>[kK])?\s*")
#: a table's label cell naming settings by their own shape: "c4"/"C8" (requests at once, as
#: llama-benchy and vLLM's benchmarks label them), a llama-bench test "pp2048 tg128 @ d4096"
_CELL_CONCURRENCY = re.compile(r"\s*[cC](\d{1,4})(?:\s+(?P<w>[^\W\d]+))?\s*")
#: the word after a concurrency label that names how its tokens were chosen ("C1 greedy", "C8 default",
#: "c4 sampled"): the row's ``sampling``, as written
_CELL_SAMPLING_WORD = re.compile(r"greedy|default|sampled|sampling|probabilistic|stochastic|random", re.I)
_CELL_TEST = re.compile(r"\s*(?:pp\s?(\d+)\s*\+?\s*)?tg\s?(\d+)(?:\s*@\s*d(\d+))?\s*", re.IGNORECASE)
#: a llama-bench prompt-processing test alone ("pp512", the old tool's "pp 512", "pp2048 @ d4096")
_CELL_PP = re.compile(r"\s*pp\s?(\d+)(?:\s*@\s*d(\d+))?\s*", re.IGNORECASE)


def is_test_cell(cell: str) -> bool:
    """Whether a label cell is a llama-bench test of one phase or both ("pp512", "tg 128",
    "pp2048 tg128 @ d0", "pp512+tg128": ``_CELL_PP``, ``_CELL_TEST``)."""
    text = cell.strip().strip("*_`")
    return bool(_CELL_PP.fullmatch(text) or _CELL_TEST.fullmatch(text))


def cell_test_metric(cell: str) -> str | None:
    """The metric of a row whose label cell is a llama-bench test (llama-bench's ``test`` column,
    ``llama-bench.cpp``: "pp512" times prompt processing, "tg128" generation): ``prefill_tps`` for a
    pp test alone, ``decode_tps`` for a tg test alone; None for any other cell, a test of both
    ("pp2048 tg128 @ d0": its columns name their phases) included."""
    text = cell.strip().strip("*_`")
    if _CELL_PP.fullmatch(text):
        return "prefill_tps"
    m = _CELL_TEST.fullmatch(text)
    return "decode_tps" if m and m.group(1) is None else None


#: a label cell naming the K and V cache types as a pair ("f16+f16", "q8_0/q4_0", "q4_0 + q4_0"), as a
#: KV-cache benchmark labels its configurations
_KV_TYPE = r"(?:f16|bf16|f32|q8_0|q5_0|q5_1|q4_0|q4_1|iq4_nl|turbo\d)"
_CELL_KV_PAIR = re.compile(rf"\s*(?P<k>{_KV_TYPE})\s?[+/]\s?(?P<v>{_KV_TYPE})\s*", re.IGNORECASE)


def cell_conditions(cell: str) -> dict[str, object]:
    """The conditions a table's label cell states by its shape (``_CELL_SETTING``: "conc=8" ->
    ``concurrency: 8``, "ISL=1024" -> ``prompt: "1024 tokens"``, a known label, ``LABELS``;
    ``_CELL_KV_PAIR``: "q8_0+q8_0" ->
    ``type_k: q8_0``, ``type_v: q8_0``; ``_CELL_CONCURRENCY``: "c4" ->
    ``concurrency: 4``, "C1 greedy" -> 1 and ``sampling: greedy`` (``_CELL_SAMPLING_WORD``);
    ``_CELL_TEST``: "pp2048 tg128 @ d4096" ->
    ``tokens_generated: 128``, ``depth: 4096``), empty when it is no such cell."""
    text = cell.strip().strip("*_`")
    if FLAGS_ONLY.match(text):  # "--spec-draft-n-max 2", "-ngl 99 -fa on": a row of that setting
        try:
            words = shlex.split(text)
        except ValueError:
            words = text.split()
        flat = flat_paths(conditions_of("flags", words))
        return {k: v for k, v in flat.items() if k in CARRIED and k not in ("engine", "model", "quant")}
    run = command_lines([(0, text)])
    if len(run) == 1 and run[0].tool:
        # a row's own command line in a "Command" column ("python3 spec_decode.py --model-dir
        # 'org/Llama-3.1-8B' --num-spec-tokens 4"): its model and settings are the row's
        flat = flat_paths(run[0].conditions)
        return {k: v for k, v in flat.items() if k in CARRIED}
    m = _CELL_SETTING.fullmatch(text)
    if m:
        # "conc=8", "bs: 16", "ISL=1024": a known label (``LABELS``) and its whole number
        path, typ = LABELS.get(label_key(m.group("k")), ("", ""))
        if path and typ in ("int", "tokens") and not path.startswith("other."):
            n = count(m.group("n"), m.group("x")) if m.group("x") else int(m.group("n"))
            if n is not None:
                return {path: n if typ == "int" else f"{m.group('n')}{(m.group('x') or '').upper()} tokens"}
    m = _CELL_KV_PAIR.fullmatch(text)
    if m:
        return {"type_k": m.group("k").lower(), "type_v": m.group("v").lower()}
    m = _CELL_CONCURRENCY.fullmatch(text)
    if m and int(m.group(1)) >= 1:
        word = m.group("w")
        if word and _CELL_SAMPLING_WORD.fullmatch(word):
            return {"concurrency": int(m.group(1)), "sampling": word.lower()}
        return {"concurrency": int(m.group(1))}
    m = _CELL_TEST.fullmatch(text)
    if m:
        out: dict[str, object] = {"tokens_generated": int(m.group(2))}
        if m.group(3) is not None:
            out["depth"] = int(m.group(3))
        return out
    m = _CELL_PP.fullmatch(text)
    if m and m.group(2) is not None:
        return {"depth": int(m.group(2))}  # "pp2048 @ d4096": the prompt processed at that depth
    return {}


#: a value column's header ending in the side of a change it measures ("gen tok/s pre", "TTFT after"):
#: a word of its own after the quantity, never a header of one word
_BEFORE_AFTER = re.compile(r"(?<=\S)\s+(pre|post|before|after)\s*$", re.IGNORECASE)


#: a value column's header opening with "single" before what it measures ("Single TTFT (ms)", "single-user
#: tok/s", "Single-stream decode"): one request at a time (not "Single GPU tok/s": a machine)
_SINGLE_HEADER = re.compile(
    r"^\W*single(?:[- ](?:stream|user|request|batch|sequence|client))?[\s-]+"
    r"(?:ttft|tpot|itl|e2e|latency|decode|prefill|generation|gen|tok|tokens|t/s|throughput|speed|rate)\b",
    re.IGNORECASE,
)


#: a statistic a value column's header names ("Mean TTFT (ms)", "TTFT p50", "P99 ITL", "Avg tok/s"):
#: its values are that statistic of each row's runs or requests (``other.stat``, as toollines' labels)
#: (a tool's key's part too, between underscores: "ttft_ms_p99", "gen_tok_s_mean", "ttft_p95_ms")
_HEADER_STAT = re.compile(r"(?i)(?<![a-z0-9.])(mean|median|avg|average|std|p\d{2,3}(?:\.\d)?)(?![a-z0-9.])")


#: the least or the most of a measured quantity leading a header ("Min Latency", "Max TTFT (ms)"; not
#: "Max tokens", "min context": settings)
HEADER_EXTREME = re.compile(
    r"(?i)^\W*(min|max)(?:imum|inimum)?(?=\s+(?:latency|ttft|tpot|itl|e2el?|time|duration|throughput|speed"
    r"|tok(?:ens)?/s|t/s|decode|prefill)\b)"
)


#: a generation rate's header with the tokens generated in parentheses ("Generation (512 tokens,
#: t/s)", "tg (128 tok)", "Decode (256 tokens)")
_GEN_TOKENS_HEADER = re.compile(
    r"(?i)\b(?:generation|gen|decode|decoding|tg|output)\b[^()]{0,20}\(\s*(?P<n>\d{1,6})\s*(?:tokens?|tok)\b"
)


def header_settings(header: str) -> dict[str, object]:
    """The draft size a value column's header states for its column ("MTP (n_max=6 --spec-draft-p-min
    0.75)", "`n_max:16`", "k=4 tok/s": ``block_max``; a size of 0, the column beside them that drafts
    nothing: ``decoding: plain``), else its requests in flight ("Single TTFT (ms)", ``_SINGLE_HEADER``;
    "8-stream tok/s": ``concurrency``), or the build a header's last word names by its side of the change
    measured ("gen tok/s pre" -> ``build: pre``, ``_BEFORE_AFTER``), with the statistic it names
    ("Mean TTFT (ms)", "TTFT p50": ``other.stat``, ``_HEADER_STAT``); empty when it states none or
    several."""
    gen = _GEN_TOKENS_HEADER.search(header)
    if gen is not None:
        # "Generation (512 tokens, t/s)": the tokens each run of the column generated, and the rest
        rest = header_settings(header[: gen.start("n")] + header[gen.end() :])
        return {**rest, "tokens_generated": int(gen.group("n"))}
    stat = _HEADER_STAT.search(header) or HEADER_EXTREME.search(header)
    if stat is not None:  # "Mean TTFT (ms)", "TTFT p50 (10 req)": the statistic, and the rest
        rest = header_settings(header[: stat.start()] + header[stat.end() :])
        return {**rest, "other.stat": stat_name(stat.group(1))}
    side = _BEFORE_AFTER.search(header)
    if side is not None:
        # "prompt tok/s pre" beside "prompt tok/s post": the build before or after the change the
        # post measures (a pull request's), the word as written
        return {"build": side.group(1).lower()}
    said = stated([(0, header)], "text", heading=True)
    streams = {v for p, v in said if p == "concurrency"}
    if _SINGLE_HEADER.match(header):
        streams.add(1)
    sizes = {v for p, v in said if p == "block_max"}
    if len(sizes) != 1:
        # "Single TTFT (ms)", "8-stream tok/s", "C1 latency": the requests in flight of its column
        return {"concurrency": streams.pop()} if len(streams) == 1 else {}
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
    """Whether a block's text states a measurement: a number with a unit ("141 t/s"), not a count of
    tokens ("input size 128 and an output size 128 tokens": the run's sizes)."""
    return any(n.unit and family(n.unit) != "tokens" for n in numbers(" ".join(t for _, t in lines)))


def _multiple_at(lines: list[tuple[int, str]]) -> bool:
    """Whether a block's text states a multiple ("up to 3x", "2.1× faster"): a comparison, whose
    settings are its own."""
    return any(n.unit == "x" for n in numbers(" ".join(t for _, t in lines)))


#: a line that is a version alone, as a label of the lines below it ("0.7.0:", "**v0.6.8:**")
_VERSION_LABEL = re.compile(r"\W*(?P<v>v?\d+\.\d+(?:\.\d+)*)\W*[:：]\W*")


def _label_line(text: str) -> list[tuple[str, object]]:
    """What a label line states for the lines below it: a short line ending in a colon ("0.7.0:"
    -> build 0.7.0, "num_gpu 99:", "RTX 4090:"), the settings ``stated`` reads in it; empty for any
    other line."""
    t = text.strip().rstrip("*_ ")
    bold = re.fullmatch(r"(?:[-*+•]\s+)?(?:\*\*|__)[^*_]{1,40}(?:\*\*|__)", text.strip())
    if bold and (k := run_label(t.strip("*_ -+•").rstrip(":：") + ":")) is not None:
        # a bold line naming a run, no colon needed ("**Run 1**", "__2nd run__"): the run below it
        return [("run_index", k)]
    if not t.endswith((":", "：")) or len(t) > 60:
        return []
    m = _VERSION_LABEL.fullmatch(text.strip())
    if m:
        return [("build", m.group("v"))]
    # (a qualifier after it, "Run 2 (after reboot):", is the run's own: ``run_label``)
    k = run_label(t)
    if k is not None:  # "- 1st run:", "Second run:", "Run #2:": the k-th run of those listed below it
        return [("run_index", k)]
    return [(k, v) for k, v in stated([(0, t)], "text") if k in CARRIED and k != "decoding"]


def line_run(text: str) -> int | None:
    """The run a label line names for the lines below it ("- 1st run:", "**Run 1**", "Run 2 (after
    reboot):", ``_label_line``), None for any other line."""
    return next((int(v) for k, v in _label_line(text) if k == "run_index" and isinstance(v, int)), None)


def run_label(text: str) -> int | None:
    """The run a label names (``_RUN_ORDINAL``: "- 1st run:", "Run #2:", "**Second run:**", "Run 3
    (cold):", a heading's "### Run 3"): its index from 1; None for any other text.  The label ends
    in a colon unless it is a heading's or stands alone in bold (the caller's choice)."""
    t = text.strip().lstrip("#").strip().rstrip("*_ ")
    if not t.endswith((":", "：")) or len(t) > 60:
        return None
    bare = re.sub(
        r"\s*(?:\([^()]*\)|\b(?:with|after|before|on|using|at)\b.*)$", "", t.rstrip(":：").strip("*_ ")
    )
    run = _RUN_ORDINAL.fullmatch(bare.strip("*_ "))
    if run is None:
        return None
    k = run.group("n") or run.group("n2") or run.group("w")
    return int(k) if k.isdigit() else _ORDINALS[k.lower()]


_ORDINALS = {w: k for k, w in enumerate(("first", "second", "third", "fourth", "fifth", "sixth"), 1)}
#: a label naming one run of several: "1st run", "2nd try", "first run", "Run #3", "run 2"
_RUN_ORDINAL = re.compile(
    r"(?:[-*+•]\s+)?[*_]*(?:(?P<n>\d{1,2})(?:st|nd|rd|th)|(?P<w>first|second|third|fourth|fifth|sixth))"
    r"\s+(?:run|try|trial|attempt|pass)|(?:[-*+•]\s+)?[*_]*(?:run|try|trial|attempt)\s*#?\s*(?P<n2>\d{1,2})",
    re.IGNORECASE,
)


#: a comment line of a code block naming what follows it ("# SGLang", "// vLLM 0.6.3", "-- llama.cpp:")
_COMMENT_LABEL = re.compile(r"\s*(?:#+|//|--)\s*(?P<t>[^\s#/-][^#]{0,39}?)\s*[:：]?\s*")


def _comment_label(text: str) -> list[tuple[str, object]]:
    """What a code block's comment line naming one engine ("# SGLang" over SGLang's serving
    benchmark output, "# vLLM 0.6.3") states for the lines below it, up to the next such line: the
    engine, and the build, machine or model it names besides; empty for any other line (a comment
    stating a number with a unit, or naming no engine or two)."""
    m = _COMMENT_LABEL.fullmatch(text)
    if m is None or any(n.unit for n in numbers(m.group("t"))):
        return []
    said = [(k, v) for k, v in stated([(0, m.group("t"))], "text") if k in CARRIED and k != "decoding"]
    return said if sum(k == "engine" for k, _ in said) == 1 else []


#: the start of a list item's line ("- ", "* ", "+ ", "1. ")
_LIST_ITEM = re.compile(r"\s*(?:[-*+]|\d{1,2}[.)])\s")


def _lead_in(block: Block, raw: str = "") -> bool:
    """Whether a block right before a code block introduces it: a paragraph of at most three lines
    ending in a colon ("For comparison, here's the llama.cpp run with the smaller quant:"), or a line
    the post wrote wholly in emphasis (``raw``, the line as written: "*without speculative
    decoding*"); its names are the output's, whatever numbers it states besides."""
    if block.kind != "text" or block.heading or len(block.lines) > 3:
        return False
    text = " ".join(t for _, t in block.lines).strip()
    # or a label line all in emphasis as the post wrote it (``raw``), as a heading would be
    # ("*without speculative decoding*")
    return text.rstrip("*_").endswith((":", "：")) or _EMPHASIS_LABEL.fullmatch(raw.strip()) is not None


#: the words opening a lead-in that brings in another run beside the post's own ("For comparison,
#: vLLM 0.6.3 on the same card:", "By contrast, ...:"; not "For reference" nor "As a baseline", which
#: as often bring in the author's own command)
_CONTRAST = re.compile(
    r"\s*(?:for\s+(?:comparison|contrast)|by\s+contrast|in\s+contrast|as\s+a\s+comparison|"
    r"compared?\s+(?:to|with)|(?:and\s+)?(?:versus|vs\.?))\b",
    re.IGNORECASE,
)


def aside_lead(post: Post, block: Block, after: Block | None) -> bool:
    """Whether ``block`` is a lead-in (``_lead_in``) that opens with a comparison's words (``_CONTRAST``)
    over the code block or table it introduces, and names an engine other than those the post named
    before it (the post's own run named first: "I ran llama.cpp …", then "For comparison, vLLM 0.6.3
    on the same card:"): the setup it names is that block's run (its scope's head), declared for none
    of the section's other numbers."""
    if (
        after is None
        or after.kind not in ("code", "table")
        or not _lead_in(block)
        or _CONTRAST.match(" ".join(t for _, t in block.lines)) is None
    ):
        return False
    memo = post.memo.setdefault("aside", {})
    if block.start not in memo:  # (the drafter and the context both ask, once each)
        said = {m.value for m in mentions(" ".join(t for _, t in block.lines)) if m.path == "engine"}
        # (the text before it, up to 60 lines and 4,000 characters back: a bounded read, on a long post too)
        before = "\n".join(post.line(n) for n in range(max(1, block.start - 60), block.start))[-4000:]
        earlier = {m.value for m in mentions(before) if m.path == "engine"} if said else set()
        memo[block.start] = bool(earlier) and bool(said - earlier)
    return memo[block.start]


#: a short line wholly in emphasis, no number in it: "*without speculative decoding*", "**With MTP**"
_EMPHASIS_LABEL = re.compile(r"(\*{1,2}|_{1,2})(?=\S)[^*_\d]{2,80}(?<=\S)\1")


def _models_listed(post: Post, before: Block, item: Block) -> bool:
    """Whether ``item`` and the block ``before`` it are items of one list naming a model each, two
    models (a list of the models tested, not a caption of the table after it)."""
    if not (before.lines and item.lines and _LIST_ITEM.match(post.line(item.start))):
        return False
    if not _LIST_ITEM.match(post.line(before.start)):
        return False
    models = [
        {_key(m.value) for m in mentions(" ".join(t for _, t in b.lines)) if m.path == "model"}
        for b in (before, item)
    ]
    return all(models) and models[0] != models[1]


def _caption(block: Block) -> bool:
    """Whether a block right before a table is its caption: a paragraph of one or two lines, short
    (200 characters at most) or ending in a colon, stating no number with a unit ("Approximate
    tok/s for common setups (Llama 3 8B Q4, 4K context)"; not "Baseline: 33.92 tokens/second", a
    claim of its own)."""
    if block.kind != "text" or block.heading or len(block.lines) > 2:
        return False
    text = " ".join(t for _, t in block.lines).strip()
    if len(text) > 200 and not text.endswith((":", "：")):
        return False  # a paragraph of its own ("Finding: cards without tensor cores (RTX 1650, …) …")
    return not any(n.unit for n in numbers(" ".join(t for _, t in block.lines)))


def _measured_prompts(lines: list[tuple[int, str]]) -> bool:
    """Whether every line of a block naming a prompt states a measurement too ("36.5 t/s (3k token
    prompt)"): its prompt is its own numbers', not the section's; a setup list's "Method: 256-token
    summarization output" beside "Model: X (~14 GB)" names the section's."""
    naming = [x for x in lines if any(p == "prompt" for p, _ in _stated([x], "text")[1])]
    return bool(naming) and all(_measures([x]) and not _set_sentence(x[1]) for x in naming)


def _set_sentence(text: str) -> bool:
    """Whether a sentence of ``text`` names a benchmark's prompt set among settings and states no
    measurement ("gsm8k, 8 prompts, 4x RTX 2080 Ti at TP 4, temperature 1.0. Plain baseline 27.95
    ms/token decode.": the section's prompts, beside the baseline's own sentence)."""
    if not PROMPT_SET_SETTING.search(text):
        return False
    sentences = re.split(r"(?<=[.!?;])\s+(?=[A-Z])", text)
    return any(PROMPT_SET_SETTING.search(s) and not _measures([(0, s)]) for s in sentences)


#: the workload a line of a paragraph or list states for its own numbers (``_line_scopes``)
_LINE_PATHS = frozenset(
    {"concurrency", "prompt", "block_max", "tokens_generated", "cap", "other.request_rate"}
)


#: a line's label that opens with a kind of task and then names only what was measured ("- Code
#: wall/decode: 133 tok/s", "Summarization TTFT: 0.4 s", "**Math** decode:"): the task is the line's
#: prompt, as written; a label with other words ("Code size:", "Math library build:") is none
_TASK_LABEL = re.compile(
    r"^\s*(?:[-*+•]\s+)?[*_]*(?P<t>code|coding|narrative|prose|chat|math|reasoning|summari[sz]ation|"
    r"translation|roleplay|creative writing|RAG|QA|Q&A|STEM|JSON|long\s?code|long\s?context|extraction|"
    r"agentic|tool[\s-]?use|story|essay)[*_]*"
    r"(?:\s+(?:wall|decode|prefill|pp|tg|ttft|tpot|e2e|speed|rate|throughput|tok/s|t/s|acceptance)"
    r"(?:\s*/\s*(?:wall|decode|prefill|pp|tg|ttft|tpot|e2e|speed|rate|throughput|acceptance))*)?[*_]*\s*$",
    re.I,
)


#: a tag in brackets leading a line ("[Q&A] 185 tokens …", "- [Code] …"): ``_line_scopes``
_TAG_LEAD = re.compile(r"^\s*(?:[-*+•]\s+)?\[(?P<t>[A-Za-z][\w&+ ./-]{0,24})\]")
#: a tag naming no workload: a log's level or status ("[INFO]", "[W]", "[OK]"), a version ("[0.24.0]"),
#: a run, a side of a change, a device or a setting ("[Run 1]", "[Before]", "[GPU0]", "[no-stream]",
#: "[Q4_K_M]")
_NOT_WORKLOAD_TAG = re.compile(
    r"(?i)info|warn(?:ing)?|err(?:or)?|debug|trace|fatal|notice|critical|ok|pass(?:ed)?|fail(?:ed)?|done|"
    r"[a-z]|v?\d[\w.]*|"
    r"(?:run|trial|try|attempt|iteration|gpu|device|rank|node|worker|thread|card|cpu)\s*#?\s*\d*|"
    r"before|after|baseline|base|old|new|patched|unpatched|master|main|pr|stream|no[-_ ]?stream|"
    r"(?:with|without|w/o?)\b.*|on|off|cold|warm|warmup|(?:UD-)?I?Q\d(?:_\w+)?|f16|bf16|fp\d+|int\d"
)


#: a line's label numbering a run ("* **Run 1", "- Trial #2", "Iteration 3"): its index
_RUN_LABEL = re.compile(
    r"[\s*_>•-]*(?:run|trial|try|attempt|iteration)\s*#?\s*(\d{1,3})[\s*_]*", re.IGNORECASE
)


#: a line's label that is a quantisation, perhaps with a remark after a dash or in parentheses ("fp16",
#: "awq", "gptq - no act_order", "Q4_K_M (imatrix)")
_QUANT_LABEL = re.compile(
    rf"\s*[*_`]*(?P<q>(?:UD-)?{QUANT_TYPE}|(?i:fp8|fp16|bf16|fp32|int8|int4|nvfp4|mxfp4|awq|gptq|exl2))"
    r"[*_`]*(?:\s+[-–]\s+[^:]{1,30}|\s*\([^()]{1,30}\))?\s*"
)


def quant_labels(lines: list[tuple[int, str]], lead: str = "") -> list[Mention]:
    """The quantisations labelling ``lines`` (each ``(offset, text)``: "fp16: 142.641 tokens/sec",
    "awq: 144.663 tokens/sec": ``_QUANT_LABEL`` before the first ":", a rate after it), as
    ``Mention``s at each line's offset, where they name two or more; none otherwise (one label is no
    list of quants), nor where the lines or their lead-in (``lead``) speak of the KV cache ("KV cache
    dtype:" over "fp16: 2100 tok/s": the cache's types) or the rates are no generation's ("FP16: 165
    TFLOPS": a card's peak)."""
    if _CACHE_WORDS.search(lead + " " + " ".join(t for _, t in lines)):
        return []
    found: list[Mention] = []
    for at, t in lines:
        label, _, rest = t.partition(":") if ":" in t else ("", "", "")
        q = _QUANT_LABEL.fullmatch(label)
        if q is not None and _TOKEN_RATE.search(rest):
            found.append(Mention(at, "quant", q.group("q")))
    return found if len({m.value for m in found}) >= 2 else []


#: the KV cache named (``quant_labels``: its labels are the cache's types)
_CACHE_WORDS = re.compile(r"(?i)\bkv\b|\bcache|\bdtype")
#: a rate of tokens after a label ("142.641 tokens/sec", "31.7 t/s")
_TOKEN_RATE = re.compile(r"(?i)\d\s*(?:tok|tokens?)\b|\d\s*(?:t/s|tps)\b|tokens?\s*(?:/|per)\s*s")


def _line_scopes(scope: Scope, lines: list[tuple[int, str]], named: dict[str, str] | None = None) -> None:
    """A scope under a block for each of its lines stating a measurement and a workload setting
    (``_LINE_PATHS``): "Single stream throughput: 62 t/s" / "8-stream throughput: 95 t/s", a list
    read as one block, each line's concurrency its own numbers'; and the decoding its label names
    as a column's header does ("Baseline (non-speculative): 215.8 s", "With draft model: 35.6
    tokens-per-sec": ``draftnames.header_decoding`` of the words before the first ":"); and the
    build a line's label names as one side of a change, where the block's labels name both
    ("Pre: prompt_tps=27330.184" / "Post: prompt_tps=30322.676": ``draftnames.side_builds``); and
    the quantisation a line's label is where the block's labels name two or more (``_QUANT_LABEL``:
    "fp16: 142.641 tokens/sec" / "awq: 144.663 tokens/sec")."""
    labels = [t.split(":", 1)[0] if ":" in t else "" for _, t in lines]
    sides = side_builds([x if 0 < len(x.strip()) <= 20 else "" for x in labels])
    # a tag in brackets leading each of two or more lines that measure ("[Q&A] 185 tokens in 4.17s",
    # "[Code] 512 tokens in 8.62s"): the workload each ran, its label (not a log's level, a version
    # or a setup's name: "[INFO]", "[0.24.0]", "[vLLM]")
    tags = [_TAG_LEAD.match(t) for _, t in lines]
    named_tags = {
        i: m.group("t").strip()
        for i, m in enumerate(tags)
        if m is not None
        and not _NOT_WORKLOAD_TAG.fullmatch(m.group("t").strip())
        and not any(x.path in _SETUP_PATHS for x in mentions(m.group("t")))
    }
    if len(set(named_tags.values())) >= 2:
        labels = [named_tags.get(i, x) for i, x in enumerate(labels)]
    # a list of lines each labelled by a quantisation ("fp16: 142.641 tokens/sec", "awq: 144.663
    # tokens/sec", "gptq - no act_order  : 138.138 tokens/sec"): each line's weights
    quants = {m.start: m.value for m in quant_labels(list(enumerate(t for _, t in lines)))}
    for i, (n, t) in enumerate(lines):
        if not _measures([(n, t)]):
            if i in sides:  # "Pre: prompt_tps=27330.184": a key=value line's numbers write no unit
                line = Scope(n, n, 9)
                _add(line.body, [("build", sides[i])])
                scope.children.append(line)
            continue
        names = [x for x in _stated([(n, t)], "text")[1] if x[0] in _LINE_PATHS] if len(lines) > 1 else []
        label = labels[i]
        said = header_decoding(label) if 0 < len(label.strip()) <= 40 else None
        if said is not None:
            names.append(("decoding", said))
        task = _TASK_LABEL.match(label) if 0 < len(label.strip()) <= 40 else None
        if task and not any(p == "prompt" for p, _ in names):
            names.append(("prompt", task.group("t")))
        elif label and label == named_tags.get(i) and not any(p == "prompt" for p, _ in names):
            names.append(("prompt", label))
        run = _RUN_LABEL.fullmatch(label)
        if run is not None:  # "* **Run 2:** Prefill: 147.62 t/s | …": the second of the runs listed
            names.append(("run_index", int(run.group(1))))
        cited = (named or {}).get(_prompt_key(label)) if 0 < len(label.strip()) <= 20 else None
        if cited is not None and not any(p == "prompt" for p, _ in names):
            names.append(("prompt", cited))  # "Prompt 1: 15.10 tok/sec": the prompt defined as Prompt 1
        if i in sides:
            names.append(("build", sides[i]))
        if i in quants and not any(p == "quant" for p, _ in names):
            names.append(("quant", quants[i]))
        if names:
            line = Scope(n, n, 9)
            _add(line.body, names)
            scope.children.append(line)
            # a workload setting a measuring line states is that line's, not its block's ("- Request
            # rate 4: 610 tok/s" under "- Unlimited rate: 1900 tok/s")
            for path, value in names:
                if path in _LINE_PATHS and value in scope.body.get(path, []):
                    scope.body[path].remove(value)
                    if not scope.body[path]:
                        del scope.body[path]


#: the level of a label over other labels (``Context``): inside a section (1-6), over the labels and
#: command lines (7) after it
_OUTER_LABEL = 6.5


def _label_of(block: Block) -> tuple[int, str] | None:
    """The line labelling what follows it (a heading without ``#``): a paragraph's first line, of
    one sentence and at most 80 characters, ending with ":" and stating no measurement but some
    setting (``_label_names``: "*) base (concurrency = 1):", "20 prompts, one request at a time,
    RTX 4090:"); None for a sentence introducing a command ("Here is the command:")."""
    if block.kind != "text" or block.heading:
        return None
    # its first line with a word or a number (a rule "————" above it is none)
    line = next((x for x in block.lines if re.search(r"\w", x[1])), None)
    if line is None:
        return None
    text = line[1].strip()
    if engine_alone(text):
        return line  # "TensorRT-Edge-LLM" over its command and output, "llamacpp" over the next run's
    if len(text) > 80 or not text.endswith((":", "：")) or re.search(r"[.!?]\s", text):
        return None
    if _measures([line]) or not _label_names(line):
        return None
    return line


def engine_alone(text: str) -> bool:
    """Whether a line is an engine's name alone, its version after it or not, in emphasis or not
    ("TensorRT-Edge-LLM", "**vLLM 0.6.3**", "llamacpp"): a label of the runs below it, as a heading."""
    bare = text.strip().strip("*_`#: ").strip()
    return bool(bare) and (engine_of_cell(bare, set()) is not None or engine_version_cell(bare) is not None)


#: a paragraph that is a whole number alone before a colon ("73:"), and a release of three parts
_NUMBER_LABEL = re.compile(r"\s*[*_]*(\d{1,4})[*_]*\s*[:：]\s*[*_]*\s*")
_RELEASE = re.compile(r"(?<![\w.])v?\d+\.\d+\.(\d{1,4})(?![\w-]|\.\w)")


#: a command line of any tool at any shell prompt (``SHELL_PROMPT``; a path to it, "./x", "python
#: x.py") and a flag of it naming the model,
#: its checkpoint or its compiled engine by a path ("--engineDir engines/qwen2.5-vl-3b", "--model_dir
#: ./Llama-2-7b-hf", "--checkpoint=ckpts/qwen3-8b")
ANY_COMMAND = re.compile(
    SHELL_PROMPT + r"(?:(?:\./|/|~/|python[\d.]*\s|[\w.-]+/)\S*(?:\s\S.*)?\s--?\w"
    # a tool on the PATH, its subcommand, then nothing but its long flags and their values ("mtplx
    # tune --model …"; not "see --model-dir x for details")
    r"|[a-z][\w.-]*(?:\s[a-z][\w-]*)?(?=\s--[a-z])(?:\s+--?[\w-]+(?:[=\s]+(?!-)[^\s\"']+)?)+\s*$)"
)
_MODEL_FLAG = re.compile(
    # (not a draft's or an assistant's: "--draft_model ./Qwen2.5-0.5B" names the drafter)
    r"(?<!\S)--?(?!(?:draft|assistant|spec|speculative|small|tokenizer)[_-]?)(?:[a-z]+[_-])?"
    r"(?:model|engine|checkpoint|ckpt)(?:[_-]?(?:dir|path|name))?(?:Dir|Path)?(?:\s+|=)"
    r"(?P<v>[^\s\"']+)",
    re.IGNORECASE,
)


def _flag_models(lines: list[tuple[int, str]]) -> list[tuple[str, object]]:
    """The models a code block's command lines name by a flag's path (``_MODEL_FLAG``) where the
    path's last part is a model's name (``mentions``: "engines/qwen2.5-vl-3b" -> "qwen2.5-vl-3b"),
    one name once, with the quant that name ends with; none from a line that is no command or a
    flag naming none."""
    out: list[tuple[str, object]] = []
    for _, t in lines:
        if len(t) > 2000 or not ANY_COMMAND.match(t):
            continue
        for m in _MODEL_FLAG.finditer(t):
            # (Hugging Face's cache folder joins owner and name by "--": "models--Org--Name")
            last = m.group("v").rstrip("/").replace("\\", "/").rsplit("/", 1)[-1].rsplit("--", 1)[-1]
            said = mentions(last)
            named = [x.value for x in said if x.path == "model" and x.start == 0]
            if named and ("model", named[0]) not in out:
                out.append(("model", named[0]))
                # the quant its name ends with ("…-27B-MTPLX-Optimized-Speed-fp16"), where it names one
                quants = {x.value for x in said if x.path == "quant"}
                if len(quants) == 1:
                    out.append(("quant", quants.pop()))
    return out


def release_tails(text: str) -> dict[str, set[str]]:
    """The releases of three parts a post names ("0.1.73", "v2.3.10") by their last part ("73")."""
    out: dict[str, set[str]] = {}
    for r in _RELEASE.finditer(text):
        out.setdefault(r.group(1), set()).add(r.group().lstrip("v"))
    return out


def _version_tail(block: Block, tails: dict[str, set[str]]) -> tuple[int, str] | None:
    """(line, release) where a paragraph's first line is a number alone before a colon ("73:") and
    the post names exactly one release of three parts ending in that number (``tails``,
    ``release_tails``: "0.1.73"): a label of the runs of that release, as "0.1.73:" would be; None
    otherwise."""
    if block.kind != "text" or block.heading or not block.lines:
        return None
    m = _NUMBER_LABEL.fullmatch(block.lines[0][1])  # (the paragraph's first line: "73:" over its runs)
    releases = tails.get(m.group(1), set()) if m else set()
    return (block.lines[0][0], next(iter(releases))) if len(releases) == 1 else None


@functools.lru_cache(maxsize=256)
def _label_names(line: tuple[int, str]) -> list[tuple[str, object]]:
    """What a label line states (``_label_of``), as a heading does; its decoding also as a column's
    header names it ("base:", "Spec on:": ``draftnames.header_decoding``)."""
    commands, names = _stated([line], "text", heading=True)
    out = [*(x for _, got in commands for x in got), *names]
    said = header_decoding(line[1])
    if said is not None and not any(p == "decoding" for p, _ in out):
        out.append(("decoding", said))
    return out


def _add(into: dict[str, list[object]], names: list[tuple[str, object]]) -> None:
    """Add the ``(path, value)`` pairs of ``names`` to a scope's ``into`` (path -> values).  An app
    named beside the framework it runs on ("Software: rapid_mlx 0.7.9, mlx 0.31.2", ``MLX_APPS``)
    is the engine, the framework its backend (the corpus's ``engine: Rapid-MLX, backend: MLX``)."""
    engines = {v for p, v in names if p == "engine"}
    if "MLX" in engines and engines & MLX_APPS:
        names = [(p, v) for p, v in names if (p, v) != ("engine", "MLX")] + [("backend", "MLX")]
    for path, value in names:
        into.setdefault(path, []).append(value)


#: apps that run models on MLX through their own engine and name it as a part of their stack (LM
#: Studio's MLX engine, Rapid-MLX, oMLX, mlx-serve, vllm-mlx, lightning-mlx): MLX beside them is their
#: backend (``_add``; ``drafttable``'s "| Type |" cells)
MLX_APPS = frozenset({"LM Studio", "Rapid-MLX", "oMLX", "mlx-serve", "vllm-mlx", "lightning-mlx"})


#: llama-bench's model cell for an architecture whose size llama.cpp does not know ("deepseek4 ?B",
#: its llm_type_name "?B")
_UNSIZED_ARCH = re.compile(r"(?<![\w.-])[\w.-]+\s\?B(?!\w)")
#: a platform's code name -> the chips sold under it (AMD's and NVIDIA's product pages): a post
#: naming the platform and one of them means that chip
_PLATFORM_CHIPS = {
    "AMD Strix Halo": frozenset(
        {
            "AMD Radeon 8060S",
            "AMD Radeon 8050S",
            "AMD Ryzen AI Max+ 395",
            "AMD Ryzen AI Max 390",
            "AMD Ryzen AI Max 385",
        }
    ),
}


#: a table header naming the draft model's column ("Draft model", "Draft", "draft (quant)")
_DRAFT_COLUMN = re.compile(rf"^\W*(?:draft(?:\s+model)?\b|{DRAFT_MODEL_CJK})", re.IGNORECASE)


def _ruled(post: Post, before: int, first: int) -> bool:
    """Whether a thematic break (``Post.rules``: "---", "***", "___" as Markdown reads them; right
    under a paragraph "---" underlines a setext heading, no rule) stands between lines ``before``
    and ``first`` of ``post``."""
    k = bisect.bisect_right(post.rules, before)
    return k < len(post.rules) and post.rules[k] < first


def _rule_parent(stack: list[Scope]) -> int:
    """How many scopes of ``stack`` stay open under a rule: those below the last rule's scope (a rule
    closes what the reply before it opened, its sections too), else those up to the innermost section
    (a rule inside a section parts that section's text: the labels, command lines and blocks after it
    are the rule's; what the section's heading and text before it state still holds)."""
    for k in range(len(stack) - 1, 0, -1):
        if stack[k].rule:
            return k
    k = len(stack)
    while k > 1 and stack[k - 1].level >= 7:
        k -= 1
    return k


#: settings of one engine's command that no other engine's run shares (its offload, flash attention,
#: batches, cache types, file quant, draft size, context, build, its own flags); not what the runs of
#: a comparison share (the model, the prompt, the sampling, the tokens generated)
def _no_gguf_settings(cond: dict, engine: object, taken: list[str]) -> None:
    """Drop from ``cond`` (in place, and from ``taken``) each setting of ``taken`` (taken from around
    the claim, not its own words) that only llama.cpp and the runners built on it take (``_GGUF_ONLY``:
    layer offload, flash attention) where ``engine`` has no such setting (``NO_GGUF_OFFLOAD``):
    "`-ngl 99 -fa 1`" over a llama.cpp run, then "vLLM 0.6.3 … batch of 32 requests"."""
    if engine not in NO_GGUF_OFFLOAD:
        return
    for p in [p for p in taken if _GGUF_ONLY.fullmatch(p) and has_path(cond, p)]:
        drop_path(cond, p)
        taken.remove(p)


#: the settings only llama.cpp and the runners built on it take (``-ngl``, ``-ncmoe``, ``-ot``, ``-fa``)
_GGUF_ONLY = re.compile(r"offload\.\w+|flash_attn")
#: engines with no such setting: they load no GGUF layers onto a GPU one by one
NO_GGUF_OFFLOAD = frozenset(
    {
        "vLLM",
        "SGLang",
        "TensorRT-LLM",
        "MLX",
        "mlx-vlm",
        "mlx-swift-lm",
        "mlx-serve",
        "Rapid-MLX",
        "oMLX",
        "vllm-mlx",
        "lightning-mlx",
        "ExLlama",
        "ExLlamaV2",
        "ExLlamaV3",
        "TabbyAPI",
        "TGI",
        "LMDeploy",
        "MLC LLM",
        "transformers",
        "DeepSpeed-MII",
        "Aphrodite",
        "CTranslate2",
        "ONNX Runtime GenAI",
        "OpenVINO",
    }
)
ENGINE_OWN = re.compile(
    r"offload\.|other\.|(?:flash_attn|batch|ubatch|type_k|type_v|quant|block_max|ctx|build)$"
)


#: a setup's key naming the engine ("- **Engine**: SGLang", "Inference engine: vLLM"): its value
_ENGINE_KEY = re.compile(
    r"(?im)^[^\S\n]*(?:[-*+•][^\S\n]+)?(?:\*\*|__)?(?:inference[\s_-]+)?(?:engine|framework|runtime)"
    r"(?:\*\*|__)?[^\S\n]*[:：][^\S\n]*(?:\*\*|__)?(?P<v>[^\n]{1,80})"
)


def _keyed_engines(text: str) -> set[str]:
    """The engines a setup's "Engine:" keys name (``_ENGINE_KEY``)."""
    return set().union(*(engines_in(m.group("v")) for m in _ENGINE_KEY.finditer(text)))


class Context:
    """The scope tree of a post (module doc) and each line's context (``at``)."""

    def __init__(self, post: Post):
        last_line = max((n for b in post.blocks for n, _ in b.lines), default=0)
        last_line = max([last_line, *(n for b in post.blocks for n in b.row_lines)])
        self.root = Scope(1, last_line, 0)
        self.post = post
        #: the title's line (what the root scope's head states comes from it), 0 for none
        self.title_line = 0
        #: word -> the lines holding it (``lines_of``), and line -> its kind (``line_kind``), made
        #: when first asked
        self._words: dict[str, list[int]] | None = None
        self._merged: dict[str, list[int]] = {}
        self._kinds: dict[int, str] | None = None
        #: (path, value) a command line sets -> the models of those command lines: a setting of
        #: a command for one model is not another model's
        self.bound: dict[tuple[str, object], _Models] = {}
        #: (path, value) a command line sets -> the engines of those command lines: a setting of a
        #: llama-bench command is no vLLM row's (``fill``)
        self.engines_of: dict[tuple[str, object], set[str]] = {}
        #: the prompts the post defines under a short name ("Prompt 1: …"), for the lines citing them
        self.named_prompts = named_prompts(post.blocks)
        tails = release_tails(post.text)
        stack = [self.root]
        list_lead: list[tuple[str, object]] = []  # what a lead-in names for the list items below it
        titled = False
        title_text = ""
        blocks = post.blocks
        before = 0  # the last line of the block before
        for i, block in enumerate(blocks):
            lines = block.lines or [
                (n, " | ".join(r)) for n, r in zip(block.row_lines, block.rows, strict=False)
            ]
            if not lines:
                continue
            first = min(n for n, _ in lines)
            last = max([*(n for n, _ in lines), *block.row_lines])
            if _ruled(post, before, first):
                # a rule between replies of a thread ("---" over a second comment): what the text after
                # it states is its own, as under a heading; the title's and the first reply's hold on
                del stack[_rule_parent(stack) :]
                # (its level between its section's and a heading below it: that heading opens inside it)
                ruled = Scope(first, first, stack[-1].level + 0.5, rule=True)
                stack[-1].children.append(ruled)
                stack.append(ruled)
            before = last
            if block.kind == "text" and block.heading:
                commands, names = _stated(lines, "text", heading=True)
                names = [*(x for _, got in commands for x in got), *names]
                level = heading_level(post, block)
                if not titled and level == 1:  # the title: what it names holds for the whole post
                    titled = True
                    self.title_line = first
                    title_text = " ".join(t for _, t in lines)
                    contrasted = clause_engines(title_text)
                    _add(
                        self.root.head, [(k, v) for k, v in names if not (k == "engine" and v in contrasted)]
                    )
                    continue
                titled = True
                while stack[-1].level and stack[-1].level >= level:
                    stack.pop()
                title = " ".join(t for _, t in block.lines)
                section = Scope(
                    first,
                    last,
                    level,
                    setup=setup_heading(title),
                    version=_VERSION_HEADING.fullmatch(title) is not None,
                )
                _add(section.head, names)
                if _BRANCH_HEADING.fullmatch(title.strip().strip("#*_: ")):
                    # "### Main branch": one side of the change, the build of that section's runs only
                    section.local.add("build")
                stack[-1].children.append(section)
                stack.append(section)
                continue
            label = _label_of(block)
            tail = _version_tail(block, tails) if label is None else None
            if tail is not None:
                # "73:" over the runs of llama-cpp-python 0.1.73 in a post naming "0.1.73": that
                # release's runs, up to the next label
                while stack[-1].level >= 7:
                    stack.pop()
                held = Scope(tail[0], tail[0], 7, label=True)
                _add(held.head, [("build", tail[1])])
                stack[-1].children.append(held)
                stack.append(held)
            if label is not None:
                # "200 prompts, 4 concurrent, one RTX 4090:", "base (concurrency = 1):": what the
                # label states holds for the blocks after it, up to the next label, command or heading;
                # a label line alone right over another label ("Qwen3.6 27B, single-stream chat,
                # temperature 0:" over "Strix Halo (ROCm 7.0.2):") holds over all the labels after
                # it, up to the next such label or heading (``_OUTER_LABEL``)
                # (an engine's name alone holds over the command and the output after it, up to the
                # next such name: "TensorRT-Edge-LLM" / "command:" / a command / "result …:" / output)
                outer = engine_alone(label[1]) or (
                    len(block.lines) == 1 and i + 1 < len(blocks) and _label_of(blocks[i + 1]) is not None
                )
                label_level = _OUTER_LABEL if outer else 7
                while stack[-1].level >= label_level:
                    stack.pop()
                held = Scope(label[0], label[0], label_level, label=True)
                _add(held.head, _label_names(label))
                stack[-1].children.append(held)
                stack.append(held)
            scope = Scope(first, last, 8)
            if block.kind == "table":
                # a draft model's column names the draft's model and quant, not the measured ones
                # ("| Draft model | … |" over "| 0.5B (Q8_0) | …"): its cells state nothing here
                drafts = {
                    j for j, h in enumerate(block.rows[0] if block.rows else []) if _DRAFT_COLUMN.search(h)
                }
                # llama-bench's "deepseek4 ?B Q8_0": an architecture of unknown size, no model's name
                # (``model_cell``), which would hide the title's or the command's
                # (and a draft model's row: "| **Draft Model** | meta-llama/Llama-3.2-1B | N/A |")
                table_lines = [
                    (n, _UNSIZED_ARCH.sub(" ", " ".join(c for j, c in enumerate(r) if j not in drafts)))
                    for n, r in zip(block.row_lines, block.rows, strict=False)
                    if not (r and _DRAFT_COLUMN.search(r[0].strip("*_` ")))
                ]
                commands, names = _stated(table_lines or lines, "text")
                if _setup_table(block) or stack[-1].setup and not _legend_table(block):
                    # "| GPU | A100 |", "| 参数 | -ngl 99 |": the setup, one value a row
                    _add(scope.declared, [*(x for _, got in commands for x in got), *names])
                    _add(scope.declared, _cell_flags(block))
                    _add(scope.declared, _features(" ".join(t for _, t in table_lines)))
                else:
                    # each cell a row's; llama-bench's "llama 1B" cells name an architecture, no model
                    # against the one a heading or command names (``_named_for_arch``)
                    names = [(k, v) for k, v in names if not (k == "model" and _arch_desc(v))]
                    _add(scope.weak, [*(x for _, got in commands for x in got), *names])
                commands = []
                if block.lines:  # "**0.7.0:**" over the key/value lines of its run
                    _add(scope.head, _label_line(block.lines[0][1].strip("*_ ")))
                prev = blocks[i - 1] if i else None
                if (
                    prev is not None
                    and _caption(prev)
                    # (not the last item of a list of models over the table: "- Qwen3.5-4B-8bit
                    # (8-bit)" after "- Qwen3.5-2B-4bit …" names one of them, not the table's)
                    and not (i >= 2 and _models_listed(post, blocks[i - 2], prev))
                ):
                    caption_commands, caption = _stated(prev.lines, "text", heading=True)
                    _add(scope.head, [*(x for _, got in caption_commands for x in got), *caption])
                    scope.first = min(scope.first, prev.start)
            elif stack[-1].version and block.kind == "text":
                # "### Name and Version" over "main -head" or a --version print: the build, no command
                commands = []
                _add(scope.declared, _version_named(lines))
            else:
                commands, names = _stated(lines, block.kind)
                _add(scope.body, names)
                if stack[-1].version and block.kind == "code":
                    # "### Name and Version" over git log's "commit e0c93af2…" in a fence: the build
                    # the reporter ran, as the section's text would name it (a commit printed
                    # elsewhere, "introduced by this commit:", is no build run)
                    logged = [("build", m.group("c")) for _, t in lines for m in _GIT_LOG_COMMIT.finditer(t)]
                    _add(scope.declared, [x for x in names if x[0] == "build"] + logged[:1])
                if block.kind == "text":
                    _line_scopes(scope, lines, self.named_prompts)
                if block.kind == "text" and all(post.line(n).startswith(">") for n, _ in lines):
                    scope.local.update(_INHERITED)  # a quote's machine and engine are its author's
                prev = blocks[i - 1] if i else None
                item = block.kind == "text" and _LIST_ITEM.match(post.line(first)) is not None
                if block.kind == "code" and prev is not None and _lead_in(prev, post.line(prev.start)):
                    # "Here's the regular llama.cpp results:" over the pasted output: its setting
                    lead_commands, lead = _stated(prev.lines, "text", heading=True)
                    _add(scope.head, [*(x for _, got in lead_commands for x in got), *lead])
                elif (
                    item
                    and prev is not None
                    and _lead_in(prev)
                    and not _LIST_ITEM.match(post.line(prev.start))
                ):
                    # "Exllama [commit](…):" over "- 7B: 152.56 token/sec", "- 13B: …": the list's
                    list_lead = [
                        (k, v) for k, v in stated(prev.lines, "text", heading=True) if k != "decoding"
                    ]
                    # its links, which the block's text drops: "Exllama [commit](…/commit/c16cf49c…):"
                    links: list[tuple[str, object]] = []
                    _commit_links(" ".join(post.line(n) for n, _ in prev.lines), links)
                    list_lead += [x for x in links if x not in list_lead]
                if item:
                    _add(scope.head, list_lead)
                    led = _BRANCH_LEAD.match(post.line(first))
                    side = _BRANCH_HEADING.fullmatch(led.group("side").strip()) if led is not None else None
                    # ("- Main (Qwen3-32B alone): 21.4 tok/s" over "- Draft …": the main model, no branch)
                    if side is not None and side.group(0).lower() != "main":
                        # "* main branch (`--threads 13`): 39.2ms/tok", "- PR: 16.4 ms": the side of
                        # the change the item's numbers ran
                        _add(scope.head, [("build", side.group(0))])
                else:
                    list_lead = []
                if stack[-1].setup and block.kind == "text":
                    used = [(n, t) for n, t in lines if not _NOT_USED.search(t)]
                    _add(scope.declared, [*stated(used, "text"), *_features(" ".join(t for _, t in used))])
                elif stack[-1].setup:
                    _add(scope.declared, names)
                elif block.kind == "text" and aside_lead(
                    post, block, blocks[i + 1] if i + 1 < len(blocks) else None
                ):
                    pass  # "For comparison, vLLM 0.6.3 … :" over a log: that block's run, not the section's
                elif block.kind == "text":
                    # "a sweep-bench with this PR": the pull request the post ran
                    _add(scope.declared, _tested_pr(" ".join(t for _, t in lines), title_text))
                    # "a 3090 for the main model and a P40 for the draft model": the section's
                    # machine is the pair, as the setup it describes (``draftnames.placement``)
                    placed = placement(" ".join(t for _, t in lines))
                    if placed is not None:
                        _add(scope.declared, [("hardware", placed)])
                    for n, t in lines:
                        if declaration(t):
                            said = _counted_devices(lines, [*stated([(n, t)], "text"), *_features(t)])
                            _add(scope.declared, said)
                            continue
                        _add(scope.declared, _set_up_engine(t))
                        for sentence in settings_sentences(t):
                            # "Qwen3.8-27B Q4_0, llama.cpp b10450 SYCL, flash attention on,
                            # speculative decoding off, n_ctx 262144": the setup, declared
                            _add(scope.declared, [*stated([(n, sentence)], "text"), *_features(sentence)])
                elif block.kind == "code":
                    # a run's report of its machine and build ("Device 0: NVIDIA ...", "build: 5635 (…)")
                    _add(scope.declared, _reported(lines))
                    # a command of a tool read nowhere else ("./llm_inference --engineDir
                    # engines/qwen2.5-vl-3b"): the model its model or engine folder names
                    _add(scope.body, _flag_models(lines))
                if "block_max" in scope.body and block.kind == "text" and _measures(lines):
                    # "with a draft model (--draft-max 16) it reached 141 t/s": the size of the
                    # sentence's drafting arm, not of the section (a settings line states no rate)
                    scope.local.add("block_max")
                if "concurrency" in scope.body and block.kind == "text" and _multiple_at(lines):
                    # "it reached up to 3x the plain speed with 32 concurrent requests": the requests
                    # of that sentence's comparison, not of the single-stream rates around it
                    scope.local.add("concurrency")
                if "prompt" in scope.body and block.kind == "text" and _measured_prompts(lines):
                    scope.local.add("prompt")  # "42 t/s on the poetry prompt": that sentence's
            if block.kind == "text" and len(lines) > 1:
                # a block of several lines each naming its own ("Ollama(Ver. 0.11.4) → 2~3 tokens /
                # sec" over "LMstudio(Ver. 0.3.23) → 20 tokens / sec", a list read as one block):
                # each line's one value for its own claims, where the block names several; a label
                # line ("0.7.0:", "num_gpu 99:") for the lines below it, up to the next label
                last_line = max(n for n, _ in lines)
                labels = [(n, got) for n, t in lines if (got := _label_line(t))]
                spans = [
                    (n, (labels[k + 1][0] - 1) if k + 1 < len(labels) else last_line, got)
                    for k, (n, got) in enumerate(labels)
                ]
                made = {c.first: c for c in scope.children if c.level == 9 and c.first == c.last}
                scope.children = [c for c in scope.children if c.first not in made]
                inner = scope
                for n, t in lines:
                    said = [(k, v) for k, v in stated([(n, t)], "text") if k in _INHERITED]
                    if _DEVICE_LINE.match(t):
                        # "Device 0: …" over "Device 1: …": one machine of them all, no line's own
                        said = [(k, v) for k, v in said if k != "hardware"]
                    span = next((sp for sp in spans if sp[0] <= n <= sp[1]), None)
                    if span is not None and n == span[0]:
                        inner = Scope(n, span[1], 9)
                        _add(inner.body, span[2])
                        scope.children.append(inner)
                    elif span is None:
                        inner = scope
                    own = made.get(n)  # the line's scope of its workload (``_line_scopes``), if any
                    if said and own is None:
                        own = Scope(n, n, 9)
                    if own is not None:
                        _add(own.body, said)
                        inner.children.append(own)
            if block.kind == "code" and len(lines) > 1:
                # "# SGLang" over SGLang's output, "# vLLM" over vLLM's, in one fence: each comment
                # line naming an engine is the label of the lines below it, up to the next one
                marks = [(n, got) for n, t in block.lines if (got := _comment_label(t))]
                last_line = max(n for n, _ in block.lines)
                for m_i, (n, got) in enumerate(marks):
                    end = marks[m_i + 1][0] - 1 if m_i + 1 < len(marks) else last_line
                    labelled = Scope(n, end, 9)
                    _add(labelled.body, got)
                    scope.children.append(labelled)
            stack[-1].children.append(scope)
            for line, got in commands:
                model = next((_key(v) for k, v in got if k == "model"), None)
                ran = next((str(v) for k, v in got if k == "engine"), None)
                for k, v in got:
                    if model is not None and k not in ("model", "quant", "engine"):
                        self.bound.setdefault((k, _key(v)), _Models()).add(model)
                    if ran is not None and ENGINE_OWN.match(k):
                        self.engines_of.setdefault((k, _key(v)), set()).add(ran)
                # a command line holds for what follows it in its section, up to the next command
                # line or heading (``draftcommand``); the one command of a section for all of it
                while stack[-1].level >= 7:
                    stack.pop()
                held = Scope(line, line, 7)
                _add(held.head, got)
                above = (
                    " ".join(t for _, t in blocks[i - 1].lines) if i and blocks[i - 1].kind == "text" else ""
                )
                if _COMMON.search(post.line(line)) or block.kind != "text" and _COMMON.search(above):
                    # "Common flags (all runs):" over a command: the settings of every section below,
                    # whatever command lines the sections add
                    _add(held.declared, got)
                    held.common = True
                stack[-1].children.append(held)
                stack.append(held)
        self._close(self.root)
        if _IK_TOOL.search(post.text) and not any(
            m.path == "engine" for m in mentions(re.sub(r"`[^`]*`", " ", post.text))
        ):
            # a post running llama-sweep-bench that names no engine: its tools are ik_llama.cpp's
            # (its llama-server too), not mainline's
            self.root.declared["engine"] = ["ik_llama.cpp"]
            self.root.known.clear()
        engine = self.root.value("engine")[1]
        keyed = _keyed_engines(post.text) if engine is None else set()
        versioned = engine_versions(post.text, tags=False) if engine is None and len(keyed) != 1 else {}
        if len(keyed) == 1:
            # "- **Engine**: SGLang" beside "- **vLLM version**: 0.8.5 (installed as a dependency)":
            # the one the setup names its engine, over one given a release
            self.root.declared["engine"] = list(keyed)
            self.root.known.clear()
        elif len(versioned) == 1:
            # "Test … with vllm v0.5.2 … The same model in TensorRT-LLM achieves a 2x speedup": of the
            # engines the post names, the one it gives a version of is the one it ran
            self.root.declared["engine"] = list(versioned)
            self.root.known.clear()
        self._versioned_engines(post)
        ok, build = self.root.value("build")
        if not self.root.value("engine")[0] and _LLAMA_OUTPUT.search(post.text):
            # llama-bench's table ("| model | size | params | backend |"), a llama.cpp tool's name or
            # its timing lines, and no engine named: llama.cpp ran them
            self.root.declared["engine"] = ["llama.cpp"]
            self.root.known.clear()
        elif not self.root.value("engine")[0] and ok and not builds_engine(build, "vLLM"):
            # "official WinGet build 9553 (9e3b928fd)", "b4980" and no engine named: llama.cpp's
            # build numbers (``draftnames.builds_engine``), so its engine
            self.root.declared["engine"] = ["llama.cpp"]
            self.root.known.clear()
        chosen = {BACKEND_NAMES[m.group("b").lower()] for m in _CHOSEN_BACKEND.finditer(post.text)}
        if len(chosen) == 1:
            # "ROCm vs. Vulkan: Why we chose Vulkan" beside "Driver Environment: ROCm 7.2.2": the one
            # backend the post says it chose ran its numbers, whatever else its setup lists
            self.root.declared["backend"] = list(chosen)
            self.root.known.clear()
        cpu = _cpu_only(post, self.root)
        if cpu:  # "IQ3_S: faster CPU prompt processing … on a Ryzen-7950X CPU"
            _add(self.root.declared, cpu)
            self.root.known.clear()
        self._chains: dict[int, list[Scope]] = {}
        #: a build -> the engines named on the lines that name it, where a line names one engine
        #: ("Llama.cpp: b4326", "vLLM 0.8.2"): that engine's build, no other's (``build_fits``)
        self.build_engines: dict[object, set[str]] = {}
        for block in blocks:
            for _, text in block.lines:
                # the engines first (``mentions`` keeps what it read): the settings only where one
                engines = _distinct([m.value for m in mentions(text) if m.path == "engine"])
                if len(engines) != 1:
                    continue
                for path, build in _said(text):
                    if path == "build":
                        self.build_engines.setdefault(_key(build), set()).add(str(_key(engines[0])))

    @functools.cached_property
    def machines_named(self) -> list[object]:
        """The machines the post names anywhere (``mentions``), each once (``_distinct``); not one
        named only in advice or a supposition ("Even something like a 3060Ti would be amazing!",
        "You can do this on a 3060Ti": ``supposed_spans``), no machine the post ran."""
        text = self.post.text
        supposed = supposed_spans(text)
        return _distinct(
            [m.value for m in mentions(text) if m.path == "hardware" and not in_spans(supposed, m.start)]
        )

    @functools.cached_property
    def one_machine(self) -> bool:
        """Whether the post names one machine at most: a block naming it in its lead-in ("(in
        H100*2)" over a script) is then no machine's own section, what it states the post's."""
        return len(self.machines_named) <= 1

    @functools.cached_property
    def chips(self) -> dict[str, str]:
        """A platform's code name -> the one chip of it the post names (``_PLATFORM_CHIPS``: "Strix
        Halo" and "Radeon 8060S": that chip ran the model), where it names the platform and exactly
        one of its chips."""
        if not any(p.split()[-1] in self.post.text for p in _PLATFORM_CHIPS):
            return {}  # no platform's name: no pass over the post's names
        named = {str(v) for v in self.machines_named}
        out = {}
        for platform, chips in _PLATFORM_CHIPS.items():
            said = named & chips
            if platform in named and len(said) == 1:
                out[platform] = next(iter(said))
        return out

    def build_fits(self, build: object, engine: object) -> bool:
        """Whether a claim of ``engine`` may carry ``build`` by the lines that name the build
        (``build_engines``): False where each of them names another engine ("Llama.cpp: b4326"
        above a "### MLX" table; forks and a tool's name in full share a word: "ik_llama.cpp" is a
        "llama.cpp", "MLX LM" an "MLX"); True where none names one, or with no build or engine."""
        if build is None or not isinstance(engine, str):
            return True
        bound = self.build_engines.get(_key(build))
        if not bound:
            return True
        mine = set(str(_key(engine)).split())
        return any(mine & set(other.split()) for other in bound)

    def _results_in(self, scope: Scope) -> bool:
        """Whether the lines of ``scope`` state a result: a table's row of numbers, or a number in a
        unit of a rate, a time, a ratio or a multiple (a size is as often a machine's spec: "RTX 5090
        32GB")."""
        lines = [self.post.line(k) for k in range(scope.first, scope.last + 1)]
        return any(t.startswith("|") and re.search(r"\d", t) for t in lines) or any(
            family(n.unit) in ("rate", "time", "ratio", "multiple") for t in lines for n in numbers(t)
        )

    def _close(self, scope: Scope) -> None:
        """Give each scope the names of everything in it (``body``, ``weak``) and its last line."""
        commands = [c for c in scope.children if c.level == 7 and not c.label]
        held = len(commands)
        # command lines of other engines each (a llama-bench line and an mlx_lm.generate line under
        # "## Reproduce"): each one's settings hold for its own engine's results (``engines_of``),
        # none competing with another's
        engines = [tuple(map(_key, c.head.get("engine", []))) for c in commands]
        if held > 1 and all(len(e) == 1 for e in engines) and len(set(engines)) == held:
            held = 1
        # what every one of several command lines sets alike holds for the section
        # ("--ctx-size 65536" in the initial and the improved command: the post's context size)
        shared = agreed([c.head for c in scope.children if c.level == 7 and not c.label]) if held > 1 else {}
        for path, values in shared.items():
            scope.body.setdefault(path, []).extend(values)
        # the machines the sections inside name in their headings: several, each section for itself
        # ("## RTX 3090", "## RTX 4090"); one named over a section of the setup alone, stating no result
        # ("### Sweep: DeepSeek R1 FP8 H200" over "Config: … | TP=8 | H200", then "### Results"), the
        # machine of them all, that section's setup the scope's
        machines = {_key(v) for c in scope.children if c.level < 7 for v in c.head.get("hardware", [])}
        for child in scope.children:
            self._close(child)
            if child.level == 9:
                continue  # a line's own names: its block states them already
            # a machine's section, a label's, and a command line's where its section has several,
            # each for itself; a section's one command line holds for all of it ("Command used:"
            # below a table), and so does a command line every run shares (``_COMMON``)
            apart = (
                child.level == 7
                and held > 1
                and not child.common
                or child.label
                or "hardware" in child.head
                and not self.one_machine
                and (child.level >= 7 or len(machines) > 1 or self._results_in(child))
            )
            for path, values in (*child.head.items(), *child.body.items()):
                if path in _HEADING_ONLY or path in child.local:
                    continue  # a section's decoding is its own: "### With MTP" is one arm of the post
                # a later reply's (after a rule) prompt, cap and sampling are its own run's, not the
                # thread's ("--prompt … --max-tokens 32768" in a reply, not the title's 19 t/s)
                weak = apart or child.rule and path in _RUN_SETTINGS
                (scope.weak if weak else scope.body).setdefault(path, []).extend(values)
            for path, values in child.declared.items():
                if path in child.local:
                    continue  # (a setup's decoding is the post's: "Spec decoding: none")
                (scope.weak if apart else scope.declared).setdefault(path, []).extend(values)
            for path, values in child.weak.items():
                if path not in _HEADING_ONLY:
                    scope.weak.setdefault(path, []).extend(values)
            scope.last = max(scope.last, child.last)
        scope.firsts = [c.first for c in scope.children]

    def _versioned_engines(self, post: Post) -> None:
        """A section whose setup declares several engines: the one an "Engine:" key names
        (``_keyed_engines``), else the one given its release ("**KTransformers Version**: 0.5.2" over
        "**Backend**: kt-kernel + SGLang", ``engine_versions``) is the one its runs used, the others
        what it runs on or beside (the root's rule in ``__init__``, scope by scope)."""
        versioned: dict[str, str] | None = None
        keyed: set[str] | None = None
        todo = [self.root]
        while todo:
            scope = todo.pop()
            todo.extend(scope.children)
            named = _distinct_of("engine", scope.declared.get("engine", []))
            if len(named) < 2 or scope.head.get("engine") or scope.decide("engine")[1] is not None:
                continue
            if keyed is None:
                keyed = _keyed_engines(post.text)
            one: list[object] = [v for v in named if v in keyed]
            if len(one) == 1:
                # "- **Engine**: SGLang" beside "- **vLLM version**: 0.8.5 (installed as a dependency)":
                # the one the setup names its engine
                scope.declared["engine"] = one
                scope.known.clear()
                continue
            if versioned is None:
                versioned = engine_versions(post.text, tags=False)
            one = [v for v in named if v in versioned]
            if len(one) == 1:
                scope.declared["engine"] = one
                scope.known.clear()

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

    def declared(self, line: int, path: str) -> bool:
        """Whether the value ``at`` gives ``path`` on ``line`` is a setup declaration's
        (``Scope.decide``), not a heading's nor a passing mention's."""
        for i, scope in enumerate(self.chain(line)):
            ok, value, how = scope.decide(path)
            if not ok or how == "body" and i > 0 and _declared_out(self.chain(line)[i + 1 :], path):
                continue
            return value is not None and how == "declared"
        return False

    def at(
        self, line: int, model: object = None, origins: dict[str, tuple[Scope, str]] | None = None
    ) -> dict[str, object]:
        """The context of a claim on ``line``: path -> value (module doc).  ``model``: the model the
        claim names itself, if any; a command line's setting for another model (the context's
        model, else this) is left out.  ``origins``, when given, is filled with path -> (the scope
        that decided it, how: ``Scope.decide``), for ``origin``."""
        out: dict[str, object] = {}
        decided: dict[str, int] = {}  # path -> the index in the chain of the scope that decided it
        # paths a label's or heading's own words decided ("**Qwen3-4B (no draft):**"), not a command
        labelled: set[str] = set()
        chain = self.chain(line)
        for i, scope in enumerate(chain):
            for path in sorted({*scope.head, *scope.body, *scope.weak, *scope.declared} - set(decided)):
                ok, value, how = scope.decide(path)
                if ok and how == "body" and i > 0 and _declared_out(chain[i + 1 :], path):
                    continue  # a passing mention ("if you have a 12 GB card") under a declared setup
                if ok:
                    decided[path] = i
                    if how == "head" and (scope.label or scope.level != 7):
                        labelled.add(path)
                    if value is not None:
                        out[path] = value
                        if origins is not None:
                            origins[path] = (scope, how)
        if (
            "batch" in out
            and "concurrency" in out
            and decided["batch"] != decided["concurrency"]
            and not is_token_batch(out.get("engine"))
        ):
            # "At bs=8 it reached 210 tok/s" under a post that said "for BS1" earlier: a serving
            # engine's batch is its concurrency (``draftcommand.serving_batch``), and the nearer
            # scope's is the run's
            far = "batch" if decided["batch"] > decided["concurrency"] else "concurrency"
            del out[far]
            if origins is not None:
                origins.pop(far, None)
        mine = model if model is not None else out.get("model")
        if mine is not None:
            for path, value in list(out.items()):
                models = self.bound.get((path, _key(value)))
                # (a label naming its run's decoding states it for its own model: "**Qwen3-4B (no
                # draft):**" though another model's command ran with no draft too)
                if models and not models.fits(_key(mine)) and path not in labelled:
                    del out[path]
        return out

    def origin(self, scope: Scope, how: str, value: object) -> str:
        """Where the value ``value`` of a condition that ``scope`` decided (``how``: ``Scope.decide``)
        was taken from, as the audit page shows it beside a drafted condition: "line N, KIND" with
        KIND the title, a heading, a label line ("base (concurrency = 1):"), a command, a caption,
        the setup (a declaration: "Hardware: RTX 3090", a setup section or table) or a mention (the
        text around the claim).  The line is the scope's own for a head, else the first of the
        scope's lines naming the value (``lines_naming``), else "lines A–B", the scope's."""
        if how == "head":
            if scope.level == 0:
                return f"line {self.title_line}, the title" if self.title_line else "the title"
            kind = (
                "label"
                if scope.label
                else "command"
                if scope.level == 7
                else "caption"
                if scope.level == 8
                else "heading"
            )
            return f"line {scope.first}, {kind}"
        lines = self.lines_naming(value)
        k = bisect.bisect_left(lines, scope.first)
        kind = "setup" if how == "declared" else "mention"
        if k < len(lines) and lines[k] <= scope.last:
            return f"line {lines[k]}, {kind}"
        return (
            f"lines {scope.first}–{scope.last}, {kind}"
            if scope.last > scope.first
            else f"line {scope.first}, {kind}"
        )

    def line_kind(self, n: int) -> str:
        """What line ``n`` is, as ``origin`` names it: "the title", "heading", "command", "table"
        or "" (prose, code); the kinds are read once, on the first call."""
        if self._kinds is None:
            self._kinds = {}
            for block in self.post.blocks:
                if block.kind == "table":
                    self._kinds.update(dict.fromkeys(block.row_lines, "table"))
                elif block.heading:
                    self._kinds.update(dict.fromkeys((ln for ln, _ in block.lines), "heading"))
                else:
                    for c in command_lines(block.lines):
                        self._kinds.update(dict.fromkeys(range(c.line, c.last + 1), "command"))
            if self.title_line:
                self._kinds[self.title_line] = "the title"
        return self._kinds.get(n, "")

    def lines_naming(self, value: object) -> list[int]:
        """The lines of the post holding a word of ``value`` that names it (``_telling``: words
        compared lower case, ``_WORD``), ascending; the post's words are indexed once, on the first
        call (one pass over the post)."""
        words = _telling(value)
        if not words:
            return []
        if self._words is None:
            self._words = {}
            for n, text in enumerate(self.post.text.splitlines(), 1):
                for w in set(_WORD.findall(text.lower())):
                    self._words.setdefault(w, []).append(n)
        if len(words) == 1:
            return self._words.get(words[0], [])
        key = " ".join(words)  # several words: their lines merged once per value (a post of 100,000
        if key not in self._merged:  # claims asks for the same few values again and again)
            self._merged[key] = sorted({n for w in words for n in self._words.get(w, [])})
        return self._merged[key]


#: a word of a line or of a condition's value, as ``Context.origin`` matches them
_WORD = re.compile(r"[^\W_]\w*")


def _telling(value: object) -> list[str]:
    """The words of a condition's value a line naming it holds, lower case (``_WORD``): a name's
    longest word with a digit ("4090" of "NVIDIA GeForce RTX 4090", "q4_k_m", "qwen3" of
    "Qwen3.5-9B"), else its longest word; a count's digits, and a size in K its thousands ("16384":
    "16384", "16k"; "32000": "32000", "32k"); none for a flag (on/off, yes, 1: too many spellings)."""
    if isinstance(value, int) and not isinstance(value, bool):
        k = [f"{value // 1024}k"] if value >= 1024 and value % 1024 == 0 else []
        k += [f"{value // 1000}k"] if value >= 1000 and value % 1000 == 0 else []
        return [str(value), *k]
    if not isinstance(value, str):
        return []
    words = _WORD.findall(value.lower())
    digits = [w for w in words if any(c.isdigit() for c in w)]
    return [max(digits or words, key=len)] if words else []


def _declared_out(outer: list[Scope], path: str) -> bool:
    """Whether a scope of ``outer`` declares one value of ``path`` (``Scope.decide``: its heading
    or a setup declaration in it), which the passing mentions of the scopes inside do not outweigh."""
    for scope in outer:
        ok, value, how = scope.decide(path)
        if ok and how in ("head", "declared") and value is not None:
            return True
    return False


def _adds_generation(short: object, full: object) -> bool:
    """Whether model name ``full`` (``_key``) glues a generation to a family word that ``short``
    writes alone ("internlm2 7b" of "internlm 7b", "qwen2 7b" of "qwen 7b"): another model, not the
    same said in full ("llama 3 70b" of "llama 70b", its version a word apart, is)."""
    alone = set(str(short).split())
    return any(
        (g := re.fullmatch(r"([a-z]+)(\d{1,2}(?:\.\d+)?)", w)) is not None and g.group(1) in alone
        for w in str(full).split()
    )


def _name_words(key: object) -> set[str]:
    """A model name's words (``_key``), a family's version apart from its name ("llama3.3 70b" ->
    {llama, 3, 70b}): "LLama3.3-70B" and "Llama-3.3-70B-Instruct" are one model said short and in
    full."""
    return set(re.sub(r"(?<=[a-z])(?=\d)", " ", str(key)).split())


#: a known family's name in a model's name (``draftnames.MODEL_FAMILIES``)
_KNOWN_FAMILY = re.compile(rf"(?i)(?<![a-z])(?:{MODEL_FAMILIES})")


def _fuller_of(
    named: list[object], rows: frozenset | set = frozenset(), tables: frozenset | set = frozenset()
) -> Callable[[object], object]:
    """``fuller(name)``: the one name among ``named`` (the post's model names) that says what
    ``name`` says and more ("Qwen3.6 35B" -> "Qwen3.6-35B-A3B", "Mistral-7B" ->
    "Mistral-7B-Instruct-v0.3": the post names the model in full once and shortly elsewhere), or
    the same name as the post writes it where ``name`` is a file's lower-case spelling;
    ``name`` itself when none or several do, or where both are the models of table rows (``rows``,
    their ``_key``s: two models measured, "Codellama-7b" beside "codellama-7b-python"), or where a
    table's model (``tables``: its rows' and columns') is given a generation glued to its family
    ("InternLM-7B" beside "InternLM2-7B"); a name of no known family with a size ("Context-Kontrollserie
    2B", a heading's) is the one known family's model of that size the post names ("Qwen3.5 2B").
    ``named``'s words are read once and each name's
    answer found once (per claim, every name of a long post was read again: quadratic)."""
    keyed: dict[object, str] = {}  # the last name of each key, a written one over a file's
    for v in named:
        if isinstance(v, str) and (not v.islower() or _key(v) not in keyed):
            keyed[_key(v)] = v
    words = [(_name_words(k), v) for k, v in keyed.items()]
    found: dict[str, object] = {}

    def fuller(name: object) -> object:
        if not isinstance(name, str):
            return name
        if name not in found:
            mine = _name_words(_key(name))
            # (not one adding a generation glued to the family's name where both are a table's
            # (``tables``): "InternLM-7B" beside "InternLM2-7B" columns are two generations, both
            # measured; "Llama 8B" in prose after "Llama3-8B" is that model said short)
            fuller = [
                v
                for w, v in words
                if mine < w and not (_key(name) in tables and _adds_generation(_key(name), _key(v)))
            ]
            if _key(name) in rows:
                fuller = [v for v in fuller if _key(v) not in rows]
            size = [w for w in mine if re.fullmatch(r"\d+(?:\.\d+)?b", w)]
            if not fuller and size and not _KNOWN_FAMILY.search(name):
                # "Context-Kontrollserie 2B Q4_0" (a heading's series name before the size) beside
                # "Modell: Qwen3.5 2B Q4_0": the one model of a known family of that size
                fuller = [v for w, v in words if size[0] in w and _KNOWN_FAMILY.search(str(v))]
            if not fuller and name.islower() and not keyed.get(_key(name), name).islower():
                # "qwen2.5-7b-instruct" of a command's file name, "Qwen2.5-7B-Instruct" in the prose:
                # the post's own spelling, one model written one way
                fuller = [keyed[_key(name)]]
            found[name] = fuller[0] if len(fuller) == 1 else name
        return found[name]

    return fuller


#: the words a card's name may add and stay that card (``_fuller_machine_of``): its memory ("80GB"),
#: its form factor ("PCIe", "SXM5", "NVL") and the maker's and line's names ("NVIDIA", "GeForce");
#: never "Ti", "Super", "Max", "D" (another product)
_SAME_CARD_WORD = re.compile(
    r"\d+(?:\.\d+)?\s?(?:gb|gib)|pcie|sxm\d?|nvl|nvidia|geforce|tesla|amd|radeon|intel"
)
#: the generation a workstation card's bare name leaves out ("RTX 6000" in a title, "RTX 6000 Ada
#: Generation" in the text): the same card only in a post naming no older one of that name
#: (``_OLDER_CARD``: the Turing "Quadro RTX 6000")
_GENERATION_WORD = re.compile(r"ada|generation")
_OLDER_CARD = re.compile(r"(?i)\bturing\b|\bquadro\b")


def _same_card_words(extra: set[str], text: str) -> bool:
    """Whether the words ``extra`` a fuller name adds keep it the same card (``_SAME_CARD_WORD``, and
    ``_GENERATION_WORD`` where ``text`` names no older card of the name)."""
    older = _OLDER_CARD.search(text) is not None
    return all(_SAME_CARD_WORD.fullmatch(w) or (not older and _GENERATION_WORD.fullmatch(w)) for w in extra)


def _fuller_machine_of(named: list[object], mentioned: list[object], text: str) -> Callable[[object], object]:
    """``fuller(machine)``: the one machine among ``named`` (the post's title's and setup's) that is
    ``machine`` said in full, its added words only memory, form factor and maker
    (``_SAME_CARD_WORD``: "NVIDIA H100" -> "NVIDIA H100 94GB NVL" where the setup names "H100 NVL
    94GB×4"), with its own count, or where it has none the one count the post writes that machine
    with (``mentioned``: every mention, short or full, "H100×4" and "H100 NVL 94GB×4" -> "4x" for a
    column's "H100"), none where it writes several ("8x H100 80GB" beside a "2x H100" row) or
    ``text`` names one device alone ("1x H100", "one H100", "single-GPU": ``_ONE_DEVICE``);
    ``machine`` itself where none or several fuller
    names are, or where the added words make another product ("RTX 4060" beside "RTX 4060 Ti")."""
    spelled: dict[object, str] = {}
    for v in named:
        if isinstance(v, str):
            bare = _count_apart(v)[1]
            spelled.setdefault(_key(bare), bare)
    counted: dict[object, set[str]] = {}  # a name without its count -> the counts it is written with
    for v in mentioned:
        if isinstance(v, str):
            count, bare = _count_apart(v)
            counted.setdefault(_key(bare), set()).add(count)
    alone = _ONE_DEVICE.search(text) is not None
    found: dict[str, object] = {}

    def fuller(machine: object) -> object:
        if not isinstance(machine, str):
            return machine
        if machine not in found:
            count, bare = _count_apart(machine)
            mine = set(str(_key(bare)).split())
            wider = [
                k
                for k in spelled
                if mine < set(str(k).split()) and _same_card_words(set(str(k).split()) - mine, text)
            ]
            found[machine] = machine
            # (names said fuller and fuller, "H100 NVL×4" in the title and "H100 NVL 94GB×4" in the
            # setup: the fullest, where it holds every other)
            full = max(wider, key=lambda k: len(str(k).split()), default=None)
            if full is None or not all(set(str(k).split()) <= set(str(full).split()) for k in wider):
                return found[machine]
            # the counts of every mention of that machine, short or full ("" where none is written)
            chain = [k for k in counted if mine <= set(str(k).split()) <= set(str(full).split())]
            counts = set().union(*(counted[k] for k in chain)) - {""}
            # (a claim's own count stays: "2x H100" beside the setup's "8x H100 80GB SXM" is two of
            # that card)
            theirs = count or (counts.pop() if len(counts) == 1 and not alone else "")
            found[machine] = f"{theirs} {spelled[full]}".strip()
        return found[machine]

    return fuller


def same_card_fuller(machine: str, names: list[str], text: str) -> str | None:
    """The one name among ``names`` that is ``machine`` said in full, its added words only memory,
    form factor, maker and generation (``_same_card_words``: "NVIDIA RTX 6000" -> "NVIDIA RTX 6000
    Ada Generation" in a post, ``text``, naming no Turing card), its count the same; None where none
    or several are."""
    count, bare = _count_apart(machine)
    mine = set(str(_key(bare)).split())
    wider = {
        n
        for n in names
        if _count_apart(n)[0] == count
        and mine < set(str(_key(_count_apart(n)[1])).split())
        and _same_card_words(set(str(_key(_count_apart(n)[1])).split()) - mine, text)
    }
    return wider.pop() if len(wider) == 1 else None


def _count_apart(machine: str) -> tuple[str, str]:
    """A machine's name as drafted split into its count and the rest: "4x NVIDIA H100" -> ("4x",
    "NVIDIA H100"), "NVIDIA H100" -> ("", "NVIDIA H100")."""
    m = re.match(r"(\d+x)\s+(.*)", machine)
    return (m.group(1), m.group(2)) if m else ("", machine)


#: a run on one device of a post's machine: "1x H100", "one H100", "a single GPU", "single-GPU"
_ONE_DEVICE = re.compile(
    r"(?i)\b(?:1\s?[x×]\s?[A-Z]{1,4}\s?\d|one\s+(?:GPU|card|[A-Z]{1,4}\s?\d)|single[\s-](?:GPU|card|device)"
    r"|a\s+single\s+(?:[A-Z]{1,4}\s?\d|GPU|card))"
)


def _fuller_quant_of(named: list[object], mlx: bool = False) -> Callable[[object], object]:
    """``fuller(quant)``: the one quantisation among ``named`` (the post's) that ``quant`` writes
    short: without Unsloth's "UD-" prefix ("Q4_K_XL" where a model row says "MTP-UD-Q4_K_XL") or
    cut before an i-quant's size suffix ("IQ3" for "UD-IQ3_XXS"): a post that names a file's
    quantisation in full once and shortly elsewhere, as SOURCES.md's expected files write it in
    full; a file's lower-case spelling ("q4_k_m") as the post writes it elsewhere ("Q4_K_M").
    ``quant`` itself when none or several do, and for a k-quant cut to its bits ("Q4": a post's own
    rounding, kept as written; "Q8" is the one 8-bit type, "Q8_0", where the post writes it)."""
    full: dict[str, str] = {}  # a written one over a file's lower-case spelling
    for v in named:
        if isinstance(v, str) and (not v.islower() or v.upper() not in full):
            full[v.upper()] = v

    def fuller(quant: object) -> object:
        if not isinstance(quant, str):
            return quant
        mine = quant.upper()
        if (
            mine in full
            and not any(k == "UD-" + mine for k in full)
            and not (mine.startswith("UD-") and any(k.startswith(mine + "_") for k in full))
        ):
            # "q4_k_m" of a command's file name where the post writes "Q4_K_M": the post's spelling
            return full[mine] if quant.islower() else quant
        # (an i-quant cut to its bits, "IQ3"; Unsloth's dynamic quant likewise, "a UD-Q8 quant" of
        # the post's "UD-Q8_K_XL")
        cut = (
            re.fullmatch(r"I?Q\d", mine) is not None
            and mine.startswith("I")
            or (re.fullmatch(r"UD-I?Q\d", mine) is not None)
            # ("Q8" of a post that writes "Q8_0": ggml's one 8-bit type a file is quantised to; not in
            # a post about MLX, whose "Q8" is its own 8-bit quantisation, ``mlx``)
            or mine == "Q8"
            and not mlx
        )
        found = {
            k: v
            for k, v in full.items()
            if k != mine
            and (
                k.removeprefix("UD-") == mine
                or cut
                and (k.removeprefix("UD-").startswith(mine + "_") or k.startswith(mine + "_"))
            )
        }
        return next(iter(found.values())) if len(found) == 1 else quant

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
    draft model or speculative decoding -> speculative, but "speculative decoding" in a post naming
    MTP is MTP's; a ``-md`` flag speculative; where it names none, MTP in a file or script name,
    ``MTP_IN_NAME``), None when it names none or both."""
    kinds: set[str] = {
        "draft-self"
        if m.group("self")
        else "generic"
        if not m.group("spec") or _GENERIC_SPECULATION.fullmatch(m.group(0))
        else "speculative"
        for m in DECODING_PHRASE.finditer(post.text)
        if not m.group("plain") and not DRAFT_COUNT.fullmatch(m.group(0))  # "with 2 draft tokens": no kind
    }
    if re.search(r"(?<![\w-])(?:-md|--model-draft|--draft-model|--speculative[-_]model)\b", post.text):
        kinds.add("speculative")
    if not kinds - {"generic"} and MTP_IN_NAME.search(post.text):  # "Stock serve_mtp.sh config": MTP's
        kinds.add("draft-self")
    if "draft-self" in kinds:
        # "MTP … speculative decoding": MTP is the speculation the post names in general words
        kinds.discard("generic")
    elif "generic" in kinds:
        kinds = (kinds - {"generic"}) | {"speculative"}
    return kinds.pop() if len(kinds) == 1 else None


#: speculation named in general words, no kind of drafter ("speculative decoding", "with speculative
#: inference"): MTP's where the post names MTP (``_drafting_kind``)
_GENERIC_SPECULATION = re.compile(r"speculative decoding|with speculat\w*", re.IGNORECASE)


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
    model", "MTP", "EAGLE-3", "n-gram", "--spec-type", "acceptance rate", 投机解码, спекулятивное)
    as something it ran: not in a sentence of a plan ("I am trying to implement speculative sampling
    through candle", "we plan to add MTP": ``_INTENT``)."""
    for m in _DRAFTING_WORD.finditer(text):
        start = max(text.rfind(".", 0, m.start()), text.rfind("\n", 0, m.start())) + 1
        ends = [i for i in (text.find(".", m.end()), text.find("\n", m.end())) if i >= 0]
        if not _INTENT.search(text, start, min(ends) if ends else len(text)):
            return True
    return False


#: a sentence of a plan, not a run: "trying to implement", "plan to add", "would like to try"
_INTENT = re.compile(
    r"(?i)\b(?:trying to (?:implement|add|port|get)|plan(?:ning)? to|would like to|"
    r"want to (?:implement|add|try)|"
    r"is (?:it|this) (?:feasible|possible)|in the future|on the roadmap)\b"
)


def fill(post: Post, entries: list, groups: list, link: str | None = None) -> None:
    """Add each drafted claim's and group's context (``Context.at`` of its line) under the conditions
    it states (module doc): ``entries`` and ``groups`` are ``draft.Entry`` and ``draft.Group``
    objects (``fields`` with ``conditions``, ``source_line``; a group's ``line``), changed in place.
    A condition any row of a group states is left to the rows; a build is not added where the entry
    names another engine than the context's.  A post that names no drafting at all
    (``names_drafting``) gives every claim and group ``decoding: plain``: speculative decoding is
    something a post about it says, and no engine drafts by default.  ``link``: where the post was
    published (``_engine_sign``: an engine's repository, the engine of a post naming none)."""
    ctx = context_of(post)
    plain = not names_drafting(post.text)
    root = ctx.root
    models = [*root.head.get("model", []), *root.body.get("model", []), *root.weak.get("model", [])]
    drafting = _drafting_kind(post)
    family = family_of(post.text) or _family_of_names(models)
    # models rows of tables name, each its row's: no short spelling of another row's
    # ("Codellama-7b.Q5_K_M.gguf" in one table's row, "codellama-7b-python.Q5_K_M.gguf" in another's)
    in_rows = {
        _key(m)
        for e in entries
        if e.kind == "claim"
        and e.group is not None
        and isinstance(m := (e.fields.get("conditions") or {}).get("model"), str)
    }
    # (and the models of table columns: "| InternLM-7B | InternLM2-7B |", two models measured)
    in_tables = in_rows | {
        _key(m) for g in groups if isinstance(m := (g.fields.get("conditions") or {}).get("model"), str)
    }
    fuller = _fuller_of(models, in_rows, in_tables)
    fuller_quant = _fuller_quant_of(
        [*(v for d in (root.head, root.body, root.weak, root.declared) for v in d.get("quant", []))],
        mlx=re.search(r"(?i)\bmlx", post.text) is not None,
    )
    # (the machines the title, the setup and the text before the post's first rule name, and the
    # counts every mention writes: a thread's later messages name other people's machines, "my
    # device is: AGX ORIN 32G", and a quoted one someone else's)
    # (``Post.line`` is "" past the text: no count of its lines needed)
    first = min(post.rules[0], 2000) if post.rules else 2000
    opening = [
        m.value
        for n in range(1, first)
        for sentence in re.split(r"(?<=[.!?])\s+", post.line(n))
        if origin_of(sentence) is None
        for m in mentions(sentence)
        if m.path == "hardware"
    ]
    fuller_machine = _fuller_machine_of(
        [*(v for d in (root.head, root.declared) for v in d.get("hardware", [])), *opening],
        [*(v for d in (root.head, root.body, root.weak, root.declared) for v in d.get("hardware", []))],
        post.text,
    )
    for e in [*entries, *groups]:
        own = e.fields.get("conditions") or {}
        if isinstance(own.get("model"), str):
            own["model"] = fuller(_with_family(own["model"], family))
    rows: dict[str, list[dict]] = {}
    for e in entries:
        if e.kind == "claim" and e.group is not None:
            rows.setdefault(e.group, []).append(e.fields.get("conditions") or {})
    # the tables with a baseline column by its header ("| quant | base tok/s | code | creative |"):
    # in a post about one kind of drafting, their other value columns are the drafting runs
    baselined = {
        g.line
        for g in groups
        if (g.fields.get("conditions") or {}).get("decoding") == "plain" and "decoding" not in g.origins
    }
    for g in groups:
        mine = rows.get(g.id, [])
        cond = g.fields.setdefault("conditions", {})
        src: dict[str, tuple[Scope, str]] = {}
        here = ctx.at(g.line, cond.get("model"), src)
        had = {p for p in here if has_path(cond, p)}
        _fill(cond, here, lambda p, mine=mine: any(has_path(r, p) for r in mine))
        taken = [p for p in here if p not in had and has_path(cond, p)]
        _no_gguf_settings(cond, cond.get("engine"), taken)
        if "build" in cond and (
            not builds_engine(cond["build"], cond.get("engine"))
            or not ctx.build_fits(cond["build"], cond.get("engine"))
        ):
            del cond["build"]  # "Llama.cpp: b4326" in the setup list, the table under "### MLX"
        # (a table's model and quant carried from the title, "… with bundled MXFP4 MoE kernels", yield
        # to the section's declared ones: "Model: DeepSeek-V4-Flash-oQ8")
        for path in (*_INHERITED, "model", "quant"):
            if isinstance(cond.get(path), str) and path in here and ctx.declared(g.line, path):
                if not _names(post.line(g.line), path, cond[path]):
                    cond[path] = here[path]
                    taken.append(path)
        if _fuller_machine(here.get("hardware"), cond.get("hardware")):
            cond["hardware"] = here["hardware"]
            taken.append("hardware")
        if _named_for_arch(cond.get("model"), here.get("model")):
            cond["model"] = here["model"]
            taken.append("model")
        if isinstance(cond.get("model"), str):
            cond["model"] = fuller(cond["model"])
        if isinstance(cond.get("quant"), str):
            cond["quant"] = fuller_quant(cond["quant"])
        if isinstance(cond.get("hardware"), str) and cond["hardware"] in ctx.chips:
            cond["hardware"] = ctx.chips[cond["hardware"]]  # "Strix Halo": the "Radeon 8060S" named
        if isinstance(cond.get("hardware"), str):
            cond["hardware"] = fuller_machine(cond["hardware"])
        if (
            drafting is not None
            and g.line in baselined
            and "decoding" not in cond
            and not any(has_path(r, "decoding") for r in mine)
        ):
            cond["decoding"] = drafting
            g.origins["decoding"] = (
                f"guess: a column beside the table's baseline, in a post about {drafting} decoding"
            )
        if plain and "decoding" not in cond and not any(has_path(r, "decoding") for r in mine):
            cond["decoding"] = "plain"
            g.origins["decoding"] = NO_DRAFTING
        g.origins.update(_origins(ctx, src, here, taken, cond, g.line))
        _elsewhere(ctx, g.origins, cond, g.line)
        if not cond:
            g.fields.pop("conditions")
    by_id = {g.id: g for g in groups}
    # the lines stating an acceptance: a rate on one ("pred= 192 draft= 122 acc= 118 rate=0.967
    # tok/s=79.8") is of a drafting run
    accepting = {
        e.fields.get("source_line")
        for e in entries
        if e.kind == "claim" and e.fields.get("metric") == "acceptance_rate" and e.group is None
    }
    signed = _engine_sign(post, entries, groups, link)
    for e in entries:
        if e.kind != "claim" or not e.fields.get("source_line"):
            continue
        group_fields = by_id[e.group].fields if e.group in by_id else {}
        shared = group_fields.get("conditions", {})
        metric = e.fields.get("metric") or group_fields.get("metric")
        # its own copy: the cells of a table row share one conditions dict
        cond = copy.deepcopy(e.fields.get("conditions") or {})
        own = cond.get("model") or shared.get("model")
        src = {}
        around = ctx.at(int(e.fields["source_line"]), own, src)
        if e.fields.get("origin"):
            # someone else's number ("people report 154 t/s on a 4090 with this technique"): their
            # machine and setup, not the post's; the decoding the post is about is theirs too
            around = {p: v for p, v in around.items() if p == "decoding"}
        line = int(e.fields["source_line"])
        _line_names(cond, post.line(line), str(e.fields.get("quote") or ""))
        had = {p for p in around if has_path(cond, p)}
        _fill(cond, around, lambda p, shared=shared: has_path(shared, p))
        taken = [p for p in around if p not in had and has_path(cond, p)]
        engine = cond.get("engine") or shared.get("engine")
        for p in list(taken):
            scope = src[p][0] if p in src else None
            ran: list[object] = scope.head.get("engine", []) if scope is not None and scope.level == 7 else []
            if p != "engine" and isinstance(engine, str) and not ran:
                # a setting only command lines of other engines state ("llama-bench … -ngl 99" over a
                # table's vLLM row, the prose naming the same flags)
                ran = list(sorted(ctx.engines_of.get((p, _key(around[p])), ())))
            if p != "engine" and isinstance(engine, str) and ran and engine not in ran:
                # "llama-server -ngl 0 …" above "ollama の推論速度は 9.8 tps": that command's settings
                # are another engine's run, none of this claim's
                drop_path(cond, p)
                taken.remove(p)
        for path in _INHERITED:
            if isinstance(cond.get(path), str) and path in around and ctx.declared(line, path):
                if not _names(post.line(line), path, cond[path]):
                    # a name the claim's line does not say, carried from a passing mention above
                    # ("merged at b9190"): the declared setup's ("All tests on: ... b9204")
                    cond[path] = around[path]
                    taken.append(path)
        if _fuller_machine(around.get("hardware"), cond.get("hardware")):
            # "A100" in the title or the sentence, "NVIDIA A100 40GB PCIe" in the setup: the one machine
            cond["hardware"] = around["hardware"]
            taken.append("hardware")
        if _named_for_arch(cond.get("model"), around.get("model")):
            cond["model"] = around["model"]
            taken.append("model")
        hardware = cond.get("hardware") or shared.get("hardware")
        if isinstance(hardware, str) and not _backend_fits(cond.get("backend"), hardware):
            # "Compared against Ascend NPU results …, my RTX 4090 does …", "M5 Max … (llama.cpp + CUDA
            # backend)" of the RTX 5090 after it: a backend only another maker's machines run; this
            # machine's is not known
            del cond["backend"]
        if isinstance(hardware, str) and CPU.fullmatch(hardware) and not has_path(cond, "backend"):
            if not has_path(shared, "backend"):
                cond["backend"] = "CPU"  # a row of a CPU ("AMD Ryzen 9 5950X"): the CPU backend ran it
                e.origins["backend"] = "guess: the hardware is a CPU"
        engine = cond.get("engine") or shared.get("engine")
        if (
            isinstance(hardware, str)
            and _APPLE_GPU.search(hardware)
            and isinstance(engine, str)
            and _METAL_ENGINES.fullmatch(engine)
            and not has_path(cond, "backend")
            and not has_path(shared, "backend")
        ):
            # llama.cpp (and Ollama, ds4) on Apple silicon: its Metal backend, on by default on macOS
            # (llama.cpp's GGML_METAL), where the post names none
            cond["backend"] = "Metal"
            e.origins["backend"] = "guess: llama.cpp's default backend on Apple silicon"
        if (
            isinstance(hardware, str)
            and _ASCEND_MACHINE.search(hardware)
            and not has_path(cond, "backend")
            and not has_path(shared, "backend")
        ):
            # Huawei's Ascend NPUs run models through CANN only (vLLM through its vllm-ascend plugin)
            cond["backend"] = ASCEND_NPU
            e.origins["backend"] = "guess: an Ascend NPU's only backend"
        if "build" in cond and (
            not builds_engine(cond["build"], engine) or not ctx.build_fits(cond["build"], engine)
        ):
            del cond["build"]  # "21% faster than Ollama" after "llama.cpp b4000": not Ollama's build
        drafted = (
            has_path(cond, "block_max")
            or has_path(shared, "block_max")
            or metric == "acceptance_rate"
            or e.fields["source_line"] in accepting
        )
        if (
            drafting == "draft-self"
            and cond.get("decoding") == "speculative"
            and DRAFT_COUNT.search(str(e.fields.get("quote") or ""))
            and not any(
                not m.group("plain") and not DRAFT_COUNT.fullmatch(m.group(0))
                for m in DECODING_PHRASE.finditer(str(e.fields.get("quote") or ""))
            )
        ):
            # "15.6 tok/s with 2 draft tokens" in a post about MTP: drafting of the post's one kind
            cond["decoding"] = drafting
            e.origins["decoding"] = f"guess: a draft size, in a post about {drafting} decoding"
        if drafting and drafted and not has_path(cond, "decoding") and not has_path(shared, "decoding"):
            # a draft size (its own or its scope's: "MTP n=4" in the setup) or an acceptance (its
            # own or its line's): a drafting run, of the post's one kind
            cond["decoding"] = drafting
            e.origins["decoding"] = f"guess: a draft size or acceptance, in a post about {drafting} decoding"
        if (
            plain
            and not has_path(cond, "decoding")
            and not has_path(shared, "decoding")
            # (an acceptance is a drafting run's whatever the post names: "accept 0.87", "AL 2.49")
            and metric not in _DRAFTING_METRICS
        ):
            cond["decoding"] = "plain"
            e.origins["decoding"] = NO_DRAFTING
        if signed and not has_path(cond, "engine") and not has_path(shared, "engine"):
            cond["engine"] = signed[0]
            e.origins["engine"] = f"guess: the post names no engine, and {signed[1]}"
            if signed[2] and not has_path(cond, "build") and not has_path(shared, "build"):
                cond["build"] = signed[2]  # the release it names beside the tool ("llcuda v2.1.0")
                e.origins["build"] = f"guess: the release named beside {signed[0]}"
        _no_gguf_settings(cond, cond.get("engine") or shared.get("engine"), taken)
        e.origins.update(_origins(ctx, src, around, taken, cond, line))
        _elsewhere(ctx, e.origins, cond, line)
        if isinstance(cond.get("model"), str):
            cond["model"] = fuller(cond["model"])
        if isinstance(cond.get("quant"), str):
            cond["quant"] = fuller_quant(cond["quant"])
        if isinstance(cond.get("hardware"), str) and cond["hardware"] in ctx.chips:
            cond["hardware"] = ctx.chips[cond["hardware"]]  # "Strix Halo": the "Radeon 8060S" named
        if isinstance(cond.get("hardware"), str):
            cond["hardware"] = fuller_machine(cond["hardware"])
        if "conditions" in e.fields:
            e.fields["conditions"] = cond
        elif cond:
            # conditions go before the quote and line, as the drafter writes them
            fields = {k: v for k, v in e.fields.items() if k not in ("source_line", "quote", "log")}
            tail = {k: e.fields[k] for k in ("log", "source_line", "quote") if k in e.fields}
            e.fields.clear()
            e.fields.update({**fields, "conditions": cond, **tail})


#: an Ollama model tag ("llama3.2:3b", "qwen2.5-coder:14b-instruct-q4_K_M", "gpt-oss:20b", "mistral:latest"):
#: the name:tag form ``ollama run`` and ``ollama pull`` take, no other engine's
_OLLAMA_TAG = re.compile(
    r"(?<![\w/.:-])[a-z][a-z0-9.-]*[a-z0-9]:(?:\d+(?:\.\d+)?[bm](?:-[\w.-]+)?|latest)(?![\w:/])",
    re.IGNORECASE,
)


#: output only one engine prints, by its lines: (engine, what it is, the lines' pattern); every
#: pattern must match for the sign to hold
_ENGINE_OUTPUT: tuple[tuple[str, str, tuple[re.Pattern[str], ...]], ...] = (
    # ``ollama run --verbose``'s summary (cmd/cmd.go): "prompt eval rate:", "eval rate:", "load duration:"
    (
        "Ollama",
        "its timing summary is `ollama --verbose`'s",
        tuple(
            # (within the line: "\W*" over a run of blank lines was quadratic)
            re.compile(rf"(?m)^[^\w\n]*{w}:[^\S\n]+\d", re.IGNORECASE)
            for w in ("load duration", "prompt eval rate", "eval rate")
        ),
    ),
    # llama.cpp's own timing lines (llama_print_timings before 2024, llama_perf_context_print since)
    # and llama-speculative's counts ("n_drafted = 245", "n_accept  = 231")
    (
        "llama.cpp",
        "its timing lines are llama.cpp's",
        (re.compile(r"\bllama_(?:print_timings|perf_context_print)\s*:"),),
    ),
    (
        "llama.cpp",
        "its drafting counts are llama-speculative's",
        (
            re.compile(r"(?m)^[^\S\n]*n_drafted[^\S\n]*=[^\S\n]*\d"),
            re.compile(r"(?m)^[^\S\n]*n_accept[^\S\n]*=[^\S\n]*\d"),
        ),
    ),
    # llama-server's log lines (tools/server/server.cpp's SLT_/SRV_ prefixes: "slot print_timing: id  0 |
    # task 0 |", "slot update_slots: id  3 | …", "srv  log_server_r: request: POST …")
    (
        "llama.cpp",
        "its log lines are llama-server's",
        (
            re.compile(
                r"(?m)^[^\S\n]*(?:slot[^\S\n]+(?:print_timing|update_slots|launch_slot_with_task|init_sampler|release)"
                r"|srv[^\S\n]+(?:log_server_r|params_from_|update_slots))[^\S\n]*:"
            ),
        ),
    ),
    # vLLM's engine log (vllm/engine/metrics.py: "Avg prompt throughput: … Avg generation throughput:
    # …", "SpecDecoding metrics: …") and its benchmarks' summaries: ``vllm bench serve``'s "Serving
    # Benchmark Result" (SGLang's bench_serving prints a "Backend:" line under the same rule),
    # benchmark_throughput's "Throughput: 3.45 requests/s, 1234.5 total tokens/s"
    (
        "vLLM",
        "its log lines are vLLM's engine log",
        (re.compile(r"Avg prompt throughput:[^\n]*Avg generation throughput:|SpecDecoding metrics:"),),
    ),
    (
        "vLLM",
        "its summary is `vllm bench serve`'s",
        (re.compile(r"={3,}[^\S\n]*Serving Benchmark Result[^\S\n]*={3,}[^\S\n]*\n(?![^\S\n]*Backend:)"),),
    ),
    (
        "vLLM",
        "its summary is vLLM's benchmark_throughput's",
        (re.compile(r"(?m)^[^\S\n]*Throughput:[^\S\n]*[\d.]+ requests/s,[^\S\n]*[\d.]+ total tokens/s"),),
    ),
    # SGLang's scheduler log (python/sglang/srt/managers/scheduler.py: "Decode batch. #running-req: 1,
    # #token: …", "Prefill batch. #new-seq: 1") and its bench_serving's "Backend: sglang"
    (
        "SGLang",
        "its log lines are SGLang's scheduler log",
        (re.compile(r"\b(?:Decode batch\.[^\S\n]*#running-req|Prefill batch\.[^\S\n]*#new-seq)"),),
    ),
    (
        "SGLang",
        "its summary is SGLang's bench_serving's",
        (re.compile(r"(?m)^[^\S\n]*Backend:[^\S\n]+sglang\b"),),
    ),
    # llama.cpp's speculative decoding options since its 2026 rework (common/arg.cpp: "--spec-type
    # draft-mtp", "--spec-draft-n-max 3", "--spec-draft-p-min"), no other engine's flags
    (
        "llama.cpp",
        "its flags are llama.cpp's speculative decoding options",
        (re.compile(r"(?<![\w-])--spec-(?:type|draft-(?:n-max|n-min|p-min|model))\b"),),
    ),
)


#: a tool named with its release ("llcuda v2.1.0", "fastllm v0.9"): a lower-case name, "v" and a
#: dotted version
_VERSIONED_TOOL = re.compile(
    r"(?<![\w./-])(?P<name>[a-z][a-z0-9]*(?:[_.-][a-z0-9]+)*)\s+(?P<v>v\d+\.\d+(?:\.\d+)?)(?!\w|\.\d)"
)
#: software a post names with a release that runs no model: toolkits, languages, libraries, systems
_NOT_ENGINES = frozenset(
    "cuda rocm hip python pytorch torch transformers accelerate triton xformers bitsandbytes numpy "
    "driver ubuntu debian fedora macos windows linux kernel gcc clang cmake node npm pip conda docker "
    "colab jupyter huggingface openai onnx flash-attn flash_attn flashattention safetensors gguf "
    "vulkan metal opencl sycl mkl openblas cublas nccl cudnn tensorrt".split()
    # and the words a release follows in prose ("compatible with v2.1.0", "since v1.2", "up to v3.0")
    + "with and for from since until after before than to of on in at by is was are were up see using "
    "use uses used version release build ver the a an vs or".split()
    # and what runs no model: languages, front ends, firmware, scripts; LLaVA is a model
    + "go golang rust java node nodejs firmware bios script scripts tool webui open-webui openwebui "
    "ui app llava".split()
)
#: words of a benchmark's sentence: a tool named with its release in one is what ran it
_BENCH_WORDS = re.compile(
    r"\b(?:benchmark\w*|bench|perform\w*|tested|measured|results?|inference|throughput|served|serving)\b"
    r"|tok(?:ens)?/s",
    re.IGNORECASE,
)


def _sentence_at(text: str, at: int) -> str:
    """The sentence of ``text`` around offset ``at``: from the last ". ", "!", "?" or line break
    before it to the next, within 300 characters each side (not ``draftcore.sentence_at``: its bounds
    of the whole post cost a pass over it, and run across a heading's line break into the paragraph
    under it, "# Benchmarks" giving a tool named below it a benchmark's words)."""
    start, end = max(0, at - 300), min(len(text), at + 300)  # (a sentence is shorter: bounded work)
    lo = max(start - 1, text.rfind("\n", start, at), *(text.rfind(p, start, at) for p in (". ", "! ", "? ")))
    hi = min((k for k in (text.find(p, at, end) for p in ("\n", ". ", "! ", "? ")) if k >= 0), default=end)
    return text[lo + 1 : hi]


def _versioned_tool(text: str) -> tuple[str, str] | None:
    """(name, release) of the one tool a post names with a release (``_VERSIONED_TOOL``), in a sentence
    about a benchmark (``_BENCH_WORDS``) or named in its title too, and names twice or more
    ("benchmarks for llcuda v2.1.0" … "with CUDA 12.2 and llcuda v2.1.0"), a name ``mentions`` does
    not know and no toolkit's or library's (``_NOT_ENGINES``); None where none or
    two such are named, or it is named once."""
    first = text.lstrip()[:300].split("\n", 1)[0]
    title = first.lower() if first.startswith("# ") else ""
    found: set[tuple[str, str]] = set()
    for m in _VERSIONED_TOOL.finditer(text):
        if (
            (m.group("name"), m.group("v")) not in found
            and m.group("name") not in _NOT_ENGINES
            and len(m.group("name")) >= 3
            and not mentions(m.group("name"))
            # (in a sentence about a benchmark, "benchmarks for llcuda v2.1.0 on Tesla T4 GPUs", or
            # named in the title: "# Pushing Four Raspberry Pis to the Limit with distributed-llama")
            and (m.group("name") in title or _BENCH_WORDS.search(_sentence_at(text, m.start())))
        ):
            found.add((m.group("name"), m.group("v")))
            if len(found) > 1:
                return None
    if len(found) != 1:
        return None
    name, release = found.pop()
    said = len(re.findall(rf"(?<![\w./-]){re.escape(name)}(?![\w-])", text, re.IGNORECASE))
    return (name, release) if said >= 2 else None


def _engine_sign(
    post: Post, entries: list, groups: list, link: str | None = None
) -> tuple[str, str, str | None] | None:
    """(engine, why, build) where a post that names no engine (in its words, a command, any drafted
    claim or group) shows whose runs it measures: an Ollama model tag (``_OLLAMA_TAG``), output only
    one engine prints (``_ENGINE_OUTPUT``: ``ollama --verbose``'s summary, llama.cpp's timing lines),
    or the one tool it names with a release, twice or more (``_versioned_tool``: "llcuda v2.1.0", the
    release its build), or the engine whose repository ``link`` is (``draftnames.repository_engine``:
    an issue of vLLM's); None otherwise (``fill`` guesses nothing)."""
    m = _OLLAMA_TAG.search(post.text)  # first: most posts hold none, and reading names is slower
    sign: tuple[str, str, str | None] | None = (
        ("Ollama", f"'{m.group(0)}' is an Ollama model tag", None)
        if m
        else next(
            (
                (engine, why, None)
                for engine, why, pats in _ENGINE_OUTPUT
                if all(p.search(post.text) for p in pats)
            ),
            None,
        )
    )
    if sign is None and (tool := _versioned_tool(post.text)) is not None:
        sign = (tool[0], f"it names the tool {tool[0]} with its release {tool[1]}, twice or more", tool[1])
    if sign is None and (named := _SELF_NAMED_ENGINE.match(post.text)) is not None:
        # a project's README: "# flash-moe" over "Pure C/Metal inference engine for …": its own runs
        sign = (named.group("name"), f"the post is {named.group('name')}'s page, an inference engine's", None)
    if sign is None and link and (repo := repository_engine(link)) is not None:
        # an issue or pull request of an engine's own repository ("github.com/vllm-project/vllm/
        # issues/12845"): that engine's runs, where the post names no engine
        sign = (repo[0], f"it was published in {repo[1]}, {repo[0]}'s repository", None)
    if sign is None or any((x.fields.get("conditions") or {}).get("engine") for x in [*entries, *groups]):
        return None
    # (the engine the output itself names is its sign's: "Backend: sglang" in SGLang's summary)
    return None if any(x.path == "engine" and x.value != sign[0] for x in mentions(post.text)) else sign


#: a project's page: its title one name ("# flash-moe", "# ds4.c"), then, opening the next paragraph,
#: words calling it an inference engine, runtime or server ("Pure C/Metal inference engine for …", "A
#: fast LLM serving runtime")
_SELF_NAMED_ENGINE = re.compile(
    # (a project's identifier: a dash, dot, underscore or digit in it, or a capital inside; not a
    # word such as "Notes")
    r"\A\s*#\s+(?P<name>[A-Za-z](?=[\w.+-]*(?:[-_.+\d]|(?-i:[a-z][A-Z])))[\w.+-]{1,40})\s*\n\s*\n"
    r"(?!(?:my|our|this\s+is\s+my)\b)(?:[^\n]{0,80}?)\b(?:LLM\s+|inference\s+|serving\s+)"
    r"(?:inference\s+)?(?:engine|runtime|server)\b",
    re.IGNORECASE,
)
#: an Apple silicon chip ("Apple M3 Max", "Apple M2 Ultra (Mac Studio)"): its GPU runs through Metal
_APPLE_GPU = re.compile(r"\bApple M[1-9]\b")
#: engines whose only GPU backend on a Mac is Metal (llama.cpp, the apps running it, antirez's ds4); not
#: MLX's, whose expected files name no backend
_METAL_ENGINES = re.compile(r"llama\.cpp|ik_llama\.cpp|Ollama|ds4")


#: the backends one maker's machines alone run, and the words naming those machines (``_backend_fits``)
_VENDOR_BACKENDS = {
    "CUDA": r"NVIDIA|GeForce|Tesla|Quadro|Jetson|DGX",
    "Metal": r"Apple|Mac",
    "ROCm": r"AMD|Radeon|Instinct|Strix",
    ASCEND_NPU: r"Ascend|Atlas",
}
#: any maker's words (``_backend_fits``)
_ANY_VENDOR = re.compile(
    r"\b(?:" + "|".join(_VENDOR_BACKENDS.values()) + r"|Intel|Snapdragon|Rockchip|Raspberry)"
)


def _backend_fits(backend: object, hardware: str) -> bool:
    """Whether ``backend`` can run on ``hardware``: a backend of one maker's machines (CUDA, Metal,
    ROCm, the Ascend NPU's: ``_VENDOR_BACKENDS``) on a machine named by another maker only does not;
    any other pair, or a machine of no maker named, does."""
    words = _VENDOR_BACKENDS.get(str(backend))
    if words is None or not _ANY_VENDOR.search(hardware):
        return True
    return re.search(rf"\b(?:{words})", hardware) is not None


#: metrics only a drafting run has: never guessed plain (``fill``)
_DRAFTING_METRICS = frozenset({"acceptance_rate", "mean_accepted_length", "draft_tokens", "accepted_tokens"})
#: where ``decoding: plain`` of a post that names no drafting comes from (``fill``)
NO_DRAFTING = "guess: the post names no speculative decoding"


def _origins(
    ctx: Context,
    src: dict[str, tuple[Scope, str]],
    around: dict[str, object],
    taken: list[str],
    cond: dict,
    line: int,
) -> dict[str, str]:
    """path -> ``Context.origin`` of each path of ``taken`` that ``cond`` holds as ``around`` gave it
    (a build deleted since, or a model name completed, keeps or drops its origin accordingly), but
    for one found on ``line``, the claim's own: its own words."""
    out = {}
    for path in dict.fromkeys(taken):
        if isinstance(around[path], bool):
            continue  # a flag (flash_attn: true): not traced (docs/claims.md)
        if path in src and has_path(cond, path):
            where = ctx.origin(*src[path], around[path])
            if not where.startswith(f"line {line},"):
                out[path] = where
    return out


def _elsewhere(ctx: Context, origins: dict[str, str], cond: dict, line: int) -> None:
    """Add to ``origins`` each condition of ``cond`` that has none and that ``line`` (the claim's own,
    or a table's first) does not name (``Context.lines_naming``): taken from the lines before it (the
    command above a result, a sentence or heading naming the machine), so "line N" is the nearest
    line before holding the word, else the first after, else "inferred" (written otherwise: 16384
    as "16k", a speedup's arm from the post's subject)."""
    for path, value in flat_paths(cond).items():
        if path in origins:
            continue
        if not _telling(value):
            continue  # a flag (on/off): written in too many ways to look for
        if path == "decoding" and DECODING_PHRASE.search(ctx.post.line(line)):
            continue  # its own words for it ("| code (MTP k=2) |" of draft-self: no other line's "draft")
        lines = ctx.lines_naming(value)
        k = bisect.bisect_right(lines, line)
        if k and lines[k - 1] == line:
            continue  # its own words
        if k or k < len(lines):
            # a setting's number is a command's: the nearest command line before naming it, over a
            # log line's "512 tokens" nearer the claim
            commands = [n for n in lines[max(0, k - 50) : k] if ctx.line_kind(n) == "command"]
            # ("--draft-min 1" under a command's other flags: a string, a number still)
            numeric = isinstance(value, int) or isinstance(value, str) and value.replace(".", "").isdecimal()
            n = commands[-1] if commands and numeric else lines[k - 1] if k else lines[k]
            kind = ctx.line_kind(n)
            origins[path] = f"line {n}, {kind}" if kind else f"line {n}"
        else:
            origins[path] = "inferred"


#: conditions a drafted entry may carry from the prose above it rather than state on its own line
#: (the drafter keeps a paragraph's machine, engine, build and backend for the paragraphs after it)
_INHERITED = ("hardware", "engine", "build", "backend")


#: how far before and after a claim's sentence ``_line_names`` reads its line, in characters
_LINE_WINDOW = 400


def _line_names(cond: dict, line: str, quote: str) -> None:
    """Give a claim the machine, engine, build or backend its own line names before its sentence
    (``quote``) where it holds another, carried from an earlier paragraph: "Ollama(Ver. 0.11.4) →
    2~3 tokens / sec" is Ollama's whatever the paragraph above named last.  Only where the line
    names one value of the path and the sentence itself none ("45 t/s, 2x faster than Ollama" keeps
    its own engine)."""
    at = line.find(quote[:12].rstrip()) if quote.strip() else -1  # a sentence may run past its line
    if at <= 0:
        return
    # (within a window of the line: each claim of a long line read all of it, quadratic)
    before, rest = line[max(0, at - _LINE_WINDOW) : at], line[at : at + _LINE_WINDOW]
    for path in _INHERITED:
        own = cond.get(path)
        if not isinstance(own, str):
            continue
        said = _distinct([v for p, v in _said(before) if p == path])
        if len(said) == 1 and _key(said[0]) != _key(own) and not any(p == path for p, _ in _said(rest)):
            cond[path] = said[0]


def _said(text: str) -> list[tuple[str, object]]:
    """The names and settings ``text`` states for ``_INHERITED`` paths (``mentions``, versions,
    builds, backends)."""
    found: list[tuple[str, object]] = [(m.path, m.value) for m in mentions(text)]
    settings_in_words(text, found)
    _builds(text, found)
    _backends(text, found)
    return [(p, v) for p, v in found if p in _INHERITED]


def _names(text: str, path: str, value: object) -> bool:
    """Whether ``text`` (a claim's own line) names ``value`` for ``path`` itself (``mentions``,
    compared by ``_key``; a build also as written: "b4000", "[0.30.6]")."""
    key = _key(value)
    if any(m.path == path and _key(m.value) == key for m in mentions(text)):
        return True
    if (
        path == "build"
        and isinstance(value, str)
        and re.search(rf"(?<![\w.]){re.escape(value)}(?!\w|\.\d)", text)
    ):
        return True  # "[0.30.6] tok/sec: 66.02, …": the version as the line writes it
    found: list[tuple[str, object]] = []
    settings_in_words(text, found)
    _builds(text, found)
    _backends(text, found)
    return any(p == path and _key(v) == key for p, v in found)


#: llama-bench's model column: the architecture and size it prints (``llama_model_desc``: "llama 1B",
#: "qwen2 7B", "qwen3moe 30B.A3B"), no model's name
_ARCH_DESC = re.compile(r"[a-z][a-z0-9_-]*\s\d+(?:\.\d+)?[BM](?:\.A\d+(?:\.\d+)?B)?")


#: the same label joined by a dash, as ``draftnames.model_cell`` writes it ("qwen35-27B"): a lower-case
#: architecture id with digits (no family's name with a version: "qwen35", "qwen3moe", "deepseek2")
_ARCH_JOINED = re.compile(r"[a-z]+\d+[a-z]*-\d+(?:\.\d+)?[BM](?:\.A\d+(?:\.\d+)?B)?")


def _arch_desc(value: object) -> bool:
    """Whether a model value is llama-bench's architecture and size (``_ARCH_DESC``)."""
    return isinstance(value, str) and _ARCH_DESC.fullmatch(value) is not None


def _named_for_arch(own: object, named: object) -> bool:
    """Whether a claim's model is llama-bench's architecture and size (``_ARCH_DESC``: "llama 1B")
    and its context names a model by name ("### tinyllama-1.1b-1t-openorca.Q4_K_M.gguf" over the
    table, a command's ``-m`` file) of about that size (within a quarter, where the name states
    one): the named one is the model."""
    if not isinstance(own, str) or not isinstance(named, str):
        return False
    if not _ARCH_DESC.fullmatch(own) and not (
        # ("qwen35-27B", llama-bench's "qwen35 27B" as ``model_cell`` writes it: an architecture's id
        # that is not how the post names the model, "Qwen3.6-27B")
        _ARCH_JOINED.fullmatch(own) and not named.lower().startswith(own.split("-")[0])
    ):
        return False
    if _ARCH_DESC.fullmatch(named):
        return False
    digits = re.search(r"[\s-](\d+(?:\.\d+)?)[BM]", own)
    if digits is None:
        return False
    size = float(digits.group(1)) * (1e-3 if own.rstrip().endswith("M") else 1)
    said = re.search(r"(?<![\d.])(\d+(?:\.\d+)?)\s?([bBmM])(?![a-zA-Z])", named)
    if said is None:
        return True
    theirs = float(said.group(1)) * (1e-3 if said.group(2) in "mM" else 1)
    return abs(theirs - size) <= 0.25 * max(theirs, size)


def _fuller_machine(setup: object, own: object) -> bool:
    """Whether the machine of a claim's setup names the claim's own machine in full (``_fuller``:
    "NVIDIA A100 40GB PCIe" of "NVIDIA A100"), not more of them ("2x NVIDIA GeForce RTX 3090" is
    not one "RTX 3090")."""
    return (
        _fuller(setup, own)
        and not re.match(r"\d+x\s", str(setup))
        and not re.search(r"\+|\band\b", str(setup))
        # (not another product of the line: "RTX 4060 Ti" is no "RTX 4060" said in full, "M3 Max"
        # no "M3")
        and not (set(str(_key(setup)).split()) - set(str(_key(own)).split())) & _OTHER_PRODUCT
    )


#: the words that make a card or chip another product of its line ("Ti", "Super", "XTX", "Max")
_OTHER_PRODUCT = frozenset(
    {"ti", "super", "xt", "xtx", "max", "pro", "ultra", "plus", "mobile", "laptop", "d"}
)


def _fill(cond: dict, context: dict[str, object], taken) -> None:
    own = set(cond)  # what the claim states itself
    for path, value in context.items():
        if has_path(cond, path) or taken(path):
            continue
        if path == "block_max" and cond.get("decoding") == "plain":
            continue  # a baseline drafts nothing: the draft size around it is the drafting arm's
        if path == "build" and "engine" in cond and cond["engine"] != context.get("engine"):
            continue
        if path in ("batch", "concurrency") and own & {"batch", "concurrency"}:
            # "At bs=8 it reached 210 tok/s" below "for BS1 …": the claim's own batch (a serving
            # engine's concurrency, ``draftcommand.serving_batch``) is its run's, no other sentence's
            continue
        put_path(cond, path, value)


def context_of(post: Post) -> Context:
    """The post's ``Context``, built on the first call and kept in ``post.memo`` (``fill`` and
    ``draftrepeats.stated_repeats`` both read it: building it is the larger part of drafting a long
    post)."""
    ctx = post.memo.get("context")
    if ctx is None:
        ctx = post.memo["context"] = Context(post)
    return ctx
