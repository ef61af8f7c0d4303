"""Dice rolled on the server, reproducible and verifiable (issue 6).

- :mod:`shared.dice.streams`: where the numbers come from: a seeded stream (HMAC-SHA256 of a
  per-combat secret seed, a stream name and a draw counter) or the system's randomness.
- :mod:`shared.dice.notation`: ``XdY+Z``, keep highest ``XdYkhN``, exploding ``XdY!`` and
  roll-and-keep ``XkY`` (tens explode; the ten-dice rule).
- :mod:`shared.dice.rolls`: rolling an expression on a stream, as a record anyone can check.
- ``python -m shared.dice verify <combat log>``: recompute every roll of a finished combat.
"""
