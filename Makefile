# Scorekeeper: `make run` serves the site, `make test` runs every test.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: install messages run serve test test-fast lint format bench clean

# The languages' catalogues: locale/<lang>/LC_MESSAGES/django.po (committed), compiled for the
# site into django.mo beside each (not committed, .gitignore) by GNU gettext's msgfmt, which
# checks each catalogue as it compiles it. A new language's catalogue is found here by itself.
CATALOGUES := $(patsubst %.po,%.mo,$(wildcard locale/*/LC_MESSAGES/django.po))

# Finds a Python 3.12+ that really runs: python3.13/python3.12/python3 on PATH, else pyenv's
# installed versions (a pyenv shim may refuse to run an unselected version, so it is tried).
define find_python
for c in python3.13 python3.12 python3 $$(ls -d $${PYENV_ROOT:-$$HOME/.pyenv}/versions/3.1[2-9]*/bin/python3 2>/dev/null | sort -rV) $$(command -v pyenv >/dev/null && ls -d $$(pyenv root)/versions/3.1[2-9]*/bin/python3 2>/dev/null | sort -rV); do \
  if command -v $$c >/dev/null 2>&1 && $$c -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' >/dev/null 2>&1; then echo $$c; break; fi; \
done
endef

$(VENV)/.installed: pyproject.toml
	@py=$$($(find_python)); \
	if [ -z "$$py" ]; then echo "No Python 3.12 or newer found (tried python3.13, python3.12, python3 and pyenv's versions). Install one, e.g. 'pyenv install 3.13'." >&2; exit 1; fi; \
	if [ ! -x $(PY) ] || ! $(PY) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)'; then \
	  echo "Creating $(VENV) with $$py"; rm -rf $(VENV); $$py -m venv $(VENV) || exit 1; fi
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	@touch $@

install: $(VENV)/.installed messages

messages: $(CATALOGUES)

locale/%/LC_MESSAGES/django.mo: locale/%/LC_MESSAGES/django.po
	@command -v msgfmt >/dev/null 2>&1 || { echo "GNU gettext's msgfmt is missing: it compiles the site's languages ($<). Install gettext (Debian/Ubuntu: 'apt-get install gettext', macOS: 'brew install gettext') and run 'make install' again." >&2; exit 1; }
	msgfmt --check --output-file=$@.tmp $< && mv $@.tmp $@

run: install
	$(PY) manage.py migrate --noinput
	DEBUG=$${DEBUG:-1} $(PY) manage.py runserver 127.0.0.1:8000

# Production: the environment's settings (README, "Running in production"), then gunicorn with
# WEB_CONCURRENCY workers (4) on HOST:PORT (127.0.0.1:8000, behind the TLS proxy).
serve: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput
	$(PY) manage.py check --deploy
	exec $(VENV)/bin/gunicorn scorekeeper.wsgi \
	  --workers $${WEB_CONCURRENCY:-4} \
	  --bind $${HOST:-127.0.0.1}:$${PORT:-8000} \
	  --access-logfile -

# The tests run side by side on every core (pytest-xdist; TEST_WORKERS=0 runs them in one
# process, e.g. to read a failure's output in order). A worker that is free takes tests from a
# busy one (worksteal); the browser tests, the longest, are handed out first (tests/conftest.py).
TEST_WORKERS ?= auto

test: install
	$(VENV)/bin/ruff check .
	DEBUG= $(VENV)/bin/pytest -n $(TEST_WORKERS) --dist worksteal

# The edit loop: every test but the browser ones (a few minutes), side by side.
test-fast: install
	$(VENV)/bin/ruff check .
	DEBUG= $(VENV)/bin/pytest -n $(TEST_WORKERS) --dist worksteal -m "not browser"

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: install
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

bench: install
	$(PY) benchmarks/score_bench.py

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache $(CATALOGUES)
