"""A tiny transformer with two attention modes and an optional MoE feed-forward.

Attention modes (the only thing a draft-self decoder needs from a model):

* ``causal`` — token at position p attends to positions 0..p (the cache plus the new tokens up to
  itself).  Used for prefill, plain decoding and verification; its logits at position p predict
  the token at p+1.
* ``block`` — the new tokens form one block: each attends to the whole cached prefix and to every
  token of the block (bidirectional inside the block).  Used to fill ``[anchor, MASK×k]``; its
  logits at a MASK slot predict the token *at that slot*.

The KV cache is static and indexed by position (as in gpt-fast), so rolling back after a rejected
draft is setting ``cache.length``.  A block pass reads the cache and never writes it.

Feed-forward: dense MLP, or MoE with ``n_experts`` routed experts (softmax router, top-``top_k``,
weights renormalised over the chosen K, as in Mixtral) plus one always-on shared expert.  Each MoE
layer keeps the routed expert ids of its last forward in ``last_choice`` ([tokens, K] int64), so a
decoder can count the experts a pass touched.  Only experts that received a token are computed, so a
pass that touches more experts does more work, as it would when expert weights are streamed.

Shapes: B batch, T new tokens, S cached positions, D model width, H heads, hd = D/H, V vocab.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class ModelConfig:
    vocab_size: int
    mask_id: int
    d_model: int = 128
    n_layers: int = 4
    n_heads: int = 4
    dense: bool = False  # True: dense MLP of width d_ff instead of MoE
    d_ff: int = 256  # dense MLP width, and the shared expert's width
    n_experts: int = 16  # E routed experts per MoE layer
    top_k: int = 2  # K experts per token
    d_expert: int = 64  # width of one routed expert
    max_seq_len: int = 512
    rope_base: float = 10000.0

    def to_dict(self) -> dict:
        return asdict(self)


class KVCache:
    """Static per-layer K/V buffers [L, B, H, max_len, hd]; positions < ``length`` are valid.

    Rollback after a rejected draft is ``cache.length = n`` (stale entries beyond it are ignored and
    overwritten by the next write).
    """

    def __init__(
        self,
        cfg: ModelConfig,
        batch: int = 1,
        dtype=torch.float32,
        max_len: int | None = None,
        device: torch.device | str | None = None,
    ):
        hd = cfg.d_model // cfg.n_heads
        n = max_len or cfg.max_seq_len
        self.k = torch.zeros(cfg.n_layers, batch, cfg.n_heads, n, hd, dtype=dtype, device=device)
        self.v = torch.zeros_like(self.k)
        self.length = 0

    def valid(self) -> tuple[torch.Tensor, torch.Tensor]:
        """K and V of the valid positions: two tensors [L, B, H, length, hd] (views)."""
        return self.k[:, :, :, : self.length], self.v[:, :, :, : self.length]


def rope(x: torch.Tensor, pos: torch.Tensor, base: float) -> torch.Tensor:
    """Rotary position embedding (Su et al. 2021, "RoFormer"). x [B, H, T, hd], pos [T] int."""
    hd = x.shape[-1]
    inv = 1.0 / (base ** (torch.arange(0, hd, 2, dtype=torch.float64, device=x.device) / hd))
    ang = (pos.to(torch.float64)[:, None] * inv[None, :]).to(x.dtype)  # [T, hd/2]
    cos, sin = ang.cos(), ang.sin()
    x1, x2 = x[..., 0::2], x[..., 1::2]
    return torch.stack((x1 * cos - x2 * sin, x1 * sin + x2 * cos), dim=-1).flatten(-2)


class Attention(nn.Module):
    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.cfg = cfg
        self.qkv = nn.Linear(cfg.d_model, 3 * cfg.d_model, bias=False)
        self.out = nn.Linear(cfg.d_model, cfg.d_model, bias=False)

    def forward(self, x, pos, mask, past_k=None, past_v=None):
        """x [B, T, D]; pos [T]; mask [T, S+T] bool (True = may attend); past_k/v [B, H, S, hd].

        Returns (y [B, T, D], k_new, v_new [B, H, T, hd]); the caller decides whether to cache k/v.
        """
        B, T, D = x.shape
        H = self.cfg.n_heads
        q, k, v = self.qkv(x).view(B, T, 3, H, D // H).permute(2, 0, 3, 1, 4)
        q, k = rope(q, pos, self.cfg.rope_base), rope(k, pos, self.cfg.rope_base)
        keys = k if past_k is None else torch.cat([past_k, k], dim=2)
        vals = v if past_v is None else torch.cat([past_v, v], dim=2)
        y = F.scaled_dot_product_attention(q, keys, vals, attn_mask=mask)
        return self.out(y.transpose(1, 2).reshape(B, T, D)), k, v


class MLP(nn.Module):
    def __init__(self, d_model: int, d_hidden: int):
        super().__init__()
        self.up = nn.Linear(d_model, d_hidden, bias=False)
        self.down = nn.Linear(d_hidden, d_model, bias=False)

    def forward(self, x):
        return self.down(F.gelu(self.up(x)))


def coreset(scores: torch.Tensor, mass: float, min_size: int) -> torch.Tensor:
    """Block coreset of experts: the smallest set whose summed router probability covers ``mass`` of
    the block's total, with at least ``min_size`` experts.  scores [N, E] softmax probs -> bool [E]."""
    total = scores.sum(0)
    order = total.argsort(descending=True)
    cum = total[order].cumsum(0) / total.sum()
    n = int((cum < mass).sum().item()) + 1
    keep = torch.zeros_like(total, dtype=torch.bool)
    keep[order[: max(n, min_size)]] = True  # caller ensures min_size >= K
    return keep


class MoE(nn.Module):
    """Routed experts (top-K of E) plus one shared expert; records ``last_choice`` [N, K]."""

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.cfg = cfg
        self.router = nn.Linear(cfg.d_model, cfg.n_experts, bias=False)
        self.experts = nn.ModuleList(MLP(cfg.d_model, cfg.d_expert) for _ in range(cfg.n_experts))
        self.shared = MLP(cfg.d_model, cfg.d_ff)
        self.last_choice: torch.Tensor | None = None
        self.last_aux: torch.Tensor | None = None

    def forward(self, x, coreset_args: tuple[float, int] | None = None):
        B, T, D = x.shape
        flat = x.reshape(-1, D)
        probs = self.router(flat).softmax(-1)  # [N, E]
        routable = probs
        if coreset_args is not None:  # restrict the block to a subset
            keep = coreset(probs, *coreset_args)
            routable = probs.masked_fill(~keep, -1.0)
        w, idx = routable.topk(self.cfg.top_k, dim=-1)  # [N, K]
        w = probs.gather(1, idx)
        w = w / w.sum(-1, keepdim=True)
        self.last_choice = idx.detach()
        if self.training:  # Switch-Transformer load-balancing loss (Fedus et al. 2021, eq. 4)
            frac = F.one_hot(idx, self.cfg.n_experts).sum(1).float().mean(0) / self.cfg.top_k
            self.last_aux = self.cfg.n_experts * (frac * probs.mean(0)).sum()
        # Group the N·K (token, expert) pairs by expert; run only experts that received a token.
        order = idx.reshape(-1).argsort(stable=True)
        tok = order // self.cfg.top_k
        counts = torch.bincount(idx.reshape(-1), minlength=self.cfg.n_experts).tolist()
        xs = flat[tok].split(counts)
        ys = torch.cat([self.experts[e](xe) for e, xe in enumerate(xs) if counts[e]])
        ys = ys * w.reshape(-1)[order, None]
        return self.shared(flat).index_add(0, tok, ys).view(B, T, D)


class Block(nn.Module):
    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.ln1 = nn.RMSNorm(cfg.d_model)
        self.attn = Attention(cfg)
        self.ln2 = nn.RMSNorm(cfg.d_model)
        self.ffn = MLP(cfg.d_model, cfg.d_ff) if cfg.dense else MoE(cfg)

    def forward(self, x, pos, mask, past_k=None, past_v=None, coreset_args=None):
        a, k, v = self.attn(self.ln1(x), pos, mask, past_k, past_v)
        x = x + a
        h = self.ln2(x)
        x = x + (self.ffn(h) if isinstance(self.ffn, MLP) else self.ffn(h, coreset_args))
        return x, k, v


class TinyLM(nn.Module):
    """Next-token and masked-block model; see the module docstring for the two attention modes."""

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.cfg = cfg
        self.embed = nn.Embedding(cfg.vocab_size, cfg.d_model)
        self.layers = nn.ModuleList(Block(cfg) for _ in range(cfg.n_layers))
        self.norm = nn.RMSNorm(cfg.d_model)
        self.apply(self._init)

    @staticmethod
    def _init(m):
        if isinstance(m, (nn.Linear, nn.Embedding)):
            nn.init.normal_(m.weight, std=0.02)

    def moe_layers(self) -> list[MoE]:
        return [b.ffn for b in self.layers if isinstance(b.ffn, MoE)]

    def logits(self, h):
        return h @ self.embed.weight.T  # tied embedding

    def forward_masked(self, idx, pos, mask):
        """Training / cache-free pass. idx [B, T], pos [T], mask [T, T] bool -> logits [B, T, V]."""
        x = self.embed(idx)
        for layer in self.layers:
            x, _, _ = layer(x, pos, mask)
        return self.logits(self.norm(x))

    def forward(
        self,
        tokens: torch.Tensor,
        cache: KVCache,
        mode: str = "causal",
        write: bool = True,
        coreset_args: tuple[float, int] | None = None,
    ) -> torch.Tensor:
        """One inference pass over new ``tokens`` [B, T] placed at positions cache.length.. .

        mode ``causal`` or ``block`` (see module docstring).  ``write``: store the new K/V in the
        cache and advance ``cache.length`` by T (a block pass must use write=False).
        Returns logits [B, T, V].
        """
        if mode not in ("causal", "block"):
            raise ValueError(f"mode must be 'causal' or 'block', not {mode!r}")
        B, T = tokens.shape
        S = cache.length
        if S + T > cache.k.shape[3]:
            raise ValueError(f"cache full: {S}+{T} > {cache.k.shape[3]} positions")
        dev = tokens.device
        pos = torch.arange(S, S + T, device=dev)
        mask = torch.ones(T, S + T, dtype=torch.bool, device=dev)
        if mode == "causal":
            mask[:, S:] = torch.ones(T, T, dtype=torch.bool, device=dev).tril()
        x = self.embed(tokens)
        for i, layer in enumerate(self.layers):
            x, k, v = layer(x, pos, mask, cache.k[i, :, :, :S], cache.v[i, :, :, :S], coreset_args)
            if write:
                cache.k[i, :, :, S : S + T] = k
                cache.v[i, :, :, S : S + T] = v
        if write:
            cache.length = S + T
        return self.logits(self.norm(x))


def n_params(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())


def active_params_per_token(cfg: ModelConfig) -> int:
    """Parameters one token multiplies through (embeddings excluded; K routed + shared experts)."""
    attn = 4 * cfg.d_model * cfg.d_model
    ffn = 2 * cfg.d_model * cfg.d_ff + (
        0 if cfg.dense else cfg.top_k * 2 * cfg.d_model * cfg.d_expert + cfg.d_model * cfg.n_experts
    )
    return cfg.n_layers * (attn + ffn)


def save(model: TinyLM, path, meta: dict | None = None) -> None:
    torch.save({"config": model.cfg.to_dict(), "state_dict": model.state_dict(), "meta": meta or {}}, path)


def load(path, dtype=torch.float32) -> tuple[TinyLM, dict]:
    ck = torch.load(path, map_location="cpu", weights_only=True)
    model = TinyLM(ModelConfig(**ck["config"]))
    model.load_state_dict(ck["state_dict"])
    return model.to(dtype).eval(), ck.get("meta", {})
