"""structlog, configured once per process.

Every line of a message's handling carries ``combat_id``, ``correlation_id`` and
``message_id`` through :func:`bind_message` (context variables). Event names are
snake_case past tense (``command_committed``).
"""

from __future__ import annotations

import logging
import sys
from typing import Any

import structlog

from shared.messages import Envelope

_configured = False


def configure(*, level: str = "INFO", json: bool = False, service: str = "") -> None:
    global _configured
    if _configured:
        return
    _configured = True
    logging.basicConfig(format="%(message)s", stream=sys.stdout, level=level.upper())
    for noisy in ("aiormq", "aio_pika"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    renderer: Any = (
        structlog.processors.JSONRenderer() if json else structlog.dev.ConsoleRenderer(colors=False)
    )
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.StackInfoRenderer(),
            structlog.processors.format_exc_info,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(
            logging.getLevelNamesMapping().get(level.upper(), logging.INFO)
        ),
        cache_logger_on_first_use=True,
    )
    if service:
        structlog.contextvars.bind_contextvars(service=service)


def get_logger(name: str | None = None) -> Any:
    return structlog.get_logger(name)


def bind_message(env: Envelope) -> None:
    """Bind the message's identifiers to every log line of its handling."""
    structlog.contextvars.bind_contextvars(
        combat_id=env.combat_id,
        correlation_id=env.correlation_id,
        message_id=env.message_id,
        message_type=env.type,
    )


def unbind_message() -> None:
    structlog.contextvars.unbind_contextvars(
        "combat_id", "correlation_id", "message_id", "message_type"
    )
