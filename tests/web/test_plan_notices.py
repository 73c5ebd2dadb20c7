"""Telling a plan's owner what it did, and the standing orders beside it (on Nim, the second
engine): the owner alone hears, by email in their language, what was played and why it
stopped; nobody else's email, page or webhook carries any of it; the orders take only the
step that leaves no choice; every bad order is refused with a reason, nothing kept."""

from __future__ import annotations

import pytest
import time_machine
from django.core import mail
from django.urls import reverse

from games import lobby
from games.errors import Conflict, RequestRefused
from games.models import Game
from games.play import move
from notifications.models import Notification, Webhook
from plans import service
from plans.models import PlanOutcome
from plans.service import NoSuchPlan
from tests.web.helpers import signed_in, started_game

pytestmark = pytest.mark.django_db
NOON = "2026-11-27 12:00:00+00:00"


def nim_game(nim, creator, *others, stones: int = 9) -> Game:
    game = lobby.create_game(
        creator, num_players=1 + len(others), options={"stones": stones}, engine_name=nim.name
    )
    for user in others:
        lobby.join(game, user)
    game.refresh_from_db()
    return game


def seated(game: Game) -> tuple:
    """(the acting user, the waiting user)."""
    seats = {s.number: s.user for s in game.seats.select_related("user")}
    return seats[game.acting_seat], seats[1 - game.acting_seat]


def emails_to(user) -> list:
    return [m for m in mail.outbox if user.email in m.to]


def whole(message) -> str:
    return message.subject + message.body + "".join(str(a[0]) for a in message.alternatives)


def mover_ends_turn(game, mover, capture, n: int = 1) -> None:
    with capture(execute=True):
        move(game.pk, mover, {"type": "take", "n": n}, None)
        move(game.pk, mover, {"type": "end_turn"}, None)
    game.refresh_from_db()


@time_machine.travel(NOON, tick=False)
def test_it_emails_the_owner_alone_what_a_plan_played_in_full(
    nim, anna, ben, django_capture_on_commit_callbacks
):
    game = nim_game(nim, anna, ben)
    mover, planner = seated(game)
    service.set_plan(game.pk, planner, [{"type": "take", "n": 2}])
    service.set_standing_orders(game.pk, planner, ["end_after_take"])
    mail.outbox.clear()
    mover_ends_turn(game, mover, django_capture_on_commit_callbacks)
    # The order ended the turn the plan left open: the mover's turn again, 6 stones left.
    assert game.acting_seat == mover.seats.get(game=game).number
    assert game.load_state().d["pile"] == 6
    outcome = PlanOutcome.objects.get(game=game, user=planner)
    assert outcome.in_full and outcome.ordered == ["End the turn"]
    (told,) = [m for m in emails_to(planner) if "plan" in m.subject]
    assert "Your plan was played in" in told.subject
    assert "Take 2" in told.body and "Then your standing orders:" in told.body
    assert "End the turn" in told.body
    # The other player hears of the moves as of any moves, never of a plan.
    for message in emails_to(mover):
        assert "plan" not in whole(message).lower() and "standing order" not in whole(message)


@time_machine.travel(NOON, tick=False)
def test_it_tells_the_owner_why_the_plan_stopped_in_one_email(
    nim, anna, ben, django_capture_on_commit_callbacks
):
    game = nim_game(nim, anna, ben, stones=5)
    mover, planner = seated(game)
    service.set_plan(game.pk, planner, [{"type": "take", "n": 3}, {"type": "end_turn"}])
    mail.outbox.clear()
    mover_ends_turn(game, mover, django_capture_on_commit_callbacks, n=3)  # 2 stones left
    outcome = PlanOutcome.objects.get(game=game, user=planner)
    assert outcome.stopped_before == 0 and outcome.why == {"key": "pile", "pile": 2}
    # One email, the plan's, stands in for the your-turn email; it says why, in the engine's
    # words, and offers the turn.
    (told,) = emails_to(planner)
    assert "Your plan stopped" in told.subject
    assert "Your plan stopped before step 1: only 2 stones are left." in told.body
    assert "It is your turn" in told.body
    turn_row = Notification.objects.get(user=planner, kind="your_turn", channel="email")
    assert turn_row.status == "skipped" and "plan" in turn_row.last_error
    assert not any("stones are left" in whole(m) for m in emails_to(mover))
    # The plan page shows the same to its owner, and nothing of it to the other player.
    url = reverse("plans:plan", args=[game.pk])
    page = signed_in(planner).get(url).content.decode()
    assert "Your plan stopped before step 1: only 2 stones are left." in page
    for path in (url, reverse("games:detail", args=[game.pk])):
        assert "stones are left" not in signed_in(mover).get(path).content.decode()


@time_machine.travel(NOON, tick=False)
def test_it_writes_the_notice_in_the_owners_language(
    nim, anna, ben, django_capture_on_commit_callbacks
):
    game = nim_game(nim, anna, ben)
    mover, planner = seated(game)
    planner.language = "de"
    planner.save(update_fields=["language"])
    service.set_plan(game.pk, planner, [{"type": "take", "n": 1}, {"type": "end_turn"}])
    mail.outbox.clear()
    mover_ends_turn(game, mover, django_capture_on_commit_callbacks)
    (told,) = [m for m in emails_to(planner) if "Plan" in m.subject]
    assert "Dein Plan wurde" in told.subject
    assert "vollständig" in told.body


@time_machine.travel(NOON, tick=False)
def test_it_never_sends_a_plan_to_a_webhook(nim, anna, ben, django_capture_on_commit_callbacks):
    game = nim_game(nim, anna, ben)
    mover, planner = seated(game)
    Webhook.objects.create(user=planner, url="https://hooks.example.com/x", format="json")
    service.set_plan(game.pk, planner, [{"type": "take", "n": 1}, {"type": "end_turn"}])
    mover_ends_turn(game, mover, django_capture_on_commit_callbacks)
    rows = Notification.objects.filter(user=planner, kind="plan")
    assert {row.channel for row in rows} == {"email"}


def test_it_takes_no_standing_order_after_a_plan_that_stopped(nim, anna, ben):
    game = nim_game(nim, anna, ben, stones=6)
    mover, planner = seated(game)
    service.set_plan(game.pk, planner, [{"type": "take", "n": 3}])
    service.set_standing_orders(game.pk, planner, ["end_after_take"])
    move(game.pk, mover, {"type": "take", "n": 3}, None)  # 3 left: still holds
    move(game.pk, mover, {"type": "end_turn"}, None)
    game.refresh_from_db()
    assert game.load_state().d["pile"] == 0  # the plan took the last stones and won
    outcome = PlanOutcome.objects.get(game=game, user=planner)
    assert outcome.in_full and outcome.ordered == []  # the game ended: nothing left to order


def test_it_keeps_the_orders_from_turn_to_turn_and_without_a_plan_does_nothing(nim, anna, ben):
    game = nim_game(nim, anna, ben)
    mover, planner = seated(game)
    service.set_standing_orders(game.pk, planner, ["end_after_take"])
    move(game.pk, mover, {"type": "take", "n": 1}, None)
    move(game.pk, mover, {"type": "end_turn"}, None)
    game.refresh_from_db()
    assert game.acting_seat == planner.seats.get(game=game).number  # no plan: no step taken
    assert not PlanOutcome.objects.exists()
    offered = service.standing_orders_of(game.pk, planner)
    assert offered == [
        {"key": "end_after_take", "label": "End my turn once I have taken", "on": True}
    ]
    assert service.set_standing_orders(game.pk, planner, []) == []
    assert not service.standing_orders_of(game.pk, planner)[0]["on"]


def test_it_refuses_bad_standing_orders_with_a_reason(nim, anna, ben, carla):
    game = nim_game(nim, anna, ben, stones=5)
    mover, planner = seated(game)
    with pytest.raises(RequestRefused, match="no standing order “skip_exchange”"):
        service.set_standing_orders(game.pk, planner, ["end_after_take", "skip_exchange"])
    assert not service.standing_orders_of(game.pk, planner)[0]["on"]  # nothing half kept
    with pytest.raises(NoSuchPlan):
        service.set_standing_orders(game.pk, carla, ["end_after_take"])
    with pytest.raises(NoSuchPlan):
        service.set_standing_orders(999_999, planner, [])
    move(game.pk, mover, {"type": "take", "n": 3}, None)
    move(game.pk, mover, {"type": "end_turn"}, None)
    move(game.pk, planner, {"type": "take", "n": 2}, None)  # the last stones: game over
    with pytest.raises(Conflict, match="over"):
        service.set_standing_orders(game.pk, planner, ["end_after_take"])


def test_the_plan_page_switches_orders_and_refuses_a_bad_one(nim, anna, ben, carla):
    game = nim_game(nim, anna, ben)
    _mover, planner = seated(game)
    client = signed_in(planner)
    url = reverse("plans:orders", args=[game.pk])
    page = client.get(reverse("plans:plan", args=[game.pk])).content.decode()
    assert "Standing orders" in page and "End my turn once I have taken" in page
    response = client.post(url, {"orders": ["end_after_take"]})
    assert response.status_code == 302
    assert service.standing_orders_of(game.pk, planner)[0]["on"]
    refused = client.post(url, {"orders": ["nonsense"]})
    assert refused.status_code == 400
    assert "This game has no standing order “nonsense”." in refused.content.decode()
    assert service.standing_orders_of(game.pk, planner)[0]["on"]  # unchanged
    assert signed_in(carla).post(url, {"orders": ["end_after_take"]}).status_code == 404
    assert client.get(url).status_code == 405


def play_turn_taking_the_first_card(game, user) -> None:
    """A Firenze turn: the leftmost card (free), then only ending each phase."""
    move(game.pk, user, {"type": "choose_card", "slot": 0}, None)
    play_turn_ending_each_phase(game, user)


def play_turn_ending_each_phase(game, user) -> None:
    for _ in range(10):
        game.refresh_from_db()
        if game.acting_seat != game.seats.get(user=user).number:
            return
        legal = game.engine.legal_actions(game.load_state())
        ending = [a for a in legal if a["type"] in ("end_turn", "end_phase")]
        move(game.pk, user, (ending or legal)[-1 if ending else 0], None)
    raise AssertionError("the turn did not end")


@time_machine.travel(NOON, tick=False)
def test_it_names_the_player_who_took_the_planned_card_in_firenze(
    anna, ben, django_capture_on_commit_callbacks
):
    game = started_game(anna, ben, seed=7)
    mover, planner = seated(game)
    card = game.load_state()._d["row"][0]["card"]
    service.set_plan(game.pk, planner, [{"type": "choose_card", "slot": 0}])
    service.set_standing_orders(game.pk, planner, ["skip_exchange", "end_turn"])
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        play_turn_taking_the_first_card(game, mover)
    game.refresh_from_db()
    assert all(entry["card"] != card for entry in game.load_state()._d["row"])
    outcome = PlanOutcome.objects.get(game=game, user=planner)
    assert outcome.stopped_before == 0 and outcome.ordered == []  # stopped: no order taken
    (told,) = emails_to(planner)
    name = mover.public_name
    assert f"Your plan stopped before step 1: {name} took the {card}." in told.body
    assert not any(card in m.subject for m in emails_to(mover))


def test_it_plays_the_standing_orders_after_a_firenze_plan_held(anna, ben):
    game = started_game(anna, ben, seed=7)
    mover, planner = seated(game)
    service.set_plan(game.pk, planner, [{"type": "choose_card", "slot": 0}])
    service.set_standing_orders(game.pk, planner, ["skip_exchange", "end_turn"])
    # The mover takes the second card, paying a brick onto the first: the planned card stays.
    move(game.pk, mover, {"type": "choose_card", "slot": 1}, None)
    game.refresh_from_db()
    move(game.pk, mover, game.engine.legal_actions(game.load_state())[0], None)
    play_turn_ending_each_phase(game, mover)
    game.refresh_from_db()
    outcome = PlanOutcome.objects.get(game=game, user=planner)
    assert outcome.in_full and outcome.ordered[0] == "End the phase"
    state = game.load_state()._d
    # Skipped the exchange; stopped in the build phase, where bricks leave a choice.
    assert state["seat"] == planner.seats.get(game=game).number and state["phase"] == "build"
    assert game.engine.legal_actions(game.load_state())  # the rest is the player's


@time_machine.travel(NOON, tick=False)
def test_it_words_the_played_steps_in_the_owners_language_whoever_moved(
    anna, ben, django_capture_on_commit_callbacks
):
    """The plan runs in the other player's request (English here); the German owner reads
    every step, planned or ordered, in German."""
    game = started_game(anna, ben, seed=7)
    mover, planner = seated(game)
    planner.language = "de"
    planner.save(update_fields=["language"])
    service.set_plan(game.pk, planner, [{"type": "choose_card", "slot": 0}])
    service.set_standing_orders(game.pk, planner, ["skip_exchange"])
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        move(game.pk, mover, {"type": "choose_card", "slot": 1}, None)
        game.refresh_from_db()
        move(game.pk, mover, game.engine.legal_actions(game.load_state())[0], None)
        play_turn_ending_each_phase(game, mover)
    (told,) = [m for m in emails_to(planner) if "Plan" in m.subject]
    assert "- Die Karte Alchemist nehmen" in told.body and "- Die Phase beenden" in told.body
    assert "Take the" not in told.body


def test_a_push_says_why_the_plan_stopped(nim, anna, ben):
    from notifications import notices

    game = nim_game(nim, anna, ben, stones=5)
    mover, planner = seated(game)
    service.set_plan(game.pk, planner, [{"type": "take", "n": 3}, {"type": "end_turn"}])
    move(game.pk, mover, {"type": "take", "n": 3}, None)
    move(game.pk, mover, {"type": "end_turn"}, None)
    row = Notification.objects.get(user=planner, kind="plan", channel="email")
    notice = notices.for_notification(row)
    assert notice.title == f"Your plan stopped in {game.title}"
    assert notice.text == (
        "Your plan stopped before step 1: only 2 stones are left. It is your turn."
    )
