"""No page, partial or JSON answer shows another player's hand or anything of the deck order.

A four-seat game (three players and a bot) is played by greedy bots until every hand holds cards.
Then every view is rendered for every seat, a spectator and an anonymous visitor, and checked
two ways:

- directly: the only hand on the page is the viewer's own, exactly; the next cards of the deck
  never appear in their order; the seed (which fixes every future draw) never appears;
- by indistinguishability: the hidden part of the state that the viewer may not see (the other
  hands, the deck order, the seed) is shuffled in the database and every view rendered again;
  each must come out byte for byte the same, so nothing on it can depend on what is hidden.
"""

from __future__ import annotations

import copy
import json
import random
import re

import pytest
from django.core.cache import cache
from django.db import transaction
from django.test import Client
from django.urls import reverse

from chat import services as chat
from games import lobby
from games.models import Game
from games.rules.firenze import rules
from games.rules.firenze.rules.cards import CARDS
from notifications import outbox
from notifications.models import Notification, Webhook
from tests.receivers import Device
from tests.web.helpers import HTMX, offered_actions, play_greedy, signed_in, started_game

pytestmark = pytest.mark.django_db

# Longest names first, so "Major Privilege" is not read as "Privilege".
CARD_NAME = re.compile("|".join(sorted(map(re.escape, CARDS), key=len, reverse=True)))
CSRF = re.compile(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+')
DURATION = re.compile(r"\d+\xa0(?:year|month|week|day|hour|minute)s?(?:, \d+\xa0\w+)?")


# A fixed deal, so every run checks the same position. Large, so that the seed's digits cannot
# turn up on a page by coincidence (a page is full of small numbers).
SEED = 914_250_773


@pytest.fixture
def position(anna, ben, carla):
    """Three players and a bot, every hand holding cards, two or more holding several; a
    person to act."""
    game = started_game(anna, ben, carla, bots=1, seed=SEED)
    bot = game.seats.get(user=None).number

    def ready(state: rules.State) -> bool:
        sizes = [len(p["hand"]) for p in rules.to_dict(state)["players"]]
        return (
            min(sizes) >= 1
            and sum(size >= 2 for size in sizes) >= 2
            and rules.acting_seat(state) != bot
            and bool(rules.legal_actions(state))
        )

    play_greedy(game, 1500, until=ready)
    assert ready(game.load_state()), "the greedy game never reached a position with full hands"
    return game


def viewers(game: Game, anonymous: Client, spectator) -> dict[str, tuple[Client, int | None]]:
    """Every seated person by seat, the spectator and the anonymous visitor."""
    found = {
        f"seat {seat.number}": (signed_in(seat.user), seat.number)
        for seat in game.seats.exclude(user=None)
    }
    found["spectator"] = (signed_in(spectator), None)
    found["anonymous"] = (anonymous, None)
    return found


def render_views(browser: Client, game: Game, forming: Game) -> dict[str, str]:
    """Every view a browser may ask for while the game runs (moves refused: stale version)."""
    game.refresh_from_db()
    detail = reverse("games:detail", args=[game.pk])
    move = reverse("games:move", args=[game.pk])
    undo = reverse("games:undo", args=[game.pk])
    version = reverse("games:version", args=[game.pk])
    action = json.dumps(rules.legal_actions(game.load_state())[0])
    stale = {"version": game.version - 1}
    responses = {
        "page": browser.get(detail),
        "game partial": browser.get(detail, **HTMX),
        "move refused (htmx)": browser.post(move, {**stale, "action": action}, **HTMX),
        "move refused": browser.post(move, {**stale, "action": action}),
        "undo refused (htmx)": browser.post(undo, stale, **HTMX),
        "poll changed": browser.get(version, {"v": game.version - 1}),
        "poll unchanged": browser.get(version, {"v": game.version}),
        "chat page": browser.get(reverse("chat:thread", args=[game.pk])),
        "chat partial": browser.get(reverse("chat:thread", args=[game.pk]), **HTMX),
        "chat post refused": browser.post(
            reverse("chat:post", args=[game.pk]), {"text": ""}, **HTMX
        ),
        "lobby": browser.get(reverse("games:lobby")),
        "my games": browser.get(reverse("games:mine")),
        "forming page": browser.get(reverse("games:detail", args=[forming.pk])),
        "whole log": browser.get(reverse("games:log", args=[game.pk])),
        "resign page": browser.get(reverse("games:resign", args=[game.pk])),
        # issue 7: a game in progress has no replay or download; profiles and lists show only
        # what anyone may see of it.
        "replay": browser.get(reverse("games:replay", args=[game.pk])),
        "replay of a step": browser.get(reverse("games:replay", args=[game.pk]), {"step": 1}),
        "export": browser.get(reverse("games:export", args=[game.pk])),
        "history": browser.get(reverse("games:history")),
        "leaderboard": browser.get(reverse("players:leaderboard")),
        **{
            f"profile of seat {seat.number}": browser.get(
                reverse("players:profile", args=[seat.user.display_name])
            )
            for seat in game.seats.exclude(user=None).select_related("user")
        },
    }
    for name, response in responses.items():
        assert response.status_code in (200, 204, 302, 403, 409), (name, response.status_code)
    return {name: normalised(r.content.decode()) for name, r in responses.items()}


def normalised(body: str) -> str:
    """Without what differs between two renders of the same thing: CSRF masks, elapsed time."""
    return DURATION.sub("<time>", CSRF.sub(r"\1<csrf>", body))


def hands_shown(body: str) -> list[list[str]]:
    """The card names of every hand section on a page."""
    return [
        re.findall(r"<strong>(?:<(?:a|button) [^>]*>)?([^<]+)<", section)
        for section in re.findall(r'<ul class="hand">(.*?)</ul>', body, re.S)
    ]


def card_names(body: str) -> list[str]:
    """Every card name on a page in order, attributes (titles) included."""
    return CARD_NAME.findall(body)


def deck_order_written(body: str, deck: list[str]) -> bool:
    """Whether the page writes out the next cards of the deck as a list (text or JSON).

    Not "the next three card names occur in this order somewhere on the page": a page names
    about fifty cards (the row, the own hand, the log, the card help) of some twenty kinds, so
    a random deck top turns up that way in about 0.3 % of move answers (up to 1.3 % for some
    positions), which is how the move-answer test once failed. Whether anything on a page
    depends on the deck at all is proven by shuffling it (the first test below)."""
    if any(sep.join(deck[:3]) in body for sep in (", ", '", "')):
        return True
    return deck[0] != deck[1] and '", "'.join(deck[:2]) in body


def assert_nothing_hidden_shown(body: str, name: str, state: dict, seat: int | None) -> None:
    where = f"{name} for " + (f"seat {seat}" if seat is not None else "a watcher")
    shown = hands_shown(body)
    if seat is None:
        assert shown == [], where
    else:
        assert shown in ([], [sorted(state["players"][seat]["hand"])]), where
        if name in ("page", "game partial"):
            assert shown == [sorted(state["players"][seat]["hand"])], where
    deck = state["deck"]
    assert not deck_order_written(body, deck), f"{where}: the top of the deck {deck[:3]}"
    assert str(state["seed"]) not in body, f"{where}: the seed"
    if name.startswith("poll"):
        assert body == "" or set(json.loads(body)) == {"version", "chat"}, where


def scrambled(state: dict, seat: int | None, rng: random.Random) -> dict:
    """The state with everything `seat` may not see shuffled: other hands, deck, seed."""
    state = copy.deepcopy(state)
    others = [p for i, p in enumerate(state["players"]) if i != seat]
    sizes = [len(p["hand"]) for p in others]
    pool = state["deck"] + [card for p in others for card in p["hand"]]
    old = (list(state["deck"]), [sorted(p["hand"]) for p in others])
    while True:
        rng.shuffle(pool)
        deck, rest = pool[: len(state["deck"])], pool[len(state["deck"]) :]
        hands = []
        for size in sizes:
            hands.append(rest[:size])
            rest = rest[size:]
        if all(new != was for new, was in zip(deck[:3], old[0][:3], strict=True)) and all(
            sorted(h) != o for h, o in zip(hands, old[1], strict=True) if o
        ):
            break
    state["deck"] = deck
    for player, hand in zip(others, hands, strict=True):
        player["hand"] = hand
    state["seed"] += 1
    return state


def test_it_shows_no_page_or_answer_another_players_hand_or_the_deck_order(position, client, dario):
    game = position
    forming = lobby.create_game(game.creator, num_players=3)
    truth = game.state
    rng = random.Random(2)
    assert sum(len(p["hand"]) for p in truth["players"]) >= 6
    talk(game)

    for who, (browser, seat) in viewers(game, client, dario).items():
        cache.clear()
        seen = render_views(browser, game, forming)
        for name, body in seen.items():
            assert_nothing_hidden_shown(body, name, truth, seat)
        assert json.loads(seen["poll changed"]) == {"version": game.version, "chat": 1}
        assert seen["poll unchanged"] == ""

        hidden = scrambled(truth, seat, rng)
        Game.objects.filter(pk=game.pk).update(state=hidden, seed=hidden["seed"])
        cache.clear()  # the board fragment is cached per version: draw it from the new state
        again = render_views(browser, game, forming)
        Game.objects.filter(pk=game.pk).update(state=truth, seed=truth["seed"])

        for name in seen:
            assert again[name] == seen[name], f"{name} for {who} shows hidden information"


def test_it_shows_the_mover_only_their_own_hand_in_the_move_answer(position):
    game = position
    seat = game.acting_seat
    browser = signed_in(game.seats.get(number=seat).user)
    page = browser.get(reverse("games:detail", args=[game.pk])).content.decode()
    for plain in (False, True):
        game.refresh_from_db()
        if game.acting_seat != seat:
            break
        action = offered_actions(page)[0]
        data = {"action": json.dumps(action), "version": game.version}
        move = reverse("games:move", args=[game.pk])
        headers = {} if plain else HTMX
        response = browser.post(move, data, follow=plain, **headers)
        assert response.status_code == 200
        page = response.content.decode()
        game.refresh_from_db()
        assert_nothing_hidden_shown(page, "page" if plain else "move", game.state, seat)
        assert hands_shown(page) == [sorted(game.state["players"][seat]["hand"])]


# --- table talk, webhooks and push ----------------------------------------------------------


def talk(game: Game) -> None:
    """A line of table talk that every seated person has already read (so a second render shows
    the same unread count as the first)."""
    first = game.seats.exclude(user=None).first().user
    message = chat.post(game, first, "Good luck, everyone!")
    for seat in game.seats.exclude(user=None):
        chat.mark_read(game, seat.user, message.pk)


KINDS = ["your_turn", "reminder", "timed_out", "game_started", "new_messages"]


def delivered(game: Game, receiver, devices: dict, capture, tag: str) -> dict[str, str]:
    """Every event kind for every seated person, sent for real by webhook (all three formats
    across the players) and by push; what arrived, decrypted, by name."""
    start = len(receiver.requests)
    for seat in game.seats.exclude(user=None).select_related("user"):
        for kind in KINDS:
            with capture(execute=True), transaction.atomic():
                outbox.notify(seat.user, kind, game=game, key=f"{kind}:{tag}:{seat.user_id}")
    arrived = {}
    for number, request in enumerate(receiver.requests[start:]):
        device = devices.get(request.path)
        body = json.dumps(device.read(request)) if device else request.body.decode()
        arrived[f"{number}: {request.path}"] = normalised(body)
    return arrived


def test_it_sends_no_hidden_information_by_webhook_or_push(
    position, receiver, vapid, django_capture_on_commit_callbacks
):
    game = position
    truth = game.state
    formats = ["discord", "slack", "json"]
    devices = {}
    people = list(game.seats.exclude(user=None).select_related("user"))
    for seat, format in zip(people, formats, strict=False):
        Webhook.objects.create(
            user=seat.user, url=receiver.url(f"/hook/{seat.number}"), format=format
        )
        device = Device(receiver, f"seat{seat.number}")
        signed_in(seat.user).post(reverse("notification_settings:subscribe"), device.subscription())
        devices[device.path] = device
    chat.post(game, people[0].user, "Nice move")  # unread by the others: new-messages news

    seen = delivered(game, receiver, devices, django_capture_on_commit_callbacks, "a")
    assert len(seen) >= 20  # every person, by webhook and push, several kinds each
    assert Notification.objects.filter(channel="webhook", status="sent").exists()
    for name, body in seen.items():
        assert_nothing_hidden_shown(body, name, truth, None)
        assert card_names(body) == [], f"{name} names cards: {body}"

    hidden = scrambled(truth, None, random.Random(3))
    Game.objects.filter(pk=game.pk).update(state=hidden, seed=hidden["seed"])
    game.refresh_from_db()
    again = delivered(game, receiver, devices, django_capture_on_commit_callbacks, "b")
    Game.objects.filter(pk=game.pk).update(state=truth, seed=truth["seed"])
    assert again == seen
