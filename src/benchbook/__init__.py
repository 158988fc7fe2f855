"""benchbook: benchmark write-ups for local LLM inference as a reproducible pipeline."""

__version__ = "0.1.0"
