"""The write-up workflow: `benchbook numbers [PATTERN]` and `benchbook new-page NAME`."""

import pytest

from benchbook import cli, writeup
from benchbook.numbers import Number, publish


@pytest.fixture
def repo(tmp_path):
    raw = tmp_path / "data/raw/e/h.jsonl"
    raw.parent.mkdir(parents=True)
    raw.write_text('{"tg": 120.97}\n{"tg": 0.48}\n')
    common = dict(
        n=5, computation="c", build="b11434 (unknown) cpu", experiment="e", commands=[["llama-bench"]]
    )
    nums = [
        Number(
            key="e-tg",
            value=120.97,
            unit="tok/s",
            label="tg",
            ci95=[117.6, 125.3],
            ci_method="student-t on the log scale over per-repetition rates",
            sources=[{"file": "data/raw/e/h.jsonl", "lines": [[1, 1]]}],
            caveats=["high_variance"],
            **common,
        ),
        Number(
            key="e-speedup",
            value=0.4812,
            unit="×",
            label="s",
            ci_method="none: a fixture number",
            sources=[{"file": "data/raw/e/h.jsonl", "lines": [[2, 2]]}],
            **common,
        ),
    ]
    publish(tmp_path / "reports/numbers/e.json", "e", nums, root=tmp_path, replication="repetitions")
    (tmp_path / "_quarto.yml").write_text(
        "project:\n  type: website\n  render:\n    - index.qmd   # home\n    - e.qmd\nwebsite:\n  title: t\n"
    )
    return tmp_path


def test_rows_and_table_show_value_interval_unit_n_and_caveats(repo):
    found = writeup.rows(repo / "reports/numbers", "tg")
    assert [(r.key, r.shown, r.unit, r.n, r.caveats) for r in found] == [
        ("e-tg", "121.0 [117.6, 125.3]", "tok/s", 5, ["high_variance"])
    ]
    assert found[0].ci_method == "student-t on the log scale over per-repetition rates"
    assert found[0].replication == "repetitions"
    assert writeup.table(writeup.rows(repo / "reports/numbers", "e-*")).splitlines() == [
        "key        value [95% interval]  unit   n  caveats",
        "e-speedup  0.481                 ×      5  -",
        "e-tg       121.0 [117.6, 125.3]  tok/s  5  high_variance",
    ]
    with pytest.raises(writeup.WriteupError, match="no registered key matches 'nope' \\(2 keys\\)"):
        writeup.rows(repo / "reports/numbers", "nope")


def test_numbers_command_prints_the_table(repo, monkeypatch, capsys):
    monkeypatch.setattr(cli, "repo_root", lambda: repo)
    assert cli.main(["numbers", "speedup"]) == 0
    assert capsys.readouterr().out.splitlines()[1] == "e-speedup  0.481                 ×     5  -"


def test_new_page_is_bound_to_the_experiment_and_listed(repo):
    path = writeup.new_page(repo, "my-note", "e")
    text = path.read_text()
    # issue 33 §4: "What was measured" over the page's own numbers, not the whole experiment's
    assert "{{< include _generated/page-my-note-measured.md >}}" in text
    assert "| `e-tg` | {{< var e-tg__v >}} | tok/s | 5 |" in text
    assert "{{< include _generated/page-my-note-caveats.md >}}" in text  # its own numbers: test_page_legend
    assert (repo / "_quarto.yml").read_text().splitlines()[3:6] == [
        "    - index.qmd   # home",
        "    - e.qmd",
        "    - my-note.qmd",
    ]
    assert writeup.add_to_quarto(repo, "my-note.qmd") is False  # listed once
    with pytest.raises(writeup.WriteupError, match="exists; fix: choose another NAME, or pass --force"):
        writeup.new_page(repo, "my-note", "e")
    with pytest.raises(writeup.WriteupError, match="page name 'My Note'"):
        writeup.new_page(repo, "My Note", "e")
    with pytest.raises(writeup.WriteupError, match="experiment 'x' has no registered number"):
        writeup.new_page(repo, "other", "x")


def test_new_page_never_overwrites_a_page_it_did_not_write(repo):
    # breaker item 29: `new-page index --experiment speculative --force` overwrote the site's home
    home = repo / "index.qmd"
    home.write_text('---\ntitle: "home"\n---\n\nThe site.\n')
    with pytest.raises(writeup.WriteupError) as e:
        writeup.new_page(repo, "index", "e", force=True)
    assert str(e.value) == (
        f"{home} exists and was not written by `benchbook new-page` (a page of the site or your own): it "
        "is never overwritten, --force included; fix: choose another NAME"
    )
    assert home.read_text() == '---\ntitle: "home"\n---\n\nThe site.\n'
    # a page new-page wrote carries its mark and may be rewritten with --force
    page = writeup.new_page(repo, "note", "e")
    assert page.read_text().startswith(f'---\ntitle: "note"\n{writeup.MARK}\n---\n')
    assert writeup.new_page(repo, "note", "e", pattern="tg", force=True) == page
    assert "e-speedup" not in page.read_text()


def test_new_page_unknown_experiment_lists_the_known_ones(repo):
    # breaker item 29: it said "no registered number matching None"
    with pytest.raises(writeup.WriteupError) as e:
        writeup.new_page(repo, "other", "nope")
    assert str(e.value) == (
        "experiment 'nope' has no registered numbers; known experiments: e; fix: --experiment one of them"
    )
