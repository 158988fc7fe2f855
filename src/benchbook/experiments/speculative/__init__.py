"""Speculative decoding through llama-server: same-session baseline, draft models and ngram types, a
``--spec-draft-n-max`` sweep and the llama-bench cost model (``run``); α, τ, speedups, output equality
and memory per draft token (``analysis``); numbers, charts and caveats (``report``)."""
