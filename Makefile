# Everyday commands. Each one sets up the virtualenv first, so a fresh clone needs only
# `make run` or `make test`. Tools are called by their .venv/bin path: no activation needed.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# uv from PATH if there is one, else the copy `setup` installs with pip.
UV := $(shell command -v uv 2>/dev/null || echo "$(PYTHON) -m uv")
# Use the interpreter we are given; never try to download one.
export UV_PYTHON_DOWNLOADS ?= never
# Bytecode is compiled once at install (--compile-bytecode below): with
# PYTHONDONTWRITEBYTECODE set, every process would otherwise recompile Django (~2 s each).

.PHONY: setup packages run test proof bench soak cluster lint format messages

setup: ## Create .venv and install the locked dependencies (idempotent, a few seconds)
	@$(UV) --version >/dev/null 2>&1 || $(PYTHON) -m pip install --quiet uv \
		|| $(PYTHON) -m pip install --quiet --user --break-system-packages uv
	@test -x $(BIN)/python || $(UV) venv --quiet -p $(PYTHON) $(VENV)
	@$(UV) sync --quiet --frozen --all-groups --compile-bytecode
	@scripts/fetch_vnu.sh

# Another address or port: make run ADDRESS=0.0.0.0:8080 (email links follow it: SITE_URL).
ADDRESS ?= 0.0.0.0:8000
# The settings default to production; `make run` is development, so it says so.
run: export DEBUG := true
# Emails of the demo and the site: one line each in the terminal, kept in var/mail/.
run: export EMAIL_BACKEND ?= firenze_site.dev_mail.EmailBackend
run: setup ## Serve http://localhost:8000 with Redis, Celery workers and beat (Ctrl-C stops all)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py vapid_keys --dev-file
	RUN_ADDRESS=$(ADDRESS) $(BIN)/python scripts/run_dev.py

# `check --deploy` with the environment production has (nothing is contacted: no database,
# cache or mail server is needed for it); every warning fails the build.
DEPLOY_ENV := DEBUG=false ALLOWED_HOSTS=firenze.example.org \
	SECRET_KEY=ci-only-0f6b2c9e4a71d8e35b7c6a9f1e2d4c8b0a3f5e7d9c1b2a4f6e8d0c2b4a6f8e1d \
	DATABASE_URL=postgres://firenze@db.example.org:5432/firenze \
	CACHE_URL=redis://cache.example.org:6379/1 CELERY_BROKER_URL=redis://cache.example.org:6379/0 \
	CSRF_TRUSTED_ORIGINS=https://firenze.example.org TRUSTED_PROXY_COUNT=1

# The SQLite tests on two pytest-xdist workers with the PostgreSQL tests beside them
# (scripts/test.sh; docs/operations.md says what each part costs). More options for pytest:
# make test TEST_ARGS="-p randomly"; more SQLite workers: make test TEST_WORKERS=3 (default 2,
# docs/operations.md says why). A single file runs as ever: .venv/bin/pytest tests/x.py
test: setup packages ## Run the whole test suite: SQLite and PostgreSQL tests, in parallel
	env $(DEPLOY_ENV) DJANGO_SETTINGS_MODULE=firenze_site.settings \
		$(BIN)/python manage.py check --deploy --fail-level WARNING
	scripts/test.sh $(TEST_ARGS)

# The proof that no test depends on the clock, the zone or the order (docs/operations.md): the
# whole suite three times, in three zones, the clock just before and after midnight UTC, the
# order shuffled. Not part of `make test`: three whole runs. Fewer: make proof PROOF_RUNS=UTC@00:00:30
proof: setup packages ## Run the whole suite 3 times: zones, clock at midnight UTC, shuffled order
	scripts/proof_runs.sh

packages: ## Install the Debian packages the tests need, if any is missing (root, or sudo -n)
	@scripts/system_packages.sh

bench: setup ## Print every benchmark figure (rules engine; web pages on SQLite and PostgreSQL)
	scripts/system_packages.sh apache2-utils redis-server postgresql
	scripts/postgres.sh start
	BENCH_POSTGRES_URL=$$(scripts/postgres.sh url) $(BIN)/python bench/run.py; \
		status=$$?; scripts/postgres.sh stop; exit $$status

# The soak test with faults (docs/operations-soak.md): the production stack plays 200 games while
# web workers, Celery workers and Redis are killed; not part of `make test` (a short one is).
# More or fewer: make soak SOAK_ARGS="--games 50".
soak: setup ## Play 200 games on the production stack under faults and check nothing is lost
	scripts/postgres.sh start
	SOAK_DATABASE_URL=$$(scripts/postgres.sh url) $(BIN)/python -m bench.soak $(SOAK_ARGS); \
		status=$$?; scripts/postgres.sh stop; exit $$status

# The rehearsal on several nodes (docs/capacity.md): network namespaces for a data node, two web
# nodes, two worker nodes and HAProxy with Prometheus, while a web node is cut off, a worker node
# and beat's node are killed and Redis restarts (root; haproxy, prometheus, redis, postgresql).
# More or fewer: make cluster CLUSTER_ARGS="--games 20".
cluster: setup packages ## Play 50 games on five nodes while nodes fail, and check nothing is lost
	$(BIN)/python -m bench.cluster $(CLUSTER_ARGS)

lint: setup ## Check code style, types and the import contracts, changing no file (pyproject.toml)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-logo --no-cache

format: setup ## Fix what ruff can fix
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# Translations (locale/): the marked strings of the Python code and the templates. The tests check
# that every catalogue has every one of them translated (tests/test_translations.py). German is
# translated in its .po; the TABLE_LANGUAGES are filled from locale/<lang>/translations.txt by
# scripts/translations.py (`scripts/translations.py todo it` lists what a table lacks).
CATALOGUE_LANGUAGES := de it fr es
TABLE_LANGUAGES := it fr es
MESSAGES_OPTIONS := $(foreach language,$(CATALOGUE_LANGUAGES),-l $(language)) --no-obsolete \
	--add-location=file --ignore=.venv --ignore=var --ignore=tests --ignore=bench --ignore=scripts \
	--ignore=node_modules
messages: setup ## Update locale/*/LC_MESSAGES/django.po from the marked strings, fill and compile them
	DEBUG=true $(BIN)/python manage.py makemessages $(MESSAGES_OPTIONS)
	$(BIN)/python scripts/translations.py fill $(TABLE_LANGUAGES)
	DEBUG=true $(BIN)/python manage.py compilemessages $(foreach language,$(CATALOGUE_LANGUAGES),-l $(language)) --ignore=.venv
