"""``python -m benchbook.experiments NAME [--profile P] [--if-runnable]``: one measurement session of
experiment NAME with this host's profile (``experiments.profiles``), outside papermill — the command of
a host-bound experiment's stage in ``measure/dvc.yaml`` (``offload``, ``spec_depth``, ``draftself_gpu``,
with ``--if-runnable``), and the way any experiment runs on a machine without DVC or papermill.
Prints the session summary as JSON; raw records go to ``<raw_dir>/<NAME>/<host_id>.jsonl``.
``--if-runnable``: on a host whose profile does not run host-bound experiments
(``profiles.host_bound_skip``: no NVIDIA GPU and no ``$BENCHBOOK_PROFILE``), one line saying so and
exit 0, nothing measured.

The session's overrides are the picked profile's keys for NAME (params.yaml
``profiles.<profile>.<NAME>``), then ``--overrides``; each key keeps where it was written
(``contract.Sourced``), so an error names params.yaml's key, the profile's or ``--overrides``.  An error
its user can fix (a wrong parameter, an unknown profile or experiment, a missing build) is one
``benchbook: error:`` line and exit 2 (``benchbook.errors``, as ``benchbook`` does); Ctrl-C, exit 130.
Records a session wrote before either stay (each is written as it finishes; the next invocation
resumes the session).
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import json
import os
import sys
from pathlib import Path

from .. import errors, measured, resolve, session
from . import check_name, profiles
from .contract import ParamsError, Source, Sourced

#: the ``Source`` of the keys of ``--overrides``
OPTION = Source("--overrides")


def parse_overrides(text: str) -> Sourced:
    """``--overrides`` (JSON; ``null``: none) as a mapping from ``OPTION``.

    Raises:
        errors.ParamsError: not JSON, or not a JSON object (names the option and the fix).
    """
    try:
        value = json.loads(text)
    except json.JSONDecodeError as e:
        raise ParamsError(
            f"`--overrides` is not JSON ({e}: {text!r:.60}); fix: a JSON object of keys and values, "
            """e.g. --overrides '{"repetitions": 3}'"""
        ) from None
    return Sourced(value, OPTION)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchbook.experiments")
    ap.add_argument("name", help="experiment package under benchbook.experiments (offload, llama_bench, ...)")
    ap.add_argument("--profile", default=None, help=f"profile name (default: ${profiles.ENV}, else auto)")
    ap.add_argument("--root", default=".")
    ap.add_argument("--raw-dir", default="data/raw")
    ap.add_argument(
        "--overrides", default="{}", help="JSON merged into the section after the profile (null: none)"
    )
    ap.add_argument(
        "--if-runnable",
        action="store_true",
        help="measure only where this host's profile runs host-bound experiments (an NVIDIA GPU, or "
        f"${profiles.ENV}); elsewhere say so in one line and exit 0",
    )
    ap.add_argument(
        "--fresh-session",
        action="store_true",
        help="start a new session even where an interrupted one with the same config could be resumed",
    )
    a = ap.parse_args(argv)
    before = os.environ.get(profiles.ENV)
    before_fresh = os.environ.get(session.FRESH_ENV)
    try:
        with errors.stop_signals_interrupt():  # a SIGTERM closes the session as Ctrl-C does (no end record)
            return _measure(a)
    except KeyboardInterrupt:
        print(
            f"benchbook: interrupted `python -m benchbook.experiments {a.name}`; measurements recorded "
            "so far are kept (each record is written as it finishes); the same command again resumes the "
            "session",
            file=sys.stderr,
        )
        return errors.EXIT_INTERRUPTED
    except errors.USER_ERRORS as e:
        return errors.report(e)
    finally:
        for name, value in ((profiles.ENV, before), (session.FRESH_ENV, before_fresh)):
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _measure(a: argparse.Namespace) -> int:
    """One session of ``a.name`` (module doc); the environment is restored by ``main``."""
    name = check_name(a.name)
    root = Path(a.root).resolve()
    params = resolve.load_params(root)
    picked = profiles.pick(params, profile=a.profile)
    why_not = profiles.host_bound_skip(picked) if a.if_runnable else None
    if why_not:
        print(skip_line(name, why_not), file=sys.stderr)
        return 0
    over = profiles.layer(params, name, picked) | parse_overrides(a.overrides)
    if a.profile:  # for the runner too (offload picks it again); restored by main
        os.environ[profiles.ENV] = a.profile
    if a.fresh_session:
        os.environ[session.FRESH_ENV] = "1"
    run = importlib.import_module(f"benchbook.experiments.{name}.run")
    print(f"{name}: profile {picked.name} ({picked.reason})", file=sys.stderr)
    out = run.measure(params, root=root, raw_dir=Path(a.raw_dir), overrides=over)
    # every experiment returns a SessionResult (or a subclass with its extras)
    print(json.dumps({k: v for k, v in dataclasses.asdict(out).items() if k != "cfg"}, default=str))
    return failed_runs_status(name, out)


def skip_line(name: str, why_not: str) -> str:
    """The one line of a host-bound experiment this host does not run (``profiles.host_bound_skip``'s
    ``why_not``): the same words from its stage command and from ``benchbook run``."""
    return f"{name}: not measured on this host (host-bound): {why_not}; its report reads the committed data"


def failed_runs_status(name: str, out: session.SessionResult) -> int:
    """The exit status of a session: 0, or ``errors.EXIT_ERROR`` with one ``benchbook: error:`` line when
    runs failed that the experiment's table needs (``measured.POLICIES[name].failed_is_fault``; an
    offload point that failed out of memory is data, not a fault).  Before, such a session exited 0, so
    a script or CI step took a session no report publishes for a success."""
    policy = measured.POLICIES.get(name)
    if not out.failed or (policy is not None and not policy.failed_is_fault):
        return 0
    first = out.failures[0] if out.failures else {}
    return errors.report(
        RuntimeError(
            f"{name}: {out.failed} run{'s' if out.failed != 1 else ''} failed in session {out.session_id} "
            f"(first: {first.get('run')}: {first.get('error')}); no report publishes a session with a failed "
            f"run; fix: see the error above, then run the same command again (it resumes the session and "
            "measures only what is missing)"
        )
    )


if __name__ == "__main__":
    sys.exit(main())
