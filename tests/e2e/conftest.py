"""Fixtures of the end-to-end tests: the real processes, started as ``make run`` starts them.

One suite serves the whole session (each test makes its own community, so tests do not see
each other); a test that crashes a process gets a suite of its own (``own_suite``). Both live
in a fresh namespace and on a free port, and on teardown stop their processes and delete
only their namespace's Redis keys, queues and exchanges. A failing test's report carries the
tail of every running process's log.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Generator

import pytest

from tests.e2e.referee import STRAGGLERS, Referee, log_sections, start_suite, stop_suite
from tests.support.suite import Suite


@pytest.fixture(scope="session")
async def suite(
    rabbitmq_url: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Suite]:
    running = await start_suite(rabbitmq_url, redis_url, tmp_path_factory.mktemp("e2e-logs"))
    try:
        yield running
    finally:
        await stop_suite(running)


@pytest.fixture(scope="session")
async def referee(suite: Suite) -> AsyncIterator[Referee]:
    api = Referee(suite)
    try:
        yield api
    finally:
        await api.aclose()


@pytest.fixture
async def own_suite(
    rabbitmq_url: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Suite]:
    """A suite for one test only (its own namespace and port): for tests that kill processes."""
    running = await start_suite(rabbitmq_url, redis_url, tmp_path_factory.mktemp("e2e-own-logs"))
    try:
        yield running
    finally:
        await stop_suite(running)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if report.failed and report.when in ("setup", "call"):
        for title, tail in log_sections():
            report.sections.append((title, tail))
    return report


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if STRAGGLERS:
        terminalreporter.write_sep("-", "e2e: processes killed after ignoring SIGTERM")
        for straggler in STRAGGLERS:
            terminalreporter.write_line(straggler)
