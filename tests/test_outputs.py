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


def test_repetitions_are_named_per_session_and_a_split_baseline_is_pointed_out():
    """Item 30 of the new-user report: pooled over sessions the repetitions read "0,0,0,0,0,0,1,1,…",
    and the baseline's two outputs for one prompt were not pointed out."""
    rows = outputs.output_rows(
        [
            {**req("baseline", 0, [1], "a", "s1aaaaaaaa"), "host_id": "cpuhost1"},
            {**req("baseline", 1, [1], "a", "s1aaaaaaaa"), "host_id": "cpuhost1"},
            {**req("baseline", 0, [1], "a", "s2bbbbbbbb"), "host_id": "cpuhost2"},
            {**req("baseline", 0, [2], "b", "s3cccccccc"), "host_id": "gpuhost1"},
            {**req("self-n4", 0, [2], "b", "s3cccccccc"), "host_id": "gpuhost1"},
        ]
    )
    md = outputs.outputs_md(rows)
    a, b = hashlib.sha256(b"a").hexdigest(), hashlib.sha256(b"b").hexdigest()
    assert (
        "<b>baseline</b> (session s1aaaaaa repetitions 0,1; session s2bbbbbb repetitions 0): 1 tokens" in md
    )
    assert "<b>baseline</b> (repetitions 0): 1 tokens" in md  # the GPU host's one session
    # the outputs in sha256 order: 3e23… (b) before ca97… (a)
    split = f"({b[:8]}… on gpuhost1; {a[:8]}… on cpuhost1, cpuhost2)"
    assert (
        '<p class="bb-mismatch">The baseline gave 2 different outputs for this prompt: each '
        f"session&#x27;s repetitions agree; the outputs split by host {split}: a greedy output can "
        "differ between builds and backends. Each configuration is compared with the baseline of its "
        "own session and repetition.</p>"
    ) in md
    assert f"<li><b>self-n4</b> (rep 0): 1 tokens, sha256 <code>{b[:16]}…</code></li>" in md
    # repetitions of one session that disagree are named as such
    one = outputs.output_rows([req("baseline", 0, [1], "a", "s9"), req("baseline", 1, [2], "b", "s9")])
    assert "prompt: the repetitions of session s9 disagree." in outputs.outputs_md(one)
    assert (
        outputs.baseline_note([r for r in rows if r.session_id == "s3cccccccc" and r.config_id == "baseline"])
        == ""
    )


def test_committed_code_echo_baseline_splits_by_host():
    """The committed speculative sessions: the greedy baseline of code_echo gives 4d1b1eff… on the CPU
    hosts and b726658b… on the H200 host, each session's three repetitions agreeing."""
    from conftest import committed_root

    sessions = {
        "4787a708d9e74b6fb19b89518403368b",
        "4ad890526e7e4457a6ca06dfa653d5c6",
        "521afbb1d6fa4a1c8b3c897af59c4c1e",
        "5b4813653a034e2e86c90b0c013d90d3",
        "7554df47f15d45628afab405a1b49681",
        "c81f79c33f80454da637594957b94dae",
        "e5c68027ff094a5daf7e8921e7025978",
    }
    raw = committed_root() / "data" / "raw" / "speculative"
    reqs = [r for f in sorted(raw.glob("*.jsonl")) for r in outputs.read_requests(f, sessions)]
    rows = [r for r in outputs.output_rows(reqs) if r.prompt_id == "code_echo" and r.config_id == "baseline"]
    assert len(rows) == 21
    assert outputs.baseline_note(rows) == (
        '<p class="bb-mismatch">The baseline gave 2 different outputs for this prompt: each session&#x27;s '
        "repetitions agree; the outputs split by host (4d1b1eff… on 246274ab, 3f1dfa40; b726658b… on "
        "e3618a24): a greedy output can differ between builds and backends. Each configuration is compared "
        "with the baseline of its own session and repetition.</p>"
    )
