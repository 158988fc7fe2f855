"""Faults found in session 58 in `claims draft`'s re-run (issue 29: "the draft never overwrites a
reviewed entry", "nothing already recorded is lost", bad input gets an error naming the file, line or
field and the fix): a reviewed entry written as a mapping under ``claims:`` (one entry, no list
item) was dropped from the file without a word, while the audit refuses that file."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchbook.audit import schema
from benchbook.audit.draftfile import draft_post

POST = "# t\n\nIt ran at 40 tok/s on a 4090.\n"
HEAD = "schema: benchbook.claims\nschema_version: 1\nsource: {kind: post}\n"
ENTRY = (
    '{id: mine, metric: decode_tps, value: 40, unit: tok/s, source_line: 3, quote: "It ran", reviewed: true}'
)


@pytest.mark.parametrize(
    ("section", "got"),
    [
        (f"claims: {ENTRY}\n", "a mapping"),
        ("claims: see below\n", "a single value"),
        ("statements: 3\n", "a single value"),
    ],
)
def test_a_section_that_is_no_list_is_refused_and_the_file_kept(tmp_path: Path, section: str, got: str):
    """ "claims: {id: …}" is refused with its line and the fix, the file left as it was; the audit
    refuses it too (so the user's entry was never silently dropped by one and read by the other)."""
    post = tmp_path / "post.md"
    post.write_text(POST)
    out = tmp_path / "c.yaml"
    text = HEAD + section
    out.write_text(text)
    with pytest.raises(ValueError) as e:
        draft_post(post, out)
    name = section.split(":")[0]
    assert str(e.value) == (
        f"{out}:4: {name}: a list of entries is needed, got {got}; nothing written; fix: write each "
        f"entry as a list item (`{name}:` then `  - {{id: …}}`), then draft again"
    )
    assert out.read_text() == text
    with pytest.raises(schema.ClaimsError, match=rf":4: {name}: Input should be a valid list"):
        schema.load(out)


def test_an_empty_section_is_no_entry_to_keep(tmp_path: Path):
    """Control: "claims:" and "statements: ~" with nothing in them merge as empty sections."""
    post = tmp_path / "post.md"
    post.write_text(POST)
    out = tmp_path / "c.yaml"
    out.write_text(HEAD + "claims:\nstatements: ~\n")
    draft_post(post, out)
    assert [(c.id, c.value) for c in schema.load(out).claims] == [("decode-tps-l3", 40)]


@pytest.mark.parametrize(
    ("written", "value", "decimals"),
    [
        (".5", 0.5, 1),
        ("-.5", -0.5, 1),
        ("+.25", 0.25, 2),
        ("0.5", 0.5, 1),
        ("1.", 1.0, 0),
        ("-.5e1", -5.0, 0),
    ],
)
def test_a_fraction_written_without_its_leading_zero(
    tmp_path: Path, written: str, value: float, decimals: int
):
    """ "value: .5" was read as an exact number (no decimals) and "-.5" refused as text (YAML 1.1
    reads only an unsigned ".5" as a number): both are the number with the decimals written."""
    out = tmp_path / "c.yaml"
    out.write_text(HEAD + f"claims:\n  - {{id: a, metric: speed_change, value: {written}, unit: '%'}}\n")
    (c,) = schema.load(out).claims
    assert (c.value, c.decimals) == (value, decimals)


def test_a_lone_point_is_still_no_number(tmp_path: Path):
    """Control: "." and "-." are text, refused with the line and the fix."""
    out = tmp_path / "c.yaml"
    out.write_text(HEAD + "claims:\n  - {id: a, metric: speed_change, value: -., unit: '%'}\n")
    with pytest.raises(schema.ClaimsError, match=r":5: claims.0.value: a number is needed, got str '-.'"):
        schema.load(out)


def test_a_file_of_comments_only_and_a_line_added_to_the_header_are_kept(tmp_path: Path):
    """ "-o notes.yaml" holding only comments was overwritten, and a line the user added under the
    drafter's header was dropped on the next run: both are the user's notes, kept as written; the
    drafter's header alone is written afresh (not doubled)."""
    post = tmp_path / "post.md"
    post.write_text(POST)
    notes = tmp_path / "notes.yaml"
    notes.write_text("# my notes about this post\n# TODO check the 4090 number\n")
    draft_post(post, notes)
    assert notes.read_text().startswith("# my notes about this post\n# TODO check the 4090 number\nschema:")
    out = tmp_path / "c.yaml"
    draft_post(post, out)
    lines = out.read_text().splitlines()
    lines.insert(3, "# checked against the author's reply")
    out.write_text("\n".join(lines) + "\n")
    draft_post(post, out)
    again = out.read_text().splitlines()
    assert again[3:5] == ["# checked against the author's reply", "schema: benchbook.claims"]
    assert sum(ln.startswith("# Drafted by") for ln in again) == 1
    # control: the header as drafted is not taken for the user's
    fresh = tmp_path / "f.yaml"
    draft_post(post, fresh)
    draft_post(post, fresh)
    assert fresh.read_text().splitlines()[3] == "schema: benchbook.claims"


# --- the breaker's findings on the session's drafter kinds --------------------------------------------


def _conds(text: str, tmp_path: Path) -> list[tuple]:
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from drafting import conditions, drafted

    cf = drafted("# t\n\n" + text, tmp_path)
    keys = ("engine", "build", "model", "decoding", "backend")
    return [(c.metric, c.value, {k: v for k, v in conditions(cf, c).items() if k in keys}) for c in cf.claims]


def test_acceptance_per_dataset_is_no_benchmark_score(tmp_path: Path):
    """ "on GSM8K prompts, with 72% of drafted tokens accepted", "Acceptance by dataset: GSM8K 76%":
    a benchmark's name beside an acceptance is the dataset drafted on, not a score; "the MMLU score
    stayed at 68.2%" is one."""
    got = _conds(
        "Speculative decoding gave a 1.8x speedup on GSM8K prompts, with 72% of drafted tokens accepted.\n",
        tmp_path,
    )
    assert got == [
        ("speedup", 1.8, {"decoding": "speculative"}),
        ("acceptance_rate", 72.0, {"decoding": "speculative"}),
    ]
    assert [
        m for m, _, _ in _conds("Acceptance by dataset: MT-Bench 71%, GSM8K 76%, HumanEval 80%.\n", tmp_path)
    ] == ["acceptance_rate"] * 3
    assert [
        m for m, _, _ in _conds("With speculative decoding the MMLU score stayed at 68.2%.\n", tmp_path)
    ] == ["accuracy"]


def test_a_failure_is_the_engine_its_clause_names(tmp_path: Path):
    """ "vLLM 0.6.3 because SGLang failed to start", "vLLM 0.6.3 (I did not test SGLang)": vLLM's version
    stands; "SGLang 0.4 failed to start" after "vLLM 0.6.3," drops SGLang's only."""
    from benchbook.audit.draftwords import engine_versions

    assert engine_versions("We used vLLM 0.6.3 because SGLang failed to start.") == {"vLLM": "0.6.3"}
    assert engine_versions("Engine: vLLM 0.6.3 (I did not test TGI or SGLang).") == {"vLLM": "0.6.3"}
    assert engine_versions("Engine: vLLM 0.6.3, SGLang 0.4 failed to start.") == {"vLLM": "0.6.3"}
    assert engine_versions("vLLM 0.6.3 vs SGLang 0.3.0, and SGLang crashed once under load.") == {
        "vLLM": "0.6.3",
        "SGLang": "0.3.0",
    }


def test_a_set_up_sentence_naming_two_engines_declares_neither(tmp_path: Path):
    """ "We used Ollama to pull the GGUF, then benchmarked it with llama.cpp b4000": not Ollama's run."""
    from benchbook.audit.draftcontext import _set_up_engine

    assert (
        _set_up_engine(
            "We used Ollama to pull the GGUF, then benchmarked it with llama-bench from llama.cpp b4000."
        )
        == []
    )
    assert (
        _set_up_engine("I used Ollama for months, but for this test I switched to llama.cpp b4000 directly.")
        == []
    )
    assert _set_up_engine("I ran vLLM first, then SGLang 0.4.1 for everything below.") == []
    got = _conds(
        "We used Ollama to pull the GGUF, then benchmarked it with llama-bench from llama.cpp b4000. "
        "Decode was 50 tok/s.\n",
        tmp_path,
    )
    assert got == [("decode_tps", 50.0, {"engine": "llama.cpp", "build": "b4000", "decoding": "plain"})]


def test_only_a_model_tag_heading_script_output_is_its_model(tmp_path: Path):
    """ "elapsed:5m", "server:8b-node1 ready" and `ollama list`'s rows (a tag, then its id) name no
    model measured: the declared model stands."""
    for block in ("elapsed:5m", "server:8b-node1 ready", "qwen2.5:14b    7cdf5a0187d5    11 GB"):
        head = "Model: Llama-3.1-8B Q4_K_M on an RTX 3090, llama.cpp b4000.\n\n"
        text = f"{head}```\n{block}\ndecode: 110.5 tok/s\n```\n"
        ((_, _, cond),) = _conds(text, tmp_path)
        assert cond["model"] == "Llama-3.1-8B", block


def test_code_before_a_llama_name_and_a_build_without_cublas(tmp_path: Path):
    """ "The code Llama-3.1-8B wrote" is Llama-3.1-8B; "no cuBLAS" names no CUDA backend."""
    from benchbook.audit.draftnames import mentions

    assert [(m.path, m.value) for m in mentions("The code Llama-3.1-8B wrote was fine")] == [
        ("model", "Llama-3.1-8B")
    ]
    assert [(m.path, m.value) for m in mentions("Source code Llama 3 8B generated")] == [
        ("model", "Llama 3 8B")
    ]
    assert [m.path for m in mentions("CPU-only build (no cuBLAS), without hipBLAS")] == []


def test_the_measure_takes_only_the_bound_its_claim_writes():
    """A drafted bound of another number on the line ("at least 2.3x" beside "well beyond 2000
    tokens/s") does not capture the expected claim of the 2000 bound; the 2000 one does, its digits
    written "2,000" or "2000"."""
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from test_draft_s58_kinds import _measure
    from test_draft_s58_kinds import claims_file as cf

    m = _measure()

    expected = cf(
        "claims:\n  - {id: a, metric: throughput, statement: 'well beyond 2,000 tokens/s: a lower bound',"
        " source_line: 3}\n"
    )
    other = cf(
        "todo:\n  - {id: t, todo: b, kind: bound, statement: x, value: 2.3, unit: x, source_line: 3}\n"
    )
    assert m.score(other, expected)["numbers"] == 0
    same = cf(
        "todo:\n  - {id: t, todo: b, kind: bound, statement: x, value: 2000, unit: tok/s, source_line: 3}\n"
    )
    assert m.score(same, expected)["numbers"] == 1


def test_a_bound_over_no_claims_names_its_set_in_words():
    """The audit's reason for a bound matching no claims named its sets as Python dicts ("numerator
    {'metric': 'share', …}") on the page: now as words."""
    from benchbook.audit.recompute import _set_words

    assert _set_words({"metric": "share", "engine": "llama.cpp"}) == "metric share, engine llama.cpp"
    assert (_set_words(None), _set_words({})) == ("none", "any claim")
