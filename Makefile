# Kolrami: `make run` plays the main job on the built-in data, `make test` checks everything,
# `make bench` prints benchmark figures as JSON. Each target sets up .venv on a fresh machine.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
SRC    := src tests benchmarks scripts docs/examples

.PHONY: install run test test-postgres lint typecheck layers pytest bench clean

# The compiled build of the hot modules (scripts/compile.py: mypyc, where a C compiler is; without
# one the same modules run as plain Python). Rebuilt when a source it compiles changes; a stale
# build is never used (kolrami checks the stamp's digests at import).
FAST   := src/kolrami/compiled.json
FAST_SRC := $(wildcard src/kolrami/*.py src/kolrami/*/*.py src/kolrami/*/*/*.py)

install: $(STAMP) $(FAST)

$(FAST): $(STAMP) $(FAST_SRC) scripts/compile.py
	@$(BIN)/python scripts/compile.py >&2

# Reinstall only when the project's dependencies change. Install chatter goes to stderr so that
# `make bench` keeps stdout for its JSON.
$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV) >&2
	@$(BIN)/python -m pip install --quiet --upgrade pip >&2
	@$(BIN)/python -m pip install --quiet -e '.[dev]' >&2
	@touch $(STAMP)

run: $(STAMP)
	@mkdir -p report
	$(BIN)/kolrami tournament simulate --players 7 --seed 1 --report report/index.html
	@echo "Open report/index.html in a browser: standings, every battle's score sheet, replays."

lint: $(STAMP)
	$(BIN)/ruff check $(SRC)
	$(BIN)/ruff format --check $(SRC)

typecheck: $(STAMP)
	$(BIN)/mypy --strict $(SRC)

# The layers contract (pyproject.toml, [tool.importlinter]): a package imports only those below.
layers: $(STAMP)
	$(BIN)/lint-imports

pytest: $(STAMP)
	$(BIN)/pytest -q

test: lint typecheck layers pytest

# The store's and the web app's suites on PostgreSQL (a throwaway cluster from Debian's server
# binaries; skipped, saying so, where there are none). `.ci/run` runs it after `make test`.
test-postgres: $(STAMP)
	@$(BIN)/python -m pip install --quiet -e '.[postgres]' >&2
	scripts/postgres_tests.sh

bench: install
	@$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache build src/build src/*.egg-info report
	rm -f $(FAST) src/kolrami_fast__mypyc*.so
	find src/kolrami -name '*.so' -delete
