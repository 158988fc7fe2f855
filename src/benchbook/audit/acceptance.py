"""Acceptance definitions: what an acceptance number counts, read off a claim, and converted to
llama.cpp's α = accepted ÷ drafted where the counts allow.

Engines publish different quantities under one word (``DEFINITIONS``):

* llama.cpp's α, accepted draft tokens (the matching prefix of each draft) ÷ drafted tokens, in two
  builds' versions (``experiments.speculative.analysis.ACCEPTANCE_DEFINITIONS``: ``tested`` from
  ggml-org/llama.cpp PR #14104 on, ``drafted`` before it);
* ``any_position``: draft tokens equal to the target's token at their position, wherever they stand,
  ÷ drafted: it also counts tokens after the first mismatch, which verification throws away, so it is
  at least the prefix α;
* ``system_efficiency``: emitted tokens ÷ the most the verify steps could emit, steps × (k + 1)
  (vLLM's speculative-decoding metrics): its denominator counts each step's own (bonus) token.

A claim states its definition in ``conditions.other.acceptance_definition`` (one of ``DEFINITIONS``);
without it, a llama.cpp claim whose build names a number (``b11434``) has its build's definition and
any other is unknown.  A number of another definition is never compared with llama.cpp's as if equal
(``caveats`` rule ``acceptance_definition_mismatch``).  Where the claim also states the counts
``emitted_tokens`` and ``verify_steps`` (and ``draft_tokens``, or ``counts.drafted``), each step emits
its accepted prefix plus one token of its own, so prefix-accepted = emitted − steps and llama.cpp's
α = (emitted − steps) ÷ drafted (``to_llama_cpp``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..experiments.speculative.analysis import ACCEPTANCE_DEFINITIONS, acceptance_definition
from .schema import Claim, ClaimsError, ClaimsFile

#: acceptance definition -> what it counts (module doc)
DEFINITIONS = {
    **ACCEPTANCE_DEFINITIONS,
    "any_position": "draft tokens matching the target at their position anywhere in the draft, "
    "tokens after the first mismatch included, ÷ drafted tokens",
    "system_efficiency": "emitted tokens ÷ (verify steps × (k + 1)), each step's own token counted "
    "(vLLM's system efficiency)",
}
#: the definitions that are llama.cpp's accepted ÷ drafted
LLAMA_CPP = frozenset(ACCEPTANCE_DEFINITIONS)


def definition_of(cf: ClaimsFile, claim: Claim) -> str | None:
    """The acceptance definition of ``claim`` (module doc); None when unknown.

    Raises:
        ClaimsError: ``conditions.other.acceptance_definition`` names no known definition (the claim's
            file:line, the known names).
    """
    cond = cf.conditions_of(claim)
    stated = cond.other.get("acceptance_definition")
    if stated is not None:
        if not isinstance(stated, str) or stated not in DEFINITIONS:
            raise ClaimsError(
                f"{cf.where(claim.id)}: conditions.other.acceptance_definition "
                f"{stated!r} is not a known definition; fix: use one of {', '.join(DEFINITIONS)}"
            )
        return str(stated)
    engine, build = (cond.engine or "").lower(), cond.build or ""
    m = re.search(r"(?<![\w])b(\d+)(?![\w])", build)
    if engine.strip() == "llama.cpp" and m:
        return acceptance_definition(int(m.group(1)))
    return None


@dataclass(frozen=True)
class Converted:
    """llama.cpp's α recomputed from another definition's counts, with the arithmetic."""

    alpha: float
    arithmetic: str


def to_llama_cpp(cf: ClaimsFile, claim: Claim) -> Converted | None:
    """llama.cpp's α of an acceptance claim of another definition whose counts allow it (module doc):
    ``(emitted_tokens − verify_steps) ÷ drafted``; None without those counts or for a llama.cpp claim.

    Raises:
        ClaimsError: counts that cannot be (fewer emitted tokens than steps: every step emits at least
            its own token; more prefix-accepted tokens than drafted), naming the claim's file:line.
    """
    definition = definition_of(cf, claim)
    if definition is None or definition in LLAMA_CPP:
        return None
    other = cf.conditions_of(claim).other
    emitted, steps = other.get("emitted_tokens"), other.get("verify_steps")
    drafted = other.get("draft_tokens", claim.counts.drafted if claim.counts else None)
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in (emitted, steps, drafted)):
        return None
    assert isinstance(emitted, int) and isinstance(steps, int) and isinstance(drafted, int)
    where = cf.where(claim.id)
    if steps < 1 or drafted < 1 or emitted < steps:
        raise ClaimsError(
            f"{where}: emitted_tokens {emitted} with verify_steps {steps} and draft_tokens {drafted} cannot "
            "be: every verify step emits at least its own token, and a draft needs tokens; fix: check "
            "which count is which"
        )
    if emitted - steps > drafted:
        raise ClaimsError(
            f"{where}: emitted_tokens {emitted} - verify_steps {steps} = {emitted - steps} accepted draft "
            f"tokens, more than the {drafted} drafted; fix: check which count is which"
        )
    alpha = (emitted - steps) / drafted
    return Converted(
        alpha,
        f"llama.cpp's α = (emitted {emitted} - steps {steps}) / drafted {drafted} = {alpha:.4f} "
        "(each step emits its accepted prefix and one token of its own)",
    )


def notes(cf: ClaimsFile, claim: Claim) -> list[str]:
    """What a verdict on an acceptance claim says of its definition: the definition (or that it is not
    stated), and for another engine's, llama.cpp's α converted from its counts or why it cannot be.

    Raises:
        ClaimsError: as ``definition_of`` and ``to_llama_cpp``."""
    if claim.metric != "acceptance_rate":
        return []
    definition = definition_of(cf, claim)
    if definition is None:
        return [
            "acceptance definition: not stated (llama.cpp's accepted ÷ drafted, any-position matches and "
            "system efficiency are different numbers; state conditions.other.acceptance_definition)"
        ]
    text = f"acceptance definition: {definition} ({DEFINITIONS[definition]})"
    if definition in LLAMA_CPP:
        return [text]
    converted = to_llama_cpp(cf, claim)
    if converted is None:
        return [
            f"{text}: not llama.cpp's accepted ÷ drafted and not converted (state emitted_tokens, "
            "verify_steps and draft_tokens in conditions.other)"
        ]
    return [f"{text}: not llama.cpp's accepted ÷ drafted; {converted.arithmetic}"]


def system_efficiency(accepted: int, steps: int, drafted: int) -> Converted:
    """System efficiency from llama.cpp-style counts: emitted ÷ (steps × (k + 1)) with emitted =
    accepted + steps (each step's own token) and steps × k = drafted, so ``(accepted + steps) ÷ (steps
    + drafted)``.

    >>> round(system_efficiency(60, 33, 96).alpha, 4)
    0.7209
    """
    value = (accepted + steps) / (steps + drafted)
    return Converted(
        value,
        f"system efficiency = (accepted {accepted} + steps {steps}) / (steps {steps} + drafted {drafted}) "
        f"= {value:.4f} (emitted ÷ steps × (k + 1))",
    )


def own_value(cf: ClaimsFile, claim: Claim) -> Converted | None:
    """The claim's acceptance recomputed in its own definition from the counts it states, where
    ``counts`` (accepted ÷ drafted) do not already say it: system efficiency from ``emitted_tokens``,
    ``verify_steps`` and ``draft_tokens`` (emitted ÷ (steps + drafted)); None otherwise.

    Raises:
        ClaimsError: as ``to_llama_cpp``."""
    if definition_of(cf, claim) != "system_efficiency" or to_llama_cpp(cf, claim) is None:
        return None
    other = cf.conditions_of(claim).other
    emitted, steps = int(other["emitted_tokens"]), int(other["verify_steps"])
    drafted = int(other.get("draft_tokens", (claim.counts.drafted if claim.counts else None) or 0))
    return system_efficiency(emitted - steps, steps, drafted)
