"""Webhooks' pure rules: which events a webhook wants, the retry schedule, the addresses and
URLs a webhook may use (docs/webhooks.md)."""

from __future__ import annotations

import ipaddress

import pytest

from gateway.errors import ApiError
from gateway.webhooks.schedule import Backoff
from gateway.webhooks.store import Registration
from gateway.webhooks.targets import address_allowed, check_url


def registration(event_types: list[str], rooms: list[str] | None = None) -> Registration:
    return Registration("wh_1", "https://x.org", event_types, rooms, "", "whsec_x", 0)


@pytest.mark.parametrize(
    ("event_types", "rooms", "event", "room", "wanted"),
    [
        (["*"], None, "turn.started", "plaza", True),
        (["combat.*"], None, "combat.ended", "plaza", True),
        (["combat.*"], None, "combatant.down", "plaza", False),  # a prefix of words, not letters
        (["combat.ended"], None, "combat.ended", "plaza", True),
        (["combat.ended"], None, "combat.started", "plaza", False),
        (["*"], ["plaza"], "turn.started", "taberna", False),
        (["turn.*", "action.resolved"], ["plaza"], "action.resolved", "plaza", True),
    ],
    ids=["all", "prefix", "prefix-is-a-word", "exact", "other-type", "other-room", "both"],
)
def test_a_webhook_wants_the_types_and_rooms_it_names(
    event_types: list[str], rooms: list[str] | None, event: str, room: str, wanted: bool
) -> None:
    assert registration(event_types, rooms).wants(event, room) is wanted


def test_a_delivery_id_is_the_same_for_the_same_webhook_and_event() -> None:
    first = registration(["*"]).delivery_id("m_1")
    assert first == registration(["*"]).delivery_id("m_1") != registration(["*"]).delivery_id("m_2")
    assert first.startswith("msg_")


def test_retries_double_from_the_base_up_to_the_cap() -> None:
    backoff = Backoff(base_seconds=5, cap_seconds=60, window_seconds=86400)
    assert [backoff.delay(n, 0.0) for n in range(1, 7)] == [5, 10, 20, 40, 60, 60]
    assert backoff.delay(1, 0.999) == pytest.approx(5 * 1.0999)


def test_retries_stop_past_the_window_of_the_first_attempt() -> None:
    backoff = Backoff(base_seconds=5, cap_seconds=4 * 3600, window_seconds=86400)
    now, first, failures, times = 0, 0, 0, []
    while True:
        failures += 1
        due = backoff.next_attempt_ms(first, now, failures, 0.0)
        if due is None:
            break
        times.append(due)
        now = due
    assert times[:3] == [5_000, 15_000, 35_000]
    assert times[-1] <= 86_400_000 < times[-1] + 4 * 3600 * 1000
    assert 15 <= len(times) <= 20  # about a day of retries


@pytest.mark.parametrize(
    ("address", "allow_private", "allowed"),
    [
        ("93.184.216.34", False, True),
        ("2606:2800:220:1:248:1893:25c8:1946", False, True),
        ("127.0.0.1", False, False),
        ("127.0.0.1", True, True),
        ("::1", False, False),
        ("10.0.0.8", False, False),
        ("192.168.1.10", True, True),
        ("169.254.169.254", False, False),  # cloud metadata
        ("169.254.169.254", True, False),  # link-local: never
        ("0.0.0.0", True, False),
        ("224.0.0.1", True, False),
        ("100.64.0.1", True, False),  # carrier-grade NAT
        ("::ffff:127.0.0.1", False, False),  # loopback in IPv6 clothing
        ("::ffff:93.184.216.34", False, True),
    ],
)
def test_only_public_addresses_unless_the_operator_allows_private_ones(
    address: str, allow_private: bool, allowed: bool
) -> None:
    ip = ipaddress.ip_address(address)
    assert address_allowed(ip, allow_private=allow_private) is allowed


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("ftp://x.org/hook", "scheme"),
        ("javascript:alert(1)", "scheme"),
        ("x.org/hook", "scheme"),
        ("https://user:pw@x.org/hook", "credentials_in_url"),
        ("https://x.org:99999/hook", "port"),
        ("https:///hook", "host"),
        ("https://x.org/" + "a" * 2000, "too_long"),
    ],
)
def test_a_webhook_url_is_http_or_https_with_a_host_and_no_credentials(
    url: str, reason: str
) -> None:
    with pytest.raises(ApiError) as refused:
        check_url(url)
    assert refused.value.code == "webhook_url_forbidden"
    assert refused.value.details["reason"] == reason


def test_a_good_url_gives_its_host_and_port() -> None:
    assert check_url("https://bot.example.org/hook?x=1") == ("bot.example.org", 443)
    assert check_url("http://bot.example.org:8080/hook") == ("bot.example.org", 8080)
