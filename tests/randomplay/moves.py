"""What a ruleset's random player offers the table: moves, and the table it plays at."""

from __future__ import annotations

import random
import uuid
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from tests.randomplay.client import JSON, Api

BAD_BODIES: tuple[Any, ...] = (
    {},
    {"type": "no_such_action", "actor": "x"},
    {"type": "pass_turn"},
    {"type": "pass_turn", "actor": ""},
    {"type": "pass_turn", "actor": "a b"},
    {"type": "pass_turn", "actor": 7},
    {"type": "pass_turn", "actor": "x", "extra": 1},
    {"type": "skill", "actor": "x", "skill": "", "targets": []},
    {"type": "react", "actor": "x", "action_id": "nope"},
    {"type": "move", "actor": "x", "to": "north"},
    [],
    "pass",
    None,
)
"""Bodies that break the schema of every ruleset: each must be refused (400 or 422)."""

RAW_BODIES: tuple[bytes, ...] = (b"{", b"not json", b'{"type": "pass_turn", "actor": ', b"\xff")


@dataclass(frozen=True)
class Move:
    """One request a player may send.

    ``illegal``: it must be refused (a 2xx is a finding). ``kind``: ``act`` (an action of the
    combat), ``raw`` (``raw`` bytes as an action), ``command`` (``POST
    /v1/characters/{character}/commands``), ``start`` (another combat, ``body`` its start)
    or ``idle`` (wait for the combat to move).
    ``frontend``: sent with a frontend key (moderator-only actions must be refused).
    """

    body: Any = None
    illegal: bool = False
    kind: str = "act"
    character: str | None = None
    raw: bytes | None = None
    frontend: bool = False
    weight: float = 1.0
    note: str = ""

    @property
    def actor(self) -> str | None:
        if isinstance(self.body, dict) and isinstance(self.body.get("actor"), str):
            return str(self.body["actor"])
        return None

    def label(self) -> str:
        """The move's kind for the counts: its type, a react's skill kind."""
        if self.kind != "act" or not isinstance(self.body, dict):
            return self.kind
        kind = str(self.body.get("type"))
        if kind == "react":
            kind += f":{self.note or ('resist' if self.body.get('resist') else 'take')}"
        return kind + (" (illegal)" if self.illegal else "")

    def describe(self) -> str:
        if self.kind == "raw":
            return f"raw {self.raw!r}"
        if self.kind == "idle":
            return "idle"
        prefix = f"command {self.character} " if self.kind == "command" else ""
        flags = " (illegal)" if self.illegal else ""
        return f"{prefix}{self.body}{flags}"


@dataclass
class Table:
    """One combat being played: the API, its community keys, the dice of the player."""

    api: Api
    key: str
    frontend_key: str
    rng: random.Random
    where: str
    ruleset: str
    roster: dict[str, JSON] = field(default_factory=dict)
    """character id -> his sheet as registered."""
    spare: list[str] = field(default_factory=list)
    """characters registered but not in the combat at the start (joiners, wrong actors)."""

    def name(self, prefix: str) -> str:
        return f"{prefix}-{uuid.UUID(int=self.rng.getrandbits(128)).hex[:10]}"

    def chance(self, p: float) -> bool:
        return self.rng.random() < p


class RulesetPlayer(Protocol):
    """What a ruleset contributes to the random player."""

    ruleset: str

    def settings(self, rng: random.Random) -> JSON:
        """The community settings of one combat (short timers)."""

    async def setup(self, table: Table) -> JSON:
        """Register the sheets; the body of ``POST /v1/combats``."""

    def moves(self, table: Table, combat: JSON) -> list[Move]:
        """Every move worth trying now, legal and illegal, each with its weight."""

    def violations(self, table: Table, combat: JSON) -> list[str]:
        """The impossible states this view shows (docs/rules.md)."""

    def carried_over(self, combat: JSON, character: str, status: JSON) -> str | None:
        """What is wrong with ``GET /v1/characters/{character}/status`` after the end of
        ``combat`` (what services/states keeps for the next combat), or ``None``."""

    def forbidden(self, combat: JSON, move: Move) -> str | None:
        """Why ``move`` must be refused given ``combat``, an earlier view, when what forbids it
        cannot be undone (a fighter down, dead or gone for good), else ``None``."""


def pick(rng: random.Random, moves: list[Move]) -> Move:
    """One move, by weight."""
    return rng.choices(moves, weights=[m.weight for m in moves], k=1)[0]


def bad_body_moves(rng: random.Random, actor: str) -> list[Move]:
    """Schema violations and malformed JSON: each must be refused."""
    body = rng.choice(BAD_BODIES)
    if isinstance(body, dict) and body.get("actor") == "x":
        body = {**body, "actor": actor}
    return [
        Move(body, illegal=True, weight=1.0),
        Move(kind="raw", raw=rng.choice(RAW_BODIES), illegal=True, weight=0.5),
    ]


def preconditions(rng: random.Random, move: Move, version: int) -> tuple[Move, dict[str, str]]:
    """Now and then an action carries an ``Idempotency-Key`` (then it is sent twice and the
    second answer must repeat the first) or an ``If-Match``: one with a version the combat
    has left behind must be refused (409, docs/api.md "Idempotency, versions and slow answers")."""
    if move.kind != "act" or not isinstance(move.body, dict):
        return move, {}
    draw = rng.random()
    if draw < 0.05:
        return move, {"Idempotency-Key": f"k-{rng.getrandbits(64):016x}"}
    if draw < 0.08 and version > 0:
        return replace(move, illegal=True), {"If-Match": str(version - 1)}
    return move, {}


def second_start(table: Table, combat: JSON, status_key: str, opening: JSON) -> list[Move]:
    """A fighter still in this combat starts another one against a spare character: it
    must be refused (a character fights one combat at a time)."""
    people = combat.get("participants", {})
    busy = [c for c, p in people.items() if p.get(status_key) == "active"]
    free = [c for c in table.spare if c not in people]
    if combat.get("phase") == "ended" or not busy or not free:
        return []
    body = {
        "room": table.name("room"),
        "ruleset": table.ruleset,
        "attacker": table.rng.choice(busy),
        "defenders": [table.rng.choice(free)],
        "opening": opening,
    }
    return [Move(body, illegal=True, kind="start", weight=0.05)]
