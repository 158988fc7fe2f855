"""``python -m benchbook ...``: the ``benchbook`` command (``benchbook.cli.main``), for a checkout
used without its console script (``PYTHONPATH=src python -m benchbook claims draft -``)."""

from benchbook.cli import main

raise SystemExit(main())
