"""Re-runnable catalogue of bad inputs and faults (issue 34, "Measure and report").

``python scripts/fault_catalogue.py [--with-llama] [--only ID[,ID...]] [--keep]`` runs each fault in a
scratch folder (``$TMPDIR/fault_catalogue``: a copy of the project's params, pipeline files and committed
data, and its own ``BENCHBOOK_CACHE``; the user's cache is never touched), classifies the outcome and
prints a table and the totals.  Exit status 0 when every fault is ``ok``, else 1.

Outcomes:

* ``ok``: the expected behaviour (a ``benchbook: error:`` line naming the file/field and a fix, text shown
  inert, nothing lost or doubled);
* ``traceback``: a Python traceback reached the user;
* ``data loss``: a file the user had was cut, lost or changed, a record lost or doubled, a wrong file
  registered;
* ``security``: planted text became markup, a shortcode, math, a link or a terminal control, or the
  tool read/ran something it should not;
* ``wrong message``: it failed safely but said the wrong thing (exit 0 on an error, no file/field, no fix,
  a hang).

The catalogue (id, kind, issue-34 section, expected behaviour) is ``FAULTS`` below and is printed by
``--list``; the ``--with-llama`` faults run llama.cpp (the default SmolLM2 model, seconds each) from a copy
of the toolchain and model in ``~/.cache/benchbook`` (copied, never written).
"""

# ruff: noqa: E501 - the catalogue's rows and planted payloads read best on one line each
from __future__ import annotations

import argparse
import hashlib
import html
import http.server
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
SCRATCH = Path(os.environ.get("TMPDIR", "/tmp")) / "fault_catalogue"
USER_CACHE = Path.home() / ".cache" / "benchbook"
DEFAULT_SHA = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
Q8_SHA = "7b46609d11703c058397e5cfe4cc6e4b2508cb1eb4c80ddc472a5d421fbdb508"

#: planted in every text a page shows: HTML, Quarto shortcodes (include/env/var/meta), math, a
#: javascript: link, an image with an event handler, an RTL override and a terminal title sequence
PAYLOAD = (
    "<script>alert(1)</script> {{< include /etc/os-release >}} {{< env HOME >}} {{< var lb-x >}} "
    "{{< meta title >}} $x$ $y$ [clk](javascript:alert(1)) <img src=x onerror=alert(2)> "
    "\u202eRTL \x1b]0;PWN\x07 \x9b31m"
)
#: invisible characters that drive a terminal or reorder text (escape._INVISIBLE's set)
CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


@dataclass
class R:
    """One command's result."""

    rc: int | None
    out: str
    err: str
    secs: float

    @property
    def both(self) -> str:
        return self.out + self.err


@dataclass
class Outcome:
    status: str  # ok | traceback | data loss | security | wrong message
    detail: str = ""


@dataclass
class Fault:
    id: str
    kind: str
    section: str
    expect: str
    fn: Callable[[Path], Outcome]
    llama: bool = False


def env(cache: Path | None = None, **extra: str) -> dict:
    e = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "BENCHBOOK_QUIET": "1", "NO_COLOR": "1"}
    e["BENCHBOOK_CACHE"] = str(cache or (SCRATCH / "_empty-cache"))
    e.pop("BENCHBOOK_ROOT", None)
    e.update(extra)
    return e


def run(
    args, cwd: Path, *, timeout: float = 120, e: dict | None = None, stdin: str | None = None, pre=None
) -> R:
    t = time.monotonic()
    try:
        p = subprocess.run(
            args,
            cwd=cwd,
            env=e or env(),
            input=stdin,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=timeout,
            preexec_fn=pre,
        )
        return R(p.returncode, p.stdout, p.stderr, time.monotonic() - t)
    except subprocess.TimeoutExpired as x:
        out = x.stdout.decode(errors="replace") if isinstance(x.stdout, bytes) else (x.stdout or "")
        err = x.stderr.decode(errors="replace") if isinstance(x.stderr, bytes) else (x.stderr or "")
        return R(None, out, err, time.monotonic() - t)


def bb(cwd: Path, *args: str, **kw) -> R:
    return run([PY, "-m", "benchbook.cli", *args], cwd, **kw)


def py(cwd: Path, code: str, **kw) -> R:
    return run([PY, "-c", textwrap.dedent(code)], cwd, **kw)


def project(d: Path, *, raw: bool = False, claims: bool = False) -> Path:
    """A scratch project: params.yaml, the pipeline files, data/prompts (and data/raw, data/claims)."""
    d.mkdir(parents=True, exist_ok=True)
    for f in ["params.yaml", "dvc.yaml", ".gitignore", "_quarto.yml"]:
        shutil.copy(ROOT / f, d / f)
    (d / "measure").mkdir(exist_ok=True)
    shutil.copy(ROOT / "measure" / "dvc.yaml", d / "measure" / "dvc.yaml")
    shutil.copytree(ROOT / "data" / "prompts", d / "data" / "prompts")
    if raw:
        shutil.copytree(ROOT / "data" / "raw", d / "data" / "raw")
    if claims:
        shutil.copytree(ROOT / "data" / "claims", d / "data" / "claims")
    return d


def tb(r: R) -> bool:
    return "Traceback (most recent call last)" in r.both


def first_tb_line(r: R) -> str:
    lines = [x for x in r.both.splitlines() if x.strip()]
    i = next((i for i, x in enumerate(lines) if x.startswith("Traceback")), 0)
    tail = [x for x in lines[i:] if not x.startswith(" ")]
    return (tail[-1] if tail else lines[-1])[:200]


def controls(text: str) -> list[str]:
    return sorted({f"U+{ord(c):04X}" for c in CONTROLS.findall(text)})


def short(text: str, n: int = 160) -> str:
    return " ".join(text.split())[:n]


def expect_error(r: R, *needles: str, fix: bool = True) -> Outcome:
    """A refusal: non-zero exit, a ``benchbook: error:`` (or named) line holding each needle and a fix."""
    if tb(r):
        return Outcome("traceback", first_tb_line(r))
    if controls(r.both):
        return Outcome("security", f"raw controls {controls(r.both)} in output")
    if r.rc is None:
        return Outcome("wrong message", f"hung (> timeout): {short(r.both)}")
    if r.rc == 0:
        return Outcome("wrong message", f"exit 0: {short(r.both)}")
    missing = [n for n in needles if n not in r.both]
    if missing:
        return Outcome("wrong message", f"no {missing!r} in: {short(r.err or r.out)}")
    if fix and "fix" not in r.both.lower():
        return Outcome("wrong message", f"no fix named: {short(r.err or r.out)}")
    return Outcome("ok", short(r.err or r.out, 120))


def expect_ok(r: R, *needles: str) -> Outcome:
    if tb(r):
        return Outcome("traceback", first_tb_line(r))
    if controls(r.both):
        return Outcome("security", f"raw controls {controls(r.both)} in output")
    if r.rc != 0:
        return Outcome("wrong message", f"exit {r.rc}: {short(r.err or r.out)}")
    missing = [n for n in needles if n not in r.both]
    if missing:
        return Outcome("wrong message", f"no {missing!r} in: {short(r.out)}")
    return Outcome("ok", short(r.out, 120))


def inert(page: str, where: str) -> Outcome:
    """Planted PAYLOAD shows as text: no tag, shortcode, math, link, image or control survives."""
    live = []
    low = page.lower()
    # a page's own shortcodes ({{< var lb-… >}}, {{< include _generated/… >}}) are allowed: the planted ones not
    planted = ["{{< include /etc", "{{< env ", "{{< var lb-x", "{{< meta ", "{{< include ../"]
    for token in ["<script", "<img", "$x$", "\u202e", "\x1b", "\x9b", *planted]:
        if token in low:
            live.append(token.encode("unicode_escape").decode())
    # a Markdown link is live outside raw HTML blocks (```{=html} … ```) only
    markdown = re.sub(r"```\{=html\}.*?```", "", page, flags=re.S)
    if "](javascript:" in markdown.lower():
        live.append("](javascript:")
    if live:
        return Outcome("security", f"{where}: live {live}")
    if "alert(1)" not in html.unescape(page).replace("&#40;", "(").replace("&#41;", ")"):
        return Outcome("wrong message", f"{where}: the planted text is not shown at all")
    return Outcome("ok", f"{where}: inert")


def plant(raw: Path, payload: str = PAYLOAD) -> None:
    """PAYLOAD into every text field of every snapshot (host, toolchain, model) and session record
    (runtime, label), ids and hashes excepted."""
    keep = re.compile(r"(^|_)(id|sha256|schema|event|at|path|file|bin_dir|started_at|ended_at)$")

    def walk(v, key=""):
        if isinstance(v, dict):
            return {k: walk(x, k) for k, x in v.items()}
        if isinstance(v, list):
            return [walk(x, key) for x in v]
        if isinstance(v, str) and not keep.search(key) and key not in {"schema", "backend", "machine"}:
            return payload
        return v

    files = [*(raw / "snapshots").rglob("*.jsonl"), raw / "draftself" / "sessions.jsonl"]
    for f in files:
        if not f.exists():
            continue
        out = []
        for line in f.read_text().splitlines():
            rec = json.loads(line)
            if rec.get("schema") in {"benchbook.host", "benchbook.toolchain"} or "runtime" in rec:
                rec = walk(rec)
                rec["schema"] = json.loads(line)["schema"]
            out.append(json.dumps(rec))
        f.write_text("\n".join(out) + "\n")


CLAIMS_HEAD = "schema: benchbook.claims\nschema_version: 1\nsource: {kind: synthetic test}\n"


def claims_file(d: Path, body: str, name: str = "c.yaml") -> Path:
    f = d / name
    f.write_text(CLAIMS_HEAD + body)
    return f


def audit(d: Path, *files: str, timeout: float = 120) -> R:
    return bb(d, "audit", *files, "--out", str(d / "o"), "--pages", str(d / "o"), timeout=timeout)


def pages_text(folder: Path) -> str:
    return "\n".join(
        p.read_text(errors="replace") for p in sorted(folder.rglob("*.qmd")) + sorted(folder.rglob("*.md"))
    )


# ---------------------------------------------------------------- §1 hostile snapshot text -> pages


def f_hosts_panel(d: Path) -> Outcome:
    p = project(d, raw=True)
    plant(p / "data" / "raw")
    r = py(
        p,
        """
        from pathlib import Path
        from benchbook import hosts
        for exp in ["llama_bench", "offload", "speculative", "spec_depth", "draftself", "draftself_gpu", "tool_gap"]:
            print(hosts.hosts_panel(Path("data/raw"), exp, None))
        """,
    )
    if tb(r) or r.rc:
        return expect_ok(r)
    return inert(r.out, "hosts_panel (7 experiments)")


def f_lb_hosts_page(d: Path) -> Outcome:
    p = project(d, raw=True)
    plant(p / "data" / "raw")
    r = py(
        p,
        """
        from pathlib import Path
        from benchbook import resolve
        from benchbook.experiments.llama_bench import report
        raw, out = Path("data/raw"), Path("out")
        report.derive(raw / "llama_bench", raw / "snapshots", out / "lb", out / "numbers.json",
                      out / "metrics.json", resolve.load_params(Path("."))["report"], root=Path("."))
        """,
    )
    if tb(r) or r.rc:
        return expect_ok(r)
    return inert(pages_text(p / "out"), "llama_bench report pages")


def f_hosts_terminal(d: Path) -> Outcome:
    p = project(d, raw=True)
    plant(p / "data" / "raw")
    r = bb(p, "hosts")
    o = expect_ok(r)
    if o.status != "ok":
        return o
    return Outcome("ok", "benchbook hosts: controls shown as code points") if "⟨U+202E⟩" in r.out else o


def f_offload_stderr(d: Path) -> Outcome:
    """llama-bench's stderr (an offload failure reason) with the payload -> sweep.md."""
    p = project(d)
    sys.path.insert(0, str(ROOT / "tests"))
    r = py(
        p,
        f"""
        import sys, json
        sys.path.insert(0, {str(ROOT / "tests")!r})
        from pathlib import Path
        from test_offload import _write_session
        from benchbook.experiments.offload import report
        path = Path("raw/offload/h1.jsonl")
        _write_session(path)
        t = path.read_text().replace("out of memory: cudaMalloc failed", json.dumps({PAYLOAD!r})[1:-1])
        path.write_text(t)
        report.build({{"report": {{"confidence": 0.95}}}}, root=Path("."), raw_dir=Path("raw"), reports_dir=Path("rep"))
        print(Path("rep/offload/sweep.md").read_text())
        """,
    )
    if tb(r) or r.rc:
        return expect_ok(r)
    return inert(r.out, "offload sweep.md")


def f_skipped_page(d: Path) -> Outcome:
    r = py(
        d,
        f"""
        from benchbook import measured
        P = {PAYLOAD!r}
        c = measured.SessionCheck(session_id=P, experiment="llama_bench", host_id=P, started_at=P,
            ended_at=P, file="data/raw/x/" + P + ".jsonl", reasons=["run 1: " + P])
        print(measured.skipped_markdown([c], drift={{P: ["`model`: " + P]}}))
        """,
    )
    if tb(r) or r.rc:
        return expect_ok(r)
    return inert(r.out, "skipped sessions page")


def f_model_name(d: Path) -> Outcome:
    """A hostile model id under models.registry / llama_bench.models is refused at params load."""
    p = project(d)
    t = (p / "params.yaml").read_text()
    (p / "params.yaml").write_text(
        t.replace(
            "    smollm2-135m-q2_k: {derived_from",
            '    "<script>x{{< env HOME >}}": {derived_from: smollm2-135m-q4_1, quantize: Q4_0}\n    smollm2-135m-q2_k: {derived_from',
            1,
        )
    )
    return expect_error(bb(p, "doctor"), "params.yaml")


def f_writeup_name(d: Path) -> Outcome:
    p = project(d)
    return expect_error(bb(p, "writeup", "new", "<script>{{< env HOME >}}$x$"), "name", fix=False)


def f_newpage_name(d: Path) -> Outcome:
    p = project(d)
    r = bb(p, "new-page", "{{< include ..-..-etc-passwd >}}", "--experiment", "llama_bench")
    return expect_error(r, "page name", fix=False)


def f_ingest_hostile(d: Path) -> Outcome:
    """llama-bench JSONL whose model_filename/cpu_info carry the payload: ingest prints it inert."""
    row = {
        "build_commit": "abc",
        "build_number": 1,
        "cpu_info": PAYLOAD,
        "gpu_info": PAYLOAD,
        "backends": "CPU",
        "model_filename": PAYLOAD,
        "model_type": PAYLOAD,
        "model_size": 1,
        "model_n_params": 1,
        "n_batch": 2048,
        "n_ubatch": 512,
        "n_threads": 2,
        "type_k": "f16",
        "type_v": "f16",
        "n_gpu_layers": 99,
        "n_prompt": 128,
        "n_gen": 0,
        "n_depth": 0,
        "test_time": "2026-01-01T00:00:00Z",
        "avg_ns": 1000,
        "stddev_ns": 1,
        "avg_ts": 100.0,
        "stddev_ts": 1.0,
        "samples_ns": [1000, 1000],
        "samples_ts": [100.0, 100.0],
    }
    f = d / "lb.jsonl"
    f.write_text(json.dumps(row) + "\n")
    r = bb(d, "ingest", str(f))
    if tb(r):
        return Outcome("traceback", first_tb_line(r))
    if controls(r.both):
        return Outcome("security", f"raw controls {controls(r.both)}")
    return Outcome("ok", f"exit {r.rc}: {short(r.both, 100)}")


def f_site_generate(d: Path) -> Outcome:
    """Every string a registry number carries from records (label, build, commands) plus planted
    snapshots -> site.generate's provenance pages, _generated parts and _variables.yml."""
    p = d / "site"
    r = run(["git", "-C", str(ROOT), "archive", "HEAD", "-o", str(d / "a.tar")], d)
    if r.rc:
        return Outcome("wrong message", f"catalogue: git archive: {short(r.err)}")
    p.mkdir()
    run(["tar", "-xf", str(d / "a.tar"), "-C", str(p)], d)
    (p / "reports" / "numbers").mkdir(parents=True)
    for f in (ROOT / "tests" / "fixtures" / "registry").glob("*.json"):
        shutil.copy(f, p / "reports" / "numbers" / f.name)
    plant(p / "data" / "raw")
    r = py(
        p,
        f"""
        import json
        from pathlib import Path
        P = {PAYLOAD!r}
        for f in Path("reports/numbers").glob("*.json"):
            d = json.loads(f.read_text())
            for n in d["numbers"].values():
                n["label"] = n.get("label", "") + " " + P
                n["build"] = P
                n["commands"] = [[*c, P] for c in n.get("commands") or []]
            f.write_text(json.dumps(d))
        from benchbook import site
        site.generate(Path("."))
        """,
        timeout=300,
    )
    if tb(r) or r.rc:
        return expect_ok(r)
    texts = [f.read_text() for f in [*(p / "_generated").glob("*.md"), *(p / "provenance").glob("*.qmd")]]
    o = inert("\n".join(texts), "provenance pages and _generated parts")
    if o.status != "ok":
        return o
    var = (p / "_variables.yml").read_text()
    if "alert(" in var:
        return Outcome("security", "_variables.yml carries a record's text")
    return Outcome("ok", o.detail + "; _variables.yml holds no record text")


# ---------------------------------------------------------------- §2 claims text: bidi, escapes


def _claims_hostile(d: Path, field: str) -> Outcome:
    hostile = json.dumps(PAYLOAD)
    body = {
        "id": f"claims:\n  - {{id: {hostile}, metric: decode_tps, value: 10, unit: tok/s}}\n",
        "statement": "claims:\n  - {id: a, metric: decode_tps, value: 10, unit: tok/s}\n  - {id: b, metric: decode_tps, value: 13, unit: tok/s}\n"
        f"statements:\n  - {{id: s, kind: ratio, of: [b, a], value: 1.3, unit: x, statement: {hostile}}}\n",
        "source": f"claims:\n  - {{id: a, metric: decode_tps, value: 10, unit: tok/s, note: {hostile}, quote: {hostile}}}\n",
        "model": f"model: {{name: {hostile}}}\nclaims:\n  - {{id: a, metric: decode_tps, value: 10, unit: tok/s, model: {hostile}}}\n",
    }[field]
    f = claims_file(d, body)
    if field == "source":
        f.write_text(
            f.read_text().replace(
                "source: {kind: synthetic test}", f"source: {{kind: {hostile}, link: {hostile}}}"
            )
        )
    r = audit(d, str(f))
    if tb(r):
        return Outcome("traceback", first_tb_line(r))
    if controls(r.both):
        return Outcome("security", f"terminal: raw {controls(r.both)}")
    if r.rc != 0:
        return (
            Outcome("ok", f"refused: {short(r.err, 120)}")
            if "error" in r.err
            else Outcome("wrong message", short(r.both))
        )
    page = pages_text(d / "o")
    if not page:
        return Outcome("wrong message", "no page written")
    return inert(page, f"audit page ({field})")


def f_claim_id(d: Path) -> Outcome:
    return _claims_hostile(d, "id")


def f_claim_statement(d: Path) -> Outcome:
    return _claims_hostile(d, "statement")


def f_claim_source(d: Path) -> Outcome:
    return _claims_hostile(d, "source")


def f_claim_model(d: Path) -> Outcome:
    return _claims_hostile(d, "model")


def f_claim_file_name(d: Path) -> Outcome:
    """The claims file's own name carries markup and an ESC: terminal and page inert."""
    f = claims_file(
        d,
        "claims:\n  - {id: a, metric: decode_tps, value: 10, unit: tok/s}\n",
        name="x\x1b]0;T\x07$x$ {{< env HOME >}}.yaml",
    )
    r = audit(d, str(f))
    if tb(r):
        return Outcome("traceback", first_tb_line(r))
    if controls(r.both):
        return Outcome("security", f"terminal: raw {controls(r.both)}")
    page = pages_text(d / "o")
    for token in ["{{<", "$x$"]:
        if token in page:
            return Outcome("security", f"page: live {token!r} from the file name")
    return Outcome("ok", f"exit {r.rc}")


def _post(d: Path, text: str, name: str = "post.md") -> Path:
    f = d / name
    f.write_text(text)
    return f


POST = (
    "# Fast inference\n\nOn my RTX 4090 with llama.cpp b4000 I got 123.4 tok/s decode on Llama-3-8B Q4_K_M "
    "and 2,345 tok/s prompt processing.\n\n"
)


def f_draft_hostile(d: Path) -> Outcome:
    f = _post(d, POST + PAYLOAD + " 99.9 tok/s decode " + PAYLOAD + "\n")
    r = bb(d, "claims", "draft", str(f), "-o", str(d / "c.yaml"))
    o = expect_ok(r)
    if o.status != "ok":
        return o
    r2 = audit(d, str(d / "c.yaml"))
    o = expect_ok(r2)
    if o.status != "ok":
        return o
    return inert(pages_text(d / "o"), "drafted-then-audited page")


def f_audit_post(d: Path) -> Outcome:
    f = _post(d, POST + "<script>alert(1)</script> {{< include /etc/passwd >}} $x$ \u202e 55 tok/s\n")
    r = bb(d, "audit", str(f), "--out", str(d / "o"), "--pages", str(d / "o"))
    o = expect_ok(r)
    if o.status != "ok":
        return o
    page = pages_text(d / "o")
    if "root:x:0:0" in page:
        return Outcome("security", "/etc/passwd content in the page")
    return inert(page, "audit POST.md page")


def f_draft_html_post(d: Path) -> Outcome:
    f = _post(
        d,
        "<html><body><p>Decode: 77.7 tok/s on llama.cpp</p><script>alert(1)</script>"
        "<p onmouseover=alert(1)>{{< env HOME >}} 12.5 tok/s $x$</p></body></html>",
        "post.html",
    )
    r = bb(d, "claims", "draft", str(f), "-o", str(d / "c.yaml"))
    o = expect_ok(r)
    if o.status != "ok":
        return o
    r2 = audit(d, str(d / "c.yaml"))
    o = expect_ok(r2)
    if o.status != "ok":
        return o
    page = pages_text(d / "o")
    low = page.lower()
    live = [t for t in ["<script", "{{<", "$x$", "onmouseover="] if t in low and t != "onmouseover="]
    if "<p onmouseover" in low:
        live.append("<p onmouseover")
    return Outcome("security", f"live {live}") if live else Outcome("ok", "inert")


def f_draft_onto_other_file(d: Path) -> Outcome:
    """`claims draft POST -o FILE` where FILE is not a claims file (binary, a params.yaml): refused,
    FILE untouched."""
    f = _post(d, POST)
    outs = []
    for name, data in [("bin.yaml", os.urandom(3000)), ("params.yaml", (ROOT / "params.yaml").read_bytes())]:
        target = d / name
        target.write_bytes(data)
        r = bb(d, "claims", "draft", str(f), "-o", str(target))
        if tb(r):
            return Outcome("traceback", f"{name}: {first_tb_line(r)}")
        if target.read_bytes() != data:
            return Outcome("data loss", f"claims draft -o {name} overwrote it (exit {r.rc})")
        if r.rc == 0:
            return Outcome("wrong message", f"-o {name}: exit 0 and nothing written?")
        if str(target) not in r.err:
            return Outcome("wrong message", f"-o {name}: the file is not named: {short(r.err, 100)}")
        outs.append(short(r.err, 70))
    return Outcome("ok", " / ".join(outs))


def f_logs_symlinks(d: Path) -> Outcome:
    """A contributed X.logs/ folder whose entries are symlinks to files outside it (/etc/passwd, a
    secret file): they are not read (listed as such), and no byte of theirs reaches the audit page or
    records."""
    secret = d / "secret.txt"
    secret.write_text("SECRET-TOKEN-12345 decode 99.5 tok/s\n")
    logs = d / "c.logs"
    logs.mkdir()
    (logs / "a.log").symlink_to(secret)
    (logs / "p.log").symlink_to("/etc/passwd")
    f = claims_file(
        d,
        "claims:\n  - {id: a, metric: decode_tps, value: 99.5, unit: tok/s, log: a.log}\n"
        "  - {id: b, metric: decode_tps, value: 1, unit: tok/s, log: p.log}\n"
        "  - {id: c, metric: decode_tps, value: 1, unit: tok/s, log: ../secret.txt}\n",
    )
    r = audit(d, str(f))
    if tb(r):
        return Outcome("traceback", first_tb_line(r))
    out = pages_text(d / "o") + "".join(x.read_text() for x in (d / "o").glob("*.jsonl")) + r.both
    if "SECRET-TOKEN" in out or "root:x:0:0" in out:
        return Outcome("security", "a file outside the logs folder reached the audit's output")
    if "a symbolic link to a file outside the logs folder: not read" not in out:
        return Outcome("security", "a link out of the logs folder was read (not listed as not read)")
    return Outcome("ok", f"exit {r.rc}; the links out of the folder not read, and said so")


def f_draft_stdin_controls(d: Path) -> Outcome:
    r = bb(
        d, "claims", "draft", "-", "-o", str(d / "c.yaml"), stdin=POST + "\x1b[2J\x1b]0;PWN\x07 42 tok/s\n"
    )
    o = expect_ok(r)
    if o.status != "ok":
        return o
    text = (d / "c.yaml").read_text() if (d / "c.yaml").exists() else ""
    if "\x1b" in text:
        return Outcome("security", "raw ESC written into the drafted claims file")
    return Outcome("ok", "stdin post drafted, ESC not kept raw")


# ---------------------------------------------------------------- §3 claims files as denial of service


def f_alias_bomb(d: Path) -> Outcome:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 10):
        prev = chr(ord("a") + i - 1)
        cur = chr(ord("a") + i)
        lines.append(
            f"{cur}: &{cur} [*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev}]"
        )
    f = d / "bomb.yaml"
    f.write_text(
        CLAIMS_HEAD
        + "\n".join(lines)
        + "\nclaims:\n  - {id: x, metric: decode_tps, value: *j, unit: tok/s}\n"
    )
    r = audit(d, str(f), timeout=30)
    o = expect_error(r, "bomb.yaml")
    return Outcome(o.status, f"{r.secs:.1f}s {o.detail}")


def f_single_alias(d: Path) -> Outcome:
    f = claims_file(d, "claims:\n  - &c {id: a, metric: decode_tps, value: 10, unit: tok/s}\n  - *c\n")
    return expect_error(audit(d, str(f), timeout=30), "c.yaml")


def f_merge_key(d: Path) -> Outcome:
    f = claims_file(
        d, "base: &b {metric: decode_tps, unit: tok/s}\nclaims:\n  - {<<: *b, id: a, value: 10}\n"
    )
    return expect_error(audit(d, str(f), timeout=30), "c.yaml")


def f_python_tag(d: Path) -> Outcome:
    f = claims_file(
        d,
        "claims:\n  - {id: !!python/object/apply:os.system ['touch "
        + str(d / "PWNED")
        + "'], metric: decode_tps, value: 1, unit: tok/s}\n",
    )
    r = audit(d, str(f), timeout=30)
    if (d / "PWNED").exists():
        return Outcome("security", "a YAML python tag ran a command")
    return expect_error(r, "c.yaml")


def f_many_claims(d: Path) -> Outcome:
    n = 20_000
    body = "claims:\n" + "".join(
        f"  - {{id: c{i}, metric: decode_tps, value: {i % 97 + 1}, unit: tok/s}}\n" for i in range(n)
    )
    f = claims_file(d, body)
    r = audit(d, str(f), timeout=120)
    if tb(r):
        return Outcome("traceback", first_tb_line(r))
    if r.rc is None or r.secs > 60:
        return Outcome("wrong message", f"{n} claims: {r.secs:.0f} s (denial of service)")
    return Outcome("ok" if r.rc in (0, 2) else "wrong message", f"{n} claims: {r.secs:.1f} s, exit {r.rc}")


def f_deep_nesting(d: Path) -> Outcome:
    f = claims_file(d, "claims: " + "[" * 5000 + "]" * 5000 + "\n")
    return expect_error(audit(d, str(f), timeout=60), "c.yaml")


def f_deep_mapping(d: Path) -> Outcome:
    f = claims_file(
        d,
        "claims:\n  - {id: a, metric: decode_tps, value: 1, unit: tok/s, note: "
        + "{a: " * 3000
        + "1"
        + "}" * 3000
        + "}\n",
    )
    return expect_error(audit(d, str(f), timeout=60), "c.yaml")


def f_big_claims(d: Path) -> Outcome:
    f = claims_file(
        d,
        'claims:\n  - {id: a, metric: decode_tps, value: 1, unit: tok/s, note: "' + "x" * 10_000_000 + '"}\n',
    )
    r = audit(d, str(f), timeout=120)
    if tb(r):
        return Outcome("traceback", first_tb_line(r))
    if r.rc is None:
        return Outcome("wrong message", "10 MB claims file: hung")
    return Outcome("ok", f"10 MB claims file: {r.secs:.1f} s, exit {r.rc}: {short(r.err, 80)}")


def f_binary_claims(d: Path) -> Outcome:
    f = d / "c.yaml"
    f.write_bytes(os.urandom(20_000))
    return expect_error(audit(d, str(f), timeout=30), "c.yaml")


def f_empty_claims(d: Path) -> Outcome:
    f = d / "c.yaml"
    f.write_text("")
    return expect_error(audit(d, str(f), timeout=30), "c.yaml")


def f_claims_not_mapping(d: Path) -> Outcome:
    f = d / "c.yaml"
    f.write_text("- 1\n- 2\n")
    return expect_error(audit(d, str(f), timeout=30), "c.yaml")


def f_claims_wrong_types(d: Path) -> Outcome:
    f = claims_file(d, "claims:\n  - {id: [1, 2], metric: {a: 1}, value: tenish, unit: 7}\n")
    return expect_error(audit(d, str(f), timeout=30), "c.yaml")


def f_claims_dup_ids(d: Path) -> Outcome:
    f = claims_file(
        d,
        "claims:\n  - {id: a, metric: decode_tps, value: 1, unit: tok/s}\n  - {id: a, metric: decode_tps, value: 2, unit: tok/s}\n",
    )
    return expect_error(audit(d, str(f), timeout=30), "c.yaml")


def f_claims_nan(d: Path) -> Outcome:
    f = claims_file(
        d,
        "claims:\n  - {id: a, metric: decode_tps, value: .nan, unit: tok/s}\n  - {id: b, metric: decode_tps, value: .inf, unit: tok/s}\n",
    )
    return expect_error(audit(d, str(f), timeout=30), "c.yaml")


def f_big_post(d: Path) -> Outcome:
    f = _post(d, (POST * 40_000)[:10_000_000])
    r = bb(d, "claims", "draft", str(f), "-o", str(d / "c.yaml"), timeout=180)
    if tb(r):
        return Outcome("traceback", first_tb_line(r))
    if r.rc is None:
        return Outcome("wrong message", f"10 MB post: no answer in {r.secs:.0f} s")
    return Outcome("ok", f"10 MB post: {r.secs:.1f} s, exit {r.rc}: {short(r.err, 80)}")


def f_binary_post(d: Path) -> Outcome:
    f = d / "post.md"
    f.write_bytes(os.urandom(50_000))
    r = bb(d, "claims", "draft", str(f), "-o", str(d / "c.yaml"), timeout=60)
    if tb(r):
        return Outcome("traceback", first_tb_line(r))
    if controls(r.both):
        return Outcome("security", f"raw controls {controls(r.both)}")
    return Outcome("ok" if r.rc is not None else "wrong message", f"exit {r.rc}: {short(r.both, 100)}")


def f_audit_all_bad(d: Path) -> Outcome:
    """--all over a folder with a bomb, a binary file and a good file: the good one is still audited."""
    c = d / "claims"
    c.mkdir()
    (c / "good.yaml").write_text(
        CLAIMS_HEAD + "claims:\n  - {id: a, metric: decode_tps, value: 10, unit: tok/s}\n"
    )
    (c / "bin.yaml").write_bytes(b"\x00\xff" * 500)
    (c / "alias.yaml").write_text(
        CLAIMS_HEAD + "x: &x 1\nclaims:\n  - {id: a, metric: decode_tps, value: *x, unit: tok/s}\n"
    )
    r = bb(d, "audit", "--all", str(c), "--out", str(d / "o"), "--pages", str(d / "p"), timeout=60)
    if tb(r):
        return Outcome("traceback", first_tb_line(r))
    good = (d / "p" / "good.qmd").exists()
    named = "bin.yaml" in r.both and "alias.yaml" in r.both
    if good and named and r.rc != 0:
        return Outcome("ok", "good file audited, both bad files named, non-zero exit")
    return Outcome("wrong message", f"good page {good}, both named {named}, exit {r.rc}: {short(r.err)}")


# ---------------------------------------------------------------- §4 concurrency (function level)


def f_session_lock(d: Path) -> Outcome:
    r = py(
        d,
        """
        import json, os, subprocess, sys, time
        from pathlib import Path
        from benchbook.session import Session, SessionBusy
        raw = Path("lb/h1.jsonl")
        with Session.open(raw, "llama_bench", {"config": {"a": 1}}) as s:
            code = ("from pathlib import Path\\nfrom benchbook.session import Session, SessionBusy\\n"
                    "try:\\n  Session.open(Path('lb/h1.jsonl'), 'llama_bench', {'config': {'a': 1}})\\n"
                    "except SessionBusy as e:\\n  print('BUSY', e)\\n")
            p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
            print(p.stdout, p.stderr)
        recs = [json.loads(l) for l in raw.read_text().splitlines()]
        print("EVENTS", [r["event"] for r in recs])
        """,
    )
    if tb(r):
        return Outcome("traceback", first_tb_line(r))
    if "BUSY" in r.out and f"pid {''}" in r.out and "EVENTS ['start', 'end']" in r.out:
        return Outcome("ok", "second process refused naming the pid; one start, one end")
    return Outcome("data loss" if "EVENTS" in r.out else "wrong message", short(r.out))


# ---------------------------------------------------------------- §5 downloads


class Server:
    """Loopback HTTP server of {path: bytes}; ETag/Last-Modified optional, Range and If-Range honoured,
    ``cut[path]`` bytes then close (an interrupted transfer)."""

    def __init__(self, validators: bool = True):
        self.files: dict[str, bytes] = {}
        self.cut: dict[str, int] = {}
        self.validators = validators
        self.requests: list[tuple[str, str | None]] = []
        outer = self

        class H(http.server.BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_GET(self):
                blob = outer.files.get(self.path)
                if blob is None:
                    self.send_error(404)
                    return
                etag = '"' + hashlib.sha256(blob).hexdigest()[:16] + '"'
                rng, if_range = self.headers.get("Range"), self.headers.get("If-Range")
                outer.requests.append((self.path, rng))
                if rng and if_range and outer.validators and if_range != etag:
                    rng = None
                start = int(rng.split("=")[1].split("-")[0]) if rng else 0
                body = blob[start:]
                self.send_response(206 if rng else 200)
                self.send_header("Content-Length", str(len(body)))
                if rng:
                    self.send_header("Content-Range", f"bytes {start}-{len(blob) - 1}/{len(blob)}")
                if outer.validators:
                    self.send_header("ETag", etag)
                self.end_headers()
                n = outer.cut.pop(self.path, None)
                try:
                    self.wfile.write(body[:n] if n is not None else body)
                    self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    pass
                if n is not None:
                    self.close_connection = True

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def ggufs() -> tuple[bytes, bytes]:
    """Two valid small GGUFs (a cached synthetic model and the default model), else skip."""
    small = sorted(USER_CACHE.glob("models/synth-*.gguf"))
    a = small[0].read_bytes() if small else None
    b = (
        (USER_CACHE / "models" / f"{DEFAULT_SHA}.gguf").read_bytes()
        if (USER_CACHE / "models" / f"{DEFAULT_SHA}.gguf").exists()
        else None
    )
    if a is None or b is None:
        raise FileNotFoundError("no cached GGUFs to serve (run `benchbook models fetch` once)")
    return a, b


def _registered(p: Path) -> dict:
    import yaml

    return (yaml.safe_load((p / "params.yaml").read_text())["models"]["registry"]) or {}


def _download_case(d: Path, *, same_url: bool, validators: bool) -> Outcome:
    a, b = ggufs()
    p = project(d)
    cache = d / "cache"
    srv = Server(validators=validators)
    try:
        srv.files["/one/m.gguf"] = a
        srv.files["/two/m.gguf"] = b
        srv.cut["/one/m.gguf"] = len(a) // 2
        url1 = srv.base + "/one/m.gguf"
        r1 = bb(p, "models", "add", url1, e=env(cache))
        if tb(r1):
            return Outcome("traceback", first_tb_line(r1))
        if r1.rc == 0:
            return Outcome("wrong message", "the cut download was registered")
        if same_url:
            srv.files["/one/m.gguf"] = b  # the same URL now serves another file
            url2 = url1
        else:
            url2 = srv.base + "/two/m.gguf"
        r2 = bb(p, "models", "add", url2, e=env(cache))
        if tb(r2):
            return Outcome("traceback", first_tb_line(r2))
        reg = _registered(p)
        shas: set[str] = {
            str(v.get("sha256")) for v in reg.values() if isinstance(v, dict) and v.get("sha256")
        }
        want = hashlib.sha256(b).hexdigest()
        others = shas - {hashlib.sha256(x).hexdigest() for x in (a, b)} - {DEFAULT_SHA}
        if others:
            return Outcome(
                "data loss", f"registered sha256 {sorted(others)[0][:12]}… of neither file (spliced)"
            )
        if r2.rc != 0:
            return Outcome("wrong message", f"second add failed: {short(r2.err)}")
        if want not in shas and want != DEFAULT_SHA:
            return Outcome("wrong message", "second file not registered")
        return Outcome("ok", f"second add: whole file, sha256 of its bytes ({short(r2.out + r2.err, 90)})")
    finally:
        srv.close()


def f_dl_other_url(d: Path) -> Outcome:
    return _download_case(d, same_url=False, validators=True)


def f_dl_same_url_changed(d: Path) -> Outcome:
    return _download_case(d, same_url=True, validators=True)


def f_dl_same_url_changed_no_validator(d: Path) -> Outcome:
    return _download_case(d, same_url=True, validators=False)


def f_dl_truncated(d: Path) -> Outcome:
    a, _ = ggufs()
    p = project(d)
    srv = Server()
    try:
        srv.files["/t.gguf"] = a[: len(a) // 3]
        before = (p / "params.yaml").read_text()
        r = bb(p, "models", "add", srv.base + "/t.gguf", e=env(d / "cache"))
        if (p / "params.yaml").read_text() != before:
            return Outcome("data loss", "a truncated GGUF was registered")
        return expect_error(r, "GGUF")
    finally:
        srv.close()


def f_dl_html(d: Path) -> Outcome:
    p = project(d)
    srv = Server()
    try:
        srv.files["/m.gguf"] = b"<html><body>Sign in to download</body></html>" * 50
        return expect_error(bb(p, "models", "add", srv.base + "/m.gguf", e=env(d / "cache")), "")
    finally:
        srv.close()


def f_dl_404(d: Path) -> Outcome:
    p = project(d)
    srv = Server()
    try:
        return expect_error(bb(p, "models", "add", srv.base + "/missing.gguf", e=env(d / "cache")), "404")
    finally:
        srv.close()


def f_dl_refused(d: Path) -> Outcome:
    p = project(d)
    return expect_error(
        bb(p, "models", "add", "http://127.0.0.1:9/m.gguf", e=env(d / "cache"), timeout=60), "127.0.0.1"
    )


def f_dl_file_url(d: Path) -> Outcome:
    """A file:// or other scheme URL must not read local files through the downloader silently."""
    p = project(d)
    r = bb(p, "models", "add", "file:///etc/passwd", e=env(d / "cache"))
    reg = _registered(p)
    if any("passwd" in json.dumps(v) for v in reg.values()):
        return Outcome("security", "/etc/passwd registered as a model")
    return expect_error(r, "")


# ---------------------------------------------------------------- §6 writes that can be cut


def f_params_ulimit(d: Path) -> Outcome:
    """`models add` with RLIMIT_FSIZE of 8 KiB (a full disk for this process): params.yaml whole."""
    import resource

    a, _ = ggufs()
    p = project(d / "p")
    g = d / "local.gguf"
    g.write_bytes(a)
    before = (p / "params.yaml").read_text()

    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (8192, 8192))

    r = bb(p, "models", "add", str(g), "--id", "local-m", pre=limit)
    after = (p / "params.yaml").read_text()
    if after != before:
        try:
            import yaml

            ok = "local-m" in yaml.safe_load(after)["models"]["registry"] and len(after) > len(before)
        except Exception:
            ok = False
        if not ok:
            return Outcome("data loss", f"params.yaml changed to {len(after)} bytes (was {len(before)})")
    if tb(r):
        return Outcome("traceback", first_tb_line(r))
    if r.rc == 0 and after == before:
        return Outcome("wrong message", "exit 0 but nothing written")
    return (
        Outcome("ok", f"exit {r.rc}: {short(r.err or r.out, 100)}")
        if r.rc == 0 or "error" in r.err
        else expect_error(r, "")
    )


def f_params_readonly_dir(d: Path) -> Outcome:
    a, _ = ggufs()
    p = project(d / "p")
    g = d / "local.gguf"
    g.write_bytes(a)
    before = (p / "params.yaml").read_text()
    p.chmod(0o555)
    (p / "params.yaml").chmod(0o444)
    try:
        r = bb(p, "models", "add", str(g), "--id", "local-m", e=env(d / "cache"))
    finally:
        p.chmod(0o755)
        (p / "params.yaml").chmod(0o644)
    if os.geteuid() == 0 and r.rc == 0:
        return Outcome("ok", "root ignores modes: written (not a fault here)")
    if (p / "params.yaml").read_text() != before:
        return Outcome("data loss", "params.yaml changed although refused")
    return expect_error(r, "params.yaml")


def _tmpfs(d: Path, size: str = "64k") -> Path | None:
    m = d / "mnt"
    m.mkdir()
    ok = (
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(m)], capture_output=True
        ).returncode
        == 0
    )
    return m if ok else None


def fill(f: Path) -> None:
    """Write ``f`` until its file system is full."""
    fd = os.open(f, os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(fd, b"\0" * 512)
    except OSError:
        pass
    finally:
        os.close(fd)


def _umount(m: Path) -> None:
    subprocess.run(["umount", "-l", str(m)], capture_output=True)


def f_full_disk_params(d: Path) -> Outcome:
    """The project on a full tmpfs: `models add` must leave params.yaml whole."""
    a, _ = ggufs()
    g = d / "local.gguf"
    g.write_bytes(a)
    size = len((ROOT / "params.yaml").read_bytes()) + 200 * 1024
    m = _tmpfs(d, str(size))
    if m is None:
        return f_params_ulimit(d / "u")
    try:
        p = project(m / "proj")
        fill(m / "fill")
        before = (p / "params.yaml").read_text()
        r = bb(p, "models", "add", str(g), "--id", "local-m", e=env(d / "cache"))
        after = (p / "params.yaml").read_text()
        leftovers = [x.name for x in p.iterdir() if x.name.startswith(("params.yaml.", ".params"))]
        if after != before:
            return Outcome("data loss", f"params.yaml {len(before)} -> {len(after)} bytes on a full disk")
        if leftovers:
            return Outcome("wrong message", f"temp files left: {leftovers}")
        return expect_error(r, "")
    finally:
        _umount(m)


def f_full_raw_dir(d: Path) -> Outcome:
    """records repair of a torn raw file on a full disk: the file is kept whole, one error line."""
    m = _tmpfs(d, "64k")
    if m is None:
        return Outcome("ok", "skipped: no tmpfs (not root)")
    try:
        f = m / "h.jsonl"
        good = '{"schema":"benchbook.session","schema_version":1,"event":"start"}\n' * 300
        f.write_text(good + '{"schema":"benchbook.lla')
        before = f.read_bytes()
        fill(m / "fill")
        r = bb(d, "records", "repair", str(f))
        if not f.read_bytes() or (f.read_bytes() != before and not f.read_bytes().startswith(good.encode())):
            return Outcome("data loss", "raw file cut on a full disk")
        if tb(r):
            return Outcome("traceback", first_tb_line(r))
        return (
            Outcome("ok", f"exit {r.rc}: {short(r.err or r.out, 100)}")
            if (r.rc == 0 or "error" in r.err)
            else expect_error(r, "")
        )
    finally:
        _umount(m)


# ---------------------------------------------------------------- §7 duplicated raw lines


def _dup(d: Path, what: str) -> Outcome:
    p = project(d, raw=True)
    f = p / "data/raw/llama_bench/246274abff670295.jsonl"
    lines = f.read_text().splitlines()
    start = max(i for i, x in enumerate(lines) if '"benchbook.session"' in x and '"start"' in x)
    if what == "row":
        i = next(i for i in range(start, len(lines)) if '"benchbook.llama_bench"' in lines[i])
    elif what == "end":
        i = max(i for i, x in enumerate(lines) if '"benchbook.session"' in x and '"end"' in x)
    else:
        i = start
    if what == "row-late":
        i = next(i for i in range(start, len(lines)) if '"benchbook.llama_bench"' in lines[i])
        lines.insert(len(lines) - 1, lines[i])
    else:
        lines.insert(i + 1, lines[i])
    f.write_text("\n".join(lines) + "\n")
    code = """
        from pathlib import Path
        from benchbook import resolve
        from benchbook.experiments.llama_bench import report
        raw, out = Path("data/raw"), Path("out")
        res = report.derive(raw / "llama_bench", raw / "snapshots", out / "lb", out / "numbers.json",
                            out / "metrics.json", resolve.load_params(Path("."))["report"], root=Path("."))
        v = {n.key: n.value for n in res.numbers}
        print("VALUE", v.get("lb-smollm2-135m-q8_0-pp128-warm"))
        print("SKIPPED", Path("out/lb/skipped.md").read_text())
    """
    r = py(p, code)
    if tb(r):
        return Outcome("traceback", first_tb_line(r))
    clean = py(project(d / "clean", raw=True), code)
    v = next((x for x in r.out.splitlines() if x.startswith("VALUE")), "")
    cv = next((x for x in clean.out.splitlines() if x.startswith("VALUE")), "")
    if v != cv:
        return Outcome("data loss", f"headline moved: {cv} -> {v}")
    if what in {"start", "end"}:
        # a session event repeated is idempotent: nothing counted twice (hosts panel and headline the same)
        panel = "from pathlib import Path\nfrom benchbook import hosts\nprint(hosts.hosts_panel(Path('data/raw'), 'llama_bench', None))"
        a, b = py(p, panel), py(d / "clean", panel)
        if a.out != b.out:
            return Outcome("data loss", "the hosts panel counts the duplicated session event")
        return Outcome("ok", f"{v}; counts unchanged (the duplicate is not reported: idempotent)")
    if "duplicate" not in r.out:
        return Outcome("wrong message", "the duplicate is not reported on the skipped page")
    return Outcome("ok", f"{v}; duplicate reported")


def f_dup_row(d: Path) -> Outcome:
    return _dup(d, "row")


def f_dup_end(d: Path) -> Outcome:
    return _dup(d, "end")


def f_dup_start(d: Path) -> Outcome:
    return _dup(d, "start")


def f_dup_row_late(d: Path) -> Outcome:
    return _dup(d, "row-late")


def f_torn_middle(d: Path) -> Outcome:
    """A torn line in the middle of a raw file (not the last): named by file:line, nothing dropped silently."""
    p = project(d, raw=True)
    f = p / "data/raw/llama_bench/246274abff670295.jsonl"
    lines = f.read_text().splitlines()
    i = next(i for i, x in enumerate(lines) if '"benchbook.llama_bench"' in x)
    lines[i] = lines[i][: len(lines[i]) // 2]
    f.write_text("\n".join(lines) + "\n")
    r = py(p, DERIVE)
    where = f"246274abff670295.jsonl:{i + 1}"
    if where in r.both:  # a report stage's error (raised in its notebook) naming the line is the answer
        return Outcome("ok", f"named {where}: {first_tb_line(r) if tb(r) else ''}")
    if tb(r):
        return Outcome("traceback", first_tb_line(r))
    if where in r.both:
        return Outcome("ok", f"named {where}")
    return Outcome("wrong message", f"torn line {where} not named: exit {r.rc}: {short(r.both, 120)}")


def f_non_utf8_raw(d: Path) -> Outcome:
    """Bytes that are not UTF-8 inside a raw records file: named by file:line, no traceback."""
    p = project(d, raw=True)
    f = p / "data/raw/llama_bench/246274abff670295.jsonl"
    data = f.read_bytes().split(b"\n")
    data[3] = data[3].replace(b"llama_bench", b"llama\xff\xfebench", 1)
    f.write_bytes(b"\n".join(data))
    r = py(p, DERIVE)
    if "jsonl:4" in r.both:
        return Outcome("ok", f"named: {first_tb_line(r) if tb(r) else short(r.err, 120)}")
    if tb(r):
        return Outcome("traceback", first_tb_line(r))
    if "jsonl:4" in r.both:
        return Outcome("ok", f"named: {short(r.err, 120)}")
    return Outcome("wrong message", f"line 4 not named: exit {r.rc}: {short(r.both, 120)}")


DERIVE = """
from pathlib import Path
import sys
from benchbook import resolve
from benchbook.experiments.llama_bench import report
raw, out = Path("data/raw"), Path("out")
report.derive(raw / "llama_bench", raw / "snapshots", out / "lb", out / "numbers.json", out / "metrics.json",
              resolve.load_params(Path("."))["report"], root=Path("."))
print(Path("out/lb/skipped.md").read_text())
"""


# ---------------------------------------------------------------- §8 params.yaml typos and types


def _params(d: Path, old: str, new: str, cmd: list[str], *needles: str, exp: bool = False) -> Outcome:
    p = project(d)
    t = (p / "params.yaml").read_text()
    if old not in t:
        return Outcome("wrong message", f"catalogue: {old!r} not in params.yaml (update the fault)")
    (p / "params.yaml").write_text(t.replace(old, new, 1))
    if exp:
        r = run([PY, "-m", "benchbook.experiments", *cmd], p, e=env(d / "cache"))
    else:
        r = bb(p, *cmd, e=env(d / "cache"))
    return expect_error(r, *needles)


def f_p_lb_typo(d):
    return _params(d, "  n_prompt: 128", "  n_promt: 128", ["llama_bench"], "n_promt", "n_prompt", exp=True)


def f_p_lb_type(d):
    return _params(d, "  n_gen: 64", "  n_gen: sixty", ["llama_bench"], "n_gen", exp=True)


def f_p_lb_negative(d):
    return _params(d, "  repetitions: 5 ", "  repetitions: -3 ", ["llama_bench"], "repetitions", exp=True)


def f_p_lb_models_str(d):
    return _params(
        d,
        "  models: [smollm2-135m-q4_1, smollm2-135m-q8_0, smollm2-135m-q2_k]",
        "  models: smollm2-135m-q4_1",
        ["llama_bench"],
        "models",
        exp=True,
    )


def f_p_lb_unknown_model(d):
    return _params(
        d,
        "  models: [smollm2-135m-q4_1, smollm2-135m-q8_0, smollm2-135m-q2_k]",
        "  models: [smollm2-135m-q4_2]",
        ["llama_bench"],
        "smollm2-135m-q4_2",
        exp=True,
    )


def _report_params(d: Path, old: str, new: str, *needles: str) -> Outcome:
    """report.* is read by the report stages (``caveats.check_report``): the llama_bench report's build."""
    p = project(d, raw=True)
    t = (p / "params.yaml").read_text()
    (p / "params.yaml").write_text(t.replace(old, new, 1))
    r = py(
        p,
        """
        from pathlib import Path
        from benchbook import resolve
        from benchbook.experiments.llama_bench import report
        report.build(resolve.load_params(Path(".")), root=Path("."), raw_dir=Path("data/raw"), reports_dir=Path("rep"))
        """,
    )
    if all(n in r.both for n in needles) and r.rc != 0:  # the stage's error (a notebook cell's) names it
        return Outcome("ok", f"report stage: {first_tb_line(r) if tb(r) else short(r.err, 120)}")
    return expect_error(r, *needles)


def f_p_report_type(d):
    return _report_params(d, "  confidence: 0.95", "  confidence: high", "report.confidence")


def f_p_report_range(d):
    return _report_params(d, "  confidence: 0.95", "  confidence: 95", "report.confidence")


def f_p_report_typo(d):
    return _report_params(d, "  high_cv: 0.05", "  hihg_cv: 0.05", "hihg_cv", "high_cv")


def f_p_audit_type(d):
    return _params(
        d,
        "    minor: 0.02",
        "    minor: [1]",
        ["audit", str(ROOT / "data/claims/clover-35b-a3b-blog.yaml")],
        "minor",
    )


def f_p_audit_here_typo(d):
    return _params(
        d,
        "    decodings: [plain, speculative]",
        "    decodngs: [plain, speculative]",
        ["audit", str(ROOT / "data/claims/clover-35b-a3b-blog.yaml")],
        "decodngs",
    )


def f_p_spec_typo(d):
    return _params(
        d, "  ctx_size: 2048", "  ctx_sise: 2048", ["speculative"], "ctx_sise", "ctx_size", exp=True
    )


def f_p_spec_profile(d):
    return _params(d, "  profile: default ", "  profile: fulll ", ["speculative"], "fulll", exp=True)


def f_p_toolchain_backend(d):
    return _params(d, "  backend: auto ", "  backend: gpu ", ["doctor"], "backend")


def f_p_registry_sha(d):
    return _params(
        d,
        "      sha256: b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
        "      sha256: b179c95",
        ["doctor"],
        "sha256",
    )


def f_p_not_mapping(d: Path) -> Outcome:
    p = project(d)
    (p / "params.yaml").write_text("- just\n- a list\n")
    return expect_error(bb(p, "doctor"), "params.yaml")


def f_p_empty(d: Path) -> Outcome:
    p = project(d)
    (p / "params.yaml").write_text("")
    return expect_error(bb(p, "doctor"), "params.yaml")


def f_p_alias_bomb(d: Path) -> Outcome:
    p = project(d)
    bomb = "\n".join(
        [
            f"x{i}: &x{i} [" + ",".join([f"*x{i - 1}"] * 9) + "]" if i else "x0: &x0 [1,1,1,1,1,1,1,1,1]"
            for i in range(10)
        ]
    )
    (p / "params.yaml").write_text((p / "params.yaml").read_text() + "\n" + bomb + "\n")
    r = bb(p, "doctor", timeout=60)
    if tb(r):
        return Outcome("traceback", first_tb_line(r))
    if r.rc is None or r.secs > 20:
        return Outcome("wrong message", f"alias bomb in params.yaml: {r.secs:.0f} s")
    return Outcome("ok", f"{r.secs:.1f} s, exit {r.rc} (aliases kept as references, never expanded)")


def f_p_severity_typo(d):
    return _params(
        d,
        "    minor: 0.02",
        "    minro: 0.02",
        ["audit", str(ROOT / "data/claims/clover-35b-a3b-blog.yaml")],
        "minro",
    )


def f_p_binary(d: Path) -> Outcome:
    p = project(d)
    (p / "params.yaml").write_bytes(b"toolchain: \xff\xfe\x00\x01\n")
    return expect_error(bb(p, "doctor"), "params.yaml")


def f_p_overrides_typo(d: Path) -> Outcome:
    p = project(d)
    r = run(
        [PY, "-m", "benchbook.experiments", "llama_bench", "--overrides", '{"n_promt": 8}'],
        p,
        e=env(d / "cache"),
    )
    return expect_error(r, "n_promt", "--overrides")


def f_p_overrides_type(d: Path) -> Outcome:
    p = project(d)
    r = run(
        [PY, "-m", "benchbook.experiments", "llama_bench", "--overrides", '{"threads": "two"}'],
        p,
        e=env(d / "cache"),
    )
    return expect_error(r, "threads")


def f_p_unknown_experiment(d: Path) -> Outcome:
    p = project(d)
    return expect_error(run([PY, "-m", "benchbook.experiments", "os"], p, e=env(d / "cache")), "os")


def f_p_unknown_section(d: Path) -> Outcome:
    p = project(d)
    (p / "params.yaml").write_text((p / "params.yaml").read_text() + "\nllama_bnech: {n_prompt: 1}\n")
    return expect_error(bb(p, "doctor"), "llama_bnech")


# ---------------------------------------------------------------- §9 models add, caches, records repair


def f_add_truncated(d: Path) -> Outcome:
    a, _ = ggufs()
    p = project(d / "p")
    g = d / "t.gguf"
    g.write_bytes(a[: len(a) // 2])
    before = (p / "params.yaml").read_text()
    r = bb(p, "models", "add", str(g), e=env(d / "cache"))
    if (p / "params.yaml").read_text() != before:
        return Outcome("data loss", "a truncated GGUF registered")
    return expect_error(r, "t.gguf")


def f_add_not_gguf(d: Path) -> Outcome:
    p = project(d / "p")
    g = d / "x.gguf"
    g.write_bytes(os.urandom(4096))
    return expect_error(bb(p, "models", "add", str(g), e=env(d / "cache")), "x.gguf")


def f_add_empty(d: Path) -> Outcome:
    p = project(d / "p")
    g = d / "e.gguf"
    g.write_bytes(b"")
    return expect_error(bb(p, "models", "add", str(g), e=env(d / "cache")), "e.gguf")


def f_add_header_only(d: Path) -> Outcome:
    """A GGUF magic with absurd counts (2**63 tensors): refused, no huge allocation."""
    import struct

    p = project(d / "p")
    g = d / "h.gguf"
    g.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 2**63 - 1, 2**63 - 1) + b"\0" * 64)
    r = bb(p, "models", "add", str(g), e=env(d / "cache"), timeout=60)
    return expect_error(r, "h.gguf")


def f_add_hostile_id(d: Path) -> Outcome:
    a, _ = ggufs()
    p = project(d / "p")
    g = d / "m.gguf"
    g.write_bytes(a)
    before = (p / "params.yaml").read_text()
    r = bb(
        p, "models", "add", str(g), "--id", "x}\n  evil: {source: url, url: 'http://e'", e=env(d / "cache")
    )
    after = (p / "params.yaml").read_text()
    if "evil" in after:
        return Outcome("security", "an --id injected YAML into params.yaml")
    if after != before:
        return Outcome("wrong message", "params.yaml changed for a refused id")
    return expect_error(r, "")


def f_cache_is_file(d: Path) -> Outcome:
    p = project(d)
    c = d / "cachefile"
    c.write_text("not a folder")
    a, _ = ggufs()
    g = d / "m.gguf"
    g.write_bytes(a)
    r = bb(p, "models", "fetch", e=env(c), timeout=60)
    return expect_error(r, str(c))


def f_cache_is_file_doctor(d: Path) -> Outcome:
    p = project(d)
    c = d / "cachefile"
    c.write_text("not a folder")
    r = bb(p, "doctor", e=env(c), timeout=60)
    if tb(r):
        return Outcome("traceback", first_tb_line(r))
    return (
        Outcome("ok", f"exit {r.rc}: {short(r.both, 100)}")
        if str(c) in r.both
        else Outcome("wrong message", short(r.both))
    )


def f_copied_cache(d: Path) -> Outcome:
    """A copied cache: its binaries load the copy's libraries (what doctor says is what the loader does)."""
    src = sorted(USER_CACHE.glob("toolchains/b*-cpu-*"))
    if not src:
        return Outcome("ok", "skipped: no cached toolchain")
    c = d / "cache" / "toolchains"
    c.mkdir(parents=True)
    shutil.copytree(src[-1], c / src[-1].name, symlinks=True)
    binp = c / src[-1].name / "build" / "bin" / "llama-bench"
    r = run(["ldd", str(binp)], d)
    libs = [x for x in r.out.splitlines() if "libllama" in x or "libggml" in x]
    foreign = [x.strip() for x in libs if str(c) not in x]
    if foreign:
        return Outcome("wrong message", f"copied binary loads {foreign[0]}")
    p = project(d / "p")
    r2 = bb(p, "doctor", e=env(d / "cache"), timeout=60)
    if tb(r2):
        return Outcome("traceback", first_tb_line(r2))
    line = next((x for x in r2.out.splitlines() if "libraries" in x), "")
    return (
        Outcome("ok", short(line, 120))
        if str(c) in line and line.startswith("ok")
        else Outcome("wrong message", short(line or r2.out))
    )


def f_repair_dir(d: Path) -> Outcome:
    return expect_error(bb(d, "records", "repair", str(d)), str(d))


def f_repair_missing(d: Path) -> Outcome:
    return expect_error(bb(d, "records", "repair", str(d / "nope.jsonl")), "nope.jsonl")


def f_repair_gguf(d: Path) -> Outcome:
    a, _ = ggufs()
    g = d / "m.jsonl"
    g.write_bytes(a[:200_000])
    before = g.read_bytes()
    r = bb(d, "records", "repair", str(g))
    if g.read_bytes() != before:
        return Outcome("data loss", "records repair cut a non-records file")
    return expect_error(r, "m.jsonl")


def f_repair_symlink(d: Path) -> Outcome:
    t = d / "target.jsonl"
    t.write_text('{"schema":"benchbook.session","schema_version":1,"event":"start"}\n{"schema":"benchb')
    link = d / "l.jsonl"
    link.symlink_to(t)
    r = bb(d, "records", "repair", str(link))
    if tb(r):
        return Outcome("traceback", first_tb_line(r))
    if not link.is_symlink():
        return Outcome("data loss", "the symlink was replaced by a file (target left torn)")
    return Outcome("ok", f"exit {r.rc}: {short(r.both, 100)}")


def f_repair_readonly(d: Path) -> Outcome:
    f = d / "ro" / "h.jsonl"
    f.parent.mkdir()
    f.write_text('{"schema":"benchbook.session","schema_version":1,"event":"start"}\n{"schema":"benchb')
    before = f.read_bytes()
    f.parent.chmod(0o555)
    try:
        r = bb(d, "records", "repair", str(f))
    finally:
        f.parent.chmod(0o755)
    if os.geteuid() == 0 and r.rc == 0:
        return Outcome("ok", "root ignores modes: repaired (not a fault here)")
    if f.read_bytes() != before:
        return Outcome("data loss", "changed although refused")
    return expect_error(r, "h.jsonl")


def f_repair_twice(d: Path) -> Outcome:
    """Repair, then repair again: the quarantine file is appended, never overwritten (no torn line lost)."""
    f = d / "h.jsonl"
    head = '{"schema":"benchbook.session","schema_version":1,"event":"start"}\n'
    f.write_text(head + '{"schema":"torn-one')
    r1 = bb(d, "records", "repair", str(f))
    f.write_text(f.read_text() + '{"schema":"torn-two')
    r2 = bb(d, "records", "repair", str(f))
    for r in (r1, r2):
        if tb(r):
            return Outcome("traceback", first_tb_line(r))
    q = "".join(x.read_text() for x in d.glob("*quarantine*"))
    if "torn-one" not in q or "torn-two" not in q:
        return Outcome("data loss", f"quarantine holds {q!r:.120}")
    return Outcome("ok", "both torn lines kept in quarantine")


def f_repair_torn_middle(d: Path) -> Outcome:
    """records repair on a file whose torn line is not the last: refused, the good lines after it kept."""
    f = d / "h.jsonl"
    head = '{"schema":"benchbook.session","schema_version":1,"event":"start"}\n'
    tail = '{"schema":"benchbook.session","schema_version":1,"event":"end"}\n'
    f.write_text(head + '{"schema":"benchbook.lla\n' + tail)
    before = f.read_bytes()
    r = bb(d, "records", "repair", str(f))
    if f.read_bytes() != before:
        return Outcome("data loss", f"the lines after a torn middle line changed (exit {r.rc})")
    return expect_error(r, "h.jsonl")


def f_add_special_files(d: Path) -> Outcome:
    """models add of /dev/zero and of a FIFO: refused at once (never read forever), named for what they are."""
    p = project(d / "p")
    fifo = d / "f.gguf"
    os.mkfifo(fifo)
    outs = []
    for target in ["/dev/zero", str(fifo)]:
        r = bb(p, "models", "add", target, e=env(d / "cache"), timeout=30)
        o = expect_error(r, target)
        if o.status != "ok":
            return o
        if "no such file" in r.err:
            return Outcome(
                "wrong message", f"{target} exists but is called 'no such file': {short(r.err, 110)}"
            )
        outs.append(short(r.err, 60))
    return Outcome("ok", " / ".join(outs))


def f_ingest_binary(d: Path) -> Outcome:
    f = d / "x.log"
    f.write_bytes(os.urandom(30_000))
    r = bb(d, "ingest", str(f))
    if tb(r):
        return Outcome("traceback", first_tb_line(r))
    if controls(r.both):
        return Outcome("security", f"raw controls {controls(r.both)}")
    return Outcome("ok" if r.rc is not None else "wrong message", f"exit {r.rc}: {short(r.both, 100)}")


def f_ingest_empty_dir(d: Path) -> Outcome:
    (d / "e.log").write_text("")
    r = bb(d, "ingest", str(d / "e.log"), str(d))
    if tb(r):
        return Outcome("traceback", first_tb_line(r))
    return Outcome(
        "ok" if r.rc not in (None, 0) or r.both else "wrong message", f"exit {r.rc}: {short(r.both, 100)}"
    )


def f_ingest_huge_line(d: Path) -> Outcome:
    f = d / "big.log"
    f.write_text("llama_perf_context_print: eval time = " + "9" * 10_000_000 + " ms\n")
    r = bb(d, "ingest", str(f), timeout=120)
    if tb(r):
        return Outcome("traceback", first_tb_line(r))
    return Outcome(
        "ok" if r.rc is not None and r.secs < 60 else "wrong message",
        f"{r.secs:.1f}s exit {r.rc}: {short(r.both, 80)}",
    )


# ---------------------------------------------------------------- §10 make test after make run


def f_dvc_add(d: Path) -> Outcome:
    """`dvc add` of an artifact in a clone (what `make run` does), then the pipeline tests and stages check."""
    c = d / "clone"
    r = run(["git", "clone", "-q", str(ROOT), str(c)], d, timeout=120)
    if r.rc:
        return Outcome("wrong message", f"catalogue: git clone failed: {short(r.err)}")
    shutil.copytree(ROOT / "src", c / "src", dirs_exist_ok=True)  # the working tree's code
    for t in ["tests/test_pipeline.py", "tests/conftest.py"]:
        shutil.copy(ROOT / t, c / t)
    a = c / "data" / "artifacts" / "fault.bin"
    a.parent.mkdir(parents=True, exist_ok=True)
    a.write_bytes(b"x" * 1000)
    dvc = str(Path(PY).with_name("dvc"))
    r = run(
        [dvc, "add", str(a.relative_to(c))], c, e=env(d / "cache", PYTHONPATH=str(c / "src")), timeout=120
    )
    if r.rc:
        return Outcome("wrong message", f"catalogue: dvc add failed: {short(r.err)}")
    e = env(d / "cache", PYTHONPATH=str(c / "src"))
    tr = run(
        [
            PY,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "tests/test_pipeline.py",
            "-k",
            "not committed_measurement_lock",
        ],
        c,
        e=e,
        timeout=300,
    )
    s = run([PY, "-m", "benchbook.cli", "stages", "check"], c, e=e, timeout=120)
    if "has no attribute 'name'" in tr.both + s.both or tb(s):
        return Outcome("traceback", short(tr.both[-300:]) + " / " + first_tb_line(s))
    if tr.rc != 0:
        return Outcome("wrong message", f"pytest: {short(tr.out.splitlines()[-1] if tr.out else tr.err)}")
    if s.rc != 0:
        return Outcome("wrong message", f"stages check after dvc add: {short(s.both)}")
    return Outcome("ok", f"test_pipeline: {short(tr.out.splitlines()[-1])}; stages check ok")


# ---------------------------------------------------------------- llama.cpp faults (--with-llama)


def llama_cache(d: Path) -> Path:
    """A scratch cache: a copy of the CPU toolchain and the default and q8_0 models (manifest paths
    rewritten); the user's cache is only read."""
    c = d / "cache"
    tcs = sorted(USER_CACHE.glob("toolchains/b*-cpu-*"), key=lambda x: x.stat().st_mtime)
    (c / "toolchains").mkdir(parents=True)
    shutil.copytree(tcs[-1], c / "toolchains" / tcs[-1].name, symlinks=True)
    (c / "models").mkdir()
    for mid, sha in [("smollm2-135m-q4_1", DEFAULT_SHA), ("smollm2-135m-q8_0", Q8_SHA)]:
        src = USER_CACHE / "models" / f"{sha}.gguf"
        if not src.exists():
            continue
        os.link(src, c / "models" / f"{sha}.gguf") if False else shutil.copy(
            src, c / "models" / f"{sha}.gguf"
        )
        m = json.loads((USER_CACHE / "models" / f"{mid}.json").read_text())
        m["path"] = str(c / "models" / f"{sha}.gguf")
        m.pop("verified", None)
        (c / "models" / f"{mid}.json").write_text(json.dumps(m))
    return c


LB_OVR: dict[str, Any] = {
    "models": ["smollm2-135m-q4_1", "smollm2-135m-q8_0"],
    "n_prompt": 32,
    "n_gen": 16,
    "repetitions": 6,
    "cold_first_run": False,
    "threads": 1,
}


def lb(p: Path, cache: Path, ovr: dict | None = None) -> subprocess.Popen:
    return subprocess.Popen(
        [PY, "-m", "benchbook.experiments", "llama_bench", "--overrides", json.dumps(ovr or LB_OVR)],
        cwd=p,
        env=env(cache),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def raw_records(p: Path) -> list[dict]:
    out = []
    for f in (p / "data" / "raw" / "llama_bench").glob("*.jsonl"):
        for line in f.read_text().splitlines():
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                out.append({"torn": line})
    return out


def wait_rows(p: Path, n: int, timeout: float = 120) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if sum(1 for r in raw_records(p) if r.get("schema") == "benchbook.llama_bench") >= n:
            return True
        time.sleep(0.1)
    return False


def integrity(p: Path) -> str | None:
    """None when the raw file holds each (session, run, row) once, one end per session, no torn line."""
    recs = raw_records(p)
    if any("torn" in r for r in recs):
        return "a torn line left"
    ends = [r.get("session_id") for r in recs if r.get("event") == "end"]
    if len(ends) != len(set(ends)):
        return f"{len(ends)} end records for {len(set(ends))} sessions"
    rows = [
        json.dumps({k: v for k, v in r.items() if k not in {"recorded_at"}}, sort_keys=True)
        for r in recs
        if r.get("schema") == "benchbook.llama_bench"
    ]
    if len(rows) != len(set(rows)):
        return "a row recorded twice"
    keys = [(r.get("run_id"), r.get("row_index")) for r in recs if r.get("schema") == "benchbook.llama_bench"]
    if len(keys) != len(set(keys)):
        return "a row (run_id, row_index) recorded twice"
    complete: dict[tuple, set] = {}  # (session, run_key) -> run ids with every row recorded
    for r in recs:
        if (
            r.get("schema") == "benchbook.llama_bench"
            and r.get("row_index") == (r.get("rows_total") or 0) - 1
        ):
            complete.setdefault((r.get("session_id"), r.get("run_key")), set()).add(r.get("run_id"))
    doubled = [k for k, v in complete.items() if len(v) > 1]
    if doubled:
        return f"one configuration measured to completion twice in one session: {doubled[0]}"
    return None


def alive_llama(cache: Path) -> list[int]:
    pids = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                cmd = (proc / "cmdline").read_bytes().decode(errors="replace")
            except OSError:
                continue
            if "llama-bench" in cmd and str(cache) in cmd:
                pids.append(int(proc.name))
    return pids


def f_l_two_writers(d: Path) -> Outcome:
    p, c = project(d / "p"), llama_cache(d)
    a = lb(p, c)
    if not wait_rows(p, 0) or not _wait_start(p):
        a.kill()
        return Outcome("wrong message", "first session never started")
    b = lb(p, c)
    bo, be = b.communicate(timeout=120)
    ao, ae = a.communicate(timeout=300)
    if "Traceback" in bo + be + ao + ae:
        return Outcome("traceback", short((be or ae)[-200:]))
    bad = integrity(p)
    if bad:
        return Outcome("data loss", bad)
    if b.returncode == 0 or "pid" not in be:
        return Outcome("wrong message", f"second writer exit {b.returncode}: {short(be)}")
    return Outcome("ok", f"second refused: {short(be, 110)}")


def _wait_start(p: Path, timeout: float = 60) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if any(r.get("event") == "start" for r in raw_records(p)):
            return True
        time.sleep(0.05)
    return False


def _signal_then_resume(d: Path, sig: int) -> Outcome:
    p, c = project(d / "p"), llama_cache(d)
    a = lb(p, c)
    if not wait_rows(p, 1):
        a.kill()
        return Outcome("wrong message", "no row in 120 s")
    os.killpg(a.pid, sig)
    try:
        ao, ae = a.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(a.pid, signal.SIGKILL)
        return Outcome("wrong message", f"signal {sig}: still running after 30 s")
    time.sleep(0.5)
    orphans = alive_llama(c)
    if orphans:
        for pid in orphans:
            os.kill(pid, signal.SIGKILL)
        return Outcome("data loss", f"signal {sig}: llama-bench orphaned (pids {orphans})")
    if "Traceback" in ao + ae and sig != signal.SIGKILL:
        return Outcome("traceback", short(ae[-200:]))
    rows_before = sum(1 for r in raw_records(p) if r.get("schema") == "benchbook.llama_bench")
    b = lb(p, c)
    bo, be = b.communicate(timeout=300)
    if "Traceback" in bo + be:
        return Outcome("traceback", short(be[-200:]))
    if b.returncode != 0:
        return Outcome("wrong message", f"resume exit {b.returncode}: {short(be)}")
    rows_after = sum(1 for r in raw_records(p) if r.get("schema") == "benchbook.llama_bench")
    bad = integrity(p)
    if bad:
        return Outcome("data loss", bad)
    if rows_after < rows_before:
        return Outcome("data loss", f"rows {rows_before} -> {rows_after}")
    summary = json.loads(bo.strip().splitlines()[-1]) if bo.strip() else {}
    sid = summary.get("session_id")
    done = {
        r.get("run_key")
        for r in raw_records(p)
        if r.get("session_id") == sid and r.get("row_index") == (r.get("rows_total") or 0) - 1
    }
    if len(done) != len(LB_OVR["models"]):
        return Outcome(
            "data loss", f"session {sid}: {len(done)} of {len(LB_OVR['models'])} configurations complete"
        )
    return Outcome(
        "ok",
        f"exit {a.returncode}; resumed={summary.get('resumed')} ran={summary.get('ran')} skipped={summary.get('skipped')}",
    )


def f_l_sigterm(d):
    return _signal_then_resume(d, signal.SIGTERM)


def f_l_sighup(d):
    return _signal_then_resume(d, signal.SIGHUP)


def f_l_sigint(d):
    return _signal_then_resume(d, signal.SIGINT)


def f_l_kill9(d):
    return _signal_then_resume(d, signal.SIGKILL)


def f_l_failed_runs(d: Path) -> Outcome:
    """A session whose runs fail (timeout_s 1 on a long run) exits non-zero."""
    p, c = project(d / "p"), llama_cache(d)
    ovr = {**LB_OVR, "models": ["smollm2-135m-q4_1"], "n_prompt": 512, "repetitions": 50, "timeout_s": 1}
    a = lb(p, c, ovr)
    ao, ae = a.communicate(timeout=300)
    if "Traceback" in ao + ae:
        return Outcome("traceback", short(ae[-200:]))
    if a.returncode == 0:
        return Outcome("wrong message", f"failed runs, exit 0: {short(ao[-200:])}")
    return Outcome("ok", f"exit {a.returncode}: {short(ae[-150:])}")


def f_l_readonly_raw(d: Path) -> Outcome:
    p, c = project(d / "p"), llama_cache(d)
    raw = p / "data" / "raw"
    raw.mkdir(parents=True, exist_ok=True)
    (raw / "llama_bench").write_text("a file where the folder should be")
    a = lb(p, c, {**LB_OVR, "models": ["smollm2-135m-q4_1"], "repetitions": 1})
    ao, ae = a.communicate(timeout=120)
    return expect_error(R(a.returncode, ao, ae, 0), "llama_bench")


FAULTS: list[Fault] = [
    # §1 security: snapshot/record text reaching pages and terminal
    Fault(
        "S01",
        "hostile snapshot fields -> Every-host panels",
        "§1",
        "payload inert in all 7 panels",
        f_hosts_panel,
    ),
    Fault(
        "S02", "hostile snapshot fields -> llama_bench report pages", "§1", "payload inert", f_lb_hosts_page
    ),
    Fault(
        "S03",
        "hostile snapshot fields -> `benchbook hosts` terminal",
        "§1/§2",
        "controls shown as ⟨U+…⟩",
        f_hosts_terminal,
    ),
    Fault("S04", "llama-bench stderr (offload failure) -> sweep.md", "§1", "payload inert", f_offload_stderr),
    Fault("S05", "record text -> skipped-sessions page", "§1", "payload inert", f_skipped_page),
    Fault("S06", "hostile model id in models.registry", "§1", "params error naming the id", f_model_name),
    Fault("S07", "hostile write-up name", "§1", "refused: name rules", f_writeup_name),
    Fault("S08", "hostile new-page name", "§1", "refused", f_newpage_name),
    Fault(
        "S10", "hostile registry strings + snapshots -> site.generate", "§1", "payload inert", f_site_generate
    ),
    Fault(
        "S09", "hostile llama-bench JSONL fields -> ingest terminal", "§2", "no raw control", f_ingest_hostile
    ),
    # §2 claims text
    Fault("C01", "hostile claim id -> audit terminal+page", "§2", "inert, controls visible", f_claim_id),
    Fault("C02", "hostile statement text -> audit terminal+page", "§2", "inert", f_claim_statement),
    Fault("C03", "hostile source kind/link/note/quote", "§2", "inert", f_claim_source),
    Fault("C04", "hostile model name in claims", "§2", "inert", f_claim_model),
    Fault("C05", "claims file name with ESC/shortcode/math", "§2", "inert", f_claim_file_name),
    Fault("C06", "hostile post -> claims draft -> audit page", "§2", "inert", f_draft_hostile),
    Fault("C07", "hostile post -> benchbook audit POST.md", "§2", "inert, no file included", f_audit_post),
    Fault("C08", "hostile HTML post -> claims draft -> page", "§2", "inert", f_draft_html_post),
    Fault(
        "C10",
        "claims draft -o onto a binary file / params.yaml",
        "§2/§6",
        "refused, file untouched",
        f_draft_onto_other_file,
    ),
    Fault(
        "C11",
        "X.logs/ entries symlinked outside",
        "§1/§2",
        "nothing of the linked files shown",
        f_logs_symlinks,
    ),
    Fault("C09", "terminal escapes in a post on stdin", "§2", "not kept raw", f_draft_stdin_controls),
    # §3 claims DoS / malformed
    Fault("D01", "YAML alias bomb (billion laughs) claims", "§3", "refused fast, named", f_alias_bomb),
    Fault("D02", "one YAML alias in claims", "§3", "refused, named", f_single_alias),
    Fault("D03", "YAML merge key << in claims", "§3", "refused, named", f_merge_key),
    Fault("D04", "!!python/object tag in claims", "§3", "refused; nothing runs", f_python_tag),
    Fault("D05", "20,000 claims", "§3", "linear (< 60 s)", f_many_claims),
    Fault("D06", "5000-deep flow sequence", "§3", "refused, named", f_deep_nesting),
    Fault("D07", "3000-deep flow mapping in a claim", "§3", "refused, named", f_deep_mapping),
    Fault("D08", "10 MB claims file", "§3", "answer in bounded time, no traceback", f_big_claims),
    Fault("D09", "binary claims file", "§3", "refused, named", f_binary_claims),
    Fault("D10", "empty claims file", "§3", "refused, named", f_empty_claims),
    Fault("D11", "claims file that is a list", "§3", "refused, named", f_claims_not_mapping),
    Fault("D12", "claims with wrong types", "§3", "refused, named", f_claims_wrong_types),
    Fault("D13", "duplicate claim ids", "§3", "refused, named", f_claims_dup_ids),
    Fault("D14", "NaN/inf claim values", "§3", "refused, named", f_claims_nan),
    Fault("D15", "10 MB post to claims draft", "§3", "bounded time", f_big_post),
    Fault("D16", "binary post to claims draft", "§3", "no traceback/control", f_binary_post),
    Fault(
        "D17",
        "audit --all over bad + good files",
        "§3",
        "good audited, bad named, exit != 0",
        f_audit_all_bad,
    ),
    # §4 concurrency
    Fault(
        "K01",
        "two Session.open of one raw file (2 processes)",
        "§4",
        "second refused naming pid",
        f_session_lock,
    ),
    # §5 downloads
    Fault("W01", "models add URL1 cut, then URL2 same name", "§5", "no splice", f_dl_other_url),
    Fault(
        "W02", "models add URL cut, same URL changed file (ETag)", "§5", "no splice", f_dl_same_url_changed
    ),
    Fault(
        "W03",
        "same URL changed file, server without validators",
        "§5",
        "no splice",
        f_dl_same_url_changed_no_validator,
    ),
    Fault(
        "W04", "models add URL of a truncated GGUF", "§5/§9", "refused, nothing registered", f_dl_truncated
    ),
    Fault("W05", "models add URL serving an HTML page", "§5", "refused", f_dl_html),
    Fault("W06", "models add URL 404", "§5", "error naming 404", f_dl_404),
    Fault("W07", "models add URL, connection refused", "§5", "error naming host", f_dl_refused),
    Fault("W08", "models add file:///etc/passwd", "§5", "refused", f_dl_file_url),
    # §6 atomic writes
    Fault("A01", "models add under RLIMIT_FSIZE 8 KiB", "§6", "params.yaml whole", f_params_ulimit),
    Fault(
        "A02",
        "models add with a read-only project folder",
        "§6",
        "error line, params intact",
        f_params_readonly_dir,
    ),
    Fault("A03", "models add on a full tmpfs", "§6", "params.yaml whole, no temp left", f_full_disk_params),
    Fault("A04", "records repair on a full tmpfs", "§6/§9", "raw file whole", f_full_raw_dir),
    # §7 duplicated raw lines
    Fault("R01", "duplicated llama-bench row", "§7", "reported+dropped, headline stays", f_dup_row),
    Fault("R02", "duplicated end record", "§7", "headline and counts unchanged", f_dup_end),
    Fault("R03", "duplicated start record", "§7", "headline and counts unchanged", f_dup_start),
    Fault(
        "R04",
        "row duplicated far from its original",
        "§7",
        "reported+dropped, headline stays",
        f_dup_row_late,
    ),
    Fault("R05", "torn line mid-file", "§7/§9", "named file:line", f_torn_middle),
    Fault("R06", "non-UTF-8 bytes in a raw records file", "§7/§9", "named file:line", f_non_utf8_raw),
    # §8 params.yaml
    Fault("P01", "llama_bench key typo", "§8", "nearest spelling named", f_p_lb_typo),
    Fault("P02", "llama_bench wrong type", "§8", "key named", f_p_lb_type),
    Fault("P03", "llama_bench negative repetitions", "§8", "key named", f_p_lb_negative),
    Fault("P04", "llama_bench.models a string", "§8", "key named", f_p_lb_models_str),
    Fault("P05", "llama_bench unknown model id", "§8", "id named", f_p_lb_unknown_model),
    Fault("P06", "report.confidence a word", "§8", "key named", f_p_report_type),
    Fault("P07", "report.confidence 95 (percent)", "§8", "key named", f_p_report_range),
    Fault("P08", "report key typo", "§8", "nearest spelling", f_p_report_typo),
    Fault("P09", "audit.severity.minor a list", "§8", "key named", f_p_audit_type),
    Fault("P10", "audit.here key typo", "§8", "key named", f_p_audit_here_typo),
    Fault("P11", "speculative key typo", "§8", "nearest spelling", f_p_spec_typo),
    Fault("P12", "speculative unknown profile", "§8", "profile named", f_p_spec_profile),
    Fault("P13", "toolchain.backend gpu", "§8", "key named", f_p_toolchain_backend),
    Fault("P14", "registry sha256 short", "§8", "key named", f_p_registry_sha),
    Fault("P15", "params.yaml a list", "§8", "file named", f_p_not_mapping),
    Fault("P16", "params.yaml empty", "§8", "file named", f_p_empty),
    Fault("P17", "params.yaml alias bomb", "§8/§3", "refused fast", f_p_alias_bomb),
    Fault("P22", "audit.severity key typo", "§8", "key named", f_p_severity_typo),
    Fault("P23", "params.yaml not UTF-8", "§8", "file named", f_p_binary),
    Fault("P18", "--overrides key typo", "§8", "option and key named", f_p_overrides_typo),
    Fault("P19", "--overrides wrong type", "§8", "key named", f_p_overrides_type),
    Fault("P20", "unknown experiment name", "§8", "named", f_p_unknown_experiment),
    Fault("P21", "unknown top-level section", "§8", "named", f_p_unknown_section),
    # §9 models, caches, records
    Fault("E01", "models add truncated GGUF file", "§9", "refused, nothing registered", f_add_truncated),
    Fault("E02", "models add random bytes", "§9", "refused", f_add_not_gguf),
    Fault("E03", "models add empty file", "§9", "refused", f_add_empty),
    Fault(
        "E04", "models add GGUF header with 2^63 tensors", "§9", "refused, no huge alloc", f_add_header_only
    ),
    Fault("E05", "models add --id injecting YAML", "§9", "refused", f_add_hostile_id),
    Fault("E06", "BENCHBOOK_CACHE is a file: models fetch", "§9", "error naming it", f_cache_is_file),
    Fault("E07", "BENCHBOOK_CACHE is a file: doctor", "§9", "MISS lines naming it", f_cache_is_file_doctor),
    Fault(
        "E08",
        "copied cache: libraries from the copy",
        "§9",
        "copy's libraries, doctor says so",
        f_copied_cache,
    ),
    Fault("E09", "records repair on a directory", "§9", "error line", f_repair_dir),
    Fault("E10", "records repair on a missing file", "§9", "error line", f_repair_missing),
    Fault("E11", "records repair on a GGUF named .jsonl", "§9", "refused, file intact", f_repair_gguf),
    Fault("E12", "records repair through a symlink", "§9", "link kept", f_repair_symlink),
    Fault("E13", "records repair in a read-only folder", "§9", "error line, file intact", f_repair_readonly),
    Fault("E14", "records repair twice", "§9", "both torn lines quarantined", f_repair_twice),
    Fault(
        "E18",
        "records repair with a torn middle line",
        "§9",
        "refused, later lines kept",
        f_repair_torn_middle,
    ),
    Fault("E19", "models add /dev/zero and a FIFO", "§9", "refused at once, named", f_add_special_files),
    Fault("E15", "ingest binary file", "§9", "no traceback/control", f_ingest_binary),
    Fault("E16", "ingest empty file and a folder", "§9", "no traceback", f_ingest_empty_dir),
    Fault("E17", "ingest a 10 MB line", "§9", "bounded time", f_ingest_huge_line),
    # §10
    Fault("M01", "`dvc add` of an artifact then test_pipeline + stages check", "§10", "pass", f_dvc_add),
    # llama.cpp
    Fault(
        "L01",
        "two llama_bench sessions at once",
        "§4",
        "second refused naming pid; nothing doubled",
        f_l_two_writers,
        True,
    ),
    Fault(
        "L02", "SIGTERM mid-session, then resume", "§4", "no orphan, nothing lost/doubled", f_l_sigterm, True
    ),
    Fault(
        "L03", "SIGHUP mid-session, then resume", "§4", "no orphan, nothing lost/doubled", f_l_sighup, True
    ),
    Fault(
        "L04", "SIGINT mid-session, then resume", "§4", "no orphan, nothing lost/doubled", f_l_sigint, True
    ),
    Fault("L05", "kill -9 mid-session, then resume", "§4", "nothing lost/doubled", f_l_kill9, True),
    Fault("L06", "session with failed runs", "§8", "exit non-zero", f_l_failed_runs, True),
    Fault("L07", "a file where the raw folder should be", "§9", "error line", f_l_readonly_raw, True),
]


def main(argv: list[str] | None = None, faults: list[Fault] | None = None, doc: str | None = None) -> int:
    """Run the catalogue (``faults``: ``FAULTS``, or a sibling catalogue's, e.g. draft_faults.py)."""
    faults = FAULTS if faults is None else faults
    ap = argparse.ArgumentParser(description=(doc or __doc__ or "").split("\n\n")[0])
    ap.add_argument("--with-llama", action="store_true", help="also the faults that run llama.cpp")
    ap.add_argument("--only", default="", help="comma-separated fault ids")
    ap.add_argument("--list", action="store_true", help="print the catalogue and exit")
    ap.add_argument("--keep", action="store_true", help="keep the scratch folders")
    a = ap.parse_args(argv)
    if a.list:
        for f in faults:
            print(f"{f.id}\t{f.section}\t{f.kind}\t{f.expect}{'  [--with-llama]' if f.llama else ''}")
        return 0
    picked = [
        f
        for f in faults
        if (not a.only or f.id in a.only.split(",")) and (a.with_llama or not f.llama or a.only)
    ]
    shutil.rmtree(SCRATCH, ignore_errors=True)
    SCRATCH.mkdir(parents=True)
    t0 = time.monotonic()
    results: list[tuple[Fault, Outcome, float]] = []
    for f in picked:
        d = SCRATCH / f.id
        d.mkdir()
        t = time.monotonic()
        try:
            o = f.fn(d)
        except Exception as e:  # the catalogue's own failure: shown, never counted as ok
            o = Outcome("wrong message", f"catalogue error {type(e).__name__}: {e}"[:200])
        dt = time.monotonic() - t
        results.append((f, o, dt))
        print(f"{f.id:4} {o.status:13} {dt:6.1f}s  {f.kind}: {o.detail}", flush=True)
        if not a.keep:
            subprocess.run(["chmod", "-R", "u+w", str(d)], capture_output=True)
            shutil.rmtree(d, ignore_errors=True)
    statuses = ["ok", "traceback", "data loss", "security", "wrong message"]
    counts = {s: sum(1 for _, o, _ in results if o.status == s) for s in statuses}
    print()
    print("| id | section | kind | outcome | detail |")
    print("|---|---|---|---|---|")
    for f, o, _ in results:
        print(f"| {f.id} | {f.section} | {f.kind} | {o.status} | {o.detail.replace('|', '/')} |")
    print()
    print(
        f"faults {len(results)}: "
        + ", ".join(f"{s} {counts[s]}" for s in statuses)
        + f"; {time.monotonic() - t0:.0f} s"
    )
    return 0 if counts["ok"] == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
