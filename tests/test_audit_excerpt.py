"""A log excerpt pasted into a post is untrusted text: one line ingest refuses (a value rounded by hand,
a negative time) is left out and named beside the claims checked against that log; the rest of the
post is audited.  A new user's post with ``draft acceptance rate = 0.71000 (300 accepted / 422
generated)`` aborted the whole audit with exit 2 ("the line is corrupt").  A user's own raw log named
with ``--logs`` is still refused whole (exit 2, file:line and the fix)."""

from __future__ import annotations

import json
import shutil

import pytest

from benchbook.audit import command

POST = """# llama-server draft model on RTX 3090

Baseline was 21.4 t/s. With `-md Qwen2.5-Coder-0.5B-Instruct-Q8_0.gguf --draft-max 16` the server log says:

```
prompt eval time =     512.30 ms /   523 tokens (    0.98 ms per token,  1020.89 tokens per second)
       eval time =   13160.42 ms /   512 tokens (   25.70 ms per token,    38.90 tokens per second)
      total time =   13672.72 ms /  1035 tokens
draft acceptance rate = {ratio} (  300 accepted /   422 generated)
```

So 38.9 t/s with the draft, 1.8x faster, and acceptance was 71%.
"""

ROUNDED = (
    "post-l6.log:4 not read: draft acceptance 0.71000 disagrees with 300/422 = 0.71090; the line is "
    "corrupt or edited (a value rounded by hand); a line of the log excerpt the post pasted: left out, "
    "the rest of post-l6.log read; fix: check this log's claims against the log as llama-server printed "
    "it (ask the author), or delete their `log:`"
)


def _rows(out: str) -> dict[str, list[str]]:
    return {r.split("\t")[0]: r.split("\t") for r in out.splitlines() if "\t" in r}


def test_a_rounded_line_of_a_posts_excerpt_is_named_not_fatal(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BENCHBOOK_CACHE", str(tmp_path / "cache"))
    post = tmp_path / "spec-log.md"
    post.write_text(POST.replace("{ratio}", "0.71000"))
    assert command.main([str(post)]) == 0
    rows = _rows(capsys.readouterr().out)
    # the claims checked against that log: at risk, the file, line, what is wrong and the fix
    assert rows["acceptance-rate-l12"][6] == (
        "not checkable | unsupported: an acceptance rate without the counts (accepted / drafted) behind it"
        f" | at risk: {ROUNDED}"
    )
    assert rows["decode-tps-l12"][3] == "38.905 t/s"
    assert rows["decode-tps-l12"][6] == f"consistent | at risk: {ROUNDED}"
    # everything else audited as usual: the statement, and the other lines of the excerpt
    assert rows["s-l12"][6] == "consistent"
    assert rows["post-l6.log:1"][3] == "38.905 tok/s"
    assert rows["post-l6.log:4"][6] == "not checkable"
    [rec] = [
        json.loads(x)
        for x in (command.adhoc_folder(post.with_name("spec-log.claims.yaml")) / "spec-log.claims.jsonl")
        .read_text()
        .splitlines()
        if json.loads(x)["id"] == "post-l6.log:4"
    ]
    assert rec["notes"] == [f"not read: {ROUNDED.split(' not read: ', 1)[1]}"]


@pytest.mark.parametrize(
    ("line", "why"),
    [
        (
            "       eval time =   -13160.42 ms /   512 tokens",
            "post-l6.log:2 not read: eval time is -13160.42 ms, a negative time; the log is corrupt "
            "or edited",
        ),
        (
            "draft acceptance rate = 0.71090 (  500 accepted /   422 generated)",
            "post-l6.log:4 not read: draft acceptance counts 500 accepted of 422 generated: a draft token "
            "can be accepted only once; the line is corrupt or edited",
        ),
    ],
)
def test_siblings_other_refused_lines_of_an_excerpt(tmp_path, monkeypatch, capsys, line, why):
    monkeypatch.setenv("BENCHBOOK_CACHE", str(tmp_path / "cache"))
    """Every line ingest refuses by file:line is left out alike (a negative time, impossible counts)."""
    monkeypatch.chdir(tmp_path)
    text = POST.replace("{ratio}", "0.71090")
    key = line.split("=")[0].strip()
    text = "\n".join(line if x.strip().startswith(key) else x for x in text.splitlines()) + "\n"
    (tmp_path / "p.md").write_text(text)
    assert command.main(["p.md"]) == 0
    rows = _rows(capsys.readouterr().out)
    assert f"at risk: {why}; a line of the log excerpt the post pasted: left out" in rows["decode-tps-l12"][6]
    assert rows["s-l12"][6] == "consistent"


def test_control_an_unedited_excerpt_reads_every_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("BENCHBOOK_CACHE", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "spec-log.md").write_text(POST.replace("{ratio}", "0.71090"))
    assert command.main(["spec-log.md"]) == 0
    out = capsys.readouterr().out
    assert "not read" not in out
    assert _rows(out)["decode-tps-l12"][6] == "consistent"


def test_a_users_own_log_given_with_logs_is_still_refused_whole(tmp_path, monkeypatch, capsys):
    """``--logs DIR``: the user's own raw logs, which they can save again: exit 2, file:line and the fix."""
    monkeypatch.setenv("BENCHBOOK_CACHE", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "spec-log.md").write_text(POST.replace("{ratio}", "0.71000"))
    assert command.main(["spec-log.md"]) == 0
    shutil.copytree(tmp_path / "spec-log.claims.logs", tmp_path / "mine")
    capsys.readouterr()
    assert command.main(["spec-log.claims.yaml", "--logs", "mine"]) == 2
    assert capsys.readouterr().err == (
        "benchbook: error: mine/post-l6.log:4: draft acceptance 0.71000 disagrees with 300/422 = 0.71090; "
        "the line is corrupt or edited (a value rounded by hand); fix: ingest the log as llama-server "
        "wrote it (benchbook audit --logs reads what `benchbook ingest` reads)\n"
    )
