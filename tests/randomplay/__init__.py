"""A seeded random player of every ruleset, through the running suite over HTTP (issue 18).

Random legal and illegal moves from many combats at once with short timers; it fails on any
5xx, any 4xx without the error body, a combat that stops moving before its end, an illegal
move accepted, a fallen fighter acting, and any impossible state of a ruleset. ``make test``
runs it briefly (tests/e2e/test_random_play.py); ``python -m tests.randomplay`` runs it longer
with many seeds (see its ``--help``).
"""
