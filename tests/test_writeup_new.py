"""``benchbook writeup new`` (issue 33 §1): a write-up of one GGUF in ``writeups/NAME/``, its params, its
registry and a page quoting its numbers as ``{{< var NAME--KEY >}}`` that the site renders with links to
the write-up's own provenance entries, markers numbered on the page, listed in the navigation bar.  The
measurement itself (llama-bench) is not run here; its registry is a published fixture."""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

import pytest
import yaml

from benchbook import cli, site, sitewriteups, writeup, writeupnew
from benchbook.llamacpp import registry
from benchbook.numbers import Number, load_all, publish

ROOT = Path(__file__).resolve().parents[1]


def _writeup(root: Path, name: str = "mine") -> None:
    """A write-up registry of two llama-bench numbers of model ``m`` (one with a caveat), citing its raw."""
    raw = root / f"writeups/{name}/raw/llama_bench/h.jsonl"
    raw.parent.mkdir(parents=True)
    raw.write_text('{"i": 0}\n{"i": 1}\n')
    common = dict(n=3, computation="c", build="b11434 (unknown) cpu", experiment="llama_bench", unit="tok/s")
    common |= dict(commands=[["llama-bench", "-m", "<models>/m.gguf"]], ci_method="log-scale t")
    nums = [
        Number(
            key=key,
            value=10.0 + i,
            label=key,
            ci95=[9.0 + i, 11.0 + i],
            sources=[{"file": f"writeups/{name}/raw/llama_bench/h.jsonl", "lines": [[i + 1, i + 1]]}],
            caveats=["high_variance"] if "tg" in key else [],
            **common,
        )
        for i, key in enumerate(["lb-m-pp32-warm", "lb-m-tg16-warm"])
    ]
    publish(
        root / f"writeups/{name}/reports/numbers/llama_bench.json",
        "llama_bench",
        nums,
        root=root,
        replication="repetitions",
    )


def test_page_keys_are_the_writeups_name_and_its_registry_key(tmp_path):
    _writeup(tmp_path)
    assert sitewriteups.page_key("mine", "lb-m-tg16-warm") == "mine--lb-m-tg16-warm"
    assert sorted(sitewriteups.page_numbers(tmp_path)["mine"]) == [
        "mine--lb-m-pp32-warm",
        "mine--lb-m-tg16-warm",
    ]
    # `benchbook numbers --writeup mine` prints the keys as a page quotes them
    found = writeup.rows(sitewriteups.registry_dir(tmp_path / "writeups/mine"), "tg", "mine")
    assert [r.key for r in found] == ["mine--lb-m-tg16-warm"]
    with pytest.raises(writeup.WriteupError, match="--writeup nope: no write-up registry"):
        cli.writeup_registry(tmp_path, "nope")


def test_a_writeup_page_renders_with_linked_numbers_its_own_legend_and_a_menu_entry(tmp_path):
    (tmp_path / "_quarto.yml").write_text(
        "project:\n  type: website\n  render:\n    - index.qmd\n    - provenance.qmd\n"
        "    - writeups/*/provenance/*.qmd\n"
        "format:\n  html:\n    theme: litera\n"
        "website:\n  title: t\n  navbar:\n    left:\n      - href: index.qmd\n        text: Overview\n"
        "      - href: audits/index.qmd\n        text: Audits\n"
    )
    (tmp_path / "index.qmd").write_text("---\ntitle: home\n---\n\nHome.\n")
    shutil.copy(ROOT / "provenance.qmd", tmp_path / "provenance.qmd")  # the caveat rules' anchors
    (tmp_path / "audits").mkdir()
    (tmp_path / "audits/index.qmd").write_text("---\ntitle: audits\n---\n\nNone.\n")
    (tmp_path / "reports/numbers").mkdir(parents=True)
    _writeup(tmp_path)
    nums = load_all(tmp_path / "writeups/mine/reports/numbers")
    page = tmp_path / "writeups/mine/index.qmd"
    page.write_text(writeupnew.page_source("mine", "llama_bench", "m", nums))
    assert writeupnew.add_to_site(tmp_path, "mine") == [
        "render: writeups/*/*.qmd",
        "navbar Write-ups: writeups/mine/index.qmd",
    ]
    assert writeupnew.add_to_site(tmp_path, "mine") == []  # listed once
    cfg = yaml.safe_load((tmp_path / "_quarto.yml").read_text())
    menu = cfg["website"]["navbar"]["left"][1]
    assert menu == {"text": "Write-ups", "menu": [{"href": "writeups/mine/index.qmd", "text": "mine"}]}
    text = page.read_text()
    assert "{{< var mine--lb-m-tg16-warm >}}" in text and "{{< var mine--lb-m-pp32-warm__v >}}" in text
    assert "#   mine--lb-<model id>-pp<n_prompt>-warm, mine--lb-<model id>-tg<n_gen>-warm" in text
    built = site.render(tmp_path)
    (links,) = [p for p in built.pages if p.page == "writeups/mine/index.qmd"]
    assert (links.wanted, links.linked, links.unlinked) == (3, 3, {})
    html = (tmp_path / "_site/writeups/mine/index.html").read_text()
    # the source's digit is the site's (caveats.RULES order: high_variance is †4, no page met another
    # rule first); the page's only marker is its first: †1, in its prose, its table and its legend
    variables = yaml.safe_load((tmp_path / "_variables.yml").read_text())
    assert " †4](provenance/llama_bench.qmd#n-lb-m-tg16-warm " in variables["mine--lb-m-tg16-warm"]
    assert set(re.findall(r"†\d+", html)) == {"†1"}, re.findall(r".{60}†\d+", html)
    assert "provenance/llama_bench.html#n-lb-m-tg16-warm" in html
    measured = (tmp_path / "writeups/mine/_generated/index-measured.md").read_text()
    assert "../../provenance.qmd#c-" in measured or "Caveat said once" not in measured


def test_write_params_binds_the_experiment_to_the_model_and_drops_profiles(committed_params):
    doc = writeupnew.write_params(
        committed_params,
        "llama_bench",
        "mine",
        {"source": "file", "path": "~/m.gguf", "sha256": "a" * 64, "size_bytes": 4},
        {"repetitions": 2},
    )
    assert doc["llama_bench"]["models"] == ["mine"] and doc["llama_bench"]["repetitions"] == 2
    assert doc["models"]["registry"]["mine"]["path"] == "~/m.gguf"
    assert doc["report"]["primary_host"] is None and "profiles" not in doc
    assert committed_params["llama_bench"]["models"] != ["mine"]  # the project's params untouched


def test_a_registered_file_is_found_by_sha256_and_a_new_one_gets_its_name(
    tmp_path, committed_params, monkeypatch
):
    monkeypatch.setenv("BENCHBOOK_CACHE", str(tmp_path / "cache"))
    proj = tmp_path / "proj"  # the repository; the file lies outside it
    proj.mkdir()
    f = tmp_path / "elsewhere" / "My-Model.Q8_0.gguf"
    f.parent.mkdir()
    f.write_bytes(b"GGUF" + b"Q" * 60)
    said: list[str] = []
    model_id, entry, already = writeupnew.resolve_model(proj, committed_params, str(f), said.append)
    assert (model_id, already, entry["sha256"]) == (
        "my-model-q8_0",
        False,
        hashlib.sha256(f.read_bytes()).hexdigest(),
    )
    # the same bytes under a registered id: "already" it, no new entry
    params = {
        **committed_params,
        "models": {
            **committed_params["models"],
            "registry": {**committed_params["models"]["registry"], "theirs": entry},
        },
    }
    model_id, entry2, already = writeupnew.resolve_model(proj, params, str(f), said.append)
    assert (model_id, entry2, already) == ("theirs", None, True)
    assert said[-1].startswith("this file is already theirs (sha256 ")
    # an id of the registry is used as it is
    assert writeupnew.resolve_model(proj, committed_params, "smollm2-135m-q8_0")[:2] == (
        "smollm2-135m-q8_0",
        None,
    )


def test_committed_writeups_publish_no_folder_of_the_measuring_machine():
    """Issue 33 §3 (leftover): the user-gguf registry's commands named ``/root/.cache/benchbook/models/…``
    and its params the same absolute path; now ``<cache>/…`` in the registry and ``~/…`` in params."""
    import json

    for reg in sorted(ROOT.glob("writeups/*/reports/numbers/*.json")):
        for key, num in json.loads(reg.read_text())["numbers"].items():
            args = [a for c in num.get("commands") or [] for a in c]
            assert not [a for a in args if a.startswith("/")], f"{reg}: {key}"
    for params in sorted(ROOT.glob("writeups/*/params.yaml")):
        text = params.read_text()
        assert "/root/" not in text and "/home/" not in text, params
    assert ROOT.joinpath("writeups/user-gguf/params.yaml").read_text().count("path: ~/.cache/benchbook/") == 1


def test_new_page_sees_a_writeups_registry(tmp_path):
    (tmp_path / "_quarto.yml").write_text("project:\n  type: website\n  render:\n    - index.qmd\n")
    _writeup(tmp_path)
    registry_dir = sitewriteups.registry_dir(tmp_path / "writeups/mine")
    page = writeup.new_page(tmp_path, "note", "llama_bench", "tg", writeup="mine", numbers_dir=registry_dir)
    assert page == tmp_path / "writeups/mine/note.qmd"
    text = page.read_text()
    assert "| `mine--lb-m-tg16-warm` | {{< var mine--lb-m-tg16-warm__v >}} | tok/s | 3 |" in text
    assert "{{< include _generated/note-measured.md >}}" in text
    assert "{{< include _generated/note-caveats.md >}}" in text
    assert "writeups/*/*.qmd" in (tmp_path / "_quarto.yml").read_text()
    parts = sitewriteups.pages_parts(tmp_path)
    legend = parts[tmp_path / "writeups/mine/_generated/note-caveats.md"]
    assert "[high_variance](../../provenance.qmd#c-high_variance) (warning, 1 of 1 numbers)" in legend
    assert "**n:** 3 per number" in parts[tmp_path / "writeups/mine/_generated/note-measured.md"]


def test_measuring_prints_what_a_user_needs_not_ids_and_lists():
    """issue 33: ``writeup new`` printed ``d41733ad… ['smollm2-135m-q8_0'] -> /root/…/x.jsonl``; the
    measurement's line names the model, the runs, the tests, the build and the raw file in the repo."""
    from benchbook.experiments.llama_bench.plan import LlamaBenchParams
    from benchbook.experiments.llama_bench.run import measuring_line

    cfg = LlamaBenchParams.from_section(
        {"models": ["smollm2-135m-q8_0"], "n_prompt": 128, "n_gen": 64, "n_depth": 0, "repetitions": 5,
         "threads": 2, "n_gpu_layers": 99, "flash_attn": "auto", "cold_first_run": True, "timeout_s": 900}
    )  # fmt: skip
    model = {"model_id": "smollm2-135m-q8_0", "sha256": "7b" * 32}
    tc = {"toolchain_id": "d41733ad5e6f7a8b", "build_number": 11434}
    raw = tmp = Path("/home/alice/proj")
    line = measuring_line(
        cfg, [model], tc, "3f1dfa40", raw / "writeups/w/raw/llama_bench/3f1dfa40.jsonl", tmp
    )
    assert line == (
        "llama_bench: measuring smollm2-135m-q8_0: 2 runs (cold, then warm with 5 repetitions; pp128 and "
        "tg64 each), build b11434 (toolchain d41733ad) -> writeups/w/raw/llama_bench/3f1dfa40.jsonl"
    )


def test_the_summary_says_what_was_measured_where_the_page_is_and_what_next():
    """The lines ``writeup new`` ends with: the model under the user's name, the runs (resumed and failed
    ones said), the numbers, the page, the next two steps; no absolute path."""
    from benchbook.session import SessionResult

    root = Path("/home/alice/proj")
    w = root / "writeups/w"
    res = SessionResult("ab" * 16, "llama_bench", True, 1, 1, 1, raw_file=w / "raw/llama_bench/h.jsonl")
    done = writeupnew.Written(
        w, "smollm2-135m-q8_0", True, w / "params.yaml", None, w / "reports/numbers/llama_bench.json",
        {"model_s": 0.2, "build_and_fetch_s": 0.01, "measure_s": 95.04, "report_s": 3.3}, res, 4,
        "llama_bench", "my-model.gguf",
    )  # fmt: skip
    assert writeupnew.summary(done, root, "w") == [
        "write-up w: llama_bench of my-model.gguf (the same file as the registered model smollm2-135m-q8_0)",
        "  measured: 1 run now, 1 already done (session resumed), 1 FAILED (run the command again to measure "
        "them) (session abababab) -> writeups/w/raw/llama_bench/h.jsonl",
        "  numbers:  4 in writeups/w/reports/numbers/llama_bench.json (`benchbook numbers --writeup w` "
        "lists them)",
        "  page:     writeups/w/index.qmd (kept: your edits; --force rewrites it)",
        "next:",
        "  1. write your text in writeups/w/index.qmd (quote a number as {{< var w--KEY >}})",
        "  2. `benchbook site build`, then open _site/writeups/w/index.html (menu Write-ups -> w)",
        "took: model 0.2 s, measuring 95.0 s, report 3.3 s",
    ]
    assert not any("/home/alice" in line for line in writeupnew.summary(done, root, "w"))
    # a new file (not registered before): never "the same file as"; its id said (the keys use it)
    import dataclasses

    new = dataclasses.replace(done, already=False, model_id="my-model")
    assert (
        writeupnew.summary(new, root, "w")[0]
        == "write-up w: llama_bench of my-model.gguf (registered as my-model)"
    )


def test_the_page_is_titled_after_the_users_file_not_the_registry_alias(tmp_path):
    """issue 33: a file byte-identical to smollm2-135m-q8_0 got a page titled "w: smollm2-135m-q8_0";
    the title names the user's file (its name only), the example sentence says which registered model it
    is; an id given as --model titles the page with that id (control)."""
    _writeup(tmp_path)
    nums = load_all(tmp_path / "writeups/mine/reports/numbers")
    shown = writeupnew.model_shown("/home/alice/models/my_model.gguf", "m")
    assert shown == "my_model.gguf"
    text = writeupnew.page_source("mine", "llama_bench", "m", nums, shown, already=True)
    title = next(line for line in text.splitlines() if line.startswith("title:"))
    assert (
        yaml.safe_load(title)["title"] == "mine: my&#95;model.gguf"
    )  # Markdown-inert: renders my_model.gguf
    assert "For example: my&#95;model.gguf (the same file as the registered model `m`) generated" in text
    assert "/home/alice" not in text
    # a new file: named as given, its id said (the keys use it); never "the same file as"
    new = writeupnew.page_source("mine", "llama_bench", "m", nums, "my-m.gguf", already=False)
    assert 'title: "mine: my-m.gguf"' in new and "For example: my-m.gguf (registered as `m`) generated" in new
    plain = writeupnew.page_source("mine", "llama_bench", "m", nums, writeupnew.model_shown("m", "m"))
    assert 'title: "mine: m"' in plain and "For example: m generated" in plain


def test_a_users_file_is_named_in_the_writeups_params_by_its_name_only(tmp_path, committed_params):
    """issue 33 §3: the write-up's params (committed with it) held the user's folder (``path:
    /tmp/xp/my-model.gguf``, or ``~/…``).  They name the file ``<models>/my-model.gguf``; this machine's
    path goes to ``params.local.yaml`` beside them (git-ignored), which loading the params reads; a
    clone without it is told how to give the path."""
    import subprocess

    from benchbook import resolve
    from benchbook.llamacpp import models as models_mod

    mine = tmp_path / "home" / "alice" / "models" / "my-model.gguf"
    entry = {"source": "file", "path": str(mine), "sha256": "ab" * 32, "size_bytes": 10}
    shared = registry.public_entry(entry)
    assert shared == {**entry, "path": "<models>/my-model.gguf"} and entry["path"] == str(mine)
    assert registry.public_entry({"source": "url", "url": "https://h/x.gguf"}) == {
        "source": "url",
        "url": "https://h/x.gguf",
    }
    doc = writeupnew.write_params(committed_params, "llama_bench", "my-model", shared, None)
    pf = tmp_path / "writeups" / "w" / "params.yaml"
    pf.parent.mkdir(parents=True)
    pf.write_text(yaml.safe_dump(doc, sort_keys=False))
    assert "/home/alice" not in pf.read_text()
    # a clone: no local file, a clear error naming the fix
    ent = resolve.load_params_file(pf)["models"]["registry"]["my-model"]
    assert ent["path"] == "<models>/my-model.gguf"
    with pytest.raises(models_mod.ModelError) as e:
        models_mod._check_user_file("my-model", ent)
    assert "names the file only as <models>/my-model.gguf" in str(e.value)
    assert str(e.value).endswith(
        "fix: `benchbook models add /path/to/my-model.gguf --id my-model` writes it for the project's "
        "params.yaml, `benchbook writeup new NAME --model /path/to/my-model.gguf` for a write-up's"
    )
    # this machine: the local companion gives the path back
    local = registry.write_local_path(pf, "my-model", mine)
    assert local == pf.with_name("params.local.yaml")
    assert yaml.safe_load(local.read_text()) == {"model_paths": {"my-model": str(mine.resolve())}}
    assert resolve.load_params_file(pf)["models"]["registry"]["my-model"]["path"] == str(mine.resolve())
    # git ignores it (a write-up's and the project's)
    for p in ("writeups/w/params.local.yaml", "params.local.yaml"):
        assert subprocess.run(["git", "check-ignore", "-q", p], cwd=ROOT).returncode == 0, p
    assert subprocess.run(["git", "check-ignore", "-q", "writeups/w/params.yaml"], cwd=ROOT).returncode == 1
