"""Issue 27 item 9: groups and tables of claims (fixtures/audit/groups.yaml), and YAML errors that say
what happened (a comma that split a value, a date, a base-60 number), each naming file:line and field."""

from pathlib import Path

import pytest

from benchbook.audit import schema

FX = Path(__file__).parent / "fixtures" / "audit"
CLOVER = Path(__file__).resolve().parents[1] / "data" / "claims" / "clover-35b-a3b-blog.yaml"


def test_a_group_table_gives_the_claims_the_long_form_gives():
    grouped, long = schema.load(FX / "groups.yaml"), schema.load(CLOVER)
    for cid in ("ds-story-wsl", "ds-story-win", "ds-code-wsl", "ds-code-win", "ds-code-b8-win"):
        g, c = grouped.claim(cid), long.claim(cid)
        assert g is not None and c is not None
        assert (g.metric, g.value, g.decimals, g.unit, g.method, g.n) == (
            c.metric,
            c.value,
            c.decimals,
            c.unit,
            c.method,
            c.n,
        )
        gc, cc = grouped.conditions_of(g), long.conditions_of(c)
        for name in ("env", "decoding", "offload", "prompt", "block_max", "tokens_generated", "model", "ctx"):
            assert getattr(gc, name) == getattr(cc, name), (cid, name)
    # a null cell leaves the group's value: block 15; the row's own 8 wins
    assert grouped.claim("ds-code-b8-win").conditions.block_max == 8
    assert grouped.claim("tg-wsl-ncmoe26").conditions.offload.n_cpu_moe == 26
    assert grouped.conditions_of(grouped.claim("tg-wsl-ncmoe26")).offload.n_gpu_layers == 99
    # claims from groups come after the file's own, in group order; lines are where they were written
    assert [c.id for c in grouped.claims][-2:] == ["tg-win-ncmoe24", "tg-wsl-ncmoe26"]
    assert grouped.where("ds-story-win").endswith("groups.yaml:21")
    assert grouped.where("tg-wsl-ncmoe26").endswith("groups.yaml:31")


def _load(tmp_path, body: str):
    f = tmp_path / "c.yaml"
    f.write_text("schema: benchbook.claims\nschema_version: 1\nsource: {kind: test}\n" + body)
    with pytest.raises(schema.ClaimsError) as e:
        schema.load(f)
    return str(e.value).replace(str(f), "c.yaml")


def test_an_error_in_a_table_row_names_where_it_was_written(tmp_path):
    body = """groups:
  - {unit: tok/s, table: {columns: [id, metric, value], rows: [[a, decode_tps, 1.5], [b, decode_tps, "x"]]}}
"""
    assert _load(tmp_path, body) == (
        "c.yaml:5: groups.0.table.rows.1.value: a number is needed, got str 'x'; fix: write the number "
        "itself, unquoted"
    )


def test_table_shape_errors(tmp_path):
    body = "groups:\n  - {table: {columns: [id, colour], rows: [[a, red]]}}\n"
    assert _load(tmp_path, body).startswith(
        "c.yaml:5: groups.0.table.columns.1: 'colour' is neither a claim field nor a condition; fix: use one"
    )
    body = "groups:\n  - {table: {columns: [id, value], rows: [[a, 1, 2]]}}\n"
    assert _load(tmp_path, body) == (
        "c.yaml:5: groups.0.table.rows.0: 3 cells for 2 columns (id, value); fix: one cell per column, "
        "null where the row states nothing"
    )
    body = "groups:\n  - {units: tok/s, claims: []}\n"
    assert _load(tmp_path, body).startswith("c.yaml:5: groups.0.units: not a group field; fix: a group takes")


def test_a_comma_that_split_a_value_says_quote_the_value(tmp_path):
    body = (
        "claims:\n  - {id: a, metric: decode_tps, value: 5, unit: tok/s, note: fell back, then recovered}\n"
    )
    assert _load(tmp_path, body) == (
        "c.yaml:5: claims.0.note: a comma inside a flow mapping {...} split the value: note: 'fell back' "
        "ended at the comma and 'then recovered' became a key with no value; fix: quote the value "
        '(note: "fell back, then recovered")'
    )
    # control: the same value quoted loads
    f = tmp_path / "ok.yaml"
    f.write_text(
        "schema: benchbook.claims\nschema_version: 1\nsource: {kind: test}\nclaims:\n"
        '  - {id: a, metric: decode_tps, value: 5, unit: tok/s, note: "fell back, then recovered"}\n'
    )
    assert schema.load(f).claims[0].note == "fell back, then recovered"


def test_an_unquoted_date_says_quote_it(tmp_path):
    f = tmp_path / "c.yaml"
    f.write_text("schema: benchbook.claims\nschema_version: 1\nsource: {kind: test, date: 2026-10-31}\n")
    with pytest.raises(schema.ClaimsError) as e:
        schema.load(f)
    assert str(e.value) == (
        f"{f}:3: source.date: Input should be a valid string (YAML read the unquoted 2026-10-31 as a "
        "date; fix: quote it, '2026-10-31')"
    )
    f.write_text("schema: benchbook.claims\nschema_version: 1\nsource: {kind: test, date: 2026-10}\n")
    assert schema.load(f).source.date == "2026-10"  # control: a month is a string already


def test_a_base_60_number_and_a_number_for_a_name_say_quote_it(tmp_path):
    body = "claims:\n  - {id: a, metric: duration, value: 1:30, unit: min}\n"
    assert _load(tmp_path, body) == (
        "c.yaml:5: claims.0.value: YAML read the unquoted 1:30 as the base-60 number 90; fix: quote it "
        "(value: '1:30'), or write the number in one unit (90 s)"
    )
    body = "software: {build: 1.10}\n"
    assert _load(tmp_path, body) == (
        "c.yaml:4: software.build: Input should be a valid string (YAML read the unquoted 1.10 as a "
        "number; fix: quote it, '1.10')"
    )


def test_the_guides_groups_example_loads(tmp_path):
    import re

    text = (Path(__file__).resolve().parents[1] / "docs" / "claims.md").read_text()
    section = text[text.index("### Groups and tables") :]
    block = re.search(r"^```yaml\n(.*?)^```", section, re.S | re.M)
    assert block
    f = tmp_path / "g.yaml"
    f.write_text(
        "schema: benchbook.claims\nschema_version: 1\nsource: {kind: blog post}\n"
        "systems: [{id: pc, hardware: GPU}]\n"
        "environments: [{id: wsl, system: pc}, {id: windows, system: pc}]\n" + block.group(1)
    )
    cf = schema.load(f)
    assert [c.id for c in cf.claims] == ["ds-story-wsl", "ds-code-win", "ds-code-b8-win", "tg-win-ncmoe24"]
    assert cf.claim("ds-code-b8-win").conditions.block_max == 8
    assert cf.claim("ds-story-wsl").conditions.block_max == 15
