"""Rolling a :class:`DiceSpec` on a stream, as a record anyone can check."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from shared.dice.notation import MAX_EXPLOSIONS, DiceSpec, parse
from shared.dice.streams import SeededStream, Stream


@dataclass(frozen=True)
class Roll:
    """One roll: each die's chain of faces (an exploding die keeps rolling), the kept dice,
    the total; ``stream`` and ``first_draw`` say where a seeded roll's numbers came from."""

    spec: str
    dice: list[list[int]]
    kept: list[int]
    total: int
    stream: str | None = None
    first_draw: int | None = None
    draws: int = 0
    purpose: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "spec": self.spec,
            "dice": self.dice,
            "kept": self.kept,
            "total": self.total,
            "stream": self.stream,
            "first_draw": self.first_draw,
            "draws": self.draws,
            "purpose": self.purpose,
            **self.extra,
        }


def roll(spec: DiceSpec | str, stream: Stream, *, purpose: str = "") -> Roll:
    """Roll: each die is ``sides``-sided; an exploding die that shows its maximum rolls again
    and adds (tens in roll-and-keep); the highest ``keep`` dice count, plus the bonus."""
    spec = parse(spec) if isinstance(spec, str) else spec
    first = stream.draws if isinstance(stream, SeededStream) else None
    dice: list[list[int]] = []
    for _ in range(spec.count):
        chain = [stream.randint(spec.sides)]
        while spec.explode and chain[-1] == spec.sides and len(chain) <= MAX_EXPLOSIONS:
            chain.append(stream.randint(spec.sides))
        dice.append(chain)
    values = sorted((sum(chain) for chain in dice), reverse=True)
    kept = values[: spec.keep]
    draws = (stream.draws - first) if first is not None and isinstance(stream, SeededStream) else 0
    return Roll(
        spec=str(spec),
        dice=dice,
        kept=kept,
        total=sum(kept) + spec.bonus,
        stream=stream.stream if isinstance(stream, SeededStream) else None,
        first_draw=first,
        draws=draws,
        purpose=purpose,
    )


def replay(seed: str, record: dict[str, Any]) -> Roll:
    """Roll a recorded seeded roll again from the revealed seed."""
    stream = SeededStream(seed, str(record["stream"]), int(record["first_draw"]))
    return roll(str(record["spec"]), stream, purpose=str(record.get("purpose", "")))
