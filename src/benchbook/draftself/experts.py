"""Expert accounting: how many distinct routed experts a pass (or a draft+verify iteration) touches.

Why it matters: with expert weights streamed from system RAM (llama.cpp ``-ncmoe``), the cost of a
pass grows with the number of *distinct* experts its tokens route to, not with the token count.
A 1-token pass touches exactly K per layer; an n-token pass between K and min(E, n·K).

Bound (independent routing, each token picking K of E uniformly at random without replacement): the
probability that a given expert is missed by one token is 1 − K/E, by n tokens (1 − K/E)^n, so the
expected number of distinct experts is  E · (1 − (1 − K/E)^n).  Real routers correlate tokens of one
block (fewer distinct experts) — the measured count against this curve shows by how much.
"""

from __future__ import annotations


def independent_bound(E: int, K: int, n: int) -> float:
    """Expected distinct experts for n tokens routed independently and uniformly: E·(1−(1−K/E)^n)."""
    return E * (1.0 - (1.0 - K / E) ** n)


def unique_per_layer(passes: list[dict]) -> list[int] | None:
    """Distinct routed experts per layer over the union of ``passes`` (PassRecord dicts)."""
    layers = [p["experts"] for p in passes if p.get("experts")]
    if not layers:
        return None
    return [len(set().union(*(set(p[i]) for p in layers))) for i in range(len(layers[0]))]


def step_experts(passes: list[dict]) -> dict:
    """Per-step accounting: distinct experts per layer for the draft passes, the verify passes and
    their union; None for a dense model."""
    draft = [p for p in passes if p["kind"] == "draft"]
    ver = [p for p in passes if p["kind"] in ("verify", "decode", "prefill")]
    return {
        "draft": unique_per_layer(draft) if draft else None,
        "verify": unique_per_layer(ver) if ver else None,
        "union": unique_per_layer(passes),
    }


def expert_loads(passes: list[dict]) -> int:
    """Expert loads: Σ over passes and layers of the distinct experts of that pass (what a streaming
    backend reads when it fetches each used expert once per pass)."""
    return sum(sum(len(e) for e in p["experts"]) for p in passes if p.get("experts"))
