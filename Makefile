# The two README commands. Both set up first (idempotent, cached). The venv's bin/ goes first on
# PATH so that DVC stage commands (papermill, benchbook) resolve without activating the venv.
# `make run VERBOSE=1` shows DVC's and papermill's output instead of writing it to a log file.
export PATH := $(CURDIR)/.venv/bin:$(PATH)
.PHONY: run test repro
run:
	./scripts/setup.sh
	.venv/bin/benchbook run $(if $(VERBOSE),--verbose,)

# Re-derive by hand (the README's "What runs"): DVC's stage commands call `python`, `papermill` and
# `benchbook` from PATH, so a bare `.venv/bin/dvc repro` from a shell without .venv/bin on PATH fails.
repro:
	.venv/bin/dvc repro

test:
	./scripts/setup.sh --test
	.venv/bin/ruff check src tests scripts
	.venv/bin/ruff format --check src tests scripts
	.venv/bin/python -m mypy
	.venv/bin/python -m pytest -q -p no:cacheprovider
