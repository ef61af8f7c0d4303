"""services/states's pure rules, one folder per ruleset (no I/O: see ruff.toml)."""
