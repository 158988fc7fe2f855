"""Sentences of the draft-self page generated from the records, never written by hand.

* ``equality_sentence``: whether every draft-self variant reproduced AR greedy output, from the runs'
  ``equals_ar`` (a variant that did not is named with its counts per prompt class).
* ``best_sentence``: the best measured speedup, among variants whose output equals AR greedy on every
  run and whose interval lies above 1 (a lossy variant's speed is not a speedup of the same output).
* ``per_prompt_markdown``: the per-prompt speedups of every (variant, prompt class) whose prompts
  disagree in direction (one prompt faster than AR, another slower), so a pooled number never hides it.
"""

from __future__ import annotations

import polars as pl

from benchbook.escape import code_span, markdown_table, markdown_text


def mismatches(runs: pl.DataFrame) -> pl.DataFrame:
    """Per draft-self variant and prompt class with at least one run whose output differs from AR
    greedy: ``config_name``, ``prompt_class``, ``equal`` (prompts whose every run matched), ``prompts``.
    ``runs``: ``analysis.load_runs``'s table."""
    ds = runs.filter(pl.col("decoder") == "draftself").with_columns(
        pl.when(pl.col("predictable"))
        .then(pl.lit("predictable"))
        .otherwise(pl.lit("other"))
        .alias("prompt_class")
    )
    per_prompt = ds.group_by("config_name", "prompt_class", "prompt_id").agg(
        pl.col("equals_ar").fill_null(False).all().alias("equal")
    )
    return (
        per_prompt.group_by("config_name", "prompt_class")
        .agg(pl.col("equal").sum().alias("equal"), pl.len().alias("prompts"))
        .filter(pl.col("equal") < pl.col("prompts"))
        .sort("config_name", "prompt_class")
    )


def equality_sentence(runs: pl.DataFrame) -> str:
    """One or two sentences on output equality, generated from ``runs`` (``analysis.load_runs``).

    >>> import polars as pl
    >>> r = pl.DataFrame({"decoder": ["draftself"] * 2, "predictable": [True, False],
    ...                   "config_name": ["a", "a"], "prompt_id": ["p", "q"], "equals_ar": [True, True]})
    >>> equality_sentence(r)
    'Every draft-self variant (1) produced exactly the AR greedy output on every run (checked on every run).'
    """
    variants = runs.filter(pl.col("decoder") == "draftself")["config_name"].n_unique()
    bad = mismatches(runs)
    if bad.is_empty():
        return (
            f"Every draft-self variant ({variants}) produced exactly the AR greedy output on every run "
            "(checked on every run)."
        )
    names = bad["config_name"].unique(maintain_order=True).to_list()
    detail = "; ".join(
        f"{code_span(name)}: "
        + ", ".join(
            f"{r['equal']} of {r['prompts']} {markdown_text(r['prompt_class'])} prompts"
            for r in bad.filter(pl.col("config_name") == name).iter_rows(named=True)
        )
        for name in names
    )
    return (
        f"{variants - len(names)} of {variants} draft-self variants produced exactly the AR greedy output on "
        f"every run; {len(names)} did not and carry the `output_mismatch` caveat (prompts whose every run "
        f"matched AR: {detail}). Their speeds are not speedups of the same output and are left out of "
        '"best" statements.'
    )


def best_sentence(speedup: pl.DataFrame, runs: pl.DataFrame, key_of) -> str:
    """The best measured speedup among lossless variants whose 95% interval lies above 1, as a sentence
    with the number's ``{{< var >}}`` link (``key_of(row)`` gives its registry key); a sentence saying
    none qualifies otherwise.  ``speedup``: ``analysis.speedup``'s table."""
    lossy = set(mismatches(runs)["config_name"].to_list())
    ok = speedup.filter(~pl.col("config_name").is_in(list(lossy)) & (pl.col("ci_low") > 1)).sort(
        "speedup", descending=True
    )
    if ok.is_empty():
        return "No variant whose output equals AR greedy has a speedup interval above 1."
    best = ok.row(0, named=True)
    return (
        f"The best measured speedup among variants that reproduce AR greedy output, with an interval above "
        f"1: {code_span(best['config_name'])} on {markdown_text(best['prompt_class'])} prompts, "
        f"{{{{< var {key_of(best)} >}}}}"
        + (f" (lossy variants left out: {', '.join(code_span(x) for x in sorted(lossy))})." if lossy else ".")
    )


def per_prompt_markdown(speedup: pl.DataFrame) -> str:
    """A Markdown table of the per-prompt speedups of every (variant, prompt class) whose prompts
    disagree in direction (some above 1, some below), or a line saying none do."""
    rows = []
    for r in speedup.iter_rows(named=True):
        values = [p["speedup"] for p in r["per_prompt"] or []]
        if values and min(values) < 1 < max(values):
            rows.append(
                {
                    "variant": r["config_name"],
                    "prompts": r["prompt_class"],
                    "pooled (×)": round(r["speedup"], 2),
                    "per prompt (×)": ", ".join(
                        f"{p['prompt_id']} {p['speedup']:.3f}" for p in r["per_prompt"]
                    ),
                    "below 1× on": ", ".join(p["prompt_id"] for p in r["per_prompt"] if p["speedup"] < 1),
                }
            )
    if not rows:
        return "Every variant is faster than AR on all of its prompts, or slower on all of them.\n"
    head = (
        "Variants whose prompts disagree in direction (faster than AR on one prompt, slower on another); "
        "the pooled speedup's interval is over prompts:\n\n"
    )
    return head + markdown_table(pl.DataFrame(rows)) + "\n"
