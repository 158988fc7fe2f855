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
