"""The pure rules of the cypher ruleset (seed 001) that more than one service applies:
difficulty and its steps, damage and the track, a combatant's condition."""
