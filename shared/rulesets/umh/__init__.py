"""The umh ruleset (seed 000): sheet, actions, errors, settings, and the rules several services
apply: grid geometry and the checks of a declaration or a reaction that services/turns must
refuse synchronously but whose rules belong to the damage and defense sections (umh 5 - 12)."""
