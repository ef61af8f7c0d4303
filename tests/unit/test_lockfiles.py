"""Issue 16, item 1: the lock files pin what CI and the image install, and the compose
``deps`` profile runs RabbitMQ (with the plugin) and Redis for ``make run``."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def pins(lock: str) -> dict[str, str]:
    text = (ROOT / "requirements" / lock).read_text(encoding="utf-8")
    return {
        name.lower().replace("_", "-"): version
        for name, version in re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)", text, re.MULTILINE)
    }


def requirement_name(requirement: str) -> str:
    match = re.match(r"[A-Za-z0-9_.-]+", requirement)
    assert match, requirement
    return match.group(0).lower().replace("_", "-")


@pytest.mark.parametrize(
    ("lock", "groups"),
    [
        pytest.param("runtime.txt", ["runtime"], id="runtime-lock-pins-the-runtime"),
        pytest.param("dev.txt", ["runtime", "test", "lint"], id="dev-lock-pins-everything"),
    ],
)
def test_every_dependency_is_pinned(lock: str, groups: list[str]) -> None:
    project = PYPROJECT["project"]
    wanted = [
        *(project["dependencies"] if "runtime" in groups else []),
        *(r for g in groups if g != "runtime" for r in project["optional-dependencies"][g]),
    ]
    missing = {requirement_name(r) for r in wanted} - set(pins(lock))
    assert not missing, f"run `make lock`: {sorted(missing)} not in requirements/{lock}"


def test_the_dev_lock_keeps_the_runtime_versions() -> None:
    runtime, dev = pins("runtime.txt"), pins("dev.txt")
    assert {name: dev.get(name) for name in runtime} == runtime


@pytest.mark.parametrize("lock", ["runtime.txt", "dev.txt"])
def test_every_pin_has_hashes(lock: str) -> None:
    text = (ROOT / "requirements" / lock).read_text(encoding="utf-8")
    blocks = re.split(r"\n(?=[A-Za-z0-9_.-]+==)", text)
    for block in blocks[1:]:
        assert "--hash=sha256:" in block, block.splitlines()[0]


def test_make_run_installs_the_runtime_lock_only() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    run = re.search(r"^run: (.*?)##", makefile, re.MULTILINE)
    assert run and "install-runtime" in run.group(1).split()
    assert "--require-hashes -r requirements/runtime.txt" in makefile
    assert "--require-hashes -r requirements/dev.txt" in makefile
    assert not re.search(r"pip install -e '\.\[", makefile), "extras come from the dev lock"


def test_the_image_installs_the_runtime_lock() -> None:
    dockerfile = (ROOT / "deploy/Dockerfile").read_text(encoding="utf-8")
    assert "pip install --require-hashes -r requirements/runtime.txt" in dockerfile
    assert "pip install --no-deps ." in dockerfile


def test_python_311_and_newer() -> None:
    assert PYPROJECT["project"]["requires-python"] == ">=3.11"


def deps_services() -> dict[str, dict[str, Any]]:
    spec = yaml.safe_load((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))
    return {name: svc for name, svc in spec["services"].items() if svc.get("profiles") == ["deps"]}


@pytest.mark.parametrize(
    ("name", "port"),
    [("deps-rabbitmq", "127.0.0.1:5672:5672"), ("deps-redis", "127.0.0.1:6379:6379")],
)
def test_deps_profile_publishes_the_servers_on_loopback(name: str, port: str) -> None:
    service = deps_services()[name]
    assert port in service["ports"]
    assert "healthcheck" in service


def test_deps_profile_rabbitmq_enables_the_consistent_hash_plugin() -> None:
    volumes = deps_services()["deps-rabbitmq"]["volumes"]
    assert "./deploy/rabbitmq/enabled_plugins:/etc/rabbitmq/enabled_plugins:ro" in volumes
    plugins = (ROOT / "deploy/rabbitmq/enabled_plugins").read_text(encoding="utf-8")
    assert "rabbitmq_consistent_hash_exchange" in plugins
