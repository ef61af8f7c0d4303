"""An example frontend: a bot that plays one umh combat through the Python client.

What a Discord bot does, without Discord: it registers two characters, challenges, and plays
Ana's punches and Bruno's answers until Bruno falls, while a second thread reads the event
stream and prints each event's Spanish sentence (the ``text`` every event carries) as a bot
would post it in the channel.

    python examples/umh_bot.py --url http://127.0.0.1:8000 --key rk_...

(``make run`` serves the API; the key is a community's, see README.md "A combat with curl").
"""

from __future__ import annotations

import argparse
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

from referee_client import ApiError, Referee

PUNCH = {
    "name": "Puño",
    "tier": 1,
    "pa": 3,
    "type": "offensive",
    "natures": ["fisica"],
    "damage": 150,
}
BLOCK = {
    "name": "Bloqueo",
    "tier": 1,
    "pa": 1,
    "type": "defensive",
    "defense_kind": "internal",
    "natures": ["fisica"],
    "defense": 50,
}


def sheet(name: str, vel: int) -> dict[str, Any]:
    """A umh sheet (validated in full by the referee)."""
    return {
        "name": name,
        "ruleset": "umh",
        "stats": {"vit": 300, "vel": vel, "ref": 3, "vol": 2, "fue": 100, "rank": 2, "vigor": 5},
        "resistance": {"value": 20},
        "reductions": {"general": 10},
        "skills": [PUNCH, BLOCK],
    }


class Narrator(threading.Thread):
    """Reads the combat's events from the stream (resuming on its own if the connection
    drops) and says each one, until the combat ends."""

    def __init__(self, url: str, key: str, combat_id: str, say: Callable[[str], None]) -> None:
        super().__init__(daemon=True)
        self.api = Referee(url, key, language="es")
        self.combat_id, self.say = combat_id, say

    def run(self) -> None:
        try:
            # From the start of the stream's memory: nothing said before this thread began
            # is lost (the stream keeps its events, and Last-Event-ID resumes after each one).
            for message in self.api.events(combat=self.combat_id, last_event_id="0-0"):
                if message.is_control:
                    continue
                self.say(str(message.data.get("text", message.event)))
                if message.event == "combat.ended":
                    return
        finally:
            self.api.close()


def play(url: str, key: str, *, say: Callable[[str], None] = print) -> dict[str, Any]:
    """Play one umh challenge to its end; returns the ended combat."""
    suffix = uuid.uuid4().hex[:6]
    ana, bruno = f"ana-{suffix}", f"bruno-{suffix}"
    with Referee(url, key, language="es") as api:
        api.put_character(ana, sheet("Ana", 6))
        api.put_character(bruno, sheet("Bruno", 5))
        combat = api.start_combat(
            {
                "room": f"plaza-{suffix}",
                "ruleset": "umh",
                "attacker": ana,
                "defenders": [bruno],
                "opening": {"kind": "challenge"},
            }
        )
        narrator = Narrator(url, key, combat["id"], say)
        narrator.start()
        while combat["phase"] != "ended":
            combat = take_turn(api, combat, ana, bruno)
        narrator.join(timeout=30)
        return dict(combat)


def take_turn(api: Referee, combat: Any, ana: str, bruno: str) -> Any:
    """One step: Ana punches (Bruno takes it) or passes when out of PA; Bruno passes."""
    cid = combat["id"]
    turn = combat.get("turn") or {}
    if combat["phase"] != "fighting" or not turn:
        time.sleep(0.2)  # the preparation round: its clock moves it on
        return api.get_combat(cid)
    if turn["actor"] != ana:
        return api.act(cid, {"type": "pass_turn", "actor": turn["actor"]})["combat"]
    try:
        hit = api.act(cid, {"type": "skill", "actor": ana, "skill": "Puño", "targets": [bruno]})
    except ApiError as refused:  # out of PA this round (umh 2.3.1): pass the turn
        if refused.status != 422:
            raise
        return api.act(cid, {"type": "pass_turn", "actor": ana})["combat"]
    react = {"type": "react", "actor": bruno, "action_id": hit["action_id"], "skill": None}
    return api.act(cid, react)["combat"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--key", required=True, help="a community's frontend or moderator key")
    parser.add_argument(
        "--quick", action="store_true", help="a 1 s preparation round (a moderator key)"
    )
    args = parser.parse_args()
    if args.quick:
        with Referee(args.url, args.key) as api:
            api.patch_settings({"timers": {"preparation_seconds": 1}})
    ended = play(args.url, args.key)
    print("Resultado:", ended["result"])


if __name__ == "__main__":
    main()
