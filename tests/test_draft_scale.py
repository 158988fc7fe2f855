"""Issue 29 ("nothing crashes on any input … 10 MB"): the hostile and the very large posts of
scripts/draft_faults.py (DB12, DB13, DB15, a 10 MB post) draft and audit with the right outcome.
Behaviour only (what is drafted, what is loaded, the message); their times are printed by
scripts/draft_scale.py (1×/2×/4× sizes), not asserted here."""

from __future__ import annotations

from benchbook.audit import schema


def _write(tmp_path, body: str):
    f = tmp_path / "c.yaml"
    f.write_text("schema: benchbook.claims\nschema_version: 1\nsource: {kind: test}\n" + body)
    return f


def test_a_group_table_of_thousands_of_rows_keeps_each_rows_line_and_digits(tmp_path):
    """DB12's audit: a group's table copied the line marks of each cell by a scan of every mark of the
    file (quadratic: 10,000 cells did not load in 90 s); each claim still gets its row's line and the
    digits its value was written with."""
    n = 3_000
    rows = "".join(f"      - [r{i}, {i}.50]\n" for i in range(n))
    f = _write(
        tmp_path,
        "groups:\n  - metric: decode_tps\n    unit: tok/s\n    table:\n      columns: [id, value]\n"
        "      rows:\n" + rows,
    )
    cf = schema.load(f)
    assert len(cf.claims) == n
    last = cf.claim(f"r{n - 1}")
    assert last is not None and (last.value, last.decimals, last.metric) == (n - 1 + 0.5, 2, "decode_tps")
    assert cf.where("r0") == f"{f}:10"
    assert cf.where(f"r{n - 1}") == f"{f}:{10 + n - 1}"


def test_many_todo_statements_keep_their_lines(tmp_path):
    """A draft of many relating phrases (DB15) moves each ``todo:`` statement to ``todo`` with its
    lines (a scan of every mark per statement was quadratic); a statement left in place keeps its own."""
    n = 2_000
    claims = "claims:\n  - {id: a, metric: decode_tps, value: 2, unit: tok/s}\n"
    claims += "  - {id: b, metric: decode_tps, value: 1, unit: tok/s}\n"
    stmts = "statements:\n"
    for i in range(n):
        if i == n // 2:
            stmts += f"  - {{id: s{i}, statement: two, kind: ratio, of: [a, b], value: 2.0, unit: x}}\n"
        else:
            stmts += f"  - {{id: s{i}, todo: name them, statement: two, kind: ratio, of: [a, b], value: 2}}\n"
    f = _write(tmp_path, claims + stmts)
    cf = schema.load(f)
    assert [s.id for s in cf.statements] == [f"s{n // 2}"]
    assert len(cf.todo) == n - 1
    assert cf.statements[0].decimals == 1
    assert cf.where(f"s{n // 2}") == f"{f}:{8 + n // 2}"


def test_an_error_in_the_last_of_many_todo_statements_names_its_line(tmp_path):
    """The lines a moved ``todo:`` statement keeps are its own: an error in it names where it was
    written (statements.N), not where it went."""
    n = 1_500
    claims = "claims:\n  - {id: a, metric: decode_tps, value: 2, unit: tok/s}\n"
    stmts = "statements:\n" + "".join(
        f"  - {{id: s{i}, todo: name the sides, statement: two, kind: ratio, of: [a], value: 2, unit: x}}\n"
        for i in range(n - 1)
    )
    stmts += f"  - {{id: s{n - 1}, todo: name them, statement: two, kind: ratio, of: [a, zz], value: 2}}\n"
    f = _write(tmp_path, claims + stmts)
    try:
        schema.load(f)
    except schema.ClaimsError as e:
        msg = str(e)
    else:
        raise AssertionError("no error")
    assert msg.startswith(f"{f}:{7 + n - 1}: statements.{n - 1}.of.1: 'zz' is neither")
