"""``python -m benchbook.audit``: the same as ``benchbook audit`` (``command``)."""

import sys

from .command import main

sys.exit(main())
