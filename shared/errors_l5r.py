"""Error codes only the l5r ruleset raises: code -> (HTTP status, English, Spanish).

Merged into :data:`shared.errors.CATALOGUE`; a code already there is not repeated here.
"""

from __future__ import annotations

from typing import Final

CODES: Final[dict[str, tuple[int, str, str]]] = {}
