# The two README commands. Both set up first (idempotent, cached).
.PHONY: run test
run:
	./scripts/setup.sh
	.venv/bin/benchbook run

test:
	./scripts/setup.sh --test
	.venv/bin/python -m pytest -q -p no:cacheprovider
