"""Python client of the combat referee's HTTP API (see README.md)."""

from referee_client.aio import AsyncReferee, Retries
from referee_client.errors import ApiError, StillPendingError, VersionMismatchError
from referee_client.sync import Referee
from referee_client.types import (
    ActionAnswer,
    Combat,
    Community,
    Event,
    LogPage,
    NewKey,
    StreamEvent,
)

__all__ = [
    "ActionAnswer",
    "ApiError",
    "AsyncReferee",
    "Combat",
    "Community",
    "Event",
    "LogPage",
    "NewKey",
    "Referee",
    "Retries",
    "StillPendingError",
    "StreamEvent",
    "VersionMismatchError",
]
