"""Caveat markers: numbered once for the sources in order of first appearance (a digit names one rule in
every ``_variables.yml`` text; built pages are renumbered per page, ``test_page_legend``), every marker a
page shows listed in a legend on it, and a configuration's caveats said once in its row's label
(``benchbook.pagemarks``), through to ``_variables.yml`` (``site.variables``) and the generated legends
(``site.page_legends``)."""

from __future__ import annotations

from pathlib import Path

from benchbook import caveats, pagemarks, site, sitepages


def num(key: str, caveat_ids: list[str], experiment: str = "e") -> dict:
    return {
        "key": key,
        "value": 2.0,
        "unit": "×",
        "n": 3,
        "caveats": caveat_ids,
        "experiment": experiment,
    }


# configuration "e-x": both of its numbers carry output_mismatch and high_variance; "e-y" only one of
# them each; "e-base" (the baseline beside them in a row) carries cap_hit
NUMS = {
    "e-x-tau": num("e-x-tau", ["output_mismatch", "high_variance"]),
    "e-x-speedup": num("e-x-speedup", ["high_variance", "output_mismatch", "cold_start"]),
    "e-y-tau": num("e-y-tau", ["output_mismatch"]),
    "e-y-speedup": num("e-y-speedup", ["high_variance"]),
    "e-base": num("e-base", ["cap_hit"]),
    "e-unquoted": num("e-unquoted", ["single_run"]),
}

PAGE = """# e
Prose first: {{< var e-base >}}.

| config | baseline | τ | speedup |
|---|---|---|---|
| x {{< var e-x__cfg >}} | {{< var e-base__v >}} | {{< var e-x-tau__v >}} | {{< var e-x-speedup__v >}} |
| y {{< var e-y__cfg >}} | {{< var e-base__v >}} | {{< var e-y-tau__v >}} | {{< var e-y-speedup__v >}} |

And in prose the whole list again: {{< var e-x-speedup >}}.

{{< include _generated/e-caveats.md >}}
"""


def _marks(tmp_path: Path, page: str = PAGE) -> pagemarks.PageMarks:
    (tmp_path / "e.qmd").write_text(page)
    wide = {"e": sitepages.experiment_wide(NUMS, "e")}
    assert wide == {"e": []}
    return pagemarks.page_marks(tmp_path, [tmp_path / "e.qmd"], NUMS, wide)


def test_markers_are_numbered_in_order_of_first_appearance_on_the_page(tmp_path):
    marks = _marks(tmp_path)
    order = marks.order
    # cap_hit (prose, e-base), then the x row's label says output_mismatch and high_variance (RULES
    # order), its speedup cell cold_start; single_run (e-unquoted) is on no page: after them
    rules = list(caveats.RULES)
    first = sorted(["output_mismatch", "high_variance"], key=rules.index)
    assert order[:5] == ["cap_hit", *first, "cold_start", "single_run"]
    assert sorted(order) == sorted(rules)
    m = marks.markers()
    assert m["cap_hit"] == "†1" and m["cold_start"] == "†4" and m["single_run"] == "†5"


def test_a_configurations_caveats_are_said_once_in_its_row_label(tmp_path):
    marks = _marks(tmp_path)
    both = sorted(["output_mismatch", "high_variance"], key=list(caveats.RULES).index)
    assert marks.cfg == {"e-x": ("e", both), "e-y": ("e", [])}
    # the x cells leave both rules to the label; the baseline cell (another configuration) keeps its own
    assert marks.cell_said == {"e-x-tau": both, "e-x-speedup": both}
    v = site.variables(NUMS, marks)
    assert v["e-x__cfg"].startswith("[†2,3](provenance.qmd#c-")
    assert "said once for this configuration's numbers in this row: " in v["e-x__cfg"]
    assert v["e-y__cfg"] == ""
    assert v["e-x-tau__v"].startswith("[2.00](")  # nothing left to mark
    assert v["e-x-speedup__v"].startswith("[2.00 †4](")  # cold_start only
    assert v["e-x-speedup"].startswith("[2.00 × †2,3,4](")  # prose keeps every marker
    assert v["e-base__v"].startswith("[2.00 †1](")
    # the y row says nothing once (its numbers share no rule): each cell keeps its marker
    assert v["e-y-tau__v"].startswith(f"[2.00 {marks.markers()['output_mismatch']}](")
    assert v["e-y-speedup__v"].startswith(f"[2.00 {marks.markers()['high_variance']}](")


def test_a_cell_also_quoted_in_a_row_without_its_label_keeps_its_markers(tmp_path):
    page = PAGE + "\n| again |\n|---|\n| {{< var e-x-tau__v >}} |\n"
    marks = _marks(tmp_path, page)
    assert "e-x-tau" not in marks.cell_said and "e-x-speedup" in marks.cell_said


def test_a_label_naming_no_registry_key_is_reported(tmp_path):
    marks = _marks(tmp_path, PAGE.replace("e-y__cfg", "e-zz__cfg"))
    assert marks.unknown_cfg == ["e.qmd: e-zz"]


def test_cfg_labels_are_not_counted_as_quoted_numbers(tmp_path):
    from benchbook.sitecheck import page_vars

    (tmp_path / "e.qmd").write_text(PAGE)
    used = page_vars(tmp_path / "e.qmd", tmp_path)
    assert "e-x__cfg" not in used and used["e-base"] == 3 and used["e-x-speedup"] == 2


def test_pages_are_numbered_in_the_sites_order_one_numbering_for_all(tmp_path):
    # a write-up before the experiment's page in the site's order quotes single_run first: †1 on both
    (tmp_path / "w.qmd").write_text("{{< var e-unquoted >}}\n{{< include _generated/e-caveats.md >}}\n")
    (tmp_path / "e.qmd").write_text(PAGE)
    wide = {"e": []}
    marks = pagemarks.page_marks(tmp_path, [tmp_path / "w.qmd", tmp_path / "e.qmd"], NUMS, wide)
    # then e.qmd's: cap_hit, the x row's two rules (RULES order), cold_start
    first = sorted(["output_mismatch", "high_variance"], key=list(caveats.RULES).index)
    assert marks.order[:5] == ["single_run", "cap_hit", *first, "cold_start"]


# the overview: a number of each of two experiments, one rule in common (high_variance) and one each
TWO = {
    "a-x": num("a-x", ["cap_hit", "high_variance"], "a"),
    "b-y": num("b-y", ["output_mismatch", "high_variance"], "b"),
    "b-z": num("b-z", ["single_run"], "b"),  # quoted on b's own page only
    # numbers without caveats, so that no rule is on 90% of an experiment's numbers (said once)
    **{f"{e}-f{i}": num(f"{e}-f{i}", [], e) for e in "ab" for i in range(3)},
}
OVERVIEW = """# overview
A: {{< var a-x >}}. B: {{< var b-y >}}.

{{< include _generated/page-index-caveats.md >}}
"""


def _two(tmp_path: Path) -> tuple[pagemarks.PageMarks, dict[str, str]]:
    (tmp_path / "index.qmd").write_text(OVERVIEW)
    (tmp_path / "b.qmd").write_text(
        "{{< var b-z >}} {{< var b-y >}}\n{{< include _generated/b-caveats.md >}}\n"
    )
    (tmp_path / "_quarto.yml").write_text(
        "project:\n  type: website\n  render:\n    - index.qmd\n    - b.qmd\n"
    )
    pages = site.sources(tmp_path)
    marks = pagemarks.page_marks(tmp_path, pages, TWO, site.experiment_wide_rules(TWO))
    return marks, site.variables(TWO, marks)


def test_a_digit_names_one_rule_on_a_page_quoting_two_experiments(tmp_path):
    marks, v = _two(tmp_path)
    # the overview meets cap_hit and high_variance (a-x, RULES order), then output_mismatch (b-y); b.qmd
    # then single_run.  Numbered per page, a-x and b-y would both have started at †1 with different rules
    rules = list(caveats.RULES)
    a_rules = sorted(["cap_hit", "high_variance"], key=rules.index)
    assert marks.order[:4] == [*a_rules, "output_mismatch", "single_run"]
    m = marks.markers()
    assert v["a-x"].startswith("[2.00 × †1,2](") and v["b-y"].startswith("[2.00 × †2,3](")
    assert m["high_variance"] == "†2" and v["b-z"].startswith("[2.00 × †4](")
    # one digit, one rule: every marker of the site names a different rule
    assert len(set(m.values())) == len(rules)


def test_every_marker_a_page_shows_is_in_a_legend_on_it(tmp_path):
    marks, _ = _two(tmp_path)
    pages = site.sources(tmp_path)
    # before the legends exist, every marker shown is unlisted (once per page and rule)
    assert pagemarks.unlisted_markers(tmp_path, pages, TWO, marks) == [
        "index.qmd: †1 (cap_hit) beside a-x",
        "index.qmd: †2 (high_variance) beside a-x",
        "index.qmd: †3 (output_mismatch) beside b-y",
        "b.qmd: †4 (single_run) beside b-z",
        "b.qmd: †2 (high_variance) beside b-y",
        "b.qmd: †3 (output_mismatch) beside b-y",
    ]
    # the overview's own legend: one line per marker it shows, high_variance once for both experiments
    legends = site.page_legends(tmp_path, TWO, marks.order)
    (legend,) = legends.values()
    lines = [x for x in legend.splitlines() if x.startswith("- ")]
    assert [x.split(" (")[0] for x in lines] == [
        "- **†1** [cap_hit](provenance.qmd#c-cap_hit)",
        "- **†2** [high_variance](provenance.qmd#c-high_variance)",
        "- **†3** [output_mismatch](provenance.qmd#c-output_mismatch)",
    ]
    assert "(warning, 2 of 2 numbers)" in lines[1]  # a-x and b-y, the page's two numbers
    (tmp_path / "_generated").mkdir()
    for path, text in legends.items():
        path.write_text(text)
    (tmp_path / "_generated" / "b-caveats.md").write_text(sitepages.legend_md(TWO, "b", marks.order))
    assert pagemarks.unlisted_markers(tmp_path, pages, TWO, marks) == []
    # a page showing a marker with no legend: named, with the rule
    (tmp_path / "index.qmd").write_text(
        OVERVIEW.replace("{{< include _generated/page-index-caveats.md >}}", "")
    )
    assert pagemarks.unlisted_markers(tmp_path, pages, TWO, marks)[0] == "index.qmd: †1 (cap_hit) beside a-x"
