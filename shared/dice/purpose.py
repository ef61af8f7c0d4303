"""Why a combat's die was rolled: the ``purpose`` code of every ``dice.rolled`` record
(``GET /v1/combats/{id}/dice``). A code, never free text: a frontend names a roll in its own
words from it, and ``action_id`` says which action the roll belongs to (none for the rolls
of the round itself: initiative, Curso de combate)."""

from __future__ import annotations

from enum import StrEnum


class RollPurpose(StrEnum):
    INITIATIVE = "initiative"
    """cypher INICIATIVA (d20, Speed); l5r Paso 1 ((Insight + Reflexes) k Reflexes)."""
    INITIATIVE_TIE_BREAK = "initiative_tie_break"
    """l5r C-11: two initiatives still equal after Reflexes and Void."""
    COMBAT_TIDE = "combat_tide"
    """l5r Curso de combate: 1d10 at the end of a round."""
    ATTACK = "attack"
    """The attacker's roll (cypher ATACAR, l5r attack)."""
    DEFENSE = "defense"
    """cypher ATACAR: a PC's Speed defense roll against an NPC's attack."""
    DAMAGE = "damage"
    """l5r: a damage roll (one per hit)."""
    DISARM_OPPOSED = "disarm_opposed"
    """l5r Desarmar: the target's opposed roll."""
    FULL_DEFENSE = "full_defense"
    """l5r Defensa Total: (Agility + Defense) k Agility."""
    COMPLEX_ACTION = "complex_action"
    """l5r: a complex action's skill roll."""
    ACTION = "action"
    """cypher ACCIÓN: a roll of a stat against a difficulty."""
    LONG_MOVE = "long_move"
    """cypher DISTANCIA: the Speed roll of a long move."""
    POISON_DEFENSE = "poison_defense"
    """cypher DAÑO ESPECIAL (veneno): the Might defense roll."""
    DISEASE_DEFENSE = "disease_defense"
    """cypher DAÑO ESPECIAL (enfermedad): the day's Might defense roll."""
    RECOVERY = "recovery"
    """cypher RECUPERAR: 1d6 + tier (in combat, or a rest out of it)."""
