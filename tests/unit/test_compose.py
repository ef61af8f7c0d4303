"""The operational files keep the promises of docs/DESIGN.md "Scale and placement".

docker-compose.yml, deploy/Dockerfile, deploy/rabbitmq, deploy/redis, the Procfile, the
Makefile and .ci/run are read as text or YAML: no Docker, no network.
"""

from __future__ import annotations

import itertools
import re
import shlex
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
