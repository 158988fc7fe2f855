"""llama-server runner against the real b11434 binary and the real default model (a few tokens each).

Skipped with a reason when the toolchain or the model is not in the cache
(`benchbook toolchain build`, then any measurement stage fetches the model).
"""

from __future__ import annotations

import json
import socket
import threading
from pathlib import Path

import pytest

from benchbook.experiments.speculative import run as spec_run
from benchbook.llamacpp import draft_models as dm
from benchbook.llamacpp import server as S
from benchbook.records import read_records
from conftest import cached_server_env, stand_in_host

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def env():
    return cached_server_env()


def _argv(env, **kw):
    return S.build_argv(env["bin"], kw.pop("model", env["model"]["path"]), threads=2, ctx_size=512, **kw)


def test_start_complete_metrics_stop(env, tmp_path):
    srv = S.LlamaServer(_argv(env), tmp_path / "s.log", health_timeout_s=60)
    with srv:
        assert srv.alive() and srv.port and srv.argv[-4:] == ["--host", "127.0.0.1", "--port", str(srv.port)]
        text = srv.apply_template([{"role": "user", "content": "Say hi."}])
        assert "<|im_start|>user" in text
        m0 = srv.metrics()
        res, peak = srv.completion(spec_run.completion_body(text, 4))
        d = S.metrics_delta(m0, srv.metrics())
    assert not srv.alive() and srv.proc.returncode is not None
    assert res["timings"]["predicted_n"] <= 4 and len(res["tokens"]) == res["timings"]["predicted_n"]
    assert res["stop_type"] in ("limit", "eos") and res["timings"]["cache_n"] == 0
    assert (
        res["generation_settings"]["temperature"] == 0 and res["generation_settings"]["repeat_penalty"] == 1
    )
    assert d["tokens_predicted_total"] == res["timings"]["predicted_n"]
    assert peak > 10 * 2**20  # the model is mapped: tens of MiB at least
    assert "--metrics" in srv.argv and "-np" in srv.argv
    # this build logs "srv  llama_server: listening on http://127.0.0.1:<port>" once the model is loaded
    assert f"listening on http://127.0.0.1:{srv.port}" in (tmp_path / "s.log").read_text()
    assert srv.load_ms > 0


def test_nonexistent_model_is_a_start_failure_with_log_tail(env, tmp_path):
    srv = S.LlamaServer(
        _argv(env, model=tmp_path / "missing.gguf"), tmp_path / "bad.log", health_timeout_s=30
    )
    with pytest.raises(S.ServerError) as ei:
        srv.start()
    assert ei.value.kind == "start_failed" and ei.value.returncode not in (None, 0)
    assert "missing.gguf" in ei.value.log_tail


def test_bad_flag_is_a_start_failure(env, tmp_path):
    srv = S.LlamaServer(_argv(env, extra=["--no-such-flag"]), tmp_path / "flag.log")
    with pytest.raises(S.ServerError) as ei:
        srv.start()
    assert ei.value.kind == "start_failed" and "no-such-flag" in ei.value.log_tail


def test_port_in_use_gets_another_port(env, tmp_path):
    with socket.socket() as blocker:
        blocker.bind(("127.0.0.1", 0))
        blocker.listen(1)
        taken = blocker.getsockname()[1]
        with S.LlamaServer(_argv(env), tmp_path / "p.log", port=taken) as srv:
            assert srv.port != taken and srv.alive()


def test_request_timeout_and_kill_mid_request(env, tmp_path):
    with S.LlamaServer(_argv(env), tmp_path / "t.log") as srv:
        text = srv.apply_template([{"role": "user", "content": "Count from 1 to 500."}])
        body = {**spec_run.completion_body(text, 400), "ignore_eos": True}
        with pytest.raises(S.ServerError) as ei:
            srv.request("POST", "/completion", body, timeout=0.3)
        assert ei.value.kind == "request_timeout"
        killer = threading.Timer(0.5, srv.kill)
        killer.start()
        with pytest.raises(S.ServerError) as ei:
            srv.completion(body, timeout=60)
        killer.join()
        assert ei.value.kind == "crashed" and not srv.alive()


def test_vocab_mismatch_is_refused_before_any_run(env, tmp_path):
    src = env["model"]["path"]
    good = dm.truncate_layers(src, tmp_path / "first2.gguf", 2)
    assert dm.block_count(good["path"]) == 2 and good["tensors"] < 272
    assert dm.check_vocab(src, good["path"])["n_vocab"] == 49152
    toks = dm.vocab_fingerprint(src)
    import gguf

    tokens = list(gguf.GGUFReader(good["path"]).fields["tokenizer.ggml.tokens"].contents())
    tokens[100] = tokens[100] + "_x"
    bad = dm.truncate_layers(
        good["path"], tmp_path / "badvocab.gguf", 1, mutate={"tokenizer.ggml.tokens": tokens}
    )
    with pytest.raises(dm.DraftModelError, match="different vocabulary"):
        dm.check_vocab(src, bad["path"])
    cfg = {
        "configs": [{"id": "x", "spec_type": "draft-simple", "draft": "bad"}],
        "drafts": {"bad": {"path": bad["path"], "id": "badvocab"}},
    }
    with pytest.raises(dm.DraftModelError):
        spec_run.resolve_drafts(cfg, {**env["model"]}, lambda mid: None)
    assert toks["tokens_sha256"] != dm.vocab_fingerprint(bad["path"])["tokens_sha256"]
    with pytest.raises(dm.DraftModelError, match="n_layers"):
        dm.truncate_layers(good["path"], tmp_path / "x.gguf", 2)


def test_session_continues_after_a_failed_config_and_keeps_records(env, tmp_path):
    """A layer-truncated draft loads and runs; a config whose server cannot start is recorded as
    failed with its log tail; the others complete; nothing is lost; a rerun resumes nothing twice."""
    host = stand_in_host()
    trunc = dm.truncate_layers(env["model"]["path"], tmp_path / "first4.gguf", 4)
    drafts = {"t4": {"model_id": "trunc4", "path": trunc["path"], "sha256": trunc["sha256"]}}
    cfg = {
        "repetitions": 1,
        "threads": 2,
        "ctx_size": 512,
        "n_min": 0,
        "p_min": 0.0,
        "health_timeout_s": 60,
        "request_timeout_s": 60,
        "cost_model": None,
        "drafts": {"t4": {"truncate_layers": 4}},  # a config's draft is a key of drafts (SpeculativeParams)
        "configs": [
            {"id": "baseline", "spec_type": "none", "policy": "fresh"},
            {"id": "broken", "spec_type": "none", "policy": "fresh", "extra_args": ["--no-such-flag"]},
            {"id": "t4-n2", "spec_type": "draft-simple", "draft": "t4", "n_max": 2, "policy": "fresh"},
        ],
    }
    prompts = [{"id": "p", "cap": 3, "messages": [{"role": "user", "content": "Hi"}]}]
    raw = tmp_path / "raw" / "x.jsonl"
    res = spec_run.run_session(
        cfg=cfg,
        server_bin=env["bin"],
        bench_bin=None,
        target=env["model"],
        drafts=drafts,
        prompts=prompts,
        toolchain=env["toolchain"],
        host=host,
        root=ROOT,
        raw_file=raw,
        log_dir=tmp_path / "logs",
        log=lambda *_: None,
    )
    assert res.ran == 2 and res.failed == 1 and res.failures[0]["run"] == "broken r0 p"
    ok = read_records([raw], spec_run.SCHEMA)
    bad = read_records([raw], "benchbook.run_failed")
    assert {r["config"]["config_id"] for r in ok} == {"baseline", "t4-n2"}
    assert bad[0]["kind"] == "start_failed" and "no-such-flag" in bad[0]["log_tail"]
    spec = next(r for r in ok if r["config"]["config_id"] == "t4-n2")
    assert "-md" in spec["argv"] and spec["draft_model_sha256"] == trunc["sha256"]
    # a fresh server per request: its counters start at 0 and count this request's drafts only
    drafts = spec["metrics_after"]["spec_decode_num_drafts_total"]
    assert spec["metrics_before"]["spec_decode_num_drafts_total"] == 0 and drafts >= 1
    assert spec["verify_steps"] == drafts and spec["tokens"]
    assert spec["metrics_after"]["spec_decode_num_draft_tokens_total"] == spec["timings"]["draft_n"]
    for r in ok:
        for k in (
            "run_id",
            "run_key",
            "session_id",
            "argv",
            "host_id",
            "toolchain_id",
            "model_sha256",
            "git_commit",
            "started_at",
            "ended_at",
            "timings",
            "stop_type",
            "cap",
            "tokens",
            "content_sha256",
            "metrics_before",
            "metrics_after",
            "peak_rss_bytes",
            "generation_settings",
            "request",
        ):
            assert k in r, k
    assert json.loads(raw.read_text().splitlines()[-1])["event"] == "end"
