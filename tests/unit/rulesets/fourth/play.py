"""Run as ``python -m tests.unit.rulesets.fourth.play`` (a fresh interpreter: the unions are
composed at import): adds the toy ruleset with ONE line in each of the four registries (their
real source, patched before anything imports them), then checks what the gateway validates
and plays a combat through the real handlers of the three services. Prints a JSON summary."""

from __future__ import annotations

import importlib.util
import json
import sys
from datetime import UTC, datetime
from typing import Any

FUTURE = "from __future__ import annotations\n"
PACKAGE = "tests.unit.rulesets.fourth"
PATCHES: dict[str, list[tuple[str, str]]] = {
    "shared.rulesets.registry": [
        (FUTURE, f"{FUTURE}from {PACKAGE}.definition import TOY\n"),
        ("= (UMH, CYPHER, L5R)\n", "= (UMH, CYPHER, L5R, TOY)\n"),
    ],
    **{
        f"services.{service}.registry": [
            (FUTURE, f"{FUTURE}from {PACKAGE}.adapters import Toy{adapter}\n"),
            (
                f'    "l5r": L5r{adapter}(),\n',
                f'    "l5r": L5r{adapter}(),\n    "toy": Toy{adapter}(),\n',
            ),
        ]
        for service, adapter in (
            ("turns", "Turns"),
            ("resolution", "Resolution"),
            ("states", "Aftermath"),
        )
    },
}
"""The import and the one entry a new ruleset adds to each registry."""

POKE = {"type": "toy.poke", "actor": "ana", "target": "bruno"}
SHEETS = {"ana": {"ruleset": "toy", "name": "Ana"}, "bruno": {"ruleset": "toy", "name": "Bruno"}}


def register() -> None:
    """Each registry's own source with one line changed, loaded under its real name."""
    for name, patches in PATCHES.items():
        spec = importlib.util.find_spec(name)
        assert spec is not None and spec.origin is not None and spec.loader is not None
        with open(spec.origin, encoding="utf-8") as source:
            text = source.read()
        for anchor, replacement in patches:
            assert text.count(anchor) == 1, f"{name}: the registry line moved: {anchor!r}"
            text = text.replace(anchor, replacement)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        exec(compile(text, spec.origin, "exec"), module.__dict__)


def play() -> dict[str, Any]:
    from pydantic import TypeAdapter

    from gateway.routes.combats import StartCombatBody
    from services.resolution import handlers as resolution
    from services.states import handlers as states
    from services.turns import handlers as turns
    from shared.actions import MODERATOR_ONLY_ACTIONS, Action
    from shared.errors import RuleViolation, error_body
    from shared.keys import Keys
    from shared.messages import CMD_COMBAT_ACT, CMD_COMBAT_START, Envelope, new_id
    from shared.runtime import Target
    from shared.settings import CommunitySettings
    from shared.sheets import SHEET_ADAPTER

    keys, combat_id = Keys("toy"), new_id("c")
    store: dict[str, Any] = {}
    summary: dict[str, Any] = {
        "enum": StartCombatBody.model_json_schema()["properties"]["ruleset"]["enum"],
        "start_body": StartCombatBody.model_validate(
            {
                "room": "plaza",
                "ruleset": "toy",
                "attacker": "ana",
                "defenders": ["bruno"],
                "opening": {"kind": "challenge"},
            }
        ).ruleset,
        "action": type(
            TypeAdapter(Action).validate_python(
                {"type": "toy.poke", "actor": "ana", "target": "bruno"}
            )
        ).__name__,
        "sheet": type(SHEET_ADAPTER.validate_python({"ruleset": "toy", "name": "Ana"})).__name__,
        "settings": CommunitySettings().model_dump()["toy"],
        "moderator_only": sorted(MODERATOR_ONLY_ACTIONS),
        "events": [],
    }

    def envelope(kind: str, payload: dict[str, Any]) -> Envelope:
        return Envelope(
            message_id=new_id("m"),
            type=kind,
            correlation_id="toy",
            combat_id=combat_id,
            room="plaza",
            tenant="t1",
            occurred_at=datetime.now(UTC),
            payload=payload,
        )

    def deliver(env: Envelope) -> None:
        """Every service that handles ``env.type``, on each aggregate it concerns."""
        for service, handlers in (("turns", turns), ("resolution", resolution), ("states", states)):
            handler = handlers.HANDLERS.get(env.type)
            if handler is None:
                continue
            if service == "states":
                subjects = [
                    (keys.character(service, "t1", c), c) for c in states.characters_of(env)
                ]
            else:
                subjects = [(keys.combat(service, combat_id), combat_id)]
            for agg, subject in subjects:
                decision = handler(env, store.get(agg.base), Target(agg, subject), 0)
                if decision.state is not None:
                    store[agg.base] = decision.state
                for event in decision.events:
                    summary["events"].append(f"{service}:{event.type}")
                    deliver(envelope(event.type, event.payload))

    start = {
        "combat_id": combat_id,
        "ruleset": "toy",
        "attacker": "ana",
        "defenders": ["bruno"],
        "opening": {"kind": "challenge"},
        "sheets": {
            "ana": {"ruleset": "toy", "name": "Ana"},
            "bruno": {"ruleset": "toy", "name": "Bruno"},
        },
        "settings": CommunitySettings().model_dump(mode="json"),
    }
    deliver(envelope(CMD_COMBAT_START, start))
    for actor, target in (("ana", "bruno"), ("bruno", "ana"), ("ana", "bruno")):
        poke = {"type": "toy.poke", "actor": actor, "target": target}
        deliver(envelope(CMD_COMBAT_ACT, {"action_id": new_id("a"), "action": poke}))
    try:
        turns.on_combat_act(
            envelope(CMD_COMBAT_ACT, {"action_id": new_id("a"), "action": POKE}),
            {**store[keys.combat("turns", combat_id).base], "phase": "fighting"},
            Target(keys.combat("turns", combat_id), combat_id),
            0,
        )
    except RuleViolation as violation:
        summary["refusal"] = error_body(violation.code, spanish=True)["error"]["message"]
    summary["turns"] = turns.spec(keys).view(store[keys.combat("turns", combat_id).base], 0)
    summary["defeats"] = {
        c: store.get(keys.character("states", "t1", c).base, {}).get("defeats", 0)
        for c in ("ana", "bruno")
    }
    return summary


if __name__ == "__main__":
    register()
    print(json.dumps(play(), sort_keys=True))
