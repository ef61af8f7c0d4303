"""The API's errors as exceptions: ``{"error": {"code", "message", "rule", "details"}}``."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """An answer of status 400 or more (after the retries the client makes on its own)."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str = "",
        *,
        rule: str | None = None,
        details: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.rule = rule
        self.details = details or {}
        self.headers = headers or {}

    @classmethod
    def of(cls, status: int, body: Any, headers: dict[str, str] | None = None) -> ApiError:
        """The error of an answer's body (any body: a proxy's page is ``unexpected``)."""
        error = body.get("error") if isinstance(body, dict) else None
        if not isinstance(error, dict):
            return cls(status, "unexpected", str(body)[:300], headers=headers)
        kind = VersionMismatchError if error.get("code") == "version_mismatch" else cls
        return kind(
            status,
            str(error.get("code", "unexpected")),
            str(error.get("message", "")),
            rule=error.get("rule"),
            details=error.get("details") or {},
            headers=headers,
        )


class VersionMismatchError(ApiError):
    """409 ``version_mismatch``: ``If-Match`` named a version the combat has moved past.

    ``details.actual`` is the combat's version now; read the combat again before deciding.
    """

    @property
    def actual(self) -> int | None:
        value = self.details.get("actual")
        return int(value) if value is not None else None


class StillPendingError(Exception):
    """A 202 whose outcome did not arrive within the client's ``poll_timeout``."""

    def __init__(self, location: str, body: dict[str, Any]) -> None:
        super().__init__(f"still pending after polling {location}")
        self.location = location
        self.body = body
