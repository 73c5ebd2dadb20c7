#!/usr/bin/env python3
"""A small Firenze bot: it plays an account's games through the site's public API, woken by
the account's event stream. Standard library only; it imports nothing of the site.

    FIRENZE_TOKEN=fz_... python examples/bot.py --site https://firenze.example.org

Make the token on the account's "API tokens" page with "Read and play" access (turn the account
into a bot account there first, so others see it is a program). The bot takes any invitation,
plays every turn of the account's games, and runs until stopped (or until the game given with
--game is over).

How it chooses: like the site's own Standard bot, when this file sits in a checkout of the site
(or the site's source is on PYTHONPATH): it hands the game's view, which is exactly what its
seat may see (the API's "view"), to the rules package's public `choose_action`, a pure-Python
package with no Django and no dependency. `--level beginner` or `--level strong` plays another
of the site's levels. Without the package it falls back to a simple rule among the legal actions
the API lists (fulfil a commission when it can, take the cheapest card, build at most two bricks
a turn, answer what is asked, end the phase): not the site's bot, but it finishes its games.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

TIMEOUT = 30  # seconds for one API request
STREAM_TIMEOUT = 120  # seconds without a byte (the site sends a keep-alive every 45 s)


class Site:
    """The API, with the token; waits and retries when told to slow down (429, 503)."""

    def __init__(self, site: str, token: str, streams: str | None = None) -> None:
        self.api = site.rstrip("/") + "/api/v1"
        self.streams = (streams or site).rstrip("/") + "/streams"
        self.token = token

    def request(self, method: str, path: str, data: Any = None) -> tuple[int, Any]:
        body = None if data is None else json.dumps(data).encode()
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "application/json"}
        if body is not None:
            headers["Content-Type"] = "application/json"
        for _attempt in range(20):
            request = urllib.request.Request(self.api + path, body, headers, method=method)
            try:
                with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
                    return response.status, json.loads(response.read() or b"null")
            except urllib.error.HTTPError as error:
                answer = json.loads(error.read() or b"null")
                if error.code in (429, 503):
                    time.sleep(float(error.headers.get("Retry-After") or 5))
                    continue
                return error.code, answer
        raise RuntimeError(f"{method} {path}: still refused after many tries")

    def get(self, path: str) -> Any:
        status, answer = self.request("GET", path)
        if status != 200:
            raise RuntimeError(f"GET {path}: {status} {answer}")
        return answer

    def events(self) -> Iterator[tuple[str, dict[str, Any]]]:
        """The account's events, for ever: reconnects (with Last-Event-ID) when cut off."""
        last = ""
        while True:
            headers = {"Authorization": f"Bearer {self.token}", "Accept": "text/event-stream"}
            if last:
                headers["Last-Event-ID"] = last
            request = urllib.request.Request(self.streams + "/account/", headers=headers)
            try:
                with urllib.request.urlopen(request, timeout=STREAM_TIMEOUT) as stream:
                    if stream.status == 204:  # the site has no live streams: poll instead
                        yield "poll", {}
                        time.sleep(5)
                        continue
                    yield "connected", {}
                    fields: dict[str, str] = {}
                    for raw in stream:
                        line = raw.decode().rstrip("\n")
                        if line:
                            name, _, value = line.partition(":")
                            fields[name] = value.strip()
                            continue
                        if "event" in fields:
                            last = fields.get("id", last)
                            yield fields["event"], json.loads(fields.get("data") or "{}")
                        fields = {}
            except (OSError, urllib.error.URLError) as error:
                print(f"stream cut ({error}); reconnecting", flush=True)
            time.sleep(1)


Chooser = Callable[[dict[str, Any], str, random.Random], dict[str, Any]]


def site_chooser() -> Chooser | None:
    """The rules package's `choose_action(view, level, rng)`, if the site's source is at hand:
    this file's checkout first, then PYTHONPATH. It decides from the seat's view alone."""
    root = Path(__file__).resolve().parent.parent
    if (root / "games" / "rules" / "firenze" / "rules" / "levels.py").is_file():
        sys.path.insert(0, str(root))
    try:
        from games.rules.firenze.rules import choose_action
    except ImportError:
        return None
    chooser: Chooser = choose_action
    return chooser


def choose(
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    rng: random.Random,
    chooser: Chooser | None = None,
    level: str = "standard",
) -> dict[str, Any]:
    """The site's bot of that level (`chooser`, from the seat's view), or the simple rule."""
    mine = view.get("viewer") is not None and view.get("viewer") == view.get("acting_seat")
    if chooser is not None and mine:
        try:
            action = chooser(view, level, rng)
        except (ValueError, KeyError, IndexError) as error:  # a view it cannot read
            print(f"the {level} bot could not decide ({error!r}); the simple rule plays")
        else:
            if action in legal:
                return action
    return simple_rule(view, legal, rng)


def simple_rule(
    view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random
) -> dict[str, Any]:
    """A simple rule over the legal actions, for when the rules package is not at hand."""
    by_type: dict[str, list[dict[str, Any]]] = {}
    for action in legal:
        by_type.setdefault(action["type"], []).append(action)
    for kind in ("fulfil", "seal_campanile"):
        if kind in by_type:
            return rng.choice(by_type[kind])
    if "choose_card" in by_type:
        return min(by_type["choose_card"], key=lambda action: action.get("slot", 0))
    built = (view.get("turn") or {}).get("built", 0)
    if "build" in by_type and built < 2:
        onto = [action for action in by_type["build"] if "tower" in action]
        return rng.choice(onto or by_type["build"])
    answers = ("resolve_event", "pay_brick", "take_brick", "pick_tower", "pick_slot")
    for kind in (*answers, "discard_card", "end_turn", "end_phase"):
        if kind in by_type:
            return by_type[kind][0]
    return rng.choice(legal)


class Bot:
    def __init__(
        self,
        site: Site,
        rng: random.Random,
        only_game: int | None,
        chooser: Chooser | None = None,
        level: str = "standard",
        plans: bool = False,
    ) -> None:
        self.plans = plans
        self.site = site
        self.rng = rng
        self.only_game = only_game
        self.chooser = chooser
        self.level = level
        self.moves = 0

    def wanted(self, game: int) -> bool:
        return self.only_game is None or game == self.only_game

    def catch_up(self) -> None:
        """Take the invitations and play every turn that is ours (after a (re)connection)."""
        mine = self.site.get("/account/games")
        for invitation in mine["invitations"]:
            if self.wanted(invitation["game"]):
                self.join(invitation["game"])
        for game in mine["games"]:
            if game["my_turn"] and self.wanted(game["id"]):
                self.play(game["id"])

    def join(self, game: int) -> None:
        status, answer = self.site.request("POST", f"/games/{game}/join", {})
        print(f"game {game}: join -> {status} {answer.get('message', answer.get('status'))}")
        if status == 200 and answer.get("my_turn"):
            self.play(game)

    def play(self, game: int) -> None:
        """Play until it is no longer our turn."""
        while True:
            listed = self.site.get(f"/games/{game}/actions")
            if not listed["my_turn"]:
                return
            view = self.site.get(f"/games/{game}")["view"] or {}
            action = choose(view, listed["actions"], self.rng, self.chooser, self.level)
            status, answer = self.site.request(
                "POST", f"/games/{game}/move", {"action": action, "version": listed["version"]}
            )
            if status == 200:
                self.moves += 1
                if not answer["my_turn"]:
                    if self.plans and answer["status"] == "active":
                        self.plan(game)
                    return
            elif answer.get("code") != "stale":  # stale: the game moved on, look again
                print(f"game {game}: {action} refused: {status} {answer}", flush=True)
                return

    def plan(self, game: int) -> None:
        """Plan the next turn in the sandbox of our own view (the simple rule picks each step);
        the site plays it when the turn comes and stops where it no longer holds."""
        steps: list[dict[str, Any]] = []
        while len(steps) < 12:
            status, answer = self.site.request(
                "POST", f"/games/{game}/plan/sandbox", {"steps": steps}
            )
            if status != 200 or not answer["choices"]:
                break
            offered = [choice["action"] for choice in answer["choices"]]
            steps.append(simple_rule({}, offered, self.rng))
        if steps:
            status, answer = self.site.request("PUT", f"/games/{game}/plan", {"steps": steps})
            print(f"game {game}: planned {answer.get('steps', answer)} -> {status}", flush=True)

    def over(self, game: int) -> bool:
        return self.site.get(f"/games/{game}")["status"] in ("finished", "cancelled")

    def run(self) -> int:
        for kind, data in self.site.events():
            game = data.get("game")
            if kind in ("connected", "poll"):
                self.catch_up()
            elif kind == "invited" and self.wanted(game):
                self.join(game)
            elif kind in ("your_turn", "started", "undo") and self.wanted(game):
                self.play(game)
            elif kind == "over" and self.wanted(game):
                print(f"game {game} is over; {self.moves} moves played", flush=True)
            if (
                self.only_game is not None
                and kind in ("over", "poll")
                and self.over(self.only_game)
            ):
                return 0
        return 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", default=os.environ.get("FIRENZE_SITE", "http://localhost:8000"))
    parser.add_argument("--streams", help="where /streams/ is served, if elsewhere")
    parser.add_argument("--game", type=int, help="play only this game, and stop when it is over")
    parser.add_argument("--seed", type=int, help="for the choices' tie-breaks")
    parser.add_argument(
        "--plan",
        action="store_true",
        help="after each turn, plan the next one (the site plays it when the turn comes)",
    )
    parser.add_argument(
        "--level",
        choices=["beginner", "standard", "strong"],
        default="standard",
        help="which of the site's bots plays (needs the site's rules package; default standard)",
    )
    args = parser.parse_args()
    token = os.environ.get("FIRENZE_TOKEN", "")
    if not token:
        parser.error("set FIRENZE_TOKEN to a token with play access")
    site = Site(args.site, token, args.streams)
    me = site.get("/account")
    chooser = site_chooser()
    plays = f"the site's {args.level} bot" if chooser else "a simple rule"
    print(f"playing as {me['name']} (bot account: {me['bot_account']}) with {plays}", flush=True)
    return Bot(site, random.Random(args.seed), args.game, chooser, args.level, args.plan).run()


if __name__ == "__main__":
    sys.exit(main())
