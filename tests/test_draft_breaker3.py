"""Breaker 3's faults in `benchbook claims draft` re-run over a claims file the user edited
(``scripts/draft_faults.py`` DY01-DY05): YAML the audit refuses (an alias, a key that is a list, a
section written twice, deep nesting) met as a traceback or a message naming no file; a ``draft:``
section or group of the wrong shape raising AttributeError/TypeError; an entry that is no mapping
silently dropped."""

from __future__ import annotations

import os
import random
import stat
from pathlib import Path

import pytest

from benchbook import atomicfile
from benchbook.audit import schema, toollines
from benchbook.audit.draft import draft_text
from benchbook.audit.draftcontext import _distinct, _key, _Models, _same_model
from benchbook.audit.draftfile import default_out, draft_post, held
from drafting import LINEAR, cpu_growth

POST = "# R\n\nDecode ran at 41.5 tok/s.\n\n| run | tok/s |\n|---|---|\n| a | 7 |\n"
GUESS = (
    '  - {id: "decode-tps-l3", metric: "decode_tps", value: 41.5, unit: "tok/s", conditions: '
    '{decoding: "plain"}, source_line: 3, quote: "Decode ran at 41.5 tok/s.", reviewed: false}'
)


def _drafted(tmp_path: Path) -> tuple[Path, Path, str]:
    post, out = tmp_path / "r.md", tmp_path / "r.claims.yaml"
    post.write_text(POST)
    draft_post(post)
    text = out.read_text()
    assert GUESS in text
    return post, out, text


MINE = "  - {id: mine, metric: decode_tps, value: *v, unit: tok/s}\n"


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (  # an alias of an anchor in another entry: each entry read on its own raised ComposerError
            lambda t: t.replace(
                "claims:\n", "claims:\n  - {id: a, metric: decode_tps, value: &v 5, unit: tok/s}\n" + MINE
            ),
            "r.claims.yaml:15: YAML alias *v: a claims file takes no aliases (they repeat parts of the "
            "file; nested ones expand without bound); fix: write the values out, or give what claims share "
            "through `groups:`, or move the file away to draft the post afresh",
        ),
        (  # a key that is a list: TypeError (unhashable) in the merge and in the audit
            lambda t: t + "? [a, b]\n: c\n",
            "r.claims.yaml:25: top level: a key that is a list or mapping (`? [...]`, `{...}: value`); fix: "
            "a key is a name: write `name: value`, or move the file away to draft the post afresh",
        ),
        (  # `claims:` written twice: the second list was merged, the audit refuses the file
            lambda t: t + "claims:\n  - {id: z, metric: decode_tps, value: 1, unit: tok/s}\n",
            "r.claims.yaml:25: duplicate key 'claims'; fix: keep one, or move the file away to draft "
            "the post afresh",
        ),
        (  # 3000 brackets: "maximum recursion depth exceeded", no file named
            lambda t: t + "deep: " + "[" * 3000 + "]" * 3000 + "\n",
            "r.claims.yaml:25: nesting deeper than 64 levels of lists or mappings; fix: a claims file "
            "nests a few levels: flatten the value, or move the file away to draft the post afresh",
        ),
    ],
)
def test_an_edit_the_audit_refuses_is_refused_by_the_merge_with_its_line(tmp_path, edit, message):
    """DY01-DY03: the merge read the file with `yaml.compose` and then each entry's lines on their
    own: an alias whose anchor was in another entry raised a ComposerError traceback, a key that is a
    list a TypeError, nesting a RecursionError whose message named no file.  Now the file is read as
    the audit reads it first: refused with the audit's message, its line and the way out; the file
    is left as the user wrote it."""
    post, out, text = _drafted(tmp_path)
    edited = edit(text)
    out.write_text(edited)
    with pytest.raises(ValueError) as e:
        draft_post(post)
    assert str(e.value) == f"{out.parent}/{message}"
    assert out.read_text() == edited


def test_a_reviewed_entry_and_the_users_comment_are_kept_beside_refusals(tmp_path):
    """Control for DY01-DY03: a well-formed edit (a reviewed entry with a comment, a tag-free
    mapping) is still merged, kept line for line."""
    post, out, text = _drafted(tmp_path)
    mine = GUESS.replace("41.5", "41.6").replace("reviewed: false}", "reviewed: true}  # checked")
    out.write_text(text.replace(GUESS, mine))
    _, _, guessed = draft_post(post)
    assert mine in out.read_text()
    assert guessed == ["t1-tok-s-r1", "t1-tok-s"]


def test_a_broken_draft_section_is_read_as_listing_what_it_names(tmp_path):
    """DY04: `draft: 5` raised AttributeError, `drafted: [[1], {a: 2}, …]` TypeError (unhashable):
    the section is the draft's bookkeeping, so a shape it cannot have lists no ids (names and
    numbers in a list still count: an id listed and then deleted by the user is not drafted again)."""
    post, out, text = _drafted(tmp_path)
    head, rest = text.split("draft:\n", 1)
    tail = rest.split("claims:\n", 1)[1]
    out.write_text(head + "draft: 5\nclaims:\n" + tail)
    _, _, guessed = draft_post(post)
    assert guessed == ["decode-tps-l3", "t1-tok-s-r1", "t1-tok-s"]
    text = out.read_text()
    out.write_text(
        text.replace(GUESS + "\n", "").replace(
            'drafted: ["decode-tps-l3", ', 'drafted: [[1], {a: 2}, true, "decode-tps-l3", '
        )
    )
    _, _, guessed = draft_post(post)  # the deleted guess is not drafted again
    assert guessed == ["t1-tok-s-r1", "t1-tok-s"]
    assert "\nclaims:" not in out.read_text()


def test_an_entry_that_is_no_mapping_is_kept_for_the_audit_to_name(tmp_path):
    """DY05: an entry the user wrote that is no mapping (`- 41.5 tok/s on my card`, `- [1, 2]`) was
    dropped without a word by the re-run (data loss); now it is kept (after the entries that name
    their line, as every entry without `source_line`), and the audit names its line."""
    post, out, text = _drafted(tmp_path)
    out.write_text(text.replace("claims:\n", "claims:\n  - 41.5 tok/s on my card\n  - [1, 2]\n"))
    draft_post(post)
    text = out.read_text()
    assert "claims:\n" + GUESS + "\n  - 41.5 tok/s on my card\n  - [1, 2]\n" in text
    with pytest.raises(
        schema.ClaimsError, match=r"r\.claims\.yaml:15: claims\.1: Input should be a valid dict"
    ):
        schema.load(out)


def test_a_group_whose_table_is_no_mapping_counts_no_rows(tmp_path):
    """DY04: `table: [1]` on a reviewed group raised AttributeError in the summary's count
    (`held`), and `claims: 5` TypeError in the merge; now they hold no rows."""
    post, out, text = _drafted(tmp_path)
    group = text.split("groups:\n", 1)[1]
    mine = '  - {id: "g2", metric: "decode_tps", unit: "tok/s", table: [1], claims: 5}\n'
    out.write_text(text.replace(group, mine + group))
    draft_post(post)
    assert mine in out.read_text()
    assert held(out) == {"claim": 2, "statement": 0, "todo": 0}


def test_the_audit_names_a_key_that_is_a_list_or_mapping(tmp_path):
    """DY02 in `benchbook audit`: `{x: 1}: 2` inside a claim raised TypeError (unhashable) in the
    loader; now the line, the field and the fix.  Control: a plain key still loads."""
    f = tmp_path / "k.yaml"
    head = "schema: benchbook.claims\nschema_version: 1\nsource: {kind: post}\nclaims:\n"
    f.write_text(head + "  - {id: a, metric: decode_tps, value: 1, unit: tok/s, ? {x: 1} : 2}\n")
    with pytest.raises(schema.ClaimsError) as e:
        schema.load(f)
    assert str(e.value) == (
        f"{f}:5: claims.0: a key that is a list or mapping (`? [...]`, `{{...}}: value`); fix: a key is "
        "a name: write `name: value`"
    )
    f.write_text(head + "  - {id: a, metric: decode_tps, value: 1, unit: tok/s}\n")
    assert [c.id for c in schema.load(f).claims] == ["a"]


def test_a_device_or_pipe_as_the_claims_file_is_refused_untouched(tmp_path):
    """DY06: `-o /dev/null` renamed the draft over the device (run as root, in a container, the
    system's /dev/null became a regular file of claims); `-o` a named pipe hung (read to merge,
    never ending).  Now a device, pipe or socket is refused
    before anything is written (a FIFO stands in for the device here); control: a regular file is
    written."""
    post = tmp_path / "r.md"
    post.write_text(POST)
    fifo = tmp_path / "sink"
    os.mkfifo(fifo)
    with pytest.raises(ValueError) as e:
        draft_post(post, fifo)
    assert str(e.value) == (
        f"{fifo}: a device, pipe or socket, no file: rewriting it would replace it with a regular file; "
        "nothing written; fix: give the path of a file (a new one, or one to rewrite)"
    )
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.md", "sink"]
    draft_post(post, tmp_path / "plain.yaml")
    assert (tmp_path / "plain.yaml").is_file()


def test_a_post_that_is_a_pipe_drafts_into_the_working_folder(tmp_path, monkeypatch):
    """DY07: the claims file of `claims draft /dev/null` or `<(curl …)` (/dev/fd/63) went beside it:
    into /dev (as root) or nowhere (an error naming no fix).  Now a post that is no regular file
    drafts into the working folder, as stdin does; control: a regular post's goes beside it."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "in").mkdir()
    fifo = tmp_path / "in" / "feed.md"
    os.mkfifo(fifo)
    assert default_out(fifo) == Path("feed.claims.yaml")
    assert default_out(tmp_path / "in" / "blog.md") == tmp_path / "in" / "blog.claims.yaml"
    assert default_out(Path("/dev/null")) == Path("null.claims.yaml")


def test_a_folder_or_an_empty_path_as_the_post_is_named_as_such(tmp_path):
    """DY08: `claims draft posts/` said "is a directory, not a file of llama.cpp output; fix: pass
    the files in it (e.g. benchbook ingest posts/*.md)" (ingest's message); `claims draft ''`
    the same of the working folder."""
    (tmp_path / "posts").mkdir()
    with pytest.raises(ValueError) as e:
        draft_post(tmp_path / "posts")
    assert str(e.value) == (
        f"{tmp_path}/posts: a folder, no post; fix: name the post's file "
        f"(benchbook claims draft {tmp_path}/posts/POST.md)"
    )
    with pytest.raises(ValueError) as e:
        draft_post("")
    assert str(e.value) == (
        "an empty path given for the post or -o; fix: name the post's file (and the claims file)"
    )


def test_an_atomic_rewrite_of_a_device_or_pipe_is_refused(tmp_path):
    """DY06 for every writer (`atomicfile`): the rename put a regular file where the device was.
    Control: a regular file is rewritten."""
    fifo = tmp_path / "sink"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match=r"sink: a device, pipe or socket, no file"):
        atomicfile.write_text(fifo, "x")
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["sink"]
    atomicfile.write_text(tmp_path / "f", "x")
    assert (tmp_path / "f").read_text() == "x"


def _distinct_by_pairs(values: list[object]) -> list[object]:
    """``draftcontext._distinct`` as it was (each value against every other): the reference."""
    one = list({_key(v): v for v in reversed(values)}.values())[::-1]
    if len(one) < 2 or not all(isinstance(v, str) for v in one):
        return one
    words = {id(v): set(str(_key(v)).split()) for v in one}
    out = [v for v in one if len([u for u in one if words[id(v)] < words[id(u)]]) != 1]
    return out if out else one


def test_distinct_and_models_by_words_answer_as_the_pass_over_all():
    """DB16/DB17's fixes answer as the quadratic passes did, on random names of a few words
    (shared words, names within names, empty names)."""
    rng = random.Random(29)
    vocab = ["qwen3", "8b", "q4", "k", "m", "gguf", "rtx", "4090", "a", ""]
    for _ in range(3000):
        names = [" ".join(rng.sample(vocab, rng.randint(0, 4))) for _ in range(rng.randint(0, 7))]
        assert _distinct(names) == _distinct_by_pairs(names), names
        models = _Models()
        for n in names[1:]:
            models.add(_key(n))
        mine = _key(names[0]) if names else ""
        assert bool(models) == bool(names[1:])
        if models:
            assert models.fits(mine) == any(_same_model(mine, _key(n)) for n in names[1:]), names
    assert _distinct(["Apple M4", "Apple M4 (Mac mini)", "RTX 4090"]) == ["Apple M4 (Mac mini)", "RTX 4090"]


def test_a_setup_list_of_thousands_of_cards_drafts_in_linear_time():
    """DB16: a setup list of 3,000 cards ("- GPU: RTX 1", …) took a minute to draft for its one
    claim (each card's name against every other, `_distinct`); now about a second."""

    def text(n: int) -> str:
        return "".join(f"- GPU: RTX {i}\n- ctx: {i}k\n\n" for i in range(n)) + "Decode 5 tok/s.\n"

    assert cpu_growth(lambda n: draft_text(text(n), "p.md"), 750) < LINEAR
    drafted = draft_text(text(3000), "p.md")
    # the same answer as the pass over all gave (the last card: drafted so before the fix too)
    assert [(str(e.fields["value"]), e.fields["conditions"]) for e in drafted.entries] == [
        ("5", {"hardware": "NVIDIA GeForce RTX 2999", "decoding": "plain"})
    ]


def test_thousands_of_command_lines_of_one_setting_draft_in_linear_time():
    """DB17: 1,500 command lines, each its own model and all `-p 512`: each claim's model was asked
    against all 1,500 (`Context.at`), 40 s; now a second or two.  Control: the claim under a command
    keeps its own model's settings."""

    def text(n: int) -> str:
        return "".join(
            f"```\nllama-bench -m m{i}.gguf -p 512 -n 128 -ngl {i}\n```\n\n{i} tok/s\n\n" for i in range(n)
        )

    assert cpu_growth(lambda n: draft_text(text(n), "p.md"), 375) < LINEAR
    drafted = draft_text(text(1500), "p.md")
    assert len(drafted.entries) == 1500
    last = drafted.entries[-1].fields
    assert (str(last["value"]), last["conditions"]) == (
        "1499",
        {
            "engine": "llama.cpp",
            "model": "m1499",
            "offload": {"n_gpu_layers": 1499},
            "tokens_generated": 128,
            "decoding": "plain",
        },
    )


def test_dash_as_the_claims_file_is_refused(tmp_path, monkeypatch):
    """DY09: `claims draft post.md -o - | less` wrote a file named "-" and nothing to stdout; now
    refused with the way to read it.  Control: `-` as the post is still stdin."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "r.md").write_text(POST)
    with pytest.raises(ValueError) as e:
        draft_post("r.md", "-")
    assert str(e.value) == (
        "-o -: the claims file is a file (a re-run merges into it, keeping what you reviewed), not "
        "standard output; fix: name a file with -o, then read it (cat), or leave -o out"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.md"]
    out, _, _ = draft_post("-", None, POST.encode())
    assert out == Path("post.claims.yaml") and (tmp_path / "post.claims.yaml").is_file()


def test_a_line_of_hundreds_of_spaces_drafts_at_once():
    """DB09 again: a prose line "a", 400 spaces, "b 5 tok/s" hung the draft (minutes: the pasted
    `label: value` reader, run over every prose line, tried each split of the spaces between the
    label, its separator and the value; 200 spaces took 2 s, 400 over 20).  Control: a pasted
    `label: value` run still reads as before."""
    assert cpu_growth(lambda n: draft_text("a" + " " * n + "b 5 tok/s\n", "p.md"), 25_000) < LINEAR
    drafted = draft_text("a" + " " * 100_000 + "b 5 tok/s\n", "p.md")
    assert [str(e.fields["value"]) for e in drafted.entries] == ["5"]
    m = toollines._LABELLED.match("Mean TTFT (ms):    12,345.6  # note")
    assert m is not None
    assert (m.group("label"), m.group("v"), m.group("unit"), m.group("rest")) == (
        "Mean TTFT (ms)",
        "12,345.6",
        None,
        "# note",
    )
    m = toollines._LABELLED.match("Output token throughput\t 41.5 tok/s")
    assert m is not None and (m.group("label"), m.group("v"), m.group("unit")) == (
        "Output token throughput",
        "41.5",
        "tok/s",
    )
