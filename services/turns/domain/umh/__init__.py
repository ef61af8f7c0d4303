"""The umh ruleset of services/turns (seed 000): its adapter (ruleset.py) and pure rules."""
