"""Context settings of a llama.cpp log: what was requested and what the context used.

``n_batch``, ``n_ubatch`` and ``flash_attn`` are asked for on the command line (``-b``, ``-ub``,
``-fa``) and may be changed by llama.cpp before it runs: ``n_ubatch`` is cut to ``n_batch``, ``n_batch``
to ``n_ctx`` (causal attention), ``-fa auto`` resolved, flash attention turned off where the backend
cannot do it.  A number measured under the effective setting is not a number of the requested one.

Read from the text (line numbers kept):

* requested: a command line in the text (a line naming ``llama-server``, ``llama-cli``,
  ``llama-sweep-bench``, ``llama-batched-bench`` or ``llama-bench`` followed by its flags: ``-b N`` /
  ``--batch-size N``, ``-ub N`` / ``--ubatch-size N``, ``-fa [on|off|auto|1|0]`` / ``--flash-attn``),
  and the header llama-sweep-bench and llama-batched-bench print from their parameters (``main:
  n_kv_max = 8192, n_batch = 2048, n_ubatch = 512, flash_attn = 1, ...``; newer ``flash_attn_type =
  -1``: -1 auto, 0 off, 1 on);
* effective: the context's own lines (``llama_context: n_batch       = 2048``, ``n_ubatch``,
  ``flash_attn    = auto|enabled|disabled|0|1``; older ``llama_new_context_with_model:``), and ``Flash
  Attention was auto, set to enabled`` (the resolution of ``auto``).

``flash_attn`` values are "on", "off" or "auto".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SETTINGS = ("n_batch", "n_ubatch", "flash_attn")

_CONTEXT = re.compile(
    r"\b(?:llama_context|llama_new_context_with_model|llama_init_from_model):\s*"
    r"(n_batch|n_ubatch|flash_attn)\s*=\s*([\w-]+)"
)
_FA_RESOLVED = re.compile(r"Flash Attention was auto, set to (enabled|disabled)")
_HEADER = re.compile(r"\bn_kv_max\s*=\s*\d+\s*,")
_HEADER_PAIR = re.compile(r"\b(n_batch|n_ubatch|flash_attn|flash_attn_type)\s*=\s*(-?\d+)")
_TOOL = re.compile(r"(?:^|[\s/\\])llama-(?:server|cli|sweep-bench|batched-bench|bench)(?:\.exe)?\s+-")
_FLAGS = {
    "-b": "n_batch",
    "--batch-size": "n_batch",
    "-ub": "n_ubatch",
    "--ubatch-size": "n_ubatch",
    "-fa": "flash_attn",
    "--flash-attn": "flash_attn",
}


def flash_attn_word(value: str | int | None) -> str | None:
    """A flash-attention setting as "on" | "off" | "auto" (llama.cpp prints 1/0, -1 for auto,
    enabled/disabled, on/off, true/false); None when it is none of these.

    >>> flash_attn_word("enabled"), flash_attn_word(-1), flash_attn_word("0")
    ('on', 'auto', 'off')
    """
    word = str(value).strip().lower()
    if word in ("1", "on", "enabled", "true", "yes"):
        return "on"
    if word in ("0", "off", "disabled", "false", "no"):
        return "off"
    if word in ("-1", "auto"):
        return "auto"
    return None


@dataclass(frozen=True)
class Setting:
    """One context setting: the value requested (``requested_line``) and the one the context used
    (``effective_line``); None where the text does not say."""

    name: str
    requested: int | str | None = None
    requested_line: int | None = None
    effective: int | str | None = None
    effective_line: int | None = None

    @property
    def differs(self) -> bool:
        """Both known and different (``auto`` resolved to on or off is no difference)."""
        if self.requested is None or self.effective is None:
            return False
        return self.requested != self.effective and self.requested != "auto"

    def text(self, path: str) -> str:
        """``n_ubatch: requested 4096 (log:3), the context used 2048 (log:41)``."""
        return (
            f"{self.name}: requested {self.requested} ({path}:{self.requested_line}), "
            f"the context used {self.effective} ({path}:{self.effective_line})"
        )


def _command_flags(line: str) -> dict[str, int | str]:
    """The context flags of one command line (``_FLAGS``); ``-fa`` with no value is "on" (builds
    before ``-fa on|off|auto``); a llama-bench list (``-fa 0,1``) requests no one value and is left
    out (each row states its own)."""
    words = line.split()
    out: dict[str, int | str] = {}
    for i, w in enumerate(words):
        flag, _, attached = w.partition("=")
        name = _FLAGS.get(flag)
        if name is None:
            continue
        value = attached or (words[i + 1] if i + 1 < len(words) else "")
        if "," in value:  # llama-bench's list (-fa 0,1; -ub 256,512): no one value was requested
            continue
        if name == "flash_attn":
            out[name] = flash_attn_word(value) or "on"
        elif re.fullmatch(r"\d+", value):
            out[name] = int(value)
    return out


def context_settings(text: str) -> dict[str, Setting]:
    """The ``SETTINGS`` a log states, requested and effective (module doc); a setting the text names
    neither way is left out.  The first statement of each wins (a server prints its context once; a
    draft model's context comes after the target's)."""
    requested: dict[str, tuple[int | str, int]] = {}
    effective: dict[str, tuple[int | str, int]] = {}
    for i, line in enumerate(text.splitlines(), 1):
        if _TOOL.search(line):
            for name, value in _command_flags(line).items():
                requested.setdefault(name, (value, i))
        if _HEADER.search(line):
            for name, value in _HEADER_PAIR.findall(line):
                key = "flash_attn" if name.startswith("flash_attn") else name
                got = flash_attn_word(value) if key == "flash_attn" else int(value)
                if got is not None:
                    requested.setdefault(key, (got, i))
        m = _CONTEXT.search(line)
        if m:
            key, raw = m.group(1), m.group(2)
            got = flash_attn_word(raw) if key == "flash_attn" else (int(raw) if raw.isdecimal() else None)
            if got is not None:
                if key == "flash_attn" and got == "auto" and key in effective:
                    continue
                effective.setdefault(key, (got, i))
        m = _FA_RESOLVED.search(line)
        if m:
            effective["flash_attn"] = (flash_attn_word(m.group(1)) or "auto", i)
    out = {}
    for name in SETTINGS:
        r, e = requested.get(name), effective.get(name)
        if r is None and e is None:
            continue
        out[name] = Setting(
            name,
            r[0] if r else None,
            r[1] if r else None,
            e[0] if e else None,
            e[1] if e else None,
        )
    return out
