"""Character sheets per ruleset, validated at the gateway and snapshotted into combats."""
