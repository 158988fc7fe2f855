"""Decoders: plain greedy autoregressive (AR), and draft-self.

Draft-self (one iteration, the cache holding the committed prefix except its last token, the anchor):

1. ``draft_block``: one block-mode pass over ``[anchor, MASK×k]`` proposes d1..dk (the argmax at each
   MASK slot) without writing the cache — or, with a ``threshold``, iterative filling: repeat the
   pass, each time fixing the still-masked slots whose confidence ≥ threshold, else the single most
   confident one, until no MASK is left.
2. ``verify``: ONE causal pass over ``[anchor, d1..dk]`` (written to the cache) gives the verifier's
   argmax v0..vk, where v_j is the greedy token after d_j (d_0 = anchor).
   ``verify_sequential`` does the same one token per pass and stops at the first mismatch (as the
   llama.cpp fork did): a+1 passes for a accepted tokens (k+1 when all are accepted).
3. ``accept``: a = the longest prefix with d_{j+1} = v_j; commit d1..da and v_a (the verifier's own
   token), so every iteration commits a+1 tokens, all equal to what greedy AR would produce.
4. Roll back: ``cache.length = s + a + 1`` (anchor and accepted drafts stay, rejected ones are dropped).

Counting: AR uses 1 prefill + (N−1) decode passes for N tokens; one-pass draft-self uses
1 + 2·iterations.  Speculative terms (Leviathan et al. 2023, "Fast Inference from Transformers via
Speculative Decoding"): τ = tokens committed per verify step, counting the verifier's own token
(= a+1 per step); under independent acceptance with per-token probability α,
τ(k) = (1 − α^(k+1)) / (1 − α)  (their eq. 1).

All tensors are batch 1; tokens are Python ints.  Every forward pass goes through ``Engine.forward``,
which times it (``time.perf_counter_ns``) and records the routed experts each MoE layer touched.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

import torch

from .model import KVCache, TinyLM


@dataclass
class PassRecord:
    kind: str  # prefill | decode | draft | verify
    mode: str  # causal | block
    n_tokens: int  # tokens in the pass
    cache_len: int  # cache length before the pass
    wall_ns: int  # forward pass only (model call), perf_counter_ns
    experts: list[list[int]] | None = None  # per MoE layer: sorted unique routed expert ids


class Engine:
    """A model, its static KV cache, the token sequence (prompt + committed) and the pass log."""

    def __init__(
        self,
        model: TinyLM,
        max_len: int,
        coreset: tuple[float, int] | None = None,
        coreset_apply: str = "draft",
    ):
        p = next(model.parameters())
        self.model = model
        self.device = p.device
        self.cache = KVCache(model.cfg, dtype=p.dtype, max_len=max_len, device=p.device)
        self.tokens: list[int] = []
        self.passes: list[PassRecord] = []
        if coreset_apply not in ("draft", "both"):
            raise ValueError("coreset_apply must be 'draft' or 'both'")
        self.coreset, self.coreset_apply = coreset, coreset_apply

    def forward(self, kind: str, tokens: list[int], mode: str = "causal", write: bool = True) -> torch.Tensor:
        """Run one pass and log it; returns logits [T, V]."""
        cs = None
        on_verify = kind == "verify" and self.coreset_apply == "both"
        if self.coreset is not None and (kind == "draft" or on_verify):
            cs = self.coreset
        x = torch.tensor([tokens], dtype=torch.long, device=self.device)
        before = self.cache.length
        t0 = time.perf_counter_ns()
        with torch.inference_mode():
            logits = self.model(x, self.cache, mode=mode, write=write, coreset_args=cs)
        if self.device.type == "cuda":  # kernels run asynchronously: the pass ends when they do
            torch.cuda.synchronize(self.device)
        wall = time.perf_counter_ns() - t0
        # every MoE layer ran in this pass, so each has its routed ids
        experts = [
            m.last_choice.unique().tolist() for m in self.model.moe_layers() if m.last_choice is not None
        ] or None
        self.passes.append(PassRecord(kind, mode, len(tokens), before, wall, experts))
        return logits[0]


def prefill(eng: Engine, prompt: list[int]) -> int:
    """Causal pass over the whole prompt (written to the cache); returns the first generated token."""
    eng.tokens = list(prompt)
    return int(eng.forward("prefill", prompt)[-1].argmax())


def decode_one_token(eng: Engine, tok: int) -> int:
    """Causal pass over one token (written to the cache); returns the next greedy token."""
    return int(eng.forward("decode", [tok])[-1].argmax())


def draft_block(
    eng: Engine, anchor: int, k: int, threshold: float | None = None
) -> tuple[list[int], list[float]]:
    """Propose k tokens after ``anchor`` by filling ``[anchor, MASK×k]`` in block mode.

    threshold None: one pass, every slot takes its argmax.  Otherwise iterative filling: each pass
    fixes the open slots with confidence ≥ threshold (or the single most confident open slot).
    Never writes the cache.  Returns (tokens [k], confidences [k]); a confidence is the softmax
    probability of the chosen token when its slot was fixed.
    """
    mask = eng.model.cfg.mask_id
    block = [anchor] + [mask] * k
    conf = [0.0] * k
    open_ = list(range(k))
    while open_:
        probs = eng.forward("draft", block, mode="block", write=False)[1:].float().softmax(-1)
        p, tok = probs.max(-1)
        if threshold is None:
            return tok.tolist(), p.tolist()
        fix = [j for j in open_ if p[j] >= threshold] or [max(open_, key=lambda j: float(p[j]))]
        for j in fix:
            block[1 + j], conf[j] = int(tok[j]), float(p[j])
        open_ = [j for j in open_ if j not in fix]
    return block[1:], conf


def model_drafter(threshold: float | None = None) -> Callable:
    """The draft-self drafter: the model itself in block mode."""

    def drafter(eng: Engine, anchor: int, k: int):
        return draft_block(eng, anchor, k, threshold)

    return drafter


def verify(eng: Engine, anchor: int, draft: list[int]) -> list[int]:
    """ONE causal pass over [anchor, d1..dk], written to the cache; returns argmax v0..vk."""
    return eng.forward("verify", [anchor] + draft).argmax(-1).tolist()


def verify_sequential(eng: Engine, anchor: int, draft: list[int]) -> list[int]:
    """Token-by-token verification: pass j feeds d_j (d_0 = anchor); stops after the first pass
    whose argmax differs from the next draft token.  Returns the argmaxes of the passes made."""
    out, tok = [], anchor
    for j in range(len(draft) + 1):
        v = int(eng.forward("verify", [tok])[-1].argmax())
        out.append(v)
        if j == len(draft) or draft[j] != v:
            break
        tok = draft[j]
    return out


def accept(draft: list[int], verified: list[int]) -> int:
    """Longest a with draft[:a] == verified[:a] (the verifier's argmax after each prefix)."""
    a = 0
    while a < len(draft) and a < len(verified) and draft[a] == verified[a]:
        a += 1
    return a


@dataclass
class Result:
    tokens: list[int]  # the N generated tokens
    steps: list[dict] = field(default_factory=list)
    passes: list[PassRecord] = field(default_factory=list)
    decode_wall_ns: int = 0  # after the prefill token, until the N-th token


def _pass_dicts(passes):
    return [asdict(p) for p in passes]


def generate_ar(model: TinyLM, prompt: list[int], n: int) -> Result:
    """Plain greedy decoding: 1 prefill + (n−1) one-token passes."""
    eng = Engine(model, len(prompt) + n + 1)
    t = prefill(eng, prompt)
    res = Result([t])
    res.steps.append(
        {
            "step": 0,
            "kind": "prefill",
            "committed": [t],
            "accepted": 0,
            "proposed": [],
            "cache_len_after": eng.cache.length,
            "passes": _pass_dicts(eng.passes),
        }
    )
    t0 = time.perf_counter_ns()
    while len(res.tokens) < n:
        before, npass = eng.cache.length, len(eng.passes)
        t = decode_one_token(eng, t)
        res.tokens.append(t)
        res.steps.append(
            {
                "step": len(res.steps),
                "kind": "ar",
                "committed": [t],
                "accepted": 0,
                "proposed": [],
                "cache_len_before": before,
                "cache_len_after": eng.cache.length,
                "passes": _pass_dicts(eng.passes[npass:]),
            }
        )
    res.decode_wall_ns = time.perf_counter_ns() - t0
    res.passes = eng.passes
    return res


def generate_draftself(
    model: TinyLM,
    prompt: list[int],
    n: int,
    k: int,
    verify_mode: str = "batched",
    threshold: float | None = None,
    drafter: Callable | None = None,
    coreset: tuple[float, int] | None = None,
    coreset_apply: str = "draft",
    engine_hook: Callable | None = None,
) -> Result:
    """Draft-self decoding of n tokens with blocks of k drafted tokens (see module docstring).

    verify_mode ``batched`` (one k+1-token pass) or ``sequential`` (one token per pass).
    drafter(eng, anchor, k) -> (tokens, confidences); default: the model in block mode.
    coreset (mass, min_size): restrict each draft pass (and verify passes when coreset_apply is
    ``both``, which may change the output) to a block coreset of experts.
    engine_hook(eng, stage) is called after "draft" and "verify" (tests inspect the cache there).
    """
    if verify_mode not in ("batched", "sequential"):
        raise ValueError("verify_mode must be 'batched' or 'sequential'")
    drafter = drafter or model_drafter(threshold)
    eng = Engine(model, len(prompt) + n + k + 2, coreset, coreset_apply)
    t = prefill(eng, prompt)
    res = Result([t])
    eng.tokens.append(t)
    res.steps.append(
        {
            "step": 0,
            "kind": "prefill",
            "committed": [t],
            "accepted": 0,
            "proposed": [],
            "cache_len_after": eng.cache.length,
            "passes": _pass_dicts(eng.passes),
        }
    )
    t0 = time.perf_counter_ns()
    while len(res.tokens) < n:
        s, npass = eng.cache.length, len(eng.passes)
        anchor = eng.tokens[-1]
        proposal, conf = drafter(eng, anchor, k)
        len_after_draft = eng.cache.length
        if engine_hook:
            engine_hook(eng, "draft")
        ndraft = len(eng.passes)
        verified = (verify if verify_mode == "batched" else verify_sequential)(eng, anchor, proposal)
        a = accept(proposal, verified)
        new = proposal[:a] + [verified[a]]
        eng.cache.length = s + a + 1  # roll back: keep anchor + accepted drafts
        eng.tokens += new
        take = new[: n - len(res.tokens)]
        res.tokens += take
        if engine_hook:
            engine_hook(eng, "verify")
        res.steps.append(
            {
                "step": len(res.steps),
                "kind": "draftself",
                "anchor": anchor,
                "proposed": proposal,
                "proposed_conf": [round(c, 6) for c in conf],
                "verifier_argmax": verified,
                "accepted": a,
                "committed": take,
                "cache_len_before": s,
                "cache_len_after_draft": len_after_draft,
                "cache_len_after": eng.cache.length,
                "draft_passes": ndraft - npass,
                "verify_passes": len(eng.passes) - ndraft,
                "passes": _pass_dicts(eng.passes[npass:]),
            }
        )
    res.decode_wall_ns = time.perf_counter_ns() - t0
    res.passes = eng.passes
    return res
