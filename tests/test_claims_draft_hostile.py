"""Breaker's faults in `benchbook claims draft` / `benchbook audit`: characters YAML forbids in a post
(T1), a drafting time quadratic in line length (S3), two posts of one stem sharing a claims file (I1),
a claims file nested thousands deep (E1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchbook.audit import run, schema
from benchbook.audit.draftfile import draft_post, scalar
from drafting import LINEAR, cpu_growth

ROOT = Path(__file__).resolve().parent.parent
HEAD = "schema: benchbook.claims\nschema_version: 1\nsource: {kind: post}\n"


def test_c1_controls_and_noncharacters_in_a_post_draft_a_loadable_file(tmp_path):
    post = tmp_path / "ctl2.md"
    post.write_bytes(b"decode was 42 tok/s \xc2\x90 and \x01 ok \xef\xbf\xbe\xef\xbf\xbf end\n")
    out, _, _ = draft_post(post)
    cf = schema.load(out)
    (claim,) = cf.claims
    assert (claim.id, claim.value, claim.quote) == ("decode-tps-l1", 42, "decode was 42 tok/s  and  ok  end")


def test_random_bytes_are_refused_and_stray_bytes_in_text_draft_a_loadable_file(tmp_path):
    """Random bytes are no post (``binary_kind``: refused by name); a post with a few stray bytes of
    any value (at most ``BINARY_LEAST`` control characters) drafts, and its quotes escape what YAML
    cannot hold."""
    import random

    from benchbook.audit.draftfile import BINARY_LEAST

    rng = random.Random(7)
    for i in range(20):
        post = tmp_path / f"rnd{i}.md"
        post.write_bytes(bytes(rng.randrange(256) for _ in range(2000)) + b"\ndecode 42 tok/s\n")
        with pytest.raises(ValueError, match=rf"rnd{i}\.md: binary data \(1[0-9]% of its first"):
            draft_post(post)
        text = bytearray(b"decode was 42 tok/s on the first run\n" * 40)
        for _ in range(BINARY_LEAST):
            text.insert(rng.randrange(len(text)), rng.randrange(256))
        post.write_bytes(bytes(text))
        out, _, _ = draft_post(post)
        try:
            schema.load(out)
        except schema.ClaimsError as e:  # a drafted guess may fail the schema, never YAML reading
            assert "YAML" not in str(e)


def test_scalar_escapes_what_yaml_cannot_hold():
    assert scalar("a\x90b\ufffe\u2028\x85") == '"a\\u0090b\\ufffe\\u2028\\u0085"'


def test_forbidden_character_in_a_claims_file_is_a_named_error(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(HEAD.encode() + b'note: "a\xc2\x90b"\n')
    with pytest.raises(schema.ClaimsError) as e:
        schema.load(bad)
    assert str(e.value) == (
        f"{bad}:4: character #x0090: YAML may not hold it (a control character or non-character); fix: "
        "delete it, or write it as a \\u escape inside double quotes"
    )


def test_audit_all_audits_the_other_files_and_names_the_bad_one(tmp_path):
    claims = tmp_path / "claims"
    claims.mkdir()
    good = ROOT / "data" / "claims" / "clover-35b-a3b-blog.yaml"
    (claims / good.name).write_text(good.read_text())
    (claims / "bad.yaml").write_bytes(HEAD.encode() + b'note: "a\xc2\x90b"\n')
    with pytest.raises(schema.ClaimsError) as e:
        run.audit_dir(claims, tmp_path / "out", tmp_path / "pages")
    assert str(e.value).splitlines()[:2] == [
        "1 of 2 claims files not audited (the others were):",
        f"{claims / 'bad.yaml'}:4: character #x0090: YAML may not hold it (a control character or "
        "non-character); fix: delete it, or write it as a \\u escape inside double quotes",
    ]
    assert sorted(p.name for p in (tmp_path / "pages").iterdir()) == ["clover-35b-a3b-blog.qmd", "index.qmd"]
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["clover-35b-a3b-blog.jsonl"]


def test_nesting_5000_deep_is_a_named_error(tmp_path):
    deep = tmp_path / "deep.yaml"
    deep.write_text(HEAD + "note: " + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(schema.ClaimsError) as e:
        schema.load(deep)
    assert str(e.value) == (
        f"{deep}:4: nesting deeper than 64 levels of lists or mappings; fix: a claims file nests a few "
        "levels: flatten the value"
    )


def test_nesting_a_few_levels_control(tmp_path):
    ok = tmp_path / "ok.yaml"
    ok.write_text(HEAD + "note: " + "[" * 60 + "1" + "]" * 60 + "\n")
    with pytest.raises(schema.ClaimsError) as e:
        schema.load(ok)
    assert "note: Extra inputs are not permitted" in str(e.value)  # the schema's error, not nesting


def test_a_long_line_drafts_in_linear_time(tmp_path):
    post = tmp_path / "line.md"

    def draft(n: int) -> object:
        post.write_text("decode " + "x" * n + " 42 tok/s\n")
        return draft_post(post)

    assert cpu_growth(draft, 250_000) < LINEAR  # was 22.9 s for 80 KB, quadratic
    out, _, _ = draft(1_000_000)
    assert [(c.id, c.value) for c in schema.load(out).claims] == [("decode-tps-l1", 42)]


def test_two_posts_of_one_stem_never_share_a_claims_file(tmp_path):
    (tmp_path / "blog.md").write_text("decode 42 tok/s\n")
    (tmp_path / "blog.html").write_text("<p>decode 50 tok/s</p>\n")
    out, _, _ = draft_post(tmp_path / "blog.md")
    before = out.read_text()
    with pytest.raises(ValueError) as e:
        draft_post(tmp_path / "blog.html")
    assert str(e.value) == (
        f"{out}: drafted from blog.md, not blog.html (a claims file holds one post's draft; "
        "never merged); fix: draft it into another file, "
        "`benchbook claims draft blog.html -o blog.html.claims.yaml`, "
        "then `benchbook audit blog.html.claims.yaml`"
    )
    assert out.read_text() == before
    other, _, _ = draft_post(tmp_path / "blog.html", tmp_path / "blog.html.claims.yaml")
    assert [(c.id, c.value) for c in schema.load(other).claims] == [("decode-tps-l1", 50)]
    draft_post(tmp_path / "blog.md")  # control: the post's own file redrafts
