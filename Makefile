# Everything a fresh machine needs is set up by `make run` or `make test`: Python 3.11+ and
# make are the only prerequisites. The virtualenv is reinstalled only when pyproject.toml
# changes (or .venv is missing), tracked by a stamp file in .make/.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := .make/venv.stamp
PYTEST_ARGS ?=

.PHONY: venv run test lint format

venv: $(STAMP)

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
		|| { echo "Python 3.11 or newer is needed (PYTHON=$(PYTHON))"; exit 1; }
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml $(BIN)/python
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	@mkdir -p $(dir $@)
	@touch $@

run: venv
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/daphne --websocket-max-message-size 65536 -b 127.0.0.1 -p 8000 config.asgi:application

# The whole suite on the embedded default (SQLite, in-memory channel layer), then the online
# and production tests again on PostgreSQL and Redis (tests/services_pass.py). The first pass
# runs a worker per core (pytest-xdist), each taking the next test when it is free: the
# property tests are a few long tests, and a worker must not queue up behind them.
test: venv
	$(BIN)/pytest -n auto --dist worksteal --cov=games/engine --cov-report=term $(PYTEST_ARGS)
	$(BIN)/python -m tests.services_pass

# ruff, then the import contracts in pyproject.toml (the apps' layers, the plain engine).
lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

format: venv
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .
