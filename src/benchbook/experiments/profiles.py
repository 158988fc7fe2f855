"""Host profiles: per-host overrides of a params section, picked without editing params.yaml.

``params.yaml`` has a top-level ``profiles`` mapping ``<profile> -> <section> -> overrides``; a
measurement reads ``params[<section>]`` updated (key by key) by the picked profile's overrides.  The
profile is picked per host, never written into a file:

1. ``$BENCHBOOK_PROFILE`` when set (must name a profile);
2. else ``gpu`` when ``nvidia-smi`` lists an NVIDIA GPU and a ``gpu`` profile exists;
3. else ``cpu`` when that profile exists, else none (the section as written).

Why not a second params file or a stage per host: DVC tracks ``params.yaml`` sections and outputs in
one ``dvc.lock``, so anything a GPU host wrote there would make the CPU host's stages stale and
conflict on ``git pull``.  Host-bound measurements that use a profile (``offload``) therefore run
outside DVC (``python -m benchbook.experiments <name>``); their raw JSONL, keyed by host id, is what
travels through git, and the report stages read every host's records.  Every record names the
profile and why it was picked.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

ENV = "BENCHBOOK_PROFILE"


class ProfileError(ValueError):
    """``$BENCHBOOK_PROFILE`` names no profile of params.yaml; the message lists them and the fix."""


@dataclass(frozen=True)
class Picked:
    """The profile picked for this host (``name`` None: none) and why (one line)."""

    name: str | None
    reason: str


def pick(params: dict, env: Mapping[str, str] | None = None, gpus: list[dict] | None = None) -> Picked:
    """Pick the profile for this host (rules in the module docstring).

    ``env`` defaults to ``os.environ``; ``gpus`` to ``provenance.gpu_info()`` (tests pass both).

    Raises:
        ProfileError: ``$BENCHBOOK_PROFILE`` is set to a name ``params["profiles"]`` lacks.
    """
    names = list((params or {}).get("profiles") or {})
    chosen = (os.environ if env is None else env).get(ENV)
    if chosen:
        if chosen not in names:
            raise ProfileError(
                f"${ENV}={chosen!r} but params.yaml `profiles` has {names or 'none'}; fix: "
                f"unset it or name one of them"
            )
        return Picked(chosen, f"${ENV}={chosen}")
    if gpus is None:
        from ..provenance import gpu_info

        gpus = gpu_info()
    if gpus and "gpu" in names:
        return Picked("gpu", f"nvidia-smi lists {gpus[0]['name']}")
    if "cpu" in names:
        return Picked("cpu", "no NVIDIA GPU listed by nvidia-smi")
    return Picked(None, "no profile applies")


def section(params: dict, name: str, picked: Picked) -> dict:
    """``params[name]`` updated key by key by ``params["profiles"][picked.name][name]`` (a copy)."""
    base = dict((params or {}).get(name) or {})
    if picked.name:
        base.update(((params.get("profiles") or {}).get(picked.name) or {}).get(name) or {})
    return base
