"""Transcribed published numbers (``data/claims/*.yaml``) as the ``claims`` and ``comparison`` tables
that ``benchbook.caveats`` rules read.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl


def load_claims(path: str | Path) -> tuple[pl.DataFrame, pl.DataFrame]:
    """A transcribed claims YAML (``claims/*.yaml``: ``source``, ``claims`` list) as two tables.

    ``claims``: one row per claim with a ``value`` or ``range``: id, metric, value, lo, hi, unit,
    method, env, n_cpu_moe, prompt, block_max, tokens_generated, note, hardware, model, n (the claim's
    ``n``; else the source's ``runs_per_prompt`` for real-prompt claims; else null = unknown).
    ``comparisons``: one row per derived claim with a numerator and a denominator (``kind: derived``):
    id, value (stated), statement, num_/den_: lo, hi, method, phase (metric), host (env or hardware;
    null when unknown), build (the source's engine for local claims; null when unknown), n,
    alpha (acceptance claimed for the same method, when the source states one).  These are the
    ``claims`` and ``comparison`` table kinds of ``caveats``.

    Raises:
        ValueError: a derived claim names an id that is not in the file (the message names both).
    """
    import yaml
    doc = yaml.safe_load(Path(path).read_text())
    src = doc.get("source") or {}
    engine = (doc.get("software") or {}).get("engine")
    runs = src.get("runs_per_prompt")
    rows, derived = [], []
    for c in doc.get("claims", []):
        if c.get("kind") == "derived":
            derived.append(c)
            continue
        rng = c.get("range")
        val = c.get("value")
        if val is None and rng is None:
            continue
        lo, hi = (rng if rng else (val, val))
        method = c.get("method")
        n = c.get("n")
        # the source's runs_per_prompt covers its own real-prompt runs, not numbers quoted from elsewhere
        if n is None and runs is not None and method and "prompt" in method and not (c.get("model") or c.get("hardware")):
            n = runs
        rows.append({"id": c["id"], "metric": c.get("metric"), "value": float(val if val is not None else (lo + hi) / 2),
                     "lo": float(lo), "hi": float(hi), "unit": c.get("unit"), "method": method, "env": c.get("env"),
                     "n_cpu_moe": c.get("n_cpu_moe"), "prompt": c.get("prompt"), "block_max": c.get("block_max"),
                     "tokens_generated": c.get("tokens_generated"), "note": c.get("note"),
                     "hardware": c.get("hardware"), "model": c.get("model"), "n": n})
    claims = pl.DataFrame(rows, infer_schema_length=None, schema_overrides={"n": pl.Int64, "n_cpu_moe": pl.Int64,
                                                                             "block_max": pl.Int64})
    by_id = {r["id"]: r for r in rows}
    acc = {r["method"]: r["value"] for r in rows if r["metric"] == "acceptance_rate"}
    acc_all = next(iter(acc.values()), None) if acc else None

    def side(c: dict, which: str) -> dict | None:
        ref = c.get(which)
        if ref is not None:
            if ref not in by_id:
                raise ValueError(f"{path}: derived claim {c['id']} names {which} {ref!r}, which is not a claim id")
            r = by_id[ref]
            local = r.get("hardware") is None and r.get("model") is None and r.get("env") is not None
            return {"lo": r["lo"], "hi": r["hi"], "method": r["method"], "phase": r["metric"],
                    "host": r.get("env") or r.get("hardware"), "build": engine if local else None, "n": r["n"],
                    "alpha": acc_all if (r["method"] and "prompt" in r["method"] and r.get("block_max")) else None}
        if c.get(which + "_value") is not None:
            v = float(c[which + "_value"])
            return {"lo": v, "hi": v, "method": "stated", "phase": None, "host": None, "build": None, "n": None,
                    "alpha": None}
        if c.get(which + "_range") is not None:
            lo, hi = (float(v) for v in c[which + "_range"])
            same = [r for r in rows if (r["lo"], r["hi"]) == (lo, hi) and r["lo"] != r["hi"]]
            if len(same) == 1:  # the range is a claim of the file: take its conditions
                r = same[0]
                return {"lo": lo, "hi": hi, "method": r["method"], "phase": r["metric"],
                        "host": r.get("env") or r.get("hardware"), "build": None, "n": r["n"], "alpha": None}
            return {"lo": lo, "hi": hi, "method": None, "phase": None, "host": None, "build": None,
                    "n": None, "alpha": None}
        return None

    comps = []
    for c in derived:
        num, den = side(c, "numerator"), side(c, "denominator")
        if num is None or den is None:
            continue
        # a stated outside value's method is in the statement ("vendor's ...", "Qwen figures ... real-prompt")
        if num["method"] == "stated":
            num["method"] = c.get("statement")
        if den["method"] is None:
            den["method"] = c.get("note") or c.get("statement")
        row = {"id": c["id"], "value": float(c["value"]), "statement": c.get("statement")}
        row.update({f"num_{k}": v for k, v in num.items()})
        row.update({f"den_{k}": v for k, v in den.items()})
        comps.append(row)
    comp_schema = {f"{s}_{k}": t for s in ("num", "den") for k, t in
                   (("lo", pl.Float64), ("hi", pl.Float64), ("method", pl.String), ("phase", pl.String),
                    ("host", pl.String), ("build", pl.String), ("n", pl.Int64), ("alpha", pl.Float64))}
    comparisons = pl.DataFrame(comps, schema={"id": pl.String, "value": pl.Float64, "statement": pl.String,
                                              **comp_schema})
    return claims, comparisons
