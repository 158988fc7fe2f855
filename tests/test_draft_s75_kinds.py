"""Kinds fixed in issue 29's session 75 (the fifty-fourth held-out set's misses, read after a
fifty-fifth set replaced it as the clean one), each with controls."""

from __future__ import annotations

from benchbook.audit.draftnames import mentions, model_cell
from drafting import conditions as _cond
from drafting import drafted as _drafted


def _by_value(cf) -> dict:
    return {c.value: c for c in cf.claims}


def test_a_workload_cell_names_its_rows_decoding(tmp_path):
    """ "| workload |" over "ordinary prose, no speculation", "…, n-gram default", "…, MTP k=2" (h608):
    the prompt is the part before the comma, the decoding the last part's (plain, speculative,
    draft-self with a draft size of 2), whatever the post says of speculation at large; "emitted
    per verify" is τ, tokens per verify step (mean_accepted_length). A prompt naming no decoding
    ("repeat a text verbatim") keeps the post's."""
    post = (
        "# Spec\n\nSame server, speculation at default settings:\n\n"
        "| workload | tok/s | draft acceptance | emitted per verify |\n"
        "|---|---:|---:|---:|\n"
        "| ordinary prose, no speculation | 89.1 | — | — |\n"
        "| ordinary prose, n-gram default | 89.4 | 11.2 % | — |\n"
        "| ordinary prose, MTP k=2 | 87.9 | 58 % | 2.3 |\n"
        "| repeat a text verbatim | 876.5 | 98.3 % | 36.6 |\n"
    )
    cf = _drafted(post, tmp_path)
    got = {c.value: (c.metric, _cond(cf, c).get("decoding"), _cond(cf, c).get("prompt")) for c in cf.claims}
    assert got[89.1] == ("decode_tps", "plain", "ordinary prose")
    assert got[89.4] == ("decode_tps", "speculative", "ordinary prose")
    assert got[11.2] == ("acceptance_rate", "speculative", "ordinary prose")
    assert got[87.9] == ("decode_tps", "draft-self", "ordinary prose")
    assert got[2.3] == ("mean_accepted_length", "draft-self", "ordinary prose")
    assert got[36.6] == ("mean_accepted_length", "speculative", "repeat a text verbatim")
    assert _cond(cf, _by_value(cf)[87.9])["block_max"] == 2
    assert "block_max" not in _cond(cf, _by_value(cf)[89.4])
    assert _by_value(cf)[2.3].unit == "tokens"
    # (a prompt whose last part is a yes or no names no decoding: kept whole)
    control = "# Bench\n\n| task | tok/s |\n|---|---|\n| summarise, no | 40.1 |\n| code, yes | 41.2 |\n"
    out = tmp_path / "control"
    out.mkdir()
    cf = _drafted(control, out)
    assert sorted(_cond(cf, c).get("prompt") for c in cf.claims) == ["code, yes", "summarise, no"]


def test_tau_by_its_per_verify_words(tmp_path):
    """The tokens a verify step emits, however a post words it ("2.3 tokens per verify step", "tokens
    per target forward pass", "accepted per step: 3.1"): mean_accepted_length in tokens; a prefill's
    "512 tokens per step" or "2048 tokens per forward pass" names no verify step: a count of tokens."""
    cases = {
        "MTP emits 2.3 tokens per verify step on prose.": ("mean_accepted_length", 2.3),
        "It commits 2.8 tokens per target forward pass.": ("mean_accepted_length", 2.8),
        # (the breaker's: a forward pass of no verify step, a prefill's batch)
        "Prefill handles 2048 tokens per forward pass.": ("tokens", 2048),
        "Accepted per step: 3.1": ("mean_accepted_length", 3.1),
        "Prefill handles 512 tokens per step.": ("tokens", 512),
    }
    for i, (text, want) in enumerate(cases.items()):
        out = tmp_path / str(i)
        out.mkdir()
        cf = _drafted(text + "\n", out)
        assert [(c.metric, c.value) for c in cf.claims] == [want], text


def test_a_ttft_column_without_its_unit_beside_the_runs_duration(tmp_path):
    """ "| TTFT | … | Duration |" over 0.47 beside 42.41 (h610): the first token's time in the
    seconds the Duration column is read in (each at most its row's duration); where a row's TTFT
    exceeds its duration, or no column gives the whole run's time, its numbers stay unplaced."""
    post = (
        "| Engine | Prompt Tokens | PP/s | TTFT | Generated Tokens | TG/s | Duration |\n"
        "| ------ | ------------- | ---- | ---- | ---------------- | ---- | -------- |\n"
        "| LCP | 471 | 1001.39 | 0.47 | 2245 | 53.53 | 42.41 |\n"
        "| Ollama | 471 | 640.08 | 0.74 | 2362 | 32.54 | 73.33 |\n"
    )
    cf = _drafted(post, tmp_path)
    assert sorted((c.value, c.unit) for c in cf.claims if c.metric == "ttft") == [(0.47, "s"), (0.74, "s")]
    assert sorted(c.value for c in cf.claims if c.metric == "duration") == [42.41, 73.33]
    for name, text in {
        "longer": post.replace("| 0.47 |", "| 470 |"),
        "alone": post.replace(" Duration |", " Notes |")
        .replace("| 42.41 |", "| ok |")
        .replace("| 73.33 |", "| ok |"),
    }.items():
        out = tmp_path / name
        out.mkdir()
        cf = _drafted(text, out)
        assert [c.value for c in cf.claims if c.metric == "ttft"] == [], name


def test_a_relating_cell_names_the_acceptance_of_its_drafting_side(tmp_path):
    """ "| 1.33x (51% acceptance) |" under "speedup" (h607): the multiple is the after-over-before
    statement and the 51% the drafting side's acceptance rate (no percent change of 51%); a
    "(+15.0%)" beside a multiple is still that pair's change. "| target | draft |" names the model
    measured, "7B -q4" its size and the quant its flag picks."""
    post = (
        "# Speculative decoding\n\n"
        "| target | draft | before | after | speedup |\n"
        "|---|---|---|---|---|\n"
        "| 7B -q4 | 0.5B | 1.2 tok/s | 1.6 tok/s | 1.33x (51% acceptance) |\n"
    )
    cf = _drafted(post, tmp_path)
    by = _by_value(cf)
    assert (by[51].metric, by[51].unit) == ("acceptance_rate", "%")
    assert _cond(cf, by[51])["model"] == _cond(cf, by[1.6])["model"] == "7B"
    assert _cond(cf, by[1.6])["quant"] == "q4"
    assert sorted((s.kind, s.value, tuple(s.of)) for s in cf.statements) == [
        ("ratio", 1.33, (by[1.6].id, by[1.2].id))
    ]
    control = post.replace("(51% acceptance)", "(+33.3%)")
    out = tmp_path / "control"
    out.mkdir()
    cf = _drafted(control, out)
    by = _by_value(cf)
    assert sorted((s.kind, s.value) for s in cf.statements) == [("percent_change", 33.3), ("ratio", 1.33)]
    assert model_cell("7B -q4") == ("7B", "q4")
    assert model_cell("Llama 7B Q4_0") == ("Llama 7B", "Q4_0")


def test_a_machine_column_and_a_mac_named_before_its_chip(tmp_path):
    """ "| Machine |" over "M4 Mac mini (16GB, current)" (h609): each row's machine, its memory no
    claim of a size; "Mac mini (M4, 16GB)" in prose names the M4; "| K (active experts) |" is no
    draft size (a bare "| K |" in a drafting table still is)."""
    assert [m.value for m in mentions("on a $600 Mac mini (M4, 16GB): 11.5 tok/s")] == ["Apple M4 (Mac mini)"]
    assert [m.value for m in mentions("Mac Studio (M2 Ultra, 192GB)")] == ["Apple M2 Ultra (Mac Studio)"]
    assert [m.value for m in mentions("a Mac mini (2024) with 16GB")] == []
    # (Apple's spelling of the machine, however the post cases it: the breaker's p225)
    assert [m.value for m in mentions("my M4 Mac Mini")] == ["Apple M4 (Mac mini)"]
    assert [m.value for m in mentions("an m2 macbook pro")] == ["Apple M2 (MacBook Pro)"]
    post = (
        "# flash-moe\n\n"
        "| Machine | Model | K (active experts) | Sustained tok/s | TTFT |\n"
        "|---|---|---|---|---|\n"
        "| M3 Max MacBook Pro (48GB, original) | Qwen3.5-35B-A3B-4bit | 4 | 4.4 | ~5.6s |\n"
        "| M4 Mac mini (16GB, current) | Qwen3.5-35B-A3B-4bit | 6 | 11.5 | 2.5s |\n"
    )
    cf = _drafted(post, tmp_path)
    by = _by_value(cf)
    assert sorted(c.value for c in cf.claims if c.unit in ("GB", "GiB")) == []
    assert _cond(cf, by[4.4])["hardware"].startswith("Apple M3 Max")
    assert _cond(cf, by[11.5])["hardware"] == "Apple M4 (Mac mini)"
    assert "block_max" not in _cond(cf, by[11.5])
    assert _cond(cf, by[11.5])["other"]["active_experts"] == "6"
    spec = "# EAGLE\n\n| K | tok/s |\n|---|---|\n| 3 | 50.1 |\n| 5 | 55.2 |\n"
    out = tmp_path / "k"
    out.mkdir()
    cf = _drafted(spec, out)
    assert sorted(_cond(cf, c)["block_max"] for c in cf.claims) == [3, 5]


def test_a_model_named_with_a_time_after_it_and_typographic_hyphens(tmp_path):
    """A table row flattened to "TinyLlama 0.20s" names no model "TinyLlama 0.20s", so the table's
    "TinyLlama" is the "TinyLlama-1.1B-Chat" the summary names (h606); a web page's non-breaking
    hyphens ("gpt‑oss‑120b", U+2011) are a name's dashes (h615)."""
    assert mentions("TinyLlama 0.20s") == []
    assert [m.value for m in mentions("Qwen 3.5 is")] == ["Qwen 3.5"]
    assert [m.value for m in mentions("gpt\u2011oss\u2011120b on vLLM")] == ["gpt-oss-120b", "vLLM"]
    post = (
        "# Comparison\n\nThis report compares TinyLlama-1.1B-Chat and Qwen2.5-1.5B-Instruct.\n\n"
        "| Model | Framework | Load Time | Avg Speed |\n|---|---|---|---|\n"
        "| **TinyLlama** | MLX | 0.20s | 135 tok/s |\n| **Qwen2.5** | MLX | 0.47s | 64.0 tok/s |\n\n"
        "| Model | MLX Load Time | llama.cpp Load Time |\n|---|---|---|\n"
        "| **TinyLlama** | 0.20s | 4.48s |\n"
    )
    cf = _drafted(post, tmp_path)
    by = _by_value(cf)
    assert _cond(cf, by[135])["model"] == "TinyLlama-1.1B-Chat"
    assert _cond(cf, by[64.0])["model"] == "Qwen2.5-1.5B-Instruct"


def test_an_aside_with_its_own_number_names_only_that_number(tmp_path):
    """ "vLLM scales throughput 3.9x (llama.cpp only manages 1.2x)" (h611): the 3.9x is vLLM's, the
    1.2x llama.cpp's; a label in parentheses with no number ("45 tok/s (llama.cpp)") is still the
    number's, and "The 4090 is 1.6x faster than the 3090" the 4090's."""
    cases = {
        "vLLM scales throughput 3.9x (llama.cpp only manages 1.2x).": {3.9: "vLLM", 1.2: "llama.cpp"},
        "It runs at 45 tok/s (llama.cpp) on my box.": {45: "llama.cpp"},
    }
    for i, (text, want) in enumerate(cases.items()):
        out = tmp_path / str(i)
        out.mkdir()
        cf = _drafted(f"# Bench\n\nWe tried vLLM and llama.cpp.\n\n{text}\n", out)
        assert {c.value: _cond(cf, c).get("engine") for c in cf.claims} == want, text
    out = tmp_path / "cards"
    out.mkdir()
    cf = _drafted("The 4090 is 1.6x faster than the 3090.\n", out)
    assert [_cond(cf, c).get("hardware") for c in cf.claims] == ["NVIDIA GeForce RTX 4090"]


def test_a_reviewed_claim_whose_sentence_was_edited_is_kept_once(tmp_path):
    """A new user reviewed every entry, then changed "2x" to "3x" in the post: the re-draft kept their
    claim of 190.6 tok/s and drafted it again as a second claim (decode-tps-l4-2), its quote being
    the edited sentence.  Now the reviewed claim is kept once, a note names the line's new text,
    and the relation of the new figure is the one new guess (the reviewed 2x stays the user's);
    running again changes nothing. A line whose number changed is still a new claim."""
    from benchbook.audit import schema
    from benchbook.audit.draftfile import draft_post

    post, out = tmp_path / "p.md", tmp_path / "p.yaml"
    post.write_text(
        "# Test\n\nThe baseline decoded at 95.3 tok/s.\n"
        "With a draft model decoding reached 190.6 tok/s, so speculative decoding is 2x faster.\n"
    )
    draft_post(post, out)
    out.write_text(out.read_text().replace("reviewed: false", "reviewed: true"))
    post.write_text(post.read_text().replace("2x faster", "3x faster"))
    _, drafted, guessed = draft_post(post, out)
    cf = schema.load(out)
    assert sorted((c.id, c.value) for c in cf.claims) == [("decode-tps-l3", 95.3), ("decode-tps-l4", 190.6)]
    assert guessed == ["s-l4-2"]
    assert sorted((s.id, s.value) for s in cf.statements) == [("s-l4", 2), ("s-l4-2", 3)]
    assert drafted.notes == [
        "decode-tps-l4 (reviewed): its line now reads 'With a draft model decoding reached 190.6 tok/s, "
        "so speculative decoding is 3x faster.', not its quote; kept as you wrote it, not drafted again; "
        "fix: check it against the line and update its quote (or delete it to draft it again)"
    ]
    again = out.read_text()
    draft_post(post, out)
    assert out.read_text() == again
    post.write_text(post.read_text().replace("190.6 tok/s", "191.2 tok/s"))
    _, _, guessed = draft_post(post, out)
    assert sorted(c.value for c in schema.load(out).claims) == [95.3, 190.6, 191.2]


def test_a_speedup_with_an_acceptance_as_its_condition(tmp_path):
    """ "The speedup with high acceptance falls to 0.9" (session 74's breaker): the 0.9 is the
    speedup's, no acceptance rate (listed, as it has no unit); "acceptance drops to 0.69" is still
    an acceptance rate."""
    cf = _drafted("The speedup with high acceptance falls to 0.9.\n", tmp_path)
    assert [c.metric for c in cf.claims] == []
    out = tmp_path / "control"
    out.mkdir()
    cf = _drafted("Acceptance drops to 0.69 on code.\n", out)
    assert [(c.metric, c.value) for c in cf.claims] == [("acceptance_rate", 0.69)]


def test_llama_factory_vllm_maxlen_is_the_context(tmp_path):
    """LLaMA-Factory's "--vllm_maxlen 2048" (h614) is its vLLM backend's --max-model-len: ctx 2048."""
    post = (
        "### Reproduction\n\nCUDA_VISIBLE_DEVICES=0,1 python src/api_demo.py \\\n    --template llama2 \\\n"
        "    --infer_backend vllm \\\n    --vllm_maxlen 2048\n\nIt decodes at 10 tokens/s.\n"
    )
    cf = _drafted(post, tmp_path)
    assert [(c.value, _cond(cf, c).get("ctx")) for c in cf.claims] == [(10, 2048)]


def test_a_projects_page_names_its_own_engine(tmp_path):
    """A README titled with its project's name and opening "Pure C/Metal inference engine for …"
    (h609, "# flash-moe") measures that engine where the post names none; a title that is a plain
    word ("# Notes") or a paragraph about the author's own setup names none."""
    cases = {
        "# flash-moe\n\nPure C/Metal inference engine for MoE models.\n\nIt runs at 9 tok/s.\n": "flash-moe",
        "# Notes\n\nAn inference server setup.\n\nIt runs at 9 tok/s.\n": None,
        "# my-notes\n\nMy inference server setup.\n\nIt runs at 9 tok/s.\n": None,
        "# flash-moe\n\nA C inference engine; see llama.cpp.\n\nIt runs at 9 tok/s.\n": "llama.cpp",
    }
    for i, (text, want) in enumerate(cases.items()):
        out = tmp_path / str(i)
        out.mkdir()
        cf = _drafted(text, out)
        assert [_cond(cf, c).get("engine") for c in cf.claims] == [want], text


def _one(tmp_path, name: str, text: str):
    out = tmp_path / name
    out.mkdir()
    return _drafted(text, out)


def test_the_breakers_inputs_against_session_75s_rules(tmp_path):
    """Session 75's breaker: each new rule read inputs it was not meant for. A "K (…)" header names a
    draft size unless its parentheses name something else; "| Target |" over "CUDA" and "| Host |"
    over "localhost" name no model or machine, and a GPU column keeps "RTX 4070 Ti SUPER" whole; a
    TTFT column beside a benchmark's whole duration, or one in minutes, stays unplaced; a label in
    parentheses with a size ("(RTX 4090, 24 GB)") is the number's own; a workload's last part must
    name a decoding ("speculative fiction", "enabled", "(1)" do not)."""
    k = "| {h} | tok/s |\n|---|---|\n| 4 | 50.1 |\n| 8 | 55.2 |\n"
    for i, header in enumerate(("Draft length (max)", "K (MTP)", "K（草稿长度）")):
        cf = _one(tmp_path, f"k{i}", "# EAGLE on vLLM\n\n" + k.format(h=header))
        assert sorted(_cond(cf, c).get("block_max") for c in cf.claims) == [4, 8], header
    cf = _one(
        tmp_path,
        "labels",
        "# llama.cpp on Ryzen AI Max+ 395, Qwen3-8B Q4_K_M\n\n| Target | tg128 |\n|---|---:|\n"
        "| CUDA | 50.1 |\n| Vulkan | 44.0 |\n\n"
        "| Host | tok/s |\n|---|---:|\n| localhost | 43.0 |\n| remote (LAN) | 41.2 |\n",
    )
    got = {c.value: _cond(cf, c) for c in cf.claims}
    assert got[50.1]["model"] == got[44.0]["model"] == "Qwen3-8B"
    assert got[43.0]["other"]["host"] == "localhost" and got[43.0]["hardware"].startswith(
        "AMD Ryzen AI Max+ 395"
    )
    cf = _one(
        tmp_path, "gpu", "# gpt-oss-20b\n\n| GPU | tok/s |\n|---|---:|\n| RTX 4070 Ti SUPER(16GB) | 85 |\n"
    )
    assert [_cond(cf, c)["hardware"] for c in cf.claims] == ["RTX 4070 Ti SUPER"]
    for name, table in {
        "bench": "| Concurrency | TTFT | TPOT | Duration (s) |\n|---|---|---|---|\n"
        "| 1 | 18.2 | 6.1 | 120.4 |\n",
        "minutes": "| Run | Median TTFT | Total time (min) |\n|---|---|---|\n| 1 | 0.5 | 2.0 |\n",
    }.items():
        cf = _one(tmp_path, name, "# vLLM\n\n" + table)
        assert [c.value for c in cf.claims if c.metric == "ttft"] == [], name
    cf = _one(
        tmp_path,
        "aside",
        "# Bench on a 3090\n\nQwen3 runs 45 tok/s (RTX 4090, 24 GB) but only 30 tok/s on the 3060.\n",
    )
    assert {c.value: _cond(cf, c).get("hardware") for c in cf.claims} == {
        45: "NVIDIA GeForce RTX 4090",
        30: "NVIDIA GeForce RTX 3060",
    }
    cf = _one(
        tmp_path,
        "prompts",
        "# Ollama\n\n| Prompt | tok/s |\n|---|---|\n| Write a story (speculative fiction) | 40.1 |\n"
        "| Haiku, enabled | 41.2 |\n| Explain recursion (1) | 42.3 |\n| chat, EAGLE-3 | 60.4 |\n",
    )
    got = {c.value: (_cond(cf, c).get("prompt"), _cond(cf, c).get("decoding")) for c in cf.claims}
    assert got[40.1] == ("Write a story (speculative fiction)", None)
    assert got[41.2] == ("Haiku, enabled", None)
    assert got[42.3] == ("Explain recursion (1)", None)
    assert got[60.4] == ("chat", "speculative")


def test_a_redraft_keeps_apart_another_runs_number_and_keeps_a_cited_guess(tmp_path):
    """The breaker's re-drafts: "vLLM hit 50 tok/s." reviewed, then edited to "vLLM hit 48 tok/s,
    SGLang 50 tok/s.": SGLang's 50 is a new guess, not the reviewed vLLM claim; a reviewed statement
    citing a guess of a line edited around the guess's unchanged number keeps citing it (the draft
    no longer stops)."""
    from benchbook.audit import schema
    from benchbook.audit.draftfile import draft_post

    post, out = tmp_path / "p.md", tmp_path / "p.yaml"
    post.write_text("# Engines\n\nvLLM hit 50 tok/s.\n")
    draft_post(post, out)
    out.write_text(out.read_text().replace("reviewed: false", "reviewed: true"))
    post.write_text("# Engines\n\nvLLM hit 48 tok/s, SGLang 50 tok/s.\n")
    draft_post(post, out)
    cf = schema.load(out)
    assert sorted((c.value, _cond(cf, c).get("engine"), c.reviewed) for c in cf.claims) == [
        (48, "vLLM", False),
        (50, "SGLang", False),
        (50, "vLLM", True),
    ]
    post2, out2 = tmp_path / "q.md", tmp_path / "q.yaml"
    post2.write_text("# Engines\n\nllama.cpp decodes 190.6 tok/s, 2x Ollama's 95.3 tok/s.\n")
    draft_post(post2, out2)
    text = out2.read_text()
    lines = [
        line.replace("reviewed: false", "reviewed: true") if 'id: "s-l3"' in line or "190.6" in line else line
        for line in text.splitlines()
    ]
    out2.write_text("\n".join(lines) + "\n")
    post2.write_text("# Engines\n\nllama.cpp decodes 190.6 tok/s, twice Ollama's 95.3 tok/s (defaults).\n")
    draft_post(post2, out2)
    cf = schema.load(out2)
    by_id = {c.id: c.value for c in cf.claims}
    assert [tuple(by_id[i] for i in s.of) for s in cf.statements if s.id == "s-l3"] == [(190.6, 95.3)]


def test_a_line_of_many_asides_drafts_in_linear_time():
    """One line of relating phrases with asides ("vLLM scales 3.9x (llama.cpp only manages 1.2x on the
    RTX 4090), " repeated, a 13 KB line at 200): the start commit drafted it in quadratic time (19 s
    at 200 repeats, 263 s at 800 on a loaded machine), each phrase reading the whole line's names
    again and the clause cuts of its paragraph thrown away between its line and its paragraph; now
    linear."""
    from benchbook.audit.draft import draft_text
    from drafting import LINEAR, cpu_growth

    piece = "vLLM scales 3.9x (llama.cpp only manages 1.2x on the RTX 4090), "
    assert cpu_growth(lambda k: draft_text("# A\n\n" + piece * k + "\n", "a.md"), 50) < LINEAR


def test_a_redraft_after_an_edit_keeps_a_corrected_value_and_a_deletion(tmp_path):
    """The breaker's gaps of the start commit: the user corrected a claim's value (190.6 -> 190.5)
    and then edited its sentence: 190.6 was drafted again beside it; the user deleted a guess and
    then edited its sentence: the guess came back. Now ``draft.sums`` keeps each entry's number
    apart from its quote, so both are that entry still: the corrected claim kept once (with a
    note), the deleted one not drafted again. Two reviewed claims of one number on one edited line,
    each of its own engine, stay two."""
    from benchbook.audit import schema
    from benchbook.audit.draftfile import draft_post

    post, out = tmp_path / "p.md", tmp_path / "p.yaml"
    post.write_text("# Engines\n\nWith llama.cpp decode reached 190.6 tok/s.\n\nOllama managed 95.3 tok/s.\n")
    draft_post(post, out)
    text = out.read_text()
    lines = []
    for line in text.splitlines():
        if 'id: "decode-tps-l3"' in line:
            line = line.replace("value: 190.6", "value: 190.5").replace("reviewed: false", "reviewed: true")
        if 'id: "decode-tps-l5"' in line:
            continue  # deleted
        lines.append(line)
    out.write_text("\n".join(lines) + "\n")
    post.write_text(
        "# Engines\n\nWith llama.cpp, decode reached 190.6 tok/s!\n\nOllama managed just 95.3 tok/s.\n"
    )
    _, drafted, guessed = draft_post(post, out)
    cf = schema.load(out)
    assert [(c.id, c.value) for c in cf.claims] == [("decode-tps-l3", 190.5)]
    assert guessed == []
    assert [n.split(":")[0] for n in drafted.notes] == ["decode-tps-l3 (reviewed)"]
    post2, out2 = tmp_path / "q.md", tmp_path / "q.yaml"
    post2.write_text("# Engines\n\nllama.cpp: 50 tok/s; vLLM: 50 tok/s too.\n")
    draft_post(post2, out2)
    out2.write_text(out2.read_text().replace("reviewed: false", "reviewed: true"))
    post2.write_text("# Engines\n\nllama.cpp: 50 tok/s; vLLM: 50 tok/s as well.\n")
    _, _, guessed = draft_post(post2, out2)
    cf = schema.load(out2)
    assert sorted((c.value, _cond(cf, c).get("engine"), c.reviewed) for c in cf.claims) == [
        (50, "llama.cpp", True),
        (50, "vLLM", True),
    ]
    assert guessed == []
