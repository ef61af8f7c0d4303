"""The umh ruleset of services/resolution (seed 000): its adapter (ruleset.py) and pure rules."""
