"""The community's rooms: where its combats were started, with how many are going on."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends

from gateway.auth import Principal, reading_principal
from gateway.context import Gateway, gateway
from gateway.paging import CursorParam, LimitParam, decode_cursor, encode_cursor
from gateway.schemas.answers import RoomPage
from gateway.views import CombatReader
from shared.redis_streams import text

router = APIRouter(prefix="/v1/rooms", tags=["rooms"])

COUNTED = 500  # the newest combats of a room whose phase is read for `active_combats`


@router.get("", responses={200: {"model": RoomPage}})
async def list_rooms(
    principal: Annotated[Principal, Depends(reading_principal)],
    gw: Annotated[Gateway, Depends(gateway)],
    limit: LimitParam = 50,
    cursor: CursorParam = None,
) -> dict[str, Any]:
    """The rooms where the community started a combat, by name, each with its number of
    combats and how many of its newest 500 have not ended (``active_combats``)."""
    tenant = principal.community_id
    position = decode_cursor(cursor, "room")
    low = "-" if position is None else f"({position['room']}"
    combats = CombatReader(gw.redis, gw.keys)
    rooms: list[dict[str, Any]] = []
    offset = 0
    while len(rooms) < limit:
        names = [
            text(raw)
            for raw in await gw.redis.zrangebylex(
                gw.keys.rooms_index(tenant), low, "+", start=offset, num=limit
            )
        ]
        if not names:
            break
        offset += len(names)
        for room in names:
            if not principal.may_read(room, None):
                continue
            index = gw.keys.room_index(tenant, room)
            total = int(await gw.redis.zcard(index))
            active = 0
            for raw in await gw.redis.zrevrange(index, 0, COUNTED - 1):
                combat = await combats.view(text(raw), tenant)
                active += combat is not None and combat.get("phase") != "ended"
            rooms.append({"room": room, "combats": total, "active_combats": active})
            if len(rooms) >= limit:
                break
    more = len(rooms) >= limit
    return {
        "rooms": rooms,
        "next_cursor": encode_cursor({"room": rooms[-1]["room"]}) if more else None,
    }
