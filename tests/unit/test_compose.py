"""The operational files keep the promises of docs/DESIGN.md "Scale and placement".

docker-compose.yml, deploy/Dockerfile, deploy/rabbitmq, deploy/redis, the Procfile, the
Makefile and .ci/run are read as text or YAML: no Docker, no network.
"""

from __future__ import annotations

import fnmatch
import itertools
import json
import os
import re
import shlex
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
COMPOSE_FILE = ROOT / "docker-compose.yml"
DOCKERFILE = ROOT / "deploy" / "Dockerfile"
DEPLOY_README = ROOT / "deploy" / "README.md"
PROCFILE = ROOT / "Procfile"
RESPAWN = "deploy/respawn.py"
MAKEFILE = ROOT / "Makefile"
CI_RUN = ROOT / ".ci" / "run"
PLUGIN = "rabbitmq_consistent_hash_exchange"

SERVERS = ("rabbitmq", "redis")
APPS = {  # compose service -> module run with `python -m`
    "gateway": "gateway",
    "turns": "services.turns",
    "resolution": "services.resolution",
    "states": "services.states",
}
SERVICES = ("turns", "resolution", "states")
HEALTH_PROBES = {  # compose service -> what its health check must run
    "rabbitmq": "rabbitmq-diagnostics -q ping",
    "redis": "redis-cli ping",
    "gateway": "/readyz",
    "turns": "python -m shared.ops health --service turns",
    "resolution": "python -m shared.ops health --service resolution",
    "states": "python -m shared.ops health --service states",
}


# --- readers -----------------------------------------------------------------------------
@cache
def compose() -> dict[str, Any]:
    data = yaml.safe_load(COMPOSE_FILE.read_text(encoding="utf-8"))
    assert isinstance(data, dict), "docker-compose.yml is not a mapping"
    return data


def compose_services() -> dict[str, dict[str, Any]]:
    services = compose().get("services")
    assert isinstance(services, dict), "docker-compose.yml has no services"
    return services


def service(name: str) -> dict[str, Any]:
    services = compose_services()
    assert name in services, f"docker-compose.yml has no service {name!r}"
    spec = services[name]
    assert isinstance(spec, dict)
    return spec


def argv(value: object) -> list[str]:
    """A compose command or healthcheck test as an argument list (either syntax)."""
    if isinstance(value, str):
        return shlex.split(value)
    assert isinstance(value, list), f"not a command: {value!r}"
    return [str(part) for part in value]


def health_argv(spec: dict[str, Any]) -> list[str]:
    test = argv(spec.get("healthcheck", {}).get("test", []))
    if test[:1] in (["CMD"], ["CMD-SHELL"]):
        test = test[1:]
    return test


def mounts(spec: dict[str, Any]) -> dict[str, str]:
    """Container path -> source of each volume (short or long syntax)."""
    found: dict[str, str] = {}
    for volume in spec.get("volumes", []):
        if isinstance(volume, str):
            source, _, rest = volume.partition(":")
            target = rest.split(":")[0]
        else:
            source, target = str(volume.get("source", "")), str(volume["target"])
        found[target] = source
    return found


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


def depends_on_pairs() -> list[Any]:
    pairs = []
    for name, spec in sorted(compose_services().items()):
        depends = spec.get("depends_on", {})
        items = depends.items() if isinstance(depends, dict) else ((d, {}) for d in depends)
        for dependency, options in items:
            condition = (options or {}).get("condition")
            pairs.append(pytest.param(name, dependency, condition, id=f"{name}->{dependency}"))
    return pairs


def interpolated_variables() -> list[str]:
    text = COMPOSE_FILE.read_text(encoding="utf-8")
    braced = re.findall(r"(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*)", text)
    bare = re.findall(r"(?<!\$)\$([A-Za-z_][A-Za-z0-9_]*)", text)
    return sorted(set(braced) | set(bare))


# --- docker-compose.yml --------------------------------------------------------------------
def test_compose_uses_the_compose_spec_without_version_key() -> None:
    assert "version" not in compose(), "the compose spec has no version: key"


@pytest.mark.parametrize("name", [*SERVERS, *APPS], ids=lambda n: f"service-{n}")
def test_service_exists(name: str) -> None:
    assert name in compose_services()


@pytest.mark.parametrize("name", list(APPS), ids=lambda n: f"{n}-builds-deploy/Dockerfile")
def test_app_builds_the_one_image(name: str) -> None:
    build = service(name).get("build")
    assert isinstance(build, dict), f"{name} must build the image (build: context/dockerfile)"
    assert str(build.get("context", ".")).rstrip("/") in (".", "")
    assert build.get("dockerfile") == "deploy/Dockerfile"
    assert (ROOT / build["dockerfile"]).is_file()


@pytest.mark.parametrize(
    ("name", "module"), list(APPS.items()), ids=[f"{n}-runs-{m}" for n, m in APPS.items()]
)
def test_app_command_names_its_module(name: str, module: str) -> None:
    assert argv(service(name).get("command")) == [module]


@pytest.mark.parametrize("name", SERVICES, ids=lambda n: f"{n}-replicas")
def test_services_run_several_replicas(name: str) -> None:
    replicas = service(name).get("deploy", {}).get("replicas", 1)
    assert isinstance(replicas, int) and replicas >= 2


@pytest.mark.parametrize("name", sorted(compose_services()), ids=lambda n: f"{n}-healthcheck")
def test_every_service_has_a_healthcheck(name: str) -> None:
    healthcheck = service(name).get("healthcheck")
    assert isinstance(healthcheck, dict), f"{name} has no healthcheck"
    assert not healthcheck.get("disable", False)
    assert health_argv(service(name)) not in ([], ["NONE"])


@pytest.mark.parametrize(
    ("name", "probe"), list(HEALTH_PROBES.items()), ids=[f"{n}-probe" for n in HEALTH_PROBES]
)
def test_healthcheck_runs_the_documented_probe(name: str, probe: str) -> None:
    assert probe in " ".join(health_argv(service(name)))


def test_gateway_healthcheck_needs_no_curl() -> None:
    test = health_argv(service("gateway"))
    assert test[0] == "python" and "urllib" in " ".join(test)


@pytest.mark.parametrize(("name", "dependency", "condition"), depends_on_pairs())
def test_depends_on_waits_until_healthy(name: str, dependency: str, condition: str) -> None:
    assert dependency in compose_services()
    assert condition == "service_healthy"


@pytest.mark.parametrize(
    ("name", "server"),
    [(app, server) for app in APPS for server in SERVERS],
    ids=[f"{app}-waits-for-{server}" for app in APPS for server in SERVERS],
)
def test_apps_wait_for_the_servers(name: str, server: str) -> None:
    depends = service(name).get("depends_on", {})
    assert isinstance(depends, dict) and server in depends


def test_rabbitmq_mounts_enabled_plugins_with_consistent_hash() -> None:
    spec = service("rabbitmq")
    assert str(spec.get("image", "")).startswith("rabbitmq:3.10")
    source = mounts(spec).get("/etc/rabbitmq/enabled_plugins")
    assert source, "rabbitmq does not mount /etc/rabbitmq/enabled_plugins"
    plugins = (ROOT / source).read_text(encoding="utf-8").strip()
    assert plugins.startswith("[") and plugins.endswith("]."), "not an Erlang list term"
    assert PLUGIN in re.split(r"[\[\],.\s]+", plugins)


def test_rabbitmq_config_file_is_mounted() -> None:
    conf = [src for dst, src in mounts(service("rabbitmq")).items() if dst.endswith(".conf")]
    assert conf and all((ROOT / src).is_file() for src in conf)


def test_redis_runs_with_appendonly_yes() -> None:
    spec = service("redis")
    command = argv(spec.get("command", []))
    pairs = list(itertools.pairwise(command))
    conf_files = [ROOT / src for src in mounts(spec).values() if src.endswith(".conf")]
    conf_says = any(
        re.search(r"^\s*appendonly\s+yes\s*$", path.read_text(encoding="utf-8"), re.MULTILINE)
        for path in conf_files
        if path.is_file()
    )
    assert ("--appendonly", "yes") in pairs or conf_says
    assert ("--appendonly", "no") not in pairs


@pytest.mark.parametrize(
    ("name", "target"),
    [("rabbitmq", "/var/lib/rabbitmq"), ("redis", "/data")],
    ids=["rabbitmq-data-volume", "redis-data-volume"],
)
def test_server_data_lives_in_a_named_volume(name: str, target: str) -> None:
    source = mounts(service(name)).get(target)
    assert source and source in (compose().get("volumes") or {})


@pytest.mark.parametrize("variable", interpolated_variables(), ids=lambda v: f"documented-{v}")
def test_every_interpolated_variable_is_documented(variable: str) -> None:
    assert f"`{variable}`" in DEPLOY_README.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("variable", "expected"),
    [
        pytest.param("GATEWAY_HOST", "0.0.0.0", id="gateway-listens-on-all-interfaces"),
        pytest.param("RABBITMQ_URL", "amqp://guest:guest@rabbitmq:5672/", id="gateway-broker"),
        pytest.param("REDIS_URL", "redis://redis:6379/0", id="gateway-store"),
        pytest.param("REFEREE_ENV", "production", id="gateway-production"),
    ],
)
def test_gateway_environment(variable: str, expected: str) -> None:
    assert str(service("gateway")["environment"][variable]) == expected


def test_gateway_requires_an_admin_token_and_publishes_8000() -> None:
    spec = service("gateway")
    assert str(spec["environment"]["REFEREE_ADMIN_TOKEN"]).startswith("${REFEREE_ADMIN_TOKEN:?")
    assert "8000:8000" in [str(port) for port in spec.get("ports", [])]


def test_isolation_example_serves_only_its_room() -> None:
    spec = service("turns-busy-room")
    assert spec.get("profiles") == ["isolation"]
    assert argv(spec.get("command")) == ["services.turns"]
    assert spec["environment"]["REFEREE_ROOMS"] == "plaza"


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
