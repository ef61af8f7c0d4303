"""Per-replica liveness (issue 16, item 5): a replica beats only while its consumers and
timer poller work, and the health check reads its own host's replicas."""

from __future__ import annotations

import pytest

from shared.liveness import HEARTBEAT_FRESH_MS, Watchdog, healthy, problems, stale

NOW = 10_000_000


@pytest.mark.parametrize(
    ("consuming", "poller_age", "expected"),
    [
        pytest.param(True, 0.5, [], id="consuming-and-polling-beats"),
        pytest.param(False, 0.5, ["no consumer"], id="lost-consumers-skips-the-beat"),
        pytest.param(True, 25.0, ["timer poller idle"], id="stuck-poller-skips-the-beat"),
        pytest.param(False, 60.0, ["no consumer", "timer poller idle"], id="both"),
    ],
)
def test_problems(consuming: bool, poller_age: float, expected: list[str]) -> None:
    found = problems(consuming=consuming, poller_age_seconds=poller_age)
    assert len(found) == len(expected)
    assert all(f.startswith(e) for f, e in zip(found, expected, strict=True))


BEATS = {
    "turns-a:1": NOW - 500,  # alive
    "turns-b:1": NOW - HEARTBEAT_FRESH_MS - 1,  # hung: its beat went stale
    "turns-c:7": NOW - 2 * HEARTBEAT_FRESH_MS,  # replaced by a new process on the same host
    "turns-c:9": NOW - 100,
}


@pytest.mark.parametrize(
    ("host", "ok", "said"),
    [
        pytest.param("turns-a", True, "healthy: turns-a:1", id="alive-replica-is-healthy"),
        pytest.param(
            "turns-b", False, "turns-b:1's", id="hung-replica-fails-though-a-sibling-lives"
        ),
        pytest.param("turns-c", True, "turns-c:9", id="the-hosts-newest-process-counts"),
        pytest.param("turns-d", False, "no heartbeat from host turns-d", id="unknown-host-fails"),
        pytest.param(None, True, "turns-c:9", id="any-host-takes-the-newest"),
    ],
)
def test_healthy(host: str | None, ok: bool, said: str) -> None:
    result, sentence = healthy(BEATS, NOW, host)
    assert result is ok
    assert said in sentence


def test_hosts_with_colons_in_their_names() -> None:
    assert healthy({"fe80::1:42": NOW}, NOW, "fe80::1")[0]


def test_stale_fields_are_pruned_after_an_hour() -> None:
    beats = {"old:1": NOW - 3_600_001, "new:2": NOW - 3_599_999}
    assert stale(beats, NOW) == ["old:1"]


@pytest.mark.parametrize(
    ("exit_after", "checks", "expected"),
    [
        pytest.param(60.0, [([], 0.0), ([], 100.0)], False, id="healthy-never-exits"),
        pytest.param(60.0, [(["x"], 0.0), (["x"], 59.0)], False, id="unhealthy-within-grace"),
        pytest.param(60.0, [(["x"], 0.0), (["x"], 60.0)], True, id="unhealthy-past-grace-exits"),
        pytest.param(
            60.0,
            [(["x"], 0.0), ([], 30.0), (["x"], 40.0), (["x"], 99.0)],
            False,
            id="a-healthy-check-restarts-the-grace",
        ),
        pytest.param(0.0, [(["x"], 0.0), (["x"], 10_000.0)], False, id="zero-never-exits"),
    ],
)
def test_a_replica_unhealthy_past_its_grace_gives_up(
    exit_after: float, checks: list[tuple[list[str], float]], expected: bool
) -> None:
    watchdog = Watchdog(exit_after)
    answers = [watchdog.gives_up(found, now) for found, now in checks]
    assert answers[-1] is expected
    assert not any(answers[:-1])
