"""What a delivery sends: the public event with its ``text``, told in the community's
language (settings ``language``) and time zone, as the stream tells it (docs/events.md)."""

from __future__ import annotations

import json

from redis.asyncio import Redis

from gateway.language import stored_voice
from gateway.narration import Storyteller
from gateway.webhooks.store import Delivery
from gateway.webhooks.worker import Body
from shared.keys import Keys


def told_body(redis: Redis, keys: Keys) -> Body:
    async def body(delivery: Delivery) -> str:
        voice = stored_voice(await redis.get(keys.settings(delivery.tenant)))
        teller = Storyteller(redis, keys, delivery.tenant, voice.timezone)
        (told,) = await teller.tell_all([delivery.event], voice.language)
        return json.dumps(told, separators=(",", ":"), ensure_ascii=False)

    return body
