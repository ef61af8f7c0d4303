"""examples/umh_bot.py plays a whole umh combat through the client on the real suite, and its
narrator thread says every event in Spanish from the stream, up to the end."""

from __future__ import annotations

import asyncio
import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from tests.e2e.referee import Referee

pytestmark = [pytest.mark.e2e]

BOT = Path(__file__).resolve().parents[2] / "examples" / "umh_bot.py"


def load_bot() -> ModuleType:
    spec = importlib.util.spec_from_file_location("umh_bot", BOT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.timeout(120)
async def test_the_example_bot_plays_a_umh_combat_to_its_end(referee: Referee) -> None:
    community = await referee.new_community()
    key = (await referee.api(community.api_key).create_key("frontend"))["api_key"]
    said: list[str] = []
    ended = await asyncio.to_thread(load_bot().play, referee.suite.base_url, key, say=said.append)

    assert ended["phase"] == "ended"
    assert ended["result"]["winner"] == "attackers", ended["result"]
    told = [event["text"] for event in await referee.api(key).whole_log(ended["id"])]
    # The stream said every event of the log, in order (and the refusals, which it has not).
    assert [line for line in said if line in set(told)] == told
    assert said[0].startswith("Ana reta a Bruno")
    assert any("Bruno" in line and "daño" in line for line in said), "\n".join(said)
