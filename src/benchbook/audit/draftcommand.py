"""Command lines in a post -> the conditions they set (``benchbook claims draft``).

A command line is a line that starts a llama.cpp tool (``llama-server``, ``llama-bench``,
``llama-cli``, ``llama-sweep-bench``, ``llama-speculative-simple``, older ``main``/``server``), vLLM
(``vllm serve MODEL``, ``vllm bench serve|latency|throughput``, ``python -m vllm.entrypoints...``)
or SGLang (``python -m sglang.launch_server``, ``python -m sglang.bench_serving``) or MLX LM
(``mlx_lm.benchmark``: its ``-p``/``-g``/``-b``/``-n`` its own, ``_MLX_FLAGS``; llama-batched-bench's
``-npp``/``-ntg``/``-npl``, ``_BATCHED_FLAGS``), a ``$`` or ``>``
prompt and environment settings (``CUDA_VISIBLE_DEVICES=0 GGML_CUDA_FORCE_MMQ=1``) allowed before it
(a build suffix after the tool's name, ``llama-server-be0e35``, allowed; a release folder before
it, ``llama-b6318-bin-win-cuda-12.4-x64/``, names the build and backend: ``folder_build``),
continued over lines ending in ``\\``, ``^`` or a backtick, or over lines each starting with a flag
(YAML's folded ``cmd: >``; a forum post's command one flag a line) (``command_lines``).  What
several command lines set alike, they share (``agreed``).
Its flags become claims-file conditions (``conditions_of``; llama.cpp's ``common/arg.cpp`` names):
``-ngl`` -> ``offload.n_gpu_layers``,
``-ncmoe``/``--n-cpu-moe`` -> ``offload.n_cpu_moe``, ``-c``/``--ctx-size`` (vLLM ``--max-model-len``,
SGLang ``--context-length``) -> ``ctx``, ``-fa`` -> ``flash_attn`` (``ingest.settings.flash_attn_word``),
``-ctk``/``-ctv`` -> ``type_k``/``type_v``, ``-b``/``-ub`` -> ``batch``/``ubatch`` (a serving
engine's ``--batch-size`` and vLLM's ``--max-num-seqs``: ``concurrency``, ``serving_batch``), ``--draft-max``
-> ``block_max``, ``-md`` -> ``decoding: speculative`` and ``other.draft_model``, ``-np`` ->
``concurrency``, ``-m`` (vLLM's model argument) -> ``model`` and the quantisation in the file name
-> ``quant``, ``-p "text"`` -> ``prompt``, ``-n`` -> ``cap`` (``tokens_generated`` for llama-bench),
``--temp 0`` -> ``sampling: temperature 0``; flags with no field of their own go under ``other``
(``--top-k 1`` -> ``other.top_k: "1"``).  A llama-bench list (``-ncmoe 22,24,26``) sets no one
value: each row says.
"""

from __future__ import annotations

import copy
import json
import re
import shlex
from dataclasses import dataclass, field
from pathlib import PurePosixPath, PureWindowsPath

from ..ingest.settings import flash_attn_word

#: a shell's prompt before a command typed at it: "$ ", "# ", "PS C:\\llama> ", a venv's "(venv) $ ", a
#: host's or a folder's "user@box:~/llama.cpp$ ", "vulkan$ "; Fedora's "[user@fedora llama.cpp]$ ",
#: macOS zsh's "user@MacBook-Pro llama.cpp % ", oh-my-zsh's "➜  llama.cpp git:(master) ✗ ", a folder
#: with a space ("user@box:~/my models$ "); a regex, for a line's start
SHELL_PROMPT = (
    r"^\s*(?P<sh>(?:\([\w.-]+\)\s*)?(?:"
    r"\[[\w.-]+@[\w.-]+\s[^\]\n]{1,60}\][$#]\s*"
    r"|[\w.-]+@[\w.-]+:[^$#\n]{0,60}[$#]\s+"
    r"|[\w.-]+@[\w.-]+\s\S{1,60}\s%\s+"
    r"|➜\s+\S{1,60}(?:\sgit:\([^)\n]{1,40}\))?(?:\s✗)?\s+"
    r"|[\w.@~:/\\-]*[$%>#]\s*|PS [^>]*>\s*))?"
)

_TOOL = re.compile(
    SHELL_PROMPT + r"(?:[A-Z][A-Z0-9_]*=\S*\s+)*"
    # a NUMA or CPU-affinity wrapper before the tool ("numactl --interleave=all ./llama-bench …",
    # "numactl -N 0 -m 0 …", "taskset -c 0-15 …")
    r"(?:numactl(?:\s+--?[\w-]+(?:=\S+|\s+\d[\d,-]*)?)*\s+|taskset\s+(?:-\w+\s+)?[\dx,-]+\s+)?"
    # (MPI's launcher before a multi-GPU run: "mpirun -n 8 --allow-run-as-root ./gptSessionBenchmark …")
    r"(?:mpirun(?:\s+--?[\w-]+(?:[=\s](?![-./~])\S+)?)*\s+)?"
    r"(?P<path>\S*[/\\])?(?:\./)?"
    r"(?P<tool>llama-(?:server|bench|cli|sweep-bench|batched-bench|speculative-simple|speculative|lookahead|"
    r"lookup|perplexity|parallel|passkey|"
    # its multimodal tools and its smallest examples ("llama-mtmd-cli -m … --mmproj … --image …")
    r"mtmd-cli|llava-cli|qwen2vl-cli|minicpmv-cli|gemma3-cli|simple|simple-chat|run)|"
    # llama.cpp's examples before their llama- names (2024), run from the build folder: "./speculative",
    # "./bin/perplexity" (a path before them: the bare word is too common a word)
    r"(?<=[/\\])(?:speculative|lookahead|lookup|perplexity|batched-bench|parallel|passkey)|"
    r"main|server|vllm\s+(?:bench\s+)?serve|vllm\s+bench\s+(?:latency|throughput)|"
    r"python3?\s+-m\s+(?:vllm\.entrypoints\S*|sglang\.launch_server|sglang\.bench_\w+)|"
    # vLLM's example scripts that run the model offline ("python examples/offline_inference/eagle.py")
    r"python3?\s+(?:\S*/)?examples/offline_inference/\w+\.py|"
    # MLX LM's benchmark ("mlx_lm.benchmark --model ... -p 128 -g 128 -b 32", "python -m mlx_lm.benchmark")
    r"(?:python[\d.]*\s+-m\s+)?mlx_lm[._]benchmark|"
    # its generation at the terminal ("mlx_lm.generate --model … --prompt …", "python3.11 -m mlx_lm
    # generate …")
    r"(?:python[\d.]*\s+-m\s+)?mlx_lm(?:\.|_|\s+)generate|"
    # SpecForge's benchmark of an EAGLE3 draft, which starts SGLang ("python bench_eagle3.py --model …
    # --config-list 1,3,1,4")
    r"python3?\s+(?:\S*/)?bench_eagle3\.py|"
    # MLC LLM's benchmark script (jetson-containers' "python3 /opt/mlc-llm/benchmark.py --model … --prompt
    # … --max-new-tokens 128") and its CLI's ("mlc_llm bench")
    r"python3?\s+(?:\S*/)?mlc[-_]llm/benchmark\.py|mlc_llm\s+bench|"
    # PyTorch's torchchat, the model its positional argument ("python torchchat.py generate llama3
    # --max-new-tokens 50 --device mps")
    r"python3?\s+(?:\S*/)?torchchat\.py\s+(?:generate|chat|eval|server|browser)|"
    # EvalScope's serving benchmark client ("evalscope perf --parallel 5 10 --dataset longalpaca …")
    r"evalscope\s+perf|"
    # lm-evaluation-harness over an engine ("lm_eval --model vllm --model_args pretrained=…")
    r"(?:python3?\s+-m\s+)?lm[_-]eval|"
    # LMDeploy's benchmark scripts ("python3 profile_generation.py --concurrency 8 --input_seqlen 1
    # --output_seqlen 2048", benchmark/profile_throughput.py)
    r"python3?\s+(?:\S*/)?profile_(?:generation|throughput|restful_api)\.py|"
    # Ollama's chat at the terminal: the model's tag, then the prompt ("ollama run --verbose gpt-oss:20b hi")
    r"ollama\s+run|"
    # TensorRT-LLM's C++ benchmarks and CLIs ("./cpp/build/benchmarks/gptSessionBenchmark --model llama …")
    r"gpt(?:Session|Manager)Benchmark|trtllm-(?:bench|serve)|"
    # colibri's CLI, an engine streaming a MoE's experts from disk ("./coli run --ram 1000 --gpu none …")
    r"coli\s+run)"
    r"(?:-(?P<build>[0-9a-f]{6,40}))?(?:\.exe)?(?=\s|$)"
)
#: flag -> (condition path, kind): kind int | str | fa | model | draft | flag | kv (both K and V) |
#: device (a llama.cpp device's backend, ``DEVICE_BACKENDS``)
_FLAGS: dict[str, tuple[str, str]] = {
    "-ngl": ("offload.n_gpu_layers", "int"),
    "--gpu-layers": ("offload.n_gpu_layers", "int"),
    "--n-gpu-layers": ("offload.n_gpu_layers", "int"),
    "-ncmoe": ("offload.n_cpu_moe", "int"),
    "--n-cpu-moe": ("offload.n_cpu_moe", "int"),
    "-c": ("ctx", "int"),
    "--ctx-size": ("ctx", "int"),
    "--max-model-len": ("ctx", "int"),
    "--model-max-len": ("ctx", "int"),  # (as posts misspell vLLM's --max-model-len)
    "--context-length": ("ctx", "int"),
    "--vllm_maxlen": ("ctx", "int"),  # LLaMA-Factory's vLLM backend: its --max-model-len
    "--vllm-maxlen": ("ctx", "int"),
    "-fa": ("flash_attn", "fa"),
    "--flash-attn": ("flash_attn", "fa"),
    "-ctk": ("type_k", "str"),
    "--cache-type-k": ("type_k", "str"),
    "-ctv": ("type_v", "str"),
    "--cache-type-v": ("type_v", "str"),
    # vLLM's and SGLang's one KV cache type for both K and V ("--kv-cache-dtype fp8")
    "--kv-cache-dtype": ("type_k", "kv"),
    "-b": ("batch", "int"),
    "--batch-size": ("batch", "int"),
    "-ub": ("ubatch", "int"),
    "--ubatch-size": ("ubatch", "int"),
    "--draft-max": ("block_max", "int"),
    "--draft": ("block_max", "int"),
    "--draft-n": ("block_max", "int"),
    "--spec-draft-n-max": ("block_max", "int"),
    "--draft-n-max": ("block_max", "int"),
    "--num-speculative-tokens": ("block_max", "int"),
    "--num-spec-tokens": ("block_max", "int"),
    "--speculative-num-steps": ("block_max", "int"),
    "--spec-type": ("other.spec_type", "spec"),
    "--speculative-algorithm": ("other.speculative_algorithm", "spec"),
    "--speculative-algo": ("other.speculative_algorithm", "spec"),
    "--speculative-model": ("other.draft_model", "draft"),
    "--speculative-draft-model-path": ("other.draft_model", "draft"),
    "--speculative-draft": ("other.draft_model", "draft"),
    "--speculative-config": ("other.speculative_config", "config"),
    "-md": ("other.draft_model", "draft"),
    "--model-draft": ("other.draft_model", "draft"),
    "--draft-model": ("other.draft_model", "draft"),  # MLX LM's generate and server
    # the draft model from Hugging Face ("-hfd unsloth/Qwen3-0.6B-GGUF:Q8_0": common/arg.cpp's -hfd,
    # -hfrd, --hf-repo-draft)
    "-hfd": ("other.draft_model", "draft"),
    "-hfrd": ("other.draft_model", "draft"),
    "--hf-repo-draft": ("other.draft_model", "draft"),
    "--spec-draft-model": ("other.draft_model", "draft"),  # llama-server's since its --spec-* names
    "-np": ("concurrency", "int"),
    "--parallel": ("concurrency", "int"),
    "-m": ("model", "model"),
    "--model": ("model", "model"),
    # llama.cpp's model pulled from a Hugging Face repository, its quant after a colon ("-hf
    # ggml-org/gpt-oss-20b-GGUF", "-hf unsloth/Qwen3-30B-A3B-GGUF:Q4_K_M"; common/arg.cpp); a
    # local file (-m) names it first
    "-hf": ("model", "hf_model"),
    "-hfr": ("model", "hf_model"),
    "--hf-repo": ("model", "hf_model"),
    "--model-path": ("model", "model"),
    "--model-dir": ("model", "model"),
    "-d": ("depth", "int"),
    "--quantization": ("quant", "str"),
    # vLLM's, SGLang's and transformers' weights' type ("--dtype bfloat16"): the model's precision,
    # its quant where no quantisation is named (SOURCES.md: "quant: bfloat16")
    "--dtype": ("quant", "dtype"),
    "--cpu-moe": ("other.cpu_moe", "flag"),
    "--max-tokens": ("cap", "int"),
    "--max-new-tokens": ("cap", "int"),
    "--n-predict": ("cap", "int"),
    "--random-output-len": ("cap", "int"),
    "--sharegpt-output-len": ("cap", "int"),
    "--output-len": ("cap", "int"),
    # a benchmark's set prompt length in tokens (``vllm bench``'s --input-len, --random-input-len): the
    # prompt of that many tokens, as a serving sweep's "ISL" is drafted ("128 tokens")
    "--input-len": ("prompt", "tokens"),
    "--random-input-len": ("prompt", "tokens"),
    "--max-concurrency": ("concurrency", "int"),
    # LMDeploy's profile scripts: the requests at once, the prompt's and the output's set lengths
    "--concurrency": ("concurrency", "int"),
    "--input_seqlen": ("prompt", "tokens"),
    "--output_seqlen": ("cap", "int"),
    "--dataset": ("prompt", "dataset"),  # a serving benchmark's prompts (EvalScope, vLLM's --dataset-name)
    "--dataset-name": ("prompt", "dataset"),
    "--max-num-seqs": ("concurrency", "int"),
    # llama.cpp's device ("--device Vulkan0", "-dev CUDA0,CUDA1"): the backend its name starts with
    "--device": ("backend", "device"),
    "-dev": ("backend", "device"),
    # (colibri's "--gpu none": no GPU, the CPU backend)
    "--gpu": ("backend", "device"),
}
#: a llama.cpp device's name ("Vulkan0", "CUDA1", "ROCm0", "SYCL0", "Metal", "MTL0", "CPU") -> its backend
DEVICE_BACKENDS = {
    "vulkan": "Vulkan",
    "cuda": "CUDA",
    "rocm": "ROCm",
    "hip": "ROCm",
    "sycl": "SYCL",
    "metal": "Metal",
    "mtl": "Metal",
    "cpu": "CPU",
    "opencl": "OpenCL",
    "none": "CPU",  # llama.cpp's "--device none": no device offloaded, the CPU runs it all
}
#: the weights' types ``--dtype`` takes by name ("auto" names none)
_DTYPES = frozenset({"bfloat16", "bf16", "float16", "fp16", "half", "float32", "fp32", "float"})
#: MLX LM's benchmark's own flags (``mlx_lm.benchmark``), where llama.cpp's letters mean other things:
#: ``-p``/``-g`` the prompt's and the generation's lengths in tokens, ``-b`` the sequences batched
#: (requests at once), ``-n`` the trials averaged
_MLX_FLAGS: dict[str, tuple[str, str]] = {
    "-p": ("other.prompt_tokens", "int"),
    "--prompt-tokens": ("other.prompt_tokens", "int"),
    "-g": ("tokens_generated", "int"),
    "--generation-tokens": ("tokens_generated", "int"),
    "-b": ("concurrency", "int"),
    "--batch-size": ("concurrency", "int"),
    "-n": ("other.trials", "int"),
    "--num-trials": ("other.trials", "int"),
}
#: a prompt flag reading standard input and the file redirected to it ("--prompt - < prompt.txt")
_STDIN_PROMPT = re.compile(r"(?P<flag>(?<!\S)(?:-p|--prompt|-f|--file))\s+-\s*<\s*(?P<file>[^\s<>|;&]+)")
#: MLX LM's generation's own letters (mlx_lm/generate.py: ``-m`` is ``--max-tokens``, not a model)
_MLX_GENERATE_FLAGS: dict[str, tuple[str, str]] = {"-m": ("cap", "int")}
#: llama-batched-bench's own flags (tools/batched-bench): ``-npp`` the prompt's tokens of each
#: sequence, ``-ntg`` the tokens each generates, ``-npl`` the sequences decoded at once (its ``B``
#: column: requests at once, ``concurrency``); a list of several ("-npl 1,2,4") sets none
_BATCHED_FLAGS: dict[str, tuple[str, str]] = {
    "-npp": ("other.prompt_tokens", "int"),
    "-ntg": ("tokens_generated", "int"),
    "-npl": ("concurrency", "int"),
}
#: the drafting a ``--spec-type``/``--speculative-algorithm`` value or a ``--speculative-config``
#: method names: the model's own heads (MTP; SGLang's NEXTN) draft for themselves, anything else
#: (a draft model, EAGLE heads, n-gram lookup) is speculative decoding
_SELF_DRAFTING = re.compile(r"mtp|nextn", re.IGNORECASE)
#: a served name that is a client's alias or a stand-in, no model ("gpt-4o" for OpenAI clients,
#: "default", "model")
_ALIAS = re.compile(
    r"(?i)gpt-(?:3\.5|4)[\w.-]*|o\d(?:-[\w-]+)?|claude[\w.-]*|text-davinci[\w-]*|default|model|llm|chat"
)
#: SpecForge's ``--config-list`` after its batch size: SGLang's speculative settings, in order
_EAGLE_CONFIG = ("speculative_num_steps", "speculative_eagle_topk", "speculative_num_draft_tokens")
#: flags that take no value (the next word is not theirs)
_NO_VALUE = frozenset({"--cpu-moe", "--no-mmap", "--mlock", "--jinja", "--verbose", "-v", "--cont-batching"})
#: a llama.cpp quantisation type by its parts (ggml's Q4_0, Q4_K_M, IQ3_XXS, TQ1_0, Q4_0_4_4;
#: Unsloth's and bartowski's Q4_K_XL, Q6_K_L; ik_llama.cpp's row-interleaved IQ1_S_R4, Q8_K_R8): what
#: follows them is no part of it ("Qwen3-8B-Q4_K_M_MTP.gguf": Q4_K_M, and the model's MTP variant)
QUANT_TYPE = r"T?I?Q\d(?:_(?:[0-9]|K(?:SS|S|T)?))?(?:_(?:XXS|XS|XL|NL|[SML]|\d))*(?:_R(?:4|8|16)(?![0-9]))?"
#: a git commit's hash, abbreviated or full, holding a digit and a letter (not a number, not a word):
#: the one spelling the drafter's commit patterns share
HEX_COMMIT = r"(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}"
#: a quantisation's bits per weight written after it ("IQ4_XS-4.19bpw")
_BPW = re.compile(r"-\d+(?:\.\d+)?bpw(?![A-Za-z0-9])", re.IGNORECASE)
#: a llama.cpp type written without its underscores in a file name ("qwen2.5-72b-iq4xs.gguf",
#: "…-q4km.gguf"): read as the type (``_underscored``)
_GLUED_QUANT = r"I?Q\d(?:K[SML]|K|XXS|XS|NL)(?![A-Za-z0-9])"
#: a quantisation in a model file name (llama.cpp's ggml types, Unsloth's UD- names, others)
_QUANT = re.compile(
    # NVFP4 with its activations' bits ("NVFP4A16"), llm-compressor's weight/activation schemes
    # ("W4A16", "W8A8")
    rf"(?i)(?<![A-Za-z0-9])(UD-|smol-)?({QUANT_TYPE}|{_GLUED_QUANT}|BF16|F16|F32|FP8|FP16|INT4|INT8|MXFP[468]|NVFP4(?:A16)?|W\d{{1,2}}A\d{{1,2}}|(?:AWQ|GPTQ)(?:-(?:Int[48]|[48]-?bit))?)"
    r"(?![A-Za-z0-9])"
)


@dataclass
class Command:
    """A command line of a post: the ``tool``, its first and last ``line``, the ``text`` (joined
    over continuations), and the ``conditions`` it sets (nested like a claims file's)."""

    tool: str
    line: int
    last: int
    text: str
    conditions: dict = field(default_factory=dict)


#: a serving benchmark's client (``sglang.bench_serving``, ``vllm bench serve``,
#: ``benchmark_serving.py``, ``evalscope perf``): it measures the server it is pointed at and names
#: that server's settings only where it repeats them
_CLIENT = re.compile(r"bench_serving|bench serve|benchmark_serving|evalscope", re.IGNORECASE)


def serving_client(tool: str) -> bool:
    """Whether ``tool`` (a command line's, ``Command.tool``) is a serving benchmark's client
    (``_CLIENT``), not a server or a tool that runs the model itself."""
    return _CLIENT.search(tool) is not None


def serving(tool: str) -> bool:
    """Whether ``tool`` (a command line's, ``Command.tool``) starts a server (llama-server, ``vllm
    serve``, SGLang's launch_server): the results after it are a client's measurements of it, whatever
    client the post ran."""
    return re.search(r"server|\bserve\b|launch_server", tool) is not None and not serving_client(tool)


def engine_of(tool: str) -> str | None:
    """llama.cpp | vLLM | SGLang | LMDeploy | MLX | MLC LLM | torchchat | Ollama | colibri | TensorRT-LLM:
    the engine a tool
    belongs to; None for a benchmark client of any server (``evalscope perf``)."""
    if tool.startswith("evalscope") or "lm_eval" in tool or "lm-eval" in tool:
        return None  # a client: lm_eval's engine is its ``--model`` (``_HARNESS_MODELS``)
    if "mlx_lm" in tool:
        return "MLX"
    if "vllm" in tool or "offline_inference" in tool:
        return "vLLM"
    if "mlc" in tool:
        return "MLC LLM"
    if "torchchat" in tool:
        return "torchchat"
    if tool.startswith("ollama"):
        return "Ollama"
    if tool.startswith("coli "):
        return "colibri"
    if tool.startswith(("gptSession", "gptManager", "trtllm")):
        return "TensorRT-LLM"
    if "profile_" in tool:
        return "LMDeploy"  # (its benchmark scripts: profile_generation.py, profile_throughput.py)
    if "sglang" in tool or "bench_eagle3" in tool:
        return "SGLang"  # (SpecForge's bench_eagle3.py launches an SGLang server)
    return "llama.cpp"


#: engines that take llama.cpp's ``-b``/``--batch-size`` (the logical batch, in tokens, of prompt
#: processing): llama.cpp, its forks and the apps built on it (Ollama's ``num_batch``)
_TOKEN_BATCH = re.compile(r"llama[._-]?cpp|ollama|lm studio|koboldcpp", re.IGNORECASE)


def is_token_batch(engine: object) -> bool:
    """Whether ``engine`` takes llama.cpp's token batch (``_TOKEN_BATCH``): its ``batch`` is no
    count of requests served at once."""
    return isinstance(engine, str) and _TOKEN_BATCH.search(engine) is not None


def serving_batch(conditions: dict, engine: object = None) -> None:
    """Rename ``batch`` to ``concurrency`` in ``conditions`` (a claim's, changed in place) where its
    engine is not llama.cpp's kind (``_TOKEN_BATCH``) or not named: a "batch size N" of vLLM, SGLang,
    TensorRT-LLM or a benchmark script is the number of sequences served at once, which the
    expected files write as ``concurrency`` (SOURCES.md: "throughput ... summed over a batch or
    concurrent requests"); llama.cpp's ``-b`` stays ``batch``, as does a batch stated beside a
    ubatch or a count of layers on the GPU (only llama.cpp and the tools running it split a batch in
    ubatches and offload layers: "batch_size = 512", "ubatch_size = 128", "gpu_layers: 35").
    ``engine``: the engine where ``conditions`` name none (a table row's group's).  A
    ``concurrency`` already stated is kept."""
    if "batch" not in conditions or "ubatch" in conditions or has_path(conditions, "offload.n_gpu_layers"):
        return
    engine = conditions.get("engine") or engine
    if isinstance(engine, str) and _TOKEN_BATCH.search(engine):
        return
    batch = conditions.pop("batch")
    conditions.setdefault("concurrency", batch)


def model_and_quant(path: str) -> tuple[str, str | None]:
    """(model name, quantisation or None) of a model file or repository name: the file's stem with
    the quantisation, what follows it and the shard suffix dropped (``Qwen3-30B-A3B-Q4_K_M.gguf`` ->
    ``("Qwen3-30B-A3B", "Q4_K_M")``; ``unsloth/Qwen3-8B-GGUF:UD-Q4_K_XL`` -> ``("Qwen3-8B",
    "UD-Q4_K_XL")``).  The packaging a repository or file name ends with is no part of the model
    (SOURCES.md's model-name convention, ``_PACKAGING``: ``Qwen3.6-27B-MTP-GGUF``, ``Llama-2-7b-chat-hf``,
    ``Llama2-7B-exl2`` -> ``Qwen3.6-27B``, ``Llama-2-7b-chat``, ``Llama2-7B``); an MLX repository's
    bits (``Qwen3.5-9B-4bit``) are its quantisation.  An Ollama tag as a path (``-m
    llama3.1\\:8b-instruct-q8_0``, the shell's escaped colon) keeps its name and tag, the quantisation
    apart: ``("llama3.1:8b-instruct", "q8_0")``."""
    # Hugging Face's cache: ".../models--Org--Name/snapshots/<commit>": the repository's folder names it
    cached = re.search(r"(?:^|[/\\])models--([^/\\]+)[/\\]snapshots(?:[/\\][0-9a-f]{6,40})?[/\\]?$", path)
    if cached is not None:
        path = cached.group(1)
    name = PureWindowsPath(PurePosixPath(path.replace("\\:", ":")).name).name
    if name.lower() == "params":
        # MLC LLM's compiled model folder ("dist/Llama-2-7b-chat-hf-q4f16_ft/params"): the folder names it
        name = PurePosixPath(path.replace("\\", "/")).parent.name or name
    name, _, tag = name.partition(":")
    if _OLLAMA_SIZE.match(tag):
        found = _QUANT.search(tag)
        if found is None:
            return f"{name}:{tag}", None
        return f"{name}:{tag[: found.start()].rstrip('-_.')}", tag[found.start() :]
    # the file's format is no part of the name (GGUF; GGML's "x.ggmlv3.q4_0.bin")
    name = re.sub(r"(?i)(?:\.powerinfer)?\.gguf$|\.bin$|-\d{5}-of-\d{5}|-GGUF$", "", name)
    name = _without_org(name)
    name, bits = _unpackaged(name)
    mlc = _MLC_QUANT.search(name)
    if mlc is not None and mlc.start() > 0:
        # MLC LLM's weight formats ("Llama-2-7b-chat-hf-q4f16_1-MLC": 4-bit weights, float16 activations)
        return _unpackaged(name[: mlc.start()])[0], mlc.group(1)
    found = _QUANT.search(tag) or _QUANT.search(name)
    if found is None and bits:
        return name, bits
    quant = (found.group(1) or "") + _underscored(found.group(2)) if found else None
    if found and found.string is name:
        # GGUF names put the encoding last: what follows the quant is the encoding's own tag
        # ("-4.19bpw", "-imat"), not the model's ("Qwen3-8B-IQ4_XS-4.19bpw.gguf" -> "Qwen3-8B");
        # its bits per weight name the quant's variant ("IQ4_XS-4.19bpw")
        bpw = _BPW.match(name, found.end())
        if quant and bpw:
            quant += bpw.group(0)
        start = found.start()
        imatrix = re.search(r"(?i)(?<=[.-])i1-$", name[:start])
        if quant and imatrix:
            # mradermacher's imatrix files ("Cydonia-22B-v1.3.i1-IQ4_XS.gguf"): "i1-" is the quant's
            start = imatrix.start()
            quant = name[start : found.start()] + quant
        name = name[:start].strip("-_. ") or name[found.end() :].strip("-_. ")
        name = re.sub(r"(?i)[.-]ggml(?:v\d+)?$", "", name)
        name = _unpackaged(name)[0]  # "Qwen3.6-27B-MTP-Q4_K_M.gguf": the packaging before the quant
    if name.lower() == "ggml-model":
        name = _model_folder(path) or name
    return name, quant


#: a KoboldCpp library's file name (koboldcpp.py loads koboldcpp_cublas.dll, _vulkan, _hipblas,
#: _clblast, _default): the backend it was built for
_KOBOLD_LIBRARY = re.compile(r"\s*koboldcpp_(\w+?)\.(?:dll|so|dylib)\s*")
_KOBOLD_BACKENDS = {
    "cublas": "CUDA",
    "cuda": "CUDA",
    "vulkan": "Vulkan",
    "hipblas": "ROCm",
    "clblast": "OpenCL",
}


#: KoboldCpp's benchmark keys (its results block's lines and Flags, its CSV's columns) -> condition path
KOBOLD_SETTINGS = {
    "Layers": "offload.n_gpu_layers",
    "MaxCtx": "ctx",
    "GenAmount": "tokens_generated",
    "Threads": "other.threads",
    "BlasThreads": "other.blas_threads",
    "BlasBatchSize": "batch",
}


#: KoboldCpp's console lines of a generation: "Processing Prompt [BLAS] (1676 / 1676 tokens)", "Generating
#: (78 / 387 tokens)" (the tokens generated of those asked for), "CtxLimit: 1754/8192" (the context in
#: use of its size), "Amt:100/100" (koboldcpp.py's ``print`` of each request)
_KOBOLD_CONSOLE = (
    (
        re.compile(r"^\s*Processing Prompt(?: \[\w+\])?\s*\((?P<a>\d+)\s*/\s*(?P<b>\d+)\s*tokens?\)"),
        "other.prompt_tokens",
        None,
    ),
    (re.compile(r"^\s*Generating\s*\((?P<a>\d+)\s*/\s*(?P<b>\d+)\s*tokens?\)"), "tokens_generated", "cap"),
    (re.compile(r"\bCtxLimit:\s*(?P<a>\d+)\s*/\s*(?P<b>\d+)"), None, "ctx"),
    (re.compile(r"\bAmt:\s*(?P<a>\d+)\s*/\s*(?P<b>\d+)"), "tokens_generated", "cap"),
)


def kobold_console(lines: list[tuple[int, str]]) -> dict:
    """The conditions KoboldCpp's console lines in ``lines`` (``(line, text)``) state
    (``_KOBOLD_CONSOLE``): ``other.prompt_tokens``, ``tokens_generated`` and ``cap`` (of "Generating
    (78 / 387 tokens)"), ``ctx`` (of "CtxLimit: 1754/8192"); ``{}`` where none is there, or a field
    printed twice with two values (two requests' lines: each its own, none the block's)."""
    out: dict = {}
    seen: dict[str, set[int]] = {}
    for _, t in lines:
        for pattern, first, second in _KOBOLD_CONSOLE:
            m = pattern.search(t)
            if m is None:
                continue
            for path, v in ((first, m.group("a")), (second, m.group("b"))):
                if path:
                    seen.setdefault(path, set()).add(int(v))
    for path, values in seen.items():
        if len(values) == 1:
            head, _, leaf = path.rpartition(".")
            (out.setdefault(head, {}) if head else out)[leaf] = values.pop()
    return out


def kobold_backend(library: str) -> str | None:
    """The backend a KoboldCpp library's name says ("koboldcpp_cublas.dll" -> "CUDA"); None for
    another name or a library of no GPU backend ("koboldcpp_default.dll")."""
    m = _KOBOLD_LIBRARY.fullmatch(library)
    return _KOBOLD_BACKENDS.get(m.group(1).lower()) if m else None


def kobold_model(name: str) -> tuple[str, str | None]:
    """(model, quant) of the model KoboldCpp's benchmark names by its file's stem ("Model:
    Cydonia-22B-v1.3.i1-IQ4_XS" was "….gguf": ``model_and_quant`` of the file)."""
    return model_and_quant(re.sub(r"(?i)\.gguf$", "", name.strip()) + ".gguf")


def _underscored(quant: str) -> str:
    """A llama.cpp type written without its underscores, with them ("iq4xs" -> "iq4_xs", "Q4KM" ->
    "Q4_K_M"); any other quantisation as written."""
    m = re.fullmatch(r"(?i)(I?Q\d)(K)?(XXS|XS|NL|[SML])?", quant)
    if m is None or not (m.group(2) or m.group(3)):
        return quant
    return "_".join(g for g in m.groups() if g)


#: folders that hold models without naming one
_NO_MODEL_FOLDER = frozenset(
    {"models", "model", "gguf", "ggufs", "tmp", "data", "downloads", "mnt", "home", "root"}
)


def _model_folder(path: str) -> str | None:
    """The model a folder names, for the file name llama.cpp's conversion scripts wrote into it
    ("models/llama-7b/ggml-model-q4_0.gguf" -> "llama-7b"); a folder named by a size alone under a
    model's folder joins it ("open-llama/7B-v2" -> "open-llama-7B-v2"); None where the path has no
    folder."""
    parts = [p for p in re.split(r"[/\\]", path)[:-1] if p not in ("", ".", "..", "~")]
    if not parts:
        return None
    last = parts[-1]
    if len(parts) > 1 and parts[-2].lower() in ("home", "users") or last.lower() in _NO_MODEL_FOLDER:
        return None  # "/home/alex/ggml-model-q4_0.gguf": the user's folder; "models/": no model's
    if re.match(r"(?i)\d+(?:\.\d+)?[BM]\b", last) and len(parts) > 1 and parts[-2].lower() != "models":
        return f"{parts[-2]}-{last}"
    return last


#: Hugging Face organisations whose name a file's name starts with, joined by "_": bartowski's
#: files ("Qwen_Qwen3-30B-A3B-Q4_K_M.gguf", "google_gemma-3-27b-it-Q4_K_M.gguf") and llama.cpp's
#: ``-hf`` download cache ("ggml-org_gpt-oss-120b-GGUF_gpt-oss-120b-mxfp4.gguf": org, repository and
#: file joined by "_")
_ORGS = frozenset(
    s.lower()
    for s in (
        *("Qwen", "google", "meta-llama", "mistralai", "deepseek-ai", "microsoft", "THUDM", "zai-org"),
        *("openai", "ibm-granite", "nvidia", "moonshotai", "allenai", "tiiuae", "internlm", "CohereForAI"),
        *("CohereLabs", "LGAI-EXAONE", "baidu", "tencent", "ByteDance-Seed", "inclusionAI", "MiniMaxAI"),
        *("unsloth", "bartowski", "ggml-org", "HuggingFaceTB", "stepfun-ai", "arcee-ai", "NousResearch"),
        *("LiquidAI", "upstage", "01-ai", "mlx-community", "lmstudio-community", "TheBloke", "swiss-ai"),
    )
)


def _without_org(name: str) -> str:
    """A model file's name without the organisation its downloader put before it (``_ORGS``, or
    one the model's own name starts with: "Qwen_Qwen3-8B"), and without the repository of
    llama.cpp's download cache ("ggml-org_gpt-oss-120b-GGUF_gpt-oss-120b-mxfp4" -> "gpt-oss-120b-mxfp4");
    other names as they are ("Qwen3_30B_A3B").  Hugging Face's cache folder joins owner and name
    by "--" ("models--Org--Name", "Youssofal--Qwen3.6-27B-…"): the part after the last "--"."""
    if "--" in name and name.rsplit("--", 1)[-1]:
        name = name.rsplit("--", 1)[-1]
    org, sep, rest = name.partition("_")
    if not sep or not rest or not (org.lower() in _ORGS or rest.lower().startswith(org.lower())):
        return name
    repo, sep, file = rest.partition("_")
    if sep and re.search(r"(?i)-GGUF$", repo) and file:
        return file
    return rest


#: a file in a content-addressed store, named by its hash (Ollama's ``blobs/sha256-…``): no model's name
_BLOB = re.compile(r"(?i)(?:^|[/\\])sha256[-:][0-9a-f]{16,}$")
#: an Ollama tag's size after the colon ("8b-instruct-q8_0", "70b"): the tag is the model's, not a
#: quantisation's (``unsloth/Qwen3-8B-GGUF:UD-Q4_K_XL``)
_OLLAMA_SIZE = re.compile(r"\d+(?:\.\d+)?[bm](?![A-Za-z0-9])", re.IGNORECASE)
#: the packaging a model repository or file name ends with, no part of the model (SOURCES.md's
#: convention): the format (GGUF, MLX, EXL2, safetensors), the Hugging Face conversion (``-hf``), the
#: file variant carrying MTP heads (``-MTP``), Unsloth's dynamic quants' mark (``-UD``); an MLX
#: repository's bits (``-4bit``, ``-8bit``: its quantisation, the ``bits`` group); bitsandbytes' mark
#: before them (Unsloth's ``-bnb-4bit``); the importance-matrix quants' mark (mradermacher's
#: ``-i1-GGUF``, ``-imatrix``)
#: (oMLX's own quantisations, "oQ8", "oQ4e", as its repositories end: "DeepSeek-V4-Flash-oQ8")
#: MLC LLM's quantisation codes as its model names end with them (mlc_llm/quantization: "q4f16_1",
#: "q4f32_1", "q0f16", "q3f16_0", and the older "q4f16_ft" for FasterTransformer's kernels)
_MLC_QUANT = re.compile(r"(?i)[-_](q\d{1,2}f(?:16|32)(?:_(?:\d|ft))?)$")
_PACKAGING = re.compile(
    r"(?i)[-_](?:GGUF|MLX|MLC|MTPLX|EXL2|safetensors|hf|MTP|UD|bnb|(?-i:i1)|imatrix"
    r"|(?P<bits>\d{1,2}-?bits?|(?-i:oQ)\d{1,2}e?))$"
)


def _unpackaged(name: str) -> tuple[str, str | None]:
    """``name`` without the packaging it ends with (``_PACKAGING``, repeatedly: ``x-MTP-GGUF``), and
    the MLX bits it names or None; a name that would be left empty is kept.  A format's name
    inside the name ends the model's part: what follows is the packager's own naming, its
    quantisation kept (``Qwen3.6-27B-MTPLX-Optimized-Speed-fp16`` -> ``Qwen3.6-27B``, ``fp16``;
    ``GLM-5.2-colibri-int4-with-int8-mtp`` -> ``GLM-5.2``, ``int4``: an engine's name as the format)."""
    bits = None
    inner = re.search(r"(?i)[-_](?:GGUF|MLX|MLC|MTPLX|colibri)(?=[-_])", name)
    if inner is not None and inner.start() > 0:
        tail = name[inner.end() :]
        quant = _QUANT.search(tail) or re.search(r"(?i)(?<![A-Za-z0-9])(\d{1,2})-?bits?(?![A-Za-z0-9])", tail)
        if quant is not None:
            bits = quant.group(0).replace("-", "") if quant.re is not _QUANT else quant.group(0)
        name = name[: inner.start()]
    while (m := _PACKAGING.search(name)) and m.start() > 0:
        bits = bits or (m.group("bits").replace("-", "") if m.group("bits") else None)
        if m.group(0)[1:].lower() == "exl2":
            # ExLlamaV2's repositories write the bits per weight (and head bits) before "-exl2":
            # "Llama2-70B-2.5bpw-h6-exl2" is the quant "EXL2 2.5bpw-h6"
            bpw = re.search(r"[-_](\d+(?:\.\d+)?bpw(?:[-_]h\d+)?)$", name[: m.start()], re.IGNORECASE)
            if bpw and bpw.start() > 0:
                bits = f"EXL2 {bpw.group(1)}"
                name = name[: bpw.start()]
                continue
        name = name[: m.start()]
    return name, bits


def put_path(out: dict, path: str, value) -> None:
    """Set ``value`` at the dotted ``path`` of the nested conditions mapping ``out``
    (``"offload.n_gpu_layers"`` -> ``out["offload"]["n_gpu_layers"]``), making the mappings between."""
    node = out
    parts = path.split(".")
    for p in parts[:-1]:
        node = node.setdefault(p, {})
    node[parts[-1]] = value


def drop_path(conditions: dict, path: str) -> None:
    """Remove the dotted ``path`` from the nested ``conditions`` (``put_path``'s inverse), and the
    mapping it leaves empty."""
    *outer, last = path.split(".")
    node = conditions
    for part in outer:
        node = node.get(part, {})
    node.pop(last, None)
    if outer and not node:
        conditions.pop(outer[0], None)


def has_path(conditions: dict, path: str) -> bool:
    """Whether the nested conditions mapping ``conditions`` holds the dotted ``path``
    (``"offload.n_gpu_layers"``), a None value included (``put_path``'s reverse)."""
    node: object = conditions
    for p in path.split("."):
        if not isinstance(node, dict) or p not in node:
            return False
        node = node[p]
    return True


def agreed(commands: list[dict[str, list[object]]]) -> dict[str, list[object]]:
    """The settings several command lines share: of ``commands`` (each path -> the values one
    command line states, flat paths as ``Conditions`` has them), the paths every one of them states
    with one and the same value (``"ctx": [65536]`` where an initial and an improved
    ``llama-server`` both pass ``--ctx-size 65536``), path -> ``[value]``.  A path one command
    leaves out or sets otherwise (``--cache-type-k q4_0`` in the first only) is not shared; so is
    none of a single command's (nothing to agree with: ``{}``)."""
    if len(commands) < 2:
        return {}
    out: dict[str, list[object]] = {}
    for path, values in commands[0].items():
        keys = {json.dumps(v, sort_keys=True, default=str) for v in values}
        if len(keys) != 1:
            continue
        if all(
            {json.dumps(v, sort_keys=True, default=str) for v in other.get(path, [])} == keys
            for other in commands[1:]
        ):
            out[path] = [values[0]]
    return out


#: a model file's name that stands for any model in a command written as a template ("model.gguf",
#: "your-model.gguf", "model_name", "my_model", "xxx.gguf"): no model of the post's
_PLACEHOLDER_MODEL = re.compile(
    r"(?i)(?:(?:your|my|the|some)[-_ ]?)?(?:model|llm)(?:[-_ ]?(?:name|path|file))?|x{2,}|path"
    # a stand-in for the author's own folder ("local_deepseekv3_path", "your_model_dir", "path_to_model")
    r"|(?:local|your|my|path[-_]to)[-_]\w*|\w*[-_](?:path|dir)"
    # a container's or a machine's folder of models ("--model_path /workspace/", "-m /models/"): no name
    r"|workspace|models|weights|ckpts?|checkpoints?|data|mnt|root|home|tmp|app"
)


def _ollama_words(words: list[str]) -> tuple[list[str], dict[str, str]]:
    """The words of an ``ollama run`` command that are no flag nor a flag's value: its model's tag,
    then the prompt's words, up to a shell's redirect, pipe or list ("< prompt.txt", "| tee",
    "&&"); and the values of ``--keepalive`` and ``--format`` ("10m", "json")."""
    out: list[str] = []
    valued: dict[str, str] = {}
    k = 0
    while k < len(words):
        flag, eq, value = words[k].partition("=")
        if flag in ("--keepalive", "--format"):
            if not eq and k + 1 < len(words):
                value, k = words[k + 1], k + 1
            valued[flag.lstrip("-")] = value
        elif re.match(r"[<>|&;]|\d?>", words[k]):
            break
        elif not words[k].startswith("-"):
            out.append(words[k])
        k += 1
    return out, valued


def conditions_of(tool: str, words: list[str], typed: bool = True) -> dict:
    """The conditions the flags ``words`` (after the tool's name) set (module doc).  ``typed``: the
    line is a command typed at a shell (after its prompt, in a code block), not a sentence opening
    with a tool's name ("ollama run llama3.1 and it gives me 30 tok/s": no prompt typed)."""
    engine = engine_of(tool)
    out: dict = {"engine": engine} if engine else {}
    by_name = tool.startswith("vllm") or "torchchat" in tool
    if tool.startswith("ollama"):
        # "ollama run [flags] MODEL [PROMPT]" (cmd/cmd.go): its value flags ``--keepalive`` and
        # ``--format`` anywhere, the first other word the model's tag, the words after it the prompt
        bare, valued = _ollama_words(words)
        if bare:
            model, quant = model_and_quant(bare[0])
            out["model"] = model
            if quant:
                out["quant"] = quant
            if len(bare) > 1 and typed:
                out["prompt"] = " ".join(bare[1:])
        for key, value in valued.items():
            put_path(out, f"other.{key}", value)
        words = [
            w for w in words if w.startswith("-") and w.partition("=")[0] not in ("--keepalive", "--format")
        ]
    if tool.startswith("coli ") and typed and words and not words[-1].startswith("-"):
        if len(words) < 2 or not words[-2].startswith("-"):
            # "coli run … --temp 0 "test"": its prompt the one word after its flags and their values
            out["prompt"] = words.pop()
    positional = [] if not by_name else [w for w in words[:1] if not w.startswith("-")]
    if positional:
        words = words[1:]
        model, quant = model_and_quant(positional[0])
        if not _PLACEHOLDER_MODEL.fullmatch(model):
            out["model"] = model
        else:
            # "vllm serve local_deepseekv3_path … --served-model-name deepseek-v3": the name it serves
            served = next(
                (words[k + 1] for k, w in enumerate(words[:-1]) if w == "--served-model-name"), None
            )
            if served is not None and not served.startswith("-") and not _ALIAS.fullmatch(served):
                out["model"] = served
        if quant:
            out["quant"] = quant
    if tool.startswith(("python", "vllm")):
        words = [_unabbreviated(w) for w in words]
    i = 0
    while i < len(words):
        w = words[i]
        flag, eq, attached = w.partition("=")
        if not flag.startswith("-"):
            i += 1
            continue
        takes = flag not in _NO_VALUE
        value = attached if eq else (words[i + 1] if takes and i + 1 < len(words) else "")
        if takes and not eq and (value.startswith("-") and not re.fullmatch(r"-\d+", value)):
            value = ""  # the next word is a flag: this one had no value (-fa before newer builds)
        i += 1 + (takes and not eq and value != "")
        listed = False
        while (
            not eq
            and value
            and i < len(words)
            and re.fullmatch(r"\d+", value)
            and re.fullmatch(r"\d+", words[i])
        ):
            listed = True  # "--parallel 5 10 20": a list of runs, no one value
            i += 1
        if listed:
            continue
        if flag == "--config-list" and "bench_eagle3" in tool:
            # SpecForge's "batch size, steps, topk, draft tokens" of its one run ("1,3,1,4"); a
            # placeholder ("x,x,x,x") or several configurations set none
            told = re.fullmatch(r"(\d+),(\d+),(\d+),(\d+)", value)
            several = i < len(words) and re.fullmatch(r"\d+(?:,\d+){3}", words[i]) is not None
            if several:  # "--config-list 1,0,0,0 1,3,1,4 8,3,1,4": one run each, no one value
                while i < len(words) and re.fullmatch(r"\d+(?:,\d+){3}", words[i]):
                    i += 1
            if told is not None and not several:
                out["concurrency"] = int(told.group(1))
                for key, v in zip(_EAGLE_CONFIG, told.groups()[1:], strict=True):
                    put_path(out, f"other.{key}", int(v))
            continue
        # vLLM and SGLang take ``--num_speculative_tokens`` for ``--num-speculative-tokens``
        own = (
            _HARNESS_FLAGS
            if re.search(r"lm[_-]eval", tool)
            else _MLX_FLAGS
            if out.get("engine") == "MLX" and "benchmark" in tool
            else _MLX_GENERATE_FLAGS
            if out.get("engine") == "MLX" and "generate" in tool
            else _BATCHED_FLAGS
            if tool == "llama-batched-bench"
            else {}
        )
        spec = own.get(flag) or (_FLAGS.get(flag) or _FLAGS.get(flag[:2] + flag[2:].replace("_", "-")))
        if spec is None:
            put_path(out, "other." + flag.lstrip("-").replace("-", "_"), value or True)
            continue
        path, kind = spec
        if path == "batch" and out.get("engine") != "llama.cpp":
            path = "concurrency"  # a serving engine's batch size counts sequences (``serving_batch``)
        if "," in value and kind not in (
            "config",
            "harness_args",
            "device",
        ):  # llama-bench's list: no one value
            continue
        if kind == "int" and re.fullmatch(r"\d+", value):
            put_path(out, path, int(value))
        elif kind == "tokens" and re.fullmatch(r"\d+", value):
            put_path(out, path, f"{value} tokens")
        elif kind == "dtype" and value.lower() in _DTYPES:
            out.setdefault("quant", value.lower())
        elif kind == "fa":
            word = flash_attn_word(value) if value else "on"
            if word in ("on", "off"):
                out["flash_attn"] = word == "on"
            elif word == "auto":
                put_path(out, "other.flash_attn", "auto")
        elif (
            kind == "model"
            and value
            and not re.fullmatch(r"[\[<{(].*[\]>})]|\$\w+|model", value, re.I)
            and not _BLOB.search(value)
        ):
            # a placeholder ("-m [model]", "<model>", "$MODEL", "model.gguf", "/path/to/your_model.gguf")
            # names no model, nor does a blob's content hash (``_BLOB``)
            model, quant = model_and_quant(value)
            if model and not _PLACEHOLDER_MODEL.fullmatch(model):  # ("./": no name at all)
                out["model"] = model
            if quant:
                out.setdefault("quant", quant)
            if re.search(r"(?i)\.powerinfer\.gguf$", value) and out.get("engine") == "llama.cpp":
                # "-m falcon-40b-relu.q4.powerinfer.gguf" run by "./build/bin/main": PowerInfer's
                # fork of llama.cpp, which alone reads its format (its predictor's weights inside)
                out["engine"] = "PowerInfer"
        elif kind == "hf_model" and re.fullmatch(r"[\w.-]+/[\w.-]+(?::[\w.-]+)?", value):
            model, quant = model_and_quant(value)
            out.setdefault("model", model)
            if quant:
                out.setdefault("quant", quant)
        elif kind == "dataset":
            # a dataset by its name ("longalpaca", "sharegpt"); a path or a loader's kind ("hf",
            # "custom": the dataset is another flag's) names no prompt set here
            if re.fullmatch(r"[A-Za-z][\w-]*", value) and value.lower() not in ("hf", "custom", "random"):
                put_path(out, path, value)
            else:
                put_path(out, "other." + flag.lstrip("-").replace("-", "_"), value or True)
        elif kind == "draft" and value:
            if not re.fullmatch(r"\[\w+\]", value):  # vLLM's "[ngram]": no model
                draft, quant = model_and_quant(value)
                put_path(out, path, draft)
                if quant:  # "-md Qwen2.5-0.5B-Instruct-Q8_0.gguf": the draft's quant (SOURCES.md)
                    put_path(out, "other.draft_quant", quant)
            out["decoding"] = "speculative"
        elif kind == "spec" and value:
            put_path(out, path, value)
            out["decoding"] = "draft-self" if _SELF_DRAFTING.search(value) else "speculative"
        elif kind == "config" and value:
            _speculative_config(value, out)
        elif kind == "harness_model" and value:
            if value.lower() in _HARNESS_MODELS:
                out["engine"] = _HARNESS_MODELS[value.lower()]
            else:  # "openai-completions", "local-chat-completions": a server's API, no engine named
                put_path(out, "other.lm_eval_model", value)
        elif kind == "harness_args" and value:
            # "pretrained=Qwen/Qwen2-1.5B-Instruct,dtype=auto,tensor_parallel_size=2": the model
            # (vLLM's and SGLang's backends name it "pretrained" too), the rest as written
            for pair in value.split(","):
                key, _, arg = pair.partition("=")
                if key.strip() in ("pretrained", "model") and arg:
                    model, quant = model_and_quant(arg.strip())
                    out["model"] = model
                    if quant:
                        out.setdefault("quant", quant)
                elif key.strip() == "dtype" and arg.strip().lower() in _DTYPES:
                    out.setdefault("quant", arg.strip().lower())
                elif key.strip() and arg:
                    put_path(out, "other." + key.strip(), arg.strip())
        elif kind == "flag":
            put_path(out, path, True)
        elif kind == "device":
            # each device the list names ("CUDA0,CUDA1"): one backend of them all, or none
            named = {DEVICE_BACKENDS.get(re.sub(r"\d+$", "", d.strip()).lower()) for d in value.split(",")}
            if len(named) == 1 and None not in named:
                put_path(out, path, named.pop())
            elif value:  # "--device cuda:0", "--device npu", "-dev CUDA0,Vulkan1": kept as written
                put_path(out, "other." + flag.lstrip("-").replace("-", "_"), value)
        elif kind == "kv" and (kv := kv_cache_type(value)) is not None:
            put_path(out, "type_k", kv)
            put_path(out, "type_v", kv)
        elif kind == "str" and value:
            put_path(out, path, value)
    _decoding_mode(out)
    if out.get("engine") == "llama.cpp" and any(w.partition("=")[0] in _IK_FLAGS for w in words):
        out["engine"] = "ik_llama.cpp"  # its tools keep llama.cpp's names; these flags are its own
    if _LATENCY_BENCH.search(tool) and "cap" in out and "tokens_generated" not in out:
        # a latency benchmark decodes exactly its --output-len tokens a run (SGLang's bench_latency
        # and bench_one_batch, ``vllm bench latency``): the tokens each run generated, no cap
        out["tokens_generated"] = out.pop("cap")
    _named_others(tool, out)
    other = out.get("other")
    if isinstance(other, dict):
        # a flag no field names, set to a whole number ("-ngld 99", "--draft-min 4"): that number, as
        # a claims file writes one
        for flag, value in other.items():
            if isinstance(value, str) and re.fullmatch(r"[1-9]\d{0,8}|0", value):
                other[flag] = int(value)
    if typed and "decoding" not in out and not drafting_settings(out) and _DRAFTING_TOOL.search(tool):
        # a runner that drafts only when told (a draft model, a speculative config, MTP's flag),
        # told none: the run it typed decoded plainly, whatever else the post drafted
        out["decoding"] = "plain"
    return out


#: the generators that draft only when a flag says so and print their own run's results
#: (``conditions_of``): llama.cpp's, MLX LM's generate.  (A server's results are a client's, whose
#: arm a label names: "Eagle-3 backend:" over a benchmark run after a plain server's launch line)
_DRAFTING_TOOL = re.compile(
    r"^(?:llama-(?:cli|run|simple)|main|(?:python[\d.]*\s+-m\s+)?mlx_lm(?:\.|_|\s+)generate)$"
)


#: a flag naming the decoding mode ("--generation-mode mtp", "--decoding-mode eagle", "--spec-mode
#: off"), as ``other.`` keeps it, and what its value says: the model's own MTP heads, a draft, none
_MODE_KEYS = ("generation_mode", "decoding_mode", "decode_mode", "spec_mode", "speculative_mode")
_MODE_VALUES = (
    (re.compile(r"(?i)mtp|self[-_]?spec\w*|medusa"), "draft-self"),
    (re.compile(r"(?i)eagle\d?|draft|spec\w*|speculative"), "speculative"),
    (re.compile(r"(?i)off|none|ar|autoregressive|plain|baseline|normal"), "plain"),
)


#: a flag of a script that switches drafting on or off, and its value ("--with_speculation True",
#: "--use-mtp", "--spec false", "--num-speculative-tokens 4"): ``flag_decoding`` reads it
DRAFTING_FLAG = re.compile(
    r"(?<!\S)--?(?:with[_-]?|use[_-]?|enable[_-]?)?(?P<name>spec\w*|speculat\w*|num[_-]spec\w*|draft\w*|ngram\w*|"
    r"eagle\w*|medusa\w*|mtp\w*|lookahead\w*|(?:generation|decod\w*|spec\w*)[_-]mode)"
    r"(?:[=\s]+(?P<v>(?!-)\S+))?",
    re.IGNORECASE,
)


def flag_decoding(name: str, value: object) -> str | None:
    """The decoding one flag sets, by its name (leading dashes and "with_"/"use_"/"enable_" aside)
    and its value: a mode flag (``_MODE_KEYS``: MTPLX's "--generation-mode mtp") the mode its value
    names (``_MODE_VALUES``, plain too); a drafting flag (``DRAFTING_FLAG``'s names: "--use-mtp",
    "--with_speculation True") draft-self for the model's own heads (MTP, Medusa), speculative for
    others, plain where its value switches it off ("False", "0", "none"); None for any other flag."""
    key = re.sub(r"^(?:with|use|enable)_", "", name.lstrip("-").lower().replace("-", "_"))
    said = str(value if value is not None else "").strip("\"'")
    if key in _MODE_KEYS:
        return next((d for rx, d in _MODE_VALUES if rx.fullmatch(said)), None)
    if not DRAFTING_FLAG.fullmatch(f"--{key}"):
        return None
    if said.lower() in ("false", "0", "none", "off", "no", "disabled"):
        return "plain"
    return "draft-self" if re.match(r"mtp|medusa", key) else "speculative"


def _decoding_mode(out: dict) -> None:
    """The decoding a mode flag names (``_MODE_KEYS``: MTPLX's "--generation-mode mtp" -> draft-self),
    and with it a bare "--depth N" as the tokens drafted a step (``block_max``: MTPLX's MTP depth);
    ``out`` (a command's conditions) in place, what it states already kept."""
    other = out.get("other")
    if not isinstance(other, dict) or "decoding" in out:
        return
    said = next((d for k in _MODE_KEYS if k in other and (d := flag_decoding(k, other[k]))), None)
    if said is None:
        return
    out["decoding"] = said
    depth = other.get("depth")
    if said != "plain" and "block_max" not in out and re.fullmatch(r"\d{1,2}", str(depth)):
        out["block_max"] = int(str(depth))


def _unabbreviated(word: str) -> str:
    """``word`` with a flag a Python tool took by its prefix written in full (``_ABBREVIATED``):
    "--output" -> "--output-len", "--input=128" -> "--input-len=128"; any other word as it is."""
    flag, eq, value = word.partition("=")
    return _ABBREVIATED.get(flag, flag) + eq + value


#: the benchmarks that run one batch for a fixed number of decode steps
_LATENCY_BENCH = re.compile(
    r"bench_latency|bench_one_batch|bench\s+latency|benchmark_latency|profile_generation"
)
#: the flags a Python tool's argparse takes by an unambiguous prefix ("--input 128 --output 8" is
#: SGLang's bench_latency's --input-len and --output-len: argparse's allow_abbrev)
_ABBREVIATED = {"--input": "--input-len", "--output": "--output-len"}


#: lm-evaluation-harness's own flags: ``--model`` names the backend it drives (``_HARNESS_MODELS``),
#: ``--model_args`` the model and its loader's settings; ``--batch_size`` may be "auto" (kept as written)
_HARNESS_FLAGS: dict[str, tuple[str, str]] = {
    "--model": ("engine", "harness_model"),
    "--model_args": ("model", "harness_args"),
    "--model-args": ("model", "harness_args"),
    # the harness's random seeds (Python, NumPy, torch, few-shot sampling), no sampler's seed
    "--seed": ("other.seeds", "str"),
}
#: lm_eval's ``--model`` names (lm_eval/models/__init__.py's registry) -> the engine that runs it
_HARNESS_MODELS = {
    "vllm": "vLLM",
    "vllm-vlm": "vLLM",
    "sglang": "SGLang",
    "sglang-generate": "SGLang",
    "gguf": "llama.cpp",
    "ggml": "llama.cpp",
    "hf": "Transformers",
    "huggingface": "Transformers",
    "hf-auto": "Transformers",
}


#: flags only ik_llama.cpp's tools take (its README and ``common/common.cpp``): run-time repacking,
#: fused MoE, MLA, the attention's max batch, smart expert reduction, merged up/gate experts
_IK_FLAGS = frozenset(
    {
        "-rtr",
        "--run-time-repack",
        "-fmoe",
        "--fused-moe",
        "-mla",
        "--mla-use",
        "-amb",
        "--attention-max-batch",
    }
    | {"-ser", "--smart-expert-reduction", "--merge-up-gate-experts", "-muge", "-smgs", "--split-mode-f32"}
)


def kv_cache_type(value: str | None) -> str | None:
    """The KV cache type one setting names for both K and V (vLLM's and SGLang's
    ``--kv-cache-dtype``, a table's "KV cache" cell), as written; None for none or "auto" (the
    model's own dtype: no type stated)."""
    return value if value and value.lower() != "auto" else None


def _speculative_config(text: str, out: dict) -> None:
    """vLLM's ``--speculative-config '{"method": "eagle3", "model": "...", "num_speculative_tokens":
    3}'``: ``decoding`` (``_SELF_DRAFTING`` for an MTP method), ``block_max`` and the draft model;
    the text kept under ``other`` where it is no JSON object."""
    try:
        config = json.loads(text)
    except ValueError:
        config = None
    if not isinstance(config, dict):
        put_path(out, "other.speculative_config", text)
        return
    method = str(config.get("method") or "")
    out["decoding"] = "draft-self" if _SELF_DRAFTING.search(method) else "speculative"
    if method:
        put_path(out, "other.spec_type", method)
    n = config.get("num_speculative_tokens")
    if isinstance(n, int) and not isinstance(n, bool):
        out["block_max"] = n
    if isinstance(config.get("model"), str):
        put_path(out, "other.draft_model", model_and_quant(config["model"])[0])


def _named_others(tool: str, out: dict) -> None:
    """Flags that went under ``other`` but name a field: ``-p "text"`` (llama-cli, llama-server:
    the prompt; llama-bench's ``-p 512`` is a length) -> ``prompt``; ``-n`` -> ``tokens_generated``
    for llama-bench (its tg test generates exactly n), ``cap`` for the others (n_predict, a cap);
    ``--temp 0`` -> ``sampling: temperature 0`` (with top-p/top-k/min-p and the seed, in the
    command's order: "temperature 0.7, seed 42"); the dataset a benchmark draws its prompts from
    (``_dataset``) -> ``prompt``; a cap with ``--ignore-eos`` is the tokens generated too."""
    other = out.get("other", {})
    # (llama-bench's, mlx_lm.benchmark's lengths; MLC's benchmark.py takes a prompt file and a cap)
    bench = "bench" in tool and "mlc" not in tool
    if tool == "flags" and re.fullmatch(r"\d+(?:,\d+)*", str(other.get("p", ""))):
        # flags written with no tool ("`-ngl 99 -fa 1 -p 512 -n 128`"): "-p 512" is llama-bench's prompt
        # length (llama-cli's and llama-server's "-p" is the prompt's text), so "-n 128" is its tg test's
        # length, no cap; which claims are that test's the flags do not say: neither is a condition
        for flag in ("p", "n"):
            other.pop(flag, None)
    for flag in ("p", "prompt"):
        text = other.get(flag)
        if not bench and isinstance(text, str) and not re.fullmatch(r"[\d,]+|[\[<{$].*|\.\.\.|…", text):
            out["prompt"] = other.pop(flag)
            if re.search(r"[/\\][^/\\\s]+\.(?:jsonl?|txt|csv)$", text):
                # a file of prompts ("--prompt /data/prompts/completion_16.json"): the file's name
                out["prompt"] = PurePosixPath(text.replace("\\", "/")).name
    dataset = _dataset(other)
    if dataset is not None and "prompt" not in out:
        out["prompt"] = dataset
    elif dataset is not None and re.fullmatch(r"\d+ tokens", str(out["prompt"])):
        # "--dataset-name random --random-input-len 2048": the generated prompts of that length
        out["prompt"] = f"{dataset} ({out['prompt']})"
    if bench:
        # llama-bench's test definition: "-p 512" the pp test's prompt (``settle_tests`` gives each
        # test its own lengths, from its name), "-r 5" its repetitions (``draftrepeats``: its tests'
        # ``n``), "-o json" the output format: no condition of every claim under the command
        for flag in ("p", "n_prompt", "pg", "r", "repetitions", "o", "output", "oe"):
            other.pop(flag, None)
    for flag in ("n", "n_predict", "predict"):
        n = other.get(flag)
        if isinstance(n, str) and n.isdecimal():
            out["tokens_generated" if bench else "cap"] = int(other.pop(flag))
    if other.get("ignore_eos") is True and isinstance(out.get("cap"), int) and "tokens_generated" not in out:
        # "--random-output-len 128 --ignore-eos" (vLLM's, SGLang's benchmark clients): no request stops
        # early, each generates exactly its cap
        out["tokens_generated"] = out["cap"]
    kwargs = other.get("gen_kwargs")
    if isinstance(kwargs, str) and "=" in kwargs:
        # lm_eval's "--gen_kwargs temperature=0,top_p=0.95": the sampler's settings, each its own
        del other["gen_kwargs"]
        for pair in kwargs.split(","):
            key, _, arg = pair.partition("=")
            if key.strip() and arg.strip():
                other[key.strip()] = arg.strip()
    sampling = []
    for flag, word in (
        ("temp", "temperature"),
        ("temperature", "temperature"),
        ("top_p", "top-p"),
        ("top_k", "top-k"),
        ("min_p", "min-p"),
        ("seed", "seed"),
    ):
        t = other.get(flag)
        if isinstance(t, str) and re.fullmatch(r"\d+(?:\.\d+)?", t):
            sampling.append((word, other.pop(flag)))
    if ("top-k", "1") in sampling:
        out["sampling"] = "greedy"  # one candidate: the most likely token, whatever the temperature
    elif sampling:
        out["sampling"] = ", ".join(f"{w} {v}" for w, v in sampling)
    if "other" in out and not out["other"]:
        del out["other"]


#: a dataset file's name that says nothing of the dataset ("mt_bench/question.jsonl"): its folder names it
_GENERIC_FILE = re.compile(r"(?:questions?|data|dataset|test|train|prompts?|input|samples?)", re.IGNORECASE)


def _dataset(other: dict) -> str | None:
    """The dataset a benchmark command's prompts come from, as the command names it, kept under
    ``other`` as written: vLLM's ``--dataset-name random``/``sharegpt`` (its own generators and
    formats), else the dataset's path (``--dataset-path org/mt-bench``, ``--dataset x/mt_bench/
    question.jsonl``): its last part without the extension, or the folder above a generic file
    name; None where the command names none or only a loader ("hf", "custom")."""
    name = other.get("dataset_name")
    if isinstance(name, str) and name.lower() not in ("hf", "custom", "huggingface"):
        return name
    path = other.get("dataset_path") or other.get("dataset")
    if not isinstance(path, str) or not path.strip():
        return None
    parts = [p for p in re.split(r"[\\/]", path.strip().strip("\"'")) if p not in ("", ".", "..")]
    while parts:
        stem = re.sub(r"\.(?:jsonl?|csv|parquet|txt|arrow)$", "", parts.pop(), flags=re.IGNORECASE)
        if stem and not _GENERIC_FILE.fullmatch(stem):
            return stem
    return None


#: ``other`` keys of the drafting flags (``--model-draft``, ``-ngld``, ``--draft-p-min``, ``--spec-type``,
#: vLLM's ``--ngram-prompt-lookup-max``, SGLang's ``--speculative-eagle-topk``)
_DRAFTING_OTHER = re.compile(r"draft|spec|ngld|lookup|eagle", re.IGNORECASE)


def plain_run(conditions: dict) -> None:
    """Drop the drafting settings (``block_max`` and the drafting flags under ``other``) from the
    conditions of a run with ``decoding: plain``, changed in place: the baseline measured beside a
    speculative command drafts nothing ("Baseline: 40 t/s" under ``llama-server -md ... --draft-max
    8``)."""
    if conditions.get("decoding") == "plain":
        _undrafted(conditions)


def _undrafted(conditions: dict) -> None:
    """``conditions`` without their drafting settings (``drafting_settings``), changed in place."""
    conditions.pop("block_max", None)
    other = conditions.get("other")
    if isinstance(other, dict):
        for key in [k for k in other if _DRAFTING_OTHER.search(k)]:
            del other[key]
        if not other:
            del conditions["other"]


def drafting_settings(conditions: dict) -> dict[str, object]:
    """The drafting settings of ``conditions`` as flat paths (``block_max``, ``other.draft_model``…:
    what ``plain_run`` drops)."""
    out: dict[str, object] = {}
    if "block_max" in conditions:
        out["block_max"] = conditions["block_max"]
    other = conditions.get("other")
    if isinstance(other, dict):
        out.update({f"other.{k}": v for k, v in other.items() if _DRAFTING_OTHER.search(k)})
    return out


def plain_rows(entries: list, groups: list) -> None:
    """Settle the drafting settings of tables whose rows decode both ways: a group (``draftcore.Group``)
    whose conditions hold drafting settings (the speculative command over the table: ``-md``,
    ``--draft-max 8``) while a row of it (an ``Entry`` of the group) decodes plainly ("| Plain | 6.1
    |"): the settings (and where they came from) move to the group's other rows, the plain rows
    draft nothing (``plain_run``); a claim of no group with ``decoding: plain`` keeps none either.
    Changed in place."""
    rows: dict[str, list] = {}
    for e in entries:
        if e.kind == "claim" and e.group is not None:
            rows.setdefault(e.group, []).append(e)
        elif e.kind == "claim" and isinstance(e.fields.get("conditions"), dict):
            plain_run(e.fields["conditions"])
    for g in groups:
        shared = g.fields.get("conditions")
        mine = rows.get(g.id, [])
        if not isinstance(shared, dict) or not (moved := drafting_settings(shared)):
            continue
        decodings = [(e.fields.get("conditions") or {}).get("decoding") for e in mine]
        if "plain" not in decodings and shared.get("decoding") != "plain":
            continue
        # tables' groups and rows may share nested dicts (one command's ``other``): copies
        shared = g.fields["conditions"] = copy.deepcopy(shared)
        for e, decoding in zip(mine, decodings, strict=True):
            if (decoding or shared.get("decoding")) == "plain":
                continue
            cond = e.fields["conditions"] = copy.deepcopy(e.fields.get("conditions") or {})
            for path, value in moved.items():
                head, _, key = path.partition(".")
                if key:
                    cond.setdefault(head, {}).setdefault(key, value)
                else:
                    cond.setdefault(path, value)
                if path in g.origins:
                    e.origins.setdefault(path, g.origins[path])
        for path in moved:
            g.origins.pop(path, None)
        _undrafted(shared)
        if not shared:
            g.fields.pop("conditions")


#: a release's build number in the folder a binary runs from ("llama-b6318-bin-win-cuda-12.4-x64/",
#: "ik_llama.cpp-b4267/", "llama.cpp/b5450/"): llama.cpp's build numbers are "b" and 4-5 digits
_FOLDER_BUILD = re.compile(r"(?<![A-Za-z0-9])b(\d{4,5})(?![A-Za-z0-9])")
#: the backend a llama.cpp release's folder names ("-bin-win-cuda-12.4-x64", "-bin-ubuntu-vulkan-x64",
#: "-bin-win-hip-radeon-x64", "-bin-win-sycl-x64", "-bin-win-cpu-x64"; the release's asset names)
_FOLDER_BACKEND = re.compile(r"-bin-[a-z0-9]+-(cuda|cu\d|vulkan|hip|sycl|opencl|cpu)(?![a-z])", re.IGNORECASE)
_FOLDER_BACKENDS = {"cu": "CUDA", "cuda": "CUDA", "vulkan": "Vulkan", "hip": "ROCm", "sycl": "SYCL"}
_FOLDER_BACKENDS |= {"opencl": "OpenCL", "cpu": "CPU"}
#: a fork of llama.cpp named by the folder its binary runs from ("./ik_llama.cpp-b4267/llama-sweep-bench",
#: "~/ik_llama.cpp/build/bin/llama-server"): the tools keep llama.cpp's names, the engine is the fork
_FOLDER_FORK = re.compile(r"(?<![A-Za-z0-9])ik[_-]llama(?:\.cpp)?(?![A-Za-z0-9])", re.IGNORECASE)


def folder_build(path: str) -> dict[str, str]:
    """The build (and backend, and a fork's engine) the folders of a binary's ``path`` name, as a
    release is unpacked (``_FOLDER_BUILD``, ``_FOLDER_BACKEND``, ``_FOLDER_FORK``):
    "./ik_llama.cpp-b4267/" -> ``{"build": "b4267", "engine": "ik_llama.cpp"}``,
    "llama-b6318-bin-win-cuda-12.4-x64\\" -> ``{"build": "b6318", "backend": "CUDA"}``; ``{}`` where
    the path names no build number (two different ones name none)."""
    out: dict[str, str] = {}
    builds = set(_FOLDER_BUILD.findall(path))
    if len(builds) == 1:
        out["build"] = f"b{builds.pop()}"
    backend = _FOLDER_BACKEND.search(path)
    if backend is not None:
        word = backend.group(1).lower()
        out["backend"] = _FOLDER_BACKENDS[word[:2] if word.startswith("cu") and word != "cuda" else word]
    if _FOLDER_FORK.search(path):
        out["engine"] = "ik_llama.cpp"
    return out


#: a line that is one flag and its value ("  --ctx-size 65536", "--flash-attn", "-ngl 99"): a
#: command's next line where it carries no continuation mark
_FLAG_LINE = re.compile(r"\s*--?[A-Za-z][\w.-]*(?:[ =]\S.*)?\s*$")


#: a line setting a shell variable to one word ("export NUM_GPUS=8", "tp=2"), and a use of one
_ASSIGNMENT = re.compile(r"\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=([^\s;&|$`'\"]+)\s*$")
_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")


def command_lines(lines: list[tuple[int, str]], code: bool = False) -> list[Command]:
    """The command lines among ``lines`` (``(line, text)``), continuations joined (module doc), the
    shell variables the lines set substituted ("tp=2" … "--tp ${tp}": ``_ASSIGNMENT``);
    ``code``: the lines are a code block's (a command in one is typed at a shell, as one after a
    shell's prompt is: ``conditions_of``'s ``typed``)."""
    out: list[Command] = []
    # a shell variable the lines set ("export TP=2", "model=model/Qwen3-32B-FP8") and a command after
    # it uses ("--tp ${tp}", "vllm serve $model"): its value
    env = {m.group(1): m.group(2) for _, t in lines if (m := _ASSIGNMENT.match(t))}
    i = 0
    while i < len(lines):
        n, text = lines[i]
        m = _TOOL.match(text)
        if not m:
            i += 1
            continue
        parts, last = [text[m.end() :]], n
        while i + 1 < len(lines):
            if re.search(r"(?:\\|\^|`)\s*$", parts[-1]):
                parts[-1] = re.sub(r"(?:\\|\^|`)\s*$", "", parts[-1])
            elif not _FLAG_LINE.match(lines[i + 1][1]):
                # a flag per line with no continuation mark: YAML's folded `cmd: >`, a forum
                # post's command one flag a line (its indent lost to the paragraph)
                break
            i += 1
            last = lines[i][0]
            parts.append(lines[i][1])
        joined = " ".join(p.strip() for p in parts)
        # a backtick left (not PowerShell's line continuation, cut above) closes inline code:
        # "`llama-server ... -fa`" -- the command ends there ("-fa`" is no flag)
        joined = joined.split("`")[0].rstrip()
        if env:
            joined = _VARIABLE.sub(lambda v: env.get(v.group(1) or v.group(2), v.group(0)), joined)
        # "--prompt - < prompt.txt": the prompt read from standard input, the file fed to it (h559)
        joined = _STDIN_PROMPT.sub(r"\g<flag> \g<file>", joined)
        # (a Windows path's backslashes are its separators, no shell escapes: "C:\\models\\x.gguf")
        windows = "'" not in joined and re.search(r"(?<![\w])[A-Za-z]:\\|(?<!\S)\.\\", joined) is not None
        try:
            words = shlex.split(joined.replace("\\", "/") if windows else joined, posix=True)
        except ValueError:  # an unclosed quote: split on spaces
            words = joined.split()
        tool = re.sub(r"\s+", " ", m.group("tool"))
        tagged = tool.startswith("ollama") and bool(words) and ":" in words[0]  # "ollama run gemma2:27b"
        # (a dash alone is no flag: "> main thing -- it ran at 12 tok/s", a quote, not a command)
        flagged = any(re.match(r"--?[A-Za-z]", w) for w in words)
        if not flagged and not tool.startswith("vllm") and not tagged:
            i += 1
            continue  # "llama-bench for reference:": the tool named in prose, no command
        typed = code or bool(m.group("sh")) or bool(re.search(r"[\"']", joined))
        conditions = conditions_of(tool, words, typed)
        if m.group("build"):  # "llama-server-be0e35": a binary named after its build's commit
            conditions["build"] = m.group("build")
        else:
            conditions.update(folder_build(m.group("path") or ""))
        out.append(Command(tool, n, last, f"{tool} {joined}".strip(), conditions))
        i += 1
    return out
