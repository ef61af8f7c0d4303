"""The combat view reads a fighter's current STATs from only the fields they need
(``SheetFigures``): the same figures as from the whole sheet (umh 2.6 - 2.8, 11.5.4 - 11.5.5,
11.5.11), whatever he carries."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from shared.rulesets.umh.current import SheetFigures, current_stats
from shared.rulesets.umh.sheet import UmhSheet
from tests.support.sheets import defensive, offensive


@dataclass(frozen=True)
class Held:
    kind: str
    type: str
    amount: float | None = None
    limb: str | None = None


def sheet(**extra: Any) -> dict[str, Any]:
    raw = {
        "name": "ana",
        "ruleset": "umh",
        "stats": {"vit": 1000, "vel": 6, "ref": 3.5, "vol": 40, "fue": 100, "rank": 2, "vigor": 5},
        "skills": [offensive("Puño"), defensive("Bloqueo")],
        **extra,
    }
    return UmhSheet.model_validate(raw).model_dump(mode="json")


CASES = {
    "plain": (sheet(), []),
    "umh-2.8-increases-2.6.3-xp-shop": (
        sheet(xp_shop={"vel": 1}),
        [Held("increase", "vel_tier", 20), Held("increase", "fue_numeric", 30)],
    ),
    "umh-11.5.4-one-leg-11.5.5-one-arm": (
        sheet(),
        [
            Held("state", "inhabilitacion_pierna", limb="pierna_izquierda"),
            Held("state", "inhabilitacion_brazo", limb="brazo_derecho"),
        ],
    ),
    "umh-11.5.4.3-wings": (sheet(traits=["wings"]), [Held("state", "inhabilitacion_piernas")]),
    "umh-11.5.11-fear-with-tiers": (sheet(vol_tiers=[1, 10, 30, 60]), [Held("state", "miedo")]),
}


@pytest.mark.parametrize("reading", ["keep", "clamp"])
@pytest.mark.parametrize(("raw", "held"), list(CASES.values()), ids=list(CASES))
def test_the_figures_read_as_the_whole_sheet(
    raw: dict[str, Any], held: list[Held], reading: str
) -> None:
    whole = current_stats(UmhSheet.model_validate(raw), held, reading)  # type: ignore[arg-type]
    light = current_stats(SheetFigures.model_validate(raw), held, reading)  # type: ignore[arg-type]
    assert light == whole
