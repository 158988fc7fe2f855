"""llama-bench sweeps: -p/-n/-d, threads, -ngl, -fa per model; cold first run recorded apart from warm
runs; per-repetition samples, peak RSS and GPU memory (``run``); rate statistics and same-session
ratios (``analysis``); numbers, charts, caveats and metrics (``report``)."""
