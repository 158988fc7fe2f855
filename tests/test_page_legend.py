"""A `benchbook new-page` page's caveat legend counts over the page's own numbers (a new user's
finding: it included the experiment's legend, "190 of 226 numbers", on a page quoting a few)."""

from __future__ import annotations

from benchbook import site, sitepages, writeup
from benchbook.numbers import Number, load_all, publish


def _repo(tmp_path):
    raw = tmp_path / "data/raw/e/h.jsonl"
    raw.parent.mkdir(parents=True)
    raw.write_text("".join(f'{{"i": {i}}}\n' for i in range(4)))
    common = dict(n=5, computation="c", build="b11434 (unknown) cpu", experiment="e", unit="tok/s")
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
