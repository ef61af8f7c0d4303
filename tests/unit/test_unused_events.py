"""shared/messages.py ``UNUSED``: every event a (service, ruleset) entry keeps from a service
changes nothing there. Each is handed to that ruleset's rules in the service, with and
without a record, and must decide nothing (so not sending it loses nothing)."""

from __future__ import annotations

import pytest

from services.resolution.registry import ruleset_named as resolution_ruleset
from services.states.interface import Context
from services.states.registry import ruleset_named as states_ruleset
from shared.messages import SUBSCRIPTIONS, UNUSED

CASES = [
    pytest.param(service, ruleset, event, id=f"{service}-{ruleset}-{event}")
    for (service, ruleset), events in sorted(UNUSED.items())
    for event in sorted(events)
]
PAYLOAD = {"combat_id": "c1", "character": "ana", "attacker": "ana", "actor": "ana"}


@pytest.mark.parametrize(("service", "ruleset", "event"), CASES)
def test_an_unused_event_decides_nothing(service: str, ruleset: str, event: str) -> None:
    payload = {**PAYLOAD, "ruleset": ruleset}
    if service == "resolution":
        state = {"ruleset": ruleset, "combat_id": "c1"}
        decision = resolution_ruleset(ruleset).on_event(state, event, payload, now_ms=0)
        assert decision.state is None and not decision.events
        return
    ctx = Context(tenant="t", room="r", combat_id="c1", occurred_ms=0, now_ms=0)
    for record in (None, {"ruleset": ruleset, "character": "ana"}):
        decision = states_ruleset(ruleset).on_event(record, "ana", event, payload, ctx)
        assert decision.state is None and not decision.events


def test_only_the_services_that_subscribe_are_named() -> None:
    for (service, _), events in UNUSED.items():
        assert events <= SUBSCRIPTIONS[service]
