"""Play by email, the messages: every kind renders a subject, a plain-text and an HTML part with
the link to the game and a one-click unsubscribe (link and List-Unsubscribe headers); the turn
email tells what happened since the player's last turn from the stored public log, the game-over
email the final scores; and no email ever contains another player's hand or the deck order.

The games are real: started through games.lobby and played with the greedy bot through
games.play.record_move, with fixed seeds.
"""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from games import lobby
from games.models import Move
from games.rules.firenze import rules
from games.rules.firenze.rules.cards import CARDS
from notifications import emails, links, outbox, tasks
from notifications.models import Notification
from tests.web.test_notifications import (
    acting_user,
    new_game,
    play_until,
    seat_of,
    second_turn_of,
)

pytestmark = pytest.mark.django_db

CARD_NAMES = sorted(CARDS)


def send(user, kind, game, context=None):
    """Write the row as the games code would, send it through the task, return the email."""
    row = outbox.notify(
        user, kind, game=game, key=f"test:{kind}:{game.pk}:{user.pk}", context=context
    )
    mail.outbox.clear()
    assert tasks.send_notification(row.pk) == "sent", Notification.objects.get(pk=row.pk)
    assert len(mail.outbox) == 1
    return mail.outbox[0]


def html_of(message) -> str:
    [(content, mimetype)] = message.alternatives
    assert mimetype == "text/html"
    return content


def all_text(message) -> str:
    return "\n".join([message.subject, message.body, html_of(message)])


def cards_in(text: str) -> set[str]:
    return {card for card in CARD_NAMES if re.search(rf"\b{re.escape(card)}\b", text)}


def names(game) -> list[str]:
    return [seat.name for seat in game.seats.order_by("number")]


@pytest.fixture
def active_game(anna, ben, carla):
    """Anna's turn has just begun again: Ben and Carla have moved since her last turn."""
    game = new_game(anna, ben, carla, seed=1504)
    play_until(game, second_turn_of(anna))
    return game


@pytest.fixture
def finished_game(anna, ben):
    game = new_game(anna, ben, seed=1966)
    play_until(game, lambda g: False)
    assert game.is_finished
    return game


@pytest.fixture
def open_game(anna, ben):
    game = lobby.create_game(anna, num_players=3)
    lobby.join(game, ben)
    Notification.objects.all().delete()
    return game


CASES = {
    # kind: (game fixture, recipient, context the games code passes)
    "your_turn": ("active_game", "anna", None),
    "reminder": ("active_game", "anna", None),
    "game_started": ("active_game", "ben", None),
    "timed_out": ("active_game", "carla", {"autopilot": True, "timeouts": 3}),
    "invited": ("open_game", "carla", {"by": "Anna"}),
    "game_over": ("finished_game", "ben", None),
}


@pytest.mark.parametrize("kind", list(CASES))
def test_it_renders_every_kind_with_the_game_link_and_one_click_unsubscribe(kind, request):
    fixture, recipient, context = CASES[kind]
    game, user = request.getfixturevalue(fixture), request.getfixturevalue(recipient)
    message = send(user, kind, game, context)
    html = html_of(message)
    game_url = f"http://localhost:8000/games/{game.pk}/"
    # The one-click link of this kind of email, the same up to the signature's timestamp.
    unsubscribe = links.unsubscribe_url(user, emails.unsubscribe_kind(kind)).rsplit(":", 2)[0]

    assert message.to == [user.email]
    assert message.subject and "\n" not in message.subject and "Firenze" in message.subject
    assert game_url in message.body and f'href="{game_url}"' in html
    assert html.lstrip().startswith("<!doctype html>") and "max-width:560px" in html
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    header = message.extra_headers["List-Unsubscribe"]
    assert header.startswith(f"<{unsubscribe}") and header.endswith(">")
    assert header[1:-1] in message.body and header[1:-1] in html
    for text in (message.subject, message.body, html):
        assert "{{" not in text and "{%" not in text
        assert not re.search(r"\{\d\}", text)  # every seat token was filled in
    assert "&#x27;" not in message.body and "&amp;" not in message.body  # plain text is plain
    if kind in ("your_turn", "reminder"):
        assert f"http://localhost:8000/email/play/{game.pk}/" in message.body
    else:
        assert "/email/play/" not in message.body


def test_it_tells_what_happened_since_the_players_last_turn(active_game, anna):
    mine = seat_of(active_game, anna)
    last_own = active_game.moves.filter(seat=mine).order_by("-seq").first().seq
    since = Move.objects.filter(game=active_game, seq__gt=last_own).order_by("seq")
    expected = [rules.format_line(line, names(active_game)) for move in since for line in move.log]
    assert expected and any("Ben" in line for line in expected)

    message = send(anna, "your_turn", active_game)

    listed = re.findall(r"^  - (.*)$", message.body, re.MULTILINE)
    assert listed == expected[-60:]
    assert message.subject == f"Your turn in Firenze: Game {active_game.pk} with Ben and Carla"
    assert "It is your turn in" in message.body
    html = html_of(message)
    assert "Play your turn" in html
    assert all(
        f'<li style="margin:2px 0;">{line}</li>' in html.replace("&#x27;", "'")
        for line in expected[-60:]
    )


def test_it_never_shows_another_players_hand_or_the_deck_order(active_game, anna):
    message = send(anna, "your_turn", active_game)
    text = all_text(message)
    state = rules.to_dict(active_game.load_state())
    mine = seat_of(active_game, anna)
    covered = "\n".join(re.findall(r"^  - (.*)$", message.body, re.MULTILINE))

    # Only card names of the public log lines it reports appear anywhere in the email.
    assert cards_in(text) <= cards_in(covered)
    # Cards in the others' hands that those lines do not name (taken turns ago) are not there.
    others_hands = {c for seat, p in enumerate(state["players"]) if seat != mine for c in p["hand"]}
    hidden = others_hands - cards_in(covered)
    assert hidden, "the position should have cards in hands that the email has no reason to name"
    assert not cards_in(text) & hidden
    # Nor the deck: no card only the deck holds, and not its order.
    assert not cards_in(text) & (set(state["deck"]) - cards_in(covered))
    assert json.dumps(state["deck"][:3])[1:-1] not in text
    assert ", ".join(state["deck"][:3]) not in text


def test_it_announces_the_final_scores_and_the_winner(finished_game, anna, ben):
    state = finished_game.load_state()
    scores, winners = rules.scores(state), rules.winners(state)
    seat_names = names(finished_game)
    message = send(ben, "game_over", finished_game)

    for seat, score in enumerate(scores):
        assert re.search(rf"{seat_names[seat]}( \(you\))?: {score}\b", message.body)
    html = html_of(message)
    for seat in winners:
        assert seat_names[seat] in html
    winner_names = [seat_names[s] for s in winners]
    if seat_names.index("Ben") in winners:
        assert message.subject.endswith(("you won", "a shared win"))
    else:
        assert message.subject.endswith(f"{' and '.join(winner_names)} won")
    # The final hands and the deck stay hidden: no card is named at all.
    assert cards_in(all_text(message)) == set()


def test_it_tells_the_first_player_of_a_new_game_and_the_others_who_goes_first(anna, ben):
    game = new_game(anna, ben)
    first, other = acting_user(game), next(u for u in (anna, ben) if u != acting_user(game))
    message = send(other, "game_started", game)
    assert f"{first.public_name} goes first" in message.body
    assert "/email/play/" not in message.body
    # Without a game-started email (say, a rematch), the turn email says it.
    start = send(first, "your_turn", game)
    assert "has started and you go first" in start.body
    # Sent late (the broker was down), it still knows who went first.
    play_until(game, lambda g: acting_user(g) != first)
    message = send(first, "game_started", game)
    assert "you go first" in message.subject
    assert f"http://localhost:8000/email/play/{game.pk}/" in message.body


def test_it_sends_each_player_one_email_when_a_game_starts(
    anna, ben, carla, django_capture_on_commit_callbacks
):
    """Through the games code: the first player's game-started email carries the sign-in link,
    so the "your turn" row written with it is not sent as a second email."""
    game = lobby.create_game(anna, num_players=3, auto_start=False)
    lobby.join(game, ben)
    lobby.join(game, carla)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        lobby.start(game, anna)
    game.refresh_from_db()
    first = acting_user(game)
    assert sorted(m.to[0] for m in mail.outbox) == sorted(u.email for u in (anna, ben, carla))
    [first_email] = [m for m in mail.outbox if m.to == [first.email]]
    assert "you go first" in first_email.subject
    assert f"/email/play/{game.pk}/" in first_email.body
    turn = Notification.objects.filter(user=first, game=game, kind="your_turn").first()
    if turn is not None:  # written by games.announce at the start
        assert turn.status == "skipped"
        assert turn.last_error == "the game-started email tells them"


def test_it_reminds_with_the_time_left(active_game, anna):
    active_game.deadline = timezone.now() + timedelta(hours=5, minutes=3)
    active_game.save(update_fields=["deadline"])
    message = send(anna, "reminder", active_game, {"deadline": active_game.deadline.isoformat()})
    assert message.subject == f"Reminder: it is still your turn in Firenze Game {active_game.pk}"
    assert "runs out in 5\xa0hours" in message.body


def test_it_sends_html_readable_on_phones(active_game, anna):
    html = html_of(send(anna, "your_turn", active_game))
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert "<style" not in html and "stylesheet" not in html  # inline styles only
    assert 'role="presentation"' in html
