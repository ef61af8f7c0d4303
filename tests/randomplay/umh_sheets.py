"""Random umh sheets (docs/api.md "Endpoints"): every skill type and defense kind, combos, areas,
effects, flight, entry and slot skills; VIT low enough that combats end."""

from __future__ import annotations

import random

from tests.randomplay.client import JSON

NATURES = (
    "fisica",
    "elemental",
    "agua",
    "fuego",
    "electrica",
    "luz",
    "oscuridad",
    "energetica",
    "psionica",
    "sonora",
    "mental",
    "mistica",
    "alma",
    "fuego_infernal",
    "cronoquinetica",
    "teletransportadora",
)
COMMON_NATURES = ("fisica", "fisica", "fisica", "fuego", "agua", "electrica", "luz", "mental")
DEFENSE_KINDS = (
    "evasion",
    "anticipation",
    "annulment",
    "counter",
    "reflection",
    "internal",
    "external",
)
HARDNESS = ("hierro", "acero", "diamante", "acero_organico", "carbonadium")
SHAPES = ("line", "square", "on_self", "on_target", "cone")
INDIRECT = ("quemadura", "hemorragia", "envenenamiento", "dolor", "asfixia")
CONTROL = ("aturdimiento", "desmayo", "dormido", "paralisis", "petrificacion", "congelacion")
STATES = ("inmovilizacion", "derribo", "ceguera", "mudez", "mojado", "miedo", "desorientacion")


def natures(rng: random.Random) -> list[str]:
    first = rng.choice(COMMON_NATURES) if rng.random() < 0.8 else rng.choice(NATURES)
    if rng.random() < 0.2:
        second = rng.choice(NATURES)
        return [first] if second == first else [first, second]
    return [first]


def effect(rng: random.Random) -> JSON:
    kind = rng.choice(("indirect", "indirect", "control", "state"))
    if kind == "indirect":
        amount: JSON = (
            {"amount": rng.randint(5, 40)}
            if rng.random() < 0.7
            else {"percent": rng.choice((10, 25))}
        )
        return {"kind": kind, "type": rng.choice(INDIRECT), "actions": rng.randint(1, 3), **amount}
    if kind == "control":
        return {"kind": kind, "type": rng.choice(CONTROL), "actions": rng.randint(1, 2)}
    return {"kind": kind, "type": rng.choice(STATES), "actions": rng.randint(1, 3)}


def offensive(rng: random.Random, name: str, vit: int) -> JSON:
    skill: JSON = {
        "name": name,
        "tier": rng.randint(1, 3),
        "pa": rng.choice((1, 1, 2, 2, 3, 4)),
        "type": "offensive",
        "natures": natures(rng),
        "damage": rng.randint(vit // 8, vit // 3),
        "hits": rng.choice((1, 1, 1, 2, 2, 3)),
        "reach": rng.randint(1, 6),
        "melee": rng.random() < 0.3,
    }
    if rng.random() < 0.2:
        skill["area"] = {"shape": rng.choice(SHAPES), "size": rng.randint(1, 2)}
        skill["hits_allies"] = rng.random() < 0.5
    if rng.random() < 0.3:
        skill["effects"] = [effect(rng)]
    if rng.random() < 0.2:
        skill["cooldown_rounds"] = 1
    if rng.random() < 0.2:
        skill["uses_per_round"] = 2
    if rng.random() < 0.1:
        skill["pierces_defense"] = True
    if rng.random() < 0.1:
        skill["ignore_defense_pct"] = rng.choice((25, 50))
    if rng.random() < 0.1:
        skill["push"] = 1
        skill["collision_damage"] = rng.randint(10, 50)
    if rng.random() < 0.1:
        skill["preparation"] = True
    return skill


def defensive(rng: random.Random, name: str, kind: str) -> JSON:
    skill: JSON = {
        "name": name,
        "tier": rng.randint(1, 3),
        "pa": rng.choice((0, 1, 1, 2)),
        "type": "defensive",
        "defense_kind": kind,
        "natures": natures(rng),
        "reach": rng.randint(1, 6),
    }
    if kind in ("internal", "external", "counter"):
        skill["defense"] = rng.randint(30, 250)
    if kind in ("anticipation", "counter"):
        skill["damage"] = rng.randint(20, 150)
    if kind == "counter":
        skill["melee"] = rng.random() < 0.5
    if kind == "external":
        skill["all_angles"] = rng.random() < 0.5
        skill["covers_allies"] = rng.random() < 0.4
    if kind == "evasion" and rng.random() < 0.3:
        skill["needs_legs"] = True
    if rng.random() < 0.15:
        skill["uses_per_combat"] = rng.randint(1, 3)
    if rng.random() < 0.2:
        skill["reactable_times"] = 2
    return skill


def supplementary(rng: random.Random, name: str) -> JSON:
    kind = rng.choice(("booster", "reduction", "regeneration", "none", "interference"))
    skill: JSON = {
        "name": name,
        "tier": 1,
        "pa": rng.choice((1, 2, 3)),
        "type": "supplementary",
        "natures": natures(rng),
        "reach": rng.randint(0, 3),
        "preparation": rng.random() < 0.4,
    }
    if kind == "booster":
        skill["effects"] = [
            {"kind": "booster", "nature": "fisica", "percent": 20, "actions": rng.randint(1, 3)}
        ]
    elif kind == "reduction":
        skill["effects"] = [{"kind": "reduction", "percent": 15, "actions": rng.randint(1, 3)}]
    elif kind == "regeneration":
        skill["effects"] = [{"kind": "regeneration", "amount": 20, "actions": rng.randint(1, 3)}]
    elif kind == "interference":
        skill["grants_interference"] = rng.choice(("free", "predetermined"))
    return skill


def special(rng: random.Random, name: str) -> JSON | None:
    """A flight, entry or slot skill, or none."""
    kind = rng.choice(("flight", "join", "slots", None, None))
    if kind is None:
        return None
    skill: JSON = {"name": name, "tier": 1, "pa": 1, "type": "supplementary"}
    skill["natures"] = ["fisica"]
    if kind == "flight":
        skill.update(flight=True, flight_cooldown_hours=1)
    elif kind == "join":
        skill.update(joins_combat=True)
    else:
        skill.update(raises_slots=1)
    return skill


def weapons(rng: random.Random) -> list[JSON]:
    """umh 12: one or two weapons of a class (a unique one with its own effect)."""
    found: list[JSON] = []
    for index in range(rng.randint(1, 2)):
        weapon: JSON = {
            "name": f"Arma{index}",
            "tier": rng.randint(1, 4),
            "arma": rng.randint(10, 100),
            "class": rng.choice(("short", "medium", "long", "firearm")),
        }
        if rng.random() < 0.2:
            weapon.update(unique=True, effects=[effect(rng)])
        found.append(weapon)
    return found


def extra(rng: random.Random, name: str) -> JSON | None:
    """A skill usable out of turn, one that sets a height, or one granting interference."""
    kind = rng.choice(("out_of_turn", "height", "interference", None, None))
    if kind is None:
        return None
    skill: JSON = {"name": name, "tier": 1, "pa": 1, "type": "supplementary"}
    skill["natures"] = ["fisica"]
    if kind == "out_of_turn":
        skill["out_of_turn"] = True
    elif kind == "height":
        skill["sets_position"] = rng.choice(("alzada", "voladora", "suelo"))
    else:
        skill.update(grants_interference="predetermined", interference_skill="Ataque0")
    return skill


def sheet(rng: random.Random, name: str) -> JSON:
    vit = rng.randint(250, 900)
    skills: list[JSON] = [offensive(rng, f"Ataque{i}", vit) for i in range(rng.randint(1, 3))]
    kinds = rng.sample(DEFENSE_KINDS, rng.randint(2, 5))
    skills += [defensive(rng, f"Defensa-{kind}", kind) for kind in kinds]
    if rng.random() < 0.7:
        skills.append(supplementary(rng, "Apoyo"))
    for more in (special(rng, "Especial"), extra(rng, "Extra")):
        if more is not None:
            skills.append(more)
    body: JSON = {
        "name": name,
        "ruleset": "umh",
        "stats": {
            "vit": vit,
            "vel": rng.randint(2, 8),
            "ref": rng.randint(0, 7),
            "vol": rng.randint(1, 5),
            "fue": rng.randint(50, 200),
            "rank": rng.randint(1, 3),
            "vigor": rng.randint(2, 5),
        },
        "resistance": {"value": rng.randint(0, 40), "hardness": rng.choice(HARDNESS)},
        "skills": skills,
    }
    if rng.random() < 0.3:
        body["reductions"] = {"general": rng.choice((5, 10, 20))}
    if rng.random() < 0.15:
        body["immunities"] = [rng.choice(NATURES)]
    if rng.random() < 0.3:
        body["traits"] = rng.sample(["ambidextrous", "fireproof", "insulated", "wings"], 1)
    if rng.random() < 0.15:
        body["regeneration"] = rng.randint(5, 30)
    if rng.random() < 0.3:
        body["weapons"] = weapons(rng)
    return body
