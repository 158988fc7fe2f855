"""Train the draft-self model on natural text (``natural``) on one accelerator, for a wall-time budget.

The objective and the batches are ``train``'s (clean window + block-masked copy, ``train.make_batch``;
loss = CE(next token) + CE(masked slots)); what differs: the corpus (token ids of the natural-text
train split), a dense model, bf16 autocast on CUDA, and the length of training, which is planned from
the measured step time: after ``probe_steps`` steps at warm-up learning rate, the step count is
``min(max_steps, budget_s / mean time of steps 6..probe_steps)`` and the cosine schedule runs to that
count.  The planned count, the wall time and the loss curve are returned; a run is therefore reproducible from
its recorded step count (``fixed_steps``), not from the budget.

Held-out loss: next-token CE over ``eval_batches`` windows of the held-out split (fixed offsets).
"""

from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass, field

import torch
import torch.nn.functional as F

from .model import ModelConfig, TinyLM, n_params
from .train import TrainConfig, make_batch


@dataclass
class NaturalTrainConfig:
    seed: int = 0
    vocab_size: int = 8192
    seq_len: int = 256
    batch_size: int = 64
    lr: float = 1e-3
    weight_decay: float = 0.0  # AdamW's decoupled weight decay
    warmup: int = 100
    max_block: int = 16  # anchor + up to 15 masks, as in the fork
    p_full_mask: float = 0.5
    budget_s: float = 270.0  # training wall time the step count is planned for
    max_steps: int = 20000
    fixed_steps: int | None = None  # set: train exactly this many steps (no planning)
    probe_steps: int = 30  # steps 6..probe_steps are timed (> 5)
    log_every: int = 50
    eval_batches: int = 16
    bf16: bool = True  # autocast to bfloat16 on CUDA (weights stay float32)
    model: dict = field(
        default_factory=lambda: {
            "d_model": 512,
            "n_layers": 8,
            "n_heads": 8,
            "dense": True,
            "d_ff": 2048,
            "max_seq_len": 512,
        }
    )


def _losses(model: TinyLM, idx, tgt, mask, pos, T: int):
    logits = model.forward_masked(idx, pos, mask).float()
    V = logits.shape[-1]
    ar = F.cross_entropy(logits[:, :T].reshape(-1, V), tgt[:, :T].reshape(-1))
    mk = F.cross_entropy(logits[:, T:].reshape(-1, V), tgt[:, T:].reshape(-1), ignore_index=-100)
    return ar, mk


def held_out_loss(model: TinyLM, stream: torch.Tensor, cfg: NaturalTrainConfig, device) -> float:
    """Mean next-token CE (nats) over ``eval_batches`` windows at evenly spaced offsets of ``stream``."""
    T = cfg.seq_len
    n = cfg.eval_batches
    offs = [int(i * (len(stream) - T - 1) / max(1, n)) for i in range(n)]
    x = torch.stack([stream[o : o + T + 1] for o in offs]).to(device)
    causal = torch.ones(T, T, dtype=torch.bool, device=device).tril()
    with torch.no_grad(), _autocast(device, cfg.bf16):
        logits = model.forward_masked(x[:, :T], torch.arange(T, device=device), causal).float()
    return float(F.cross_entropy(logits.reshape(-1, logits.shape[-1]), x[:, 1:].reshape(-1)))


def _autocast(device, bf16: bool):
    on = bf16 and torch.device(device).type == "cuda"
    return torch.autocast("cuda", dtype=torch.bfloat16, enabled=on)


def _sync(device) -> None:
    if torch.device(device).type == "cuda":
        torch.cuda.synchronize(device)


def train(
    cfg: NaturalTrainConfig,
    train_ids: torch.Tensor,
    held_ids: torch.Tensor,
    mask_id: int,
    device: str = "cuda",
    log=print,
) -> tuple[TinyLM, dict]:
    """Train from scratch on ``train_ids`` [N] int64 (CPU); returns the model (eval mode, float32, on
    ``device``) and a summary: planned and run steps, train_seconds, curve, held-out loss, sizes.

    Raises ValueError when the stream is shorter than one window."""
    if len(train_ids) <= cfg.seq_len + 1:
        raise ValueError(f"train stream of {len(train_ids)} tokens; need > seq_len + 1 = {cfg.seq_len + 1}")
    torch.manual_seed(cfg.seed)
    g = torch.Generator().manual_seed(cfg.seed)
    batch_cfg = TrainConfig(
        seq_len=cfg.seq_len, batch_size=cfg.batch_size, max_block=cfg.max_block, p_full_mask=cfg.p_full_mask
    )
    mcfg = ModelConfig(vocab_size=cfg.vocab_size, mask_id=mask_id, **cfg.model)
    model = TinyLM(mcfg).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr, betas=(0.9, 0.95), weight_decay=cfg.weight_decay)
    T = cfg.seq_len
    planned = cfg.fixed_steps
    curve: list[dict] = []
    window = torch.zeros(2, device=device)
    n_window = 0
    _sync(device)
    t0 = t_probe = time.perf_counter()
    step = 0
    while planned is None or step < planned:
        step += 1
        warm = min(1.0, step / cfg.warmup)
        lr = cfg.lr * warm * (0.5 * (1 + math.cos(math.pi * step / planned)) if planned else 1.0)
        for group in opt.param_groups:
            group["lr"] = lr
        batch = make_batch(train_ids, batch_cfg, mask_id, g)
        idx, tgt, mask, pos = (t.to(device, non_blocking=True) for t in batch)
        with _autocast(device, cfg.bf16):
            ar, mk = _losses(model, idx, tgt, mask, pos, T)
        loss = ar + mk
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        window += torch.stack([ar.detach(), mk.detach()])
        n_window += 1
        if planned is None and step == 5:  # the first steps include one-off start-up costs
            _sync(device)
            t_probe = time.perf_counter()
        if planned is None and step == cfg.probe_steps:
            _sync(device)
            per_step = (time.perf_counter() - t_probe) / (step - 5)
            planned = max(step + 1, min(cfg.max_steps, int(cfg.budget_s / per_step)))
            log(f"probe: {per_step * 1000:.1f} ms/step; planned {planned} steps for {cfg.budget_s} s")
        if step % cfg.log_every == 0 or step == planned:
            w = (window / n_window).tolist()
            row = {
                "step": step,
                "loss_next": round(w[0], 4),
                "loss_masked": round(w[1], 4),
                "lr": lr,
                "elapsed_s": round(time.perf_counter() - t0, 2),
            }
            curve.append(row)
            log(row)
            window.zero_()
            n_window = 0
    _sync(device)
    seconds = time.perf_counter() - t0
    model.eval()
    held = held_out_loss(model, held_ids, cfg, device)
    train_loss = held_out_loss(model, train_ids, cfg, device)
    summary = {
        "planned_steps": planned,
        "steps": step,
        "train_seconds": round(seconds, 2),
        "curve": curve,
        "final_loss_next": curve[-1]["loss_next"],
        "final_loss_masked": curve[-1]["loss_masked"],
        "held_out_loss_next": round(held, 4),
        "train_loss_next_eval": round(train_loss, 4),
        "n_params": n_params(model),
        "train_tokens": len(train_ids),
        "held_out_tokens": len(held_ids),
        "tokens_seen": step * cfg.batch_size * T,
        "model_config": mcfg.to_dict(),
        "train_config": asdict(cfg),
        "torch_version": torch.__version__,
    }
    return model.float(), summary
