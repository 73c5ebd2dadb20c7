"""Helpers for web tests: reading the offered actions off a page and posting them."""

from __future__ import annotations

import html
import json
import random
import re
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.test import Client
from django.urls import reverse

from firenze_site import viewer_cookie
from games import lobby
from games.models import Game, Move
from games.play import record_move
from games.rules.firenze import rules
from games.rules.firenze.rules.bots import greedy
from players.results import record_game_end

# The side panel's buttons; the board's own clickable pieces submit the panel's move form.
ACTION_BUTTON = re.compile(r'<button type="submit" name="action" value="([^"]+)"')
BOARD_BUTTON = re.compile(r'<button type="submit" form="move-form" name="action" value="([^"]+)"')
VERSION_FIELD = re.compile(r'name="version" value="(\d+)"')


def offered_actions(page: str) -> list[dict[str, Any]]:
    """The actions the side panel offers, in its order."""
    return [json.loads(html.unescape(m)) for m in ACTION_BUTTON.findall(page)]


def board_actions(page: str) -> list[dict[str, Any]]:
    """The actions the board's pieces (cards, towers, squares, bricks) stand for."""
    return [json.loads(html.unescape(m)) for m in BOARD_BUTTON.findall(page)]


def page_version(page: str) -> int:
    return int(VERSION_FIELD.search(page).group(1))


def game_page(client: Client, game: Game) -> str:
    response = client.get(reverse("games:detail", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def post_move(client: Client, game: Game, action: dict, version: int, *, htmx: bool = True):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(
        reverse("games:move", args=[game.pk]),
        {"action": json.dumps(action), "version": version},
        **headers,
    )


def started_game(creator, *others, bots: int = 0, seed: int | None = None, **options) -> Game:
    """A started game with these players (and bots) seated; seat order comes from the seed
    (random, or ``seed`` for a deal that is the same on every run)."""
    game = lobby.create_game(creator, num_players=1 + len(others) + bots, options=options or None)
    if seed is not None:
        Game.objects.filter(pk=game.pk).update(seed=seed)
        game.refresh_from_db()
    for user in others:
        lobby.join(game, user)
    for _ in range(bots):
        lobby.add_bot(game, creator)  # the last seat taken starts the game
    game.refresh_from_db()
    return game


HTMX = {"HTTP_HX_REQUEST": "true"}


def signed_in(user) -> Client:
    """A browser of its own, signed in as ``user``, with the viewer cookie signing in sets
    (firenze_site.viewer_cookie)."""
    client = Client()
    client.force_login(user)
    client.cookies[viewer_cookie.NAME] = viewer_cookie.signed(user.pk)
    return client


def reauthenticated(user) -> Client:
    """Signed in and just gave the password again (allauth's reauthentication): what changing
    the display name, the webhook, the data download and the deletion ask for."""
    from tests.factories import PASSWORD

    browser = signed_in(user)
    response = browser.post("/accounts/reauthenticate/", {"password": PASSWORD})
    assert response.status_code == 302, response.content.decode()[:2000]
    return browser


def play_greedy(game: Game, max_moves: int = 5000, *, until=None) -> int:
    """Play greedy moves for whoever acts, stored through games.play.record_move (the path of
    bot moves), until ``until(state)`` holds, the game ends or ``max_moves`` were played."""
    # Seats a bot plays (bot seats, and people's seats on autopilot) record bot moves.
    bot_seats = set(
        game.seats.filter(Q(autopilot=True) | ~Q(bot="")).values_list("number", flat=True)
    )
    state = game.load_state()
    rng = random.Random(f"{game.seed}/tests")
    played = 0
    while played < max_moves and not rules.is_over(state):
        if until is not None and until(state):
            break
        seat = rules.acting_seat(state)
        action = greedy(state, rng)
        new_state = rules.apply_action(state, action)
        with transaction.atomic():
            record_move(game, seat, action, new_state, by_bot=seat in bot_seats, before=state)
        state = new_state
        played += 1
    game.refresh_from_db()
    return played


def fast_forward(
    game: Game, max_moves: int = 5000, *, until=None, totals: list[int] | None = None
) -> int:
    """Like play_greedy, but stores the moves and the final position in one go (what
    record_move would store, without its per-move clock and notifications): for positions a
    test only needs to reach, such as a finished game. ``totals`` replaces the final scores
    (for the places and ties a ratings test needs; the log then no longer replays to them)."""
    bot_seats = set(game.seats.exclude(bot="").values_list("number", flat=True))
    state = game.load_state()
    rng = random.Random(f"{game.seed}/tests")
    moves = []
    while len(moves) < max_moves and not rules.is_over(state):
        if until is not None and until(state):
            break
        seat = rules.acting_seat(state)
        action = greedy(state, rng)
        before, state = state, rules.apply_action(state, action)
        moves.append(
            Move(
                game=game,
                seq=state.step,
                seat=seat,
                turn=before.turn_no,
                action=action,
                log=rules.log_tokens(state),
                changes=rules.changes(before, state),
                by_bot=seat in bot_seats,
            )
        )
    if totals is not None and rules.is_over(state):
        state = with_totals(state, totals)
    with transaction.atomic():
        Move.objects.bulk_create(moves)
        game.store_state(state)
        game.version += len(moves)
        game.save()
        if rules.is_over(state):
            record_game_end(game, state)
    game.refresh_from_db()
    return len(moves)


def with_totals(state: rules.State, totals: list[int]) -> rules.State:
    """A finished state whose final scores are these totals (winners: the highest)."""
    data = rules.to_dict(state)
    for player, total in zip(data["final"]["players"], totals, strict=True):
        player["total"] = total
    data["final"]["winners"] = [i for i, t in enumerate(totals) if t == max(totals)]
    return rules.from_dict(data)
