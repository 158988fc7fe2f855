"""A page's own caveat legend counts over the page's own numbers (a new user's finding: a `benchbook
new-page` page included the experiment's legend, "190 of 226 numbers", on a page quoting a few), and the
overview, quoting three experiments, lists every marker it shows, each digit naming one rule."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import yaml

from benchbook import site, sitepages, writeup
from benchbook.numbers import Number, load_all, publish
from benchbook.sitecheck import VAR
from conftest import committed_root


def _repo(tmp_path):
    raw = tmp_path / "data/raw/e/h.jsonl"
    raw.parent.mkdir(parents=True)
    raw.write_text("".join(f'{{"i": {i}}}\n' for i in range(4)))
    common = dict(n=5, computation="c", build="b11434 (unknown) cpu", experiment="e", unit="tok/s")
    common |= dict(commands=[["llama-bench"]], ci_method="none: a fixture number")
    nums = [
        Number(
            key=key,
            value=10.0 + i,
            label=key,
            sources=[{"file": "data/raw/e/h.jsonl", "lines": [[i + 1, i + 1]]}],
            caveats=["high_variance"] if key in ("e-tg", "e-pp") else [],
            **common,
        )
        for i, key in enumerate(["e-tg", "e-pp", "e-a", "e-b"])
    ]
    publish(tmp_path / "reports/numbers/e.json", "e", nums, root=tmp_path, replication="repetitions")
    (tmp_path / "_quarto.yml").write_text("project:\n  type: website\n  render:\n    - e.qmd\n")
    return tmp_path


def test_a_new_pages_legend_counts_its_own_numbers(tmp_path):
    repo = _repo(tmp_path)
    page = writeup.new_page(repo, "note", "e", pattern="e-tg")  # quotes e-tg only
    assert "{{< include _generated/page-note-caveats.md >}}" in page.read_text()
    nums = load_all(repo / "reports/numbers")
    legends = site.page_legends(repo, nums, {})
    assert list(legends) == [repo / "_generated/page-note-caveats.md"]
    # the experiment's legend: 2 of its 4 numbers carry high_variance; the page quotes 1, which does
    assert "[high_variance](provenance.qmd#c-high_variance) (warning, 2 of 4 numbers)" in (
        sitepages.legend_md(nums, "e")
    )
    assert (
        "[high_variance](provenance.qmd#c-high_variance) (warning, 1 of 1 numbers)"
        in (legends[repo / "_generated/page-note-caveats.md"])
    )
    # a page quoting only numbers without caveats says so
    writeup.new_page(repo, "clean", "e", pattern="e-a")
    clean = site.page_legends(repo, nums, {})[repo / "_generated/page-clean-caveats.md"]
    assert clean == "No caveat rule fired for these numbers.\n"


def test_the_overview_shows_a_legend_naming_one_rule_per_digit(tmp_path):
    # the site's own pages and the registry of all six experiments (tests/fixtures/registry)
    repo = Path(__file__).resolve().parent.parent
    for page in [*repo.glob("*.qmd"), repo / "_quarto.yml"]:
        shutil.copy(page, tmp_path / page.name)
    shutil.copytree(
        repo / "tests/fixtures/registry", tmp_path / "reports/numbers", ignore=lambda *_: ["HISTORY.md"]
    )
    nums = site.generate(tmp_path, raw_root=committed_root())  # fails on a marker no legend lists
    legend = (tmp_path / "_generated/page-index-caveats.md").read_text()
    shown = yaml.safe_load((tmp_path / "_variables.yml").read_text())
    keys = VAR.findall((tmp_path / "index.qmd").read_text())
    experiments = {nums[k]["experiment"] for k in keys}
    assert experiments == {"llama_bench", "speculative", "draftself"}
    # every digit beside a number of the overview, whatever its experiment, is one line of its legend
    # naming a rule that number carries
    for k in keys:
        digits = re.search(r" †([\d,]+)\]\(", shown[k])
        for d in digits.group(1).split(",") if digits else []:
            (line,) = [x for x in legend.splitlines() if x.startswith(f"- **†{d}** [")]
            assert line.split("[")[1].split("]")[0] in nums[k]["caveats"]
    # high_variance: on the llama-bench headline and the speculative numbers, one digit for both
    hv = [x for x in legend.splitlines() if "[high_variance]" in x]
    assert len(hv) == 1 and "(warning, 4 of 6 numbers)" in hv[0]


def test_markers_are_numbered_per_page_in_reading_order():
    """Issue 33 §4: a new page's markers read †1, †2, †4 (numbered by another page).  The sources carry
    the site's digits (one text per number); the built page is renumbered in its own reading order,
    legend included, each digit still naming the rule its legend line names."""
    from benchbook import pagemarks

    html = (
        '<p><a href="p#n-a">1.0 †2,4</a> and <a href="p#n-b">2.0 †7</a>; again <a>3.0 †4</a></p>'
        "<li><strong>†2</strong> high_variance</li><li><strong>†4</strong> cold_start</li>"
        "<li><strong>†7</strong> single_run</li>"
    )
    new, mapping = pagemarks.renumber_html(html)
    assert mapping == {2: 1, 4: 2, 7: 3}
    assert new == (
        '<p><a href="p#n-a">1.0 †1,2</a> and <a href="p#n-b">2.0 †3</a>; again <a>3.0 †2</a></p>'
        "<li><strong>†1</strong> high_variance</li><li><strong>†2</strong> cold_start</li>"
        "<li><strong>†3</strong> single_run</li>"
    )
    # a marker met out of order keeps its digits ascending; entity forms count alike
    assert pagemarks.renumber_html("<a>x &#8224;9</a> <a>y †3,9</a>")[0] == "<a>x &#8224;1</a> <a>y †1,2</a>"
    # controls: a page without markers is unchanged, and so is a "†2" in prose (not a link's or legend's)
    assert pagemarks.renumber_html("<p>2 × 3, †</p>") == ("<p>2 × 3, †</p>", {})
    assert (
        pagemarks.renumber_html("<p>see †2 below</p><a>1.0 †2</a>")[0] == "<p>see †2 below</p><a>1.0 †1</a>"
    )


def test_a_page_legend_lists_its_markers_in_the_pages_reading_order():
    # site order: cap_hit †1, high_variance †2; the page meets high_variance first, so its legend lists it
    # first and, renumbered (renumber_html), reads †1 high_variance, †2 cap_hit from the top
    from benchbook import pagemarks

    base = {"n": 3, "unit": "tok/s", "experiment": "e", "value": 1.0}
    nums = {"e-x": {**base, "caveats": ["high_variance"]}, "e-y": {**base, "caveats": ["cap_hit"]}}
    order = ["cap_hit", "high_variance"]
    site_listed = [x for x in sitepages.page_legend_md(nums, set(nums), order).splitlines() if x[:2] == "- "]
    assert [x.split("** ")[0] for x in site_listed] == ["- **†1", "- **†2"]  # control: no listing
    listed = sitepages.page_legend_md(nums, set(nums), order, listing=["high_variance", "cap_hit"])
    lines = [x for x in listed.splitlines() if x[:2] == "- "]
    assert [x.split(" (")[0] for x in lines] == [
        "- **†2** [high_variance](provenance.qmd#c-high_variance)",
        "- **†1** [cap_hit](provenance.qmd#c-cap_hit)",
    ]
    cells = "<a>1.0 †2</a> <a>1.0 †1</a>"
    legend = "".join(f"<li><strong>{x[4:].split('**')[0]}</strong> {x.split('** ')[1]}</li>" for x in lines)
    built, _ = pagemarks.renumber_html(cells + legend)
    assert built.startswith("<a>1.0 †1</a> <a>1.0 †2</a><li><strong>†1</strong> [high_variance]")


def test_a_new_pages_what_was_measured_covers_its_own_numbers(tmp_path):
    repo = _repo(tmp_path)
    for i, key in enumerate(["e-tg", "e-pp"]):  # two sessions: the page quotes one of them
        path = repo / "reports/numbers/e.json"
        doc = yaml.safe_load(path.read_text())
        doc["numbers"][key]["session_id"] = f"s{i}"
        doc["numbers"][key]["measured_from"] = doc["numbers"][key]["measured_to"] = f"2026-11-2{i}T10:00:00Z"
        path.write_text(__import__("json").dumps(doc))
    writeup.new_page(repo, "note", "e", pattern="e-tg")
    nums = load_all(repo / "reports/numbers")
    parts = site.page_measured(repo, nums, {"hosts": {}, "models": {}, "toolchains": {}})
    text = parts[repo / "_generated/page-note-measured.md"]
    assert "2026-11-20 10:00 → 2026-11-20 10:00 UTC in 1 session" in text  # not the e-pp session
    whole = sitepages.measured_md(nums, "e", {"hosts": {}, "models": {}, "toolchains": {}})
    assert "2026-11-20 10:00 → 2026-11-21 10:00 UTC in 2 sessions" in whole  # control: the experiment's
