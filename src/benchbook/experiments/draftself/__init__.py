"""Draft-self decoding with our tiny block-diffusion model (``benchbook.draftself``): AR baseline and
draft-self variants interleaved in one session (``run``); τ, α̂, pass costs, break-even, speedups and
expert loads (``analysis``); numbers, charts and caveats (``report``)."""
