"""Audit someone else's numbers: a claims file (and raw logs) in, a verdict per claim out.

Modules, one job each:

* ``schema``    the claims-file schema (pydantic) and its loader (errors name file:line and field);
* ``precision`` stated precision: the interval a stated value stands for (digits given, "about");
* ``recompute`` derived statements recomputed from the claims and statements they cite;
* ``acceptance`` acceptance definitions across engines (llama.cpp's α, any-position, system
  efficiency): a claim's definition and its conversion to llama.cpp's α where the counts allow;
* ``tables``    the ``claims`` and ``comparison`` tables that ``caveats`` evaluates;
* ``logs``      the one adapter to ``benchbook.ingest`` (raw logs -> audited entries);
* ``verdicts``  the verdict engine (consistency + qualifiers + notes + reproducible here);
* ``page``      the audit page per claims file (every text from the claims file escaped);
* ``run``       ``audit_file`` / ``audit_dir``: everything above, and the verdict records on disk;
* ``command``   ``benchbook audit`` / ``python -m benchbook.audit`` (options, exit status).
"""
