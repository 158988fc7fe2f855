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
import time
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from benchbook import atomicfile

from . import resolve, sitewriteups, writeup
from .experiments import drift, profiles
from .experiments.__main__ import OPTION
from .experiments.contract import Sourced
from .llamacpp import registry
from .llamacpp.models import canonical_id, file_sha256, models_dir
from .numbers import load_all

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
    if entry.get("source") == "file":  # the folder as ~/… where it is under the home folder
        home, path = Path.home(), Path(entry["path"])
        entry["path"] = f"~/{path.relative_to(home)}" if path.is_relative_to(home) else str(path)
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


def page_source(name: str, experiment: str, model_id: str, nums: dict[str, dict]) -> str:
    """The text of ``writeups/NAME/index.qmd``: title, a prose section to write in, one example
    sentence quoting a number, a table of every number (``{{< var NAME--KEY__v >}}``, unit in its own
    column), "what was measured" and the caveat legend over the page's numbers (generated by the site
    build: ``sitewriteups.pages_parts``)."""
    keys = sorted(nums)
    tg = next((k for k in keys if "-tg" in k and k.endswith("-warm")), keys[0])
    body = [
        "---",
        f'title: "{name}: {model_id}"',
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
        f"Write here. For example: `{model_id}` generated "
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
        log(
            f"{params_file.relative_to(root)}: continuing the write-up of {model_id} (its params as they are)"
        )
        already = True
    else:
        if model is None:
            raise WriteupNewError(f"write-up {name!r} is new: --model FILE|URL|ID is needed")
        params = resolve.load_params(root)
        model_id, entry, already = resolve_model(root, params, model, log)
        wparams = write_params(params, experiment, model_id, entry, overrides)
        folder.mkdir(parents=True, exist_ok=True)
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
    run.measure(wparams, root=root, raw_dir=raw_dir, overrides=None, log=log)
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
        atomicfile.write_text(page, page_source(name, experiment, model_id, nums))
        written = page
    else:
        log(f"{page.relative_to(root)} kept (your edits); --force rewrites it")
    for line in add_to_site(root, name):
        log(f"_quarto.yml: {line}")
    return Written(folder, model_id, already, params_file, written, reg_file, timings)
