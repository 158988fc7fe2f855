"""Raw logs in the audit (real b11434 captures), the command's outputs and exit codes, the page's
escaping, and the DVC stage."""

import json
import shutil
from pathlib import Path

import pytest
import yaml

from benchbook.audit import command, logs, page, run
from benchbook.audit.verdicts import Here

ROOT = Path(__file__).resolve().parents[1]
FX = Path(__file__).parent / "fixtures"
CLOVER = ROOT / "data" / "claims" / "clover-35b-a3b-blog.yaml"
HEAD = "schema: benchbook.claims\nschema_version: 1\nsource: {kind: synthetic test}\n"


@pytest.fixture
def logdir(tmp_path):
    d = tmp_path / "logs"
    d.mkdir()
    for f in (
        "ingest/llama_bench_b11434.jsonl",
        "ingest/llama_server_spec_b11434.log",
        "speculative/completion_baseline.json",
        "speculative/completion_draft_self_n4.json",
    ):
        shutil.copy(FX / f, d)
    return d


def by_id(audit) -> dict:
    return {v.id: v for v in audit.verdicts}


def test_llama_bench_log_gets_single_run_and_its_avg_ts_checked(logdir):
    v = by_id(run.audit_file(CLOVER, logdir, here=Here()))
    tg = v["llama_bench_b11434.jsonl:2"]
    # -r 2: samples 100319596 and 111879129 ns for 8 tokens -> 79.745 and 71.506 tok/s, mean 75.625
    # (the file's avg_ts 75.625439); n = 2 < 3
    assert tg.kind == "log" and tg.consistency == "consistent" and tg.recomputed == "75.625"
    assert [q.check for q in tg.qualifiers] == ["single_run", "high_variance"]  # cv = 5.826 / 75.63 = 0.077
    assert tg.qualifiers[0].reason == "n = 2: fewer than 3 repetitions, no interval"
    assert tg.evidence == ["llama_bench_b11434.jsonl:2"]
    assert tg.reproducible.here  # build 11434 on CPU: this project's build and hardware


def test_self_draft_beside_its_baseline_gets_acceptance_without_speedup(logdir):
    a = run.audit_file(CLOVER, logdir, {"completion_draft_self_n4.json": "completion_baseline.json"}, Here())
    v = by_id(a)
    spec = v["completion_draft_self_n4.json:1"]
    # alpha = 9 / 12 = 0.75; decode 12 tokens / 1371.593 ms = 8.749 vs 12 / 555.479 ms = 21.603: speedup 0.405
    assert spec.recomputed == "8.749"
    assert {q.check for q in spec.qualifiers} == {"single_run", "acceptance_without_speedup"}
    q = next(q for q in spec.qualifiers if q.check == "acceptance_without_speedup")
    assert q.reason == "acceptance 0.750 but speedup 0.405 against the paired baseline: no speedup"
    assert {q.check for q in v["completion_baseline.json:1"].qualifiers} == {"single_run"}  # control


def test_speculative_log_without_a_pair_gets_no_speedup_and_says_why(logdir):
    v = by_id(run.audit_file(CLOVER, logdir, here=Here()))
    spec = v["llama_server_spec_b11434.log:12"]
    # eval time = 1132.38 ms / 32 tokens: the server's own rate 31 / 1.13238 s = 27.376 tok/s
    assert spec.recomputed == "27.376"
    assert [q.check for q in spec.qualifiers] == ["single_run"]
    assert spec.notes[0].startswith("no baseline named for this log: speedup not computed")
    unpaired = v["completion_draft_self_n4.json:1"]
    assert "acceptance_without_speedup" not in {q.check for q in unpaired.qualifiers}


def test_pair_named_in_the_claims_file_and_a_claim_checked_against_its_log(tmp_path, logdir):
    p = tmp_path / "c.yaml"
    p.write_text(
        HEAD + "log_pairs: [{log: completion_draft_self_n4.json, "
        "baseline: completion_baseline.json}]\n"
        "claims:\n"
        "  - {id: tg, metric: decode_tps, value: 75.6, unit: tok/s, log: llama_bench_b11434.jsonl}\n"
        "  - {id: tg-bad, metric: decode_tps, value: 80.0, unit: tok/s,"
        " log: llama_bench_b11434.jsonl}\n"
    )
    v = by_id(run.audit_file(p, logdir, here=Here()))
    assert "acceptance_without_speedup" in {q.check for q in v["completion_draft_self_n4.json:1"].qualifiers}
    # 75.625 lies in 75.55..75.65 ("75.6"); 80.0 stands for 79.95..80.05: off by 75.625 - 80.0 = -4.375
    assert (v["tg"].consistency, v["tg"].recomputed) == ("consistent", "75.625")
    assert v["tg-bad"].consistency == "inconsistent"
    assert v["tg-bad"].difference == pytest.approx(-4.3746, abs=1e-3)
    # its size (issue 27): 79.95 - 75.6254 = 4.3246 tok/s, 5.4% of 80.0: a material overstatement
    assert (
        v["tg-bad"].miss == pytest.approx(4.3246, abs=1e-3)
        and v["tg-bad"].severity == "material overstatement"
    )
    assert "llama_bench_b11434.jsonl:2" in v["tg"].evidence


def test_claim_in_words_with_a_log_shows_the_rate_and_stays_not_checkable(tmp_path, logdir):
    # regression: a claim with `log:` but no value or range crashed the audit (TypeError unpacking None)
    p = tmp_path / "c.yaml"
    p.write_text(
        HEAD + "claims:\n"
        "  - {id: tg, metric: decode_tps, statement: fast enough, log: llama_bench_b11434.jsonl}\n"
    )
    tg = by_id(run.audit_file(p, logdir, here=Here()))["tg"]
    # the log's one decode_tps entry: mean of 79.745 and 71.506 tok/s = 75.625 (as above)
    assert (tg.consistency, tg.recomputed, tg.difference) == ("not checkable", "75.625", None)
    assert "log: llama_bench_b11434.jsonl not checked (the claim states no number)" in tg.notes
    assert "llama_bench_b11434.jsonl:2" in tg.evidence


def test_paired_request_without_a_decode_rate_gets_no_speedup_and_says_why(logdir):
    # regression: a speculative request with no predicted_ms, paired with a baseline, crashed the audit
    # (TypeError dividing None)
    doc = json.loads((logdir / "completion_draft_self_n4.json").read_text())
    del doc["response"]["timings"]["predicted_ms"]
    (logdir / "completion_no_rate.json").write_text(json.dumps(doc))
    v = by_id(run.audit_file(CLOVER, logdir, {"completion_no_rate.json": "completion_baseline.json"}, Here()))
    spec = v["completion_no_rate.json:1"]
    assert spec.recomputed is None
    assert "no decode rate in this request (no predicted_n/predicted_ms): speedup not computed" in spec.notes
    assert "acceptance_without_speedup" not in {q.check for q in spec.qualifiers}


def test_unreadable_log_and_bad_pair_are_errors(tmp_path, logdir):
    # a file with no llama.cpp output in it is left out and named (it used to abort the audit with a
    # fix naming --format, an option audit does not have); a malformed log still fails, naming file:line
    (logdir / "notes.txt").write_text("nothing llama.cpp wrote\n")
    v = by_id(run.audit_file(CLOVER, logdir))["notes.txt"]
    assert (v.kind, v.consistency, v.notes) == (
        "log",
        "not checkable",
        [
            "not read: no llama.cpp output found in it (no llama-bench table or rows, server log or "
            "spec-simple lines)"
        ],
    )
    (logdir / "notes.txt").unlink()
    (logdir / "bad.md").write_text(
        "| model | size | params | backend | ngl | test | t/s |\n"
        "| --- | ---: | ---: | --- | --: | ---: | ---: |\n"
        "| llama 7B | 3.5 GiB | 6.7 B | CPU | 0 | tg128 | abc |\n"
    )
    with pytest.raises(logs.LogsError, match=r"bad.md:3: t/s cell 'abc' is not 'mean ± sd'"):
        run.audit_file(CLOVER, logdir)
    (logdir / "bad.md").unlink()
    with pytest.raises(
        logs.LogsError, match="log pair a.log=completion_baseline.json: a.log is not a file under"
    ):
        run.audit_file(CLOVER, logdir, {"a.log": "completion_baseline.json"})


def test_command_exit_codes_and_records(tmp_path, logdir, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out, pages = tmp_path / "out", tmp_path / "pages"
    rc = command.main(
        [
            str(CLOVER),
            "--logs",
            str(logdir),
            "--out",
            str(out),
            "--pages",
            str(pages),
            "--pair",
            "completion_draft_self_n4.json=completion_baseline.json",
        ]
    )
    assert rc == 0  # inconsistent or at-risk verdicts are results, not failures
    recs = [json.loads(x) for x in (out / "clover-35b-a3b-blog.jsonl").read_text().splitlines()]
    # 33 claims + 4 statements + 2 llama-bench results + 1 server request + 2 completion requests
    assert len(recs) == 42
    assert {(r["schema"], r["schema_version"]) for r in recs} == {("benchbook.audit.verdict", 1)}
    assert (pages / "clover-35b-a3b-blog.qmd").exists()
    for bad in ("missing_unit", "yaml_syntax"):
        assert command.main([str(FX / "audit" / "malformed" / f"{bad}.yaml"), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "benchbook: error: " in err and "missing_unit.yaml:5: claims.0.unit" in err
    assert command.main(["--pair", "nonsense", str(CLOVER)]) == 2


def test_page_escapes_every_text_from_the_claims_file(tmp_path):
    p = tmp_path / "x.yaml"
    p.write_text(
        HEAD + "claims:\n"
        "  - {id: '<b>x', metric: decode_tps, value: 1, unit: tok/s,"
        " method: '<script>alert(1)</script>', note: '```{=html}'}\n"
        "statements:\n"
        "  - {id: s, kind: ratio, statement: '</td>{{< var a >}}`x`', of: ['<b>x', '<b>x'],"
        " value: 1, unit: x}\n"
    )
    text = page.render(*(lambda a: (a.claims, a.verdicts, a.path.name))(run.audit_file(p)))
    body = text.split("```{=html}", 1)[1]
    assert "<script>" not in body and "&lt;script&gt;alert(1)&lt;/script&gt;" in body
    assert "{{<" not in body and "</td>{{" not in body and "&lt;/td&gt;" in body
    assert body.count("```") == 1  # only the fence that closes the raw block
    assert 'id="v-b-x"' in body and 'href="#v-b-x"' in body


def test_audit_dir_and_the_dvc_stage(tmp_path):
    claims = tmp_path / "claims"
    claims.mkdir()
    shutil.copy(CLOVER, claims)
    shutil.copy(FX / "audit" / "at_risk.yaml", claims)
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "gone.jsonl").write_text("{}\n")  # a claims file that no longer exists
    audits = run.audit_dir(claims, tmp_path / "out", tmp_path / "pages")
    assert [a.path.name for a in audits] == ["at_risk.yaml", "clover-35b-a3b-blog.yaml"]
    records = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert records == ["at_risk.jsonl", "clover-35b-a3b-blog.jsonl"]
    pages = sorted(p.name for p in (tmp_path / "pages").iterdir())
    assert pages == ["at_risk.qmd", "clover-35b-a3b-blog.qmd", "index.qmd"]
    stage = yaml.safe_load((ROOT / "dvc.yaml").read_text())["stages"]["audit"]
    assert stage["cmd"].startswith("python -m benchbook.audit --all data/claims")
    assert "data/claims" in stage["deps"] and stage["params"] == ["audit", "models.registry"]


def test_the_audit_stage_reads_the_logs_folder_beside_a_claims_file(tmp_path, logdir):
    # regression (new user): `--all data/claims` (the DVC stage) takes no --logs, so a claim with `log:`
    # stayed "not checkable (no --logs folder given)"; now X.yaml is checked against X.logs/
    claims = tmp_path / "claims"
    claims.mkdir()
    text = (
        HEAD + "claims:\n"
        "  - {id: tg, metric: decode_tps, value: 75.6, unit: tok/s, log: llama_bench_b11434.jsonl}\n"
        "  - {id: tg-bad, metric: decode_tps, value: 80.0, unit: tok/s, log: llama_bench_b11434.jsonl}\n"
    )
    (claims / "mine.yaml").write_text(text)
    (claims / "bare.yaml").write_text(text)  # same claims, no bare.logs/: nothing to check against
    shutil.copytree(logdir, claims / "mine.logs")
    audits = {a.path.name: a for a in run.audit_dir(claims, tmp_path / "out", tmp_path / "pages")}
    assert sorted(audits) == ["bare.yaml", "mine.yaml"]  # mine.logs/ is no claims file
    mine, bare = by_id(audits["mine.yaml"]), by_id(audits["bare.yaml"])
    # as with --logs: 75.625 lies in 75.55..75.65; 80.0 is off by 75.625 - 80.0 = -4.375
    assert (mine["tg"].consistency, mine["tg"].recomputed) == ("consistent", "75.625")
    assert mine["tg-bad"].consistency == "inconsistent"
    assert mine["tg-bad"].difference == pytest.approx(-4.3746, abs=1e-3)
    assert audits["mine.yaml"].logs_dir == claims / "mine.logs"
    assert bare["tg"].consistency == "not checkable" and bare["tg"].recomputed is None
    assert bare["tg"].notes[-1] == (
        "log: llama_bench_b11434.jsonl not checked "
        "(no --logs folder given and no bare.logs/ folder beside bare.yaml)"
    )
    # a claims file named on the command line without --logs reads its folder the same way
    assert by_id(run.audit_file(claims / "mine.yaml"))["tg-bad"].consistency == "inconsistent"


def test_a_claims_log_that_was_not_read_or_is_missing_says_which(tmp_path):
    """A `log:` naming a file listed as not read, or no file at all, said "no decode_tps entry in X"
    (breaker finding 11): the note now gives the reason the file was skipped, or the files read."""
    from benchbook.audit import run
    from benchbook.audit.verdicts import Here

    logs_dir = tmp_path / "logs"
    logs_dir.mkdir()
    shutil.copy(Path(__file__).parent / "fixtures" / "ingest" / "llama_bench_b11434.jsonl", logs_dir)
    (logs_dir / "other.csv").write_text("date,gpu,price_usd\n2026,x,3\n")
    f = tmp_path / "c.yaml"
    f.write_text(
        "schema: benchbook.claims\nschema_version: 1\nsource: {kind: synthetic test}\nclaims:\n"
        "  - {id: b, metric: decode_tps, value: 27.5, unit: tok/s, log: other.csv}\n"
        "  - {id: d, metric: decode_tps, value: 27.5, unit: tok/s, log: nosuch.log}\n"
    )
    v = {x.id: x for x in run.audit_file(f, logs_dir, here=Here()).verdicts}
    assert (
        v["b"].notes[-1].startswith("log: other.csv not checked (other.csv was not read: a CSV with columns")
    )
    assert v["d"].notes[-1] == (
        "log: nosuch.log not checked (no file nosuch.log under the logs folder "
        "(read: llama_bench_b11434.jsonl))"
    )


def test_a_symbolic_link_out_of_the_logs_folder_is_never_read(tmp_path):
    """A contributed `X.logs/` folder with a symbolic link to a file of the builder's machine (a file
    or a folder link) was followed (fault catalogue, left by the breaker): the audit read whatever the
    link named.  Now it is skipped with its reason; a link to a file inside the folder is read."""
    secret = tmp_path / "secret"
    secret.mkdir()
    shutil.copy(FX / "ingest" / "llama_bench_b11434.jsonl", secret / "builder.jsonl")
    logs_dir = tmp_path / "c.logs"
    logs_dir.mkdir()
    (logs_dir / "out.jsonl").symlink_to(secret / "builder.jsonl")
    (logs_dir / "sub").symlink_to(secret, target_is_directory=True)
    shutil.copy(FX / "ingest" / "llama_bench_b11434.jsonl", logs_dir / "own.jsonl")
    (logs_dir / "same.jsonl").symlink_to(logs_dir / "own.jsonl")  # inside the folder: read
    lg = logs.audit_logs(logs_dir)
    why = (
        "a symbolic link to a file outside the logs folder: not read (a contributed folder must not read "
        "the builder's files); fix: copy the log itself into the folder"
    )
    assert {k: v for k, v in lg.skipped.items() if v == why} == {"out.jsonl": why}
    # a folder link is not walked at all (pathlib's rglob follows no folder link): nothing of it read
    assert sorted({e.file for e in lg.entries}) == ["own.jsonl", "same.jsonl"]
