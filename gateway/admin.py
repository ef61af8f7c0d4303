"""Operator CLI: ``python -m gateway.admin create-community <name>`` (docs/api.md).

Writes the same records as ``POST /v1/admin/communities``; the key is printed only once.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from gateway.auth import Tenants
from shared.keys import Keys
from shared.redis_client import redis_client
from shared.settings import CommonSettings


async def _run(args: argparse.Namespace) -> tuple[int, dict[str, str] | str]:
    settings = CommonSettings()
    redis = redis_client(settings.redis_url)
    try:
        store = Tenants(redis, Keys(settings.ns))
        if args.command == "create-community":
            return 0, await store.create_community(args.name)
        if args.command == "rotate-key":
            rotated = await store.rotate_primary(args.community_id)
            return (0, rotated) if rotated else (1, f"no community {args.community_id}")
        if args.command == "create-key":
            key_id, api_key = await store.issue_key(args.community_id, args.scope)
            return 0, {"key_id": key_id, "scope": args.scope, "api_key": api_key}
        ok = await store.revoke_key(args.community_id, args.key_id)
        return (0, {"revoked": args.key_id}) if ok else (1, f"no key {args.key_id}")
    finally:
        await redis.aclose()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gateway.admin")
    sub = parser.add_subparsers(dest="command", required=True)
    create = sub.add_parser("create-community", help="create a community and its moderator key")
    create.add_argument("name")
    rotate = sub.add_parser("rotate-key", help="replace a community's primary moderator key")
    rotate.add_argument("community_id")
    key = sub.add_parser("create-key", help="issue one more key for a community")
    key.add_argument("community_id")
    key.add_argument("--scope", choices=["frontend", "moderator", "viewer"], default="frontend")
    revoke = sub.add_parser("revoke-key", help="revoke a key of a community")
    revoke.add_argument("community_id")
    revoke.add_argument("key_id")
    code, out = asyncio.run(_run(parser.parse_args(argv)))
    print(out if isinstance(out, str) else json.dumps(out, indent=2))
    return code


if __name__ == "__main__":
    sys.exit(main())
