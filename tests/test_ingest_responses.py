"""Saved llama-server responses (issue 28 §8): /completion responses and exchanges, OpenAI-compatible
chat responses with ``timings`` and ``usage``, client records beside the server's timings; and files in
``--logs`` that are no llama.cpp output at all (§9), listed as not read with their reason."""

import shutil
from pathlib import Path

import pytest

from benchbook import ingest
from benchbook.audit import run
from benchbook.audit.verdicts import Here
from benchbook.ingest import IngestError

FX = Path(__file__).parent / "fixtures"
HEAD = "schema: benchbook.claims\nschema_version: 1\nsource: {kind: synthetic test}\n"


def test_exchanges_with_client_records_name_the_queue_and_the_end_to_end_rate():
    queued, calm = ingest.ingest_file(FX / "ingest" / "server_responses_client.jsonl")
    assert queued["source_format"] == "server-json" and queued["source_lines"] == [1]
    t = queued["timings"]
    assert (t["prompt_ms"], t["predicted_n"], t["predicted_ms"]) == (200.0, 101, 5000.0)
    assert (t["draft_n"], t["draft_n_accepted"]) == (80, 60)
    # sent 10:00:00.000, first content 10:00:30.300, done 10:00:35.300 (client clock)
    assert queued["client"]["done_ms"] == pytest.approx(35300.0)
    assert queued["client"]["first_content_ms"] == pytest.approx(30300.0)
    assert queued["request"] == {
        "prompt": "Write add(a, b) in Python.",
        "n_predict": 128,
        "temperature": 0,
        "top_k": 1,
    }
    assert queued["cap"] == 128 and queued["cap_hit"] is False and queued["stop_type"] == "eos"
    # server time 0.2 + 5.0 = 5.2 s; the client waited 35.3 s: 30.1 s more; 101 tokens / 35.3 s = 2.86 tok/s
    assert queued["ingest_notes"] == [
        "client time exceeds server time by 30.1 s (prompt eval 0.2 s): load or queue",
        "client: first content after 30.3 s (server prompt eval 0.2 s)",
        "end-to-end rate 2.86 tok/s (101 tokens / 35.3 s from request sent to done, client clock: queue, "
        "prompt and generation together; not generation speed)",
    ]
    # control: 5.25 s against 5.2 s of server work (50 ms of HTTP): no queue named
    assert not any("exceeds" in n for n in calm["ingest_notes"])
    assert calm["ingest_notes"][-1].startswith("end-to-end rate 19.24 tok/s (101 tokens / 5.2 s")
    assert queued["prompt_id"] == calm["prompt_id"]  # the same prompt: one sha256


def test_openai_chat_responses_in_an_array_with_timings_and_usage():
    a, b = ingest.ingest_file(FX / "ingest" / "oai_chat_responses.json")
    assert (a["source_line"], b["source_line"]) == (2, 36)  # where each element starts
    assert (a["build_number"], a["build_commit"]) == (4641, "9f4cc8f8")  # system_fingerprint b4641-9f4cc8f8
    assert (
        a["content"] == "Paris." and a["cap_hit"] is True and a["stop_type"] == "limit"
    )  # finish_reason length
    assert b["cap_hit"] is False and "stop_type" not in b  # finish_reason stop: eos or a stop word, unknown
    assert (a["timings"]["draft_n"], a["timings"]["draft_n_accepted"]) == (40, 30)
    assert a.get("inconsistent") is None  # usage agrees with timings (64 completion, 12 prompt tokens)


def test_response_checks_refuse_impossible_counts_and_flag_usage(tmp_path):
    p = tmp_path / "r.json"
    p.write_text(
        '{"timings": {"prompt_n": 5, "prompt_ms": 10.0, "predicted_n": 9, "predicted_ms": 80.0, '
        '"draft_n": 4, "draft_n_accepted": 6}}\n'
    )
    with pytest.raises(IngestError, match=r"r\.json:1: timings count 6 accepted of 4 drafted"):
        ingest.ingest_file(p)
    p.write_text(
        '{"usage": {"completion_tokens": 10, "prompt_tokens": 5}, "choices": [], '
        '"timings": {"prompt_n": 5, "prompt_ms": 10.0, "predicted_n": 9, "predicted_ms": 80.0}}\n'
    )
    (r,) = ingest.ingest_file(p)
    assert r["inconsistent"] == ["line 1: usage.completion_tokens 10 but timings.predicted_n 9"]
    p.write_text(
        '{"request": {}, "response": {"timings": {"prompt_n": 5, "prompt_ms": 10.0}}, '
        '"client": {"sent": 10.0, "done": 9.0}}\n'
    )
    with pytest.raises(IngestError, match=r"r\.json:1: client\.done comes 1\.000 s before client\.sent"):
        ingest.ingest_file(p)


def test_audit_checks_a_claim_against_the_servers_rate_never_the_client_wall_rate(tmp_path):
    d = tmp_path / "logs"
    d.mkdir()
    shutil.copy(FX / "ingest" / "server_responses_client.jsonl", d)
    claims = tmp_path / "c.yaml"
    claims.write_text(
        HEAD + "claims:\n"
        "  - {id: gen, metric: decode_tps, value: 20.0, unit: tok/s, log: server_responses_client.jsonl}\n"
        "  - {id: e2e, metric: decode_tps, value: 2.86, unit: tok/s, log: server_responses_client.jsonl}\n"
    )
    v = {x.id: x for x in run.audit_file(claims, d, here=Here()).verdicts}
    # the server's decode rate: (101 - 1) tokens / 5.0 s = 20.0 tok/s for both requests
    assert v["gen"].consistency == "consistent" and v["gen"].recomputed == "20.000"
    assert v["e2e"].consistency == "inconsistent" and v["e2e"].recomputed == "20.000"
    entry = v["server_responses_client.jsonl:1"]
    assert entry.recomputed == "20.000"
    assert (
        "ingest: client time exceeds server time by 30.1 s (prompt eval 0.2 s): load or queue" in entry.notes
    )


def test_foreign_files_in_logs_are_listed_not_read_and_never_abort(tmp_path):
    claims = tmp_path / "c.yaml"
    claims.write_text(HEAD + "claims: []\n")
    a = run.audit_file(claims, FX / "audit" / "logs_foreign", here=Here())
    v = {x.id: x for x in a.verdicts}
    assert v["llama_server_spec_b11434.log:12"].recomputed == "27.376"  # the real log is still read
    got = {k: v[k].notes for k in ("gpu_prices.csv", "notes.json", "summary.md", "vllm_response.json")}
    assert got == {
        "gpu_prices.csv": [
            "not read: a CSV with columns date, gpu, price_usd: not llama-bench output (llama-bench's CSV "
            "header names build_commit, n_prompt, n_gen, avg_ts ...)"
        ],
        "notes.json": [
            "not read: a JSON file with no llama-bench rows and no llama-server responses (keys: "
            "author, notes)"
        ],
        "summary.md": ["not read: lines 3-5: table with columns GPU, speed: not llama-bench output"],
        "vllm_response.json": [
            "not read: OpenAI-compatible responses without llama-server 'timings': no server prompt or "
            "generation times in them (another engine, or a server build before 'timings')"
        ],
    }
    assert all(v[k].consistency == "not checkable" for k in got)


def test_malformed_llama_cpp_output_still_fails_the_audit(tmp_path):
    # control: a torn llama-bench JSON is llama.cpp output with a fault, not a foreign file
    d = tmp_path / "logs"
    d.mkdir()
    (d / "bench.json").write_text('[{"n_prompt": 512, "n_gen": 0, "avg_ts": 1.0,\n')
    claims = tmp_path / "c.yaml"
    claims.write_text(HEAD + "claims: []\n")
    with pytest.raises(ValueError, match="bench.json"):
        run.audit_file(claims, d, here=Here())


RESPONSE = '{"timings": {"prompt_n": 10, "prompt_ms": 100.0, "predicted_n": 50, "predicted_ms": 1000.0}}'


def test_a_torn_last_response_line_is_named_and_the_complete_lines_read(tmp_path):
    # before: the whole file "not read: a CSV with columns {"timings": {"prompt_n": 10, ..."
    d = tmp_path / "logs"
    d.mkdir()
    (d / "t2.jsonl").write_text(f"{RESPONSE}\n{RESPONSE}\n" + '{"timings": {"prompt_n": 10, "pro')
    claims = tmp_path / "c.yaml"
    claims.write_text(HEAD + "claims: []\n")
    a = run.audit_file(claims, d, here=Here())
    v = {x.id: x for x in a.verdicts}
    assert sorted(v) == ["t2.jsonl:1", "t2.jsonl:2", "t2.jsonl:3"]
    # (50 - 1) tokens / 1000 ms: llama-server's (n-1)/ms definition
    assert [v[k].recomputed for k in ("t2.jsonl:1", "t2.jsonl:2")] == ["49.000", "49.000"]
    assert (v["t2.jsonl:3"].consistency, v["t2.jsonl:3"].notes) == (
        "not checkable",
        [
            "not read: a torn last line (a response cut off mid-write: not JSON); the 2 complete responses "
            "before it read"
        ],
    )
    assert a.logs is not None and a.logs.skipped == {}
    assert a.logs.lines_not_read == {"t2.jsonl:3": next(iter(v["t2.jsonl:3"].notes))[len("not read: ") :]}


def test_json_is_never_called_a_csv():
    # a bad line in the middle: not a torn tail; named by its line, never "a CSV with columns {..."
    text = f"{RESPONSE}\n" + '{"timings": {"prompt_n": 10, "pro\n' + f"{RESPONSE}\n"
    assert ingest.foreign(text) == (
        "JSON lines naming llama.cpp fields whose line 2 does not decode (Unterminated string starting "
        "at: line 1 column 30 (char 29)); fix: save each response whole, one per line"
    )
    # control: complete JSON lines are responses, not foreign
    assert ingest.foreign(f"{RESPONSE}\n{RESPONSE}\n") is None
    # control: a real CSV is still named a CSV
    assert ingest.foreign("date,gpu,price_usd\n2026-01-01,x,1\n").startswith("a CSV with columns date, gpu")


def test_a_negative_time_in_a_response_is_refused(tmp_path):
    """A saved response with ``predicted_ms: -1000`` became a log entry of −49 tok/s (breaker finding
    17): a time or count below 0 is refused at its line."""
    p = tmp_path / "r.json"
    p.write_text(
        '{"timings": {\n  "prompt_n": 5,\n  "prompt_ms": 10.0,\n  "predicted_n": 50,\n'
        '  "predicted_ms": -1000.0\n}}\n'
    )
    with pytest.raises(
        IngestError, match=r"r\.json:5: timings\.predicted_ms is -1000\.0: a time or count below 0"
    ):
        ingest.ingest_file(p)
