"""Draft-self on an accelerator, on natural text (issue 15, item 3).

One session (``run.measure``, on a CUDA host) reads the pinned llama.cpp source archive
(``draftself.natural``: Markdown prose and C/C++/Python code, split by file into train and held-out),
trains a byte-level BPE tokenizer and a dense draft-self model on the train split for a wall-time budget
(``draftself.train_natural``), then measures plain greedy AR and draft-self (one-pass block draft,
batched verify) on held-out prompts, interleaved, in the same session.  Records:

* ``benchbook.draftself_gpu.train`` (``TRAIN_KIND``, ``<host_id>.train.jsonl``): the corpus (archive
  sha256, corpus sha256, files per split, held-out paths), tokenizer sha256, checkpoint sha256, model
  and train configs, planned and run steps, training wall time, loss curve, held-out loss, GPU, torch.
* ``benchbook.draftself.run`` (``<host_id>.jsonl``, in the shared session): one decode of one prompt by
  one configuration, the same kind as the CPU draft-self runs, so that the CPU analysis (τ, α̂, pass
  costs, break-even τ, speedup over prompts) reads them unchanged.
"""

import polars as pl

from benchbook.schemas import Field, Kind, declare, free

S, Int, F, B, L = pl.String, pl.Int64, pl.Float64, pl.Boolean, pl.List

#: Experiment folder ``data/raw/<name>/`` and registry name; the run records keep ``experiment``
#: ``draftself`` (they are that experiment's records, on another host and corpus).
EXPERIMENT = "draftself_gpu"
TRAIN_SCHEMA = "benchbook.draftself_gpu.train"

TRAIN_KIND = declare(
    Kind(
        "draftself_gpu_train",
        TRAIN_SCHEMA,
        1,
        "one training of the natural-text draft-self model (corpus, tokenizer, checkpoint, curve)",
        (
            Field("session_id", S, "the measurement session that used this checkpoint"),
            Field("experiment", S, "draftself_gpu"),
            Field("host_id", S, "host snapshot id"),
            Field("git_commit", S, "benchbook's git HEAD", nullable=True),
            Field("git_dirty", B, "code or params differ from HEAD", nullable=True),
            Field("started_at", S, "UTC ISO 8601"),
            Field("ended_at", S, "UTC ISO 8601"),
            Field("device", S, "torch device name, e.g. 'NVIDIA H200'"),
            Field("torch_version", S, "torch.__version__"),
            Field("tokenizers_version", S, "tokenizers.__version__"),
            free("corpus", "natural.Corpus.summary(): archive, sha256s, files and chars per split, held-out"),
            Field("tokenizer_sha256", S, "sha256 of the tokenizer JSON"),
            Field("tokenizer_seconds", F, "wall time of BPE training", "s", name_kept=True),
            Field("vocab_size", Int, "tokenizer vocabulary"),
            Field("model_sha256", S, "checkpoint sha256 (torch.save file)"),
            Field("checkpoint_bytes", Int, "checkpoint size", "bytes"),
            Field("n_params", Int, "model parameters (tied embedding counted once)"),
            Field("planned_steps", Int, "steps planned from the probe's step time"),
            Field("steps", Int, "steps run"),
            Field("train_seconds", F, "training wall time (probe included)", "s", name_kept=True),
            Field("tokens_seen", Int, "clean-window tokens over all steps"),
            Field("train_tokens", Int, "tokens of the train split"),
            Field("held_out_tokens", Int, "tokens of the held-out split"),
            Field("final_loss_next", F, "next-token CE (nats), mean over the last log window"),
            Field("final_loss_masked", F, "masked-slot CE (nats), mean over the last log window"),
            Field("held_out_loss_next", F, "next-token CE (nats) on held-out windows"),
            Field("train_loss_next_eval", F, "next-token CE (nats) on train windows, same method"),
            free("curve", "[{step, loss_next, loss_masked, lr, elapsed_s}]", py=list),
            free("model_config", "ModelConfig"),
            free("train_config", "NaturalTrainConfig"),
        ),
        open=True,
        written_by=("experiments/draftself_gpu/run.py:measure",),
        read_by=("experiments/draftself_gpu/analysis.py:load_train",),
    )
)
