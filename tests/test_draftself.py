"""Invariants of the draft-self decoder (issue 4), on tiny random float64 models."""

from __future__ import annotations

import json

import pytest
import torch

from benchbook import schemas
from benchbook.draftself import data, decode, experts
from benchbook.draftself.model import KVCache, ModelConfig, TinyLM, coreset, save
from benchbook.experiments.draftself import run

V, N = 40, 24
PROMPT = [5, 9, 3, 17, 22, 8]
torch.set_num_threads(1)  # tiny tensors: threads only add contention on a busy host


def tiny(seed: int = 0, dense: bool = False, vocab: int = V) -> TinyLM:
    torch.manual_seed(seed)
    m = TinyLM(
        ModelConfig(
            vocab_size=vocab,
            mask_id=1,
            d_model=32,
            n_layers=2,
            n_heads=2,
            dense=dense,
            d_ff=32,
            n_experts=8,
            top_k=2,
            d_expert=16,
            max_seq_len=128,
        )
    )
    with torch.no_grad():  # larger weights than the training init: peaked logits, varied routing
        for p in m.parameters():
            if p.dim() == 2:
                p.normal_(0, 0.4)
    return m.double().eval()


@pytest.fixture(scope="module", params=[False, True], ids=["moe", "dense"])
def model(request):
    return tiny(1, dense=request.param)


@pytest.fixture(scope="module")
def ar(model):
    return decode.generate_ar(model, PROMPT, N + 20).tokens


VARIANTS = [
    dict(k=k, verify_mode=v, threshold=t)
    for k in (1, 3, 8)
    for v in ("batched", "sequential")
    for t in (None, 0.95)
]


@pytest.mark.parametrize("kw", VARIANTS, ids=lambda kw: f"k{kw['k']}-{kw['verify_mode']}-{kw['threshold']}")
def test_lossless_equals_ar(model, ar, kw):
    res = decode.generate_draftself(model, PROMPT, N, **kw)
    assert res.tokens == ar[:N]


def test_coreset_on_draft_only_is_lossless(ar):
    m = tiny(1)
    ref = decode.generate_ar(m, PROMPT, N).tokens
    for mass in (0.3, 0.6, 0.9):
        res = decode.generate_draftself(m, PROMPT, N, 4, coreset=(mass, 2), coreset_apply="draft")
        assert res.tokens == ref
    both = decode.generate_draftself(m, PROMPT, N, 4, coreset=(0.3, 2), coreset_apply="both")
    assert len(both.tokens) == N  # may differ from AR: that is what gets measured


def _steps(res):
    return [s for s in res.steps if s["kind"] == "draftself"]


def test_oracle_and_always_wrong_drafters(model, ar):
    k = 4

    def oracle(eng, anchor, kk):
        i = len(eng.tokens) - len(PROMPT)
        return ar[i : i + kk], [1.0] * kk

    def wrong(eng, anchor, kk):
        i = len(eng.tokens) - len(PROMPT)
        return [(t + 1) % V for t in ar[i : i + kk]], [1.0] * kk

    res = decode.generate_draftself(model, PROMPT, N, k, drafter=oracle)
    assert res.tokens == ar[:N]
    assert all(s["accepted"] == k for s in _steps(res))
    res = decode.generate_draftself(model, PROMPT, N, k, drafter=wrong)
    assert res.tokens == ar[:N]
    assert all(s["accepted"] == 0 for s in _steps(res))
    assert len(_steps(res)) == N - 1


@pytest.mark.parametrize("verify_mode", ["batched", "sequential"])
def test_step_bookkeeping(model, verify_mode):
    k = 5
    res = decode.generate_draftself(model, PROMPT, N, k, verify_mode=verify_mode)
    steps = _steps(res)
    for i, s in enumerate(steps):
        assert 0 <= s["accepted"] <= len(s["proposed"]) <= k
        if i < len(steps) - 1:
            assert len(s["committed"]) == s["accepted"] + 1
        else:
            assert 1 <= len(s["committed"]) <= s["accepted"] + 1
        assert s["cache_len_after_draft"] == s["cache_len_before"]
        assert s["cache_len_after"] == s["cache_len_before"] + s["accepted"] + 1
        if verify_mode == "sequential":
            assert s["verify_passes"] == s["accepted"] + 1
        else:
            assert s["verify_passes"] == 1
    assert sum(len(s["committed"]) for s in res.steps) == N


def test_pass_counts(model):
    res = decode.generate_ar(model, PROMPT, N)
    assert len(res.passes) == 1 + (N - 1)
    res = decode.generate_draftself(model, PROMPT, N, 4)
    iterations = len(_steps(res))
    assert len(res.passes) == 1 + 2 * iterations
    assert [p.kind for p in res.passes].count("draft") == iterations


def _prefill_cache(model, tokens):
    eng = decode.Engine(model, 128)
    with torch.inference_mode():
        model(torch.tensor([tokens]), eng.cache)
    return eng.cache


@pytest.mark.parametrize(
    "kw",
    [
        dict(verify_mode="batched"),
        dict(verify_mode="sequential"),
        dict(verify_mode="batched", threshold=0.95),
    ],
)
def test_cache_invariants(model, kw):
    """Draft leaves the cache bit-for-bit unchanged; after verify+rollback it equals a fresh prefill."""
    snaps = {}

    def drafter(eng, anchor, k):
        before = (eng.cache.length, eng.cache.k.clone(), eng.cache.v.clone())
        out = decode.draft_block(eng, anchor, k, kw.get("threshold"))
        assert eng.cache.length == before[0]
        assert torch.equal(eng.cache.k, before[1]) and torch.equal(eng.cache.v, before[2])
        return out

    def hook(eng, stage):
        if stage == "verify":
            L = eng.cache.length
            assert L == len(eng.tokens) - 1  # everything committed except the new anchor
            fresh = _prefill_cache(eng.model, eng.tokens[:-1])
            k, v = eng.cache.valid()
            fk, fv = fresh.valid()
            torch.testing.assert_close(k, fk, rtol=1e-9, atol=1e-11)
            torch.testing.assert_close(v, fv, rtol=1e-9, atol=1e-11)
            snaps["n"] = snaps.get("n", 0) + 1

    decode.generate_draftself(
        model, PROMPT, N, 6, drafter=drafter, engine_hook=hook, verify_mode=kw["verify_mode"]
    )
    assert snaps["n"] > 0


def test_block_mode_differs_from_causal_and_ignores_stale_cache():
    m = tiny(2)
    c1 = KVCache(m.cfg, dtype=torch.float64)
    with torch.inference_mode():
        m(torch.tensor([PROMPT]), c1)
        blk = m(torch.tensor([[3, 1, 1]]), c1, mode="block", write=False)
        cau = m(torch.tensor([[3, 1, 1]]), c1, mode="causal", write=False)
        assert not torch.allclose(blk[0, 0], cau[0, 0])  # anchor sees the masks in block mode
        c1.k[:, :, :, len(PROMPT) :] = 123.0  # stale entries beyond length are ignored
        blk2 = m(torch.tensor([[3, 1, 1]]), c1, mode="block", write=False)
    torch.testing.assert_close(blk, blk2)


def test_unique_experts_bounds():
    m = tiny(3)
    E, K = m.cfg.n_experts, m.cfg.top_k
    g = torch.Generator().manual_seed(0)
    for n in range(1, 13):
        cache = KVCache(m.cfg, dtype=torch.float64)
        toks = torch.randint(2, V, (1, n), generator=g)
        with torch.inference_mode():
            m(toks, cache)
        for layer in m.moe_layers():
            u = layer.last_choice.unique().numel()
            if n == 1:
                assert u == K
            assert K <= u <= min(E, n * K)
    assert experts.independent_bound(E, K, 1) == pytest.approx(K)
    assert experts.independent_bound(E, K, 1000) == pytest.approx(E)


def test_coreset_selection():
    scores = torch.tensor([[0.5, 0.3, 0.1, 0.1], [0.4, 0.4, 0.1, 0.1]], dtype=torch.float64)
    assert coreset(scores, 0.6, 1).tolist() == [True, True, False, False]  # 0.45 < 0.6 ≤ 0.8
    assert coreset(scores, 0.4, 1).tolist() == [True, False, False, False]
    assert coreset(scores, 0.4, 3).sum() == 3


def test_alpha_tau_summary():
    res = decode.generate_draftself(tiny(1), PROMPT, N, 4)
    s = run.summarize(res, {"decoder": "draftself", "k": 4}, 8, 2)
    acc = [st["accepted"] for st in _steps(res)]
    assert s["tau"] == pytest.approx(sum(a + 1 for a in acc) / len(acc), abs=1e-6)
    assert s["passes_by_kind"] == {"prefill": 1, "draft": len(acc), "verify": len(acc)}
    assert 0 <= s["alpha_mle"] <= 1


def test_corpus_reproducible():
    a, b = data.make_corpus(0, 300), data.make_corpus(0, 300)
    assert a == b and a != data.make_corpus(1, 300)
    assert data.corpus_sha256(a) == "a1df84c7dae89cf7fe6a95a3a940dbf920f5181fabd89e263b8fe28b7eeadfab"
    tok = data.Tokenizer()
    ids = tok.encode(a)
    assert tok.decode(ids) == a
    assert tok.encode(data.make_corpus(0, 2000)).count(tok.ids["<unk>"]) == 0


def _strip(rec):
    drop = {
        "run_id",
        "session_id",
        "started_at",
        "ended_at",
        "wall_ns",
        "decode_wall_ns",
        "decode_tps",
        "load_start",
        "load_end",
        "passes",
    }
    if isinstance(rec, dict):
        return {k: _strip(v) for k, v in rec.items() if k not in drop}
    if isinstance(rec, list):
        return [_strip(v) for v in rec]
    return rec


def test_measure_same_seed_same_log(tmp_path, monkeypatch):
    ck = tmp_path / "m.pt"
    tok = data.Tokenizer()
    save(tiny(4, vocab=len(tok.vocab)).float(), ck)
    params = {
        "n_tokens": 10,
        "prompt_kinds": ["letters", "story"],
        "ks": [2, 4],
        "sequential_ks": [3],
        "iterative_ks": [3],
        "coreset_k": 3,
        "coreset_masses": [0.5],
        "coreset_min": 2,
        "repetitions": 1,
        "threads": 1,
    }
    per_session = len(run.configs({**run.DEFAULTS, **params})) * 2
    logs = []
    for i in range(2):
        raw = tmp_path / f"raw{i}" / "draftself"
        out = run.measure_session(params, ck, raw, root=tmp_path, log=lambda *a: None)
        assert (out.ran, out.skipped, out.resumed) == (per_session, 0, False)
        host = out.raw_file.stem
        assert out.raw_file == raw / f"{host}.jsonl" and out.steps_file == raw / f"{host}.steps.jsonl"
        assert (raw.parent / "snapshots" / "hosts" / f"{host}.jsonl").exists()  # the shared snapshot store
        recs = [json.loads(x) for f in (out.raw_file, out.steps_file) for x in f.read_text().splitlines()]
        assert [r["event"] for r in recs if r["schema"] == "benchbook.session"] == ["start", "end"]
        recs = [r for r in recs if r["schema"] != "benchbook.session"]
        for r in recs:
            assert r["schema"] in ("benchbook.draftself.run", "benchbook.draftself.step")
            schemas.check_record(r)
            for key in (
                "schema_version",
                "run_id",
                "session_id",
                "experiment",
                "config",
                "host_id",
                "model_sha256",
                "git_commit",
                "started_at",
                "ended_at",
                "toolchain_id",
                "runtime",
            ):
                assert key in r
        runs = [r for r in recs if r["schema"] == "benchbook.draftself.run"]
        assert all(r["load_start"]["loadavg"] and "top_processes" in r["load_end"] for r in runs)
        assert all(r["equals_ar"] for r in runs if r["config"].get("coreset_apply") != "both")
        logs.append(_strip([{k: v for k, v in r.items() if k not in ("git_dirty",)} for r in recs]))
    assert logs[0] == logs[1]
    raw = tmp_path / "raw0" / "draftself"
    # a completed session is never reused: the next call is a new session
    again = run.measure_session(params, ck, raw, root=tmp_path, log=lambda *a: None)
    assert not again.resumed and again.session_id != out.session_id and again.ran == per_session
    # killed mid-session (no end record): the next call with the same meta resumes it, skipping what is done
    calls = {"n": 0}
    real = run.run_one

    def dies(*a, **kw):
        calls["n"] += 1
        if calls["n"] > per_session + per_session // 2:  # the warm-up repetition, then half the timed runs
            raise KeyboardInterrupt
        return real(*a, **kw)

    monkeypatch.setattr(run, "run_one", dies)
    with pytest.raises(KeyboardInterrupt):
        run.measure_session(params, ck, raw, root=tmp_path, log=lambda *a: None)
    monkeypatch.setattr(run, "run_one", real)
    done = run.measure_session(params, ck, raw, root=tmp_path, log=lambda *a: None)
    assert done.resumed and done.skipped > 0 and done.ran + done.skipped == per_session
    from benchbook.experiments.draftself import analysis

    last = analysis.sessions(raw)[-1]
    assert last["session_id"] == done.session_id and last["runtime"].startswith("torch ")
    runs, _ = analysis.load_runs(raw)
    assert runs.height == per_session and runs["run_id"].n_unique() == per_session


def test_committed_sessions_read_through_the_migration():
    """data/raw/draftself holds sessions written before the shared session: they read as shared ones."""
    from benchbook.experiments.draftself import analysis
    from conftest import committed_root

    raw = committed_root() / "data" / "raw" / "draftself"  # as committed: no session a local run appended
    done = analysis.sessions(raw)
    assert [s["session_id"][:8] for s in done] == ["ff659678", "f7ac36b1", "9134c774", "6c11c22a"]
    last = done[-1]
    assert last["runtime"] == "torch 2.13.0+cpu" and last["toolchain_id"] is None
    assert last["runs_file"].endswith("runs.jsonl") and last["params"]["repetitions"] == 3
    runs, _ = analysis.load_runs(raw)
    assert runs["session_id"].unique().to_list() == [last["session_id"]]
    assert runs["others_cpu_pct_max"].null_count() == 0  # the session's own load, for every run


def test_training_is_deterministic_and_cached(tmp_path):
    from benchbook.draftself import train

    cfg = train.TrainConfig(
        n_docs=200,
        seq_len=16,
        batch_size=4,
        steps=3,
        warmup=1,
        max_block=6,
        log_every=3,
        model={
            "d_model": 16,
            "n_layers": 1,
            "n_heads": 2,
            "dense": False,
            "d_ff": 16,
            "n_experts": 4,
            "top_k": 2,
            "d_expert": 8,
        },
    )
    m1, s1 = train.train(cfg, log=lambda r: None)
    m2, s2 = train.train(cfg, log=lambda r: None)
    for (n, a), (_, b) in zip(m1.state_dict().items(), m2.state_dict().items(), strict=True):
        assert torch.equal(a, b), n
    # the losses and learning rates are deterministic; elapsed_s is wall-clock time and is not
    drop_time = lambda curve: [{k: v for k, v in row.items() if k != "elapsed_s"} for row in curve]  # noqa: E731
    assert drop_time(s1["curve"]) == drop_time(s2["curve"]) and [r["step"] for r in s1["curve"]] == [3]
    p1, _, new1 = train.ensure_checkpoint(cfg, cache=tmp_path)
    p2, _, new2 = train.ensure_checkpoint(cfg, cache=tmp_path)
    assert new1 and not new2 and p1 == p2
    assert train.file_sha256(p1) == train.file_sha256(p2)


def test_train_mask_matches_inference_modes():
    from benchbook.draftself.train import train_mask

    T, b, phase = 10, 4, 1
    mask, start = train_mask(T, b, phase)
    assert start.tolist() == [0, 1, 1, 1, 1, 5, 5, 5, 5, 9]
    cc, nc, nn_ = mask[:T, :T], mask[T:, :T], mask[T:, T:]
    assert torch.equal(cc, torch.ones(T, T, dtype=torch.bool).tril())
    assert not mask[:T, T:].any()  # clean never sees noisy
    for i in range(T):
        assert nc[i].tolist() == [j < start[i] for j in range(T)]  # committed prefix only
        assert nn_[i].tolist() == [start[j] == start[i] for j in range(T)]  # whole block, both ways


def test_session_busy_host_judged_by_other_processes_not_own_load():
    """Draft-self caveats come from the shared engine (table kind draftself) with params.yaml report
    thresholds and the measured host's cores, per configuration."""
    import polars as pl

    from benchbook.experiments.draftself.report import session_caveats

    def runs(load1, others):
        return pl.DataFrame(
            {
                "config_name": ["ar", "ds"],
                "run_id": ["r1", "r2"],
                "load1_max": load1,
                "others_cpu_pct_max": others,
            },
            schema_overrides={"others_cpu_pct_max": pl.Float64},
        )

    sess = {"params": {"repetitions": 3}}
    # a quiet host whose 1-min load (2.24 on 2 cores) counts our own threads: other processes at 0.4% decide
    _, quiet = session_caveats(
        runs([2.24, 2.24], [0.4, 0.4]), sess, {"busy_load_per_core": 0.5}, host={"cpu_logical": 2}
    )
    assert quiet == {"ar": ["synthetic_inputs"], "ds": ["synthetic_inputs"]}
    _, busy = session_caveats(runs([1.0, 1.0], [0.4, 97.0]), sess, {}, host={"cpu_logical": 2})
    assert busy == {"ar": ["synthetic_inputs"], "ds": ["synthetic_inputs", "busy_host"]}
    # recorded without other processes' CPU: the load average per core of the *measured* host decides
    _, old = session_caveats(
        runs([500.0, 0.1], [None, None]), {"params": {"repetitions": 1}}, {}, host={"cpu_logical": 2}
    )
    assert old == {
        "ar": ["synthetic_inputs", "single_run", "busy_host"],
        "ds": ["synthetic_inputs", "single_run"],
    }
    _, many_cores = session_caveats(
        runs([3.0, 3.0], [None, None]), sess, {"busy_load_per_core": 0.5}, host={"cpu_logical": 16}
    )
    assert many_cores["ar"] == ["synthetic_inputs"]  # 3.0 < 0.5 × 16
