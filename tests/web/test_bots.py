"""Bot levels on the site (issue 21): chosen per seat when creating a game or seating a bot,
the takeover level a player prefers, the levels page with the ladder's figures, a profile's
record against each level, and the post-game review shown to its player only."""

from __future__ import annotations

import random
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from bots import reviews
from bots.models import BotMatchup, BotRating, Review, TakeoverPreference
from games import lobby, timeouts
from games import replay as replays
from games.models import Game
from games.rules.firenze import rules
from tests.web.helpers import fast_forward, signed_in, started_game

pytestmark = pytest.mark.django_db

CREATE = {
    "name": "",
    "num_players": "3",
    "campanile": "",
    "neutral_seals": "5",
    "seal_placement": "recommended",
    "time_limit": str(3 * 86400),
    "is_public": "1",
    "auto_start": "on",
}


def test_it_creates_a_game_with_a_bot_of_the_level_chosen_for_each_seat(
    anna, django_capture_on_commit_callbacks
):
    browser = signed_in(anna)
    data = {**CREATE, "bot_seat_2": "strong", "bot_seat_3": "beginner"}
    with django_capture_on_commit_callbacks(execute=True):
        response = browser.post(reverse("games:create"), data)
    assert response.status_code == 302
    game = Game.objects.get()
    assert sorted(game.seats.exclude(bot="").values_list("bot", flat=True)) == [
        "beginner",
        "strong",
    ]
    assert game.is_active  # every seat taken: it started, and the bots played up to anna
    assert game.seats.get(number=game.acting_seat).user == anna


def test_it_leaves_a_seat_open_for_a_person_unless_a_bot_is_chosen(anna):
    browser = signed_in(anna)
    browser.post(reverse("games:create"), {**CREATE, "bot_seat_3": "standard"})
    game = Game.objects.get()
    assert list(game.seats.exclude(bot="").values_list("bot", flat=True)) == ["standard"]
    assert game.is_open
    page = browser.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "(Standard)" in page  # the level beside the bot's seat


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ({"num_players": "2", "bot_seat_3": "strong"}, "This game has only 2 seats."),
        ({"bot_seat_2": "grandmaster"}, "Select a valid choice."),
    ],
)
def test_it_refuses_a_bot_the_game_cannot_seat(anna, data, error):
    response = signed_in(anna).post(reverse("games:create"), {**CREATE, **data})
    assert response.status_code == 400
    assert error in response.content.decode()
    assert not Game.objects.exists()


def test_the_creator_seats_a_bot_of_the_level_chosen_beside_the_button(anna):
    game = lobby.create_game(anna, num_players=3)
    browser = signed_in(anna)
    page = browser.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert 'name="level"' in page and reverse("bots:levels") in page
    browser.post(reverse("games:add_bot", args=[game.pk]), {"level": "beginner"})
    browser.post(reverse("games:add_bot", args=[game.pk]), {"level": "nonsense"})
    browser.post(reverse("games:add_bot", args=[game.pk]), {})  # no level: the default
    assert sorted(game.seats.exclude(bot="").values_list("bot", flat=True)) == [
        "beginner",
        "standard",
    ]


def timed_out_turn_bot(game: Game, user, monkeypatch) -> str:
    """Which level played `user`'s timed-out turn (the engine's bots, spied on)."""
    used = []
    engine = game.engine
    for name, bot in list(engine.bots.items()):

        def spy(state, rng, name=name, bot=bot):
            used.append(name)
            return bot(state, rng)

        monkeypatch.setitem(engine.bots, name, spy)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    assert timeouts.time_out(game.pk)
    assert used
    return used[0]


def _waiting_for(user, *others):
    game = started_game(user, *others, seed=4)
    while game.seats.get(number=game.acting_seat).user != user:
        fast_forward(game, until=lambda s, g=game: rules.acting_seat(s) != g.acting_seat)
    return game


def test_a_timed_out_turn_is_played_by_standard_unless_the_player_chose_otherwise(
    anna, ben, monkeypatch
):
    game = _waiting_for(anna, ben)
    assert timed_out_turn_bot(game, anna, monkeypatch) == "standard"

    response = signed_in(ben).post(reverse("bots:takeover"), {"level": "strong"})
    assert response.status_code == 302
    assert TakeoverPreference.objects.get(user=ben).level == "strong"
    game.refresh_from_db()
    while game.seats.get(number=game.acting_seat).user != ben:
        fast_forward(game, until=lambda s: rules.acting_seat(s) != game.acting_seat)
        game.refresh_from_db()
    assert timed_out_turn_bot(game, ben, monkeypatch) == "strong"


def test_the_account_page_offers_the_takeover_level_and_refuses_a_made_up_one(anna):
    browser = signed_in(anna)
    page = browser.get(reverse("accounts:profile")).content.decode()
    assert reverse("bots:takeover") in page and "Strong" in page
    browser.post(reverse("bots:takeover"), {"level": "beginner"})
    response = browser.post(reverse("bots:takeover"), {"level": "<script>"}, follow=True)
    assert "Choose one of the bot levels offered." in response.content.decode()
    assert TakeoverPreference.objects.get(user=anna).level == "beginner"
    page = browser.get(reverse("accounts:profile")).content.decode()
    assert '<option value="beginner" selected>' in page


def test_the_levels_page_shows_each_level_in_words_and_the_ladders_numbers(client):
    page = client.get(reverse("bots:levels")).content.decode()
    for name in ("Beginner", "Standard", "Strong"):
        assert name in page
    assert "Not measured on this site yet." in page

    out = StringIO()
    call_command("rate_bots", "--games", "2", "--levels", "beginner,standard", stdout=out)
    assert "beginner" in out.getvalue() and "standard" in out.getvalue()
    assert BotRating.objects.count() == 2
    pair = BotMatchup.objects.get(level="standard", opponent="beginner")
    assert pair.games == 2
    page = client.get(reverse("bots:levels")).content.decode()
    standard = BotRating.objects.get(level="standard")
    assert str(standard.shown) in page
    assert "Against Beginner: wins" in page

    page = client.get(reverse("bots:levels"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Anfänger" in page and "Stark" in page
    assert "Gegen Anfänger: gewinnt" in page


def test_the_rules_and_create_pages_link_the_levels_page(client, anna):
    assert reverse("bots:levels") in client.get(reverse("games:rules")).content.decode()
    create = signed_in(anna).get(reverse("games:create")).content.decode()
    assert reverse("bots:levels") in create


def finished_with_bot(user, level: str) -> Game:
    game = lobby.create_game(user, num_players=2)
    lobby.add_bot(game, user, bot=level)
    game.refresh_from_db()
    fast_forward(game)
    assert game.is_finished
    return game


def test_a_profile_shows_the_players_record_against_each_level(client, anna):
    finished_with_bot(anna, "beginner")
    finished_with_bot(anna, "beginner")
    game = finished_with_bot(anna, "greedy")  # a bot stored under the old name is Standard
    page = client.get(reverse("players:profile", args=[anna.display_name])).content.decode()
    assert "Against the bots" in page
    section = page[page.index("Against the bots") :]
    assert "Beginner</th><td>2</td>" in section
    assert "Standard</th><td>1</td>" in section
    assert game.record.rated is False  # games with bots stay unrated


def test_a_player_asks_for_a_review_and_sees_it_beside_their_turns(
    anna, ben, django_capture_on_commit_callbacks
):
    game = started_game(anna, ben)
    fast_forward(game)
    replay = reverse("games:replay", args=[game.pk])
    browser = signed_in(anna)
    page = browser.get(replay).content.decode()
    assert "Review my game" in page

    with django_capture_on_commit_callbacks(execute=True):
        response = browser.post(reverse("bots:review", args=[game.pk]))
    assert response.status_code == 302
    review = Review.objects.get(game=game)  # computed at once: tasks run eagerly in tests
    assert review.status == Review.Status.DONE and review.user == anna
    assert review.entries and {e["decision"] for e in review.entries} == {"card", "build"}
    assert all(e["loss"] >= 0 for e in review.entries)

    first = review.entries[0]
    page = browser.get(replay, {"step": first["step"]}).content.decode()
    assert "Your review" in page
    assert "You: takes" in page or "You: builds" in page
    assert "decisions: the bot agreed with" in page
    assert "points given away" not in page  # no sum of estimates that no score could reach
    # The game's own points: each entry knows the margin then and what was still to be scored,
    # and no decision is said to have cost more than that.
    final = game.engine.scores(game.load_state())
    for entry in review.entries:
        assert entry["final_margin"] == final[review.seat] - final[1 - review.seat]
        assert entry["at_stake"] >= 0
    rows = reviews.worded(game, review, replays.build(game, {}).turn_starts)
    for row, entry in zip(rows, review.entries, strict=True):
        assert row["loss"] <= entry["at_stake"]
    assert "Your margin over the game" in page and "<polyline points=" in page
    costly = reviews.costliest(rows)
    if costly:
        shown = page.split("Your three costliest decisions")[1].split("</ol>")[0]
        assert shown.count("<li>") == len(costly) <= 3
        assert [r["loss"] for r in costly] == sorted((r["loss"] for r in costly), reverse=True)
        assert f"about {costly[0]['loss']:.1f} points better" in shown

    # Only anna sees anna's review: not her opponent, not a watcher.
    for other in (signed_in(ben), Client()):
        page = other.get(replay, {"step": first["step"]}).content.decode()
        assert "You: takes" not in page and "You: builds" not in page
    assert "Review my game" in signed_in(ben).get(replay).content.decode()

    browser.post(reverse("bots:review", args=[game.pk]))  # asking again changes nothing
    assert Review.objects.count() == 1


def test_only_the_players_of_a_finished_game_can_ask_for_its_review(anna, ben, carla):
    game = started_game(anna, ben)
    response = signed_in(anna).post(reverse("bots:review", args=[game.pk]), follow=True)
    assert "A game can be reviewed once it is over." in response.content.decode()
    fast_forward(game)
    assert signed_in(carla).post(reverse("bots:review", args=[game.pk])).status_code == 404
    assert signed_in(anna).post(reverse("bots:review", args=[999999])).status_code == 404
    assert not Review.objects.exists()


def test_the_review_compares_the_players_card_with_the_strong_bots_from_their_view():
    """The engine's review of a seat: one card and one build decision per turn of that seat,
    each naming the card taken and the bot's choice, in points the player gave away."""
    from games.rules.firenze.rules.bots import random_player
    from games.rules.firenze.rules.greedy import greedy_step
    from games.rules.firenze.rules.review import review_game
    from games.rules.firenze.rules.strong import Budget

    actions = []
    rng = random.Random(3)
    state = rules.new_game(2, 21)
    while not rules.is_over(state) and len(actions) < 120:
        seat = rules.acting_seat(state)
        action = random_player(state, rng) if seat == 0 else greedy_step(state._d, rng)
        actions.append(action)
        state = rules.apply_action(state, action)
    entries = review_game(rules.new_game(2, 21), actions, 0, Budget(seconds=5, playouts=6))
    assert entries
    assert all(e["loss"] >= 0 for e in entries)
    cards = [e for e in entries if e["decision"] == "card"]
    assert cards and all("card" in e["played"] for e in cards)
    # A random player gives points away somewhere; the bot never disagrees with itself.
    assert any(not e["agree"] and e["loss"] > 0 for e in entries)
