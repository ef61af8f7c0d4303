"""What a supplementary skill puts on its targets (umh 8.1.1.2, 7.3, 9.4, 2.3.6, 9.7.1,
9.2.6, 11.5, 2.8).

Boosters, reductions and regenerations (a new one of the same kind renews or, when
stronger, replaces the old one, 8.1.1.2.1 - 8.1.1.2.2), a mental shield, a degradable
coating, and altered states the user puts on himself or an ally (concealment, 11.5.13).
"""

from __future__ import annotations

from typing import Any

from services.resolution.domain.umh.effect import Effect
from services.resolution.domain.umh.effects import make_effect
from shared.rulesets.umh.current import increase_type
from shared.rulesets.umh.sheet import Skill
from shared.vocabulary import EffectKind


def support_effects(skill: Skill, key: str, source: str) -> list[Effect]:
    """The effects of ``skill`` on one target, in the sheet's order (shield and coating
    first). Indirect damage and crowd control are not a supplementary skill's (8.1.1.2)."""
    common: dict[str, Any] = {"key": key, "source": source, "skill": skill.name}
    found: list[Effect] = []
    if skill.mental_shield:
        found.append(
            make_effect(EffectKind.SHIELD, "escudo_mental", amount=skill.mental_shield, **common)
        )
    if skill.coating:
        found.append(
            make_effect(EffectKind.COATING, "recubrimiento", amount=skill.coating, **common)
        )
    for spec in skill.effects:
        if spec.kind == "booster":
            found.append(
                make_effect(
                    EffectKind.BOOSTER,
                    spec.nature.value,
                    amount=spec.percent,
                    actions=spec.actions,
                    **common,
                )
            )
        elif spec.kind == "reduction":
            nature = str(getattr(spec.nature, "value", spec.nature))
            found.append(
                make_effect(
                    EffectKind.REDUCTION,
                    nature,
                    amount=spec.percent,
                    actions=spec.actions,
                    **common,
                )
            )
        elif spec.kind == "increase":  # umh 2.8: the best of each kind and STAT stands
            found.append(
                make_effect(
                    EffectKind.INCREASE,
                    increase_type(spec.stat, spec.mode),
                    amount=spec.percent if spec.mode == "tier" else spec.amount,
                    actions=spec.actions,
                    **common,
                )
            )
        elif spec.kind == "regeneration":
            found.append(
                make_effect(
                    EffectKind.REGENERATION,
                    "regeneracion",
                    amount=spec.amount,
                    actions=spec.actions,
                    **common,
                )
            )
        elif spec.kind == "state":
            found.append(
                make_effect(EffectKind.STATE, spec.type.value, actions=spec.actions, **common)
            )
    return found
