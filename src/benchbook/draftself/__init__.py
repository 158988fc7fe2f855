"""Draft-self decoding with a tiny block-diffusion model, gpt-fast-sized files:

* ``model.py``   — TinyLM: causal and block attention modes, static KV cache (rollback = length
                   reset), MoE feed-forward (top-K of E + shared expert) with router choices logged.
* ``data.py``    — the generated word-level corpus (byte-for-byte reproducible) and prompts.
* ``train.py``   — mixed next-token + masked-block objective; cached checkpoint; stage ``draftself_train``.
* ``decode.py``  — ``prefill``, ``decode_one_token``, ``draft_block``, ``verify``,
                   ``verify_sequential``, ``accept``; ``generate_ar`` and ``generate_draftself``.
* ``experts.py`` — distinct experts per pass and the independent-routing bound.
* ``store.py``   — the checkpoints measurements used, kept by sha256 in ``data/artifacts/checkpoints``.

The measurement session, its analysis and report are the experiment ``benchbook.experiments.draftself``.
"""
