"""Model outputs on the speculative page: escaped, cut at 300 characters, mismatches marked."""

import hashlib
import json

from benchbook import outputs


def req(config, rep, tokens, content, session="s1", prompt="p"):
    return {
        "schema": outputs.REQUEST_SCHEMA,
        "session_id": session,
        "status": "ok",
        "prompt_id": prompt,
        "rep": rep,
        "config": {"config_id": config},
        "tokens": tokens,
        "content": content,
        "content_sha256": hashlib.sha256(content.encode()).hexdigest(),
        "tokens_predicted": len(tokens),
        "stop_type": "limit",
    }


def test_first_difference():
    assert outputs.first_difference([1, 2, 3], [1, 2, 4]) == 2
    assert outputs.first_difference([1, 2], [1, 2, 3]) == 2
    assert outputs.first_difference("abc", "abc") is None


def test_rows_compare_with_the_same_session_prompt_and_repetition():
    rows = outputs.output_rows(
        [
            req("baseline", 0, [1, 2, 3], "a b c"),
            req("self-n4", 0, [1, 2, 3], "a b c"),
            req("q2k-n4", 0, [1, 9, 9], "a x y"),
        ]
    )
    got = [(r.config_id, r.first_diff_token, r.first_diff_char) for r in rows]
    assert got == [("baseline", None, None), ("q2k-n4", 1, 2), ("self-n4", None, None)]


def test_markdown_escapes_cuts_and_highlights():
    evil = "<script>alert(1)</script>```" + "z" * 400
    md = outputs.outputs_md(
        outputs.output_rows(
            [req("baseline", 0, [1, 2], "ok " + evil), req("q2k-n4", 0, [1, 3], "ok <b>no</b>")]
        )
    )
    assert "<script>" not in md and "&lt;script&gt;" in md
    assert md.count("```") == 2  # the fence we open and close; the output's backticks are entities
    assert "z" * 268 + "…" in md and "z" * 270 not in md  # 300 characters: "ok " + 29 + 268
    # "ok <b>" against "ok <s": the texts part at character 4, the tokens at index 1
    assert 'differs from the baseline from token 1</span><pre class="bb-output">ok &lt;<mark>b&gt;no' in md
    sha = hashlib.sha256(("ok " + evil).encode()).hexdigest()
    assert f"<b>baseline</b> (repetitions 0): 2 tokens, stop limit, sha256 <code>{sha}</code>" in md
    assert "<details>" not in md  # nothing equal to the baseline here


def test_outputs_equal_to_the_baseline_are_collapsed_but_named():
    md = outputs.outputs_md(
        outputs.output_rows(
            [req("baseline", 0, [1], "a"), req("self-n4", 0, [1], "a"), req("self-n8", 0, [1], "a")]
        )
    )
    sha = hashlib.sha256(b"a").hexdigest()
    assert md.count("<pre") == 1  # the baseline's text only
    assert "<details><summary>2 configuration outputs with exactly the baseline's tokens</summary>" in md
    assert f"<li><b>self-n4</b> (rep 0): 1 tokens, sha256 <code>{sha[:16]}…</code></li>" in md


def test_read_requests_keeps_the_cited_sessions_and_names_a_bad_line(tmp_path):
    f = tmp_path / "h.jsonl"
    f.write_text(
        json.dumps(req("baseline", 0, [1], "a"))
        + "\n"
        + json.dumps(req("baseline", 0, [1], "a", "s2"))
        + "\n"
    )
    assert [r["session_id"] for r in outputs.read_requests(f, {"s2"})] == ["s2"]
    f.write_text("{not json\n")
    try:
        outputs.read_requests(f, {"s1"})
    except ValueError as e:
        assert str(e).startswith(f"{f}:1: not JSON") and "benchbook records repair" in str(e)
    else:
        raise AssertionError("a torn line must be an error")
