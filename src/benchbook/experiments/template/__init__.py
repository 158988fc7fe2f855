"""Template: a minimal working experiment to copy (``run``, ``analysis``, ``report``, two notebooks).

It measures something every machine has (sha256 throughput of an in-memory buffer, per size, with
repetitions), so its two stages run anywhere.  To add an experiment ``<name>``: copy this package to
``experiments/<name>/`` and ``notebooks/template.ipynb``/``template_report.ipynb`` to
``notebooks/<name>.ipynb``/``<name>_report.ipynb`` (changing the import), replace ``EXPERIMENT``,
``SCHEMA`` and the measurement, add a ``<name>`` section to ``params.yaml`` and two stages to
``dvc.yaml``; ``benchbook stages check`` prints their exact code deps.
"""

#: Experiment name: the raw folder ``data/raw/<name>/``, the registry ``reports/numbers/<name>.json``.
EXPERIMENT = "template"
#: Record kind of one measured run.
SCHEMA = "benchbook.template"
