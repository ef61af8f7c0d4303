"""The l5r random player: preparation and Velocidad, stances, attacks with raises and Void,
every Void use, moves, concentration, simple and complex actions, Curso de combate, pacts,
flights; and the invariants of wounds, wound ranks and the Void pool (C-7, Vacío)."""

from __future__ import annotations

import random
from dataclasses import replace

from tests.randomplay.client import JSON
from tests.randomplay.common import common_violations
from tests.randomplay.moves import Move, Table, bad_body_moves, second_start

RANKS = ("healthy", "nicked", "grazed", "hurt", "injured", "crippled", "down", "out")
GONE = frozenset({"dead", "fled"})
OUT_OF_FIGHT = frozenset({"down", "out", "dead", "fled"})
MODERATOR = frozenset({"l5r.grant_void", "annul"})
VOID_ON_ROLL = ("mejora_die", "mejora_rank", "mejora_raise", "persistencia")


def wounds_table(rng: random.Random) -> list[JSON] | None:
    """The default table (Earth), or a short one so that a combat ends in a few hits."""
    if rng.random() < 0.15:
        return None
    step = rng.randint(2, 3)
    penalties = (rng.choice((0, 0, 1)), 3, 5, 10, 15, 20, 40, 40)
    return [
        {"name": name, "up_to": step * (i + 1), "penalty": penalty}
        for i, (name, penalty) in enumerate(zip(RANKS, penalties, strict=True))
    ]


def sheet(rng: random.Random, name: str) -> JSON:
    rings = {r: rng.randint(1, 3) for r in ("earth", "air", "water", "fire", "void")}
    ranged = rng.random() < 0.2
    body: JSON = {
        "name": name,
        "ruleset": "l5r",
        "rings": rings,
        "traits": {t: rng.randint(1, 4) for t in ("reflexes", "agility", "strength", "stamina")},
        "insight_rank": rng.randint(1, 3),
        "skills": {"kenjutsu": rng.randint(0, 3), "defense": rng.randint(0, 2)}
        | ({"kyujutsu": rng.randint(1, 3)} if ranged else {}),
        "armor_tn": rng.choice((0, 0, 5)),
        "weapon": {
            "name": "yumi" if ranged else "katana",
            "skill": "kyujutsu" if ranged else "kenjutsu",
            "damage": rng.choice(("3k2", "4k2", "4k3")),
            "ranged": ranged,
        },
    }
    if rng.random() < 0.3:
        body["void_points"] = rng.randint(0, rings["void"])
    table = wounds_table(rng)
    if table is not None:
        body["wounds"] = table
    return body


class L5rPlayer:
    ruleset = "l5r"

    def settings(self, rng: random.Random) -> JSON:
        return {
            "timers": {"turn_seconds": rng.randint(2, 4), "preparation_seconds": rng.randint(1, 2)}
        }

    async def setup(self, table: Table) -> JSON:
        rng = table.rng
        attacker = table.name("ana")
        defenders = [table.name("bruno") for _ in range(rng.choice((1, 1, 2)))]
        table.spare = [table.name("carla")]
        for character in (attacker, *defenders, *table.spare):
            table.roster[character] = sheet(rng, character[:20])
            await table.api.put_character(table.key, character, table.roster[character])
        return {
            "room": table.name("dojo"),
            "ruleset": "l5r",
            "attacker": attacker,
            "defenders": defenders,
            "opening": {"kind": "challenge"},
        }

    # --- moves ----------------------------------------------------------------------------------
    def moves(self, table: Table, combat: JSON) -> list[Move]:
        rng = table.rng
        people: dict[str, JSON] = combat.get("participants", {})
        moves = [Move(kind="idle", weight=0.5)]
        everyone = list(people)
        if combat.get("phase") == "preparation":
            for character in everyone:
                moves.append(Move({"type": "l5r.ready", "actor": character}, weight=1.5))
                velocidad = {"type": "l5r.void", "actor": character, "use": "velocidad"}
                moves.append(Move(velocidad, weight=0.2))
        turn = combat.get("turn") or {}
        actor = turn.get("actor")
        if combat.get("phase") == "fighting" and actor in people:
            in_turn = self.turn_moves(table, combat, actor)
            if not turn.get("stance_declared"):
                stance = rng.choice(("attack", "attack", "full_attack", "full_defense"))
                body: JSON = {"type": "l5r.stance", "actor": actor, "stance": stance}
                if rng.random() < 0.1:
                    body = {"type": "l5r.full_defense", "actor": actor}
                moves.append(Move(body, weight=3.0))
                in_turn = [replace(m, weight=m.weight * 0.15) for m in in_turn]
            moves += in_turn
        for character in everyone:
            moves.append(Move(void(rng, character, "reduccion_heridas"), weight=0.15))
            moves.append(Move(void(rng, character, "golpe_final"), weight=0.05))
            foes = opponents(combat, character)
            if foes and rng.random() < 0.3:
                tide = {"type": "l5r.tide", "actor": character, "against": rng.choice(foes)}
                moves.append(Move(tide, weight=0.2))
            moves.append(Move({"type": "pact", "actor": character}, weight=0.05))
        if everyone:
            grant = {
                "type": "l5r.grant_void",
                "actor": everyone[0],
                "character": rng.choice(everyone),
            }
            moves.append(Move(grant, weight=0.1))
        moves += self.illegal(table, combat)
        moves += second_start(table, combat, "status", {"kind": "challenge"})
        return moves

    def turn_moves(self, table: Table, combat: JSON, actor: str) -> list[Move]:
        rng = table.rng
        foes = opponents(combat, actor)
        allies = [c for c in combat["participants"] if c != actor and c not in foes]
        pass_body: JSON = {"type": "l5r.pass", "actor": actor}
        if rng.random() < 0.15:
            pass_body["delay"] = True
        moves = [
            Move(pass_body, weight=1.0),
            Move(
                {"type": "l5r.move", "actor": actor, "mode": rng.choice(("move", "move", "run"))}
                | {"meters": rng.choice((1, 2, 3, 6, 20))},
                weight=0.3,
            ),
            Move({"type": "l5r.stand_up", "actor": actor}, weight=0.2),
            Move({"type": "l5r.simple", "actor": actor, "description": "bow"}, weight=0.2),
            Move(complex_action(rng, actor), weight=0.3),
            Move({"type": "l5r.speak", "actor": actor, "text": "¡Ja!"}, weight=0.1),
            Move(void(rng, actor, rng.choice(("incremento_no", "obtener_accion"))), weight=0.3),
            Move({"type": "l5r.flee", "actor": actor}, weight=0.03),
        ]
        if allies:
            moves.append(Move(void(rng, actor, "alentar", rng.choice(allies)), weight=0.1))
        if foes:
            foe = rng.choice(foes)
            moves.append(Move(attack(rng, actor, foe, allies), weight=3.0))
            concentrate = {"type": "l5r.concentrate", "actor": actor, "target": foe}
            moves.append(Move(concentrate, weight=0.2))
            if combat.get("round") == 1:
                swap = void(rng, actor, "cambiar_iniciativa", foe)
                moves.append(Move(swap, weight=0.1))
        return moves

    def illegal(self, table: Table, combat: JSON) -> list[Move]:
        rng = table.rng
        people = list(combat.get("participants", {}))
        anyone = rng.choice(people) if people else "nadie"
        grant = {"type": "l5r.grant_void", "actor": anyone, "character": anyone}
        return [
            Move({"type": "l5r.pass", "actor": table.name("x")}, illegal=True, weight=0.2),
            Move(
                {"type": "l5r.attack", "actor": anyone, "target": table.name("x")},
                illegal=True,
                weight=0.2,
            ),
            Move(grant, illegal=True, frontend=True, weight=0.1),
            Move({"type": "cypher.pass", "actor": anyone}, illegal=True, weight=0.1),
            *(
                Move(m.body, m.illegal, m.kind, raw=m.raw, weight=m.weight * 0.3)
                for m in bad_body_moves(rng, anyone)
            ),
        ]

    # --- invariants -----------------------------------------------------------------------------
    def violations(self, table: Table, combat: JSON) -> list[str]:
        problems = common_violations(combat, "status", GONE)
        for character, p in combat.get("participants", {}).items():
            problems += [f"{character}: {problem}" for problem in wound_problems(p)]
        return problems

    def carried_over(self, combat: JSON, character: str, status: JSON) -> str | None:
        """The next combat starts from the Void points this one left (Vacío)."""
        left = combat["participants"][character].get("void_points")
        kept = ((status.get("ruleset_status") or {}).get("l5r") or {}).get("void_points")
        return None if kept == left else f"the combat left Void {left}, states keeps {kept}"

    def forbidden(self, combat: JSON, move: Move) -> str | None:
        """The dead and the fled act no more, but for what answers the hit that killed him
        (Reducción de heridas, Golpe final, 004 Vacío) and speaking."""
        person = combat.get("participants", {}).get(move.actor)
        body = move.body if isinstance(move.body, dict) else {}
        kind = body.get("type")
        if person is None or kind in MODERATOR or person.get("status") not in GONE:
            return None
        if kind == "l5r.speak" or body.get("use") in ("reduccion_heridas", "golpe_final"):
            return None if person["status"] == "dead" else f"{move.actor} fled"
        return f"{move.actor} is {person['status']}"


def wound_problems(p: JSON) -> list[str]:
    """C-7: the rank and penalty the wounds give in his table; Void within [0, max]."""
    problems: list[str] = []
    wounds = int(p.get("wounds") or 0)
    table = p.get("wound_table") or []
    rank, penalty = "dead", int(table[-1]["penalty"]) if table else 0
    for row in table:
        if wounds <= int(row["up_to"]):
            rank, penalty = str(row["name"]), int(row["penalty"])
            break
    if wounds < 0:
        problems.append(f"wounds {wounds} below 0")
    if (p.get("wound_rank"), p.get("wound_penalty")) != (rank, penalty):
        shown = (p.get("wound_rank"), p.get("wound_penalty"))
        problems.append(f"{wounds} wounds give {rank}/{penalty}, shown {shown}")
    void_points, void_max = int(p.get("void_points") or 0), int(p.get("void_max") or 0)
    if not 0 <= void_points <= void_max:
        problems.append(f"Void {void_points} outside [0, {void_max}]")
    status = p.get("status")
    if status in ("down", "out", "dead") and status != rank:
        problems.append(f"status {status} with rank {rank}")
    if rank == "dead" and status not in ("dead", "fled"):
        problems.append(f"rank dead but status {status}")
    return problems


def opponents(combat: JSON, character: str) -> list[str]:
    people = combat.get("participants", {})
    side = people.get(character, {}).get("side")
    return [
        c for c, p in people.items() if p.get("side") != side and p["status"] not in OUT_OF_FIGHT
    ]


def void(rng: random.Random, actor: str, use: str, partner: str | None = None) -> JSON:
    body: JSON = {"type": "l5r.void", "actor": actor, "use": use}
    return body | ({"partner": partner} if partner else {})


def attack(rng: random.Random, actor: str, foe: str, allies: list[str]) -> JSON:
    raises: JSON = {}
    for effect, chance in (("damage", 0.4), ("called_shot", 0.1), ("knockdown", 0.05)):
        if rng.random() < chance:
            raises[effect] = (
                rng.randint(1, 2)
                if effect == "damage"
                else (
                    rng.choice(("torso", "arm", "leg", "head")) if effect == "called_shot" else True
                )
            )
    for flag in ("disarm", "feint", "extra_attack"):
        if rng.random() < 0.05:
            raises[flag] = True
    if allies and rng.random() < 0.05:
        raises["protect"] = {"ally": rng.choice(allies), "raises": 1}
    if rng.random() < 0.1:
        raises["lower_tn"] = 1
    body: JSON = {"type": "l5r.attack", "actor": actor, "target": foe, "raises": raises}
    if rng.random() < 0.2:
        body["kind"] = "ranged"
    if rng.random() < 0.25:
        body["void"] = rng.sample(VOID_ON_ROLL, rng.choice((1, 1, 1, 2)))
    if rng.random() < 0.05:
        body["stand_up"] = True
    return body


def complex_action(rng: random.Random, actor: str) -> JSON:
    body: JSON = {"type": "l5r.complex", "actor": actor, "description": "climb"}
    if rng.random() < 0.6:
        body.update(skill="athletics", trait=rng.choice(("strength", "agility")), tn=15)
        body["raises"] = rng.choice((0, 0, 1))
    if rng.random() < 0.2:
        body["category"] = rng.choice(("special", "ride"))
    return body
