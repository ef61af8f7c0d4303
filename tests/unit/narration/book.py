"""A payload of every public event type, per ruleset that emits it, as the services emit them
(taken from the handlers' tests), and what its sentence must show in both languages: the
characters' names (never their ids), the numbers, the rule that decided; and, where the wording
is the point, the whole sentence. One YAML file per ruleset in ``samples/`` (``platform.yaml``:
the platform's own events).

Character ids end in a number (``ana_01``) and their sheets' names do not (``Ana``), so a
sentence that shows an id is caught. Times are told in Madrid, on the day of :data:`AT`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

NAMES = {
    "ana_01": "Ana",
    "bruno_02": "Bruno",
    "carla_03": "Carla",
    "dani_04": "Dani",
    "eva_05": "Eva",
    "orco_06": "Orco",
    "ivan_07": "Iván",
}
AT = datetime(2025, 5, 14, 18, 0, tzinfo=UTC)  # 20:00 in Madrid: deadlines at 20:05 that day
FOLDER = Path(__file__).parent / "samples"


@dataclass(frozen=True)
class Sample:
    ruleset: str | None
    type: str
    data: dict[str, Any]
    shows: tuple[str, ...] = ()  # in both languages (" y " reads " and " in English)
    es: str | None = None
    en: str | None = None
    variant: str = ""

    @property
    def id(self) -> str:
        tail = f"-{self.variant}" if self.variant else ""
        return f"{self.ruleset or 'platform'}:{self.type}{tail}"


def load() -> list[Sample]:
    samples: list[Sample] = []
    for path in sorted(FOLDER.glob("*.yaml")):
        ruleset = None if path.stem == "platform" else path.stem
        for entry in yaml.safe_load(path.read_text()):
            shows = tuple(entry.pop("shows", ()))
            samples.append(Sample(ruleset, shows=shows, **entry))
    return samples


SAMPLES = load()
