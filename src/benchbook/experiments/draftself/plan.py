"""What a draft-self session plans to run, from its parameters alone (no model, no torch): the
default parameters and the configurations (``configs``), with their names (``config_name``).  The
runner (``run``) measures these; the session check (``sessioncheck``) expects every one of them.
"""

from __future__ import annotations

DEFAULTS = {
    "n_tokens": 48,  # tokens generated per run (fixed length, like llama-bench tg)
    "prompts_per_kind": 1,
    "prompt_seed": 1,
    "prompt_kinds": None,  # None: every document kind; else a list (e.g. ["letters", "story"])
    "ks": [1, 2, 4, 8, 15],  # block sizes for batched one-pass draft-self
    "sequential_ks": [4, 8, 15],
    "iterative_ks": [8],
    "threshold": 0.95,
    "coreset_k": 8,
    "coreset_masses": [0.6, 0.9],
    "coreset_min": 4,  # floor on the coreset size (>= top_k)
    "repetitions": 3,  # timed repetitions (plus one warm-up)
    "step_reps": 1,  # repetitions whose per-step records are written
    "threads": 1,
    "seed": 0,
    "dtype": "float32",
}


def configs(p: dict) -> list[dict]:
    """The configurations of one session, from params ``p``."""
    out = [{"decoder": "ar"}]
    out += [{"decoder": "draftself", "k": k, "verify": "batched", "draft": "one_pass"} for k in p["ks"]]
    out += [
        {"decoder": "draftself", "k": k, "verify": "sequential", "draft": "one_pass"}
        for k in p["sequential_ks"]
    ]
    out += [
        {
            "decoder": "draftself",
            "k": k,
            "verify": "batched",
            "draft": "iterative",
            "threshold": p["threshold"],
        }
        for k in p["iterative_ks"]
    ]
    for m in p["coreset_masses"]:
        for where in ("draft", "both"):
            out.append(
                {
                    "decoder": "draftself",
                    "k": p["coreset_k"],
                    "verify": "batched",
                    "draft": "one_pass",
                    "coreset_mass": m,
                    "coreset_min": p["coreset_min"],
                    "coreset_apply": where,
                }
            )
    for c in out:
        c["name"] = config_name(c)
    return out


def config_name(c: dict) -> str:
    if c["decoder"] == "ar":
        return "ar"
    s = f"ds-k{c['k']}-{c['verify']}-{c['draft']}"
    if "coreset_mass" in c:
        s += f"-coreset{c['coreset_mass']}-{c['coreset_apply']}"
    return s
