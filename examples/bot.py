#!/usr/bin/env python3
"""A small Firenze bot: it plays an account's games through the site's public API, woken by
the account's event stream. Standard library only; it imports nothing of the site.

    FIRENZE_TOKEN=fz_... python examples/bot.py --site https://firenze.example.org

Make the token on the account's "API tokens" page with "Read and play" access (turn the account
into a bot account there first, so others see it is a program). The bot takes any invitation,
plays every turn of the account's games, and runs until stopped (or until the game given with
--game is over).

How it chooses: among the legal actions the API lists, by a simple rule (fulfil a commission
when it can, take the cheapest card, build at most two bricks a turn, answer what is asked, end
the phase). It is not the site's own bot, but it finishes its games.
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
from collections.abc import Iterator
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


def choose(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A simple rule over the legal actions (the site's Standard choice replaces it when the
    rules package offers one to clients)."""
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
    def __init__(self, site: Site, rng: random.Random, only_game: int | None) -> None:
        self.site = site
        self.rng = rng
        self.only_game = only_game
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
            action = choose(view, listed["actions"], self.rng)
            status, answer = self.site.request(
                "POST", f"/games/{game}/move", {"action": action, "version": listed["version"]}
            )
            if status == 200:
                self.moves += 1
                if not answer["my_turn"]:
                    return
            elif answer.get("code") != "stale":  # stale: the game moved on, look again
                print(f"game {game}: {action} refused: {status} {answer}", flush=True)
                return

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
    args = parser.parse_args()
    token = os.environ.get("FIRENZE_TOKEN", "")
    if not token:
        parser.error("set FIRENZE_TOKEN to a token with play access")
    site = Site(args.site, token, args.streams)
    me = site.get("/account")
    print(f"playing as {me['name']} (bot account: {me['bot_account']})", flush=True)
    return Bot(site, random.Random(args.seed), args.game).run()


if __name__ == "__main__":
    sys.exit(main())
