"""Train the tiny model on a mixed objective, once per machine (cached outside the repo).

Objective (block-diffusion style, after Arriola et al. 2025, "Block Diffusion", BD3-LM): each training
row is the clean window x (T tokens) followed by a noisy copy of it (T tokens), both at positions
0..T-1.  The noisy copy is cut into blocks of b tokens (b drawn per batch in 2..max_block, with a
random phase so that blocks start anywhere); the first token of each block (the anchor) stays clean
and the others are replaced by MASK, all of them (probability ``p_full_mask``) or each with a
probability drawn per block (for iterative filling).  Attention (``train_mask``):

* clean -> clean: causal; its logits give the next-token loss;
* noisy -> clean: only positions before the noisy token's block (the committed prefix);
* noisy -> noisy: the whole block, both directions; logits at MASK slots give the masked-slot loss.

So one forward trains both decoder modes exactly as they run at inference (``model.TinyLM``).
Loss = CE(next token) + CE(masked slots) + ``aux_coef`` · Switch load-balancing loss.

Deterministic for a given seed and thread count (``torch.manual_seed`` + a seeded generator).
"""

from __future__ import annotations

import hashlib
import json
import math
import shutil
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import torch
import torch.nn.functional as F

from benchbook import atomicfile

from . import data
from .model import ModelConfig, TinyLM, n_params, save

SCHEMA_VERSION = 1
#: Checkpoints that travel through the DVC remote (``benchbook artifacts add``; ``dvc pull``), relative
#: to the repository root (stages run there): ``<key>.pt`` (DVC-tracked) and ``<key>.json`` (its summary).
PULLED_DIR = Path("data/artifacts/draftself")


@dataclass
class TrainConfig:
    seed: int = 0
    corpus_seed: int = 0
    n_docs: int = 20000
    seq_len: int = 64
    batch_size: int = 32
    steps: int = 600
    lr: float = 3e-3
    warmup: int = 50
    max_block: int = 16  # anchor + up to 15 masks, as in the fork
    p_full_mask: float = 0.5
    aux_coef: float = 0.01
    threads: int = 1  # 1 is robust on a shared 2-core host (2 threads spin-wait under load)
    log_every: int = 25
    model: dict = field(
        default_factory=lambda: {
            "d_model": 128,
            "n_layers": 4,
            "n_heads": 4,
            "dense": False,
            "d_ff": 256,
            "n_experts": 16,
            "top_k": 2,
            "d_expert": 64,
        }
    )


def train_mask(T: int, b: int, phase: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Attention mask [2T, 2T] (True = may attend) and the block start of each position [T].

    Block of position i: (i + b - phase) // b, so blocks start at phase, phase + b, ... (the first
    block may be shorter)."""
    i = torch.arange(T)
    blk = (i + b - phase) // b
    start = torch.zeros(T, dtype=torch.long)
    for p in range(T):
        start[p] = p if p == 0 or blk[p] != blk[p - 1] else start[p - 1]
    cc = i[None, :] <= i[:, None]
    nc = blk[None, :] < blk[:, None]
    nn_ = blk[None, :] == blk[:, None]
    top = torch.cat([cc, torch.zeros(T, T, dtype=torch.bool)], 1)
    bot = torch.cat([nc, nn_], 1)
    return torch.cat([top, bot], 0), start


def make_batch(stream: torch.Tensor, cfg: TrainConfig, mask_id: int, g: torch.Generator):
    """(idx [B, 2T], targets [B, 2T] with -100 where no loss, attn mask [2T, 2T], pos [2T])."""
    T, B = cfg.seq_len, cfg.batch_size
    offs = torch.randint(0, len(stream) - T - 1, (B,), generator=g)
    x = torch.stack([stream[o : o + T + 1] for o in offs.tolist()])  # [B, T+1]
    clean, nxt = x[:, :T], x[:, 1:]
    b = int(torch.randint(2, cfg.max_block + 1, (1,), generator=g))
    phase = int(torch.randint(0, b, (1,), generator=g))
    mask, start = train_mask(T, b, phase)
    is_anchor = start == torch.arange(T)  # [T]
    full = torch.rand(B, 1, generator=g) < cfg.p_full_mask
    rate = torch.rand(B, 1, generator=g)
    masked = (full | (torch.rand(B, T, generator=g) < rate)) & ~is_anchor[None, :]
    noisy = clean.masked_fill(masked, mask_id)
    tgt_noisy = clean.masked_fill(~masked, -100)
    idx = torch.cat([clean, noisy], 1)
    tgt = torch.cat([nxt, tgt_noisy], 1)
    pos = torch.cat([torch.arange(T), torch.arange(T)])
    return idx, tgt, mask, pos


def train(cfg: TrainConfig, log=print) -> tuple[TinyLM, dict]:
    """Train from scratch; returns the model and a summary (losses, time, sizes)."""
    torch.set_num_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    g = torch.Generator().manual_seed(cfg.seed)
    tok = data.Tokenizer()
    text = data.make_corpus(cfg.corpus_seed, cfg.n_docs)
    stream = data.corpus_tensor(text, tok)
    mcfg = ModelConfig(vocab_size=len(tok.vocab), mask_id=tok.mask_id, **cfg.model)
    model = TinyLM(mcfg)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr, betas=(0.9, 0.95), weight_decay=0.0)
    T = cfg.seq_len
    curve, t0 = [], time.perf_counter()
    ema = None
    for step in range(1, cfg.steps + 1):
        lr = cfg.lr * min(1.0, step / cfg.warmup) * 0.5 * (1 + math.cos(math.pi * step / cfg.steps))
        for group in opt.param_groups:
            group["lr"] = lr
        idx, tgt, mask, pos = make_batch(stream, cfg, tok.mask_id, g)
        logits = model.forward_masked(idx, pos, mask)
        V = logits.shape[-1]
        ar = F.cross_entropy(logits[:, :T].reshape(-1, V), tgt[:, :T].reshape(-1))
        mk = F.cross_entropy(logits[:, T:].reshape(-1, V), tgt[:, T:].reshape(-1), ignore_index=-100)
        # set by every MoE layer's forward in training mode
        aux = sum((m.last_aux for m in model.moe_layers() if m.last_aux is not None), torch.tensor(0.0))
        loss = ar + mk + cfg.aux_coef * aux
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        cur = torch.tensor([ar.item(), mk.item(), aux.item()])
        ema = cur if ema is None else 0.95 * ema + 0.05 * cur
        if step % cfg.log_every == 0 or step == cfg.steps:
            row = {
                "step": step,
                "loss_next": round(ema[0].item(), 4),
                "loss_masked": round(ema[1].item(), 4),
                "loss_aux": round(ema[2].item(), 4),
                "lr": lr,
                "elapsed_s": round(time.perf_counter() - t0, 1),
            }
            curve.append(row)
            log(row)
    model.eval()
    summary = {
        "train_seconds": round(time.perf_counter() - t0, 2),
        "curve": curve,
        "final_loss_next": curve[-1]["loss_next"],
        "final_loss_masked": curve[-1]["loss_masked"],
        "n_params": n_params(model),
        "corpus_sha256": data.corpus_sha256(text),
        "corpus_tokens": len(stream),
        "model_config": mcfg.to_dict(),
        "train_config": asdict(cfg),
        "torch_version": torch.__version__,
    }
    return model, summary


def file_sha256(path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def checkpoint_key(cfg: TrainConfig) -> str:
    """Cache key: train config + corpus sha256 + torch version (floating-point results depend on it)."""
    from benchbook.records import stable_hash

    text = data.make_corpus(cfg.corpus_seed, cfg.n_docs)
    return stable_hash(
        {
            "train": asdict(cfg),
            "corpus_sha256": data.corpus_sha256(text),
            "vocab": data.VOCAB,
            "torch": torch.__version__,
            "v": SCHEMA_VERSION,
        }
    )


def ensure_checkpoint(cfg: TrainConfig, cache: Path | None = None, log=print) -> tuple[Path, dict, bool]:
    """The checkpoint for ``cfg``: from ``<cache>/draftself/<key>.pt``, else copied there from
    ``PULLED_DIR/<key>.pt`` (+ ``<key>.json``, the summary) when ``dvc pull`` brought it, else trained now.

    Returns (path, summary, trained_now).  The summary (losses, training time) is kept next to the
    checkpoint as ``<key>.json`` so a cache hit reports the same figures.
    """
    from benchbook.paths import cache_dir

    d = (cache or cache_dir()) / "draftself"
    d.mkdir(parents=True, exist_ok=True)
    key = checkpoint_key(cfg)
    pt, meta = d / f"{key}.pt", d / f"{key}.json"
    pulled = PULLED_DIR / f"{key}.pt"
    if not (pt.exists() and meta.exists()) and pulled.exists() and pulled.with_suffix(".json").exists():
        log(f"checkpoint {key}: from {pulled} (pulled from the DVC remote) into {d}")
        tmp = pt.with_suffix(".tmp")
        shutil.copyfile(pulled, tmp)
        tmp.replace(pt)
        atomicfile.write_text(meta, pulled.with_suffix(".json").read_text())
    if pt.exists() and meta.exists():
        return pt, json.loads(meta.read_text()), False
    model, summary = train(cfg, log=log)
    summary["key"] = key
    tmp = pt.with_suffix(".tmp")
    save(model, tmp, {"key": key})
    tmp.replace(pt)
    atomicfile.write_text(meta, json.dumps(summary, indent=1))
    return pt, summary, True


#: ``draftself.train.model`` keys params.yaml may set (``ModelConfig``'s, less what the tokenizer fixes)
_MODEL_KEYS = {
    k: f.type for k, f in ModelConfig.__dataclass_fields__.items() if k not in ("vocab_size", "mask_id")
}


def _checked(section: str, given: object, declared: dict[str, object]) -> dict:
    """``given`` (a params.yaml mapping) checked against ``declared`` (``{key: type name}`` of a
    dataclass): every key declared (an unknown one: ``errors.check_keys``, naming the nearest declared
    spelling), every value of its type (an int where a float is declared is fine; a bool is no number).

    Raises:
        ParamsError: naming ``params.yaml <section>.<key>``, what is wrong and the fix.
    """
    from benchbook.errors import ParamsError, check_keys

    if given is None:
        return {}
    if not isinstance(given, dict):
        raise ParamsError(
            f"params.yaml `{section}` must be a mapping (key: value lines indented under it), got "
            f"{type(given).__name__}; fix: write its keys ({', '.join(sorted(declared))}) under `{section}:`"
        )
    check_keys(given, declared, "params.yaml", section)
    for key, value in given.items():
        want = str(declared[key]).replace("<class '", "").replace("'>", "")
        words = {"int": "an integer", "float": "a number", "bool": "true or false", "dict": "a mapping"}
        ok = {
            "int": isinstance(value, int) and not isinstance(value, bool),
            "float": isinstance(value, (int, float)) and not isinstance(value, bool),
            "bool": isinstance(value, bool),
            "dict": isinstance(value, dict),
        }.get(want, True)
        if not ok:
            raise ParamsError(
                f"params.yaml `{section}.{key}` is {value!r} ({type(value).__name__}); fix: write "
                f"{words.get(want, want)}"
            )
    return dict(given)


def config_from_params(sec: dict) -> TrainConfig:
    """TrainConfig from the ``draftself.train`` section of params.yaml (missing keys: defaults).

    Raises:
        ParamsError: an unknown key (the nearest declared spelling named) or a value of the wrong type,
            in ``draftself.train`` or ``draftself.train.model``.
    """
    declared = {k: f.type for k, f in TrainConfig.__dataclass_fields__.items()}
    sec = _checked("draftself.train", sec, declared)
    model_given = _checked("draftself.train.model", sec.get("model"), _MODEL_KEYS)
    base = TrainConfig()
    model = {**base.model, **model_given}
    return TrainConfig(**{**{k: v for k, v in sec.items() if k != "model"}, "model": model})


def main(argv=None) -> int:
    """DVC stage ``draftself_train``: make sure the checkpoint exists, write its manifest.

    The checkpoint lives in the per-machine cache; the stage output is a small JSON manifest
    (path, sha256, size, losses, training time, configs) that the measurement stage reads.
    """
    import argparse

    import yaml

    from benchbook import errors, provenance
    from benchbook.records import utc_now
    from benchbook.schemas import build

    ap = argparse.ArgumentParser(prog="python -m benchbook.draftself.train", description=main.__doc__)
    ap.add_argument("--params", default="params.yaml")
    ap.add_argument("--section", default="draftself")
    ap.add_argument("--out", default="data/draftself/checkpoint.json")
    ap.add_argument("--root", default=".")
    a = ap.parse_args(argv)
    sec = ((yaml.safe_load(Path(a.params).read_text()) or {}).get(a.section) or {}).get("train", {})
    try:
        cfg = config_from_params(sec)
    except errors.ParamsError as e:  # one line, not a traceback (before: TypeError on a typo)
        return errors.report(e)
    pt, summary, trained = ensure_checkpoint(cfg, log=lambda r: print(r, flush=True))
    snap = provenance.host_snapshot()
    manifest = build(
        "draftself_checkpoint",
        sha256=file_sha256(pt),
        bytes=pt.stat().st_size,
        path=str(pt),
        key=checkpoint_key(cfg),
        trained_now=trained,
        host_id=snap.host_id,
        **provenance.git_state(a.root),
        written_at=utc_now(),
        **{k: v for k, v in summary.items() if k != "key"},
    )
    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    atomicfile.write_text(out, json.dumps(manifest, indent=1) + "\n")
    print(
        f"checkpoint {pt} sha256 {manifest['sha256'][:16]} ({manifest['bytes'] / 2**20:.1f} MiB); "
        f"manifest {out}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
