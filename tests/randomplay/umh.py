"""The umh random player: every action type, every defense kind, combos, areas, moves, joins,
flights, pacts, disconnections; and the umh invariants of a combat's view."""

from __future__ import annotations

import random
import secrets

from tests.randomplay import umh_sheets
from tests.randomplay.client import JSON
from tests.randomplay.common import common_violations
from tests.randomplay.moves import Move, Table, bad_body_moves, second_start

FALLEN = frozenset({"down", "fled"})
REACHING = ("anticipation", "annulment", "reflection")
USE_NUMBERED = ("anticipation", "annulment", "reflection")


class UmhPlayer:
    ruleset = "umh"

    def settings(self, rng: random.Random) -> JSON:
        return {
            "timers": {
                "turn_seconds": rng.randint(1, 3),
                "defense_seconds": rng.randint(1, 3),
                "preparation_seconds": rng.randint(1, 2),
                "disconnect_seconds": rng.randint(1, 3),
                "veto_seconds": rng.randint(1, 2),
            },
            "aftermath": {
                "immunity_seconds": 1,
                "flee_room_ban_seconds": 1,
                "flee_cooldown_seconds": 1,
            },
        }

    async def setup(self, table: Table) -> JSON:
        rng = table.rng
        attacker = table.name("ana")
        defenders = [table.name("bruno") for _ in range(rng.choice((1, 1, 2)))]
        table.spare = [table.name("carla") for _ in range(rng.choice((0, 1, 2, 3)))]
        for character in (attacker, *defenders, *table.spare):
            sheet = umh_sheets.sheet(rng, character[:20])
            table.roster[character] = sheet
            await table.api.put_character(table.key, character, sheet)
        body: JSON = {
            "room": table.name("room"),
            "ruleset": "umh",
            "attacker": attacker,
            "defenders": defenders,
            "opening": {"kind": "challenge"},
        }
        if rng.random() < 0.5:
            body["positions"] = {attacker: [0, 0]} | {d: [1, i] for i, d in enumerate(defenders)}
        direct = [
            s["name"]
            for s in table.roster[attacker]["skills"]
            if s["type"] == "offensive" and "area" not in s
        ]
        if (len(defenders) == 2 or rng.random() < 0.5) and direct:
            body["opening"] = {"kind": "skill", "skill": rng.choice(direct), "targets": defenders}
        return body

    # --- moves ----------------------------------------------------------------------------------
    def moves(self, table: Table, combat: JSON) -> list[Move]:
        rng = table.rng
        people: dict[str, JSON] = combat.get("participants", {})
        phase = combat.get("phase")
        moves: list[Move] = [Move(kind="idle", weight=0.6)]
        for window in combat.get("pending_reactions", []):
            moves += self.reactions(table, combat, window, weight=3.0)
        turn = combat.get("turn") or {}
        actor = (combat.get("interference") or {}).get("holder") or turn.get("actor")
        if phase == "preparation":
            for character in people:
                moves += self.preparation(table, character)
        if phase == "fighting" and actor in people:
            moves += self.own_turn(table, combat, actor)
        for character, person in people.items():
            for skill in table.roster.get(character, {}).get("skills", []):
                if skill.get("out_of_turn") and character != actor:
                    body = {"type": "skill", "actor": character, "skill": skill["name"]}
                    moves.append(Move(body | {"targets": []}, weight=0.2))
            if person.get("status") == "disconnected":
                moves.append(Move({"type": "reconnect", "actor": character}, weight=1.5))
            elif rng.random() < 0.05:
                moves.append(Move({"type": "disconnect", "actor": character}, weight=0.3))
            moves.append(Move({"type": "pact", "actor": character}, weight=0.15))
        moves += self.joins(table, combat)
        moves += self.illegal(table, combat)
        moves += second_start(table, combat, "status", {"kind": "challenge"})
        return moves

    def reactions(self, table: Table, combat: JSON, window: JSON, weight: float) -> list[Move]:
        """Answers to one open window: a defense of each kind he has, nothing, RESISTIR."""
        rng = table.rng
        reactor = str(window["reactor"])
        base: JSON = {"type": "react", "actor": reactor, "action_id": window["action_id"]}
        moves = [Move({**base, "skill": None}, weight=weight * 0.4)]
        moves.append(Move({**base, "skill": None, "resist": True}, weight=weight * 0.1))
        for skill in defenses(table, reactor):
            body = {**base, "skill": skill["name"], **self.defense_fields(table, combat, reactor)}
            kind = skill["defense_kind"]
            if kind in USE_NUMBERED:
                used = combat["participants"][reactor].get("uses_this_combat", {})
                number = int(used.get(skill["name"], 0)) + 1
                body["use_number"] = number if rng.random() < 0.9 else number + 1
            if kind != "evasion":
                body.pop("to", None)
            if kind != "reflection":
                body.pop("redirect_to", None)
            moves.append(Move(body, weight=weight / 2, note=kind))
        # an opponent who is not the reactor steps in (umh 8.2.2.5, 8.2.3.3, 8.1.1.3.1)
        attacker = window.get("attacker")
        for other, person in combat["participants"].items():
            side = combat["participants"].get(attacker, {}).get("side")
            if other in (reactor, attacker) or person.get("side") == side:
                continue
            for skill in defenses(table, other):
                if skill["defense_kind"] in REACHING or skill.get("covers_allies"):
                    body = {**base, "actor": other, "skill": skill["name"]}
                    used = person.get("uses_this_combat", {}).get(skill["name"], 0)
                    if skill["defense_kind"] in USE_NUMBERED:
                        body["use_number"] = int(used) + 1
                    moves.append(Move(body, weight=0.3, note="interject"))
        return moves

    def defense_fields(self, table: Table, combat: JSON, reactor: str) -> JSON:
        rng = table.rng
        fields: JSON = {}
        square = square_of(combat, reactor)
        if square is not None:
            fields["to"] = [square[0] + rng.choice((-1, 0, 1)), square[1] + rng.choice((-1, 1))]
        foes = opponents(combat, reactor)
        if foes and rng.random() < 0.5:
            fields["redirect_to"] = rng.choice(foes)
        return fields

    def preparation(self, table: Table, character: str) -> list[Move]:
        moves = [
            Move({"type": "ready", "actor": character}, weight=1.5),
            Move({"type": "equip", "actor": character, "item": "Espada"}, weight=0.3),
        ]
        for skill in table.roster.get(character, {}).get("skills", []):
            if skill.get("preparation"):
                body = {"type": "skill", "actor": character, "skill": skill["name"], "targets": []}
                moves.append(Move(body, weight=0.5))
        return moves

    def own_turn(self, table: Table, combat: JSON, actor: str) -> list[Move]:
        rng = table.rng
        foes = opponents(combat, actor)
        moves = [Move({"type": "pass_turn", "actor": actor}, weight=1.0)]
        for skill in table.roster.get(actor, {}).get("skills", []):
            body: JSON = {"type": "skill", "actor": actor, "skill": skill["name"]}
            arms = [w["name"] for w in table.roster[actor].get("weapons", [])]
            if arms and rng.random() < 0.5:
                body["weapons"] = rng.sample(arms, rng.randint(1, len(arms)))
                if rng.random() < 0.3:
                    body["weapon_effects"] = rng.choice(arms)
            if skill["type"] == "offensive" and foes:
                if "area" in skill and square_of(combat, actor) is not None:
                    square = square_of(combat, rng.choice(foes)) or [1, 0]
                    body["targets"] = [square]
                else:
                    body["targets"] = rng.sample(
                        foes, rng.choice((1, 1, 2)) if len(foes) > 1 else 1
                    )
                moves.append(Move(body, weight=3.0))
            elif skill["type"] == "supplementary" and not skill.get("flight"):
                body["targets"] = [actor] if rng.random() < 0.5 else []
                moves.append(Move(body, weight=0.5))
            elif skill.get("flight"):
                moves.append(
                    Move({"type": "flee", "actor": actor, "skill": skill["name"]}, weight=0.1)
                )
        here = square_of(combat, actor)
        if here is not None:
            to = [here[0] + rng.choice((-1, 0, 1)), here[1] + rng.choice((-1, 0, 1))]
            moves.append(Move({"type": "move", "actor": actor, "to": to}, weight=0.8))
        moves.append(Move({"type": "flee", "actor": actor}, weight=0.15))
        moves.append(Move({"type": "stand_up", "actor": actor}, weight=0.2))
        return moves

    def joins(self, table: Table, combat: JSON) -> list[Move]:
        rng = table.rng
        moves: list[Move] = []
        people = combat.get("participants", {})
        for joiner in table.spare:
            if joiner in people:
                continue
            side = rng.choice(("attackers", "defenders"))
            via = rng.choice(("irrumpir", "irrumpir", "llamada_de_auxilio"))
            body: JSON = {"type": "join", "actor": joiner, "side": side, "via": via}
            special = next(
                (s for s in table.roster[joiner]["skills"] if s.get("joins_combat")), None
            )
            if special is not None and rng.random() < 0.5:
                body["skill"] = special["name"]
            moves.append(Move(body, weight=0.25))
        for pending in combat.get("pending_joins", []):
            for member, person in people.items():
                if person.get("side") == pending.get("side"):
                    veto = {"type": "veto_join", "actor": member, "joiner": pending["joiner"]}
                    moves.append(Move(veto, weight=0.6))
        return moves

    def illegal(self, table: Table, combat: JSON) -> list[Move]:
        """Moves that must be refused: strangers acting, unknown skills and action ids, bad
        bodies, a frontend key on a moderator-only action."""
        rng = table.rng
        people = list(combat.get("participants", {}))
        anyone = rng.choice(people) if people else "nadie"
        stranger = table.name("extraño")
        fake_action = f"a_{secrets.token_hex(16)}"
        moves = [
            Move({"type": "pass_turn", "actor": stranger}, illegal=True, weight=0.2),
            Move(
                {"type": "skill", "actor": anyone, "skill": "No-Existe", "targets": people[:1]},
                illegal=True,
                weight=0.2,
            ),
            Move(
                {"type": "react", "actor": anyone, "action_id": fake_action, "skill": None},
                illegal=True,
                weight=0.2,
            ),
            Move(
                {"type": "annul", "actor": anyone, "reason": "not a moderator"},
                illegal=True,
                frontend=True,
                weight=0.1,
            ),
        ]
        if combat.get("phase") == "ended":
            moves.append(Move({"type": "pass_turn", "actor": anyone}, illegal=True))
        moves += [
            Move(m.body, m.illegal, m.kind, raw=m.raw, weight=m.weight * 0.3)
            for m in bad_body_moves(rng, anyone)
        ]
        return moves

    # --- invariants -----------------------------------------------------------------------------
    def violations(self, table: Table, combat: JSON) -> list[str]:
        problems: list[str] = []
        people: dict[str, JSON] = combat.get("participants", {})
        for character, p in people.items():
            for counter in ("pa", "pa_bonus", "movement_left"):
                if isinstance(p.get(counter), int | float) and p[counter] < 0:
                    problems.append(f"{character}: {counter} {p[counter]} below 0")
            vit, vit_max = p.get("vit"), p.get("vit_max")
            if isinstance(vit, int) and isinstance(vit_max, int) and not 0 <= vit <= vit_max:
                problems.append(f"{character}: VIT {vit} outside [0, {vit_max}]")
            if any(v < 0 for v in (p.get("cooldowns") or {}).values()):
                problems.append(f"{character}: a cooldown below 0: {p['cooldowns']}")
            if p.get("status") not in ("active", "down", "fled", "disconnected"):
                problems.append(f"{character}: unknown status {p.get('status')}")
        problems += common_violations(combat, "status", FALLEN)
        for window in combat.get("pending_reactions", []):
            reactor = window.get("reactor")
            if people.get(reactor, {}).get("status") in FALLEN:
                problems.append(f"a window open for {reactor}, who is {people[reactor]['status']}")
        result = combat.get("result") or {}
        if combat.get("phase") == "ended" and result.get("reason") != "annulled":
            for character, p in people.items():
                if p.get("vit") == 0 and p.get("status") == "active":
                    problems.append(f"{character}: VIT 0 and active after the end")
        return problems

    def carried_over(self, combat: JSON, character: str, status: JSON) -> str | None:
        return None

    def forbidden(self, combat: JSON, move: Move) -> str | None:
        """umh 4.1: a fighter down or fled acts no more (moderator actions aside)."""
        person = combat.get("participants", {}).get(move.actor)
        kind = move.body.get("type") if isinstance(move.body, dict) else None
        if person is None or kind == "annul" or person.get("status") not in FALLEN:
            return None
        return f"{move.actor} is {person['status']}"


def defenses(table: Table, character: str) -> list[JSON]:
    return [
        s for s in table.roster.get(character, {}).get("skills", []) if s["type"] == "defensive"
    ]


def opponents(combat: JSON, character: str) -> list[str]:
    people = combat.get("participants", {})
    side = people.get(character, {}).get("side")
    return [c for c, p in people.items() if p.get("side") != side and p.get("status") not in FALLEN]


def square_of(combat: JSON, character: str) -> list[int] | None:
    position = combat.get("participants", {}).get(character, {}).get("position") or {}
    square = position.get("square")
    return list(square) if square else None
