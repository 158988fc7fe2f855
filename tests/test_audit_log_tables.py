"""Other people's raw logs get the whole engine (issue 28, kinds 2, 3, 4 and 7): the log tables carry
the native tables' columns so every rule applies, a log entry exposes every value it states with its
definition, rates follow the definition the log prints, and acceptance definitions are never mixed.

Fixtures: ``tests/fixtures/audit/logs28/<name>.yaml`` beside its logs in ``<name>.logs/`` (README)."""

import shutil
from pathlib import Path

import pytest

from benchbook import caveats
from benchbook.audit import logs, run
from benchbook.audit.schema import ClaimsError
from benchbook.audit.verdicts import Here
from benchbook.experiments.llama_bench import analysis as lb_analysis
from benchbook.experiments.llama_bench import spread
from benchbook.experiments.speculative import analysis as spec_analysis
from benchbook.ingest.settings import Setting, context_settings

ROOT = Path(__file__).resolve().parents[1]
FX = Path(__file__).parent / "fixtures"
L28 = FX / "audit" / "logs28"


def audit(name: str, logs_dir: Path | None = None):
    return run.audit_file(L28 / f"{name}.yaml", logs_dir, here=Here())


def by_id(a) -> dict:
    return {v.id: v for v in a.verdicts}


def checks(v) -> list[str]:
    return [q.check for q in v.qualifiers]


def applied(table, kind: str) -> set[str]:
    _, status = caveats.evaluate(table, kind)
    return {r for r, s in status.items() if s == "applied"}


# --- kind 2: a log table is the same table as a native one ---------------------------------------


@pytest.fixture(scope="module")
def native_tables():
    rows = lb_analysis.load_llama_bench(ROOT / "data" / "raw" / "llama_bench")
    lb = spread.with_session_spread(lb_analysis.rate_stats(rows), rows)
    spec = spec_analysis.config_table(spec_analysis.load_requests(ROOT / "data" / "raw" / "speculative"))
    return lb, spec


def test_every_rule_of_a_native_table_applies_to_a_log_table(tmp_path, native_tables):
    for f in (
        "ingest/llama_bench_b11434.jsonl",
        "ingest/llama_server_spec_b11434.log",
        "ingest/llama_server_warm_b11434.log",
        "speculative/completion_baseline.json",
        "speculative/completion_draft_self_n4.json",
    ):
        shutil.copy(FX / f, tmp_path)
    lg = logs.audit_logs(tmp_path, {"completion_draft_self_n4.json": "completion_baseline.json"})
    native_lb, native_spec = native_tables
    # before issue 28: 7 of the native llama-bench table's 12 rules, 6 of the speculative table's 13
    # (14 llama-bench rules since cold_label_untrusted, issue 33 §5, and order_trend, issue 28 §6: each
    # applies to both at once)
    assert applied(lg.llama_bench, "llama_bench") == applied(native_lb, "llama_bench")
    assert applied(lg.speculative, "speculative") == applied(native_spec, "speculative")
    assert len(applied(native_lb, "llama_bench")) == 14 and len(applied(native_spec, "speculative")) == 14


def test_cold_first_sample_and_unresolved_placement_on_a_llama_bench_log():
    a = audit("bench")
    v = by_id(a)
    cold = v["llama_bench_ncmoe.jsonl:1"]
    # tg32 rates 12.0, 30.0, 30.5, 30.2, 29.9: first 12.0 / median(30.0, 30.5, 30.2, 29.9) = 12 / 30.1
    # = 0.399 < 0.5; -ncmoe 20 with no expert override: the placement is unresolved
    row = a.logs.llama_bench.row(0, named=True)
    assert row["first_sample_ratio"] == pytest.approx(0.3987, abs=1e-4)
    assert row["mean_tps_rest"] == pytest.approx(30.15, abs=1e-6)
    assert checks(cold) == ["high_variance", "cold_start", "placement_unresolved"]
    placement = cold.qualifiers[2]
    assert placement.kind == "not comparable"
    assert placement.reason.startswith("``-ncmoe N`` without the tensor overrides it resolved to")
    # the clean control: 40.0 / median(41.0, 42.9, 43.0, 42.8) = 40 / 42.85 = 0.933; -ncmoe 0
    assert a.logs.llama_bench.row(1, named=True)["first_sample_ratio"] == pytest.approx(0.9335, abs=1e-4)
    assert checks(v["llama_bench_ncmoe.jsonl:2"]) == []


def test_a_log_request_served_from_the_prompt_cache_is_warm(tmp_path):
    shutil.copy(FX / "ingest" / "llama_server_warm_b11434.log", tmp_path)
    a = audit("bench", tmp_path)
    v = by_id(a)
    # request 2 evaluated 73 of its 809 prompt tokens: 840 - 32 + 1 = 809, 809 - 73 = 736 from the cache
    assert checks(v["llama_server_warm_b11434.log:10"]) == ["single_run", "warm_prompt_cache"]
    assert checks(v["llama_server_warm_b11434.log:5"]) == ["single_run"]  # control: all 809 evaluated
    row = a.logs.speculative.filter(a.logs.speculative["config_id"] == "llama_server_warm_b11434.log:10")
    assert row["cache_n_max"].item() == 736 and row["warm_share"].item() == pytest.approx(736 / 809)


def test_a_temperature_08_log_is_no_output_mismatch():
    v = by_id(audit("sampler"))
    hot = v["completion_t08_spec.json:1"]
    # its tokens differ from the baseline's from the 4th on, but it samples at temperature 0.8
    assert "output_mismatch" not in checks(hot)
    assert (
        "outputs differ from the baseline's; not checked: the sampler is not greedy "
        "(temperature 0.8, top_k 40), so they may differ by design"
    ) in hot.notes
    # the control: the same outputs at temperature 0, top_k 1 are a mismatch
    assert "output_mismatch" in checks(v["completion_t0_spec.json:1"])


def test_tau_acceptance_and_their_definitions_in_the_log_table():
    a = audit("settings")
    row = a.logs.speculative.row(0, named=True)
    # draft acceptance = 0.62500 (60 accepted / 96 generated), mean len 2.82: 33 verify steps
    # (1 + 60/33 = 2.818); build 11434 counts drafts sent to verification ("tested")
    assert (row["alpha"], row["tau"], row["verify_steps"], row["drafted"], row["accepted"]) == (
        0.625,
        2.82,
        33,
        96,
        60,
    )
    assert row["acceptance_definition"] == "tested" and row["rate_definition"] == "(n-1)/ms"


# --- kind 3: every value of a log entry is checkable against claims -----------------------------


def test_every_value_of_a_server_log_is_checked_against_claims():
    v = by_id(audit("settings"))
    # 60 / 96 = 0.625; mean len 2.82 (tau and mean acceptance length are one number); 100 tokens / 250 ms
    # = 400 tok/s; 157 / 1570 ms = 100.00 tok/s ((n-1)/ms, as printed); total time 1820 ms = 1.82 s
    expected = {
        "alpha": "0.625",
        "tau": "2.820",
        "mal": "2.820",
        "pp": "400.000",
        "tg": "100.000",
        "total": "1.820",
    }
    for cid, value in expected.items():
        assert (v[cid].consistency, v[cid].recomputed) == ("consistent", value), cid
        assert "needs" not in checks(v[cid])  # the log holds the counts behind the acceptance rate
    assert v["tau"].arithmetic == (
        "tau recomputed from server_ub4096.log: 2.820 tokens; definition: the log's mean len 2.82: "
        "1 + accepted ÷ verify steps (tokens per verify step, the verifier's own token counted)"
    )
    assert v["pp"].arithmetic.endswith(
        "definition: 100 tokens / 250 ms: prompt tokens evaluated ÷ prompt eval time "
        "(tokens served from the cache not counted)"
    )


def test_a_requested_setting_the_context_changed_is_flagged():
    v = by_id(audit("settings"))
    # -ub 4096 on the command line (line 1); llama_context: n_ubatch = 2048 (line 8, cut to n_batch);
    # -fa auto resolved to enabled is no difference
    entry = v["server_ub4096.log:14"]
    settings = [q for q in entry.qualifiers if q.check == "settings"]
    assert [(q.kind, q.reason, q.evidence) for q in settings] == [
        (
            "not comparable",
            "n_ubatch: requested 4096, the context used 2048",
            ["server_ub4096.log:1", "server_ub4096.log:8"],
        )
    ]
    assert "settings" in checks(v["tg"])  # and a claim checked against the log carries it
    # llama-sweep-bench prints the requested parameters in its header (line 6), the context its own (3)
    sweep = by_id(audit("sweep"))
    assert [q.reason for q in sweep["sweep_ub4096.log:10:tg512"].qualifiers] == [
        "n_ubatch: requested 4096, the context used 2048"
    ]
    assert sweep["sweep-tg"].consistency == "consistent"


def test_context_settings_read_requested_and_effective_values():
    text = (FX / "audit" / "logs28" / "settings.logs" / "server_ub4096.log").read_text()
    assert context_settings(text) == {
        "n_batch": Setting("n_batch", 2048, 1, 2048, 7),
        "n_ubatch": Setting("n_ubatch", 4096, 1, 2048, 8),
        "flash_attn": Setting("flash_attn", "auto", 1, "on", 10),
    }
    # the control: a log whose command asked for what the context used has no difference
    assert not any(s.differs for s in context_settings(text.replace("-ub 4096", "-ub 2048")).values())


# --- kind 4: rate definitions are named -----------------------------------------------------------


def test_a_claim_equal_to_what_the_log_prints_is_consistent():
    v = by_id(audit("rate"))
    # eval time = 2500.00 ms / 300 tokens (..., 120.00 tokens per second): this build prints n/ms;
    # (n-1)/ms would give 299 / 2.5 = 119.60
    assert (v["tg-as-printed"].consistency, v["tg-as-printed"].recomputed) == ("consistent", "120.000")
    assert v["tg-as-printed"].arithmetic == (
        "decode_tps recomputed from server_n_over_ms.log: 120.000 tok/s; definition: 300 tokens / 2500 ms "
        "= 120.00 tok/s (rate definition n/ms: every generated token (or counted run) ÷ eval time, as the "
        "log prints it; (n-1)/ms gives 119.60)"
    )
    assert v["tg-other-definition"].consistency == "inconsistent"  # 119.60 is not what this log prints


def test_every_log_verdict_on_a_rate_names_its_definition(tmp_path):
    for f in ("ingest/llama_bench_b11434.jsonl", "ingest/llama_server_spec_b11434.log"):
        shutil.copy(FX / f, tmp_path)
    v = by_id(audit("bench", tmp_path))
    # b11434 prints 27.38 tokens per second for 1132.38 ms / 32 tokens: 31 / 1.13238 s, (n-1)/ms
    spec = v["llama_server_spec_b11434.log:12"]
    assert spec.recomputed == "27.376"
    assert spec.arithmetic == (
        "31 tokens / 1132.38 ms = 27.38 tok/s (rate definition (n-1)/ms: generated tokens but the first "
        "(it comes out of the prompt pass) ÷ eval time, as the log prints it; n/ms gives 28.26)"
    )
    for x in v.values():
        if x.kind == "log" and x.recomputed is not None:
            assert "definition" in (x.arithmetic or ""), x.id


# --- kind 7: acceptance definitions ---------------------------------------------------------------


def test_acceptance_of_other_definitions_is_never_ranked_as_equal():
    v = by_id(run.audit_file(FX / "audit" / "acceptance_definitions.yaml", here=Here()))
    for sid, first in (("vllm-vs-llama", "system_efficiency"), ("anypos-vs-llama", "any_position")):
        q = next(q for q in v[sid].qualifiers if q.check == "acceptance_definition_mismatch")
        assert (q.kind, q.reason) == (
            "not comparable",
            f"acceptance of two definitions, {first} vs tested (audit.acceptance.DEFINITIONS): "
            "not one quantity",
        )
    # control: one definition on both sides (60 of 96 vs 48 of 96 are small counts: Fisher p >= 0.05)
    assert checks(v["llama-vs-llama"]) == ["small_counts"]
    # vLLM's system efficiency checked against its own counts: 250 / (60 + 240) = 0.8333 ~ 0.833
    vllm = v["acc-vllm"]
    assert (vllm.consistency, vllm.recomputed) == ("consistent", "0.833")
    assert "needs" not in checks(vllm)
    assert any("llama.cpp's α = (emitted 250 - steps 60) / drafted 240 = 0.7917" in n for n in vllm.notes)


def test_acceptance_is_judged_in_its_own_definition_not_as_accepted_over_drafted(tmp_path):
    # before: all three read "inconsistent (major overstatement ...)" against 60 / 96 = 0.625
    claims = tmp_path / "acc.yaml"
    other = "acceptance_definition: system_efficiency"
    counts = "counts: {accepted: 60, drafted: 96}"
    claims.write_text(
        "schema: benchbook.claims\nschema_version: 1\nsource: {kind: synthetic test}\nclaims:\n"
        f"  - {{id: se, metric: acceptance_rate, value: 0.72, unit: ratio, method: vllm, {counts}, "
        f"conditions: {{other: {{{other}}}}}}}\n"
        f"  - {{id: se2, metric: acceptance_rate, value: 0.72, unit: ratio, method: vllm, {counts}, "
        f"conditions: {{other: {{{other}, verify_steps: 33, emitted_tokens: 93}}}}}}\n"
        f"  - {{id: se3, metric: acceptance_rate, value: 0.60, unit: ratio, method: vllm, {counts}, "
        f"conditions: {{other: {{{other}, verify_steps: 33, emitted_tokens: 93}}}}}}\n"
        f"  - {{id: ap, metric: acceptance_rate, value: 0.80, unit: ratio, method: other-engine, {counts}, "
        "conditions: {other: {acceptance_definition: any_position}}}\n"
        # control: llama.cpp's own definition is still accepted / drafted
        f"  - {{id: ll, metric: acceptance_rate, value: 0.72, unit: ratio, {counts}, "
        "conditions: {other: {acceptance_definition: tested}}}\n"
    )
    v = by_id(run.audit_file(claims, here=Here()))
    # system efficiency from its own counts: (60 + 33) / (33 + 96) = 93 / 129 = 0.7209
    assert (v["se2"].consistency, v["se2"].recomputed, v["se2"].arithmetic) == (
        "consistent",
        "0.721",
        "system efficiency = (accepted 60 + steps 33) / (steps 33 + drafted 96) = 0.7209 "
        "(emitted ÷ steps × (k + 1))",
    )
    # an inconsistent one in its own definition is sized like accepted / drafted (allowed 0.595-0.605)
    se3 = v["se3"]
    assert (se3.consistency, se3.allowed_lo, se3.allowed_hi, se3.severity) == (
        "inconsistent",
        0.595,
        0.605,
        "major understatement",
    )
    assert se3.miss == pytest.approx(93 / 129 - 0.605)
    # the definition cannot be computed from accepted / drafted: not checkable, with the reason
    assert (v["se"].consistency, v["se"].recomputed) == ("not checkable", None)
    assert v["se"].notes[0] == (
        "not checkable: system_efficiency (emitted ÷ (steps × (k + 1))) cannot be computed from "
        "accepted ÷ drafted alone; state emitted_tokens and verify_steps in conditions.other"
    )
    assert (v["ap"].consistency, v["ap"].recomputed) == ("not checkable", None)
    assert v["ap"].notes[0] == (
        "not checkable: any_position cannot be computed from accepted ÷ drafted (it also counts matches "
        "after the first mismatch, which the counts do not give)"
    )
    # control: llama.cpp's definition against 60 / 96 = 0.625 stays inconsistent
    assert (v["ll"].consistency, v["ll"].recomputed) == ("inconsistent", "0.625")


def test_another_engines_acceptance_against_a_llama_cpp_log():
    v = by_id(audit("settings"))
    # system efficiency from the log's counts: (60 + 33) / (33 + 96) = 0.7209, stated 0.72: consistent
    # (before: its 0.72 was never compared; ranked against 0.625 it would read "inconsistent")
    vllm = v["alpha-vllm"]
    assert (vllm.consistency, vllm.recomputed) == ("consistent", "0.721")
    # any-position matches cannot be recomputed from a llama.cpp log: not checkable, not comparable
    anypos = v["alpha-anypos"]
    assert anypos.consistency == "not checkable"
    assert "acceptance_definition_mismatch" in checks(anypos)


def test_impossible_counts_are_refused_with_file_and_line(tmp_path):
    with pytest.raises(
        ClaimsError, match=r"impossible_emitted\.yaml:6: emitted_tokens 20 with verify_steps 30"
    ):
        audit("impossible_emitted")
    with pytest.raises(
        logs.LogsError,
        # the line of draft_n_accepted in the pretty-printed response (ingest.responses reads it)
        match=r"completion_accepted_gt_drafted\.json:157: timings count 14 accepted of 12 drafted",
    ):
        audit("counts")


def test_llama_cli_sampling_share_and_durations_are_checkable(tmp_path):
    logs_dir = tmp_path / "logs"
    logs_dir.mkdir()
    (logs_dir / "cli.log").write_text(
        "llama_perf_sampler_print:    sampling time =      12.50 ms /    50 runs   (    0.25 ms per token,"
        "  4000.00 tokens per second)\n"
        "llama_perf_context_print:        load time =     500.00 ms\n"
        "llama_perf_context_print: prompt eval time =     100.00 ms /    10 tokens (   10.00 ms per token,"
        "   100.00 tokens per second)\n"
        "llama_perf_context_print:        eval time =     500.00 ms /    49 runs   (   10.20 ms per token,"
        "    98.00 tokens per second)\n"
        "llama_perf_context_print:       total time =     620.00 ms /    59 tokens\n"
    )
    claims = tmp_path / "c.yaml"
    claims.write_text(
        "schema: benchbook.claims\nschema_version: 1\nsource: {kind: synthetic test}\nclaims:\n"
        "  - {id: share, metric: sampling_share, value: 2.5, unit: '%', log: cli.log}\n"
        "  - {id: eval, metric: eval_ms, value: 0.5, unit: s, log: cli.log}\n"
        "  - {id: tg, metric: decode_tps, value: 98.0, unit: tok/s, log: cli.log}\n"
    )
    v = by_id(run.audit_file(claims, logs_dir, here=Here()))
    # sampling 12.50 ms / eval 500.00 ms = 0.025 = 2.5 %; eval 500 ms = 0.5 s; 49 runs / 0.5 s = 98.00
    assert (v["share"].consistency, v["share"].recomputed) == ("consistent", "2.500")
    assert (v["eval"].consistency, v["eval"].recomputed) == ("consistent", "0.500")
    assert (v["tg"].consistency, v["tg"].recomputed) == ("consistent", "98.000")
    assert "rate definition n/ms" in v["tg"].arithmetic


def test_a_llama_bench_list_requests_no_one_setting():
    """``-fa 0,1`` read as "on" (then "settings differ" beside a ``flash_attn = 0`` context line):
    a list asks for every value, so no one value is requested (breaker finding 15)."""
    from benchbook.ingest.settings import _command_flags

    assert _command_flags("llama-bench -m x.gguf -fa 0,1 -ub 256,512 -b 2048") == {"n_batch": 2048}
    assert _command_flags("llama-server -m x.gguf -fa -ub 512") == {"flash_attn": "on", "n_ubatch": 512}
