"""An in-memory l5r combat: services/turns and services/resolution wired by hand, with a
fixed dice seed, so a test drives a whole combat without the bus."""

from __future__ import annotations

import itertools
from typing import Any

from services.resolution.domain.l5r import L5rResolution
from services.turns.domain.l5r import L5rTurns
from services.turns.domain.l5r.state import L5rCombat
from services.turns.domain.l5r.wounds import set_wounds
from shared.dice.combat import known
from shared.domain import Decision
from shared.errors import RuleViolation
from shared.messages import ACTION_RESOLVED, RESOLUTION_REQUESTED, Event
from shared.outcome import Outcome
from shared.payloads import ActOnCombat, Opening, StartCombat, TimerFired
from shared.settings import CommunitySettings

T0 = 1_750_000_000_000
SEED = "00" * 32
_ids = itertools.count(1)


def sheet(name: str, **over: Any) -> dict[str, Any]:
    """A samurai: Void 2, Reflexes 3, Agility 3, kenjutsu 3, katana 3k2."""
    base: dict[str, Any] = {
        "name": name,
        "ruleset": "l5r",
        "rings": {"earth": 2, "air": 3, "water": 2, "fire": 3, "void": 2},
        "traits": {"reflexes": 3, "agility": 3, "strength": 2},
        "insight_rank": 2,
        "skills": {"kenjutsu": 3, "defense": 2},
        "armor_tn": 0,
        "weapon": {"name": "katana", "skill": "kenjutsu", "damage": "3k2"},
    }
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            base[key] = {**base[key], **value}
        else:
            base[key] = value
    return base


class Combat:
    def __init__(
        self,
        sheets: dict[str, dict[str, Any]] | None = None,
        *,
        defenders: list[str] | None = None,
        attacker: str = "ana",
        seed: str = SEED,
        counters: dict[str, dict[str, int]] | None = None,
        l5r: dict[str, Any] | None = None,
    ) -> None:
        self.turns = L5rTurns()
        self.resolution = L5rResolution()
        defenders = defenders or ["bruno"]
        sheets = sheets or {c: sheet(c.capitalize()) for c in [attacker, *defenders]}
        cmd = StartCombat(
            combat_id="c_l5r",
            ruleset="l5r",
            attacker=attacker,
            defenders=defenders,
            opening=Opening(kind="challenge"),
            sheets=sheets,
            settings=CommunitySettings.model_validate({"l5r": l5r or {}}),
            weekly_uses=counters or {},
            dice=known(seed),
        )
        decision = self.turns.start(cmd, tenant="t", room="r", now_ms=T0)
        assert decision.state is not None
        self.state: dict[str, Any] = decision.state
        self.events: list[Event] = list(decision.events)
        started = next(e for e in decision.events if e.type == "combat.started")
        res = self.resolution.on_combat_started(started.payload, now_ms=T0)
        assert res.state is not None
        self.res_state: dict[str, Any] = {**res.state, "dice": known(seed)}
        self.now = T0

    # --- driving ---
    def _apply(self, decision: Decision[dict[str, Any]]) -> list[Event]:
        if decision.state is None:
            return []
        self.state = decision.state
        produced = list(decision.events)
        for event in decision.events:
            if event.type == RESOLUTION_REQUESTED:
                res = self.resolution.on_event(
                    self.res_state, RESOLUTION_REQUESTED, event.payload, now_ms=self.now
                )
                assert res.state is not None
                self.res_state = res.state
                produced += res.events
                for back in res.events:
                    if back.type == ACTION_RESOLVED:
                        produced += self._apply(
                            self.turns.on_event(
                                self.state, ACTION_RESOLVED, back.payload, now_ms=self.now
                            )
                        )
        self.events += produced
        return produced

    def act(self, body: dict[str, Any], *, moderator: bool = False) -> list[Event]:
        cmd = ActOnCombat.model_validate(
            {"action_id": f"a_{next(_ids):032x}", "action": body, "moderator": moderator}
        )
        return self._apply(self.turns.act(self.state, cmd, now_ms=self.now))

    def refused(self, body: dict[str, Any]) -> RuleViolation:
        try:
            self.act(body)
        except RuleViolation as exc:
            return exc
        raise AssertionError(f"{body} was accepted")

    def fire(self, kind: str) -> list[Event]:
        tid, timer = next((t, v) for t, v in self.state["timers"].items() if v["kind"] == kind)
        fired = TimerFired(timer_id=tid, kind=kind, due_ms=timer["due_ms"], data=timer["data"])
        self.now = int(timer["due_ms"])
        return self._apply(self.turns.on_timer(self.state, fired, now_ms=self.now))

    def ready_all(self) -> None:
        for cid in list(self.state["participants"]):
            self.act({"type": "l5r.ready", "actor": cid})

    # --- reading ---
    def p(self, cid: str) -> dict[str, Any]:
        found: dict[str, Any] = self.state["participants"][cid]
        return found

    @property
    def actor(self) -> str:
        return str(self.state["turn"]["actor"])

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [e.payload for e in self.events if e.type == kind]


def fighting(**kwargs: Any) -> tuple[Combat, str, str]:
    c = Combat(**kwargs)
    c.ready_all()
    actor = c.actor
    foe = next(x for x in c.state["participants"] if c.p(x)["side"] != c.p(actor)["side"])
    return c, actor, foe


def stance(c: Combat, actor: str, name: str = "attack") -> None:
    c.act({"type": "l5r.stance", "actor": actor, "stance": name})


def attack(c: Combat, actor: str, target: str, **body: Any) -> dict[str, Any]:
    events = c.act({"type": "l5r.attack", "actor": actor, "target": target, **body})
    return next(e.payload for e in events if e.type == "resolution.requested")


def wound(c: Combat, cid: str, wounds: int) -> None:
    """Set his wounds as a hit would (C-7), straight in the stored state."""
    state = L5rCombat.parse(c.state)
    set_wounds(state, Outcome(), cid, wounds, None)
    c.state = state.to_dict()


def code(c: Combat, body: dict[str, Any]) -> str:
    return c.refused(body).code
