"""A toy fourth ruleset, written in test code to show what adding a ruleset takes.

Two fighters; one attack (a ``skill`` action named ``attack``) that deals :data:`DAMAGE`;
turns alternate after each attack; the combat ends when a fighter reaches 0 HP. Each
service gets its part (``turns``, ``resolution``, ``states``), pure like any ruleset's domain;
the rules are numbered ``toy 1`` to ``toy 4`` in the docstrings.
"""

from __future__ import annotations

NAME = "toy"
ATTACK = "attack"
DAMAGE = 4
"""toy 2: an attack always deals 4."""
HP = 10
"""toy 1: a fighter starts with the sheet's ``hp``, 10 if it has none."""
