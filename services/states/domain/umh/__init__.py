"""The umh ruleset of services/states (seed 000): its adapter (ruleset.py) and pure rules."""
