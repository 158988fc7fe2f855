"""Conditions named in a post's prose (``benchbook claims draft``): hardware, engine, build, model,
quantisation, backend, flash attention and decoding, each where the schema has a field for it.

``mentions`` finds them in a piece of prose, each with its offset, the condition path and the value
as a claims file writes it:

* hardware (``hardware``): GPU and SoC names written the way posts write them ("RTX 3090", "my
  3090 Ti", "RX 7900 XTX", "M2 Max", "H100", "Tesla P40", "2x 3090"), written out with the vendor
  the way the corpus's hand-checked files write them ("NVIDIA GeForce RTX 3090", "AMD Radeon RX 7900
  XTX", "Apple M2 Max", "2x NVIDIA GeForce RTX 3090");
* engine (``engine``): llama.cpp, ik_llama.cpp, vLLM, SGLang, Ollama, MLX, LM Studio, ExLlamaV2,
  TensorRT-LLM, KoboldCpp, spelled as their projects do;
* build (``build``): a llama.cpp build number (``b4980``);
* model and quant (``model``, ``quant``): a GGUF file name (``Qwen3-8B-Q4_K_M.gguf``) or a model
  name of a known family (``Qwen3-30B-A3B``, ``gpt-oss-20b``, "Llama 3 8B") with the quantisation
  after it ("Qwen3-30B-A3B Q4_K_M"), read by ``draftcommand.model_and_quant``;
* backend (``backend``): CUDA, Vulkan, Metal, ROCm, SYCL, OpenCL;
* flash attention (``flash_attn``): ``-fa on|off|1|0``, "flash attention on|off|enabled|disabled";
* decoding (``decoding``): "with a draft model", "speculative decoding" -> speculative; "MTP" (the
  model's own prediction heads draft) -> draft-self; "without a draft (model)", "plain decoding", "no
  draft", "non-MTP" -> plain.

Decoding and flash attention hold for their own clause only (``CLAUSE_ONLY``); the others hold from
where they are named on (the caller keeps them for the section).
"""

from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass

from .draftcommand import QUANT_TYPE, model_and_quant

#: conditions that hold only in the clause that names them ("with a draft model it reached 141 t/s")
CLAUSE_ONLY = frozenset({"decoding", "flash_attn"})

_NV = r"(?:NVIDIA\s+)?(?:GeForce\s+)?"
_HARDWARE = re.compile(
    # every name starts with one of these (a count, a vendor, a product line, a Mac): the other
    # positions are passed over at once
    # (not after a decimal point: "0.5*A100", "1.5x 3090" are no counts of devices)
    r"(?=[\dABCDEFGHIJLMNOPQRSTVWabdefghijlmnpqrstvwx×两二三四五六七八双雙华昇])(?<![A-Za-z0-9_-])(?<!\d\.)"
    # a count of the devices: "2x", "4×", "three P40s", "two 3090s", "dual 4090", "a pair of 3090s",
    # "quad P40" ("1x4090": one, no count)
    # (ten or more: of data-centre parts only, "16x H100", "16 xH100s"; "11x4070" is no count)
    # ("4 * L40", "2*3090": a product written with an asterisk)
    r"(?:(?P<count>[1-9]|[1-6]\d(?=\s?[x×*]\s*(?:AMD\s+|NVIDIA\s+)?(?:[ABHL]\d|MI\d|GB\d)))\s?[x×*]\s*|(?P<wcount>two|three|four|five|six|seven|eight|dual|twin|quad"
    # ("dual-3090", "quad-P40": glued by a hyphen)
    r"|(?<=\ba\s)pair\s+of)(?:\s+|(?<=dual|twin|quad)-)"
    # a word saying what kind of units they are between ("four CPU-only Raspberry Pi 5 boards",
    # "two used 3090s"): still the count of the devices named
    r"(?:(?:used|old|new|stock|identical|cheap|refurbished|second-hand|modded|CPU-only)\s+)?"
    # a bare number of them after a word that puts the run on them ("on 16 H100", "across 8 H200s",
    # "using 4 A100s"): a count, as "16x" is
    r"|(?:(?<=\bon\s)|(?<=\bwith\s)|(?<=\busing\s)|(?<=\bacross\s)|(?<=\bover\s))(?P<ncount>[2-9]|[1-6]\d(?=\s(?:AMD\s+|NVIDIA\s+)?(?:[ABHL]\d|MI\d|GB\d)))\s+"
    # a count in Chinese or Japanese, the cards' measure word after it ("8卡910B3", "4张4090", "2枚のA100",
    # "四卡H20"), the cards' memory between ("4 卡 16GB V100")
    r"|(?P<ccount>[1-9]\d?|[两二三四五六七八])\s?(?:卡|张|張|块|枚の?)\s?(?:\d{1,3}\s?GB?\s?)?"
    # "双 RTX 2080 Ti", "双卡 3090", "雙 4090" (dual)
    r"|(?P<dcount>[双雙])\s?(?:卡|路)?\s?"
    # the count after an "x" before the name ("x2 RTX 3090", "×4 A100")
    r"|[x×](?P<xcount>[2-8])\s+"
    r")?(?:"
    # Quadro cards by their names ("Quadro P6000", "Quadro RTX 8000"): workstation parts, no GeForce
    r"(?:NVIDIA\s+)?Quadro\s(?P<quadro>(?:RTX\s)?[A-Z]{0,2}\d{3,4})(?![\w-])|"
    # (a dash between, as in "RTX-4080", is the same card)
    rf"{_NV}(?P<rtx>RTX|GTX)[\s-]?(?P<rtxn>(?:PRO\s)?A?\d{{3,4}})(?:\s?(?P<rtxs>Ti|SUPER|Super)\b)?"
    # a workstation card's generation and edition ("RTX PRO 6000 Blackwell Max-Q Workstation
    # Edition", "RTX 6000 Ada Generation"): NVIDIA names the models by them
    r"(?:\s(?P<gen>Blackwell|Ada(?:\sGeneration)?)\b)?"
    r"(?:\s(?P<mobile>Mobile|Laptop(?:\sGPU)?|Max-Q)\b)?"
    r"(?:\s(?P<edition>(?:Workstation|Server)\sEdition)\b)?"
    r"|(?:AMD\s+)?Radeon\s(?P<igpu>\d{3,4}[MS])\b"
    # an APU whose graphics run the model ("Ryzen AI Max+ 395"); not a desktop CPU beside a GPU
    # ("RTX 4070 Super + Ryzen 7 9700X": the GPU is the machine that is measured)
    # ("AI Max 395", "AI Max+ 395": the part without its brand)
    r"|(?:(?:AMD\s+)?Ryzen\s|(?<![\w-])(?=AI\sMax\+?\s\d{3}(?![\w+-])))(?P<ryzen>AI\sMax\+?\s\d{3})(?![\w+-])"
    # the workstation cards too ("Arc Pro B70", "Arc Pro B60", "Arc Pro A60")
    r"|(?:Intel\s+)?Arc\s(?P<arcpro>Pro\s)?(?P<arc>[AB]\d{2,3}M?)\b"
    r"|(?:AMD\s+)?(?:Radeon\s+)?(?:Pro\s+)?(?P<wpro>W[5-7][89]00)(?![\w-])"  # workstation: "W7900"
    # RDNA 4's workstation card ("Radeon AI PRO R9700", "R9700")
    r"|(?:AMD\s+)?(?:Radeon\s+)?(?:AI\s+PRO\s+)?(?P<aipro>R9[67]00)(?![\w-])"
    r"|(?:AMD\s+)?(?:Radeon\s+)?RX\s?(?P<rxn>\d{4})(?:\s?(?P<rxs>XTX|XT|GRE)\b)?"
    # a Radeon by its number and suffix without "RX" ("a 6700 XT", "two 7900 XTX"): the suffix names it
    r"|(?:AMD\s+)?(?:Radeon\s+)?(?P<rxbare>[5-9]\d{3})\s?(?P<rxbares>XTX|XT|GRE)(?![\w-])"
    # (or "Mac" alone before its chip: "on mac m1", "my Mac M2")
    r"|(?P<mac>Mac\s?mini|Mac\s?Studio|MacBook\s(?:Air|Pro)|MacBook|iMac|Mac\sPro|Mac)\s(?:\([^)]*\)\s)?"
    # (ASCII bounds: "Mac mini M2 Proを用いた", a Japanese letter right after)
    r"(?P<mm>M[1-5])(?:\s(?P<mms>Pro|Max|Ultra)(?![A-Za-z0-9_]))?(?![A-Za-z0-9_-])"
    # (the chip first in the parentheses after the machine: "Mac mini (M4, 16GB)", "Mac Studio (M2 Ultra)")
    r"|(?P<pmac>Mac\s?mini|Mac\s?Studio|MacBook\s(?:Air|Pro)|MacBook|iMac|Mac\sPro)\s?\(\s?"
    r"(?P<pm>M[1-5])(?:\s(?P<pms>Pro|Max|Ultra))?(?=\s?[,)/;])"
    r"|(?:Apple\s+)?(?P<cm>M[1-5])(?:\s(?P<cms>Pro|Max|Ultra))?\s"
    # (the laptop by its line alone after the chip: "An M2 Air pushes 18 tok/s")
    r"(?P<cmac>Mac\s?mini|Mac\s?Studio|MacBook\s(?:Air|Pro)|MacBook|iMac|Air)\b"
    r"|(?:Apple\s+)?(?P<m>M[1-5])[\s-]?(?P<ms>Pro|Max|Ultra)(?![A-Za-z_-])"
    r"|Apple\s+(?P<m2>M[1-5])\b"
    # an Apple chip by its name and the word chip ("M2 chip", "M2芯片", "M2チップ"); a phone by its name
    r"|(?P<mchip>M[1-5])(?=\s?(?:chip\b|芯片|晶片|チップ|칩))"
    r"|(?:Google\s+)?Pixel\s?(?P<pixel>\d{1,2}a?(?:\s?Pro)?)(?![A-Za-z0-9-])"
    r"|(?:NVIDIA\s+)?(?P<ws>A[245]000|A[245]500|A6000)(?![\w-])"  # workstation cards: "RTX A6000"
    # data-centre parts by their model numbers: a letter and any two digits would read a latency
    # percentile ("P99 TTFT", "p95") or a grade as a GPU
    r"|(?:NVIDIA\s+)?(?:Tesla[\s-]+)?(?P<dc>(?:A(?:10G?|16|30|40|100|800)|H(?:20|100|200|800)|B(?:100|200|300)"
    r"|L(?:20|40)|P(?:40|100)|V100|T4|GB\d{2,3}|GH200)S?|L4)"
    # a data-centre part's memory and form factor name its SKU ("A100 40GB PCIe", "A100-SXM4-80GB",
    # "H100 NVL", "an A100 with 80GB memory"); a consumer card's size is its spec (``machine_size``)
    r"(?:[\s-](?P<dcform>PCIe|SXM\d?|NVL)(?![A-Za-z0-9]))?"
    r"(?:[\s-]?\(?(?P<dcmem>\d{2,3})\s?GB?\)?(?:\s(?:of\s)?(?:HBM\w*|memory|VRAM))?(?![\w-])"
    r"|\swith\s(?P<dcmem2>\d{2,3})\s?GB?\s(?:of\s)?(?:HBM\w*\s)?(?:memory|VRAM)\b)?"
    # (a Chinese or Japanese word right after it is no part of the name: "4 * L40能跑吗", "在A100上"; a
    # count glued after it is the cards': "Tesla-P40x3", ``_COUNT_AFTER``)
    r"(?:[\s-]\(?(?P<dcform2>PCIe|SXM\d?|NVL)\)?)?(?:(?=[xX×][1-8](?![\w.]))|(?![A-Za-z0-9_-]))"
    r"|(?:AMD\s+)?(?:Instinct\s+)?(?P<mi>MI\d{2,3}X?)(?:s\b|\b)"
    r"|(?P<spark>DGX Spark|Strix Halo)"
    # NVIDIA's mining cards, run as GPUs for models ("CMP 30HX", "CMP 170HX", "P104-100", "P106-100")
    r"|(?:NVIDIA\s+)?(?P<cmp>CMP\s?\d{2,3}HX|P10[246]-\d{3})(?![\w.-])"
    # Huawei's Ascend NPUs ("Ascend 910B", "910B3", "8卡910B3")
    r"|(?:Huawei\s+|华为\s*)?(?:Ascend\s*|昇腾\s*)?(?P<asc>910[ABC]\d?)(?![A-Za-z0-9_.])"
    # and its Atlas servers and cards ("Atlas 800I A2", "Atlas 300I Duo", "Atlas 800T A2")
    r"|(?:Huawei\s+|华为\s*)?Atlas\s?(?P<atlas>\d{3}[IT]?(?:\s(?:A[23]|Duo|Pro))?)(?![A-Za-z0-9_.])"
    # phones' and boards' chips by their makers' names ("Snapdragon 8 Gen 3", "Snapdragon X Elite",
    # "RK3588", "Dimensity 9300") and phones by theirs ("Galaxy S24"): the machine of an on-device run
    r"|(?:Qualcomm\s+)?Snapdragon\s(?P<sd>\d\s?(?:s\s)?Gen\s?\d|\d\sElite|X\s(?:Elite|Plus)|\d{3}\+?)(?![\w.-])"
    r"|(?:Rockchip\s+)?(?P<rk>RK3(?:588S?|576|568|566))(?![\w-])"
    r"|(?:MediaTek\s+)?Dimensity\s(?P<dim>\d{3,4}\+?)(?![\w.-])"
    r"|(?:Samsung\s+)?Galaxy\s(?P<galaxy>S\d{2}(?:\s?(?:Ultra|FE|\+))?|Z\s?Fold\s?\d|Tab\sS\d{1,2}(?:\s?Ultra)?)(?![\w.-])"
    # Android phones by their makers' names ("Xiaomi 14", "Pixel 8a", "Google Pixel 9 Pro", "OnePlus 12")
    r"|(?P<droid>Xiaomi\s\d{1,2}(?:\s(?:Pro|Ultra))?|(?:Google\s)?Pixel\s\d{1,2}a?(?:\s(?:Pro(?:\sXL)?|XL))?"
    r"|OnePlus\s\d{1,2}(?:\s?(?:Pro|R|T))?)(?![\w.-])"
    # AWS's own accelerators ("AWS Trainium", "Trainium2", "Inferentia2")
    r"|(?:AWS\s+)?(?P<aws>Trainium\d?|Inferentia\d?)(?![\w.-])"
    # Tenstorrent's machines and cards ("QuietBox", "TT-LoudBox", "Wormhole n300", "Blackhole p150a";
    # a family after the maker's name: "Tenstorrent Wormhole hardware")
    r"|(?:Tenstorrent\s+)?(?P<tt>(?:TT-)?(?:QuietBox|LoudBox)|Wormhole\s[nN]\d{3}[sd]?|Blackhole\s[pP]\d{3}[ab]?"
    r"|(?<=Tenstorrent\s)(?:Galaxy|Wormhole|Blackhole|Grayskull))(?![\w.-])"
    # a MacBook by its screen size, no chip named ("macbook pro 14", "MacBook Air 13-inch")
    r"|(?P<mbook>MacBook\s(?:Pro|Air)\s1[3-6])(?:-?inch\b|″|\")?(?![\w.-])"
    # Apple's phones and tablets ("iPhone 15 Pro", "iPhone 16 Pro Max", "iPad M4", "iPad Pro (M4)")
    r"|(?:Apple\s+)?(?P<ios>iPhone\s\d{1,2}(?:\s(?:Pro\sMax|Pro|Plus|mini|e))?"
    r"|iPad(?:\s(?:Pro|Air|mini))?(?:\s(?:M\d|\(M\d\)))?)(?![\w-])"
    # single-board computers by their makers' names ("Radxa Orion O6" (spelt "Oryon" too), "Orange Pi
    # 5 Plus"): the board is the machine (an RK3588 board, "Radxa ROCK 5B", is named by its chip)
    r"|(?P<sbc>Radxa\s(?:Or[iy]on\sO6)|Orange\sPi\s\d(?:\s(?:Plus|Pro|Max|Ultra))?)(?![\w.])"
    # a Raspberry Pi by its generation ("Raspberry Pi 5", "4× Pi 5 16GB", "a Pi 4")
    r"|(?:Raspberry\s+)?(?<!Orange\s)(?<!Banana\s)(?<!Rock\s)(?<!Nano\s)Pi\s?(?P<pi>[345])(?![\w.])"
    # NVIDIA's embedded modules ("Jetson Thor", "Jetson AGX Orin 64GB", "Jetson Orin Nano", "IGX Orin"):
    # the memory names the module's SKU
    # ("AGX Orin" alone, "AGX ORIN 32G": the module without its family's name)
    r"|(?:NVIDIA\s+)?(?P<jetson>(?:Jetson|IGX)\s(?:AGX\s)?(?:Thor|Orin|Xavier|Nano|TX2)(?:\s(?:Nano|NX))?"
    r"|AGX\s(?:Thor|Orin|Xavier)|(?:Orin|Xavier)\sAGX|Orin\s(?:NX|Nano)|Xavier\sNX)"
    # "Jetson AGX Orin (64GB)", "Orin AGX(32G)Jetpack 5.1" (a README's row label run together)
    r"(?:\s(?P<jmem>\d{1,3})\s?GB?(?![\w-])|\s?\((?P<jmem2>\d{1,3})\s?GB?\)|(?![\w-]))"
    # ("my old 1080ti", "a spare 3090", "an used 2080 Ti": a word about the card between)
    r"|(?:(?<=\bmy\s)|(?<=\bold\s)|(?<=\bspare\s)|(?<=\bused\s)|(?<=\bsingle\s)|(?<=\bnvidia\s)|(?<=\bgeforce\s)|(?<=\bthe\s)|(?<=\ba\s)|(?<=\btwo\s)|(?<=\bdual\s)|(?<=\bquad\s)|(?<=\bdual-)|(?<=\bquad-)|(?<=\btwin\s)|(?<=\btwin-)|(?<=\bpair\sof\s)|(?<=\bon\s)|(?<=\d[x×*]\s)|(?<=\d[x×*])|(?<=\d\s[x×*]\s)|(?<=卡)|(?<=张)"
    # after a label naming the machine ("hardware is 4060ti", "GPU: 4090", "显卡：3090"), after a
    # Chinese count of cards ("单卡3090", "两张3090", "4卡 4090")
    r"|(?<=\bhardware\sis\s)|(?<=\bgpu:\s)|(?<=\bgpu:)|(?<=\bgpu\sis\s)|(?<=\bcard:\s)|(?<=显卡：)|(?<=显卡:)|(?<=显卡)"
    r")"
    # not a decimal or a percentage ("4090.5", "4090%"); a full stop ends the sentence ("on a 4090.")
    # (a CJK word right after is no part of it: "单卡3090跑的")
    r"(?P<bare>[1-5]0[5-9]0|16[56]0)(?:\s?(?P<bares>Ti|Super)\b)?"
    # ("a 3060 Laptop 6GB": the laptop part, as after "RTX")
    r"(?:\s(?P<bmobile>Mobile|Laptop(?:\sGPU)?|Max-Q)\b)?s?(?![A-Za-z0-9_%-]|\.\d)"
    # (nor a number of a unit after it: "a 1660 ms TTFT", "a 1080 token prompt", "a 1070 tok/s prefill")
    r"(?!\s?(?:ms|s|sec|seconds?|min|tok(?:en)?s?|t/s|tps|[KMG]i?B|W|x|steps?|layers?)\b)"
    r")",
    re.IGNORECASE,
)
_ENGINES = {
    "llama.cpp": "llama.cpp",
    "llamacpp": "llama.cpp",
    "llama-cpp": "llama.cpp",  # a package's spelling used for the engine ("llama-cpp의 --cpu-moe 옵션")
    "ik_llama.cpp": "ik_llama.cpp",
    "vllm": "vLLM",
    "sglang": "SGLang",
    "ollama": "Ollama",
    "mlx-lm": "MLX",
    "mlx_lm": "MLX",
    "mlx": "MLX",
    "lm studio": "LM Studio",
    "lmstudio": "LM Studio",
    "lm-studio": "LM Studio",
    "exllamav2": "ExLlamaV2",
    "tensorrt-llm": "TensorRT-LLM",
    "koboldcpp": "KoboldCpp",
    # engines fewer posts run, as their projects spell them
    "mlc llm": "MLC LLM",
    "mlc-llm": "MLC LLM",
    "mlc": "MLC LLM",
    "mistral.rs": "mistral.rs",
    "exllama": "ExLlama",
    "rapid-mlx": "Rapid-MLX",
    "rapid_mlx": "Rapid-MLX",  # its Python package's name ("Software: rapid_mlx 0.7.9, mlx 0.31.2")
    "omlx": "oMLX",
    "tinygrad": "tinygrad",
    "nkipy": "NKIPy",  # AWS Neuron's kernels in Python, run on Trainium
    "llamafile": "llamafile",
    # bindings and apps of llama.cpp, other runtimes, as their projects spell them
    "llama-cpp-python": "llama-cpp-python",
    "llama-cpp-rs": "llama-cpp-rs",
    "llama.node": "llama.node",
    "ctranslate2": "CTranslate2",
    "pocketllm": "PocketLLM",
    "lightning-mlx": "lightning-mlx",
    "xllm": "xLLM",
    "ds4": "ds4",
    # other inference engines and servers, as their projects spell them (and short forms users write)
    "ktransformers": "KTransformers",
    "powerinfer": "PowerInfer",
    "mlxcel": "mlxcel",
    "mlx-serve": "mlx-serve",
    "mlx-vlm": "mlx-vlm",
    "dflash-mlx": "dflash-mlx",  # DFlash's speculative decoding on MLX, a server of its own (h561)
    "mlx_vlm": "mlx-vlm",  # its Python module's name ("`mlx_vlm`-style speculative decoding")
    # MLX's Swift runtime: a runtime of its own beside the Python mlx-lm
    "mlx-swift-lm": "mlx-swift-lm",
    "mlx-swift": "mlx-swift-lm",
    "mlx swift": "mlx-swift-lm",
    "vllm-mlx": "vllm-mlx",
    "ik_llama": "ik_llama.cpp",
    "ik-llama.cpp": "ik_llama.cpp",
    "trtllm": "TensorRT-LLM",
    "trt-llm": "TensorRT-LLM",
    "tensorrt llm": "TensorRT-LLM",
    "tensorrt_llm": "TensorRT-LLM",  # its Python package's name ("problem with tensorrt_llm performance")
    # its benchmark binaries and CLIs ("./cpp/build/benchmarks/gptSessionBenchmark", "trtllm-bench")
    "gptsessionbenchmark": "TensorRT-LLM",
    "gptmanagerbenchmark": "TensorRT-LLM",
    "trtllm-bench": "TensorRT-LLM",
    "trtllm-serve": "TensorRT-LLM",
    "text-generation-inference": "TGI",
    "tgi": "TGI",
    "lmdeploy": "LMDeploy",
    "deepspeed-mii": "DeepSpeed-MII",
    "aphrodite": "Aphrodite",
    "aphrodite-engine": "Aphrodite",
    "tabbyapi": "TabbyAPI",
    "exllamav3": "ExLlamaV3",
    "gpt4all": "GPT4All",
    "openvino": "OpenVINO",
    "ipex-llm": "IPEX-LLM",
    "onnxruntime-genai": "ONNX Runtime GenAI",
    "candle": "candle",
    "executorch": "ExecuTorch",
    "fastllm": "fastllm",
    "xinference": "Xinference",
    "llama-box": "llama-box",
    "docker model runner": "Docker Model Runner",
    "exllama v2": "ExLlamaV2",
    "text-generation-webui": "text-generation-webui",
    "oobabooga": "text-generation-webui",
    # more runtimes and servers as their projects spell them (and with spaces, as prose writes them)
    "onnx runtime genai": "ONNX Runtime GenAI",
    "onnxruntime genai": "ONNX Runtime GenAI",
    "localai": "LocalAI",
    "mindie": "MindIE",
    "rkllm": "RKLLM",
    "fastchat": "FastChat",
    "webllm": "WebLLM",
    "web-llm": "WebLLM",
    "deepspeed-fastgen": "DeepSpeed-FastGen",
    "fastertransformer": "FasterTransformer",
    "bitnet.cpp": "bitnet.cpp",
    "ms-swift": "ms-swift",  # ModelScope's SWIFT ("ms-swift 1.9+")
    # quantisation libraries that run (and benchmark) the models they quantise
    "autoawq": "AutoAWQ",
    "autogptq": "AutoGPTQ",
    "auto-gptq": "AutoGPTQ",
    "llama2.c": "llama2.c",
    # more runtimes as their projects spell them: PyTorch's own (torchchat, gpt-fast), NVIDIA's for
    # Jetson (TensorRT-Edge-LLM), phones' and NPUs' (MNN-LLM, mllm, LiteRT-LM, PowerServe), small
    # servers and forks (openinfer, nano-vllm, MinivLLM, LightLLM, GPUStack, distributed-llama, AirLLM)
    "torchchat": "torchchat",
    "gpt-fast": "gpt-fast",
    "tensorrt-edge-llm": "TensorRT-Edge-LLM",
    "mnn-llm": "MNN-LLM",
    "mllm": "mllm",
    "litert-lm": "LiteRT-LM",
    "powerserve": "PowerServe",
    "openinfer": "openinfer",
    "nano-vllm": "nano-vllm",
    "minivllm": "MinivLLM",
    "mini-vllm": "MinivLLM",
    "lightllm": "LightLLM",
    "gpustack": "GPUStack",
    "distributed-llama": "distributed-llama",
    "airllm": "AirLLM",
    # Tenstorrent's stack (TT-Metalium) and MTP on MLX
    "tt-metal": "tt-metal",
    "tt-metalium": "tt-metal",
    "mtplx": "MTPLX",
    # a CPU engine streaming a large MoE's experts from disk ("./coli run", "GLM-5.2-colibri-int4")
    "colibri": "colibri",
}
#: ``_ENGINES``' spellings as one alternation, the longest first (``draftwords`` reads an engine's
#: version after them)
ENGINE_SPELLINGS = "|".join(re.escape(k) for k in sorted(_ENGINES, key=len, reverse=True))
_ENGINE = re.compile(
    # after a "/": a repository of the engine's name ("vllm-project/vllm", "ggml-org/llama.cpp");
    # a version glued on by a dash ("llamafile-0.7", "vllm-0.6.3") ends the name
    # a fork of llama.cpp under its own name ("beellama.cpp", "buun-llama.cpp"): that name, as written
    r"(?<![\w.-])("
    + ENGINE_SPELLINGS
    + r"|[a-z][a-z0-9]*(?:[_-][a-z0-9]+)*[_-]?llama\.cpp)(?![\w]|-(?!\d+\.\d))",
    re.IGNORECASE | re.ASCII,  # glued to CJK text: "使用Ollama的", "用llama.cpp跑"
)
#: a llama.cpp build: its tag with what the post writes after it ("b4980", "b4980-cu12.4"), the
#: number and commit ``--version`` prints ("build 9553 (9e3b928fd)", "version: 10451 (10bf611e5)"); not
#: a commit alone ("a fork (commit 4838ffb)": whose build it is, the post's own or a fork's, is the
#: reader's to say)
_BUILD = re.compile(
    r"(?<![\w.-])(b\d{4,5}(?:-[a-z][\w.]*\d)?)(?![\w-])"
    r"|\b(?:build|version)[:\s]\s*(\d{4,5}\s\([0-9a-f]{7,40}\))",
    re.IGNORECASE,
)
#: the model families a name is known by (a regex alternation, for ``_MODEL`` and
#: ``draftcontext``'s family-and-version names)
MODEL_FAMILIES = (
    r"Qwen|QwQ|Llama|Mistral|Mixtral|Ministral|Devstral|Magistral|Codestral|Gemma|Phi|DeepSeek|GLM|"
    r"gpt-oss|Granite|NVIDIA-Nemotron|Nemotron|Kimi|MiniMax|Falcon|OLMo|SmolLM|Hermes|LFM|InternLM|Yi|Command-R|"
    # ("Code Llama" with its capital: "the code Llama-3.1-8B wrote" is Llama's)
    r"Meta-Llama|TinyLlama|CodeLlama|(?-i:Code)[ -]Llama|MiniCPM|ERNIE|Vicuna|Wizard\w*|Zephyr|StarCoder|"
    r"Baichuan|ChatGLM|"
    r"Aya|Jamba|Hunyuan|Seed-OSS|EXAONE|LLaVA|Pixtral|Moondream|StableLM|Pythia|MPT|DBRX|Grok|OpenChat|"
    r"Cogito"
)
#: a GGUF file, or a model name of a known family with its size ("Qwen3-30B-A3B", "gpt-oss-20b"); the
#: family in any case, as posts and repositories write it ("LlaMA-3.1-8B", "qwen3-8b", "QWEN3-8B")
_MODEL = re.compile(
    # (a GGUF file after any folders of its path: "C:/models/x.gguf", "https://huggingface.co/o/r/blob/
    # main/x.gguf", a repository's file "unsloth/gemma-3-1b-it-GGUF:gemma-3-1b-it-Q4_K_M.gguf"; a
    # model's name after one folder only, "Qwen/Qwen3-8B", never a URL's slug; not after a colon
    # either, and each part's end one "/" or ":", so a run of "a:b/" is tried once, in one way; a
    # model's label before its colon is no such part: "モデル:Qwen/Qwen2.5-7B-Instruct", "Model:Qwen3-8B")
    r"(?:(?<![\w./:-])|(?<=(?i:model):)|(?<=モデル:)|(?<=模型:))(?:[\w.-]+/)?(?P<name>(?:[\w.-]*[/:])*[\w.+-]+\.gguf|(?i:"
    + MODEL_FAMILIES
    # Gemma's effective sizes ("gemma-4-E2B-it", "gemma-3n-E4B")
    + r")[\w.]*(?:-[\w.]+)*-[Ee]?\d+(?:\.\d+)?[BbMm](?:-[\w.]+)*"
    # a distilled model written with spaces names its teacher first ("DeepSeek R1 Distill Qwen 32B")
    + r"|(?:(?i:"
    + MODEL_FAMILIES
    + r")[\s-]?(?:[RV]\d+(?:\.\d+)?[\s-])?(?i:distill(?:ed)?)\s)?(?i:"
    + MODEL_FAMILIES
    # "Llama 3 8B", "Qwen 2.5 7B", "Llama 3.1 70b", "Qwen3 30B A3B", "Qwen3.6 35B-A3B" (the active
    # size after it)
    + r")\s?\d+(?:\.\d+)?\s\d+(?:\.\d+)?[BMbm](?:[\s-][Aa]\d+(?:\.\d+)?[Bb])?(?![\w-])"
    # a family with no version and its size ("Mistral 7B", "GPT-OSS 20B", "Falcon 40B", "mistral 7b")
    + r"|(?:(?i:"
    + MODEL_FAMILIES
    + r")[\s-]?(?:[RV]\d+(?:\.\d+)?[\s-])?(?i:distill(?:ed)?)\s)?(?i:"
    + MODEL_FAMILIES
    + r")\s\d+(?:\.\d+)?[BMb](?:-A\d+(?:\.\d+)?B)?(?![\w.-])"
    # a family's size class with its size, a version between or not ("Mistral Small 24B", "Mistral
    # Nemo 12B", "Mistral Small 3.1 24B")
    + r"|(?:"
    + MODEL_FAMILIES
    + r")[\s-](?:Small|Medium|Large|Nemo|Mini|Tiny)(?:[\s-]\d+(?:\.\d+)?)?[\s-]\d+(?:\.\d+)?[Bb](?![\w.-])"
    # a family's size class and version, the model's name where it has no size ("Mistral Small 3.1")
    + r"|(?:"
    + MODEL_FAMILIES
    # (or with dashes and the release's date: "Magistral-Small-2509", "Devstral-Small-2505")
    + r")[\s-](?:Small|Medium|Large|Nemo|Mini|Tiny)[\s-]\d+(?:\.\d+)?(?![\w.-])"
    # (Gemma's instruction-tuned "IT" in capitals: "Gemma 4 31B IT", "Gemma 4 31B ITを", a Japanese
    # particle glued after it)
    r")(?P<variant>\s(?:[A-Z][a-z]+-)?(?:Instruct|Chat|Coder|Distill|Thinking|Abliterated|Uncensored|IT)"
    r"(?![A-Za-z0-9_-]))?"
    # (or first in the parentheses after the name, alone or before a comma: "Qwen3-30B (BF16, 28 GPU
    # Experts)", "Llama-3-8B (FP8)")
    # (a ggml type's digit after its underscore is one: "Q8_0118.5 t/s" is Q8_0 and 118.5 t/s)
    r"(?:\s*(?P<paren>[(（])?(?<=[\s\dBb(（])(?P<quant>(?:UD-|smol-)?I?Q\d(?:_(?:R\d+|[A-Z]+|\d))*?|MXFP[468]|NVFP4|BF16|FP8|"
    r"(?<=[(（])(?:bf16|fp8)|"
    # a quantisation method with its bits ("AutoRound INT4", "GPTQ 4-bit", "AWQ")
    r"(?:AutoRound|AWQ|GPTQ|EXL2)(?:[\s-](?:INT\d|\d-?bit))?)(?(paren)(?=[,)）])))?"
    # (a number glued after a type of letters, a table copied without its cell borders: "Qwen 2.5 72B
    # Q4_K_M7 t/s" is Q4_K_M and 7 t/s)
    r"(?:(?![\w-])|(?<=_[A-Z])(?=\d)|(?<=_[A-Z]{2})(?=\d)|(?<=Q\d_\d)(?=\d))",
    re.ASCII,
)
#: a draft model by its name: EAGLE/EAGLE3 and Medusa heads only draft ("Qwen3.6-27B-EAGLE3",
#: "EAGLE3-LLaMA3.1-Instruct-8B"), never the model a number measures
#: (and DSpark's and DFlash's drafters: "RadixArk/Qwen3.8-27B-DSpark", "z-lab/Qwen3-8B-DFlash-b16")
_DRAFT_NAME = re.compile(r"(?i)(?<![A-Za-z])(?:EAGLE\d?|Medusa|DSpark|DFlash)(?![A-Za-z])")
#: words after a model's name marking it as the draft: its quant and packaging words (capitals, a quant
#: "Q4_K_M", "8bit"; no other model's name: "Qwen3-32B with Qwen3-0.6B Q8 draft" drafts with the 0.6B), then
#: "(draft)" or "(draft model)" ("Llama 3.2 1B Q4 MLX (draft)"); "(main)" marks the target; "draft
#: model", "as the draft" ("Qwen3-0.6B Q8 draft"; not "draft-simple", a spec type's name); the draft
#: in the corpus's other languages ("Mistral-7B草稿模型", "ドラフトモデル", "补助模型")
_DRAFT_MARK = re.compile(
    r"(?:\s+(?-i:[A-Z0-9][A-Z0-9_.-]*|[QqIi]\d[\w.-]*|\d+-?bit)){0,3}\s*(?:\((?:the\s+)?draft(?:\s+model)?\)"
    r"|(?:as\s+(?:the\s+|a\s+)?)?draft(?:\s+model)?(?![\w-])"
    r"|(?:作为|として)?(?:草稿|草案|ドラフト|補助|补助|辅助)(?:模型|モデル)?)",
    re.IGNORECASE,
)
#: words before a model's name marking it as the draft ("drafted by `Qwen3-0.6B`", "draft model:
#: Qwen3-0.6B", "with the draft Llama-3.2-1B", "draft=Qwen3-0.6B")
_DRAFT_BEFORE = re.compile(
    # ("With a draft: Qwen3-32B hits 30 tok/s", "With draft model: Llama-3.1-70B": a label saying the
    # run drafts, the model after it the one measured)
    # ("drafter `RadixArk/Qwen3.8-27B-DSpark`": a list's label of the draft model)
    r"(?:\bdrafted\s+(?:by|with)|\bdrafter\s*[:=]?"
    r"|(?<!with )(?<!with a )(?<!with the )\bdraft(?:\s+model)?\s*[:=]"
    r"|\bwith\s+(?:the\s+|a\s+)?draft(?:\s+model)?(?!\s*[:=]))"
    r"\s*[`*_\"']*\s*$",
    re.IGNORECASE,
)
#: a model named by its family and version and the word "model", no size ("the Minicpm3 model",
#: "a Qwen3 model"): the post's model where it names no fuller one (``draftcontext``'s ``fuller``)
_FAMILY_MODEL = re.compile(
    r"(?<![\w./-])(?P<name>(?i:" + MODEL_FAMILIES + r")[\w.]*\d[\w.]*)\s+model\b(?!\s+(?:family|series))",
    re.ASCII,
)
#: a model named by its family and version with no size, or with a size the main pattern does not
#: read: "DeepSeek V3", "DeepSeek-R1", "Kimi K2", "Qwen3", "Llama 3.1", "Gemma 4 E4B" (an effective
#: size), "Qwen3-VL 235B", "GLM-4.6V 108B" (a modality or variant letter before the size), "Mistral
#: Large" (one model; "Mistral Small" is several, a test's control); a weaker name than
#: ``_MODEL``'s: the post's fuller one replaces it (``draftcontext``'s ``fuller``)
#: a model of a family no list knows, by its version and size ("Bonsai 2 27B", "Ternary-Bonsai-2-27B",
#: "Mythos 1.5 8B"): a capitalised name, a version, a size in billions; a word that only counts or
#: labels ("Run 2 13B", "Table 1 70B") is none
_UNKNOWN_MODEL = re.compile(
    r"(?<![\w./:-])(?P<name>(?!(?:Run|Test|Table|Figure|Fig|Step|Part|Round|Top|Prompt|Case|Models?|Rig|"
    r"Node|Batch|Layers?|Phase|Section|Chapter|Group|Option|Setup|Config|Tier|Level|Day|Week|Version|"
    r"Only|Just|Over|Under|About|With|And|The|All|Both|Each|Gen|Stage|Pass|Trial|Sample|Item|Page)\b)"
    r"[A-Z][A-Za-z]{2,}(?:-[A-Z][A-Za-z]+)*[\s-]\d+(?:\.\d+)?[\s-]\d+(?:\.\d+)?B(?:-A\d+(?:\.\d+)?B)?)"
    r"(?![\w.:/-]*\w)"
)
#: a model's name no family list knows, told by the GGUF type right after it ("MoE Ling-3.0-tiny
#: Q6_K", "Qwen-based 9B Q5_K_M"): words joined by dashes, perhaps a size after them, with a digit;
#: not a llama.cpp build ("b4000 Q4_0") or a word and a size ("handles 0.8B Q8_0")
_QUANTED_NAME = re.compile(
    r"(?<![\w./:-])(?P<name>(?!b\d{4,5}\b)(?=[\w.-]*\d|[\w.-]+\s\d)[A-Za-z][A-Za-z0-9.]*"
    r"(?:-[A-Za-z0-9.]+)+(?:\s\d+(?:\.\d+)?[BbMm])?)"
    r"\s+(?P<quant>(?:UD-)?I?Q\d(?:_[A-Z0-9]+)+)(?![\w-])",
    re.ASCII,
)
#: a backend's name leading a word ("ROCm-6.4", "Vulkan-1.4", "CUDA-12.4"): no model's (``_QUANTED_NAME``)
_BACKEND_LED = re.compile(r"(?i)(?:CUDA|Vulkan|Metal|ROCm|SYCL|OpenCL|HIP|MLX|CPU)(?![a-z])")
_VERSIONED_MODEL = re.compile(
    r"(?<![\w./:-])(?P<name>(?i:" + MODEL_FAMILIES + r")(?:"
    # the version: glued or after "-" ("Qwen3", "Phi-4", "DeepSeek-R1"), or after a space with a
    # series letter or a decimal ("DeepSeek V3", "Qwen 3.5"); a bare whole number after a space only
    # with a size after it ("Gemma 4 E4B"; "Falcon 40 times" is no model)
    # (a series letter: V, R, K, M: "DeepSeek-V3", "Kimi-K2", "MiniMax-M2")
    r"(?:-?(?:[VvRrKkMm]\d+(?:\.\d+)?|\d+(?:\.\d+)?[a-zA-Z]?)"
    # ("DeepSeek-Lite": ik_llama.cpp's name for DeepSeek-V2-Lite, no version written)
    r"|(?<=[Dd]eep[Ss]eek)-Lite(?![\w.-])"
    # ("gpt-oss" alone: OpenAI's open-weight model, which has no version; its sizes follow as above)
    r"|(?<=[Gg][Pp][Tt]-[Oo][Ss][Ss])(?![\w-])(?!\.\w)"
    # (not a time, a rate or a size after the name: "TinyLlama 0.20s", a table's row flattened)
    r"|\s(?:[VvRrKk]\d+(?:\.\d+)?|\d+\.\d+(?!\s*(?:[a-zA-Z]+/|tok|%|x\b|ms\b|s\b|[kMG]i?B))[a-zA-Z]?)"
    r"|\s\d+(?=\s+E?\d+(?:\.\d+)?[Bb]\b))"
    # the variant's words ("GLM-4.5-Air", "GLM 4.5 Air", "Phi-4-mini-instruct", "DeepSeek-V3.1-Terminus",
    # "Kimi K2 Thinking"): those weights
    r"(?:[-\s](?:VL|Coder|Vision|Omni|Instruct|Chat|MoE|Turbo|Air|Flash|Lite|Next|Thinking|Reasoning|Terminus|Exp"
    # (IBM's hybrid "H" models: "Granite 4.0 H Micro", "granite-4.0-h-tiny")
    r"|Preview|Micro|Tiny|Nano|H(?![\w.]))|-(?i:mini|small|medium|large|instruct|reasoning|thinking|chat|it|h|micro|tiny))*"
    r"(?:[\s-]E?\d+(?:\.\d+)?[Bb](?:[\s-][Aa]\d+(?:\.\d+)?[Bb])?)?"
    # a release's date after the name ("DeepSeek-R1-0528", "DeepSeek-V3-0324", "DeepSeek V4 Flash
    # 0731"): those weights (after a space, no count of tokens: "Qwen3 1024 tokens")
    r"(?:-[01]\d[0-3]\d|\s[01]\d[0-3]\d(?![\w.,])"
    r"(?!\s*(?:tokens?|tok|t/s|ms\b|s\b|%|requests?|reqs?|prompts?|times|users|samples|steps|iterations?)))?"
    r"|\sLarge(?:\s\d+(?:\.\d+)?)?"
    # its size in parentheses after it ("Qwen2.5 (7B)"): the model of that size
    r")(?:\s\((?P<psize>\d+(?:\.\d+)?[Bb])\))?)(?![\w.:/-]*\w)(?!\.\w)"
    # a family of models, not one ("the Qwen3 model family", "Llama 3 models")
    r"(?!\s+(?:models?\s+)?(?:family|series|lineup|models)\b)",
    re.ASCII,
)
#: a repository's or file's name of a model with no size, its quantisation or packaging after it
#: ("DeepSeek-V4-Flash-oQ8", "DeepSeek-V4-Flash-4bit"): the model and the quant (``model_and_quant``)
_REPOSITORY_NAME = re.compile(
    # (after its owner's folder: "mateogrgic/GLM-5.2-colibri-int4-with-int8-mtp")
    r"(?<![\w./:-])(?:[\w.-]+/)?(?P<name>(?i:" + MODEL_FAMILIES + r")[\w.]*(?:-[\w.]+)+)(?![\w.:/-]*\w)",
    re.ASCII,
)
#: a model named by its size before its family ("a 7B LLaMA model", "the 13B Llama 2"): the family
#: (and version) with the size after it, as the field writes the name ("LLaMA 7B")
_SIZE_FAMILY = re.compile(
    r"(?<![\w.-])(?P<size>\d+(?:\.\d+)?[BM])\s+(?P<family>(?i:"
    + MODEL_FAMILIES
    + r")(?:[\s-]?\d+(?:\.\d+)?)?)(?![\w-])",
    re.ASCII,
)
#: a line or list item labelled by a model's size ("7B: 191.0 token/sec", "- 35B-A3B: 98 t/s"): the
#: model of that size, the post's fuller name for it where it names one; a capitalised word of the
#: label around it ("Pure 27B comparison:"), not a sentence's article ("the 12B: fast")
_SIZE_LABEL = re.compile(
    r"\s*(?:[-*•]\s+)?(?:(?!(?:The|A|An|This|That|My|Our|Its)\s)[A-Z][A-Za-z]*\s+)?(?P<size>\d+(?:\.\d+)?B(?:-A\d+(?:\.\d+)?B)?)(?:\s+[A-Za-z]+)?\s?[:：]\s"
)
#: a model named by its size and its quantisation, no family ("a 13B GPTQ (128g)", "the 70B AWQ"): the
#: model of that size (the post's fuller name for it, ``draftcontext``) and the quant; only the quants
#: that are no ggml type (GPTQ, AWQ, EXL2, FP8, ...): "72B Q8_0 @ 6 tok/s" labels a run, as before
_SIZED_QUANT = re.compile(
    r"(?<![\w.-])(?P<size>\d+(?:\.\d+)?B(?:-A\d+(?:\.\d+)?B)?)\s+"
    # (a GGUF type in any case ending a label: "* 7B q4_K_S :"; "72B Q8_0 @ 6 tok/s" names a run)
    # (a method with its bits: "a 70B AWQ 4-bit model")
    r"(?P<q>(?:GPTQ|AWQ|EXL2)(?:[- ](?:INT\d|\d-?bit))?|NVFP4|MXFP[468]|FP8|INT4|INT8"
    r"|(?i:i?q\d(?:_[a-z0-9]+)+)(?=\s*(?:[:：]|$)))(?![\w-])",
    re.ASCII,
)
#: a quantisation named alone in prose ("UD-IQ3_XXS reached ...", "IQ2_XS with MTP"), or after the
#: file variant carrying MTP heads ("MTP-UD-Q4_K_XL")
_QUANT_WORD = re.compile(
    # (after a version and "_": "4.1_Q4_K_M的模型", the model's release glued to its type)
    # (its size word in lower case too: "Q4_k_m模型")
    rf"(?:(?<![\w.-])|(?<=[\s(]MTP-)|(?<=\d_))(?:UD-|smol-)?(?=T?I?Q\d_)(?i:{QUANT_TYPE})(?:-\d+(?:\.\d+)?bpw)?"
    # (no shorter type of a name glued to a number: "Q4_K_M42 t/s" is read as the type and a number
    # elsewhere, never as "Q4_K" or "Q4"; a suffix after it is none of it: "Q8_0_MTP", "Q5_K_M_imatrix")
    r"(?![A-Za-z0-9-]|_\d|_(?:[A-Z]+_)*[A-Z]+\d)"
    r"|(?<![\w.-])MXFP[468](?![\w-])"
    # Unsloth's dynamic quant written by its bits alone ("Qwen 3.6 35B A3B (UD-Q4)"): "UD-" says it is one
    r"|(?<![\w.-])UD-I?Q\d(?![\w.-])"
    # a model by its size, its number format in parentheses ("Dense 32B model (bf16): 64GB of weights")
    r"|(?<=\d[Bb]\smodel\s\()(?i:bf16|fp16|fp8|int4|int8)(?=[,)])",
    re.ASCII,
)
#: a quantisation in words, the model's weights': a bit width the words call a quantisation or a
#: format ("4-bit quantization", "quantized to 4 bits", "8 bit GGUF", "4 位量化", "4-битном формате"),
#: or a weight-quantisation method alone ("vLLM AWQ", "GPTQ-Int4", "EXL2", "NVFP4"); FP16, BF16 and
#: FP8 alone are not read (a KV cache's or the compute's precision as often as the weights')
_BITS_QUANT = re.compile(
    r"(?<![\w.-])(?P<b>\d{1,2}[- ]?bits?)(?=[\s-]+(?:quant\w*|GGUF|MLX|weights|format|precision)\b)"
    # a bit width after MLX or a model's size, or alone in parentheses: "MLX 4-bit", "32B 8-bit",
    # "Qwen2.5 72B Instruct MLX (4-bit)"
    # (a cache's bits are none: "(8-bit) KV", "8-bit K/V cache", "KV cache (8-bit)")
    r"|(?:(?<=MLX[\s-])|(?<=MLX\s\()|(?<=\d[Bb][\s-])|(?<=\d[Bb]\s\())(?P<a>\d{1,2}-?bits?)"
    r"(?![\w-])(?!\)?\s*(?:KV|K/V|kv|cache))"
    r"|\bquantized\s+to\s+(?P<t>\d{1,2}[- ]?bits?)\b"
    r"|(?<![\w.])(?P<z>\d{1,2})\s*(?:位|比特)\s*量化"
    r"|(?<![\w.])(?P<r>\d{1,2})[- ]?бит\w*\s+(?:формат|квантован)"
    # a CJK word right after is no part of it ("GPTQ Int4量化版本")
    r"|(?<![\w.-])(?P<m>(?:AWQ|GPTQ|EXL2)(?:[- ](?:INT\d|Int\d|int\d|\d-?bit))?|NVFP4)(?![A-Za-z0-9_-])"
    # a number format the words call the weights' ("at FP8 precision", "BF16 weights", "INT8
    # quantization"; not a cache's: "KV cache in FP8 precision")
    # ("BF16 safetensors", "FP16 model", "fp16 decoding performance", "FP16 inference": the weights')
    r"|(?<!KV\s)(?<!cache\s)(?<!cache\sin\s)(?<![\w.-])"
    r"(?P<p>FP8|FP16|BF16|INT8|INT4|FP4|FP6|MXFP[468]|fp8|fp16|bf16|F16|f16)"
    r"(?=\s+(?:precision|quantization|quantisation|weights|checkpoints?|safetensors|model|decoding|inference)\b)"
    # a number format a model is run at ("Qwen 3 Coder at FP8 on VLLM", "Qwen3-32B at bf16"; not a
    # cache's or the compute's: "KV cache at FP8", "compute at FP16")
    r"|(?<!cache\sat\s)(?<!KV\sat\s)(?<!compute\sat\s)(?<!activations\sat\s)(?<=\sat\s)"
    r"(?P<at>FP8|FP16|BF16|INT8|INT4|FP4|NVFP4|MXFP4|fp8|fp16|bf16)(?![\w.-])"
    # a float type after a format's name ("GGML FP16", "GGUF F16")
    r"|(?<=GGML\s|GGUF\s)(?P<g>FP16|F16|BF16|fp16|f16|bf16)(?![\w.-])"
    # an integer width right after a model's size ("llama2-7b int4, sym, g128", "13B INT8"): its weights'
    # ("Phi-4-14B INT4 kernels": a kernel's, no weights')
    r"|(?<=\d[Bb]\s)(?P<i>[Ii][Nn][Tt][48])(?=\s*(?:[,;)]|$))",
)
#: a model's name right before "at" and a number format ("Qwen 3 Coder at FP8", "Qwen3-32B at bf16"):
#: the family, then only parts of the name (capitalised words, versions, sizes)
_MODEL_AT = re.compile(r"(?i:" + MODEL_FAMILIES + r")[\w.-]*(?:[\s-]+[A-Z0-9][\w.-]*)*\sat\s$")
_BACKEND = re.compile(r"(?<![\w-])(CUDA|Vulkan|Metal|ROCm|SYCL|OpenCL)(?![\w-])", re.ASCII)
#: a run on the CPU alone named as a mode by a label that is all of it, a column's or row's ("CPU
#: Mode", "CPU-only", "CPU only (8 threads)", "**CPU backend**"): the CPU backend (llama.cpp's
#: ggml-cpu; Ollama's CPU runner), not the machine's processor; in a sentence ("I don't care about
#: CPU mode") it names no run
_CPU_BACKEND = re.compile(r"[*_`]*CPU[- ](?:mode|only|backend)[*_`]*(?:\s*\([^()]*\))?", re.IGNORECASE)
#: llama.cpp's GPU backends by the BLAS library its builds before 2024 named them after ("device:
#: 2x3090, NVLINK, cublas", ``LLAMA_CUBLAS=1``, hipBLAS, CLBlast): the backend they built
_BLAS_BACKEND = re.compile(
    # (not a build without it: "no cuBLAS", "without hipBLAS", "w/o CLBlast")
    r"(?<!\bno\s)(?<!\bwithout\s)(?<!w/o\s)(?<!non-)(?<![A-Za-z0-9-])(?:LLAMA_)?(cuBLAS|hipBLAS|CLBlast)(?![A-Za-z0-9-])",
    re.I,
)
_BLAS_BACKENDS = {"cublas": "CUDA", "hipblas": "ROCm", "clblast": "OpenCL"}
_FA = re.compile(
    r"(?<![\w-])(?:-fa|--flash-attn|flash[ -]attention)\s*(?:=|:)?\s*(?P<w>on|off|1|0|enabled|disabled)\b"
    # "w/o FA", "without FA", "no flash attention", "with FA" (FA in capitals: the abbreviation)
    r"|(?<![\w/-])(?P<p>w/o|without|no|with)\s+(?:(?-i:FA)|flash[ -]?attention)(?![\w-])",
    re.IGNORECASE,
)
#: a drafting method's name (``DECODING_PHRASE``: speculative)
METHOD_WORDS = (
    r"EAGLE(?:-?\d)?|Medusa|DFlash|DSpark|n-?gram(?:-mod)?|lookahead decoding|prompt[- ]lookup(?: decoding)?"
)
#: a run's draft size in words ("with 2 draft tokens"): a drafting run, of no kind of its own
#: (not a count accepted, "with 2 draft tokens accepted", nor none: "with 0 draft tokens")
DRAFT_COUNT = re.compile(
    r"with ([1-9]\d?) draft(?:ed)? tokens?(?!\s+(?:were\s+|was\s+)?(?:accepted|rejected))", re.IGNORECASE
)
#: a side without what the sentence named before it ("versus 11.7 tok/s without it")
_WITHOUT_IT = re.compile(r"(?i)\b(?:without|w/o)\s+(?:it|them|that|one)\b")
#: a phrase naming the decoding: plain ("without draft", "MTP off"), self-speculative ("MTP") or
#: speculative ("with draft model", "spec on"; a drafting method's name: EAGLE-3, Medusa, DFlash,
#: DSpark, n-gram, lookahead and prompt lookup decoding draft from another model or the context,
#: not the model's own heads)
DECODING_PHRASE = re.compile(
    r"(?P<plain>\b(?:without (?:a |the )?draft(?: model)?|no draft(?: model)?|plain decoding|"
    r"without speculat\w*|w/o\s+spec\w*|spec(?:ulation)?[- ]off|non-MTP|no MTP|without MTP|w/o MTP|MTP off|"
    # (not "vanilla EAGLE3", "baseline Medusa": the plain form of a drafting method, still drafting)
    r"non[- ]spec(?:ulative)?|no[- ]spec(?:ulation|ulative)?|"
    r"(?:baseline|vanilla)(?![\s-]+(?:eagle|medusa|mtp|dflash|hydra|lookahead|n-?gram|spec\w*|draft\w*))|"
    r"(?:plain )?autoregressive|"
    # "AR" for autoregressive as a label of a number ("(AR 58.25, 3.75x, AL 7.12)", "AR: 41 tok/s")
    # (not an acceptance rate, as posts also write "AR": "AR 0.72", "AR 72%")
    r"(?-i:AR)(?=\s*[:=]?\s*~?[1-9]\d*(?:\.\d+)?(?![\d.]|\s*%))|"
    # the base model's own speed ("The base model speed:", "base throughput") beside its drafted runs
    # (not "base model" alone: the target a draft model drafts for, or a model without instruct tuning)
    r"base(?:[- ]model)?(?:'s)?\s+(?:speed|throughput|performance|results?|rates?|numbers)|"
    # the verifier alone ("Target only", "main model only", "target model alone")
    r"(?:target|main|verifier)(?:[- ]model)?[- ](?:only|alone)(?!\s+(?:on|in|at|runs?|ran)\b)|"
    # "MTP model with spec disabled", "drafting disabled", "with MTP turned off"
    r"(?:spec(?:ulation|ulative decoding)?|MTP|draft(?:ing)?)\s+(?:disabled|turned off|switched off)|"
    # a drafting method denied or off ("without EAGLE", "no n-gram", "w/o Medusa", "EAGLE off")
    # (a flag turning it off too: "--no-dspark", "--no-mtp")
    rf"(?:without|w/o|no|non-|no-)\s?(?:{METHOD_WORDS})|no-mtp\b|"
    rf"(?:{METHOD_WORDS})\s+(?:off|disabled|turned off))\b"
    # the baseline in Chinese, Japanese, Korean (no word boundary between CJK characters)
    r"|基线|基準|ベースライン|베이스라인|单模型|單模型)"
    # MTP's own speculative decoding ("MTP speculative decoding", "MTP-based speculation"): one phrase
    r"|\b(?P<self>MTP(?:[- ]based)?\s+speculat\w*(?:\s+decoding)?|MTP|self-speculative)\b"
    # speculative decoding in Chinese, Japanese, Korean and Russian ("启用推测解码后", "投機的デコーディング")
    r"|(?:推测|投机|推測|投機的?)\s*(?:解码|解碼|デコーディング|デコード)|추측\s*디코딩|спекулятивн\w*\s+декодир\w*"
    r"|\b(?P<spec>with (?:a |the )?draft(?: model)?|drafted (?:by|with)|speculative decoding|"
    # "15.6 tok/s with 2 draft tokens": a run drafting that many tokens a step
    r"with [1-9]\d? draft(?:ed)? tokens?(?!\s+(?:were\s+|was\s+)?(?:accepted|rejected))|"
    r"with speculat\w*|draft model|"
    rf"spec[- ]on|{METHOD_WORDS})\b",
    re.IGNORECASE,
)


#: MTP named inside a file or script name ("serve_mtp.sh", "Qwen3.6-27B-Q4_K_M_MTP.gguf"): a post whose
#: setup runs the model's own heads, where it names no kind of drafting in words
MTP_IN_NAME = re.compile(r"(?<=[\w.-][_-])mtp(?=[_.-]\w)", re.IGNORECASE)


@dataclass(frozen=True)
class Mention:
    """A condition named in prose: where (``start``, ``end``: hardware only), the condition ``path``
    and its ``value``."""

    start: int
    path: str
    value: object
    end: int = 0


#: a llama.cpp release tag ("b4980", "b4980-cu12.4") or ``--version``'s "9553 (9e3b928fd)"
_LLAMA_BUILD = re.compile(r"b\d{4,5}(?:-[a-z][\w.]*\d)?|\d{4,5}\s\([0-9a-f]{7,40}\)")


def builds_engine(build: object, engine: object) -> bool:
    """Whether a claim of ``engine`` may carry ``build``: a llama.cpp build (a release tag "b4980",
    ``--version``'s "9553 (9e3b928fd)") is a build of llama.cpp or its forks, never of another
    engine (Ollama, vLLM, MLX: their versions are "0.5.7", "v0.6.3"); any build with no engine
    stated, or no build, is kept."""
    if not isinstance(build, str) or not isinstance(engine, str) or not _LLAMA_BUILD.fullmatch(build):
        return True
    return re.search(r"llama[._-]?cpp|^llama", engine, re.IGNORECASE) is not None  # not "Ollama"


def _laptop_part(word: str) -> str:
    """The suffix of a card's laptop part: NVIDIA names it "… Laptop GPU" ("RTX 5070 Ti Laptop",
    "3060 Laptop" written short are the same), "Mobile" and "Max-Q" as written."""
    return " Laptop GPU" if word.lower().startswith("laptop") else " " + word


def hardware_name(m: re.Match) -> str:
    """The hardware a ``_HARDWARE`` match names, with its vendor (module doc)."""
    g = m.groupdict()
    words = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}
    words |= {"dual": 2, "twin": 2, "quad": 4, "pair": 2}
    chinese = {"两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8}
    n = (
        g.get("count")
        or g.get("ncount")
        or g.get("xcount")
        or (chinese.get(g["ccount"], g["ccount"]) if g.get("ccount") else None)
        or (words[g["wcount"].lower().split()[0]] if g.get("wcount") else None)
        or (2 if g.get("dcount") else None)
    )
    # several devices: "Nx " before the name; one ("1x4090", "1× H100"): no count (SOURCES.md)
    count = f"{n}x " if n and str(n) != "1" else ""
    if g["quadro"]:
        name = f"NVIDIA Quadro {g['quadro'].upper()}"
    elif g["rtx"]:
        suffix = {"ti": " Ti", "super": " Super"}.get((g["rtxs"] or "").lower(), "")
        number = g["rtxn"].upper()
        # the workstation cards (RTX PRO 6000, RTX A6000, RTX 6000 Ada: thousands) are no GeForce
        line = "NVIDIA" if re.match(r"PRO|A|\d000$", number) else "NVIDIA GeForce"
        name = f"{line} {g['rtx'].upper()} {number}{suffix}"
        if g["gen"]:
            # NVIDIA's name for the Ada workstation cards is "RTX 4000 Ada Generation", however short
            # a post writes it ("1x RTX4000 Ada")
            gen = re.sub(r"\s+", " ", g["gen"])
            name += " " + ("Ada Generation" if gen.lower() == "ada" else gen)
        if g["mobile"]:  # "GTX 1650 Ti Mobile", "RTX 4060 Laptop GPU": the laptop part is another chip
            # NVIDIA names a laptop part "… Laptop GPU" ("RTX 5070 Ti Laptop" written short is the same)
            name += _laptop_part(g["mobile"])
        if g["edition"]:
            name += " " + re.sub(r"\s+", " ", g["edition"])
    elif g["bare"]:
        suffix = {"ti": " Ti", "super": " Super"}.get((g["bares"] or "").lower(), "")
        # (a 10- or 16-series card is a GTX: "my 1080ti" is the GTX 1080 Ti, "a 1660 Super")
        line = "GTX" if g["bare"].startswith(("10", "16")) else "RTX"
        name = f"NVIDIA GeForce {line} {g['bare']}{suffix}"
        if g.get("bmobile"):
            name += _laptop_part(g["bmobile"])
    elif g.get("jetson"):
        module = [
            w if w.upper() in ("AGX", "IGX", "NX", "TX2") else w.capitalize() for w in g["jetson"].split()
        ]
        if module[-1] == "AGX":  # "Orin AGX": NVIDIA's order is "AGX Orin"
            module = ["AGX", *module[:-1]]
        lead = [] if module[0] in ("Jetson", "IGX") else ["Jetson"]  # "AGX Orin": a Jetson's module
        name = " ".join(["NVIDIA", *lead, *module]) + (
            f" {g['jmem'] or g['jmem2']}GB" if g.get("jmem") or g.get("jmem2") else ""
        )
    elif g["igpu"]:
        name = f"AMD Radeon {g['igpu'].upper()}"  # "Radeon 8060S": an APU's graphics
    elif g["ryzen"]:
        # the 395 is AMD's "Ryzen AI Max+ 395" however written ("AI Max 395"; the 390 and 385 have no "+")
        name = "AMD Ryzen " + re.sub(r"Max\s(?=395)", "Max+ ", re.sub(r"\s+", " ", g["ryzen"]))
    elif g["arc"]:
        name = f"Intel Arc {'Pro ' if g['arcpro'] else ''}{g['arc'].upper()}"
    elif g["aipro"]:
        name = f"AMD Radeon AI PRO {g['aipro'].upper()}"
    elif g["wpro"]:
        name = f"AMD Radeon Pro {g['wpro'].upper()}"
    elif g["rxn"]:
        name = f"AMD Radeon RX {g['rxn']}" + (f" {g['rxs'].upper()}" if g["rxs"] else "")
    elif g["rxbare"]:
        name = f"AMD Radeon RX {g['rxbare']} {g['rxbares'].upper()}"
    elif (
        g.get("mm") or g.get("cm") or g.get("pm")
    ):  # "Mac mini M4", "M2 Mac Mini": the chip, the machine beside it
        cm, cms, mac = (
            (g["mm"], g["mms"], g["mac"])
            if g.get("mm")
            else (g["pm"], g["pms"], g["pmac"])
            if g.get("pm")
            else (g["cm"], g["cms"], g["cmac"])
        )
        chip = f"Apple {cm.upper()}" + (f" {cms.capitalize()}" if cms else "")
        mac = re.sub(r"\s+", " ", mac)
        mac = "MacBook Air" if mac == "Air" else mac
        # Apple's spelling however the post cases it ("Mac Mini", "macbook pro": "Mac mini", "MacBook Pro")
        mac = _MAC_SPELLING.get(re.sub(r"\s", "", mac.lower()), mac)
        name = chip if mac.lower() == "mac" else f"{chip} ({mac})"
    elif g["m"]:
        name = f"Apple {g['m'].upper()} {g['ms'].capitalize()}"
    elif g["m2"] or g["mchip"]:
        name = f"Apple {(g['m2'] or g['mchip']).upper()}"
    elif g["pixel"]:
        model = re.sub(r"\s*pro$", " Pro", g["pixel"], flags=re.IGNORECASE)
        name = f"Google Pixel {model}"
    elif g["ws"]:
        name = f"NVIDIA RTX {g['ws'].upper()}"
    elif g["dc"]:
        # "P40s", "3xP40s": the plural of the card, not a part (an "L40S" is one, its S upper case)
        dc = (g["dc"][:-1] if g["dc"].endswith("s") and g["dc"][0] not in "Ll" else g["dc"]).upper()
        name = f"NVIDIA Tesla {dc}" if dc[0] in "PKMV" else f"NVIDIA {dc}"
        # the memory where the part comes in several sizes (A100 40/80GB, H100 80/94GB); a P40's 24GB
        # is its only size: a spec
        mem = (
            (g["dcmem"] or g["dcmem2"]) if re.fullmatch(r"[AH]\d00|V100", dc) else None
        )  # (V100: 16 or 32GB)
        form = g["dcform"] or g["dcform2"]
        form = "PCIe" if form and form.lower() == "pcie" else form.upper() if form else None
        name += (f" {mem}GB" if mem else "") + (f" {form}" if form else "")
    elif g["mi"]:
        name = f"AMD Instinct {g['mi'].upper()}"
    elif g["pi"]:
        name = f"Raspberry Pi {g['pi']}"
    elif g["sbc"]:
        name = re.sub(r"\bOryon\b", "Orion", re.sub(r"\s+", " ", g["sbc"]))  # Radxa's name: "Orion O6"
    elif g.get("asc"):
        name = f"Ascend {g['asc'].upper()}"
    elif g.get("atlas"):
        name = f"Huawei Atlas {g['atlas']}"
    elif g.get("sd"):  # "Snapdragon 8 Gen3" -> "Qualcomm Snapdragon 8 Gen 3"
        sd = re.sub(r"(?i)\s?gen\s?(\d)", r" Gen \1", re.sub(r"\s+", " ", g["sd"]))
        name = f"Qualcomm Snapdragon {sd}"
    elif g.get("rk"):
        name = f"Rockchip {g['rk'].upper()}"
    elif g.get("dim"):
        name = f"MediaTek Dimensity {g['dim']}"
    elif g.get("galaxy"):
        name = "Samsung Galaxy " + re.sub(r"(?<=\d)(Ultra|FE)", r" \1", g["galaxy"])
    elif g.get("ios"):
        name = "Apple " + re.sub(r"\s+", " ", g["ios"])
    elif g.get("tt"):  # "QuietBox" -> "Tenstorrent QuietBox", "wormhole n300" -> "Tenstorrent Wormhole n300"
        word = re.sub(r"(?i)^TT-", "", g["tt"])
        name = "Tenstorrent " + re.sub(
            r"(?i)^(quietbox|loudbox|wormhole|blackhole|galaxy)",
            lambda m: {
                "quietbox": "QuietBox",
                "loudbox": "LoudBox",
                "wormhole": "Wormhole",
                "blackhole": "Blackhole",
                "galaxy": "Galaxy",
            }[m.group(1).lower()],
            word,
        )
    elif g.get("cmp"):  # "CMP 30HX" -> "NVIDIA CMP 30HX", "p104-100" -> "NVIDIA P104-100"
        word = g["cmp"].upper()
        name = "NVIDIA " + (re.sub(r"^CMP\s?", "CMP ", word))
    elif g.get("aws"):  # "Trainium" -> "AWS Trainium"
        name = f"AWS {g['aws'][0].upper()}{g['aws'][1:].lower()}"
    elif g.get("mbook"):  # "macbook pro 14" -> "Apple MacBook Pro 14"
        size = g["mbook"].split()[-1]
        name = f"Apple MacBook {g['mbook'].split()[1].title()} {size}"
    elif g.get("droid"):  # "xiaomi 14" -> "Xiaomi 14", "pixel 8a" -> "Google Pixel 8a"
        said = re.sub(r"\s+", " ", g["droid"]).split(" ")
        makers = {"xiaomi": "Xiaomi", "pixel": "Google Pixel", "google": "Google", "oneplus": "OnePlus"}
        rest = (w if w[0].isdigit() else w.upper() if w.lower() == "xl" else w.title() for w in said[1:])
        name = " ".join([makers[said[0].lower()], *rest])
    else:
        name = {"dgx spark": "NVIDIA DGX Spark", "strix halo": "AMD Strix Halo"}[g["spark"].lower()]
    return count + name


#: what follows an engine's name when the words are about a tool of its project ("vLLM's
#: `benchmark_serving.py`", "SGLang's bench_serving script", "llama.cpp's benchmark tool")
_TOOL_OF = re.compile(
    r"['’]s\s+(?:own\s+)?`?[\w./-]*(?:bench\w*|\.py\b|script|tool|client|dataset)", re.IGNORECASE
)
#: an engine's kernels after its name: a part another engine named beside it runs ("ExLlamaV2
#: kernels were introduced into AutoAWQ"), not the engine run
_KERNELS_OF = re.compile(r"(?:['’]s)?\s+kernels?\b", re.IGNORECASE)


#: a count of devices written right after a device's name: "* 8", "x2", "×4" (not "x 1.5", "* 8B")
#: (or in Chinese and Japanese, the cards' measure word after the count in parentheses: "NVIDIA H200
#: GPU(8卡节点)", "A100（4卡）")
_COUNT_AFTER = re.compile(r"\s*[*×xX]\s?([1-8])(?![\w.])|(?:\s*GPU)?\s*[(（]\s*([1-8])\s*(?:卡|张|張|枚)")


#: a drafter named right after a quant ("Q8_0 DFlash2", "Q4_0 draft", "BF16 EAGLE-3 head")
#: a cache's words right after a GGUF type ("Q4_0 KV", "q8_0 K/V cache", "Q8_0 K and V"): the type is
#: the KV cache's (``draftwords``' cache types), no quantisation of the weights
_CACHE_AFTER_QUANT = re.compile(
    # (not a word it begins: "the Q4_K_M KV-cache-heavy build" is the weights')
    r"\s*(?:K/V|KV|K\s?(?:and|&|\+)\s?V)(?![\w-])|\s*(?:kv[ _-]?)?cache\b(?!-)",
    re.IGNORECASE,
)
_DRAFT_AFTER_QUANT = re.compile(r"\s*(?:DFlash\w*|EAGLE[\w-]*|drafter|draft(?:\s+model)?)\b", re.IGNORECASE)


#: a model's name written with "_" between its parts, a size among them ("qwen2.5_7b_instruct",
#: "llama_3_8b"): no GGUF type in it (``Q4_K_M`` keeps its "_")
_UNDERSCORED_NAME = re.compile(
    r"(?<![\w.-])(?![\w.]*(?:^|_)(?:T?I?Q\d|[Ff]16|[Bb][Ff]16|[Ff]32)(?:_|$))"
    r"[A-Za-z][A-Za-z0-9.]*(?:_[A-Za-z0-9.]+)*_\d+(?:\.\d+)?[bBmM](?:_[A-Za-z0-9.]+)*(?![\w.-])"
)
#: words before or after a link that give the repository another part than the model run
_LINK_ROLE_BEFORE = re.compile(r"(?i)\b(?:tokenizer|draft(?:er)?|assistant|speculator)\b[^.;]{0,20}$")
_LINK_ROLE_AFTER = re.compile(
    r"(?i)\S*\s+(?:as|for)\s+(?:the\s+|a\s+|my\s+)?(?:draft|drafter|assistant|tokenizer)"
)
#: a link to a model's repository on Hugging Face ("https://huggingface.co/internlm/internlm-chat-7b/"); its
#: files' links ("…/blob/main/x.gguf") name the file (``_MODEL``), read first
_HF_REPO_LINK = re.compile(
    r"https?://(?:www\.)?(?:huggingface\.co|hf\.co)/(?P<org>[\w.-]+)/(?P<repo>[\w-]+(?:\.[\w-]+)*)(?=[/\s)\]>,;]|\.(?:\s|$)|$)"
)


#: a llama.cpp type by its bits alone ("q8", "Q4"), in parentheses or not, right after a model's name
_BARE_QUANT_AFTER = re.compile(r"\s*\(?\s*(?P<q>[qQ][2-8])\s*\)?(?![\w.+-])")
_BARE_QUANT = re.compile(r"(?<![\w.-])[qQ][2-8](?![\w.+-])")
#: a weights' type as a list's item right after a model's name ("…-70B-Instruct model, f16, …")
_LISTED_QUANT_AFTER = re.compile(
    r"(?:\s+models?)?\s*,\s*(?P<q>(?i:f16|bf16|fp16|f32|fp32|fp8)|(?:UD-)?I?Q\d(?:_[A-Z0-9]+)+)(?=\s*[,)])"
)


#: a sentence of advice or supposition: a machine it names is no machine measured ("something like
#: a 3060Ti would be amazing", "a 4090 would have been nicer", "You can do this on a 3060Ti"; not "I
#: would get 30 tok/s on my 4090", "You can see 45 tok/s on my 3090": ``supposed_spans``)
_SUPPOSED = re.compile(
    r"\bsomething\s+like\b|\bwould\s+(?:be|have\s+been)\b|\byou\s+(?:can|could)\s+(?:do|run|use|try)\s+"
    r"(?:this|that|it)\b"
    # a machine set against the post's in a counterfactual ("Even 8xH100 would give you only 640 GB",
    # "Даже 8xH100 дадут вам только 640 ГБ": even that one would or will)
    r"|\beven\b[^.!?;\n]{0,40}?\b(?:would|will|could)\b|(?<!\w)даже(?!\w)[^.!?;\n]{0,40}?(?<!\w)(?:дадут|даст|дал\s+бы|будет|было\s+бы)(?!\w)",
    re.IGNORECASE,
)
#: a clause, to its stop, its semicolon or its line's end ("I ran it on a 3090 at 25 tok/s; a 4090
#: would have been nicer": the advice is the second's)
_SENTENCE_SPAN = re.compile(r"[^.!?;。！？；\n]+[.!?;。！？；]*")


def in_spans(spans: list[tuple[int, int]], at: int) -> bool:
    """Whether ``at`` lies in one of ``spans`` (sorted, apart: ``supposed_spans``), by bisection (a
    post of many mentions and many such sentences was quadratic searched span by span)."""
    k = bisect.bisect_right(spans, (at, float("inf"))) - 1
    return k >= 0 and spans[k][0] <= at < spans[k][1]


def supposed_spans(text: str) -> list[tuple[int, int]]:
    """The spans of ``text``'s sentences (clauses after a semicolon) of advice or supposition ("Even
    something like a 3060Ti would be amazing!", "You can do this on a 3060Ti and 64GB of system ram
    is cheap.": ``_SUPPOSED``): a machine named in one is no machine the post measured (h562)."""
    if not _SUPPOSED.search(text):
        return []
    return [(m.start(), m.end()) for m in _SENTENCE_SPAN.finditer(text) if _SUPPOSED.search(m.group())]


#: Apple's machines as Apple spells them, by their letters lower case without spaces
_MAC_SPELLING = {
    "macmini": "Mac mini",
    "macstudio": "Mac Studio",
    "macbookpro": "MacBook Pro",
    "macbookair": "MacBook Air",
    "macbook": "MacBook",
    "imac": "iMac",
    "macpro": "Mac Pro",
}
#: the hyphens a web page's typography writes for "-" (U+2010 hyphen, U+2011 non-breaking hyphen)
_TYPOGRAPHIC_HYPHENS = str.maketrans({"\u2010": "-", "\u2011": "-"})


def mentions(text: str) -> list[Mention]:
    """The conditions ``text`` names (module doc), in order of where they are."""
    return list(_mentions(text))


@functools.lru_cache(maxsize=256)
def _mentions(text: str) -> tuple[Mention, ...]:
    """``mentions``, kept for the texts asked again (a paragraph is read by ``draft`` and by
    ``draftcontext``; a table's header once per column)."""
    out: list[Mention] = []
    # a web page's typographic hyphens inside a name ("gpt‑oss‑120b" with U+2011, "Qwen3‐8B" with
    # U+2010): read as "-", one character for one (offsets kept)
    text = text.translate(_TYPOGRAPHIC_HYPHENS)
    if "_" in text:
        # a model's name joined by "_" ("qwen2.5_7b_instruct", "llama_3_8b_instruct"): read as its dashed
        # spelling, the same length (offsets kept); a GGUF type's "_" (Q4_K_M) stays
        text = _UNDERSCORED_NAME.sub(lambda m: m.group(0).replace("_", "-"), text)
    for m in _HARDWARE.finditer(text):
        if text.startswith("+", m.end()) and re.match(r"\d", text[m.end() - 1]):
            continue  # "(RTX3000+)", "a 4090+": a series and the ones above it, no card measured
        name = hardware_name(m)
        # a count written after the name ("H800 PCIE * 8", "4090 x2"): several devices, as "8x" before it
        after = _COUNT_AFTER.match(text, m.end())
        told = (after.group(1) or after.group(2)) if after is not None else None
        if told is not None and not re.match(r"\d+x ", name) and told != "1":
            name = f"{told}x {name}"
        out.append(Mention(m.start(), "hardware", name, m.end()))
    kernels: list[Mention] = []
    for m in _ENGINE.finditer(text):
        if _TOOL_OF.match(text, m.end()):
            continue  # "vLLM's `benchmark_serving.py`": a client the project ships, not the engine run
        engine = Mention(m.start(), "engine", engine_spelled(m.group(1)))
        (kernels if _KERNELS_OF.match(text, m.end()) else out).append(engine)
    if kernels and not any(x.path == "engine" for x in out):
        out += kernels  # "the llama.cpp kernels": no other engine named, the engine they are of
    for m in _BUILD.finditer(text):
        build = next(g for g in m.groups() if g)
        if re.search(r"-(?:bin-)?(?:win-)?cu(?:da)?[-\d]", build, re.IGNORECASE):
            out.append(Mention(m.start(), "backend", "CUDA"))  # "b4980-cu12.4": a CUDA 12.4 build
        out.append(Mention(m.start(), "build", build if not m.group(1) else build.lower()))
    spans = []
    for m in _MODEL.finditer(text):
        spans.append((m.start(), m.end()))
        model, quant = model_and_quant(m.group("name"))
        model = model.rstrip(".")  # "I tested Qwen2.5-14B-Instruct. It was fast": the sentence's stop
        if model and m.group("variant"):
            model += m.group("variant")  # "Qwen3.6-35B-A3B Opus-Distill": the weights' variant
        if (
            _DRAFT_NAME.search(m.group("name"))
            or _DRAFT_MARK.match(text, m.end())
            or _DRAFT_BEFORE.search(text, max(0, m.start() - 30), m.start())
        ):
            # an EAGLE head, "Llama 3.2 1B Q4 MLX (draft)", "drafted by Qwen3-0.6B": the draft and
            # its quant, not the model measured
            continue
        if model:
            out.append(Mention(m.start(), "model", model))
        if m.group("quant") or quant:
            out.append(Mention(m.start(), "quant", m.group("quant") or quant))
    for m in _HF_REPO_LINK.finditer(
        text
    ):  # "huggingface.co/internlm/internlm-chat-7b/": the repository's model
        if m.group("org").lower() in ("datasets", "spaces", "docs", "blog", "papers"):
            continue
        if (
            _DRAFT_NAME.search(m.group("repo"))
            or _DRAFT_BEFORE.search(text, max(0, m.start() - 30), m.start())
            or _LINK_ROLE_BEFORE.search(text, max(0, m.start() - 30), m.start())
            or _LINK_ROLE_AFTER.match(text, m.end())
        ):
            # "the tokenizer from https://…", "https://… as the draft model": another part's
            continue  # an EAGLE head's repository, "draft model: https://…": the draft's, not the model run
        if not any(a < m.end() and m.start() < b for a, b in spans):
            spans.append((m.start(), m.end()))
            model, quant = model_and_quant(m.group("repo"))
            out.append(Mention(m.start(), "model", model))
            if quant:
                out.append(Mention(m.start(), "quant", quant))
    for m in _OLLAMA.finditer(text):  # "qwen3.5:35b-a3b-q8_0": an Ollama tag
        spans.append((m.start(), m.end()))
        model, quant = _ollama(m)
        out.append(Mention(m.start(), "model", model))
        if quant:
            out.append(Mention(m.start(), "quant", quant))
    for m in _OLLAMA_LATEST.finditer(text):  # "granite4:latest": an Ollama tag with no size, its name
        if not any(a <= m.start() < b for a, b in spans):
            spans.append((m.start(), m.end()))
            out.append(Mention(m.start(), "model", m.group("name")))
    for m in _FAMILY_MODEL.finditer(text):  # "the Minicpm3 model": a family and version, no size
        if not any(a <= m.start() < b for a, b in spans):
            spans.append((m.start(), m.end()))
            out.append(Mention(m.start(), "model", m.group("name")))
    for m in _SIZE_FAMILY.finditer(text):  # "a 7B LLaMA model": the family, then its size
        if not any(a <= m.start() < b or a < m.end() <= b for a, b in spans):
            spans.append((m.start(), m.end()))
            out.append(Mention(m.start(), "model", f"{m.group('family')} {m.group('size')}"))
    for m in _REPOSITORY_NAME.finditer(text):  # "DeepSeek-V4-Flash-oQ8": a repository's name, no size
        if any(a <= m.start() < b or a < m.end() <= b for a, b in spans):
            continue
        name, quant = model_and_quant(m.group("name"))
        if quant and name != m.group("name") and _VERSIONED_MODEL.fullmatch(name):
            spans.append((m.start(), m.end()))
            out += [Mention(m.start(), "model", name), Mention(m.start(), "quant", quant)]
    for m in _VERSIONED_MODEL.finditer(text):  # "DeepSeek V3", "Gemma 4 E4B": no size _MODEL reads
        if not any(a <= m.start() < b or a < m.end() <= b for a, b in spans):
            if _DRAFT_NAME.search(m.group("name")) or _DRAFT_MARK.match(text, m.end()):
                continue
            spans.append((m.start(), m.end()))
            name = m.group("name")
            if m.group("psize"):  # "Qwen2.5 (7B)": "Qwen2.5 7B"
                name = f"{name[: m.start('psize') - m.start('name') - 2]} {m.group('psize').upper()}"
            out.append(Mention(m.start(), "model", name))
    for m in _UNKNOWN_MODEL.finditer(text):  # "Bonsai 2 27B": a family no list knows
        if not any(a <= m.start() < b or a < m.end() <= b for a, b in spans):
            if _DRAFT_NAME.search(m.group("name")) or _DRAFT_MARK.match(text, m.end()):
                continue
            spans.append((m.start(), m.end()))
            out.append(Mention(m.start(), "model", m.group("name")))
    machines = [(x.start, x.end or x.start + 1) for x in out if x.path == "hardware"]
    # "gemma 3 12b (q8)", "Llama 3 8B q4": a type by its bits alone right after a model's name (a
    # bare "Q4" elsewhere is as often a quarter of a year)
    quants = {x.start for x in out if x.path == "quant"}
    # (one such type in the text only: "Mistral 7B q4 vs q8" names two, neither the model's own)
    one_bare = len(_BARE_QUANT.findall(text)) == 1
    for _, b in spans if one_bare else ():
        bare = _BARE_QUANT_AFTER.match(text, b)
        if bare is not None and bare.start("q") not in quants:
            out.append(Mention(bare.start("q"), "quant", bare.group("q")))
    # "Ling-3.0-tiny Q6_K": a name no list knows, its GGUF type after it
    for m in _QUANTED_NAME.finditer(text):
        if _BACKEND_LED.match(m.group("name")) or any(a <= m.start() < b for a, b in machines):
            continue  # "ROCm-6.4 Q4_K_M", "RTX-3090 Q4_K_M": a backend's or a machine's name, no model
        if not any(a <= m.start() < b or a < m.end("name") <= b for a, b in spans):
            if _DRAFT_NAME.search(m.group("name")) or _DRAFT_MARK.match(text, m.end()):
                continue
            spans.append((m.start(), m.end("name")))
            out.append(Mention(m.start(), "model", m.group("name")))
    for m in _MODEL_ABBREVIATION.finditer(text):  # "DSV3": DeepSeek-V3 as its users write it short
        if not any(a <= m.start() < b for a, b in spans):
            spans.append((m.start(), m.end()))
            out.append(Mention(m.start(), "model", f"DeepSeek-{m.group('series').upper()}{m.group('v')}"))
    for m in _SIZED_QUANT.finditer(text):  # "a 13B GPTQ (128g)": a model by its size and its quant
        if not any(a <= m.start() < b for a, b in spans):
            spans.append((m.start(), m.end()))
            out.append(Mention(m.start(), "model", m.group("size")))
            out.append(Mention(m.start("q"), "quant", m.group("q")))
    # "- 7B: 191 tok/s", "Pure 27B comparison: …": a model by its size (``draftcontext``'s fuller name)
    label = _SIZE_LABEL.match(text)
    if label and not any(a <= label.start("size") < b for a, b in spans):
        out.append(Mention(label.start("size"), "model", label.group("size")))
    for m in _QUANT_WORD.finditer(text):
        if not any(a <= m.start() < b for a, b in spans):  # not the quant of a model name above
            if _DRAFT_AFTER_QUANT.match(text, m.end()):
                continue  # "IQ4_XS + Q8_0 DFlash2": the drafter's weights, not the model measured
            if _CACHE_AFTER_QUANT.match(text, m.end()):
                continue  # "Q4_0 KV", "q8_0 K/V cache": the cache's type, not the weights'

            # (its parts in llama.cpp's upper case: "Q4_k_m" is Q4_K_M)
            quant = re.sub(r"_[a-z]+", lambda p: p.group(0).upper(), m.group(0))
            out.append(Mention(m.start(), "quant", quant))
    for m in _BITS_QUANT.finditer(text):  # "At 4-bit quantization", "vLLM AWQ"
        if m.group("at") and not _MODEL_AT.search(text, max(0, m.start() - 60), m.start()):
            continue  # "dequantized at FP16", "accumulate at FP16", "peaks at FP8": no model's format
        if not any(a <= m.start() < b for a, b in spans):
            bits = m.group("z") or m.group("r")
            told = (
                bits
                and f"{bits}-bit"
                or next(g for g in m.group("b", "a", "t", "m", "p", "at", "g", "i") if g)
            )
            out.append(Mention(m.start(), "quant", told))
    for m in _BACKEND.finditer(text):
        out.append(Mention(m.start(), "backend", m.group(1) if m.group(1) != "ROCm" else "ROCm"))
    if "NPU" in text or "GPU" in text:
        for m in CPU.finditer(text):
            unit = _CHIP_UNIT_AFTER.match(text, m.end())
            sentence = sentence_of(text, m.start(), unit.end()) if unit is not None else ""
            # (not one said unused, nor one listed beside a card: "an RTX 4060 Laptop GPU and an
            # Intel Core Ultra 7 155H's NPU" names the machine's parts, not the run's)
            if unit is not None and not UNUSED_UNIT.search(sentence) and not DISCRETE_GPU.search(sentence):
                # "Intel Ultra 9 185H's NPU", "Core Ultra 7 155H iGPU": the chip whose own unit ran it,
                # the machine (a CPU named alone is none: beside a GPU it measures nothing)
                out.append(Mention(m.start(), "hardware", cpu_name(m)))
    for m in _BLAS_BACKEND.finditer(text):
        out.append(Mention(m.start(), "backend", _BLAS_BACKENDS[m.group(1).lower()]))
    if _CPU_BACKEND.fullmatch(text.strip()):  # "CPU Mode" beside "Vulkan (GPU) Mode": the CPU backend
        out.append(Mention(0, "backend", "CPU"))
    for m in _FA.finditer(text):
        word = (m.group("p") or m.group("w")).lower()
        on = word == "with" if m.group("p") else word in ("on", "1", "enabled")
        out.append(Mention(m.start(), "flash_attn", on))
    for m in DECODING_PHRASE.finditer(text):
        word = "plain" if m.group("plain") else "draft-self" if m.group("self") else "speculative"
        if word == "plain" and _OTHER_SIDE.search(text, max(0, m.start() - 24), m.start()):
            continue  # "1.66x over the baseline": the other side's, not this clause's number's
        out.append(Mention(m.start(), "decoding", word))
        if (k := DRAFT_COUNT.fullmatch(m.group(0))) is not None:
            out.append(Mention(m.start(), "block_max", int(k.group(1))))  # its draft size, this clause's
    drafted = [x.start for x in out if x.path == "decoding" and x.value != "plain"]
    for m in _WITHOUT_IT.finditer(text):
        if drafted and min(drafted) < m.start():
            # "With the 0.5B draft model I get 19.5 tok/s, versus 11.7 tok/s without it": the drafting
            # named before is what the other side runs without
            out.append(Mention(m.start(), "decoding", "plain"))
    # a name denied ("no ROCm", "not the 4090", "without Ollama") states no condition; a model or
    # quant compared with ("similar accuracy to Unsloth's Q4_K_XL", "faster than Llama-3-8B") is the
    # other side's
    # the venue a thread's title ends with ("(text-generation-inference issue)") names where the thread
    # lives; its engine is the run's only where the text names no other engine
    venue = _VENUE.search(text)
    if venue is not None:
        own = {m.value for m in out if m.path == "engine" and m.start < venue.start()}
        if own:
            out = [
                m for m in out if not (m.path == "engine" and m.start >= venue.start() and m.value not in own)
            ]
    # (a compared name is the other side's only where the text names one of its own: "N-gram
    # speculative decoding performs slower than Qwen3-32B-FP8" compares the run with the same model's)
    compared = {id(m) for m in out if m.path in ("model", "quant") and _compared(text, m)}
    own_paths = {m.path for m in out if m.path in ("model", "quant") and id(m) not in compared}
    out = [
        m
        for m in out
        if m.path in ("decoding", "flash_attn")
        or not _DENIED.search(text, max(0, m.start - 24), m.start)
        and not (id(m) in compared and (m.path in own_paths or "model" in own_paths))
        and not (m.path == "hardware" and _likened(text, m))
    ]
    typed = {x.start for x in out if x.path == "quant"}
    for a, b in spans:
        # "Llama-3.1-70B-Instruct model, f16, tg …": the weights' type as the list's next item (a
        # model with a type of its own, "Llama 3 8B Q8_0, f16", keeps that)
        listed = _LISTED_QUANT_AFTER.match(text, b)
        if listed is not None and not any(a <= q <= listed.start("q") for q in typed):
            out.append(Mention(listed.start("q"), "quant", listed.group("q")))
    if sum(x.path == "model" for x in out) > 1:
        # "`Qwen3.8-27B-ABLITERATED-Q4_K_M.gguf` (…; `llama-bench` labels it `qwen35 27B Q4_K - Medium`)":
        # llama.cpp's own label of the architecture, size and type names no model beside the file's
        labels = {x.start for x in out if x.path == "model" and _ARCH_LABEL.match(text, x.start)}
        if labels and len(labels) < sum(x.path == "model" for x in out):
            out = [x for x in out if x.start not in labels or x.path not in ("model", "quant")]
    return tuple(sorted(out, key=lambda x: x.start))


#: llama.cpp's label of a model (llama-bench's "model" column, ``llama_model_desc``): the architecture
#: in lower case, the size, the type as ``llama_model_ftype_name`` writes it ("qwen35 27B Q4_K -
#: Medium", "llama 8B IQ4_XS - 4.25 bpw")
_ARCH_LABEL = re.compile(
    r"[a-z][a-z0-9]*\s+\d+(?:\.\d+)?[BM]\s+I?Q\d\w*\s+-\s+(?:Small|Medium|Large|\d+(?:\.\d+)?\s*bpw)"
)


#: a DeepSeek model as its users abbreviate it: "DSV3", "DS-V3", "DSv2.5", "DSR1" -> DeepSeek-V3,
#: DeepSeek-V2.5, DeepSeek-R1 (the series letter, V or R, and its version as written)
_MODEL_ABBREVIATION = re.compile(
    r"(?<![\w.-])DS-?(?P<series>[VvRr])(?P<v>\d+(?:\.\d+)?)(?![\w.-]*\w)", re.ASCII
)


#: words right before a plain-decoding word that make it the other side of a comparison ("1.66x
#: over the baseline", "faster than vanilla")
_OTHER_SIDE = re.compile(
    r"\b(?:over|than|vs\.?|versus|against|to|from|of|relative to|compared (?:to|with))\s+(?:the\s+|a\s+)?$",
    re.IGNORECASE,
)


#: words right before a model or quant name that make it the other side of a comparison ("than",
#: "vs", "compared to", "similar … to", with an owner's name between: "to Unsloth's Q4_K_XL")
_COMPARED = re.compile(
    r"\b(?:than|vs\.?|versus|compared (?:to|with)|relative to|"
    r"(?:similar|close|comparable|equal|identical)(?:\s\w+)?\sto)\s+"
    r"(?:the\s+|a\s+|an\s+)?(?:[\w-]+'s\s+)?$",
    re.IGNORECASE,
)


def _compared(text: str, m: Mention) -> bool:
    """Whether the model or quant ``m`` is the other side of a comparison (``_COMPARED``); a name
    after "vs" is not ("Llama-3-8B vs Mistral-7B", "Q4_K_M vs Q8_0" name both sides alike, as a
    title does)."""
    found = _COMPARED.search(text, max(0, m.start - 40), m.start)
    return found is not None and not re.match(r"(?i)vs|versus", found.group(0))


def _likened(text: str, m: Mention) -> bool:
    """Whether the machine ``m`` is only likened to ("comparable to MI300X efficiency numbers",
    "similar to a 4090"): another machine's figure, not the one the post ran (``_COMPARED``'s
    likeness words; "faster than a 4090" may name the other side's number, and keeps it)."""
    found = _COMPARED.search(text, max(0, m.start - 40), m.start)
    likeness = r"(?i)similar|close|comparable|equal|identical"
    return found is not None and re.match(likeness, found.group(0)) is not None


#: words right before a name that deny it
_DENIED = re.compile(r"\b(?:no|not|without|non)[\s*_-]+(?:the\s+|a\s+|an\s+)?$", re.IGNORECASE)


#: where a clause ends: ", and", ", but", ";", " while ", " whereas ", " compared to ", a sentence end
_CLAUSE = re.compile(
    r",\s+(?:and|but|while|whereas|then|vs\.?|versus|compared)\b|;|\s(?:while|whereas|but)\s|"
    r"\scompared\s(?:to|with)\s|"
    r"(?<=[.!?。！？])\s+|\s[—–]\s|\bvs\.?\s|\bversus\b"
)


def clause_bounds(text: str) -> list[int]:
    """Offsets where the clauses of ``text`` start (``_CLAUSE``), with 0 and ``len(text) + 1``."""
    return [0] + [m.end() for m in _CLAUSE.finditer(text)] + [len(text) + 1]


#: the start side of a change written as a path: "from 40 tok/s", "(from 40 tok/s)", "63.3 → 96.1 tok/s"
#: (the number, a unit of its own or none, then the arrow and the next number)
_FROM_BEFORE = re.compile(r"(?:^|\W)from\s+~?$|(?:^|\W)(?:从|從)\s*$", re.IGNORECASE)
_FROM_AFTER = re.compile(r"[\d.,]+\s?(?:[^\W\d]+(?:/[^\W\d]+)?\s?)?(?:→|->|⟶|=>)\s*~?\d")


def from_side(text: str, start: int) -> bool:
    """Whether the number at ``start`` in ``text`` is the start of a change written as a path ("from
    40 tok/s", "63.3 → 96.1 tok/s", ``_FROM_BEFORE``/``_FROM_AFTER``): the run the change is measured
    from, whose setting is not the one the clause names for where it went ("QAT+MTP hits 70-80
    tok/s (from 40 tok/s)": the 40 is the plain run's)."""
    return bool(_FROM_BEFORE.search(text[max(0, start - 8) : start]) or _FROM_AFTER.match(text, start))


#: a size that describes a machine, not a measurement: right after a hardware name ("RTX 5090 32GB",
#: "3090 Ti (24 GiB VRAM)"), "N GB unified memory", or before a machine's noun ("a 12 GB gaming PC",
#: "a 16GB card"; not "12 GB GPU memory")
_SPEC_AFTER = re.compile(
    r"\s*(?:of\s+)?unified memory|"
    r"\s+(?:[\w-]+\s+)?(?:PC|laptop|desktop|card|GPU|machine|box|Mac(?:Book)?|rig)\b"
    r"(?!\s+(?:memory|RAM|VRAM|usage|use))",
    re.IGNORECASE,
)


def machine_size(text: str, start: int, end: int, named: list[Mention]) -> bool:
    """Whether the size stated at ``text[start:end]`` is a machine's memory, not a measurement
    (``_SPEC_AFTER``; ``named``: ``mentions(text)``)."""
    if _SPEC_AFTER.match(text, end):
        return True
    if any(m.path == "hardware" and m.start <= start < m.end for m in named):
        return True  # "A100 40GB": the size is part of the part's name
    # ("Mac Studio (64 core 128Gb)": the part's core count between its name and its memory)
    return not _IN_USE_AFTER.match(text, end) and any(
        m.path == "hardware" and m.end <= start and _PART_GAP.fullmatch(text[m.end : start]) is not None
        for m in named
    )


def machine_bandwidth(text: str, start: int, named: list[Mention]) -> bool:
    """Whether the bandwidth stated at ``text[start:]`` is a machine's specification, not a
    measurement: it follows the part's name, what stands between only "with"/"has" and the word
    bandwidth (``_BANDWIDTH_GAP``: "RTX 4090 с 1008 ГБ/с", "the RTX 3090 has 936 GB/s", "M2 Max
    (400 GB/s)"; not a label's colon, "RTX 3090: 870 GB/s", nor where the words say it was measured,
    ``MEASURED_BANDWIDTH``, which the caller checks); ``named``: ``mentions(text)``."""
    return any(
        m.path == "hardware" and m.end <= start and _BANDWIDTH_GAP.fullmatch(text[m.end : start]) is not None
        for m in named
    )


#: what stands between a part's name and its bandwidth as a specification (``machine_bandwidth``)
_BANDWIDTH_GAP = re.compile(
    r"[\s,(]*(?:(?:with|w/|has|having|offers|с|со|mit|拥有|有)\s*)?(?:an?\s+|its\s+)?"
    r"(?:(?:memory\s+)?bandwidth\s+(?:of\s+)?|пропускной\s+способностью\s+)?",
    re.IGNORECASE,
)
#: words saying a bandwidth was measured, not the part's specification ("Measured memory bandwidth
#: with a copy kernel", "820 GB/s effective")
MEASURED_BANDWIDTH = re.compile(
    r"(?i)measur|effective|achiev|observ|\bcopy\b|\bbench|\btest|sustain|замер|реальн|実測|实测|测得"
)


#: words after a size saying it was measured, not the part's ("with 23.1 GB of VRAM in use")
_IN_USE_AFTER = re.compile(
    r"\s*(?:of\s+)?(?:v?ram\s+|memory\s+)?(?:in\s+use|used|allocated|occupied|free|peak|left)\b",
    re.IGNORECASE,
)


_PART_GAP = re.compile(
    # ("RTX 3090 with 24 GB VRAM", "a 4090 w/ 24GB": the card's memory named after "with")
    r"[\s,(]*(?:(?:with|w/)\s*)?(?:\d{1,3}[- ]?(?:core|cores|c|cpu|gpu)\b[\s,/]*)?",
    re.IGNORECASE,
)


#: a remark in parentheses at the end of a table cell ("RTX 5060 Ti (Blackwell, 2025)", "CPU only
#: (no GPU)", "Qwen2.5-Coder 7B (Q4)"): the name is what stands before it
_REMARK = re.compile(r"\s*[(（][^()（）]*[)）]\s*$")


#: a desktop or server CPU by its model ("Ryzen 9 7950X", "Ryzen-7950X", "Core i7-7700", "Xeon Gold
#: 6338", "EPYC 9654"); ``draftnames`` leaves them out, a CPU beside a GPU being no machine measured
CPU = re.compile(
    # (a laptop part's suffix too: "ryzen 5 4600h", "Ryzen 7 7840HS", "Ryzen 9 7945HX", "5700U")
    r"(?<![\w-])(?:AMD\s+)?Ryzen[\s-](?:(?P<tier>[3579])\s)?(?P<ryzen>\d{4}(?:X3D|HX|HS|X|G|F|H|U)?)(?![\w-])"
    r"|(?<![\w-])(?:Intel\s+)?(?:Core\s+)?(?P<core>i[3579]-\d{4,5}[A-Z]{0,2})(?![\w-])"
    r"|(?<![\w-])(?:Intel\s+)?Xeon\s+(?P<xeon>(?:Gold|Silver|Platinum|Bronze|[EW]\d?-?)\s?\d{4}\w*)"
    r"|(?<![\w-])(?:AMD\s+)?EPYC\s+(?P<epyc>\d{4}\w*)"
    # a Core Ultra by its model ("Core Ultra 7 155H", "155H" alone: Meteor Lake's H and U parts)
    r"|(?<![\w-])(?:Intel\s+)?(?:Core\s+)?(?:Ultra\s+(?P<utier>[579])\s+(?P<ultra>\d{3}[A-Z]{1,2})"
    r"|(?:Ultra\s+)?(?P<mtl>1[2-8]5[HU]))(?![\w-])",
    re.IGNORECASE,
)


#: a discrete card's name in a sentence (``_CHIP_UNIT_AFTER``'s and the NPU backend's guard)
DISCRETE_GPU = re.compile(r"\b(?:RTX|GTX|GeForce|Radeon\s+RX|Quadro|Tesla|[ABHL]\d{2,3}\b|Arc\s+[AB]\d{3})")
#: words of a sentence saying a unit was not used ("the 155H iGPU is disabled", "does not use the NPU")
UNUSED_UNIT = re.compile(
    r"(?i)\b(?:not|no|never|without|idle|disabled|unused|useless|nothing|lacks?)\b|n't\b"
)


def sentence_of(text: str, start: int, end: int) -> str:
    """The sentence of ``text`` around ``start``..``end`` (bounded by ". ", "; ", "(", ")" or a line
    break: a remark in parentheses is a sentence of its own)."""
    stops = (". ", "! ", "? ", "; ", "\n", "(", ")")
    lo = max(text.rfind(c, 0, start) for c in stops)
    ends = [k for k in (text.find(c, end) for c in stops) if k >= 0]
    return text[lo + 1 : min(ends) if ends else len(text)]


#: a chip's own unit named after it: its NPU or integrated GPU ("'s NPU", " iGPU", "'s integrated GPU")
_CHIP_UNIT_AFTER = re.compile(r"(?:['’]s)?\s+(?:NPU|iGPU|integrated\s+GPU|Arc\s+iGPU)\b")


def cpu_name(m: re.Match) -> str:
    """A ``CPU`` match as the vendor's full name: "Ryzen-7950X" -> "AMD Ryzen 9 7950X" (the tier
    from the model's second digit when not written: 9 -> Ryzen 9, 8/7 -> 7, 6/5 -> 5, else 3),
    "Core i7-7700" -> "Intel Core i7-7700"."""
    if m.group("ryzen"):
        n = m.group("ryzen").upper()
        tier = m.group("tier") or {"9": "9", "8": "7", "7": "7", "6": "5", "5": "5"}.get(n[1], "3")
        return f"AMD Ryzen {tier} {n}"
    if m.group("core"):
        return f"Intel Core {m.group('core')}"
    if m.group("xeon"):
        return f"Intel Xeon {m.group('xeon')}"
    if m.group("ultra"):
        return f"Intel Core Ultra {m.group('utier')} {m.group('ultra').upper()}"
    if m.group("mtl"):  # Intel's tiers of Meteor Lake: 125H/135H Ultra 5, 155H/165H Ultra 7, 185H Ultra 9
        mtl = m.group("mtl").upper()
        return f"Intel Core Ultra { ({'2': 5, '3': 5, '5': 7, '6': 7, '8': 9}.get(mtl[1], 7)) } {mtl}"
    return f"AMD EPYC {m.group('epyc').upper()}"


def hardware_of(cell: str) -> str | None:
    """The hardware a table cell names as a whole ("RTX 4090", "M3 Max", "RTX 5060 Ti (Blackwell,
    2025)": a remark in parentheses after the name, ``_REMARK``, passed over; its memory "RTX 5090
    32GB" and inline code after it too, ``_CELL_TAIL``; a card by its number alone, "3090"), written
    with its vendor (``hardware_name``); None when the cell is not one hardware name ("RTX 3090 /
    RTX 4090")."""
    text = cell.strip().strip("*_")
    # what a hardware cell adds after the name: its memory ("RTX 5090 32GB", a spec), a flag of the
    # run in inline code ("3xP40 `-sm row`")
    bare = _CELL_TAIL.sub("", _REMARK.sub("", text)).strip()
    soft = _SOFTWARE_TAIL.sub("", _REMARK.sub("", text)).strip()  # (its memory kept: a Jetson's SKU)
    for t in dict.fromkeys((text, _REMARK.sub("", text).strip(), soft, bare)):
        m = _HARDWARE.fullmatch(t)
        if m:
            name = hardware_name(m)
            size = re.search(r"(\d{1,2})\s?Gi?B", text[m.end() :] if t == bare else "", re.IGNORECASE)
            if size and name.endswith(_SIZED_CARDS):  # "RTX 3060 12GB": the 12 GB card, not the 8 GB
                name += f" {size.group(1)}GB"
            return name
    # a card by its number alone in a hardware column ("3090", "2x 4090"): as "the 3090" reads
    m = _HARDWARE.search("the " + bare)
    if m and m.start() == 4 and m.end() == len(bare) + 4:
        return hardware_name(m)
    m = _INTEL_BARE.fullmatch(bare)
    if m:  # a label or cell that is all an Intel GPU's short name ("A770m", "Max1100")
        return (
            f"Intel Arc {m.group('arc').upper()}"
            if m.group("arc")
            else f"Intel Data Center GPU Max {m.group('pvc')}"
        )
    m = CPU.fullmatch(bare)  # a CPU column's "Intel i7-12700K", "AMD Ryzen 9 5950X"
    return cpu_name(m) if m else None


#: an Intel GPU by its short name alone, as a label or a cell ("A770: 14.5ms/token", "A770m", "B580",
#: "Max1100", "GPU Max 1550"): in prose the numbers name too many other things to be read as a machine
_INTEL_BARE = re.compile(
    r"(?P<arc>A[357][5-8]0[Mm]?|B5[78]0)|(?:Intel\s+)?(?:Data\sCenter\s)?(?:GPU\s)?Max\s?(?P<pvc>1100|1550)"
)


#: consumer cards sold with two memory sizes: the size in a cell names which one ("RTX 3060 12GB")
_SIZED_CARDS = ("RTX 3060", "RTX 3080", "RTX 4060 Ti", "RTX 5060 Ti", "RTX 2060")
#: what follows a card's name in a table cell that is not part of it: its memory size (after a
#: separator too: "GeForce RTX 3090 · 24 GiB"), inline code
#: the machine's system software and its version after its name ("Orin NX(16G)Jetpack 5.1", "RTX
#: 4090, CUDA 12.4", "Jetson AGX Orin 64GB, JetPack 6.1")
_SOFTWARE = r"\s*[·•,;|–—/-]?\s*(?:JetPack|L4T|CUDA|ROCm|driver|macOS|Ubuntu|Windows|Win)\s?v?\d+(?:\.\d+)*"
_SOFTWARE_TAIL = re.compile(rf"(?:{_SOFTWARE})+\s*$", re.IGNORECASE)
_CELL_TAIL = re.compile(
    rf"(?:\s*[·•,;|–—-]?\s*\(?\d{{1,3}}\s?Gi?B\)?|\s*`[^`]*`|{_SOFTWARE})+\s*$", re.IGNORECASE
)


def without_remark(cell: str) -> str:
    """A table cell without its closing remark in parentheses (``_REMARK``: "CPU only (no GPU)" ->
    "CPU only"); the cell as it is when the remark is all it holds."""
    bare = _REMARK.sub("", cell.strip())
    return bare if bare else cell


#: a model named by its family and size with a space before the size ("Qwen2.5-Coder 14B", "Llama 3.1
#: 70B Instruct" is not one: the words after the size stay with the caller)
_CELL_MODEL = re.compile(r"(?P<name>[A-Za-z][\w.]*(?:-[\w.]+)*)\s(?P<size>\d+(?:\.\d+)?[BbMm])")


def model_of(cell: str) -> str | None:
    """The model a table cell names as a whole, written as a model repository writes it: family and
    size joined by a hyphen ("Qwen2.5-Coder 14B" -> "Qwen2.5-Coder-14B", "Phi-4 14B (Q4)" ->
    "Phi-4-14B"), an Ollama tag as ``ollama_model`` reads it; None for any other cell (left as
    written: "Qwen3-8B", "Llama 3 8B")."""
    # (inline code and emphasis are the cell's markup, not its name: "Qwen2.5-1.5B `Q4_K_M`")
    cell = re.sub(r"`([^`]*)`|\*\*([^*]*)\*\*", lambda m: m.group(1) or m.group(2) or "", cell)
    text = _REMARK.sub("", cell.strip()) or cell.strip()
    tag = ollama_model(text)
    if tag is not None:
        return tag[0]
    m = _CELL_MODEL.fullmatch(text)
    if not m or re.fullmatch(r"[A-Za-z]+", m.group("name")) and not re.search(r"\d", m.group("name")):
        return None  # "Llama 8B" would lose its version: left as written
    return f"{m.group('name')}-{m.group('size').upper()}"


#: a quantisation written after a model's name in a cell, as llama-bench's ``model`` column writes
#: it ("llama 7B Q4_0", "qwen3moe 30B.A3B Q4_K - Medium", "llama 8B IQ2_XXS - 2.0625 bpw", "… F16"):
#: its type, then llama-bench's size word ("Q4_K - Medium" is Q4_K_M) or bits per weight
_CELL_QUANT = re.compile(
    # (a method's name too: "Qwen2.5-7B AWQ", "Llama-3-8B GPTQ", "… NVFP4")
    # (or as the flag that picks it, an engine's own: tensai's "7B -q4")
    rf"\s(?:--?)?(?P<q>(?:UD-|smol-)?{QUANT_TYPE}|BF16|F16|F32|FP16|FP8|MXFP[468]|NVFP4|AWQ|GPTQ|INT[48])"
    # (llama.cpp's name of the IQ3_M file type: "IQ3_S mix - 3.66 bpw", llama_model_ftype_name)
    r"(?P<mix>\smix)?"
    # llama-bench's file type of an MoE model ends with "MoE" ("gpt-oss 20B MXFP4 MoE")
    r"(?:\s-\s(?:(?P<size>Small|Medium|Large|Extra\s?Small)|\d+(?:\.\d+)?\s?bpw))?(?:\s+MoE)?\s*$",
    re.IGNORECASE,
)


#: a quantisation named in a table's label cell beside other words ("GGUF Q4_K_M, 2x3090", "GPTQ
#: 4-bit", "AutoRound INT4", "FP16 (no quantization)"): llama.cpp's types, a method with its bits,
#: a number format; in prose these words also name a KV cache's or a compute's type, so only cells
_CELL_QUANT_WORD = re.compile(
    rf"(?<![\w.-])(?:(?:UD-|smol-)?{QUANT_TYPE}(?:-\d+(?:\.\d+)?bpw)?"
    r"|(?:GPTQ|AWQ|AutoRound)(?:[\s-](?:INT\d|\d-?bit))?|NVFP4|MXFP[468]|BF16|FP16|F16|FP8|FP6|INT4|INT8)"
    r"(?![\w-])",
    re.IGNORECASE,
)


#: a weights' format joined to the quant after it by a dash ("MLX-4bit", "GGUF-Q4_K_M", "EXL2-4.0bpw")
_FORMAT_DASH = re.compile(r"(?i)^\s*(MLX|GGUF|EXL[23])-(?=\d|I?Q\d|[BF]F?\d|FP\d)")


def cell_names(cell: str) -> dict[str, object]:
    """The quantisation (``_CELL_QUANT_WORD``), hardware (``mentions``) and engine (``engines_in``)
    a table's label cell names beside other words, where the column's header is no known condition
    ("| Config |" over "GGUF Q4_K_M, 2x3090" -> ``{"quant": "Q4_K_M", "hardware": "2x NVIDIA GeForce
    RTX 3090"}``; "vLLM NVFP4" -> ``{"quant": "NVFP4", "engine": "vLLM"}``); each only where the cell
    names one; empty when it names none."""
    out: dict[str, object] = {}
    # a format and its quant joined by a dash ("| 포맷 |" over "MLX-4bit", "GGUF-Q4_K_M"): both words
    cell = _FORMAT_DASH.sub(r"\1 ", cell)
    # one type named once: "f16+f16", "q8_0 / q4_0" are a KV cache's pair or a list
    quants = [m.group(0) for m in _CELL_QUANT_WORD.finditer(cell)]
    if len(quants) == 1 and not re.search(r"(?i)draft|\beagle|\bmtp\b", cell):  # a draft's quant
        out["quant"] = quants.pop()
    hardware = {str(m.value) for m in mentions(cell) if m.path == "hardware"}
    if len(hardware) == 1:
        out["hardware"] = hardware.pop()
    engines = engines_in(cell)
    if len(engines) == 1:  # "| Metric | Ollama Q6_K | vLLM NVFP4 |": the engine of the row or column
        out["engine"] = engines.pop()
    # a configuration by the model's size and its quant ("27B IQ3", "35B-A3B Q8_0"): the model of that
    # size, the post's fuller name for it (``draftcontext``)
    sized = re.match(r"\s*\**(\d+(?:\.\d+)?B(?:-A\d+(?:\.\d+)?B)?)\s", cell)
    if sized and "quant" in out:
        out["model"] = sized.group(1)
    # a cell that is a model's name and nothing else ("| metric | granite-4.2-3b | gemma-4-E2B-it |",
    # a configuration column): that model
    bare = cell.strip().strip("*_`").strip()
    named = [m for m in mentions(bare) if m.path == "model"]
    if (
        "model" not in out
        and len(named) == 1
        and named[0].start == 0
        and len(str(named[0].value)) >= len(bare) - 1
    ):
        out["model"] = named[0].value
    parts = [p.strip().strip("*_`").strip() for p in _PARTS.split(bare)]
    if len(parts) >= 2:
        # a configuration listed in parts ("1GPU, Llama 7B, v0.4.2", "RTX 4090, vLLM 0.6.3, Qwen2.5-7B
        # AWQ"): the part that is a model's name (with its quant), an engine's version, a bare version
        models = []
        for part in parts:
            said = [m for m in mentions(part) if m.path in ("model", "quant")]
            if said and said[0].path == "model" and said[0].start == 0:
                models.append((said[0].value, next((m.value for m in said if m.path == "quant"), None)))
        if len(models) == 1 and "model" not in out:
            out["model"] = models[0][0]
            if models[0][1] is not None:
                out.setdefault("quant", models[0][1])
        builds = [v[1] for p in parts if (v := engine_version_cell(p)) is not None]
        builds += [p for p in parts if _BARE_VERSION.fullmatch(p)]
        if len(builds) == 1:
            out["build"] = builds[0]
    return out


#: the parts of a label cell listing a configuration: ", ", " + ", " · ", " / ", " | ", "; "
_PARTS = re.compile(r",\s+|\s+[+·|/]\s+|;\s+")
#: a version alone ("v0.4.2", "0.6.3", "b4980" is a llama.cpp build read by ``mentions``)
_BARE_VERSION = re.compile(r"v?\d+\.\d+(?:\.\d+)*(?:[.-]?(?:post|rc|dev)\d*)?")


#: a table's size cell naming a model's parameters ("7B", "13B", "0.5B", "350M"), not its file ("4.1 GB")
_SIZE_CELL = re.compile(
    r"\s*(\d+(?:\.\d+)?)\s?([BM])(?:\s*(?:params?|parameters)?)"
    r"(?:[\s,/·]+(?P<q>\d+[- ]?bits?|u?int\d+|w\d+a\d+|fp\d+|bf16|f16|(?:UD-|smol-)?I?Q\d\w*))?\s*",
    re.IGNORECASE,
)
#: a column of model sizes in billions by its header ("Size (B)", "Params (B)": ``drafttable._key``)
_IN_BILLIONS = re.compile(r"(?:size|params?|parameters|model_size)_b")
#: a size cell under such a header: "1.5", "30 - A3" (an MoE's active parameters, as written)
_BARE_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*(?:[-/]\s*(A\d+(?:\.\d+)?B?))?\s*")
#: a model name that already states its size ("Qwen3-8B", "Llama 2 13B", "Mixtral-8x7B")
SIZED_NAME = re.compile(r"\d(?:\.\d+)?\s?[BM](?![a-z])", re.IGNORECASE)


def sized_model(cond: dict, names_sized: bool = False) -> None:
    """A table row's model named by its family in one column and its size in another ("| Model | Mode
    | Size |" over "Llama | GPTQ | 7B"): the model is that family of that size ("Llama-7B", as
    SOURCES.md writes family + size), the size no longer an ``other`` setting of the row.  ``cond``
    (a row's conditions) is changed in place; a model that states its own size is kept, and so is
    every model of a table whose other rows' names state theirs (``names_sized``: "| LFM2-24B-A2B |
    24B |" above "| Devstral-Small-2 | 24B |": the size a column of its own, no part of the names)."""
    other, model = cond.get("other"), cond.get("model")
    if names_sized or not isinstance(other, dict) or not isinstance(model, str) or SIZED_NAME.search(model):
        return
    # the column of sizes whatever its header ("Size", "# of parameters"); a quant written after
    # the size ("7B 4-bit", "13B Q4_0") is the row's quant
    # (a draft model's column is the draft's size: "| Draft | 1.5B Q8 |")
    keys = [k for k in ("size", "params", "parameters", "model_size") if k in other] + list(other)
    for key in [k for k in keys if not k.startswith(("draft", "spec"))]:
        cell = str(other.get(key) or "")
        if _IN_BILLIONS.fullmatch(key) and (bare := _BARE_SIZE.fullmatch(cell)):
            # "| Size (B) |" over "1.5", "30 - A3": the header's unit on the cell's number
            cell = f"{bare.group(1)}B" + (f"-{bare.group(2)}" if bare.group(2) else "")
            cond["model"] = f"{model}-{cell}"
            del other[key]
            if not other:
                del cond["other"]
            return
        m = _SIZE_CELL.fullmatch(cell)
        if m is not None:
            cond["model"] = f"{model}-{m.group(1)}{m.group(2).upper()}"
            if m.group("q") and "quant" not in cond:
                cond["quant"] = m.group("q")
            del other[key]
            if not other:
                del cond["other"]
            return


def model_cell(cell: str) -> tuple[str, str | None]:
    """(model, quantisation or None) of a table cell in a model column: a quantisation written
    after the name is apart (``_CELL_QUANT``: llama-bench's "llama 7B Q4_0" -> ("llama 7B",
    "Q4_0"), "qwen3moe 30B.A3B Q4_K - Medium" -> (…, "Q4_K_M")), so is the packaging a repository
    name ends with (``draftcommand.model_and_quant``: "LFM2-8B-A1B-UD" -> "LFM2-8B-A1B"); the name
    is then written as ``model_of`` writes it, or as the cell writes it."""
    # (inline code and emphasis are the cell's markup, not its name: "Qwen2.5-1.5B `Q4_K_M`")
    cell = re.sub(r"`([^`]*)`|\*\*([^*]*)\*\*", lambda m: m.group(1) or m.group(2) or "", cell)
    text = _REMARK.sub("", cell.strip()) or cell.strip()
    tag = ollama_model(text)
    if tag is not None:
        return tag
    quant = None
    m = _CELL_QUANT.search(text)
    if m and m.start() > 0:
        quant = m.group("q")
        if m.group("size") and re.fullmatch(r"(?i)Q\d_K", quant):
            quant += "_" + {"small": "S", "medium": "M", "large": "L"}.get(m.group("size").lower(), "XS")
        if m.group("mix") and quant.upper() == "IQ3_S":
            quant = "IQ3_M"  # llama_model_ftype_name's "IQ3_S mix - 3.66 bpw" (LLAMA_FTYPE_MOSTLY_IQ3_M)
        text = text[: m.start()].strip()
        # old llama.cpp names a file type "mostly Q4_0" (llama.cpp's llama_model_ftype_name before
        # GGUF v3): the word is the type's, not the model's ("LLaMA 7B mostly Q4_0")
        text = re.sub(r"\s+mostly$", "", text, flags=re.I)
    if re.search(r"\s\?B$", text):
        # llama-bench's "gpt-oss ?B MXFP4 MoE": llama.cpp knew the architecture, not the size (its
        # llm_type_name "?B"): no model's name; the command's model file names it
        return "", quant
    if " " not in text:  # a repository's or file's name: its packaging and quantisation apart
        # ("Qwen3.5-35B-A3B-UD Q4_K_M": Unsloth's dynamic quant, its "UD" ending the name)
        dynamic = quant is not None and re.search(r"[-_]UD$", text, re.I) is not None
        name, found = model_and_quant(text)
        if name:  # not a quantisation alone ("Q4_K_M" in a model column)
            text, quant = name, quant or found
        if dynamic and quant and not quant.upper().startswith("UD-"):
            quant = f"UD-{quant}"
    return model_of(text) or text, quant


#: an Ollama model tag: name, ``:``, the size, variants and the quantisation, all lower case
#: ("qwen3.5:35b-a3b-q8_0", "gpt-oss:20b", "llama3.1:70b-instruct-q4_K_M")
_OLLAMA = re.compile(
    # a registry's namespace before it is no part of the name (Docker Model Runner's "ai/llama3.3:70B-Q4_K_M")
    r"(?<![\w./:-])(?:[a-z0-9][a-z0-9_-]*/)?(?P<name>[a-z][a-z0-9.-]*[a-z0-9]):(?P<size>(?:\d+x)?\d+(?:\.\d+)?[bm])"
    r"(?P<rest>(?:-[a-z0-9]+(?:\.\d+)?)*?)(?:-(?P<quant>(?:q\d(?:_[a-z0-9]+)*|fp16|bf16|f16|mxfp4)))?"
    r"(?![\w:-]|\.\w)",
    re.IGNORECASE,
)


#: an Ollama tag of a model's default weights, no size ("granite4:latest", "llama3.2:latest",
#: "mistral:latest"): the name before ":latest" is the model (with a version, or a known family)
_OLLAMA_LATEST = re.compile(
    r"(?<![\w./:-])(?:[a-z0-9][a-z0-9_-]*/)?(?P<name>(?=[a-z.-]*\d|(?:"
    + MODEL_FAMILIES
    + r"))[a-z][a-z0-9.-]*[a-z0-9])"
    r":latest(?![\w:-])",
    re.IGNORECASE,
)


def ollama_model(text: str) -> tuple[str, str | None] | None:
    """(model, quantisation or None) of an Ollama tag that is all of ``text`` (``_OLLAMA``):
    "qwen3.5:35b-a3b-q8_0" -> ("qwen3.5-35B-A3B", "Q8_0"), "gpt-oss:20b" -> ("gpt-oss-20B",
    None); the model as a repository names it (size and active size upper case), the scorer's words;
    None when ``text`` is no such tag."""
    m = _OLLAMA.fullmatch(text.strip())
    return _ollama(m) if m else None


def _ollama(m: re.Match) -> tuple[str, str | None]:
    rest = re.sub(r"-(a?\d+(?:\.\d+)?[bm])\b", lambda x: "-" + x.group(1).upper(), m.group("rest"))
    quant = m.group("quant")
    size = m.group("size")[:-1] + m.group("size")[-1].upper()  # "8x7b" -> "8x7B": the unit only
    return f"{m.group('name')}-{size}{rest}", quant.upper() if quant else None


#: a table column's header that names its decoding: "Baseline", "No spec", "Vanilla", "base" alone
#: (or before its parenthesis or colon: "base (c=1):") -> plain;
#: "Speculative", "Best speculative result", "With draft", "Spec on" -> speculative (``DECODING_PHRASE`` too)
_HEADER_PLAIN = re.compile(
    # ("base tok/s" beside "code | creative" columns: the base run's rate; not "base model")
    r"^\W*(?:baseline|vanilla|no[- ]spec\w*|plain|base(?![- ]?model)"
    r"(?=\W*(?:\(|:|$)|\s+(?:tok(?:ens)?/s(?:ec)?|t/s|tps|speed|rate)\b))\b",
    re.IGNORECASE,
)
_HEADER_SPEC = re.compile(
    r"(?<!no[- ])(?<!non-)(?<!w/o )(?<!without )(?:\bspeculative\b|\bspec(?:ulation)?\b(?![- ]off))",
    re.IGNORECASE,
)


#: speculative decoding negated in Chinese, Japanese or Korean ("无推测解码", "不使用投机解码",
#: "投機的デコードなし", "추측 디코딩 없음"): plain decoding
_CJK_NO_SPEC = re.compile(
    r"(?:无|無|不使用|不用|没有|沒有|未使用|未启用|关闭|關閉|禁用)\s*(?:推测|推測|投机|投機)"
    r"|(?:推测|推測|投机|投機|スペキュレーティブ|추측|투기)[^|\n]{0,10}?(?:なし|無し|オフ|없음|없이|미사용|끔)"
)
_CJK_SPEC = re.compile(r"推测|推測|投机|投機|スペキュレーティブ|추측|투기|(?i:\bspec)")


def header_decoding(header: str) -> str | None:
    """The decoding a rate column's header names (``_HEADER_PLAIN``, ``_HEADER_SPEC``, ``DECODING_PHRASE``,
    ``_CJK_NO_SPEC``: "无推测解码" is plain): "plain", "speculative", "draft-self"; None when it
    names none or both ("Baseline vs spec")."""
    negated = _CJK_NO_SPEC.search(header)
    if negated is not None and not _CJK_SPEC.search(
        header[: negated.start()] + " " + header[negated.end() :]
    ):
        return "plain"  # (not "推测解码 vs 无推测解码 加速比": both sides, the rest of the header decides)
    words: set[str] = {str(m.value) for m in mentions(header) if m.path == "decoding"}
    if _HEADER_PLAIN.search(header):
        words.add("plain")
    if _HEADER_SPEC.search(header) and "draft-self" not in words:
        words.add("speculative")
    return words.pop() if len(words) == 1 else None


def engine_spelled(spelling: str) -> str:
    """An engine's name as the claims files write it, from a spelling ``_ENGINE`` matched: its
    project's (``_ENGINES``), a fork of llama.cpp's as written."""
    return _ENGINES.get(spelling.lower(), spelling)


def engines_in(text: str) -> set[str]:
    """The engines ``text`` names (``_ENGINES``' spellings)."""
    return {engine_spelled(m.group(1)) for m in _ENGINE.finditer(text)}


#: the venue a transcribed thread's title names last ("(ggml-org/llama.cpp issue #5877, comment)",
#: "(oobabooga/text-generation-webui pull request #3881)"): where the thread lives
_VENUE = re.compile(
    r"[(（](?P<v>[^()（）]*?\b(?:issues?|pull\s+requests?|PRs?|discussions?|README|comments?)\b[^()（）]*)[)）]\s*$",
    re.IGNORECASE,
)


#: a CPU by its product name ("AMD Ryzen 9 7950X", "Ryzen 7 5700G", "Threadripper 1920X", "EPYC
#: 7773X", "Intel Core Ultra 9 275HX", "Core i9-13900K", "i7-12700H", "Xeon Gold 6338", "Xeon E5-2680
#: v4"), a count before it ("dual Xeon Gold 6338", "2x EPYC 9654"); not read as ``hardware`` in
#: ``mentions`` (a CPU beside a GPU is not the machine a GPU run measures): ``cpu_names``
_CPU = re.compile(
    r"(?<![\w-])(?:(?P<count>[1-8])\s?[x×]\s*|(?P<wcount>(?i:dual|two|quad))\s+)?(?:"
    r"(?:AMD\s+)?(?P<ryzen>Ryzen\s(?:Threadripper\s(?:PRO\s)?\d{4}[A-Z]{0,3}|[3579]\s(?:PRO\s)?\d{4}[A-Z0-9]{0,3}"
    # a laptop's Ryzen AI ("Ryzen AI 9 HX PRO 370", "Ryzen AI 7 350"; the Max+ 395 is an APU's name)
    r"|AI\s[579]\s(?:HX\s)?(?:PRO\s)?\d{3}))"
    r"|(?:AMD\s+)?(?P<tr>Threadripper\s(?:PRO\s)?\d{4}[A-Z]{0,3})"
    r"|(?:AMD\s+)?(?P<epyc>(?i:EPYC)\s\d{4}(?i:[A-Z0-9]{0,2}))"
    r"|(?:Intel\s+)?(?:Core\s+)?(?P<ultra>Ultra\s[579]\s\d{3}[A-Z]{0,2})"
    r"|(?:Intel\s+)?(?:Core\s+)?(?P<core>i[3579][- ]\d{4,5}[A-Z]{0,3})"
    r"|(?:Intel\s+)?(?P<xeon>Xeon\s(?:(?:Gold|Silver|Platinum|Bronze|Max|w[3579]|E[357])[\s-])?[A-Z]?\d{4}[A-Z0-9]{0,3}(?:\s?v\d)?)"
    # a Ryzen written without its tier ("AMD 5700G", "Ryzen 7950X3D"): after "AMD" only with the
    # suffix a CPU has ("AMD 7900 XTX", "AMD 6800 XT" are GPUs)
    r"|(?:AMD\s(?:Ryzen\s)?|Ryzen\s)(?P<bare>[1-9]\d{3})(?P<suffix>X3D|GE|G|X|HS|HX|H|U)(?!\s?XTX?\b|\s?GRE\b)"
    r"|Ryzen\s(?P<bare2>[1-9]\d{3})(?!\s?XTX?\b)"
    # an Intel desktop part by its number alone ("a 14900K", "9900K", "12400F", "2600K"), a generation
    # of 2 to 14 and an unlocked or no-graphics suffix, or a laptop's HX/HK (not "12800K tokens": a count)
    r"|(?P<intel>(?:1[0-4]|[2-9])[1-9]\d0(?:KS|KF|K|F|HX|HK))(?![\w-])(?!\s*(?i:tok|ctx|context|tokens))"
    r")(?![\w-])",
    re.ASCII,
)


def _ryzen_tier(model: str) -> int | None:
    """A desktop or mobile Ryzen's tier from its four-digit model, AMD's numbering: the second digit
    (1–3: Ryzen 3, 4–6: Ryzen 5, 7–8: Ryzen 7, 9: Ryzen 9; "5700G" -> 7, "7950X" -> 9); None where
    the number may name a Threadripper (x9xx before the 4000 series: "1950X", "3970X") or no tier."""
    gen, digit = int(model[0]), int(model[1])
    if digit == 9:
        return 9 if gen >= 4 else None
    return {1: 3, 2: 3, 3: 3, 4: 5, 5: 5, 6: 5, 7: 7, 8: 7}.get(digit)


def cpu_names(text: str) -> list[str]:
    """The CPUs ``text`` names (``_CPU``), each as its vendor writes it, in order, once each:
    "Ryzen 7 5700G" -> "AMD Ryzen 7 5700G", "i9-13900K" -> "Intel Core i9-13900K", "dual Xeon Gold
    6338" -> "2x Intel Xeon Gold 6338", "dual Epyc 9175F" -> "2x AMD EPYC 9175F"; a CPU named
    both alone and with its count ("AMD EPYC 7713", "2× AMD EPYC 7713") once, with the count."""
    out: list[str] = []
    for m in _CPU.finditer(text):
        g = m.groupdict()
        bare = g["bare"] or g["bare2"]
        if bare:
            tier = _ryzen_tier(bare)
            if tier is None:
                continue
            name = f"AMD Ryzen {tier} {bare}{g['suffix'] or ''}"
        elif g["ryzen"] or g["tr"]:
            name = "AMD " + ("Ryzen " if g["tr"] else "") + (g["ryzen"] or g["tr"])
        elif g["epyc"]:
            name = f"AMD EPYC {g['epyc'][5:].upper()}"  # "Epyc 9175f" as AMD writes it
        elif g["ultra"]:
            name = f"Intel Core {g['ultra']}"
        elif g["core"]:
            name = "Intel Core " + g["core"].replace(" ", "-")
        elif g["intel"]:
            # Intel's tiers by the model's third digit from the end: x9xx (and 10850K) i9 from the
            # 9th generation, x7xx i7 (x8xx before), x4xx–x6xx i5, lower i3
            model = re.match(r"(\d+)", g["intel"]).group(1)  # type: ignore[union-attr]
            gen, digit = int(model[:-3]), int(model[-3])
            # (the 2nd and 3rd generations' x6xx and x7xx were i7: "2600K", "3770K")
            tier = (
                9
                if digit >= 8 and gen >= 9
                else 7
                if digit >= 6 and gen <= 3 or digit in (7, 8)
                else 5
                if digit >= 4
                else 3
            )
            name = f"Intel Core i{tier}-{g['intel']}"
        else:
            name = f"Intel {g['xeon']}"
        n = g["count"] or {"dual": "2", "two": "2", "quad": "4"}.get((g["wcount"] or "").lower())
        name = f"{n}x {name}" if n and n != "1" else name
        if name not in out:
            out.append(re.sub(r"\s+", " ", name))
    # "AMD EPYC 7713" in a title over "2× AMD EPYC 7713" in the setup: one machine, the counted one
    return [n for n in out if not any(o.endswith(f"x {n}") and o[0].isdigit() for o in out)]


def engine_of_cell(cell: str, named: set[str]) -> str | None:
    """The engine a table cell names: its name as ``_ENGINES`` spells it, or an abbreviation of
    two to four capitals whose letters stand in that order in the name of exactly one engine the
    post names (``named``: "LCP" beside "llama.cpp" -> "llama.cpp"); None otherwise."""
    text = cell.strip().strip("*_`")
    m = _ENGINE.fullmatch(text)
    if m:
        return engine_spelled(m.group(1))
    if not re.fullmatch(r"[A-Z]{2,4}", text):
        return None
    fits = [e for e in named if _abbreviates(text.lower(), re.sub(r"[^a-z]", "", e.lower()))]
    return fits[0] if len(fits) == 1 else None


#: a cell naming an engine and the version it ran ("llamafile-0.7", "Ollama 0.30.4", "vLLM (v0.6.3)",
#: "sglang==0.4.1", "llama.cpp b4567", "llama.cpp 2024-03-26", a commit "llama.cpp 59778f0"), a
#: remark in parentheses after it ("(cuda)") allowed
_ENGINE_VERSION_CELL = re.compile(
    rf"(?P<e>{ENGINE_SPELLINGS})(?:\s+|-|\s*==\s*|\s*@\s*|\s*\(\s*)(?:(?:version|ver\.?)\s*)?"
    r"(?P<v>v?\d+(?:\.\d+)+(?:\.post\d+)?|b\d{3,5}|\d{4}-\d{2}-\d{2}|(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,12}"
    # an engine's generation ("vLLM V1", "vLLM V0": its old and new engine) or a branch's name
    # ("SGLang gemma4-mtp": lower case, a dash, a digit)
    r"|[Vv]\d(?![\w.])|(?-i:(?!(?:tp|dp|pp|ep)\d)(?=[a-z0-9.]*\d)[a-z][a-z0-9.]*(?:-[a-z0-9.]+)+))"
    # how it was installed after it ("vLLM 0.17.1 Docker", "SGLang 0.4.6 (pip)"): no part of the version
    r"\)?(?:\s+(?:docker|container|image|wheel|pip))?(?:\s*\([^()]*\))?",
    re.IGNORECASE,
)


def engine_version_cell(cell: str) -> tuple[str, str] | None:
    """(engine, version) a table cell names whole (``_ENGINE_VERSION_CELL``: "llamafile-0.7" ->
    ("llamafile", "0.7"), "llama.cpp 2024-03-26" -> ("llama.cpp", "2024-03-26"), "vLLM V1", "SGLang
    gemma4-mtp"), the engine as ``_ENGINES`` spells it and the version as written; None for any
    other cell, or where what follows the name is a model, quant or machine."""
    m = _ENGINE_VERSION_CELL.fullmatch(cell.strip().strip("*_`").strip())
    if m is None or any(x.path in ("model", "hardware", "quant") for x in mentions(m.group("v"))):
        return None  # "vLLM qwen3-8b", "SGLang h100-80gb": a model or machine after the name, no build
    return _ENGINES[m.group("e").lower()], m.group("v")


def _abbreviates(short: str, name: str) -> bool:
    if not name or short[0] != name[0]:
        return False
    i = 0
    for ch in short:
        i = name.find(ch, i)
        if i < 0:
            return False
        i += 1
    return True


#: llama.cpp's tools by name ("llama-cli", "llama-bench"): the engine where a heading names one
#: ("## 4. 端到端推理延迟(llama-cli)"); not in prose, where a post about another engine names them
#: to compare ("Ollama is slower than llama-server")
_LLAMA_TOOL = re.compile(
    r"(?<![\w./-])llama-(?:cli|server|bench|sweep-bench|batched-bench|speculative(?:-simple)?)(?![\w-])"
)


#: a heading or caption naming upstream llama.cpp as its forks' threads do ("* Mainline", "### Mainline
#: results", "mainline (b5635)"): the word alone, perhaps with "results"/"build" and a build in parentheses
_MAINLINE = re.compile(
    r"\W*mainline(?:\s+(?:results?|build|branch|runs?))?\s*(?:\([^()]{1,40}\))?\W*", re.IGNORECASE
)


def heading_engine(text: str) -> str | None:
    """The engine a heading names by a llama.cpp tool (``_LLAMA_TOOL``) or by the word "mainline"
    alone (``_MAINLINE``: upstream llama.cpp, as ik_llama.cpp's and other forks' threads call it):
    "llama.cpp"; None when it names none or names an engine itself (``mentions``)."""
    if any(m.path == "engine" for m in mentions(text)):
        return None  # "Mainline (vLLM 0.6.3)": the engine it names
    if _MAINLINE.fullmatch(text.strip()):
        return "llama.cpp"
    if not _LLAMA_TOOL.search(text):
        return None
    return "llama.cpp"


_CELL_YES = re.compile(r"(?:yes|y|on|enabled?|true|✓|✔|✔️|✅|with|1)", re.IGNORECASE)
_CELL_NO = re.compile(
    r"(?:no|n|off|disabled?|false|none|✗|✘|❌|[-–—]|0|without|baseline|plain|vanilla|n/a)", re.IGNORECASE
)


def decoding_of_cell(cell: str, header: str, self_drafted: bool = False) -> str | None:
    """The decoding a label cell states under a column about decoding (header "Speculative", "Spec",
    "MTP", "Draft", "Decoding"): yes/on/✓ -> speculative ("draft-self" under an MTP header, or with
    ``self_drafted``: the table's other columns are of MTP, "| Draft | … | MTP acceptance |"), no/off/
    ✗/none/"baseline" -> plain, a cell naming its decoding ("MTP", "no draft", "speculative") -> that;
    None for any other cell ("ngram-mod" under "Mode": the caller keeps it as written)."""
    text = cell.strip().strip("*_`").strip()
    if re.fullmatch(METHOD_WORDS, text, re.IGNORECASE):
        return None  # "EAGLE-3" under "Speculative": the method, kept as written
    self_drafted = self_drafted or re.search(r"\bMTP\b", header, re.IGNORECASE) is not None
    if _CELL_NO.fullmatch(text):
        return "plain"
    if _CELL_YES.fullmatch(text):
        return "draft-self" if self_drafted else "speculative"
    words = {str(m.value) for m in mentions(text) if m.path == "decoding"}
    if _HEADER_PLAIN.search(text):
        words.add("plain")
    if not words and (said := header_decoding(text)) is not None:
        words.add(said)  # "Speculative", "Spec (k=4)" under "Mode": the word alone names it
    return words.pop() if len(words) == 1 else None


#: a device's role in a speculative setup that puts the two models on different devices, in the
#: words right after the device ("a 3090 (CUDA0) for the main model", "GPU 1 runs the draft model")
#: or right before it ("main model on the 4090, draft on GPU 1", "the draft model goes to a P40")
_ROLE_AFTER = re.compile(
    r"^\s*(?:\([^()]{0,30}\)\s*)?(?:is\s+)?(?:for|runs?|hosts?|holds?|with|carries)\s+(?:the\s+)?"
    r"(?P<role>main|target|draft)\s+model\b",
    re.IGNORECASE,
)
_ROLE_BEFORE = re.compile(
    r"\b(?P<role>main|target|draft)(?:\s+model)?\s+(?:is\s+|runs\s+|goes\s+|was\s+)?(?:on|to)\s+"
    r"(?:the\s+|a\s+|an\s+)?$",
    re.IGNORECASE,
)


def placement(text: str) -> str | None:
    """The hardware of a speculative setup whose sentence places the main model on one device and
    the draft model on another ("two GPUs: a 3090 for the main model and a P40 for the draft model",
    "main model on the 4090, draft on a 3060"): ``"<main device> (main) + <draft device> (draft)"``,
    each the vendor's full name as ``mentions`` gives it, the convention SOURCES.md's expected files
    write for such setups.  None where the text places no model, only one, or either role on two
    different devices (a comparison of placements)."""
    roles: dict[str, set[str]] = {"main": set(), "draft": set()}
    for sentence in re.split(r"(?<=[.!?;])\s+|\n", text):
        found = [m for m in mentions(sentence) if m.path == "hardware"]
        for i, m in enumerate(found):
            after = sentence[m.end : found[i + 1].start if i + 1 < len(found) else len(sentence)]
            before = sentence[found[i - 1].end if i else 0 : m.start]
            role = _ROLE_AFTER.match(after) or _ROLE_BEFORE.search(before)
            if role:
                kind = "draft" if role.group("role").lower() == "draft" else "main"
                roles[kind].add(str(m.value))
    if len(roles["main"]) != 1 or len(roles["draft"]) != 1 or roles["main"] == roles["draft"]:
        return None
    return f"{next(iter(roles['main']))} (main) + {next(iter(roles['draft']))} (draft)"


#: the two sides of a change to the code a post measures, as a table's headers name them: the
#: build before and after it ("Before"/"After", "Pre"/"Post"), the main branch and the pull
#: request or patch ("master"/"PR", "main"/"this PR", "unpatched"/"patched")
_SIDE_PAIRS = (
    frozenset({"before", "after"}),
    frozenset({"pre", "post"}),
    frozenset({"master", "pr"}),
    frozenset({"master", "this pr"}),
    frozenset({"main", "pr"}),
    frozenset({"main", "this pr"}),
    frozenset({"unpatched", "patched"}),
)
#: a header that is a side's word alone ("After", "**Pre**") or ends with it in parentheses ("PP-512 (PR)")
_SIDE_HEADER = re.compile(
    # the side alone, or with the column's unit after it ("master t/s", "PR (tok/s)")
    r"^\W*(?P<w>before|after|pre|post|master|main|pr|this pr|(?:un)?patched)"
    r"(?:\s+\(?(?:t/s|tok/s|tokens?/s|ms|s)\)?)?\W*$"
    r"|\(\s*(?P<p>before|after|pre|post|master|main|pr|this pr|(?:un)?patched)\s*\)\s*$",
    re.IGNORECASE,
)


#: a label line that is a side's word alone over what it labels ("Pre:", "**After:**")
_SIDE_LABEL = re.compile(
    # (a colon, or emphasis alone: "**Pre**"; the change named after the side: "Before the patch:",
    # "Pre-PR:")
    r"[\W_]*(?P<w>before|after|pre|post|master|main|this pr|(?:un)?patched)"
    r"(?:[\s-]+(?:the\s+)?(?:patch|PR|fix|change|changes|commit))?"
    r"(?:[*_]*\s*[:：]\s*[*_]*|(?<=[*_])[*_]*|[*_]+)\s*",
    re.IGNORECASE,
)


def side_labels(labels: dict[int, str]) -> dict[int, str]:
    """line -> the build a label line names as one side of the change the post measures ("Pre:"
    over one code block, "Post:" over the next: ``_SIDE_LABEL``), the word as written, where the
    labels name both sides of one pair (``_SIDE_PAIRS``); empty otherwise ("After:" alone is no
    build).  Issue 29's corpus: h559."""
    found = {n: m.group("w") for n, t in labels.items() if len(t) <= 40 and (m := _SIDE_LABEL.fullmatch(t))}
    said = {w.lower() for w in found.values()}
    paired = set().union(*(pair for pair in _SIDE_PAIRS if pair <= said))
    return {n: w for n, w in found.items() if w.lower() in paired}


def side_builds(header: list[str]) -> dict[int, str]:
    """column -> the build its header names as one side of the change the table measures
    (``_SIDE_HEADER``), where the header row names both sides of one pair (``_SIDE_PAIRS``: "|
    Model | Before | After |", "| PP-512 (PR) | PP-512 (master) |"), the word as written; empty
    otherwise: "After" alone, or "Main" beside "Draft", names no build."""
    found = {
        j: (m.group("w") or m.group("p"))
        for j, h in enumerate(header)
        if (m := _SIDE_HEADER.search(h.strip()))
    }
    said = {w.lower() for w in found.values()}
    if not any(pair <= said for pair in _SIDE_PAIRS):
        return {}
    paired = set().union(*(pair for pair in _SIDE_PAIRS if pair <= said))
    return {j: w for j, w in found.items() if w.lower() in paired}


#: a repository's address on GitHub, GitLab or Codeberg (an issue, pull request, discussion or file of it)
_REPOSITORY_LINK = re.compile(
    r"https?://(?:www\.)?(?:github\.com|gitlab\.com|codeberg\.org)/(?P<org>[\w.-]+)/(?P<repo>[\w.-]+)"
)


def repository_engine(link: str) -> tuple[str, str] | None:
    """(engine, "org/repo") where ``link`` is in the repository of one engine the drafter knows
    (``mentions`` of the repository's name: "github.com/vllm-project/vllm/issues/12845" -> vLLM,
    "…/ggml-org/llama.cpp/pull/27210" -> llama.cpp, "…/LostRuins/koboldcpp/issues/1266" -> KoboldCpp);
    None for another address, a repository of no engine's name or of two."""
    m = _REPOSITORY_LINK.match(link.strip())
    if m is None:
        return None
    repo = re.sub(r"\.git$", "", m.group("repo"))
    engines = {str(x.value) for x in mentions(repo) if x.path == "engine"}
    if not engines:  # "vllm-ascend", "mlx-lm": the engine's name before a dash
        spaced = repo.replace("-", " ").replace("_", " ")
        engines = {str(x.value) for x in mentions(spaced) if x.path == "engine"}
    return (engines.pop(), f"{m.group('org')}/{repo}") if len(engines) == 1 else None
