"""Where a webhook may point: http or https, and never (unless the operator allows it) to
an address that is not on the public internet (docs/webhooks.md "Server-side requests").

A URL is checked when it is registered (its host resolved, every address checked) and
again at every delivery, when the connection is made: :class:`GuardedBackend` resolves the
host itself, refuses an address that is not allowed, and connects to the address it
checked, so a name that resolves to a public address at registration and to 127.0.0.1 at
delivery time (DNS rebinding) still cannot reach the gateway's own network. TLS still
verifies the certificate against the host name.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Iterable
from urllib.parse import urlsplit

import httpcore

from gateway.errors import ApiError

IpAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
MAX_URL = 2000


def address_allowed(address: IpAddress, *, allow_private: bool) -> bool:
    """A public unicast address; with ``allow_private``, loopback and private ones too, but
    never link-local ones (169.254.169.254 is where clouds serve their machines' secrets)."""
    mapped = address.ipv4_mapped if isinstance(address, ipaddress.IPv6Address) else None
    if mapped is not None:
        address = mapped
    if address.is_multicast or address.is_unspecified or address.is_link_local:
        return False
    if address.is_global:
        return True
    return allow_private and (address.is_loopback or address.is_private)


def _refused(reason: str, **details: object) -> ApiError:
    return ApiError("webhook_url_forbidden", details={"reason": reason, **details})


def check_url(url: str) -> tuple[str, int]:
    """The host and port of a webhook URL, or 422 ``webhook_url_forbidden``."""
    if len(url) > MAX_URL:
        raise _refused("too_long")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise _refused("scheme", allowed=["http", "https"])
    if parts.username is not None or parts.password is not None:
        raise _refused("credentials_in_url")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise _refused("port") from None
    if not parts.hostname:
        raise _refused("host")
    return parts.hostname, port


async def resolve(host: str, port: int, within: float) -> list[IpAddress]:
    """Every address ``host`` resolves to (a literal address is itself)."""
    try:
        return [ipaddress.ip_address(host)]
    except ValueError:
        pass
    loop = asyncio.get_running_loop()
    async with asyncio.timeout(within):
        infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [ipaddress.ip_address(info[4][0]) for info in infos]


def forbidden(addresses: Iterable[IpAddress], *, allow_private: bool) -> list[str]:
    return [str(a) for a in addresses if not address_allowed(a, allow_private=allow_private)]


async def check_target(url: str, *, allow_private: bool, within: float = 5.0) -> None:
    """422 ``webhook_url_forbidden`` unless every address of the URL's host is allowed."""
    host, port = check_url(url)
    try:
        addresses = await resolve(host, port, within)
    except (OSError, TimeoutError):
        raise _refused("unresolvable", host=host) from None
    refused = forbidden(addresses, allow_private=allow_private)
    if refused or not addresses:
        raise _refused("address", host=host, addresses=refused)


class GuardedBackend(httpcore.AsyncNetworkBackend):
    """httpcore's network backend, resolving and checking every address it connects to."""

    def __init__(self, *, allow_private: bool) -> None:
        self._allow_private = allow_private
        self._inner = httpcore.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,  # noqa: ASYNC109 - httpcore's signature
        local_address: str | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        try:
            addresses = await resolve(host, port, timeout or 10.0)
        except (OSError, TimeoutError) as exc:
            raise httpcore.ConnectError(f"cannot resolve {host}: {exc}") from exc
        refused = forbidden(addresses, allow_private=self._allow_private)
        if refused or not addresses:
            raise httpcore.ConnectError(f"{host} resolves to a refused address {refused}")
        return await self._inner.connect_tcp(
            str(addresses[0]),
            port,
            timeout=timeout,
            local_address=local_address,
            socket_options=socket_options,
        )

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,  # noqa: ASYNC109 - httpcore's signature
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        raise httpcore.ConnectError("webhooks never use unix sockets")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)
