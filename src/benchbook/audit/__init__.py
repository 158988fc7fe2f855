"""Audit someone else's numbers: a claims file (and raw logs) in, a verdict per claim out.

Modules, one job each:

* ``schema``    the claims-file schema (pydantic) and its loader (errors name file:line and field;
                ``groups:`` and their tables become claims);
* ``precision`` stated precision: the interval a stated value stands for (digits given, "about"),
  and the size of a miss (severity);
* ``recompute`` derived statements recomputed from the claims and statements they cite;
* ``acceptance`` acceptance definitions across engines (llama.cpp's α, any-position, system
  efficiency): a claim's definition and its conversion to llama.cpp's α where the counts allow;
* ``units``     units by dimension (sizes, times, tokens, rates of them, ratios) and their conversion;
* ``counts``    comparisons of small counts ("7 of 12 vs 9 of 12"): Fisher's exact test;
* ``tables``    the ``claims`` and ``comparison`` tables that ``caveats`` evaluates, and the sides of a
                comparison (``side_of``: a claim, or a statement with the claims under it);
* ``logs``      the one adapter to ``benchbook.ingest`` (raw logs -> audited entries);
* ``unsaid``    what a source leaves unsaid, beside the verdicts it weakens;
* ``toolgap``   the llama-bench vs llama-server gap this project measured (the tool_gap registry), the
                context noted beside a comparison of the two;
* ``verdicts``  the verdict engine (consistency + qualifiers + notes + unsaid + reproducible here);
* ``standing``  what the whole source rests on (the summary at the top of its page);
* ``page``      the audit page per claims file (every text from the claims file escaped);
* ``run``       ``audit_file`` / ``audit_dir``: everything above, and the verdict records on disk;
* ``command``   ``benchbook audit`` / ``python -m benchbook.audit`` (options, exit status; a post
                named instead of a claims file is drafted first);
* ``post``      a published post (Markdown, text, HTML) as blocks with their lines: prose, tables, code;
* ``draftprose`` numbers with units (precision as written) in prose;
* ``draftrelations`` phrases that relate numbers ("2.1× faster", "drops 11%", "doubles") in prose;
* ``draftnames`` conditions named in prose (hardware, engine, build, model and quant, backend,
                flash attention, decoding) and the clauses they hold for;
* ``resultlines`` result lines of a tool's output (llama-cli's summary, llama-speculative's counts,
                ``key=value`` lines, "draft acceptance: 0.648") -> the numbers they state;
* ``toollines`` lines of a tool's or log's output stating a number under a label (llama.cpp
                timing lines, ``ollama --verbose``, vLLM/SGLang serving summaries, keys naming a
                unit, TAP lines) -> the numbers they state;
* ``draftcommand`` command lines (llama.cpp tools, vLLM, SGLang) -> the conditions their flags set;
* ``draftcontext`` a post's context as a scope tree (post, section, command line, block): the
                conditions a claim takes from its title, headings, setup lists, captions and
                command lines where nothing nearer states another value;
* ``draftcore`` the draft's data (``Num``, ``Entry``, ``Group``, ``Drafted``) and the drafter's state
                and shared steps (``DraftCore``: ids, ``add_claim``, conditions), with the helpers
                every part of the drafter uses;
* ``draftsides`` statements and their sides: a relating phrase -> a statement citing the claims it
                relates (or a ``todo`` with candidates), means and bounds (``Sides``);
* ``drafttable`` tables -> one claim per value cell, groups per value column, statements from
                relating columns (``Tables``);
* ``draftsentences`` numbers with units in prose, titles and headings -> claims with the conditions
                their sentences name (``Sentences``);
* ``draft``     a post -> claims-file entries (``benchbook claims draft``), each with its source line
                and quote: reads the post's blocks in order and hands each to its part (tables,
                sentences; command lines, logs, tool output, llama-bench tables here), then cleans up;
                layers: ``draftcore`` <- ``draftsides`` <- ``drafttable``, ``draftsentences`` <-
                ``draft``;
* ``draftfile`` a draft written as a claims file (and its log excerpts), keeping reviewed entries.
"""
