"""Host profiles: per-host overrides of a params section, picked without editing params.yaml.

``params.yaml`` has a top-level ``profiles`` mapping ``<profile> -> <section> -> overrides``; a
measurement reads ``params[<section>]`` updated (key by key) by the picked profile's overrides.  The
profile is picked per host, never written into a file:

1. ``$BENCHBOOK_PROFILE`` when set (must name a profile);
2. else ``gpu`` when ``nvidia-smi`` lists an NVIDIA GPU and a ``gpu`` profile exists;
3. else ``cpu`` when that profile exists, else none (the section as written).

Why not a second params file or a stage per host: DVC tracks ``params.yaml`` sections and outputs in
one ``dvc.lock``, so anything a GPU host wrote there would make the CPU host's stages stale and
conflict on ``git pull``.  Host-bound measurements (``offload``, ``spec_depth``, ``draftself_gpu``) are
stages of ``measure/dvc.yaml`` like the others, run by ``benchbook run`` only where ``host_bound_skip``
says the host runs them (``python -m benchbook.experiments <name> --if-runnable``, the same command
without DVC); their raw JSONL, keyed by host id, is what travels through git, and the report stages
read every host's records.  Every record names the profile and why it was picked.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from .contract import PARAMS_FILE, Source, Sourced

ENV = "BENCHBOOK_PROFILE"


class ProfileError(ValueError):
    """``--profile`` or ``$BENCHBOOK_PROFILE`` names no profile of params.yaml; the message says which of
    the two, lists the profiles and the fix."""


@dataclass(frozen=True)
class Picked:
    """The profile picked for this host (``name`` None: none) and why (one line); ``chosen``: named by
    ``--profile`` or ``$BENCHBOOK_PROFILE`` (the user's choice for this host), not picked from its GPU."""

    name: str | None
    reason: str
    chosen: bool = False


#: the profile picked on a host whose ``nvidia-smi`` lists an NVIDIA GPU: the one that runs host-bound
#: experiments without being chosen
GPU = "gpu"


def host_bound_skip(picked: Picked) -> str | None:
    """Why this host does not run host-bound experiments (``benchbook.stages``: offload, spec_depth,
    draftself_gpu), in words, or None when it does: they run under the ``gpu`` profile (an NVIDIA GPU
    listed by ``nvidia-smi``) or under a profile chosen for the host (``--profile``,
    ``$BENCHBOOK_PROFILE``: the CPU dry run, a GPU host whose profile has another name)."""
    if picked.chosen or picked.name == GPU:
        return None
    return (
        f"profile {picked.name or 'none'} ({picked.reason}); host-bound experiments run under the {GPU} "
        f"profile of a host with an NVIDIA GPU, or where ${ENV} names a profile"
    )


def pick(
    params: dict,
    env: Mapping[str, str] | None = None,
    gpus: list[dict] | None = None,
    profile: str | None = None,
) -> Picked:
    """Pick the profile for this host (rules in the module docstring); ``profile`` (``--profile``), when
    given, comes before them all.

    ``env`` defaults to ``os.environ``; ``gpus`` to ``provenance.gpu_info()`` (tests pass both).

    Raises:
        ProfileError: ``profile`` or ``$BENCHBOOK_PROFILE`` names a profile ``params["profiles"]`` lacks
            (the message names which of the two).
    """
    names = list((params or {}).get("profiles") or {})
    known = ", ".join(names) if names else "none (params.yaml has no `profiles`)"
    if profile:
        if profile not in names:
            raise ProfileError(
                f"--profile {profile!r} is not a profile of params.yaml `profiles` ({known}); fix: "
                + (
                    f"--profile {' or --profile '.join(names)}, or leave it out (picked per host)"
                    if names
                    else "leave it out"
                )
            )
        return Picked(profile, f"--profile {profile}", chosen=True)
    chosen = (os.environ if env is None else env).get(ENV)
    if chosen:
        if chosen not in names:
            raise ProfileError(
                f"${ENV}={chosen!r} but params.yaml `profiles` has {known}; fix: "
                + (f"set it to one of {', '.join(names)}, or unset it" if names else "unset it")
            )
        return Picked(chosen, f"${ENV}={chosen}", chosen=True)
    if gpus is None:
        from ..provenance import gpu_info

        gpus = gpu_info()
    if gpus and GPU in names:
        return Picked(GPU, f"nvidia-smi lists {gpus[0]['name']}")
    if "cpu" in names:
        return Picked("cpu", "no NVIDIA GPU listed by nvidia-smi")
    return Picked(None, "no profile applies")


def layer(params: dict, name: str, picked: Picked) -> Sourced:
    """The picked profile's keys for section ``name`` (``params["profiles"][picked.name][name]``; none
    without a profile), each from params.yaml ``profiles.<profile>.<name>``.

    Raises:
        errors.ParamsError: the profile or its section is not a mapping (names it and the fix).
    """
    if not picked.name:
        return Sourced(None, Source(PARAMS_FILE, name))
    return Sourced.section(params, f"profiles.{picked.name}.{name}")


def section(params: dict, name: str, picked: Picked) -> Sourced:
    """``params[name]`` updated key by key by ``layer`` (a copy; each key names where it was written).

    Raises:
        errors.ParamsError: a section on the way is not a mapping.
    """
    return Sourced.section(params, name) | layer(params, name, picked)
