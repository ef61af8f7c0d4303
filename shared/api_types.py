"""The value types of the public API: numbers of their own JSON type, and finite.

Every model a client writes (sheets, actions, settings, request bodies) derives from
:class:`ApiModel` and types its numbers with :data:`Int`, :data:`Float` and :data:`Bool`:

- ``Int`` takes a JSON integer only: not ``true``, not ``"300"``, not ``300.5`` (nor
  ``300.0``);
- ``Float`` takes a JSON number (integer or not), finite: not ``NaN``, ``Infinity`` or a
  literal that overflows to infinity (``1e400``), not a boolean nor a string;
- ``Bool`` takes ``true`` or ``false`` only.

``ApiModel`` refuses unknown fields and non-finite numbers anywhere inside it (nested maps,
lists, tuples). Strictness is per field, not the model's ``strict`` mode, because stored
data is validated again in Python mode, where strict mode would refuse enum values given
as strings and tuples given as lists.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AllowInfNan, BaseModel, ConfigDict, Strict, StrictBool

Int = Annotated[int, Strict()]
Float = Annotated[float, Strict(), AllowInfNan(False)]
Bool = StrictBool


class ApiModel(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)
