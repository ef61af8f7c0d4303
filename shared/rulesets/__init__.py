"""One folder per ruleset: its sheet, actions, errors, settings and the pure rules several
services apply. registry.py lists them."""
