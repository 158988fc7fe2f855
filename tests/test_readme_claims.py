"""The user's guide's "Claims files" example is a valid claims file: extracted from docs/claims.md as written,
it loads and audits (a new user's copy of it failed three times: `{...}` placeholders, `env: windows`
with no such environment, a statement citing an undeclared claim `ds-code-win`)."""

from __future__ import annotations

import re
from pathlib import Path

from benchbook.audit import command, schema

ROOT = Path(__file__).resolve().parents[1]


def readme_claims_example() -> str:
    """The first ```yaml block of docs/claims.md's "## Claims files" section."""
    text = (ROOT / "docs" / "claims.md").read_text()
    section = text[text.index("## Claims files") :]
    block = re.search(r"^```yaml\n(.*?)^```", section, re.S | re.M)
    assert block, "docs/claims.md 'Claims files' has no ```yaml example"
    return block.group(1)


def test_the_example_loads(tmp_path):
    f = tmp_path / "example.yaml"
    f.write_text(readme_claims_example())
    cf = schema.load(f)
    assert [c.id for c in cf.claims] == ["tg-win-ncmoe24", "ds-code-win"]
    assert [s.id for s in cf.statements] == ["s1", "s2"]
    assert [e.id for e in cf.environments] == ["wsl", "windows"]
    assert {c.conditions.env for c in cf.claims} == {"windows"}
    assert "{...}" not in f.read_text()  # placeholders stood where the schema wants a mapping


def test_the_example_audits_as_its_comments_say(tmp_path, monkeypatch, capsys):
    """s1: 24.4 / 42.72 = 57.116% against "about 57%" (± 1), with the cited precision 24.35 / 42.725 ..
    24.45 / 42.715 = 56.992..57.240%: consistent; s2: the one draft-self run over plain decoding in the
    same environment, 0.570..0.572, is below 0.667: consistent."""
    f = tmp_path / "example.yaml"
    f.write_text(readme_claims_example())
    monkeypatch.chdir(ROOT)  # audit.here from params.yaml
    out = tmp_path / "out"
    assert command.main([str(f), "--out", str(out), "--pages", str(out)]) == 0
    rows = {line.split("\t")[0]: line.split("\t") for line in capsys.readouterr().out.splitlines()}
    assert rows["s1"][2:7] == [
        "57 %",
        "56.992–57.240 %",
        "-0.008 to +0.240 pp",
        "-0.01% to +0.4%",
        rows["s1"][6],
    ]
    assert rows["s1"][6].startswith("consistent | ")
    # s2 is a bound: its difference is the margin, and it has no difference %
    assert rows["s2"][2:6] == ["0.667", "0.570–0.572", "-0.097 to -0.095", "—"]
    assert rows["s2"][6].startswith("consistent | ")
