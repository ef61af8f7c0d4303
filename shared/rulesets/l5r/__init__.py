"""The l5r ruleset (seed 004): sheet, actions, errors, settings."""
