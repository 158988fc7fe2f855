"""Caveat markers per page: numbered in order of first appearance, and a configuration's caveats said
once in its row's label (``benchbook.pagemarks``), through to ``_variables.yml`` (``site.variables``)."""

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
    order = marks.order["e"]
    # cap_hit (prose, e-base), then the x row's label says output_mismatch and high_variance (RULES
    # order), its speedup cell cold_start; single_run (e-unquoted) is on no page: after them
    rules = list(caveats.RULES)
    first = sorted(["output_mismatch", "high_variance"], key=rules.index)
    assert order[:5] == ["cap_hit", *first, "cold_start", "single_run"]
    assert sorted(order) == sorted(rules)
    m = marks.markers("e")
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
    assert v["e-y-tau__v"].startswith(f"[2.00 {marks.markers('e')['output_mismatch']}](")
    assert v["e-y-speedup__v"].startswith(f"[2.00 {marks.markers('e')['high_variance']}](")


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


def test_the_experiments_own_page_numbers_its_markers_not_a_write_up(tmp_path):
    # a write-up scaffolded by new-page includes the same legend and quotes another number first
    (tmp_path / "w.qmd").write_text("{{< var e-unquoted >}}\n{{< include _generated/e-caveats.md >}}\n")
    (tmp_path / "e.qmd").write_text(PAGE)
    wide = {"e": []}
    marks = pagemarks.page_marks(tmp_path, [tmp_path / "w.qmd", tmp_path / "e.qmd"], NUMS, wide)
    assert marks.order["e"][0] == "cap_hit"  # e.qmd's first rule, not the write-up's single_run
