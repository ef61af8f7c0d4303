"""The image, the Procfile, the Makefile and .ci/run keep the promises of docs/DESIGN.md.

deploy/Dockerfile, the Procfile, the Makefile and .ci/run are read as text: no Docker, no
network (docker-compose.yml and the servers' files: tests/unit/test_compose.py).
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
import shlex
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "deploy" / "Dockerfile"
PROCFILE = ROOT / "Procfile"
RESPAWN = "deploy/respawn.py"
MAKEFILE = ROOT / "Makefile"
CI_RUN = ROOT / ".ci" / "run"
PLUGIN = "rabbitmq_consistent_hash_exchange"
APPS = {  # process -> module run with `python -m`
    "gateway": "gateway",
    "turns": "services.turns",
    "resolution": "services.resolution",
    "states": "services.states",
}


# --- readers -----------------------------------------------------------------------------


def dockerfile_instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, continuation lines joined, comments dropped."""
    text = DOCKERFILE.read_text(encoding="utf-8")
    lines = [ln for ln in text.splitlines() if not ln.lstrip().startswith("#")]
    joined = re.sub(r"\\\n", " ", "\n".join(lines))
    pairs = []
    for line in joined.splitlines():
        if line.strip():
            keyword, _, rest = line.strip().partition(" ")
            pairs.append((keyword.upper(), rest.strip()))
    return pairs


def procfile() -> dict[str, str]:
    entries: dict[str, str] = {}
    for line in PROCFILE.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, sep, command = line.partition(":")
            assert sep, f"Procfile line without 'name:': {line!r}"
            assert name.strip() not in entries, f"Procfile repeats {name.strip()!r}"
            entries[name.strip()] = command.strip()
    return entries


# --- deploy/Dockerfile ---------------------------------------------------------------------
def test_dockerfile_entrypoint_runs_python_dash_m() -> None:
    entrypoints = [args for kw, args in dockerfile_instructions() if kw == "ENTRYPOINT"]
    assert entrypoints, "deploy/Dockerfile has no ENTRYPOINT"
    assert json.loads(entrypoints[-1]) == ["python", "-m"]


def test_dockerfile_defaults_to_the_gateway() -> None:
    commands = [args for kw, args in dockerfile_instructions() if kw == "CMD"]
    assert commands and json.loads(commands[-1]) == ["gateway"]


def test_dockerfile_final_stage_is_slim_python_as_non_root() -> None:
    instructions = dockerfile_instructions()
    bases = [args.split()[0] for kw, args in instructions if kw == "FROM"]
    assert bases[-1] == "python:3.11-slim"
    users = [args for kw, args in instructions if kw == "USER"]
    assert users and users[-1].split(":")[0] not in ("root", "0")


def test_dockerfile_installs_the_project_non_editable() -> None:
    installs = [args for kw, args in dockerfile_instructions() if kw == "RUN" and "pip" in args]
    assert any(re.search(r"pip install\b.*\s\.(\s|$)", args) for args in installs)
    assert not any(re.search(r"\s(-e|--editable)\s", args) for args in installs)


def test_package_data_ships_in_the_image() -> None:
    """A non-editable install ships only .py files unless pyproject.toml lists the rest."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    package_data = pyproject.get("tool", {}).get("setuptools", {}).get("package-data", {})
    # A pattern is relative to its package's folder (setuptools); "*" does not cross folders.
    patterns = [
        (ROOT / package.replace(".", "/"), pattern)
        for package, values in package_data.items()
        for pattern in values
    ]

    def shipped(path: Path) -> bool:
        return any(
            path.is_relative_to(folder)
            and fnmatch.fnmatch(path.relative_to(folder).as_posix(), pattern)
            and path.relative_to(folder).as_posix().count("/") == pattern.count("/")
            for folder, pattern in patterns
        )

    missing = [
        str(path.relative_to(ROOT))
        for top in ("shared", "services", "gateway")  # what the processes import at run time
        for path in (ROOT / top).rglob("*")
        if path.is_file()
        and path.suffix not in (".py", ".pyc", ".md")
        and path.name != "ruff.toml"  # lint configuration (the ban in pure rules), not run time
        and "__pycache__" not in path.parts
        and not shipped(path)
    ]
    assert not missing, f"add to [tool.setuptools.package-data] in pyproject.toml: {missing}"


# --- Procfile ------------------------------------------------------------------------------
def test_procfile_has_exactly_the_four_processes() -> None:
    assert sorted(procfile()) == sorted(APPS)


@pytest.mark.parametrize(
    ("name", "module"), list(APPS.items()), ids=[f"procfile-{n}" for n in APPS]
)
def test_procfile_runs_an_existing_package(name: str, module: str) -> None:
    """Each line runs its package under deploy/respawn.py, which restarts it if it dies."""
    assert shlex.split(procfile()[name]) == ["python", RESPAWN, "python", "-m", module]
    assert (ROOT / RESPAWN).is_file()
    package = ROOT.joinpath(*module.split("."))
    assert (package / "__init__.py").is_file(), f"{module} is not a package on disk"


# --- Makefile ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "target",
    [
        "venv",
        "check-deps",
        "env-file",
        "run",
        "test",
        "test-unit",
        "test-integration",
        "test-e2e",
        "lint",
        "format",
        "bench",
        "chaos",
        "soak",
        "clean",
    ],
    ids=lambda t: f"make-{t}",
)
def test_makefile_has_target(target: str) -> None:
    text = MAKEFILE.read_text(encoding="utf-8")
    assert re.search(rf"^{re.escape(target)}\s*:", text, re.MULTILINE)


def test_make_run_starts_the_procfile_with_honcho() -> None:
    text = MAKEFILE.read_text(encoding="utf-8")
    assert re.search(r"honcho start -f Procfile", text)


# --- .ci/run -------------------------------------------------------------------------------
def test_ci_run_is_an_executable_bash_script() -> None:
    assert os.access(CI_RUN, os.X_OK), ".ci/run must be executable (git mode 100755)"
    first = CI_RUN.read_text(encoding="utf-8").splitlines()[0]
    assert first in ("#!/usr/bin/env bash", "#!/bin/bash")


@pytest.mark.parametrize(
    "needle",
    [
        pytest.param("set -euo pipefail", id="strict-mode"),
        pytest.param("rabbitmq-server -detached", id="starts-rabbitmq"),
        pytest.param("rabbitmq-plugins enable", id="enables-a-plugin"),
        pytest.param(PLUGIN, id="names-consistent-hash-plugin"),
        pytest.param("/var/lib/rabbitmq", id="rabbitmq-home-for-cookie"),
        pytest.param("redis-server --daemonize yes", id="starts-redis"),
        pytest.param("rm -rf .venv", id="fresh-venv"),
        pytest.param("make lint", id="make-lint"),
        pytest.param("make test", id="make-test"),
    ],
)
def test_ci_run_prepares_servers_and_runs_lint_and_tests(needle: str) -> None:
    assert needle in CI_RUN.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "forbidden",
    ["FLUSHALL", "FLUSHDB", "delete_queue", "delete_exchange"],
    ids=lambda f: f"ci-run-never-{f}",
)
def test_ci_run_never_wipes_the_servers(forbidden: str) -> None:
    lines = CI_RUN.read_text(encoding="utf-8").splitlines()
    code = "\n".join(line for line in lines if not line.lstrip().startswith("#"))
    assert forbidden.lower() not in code.lower()
