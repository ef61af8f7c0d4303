# Combat referee: one virtual environment, one Procfile, the usual targets.
#   make run     start the gateway and the three services in the foreground (Ctrl-C stops all)
#   make test      unit, chain, integration and e2e tests, without the slow ones (minutes)
#   make test-all  every test, the slow ones too (chaos quick run, long property runs, schemathesis)
#   make lint    ruff (lint + format check) and mypy strict
#   make help    every target

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
# Nothing here gains from -j, and `run` needs its prerequisites in order.
.NOTPARALLEL:

# The first of these that is Python 3.11 or newer (PYTHON=... on the command line wins).
PYTHON ?= $(shell for p in python3 python3.13 python3.12 python3.11; do \
	$$p -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1 && echo $$p && break; \
	done)
VENV := .venv
BIN := $(VENV)/bin
# Two stamps: `run` needs only the runtime (requirements/runtime.txt); `test` and `lint` add
# the test and lint tools (requirements/dev.txt). Both lock files pin every package with its
# hashes; `make lock` rebuilds them from pyproject.toml.
RUNTIME_STAMP := $(VENV)/.runtime
STAMP := $(VENV)/.dev
export PIP_DISABLE_PIP_VERSION_CHECK := 1

# Only the test folders that exist: git keeps no empty folder, so a fresh clone may lack one.
TEST_DIRS := $(wildcard tests/unit tests/chain tests/integration tests/e2e tests/chaos)
TYPED_DIRS := shared services gateway bench tests client examples

.PHONY: help venv install install-runtime lock python env-file check-deps run test test-all \
	test-unit test-chain test-integration test-e2e \
	lint format bench chaos soak clean redis-cluster-start redis-cluster-stop test-cluster

help: ## list the targets
	@grep -E '^[a-zA-Z0-9_-]+:.*## ' $(MAKEFILE_LIST) \
		| awk 'BEGIN {FS = ":.*## "} {printf "  %-18s %s\n", $$1, $$2}'

# --- virtual environment -------------------------------------------------------------------
python:
	@if [ -z "$(PYTHON)" ]; then \
		echo "Python 3.11 or newer is needed (python3 --version is older or missing)."; \
		echo "Install it (apt-get install python3, brew install python@3.11) or run"; \
		echo "make PYTHON=/path/to/python3.11 ..."; exit 1; fi

$(BIN)/python: | python
	$(PYTHON) -m venv $(VENV)

# Reinstall only when a lock file is newer than the stamp, so a second `make run` is fast.
# The locked packages first (every one checked against its hash), then the project itself.
$(RUNTIME_STAMP): requirements/runtime.txt pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --require-hashes -r requirements/runtime.txt
	$(BIN)/python -m pip install --no-deps -e .
	@touch $@

$(STAMP): requirements/dev.txt pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --require-hashes -r requirements/dev.txt
	$(BIN)/python -m pip install --no-deps -e .
	@touch $@ $(RUNTIME_STAMP)

install-runtime: $(RUNTIME_STAMP) ## create .venv with the runtime only (what `make run` needs)

venv: $(STAMP) ## create .venv with the runtime and the test and lint tools

install: $(STAMP) ## same as venv

# pip-tools in a virtual environment of its own, so the lock never locks its own tool.
lock: | python ## rebuild requirements/*.txt (pinned, hashed) from pyproject.toml
	$(PYTHON) -m venv .venv-lock
	.venv-lock/bin/python -m pip install -q pip-tools
	.venv-lock/bin/pip-compile -q --strip-extras --generate-hashes --allow-unsafe \
		--no-emit-index-url --no-emit-find-links -o requirements/runtime.txt pyproject.toml
	.venv-lock/bin/pip-compile -q --strip-extras --generate-hashes --allow-unsafe \
		--no-emit-index-url --no-emit-find-links --extra test --extra lint \
		-c requirements/runtime.txt -o requirements/dev.txt pyproject.toml

# --- local configuration -------------------------------------------------------------------
.env:
	@token=$$($(PYTHON) -c 'import secrets; print(secrets.token_urlsafe(32))'); \
	umask 077; \
	printf 'REFEREE_ENV=development\nREFEREE_ADMIN_TOKEN=%s\n' "$$token" > .env; \
	echo "Generated the operator token (shown only this once):"; \
	echo "    REFEREE_ADMIN_TOKEN=$$token"; \
	echo "It is stored in $(CURDIR)/.env (mode 600); edit or delete that file to change it."

env-file: .env ## create .env with REFEREE_ENV=development and a fresh REFEREE_ADMIN_TOKEN

check-deps: | python ## check RabbitMQ (with its plugin) and Redis; start/enable what is installed
	@$(PYTHON) deploy/check_deps.py

# --- running -------------------------------------------------------------------------------
# honcho merges the four logs and stops every process on Ctrl-C. It also stops them all
# when one exits, so each Procfile line runs under deploy/respawn.py, which restarts its
# process with a backoff. The venv comes first in PATH so that each Procfile line's `python`
# is the venv's. honcho is given no env file (`-e /dev/null`): it would put .env over the
# environment; the processes read .env themselves, and there the environment wins.
run: install-runtime env-file check-deps ## run the gateway and the three services (foreground)
	exec env PATH="$(CURDIR)/$(BIN):$$PATH" VIRTUAL_ENV="$(CURDIR)/$(VENV)" \
		$(BIN)/honcho start -f Procfile -e /dev/null

bench: venv ## run the load generator (python -m bench)
	$(BIN)/python -m bench

chaos: venv ## every fault scenario on a private RabbitMQ and Redis (python -m tests.chaos)
	$(BIN)/python -m tests.chaos --out tests/chaos/out/latest.json

SOAK_ACTIONS ?= 20000
soak: venv ## the soak run: SOAK_ACTIONS (20000) actions under every fault, then every count checked
	$(BIN)/python -m tests.chaos --soak $(SOAK_ACTIONS) --out tests/chaos/out/soak.json

# --- tests ---------------------------------------------------------------------------------
# Tests marked `slow` (the chaos quick run, the long stateful property run, schemathesis) run
# only in test-all, which CI runs (.ci/run).
test: venv ## unit, chain, integration and e2e tests, the slow ones deselected
	$(BIN)/pytest -m "not slow" -n 4 --dist loadfile $(TEST_DIRS)

test-all: venv ## every test, the slow ones too (what CI runs)
	$(BIN)/pytest $(TEST_DIRS)

test-unit: venv ## unit tests only (no network)
	$(BIN)/pytest tests/unit

test-chain: venv ## whole message chains of the three services in one process (no network)
	$(BIN)/pytest tests/chain

test-integration: venv ## integration tests (real RabbitMQ and Redis)
	$(BIN)/pytest tests/integration

test-e2e: venv ## end-to-end tests (the real processes over HTTP and SSE)
	$(BIN)/pytest tests/e2e

# A local 3-node Redis Cluster (deploy/redis_cluster.sh) on ports 7100-7102 of its own.
CLUSTER_TESTS := tests/integration tests/e2e/test_turn_flow.py tests/e2e/test_events_stream.py \
	tests/e2e/test_idempotency.py tests/e2e/test_tenants.py tests/e2e/test_webhooks.py \
	tests/e2e/test_operations.py

redis-cluster-start: ## start a local 3-node Redis Cluster on 7100-7102 (prints its REDIS_URL)
	deploy/redis_cluster.sh start

redis-cluster-stop: ## stop it and remove its files
	deploy/redis_cluster.sh stop

test-cluster: venv ## integration and e2e tests against a 3-node Redis Cluster started (and stopped) here
	deploy/redis_cluster.sh start; \
	trap 'deploy/redis_cluster.sh stop' EXIT; \
	REDIS_URL=$$(deploy/redis_cluster.sh url) $(BIN)/pytest -m "not slow" $(CLUSTER_TESTS)

# --- code quality --------------------------------------------------------------------------
# All three run even when one fails, so one report shows every problem; any failure fails.
lint: venv ## ruff check, ruff format --check, mypy strict
	@status=0; \
	for cmd in "$(BIN)/ruff check ." "$(BIN)/ruff format --check ." "$(BIN)/mypy $(TYPED_DIRS)"; do \
		echo "$$cmd"; $$cmd || status=1; \
	done; \
	exit $$status

format: venv ## apply ruff's fixes and formatting
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# --- cleaning ------------------------------------------------------------------------------
# Local files only: never touches RabbitMQ or Redis, and keeps .env (it holds the token).
clean: ## remove .venv, caches and build output
	rm -rf $(VENV) .venv-lock .mypy_cache .ruff_cache .pytest_cache .hypothesis build dist
	find . -path ./.git -prune -o -name '*.egg-info' -prune -exec rm -rf {} + \
		-o -name __pycache__ -prune -exec rm -rf {} +
