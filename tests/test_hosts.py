"""`benchbook hosts` over the committed raw data, and the llama-bench page's hosts side by side."""

from __future__ import annotations

from benchbook import hosts, resolve
from benchbook.experiments.llama_bench import report
from conftest import committed_root

#: the committed data: the 2-core CPU host (draft-self sessions of the old layout: their torch build),
#: a second 2-core CPU host (one unfinished spec_depth session, then two complete ones and two speculative
#: sessions at -lv 4), the H200 host with 4 CUDA builds of one source (the binaries differ build to build);
#: speculative has 3 sessions on the first host (one of them resumed: two start records)
EXPECTED = "\n".join(
    [
        "host 246274abff670295: CPU AMD EPYC (2 threads), RAM 23.5 GiB, GPU none, Linux 6.18.44-fc-v857",
        "  builds: b11434 cpu (6bcbdc29), torch 2.13.0+cpu",
        "  experiment   session   build                  started (UTC)     ended (UTC)       complete",
        "  draftself    ff659678  torch 2.13.0+cpu       2026-11-29 12:28  2026-11-29 12:29  yes",
        "  draftself    f7ac36b1  torch 2.13.0+cpu       2026-11-29 12:32  2026-11-29 12:33  yes",
        "  draftself    9134c774  torch 2.13.0+cpu       2026-11-29 12:55  2026-11-29 12:56  yes",
        "  draftself    6c11c22a  torch 2.13.0+cpu       2026-11-29 13:21  2026-11-29 13:22  yes",
        "  llama_bench  aec9b906  b11434 cpu (6bcbdc29)  2026-11-29 11:51  2026-11-29 11:53  yes",
        "  llama_bench  e2b890c3  b11434 cpu (6bcbdc29)  2026-11-29 12:40  2026-11-29 12:41  yes",
        "  llama_bench  2f3374db  b11434 cpu (6bcbdc29)  2026-11-29 12:55  2026-11-29 12:55  yes",
        "  llama_bench  d2ee0d2a  b11434 cpu (6bcbdc29)  2026-11-29 13:08  2026-11-29 13:08  yes",
        "  speculative  c81f79c3  b11434 cpu (6bcbdc29)  2026-11-29 12:35  2026-11-29 12:40  yes",
        "  speculative  4787a708  b11434 cpu (6bcbdc29)  2026-11-29 12:57  2026-11-29 13:14  yes",
        "  speculative  4ad89052  b11434 cpu (6bcbdc29)  2026-11-29 13:14  2026-11-29 13:20  yes",
        "",
        "host 3f1dfa40cbf1eb67: CPU Intel(R) Xeon(R) Processor (2 threads), RAM 23.5 GiB, GPU none, "
        "Linux 6.18.44-fc-v769",
        "  builds: b11434 cpu (cdea05bd)",
        "  experiment   session   build                  started (UTC)     ended (UTC)       complete",
        "  spec_depth   1b5cda51  b11434 cpu (cdea05bd)  2026-11-30 21:32  -                 no",
        "  spec_depth   5d2b86d3  b11434 cpu (cdea05bd)  2026-12-01 03:57  2026-12-01 04:10  yes",
        "  spec_depth   f349b5cc  b11434 cpu (cdea05bd)  2026-12-01 04:21  2026-12-01 04:23  yes",
        "  speculative  521afbb1  b11434 cpu (cdea05bd)  2026-12-01 04:12  2026-12-01 04:21  yes",
        "  speculative  e5c68027  b11434 cpu (cdea05bd)  2026-12-01 04:23  2026-12-01 04:29  yes",
        "",
        "host 8b0c3265623b43b7: CPU AMD EPYC (2 threads), RAM 23.5 GiB, GPU none, Linux 6.18.44-fc-v657",
        "  builds: b11434 cpu (d41733ad)",
        "  experiment  session   build                  started (UTC)     ended (UTC)       complete",
        "  tool_gap    eccf2f6c  b11434 cpu (d41733ad)  2026-12-02 02:50  2026-12-02 02:54  yes",
        "",
        "host e3618a24b4e44752: CPU Intel(R) Xeon(R) Processor (16 threads), RAM 125.9 GiB, "
        "GPU NVIDIA H200 140 GiB, Linux 6.18.44-fc-v657-gpu",
        "  builds: b11434 cuda (83fee1eb), b11434 cuda (8ba23180), b11434 cuda (be9bac73), "
        "b11434 cuda (bf9e704f), torch 2.11.0+cu130, Python 3.12.3, cuda NVIDIA H200",
        "  experiment   session   build                                                "
        "started (UTC)     ended (UTC)       complete",
        "  draftself    33165c04  torch 2.11.0+cu130, Python 3.12.3, cuda NVIDIA H200  "
        "2026-12-01 00:20  2026-12-01 00:22  yes",
        "  draftself    57a59f95  torch 2.11.0+cu130, Python 3.12.3, cuda NVIDIA H200  "
        "2026-12-01 00:28  2026-12-01 00:30  yes",
        "  llama_bench  9228dac2  b11434 cuda (be9bac73)                               "
        "2026-11-29 12:53  2026-11-29 12:53  yes",
        "  llama_bench  637789dc  b11434 cuda (83fee1eb)                               "
        "2026-11-30 19:46  2026-11-30 19:46  yes",
        "  offload      d8cf33d1  b11434 cuda (83fee1eb)                               "
        "2026-11-30 19:47  2026-11-30 19:48  yes",
        "  spec_depth   23d37a94  b11434 cuda (bf9e704f)                               "
        "2026-11-30 21:54  2026-11-30 21:56  yes",
        "  speculative  7554df47  b11434 cuda (bf9e704f)                               "
        "2026-11-30 21:56  2026-11-30 21:57  yes",
        "  speculative  5b481365  b11434 cuda (8ba23180)                               "
        "2026-12-01 03:19  2026-12-01 03:20  yes",
        "",
    ]
)


def test_hosts_lists_every_host_with_builds_and_sessions():
    assert hosts.hosts_table(committed_root() / "data/raw") == EXPECTED


def test_the_llama_bench_page_puts_each_hosts_newest_session_in_its_own_column(tmp_path):
    root = committed_root()
    params = resolve.load_params(root)
    out = tmp_path
    report.derive(
        root / "data/raw/llama_bench",
        root / "data/raw/snapshots",
        out / "lb",
        out / "numbers.json",
        out / "metrics.json",
        params["report"],
        root=root,
    )
    lines = (out / "lb" / "hosts.md").read_text().splitlines()
    assert lines[0] == "| | `246274abff670295` (primary) | `e3618a24b4e44752` |"
    assert lines[3] == (
        "| newest complete session | `d2ee0d2a`, ended 2026-11-29 13:08 UTC "
        "| `637789dc`, ended 2026-11-30 19:46 UTC |"
    )
    # one cell per host: each host's own key (the GPU host's prefixed), its own test sizes
    assert lines[5] == (
        "| smollm2-135m-q2&#95;k generation (warm) | {{< var lb-smollm2-135m-q2_k-tg64-warm >}} (tg64) "
        "| {{< var lb-he3618a24-smollm2-135m-q2_k-tg128-warm >}} (tg128) |"
    )
    assert len(lines) == 4 + 3 * 3  # header, rule, machine, session + 3 models x (pp, tg, memory)


def test_the_hosts_panel_puts_the_headline_host_first_and_marks_its_session():
    # the GPU host's session as the page's numbers: its column comes first (host ids would order it second)
    panel = hosts.hosts_panel(
        committed_root() / "data/raw", "llama_bench", "637789dc9ea0413aa9c8a15cfc207f15"
    )
    lines = panel.splitlines()
    assert lines[0] == "| | `e3618a24b4e44752` | `246274abff670295` |"
    assert lines[4] == (
        "| newest complete session | `637789dc`, ended 2026-11-30 19:46 UTC (this page's numbers) "
        "| `d2ee0d2a`, ended 2026-11-29 13:08 UTC (not quoted on this page) |"
    )
    assert lines[5] == "| sessions complete | 2 of 2 | 4 of 4 |"
    # draft-self ran on the CPU host and (issue 15, natural text) on the GPU host; offload on the GPU host
    # only: one column; an experiment nobody ran: no panel
    assert hosts.hosts_panel(committed_root() / "data/raw", "draftself", None).splitlines()[0] == (
        "| | `246274abff670295` | `e3618a24b4e44752` |"
    )
    assert hosts.hosts_panel(committed_root() / "data/raw", "offload", None).splitlines()[0] == (
        "| | `e3618a24b4e44752` |"
    )
    assert hosts.hosts_panel(committed_root() / "data/raw", "nothing", None) == ""


def test_the_llama_bench_memory_row_says_no_gpu_on_a_cpu_host(tmp_path):
    """Item 28 of the new-user report: the "GPU memory (tg)" row read "memory headroom unknown" on the
    CPU-only host (its snapshot lists no GPU); it now says "no GPU" there, and the GPU host keeps its
    headroom phrase."""
    root = committed_root()
    report.derive(
        root / "data/raw/llama_bench",
        root / "data/raw/snapshots",
        tmp_path / "lb",
        tmp_path / "numbers.json",
        tmp_path / "metrics.json",
        resolve.load_params(root)["report"],
        root=root,
    )
    mem = [
        line for line in (tmp_path / "lb" / "hosts.md").read_text().splitlines() if "GPU memory (tg)" in line
    ]
    assert len(mem) == 3
    for line in mem:
        cpu, gpu = line.strip("| ").split(" | ")[1:]
        assert cpu == "no GPU"
        assert gpu.endswith("% used)") and " MiB free of 143,771 MiB (" in gpu
