"""Where dice numbers come from.

A :class:`SeededStream` draws from HMAC-SHA256(seed, "<stream>:<draw>:<attempt>"): anyone who
knows the seed (revealed when the combat ends) can recompute every draw, while nobody can
predict one before. A combat's commitment is SHA-256 of the seed, published at its start.
Uniform integers come from rejection sampling (no modulo bias).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Protocol

SEED_BYTES = 32


class Stream(Protocol):
    def randint(self, sides: int) -> int:
        """A uniform integer in [1, sides]."""
        ...


def new_seed() -> str:
    """A fresh per-combat seed (hex)."""
    return secrets.token_hex(SEED_BYTES)


def commitment(seed: str) -> str:
    """SHA-256 of the seed, published before any roll."""
    return hashlib.sha256(seed.encode()).hexdigest()


class SeededStream:
    """Deterministic draws for one named stream of one seed; ``draws`` counts them."""

    def __init__(self, seed: str, stream: str, draws: int = 0) -> None:
        self._key = seed.encode()
        self.stream = stream
        self.draws = draws

    def randint(self, sides: int) -> int:
        if sides < 1:
            raise ValueError("a die has at least one side")
        draw = self.draws
        self.draws += 1
        limit = (2**64 // sides) * sides  # values at or above are rejected: no modulo bias
        attempt = 0
        while True:
            message = f"{self.stream}:{draw}:{attempt}".encode()
            digest = hmac.new(self._key, message, hashlib.sha256).digest()
            for offset in range(0, 32, 8):
                value = int.from_bytes(digest[offset : offset + 8], "big")
                if value < limit:
                    return value % sides + 1
            attempt += 1


class SystemStream:
    """The operating system's randomness (free rolls that nobody needs to replay)."""

    def randint(self, sides: int) -> int:
        if sides < 1:
            raise ValueError("a die has at least one side")
        return secrets.randbelow(sides) + 1
