"""umh (seed 000) rules shared by services: grid geometry and the checks of a declaration or
a reaction that services/turns must refuse synchronously but whose rules belong to the
damage and defense sections (umh 5 - 12)."""
