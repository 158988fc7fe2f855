"""Claims schema: the converted Clover file, stated precision from the YAML text, and malformed
files -> one ClaimsError naming file:line and the field."""

from pathlib import Path

import pytest

from benchbook.audit import precision, schema

ROOT = Path(__file__).resolve().parents[1]
CLOVER = ROOT / "data" / "claims" / "clover-35b-a3b-blog.yaml"
FX = Path(__file__).parent / "fixtures" / "audit"


def test_clover_converted_file_keeps_every_claim_of_the_original():
    cf = schema.load(CLOVER)
    # the original's 36 numeric claims + 1 claim for the vendor's 101.8 that a statement quoted inline
    # = 33 claims; its 4 derived entries are statements
    assert len(cf.claims) == 33 and len(cf.statements) == 4
    ids = {c.id for c in cf.claims} | {s.id for s in cf.statements}
    original = [
        "tg-wsl-ncmoe26",
        "pp-wsl-ncmoe26",
        "tg-win-ncmoe26",
        "tg-win-ncmoe26-first",
        "pp-win-ncmoe26",
        "tg-win-ncmoe24",
        "pp-win-ncmoe24",
        "tg-win-ncmoe22",
        "pp-win-ncmoe22",
        "ds-story-wsl",
        "ds-story-win",
        "ds-code-wsl",
        "ds-code-win",
        "ds-prob-wsl",
        "ds-prob-win",
        "ds-code-b8-wsl",
        "ds-code-b8-win",
        "ds-code-b4-wsl",
        "ds-acceptance",
        "mem-wsl-vram",
        "mem-wsl-rss",
        "mem-win-vram",
        "mem-win-ws",
        "stmt-57pct",
        "stmt-two-thirds",
        "stmt-7x-qwen",
        "stmt-2.4x-5070ti",
        "ext-h200-draft-self",
        "ext-vendor-gb300",
        "ext-vendor-h200",
        "other-deepseek-strata",
        "other-qwen27b-q4km",
        "other-qwen27b-iq3xxs",
        "other-qwen27b-iq2xs-mtp",
        "prep-quantize",
        "prep-convert-4-shards",
    ]
    assert set(original) <= ids and ids - set(original) == {"ext-vendor-5070ti"}
    first = cf.claim("tg-win-ncmoe26-first")
    # the original's unquoted flow-mapping note "first run, cold file cache" parsed as two keys
    assert first.note == "first run, cold file cache" and cf.conditions_of(first).file_cache == "cold"
    assert cf.conditions_of(first).offload.n_cpu_moe == 26 and cf.conditions_of(first).sampling == "greedy"
    assert cf.claim("ext-vendor-h200").conditions.sampling is None  # quoted claims get no defaults
    assert cf.claim("mem-wsl-vram").capacity == 12.29 and cf.source.runs_per_prompt == 1
    assert cf.system_of(first).hardware == "NVIDIA GeForce RTX 3080 Ti"


def test_decimals_come_from_the_number_as_written():
    texts = ("31.4", "150.0", "7", "2.5e3", "1e-3", "x")
    assert [precision.decimals_of(t) for t in texts] == [1, 1, 0, 0, 3, None]
    cf = schema.load(FX / "precision.yaml")
    # 150.0 keeps its written decimal although YAML reads the float 150
    assert cf.claim("a-before").decimals == 1 and cf.statement("drop-27").decimals == 0
    assert cf.statement("ratio-0.70").decimals == 2 and cf.statement("ratio-about-0.7").decimals == 1
    cf = schema.load(CLOVER)
    assert cf.claim("other-qwen27b-q4km").decimals == 2 and cf.statement("stmt-two-thirds").decimals == 3


def test_stated_interval():
    # "−31.4": ±0.05; "about 57": ±1; "[6.11, 6.34]" with 2 decimals: [6.105, 6.345]
    iv = precision.stated_interval(-31.4, -31.4, 1, False)
    assert (round(iv.lo, 6), round(iv.hi, 6)) == (-31.45, -31.35)
    assert precision.stated_interval(57, 57, 0, True) == precision.Interval(56.0, 58.0)
    iv = precision.stated_interval(6.11, 6.34, 2, False)
    assert (round(iv.lo, 6), round(iv.hi, 6)) == (6.105, 6.345)


def test_numberless_claims_are_kept():
    cf = schema.load(FX / "unsupported.yaml")
    c = cf.claim("speedup-bare")
    assert c.value == 3 and c.about  # "about 3x with 5 draft tokens": a claim, not a vanished statement
    assert cf.claim("base-missing").value is None and cf.claim("base-missing").statement


@pytest.mark.parametrize(
    "name, where",
    [
        ("missing_unit", "missing_unit.yaml:5: claims.0.unit: a claim with a value or range needs its unit"),
        ("non_numeric", "non_numeric.yaml:7: claims.0.value: a number is needed, got str 'fast'"),
        ("duplicate_id", "duplicate_id.yaml:7: claims.2.id: duplicate id 'a' (first at line 5)"),
        (
            "unknown_reference",
            "unknown_reference.yaml:10: statements.0.of.1: 'b' is neither a claim nor a statement id",
        ),
        ("cycle", "cycle.yaml:8: statements.1.of: statements cite each other in a cycle (s1 -> s2 -> s1)"),
        ("yaml_syntax", "yaml_syntax.yaml:6: YAML syntax error: did not find expected ',' or '}'"),
    ],
)
def test_malformed_claims_name_file_line_and_field(name, where):
    with pytest.raises(schema.ClaimsError) as e:
        schema.load(FX / "malformed" / f"{name}.yaml")
    assert where in str(e.value) and "fix:" in str(e.value)


def test_statement_shape_errors(tmp_path):
    head = "schema: benchbook.claims\nschema_version: 1\nsource: {kind: t}\n"
    cases = {
        # a ratio that names one side only (the old loader dropped it silently)
        "statements:\n  - {id: s, kind: ratio, statement: about 3x, of: [a], value: 3}\n": (
            "t.yaml:7: statements.0.of: a ratio cites exactly two ids, got 1"
        ),
        "claims:\n  - {id: a, metric: m, value: 1, unit: s, colour: red}\n": (
            "t.yaml:5: claims.0.colour: Extra inputs are not permitted"
        ),
        "claims:\n  - {id: a, metric: m}\n": "t.yaml:5: claims.0.statement: a claim with no number needs",
    }
    for body, msg in cases.items():
        p = tmp_path / "t.yaml"
        p.write_text(
            head + "claims:\n  - {id: a, metric: m, value: 1, unit: s}\n" + body
            if body.startswith("statements")
            else head + body
        )
        with pytest.raises(schema.ClaimsError, match=msg.replace("(", r"\(").replace(")", r"\)")):
            schema.load(p)


_HEAD = "schema: benchbook.claims\nschema_version: 1\nsource: {kind: t}\nclaims:\n"


@pytest.mark.parametrize(
    "claim, message",
    [
        # impossible counts: more accepted than drafted, negative, nothing drafted
        (
            "{id: a, metric: acceptance_rate, value: 0.6, unit: ratio, counts: {accepted: 60, drafted: 50}}",
            "t.yaml:5: claims.0.counts.accepted: 60 accepted of 50 drafted is impossible",
        ),
        (
            "{id: a, metric: acceptance_rate, value: 0.6, unit: ratio, counts: {accepted: -1, drafted: 5}}",
            "t.yaml:5: claims.0.counts.accepted: Input should be greater than or equal to 0",
        ),
        (
            "{id: a, metric: acceptance_rate, value: 0.6, unit: ratio, counts: {accepted: 0, drafted: 0}}",
            "t.yaml:5: claims.0.counts.drafted: Input should be greater than or equal to 1",
        ),
        # values that are not finite numbers, and coercions that used to pass
        (
            "{id: a, metric: decode_tps, value: .nan, unit: tok/s}",
            "claims.0.value: Input should be a finite number",
        ),
        (
            "{id: a, metric: decode_tps, value: .inf, unit: tok/s}",
            "claims.0.value: Input should be a finite number",
        ),
        (
            "{id: a, metric: decode_tps, range: [1.0, .inf], unit: tok/s}",
            "claims.0.range.1: Input should be a finite",
        ),
        (
            "{id: a, metric: decode_tps, value: true, unit: tok/s}",
            "claims.0.value: a number is needed, got a boolean",
        ),
        (
            '{id: a, metric: decode_tps, value: "10", unit: tok/s}',
            "claims.0.value: a number is needed, got str '10'",
        ),
        # negative rate, size and time; a unit that is not the metric's
        ("{id: a, metric: decode_tps, value: -12.5, unit: tok/s}", "claims.0.value: -12.5 tok/s is negative"),
        ("{id: a, metric: vram_peak, range: [-1, 3], unit: GiB}", "claims.0.value: -1 GiB is negative"),
        (
            "{id: a, metric: decode_tps, value: 12.5, unit: GiB}",
            "claims.0.unit: 'GiB' is not a unit of decode_tps",
        ),
        (
            "{id: a, metric: vram_peak, value: 12.5, unit: tok/s}",
            "claims.0.unit: 'tok/s' is not a unit of vram_peak",
        ),
        # YAML 1.1 reads an unquoted on/no as a boolean
        ("{id: on, metric: m, value: 1, unit: s}", "claims.0.id: Input should be a valid string (YAML read"),
    ],
)
def test_impossible_or_coerced_claims_are_refused_with_file_line(tmp_path, claim, message):
    p = tmp_path / "t.yaml"
    p.write_text(_HEAD + f"  - {claim}\n")
    with pytest.raises(schema.ClaimsError) as e:
        schema.load(p)
    assert message in str(e.value) and "fix:" in str(e.value)


def test_possible_values_still_load(tmp_path):
    # a negative percent change and an unknown metric/unit stay allowed; 12 (an int) is a number
    p = tmp_path / "t.yaml"
    p.write_text(
        _HEAD
        + "  - {id: a, metric: prefill_change, value: -15, unit: '%'}\n"
        + "  - {id: b, metric: decode_tps, value: 12, unit: t/s}\n"
        + "  - {id: c, metric: temperature, value: -3.5, unit: degC}\n"
        + "  - {id: d, metric: acceptance_rate, value: 60.6, unit: '%',\n"
        + "     counts: {accepted: 60, drafted: 99}}\n"
    )
    cf = schema.load(p)
    assert [c.value for c in cf.claims] == [-15.0, 12.0, -3.5, 60.6]
    assert cf.claim("d").counts.alpha == pytest.approx(60 / 99)
    assert cf.where("b") == f"{p}:6"


def test_a_claims_file_with_aliases_is_refused_before_it_expands(tmp_path):
    """Issue 34 §3: 11 KB of nested aliases took 72 s and over 4 GB, then a MemoryError; an alias is
    refused at its line, on the event stream, before anything is composed or walked."""
    levels = ['a: &a ["x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    levels += [f"{n}: &{n} [{', '.join(['*' + p] * 9)}]" for p, n in zip("abcdefgh", "bcdefghi", strict=True)]
    f = tmp_path / "bomb.yaml"
    f.write_text(
        "schema: benchbook.claims\nschema_version: 1\nsource: {kind: blog}\n"
        + "\n".join(levels)
        + "\nclaims: []\n"
    )
    with pytest.raises(schema.ClaimsError) as e:
        schema.load(f)
    assert str(e.value) == (
        f"{f}:5: YAML alias *a: a claims file takes no aliases (they repeat parts of the file; nested ones "
        "expand without bound); fix: write the values out, or give what claims share through `groups:`"
    )


@pytest.mark.parametrize(
    ("body", "line"),
    [
        # a list where a definition name belongs crashed with "unhashable type: 'list'"
        (
            "claims:\n  - {id: a, metric: acceptance_rate, value: 0.7, unit: ratio,\n"
            "     conditions: {other: {acceptance_definition: [tested]}}}\n",
            "c.yaml:5: conditions.other.acceptance_definition ['tested'] is not a known definition; fix: "
            "use one of drafted, tested, any_position, system_efficiency",
        ),
        # a statement range written high-to-low was judged (claims already refused it)
        (
            "claims:\n  - {id: a, metric: decode_tps, value: 6.2, unit: tok/s}\n"
            "  - {id: b, metric: decode_tps, value: 6.2, unit: tok/s}\n"
            "statements:\n  - {id: s, kind: ratio, statement: about the same, of: [a, b],\n"
            "     range: [1.1, 0.9], unit: x}\n",
            "c.yaml:9: statements.0.range: write [low, high]; fix: see docs/claims.md for the field",
        ),
        # breaker finding 17: values that cannot be were taken as stated
        (
            "claims:\n  - {id: a, metric: decode_tps, value: 5, unit: tok/s, spread: -1}\n",
            "c.yaml:5: claims.0.spread: Input should be greater than or equal to 0; "
            "fix: see docs/claims.md for the field",
        ),
        (
            "claims:\n  - {id: a, metric: decode_tps, value: 5, unit: tok/s, conditions: {run_index: 0}}\n",
            "c.yaml:5: claims.0.conditions.run_index: Input should be greater than or equal to 1; "
            "fix: see docs/claims.md for the field",
        ),
        # "about" beside an explicit exact number was dropped silently
        (
            "claims:\n  - {id: a, metric: decode_tps, value: 40, about: true, decimals: null,\n"
            "     unit: tok/s}\n",
            "c.yaml:5: claims.0.about: an approximate value needs the digits it was written with, and "
            "`decimals: null` says it is exact; drop one of the two; fix: see docs/claims.md for the field",
        ),
        # negative decimals crashed the number's display ("Format specifier missing precision"); a
        # number in thousands is -3 now ("6.2k": ``precision.written``), past a double's digits none
        (
            "claims:\n  - {id: a, metric: decode_tps, value: 6200, decimals: -16,\n     unit: tok/s}\n",
            "c.yaml:5: claims.0.decimals: Input should be greater than or equal to -15; "
            "fix: see docs/claims.md for the field",
        ),
    ],
)
def test_values_that_crashed_the_audit_are_named(tmp_path, body, line):
    """Breaker findings 4 and 8: each is one error line naming file:line and the field, no traceback."""
    from benchbook.audit import run
    from benchbook.audit.verdicts import Here

    f = tmp_path / "c.yaml"
    f.write_text("schema: benchbook.claims\nschema_version: 1\nsource: {kind: synthetic test}\n" + body)
    with pytest.raises(schema.ClaimsError) as e:
        run.audit_file(f, here=Here())
    assert str(e.value).endswith(line)


def test_a_number_written_in_thousands_is_audited_with_its_digits(tmp_path):
    """ "6.2k tok/s" stated as value 6200, decimals -2 (6,150–6,250): the audit reads and writes it
    so (it crashed on negative decimals before they were allowed)."""
    from benchbook.audit import run
    from benchbook.audit.precision import written
    from benchbook.audit.verdicts import Here

    f = tmp_path / "c.yaml"
    f.write_text(
        "schema: benchbook.claims\nschema_version: 1\nsource: {kind: synthetic test}\n"
        "claims:\n  - {id: a, metric: decode_tps, value: 6200, decimals: -2, unit: tok/s}\n"
    )
    run.audit_file(f, here=Here())
    c = schema.load(f).claims[0]
    assert (c.decimals, written(c.value, None, c.decimals, None)) == (-2, "6.2k")
    got = schema.stated_interval_of(c)
    assert got is not None and (got.lo, got.hi) == (6150, 6250)
