"""Messages between services are read tolerantly (shared/payloads.py): an older service
reads what a newer one sends, ignoring the fields it does not know yet. Seen in the chaos
run: a restarted turns added ``weapons`` to ``resolution.requested`` while resolution still
ran the older code; a strict reader dead-lettered the hit and the combat stalled."""

from __future__ import annotations

from shared.payloads import ActionResolved, CombatantJoined, ResolutionRequested


def test_a_field_from_a_newer_service_is_ignored() -> None:
    request = ResolutionRequested.model_validate(
        {
            "action_id": "a_1",
            "attacker": "ana",
            "skill": "Golpe",
            "targets": ["bruno"],
            "a_field_of_next_year": {"anything": 1},
        }
    )
    assert (request.skill, request.targets) == ("Golpe", ["bruno"])
    assert "a_field_of_next_year" not in request.model_dump()


def test_every_message_model_is_tolerant() -> None:
    for model in (ResolutionRequested, ActionResolved, CombatantJoined):
        assert model.model_config.get("extra") == "ignore", model
