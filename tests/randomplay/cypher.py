"""The cypher random player: PC vs NPC and PC vs PC, attacks with Effort and circumstances,
moves, generic actions, in-combat rests and rests through ``POST
/v1/characters/{id}/commands``, the moderator's special damage and initiative re-rolls; and the
invariants of pools, health and the damage track (001 DAÑO, INDICADOR, B-4 - B-6)."""

from __future__ import annotations

import random

from tests.randomplay.client import JSON
from tests.randomplay.common import common_violations
from tests.randomplay.moves import Move, Table, bad_body_moves, second_start

STATS = ("might", "speed", "intellect")
TRACK = ("unhurt", "impaired", "debilitated", "dead")
GONE = frozenset({"dead", "fled"})
MODERATOR = frozenset({"cypher.inflict", "cypher.reroll_initiative", "annul"})
DISTANCES = {"immediate": (0.5, 3.0), "short": (4.0, 14.0), "long": (16.0, 29.0)}


def attack(rng: random.Random, name: str, npc: bool) -> JSON:
    ranged = rng.random() < 0.4
    body: JSON = {"name": name, "damage": rng.randint(3, 7)}
    if ranged:
        body.update(kind="ranged", range=rng.choice(("short", "long")), ranged_kind="bow")
    if not npc and rng.random() < 0.2:
        body["damage_type"] = rng.choice(("speed", "intellect"))
    if rng.random() < 0.35:
        special: JSON = rng.choice(
            (
                {"dazed_rounds": rng.randint(1, 2)},
                {"stunned": True},
                {"track_steps": 1},
                {"poison": {"level": rng.randint(1, 5), "damage": rng.randint(1, 4)}},
                {"poison": {"level": 3, "steps": 1, "paralysis": rng.random() < 0.3}},
                {"paralysis": True},
            )
        )
        body["special"] = special
    return body


def sheet(rng: random.Random, name: str, npc: bool) -> JSON:
    attacks = [attack(rng, f"Arma{i}", npc) for i in range(rng.randint(1, 3))]
    if npc:
        return {
            "name": name,
            "ruleset": "cypher",
            "kind": "npc",
            "level": rng.randint(1, 5),
            "health": rng.randint(3, 9),
            "armor": rng.randint(0, 2),
            "attacks": attacks,
        }
    pools = {s: rng.randint(3, 9) for s in STATS}
    body: JSON = {
        "name": name,
        "ruleset": "cypher",
        "kind": "pc",
        "pools": pools,
        "edges": {s: rng.randint(0, 1) for s in STATS},
        "tier": rng.randint(1, 3),
        "effort": rng.randint(0, 3),
        "armor": rng.randint(0, 2),
        "skills": rng.sample([{"name": "low_light"}, {"name": "riding"}], rng.randint(0, 2)),
        "attacks": attacks,
    }
    if rng.random() < 0.3:
        body["current"] = {s: rng.randint(1, v) for s, v in pools.items()}
    if rng.random() < 0.3:
        body["defense"] = rng.randint(0, 4)
    return body


class CypherPlayer:
    ruleset = "cypher"

    def settings(self, rng: random.Random) -> JSON:
        return {"timers": {"turn_seconds": rng.randint(1, 3), "preparation_seconds": 1}}

    async def setup(self, table: Table) -> JSON:
        rng = table.rng
        attacker = table.name("pc")
        defenders = [table.name("foe") for _ in range(rng.choice((1, 1, 2)))]
        table.spare = [table.name("rest") for _ in range(rng.choice((0, 1)))]
        npc_foes = rng.random() < 0.5
        for character in (attacker, *defenders, *table.spare):
            npc = character in defenders and (npc_foes or rng.random() < 0.2)
            table.roster[character] = sheet(rng, character[:20], npc)
            await table.api.put_character(table.key, character, table.roster[character])
        return {
            "room": table.name("room"),
            "ruleset": "cypher",
            "attacker": attacker,
            "defenders": defenders,
            "opening": {"kind": "challenge"},
        }

    # --- moves ----------------------------------------------------------------------------------
    def moves(self, table: Table, combat: JSON) -> list[Move]:
        rng = table.rng
        people: dict[str, JSON] = combat.get("participants", {})
        moves = [Move(kind="idle", weight=0.5)]
        actor = (combat.get("turn") or {}).get("actor")
        if combat.get("phase") == "fighting" and actor in people:
            moves += self.turn_moves(table, combat, actor)
        everyone = list(people)
        if everyone:
            target = rng.choice(everyone)
            moves.append(Move(inflict(rng, target), weight=0.4))
            moves.append(Move({"type": "cypher.reroll_initiative", "actor": target}, weight=0.05))
        for character in [*table.spare, *everyone]:
            pc = table.roster.get(character, {}).get("kind") == "pc"
            if pc:
                moves.append(self.rest(table, character, weight=0.3 if character in people else 1))
        moves += self.illegal(table, combat)
        moves += second_start(table, combat, "condition", {"kind": "challenge"})
        return moves

    def turn_moves(self, table: Table, combat: JSON, actor: str) -> list[Move]:
        rng = table.rng
        people = combat["participants"]
        side = people[actor]["side"]
        foes = [c for c, p in people.items() if p["side"] != side and p["condition"] not in GONE]
        weapons = table.roster.get(actor, {}).get("attacks", [])
        moves = [
            Move({"type": rng.choice(("cypher.pass", "pass_turn")), "actor": actor}, weight=0.7),
            Move({"type": "cypher.move", "actor": actor, "distance": "immediate"}, weight=0.4),
            Move(
                {"type": "cypher.move", "actor": actor, "distance": rng.choice(("short", "long"))}
                | ({"terrain_steps": rng.randint(0, 2)} if rng.random() < 0.3 else {}),
                weight=0.3,
            ),
            Move(generic(rng, actor), weight=0.6),
            Move(
                {"type": "cypher.recover", "actor": actor, "distribution": rng.sample(STATS, 2)}
                | ({"special_damage": True} if rng.random() < 0.2 else {}),
                weight=0.3,
            ),
            Move({"type": "flee", "actor": actor}, weight=0.05),
        ]
        if foes and weapons:
            weapon = rng.choice(weapons)
            body: JSON = {
                "type": "cypher.attack",
                "actor": actor,
                "target": rng.choice(foes),
                "attack": weapon["name"],
                "effort": rng.choice((0, 0, 1, 1, 2, 3)),
                "circumstances": circumstances(rng, weapon.get("range", "immediate")),
            }
            if rng.random() < 0.5:
                stat_choices = ("might", "speed") if weapon.get("kind") != "ranged" else STATS
                body["stat"] = rng.choice(stat_choices)
            moves.append(Move(body, weight=3.0))
        return moves

    def rest(self, table: Table, character: str, weight: float) -> Move:
        rng = table.rng
        if rng.random() < 0.2:
            body: JSON = {"type": "cypher.end_rest", "reason": "random play"}
        else:
            body = {"type": "cypher.rest", "distribution": rng.sample(STATS, rng.randint(1, 3))}
            if rng.random() < 0.2:
                body["special_damage"] = True
        return Move(body, kind="command", character=character, weight=weight)

    def illegal(self, table: Table, combat: JSON) -> list[Move]:
        rng = table.rng
        people = list(combat.get("participants", {}))
        anyone = rng.choice(people) if people else "nadie"
        return [
            Move({"type": "cypher.pass", "actor": table.name("x")}, illegal=True, weight=0.2),
            Move(
                {"type": "cypher.attack", "actor": anyone, "target": anyone, "attack": "Nada"},
                illegal=True,
                weight=0.2,
            ),
            Move(inflict(rng, anyone), illegal=True, frontend=True, weight=0.1),
            Move(
                {"type": "cypher.rest", "distribution": ["might"]},
                kind="command",
                character=table.name("nadie"),
                illegal=True,
                weight=0.1,
            ),
            Move({"type": "skill", "actor": anyone, "skill": "x"}, illegal=True, weight=0.1),
            *(
                Move(m.body, m.illegal, m.kind, raw=m.raw, weight=m.weight * 0.3)
                for m in bad_body_moves(rng, anyone)
            ),
        ]

    # --- invariants -----------------------------------------------------------------------------
    def violations(self, table: Table, combat: JSON) -> list[str]:
        problems = common_violations(combat, "condition", GONE)
        for character, p in combat.get("participants", {}).items():
            problems += [f"{character}: {problem}" for problem in condition_problems(p)]
        return problems

    def carried_over(self, combat: JSON, character: str, status: JSON) -> str | None:
        """A PC's next combat starts from the pools and special damage this one left."""
        person = combat["participants"][character]
        if person.get("kind") != "pc":
            return None
        kept = (status.get("ruleset_status") or {}).get("cypher") or {}
        if int(kept.get("rests_today") or 0) != int(person.get("rests_taken") or 0):
            return None  # a rest sent as the combat ended was taken after it: pools moved
        left = {"pools": person.get("pools"), "special_steps": person.get("special_steps")}
        shown = {"pools": kept.get("pools"), "special_steps": kept.get("special_steps")}
        return None if shown == left else f"the combat left {left}, states keeps {shown}"

    def forbidden(self, combat: JSON, move: Move) -> str | None:
        """001 INDICADOR: the dead and the fled act no more; the debilitated only move
        (immediate) or pass. Moderator actions are not the character's."""
        person = combat.get("participants", {}).get(move.actor)
        kind = move.body.get("type") if isinstance(move.body, dict) else None
        if person is None or kind in MODERATOR:
            return None
        condition = person.get("condition")
        if condition in GONE:
            return f"{move.actor} is {condition}"
        if condition == "debilitated" and kind in ("cypher.attack", "cypher.action"):
            return f"{move.actor} is debilitated"
        return None


def condition_problems(p: JSON) -> list[str]:
    """001 DAÑO / INDICADOR: pools within [0, max], the track = pools at 0 + special steps
    (B-5, B-6), the condition that track gives; an NPC's health within [0, max]."""
    problems: list[str] = []
    condition = p.get("condition")
    if p.get("kind") == "npc":
        health, most = int(p.get("health") or 0), int(p.get("health_max") or 0)
        if not 0 <= health <= most:
            problems.append(f"health {health} outside [0, {most}]")
        dead = health <= 0
        if condition != "fled" and (condition == "dead") != dead:
            problems.append(f"health {health} but condition {condition}")
        return problems
    pools, top = p.get("pools") or {}, p.get("pools_max") or {}
    for stat in STATS:
        if not 0 <= int(pools.get(stat, 0)) <= int(top.get(stat, 0)):
            problems.append(f"{stat} {pools.get(stat)} outside [0, {top.get(stat)}]")
    steps = int(p.get("special_steps") or 0)
    if steps < 0 or int(p.get("dazed_turns") or 0) < 0:
        problems.append(f"negative special steps or dazed turns: {p}")
    step = min(3, sum(1 for s in STATS if int(pools.get(s, 0)) <= 0) + steps)
    if p.get("track") != TRACK[step]:
        problems.append(f"pools {pools} and {steps} special steps, but track {p.get('track')}")
    expected = {3: "dead", 2: "debilitated"}.get(step, "active")
    if condition != "fled" and condition != expected:
        problems.append(f"track {TRACK[step]} but condition {condition}")
    if not 0 <= int(p.get("rests_taken") or 0) <= 4:
        problems.append(f"rests_taken {p.get('rests_taken')}")
    return problems


def circumstances(rng: random.Random, reach: str) -> JSON:
    if rng.random() < 0.4:
        return {}
    low, high = DISTANCES[rng.choice((reach, reach, reach, "long"))]
    found: JSON = {"distance_m": round(rng.uniform(low, high), 1)}
    options: list[JSON] = [
        {"cover": rng.choice(("none", "partial", "partial", "full"))},
        {"lighting": rng.choice(("light", "dim", "very_dim", "darkness"))},
        {"surprise": rng.choice(("unaware", "on_guard"))},
        {"target_prone": True},
        {"target_elevated": True},
        {"water": rng.choice(("shallow", "deep", "submerged"))},
        {"target_moving_fast": True},
        {"other_steps": rng.randint(-3, 3)},
        {"located_by_senses": True},
    ]
    for extra in rng.sample(options, rng.randint(0, 3)):
        found |= extra
    return found


def generic(rng: random.Random, actor: str) -> JSON:
    return {
        "type": "cypher.action",
        "actor": actor,
        "stat": rng.choice(STATS),
        "difficulty": rng.randint(0, 6),
        "minimum_spend": rng.choice((0, 0, 1, 2, 3, 5)),
        "effort": rng.choice((0, 0, 1, 2)),
        "physical": rng.random() < 0.7,
        "description": "random play",
    }


def inflict(rng: random.Random, target: str) -> JSON:
    body: JSON = {"type": "cypher.inflict", "actor": target, "target": target}
    options: list[JSON] = [
        {"damage": rng.randint(1, 6), "damage_type": rng.choice(STATS)},
        {"track_steps": 1},
        {"dazed_rounds": 1},
        {"stunned": True},
        {"paralysis": rng.random() < 0.6},
        {"poison_level": rng.randint(1, 5), "poison_damage": rng.randint(0, 4)},
        {"poison_level": 3, "poison_steps": 1},
    ]
    for extra in rng.sample(options, rng.randint(1, 2)):
        body |= extra
    return body | {"reason": "random play"}
