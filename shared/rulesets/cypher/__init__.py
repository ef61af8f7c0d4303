"""The cypher ruleset (seed 001): sheet, actions, errors, settings, and the rules several
services apply: difficulty and its steps, damage and the track, a combatant's condition."""
