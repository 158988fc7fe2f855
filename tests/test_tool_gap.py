"""The tool-gap experiment (issue 31): its params and plan, the request bodies and the streamed answer,
and one whole session measured against a fake llama-server and recorded llama-bench JSON (no llama.cpp
process), decomposed and published: every part's value and interval recomputed by hand."""

from __future__ import annotations

import html
import json
import math
import re
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from benchbook.errors import ParamsError
from benchbook.experiments.tool_gap import EXPERIMENT, analysis, report, run
from benchbook.experiments.tool_gap.plan import (
    FACTORS,
    RequestRun,
    Setup,
    ToolGapParams,
    bench_tail,
    configs,
    plan,
    server_argv,
)
from benchbook.numtable import link_cells
from benchbook.sitecheck import VAR, base_key
from benchbook.stats import difference_interval, t_quantile

FIXTURE = Path(__file__).parent / "fixtures" / "llama_bench_b11434.jsonl"
MODEL = {"model_id": "smollm2-135m-q4_1", "sha256": "b" * 64, "path": "/models/m.gguf"}
HOST = "abcd1234abcd1234"

# the fake session: n_gen 8, depth 32, 3 repetitions
N, DEPTH = 8, 32
B0 = (10.0, 10.5, 9.5)  # llama-bench tg8 at depth 0, ms per token per repetition
BD = (11.0, 11.5, 10.5)  # tg8 at depth 32
PP5 = (30.0, 31.0, 29.0)  # pp5 at depth 32, ms per pass
TRUE = (12.0, 12.5, 11.5)  # base: the step the server timed, predicted_ms / (n - 1)
ADD = {
    "template": 0.1,
    "sampler": 0.5,
    "n_probs": 0.3,
    "stream": 0.2,
    "prompt_cache": 0.0,
    "server_defaults": -0.1,
}
INTERACTION = 0.05  # combined: every factor's addition and this
HTTP_MS = 2.0  # per request: the client's wall time beyond prompt_ms + predicted_ms
COLD = 1.0  # the first request of a server: its reported step this much slower
#: the load snapshot the faked session records around each request: a quiet host
QUIET = {"loadavg": [0.5, 0.5, 0.5], "governor": None, "cpu_mhz": None, "top_processes": []}


def var_keys(md: str) -> list[str]:
    """The registry keys ``md`` quotes as ``{{< var KEY >}}`` / ``{{< var KEY__v >}}``, in order."""
    return [base_key(k) for k in VAR.findall(md)]


def readable(md: str, numbers) -> str:
    """``md`` as its reader reads it: each ``{{< var >}}`` as its number's text (``numtable.link_cells``:
    value [interval] unit, as the site renders it), the links and HTML escapes removed."""
    return html.unescape(re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", link_cells(md, numbers)))


def test_defaults_and_plan_order():
    cfg = ToolGapParams.from_params({}).config()
    assert (cfg["n_gen"], cfg["depth"], cfg["repetitions"], cfg["factors"]) == (128, 256, 5, list(FACTORS))
    runs = plan(cfg, MODEL, "tc", "h")
    ids = list(configs(cfg))
    assert ids == ["base", *FACTORS, "combined", "verify-k4"]
    assert len(runs) == 1 + 5 * len(ids) * 2 == 91  # the docstring's example
    assert runs[0].argv_tail == tuple(bench_tail(cfg)) and "-p" in runs[0].argv_tail
    assert bench_tail(cfg)[:6] == ["-p", "5", "-n", "128", "-d", "0,256"]
    # each repetition rotates the configurations (speculative.plan.plan_order); two requests each
    reqs = [r for r in runs if isinstance(r, RequestRun)]
    assert [r.config_id for r in reqs[:4]] == ["base", "base", "template", "template"]
    assert [r.request_index for r in reqs[:2]] == [0, 1]
    assert reqs[2 * len(ids)].config_id == "template"  # repetition 1 starts one further
    assert len({r.key for r in runs}) == len(runs)  # every key distinct
    # the same params plan the same keys (what a resumed session skips)
    assert [r.key for r in plan(cfg, MODEL, "tc", "h")] == [r.key for r in runs]


def test_one_factor_changes_the_server_argv():
    cfg = ToolGapParams.from_params({}).config()
    base = server_argv("llama-server", MODEL, Setup(), cfg)
    assert base[3:] == ["-t", "2", "-c", "512", "-np", "1", "--no-webui", "-ngl", "99", "-b", "2048",
                        "-ub", "512", "-fa", "auto", "--cache-ram", "0"]  # fmt: skip
    defaults = server_argv("llama-server", MODEL, Setup(server_defaults=True), cfg)
    assert "-b" not in defaults and "-fa" not in defaults and "--cache-ram" in defaults
    cached = server_argv("llama-server", MODEL, Setup(prompt_cache=True), cfg)
    assert "--cache-ram" not in cached and "-b" in cached
    verify = server_argv("llama-server", MODEL, Setup(verify_k=4), cfg)
    assert verify[verify.index("-md") + 1] == "/models/m.gguf" and verify[-2:] == ["-lv", "4"]
    # the settings that only change the request leave the server as base's
    for f in ("template", "sampler", "n_probs", "stream"):
        assert server_argv("llama-server", MODEL, Setup(**{f: True}), cfg) == base


def test_params_refuse_what_cannot_be_measured():
    with pytest.raises(ParamsError) as e:
        ToolGapParams.from_section({"n_gen": 1})
    assert str(e.value) == (
        "params.yaml `tool_gap.n_gen`: n_gen 1: the server times n_gen − 1 decode steps, none at 1; fix: "
        "write n_gen: 2 or more (128 is llama-bench's default)"
    )
    with pytest.raises(ParamsError) as e:
        ToolGapParams.from_section({"verify_k": [4, 600]})
    assert "verify_k [600]: a verify pass of k+1 tokens exceeds ubatch 512" in str(e.value)
    with pytest.raises(ParamsError) as e:
        ToolGapParams.from_section({"factors": ["stream", "stream"]})
    assert "factors named twice: stream" in str(e.value)
    with pytest.raises(ParamsError) as e:
        ToolGapParams.from_section({"factors": ["streaming"]})
    assert "tool_gap.factors.0" in str(e.value)
    # a clean control: the default section and one factor alone are fine (no combined then)
    one = ToolGapParams.from_section({"factors": ["stream"], "verify_k": []}).config()
    assert list(configs(one)) == ["base", "stream"]


def test_request_bodies():
    cfg = {"n_gen": 8, "n_probs": 10}
    base = run.request_body(Setup(), cfg, [1, 2], cached=True)
    assert base["samplers"] == ["top_k"] and base["top_k"] == 1 and base["temperature"] == 0.0
    assert (base["cache_prompt"], base["stream"], base["ignore_eos"], base["n_predict"]) == (
        False,
        False,
        True,
        8,
    )
    assert "n_probs" not in base
    sampler = run.request_body(Setup(sampler=True), cfg, [1], cached=False)
    assert set(sampler) == {"prompt", "n_predict", "ignore_eos", "cache_prompt", "stream", "seed"}
    assert run.request_body(Setup(n_probs=True), cfg, [1], cached=False)["n_probs"] == 10
    # the prompt cache: the cold request fills it, the measured one reads it
    assert run.request_body(Setup(prompt_cache=True), cfg, [1], cached=False)["cache_prompt"] is False
    assert run.request_body(Setup(prompt_cache=True), cfg, [1], cached=True)["cache_prompt"] is True


def test_a_streamed_answer_is_read_as_one():
    text = (
        'data: {"content": "Hel", "stop": false}\n\n'
        'data: {"content": "lo", "stop": false}\n\n'
        'data: {"content": "", "stop": true, "stop_type": "limit", "timings": {"predicted_n": 2}}\n\n'
    )
    got = run.parse_sse(text)
    assert got["content"] == "Hello" and got["timings"] == {"predicted_n": 2} and got["stop_type"] == "limit"
    with pytest.raises(ValueError, match="without a `data:` event"):
        run.parse_sse("error: busy")


def test_difference_interval():
    d, ci = difference_interval([10.0, 11.0, 12.0], [8.0, 8.0, 8.0])
    assert d == 3.0 and ci == pytest.approx(
        [3 - 4.302652729749464 * math.sqrt(1 / 3), 3 + 4.302652729749464 * math.sqrt(1 / 3)]
    )
    assert difference_interval([1.0, 2.0], [1.0, 1.0, 1.0]) == (0.5, None)  # n = 2: no interval
    assert difference_interval([2.0, 2.0, 2.0], [1.0, 1.0, 1.0]) == (1.0, [1.0, 1.0])
    with pytest.raises(ValueError, match="a side has none"):
        difference_interval([], [1.0])


# --- one whole session, faked -------------------------------------------------------------------


def _bench_stdout() -> str:
    """llama-bench -p 5 -n 8 -d 0,32 -r 3 -o jsonl: the recorded b11434 row, its tests replaced."""
    row = json.loads(FIXTURE.read_text().splitlines()[0])
    out = []
    for n_prompt, n_gen, depth, ms in ((5, 0, 0, PP5), (5, 0, DEPTH, PP5), (0, N, 0, B0), (0, N, DEPTH, BD)):
        per = n_gen or 1
        ns = [round(m * 1e6 * per) for m in ms]
        rates = [1e9 * (n_prompt + n_gen) / x for x in ns]
        out.append(
            {
                **row,
                "n_prompt": n_prompt,
                "n_gen": n_gen,
                "n_depth": depth,
                "samples_ns": ns,
                "avg_ns": round(sum(ns) / 3),
                "avg_ts": sum(rates) / 3,
                "samples_ts": rates,
            }  # fmt: skip
        )
    return "\n".join(json.dumps(r) for r in out) + "\n"


def _reported(cid: str, rep: int, index: int) -> float:
    """The reported step (predicted_ms / n) the fake server answers with."""
    base = TRUE[rep] * (N - 1) / N
    if cid == "combined":
        base += sum(ADD.values()) + INTERACTION
    elif cid in ADD:
        base += ADD[cid]
    return base + (COLD if index == 0 else 0.0)


class FakeServer:
    """A llama-server that answers /tokenize, /detokenize, /apply-template and /completion (plain or
    streamed) with the recorded answers' shape, advancing the client's clock by its own timings."""

    clock = [0.0]
    made: list = []

    def __init__(self, argv, log_path, **_kw):
        self.argv, self.pid, self.peak_rss_bytes, self.stopped = list(argv), 7, 0, 0
        self.cid, self.rep = Path(log_path).stem.split("-", 1)[1].rsplit("-r", 1)
        self.rep, self.requests, self.log = int(self.rep), 0, ""
        FakeServer.made.append(self)

    def start(self):
        return self

    def stop(self):
        self.stopped += 1

    def log_text(self, _start=None):
        return self.log

    def log_tail(self, _n=4000):
        return self.log[-4000:]

    def apply_template(self, messages):
        return f"<|im_start|>user\n{messages[0]['content']}<|im_end|>\n<|im_start|>assistant\n"

    def request_json(self, _method, path, body, **_kw):
        if path == "/tokenize":
            return {"tokens": list(range(100))}
        if path == "/detokenize":
            return {"content": " ".join(map(str, body["tokens"]))}
        return self._completion(body)

    def request_text(self, _method, path, body, **_kw):
        assert path == "/completion" and body["stream"]
        final = self._completion(body)
        return f'data: {{"content": "x", "stop": false}}\n\ndata: {json.dumps(final)}\n\n'

    def _completion(self, body):
        assert body["ignore_eos"] and body["n_predict"] == N
        index, self.requests = self.requests, self.requests + 1
        timings = {"prompt_n": DEPTH, "prompt_ms": 5.0, "predicted_n": N}
        if body["cache_prompt"]:  # the cold request's prompt, found cached but its last token
            timings |= {"prompt_n": 1, "cache_n": DEPTH - 1}
        if self.cid.startswith("verify-k"):
            # 2 verify steps of 75 ms, 50 ms of drafting: 8 drafted, 7 accepted
            timings |= {"predicted_ms": 200.0, "draft_n": 8, "draft_n_accepted": 7}
            c = self.requests
            self.log += (
                f"statistics     draft-simple: #calls(b,g,a) = {c} {2 * c} {2 * c}, #gen drafts = {2 * c}, "
                f"#acc drafts = {2 * c}, #gen tokens = {8 * c}, #acc tokens = {7 * c}, "
                f"dur(b,g,a) = 0.100, {50.0 * c:.3f}, 0.010 ms\n"
            )
        else:
            timings["predicted_ms"] = _reported(self.cid, self.rep, index) * N
        FakeServer.clock[0] += (timings["prompt_ms"] + timings["predicted_ms"] + HTTP_MS) / 1e3
        time.sleep((timings["prompt_ms"] + timings["predicted_ms"]) / 1e3)  # the time its timings state
        return {"content": "x" * N, "stop_type": "limit", "timings": timings}


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    """One faked tool_gap session (depth 32, n_gen 8, 3 repetitions, verify_k [4]), measured once for
    the module.  The fakes take the time their records say they timed (``measured.check`` refuses
    samples that sum to more than a run's wall time, and rows whose test_time precedes their run)."""
    import time
    from datetime import UTC, datetime

    from benchbook.llamacpp import procmon, specstats

    tmp_path = tmp_path_factory.mktemp("tool_gap")
    FakeServer.made, FakeServer.clock = [], [0.0]
    toolchain = SimpleNamespace(record={"toolchain_id": "tc00tc00tc00tc00"}, binary=lambda name: Path(name))

    def run_sampled(argv, timeout_s):
        assert argv[0] == "llama-bench" and argv[argv.index("-d") + 1] == f"0,{DEPTH}"
        now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        out = _bench_stdout().replace("2026-11-29T11:54:50Z", now)
        time.sleep(sum(sum(json.loads(r)["samples_ns"]) for r in out.splitlines()) / 1e9 + 0.01)
        return procmon.ProcResult(0, out, "", 1, 0, None)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(run.servervisit, "LlamaServer", FakeServer)  # the visit starts the server
        mp.setattr(run, "clock", lambda: FakeServer.clock[0])
        mp.setattr(run.resolve, "get_toolchain", lambda params, build=False: toolchain)
        mp.setattr(run.resolve, "get_models", lambda params, ids, tc: [MODEL])
        mp.setattr(run.resolve, "store_snapshots", lambda d, tc, models: SimpleNamespace(host_id=HOST))
        mp.setattr(run, "await_stats", lambda read, before: specstats.spec_stats(read()))
        mp.setattr(run, "load_snapshot", lambda: QUIET)  # the test machine's own load is no fact here
        mp.setattr(procmon, "run_sampled", run_sampled)
        (tmp_path / "context.txt").write_text("a b c")
        params = {
            "models": {"registry": {MODEL["model_id"]: {}}},
            "tool_gap": {"context_file": "context.txt", "depth": DEPTH, "n_gen": N, "repetitions": 3},
        }
        result = run.measure(params, root=tmp_path, raw_dir=Path("raw"), log=lambda *_: None)
    return tmp_path, params, result


def test_a_faked_session_is_recorded_whole(session):
    root, _params, result = session
    assert (result.ran, result.failed, result.skipped) == (1 + 3 * 9 * 2, 0, 0)
    assert len(FakeServer.made) == 3 * 9 and all(s.stopped == 1 for s in FakeServer.made)
    blocks = list(run.sections(result))
    assert blocks[-1].text == "ok: 54 requests"
    reqs = analysis.load_requests(root / "raw")
    stream = reqs.filter(reqs["config_id"] == "stream")
    assert stream.height == 6
    tmpl = [r for r in FakeServer.made if r.cid == "defaults"]
    assert not tmpl  # ids are whole config ids
    # the template configuration sent text, base token ids (recorded as the prompt's length)
    recs = [json.loads(x) for x in (root / "raw" / EXPERIMENT / f"{HOST}.jsonl").read_text().splitlines()]
    by = {
        (r.get("config_id"), r.get("request_index")): r
        for r in recs
        if r.get("schema") == "benchbook.tool_gap.request"
    }
    assert by[("base", 1)]["request"]["prompt"] == DEPTH and by[("base", 1)]["prompt_tokens"] == DEPTH
    assert by[("template", 1)]["request"]["prompt"] > DEPTH  # the templated text's characters
    assert by[("verify-k4", 1)]["spec_stats"]["gen_drafts"] == 2
    # a cached text prompt's tokens: processed + cached (it read 1, the processed ones alone, before)
    assert by[("combined", 1)]["request"]["cache_prompt"] and by[("combined", 1)]["prompt_tokens"] == DEPTH
    assert not by[("combined", 0)]["request"]["cache_prompt"]
    assert by[("base", 1)]["wall_ms"] == pytest.approx(5.0 + _reported("base", 2, 1) * N + HTTP_MS)


def test_the_gap_is_decomposed_exactly(session):
    """Every part recomputed by hand: means of the per-token times, Welch's interval for two
    configurations, Student-t over the pairs for the accounting and the HTTP path."""
    root, _params, _result = session
    bench, reqs = analysis.load_bench(root / "raw"), analysis.load_requests(root / "raw")
    cfg = ToolGapParams.from_section({"depth": DEPTH, "n_gen": N, "repetitions": 3}).config()
    d = analysis.decompose(bench, reqs, cfg)
    parts = {p.id: p for p in d.parts}
    mean = lambda xs: sum(xs) / len(xs)  # noqa: E731
    reported = [t * (N - 1) / N for t in TRUE]
    assert parts["start"].ms == pytest.approx(10.0) and parts["depth"].ms == pytest.approx(1.0)
    assert parts["server_loop"].ms == pytest.approx(mean(TRUE) - mean(BD)) == pytest.approx(1.0)
    # n vs n - 1: predicted_ms / n - predicted_ms / (n - 1) = -true step / n
    assert parts["first_token"].ms == pytest.approx(-mean(TRUE) / N) == pytest.approx(-1.5)
    for f, add in ADD.items():
        assert parts[f].ms == pytest.approx(add, abs=1e-12), f
    assert (
        d.total.ms
        == pytest.approx(mean(reported) + sum(ADD.values()) + INTERACTION - 10.0)
        == pytest.approx(1.55)
    )
    assert parts["residual"].ms == pytest.approx(INTERACTION) and d.within_bound  # 0.05 / 1.55 = 3%
    assert parts["end"].ms == pytest.approx(
        parts["start"].ms + sum(p.ms for p in d.parts if p.kind in ("part", "residual"))
    )
    assert parts["depth"].share == pytest.approx(1.0 / 1.55)
    # Welch: depth = BD - B0, both sd 0.5, n 3: se = sqrt(2 * 0.25 / 3), df = 4
    se = math.sqrt(2 * 0.25 / 3)
    assert parts["depth"].ci == pytest.approx([1.0 - t_quantile(5) * se, 1.0 + t_quantile(5) * se])
    assert parts["depth"].ci_method.startswith("welch") and parts["depth"].n == 3
    # first_token: pairs -true/n = (-1.5, -1.5625, -1.4375): sd 0.0625, t over 2 df
    half = t_quantile(3) * 0.0625 / math.sqrt(3)
    assert parts["first_token"].ci == pytest.approx([-1.5 - half, -1.5 + half])
    extras = {p.id: p for p in d.extras}
    assert extras["http"].ms == pytest.approx(HTTP_MS / N) and extras["http"].ci == pytest.approx(
        [0.25, 0.25]
    )
    assert extras["cold"].ms == pytest.approx(COLD)
    # the verify step: (200 - 50) / 2 = 75 ms against llama-bench's 30 ms pass: 2.5x, no spread on the server
    assert extras["verify-k4"].ms == pytest.approx(2.5) and extras["verify-k4"].kind == "verify"
    assert extras["verify-k4"].ci[0] < 2.5 < extras["verify-k4"].ci[1]
    # rates at both ends: means of per-repetition rates, log-scale intervals
    assert parts["start"].rate == pytest.approx(mean([1000 / x for x in B0]))
    assert parts["start"].rate_ci[0] > 0


def test_a_residual_beyond_the_bound_is_said(session):
    """The same session with the combined configuration's requests slower by 1 ms: the parts no longer
    sum to the total within 10%, and the sentence says so (the residual is shown, never hidden)."""
    root, _params, _result = session
    bench, reqs = analysis.load_bench(root / "raw"), analysis.load_requests(root / "raw")
    import polars as pl

    slower = reqs.with_columns(
        pl.when(pl.col("config_id") == "combined")
        .then(pl.col("predicted_ms") + N)
        .otherwise(pl.col("predicted_ms"))
        .alias("predicted_ms")
    )
    cfg = ToolGapParams.from_section({"depth": DEPTH, "n_gen": N, "repetitions": 3}).config()
    d = analysis.decompose(bench, slower, cfg)
    assert d.parts[-2].ms == pytest.approx(1.05) and not d.within_bound


def test_the_report_publishes_parts_chart_and_sentences(session):
    root, params, _result = session
    res = report.build(params, root=root, raw_dir=Path("raw"), reports_dir=Path("reports"))
    assert [c.reasons for c in res.skipped] == [] and list(res.sessions) == [HOST]
    nums = {n.key: n for n in res.numbers}
    h = f"h{HOST[:8]}"
    depth = nums[f"tool_gap-{h}-depth-ms"]
    assert depth.value == pytest.approx(1.0) and depth.unit == "ms" and depth.n == 3
    assert depth.sources[0]["file"].endswith(f"{HOST}.jsonl") and any(
        c[0] == "llama-bench" for c in depth.commands
    )
    assert nums[f"tool_gap-{h}-residual-ms"].ci95 is None and nums[
        f"tool_gap-{h}-residual-share"
    ].value == pytest.approx(0.0323, abs=1e-4)
    assert nums[f"tool_gap-{h}-start-tok_s"].unit == "tok/s" and nums[f"tool_gap-{h}-start-tok_s"].ci95[0] > 0
    assert nums[f"tool_gap-{h}-verify-k4"].unit == "×"
    stream = nums[f"tool_gap-{h}-stream-ms"]
    assert any(c[0] == "llama-server" for c in stream.commands) and len(stream.run_ids) == 6
    registry = json.loads((root / "reports" / "numbers" / "tool_gap.json").read_text())
    assert set(registry["numbers"]) == set(nums) and len(nums) == len(res.numbers)
    out = root / "reports" / EXPERIMENT
    assert (out / f"waterfall_{HOST[:8]}.svg").exists()
    # every number of the sentences and tables is its registry entry's shortcode (a provenance link on
    # the page): the sentences quote all 26, the two tables too (the verify ratio in its own table)
    words = (out / "sentences.md").read_text()
    parts, verify = (out / "parts.md").read_text(), (out / "verify.md").read_text()
    assert set(var_keys(words)) == set(nums) and len(nums) == 26
    assert set(var_keys(parts)) == set(nums) - {f"tool_gap-{h}-verify-k4"}
    assert (
        var_keys(verify) == [f"tool_gap-{h}-verify-k4"]
        and "{{< var tool_gap-habcd1234-verify-k4__v >}}" in verify
    )
    assert "| abcd1234 | depth | part | {{< var tool_gap-habcd1234-depth-ms__v >}} | 3 | " in parts
    k = f"tool_gap-{h}"
    assert (
        f"Host `abcd1234` (session `{res.decompositions[HOST].session_id[:8]}`, 8 tokens, depth 32): "
        f"llama-bench tg {{{{< var {k}-start-tok_s >}}}}, llama-server {{{{< var {k}-end-tok_s >}}}}; "
        f"the gap is {{{{< var {k}-total-ms >}}}} per token. The parts sum to the measured total within "
        f"10%: the residual is {{{{< var {k}-residual-share__v >}}}} of it." in words
    )
    # as the page reads: each value with its interval (numfmt.fmt_interval), the unit where the words lack it
    read = readable(words, res.numbers)
    assert (
        "llama-bench tg 100 [88, 113] tok/s, llama-server 86.7 [78.9, 95.2] tok/s; the gap is 1.6 [0.5, 2.6] "
        "ms per token. The parts sum to the measured total within 10%: the residual is 0.0323 of it." in read
    )
    # an interval that spans 0 is said so; one that does not, with its direction
    assert (
        "- Context depth (llama-bench -d 32 against an empty context): no measurable effect (1.0 [-0.1, 2.1] "
        "ms per token, 0.65 [-0.09, 1.38] of the gap; the 95% interval spans 0)." in read
    )
    assert "- Slot reuse and the prompt cache: no measurable effect (0.00 [-0.99, 0.99] ms per token," in read
    assert (
        "- First-token accounting (the server counts n tokens over n − 1 timed decode steps) removes time: "
        "-1.50 [-1.66, -1.34] ms per token, -0.97 [-1.07, -0.87] of the gap." in read
    )
    assert "- n_probs (10 candidates returned per token): no measurable effect" in read
    assert (
        "- Residual (the factors' interactions and what the parts leave unexplained): 0.0500 ms per token, "
        "0.0323 of the gap." in read
    )
    assert "takes 2.50 [2.30, 2.72] × llama-bench's pass." in read
    shown = list(report.sections(res, SimpleNamespace(reports_dir=root / "reports", to_root="../../")))
    assert shown[-1].text.startswith("ok: ")
    # the notebook shows the same sentences and tables, each number a link to its provenance entry
    assert "{{<" not in shown[1].text + shown[2].text
    assert (
        "removes time: [-1.50 &#91;-1.66, -1.34&#93; ms](../../provenance/tool_gap.html#n-tool_gap-habcd1234-"
        "first_token-ms) per token" in shown[1].text
    )
    assert "| [1.0 &#91;-0.1, 2.1&#93;](../../provenance/tool_gap.html#n-tool_gap-habcd1234-depth-ms) |" in (
        shown[2].text
    )


def test_the_report_without_a_session_says_so(tmp_path):
    res = report.build({}, root=tmp_path, raw_dir=Path("raw"), reports_dir=Path("reports"))
    assert res.numbers == [] and res.sessions == {}
    assert (
        "No tool_gap session is published yet" in (tmp_path / "reports" / EXPERIMENT / "parts.md").read_text()
    )
    assert json.loads((tmp_path / "reports" / "numbers" / "tool_gap.json").read_text())["numbers"] == {}


def test_a_folder_without_requests_reads_as_an_empty_table(tmp_path):
    (tmp_path / EXPERIMENT).mkdir()
    (tmp_path / EXPERIMENT / "h.jsonl").write_text('{"schema": "benchbook.session", "event": "start"}\n')
    reqs = analysis.load_requests(tmp_path)
    assert reqs.height == 0 and reqs.schema["predicted_ms"] == analysis.pl.Float64
    with pytest.raises(ValueError, match="session lacks llama-bench tg at depth 0, base requests, combined"):
        analysis.decompose(analysis.load_bench(tmp_path), reqs, ToolGapParams.from_section({}).config())


def test_a_request_without_timings_is_named_with_its_line(tmp_path):
    (tmp_path / EXPERIMENT).mkdir()
    line = json.dumps({"schema": "benchbook.tool_gap.request", "timings": {}, "wall_ms": 1.0})
    (tmp_path / EXPERIMENT / "h.jsonl").write_text("\n" + line + "\n")
    with pytest.raises(ValueError, match=r"h\.jsonl:2: field timings has no predicted_n/predicted_ms; fix:"):
        analysis.load_requests(tmp_path)


# --- caveats by the shared rules (issue 26's one report pipeline) -----------------------------------


def test_each_number_carries_the_caveats_of_the_records_it_read(session):
    """The faked session (3 repetitions, a quiet host): llama-bench's tg at depth 0 reads B0, whose rates
    (100, 95.24, 105.26 tok/s) have a cv of 5.006% > 5%: ``high_variance`` on the numbers that read it; the
    stream part reads base and stream only (cv 4.2%): a clean control with no caveat; n = 3: no
    ``single_run``; load 0.5, no busy process: no ``busy_host``."""
    root, params, _result = session
    res = report.build(params, root=root, raw_dir=Path("raw"), reports_dir=Path("reports"))
    nums = {n.key: n for n in res.numbers}
    h = f"tool_gap-h{HOST[:8]}"
    rates = [1000 / x for x in B0]
    mean = sum(rates) / 3
    cv = math.sqrt(sum((r - mean) ** 2 for r in rates) / 2) / mean
    assert cv == pytest.approx(0.05006, abs=1e-5)
    for key in ("start-tok_s", "depth-ms", "total-ms", "residual-ms"):
        assert nums[f"{h}-{key}"].caveats == ["high_variance"], key
    assert nums[f"{h}-stream-ms"].caveats == [] and nums[f"{h}-http-ms"].caveats == []
    assert not any("single_run" in n.caveats or "busy_host" in n.caveats for n in res.numbers)


def test_the_committed_cpu_session_has_no_measurable_gap(tmp_path):
    """Host 8b0c3265's first session: llama-bench tg 88.7 tok/s, the server 95.0, the total −0.46 ms per
    token [−3.73, 2.81] spans 0: no share is published (before: 11, the residual's "1370%"), the
    sentence and the waterfall say there is no measurable gap to decompose, each part keeps its
    interval in ms per token.  Every number carries ``high_variance`` (llama-bench's tg rates: cv 12%)."""
    import yaml

    from conftest import committed_root

    root = committed_root()
    params = yaml.safe_load((root / "params.yaml").read_text())
    res = report.build(params, root=root, raw_dir=Path("data/raw"), reports_dir=tmp_path)
    host = "8b0c3265623b43b7"
    d = res.decompositions[host]
    assert d.total.ms == pytest.approx(-0.46158, abs=1e-5)
    assert d.total.ci == pytest.approx([-3.73348, 2.81032], abs=1e-5)
    assert not analysis.measurable(d.total) and analysis.measurable(d.parts[1])  # depth [0.25, 5.37]
    assert all(p.share is None for p in d.parts) and not any(n.key.endswith("-share") for n in res.numbers)
    words = res.sentences[host]
    k = "tool_gap-h8b0c3265"
    assert words[0] == (
        "Host `8b0c3265` (session `eccf2f6c`, 128 tokens, depth 256): llama-bench tg "
        f"{{{{< var {k}-start-tok_s >}}}}, llama-server {{{{< var {k}-end-tok_s >}}}}; no measurable gap to "
        f"decompose: the total is {{{{< var {k}-total-ms >}}}} per token and its 95% interval spans 0, so "
        "the parts are given in ms per token only, not as shares of the gap (their sum leaves a residual of "
        f"{{{{< var {k}-residual-ms >}}}} per token)."
    )
    assert readable(words[0], res.numbers) == (
        "Host `8b0c3265` (session `eccf2f6c`, 128 tokens, depth 256): llama-bench tg 89 [76, 103] tok/s, "
        "llama-server 95 [74, 122] tok/s; no measurable gap to decompose: the total is -0.5 [-3.7, 2.8] ms "
        "per token and its 95% interval spans 0, so the parts are given in ms per token only, not as shares "
        "of the gap (their sum leaves a residual of -6.32 ms per token)."
    )
    assert "% of the gap" not in " ".join(words) and "-share" not in " ".join(words)
    assert (
        "Context depth (llama-bench -d 256 against an empty context) adds time: 2.8 [0.2, 5.4] ms per token."
        in [readable(w, res.numbers) for w in words]
    )
    rows = report.waterfall_rows(d, res.configs[host])
    assert all(r["share"] == "" for r in rows)
    assert all(r["ci_lo"] is not None for r in rows if r["kind"] in ("slower", "faster"))
    title = report.chart_waterfall(d, res.configs[host]).to_dict()["title"]
    assert "no measurable gap to decompose" in title[1]
    nums = {n.key: n for n in res.numbers}
    assert len(nums) == 16 and all(n.caveats == ["high_variance"] for n in res.numbers)
    assert nums["tool_gap-h8b0c3265-verify-k4"].value == pytest.approx(1.7453)
    assert nums["tool_gap-h8b0c3265-verify-k4"].ci95 == pytest.approx([1.51802, 2.00667], abs=1e-5)


def test_busy_host_fires_on_the_numbers_whose_records_ran_under_load(tmp_path):
    """The committed session with a load snapshot added to the verify-k4 requests (1-min load 5.0 on the
    2-core host: above 2 × 2, busy whatever the per-process figure): ``busy_host`` on the verify ratio
    alone, which cites them; no other number (control: the same records without load carry none)."""
    import shutil

    import yaml

    from conftest import committed_root

    src = committed_root()
    root = tmp_path / "repo"
    shutil.copytree(src / "data" / "raw" / "snapshots", root / "data" / "raw" / "snapshots")
    (root / "data" / "raw" / EXPERIMENT).mkdir(parents=True)
    shutil.copy(src / "params.yaml", root / "params.yaml")
    loaded = {"loadavg": [5.0, 4.0, 3.0], "governor": None, "cpu_mhz": None, "top_processes": []}
    lines = []
    for line in (src / "data" / "raw" / EXPERIMENT / "8b0c3265623b43b7.jsonl").read_text().splitlines():
        rec = json.loads(line)
        if rec.get("config_id") == "verify-k4":
            rec |= {"load_start": loaded, "load_end": loaded}
        lines.append(json.dumps(rec))
    (root / "data" / "raw" / EXPERIMENT / "8b0c3265623b43b7.jsonl").write_text("\n".join(lines) + "\n")
    params = yaml.safe_load((root / "params.yaml").read_text())
    res = report.build(params, root=root, raw_dir=Path("data/raw"), reports_dir=tmp_path / "reports")
    busy = sorted(n.key for n in res.numbers if "busy_host" in n.caveats)
    assert busy == ["tool_gap-h8b0c3265-verify-k4"]


def test_the_page_links_every_published_number(tmp_path, root):
    """The page built from the committed session (issue: tool_gap.html showed its numbers with no
    provenance link, its includes being plain text): the sentences, the parts table and the verify table
    quote the 16 published numbers as ``{{< var >}}`` shortcodes, and the rendered page holds each use as
    a link to its provenance entry (``site.render``: ``sitecheck.page_links``) — 4 in the gap sentence,
    13 in the parts' sentences, 15 in the parts table (llama-bench's and the server's ms per token are
    no registry numbers: their rates are), 1 in the verify table: 33 (before: 0)."""
    import shutil

    import yaml

    from benchbook import site
    from benchbook.sitecheck import page_vars
    from conftest import committed_root

    data = committed_root()
    d = tmp_path / "site"
    d.mkdir()
    for name in ("tool_gap.qmd", "provenance.qmd"):
        shutil.copy(root / name, d / name)
    (d / "index.qmd").write_text("---\ntitle: t\n---\nThe gap, part by part: [tool_gap](tool_gap.qmd).\n")
    pages = ["index.qmd", "tool_gap.qmd", "provenance.qmd"]
    (d / "_quarto.yml").write_text(
        yaml.safe_dump(
            {
                "project": {
                    "type": "website",
                    "output-dir": "_site",
                    "render": [*pages, "provenance/*.qmd"],
                    "resources": ["reports/**/*.svg", "reports/**/*.js"],
                },
                "website": {"title": "t", "navbar": {"left": [{"href": p} for p in pages]}},
                "format": {"html": {"theme": "litera"}},
            }
        )
    )
    params = yaml.safe_load((data / "params.yaml").read_text())
    res = report.build(params, root=data, raw_dir=Path("data/raw"), reports_dir=d / "reports")
    keys = {n.key for n in res.numbers}
    parts_ms = "depth server_loop first_token template sampler n_probs stream prompt_cache server_defaults"
    assert keys == {
        f"tool_gap-h8b0c3265-{x}"
        for x in [
            *(f"{p}-ms" for p in [*parts_ms.split(), "residual", "total", "http", "cold"]),
            "start-tok_s",
            "end-tok_s",
            "verify-k4",
        ]
    }
    out = d / "reports" / EXPERIMENT
    sentences, parts, verify = ((out / f).read_text() for f in ("sentences.md", "parts.md", "verify.md"))
    assert set(var_keys(sentences)) == keys  # every published number is said in words
    assert (
        set(var_keys(parts)) == keys - {"tool_gap-h8b0c3265-verify-k4"}
        and "| 8b0c3265 | end | end | 10.9 | 5 | – | {{< var tool_gap-h8b0c3265-end-tok_s__v >}} |" in parts
    )
    assert var_keys(verify) == ["tool_gap-h8b0c3265-verify-k4"]
    assert set(page_vars(d / "tool_gap.qmd", d)) == keys
    built = site.render(d, raw_root=data)
    assert ("tool_gap.qmd", 33, 33) in [(p.page, p.wanted, p.linked) for p in built.pages]
    page = (d / "_site" / "tool_gap.html").read_text()
    linked = re.findall(r'<a href="(?:\./)?provenance/tool_gap\.html#n-([a-z0-9_-]+)"', page)
    assert len(linked) == 33 and set(linked) == keys
    assert ">1.75 [1.52, 2.01] ×</a> llama-bench" in page  # the verify ratio in words, with its unit
