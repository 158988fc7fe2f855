"""Offload: decode and prefill speed of an MoE model as expert layers move to the CPU (``-ncmoe``),
under a GPU memory budget held on purpose by a ballast process; where it stops fitting (the cliff),
GPU memory per point, the resolved tensor placement and the decode roofline.

``run`` measures one session (a synthetic MoE from ``benchbook synth-model``, one llama-bench
invocation per ``n_cpu_moe`` value, the device-to-device copy bandwidth, bytes per token of each
model); ``analysis`` makes the per-point table; ``report`` publishes numbers, the cliff, the roofline
and the chart.
"""

#: Experiment name: the raw folder ``data/raw/<name>/``, the registry ``reports/numbers/<name>.json``.
EXPERIMENT = "offload"
#: Record kind of one llama-bench output row at one sweep point.
SCHEMA = "benchbook.offload"
#: Record kind of one device-to-device copy bandwidth measurement.
BANDWIDTH_SCHEMA = "benchbook.offload.bandwidth"
#: Record kind of a model's bytes read per decoded token (roofline numerator), per model file.
MODEL_BYTES_SCHEMA = "benchbook.offload.model_bytes"
