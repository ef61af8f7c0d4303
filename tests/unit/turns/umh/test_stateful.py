"""A random referee session: legal and illegal actions, timers, resolutions and effects of
services/resolution, joins, flights, disconnections and pacts, in any order.

After every step the invariants of umh turns must hold (PA never negative, exactly one
current turn while fighting, the order holds everyone still fighting, a round ends only
after every own turn); a refused input leaves the state dict untouched, and no function
mutates its input.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    initialize,
    precondition,
    rule,
)

from shared.payloads import TimerFired

from .builders import (
    ATTACK,
    BLESSING,
    COMBO,
    COMMAND,
    DEFENSE_KINDS,
    ENTRY,
    FIELD,
    HEAVY,
    JAB,
    ORDER,
    PORTAL,
    RALLY,
    RUN,
    SHIELD,
    TURNS,
    WAVE,
    WINK,
    action_id,
    attack_opening,
    join_cmd,
    start_cmd,
    where,
)
from .session import Session, snapshot

CHARACTERS = ["ana", "bruno", "carla"]
JOINERS = ["dani", "eva", "fede"]
EVERYONE = CHARACTERS + JOINERS
# "@..." picks the likely-legal choice, so that random sessions get far into the combat.
ACTORS = ["@current", "@current", "@current", "@reactor", *EVERYONE, "zoe"]
REACTORS = ["@reactor", "@reactor", "@reactor", "@current", *CHARACTERS]
SKILLS = [ATTACK, ATTACK, ATTACK, HEAVY, FIELD, BLESSING, COMBO, WAVE, *DEFENSE_KINDS, "Nada"]
DEFENSES = [SHIELD, SHIELD, FIELD, ATTACK, *DEFENSE_KINDS, "Nada"]
TARGETS = ["@opponent", "@opponent", "@opponent", *CHARACTERS, "zoe"]
BLOCKS = [["act"], ["act_unless_telepathic"], ["move"], ["speech"], ["stand_up", "move"]]


class CombatMachine(Session):
    # --- rules: a start, then mostly legal moves -------------------------------------
    @initialize(
        defenders=st.sampled_from([1, 2, 2]),
        challenge=st.booleans(),
        vel=st.lists(st.integers(1, 6), min_size=3, max_size=3),
        pa=st.sampled_from([2, 3, 4, 10]),
        skip_to_fighting=st.sampled_from([True, True, True, False]),
        grid=st.booleans(),
    )
    def start(
        self,
        defenders: int,
        challenge: bool,
        vel: list[int],
        pa: int,
        skip_to_fighting: bool,
        grid: bool,
    ) -> None:
        names = tuple(CHARACTERS[1 : 1 + defenders])
        opening = {"kind": "challenge"} if challenge and defenders == 1 else attack_opening(*names)
        speeds = dict(zip(CHARACTERS, vel, strict=True))
        positions = {"ana": (0, 0), "bruno": (1, 0), "carla": (0, 1)} if grid else None
        cmd = start_cmd(defenders=names, vel=speeds, opening=opening, pa_per_round=pa)
        if positions:
            cmd = cmd.model_copy(update={"positions": {c: positions[c] for c in ("ana", *names)}})
        self.apply(TURNS.start(cmd, **where(self.now)))
        while skip_to_fighting and self.state["phase"] in ("opening", "preparation"):
            if self.ready():
                self.resolve(self.ready()[0], [])
            else:
                self.fire_due(which=0, turns_too=False)

    @precondition(lambda self: self.state["phase"] == "fighting")
    @rule(
        move=st.sampled_from(
            [ATTACK, ATTACK, ATTACK, HEAVY, BLESSING, JAB, WINK, COMBO, ORDER, COMMAND, "pass"]
        ),
        which=st.integers(0, 5),
    )
    def play(self, move: str, which: int) -> None:
        """The current actor passes, or uses a skill on an opponent (or an ally)."""
        actor = self.current()
        if move == "pass":
            self.act({"type": "pass_turn", "actor": actor})
            return
        side = self.state["participants"][actor]["side"]
        ally = move in (ORDER, COMMAND, BLESSING)
        pool = [
            c
            for c, p in self.state["participants"].items()
            if (p["side"] == side) == ally and c != actor
        ]
        targets = [pool[which % len(pool)]] if pool else []
        self.act({"type": "skill", "actor": actor, "skill": move, "targets": targets})

    @precondition(lambda self: self.state["phase"] == "fighting")
    @rule()
    def pass_current(self) -> None:
        """PASO TURNO by whoever acts now, so that sessions reach later rounds."""
        self.act({"type": "pass_turn", "actor": self.current()})

    @precondition(lambda self: bool(self.open_windows()))
    @rule(
        skill=st.sampled_from([None, None, SHIELD, FIELD, "Previsión", "Anulación", "Esquiva"]),
        which=st.integers(0, 2),
        use_number=st.sampled_from([None, 1, 1, 2, 3]),
    )
    def defend(self, skill: str | None, which: int, use_number: int | None) -> None:
        """An open window is answered, with a defense (or an answer) or by taking the hit."""
        windows = self.open_windows()
        action, reactor = windows[which % len(windows)]
        body: dict[str, Any] = {"type": "react", "actor": reactor, "action_id": action}
        body.update(skill=skill, use_number=use_number)
        self.act(body)

    @precondition(lambda self: bool(self.ready()))
    @rule(
        fallen=st.sampled_from([None, None, None, None, "target", "target", "attacker"]),
        cancelled=st.sampled_from([False, False, False, True]),
        combo=st.booleans(),
        refund=st.sampled_from([0, 0, 1, 2]),
        speed=st.sampled_from([0, 0, 1, 7]),
    )
    def settle(
        self, fallen: str | None, cancelled: bool, combo: bool, refund: int, speed: int
    ) -> None:
        """Resolution answers the oldest request: maybe someone falls, the hit is cancelled
        (refunds), an evasion spends speed, a combo goes on."""
        action = self.ready()[0]
        settled = self.state["actions"][action]
        downs = {
            None: [],
            "target": settled["targets"][:1],
            "attacker": [settled["attacker"]],
        }[fallen]
        more: dict[str, Any] = {"cancelled": cancelled, "combo_continues": combo}
        if refund:
            more["refunds"] = {settled["attacker"]: refund}
        if speed and settled["targets"]:
            more["speed_spent"] = {settled["targets"][0]: speed}
        self.resolve(action, downs, **more)

    @precondition(lambda self: bool(self.state["timers"]))
    @rule(which=st.sampled_from([0, 0, 1, 2]), turns_too=st.sampled_from([True, False, False]))
    def fire_due(self, which: int, turns_too: bool) -> None:
        """A timer fires (mostly the earliest); the clock jumps to its due time.

        Turn timers fire a third of the time, so that sessions get past the first turns.
        """
        armed = sorted(self.state["timers"].items(), key=lambda kv: (kv[1]["due_ms"], kv[0]))
        armed = [kv for kv in armed if turns_too or kv[1]["kind"] != "turn"]
        if not armed:
            return
        timer_id, t = armed[which % len(armed)]
        self.now = max(self.now, int(t["due_ms"]))
        self.fire(TimerFired(timer_id=timer_id, kind=t["kind"], due_ms=t["due_ms"], data=t["data"]))

    @rule(seconds=st.integers(1, 400))
    def wait(self, seconds: int) -> None:
        self.now += seconds * 1000

    # --- joins, leaving, presence, conditions ---------------------------------------
    @precondition(lambda self: self.state["phase"] != "ended")
    @rule(
        joiner=st.sampled_from([*JOINERS, "bruno"]),
        side=st.sampled_from(["attackers", "defenders"]),
        via=st.sampled_from(["irrumpir", "irrumpir", "llamada_de_auxilio", "skill"]),
    )
    def join(self, joiner: str, side: str, via: str) -> None:
        """IRRUMPIR, LLAMADA DE AUXILIO or an entry skill (umh 1.2.4)."""
        self.n += 1
        skill = ENTRY if via == "skill" else None
        real_via = "irrumpir" if via == "skill" else via
        cmd = join_cmd(joiner, side, real_via, n=self.n, skill_name=skill)
        self.attempt(lambda s: TURNS.act(s, cmd, now_ms=self.now))

    @precondition(lambda self: bool(self.state.get("pending_joins")))
    @rule(voter=st.sampled_from(EVERYONE))
    def veto(self, voter: str) -> None:
        joiner = sorted(self.state["pending_joins"])[0]
        self.act({"type": "veto_join", "actor": voter, "joiner": joiner})

    @precondition(lambda self: self.state["phase"] in ("preparation", "fighting"))
    @rule(
        kind=st.sampled_from(
            [
                "flee",
                "pact",
                "disconnect",
                "reconnect",
                "reconnect",
                "stand_up",
                "move",
                "move",
                "move",
                "ready",
            ]
        ),
        actor=st.sampled_from(["@current", "@current", *EVERYONE]),
        skill=st.sampled_from([None, None, RUN, PORTAL, RALLY]),
        step=st.tuples(st.integers(-2, 2), st.integers(-2, 2)),
    )
    def other_action(self, kind: str, actor: str, skill: str | None, step: tuple[int, int]) -> None:
        """HUIR, a pact, presence reported by the frontend, *Levantarse*, a move."""
        who = self.who(actor)
        body: dict[str, Any] = {"type": kind, "actor": who}
        if kind == "flee" and skill:
            body["skill"] = skill
        if kind == "move":
            here = self.state["positions"].get(who, [0, 0])
            body["to"] = [here[0] + step[0], here[1] + step[1]]
        self.act(body)

    @precondition(lambda self: self.state["phase"] != "ended")
    @rule(who=st.sampled_from(EVERYONE), blocks=st.sampled_from(BLOCKS), expire=st.booleans())
    def effect(self, who: str, blocks: list[str], expire: bool) -> None:
        """resolution applies (or ends) an effect; turns mirrors what it blocks (umh 11)."""
        mirrored = self.state["participants"].get(who, {}).get("effects", {})
        if expire and mirrored:
            effect_id = sorted(mirrored)[0]
            payload = {"combat_id": self.state["id"], "character": who, "effect_id": effect_id}
            self.event("effect.expired", {**payload, "kind": "control", "type": "x"})
            return
        self.effects += 1
        effect = {"effect_id": f"e{self.effects}", "kind": "control", "type": "x"}
        applied = {"combat_id": self.state["id"], "character": who, "effect": effect}
        self.event("effect.applied", {**applied, "blocks": blocks})

    @precondition(lambda self: self.state["phase"] != "ended")
    @rule(who=st.sampled_from([*EVERYONE, *[None] * 12]))
    def tick_fells(self, who: str | None) -> None:
        """Now and then a damage-over-time tick brings someone to 0 VIT outside any hit
        (umh 11.2); rarely, so that sessions get past the first rounds."""
        if who is not None:
            self.event("combatant.down", {"character": who, "cause": "indirect"})

    # --- one rule for random, mostly illegal inputs ---------------------------------
    @rule(data=st.data())
    def noise(self, data: st.DataObject) -> None:
        """A random input, mostly illegal: refused without a change, or harmless."""
        inputs = [
            self.random_skill,
            self.random_react,
            self.random_pass,
            self.stale_timer,
            self.stale_resolution,
            self.moderator_annul,
        ]
        data.draw(st.sampled_from(inputs))(data)

    def random_skill(self, data: st.DataObject) -> None:
        actor = self.who(data.draw(st.sampled_from(ACTORS)))
        skill = data.draw(st.sampled_from(SKILLS))
        aims = [self.who(t) for t in data.draw(st.lists(st.sampled_from(TARGETS), max_size=2))]
        reuse_id = data.draw(st.booleans()) and self.n > 0
        self.act({"type": "skill", "actor": actor, "skill": skill, "targets": aims}, reuse_id)

    def random_react(self, data: st.DataObject) -> None:
        in_flight = sorted(self.state["actions"])
        known = data.draw(st.booleans())
        action = {
            "type": "react",
            "actor": self.who(data.draw(st.sampled_from(REACTORS))),
            "action_id": in_flight[0] if known and in_flight else action_id(-1),
            "skill": data.draw(st.one_of(st.none(), st.sampled_from(DEFENSES))),
            "resist": data.draw(st.sampled_from([True, False, False])),
        }
        self.act(action)

    def random_pass(self, data: st.DataObject) -> None:
        self.act({"type": "pass_turn", "actor": self.who(data.draw(st.sampled_from(ACTORS)))})

    def moderator_annul(self, data: st.DataObject) -> None:
        """umh 4.2.4: refused to anyone but a moderator; a moderator's ends the combat."""
        moderator = data.draw(st.sampled_from([*[False] * 9, True]))
        self.act({"type": "annul", "actor": "mod", "reason": "test"}, moderator=moderator)

    def stale_timer(self, data: st.DataObject) -> None:
        """A timer fired again (lease lost) or never armed: nothing happens."""
        timer_id = data.draw(st.sampled_from([*self.fired, f"{self.state['id']}:turn:0"]))
        if timer_id in self.state["timers"]:
            return
        before = snapshot(self.state)
        timer = TimerFired(timer_id=timer_id, kind="turn", due_ms=self.now)
        assert TURNS.on_timer(self.state, timer, now_ms=self.now).state is None
        assert snapshot(self.state) == before

    def stale_resolution(self, data: st.DataObject) -> None:
        """A redelivered or unknown ``action.resolved``: nothing happens."""
        action = data.draw(st.sampled_from([*self.settled, action_id(-2)]))
        if action in self.state["actions"]:
            return
        before = snapshot(self.state)
        downs = data.draw(st.lists(st.sampled_from(CHARACTERS), max_size=2))
        payload = {"action_id": action, "results": [], "downs": downs}
        assert TURNS.on_event(self.state, "action.resolved", payload, now_ms=self.now).state is None
        assert snapshot(self.state) == before


CombatMachine.TestCase.settings = settings(
    max_examples=100,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
# Passing takes ~15 s (marked slow); shrinking a failure to a short session can take
# minutes, which the suite-wide 120 s timeout would cut short into a confusing FlakyFailure.
TestCombat = pytest.mark.slow(pytest.mark.timeout(900)(CombatMachine.TestCase))
