"""The measured gap between llama-bench's tg rate and llama-server's decode rate, as context for an audit
verdict that compares the two (issue 31 item 4).

A comparison of a llama-bench rate with a server (real-prompt) rate stays "not comparable" (``caveats``
``mixed_method``); where this project measured the gap on a host (the ``tool_gap`` experiment, its
registry ``reports/numbers/tool_gap.json``), the verdict also notes what the gap was there and which
factors were measured (``note``): "on host 8b0c3265 (this project's) the same model's llama-server
decode (95.0 tok/s) is 7.1% above llama-bench tg (88.7 tok/s) ...".  The gap is of this project's host,
model and build, not the claim's: context, never a correction of the claim's number.

``read_registry`` reads the registry's numbers per host (keys ``tool_gap-h<host>-<part>-<unit>``,
``experiments.tool_gap.report``); no file, or no number of a host: no context.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

#: the registry file of the tool_gap experiment, relative to the repository root
REGISTRY = Path("reports/numbers/tool_gap.json")
#: the method classes (``caveats.DEFAULTS["method_classes"]``) whose comparison the gap explains
METHODS = frozenset({"llama-bench", "real-prompt"})

_KEY = re.compile(r"^tool_gap-h(?P<host>[0-9a-f]{8})-(?P<part>[a-z_]+(?:-k\d+)?)-(?P<unit>tok_s|ms|share)$")
#: the parts between the two ends (``experiments.tool_gap.analysis``), in waterfall order
_PARTS = (
    "depth",
    "server_loop",
    "first_token",
    "template",
    "sampler",
    "n_probs",
    "stream",
    "prompt_cache",
    "server_defaults",
)


@dataclass(frozen=True)
class GapContext:
    """One host's measured gap: ``host`` (8 hex), the two rates (tok/s), the ``total`` (ms per token,
    server − llama-bench) with its interval ``total_ci`` (None: none published), and ``factors``: the
    parts whose interval excludes 0, as ``(part, ms per token)``, in waterfall order."""

    host: str
    bench_tok_s: float
    server_tok_s: float
    total_ms: float
    total_ci: tuple[float, float] | None
    factors: tuple[tuple[str, float], ...]

    def text(self) -> str:
        """The note: the server's rate against llama-bench's in percent, whether the gap is measurable
        and the factors measured (ms per token).

        >>> GapContext("8b0c3265", 88.7, 95.0, -0.46, (-3.73, 2.81), (("n_probs", 2.57),)).text()[:96]
        "on host 8b0c3265 (this project's) the same model's llama-server decode (95.0 tok/s) is 7.1% abo"
        """
        pct = (self.server_tok_s / self.bench_tok_s - 1) * 100
        side = "above" if pct >= 0 else "below"
        head = (
            f"on host {self.host} (this project's) the same model's llama-server decode "
            f"({self.server_tok_s:.1f} tok/s) is {abs(pct):.1f}% {side} llama-bench tg "
            f"({self.bench_tok_s:.1f} tok/s)"
        )
        if self.total_ci is not None and self.total_ci[0] <= 0 <= self.total_ci[1]:
            gap = (
                f"; the gap, {self.total_ms:+.3g} ms per token (95% interval {self.total_ci[0]:.3g} to "
                f"{self.total_ci[1]:.3g}), is not measurable there"
            )
        else:
            gap = f"; the gap is {self.total_ms:+.3g} ms per token"
        parts = (
            "; the factors measured: " + ", ".join(f"{p} {ms:+.3g} ms per token" for p, ms in self.factors)
            if self.factors
            else "; no factor measured apart from 0"
        )
        return head + gap + parts + " (tool_gap experiment; context, not a correction of the claim)"


def read_registry(path: str | Path) -> tuple[GapContext, ...]:
    """Each host's ``GapContext`` from the tool_gap registry file ``path`` (``numbers.publish``'s JSON:
    ``{"numbers": {key: {"value", "ci95", ...}}}``), in host order; () when the file does not exist or
    a host lacks either rate or the total.

    Raises:
        ValueError: the file is not JSON or has no ``numbers`` mapping (names the file and the fix)."""
    path = Path(path)
    if not path.exists():
        return ()
    try:
        numbers = json.loads(path.read_text(encoding="utf-8"))["numbers"]
        if not isinstance(numbers, dict):
            raise TypeError("numbers is not a mapping")
    except (ValueError, KeyError, TypeError) as e:
        raise ValueError(
            f"{path}: not a numbers registry ({e}); fix: rebuild it (`dvc repro tool_gap_report`)"
        ) from None
    by_host: dict[str, dict[tuple[str, str], dict]] = {}
    for key, num in numbers.items():
        if (m := _KEY.match(key)) is not None:
            by_host.setdefault(m["host"], {})[(m["part"], m["unit"])] = num
    out = []
    for host, nums in sorted(by_host.items()):
        start, end, total = (
            nums.get(("start", "tok_s")),
            nums.get(("end", "tok_s")),
            nums.get(("total", "ms")),
        )
        if start is None or end is None or total is None:
            continue
        factors = []
        for part in _PARTS:
            n = nums.get((part, "ms"))
            if n is not None and n.get("ci95") and not n["ci95"][0] <= 0 <= n["ci95"][1]:
                factors.append((part, float(n["value"])))
        ci = total.get("ci95")
        out.append(
            GapContext(
                host,
                float(start["value"]),
                float(end["value"]),
                float(total["value"]),
                (float(ci[0]), float(ci[1])) if ci else None,
                tuple(factors),
            )
        )
    return tuple(out)
