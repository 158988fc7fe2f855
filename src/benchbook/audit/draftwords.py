"""Settings written in words (``benchbook claims draft``, issue 29): what a post's prose, a heading
or a request's parameters say of a run's setup outside any command line -- "131K context" ->
``ctx``, "q4_0 KV" -> ``type_k``/``type_v``, "temperature 0" -> ``sampling``, "256 output tokens"
-> ``tokens_generated``, "max_tokens 512" -> ``cap``, "8 concurrent requests" -> ``concurrency``,
"n-max 3" -> ``block_max``, "vLLM 0.7.3" -> ``build`` (``settings_in_words``); a request body's or
log's parameters (``REQUEST_SETTINGS``); a transformers script's engine, dtype and prompt
(``script_settings``); llama-speculative's summary (``spec_summary``); a token
count as written (``count``).  ``draftcontext`` gives each scope what they state.
"""

from __future__ import annotations

import math
import re

from .draftcommand import HEX_COMMIT
from .draftnames import ENGINE_SPELLINGS, engine_of_cell

#: a draft model's name in the languages the drafter reads, for a table's column or row label
#: ("草稿模型", "ドラフトモデル", "드래프트 모델"; English "draft model" each reader spells its own way)
DRAFT_MODEL_CJK = r"草稿模型|草稿|推测模型|ドラフト(?:モデル)?|드래프트(?:\s*모델)?"


#: a token count, its thousands grouped by commas or not ("32,768 tokens", "32768", "32K", "1.5K")
_K = r"(?P<n>\d{1,3}(?:,\d{3})+(?!\d|,\d)|\d+(?:\.\d+)?)\s?(?P<k>[kK])?"
#: an engine's name in any spelling ``draftnames`` knows (``ENGINE_SPELLINGS``)
_ENGINE_WORDS = rf"(?P<e>{ENGINE_SPELLINGS})"
#: a small count written as a word ("four concurrent requests"): ``_COUNT_OF`` gives its number
_COUNT_OF = {
    **dict(
        zip(
            "one two three four five six seven eight nine ten eleven twelve".split(),
            range(1, 13),
            strict=True,
        )
    ),
    "sixteen": 16,
    "thirty-two": 32,
    "sixty-four": 64,
}
_COUNT_WORDS = "|".join(sorted(_COUNT_OF, key=len, reverse=True))
#: a serving benchmark's request rate, a setting of its client ("--request-rate 8", "with a request
#: rate of 8 req/s", "请求速率 = 20 req/s", a label "Request rate 4: …"): the requests sent a second,
#: not a rate measured
REQUEST_RATE = re.compile(
    r"(?:\b(?:with|at|using|under|set(?:ting)?|configured|fixed|target)\s+(?:a\s+|the\s+)?(?:fixed\s+)?"
    r"request[-_ ]rate(?:\s+(?:of|=|:|to|at))?|--request[-_]rate(?:\s+|=)|\brequest_rate\s*[=:]|"
    # a label ("Request rate (req/s) 4: …", "request-rate 16: …"): the number before its colon
    r"(?:^|(?<=[\n;,.(]\s)|(?<=[\n;,(]))\s*(?P<lab>)request[-_ ]rate"
    r"(?:\s*\(\s*req(?:uests?)?/s\s*\))?\s*[=:]?|"
    r"请求速率\s*[:：=]?)\s*(?P<n>\d+(?:\.\d+)?)(?!\d|\.\d)(?(lab)(?=\s*(?:req(?:uests?)?/s)?\s*[:：]))",
    re.I,
)
#: the public benchmarks whose prompts speculative-decoding posts run (Spec-Bench's, EAGLE's and the
#: papers' data sets), as an alternation: MT-Bench, HumanEval, GSM8K, ShareGPT, Alpaca…
PROMPT_SETS = (
    r"mt[- ]?bench|humaneval\+?|gsm8k|sharegpt|alpaca(?:eval)?|"
    r"math[- ]?500|cnn/dailymail|cnn/dm|longbench(?:[- ]?v2)?|spec[- ]?bench|mbpp\+?|arena[- ]?hard|"
    r"livecodebench|aime(?:\s?20)?2[3-6]?|gpqa(?:[- ]diamond)?|xsum|swe[- ]?bench(?:[- ]verified)?|"
    r"mmlu(?:[- ]pro)?|hellaswag"
)
#: settings written in words: pattern -> condition path (the value from the groups, ``_setting``)
#: a run's prompts named as a benchmark's in a setup sentence ("gsm8k, 8 prompts, 4x RTX 2080 Ti",
#: "8 GSM8K prompts", "Dataset: GSM8K"): the prompt set (its name as written)
PROMPT_SET_SETTING = re.compile(
    rf"(?<![\w-])(?P<d>{PROMPT_SETS})(?:,\s*\d+|\s+\(\d+)\s+(?:prompts|questions|samples|requests)\b"
    rf"|(?<![\w.])\d+\s+(?P<d2>{PROMPT_SETS})\s+(?:prompts|questions|samples)\b"
    rf"|\b(?:dataset|prompt\s+set|benchmark)\s*[:：=]\s*(?P<d3>{PROMPT_SETS})(?![\w-])",
    re.IGNORECASE,
)
#: words of training a model on data (a drafter "trained on ShareGPT": no prompts it ran)
_TRAINING = re.compile(r"(?i)\b(?:train|fine[- ]?tun|distill|calibrat|pretrain)\w*")
_SETTINGS: list[tuple[re.Pattern, str]] = [
    (PROMPT_SET_SETTING, "prompt set"),
    (REQUEST_RATE, "request_rate"),
    (
        re.compile(
            rf"(?<![\w.]){_K}(?:\s?tokens?)?\s+(?:of\s+)?(?:context|ctx)\b(?!\s*(?:is|was|of)\b)", re.I
        ),
        "ctx",
    ),
    (
        re.compile(
            # (not the end of another flag's name: "--spec-dflash-cross-ctx 512" is no context size;
            # "--max-ctx 200000" is)
            rf"(?:(?<=max[-_])|(?<!\w)(?<!\w-))"
            rf"(?:context(?:[ _-](?:length|size|window))?|ctx(?:[ _-]size)?|n_ctx|num_ctx)"
            # (a series named by it with a dash: "Context-2048-Serie", "ctx-8k run")
            rf"(?:\s*(?:=|:|of)?\s*|-(?=\d)){_K}\b",
            re.I,
        ),
        "ctx",
    ),
    # a launch script's setting of the model's length ("MAX_LEN=150000", "max_model_len: 32768")
    (re.compile(rf"(?<![\w-])max[-_]?(?:model[-_]?)?len\s*[=:]\s*{_K}\b", re.I), "ctx"),
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
            # "q4_0 KV", "q8 target KV" (the target model's; "f16 draft KV" is the draft's: none)
            r"(?<![\w.])(?P<t>q4_0|q4_1|q5_0|q5_1|q8_0|q8|q4|iq4_nl|f16|fp16|f32|fp32|bf16"
            r"|fp8(?:[_ ]e4m3|[_ ]e5m2)?|turbo\d)"
            r"\s+(?:(?:target|main)\s+)?(?:K/V|KV|kv|K\s?(?:and|&|\+)\s?V)(?:[ -]cache)?\b"
            # the type's full name in parentheses after ("FP8 KV cache (fp8_e4m3)"): that one
            r"(?:\s*\((?P<e>fp8[_ ]e4m3|fp8[_ ]e5m2)\))?",
            re.I,
        ),
        "kv",
    ),
    # one side of the cache on its own ("K cache q8_0, V cache q4_0", "type_k: q8_0", a config's
    # "cache_type_v": "q4_0", "K-cache type = q5_0"): ``type_k`` or ``type_v`` alone
    (
        re.compile(
            r"(?<![\w/&+-])(?:(?:cache[_ -])?type[_ -](?P<s>[kv])|(?P<c>[KV])[ -]cache(?:[ _-]type)?)[\"']?"
            r"\s*(?:=|:|in|of)?\s*[\"']?"
            r"(?P<t>q4_0|q4_1|q5_0|q5_1|q8_0|iq4_nl|f16|fp16|f32|fp32|bf16|turbo\d)(?![\w])",
            re.I,
        ),
        "kv-side",
    ),
    (
        re.compile(
            r"\b(?:(?:KV|K/V|K\s?(?:and|&|\+)\s?V)[ -]cache(?:\s+(?:type|quant\w*))?|cache[ _-](?:type|mode))"
            r"\s*(?:=|:|in|of|to|at)?\s*"
            r"(?P<t>q4_0|q4_1|q5_0|q5_1|q8_0|iq4_nl|f16|fp16|f32|fp32|bf16|fp8(?:_e4m3|_e5m2)?)(?![\w])"
            # a setup line's "cache: q4" (ExLlama's cache modes Q4/Q6/Q8 beside f16 and FP8)
            r"|(?<![\w-])cache(?:[ _-]mode)?\s*[:=]\s*(?P<e>q4|q6|q8|fp8|f16|fp16)(?![\w])",
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
            # a full stop or comma after it ends the sentence or the item ("temperature=0.")
            r"(?P<n>\d+(?:\.\d+)?)(?!\d|\.\d|\s?°|\s?C\b)",
            re.I,
        ),
        "sampling",
    ),
    (re.compile(r"\bgreedy\b", re.I), "greedy"),
    # llama.cpp's physical batch in words ("ubatch 2048", "n_ubatch = 512", "micro-batch 1024")
    (
        re.compile(
            r"(?<![\w-])(?:n_?ubatch|ubatch(?:[ _-]size)?|micro-?batch)\s*(?:=|:|of)?\s*(?P<n>\d{2,5})\b",
            re.I,
        ),
        "ubatch",
    ),
    # the cap on each request's output in words: "OSL 256" (output sequence length), "max_tokens
    # 512", "max new tokens: 128", "1024 out"
    (
        re.compile(
            # "最大输出 1024 token", "最大生成 512", "最大出力 256 トークン" (the cap on the output in CJK)
            r"(?:最大|最多)(?:输出|生成|出力)(?:长度|長度)?\s*[:：为]?\s*(?P<c>\d+)(?![\d.])|"
            r"\b(?:(?<!/)OSL|max[_ -](?:new[_ -])?tokens|max[_ -]output[_ -]tokens|n_predict|num_predict)"
            # ("I set `max_new_tokens` to 128")
            r"[`'\"]?\s*(?:=|:|of|to)?\s*"
            r"(?P<n>\d+)(?![\d%]|[.,]\d)"
            # a request's "1024 out" (input and output lengths: "512 in, 1024 out"; not "1 out of 5")
            # (nor "150 out tok/s": a rate of the output)
            r"|(?<![\w.,])(?P<o>\d+)\s+out\b(?!\s+of\b)(?!\s+(?:tok|tokens?|t)/s)"
            # a benchmark's set output length: "output_len=100", "输入=200, 输出=100" (what each request
            # may generate)
            r"|(?:(?<![\w-])output[_-]len(?:gth)?|输出)\s*[=＝]\s*(?P<e>\d+)(?![\d.])"
            # a run's "(prompt=512, max=128)": the prompt's length, then the most tokens it may generate
            r"|(?<=prompt=)\d+,\s*max\s*=\s*(?P<m>\d+)(?![\d.])",
            re.I,
        ),
        "cap",
    ),
    (
        re.compile(
            # (not a rate: "1157 output tokens/s", "40 generated tokens per second")
            r"(?<![\w.])(?P<n>\d+)\s+(?:output|generated|new|gen)\s+tokens\b(?!\s*/\s*s|\s+(?:per|a|an)\s+s(?:ec(?:ond)?)?\b)"
            # (not a total "tokens generated: 259,326" nor the draft's "draft tokens generated")
            r"|(?<!draft )\btokens generated\s*[:=]\s*(?P<m>\d+)(?![\d,.])"
            # "a 256-token summarization output" (any hyphen: HTML's non-breaking "128‑token"),
            # "generating 512 tokens", "512 gen" (llama-bench's tg512)
            r"|(?<![\w.])(?P<o>\d+)[-‐‑]token\s+(?P<task>(?:[^\W\d]+\s+){0,2})(?:output|generation|completion)\b(?!\s+prompt)"
            # ("Generating 1k tokens": a thousand)
            # (not a rate: "llama.cpp generates 70 tokens per second", "generating 40 tokens/s")
            r"|\bgenerat(?:e|ed|es|ing)\s+(?P<g>\d+)(?P<gk>[kK])?\s+tokens\b"
            r"(?!\s*/\s*s|\s+(?:per|a|an|each)\s+s(?:ec(?:ond)?)?\b)"
            r"|(?<![\w.])(?P<b>\d+)\s+gen\b(?!\s*\d)"
            # "512 tokens generated", "256 tokens were generated", "300 tokens decoded", "500 tokens
            # returned" (the tokens a completion gave back); "128 tokens input, 256 tokens output"
            r"|(?<![\w.])(?P<t>\d+)\s+tokens\s+(?:were\s+|are\s+)?(?:generated|decoded|returned)\b"
            # the length of each run's output: "output length of 300 tokens", "generation length: 256
            # tokens", "output length was set to 300 tokens" (a "max output length" is a cap: no match)
            r"|(?<!max )(?<!maximum )\b(?:output|generation|gen|decode|completion)\s+(?:length|size)\s*"
            r"(?:(?:was|is)\s+)?(?:set\s+to|of|=|:)?\s*(?P<L>\d+)\s*tokens?\b"
            # (not a bound: "a 300 tokens output limit")
            r"|(?<![\w.])(?P<u>\d+)\s+tokens?\s+output\b(?!\s+(?:limit|cap|max|budget)\b)"
            # "500 token prompt, 300 generated" (a count of nothing else: "300 generated images" is none)
            r"|(?<![\w.,])(?P<x>\d+)\s+generated\b(?!\s+(?:by|from|per|in|on|at|with|\w+s)\b)"
            # in Russian, Chinese, Japanese: "генерация 256 токенов", "生成 256 个 token", "出力 512 トークン"
            r"|(?<!最大)(?<!最多)(?:генерац\w*|сгенерир\w*|生成|输出|出力)\s*[:：]?\s*(?P<w>\d+)\s*(?:个\s*)?"
            r"(?:токен\w*|tokens?|トークン)"
            # a setup's list naming the decoding beside the length: "greedy, 128 tokens", "128 tokens
            # greedy" (the tokens each run generated; not "128 tokens of context")
            r"|\bgreedy[,;]?\s+(?P<y>\d+)\s+tokens\b(?![\w/]|\s+(?:of|prompt|input|context|ctx)\b)"
            r"|(?<![\w.])(?P<z>\d+)\s+tokens[,;]?\s+greedy\b"
            # a benchmark's setting of the tokens each run generates: "gen=256", "n_gen: 128",
            # "gen_tokens=512" (a config's keys; not "max_gen", a cap)
            r"|(?<![\w-])(?:n_?gen|gen(?:_tokens|_len)?|num_gen)\s*[=:]\s*(?P<k>\d+)(?![\d.])",
            re.I,
        ),
        "generated",
    ),
    # a serving benchmark's input and output sequence lengths ("ISL=1024, OSL=1024", "ISL 8k"): each
    # request's prompt of that many tokens; the output's length, each request generating it (the cap
    # above, and the tokens generated: a random dataset's requests run to their length)
    # the pair written together: "ISL/OSL = 512/128", "ISL/OSL 1k/1k"
    (
        re.compile(
            r"(?<![\w-])ISL\s*/\s*OSL\s*[=:]?\s*(?P<n>\d+)(?P<k>[kK])?\s*/\s*(?P<o>\d+)(?P<ok>[kK])?(?![\d.%])",
            re.I,
        ),
        "isl/osl",
    ),
    # a benchmark report's pair ("input/output tokens: 32-32", IPEX-LLM's all-in-one csv, its
    # "actual input/output tokens" too; "ouput" as it misspells it)
    (
        re.compile(
            r"(?<![\w-])input\s*/\s*ou?t?put\s+(?:tokens|lengths?|lens?)\s*[:=]\s*"
            r"(?P<n>\d+)(?P<k>[kK])?\s*[-/]\s*(?P<o>\d+)(?P<ok>[kK])?(?![\d.%])",
            re.I,
        ),
        "isl/osl",
    ),
    # the pair each count before its word: "4096 prompt + 1024 completion", "512 input / 128 output
    # tokens", "a 2048-token prompt and 256 generated tokens" (a workload; not a rate after it)
    (
        re.compile(
            r"(?<![\w.-])(?P<n>\d+)(?P<k>[kK])?(?:[- ]tokens?)?\s+(?:prompt|input)(?:\s+tokens)?\s*"
            r"(?:\+|/|,|and|with)\s*(?P<o>\d+)(?P<ok>[kK])?(?:[- ]tokens?)?\s+"
            r"(?:completion|generation|generated|output|gen)\b(?!\s*(?:tok/s|t/s|tps|tokens?/s))",
            re.I,
        ),
        "isl/osl",
    ),
    # "input 128, output 256" (a serving run's lengths, each after its word; not a rate after it)
    (
        re.compile(
            r"(?<![\w-])input\s+(?P<n>\d+)(?P<k>[kK])?\s*[,;/]\s*output\s+(?P<o>\d+)(?P<ok>[kK])?"
            r"(?![\d.%]|\s*(?:tok|t/s|tps|token))",
            re.I,
        ),
        "isl/osl",
    ),
    (
        re.compile(
            r"(?<![\w-])(?:ISL|input[_ ]seq(?:uence)?[_ ]len(?:gth)?)\s*(?:=|:|of)?\s*"
            r"(?P<n>\d+)(?P<k>[kK]\b)?(?![\d.%])"
            # a setup line's label: "Input tokens per request: 4096", "Prompt length: 512"
            # ("Each test had input size 128", "a prompt length of 512")
            r"|(?<![\w-])(?<!max )(?:input|prompt)[_ ]"
            r"(?:tokens?[_ ]per[_ ]request\s*[:=]|(?:size|length|len)\s*(?:of|[:=])?)"
            r"\s*(?P<n2>\d+)(?P<k2>[kK]\b)?(?![\d.%])",
            re.I,
        ),
        "isl",
    ),
    (
        re.compile(
            r"(?<![\w/-])(?:OSL|output[_ ]seq(?:uence)?[_ ]len(?:gth)?)\s*(?:=|:|of)?\s*"
            r"(?P<n>\d+)(?![\d.%kK])"
            # "Generated tokens per request: 1024", "Output length: 128" (not a "max output length")
            r"|(?<![\w-])(?<!max )(?<!maximum )(?:output|generated)[_ ]"
            r"(?:tokens?[_ ]per[_ ]request|length|len)"
            r"\s*[:=]\s*(?P<n2>\d+)(?![\d.%kK])"
            # a llama-bench or llama-benchy test named in prose ("pp1024 tg128, 50 runs per
            # concurrency level"): the tokens each run generated (``llama-bench.cpp``'s "tg" test)
            r"|(?<![\w-])pp\d+(?:\s*[,/+]\s*|\s+(?:and\s+)?)tg(?P<n3>\d+)(?![\w.])",
            re.I,
        ),
        "osl",
    ),
    (re.compile(r"(?<![\w-])(?:--parallel|-np)[ =](?P<n>\d+)\b"), "concurrency"),
    # Ollama's layers on the GPU: "num_gpu 99", "num_gpu: 0", "\"num_gpu\": 40"
    (re.compile(r"(?<![\w-])num_gpu[\"']?\s*[:=]?\s*(?P<n>\d{1,3})(?![\w.])"), "layers"),
    # the layers on the GPU in words or by llama.cpp's setting: "all 65 layers offloaded", "offloaded
    # 48 layers to the GPU", "48/48 layers on GPU", "n_gpu_layers: 99", "GPU layers = 99" (not a
    # share: "30 of 65 layers" -- 30, the layers named on the GPU)
    (
        re.compile(
            r"(?<![\w.])(?<!of\s)(?:all\s+)?(?P<n>\d{1,3})(?:\s*(?:/|of|out\s+of)\s*\d{1,3})?\s+(?:\w+\s+)?layers?\s+"
            r"(?:(?:are|were|is|was)\s+)?(?:offloaded|on\s+(?:the\s+)?GPU|in\s+VRAM)\b"
            r"|\boffload(?:ed|ing)?\s+(?:all\s+)?(?P<o>\d{1,3})\s+layers\b"
            r"|(?<![\w-])(?:n_gpu_layers|gpu[_ -]layers|ngl)[\"']?\s*[:=]?\s*(?P<g>\d{1,3})(?![\w.])",
            re.I,
        ),
        "layers",
    ),
    # requests at once in words: "concurrency = 4", "at concurrency 16", "10 concurrency", "8 concurrent
    # request streams", "128 concurrent requests", "8-stream throughput", "four concurrent requests",
    # "16 parallel requests", "8 simultaneous users", "32 requests in parallel", "并发 8", "8 并发",
    # "并发数为 8", "同時32" (not a range's end: "1-8 concurrent")
    (
        re.compile(
            r"\bconcurrency(?:\s+level)?\s*(?:=|:|of)?\s*(?P<n>\d{1,4})(?![\d.%]|\s?[–-]\s?\d)"
            rf"|(?<![\w.–-])(?P<m>\d{{1,4}}|{_COUNT_WORDS})\s+(?:concurrency\b|concurrent(?:ly)?\b"
            r"|(?:parallel|simultaneous)\s+(?:requests?|users?|clients?|streams?|sequences?)\b"
            r"|(?:requests?|users?|clients?|streams?|sequences?)\s+(?:in\s+parallel|at\s+once|simultaneously)\b)"
            r"|(?<![\w.–-])(?P<s>\d{1,4})-(?:streams?|users?|clients?)\b"
            r"|并发(?:数|请求数|请求|用户数)?\s*(?:为|是|=|:|：)?\s*(?P<z>\d{1,4})(?!\d)|(?<![\d.])(?P<y>\d{1,4})\s*(?:路)?并发"
            # Japanese "同時32の…" (32 at once), "同時実行数 8", "同時リクエスト数: 8" (not "同時2モデルを
            # ロード", two models loaded at once)
            r"|同時(?:実行|リクエスト|接続|ユーザー)数?\s*(?:=|:|：|は)?\s*(?P<j>\d{1,4})(?![\d.,]|\s?[–-]\s?\d)"
            r"|同時\s?(?P<jj>\d{1,4})\s*(?=の|並列|リクエスト|ユーザー|接続|件)"
            # a header's count in parentheses ("Throughput (50 req)", "TTFT p50 (10 users)"), "c=8"
            r"|\(\s*(?P<p>\d{1,4})\s*(?:reqs?|requests|users|concurrent)\s*\)|(?<![\w.])c\s*=\s*(?P<c>\d{1,4})(?!\d)",
            re.I,
        ),
        "concurrent",
    ),
    # a draft size in words: "n-max 3", "n_max=6", "draft-max: 8", "num_speculative_tokens=5",
    # "num spec tokens=1", "num_steps=8", "k=4", "MTP n=4", "MTP cap 6", "MTP-3", "draft 5 tokens",
    # "5 draft tokens" (not one of a list: "4, 5 and 6 draft tokens" names no one size)
    (
        re.compile(
            r"(?:\b(?:spec[-_ ])?(?:n[-_ ]?max|draft[-_ ](?:n[-_ ])?max|draft[-_ ](?:size|length|len))"
            r"|\bnum[-_ ]spec(?:ulative)?[-_ ]tokens|\b(?:speculative[-_ ])?num[-_ ]steps"
            r"|(?<![\w-])(?<!top )k|\b(?:MTP|EAGLE-?\d?|draft(?:ing)?)\s+(?:n|cap))"
            r"\s*(?:=|:)?\s*(?P<n>\d{1,3})(?![\w.%]|\s?[–-]\s?\d)"
            r"|\bdraft(?:ing)?\s+(?P<m>\d{1,3})\s+tokens\b"
            # "MTP-3": the model's heads drafting 3 tokens (not "MTP 2x", "MTP-2.5")
            r"|\bMTP-(?P<h>\d{1,2})(?![\w.%×])"
            r"|(?<![\d,]\s)(?<!\band\s)(?<!\bor\s)(?<![\d.,/–-])(?P<l>\d{1,3})\s+(?:draft(?:ed)?|speculative)\s+tokens\b",
            re.I,
        ),
        "block",
    ),
    # a batch size in words ("batch size 8", "batch_size=64", "bs=16"): llama.cpp's ``-b`` where the
    # engine is llama.cpp's kind, else the sequences a serving engine runs at once (``draftcommand.
    # serving_batch`` renames it); one is "single" below
    (
        re.compile(
            # (after a CJK word, and its connectors: "推理的时候batchsize是1", "batch size为8")
            r"(?<![A-Za-z0-9_])batch[ _-]?size\s*(?:=|:|of|是|为|為|：)?\s*(?P<n>\d{1,5})"
            r"(?![\d%]|[.,]\d|\s?[–-]\s?\d)"
            # ("bs=16", "BS1", "bs 8": the short form, glued or not)
            r"|(?<![\w-])bs\s*[=:]?\s*(?P<b>\d{1,5})(?![\d.])",
            re.I,
        ),
        "batch",
    ),
    # "single request", "one user", "single concurrency", "single-batch (B=1)"; a serving batch of one
    # in words ("on batch size 1", "When batch-size=1", "(chain MTP, B=1)")
    (
        re.compile(
            r"\b(?:single|one)[ -](?:request|user|stream|slot|concurrency|batch)\b"
            r"|(?<![A-Za-z0-9_])batch[ _-]?size\s*(?:=|:|of|是|为|為|：)?\s*1(?!\d|[.,]\d)"
            r"|(?<![\w=])B=1(?=\))"
            r"|(?<![\w-])bs\s*[=:]?\s*1(?![\d.])",  # "for bs=1 SGLang outputs around 26 tok/s", "For BS1"
            re.I,
        ),
        "single",
    ),
    (
        re.compile(
            # ASCII bounds: "使用Ollama 0.15.2在" (a CJK character is a word character)
            # "Ollama 0.5.7", "vLLM version 0.7.3", "Ollama(Ver. 0.11.4)", "LM Studio (v0.3.23)"
            # glued by a dash or pinned ("llamafile-0.7", "sglang==0.4.1", "vllm@0.6.3"); a number
            # with a unit after it is a result, no version ("Ollama 45.2 tok/s", "vLLM 1.5x")
            # the word "version" in other languages too ("vLLM版本:0.3.3", "Ollama バージョン 0.5")
            rf"(?<![A-Za-z0-9_./-]){_ENGINE_WORDS}"
            # (or a full-width comma: "sglang，0.4.0.post2")
            # ("vLLM is 0.6.3", "SGLang is on version 0.4.7": the engine's release said in a clause)
            r"(?:\s+is\s+(?:on\s+)?(?:(?:version|ver\.?|release)\s+)?|"
            r"\s*(?:版本|バージョン|верси[яи])\s*[:：=]?\s*|\s+|\s*\(\s*|-(?=v?\d+\.\d)|\s*==\s*|@"
            # (not "vLLM，1.5倍的吞吐": after a comma a release of three parts only)
            r"|\s*[，、]\s*(?=v?\d+\.\d+\.\d))"
            r"(?:(?:version|ver\.?)\s*)?"
            # or a build's tag naming the backend's version it was built for ("llama.cpp cuda-12.8",
            # a release or image tag), after a space
            r"(?P<v>v?\d+\.\d+(?:\.\d+)*(?:\.post\d+)?|(?<=\s)(?:cuda|cu|rocm|hip|vulkan|sycl)-\d+(?:\.\d+)+)"
            # (a full stop ending the sentence after it is no part of it: "with vllm v0.5.2.")
            r"(?![A-Za-z0-9_%×]|\.\w|\s*(?:[a-zA-Z]+/|[xX×](?!\w)|%|tok|tps|token|ms\b|s\b|sec|second|GB|GiB|MB|MiB))",
            re.I,
        ),
        "version",
    ),
    # an engine's container image and its tag ("ghcr.io/huggingface/text-generation-inference:0.8",
    # "vllm/vllm-openai:v0.6.3", "lmsysorg/sglang:v0.4.1-cu124"): the release it runs
    (
        re.compile(
            # (vLLM's Ascend image too: "quay.io/ascend/vllm-ascend:v0.18.0")
            # (not NVIDIA's NGC images, "nvcr.io/nvidia/vllm:26.04-py3": their tag is the NGC
            # release's year and month, no release of the engine)
            rf"(?<![\w./-])(?!nvcr\.io/)(?:[\w.-]+/)*{_ENGINE_WORDS}(?:-openai|-ascend)?:v?(?P<v>\d+\.\d+(?:\.\d+)*(?:\.post\d+|rc\d+)?)"
            r"(?![\w.]|\.\d)",
            re.I,
        ),
        "version",
    ),
    # an engine's container image by a name of its own, its release in parentheses ("Image:
    # vllm-node-mxfp4 (0.1.dev12777)", "docker image sglang-blackwell (v0.5.2)"): the release it runs
    # (after the word only: "vllm-flash-attn (2.6.2)", "sglang-router (v0.1.4)" are other packages)
    (
        re.compile(
            rf"\b(?:image|container|docker)\b[*_]*\s*(?:[:：=][*_]*\s*)?`?(?:[\w.-]+/)?{_ENGINE_WORDS}"
            r"(?:-[a-z][a-z0-9]*)+`?\s*\(\s*(?P<v>v?\d+\.\d+(?:\.\d+)*(?:\.post\d+|\.?dev\d+|rc\d+)?)\s*\)",
            re.I,
        ),
        "version",
    ),
    # a release's own title or line: "chore: bump v0.4.1.post2", "Release v0.6.0", "bump version to
    # 0.7.3" (the project's version, no engine named: the post's engine)
    (
        re.compile(
            r"(?<![\w-])(?:bump(?:ed|s)?|release[ds]?)(?:\s+(?:version|ver\.?))?(?:\s+to)?\s+"
            r"(?P<v>v\d+\.\d+(?:\.\d+)*(?:\.post\d+)?|\d+\.\d+\.\d+(?:\.post\d+)?)(?![A-Za-z0-9_]|\.\w)",
            re.I,
        ),
        "release",
    ),
    # a setup list's "vLLM: 0.9.1", "SGLang version: 0.4.7", "MLX-LM: v0.24": after a colon, a
    # version in three parts, with its "v" or its word (not a result: "Ollama: 45.2 tok/s")
    (
        re.compile(
            # (a bold key, its colon inside or after the emphasis: "**SGLang version:** 0.4.7",
            # "**KTransformers Version**: 0.5.2")
            rf"(?<![A-Za-z0-9_./-]){_ENGINE_WORDS}\s*(?:(?P<word>version|ver\.?|build|release)\s*)?(?:\*\*|__)?[:：]"
            r"(?:\*\*|__)?\s*`?"
            # (a development build's or a release candidate's suffix, PEP 440's: "0.6.0.dev20240313+5632c61b",
            # "0.5.0rc1"; in inline code or not; in two parts after the word "version": "TensorRT LLM
            # Version:   1.2", "vLLM version: 0.9")
            r"(?P<v>(?(word)v?\d+\.\d+(?:\.\d+)*(?:\.post\d+|\.?dev\d+(?:\+[0-9a-z.]+)?|rc\d+)?|"
            r"(?:v\d+\.\d+(?:\.\d+)*|\d+\.\d+\.\d+(?:\.post\d+|\.?dev\d+(?:\+[0-9a-z.]+)?|rc\d+)?)))`?"
            r"(?![A-Za-z0-9_]|\.\w|\s*(?:tok|t/s|tps|token|ms\b|%))",
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
            rf"(?<![A-Za-z0-9_./-]){_ENGINE_WORDS}\s*(?:commit|@|at)?\s*[:=]?\s*`?(?P<h>{HEX_COMMIT})`?(?![\w.])"
            r"|(?<![\w-])(?:\w+_)?commit[\"']?\s*[:=]\s*[\"']?(?P<k>[0-9a-f]{7,40})(?![\w.])"
            # the word before it: "(commit 4f13cb7)", "at commit `502f680`"; not a fork's ("a llama.cpp
            # fork (commit 4838ffb)": whose build it is, the reader's to say, ``draftnames._BUILD``)
            r"|(?<![\w-])(?<!fork \()(?<!fork, )commit\s+`?"
            rf"(?P<c>{HEX_COMMIT})`?(?![\w./])"
            r"|(?<![\w/#:.=-])(?P<s>[0-9a-f]{40})(?![\w/])"
            # (and its b-number in a clause: "llama.cpp is build b4200", "llama.cpp at b4200")
            r"|(?<![A-Za-z0-9_./-])(?:llama\.cpp|ik_llama\.cpp)\s+(?:is\s+)?(?:(?:on|at)\s+)?(?:build\s+)?"
            r"(?P<n>b?\d{4,5})(?![\w.]|\s?(?:t/s|tok|tokens|ms|%))",
            re.I,
        ),
        "commit",
    ),
]
#: a request's parameters in a code block (a curl body's ``"temperature": 0.1``, Python's
#: ``SamplingParams(temperature=0, max_tokens=256)``, a log's ``temp = 0.800``): the sampling and the cap
#: on the tokens each request generates
REQUEST_SETTINGS: list[tuple[re.Pattern, str]] = [
    (
        re.compile(r"(?<![\w-])[\\\"']*(?:temperature|temp)[\\\"']*\s*[:=]\s*(?P<n>\d+(?:\.\d+)?)(?![\d.])"),
        "sampling",
    ),
    (
        re.compile(
            r"(?<![\w-])[\\\"']*(?:max_tokens|max_new_tokens|max_completion_tokens|n_predict|num_predict|"
            # a benchmark's set output length ("output_len=100", "测试长度: 输入=200, 输出=100")
            r"output_len|输出)[\\\"']*\s*[:=＝]\s*(?P<n>\d+)(?![\d.])"
        ),
        "cap",
    ),
    # a llama.cpp log's context size: "n_ctx_slot = 4096", "llama_context: n_ctx = 8192"
    (re.compile(r"(?<![\w-])n_ctx(?:_slot|_per_seq)?\s*[=:]\s*(?P<n>\d{3,7})(?![\d.])"), "ctx"),
    # ExLlama's report of its context: "-- Sequence length: 2048"
    (re.compile(r"\bsequence\s+length\s*[:=]\s*(?P<n>\d{3,7})(?![\d.])", re.I), "ctx"),
    # a launch script's environment: "MAX_LEN=150000 bash start.sh", "max_model_len=32768"
    (re.compile(r"(?<![\w-])max[-_]?(?:model[-_]?)?len\s*[=:]\s*(?P<n>\d{3,7})(?![\d.])", re.I), "ctx"),
    # a serving benchmark's report of the requests it kept in flight (vLLM's and SGLang's "Maximum
    # request concurrency:  8", "Max request concurrency: 8"; "None" where unbounded: no number)
    (re.compile(r"\bmax(?:imum)?\s+request\s+concurrency\s*:\s*(?P<n>\d{1,5})\b", re.I), "concurrency"),
    # a benchmark report's line of its concurrency alone (LMDeploy's profile_throughput: "concurrency: 256")
    (
        re.compile(r"(?<![\w-])(?:num_|max_)?concurrency\s*[:=]\s*(?P<n>\d{1,5})(?![\d.])", re.I),
        "concurrency",
    ),
    # a speculative run's printed settings (vLLM's offline spec_decode example: "num_spec_tokens     : 5",
    # "batch (max_num_seqs): 8"): the tokens drafted a step, and the sequences run at once (as the
    # command reader takes ``--num-speculative-tokens`` and ``--max-num-seqs``)
    (
        re.compile(
            r"(?<![\w-])num[_ -]spec(?:ulative)?[_ -]tokens[\\\"']*\s*[:=]\s*(?P<n>\d{1,3})(?![\d.])", re.I
        ),
        "block_max",
    ),
    # (the printed batch only: a script's "LLM(max_num_seqs=64)" is a cap, no sequences sent)
    (re.compile(r"(?<![\w-])batch\s*\(\s*max_num_seqs\s*\)\s*:\s*(?P<n>\d{1,5})(?![\d.])"), "concurrency"),
    # a request body's prompt: '"prompt": "描述一下北京的秋天"' (a completion request's text, as sent)
    (re.compile(r"(?<![\w-])[\\\"']prompt[\\\"']\s*:\s*[\\\"'](?P<n>[^\"'\n\\]{1,200})[\\\"']"), "prompt"),
    # a chat request's one user message ('"messages": [{"role": "user", "content": "write a story about
    # dogs"}]', OpenAI's chat completions body; shell-escaped '\\"role\\":\\"user\\"' too): its text, as
    # sent, up to its own closing quote ("What's the capital of France?" keeps its apostrophe)
    (
        re.compile(
            r"(?P<q>\\?[\"'])role(?P=q)\s*:\s*(?P=q)user(?P=q)\s*,\s*(?P=q)content(?P=q)\s*:\s*"
            r"(?P=q)(?P<n>(?:(?!(?P=q))[^\n]){1,200}?)(?P=q)"
        ),
        "prompt",
    ),
    # a run's record of its build: "vllm_commit": "5cbc982", commit=5cbc982
    (
        re.compile(r"(?<![\w-])(?:\w+_)?commit[\\\"']*\s*[:=]\s*[\\\"']*(?P<n>[0-9a-f]{7,40})(?![\w.])"),
        "build",
    ),
]
#: a Python script running Hugging Face transformers: its import or its loader ("from transformers import
#: AutoModelForCausalLM", "AutoModelForCausalLM.from_pretrained(...)"); not a script of an engine
#: (``_SCRIPT_ENGINE``: vLLM's ``LLM(...)``, SGLang's, llama-cpp-python's, whose dtype is their own)
_TRANSFORMERS = re.compile(r"\bfrom\s+transformers\s+import\b|\bAutoModelFor\w+\.from_pretrained\(")
_SCRIPT_ENGINE = re.compile(r"\b(?:from|import)\s+(?:vllm|sglang|llama_cpp|mlx_lm|exllamav2|ctranslate2)\b")
#: the weights' precision a loader is given: "torch_dtype=torch.float16", "dtype=torch.bfloat16"
_TORCH_DTYPE = re.compile(
    r"(?<![\w.])(?:torch_)?dtype\s*=\s*torch\.(?P<t>float16|half|bfloat16|float32|float)\b"
)
_DTYPE_NAMES = {"float16": "FP16", "half": "FP16", "bfloat16": "BF16", "float32": "FP32", "float": "FP32"}
#: a script's prompt assigned once: ``prompt = "请用一句话介绍人工智能。"``
_SCRIPT_PROMPT = re.compile(r"^\s*prompt\s*=\s*(?P<q>[\"'])(?P<v>[^\"'\n]{1,200})(?P=q)\s*$", re.MULTILINE)


#: a llama.cpp setting assigned in a configuration or a binding's call (a code block's ``gpu_layers =
#: 35``, ``ctx_size = 2048``, llama-cpp-python's ``Llama(n_gpu_layers=40, n_ctx=4096, n_batch=512)``,
#: a YAML ``n_ubatch: 128``, ``flash_attn=True``): key -> condition path
_CONFIG_KEYS = {
    # (KoboldCpp's configuration file too: "gpulayers", "contextsize", "blasbatchsize")
    **dict.fromkeys(("n_gpu_layers", "gpu_layers", "gpulayers"), "offload.n_gpu_layers"),
    # (not "context_length": an API's model listing states the model's longest context with it)
    **dict.fromkeys(("n_ctx", "ctx_size", "contextsize"), "ctx"),
    **dict.fromkeys(("n_batch", "batch_size", "blasbatchsize"), "batch"),
    **dict.fromkeys(("n_ubatch", "ubatch_size"), "ubatch"),
    **dict.fromkeys(("n_threads", "threads"), "other.threads"),
    "flash_attn": "flash_attn",
}
_CONFIG = re.compile(
    rf"(?<![\w.-])[\"']?(?P<k>{'|'.join(_CONFIG_KEYS)})[\"']?\s*[:=]\s*(?P<v>\d+|True|False|true|false)(?![\w.])"
)


def config_settings(text: str, out: list[tuple[str, object]]) -> None:
    """Add to ``out`` the llama.cpp settings a configuration in ``text`` (a code block's lines)
    assigns (``_CONFIG``): layers on the GPU, context, batch and ubatch sizes, threads, flash
    attention (``true``/``1``).  A ``batch_size`` is llama.cpp's ``-b`` only beside another of its
    settings (ubatch, layers or context: a serving script's ``batch_size`` is its requests at once,
    no batch); a negative layer count ("all"), ``n_ctx=0`` (the model's own context) or a key given
    two values states none."""
    found: dict[str, set[str]] = {}
    for m in _CONFIG.finditer(text):
        found.setdefault(m.group("k"), set()).add(m.group("v").lower())
    llama = any(k not in ("batch_size", "n_threads", "threads", "flash_attn") for k in found)
    for key, values in found.items():
        if len(values) != 1 or (key == "batch_size" and not llama):
            continue
        value = values.pop()
        path = _CONFIG_KEYS[key]
        if path == "flash_attn" and value in ("true", "false", "1", "0"):
            out.append((path, value in ("true", "1")))  # llama.cpp's log prints "flash_attn = 1"
        elif value not in ("true", "false") and path != "flash_attn" and (path != "ctx" or int(value) > 0):
            out.append((path, int(value)))  # (llama-cpp-python's n_ctx=0: the model's own context)


def script_settings(text: str, out: list[tuple[str, object]]) -> None:
    """Add to ``out`` what a Python benchmark script in ``text`` (a code block's lines) sets: the engine
    where it runs the model with Hugging Face transformers (``_TRANSFORMERS``: ``engine:
    transformers``), the precision its loader is given (``_TORCH_DTYPE``: ``torch.float16`` ->
    ``quant: FP16``) and the prompt it assigns (``_SCRIPT_PROMPT``), each only where the script
    sets one."""
    if not _TRANSFORMERS.search(text) or _SCRIPT_ENGINE.search(text):
        return
    out.append(("engine", "transformers"))
    dtypes = {_DTYPE_NAMES[m.group("t")] for m in _TORCH_DTYPE.finditer(text)}
    if len(dtypes) == 1:
        out.append(("quant", dtypes.pop()))
    prompts = {m.group("v").strip() for m in _SCRIPT_PROMPT.finditer(text)}
    if len(prompts) == 1:
        out.append(("prompt", prompts.pop()))


#: llama-speculative's summary after a run ("n_draft   = 5", "n_predict = 673", "n_drafted = 730",
#: "n_accept  = 526"): its ``n_drafted``/``n_accept`` counts mark it; there ``n_draft`` is the draft
#: size set (``block_max``) and ``n_predict`` the tokens the run generated (``tokens_generated``),
#: not a request's cap
_SPEC_SUMMARY = re.compile(r"(?<![\w-])n_(?:drafted|accept)\s*=\s*\d")
_SPEC_COUNTS = re.compile(r"(?<![\w-])(?P<k>n_draft|n_predict)\s*=\s*(?P<n>\d+)(?![\d.])")


def spec_summary(text: str, out: list[tuple[str, object]]) -> str:
    """Add the draft size and the tokens generated a llama-speculative summary in ``text`` states
    (``_SPEC_SUMMARY``) to ``out``, and its decoding (speculative: the example runs a draft model);
    ``text`` without those lines' counts (no cap of them), or ``text`` unchanged where it holds no
    such summary."""
    if not _SPEC_SUMMARY.search(text):
        return text
    out.append(("decoding", "speculative"))  # the example drafts with a draft model (``-md``)
    for m in _SPEC_COUNTS.finditer(text):
        out.append(("block_max" if m.group("k") == "n_draft" else "tokens_generated", int(m.group("n"))))
    return _SPEC_COUNTS.sub(" ", text)


def grouped_count(text: str) -> int | None:
    """A count written with thousands separators ("131,072", "10,000") where it is one: a power of
    two or a multiple of a thousand, as contexts, depths and batches are; None for digits grouped
    otherwise ("128,256,512", "256,512": a list of settings, no count)."""
    n = int(text.replace(",", ""))
    return n if n & (n - 1) == 0 or n % 1000 == 0 else None


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


#: one more sampling setting a list names right after a temperature (", top_p 0.9", " and seed 1000")
_SAMPLING_NEXT = re.compile(
    # (a slash or a pipe between, as a settings line writes them: "temp 0.6 / top_p 0.95 / top_k 20")
    r"(?:\s*[,/|]\s*|\s+and\s+|\s+)(top[_-]?[pk]|min[_-]?p|seed|repeat[_-]penalty)\s*[=:]?\s*(\d+(?:\.\d+)?)\b",
    re.IGNORECASE,
)


def _sampling_after(text: str) -> str:
    """The sampling settings listed at the start of ``text`` (``_SAMPLING_NEXT``, each in turn, up to
    the first other word), written ", top_p 0.9, seed 1000"."""
    out, pos = "", 0
    while m := _SAMPLING_NEXT.match(text, pos):
        out += f", {m.group(1)} {m.group(2)}"
        pos = m.end()
    return out


#: words right before a count that make it a bound ("above roughly 900 output tokens", "below 256 new
#: tokens", "more than 1000 generated tokens"): a threshold the post names, not the tokens a run generated
_BOUND_BEFORE = re.compile(
    r"\b(?:above|below|over|under|beyond|past|more than|less than|fewer than)\s+"
    r"(?:(?:roughly|about|around|approximately|~)\s*)?$",
    re.I,
)

#: words between a count of tokens and "output" that name no task ("256-token max output")
_NO_TASK = re.compile(
    r"(?:max(?:imum)?|total|average|mean|final|model|text|token|input|output|the|an?)(?:\s+\w+)?", re.I
)


#: an engine's build as llama.cpp's tools print it, after the engine's name in a setup list
#: ("llama.cpp build: 4722 (68ff663a)", "ik_llama.cpp version: 3712 (e5622a2e)"): its number and
#: commit as written (``draftcontext._BUILD_LINE`` reads the same value without the engine)
_ENGINE_BUILD_LINE = re.compile(
    rf"(?<![A-Za-z0-9_./-]){_ENGINE_WORDS}\s+(?:build|version)\s*[:=]\s*`?"
    r"(?P<v>\d{3,5}\s?\((?=[a-f]*\d)[0-9a-f]{7,40}\)|(?=[a-f]*\d)[0-9a-f]{7,40}\s?\(\d{3,5}\))",
    re.I,
)


#: the rest of a clause saying the engine before it did not run ("SGLang 0.5.8 doesn't work with GLM",
#: "vLLM 0.6 fails to load it", "… crashed", "… is not supported")
_FAILED = re.compile(
    # (within its clause: not past a comma or a parenthesis, "vLLM 0.6.3 (I did not test SGLang)")
    r"[^.;!?\n,(]{0,40}?\b(?:does\s*n(?:o|['’])t|did\s*n(?:o|['’])t|won['’]t|can\s*n(?:o|['’])t|could\s*n(?:o|['’])t|"
    r"fail(?:s|ed)?|"
    r"crash(?:es|ed)?|(?:is|was)\s+not\s+supported|unsupported|broke|broken)\b",
    re.IGNORECASE,
)


#: an engine's name (``draftnames``' spellings): a failure after another engine's name is that one's
#: ("vLLM 0.6.3 because SGLang failed to start")
_ENGINE_IN = re.compile(rf"(?<![\w.-])(?:{ENGINE_SPELLINGS})(?![\w])", re.IGNORECASE)


def engine_versions(text: str, tags: bool = True) -> dict[str, str]:
    """engine -> the one version or build ``text`` writes beside its name (the ``version`` patterns
    of ``_SETTINGS``: "vLLM 0.5.0 vs SGLang 0.2.0" -> {"vLLM": "0.5.0", "SGLang": "0.2.0"}; its
    ``commit`` pattern where the engine is named: "llama.cpp `9ba73fd`", "llama.cpp build 5215";
    a tool's build line after the name, ``_ENGINE_BUILD_LINE``: "llama.cpp build: 4722 (68ff663a)"),
    the engine as ``draftnames`` spells it.  A value inside another one of the same engine is that
    one ("5215" in "5215 (5f5e39e1)"); an engine written with two versions ("0.7.0 is slower than
    0.6.8") names none.  ``tags``: llama.cpp's release tags count ("llama.cpp is build b4200"); without,
    only the builds it was read by before them (a heading's "llama.cpp b4980" is its section's)."""
    seen: dict[str, set[str]] = {}
    framework: set[str] = set()  # MLX's own releases, beside mlx-lm's (the engine: SOURCES.md)

    def add(m: re.Match, value: str | None) -> None:
        # the build-number alternative names its engine outside the group ("llama.cpp 5215")
        engine = engine_of_cell(m.group("e") or m.group(0).split()[0], set())
        failed = _FAILED.match(text, m.end())
        if failed and not _ENGINE_IN.search(failed.group(0)):
            return  # "SGLang 0.5.8 doesn't work with GLM on Blackwell": the engine that did not run
        if engine is not None and value:
            spelled = (m.group("e") or m.group(0).split()[0]).lower()
            if engine == "MLX" and spelled == "mlx":
                framework.add(value)  # "mlx 0.32.0 · mlx-lm 0.31.3": the array library's release
            seen.setdefault(engine, set()).add(value)

    for pat, kind in _SETTINGS:
        if kind in ("version", "commit"):
            for m in pat.finditer(text):
                if kind == "commit" and not tags and (m.group("n") or "").startswith("b"):
                    continue
                add(m, m.group("v") if kind == "version" else (m.group("h") or m.group("n")))
    for m in _ENGINE_BUILD_LINE.finditer(text):
        add(m, m.group("v"))
    out = {}
    for e, vs in seen.items():
        if e == "MLX" and vs - framework:
            vs = vs - framework  # mlx-lm's release is the engine's, mlx's a library under it
        whole = {v for v in vs if not any(v != w and v in w for w in vs)}
        if len(whole) == 1:
            out[e] = whole.pop()
    return out


_N = r"(\d[\d,]*)"
#: what was drafted, in words ("drafted tokens", "draft tokens", "drafts", "speculated tokens")
_DRAFTED = r"(?:draft(?:ed|s)?|speculat(?:ed|ive)|proposed|generated)"
#: a count's label naming what was drafted (not "draft": llama.cpp's ``n_draft`` is the draft size)
_DRAFTED_LABEL = r"(?:drafted|generated|proposed|speculated)"
#: acceptance counts written out, the accepted count first (``accept_counts``)
_ACCEPTED_FIRST = re.compile(
    # "181 of 250 drafted tokens accepted", "181 out of 250 draft tokens were accepted", "438/438
    # draft tokens accepted", "141/2211 accepted"
    rf"(?<![\w.,]){_N}\s*(?:of|out of|/)\s*{_N}\s+(?:{_DRAFTED}\s+)?(?:tokens?\s+)?(?:(?:were|was|got)\s+)?"
    r"accepted\b"
    # "333 drafts accepted / 531 generated", "1376 accepted / 2433 generated", "107 accepted of 376
    # drafted"
    rf"|(?<![\w.,]){_N}\s+(?:{_DRAFTED}\s+)?(?:tokens?\s+)?accepted\s*(?:/|of|out of)\s*{_N}"
    rf"\s+(?:{_DRAFTED}|tokens)\b"
    # "accepted 170 / drafted 200", "accepted: 170, drafted: 200", "n_accept = 107, n_drafted = 376"
    rf"|\b(?:n_)?accept(?:ed)?\s*[:=]?\s*{_N}\s*[,/;]?\s*(?:and\s+)?(?:n_)?{_DRAFTED_LABEL}\s*[:=]?\s*{_N}(?![\d.])",
    re.IGNORECASE,
)
#: the same, the drafted count first ("drafted 200, accepted 170", "n_drafted = 376, n_accept = 107")
_DRAFTED_FIRST = re.compile(
    rf"\b(?:n_)?{_DRAFTED_LABEL}\s*[:=]?\s*{_N}\s*[,/;]?\s*(?:and\s+)?(?:n_)?accept(?:ed)?\s*[:=]?\s*{_N}(?![\d.])",
    re.IGNORECASE,
)


#: "k/n" (of tokens) right before a share in parentheses, under an acceptance's label ("MTP draft
#: acceptance: 164/269 tokens (61%)", "Draft acceptance: 164/269 (61%)"): the accepted and drafted
#: counts of that share (``accept_counts`` takes them only after an acceptance's word)
_COUNTS_THEN_SHARE = re.compile(
    rf"(?<![\w.,/]){_N}\s*/\s*{_N}(?:\s+(?:{_DRAFTED}\s+)?tokens?)?(?=\s*[(（]\s*\d+(?:\.\d+)?\s*%\s*[)）])",
    re.IGNORECASE,
)
#: (an acceptance's label right before them: "acceptance: ", "Accepted ", "acceptance rate = ",
#: "acceptance (n-max 3): "; not a clause later, "acceptance was high; context 4096/8192 (50%)")
_ACCEPT_BEFORE = re.compile(
    r"accept\w*(?:\s+(?:rate|ratio))?\s*(?:[(（][^()（）]{0,20}[)）]\s*)?[:：=]?\s*$", re.IGNORECASE
)


def accept_counts(text: str) -> list[tuple[int, int, int, int]]:
    """The acceptance counts ``text`` writes out in words, ``(start, end, accepted, drafted)`` each
    (offsets of the whole phrase): "181 of 250 drafted tokens accepted", "333 drafts accepted / 531
    generated", "accepted 170 / drafted 200", "n_drafted = 376, n_accept = 107" (llama-speculative's
    names, common/speculative.cpp).  Their numbers are counts of one run's drafting, never a draft
    size nor the tokens a run generated (``settings_in_words`` skips them); a count accepted above
    the count drafted is no such pair."""
    found = []
    for pat, accepted_first in ((_ACCEPTED_FIRST, True), (_DRAFTED_FIRST, False)):
        for m in pat.finditer(text):
            a, b = (int(g.replace(",", "")) for g in m.groups() if g)
            accepted, drafted = (a, b) if accepted_first else (b, a)
            if 0 <= accepted <= drafted and drafted > 0:
                found.append((m.start(), m.end(), accepted, drafted))
    for m in _COUNTS_THEN_SHARE.finditer(text):
        accepted, drafted = (int(g.replace(",", "")) for g in m.groups() if g)
        if (
            0 <= accepted <= drafted
            and drafted > 0
            and _ACCEPT_BEFORE.search(text, max(0, m.start() - 50), m.start())
            and not any(a <= m.start() < b for a, b, _, _ in found)
        ):
            found.append((m.start(), m.end(), accepted, drafted))
    return sorted(found)


#: words before a count of tokens that make it another count than the tokens generated
_OTHER_TOKENS = re.compile(r"(?:input|prompt|context|ctx|draft\w*|prefill)\W*(?:of\W+)?$", re.IGNORECASE)


#: a batch size written short ("bs=8", "BS16", "bs 1"): its number
_BS_SIZES = re.compile(r"(?i)(?<![\w-])bs\s*[=:]?\s*(\d{1,5})(?![\d.])")


#: llama.cpp's two batch sizes written as a pair ("batch/microbatch 2048/512", "b/ub 4096/1024",
#: "batch/ubatch: 2048/512"): the logical batch (``-b``), then the physical one (``-ub``)
_BATCH_PAIR = re.compile(
    r"(?<![\w-])(?:-{1,2}|n_)?(?:batch|b)(?:[ _-]size)?\s*/\s*"
    r"(?:-{1,2}|n_)?(?:u-?batch|micro-?batch|ub)(?:[ _-]size)?"
    r"\s*[:=]?\s*(?P<b>\d{1,5})\s*/\s*(?P<u>\d{1,5})(?![\d.])",
    re.IGNORECASE,
)


def layers_setting(text: str, at: int) -> bool:
    """Whether the number at offset ``at`` of ``text`` is the layers a run put on the GPU, a
    setting in words (``_SETTINGS``' "layers": "15 layers offloaded to gtx 1650", "offloaded 48
    layers", "ngl 99"), no result: the corpus writes it as ``offload.n_gpu_layers`` (SOURCES.md)."""
    for pat, kind in _SETTINGS:
        if kind == "layers":
            for m in pat.finditer(text, max(0, at - 40), at + 60):
                if any(m.group(g) is not None and m.start(g) == at for g in m.groupdict()):
                    return True
    return False


def settings_in_words(text: str, out: list[tuple[str, object]]) -> None:
    """Append to ``out`` the ``(path, value)`` settings ``text`` writes in words (``_SETTINGS``: a
    context size, cache types, a temperature, a cap, the tokens generated, a concurrency, a draft
    size, llama.cpp's ubatch, an engine's version or commit) and a draft size a list picks
    (``_picked_size``)."""
    counted = [(a, b) for a, b, _, _ in accept_counts(text)] if re.search(r"accept", text, re.I) else []
    if "/" in text:
        pairs = {(int(m.group("b")), int(m.group("u"))) for m in _BATCH_PAIR.finditer(text)}
        if len(pairs) == 1:  # (two pairs in one text are two runs' settings: each number's, not the text's)
            b, u = pairs.pop()
            out += [("batch", b), ("ubatch", u)]
        # (blanked, offsets kept: "microbatch 2048/512" is no ubatch of 2048)
        text = _BATCH_PAIR.sub(lambda m: " " * len(m.group(0)), text)
    for pat, kind in _SETTINGS:
        for m in pat.finditer(text):
            if kind in ("block", "generated") and any(a < m.end() and m.start() < b for a, b in counted):
                continue  # "181 of 250 drafted tokens accepted", "333 accepted / 531 generated": counts
            if kind in ("kv", "kv-side") and re.search(
                r"(?i)\b(?:without|no|not|w/o|disabled?)\s+(?:the\s+|an?\s+)?$",
                text[max(0, m.start() - 16) : m.start()],
            ):
                continue  # "Run B without FP8 KV": the cache type the run did not have
            if kind == "ctx":
                said = m.group("n")
                v = grouped_count(said) if "," in said else count(said, m.group("k"))
                if v is not None and v >= 256:
                    out.append(("ctx", v))
            elif kind == "kv":
                # "FP16 KV": ggml's type names (f16, f32) for the same cache types
                said = m.groupdict().get("e") or m.group("t") or ""
                t = re.sub(r"^fp(16|32)$", r"f\1", said.lower().replace(" ", "_"))
                out += [("type_k", t), ("type_v", t)]
            elif kind == "sampling":
                if float(m.group("n")) <= 2:
                    # the settings listed after it: "temperature 0.0, top_p 0.9, seed 1000"
                    out.append(("sampling", f"temperature {m.group('n')}{_sampling_after(text[m.end() :])}"))
            elif kind == "block":
                out.append(("block_max", int(m.group("n") or m.group("m") or m.group("l") or m.group("h"))))
            elif kind == "generated":
                if _BOUND_BEFORE.search(text, max(0, m.start() - 40), m.start()):
                    continue  # "above roughly 900 output tokens": a threshold, no run's length
                if m.group("z") and _OTHER_TOKENS.search(text, max(0, m.start() - 30), m.start()):
                    continue  # "Input 2048 tokens, greedy", "Draft 16 tokens greedy": not generated
                told = next(
                    g for g in m.group("n", "m", "o", "g", "b", "t", "u", "L", "x", "w", "y", "z", "k") if g
                )
                out.append(("tokens_generated", int(told) * (1000 if m.group("gk") else 1)))
                task = (m.group("task") or "").strip()
                if task and not NOT_A_PROMPT.match(task) and not _NO_TASK.fullmatch(task):
                    out.append(("prompt", task))  # "a 256-token summarization output": its task
            elif kind == "isl":
                n, k = (m.group("n"), m.group("k")) if m.group("n") else (m.group("n2"), m.group("k2"))
                out.append(("prompt", f"{n}{'K' if k else ''} tokens"))
            elif kind == "osl":
                out.append(("tokens_generated", int(m.group("n") or m.group("n2") or m.group("n3"))))
            elif kind == "isl/osl":
                out.append(("prompt", f"{m.group('n')}{'K' if m.group('k') else ''} tokens"))
                generated = count(m.group("o"), m.group("ok")) if m.group("ok") else int(m.group("o"))
                if generated is not None:
                    out.append(("tokens_generated", generated))
            elif kind == "prompt set":
                sentence = re.split(r"[.!?;\n]\s", text[max(0, m.start() - 80) : m.start()])[-1]
                if _TRAINING.search(sentence):
                    # "trained on ShareGPT samples", "EAGLE3, trained by us (dataset: ShareGPT)": the
                    # drafter's training data, no prompts run
                    continue
                out.append(("prompt", m.group("d") or m.group("d2") or m.group("d3")))
            elif kind == "greedy":
                out.append(("sampling", "greedy"))
            elif kind == "request_rate":
                rate = float(m.group("n"))
                out.append(("other.request_rate", int(rate) if rate.is_integer() else rate))
            elif kind == "ubatch":
                out.append(("ubatch", int(m.group("n"))))
            elif kind == "cap":
                out.append(
                    ("cap", int(m.group("n") or m.group("o") or m.group("c") or m.group("e") or m.group("m")))
                )
            elif kind == "concurrency":
                out.append(("concurrency", int(m.group("n"))))
            elif kind == "layers":
                out.append(("offload.n_gpu_layers", int(next(g for g in m.groups() if g))))
            elif kind == "kv-side":
                t = re.sub(r"^fp(16|32)$", r"f\1", m.group("t").lower())
                side = (m.group("s") or m.group("c")).lower()
                out.append((f"type_{side}", t))
            elif kind == "concurrent":
                told = next(g for g in m.group("n", "m", "s", "z", "y", "j", "jj", "p", "c") if g)
                n = _COUNT_OF[told.lower()] if told.lower() in _COUNT_OF else int(told)
                if n >= 1:
                    out.append(("concurrency", n))
            elif kind == "batch":
                size = int(m.group("n") or m.group("b"))
                if size > 1:
                    out.append(("batch", size))
            elif kind == "single":
                if re.match(r"(?i)bs\b|bs\s*[=:]?\s*1", m.group(0)) and len(set(_BS_SIZES.findall(text))) > 1:
                    # "BS16 gave 600 tok/s, … and BS1 gave 40 tok/s": one of several batches, each its
                    # own number's, none of them the sentence's
                    continue
                out.append(("concurrency", 1))
            elif kind in ("version", "release"):
                out.append(("build", m.group("v")))
            elif kind == "commit":
                out.append(
                    ("build", m.group("h") or m.group("k") or m.group("c") or m.group("s") or m.group("n"))
                )
    _picked_size(text, out)
    if ("sampling", "greedy") in out:
        # "Greedy decoding (temperature = 0)": a temperature of 0 is the greedy choice, one sampling
        out[:] = [
            x for x in out if not (x[0] == "sampling" and re.fullmatch(r"temperature 0(?:\.0*)?", str(x[1])))
        ]


#: a list of draft sizes the post tried ("4, 5, and 6 draft tokens", "2 or 3 speculative tokens"), each a bare
#: number, and the words after it that pick one for the results shown ("The results for 5 are
#: below", "numbers at 4", "figures with 3"): the picked size is the block's ``block_max``
_SIZE_LIST = re.compile(r"(?<![\w.])(?P<list>\d{1,3}(?:\s*,\s*\d{1,3})*,?\s+(?:and|or)\s+\d{1,3})\s+$", re.I)
_SIZE_WORDS = re.compile(r"\b(?:draft(?:ed)?|speculative)\s+tokens\b", re.I)
_SIZE_PICK = re.compile(
    r"\b(?:results?|numbers?|figures?|runs?|rows?|table)\s+(?:below\s+)?(?:are\s+)?(?:for|with|at)\s+"
    r"(?P<n>\d{1,3})(?![\w.,%]|\s*(?:[-–]|to)\s*\d)",
    re.I,
)


def _picked_size(text: str, out: list[tuple[str, object]]) -> None:
    """A draft size the words pick from a list of sizes named before (``_SIZE_LIST``, then
    ``_SIZE_PICK``): ``("block_max", n)`` appended to ``out`` where ``n`` is one of the list's
    numbers; a number outside the list (a concurrency, a count) is none."""
    for w in _SIZE_WORDS.finditer(text):
        # the list right before the words, read in a window (a long run of numbers stays linear)
        m = _SIZE_LIST.search(text[max(0, w.start() - 60) : w.start()])
        if m is None:
            continue
        sizes = {int(x) for x in re.findall(r"\d+", m.group("list"))}
        pick = _SIZE_PICK.search(text, w.end())
        if pick and int(pick.group("n")) in sizes:
            out.append(("block_max", int(pick.group("n"))))
            return


#: words that name no one prompt: before the word "prompt" ("the same prompt"), or heading a column
#: of rates ("this box", "my run": a setup or a source)
NOT_A_PROMPT = re.compile(
    r"^(?:same|this|that|each|every|one|first|second|last|long|longer|short|shorter|system|user|"
    r"different|given|whole|entire|full|my|your|our|their|any|new|initial|original|large|small)\b",
    re.IGNORECASE,
)
