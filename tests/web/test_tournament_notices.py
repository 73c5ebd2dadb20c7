"""What players are told about a tournament: one notice per round naming their table (its game,
opponents and who goes first), byes, the end, in their language and on the channels they chose;
the game's own start notice is not sent on top."""

from __future__ import annotations

import pytest
from django.core import mail

from notifications import notices
from notifications.models import Notification, Preference
from tests.web.tournament_helpers import field, started
from tournaments.models import Table

pytestmark = pytest.mark.django_db


def test_the_round_notice_names_the_game_the_opponent_and_who_goes_first(
    anna, django_capture_on_commit_callbacks
):
    players = field(2)
    with django_capture_on_commit_callbacks(execute=True):
        found = started(anna, players, rounds=1)
    table = Table.objects.get(tournament=found)
    first = table.game.seats.get(number=table.game.first_seat()).user
    other = next(p for p in players if p != first)

    to_first = next(m for m in mail.outbox if m.to == [first.email])
    to_other = next(m for m in mail.outbox if m.to == [other.email])

    assert to_first.subject == "Round 1 of Spring Cup: your table is Spring Cup · 1.1"
    assert f"you play Spring Cup · 1.1 with {other.public_name}" in to_first.body
    assert "You go first." in to_first.body and "/email/play/" in to_first.body  # signs in
    assert f"{first.public_name} goes first" in to_other.body
    assert f"/games/{table.game_id}/" in to_other.body
    assert f"/tournaments/{found.pk}/" in to_other.body
    assert len(mail.outbox) == 2  # no "game started" or "your turn" email on top


def test_webhooks_and_pushes_say_the_same_in_a_line(anna):
    players = field(3)
    found = started(anna, players, rounds=1)
    round_row = Notification.objects.get(
        user=players[0], kind="tournament", channel="email", context__event="round"
    )
    bye_row = Notification.objects.get(user=players[2], kind="tournament", channel="email")

    said, bye = notices.for_notification(round_row), notices.for_notification(bye_row)

    assert said.text == "P01, round 1 of Spring Cup has started: you play with P02."
    assert said.url.endswith(f"/games/{round_row.game_id}/")
    assert bye.text == (
        "P03, round 1 of Spring Cup has started; you have a bye this round (it counts as a win)."
    )
    assert bye.url.endswith(f"/tournaments/{found.pk}/") and bye.game_id is None


def test_it_tells_nobody_who_switched_tournament_news_off(anna, django_capture_on_commit_callbacks):
    players = field(2)
    Preference.objects.create(user=players[0], kind="tournaments", channel="email", setting="off")

    with django_capture_on_commit_callbacks(execute=True):
        started(anna, players, rounds=1)

    row = Notification.objects.get(user=players[0], kind="tournament", channel="email")
    assert row.status == "skipped" and "tournaments by email" in row.last_error
    theirs = [m.subject for m in mail.outbox if m.to == [players[0].email]]
    assert not any("Round 1" in subject for subject in theirs)  # at most their turn's email
    assert [m.subject for m in mail.outbox if m.to == [players[1].email]][0].startswith("Round 1")


def test_it_writes_to_each_player_in_their_language(anna, django_capture_on_commit_callbacks):
    players = field(2)
    players[0].language = "de"
    players[0].save()

    with django_capture_on_commit_callbacks(execute=True):
        started(anna, players, rounds=1)

    german = next(m for m in mail.outbox if m.to == [players[0].email])
    english = next(m for m in mail.outbox if m.to == [players[1].email])
    assert german.subject.startswith("Runde 1 von Spring Cup")
    assert english.subject.startswith("Round 1 of Spring Cup")
