"""The offload page's words for the model each published sweep measured, from its records and its
model snapshot (the GGUF metadata read on the measuring host: ``llamacpp.models.manifest`` through
``llamacpp.ggufmeta``), never written by hand: a registered MoE is named as it is, the synthetic MoE
as synthetic.  ``model_markdown`` is ``reports/offload/model.md``, included by ``offload.qmd``.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

import polars as pl

from benchbook.escape import code_span, markdown_text
from benchbook.numbers import make_key

from .analysis import Boundary

#: why a synthetic model's numbers are not a trained model's (the ``synthetic_inputs`` caveat's reason)
SYNTHETIC = (
    "synthetic: random weights written on the measuring host by `benchbook synth-model` with the default "
    "model's tokenizer, so its routing is not a trained model's and no output quality is measured with it"
)


def shape_words(manifest: Mapping) -> str:
    """The model's shape from its GGUF metadata in words: ``qwen3moe, 24 blocks, 64 routed experts (4
    per token), hidden 2048, MOSTLY_Q8_0, 14.8 GiB``; the parts the manifest lacks are left out."""
    parts = [markdown_text(str(manifest["architecture"]))] if manifest.get("architecture") else []
    if manifest.get("n_layer") is not None:
        parts.append(f"{manifest['n_layer']} blocks")
    if manifest.get("expert_count"):
        used = f" ({manifest['expert_used_count']} per token)" if manifest.get("expert_used_count") else ""
        parts.append(f"{manifest['expert_count']} routed experts{used}")
    if manifest.get("n_embd"):
        parts.append(f"hidden {manifest['n_embd']}")
    if manifest.get("file_type_declared"):
        parts.append(code_span(str(manifest["file_type_declared"])))
    if manifest.get("size_bytes"):
        parts.append(f"{manifest['size_bytes'] / 2**30:.1f} GiB")
    return ", ".join(parts)


def budget_words(budgets: list[float]) -> str:
    """The memory budget of a session's points in words (MiB, one value or the range measured)."""
    values = sorted({round(b) for b in budgets if b is not None})
    if not values:
        return "an unknown budget"
    shown = f"{values[0]:,}" if len(values) == 1 else f"{values[0]:,} to {values[-1]:,}"
    return f"{shown} MiB of GPU memory free"


def model_markdown(
    pts: pl.DataFrame, bounds: list[Boundary], models: Mapping[str, dict], published: Collection[str] = ()
) -> str:
    """One paragraph per published session (``bounds``, the sweep's ``points`` rows ``pts``): the host,
    the model it swept (``model_id``; from its snapshot in ``models``, ``provenance.read_snapshots(...,
    "model")``, the shape in GGUF metadata words, synthetic or registered), the budget every point
    recorded, where the sweep stops fitting (the cliff: the largest ``n_cpu_moe`` below the first fit
    that ran out of memory) and its fastest fitting point (the highest decode rate among the points
    that ran), the rate quoted as its registry entry (``{{< var KEY >}}``) where ``published`` has it.
    "" without a session."""
    out = []
    for b in bounds:
        g = pts.filter(pl.col("session_id") == b.session_id)
        if g.is_empty():
            continue
        host, model_id = g["host_id"][0], g["model_id"][0]
        snap = next((m for m in models.values() if m.get("model_id") == model_id), {})
        synthetic = bool(g["synthetic_inputs"].fill_null(False).any())
        shape = shape_words(snap.get("manifest") or {})
        lines = [
            f"Host `{host[:8]}` swept {code_span(model_id)}"
            + (f" ({shape}, from its GGUF metadata)" if shape else "")
            + (f": {SYNTHETIC}." if synthetic else ": a registered model (`models.registry`).")
            + f" Every point ran with {budget_words(g['budget_free_mib'].to_list())}."
        ]
        if b.first_fit is None:
            lines.append("No point fitted the budget.")
        else:
            cliff = f", out of memory at {b.last_fail}" if b.last_fail is not None else ""
            cliff += (
                f", failed otherwise at {', '.join(map(str, b.other_failures))}" if b.other_failures else ""
            )
            lines.append(f"The smallest `n_cpu_moe` that fitted: {b.first_fit}{cliff}.")
            tg = g.filter((pl.col("status") == "ok") & (pl.col("test") == "tg")).sort("mean_tps")
            if not tg.is_empty():
                best = tg.row(-1, named=True)
                key = make_key("offload", f"h{host[:8]}", f"ncmoe{best['n_cpu_moe']}", "tg")
                rate = f"{{{{< var {key} >}}}}" if key in published else f"{best['mean_tps']:.1f} tok/s"
                lines.append(f"The fastest fitting point: `n_cpu_moe` {best['n_cpu_moe']}, decode {rate}.")
        out.append(" ".join(lines))
    return "\n\n".join(out) + ("\n" if out else "")
