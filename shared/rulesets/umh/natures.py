"""What each nature (índole, umh 7.1) asks of a reaction and how it counts its damage.

Shared by the checks (services/turns refuses a reaction) and by services/resolution (the
evasion fallback of umh 8.2.1.4 when a requirement is not met).
"""

from __future__ import annotations

from typing import Final

from shared.rulesets.umh.sheet import DefenseKind, Nature, Skill

REF_TO_REACT: Final[dict[Nature, float]] = {Nature.LUZ: 3, Nature.OSCURIDAD: 3}
"""umh 7.1.1.2 - 7.1.1.3: light and darkness must be reacted to with 3 REF."""

CHRONO_REF: Final = 6.0
"""umh 7.1.1 Cronoquinética: with 6 REF it can be evaded, anticipated or annulled."""

CHRONO_KINDS: Final = frozenset(
    {DefenseKind.EVASION, DefenseKind.ANTICIPATION, DefenseKind.ANNULMENT}
)

SONIC_EVASION_REF: Final = 3.0
"""umh 7.1.3.1 / A-30: a sonic evasion needs 3 REF, else 50 % lands (rounded up)."""

IGNEOUS: Final = frozenset({Nature.FUEGO, Nature.FUEGO_INFERNAL})
"""umh 7.1.1.5 and 7.1.1 Fuego infernal ("como si de habilidades ígneas se tratase")."""

RESISTIBLE: Final = frozenset(
    {Nature.MENTAL, Nature.PSIONICA, Nature.CRONOQUINETICA, Nature.MISTICA}
)
"""Natures RESISTIR answers: mental (7.1.1 Mental), psionic's mental share (7.1.2.3),
chronokinetic (7.1.1 Cronoquinética), mystic crowd control (11.5.17)."""

INTRUSIVE: Final = frozenset({Nature.MENTAL, Nature.PSIONICA})
"""Reading A-96: natures whose added effects are mental intrusions (with intangible mystic
and any skill marked ``affects_mind``)."""


def natures_of(skill: Skill) -> frozenset[Nature]:
    return frozenset(skill.natures)


def is_pure_mental(skill: Skill) -> bool:
    """umh 7.1.1 Mental / A-76: pure mental skills (not psionic) are only resisted."""
    natures = natures_of(skill)
    return Nature.MENTAL in natures and Nature.PSIONICA not in natures


def ref_required(attack: Skill, kind: DefenseKind) -> float:
    """umh 7.1.1.2 - 7.1.1.3, 7.1.1 Cronoquinética: the REF a reaction of ``kind`` needs.

    The highest of: the skill's own ``ref_required``; 3 for light or darkness; 6 for a
    chronokinetic skill evaded, anticipated or annulled. A chronokinetic skill answered by
    any other kind cannot be met by REF at all (``inf``): it must be resisted.
    """
    natures = natures_of(attack)
    needed = max([attack.ref_required, *(REF_TO_REACT.get(n, 0) for n in natures)])
    if Nature.CRONOQUINETICA in natures:
        needed = max(needed, CHRONO_REF) if kind in CHRONO_KINDS else float("inf")
    return needed


def is_intrusion(skill: Skill) -> bool:
    """umh 9.7.2.2 / A-96: a skill whose added effects are a mental intrusion."""
    natures = natures_of(skill)
    intangible_mystic = Nature.MISTICA in natures and not skill.tangible
    return bool(natures & INTRUSIVE) or intangible_mystic or skill.affects_mind
