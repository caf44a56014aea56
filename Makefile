# Tavolo: `make demo` serves the site with a demo club; `make test` runs every test.
# Needs only Python 3.11+; everything else goes into .venv.

# The first of these that is Python 3.11+ (python3 may be older than a python3.1x beside it).
PYTHON ?= $(or $(shell for p in python3 python3.13 python3.12 python3.11; do \
	$$p -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1 && echo $$p && break; \
	done),python3)
VENV ?= .venv
PY := $(VENV)/bin/python
PORT ?= 8000
PYTEST_ARGS ?=

.PHONY: install messages demo serve test lint format bench clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -c 'import sys; sys.exit("Tavolo needs Python 3.11 or newer") if sys.version_info < (3, 11) else None'
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

install: $(VENV)/.installed

messages: install
	$(PY) manage.py compile_catalogues

demo: messages
	DEBUG=$${DEBUG:-1} $(PY) manage.py migrate --noinput
	DEBUG=$${DEBUG:-1} $(PY) manage.py demo_club
	@echo ""
	@echo "  Tavolo demo: http://127.0.0.1:$(PORT)/"
	@echo "  Organiser login: organiser / tavolo-demo  (demo data only)"
	@echo ""
	DEBUG=$${DEBUG:-1} $(PY) manage.py runserver 127.0.0.1:$(PORT)

test: messages
	$(PY) -m pytest $(PYTEST_ARGS)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

format: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: install
	$(PY) bench/run_all.py

clean:
	rm -rf $(VENV) db.sqlite3* test_db.sqlite3* staticfiles
