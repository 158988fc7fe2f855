"""Regression tests for the site defects a tester found (breaker report items 12 and 14)."""

from pathlib import Path

import pytest
import yaml

from benchbook import site, sitepages, sitewords, wording
from benchbook.escape import code_span
from benchbook.numbers import Number, publish

FX = Path(__file__).parent / "fixtures" / "site_breaker"
KEY = "spec-self-n4-code_echo-speedup"


def _site_with_the_faster_page(root: Path) -> Path:
    """A site root whose registry holds the self-draft speedup 0.48 [0.28, 0.82] × and whose only page
    is the tester's page saying "Self-drafting is faster" beside it."""
    raw = root / "data" / "raw" / "speculative" / "h.jsonl"
    raw.parent.mkdir(parents=True)
    raw.write_text('{"schema": "x"}\n')
    keys = ["alpha", "decode", "model", "speedup", "tau"]
    nums = [
        Number(
            key=f"spec-self-n4-code_echo-{k}",
            value=0.48 if k == "speedup" else 2.0,
            unit="×" if k in ("speedup", "model") else "tok/s",
            label=k,
            n=3,
            computation="test",
            ci95=[0.28, 0.82] if k == "speedup" else [1.0, 3.0],
            ci_method="student-t on the log scale",
            commands=[["llama-server"]],
            sources=[{"file": "data/raw/speculative/h.jsonl", "lines": [[1, 1]]}],
            experiment="speculative",
            build="llama.cpp b11434",
        )
        for k in keys
    ]
    publish(
        root / "reports" / "numbers" / "speculative.json", "speculative", nums, root=root, replication="runs"
    )
    (root / "self-draft-note.qmd").write_text((FX / "self-draft-note-faster.qmd").read_text())
    (root / "_quarto.yml").write_text(
        yaml.safe_dump({"project": {"type": "website", "render": ["self-draft-note.qmd"]}})
    )
    return root


def test_site_build_fails_on_a_word_its_number_does_not_support(tmp_path):
    # breaker #12: `site build` published "Self-drafting is faster: a speedup of 0.48 [0.28, 0.82] ×"
    # (exit 0); the wording check ran only in the tests.  0.82 < 1: the interval says "slower".
    root = _site_with_the_faster_page(tmp_path)
    with pytest.raises(site.SiteError) as e:
        site.render(root)
    assert str(e.value).splitlines() == [
        "pages say words that their numbers do not support (the site would contradict its numbers):",
        f"self-draft-note.qmd: 'faster' beside {KEY} = 0.48 [0.28, 0.82]: the number does not say "
        "'faster' (shown as 0.48 [0.28, 0.82] ×; sentence: 'Self-drafting is faster: a speedup of "
        f"{{{{< var {KEY} >}}}}.')",
        "fix: reword the sentence to what the number says (benchbook.wording.ratio_word / zero_word), "
        "or quote the number that supports the word",
    ]
    assert not (root / "_site").exists()  # nothing was rendered


def test_words_are_checked_inside_includes_and_beside_table_cells(tmp_path):
    registry = {KEY: {"value": 0.48, "ci95": [0.28, 0.82], "unit": "×"}}
    (tmp_path / "_part.md").write_text(f"Self-drafting is faster ({{{{< var {KEY}__v >}}}} ×).\n")
    (tmp_path / "p.qmd").write_text("---\ntitle: p\n---\n\n{{< include _part.md >}}\n")
    got = sitewords.wording_problems(tmp_path, [tmp_path / "p.qmd"], registry)
    assert [g.split(" beside ")[0] for g in got] == ["p.qmd: 'faster'"]
    # the right word passes
    (tmp_path / "_part.md").write_text(f"Self-drafting is slower ({{{{< var {KEY}__v >}}}} ×).\n")
    assert sitewords.wording_problems(tmp_path, [tmp_path / "p.qmd"], registry) == []
    assert wording.ratio_word(0.48, [0.28, 0.82]) == "slower"


def test_said_once_keys_are_code_spans_without_entities():
    # breaker #14: `draftself-unique&#95;experts-draft-n-9-bound` showed the entity literally: markdown
    # escaping inside a code span is not decoded
    nums = {
        "draftself-unique_experts-draft-n-9-bound": {"experiment": "draftself", "caveats": []},
        "draftself-b": {"experiment": "draftself", "caveats": ["single_run"]},
    }
    text = sitepages._said_once(nums, "draftself", "single_run", "provenance.qmd")
    assert text.endswith("every number on this page except `draftself-unique_experts-draft-n-9-bound`")
    assert "&#" not in text
    # text a code span cannot hold stays inert Markdown instead
    assert code_span("a`b") == "a&#96;b" and code_span("x|y") == "x&#124;y"
    assert code_span("246274abff670295") == "`246274abff670295`"
