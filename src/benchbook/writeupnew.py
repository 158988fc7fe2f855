"""``benchbook writeup new NAME --model FILE|URL|ID``: a write-up of one GGUF, from the file to a page.

One command does what the README's write-up recipe did in four (``models add``, a forced measurement
of the user's model, ``papermill`` of the report notebook, ``new-page``), in the write-up's own folder
``writeups/NAME/`` (``sitewriteups``):

1. **The model**: an id of ``models.registry``, or a file (or URL) hashed and looked up by sha256
   (``registry.registered_as``): a file byte-identical to a registered model is that model ("this file
   is already <id>"), else it gets a new id from its file name, registered in the write-up's params
   only (the project's ``params.yaml`` is not changed).
2. **Its params**: ``writeups/NAME/params.yaml`` (``write_params``): the project's params with the
   experiment's section bound to that model (``llama_bench.models: [id]``, or ``speculative.target``),
   the host's profile and ``--overrides`` merged in, ``report.primary_host: null`` (the write-up's own
   host) and no ``profiles``: the measurement and the report read exactly this file.  An existing
   file is read as it is (run the command again to resume or add a session).
3. **Measuring** only that: the experiment's ``measure`` with the raw folder ``writeups/NAME/raw``,
   the build made and the model fetched first (``resolve.get_toolchain``, ``resolve.get_models``).
4. **Its registry**: the experiment's ``report.build`` into ``writeups/NAME/reports/`` (numbers in
   ``reports/numbers/<experiment>.json``, commands without the machine's folders: ``paths.public_path``).
5. **The page**: ``writeups/NAME/index.qmd`` (``page_source``): room for prose, a table of every number
   as ``{{< var NAME--KEY__v >}}`` cells linked to its provenance entry, "what was measured" and the
   caveat legend over the page's own numbers; listed in ``_quarto.yml`` (``project.render`` and the
   navigation bar's "Write-ups" menu).  A page the user edited (the ``MARK`` line kept) is rewritten
   only with ``--force``; a page without the mark never.
"""

from __future__ import annotations

import copy
import importlib
import json
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path, PurePath

import yaml

from benchbook import atomicfile

from . import resolve, sitewriteups, writeup
from .escape import markdown_text
from .experiments import drift, profiles
from .experiments.__main__ import OPTION
from .experiments.contract import Sourced
from .llamacpp import registry
from .llamacpp.models import canonical_id, file_sha256, models_dir
from .llamacpp.registry import public_entry, write_local_path
from .numbers import load_all
from .session import SessionResult

#: the experiments a write-up of one GGUF measures, and the params key that names the model
EXPERIMENTS = {"llama_bench": "models", "speculative": "target"}
#: the front-matter line of a page ``writeup new`` wrote: only such a page is rewritten (``--force``)
MARK = "# written by `benchbook writeup new`: --force may rewrite this page (your edits are lost)"
#: how the key of a llama-bench number is made (``experiments.llama_bench.report.config_key``)
LB_KEYS = "lb-<model id>-pp<n_prompt>-warm, lb-<model id>-tg<n_gen>-warm (the cold run: -cold)"


class WriteupNewError(ValueError):
    """The write-up cannot be made as asked; the message names the thing and the fix."""


@dataclass
class Written:
    """What ``new`` did: the write-up's folder, its model id, ``already`` (the file was a registered
    model), the params file, the page (None when an edited page was kept), the registry, and seconds
    per step (``timings``)."""

    folder: Path
    model_id: str
    already: bool
    params_file: Path
    page: Path | None
    registry: Path
    timings: dict[str, float] = field(default_factory=dict)
    #: the measurement's session (runs measured, resumed, failed) and the numbers its registry holds
    measured: SessionResult | None = None
    numbers: int = 0
    #: the experiment measured and what the page calls the model (``model_shown``)
    experiment: str = "llama_bench"
    shown: str = ""


#: what each step of ``new`` is called in its summary (``summary``)
STEPS = {
    "model_s": "model",
    "build_and_fetch_s": "build and fetch",
    "measure_s": "measuring",
    "report_s": "report",
}


def summary(done: Written, root: Path, name: str) -> list[str]:
    """What ``benchbook writeup new`` prints when it is done (issue 33: it printed a toolchain id, a
    Python list and the raw file's absolute path): what was measured and how many runs, where the
    numbers and the page are, and the next commands; paths relative to the repository.

    >>> from benchbook.session import SessionResult
    >>> r = SessionResult("s" * 32, "llama_bench", False, 2, 0, raw_file=Path("/r/writeups/w/raw/x.jsonl"))
    >>> w = Written(Path("/r/writeups/w"), "smollm2-135m-q8_0", True, Path("/r/writeups/w/params.yaml"),
    ...             Path("/r/writeups/w/index.qmd"), Path("/r/writeups/w/reports/numbers/llama_bench.json"),
    ...             {"measure_s": 61.0}, r, 4, "llama_bench", "my-model.gguf")
    >>> print("\\n".join(summary(w, Path("/r"), "w")))
    write-up w: llama_bench of my-model.gguf (the same file as the registered model smollm2-135m-q8_0)
      measured: 2 runs now (session ssssssss) -> writeups/w/raw/x.jsonl
      numbers:  4 in writeups/w/reports/numbers/llama_bench.json (`benchbook numbers --writeup w` lists them)
      page:     writeups/w/index.qmd
    next:
      1. write your text in writeups/w/index.qmd (quote a number as {{< var w--KEY >}})
      2. `benchbook site build`, then open _site/writeups/w/index.html (menu Write-ups -> w)
    took: measuring 61.0 s
    """

    def rel(p: Path) -> str:
        return str(p.relative_to(root)) if p.is_absolute() and p.is_relative_to(root) else str(p)

    same = _same_words(done.shown or done.model_id, done.model_id, done.already, "")
    out = [f"write-up {name}: {done.experiment} of {done.shown or done.model_id}{same}"]
    if (m := done.measured) is not None:
        parts = [f"{m.ran} run{'s' if m.ran != 1 else ''} now"]
        if m.skipped:
            parts.append(f"{m.skipped} already done (session resumed)")
        if m.failed:
            parts.append(f"{m.failed} FAILED (run the command again to measure them)")
        where = f" -> {rel(m.raw_file)}" if m.raw_file is not None else ""
        out.append(f"  measured: {', '.join(parts)} (session {m.session_id[:8]}){where}")
    listed = f"`benchbook numbers --writeup {name}` lists them"
    out.append(f"  numbers:  {done.numbers} in {rel(done.registry)} ({listed})")
    page = done.page or done.folder / "index.qmd"
    out.append(f"  page:     {rel(page)}" + ("" if done.page else " (kept: your edits; --force rewrites it)"))
    out += [
        "next:",
        f"  1. write your text in {rel(page)} (quote a number as {{{{< var {name}--KEY >}}}})",
        f"  2. `benchbook site build`, then open _site/{rel(page)[:-4]}.html (menu Write-ups -> {name})",
    ]
    took = [f"{STEPS.get(k, k)} {v:.1f} s" for k, v in done.timings.items() if v >= 0.05]
    if took:
        out.append("took: " + ", ".join(took))
    return out


def resolve_model(root: Path, params: dict, model: str, log=print) -> tuple[str, dict | None, bool]:
    """``(id, new entry or None, already registered)`` for ``--model``: a registry id as it is (an alias
    as its target); a file or URL by its sha256: an entry naming those bytes is "already" it, else a
    new ``source: file`` / ``url`` entry whose id comes from the file name.

    Raises:
        WriteupNewError: the id a new file would get is taken by another file (fix: rename the file).
        registry.RegistryError: not a file, not a GGUF, inside the repository (``registry.entry_for``).
    """
    reg = params["models"]["registry"]
    if model in reg:
        return canonical_id(reg, model), None, True
    entry = registry.entry_for(model, root, models_dir=models_dir(), log=log)
    existing = registry.registered_as(reg, entry["sha256"], file_sha256)
    if existing is not None:
        log(f"this file is already {existing} (sha256 {entry['sha256']}): the write-up measures {existing}")
        return existing, None, True
    model_id = registry.model_id_for(model)
    if model_id in reg:
        raise WriteupNewError(
            f"{model}: its id {model_id!r} names another file in models.registry; fix: rename the file "
            "(the id comes from its name) or register it first: `benchbook models add FILE --id NEW_ID`"
        )
    return model_id, entry, False


def write_params(
    params: dict, experiment: str, model_id: str, entry: dict | None, overrides: dict | None
) -> dict:
    """The write-up's params (module docstring, step 2): a copy of ``params`` with ``entry`` under
    ``models.registry.<model_id>`` (when new), the experiment's section as this host's profile and
    ``overrides`` make it, bound to ``model_id``; returned, not written.

    Raises:
        errors.ParamsError: an override does not fit the experiment's params (names the key and fix).
    """
    doc = copy.deepcopy(params)
    if entry is not None:
        doc["models"]["registry"][model_id] = entry
    key = EXPERIMENTS[experiment]
    bound = {key: [model_id] if key == "models" else model_id}
    picked = profiles.pick(params)
    layer = profiles.layer(doc, experiment, picked) | Sourced(overrides or {}, OPTION) | bound
    doc[experiment] = drift.params_class(experiment).from_params(doc, layer).config()
    doc["report"] = {**doc.get("report", {}), "primary_host": None}
    doc.pop("profiles", None)
    return doc


def model_shown(model: str | None, model_id: str) -> str:
    """What the write-up's page calls the model: the name the user gave (``--model``: a file's or a URL's
    file name, never its folder; an id as typed, an alias too), else the registry id.  A file
    byte-identical to a registered model keeps the user's name on the page (issue 33: the title named
    the registry's alias).

    >>> model_shown("/home/u/models/my-model.gguf", "smollm2-135m-q8_0"), model_shown(None, "m")
    ('my-model.gguf', 'm')
    >>> model_shown("https://h.example/a/b/x.Q4_K_M.gguf?download=true", "x-q4_k_m")
    'x.Q4_K_M.gguf'
    """
    if model is None:
        return model_id
    if "://" in model:
        return urllib.parse.urlsplit(model).path.rstrip("/").rsplit("/", 1)[-1] or model_id
    return PurePath(model).name if ("/" in model or "\\" in model or model.endswith(".gguf")) else model


def _same_words(shown: str, model_id: str, already: bool, quote: str = "`") -> str:
    """`` (the same file as the registered model ID)`` for a file that was already registered under
    another name, `` (registered as ID)`` for a new file whose id differs from its name, else ''."""
    if shown == model_id:
        return ""
    if already:
        return f" (the same file as the registered model {quote}{model_id}{quote})"
    return f" (registered as {quote}{model_id}{quote})"


def page_source(
    name: str,
    experiment: str,
    model_id: str,
    nums: dict[str, dict],
    shown: str | None = None,
    already: bool = False,
) -> str:
    """The text of ``writeups/NAME/index.qmd``: title (``NAME: <shown>``, ``shown`` the user's name for
    the model, ``model_shown``; default ``model_id``; ``already``: the file was a registered model, which
    the example sentence names), a prose section to write in, one example
    sentence quoting a number, a table of every number (``{{< var NAME--KEY__v >}}``, unit in its own
    column), "what was measured" and the caveat legend over the page's numbers (generated by the site
    build: ``sitewriteups.pages_parts``)."""
    keys = sorted(nums)
    tg = next((k for k in keys if "-tg" in k and k.endswith("-warm")), keys[0])
    shown = shown or model_id
    same = _same_words(shown, model_id, already)
    body = [
        "---",
        f"title: {json.dumps(f'{name}: {markdown_text(shown)}', ensure_ascii=False)}",
        MARK,
        "# Quote a number as `var NAME--KEY` in the var shortcode (its unit, interval, caveat markers",
        "# and a link to its records), or `var NAME--KEY__v` in a table whose header names the unit.",
        f"# Keys of {experiment}:",
        "#   "
        + (LB_KEYS.replace("lb-", f"{name}--lb-") if experiment == "llama_bench" else f"{name}--<key>"),
        f"# `benchbook numbers --writeup {name}` lists them with their values.",
        "---",
        "",
        "## Summary",
        "",
        f"Write here. For example: {markdown_text(shown)}{same} generated "
        f"{{{{< var {sitewriteups.page_key(name, tg)} >}}}} on this host.",
        "",
        "## Numbers",
        "",
        "| number | value [95% interval] | unit | n |",
        "|---|---|---|---|",
    ]
    for k in keys:
        n = nums[k]
        body.append(
            f"| `{sitewriteups.page_key(name, k)}` | {{{{< var {sitewriteups.page_key(name, k)}__v >}}}} | "
            f"{n.get('unit') or '—'} | {n['n']} |"
        )
    body += [
        "",
        "## What was measured",
        "",
        "{{< include _generated/index-measured.md >}}",
        "",
        "## Caveats",
        "",
        "{{< include _generated/index-caveats.md >}}",
        "",
    ]
    return "\n".join(body)


def add_to_site(root: Path, name: str) -> list[str]:
    """List ``writeups/NAME/index.qmd`` in ``_quarto.yml``: the render glob ``writeups/*/*.qmd``
    (``writeup.add_to_quarto``) and an entry of the navigation bar's "Write-ups" menu (added before
    the "Audits" entry when absent); the file's other lines unchanged.  Returns what was added."""
    added = ["render: writeups/*/*.qmd"] if writeup.add_to_quarto(root, "writeups/*/*.qmd") else []
    cfg = Path(root) / "_quarto.yml"
    lines = cfg.read_text().splitlines(keepends=True)
    href = f"writeups/{name}/index.qmd"
    if any(line.strip() == f"- href: {href}" for line in lines):
        return added
    item = [f"          - href: {href}\n", f'            text: "{name}"\n']
    menu = next((i for i, line in enumerate(lines) if line.strip() == "- text: Write-ups"), None)
    if menu is None:
        at = next((i for i, line in enumerate(lines) if line.strip() == "- href: audits/index.qmd"), None)
        if at is None:
            raise WriteupNewError(
                f"{cfg}: no navigation entry `- href: audits/index.qmd` to put the Write-ups menu before; "
                f"fix: add `- text: Write-ups` with `menu:` to website.navbar.left, then run again"
            )
        lines[at:at] = ["      - text: Write-ups\n", "        menu:\n", *item]
    else:
        lines[menu + 2 : menu + 2] = item
    atomicfile.write_text(cfg, "".join(lines))
    return [*added, f"navbar Write-ups: {href}"]


def new(
    root: Path,
    name: str,
    model: str | None,
    experiment: str = "llama_bench",
    overrides: dict | None = None,
    *,
    force: bool = False,
    log=print,
) -> Written:
    """Make (or continue) the write-up ``name`` (module docstring); return what was written.

    Raises:
        WriteupNewError: a bad name or experiment; ``--model`` missing for a new write-up, or naming
            another model than its params file; the page exists without ``MARK``.
        registry.RegistryError, errors.ParamsError, toolchain and model errors: as their modules say.
    """
    root = Path(root)
    if problem := writeup.name_problem(name):
        raise WriteupNewError(f"write-up name {writeup.shown_name(name)}: {problem}")
    if experiment not in EXPERIMENTS:
        raise WriteupNewError(
            f"--experiment {experiment!r}: a write-up of one GGUF measures {', '.join(EXPERIMENTS)}; "
            "fix: one of them (the others measure fixed or synthetic models: `benchbook new-page`)"
        )
    folder = root / sitewriteups.WRITEUPS / name
    page = folder / "index.qmd"
    if page.exists() and MARK not in page.read_text(errors="replace"):
        raise WriteupNewError(
            f"{page} exists and was not written by `benchbook writeup new`; fix: another NAME"
        )
    timings: dict[str, float] = {}
    t = time.monotonic()
    params_file = folder / "params.yaml"
    if params_file.exists():
        wparams = resolve.load_params_file(params_file)
        key = EXPERIMENTS[experiment]
        bound = wparams.get(experiment, {}).get(key)
        model_id = bound[0] if isinstance(bound, list) else bound
        if model is not None:
            asked, _, _ = resolve_model(root, wparams, model, log)
            if asked != model_id:
                raise WriteupNewError(
                    f"{params_file} measures {model_id}, --model names {asked}; fix: another NAME for a "
                    "write-up of that model, or leave --model out to continue this one"
                )
            ent = wparams["models"]["registry"].get(model_id, {})
            if ent.get("source") == "file" and Path(model).expanduser().is_file():
                write_local_path(params_file, model_id, model)  # this machine's path of the file
                wparams = resolve.load_params_file(params_file)
        log(
            f"{params_file.relative_to(root)}: continuing the write-up of {model_id} (its params as they are)"
        )
        already = True
    else:
        if model is None:
            raise WriteupNewError(f"write-up {name!r} is new: --model FILE|URL|ID is needed")
        params = resolve.load_params(root)
        model_id, entry, already = resolve_model(root, params, model, log)
        shared = public_entry(entry) if entry is not None else None
        wparams = write_params(params, experiment, model_id, shared, overrides)
        folder.mkdir(parents=True, exist_ok=True)
        if entry is not None and entry.get("source") == "file":
            write_local_path(params_file, model_id, entry["path"])
        atomicfile.write_text(
            params_file,
            f"# the params of write-up {name} (`benchbook writeup new`): its measurement and report read "
            "exactly this file\n" + yaml.safe_dump(wparams, sort_keys=False, width=110),
        )
        wparams = resolve.load_params_file(params_file)
        log(f"wrote {params_file.relative_to(root)} ({experiment} of {model_id})")
    timings["model_s"] = time.monotonic() - t
    t = time.monotonic()
    toolchain = resolve.get_toolchain(wparams, build=True, log=log)
    ids = [model_id]
    resolve.get_models(wparams, ids, toolchain, log=log)
    timings["build_and_fetch_s"] = time.monotonic() - t
    t = time.monotonic()
    run = importlib.import_module(f"benchbook.experiments.{experiment}.run")
    raw_dir = folder.relative_to(root) / "raw"
    measured = run.measure(wparams, root=root, raw_dir=raw_dir, overrides=None, log=log)
    timings["measure_s"] = time.monotonic() - t
    t = time.monotonic()
    report = importlib.import_module(f"benchbook.experiments.{experiment}.report")
    report.build(wparams, root=root, raw_dir=raw_dir, reports_dir=folder.relative_to(root) / "reports")
    reg_file = sitewriteups.registry_dir(folder) / f"{experiment}.json"
    nums = {
        k: n
        for k, n in load_all(sitewriteups.registry_dir(folder)).items()
        if n.get("experiment") == experiment
    }
    timings["report_s"] = time.monotonic() - t
    written: Path | None = None
    if not page.exists() or force:
        atomicfile.write_text(
            page, page_source(name, experiment, model_id, nums, model_shown(model, model_id), already)
        )
        written = page
    else:
        log(f"{page.relative_to(root)} kept (your edits); --force rewrites it")
    for line in add_to_site(root, name):
        log(f"_quarto.yml: {line}")
    shown = model_shown(model, model_id)
    return Written(
        folder,
        model_id,
        already,
        params_file,
        written,
        reg_file,
        timings,
        measured,
        len(nums),
        experiment,
        shown,
    )
