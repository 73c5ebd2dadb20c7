"""The lobby: creating games, filling seats (join, invitation, invite link, bots), starting,
cancelling and leaving, and the "My games" page, all through HTTP.

Refused lobby actions redirect back to the game page (303) and show the reason there as a
message; only the forming page of an invite-only game is 404 for strangers.
"""

from __future__ import annotations

import html
import re
from datetime import timedelta
from unittest.mock import patch

import pytest
from django.urls import reverse
from django.utils import timezone

from games import lobby
from games.forms import LIMIT_CHOICES
from games.models import TIME_LIMITS, Game, Invitation, Seat
from games.rules.firenze import rules
from games.rules.firenze.engine import SEAT_COLOURS
from tests.web.helpers import fast_forward, play_greedy, signed_in, started_game

pytestmark = pytest.mark.django_db


def url(name: str, game: Game, *args) -> str:
    return reverse(f"games:{name}", args=[game.pk, *args])


def text_of(response) -> str:
    return html.unescape(response.content.decode())


def assert_refused(client, response, game: Game, message: str) -> None:
    """A refused lobby action: back to the game page, which tells why."""
    assert response.status_code == 303
    assert response["Location"] == url("detail", game)
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert message in text_of(page)


def assert_login_required(response) -> None:
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))


def open_game(creator, num_players: int = 3, **kwargs) -> Game:
    """A forming game that waits for its creator to start it (auto-start has tests of its own)."""
    kwargs.setdefault("auto_start", False)
    return lobby.create_game(creator, num_players=num_players, **kwargs)


def seated(game: Game) -> set:
    return {s.user for s in game.seats.all()}


# --- the lobby list --------------------------------------------------------------------------


def test_it_lists_open_public_games_but_not_invite_only_started_or_cancelled_ones(
    client, anna, ben
):
    listed = open_game(anna, 3, time_limit=timedelta(days=1))
    lobby.join(listed, ben)
    private = open_game(anna, is_public=False)
    running = started_game(anna, ben)
    cancelled = open_game(ben)
    lobby.cancel(cancelled, ben)

    response = client.get(reverse("games:lobby"))  # anonymous visitors see the lobby too

    assert response.status_code == 200
    page = text_of(response)
    assert f'href="{url("detail", listed)}"' in page
    assert "2 of 3 seats taken" in page
    for hidden in (private, running, cancelled):
        assert f'href="{url("detail", hidden)}"' not in page
    assert reverse("games:create") not in page  # only signed-in players may create


def test_it_says_so_when_no_game_is_open(anna):
    page = text_of(signed_in(anna).get(reverse("games:lobby")))
    assert "No open games right now." in page
    assert reverse("games:create") in page


# --- creating a game -------------------------------------------------------------------------


def test_it_shows_the_create_form_with_every_option(anna):
    response = signed_in(anna).get(reverse("games:create"))

    assert response.status_code == 200
    page = text_of(response)
    for name in ("num_players", "campanile", "neutral_seals", "seal_placement", "time_limit"):
        assert f'name="{name}"' in page
    for value, label in LIMIT_CHOICES:
        assert f'<option value="{value}"' in page and str(label) in page
    for placement in ("recommended", "random", "dead_color"):
        assert f'value="{placement}"' in page


def test_it_creates_a_game_from_the_form_with_its_creator_in_the_first_seat(anna):
    client = signed_in(anna)
    response = client.post(
        reverse("games:create"),
        {
            "num_players": "4",
            "campanile": "on",
            "neutral_seals": "2",
            "seal_placement": "random",
            "time_limit": str(int(timedelta(hours=12).total_seconds())),
            "is_public": "0",
        },
    )

    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == url("detail", game)
    assert game.creator == anna
    assert game.num_players == 4
    assert game.options == {"campanile": True, "neutral_seals": 2, "seal_placement": "random"}
    assert game.time_limit == timedelta(hours=12)
    assert not game.is_public
    assert game.is_open and game.state is None
    assert seated(game) == {anna}
    page = text_of(client.get(response["Location"]))
    assert "Waiting for players" in page
    assert "by invitation" in page
    assert "Campanile in the deck" in page
    assert "2 neutral seals, random placement" in page
    assert "1 of 4 seats taken." in page


@pytest.mark.parametrize(("limit", "text"), [(limit, str(text)) for limit, text in TIME_LIMITS])
def test_it_creates_games_with_every_offered_time_limit(anna, limit, text):
    response = signed_in(anna).post(
        reverse("games:create"),
        {
            "num_players": "2",
            "neutral_seals": "5",
            "seal_placement": "dead_color",
            "time_limit": str(int(limit.total_seconds())),
            "is_public": "1",
        },
    )

    assert response.status_code == 302
    game = Game.objects.get()
    assert game.time_limit == limit
    assert game.is_public
    assert game.options == {"campanile": False, "neutral_seals": 5, "seal_placement": "dead_color"}


VALID_FORM = {
    "num_players": "3",
    "neutral_seals": "5",
    "seal_placement": "recommended",
    "time_limit": str(3 * 86400),
    "is_public": "1",
}


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("num_players", "5", "Select a valid choice. 5 is not one of the available choices."),
        ("num_players", "1", "Select a valid choice. 1 is not one of the available choices."),
        ("num_players", "", "This field is required."),
        ("neutral_seals", "8", "Ensure this value is less than or equal to 7."),
        ("neutral_seals", "-1", "Ensure this value is greater than or equal to 0."),
        ("neutral_seals", "many", "Enter a whole number."),
        ("seal_placement", "everywhere", "Select a valid choice. everywhere is not one"),
        ("time_limit", "3600", "Select a valid choice. 3600 is not one of the available choices."),
        ("is_public", "maybe", "Select a valid choice. maybe is not one of the available choices."),
    ],
)
def test_it_rejects_bad_create_form_input_with_the_reason_next_to_the_field(
    anna, field, value, message
):
    response = signed_in(anna).post(reverse("games:create"), {**VALID_FORM, field: value})

    assert response.status_code == 400
    page = text_of(response)
    assert message in page
    assert re.search(rf'name="{field}"', page)  # the form is shown again to be corrected
    assert not Game.objects.exists()


def test_it_sends_anonymous_visitors_to_sign_in_before_creating(client):
    assert_login_required(client.get(reverse("games:create")))
    assert_login_required(client.post(reverse("games:create"), VALID_FORM))
    assert not Game.objects.exists()


# --- joining ---------------------------------------------------------------------------------


def test_it_lets_players_join_open_seats_of_a_public_game_from_the_lobby(anna, ben):
    game = open_game(anna)
    client = signed_in(ben)
    page = text_of(client.get(url("detail", game)))
    assert f'action="{url("join", game)}"' in page

    response = client.post(url("join", game))

    assert response.status_code == 302
    assert response["Location"] == url("detail", game)
    assert seated(game) == {anna, ben}
    page = text_of(client.get(url("detail", game)))
    assert "You took a seat." in page
    assert "Ben" in page and "2 of 3 seats taken." in page
    assert f'action="{url("join", game)}"' not in page
    assert f'action="{url("leave", game)}"' in page


def test_it_refuses_a_second_seat_for_the_same_player(anna, ben):
    game = open_game(anna)
    lobby.join(game, ben)
    client = signed_in(ben)

    response = client.post(url("join", game))

    assert_refused(client, response, game, "You already have a seat in this game.")
    assert game.seats.count() == 2


def test_it_refuses_joining_a_full_game(anna, ben, carla):
    game = open_game(anna, 2)
    lobby.join(game, ben)
    client = signed_in(carla)
    assert f'action="{url("join", game)}"' not in text_of(client.get(url("detail", game)))

    response = client.post(url("join", game))

    assert_refused(client, response, game, "All seats of this game are taken.")
    assert seated(game) == {anna, ben}


def test_it_refuses_joining_a_started_game(anna, ben, carla):
    game = started_game(anna, ben)
    client = signed_in(carla)

    response = client.post(url("join", game))

    assert_refused(client, response, game, "This game has already started or was cancelled.")
    assert seated(game) == {anna, ben}


def test_it_refuses_joining_a_cancelled_game(anna, ben):
    game = open_game(anna)
    lobby.cancel(game, anna)
    client = signed_in(ben)

    response = client.post(url("join", game))

    assert_refused(client, response, game, "This game has already started or was cancelled.")
    assert seated(game) == {anna}


def test_it_sends_anonymous_visitors_to_sign_in_before_taking_a_seat(client, anna):
    game = open_game(anna)
    page = text_of(client.get(url("detail", game)))
    assert "Create an account to take a seat" in page

    assert_login_required(client.post(url("join", game)))
    assert seated(game) == {anna}


@pytest.mark.parametrize("name", ["join", "leave", "cancel", "add_bot", "start", "invite"])
def test_it_answers_lobby_actions_only_to_posts(anna, name):
    game = open_game(anna)
    assert signed_in(anna).get(url(name, game)).status_code == 405


# --- invite-only games -----------------------------------------------------------------------


def test_it_hides_invite_only_games_from_strangers(client, anna, ben):
    game = open_game(anna, is_public=False)
    strangers = {"anonymous": client, "ben": signed_in(ben)}

    for who, browser in strangers.items():
        assert browser.get(url("detail", game)).status_code == 404, who
        assert browser.get(url("detail", game) + "?token=wrong").status_code == 404, who
        assert f'href="{url("detail", game)}"' not in text_of(browser.get(reverse("games:lobby")))
    ben_browser = strangers["ben"]
    for name in ("join", "leave", "cancel", "add_bot", "start", "invite"):
        assert ben_browser.post(url(name, game)).status_code == 404, name
    assert ben_browser.post(url("join", game), {"token": "wrong"}).status_code == 404
    assert seated(game) == {anna}
    assert signed_in(anna).get(url("detail", game)).status_code == 200


def test_it_opens_an_invite_only_game_with_the_invite_link_and_seats_its_holder(client, anna, ben):
    game = open_game(anna, is_public=False)
    anna_page = text_of(signed_in(anna).get(url("detail", game)))
    link = reverse("games:invite_link", args=[game.invite_token])
    assert link in anna_page  # the creator is shown the link to share

    response = client.get(link)  # anonymous: may look, must sign in to sit down
    assert response.status_code == 302
    assert response["Location"] == f"{url('detail', game)}?token={game.invite_token}"
    assert "Create an account to take a seat" in text_of(client.get(response["Location"]))

    browser = signed_in(ben)
    page = text_of(browser.get(response["Location"]))
    assert f'name="token" value="{game.invite_token}"' in page

    joined = browser.post(url("join", game), {"token": game.invite_token})

    assert joined.status_code == 302
    assert seated(game) == {anna, ben}
    assert "You took a seat." in text_of(browser.get(url("detail", game)))  # no token needed


def test_it_keeps_the_invite_link_when_a_joining_player_is_refused(anna, ben, carla):
    game = open_game(anna, 3, is_public=False)
    Seat.objects.create(game=game, bot="greedy", bot_name="Lorenzo")
    lobby.invite(game, anna, "Ben")
    browser = signed_in(carla)
    token = game.invite_token

    with patch.object(lobby, "_free_seats", return_value=0):  # Ben took the seat meanwhile
        response = browser.post(url("join", game), {"token": token})

    assert response.status_code == 303
    assert response["Location"] == f"{url('detail', game)}?token={token}"
    page = browser.get(response["Location"])
    assert page.status_code == 200
    assert "All seats of this game are taken." in text_of(page)
    assert seated(game) == {anna, None}


def test_it_does_not_open_the_invite_link_of_another_game(anna, ben):
    game = open_game(anna, is_public=False)
    other = open_game(anna, is_public=False)
    browser = signed_in(ben)

    response = browser.post(url("join", game), {"token": other.invite_token})

    assert response.status_code == 404
    assert browser.get(reverse("games:invite_link", args=["no-such-token"])).status_code == 404
    assert seated(game) == {anna}


def test_it_invites_a_player_by_display_name_who_may_then_see_and_join_the_game(anna, ben):
    game = open_game(anna, is_public=False)
    creator = signed_in(anna)

    response = creator.post(url("invite", game), {"display_name": "  ben "})

    assert response.status_code == 302
    assert "Ben is invited." in text_of(creator.get(url("detail", game)))
    invitation = Invitation.objects.get()
    assert (invitation.game, invitation.user, invitation.invited_by) == (game, ben, anna)

    browser = signed_in(ben)
    mine = text_of(browser.get(reverse("games:mine")))
    assert "Invitations" in mine and f'href="{url("detail", game)}"' in mine
    assert re.search(r"from <a class=\"player-link\" href=\"/players/Anna/\">Anna</a>", mine)
    assert browser.get(url("detail", game)).status_code == 200

    assert browser.post(url("join", game)).status_code == 302  # no token: the invitation does
    assert seated(game) == {anna, ben}
    assert not Invitation.objects.exists()
    assert "Invitations" not in text_of(browser.get(reverse("games:mine")))


def test_it_refuses_invitations_to_unknown_or_seated_players_and_from_outsiders(anna, ben, carla):
    game = open_game(anna)
    lobby.join(game, ben)
    creator = signed_in(anna)

    response = creator.post(url("invite", game), {"display_name": "Zeno"})
    assert_refused(creator, response, game, 'There is no player called "Zeno".')

    response = creator.post(url("invite", game), {"display_name": "Ben"})
    assert_refused(creator, response, game, "Ben already has a seat in this game.")

    outsider = signed_in(carla)
    response = outsider.post(url("invite", game), {"display_name": "Dario"})
    assert_refused(outsider, response, game, "Only the game's creator can invite players.")
    assert not Invitation.objects.exists()


def test_it_shows_the_invite_form_only_to_the_creator(anna, ben):
    game = open_game(anna)
    assert f'action="{url("invite", game)}"' in text_of(signed_in(anna).get(url("detail", game)))
    page = text_of(signed_in(ben).get(url("detail", game)))
    assert f'action="{url("invite", game)}"' not in page
    assert game.invite_token not in page


# --- the creator's powers: bots, freeing seats, starting, cancelling -------------------------


def test_it_lets_the_creator_seat_a_bot_and_free_it_again(anna):
    game = open_game(anna)
    client = signed_in(anna)

    assert client.post(url("add_bot", game)).status_code == 302

    bot = game.seats.get(user=None)
    assert bot.bot == "greedy"
    page = text_of(client.get(url("detail", game)))
    assert "Bot Lorenzo" in page
    assert f'action="{url("remove_seat", game, bot.pk)}"' in page

    assert client.post(url("remove_seat", game, bot.pk)).status_code == 302
    assert seated(game) == {anna}


def test_it_lets_the_creator_free_a_players_seat_but_not_their_own(anna, ben):
    game = open_game(anna)
    lobby.join(game, ben)
    client = signed_in(anna)
    own = game.seats.get(user=anna)

    response = client.post(url("remove_seat", game, own.pk))
    assert_refused(client, response, game, "There is no such seat to free.")

    other_game = open_game(ben)
    foreign = other_game.seats.get()
    response = client.post(url("remove_seat", game, foreign.pk))
    assert_refused(client, response, game, "There is no such seat to free.")
    assert seated(other_game) == {ben}

    assert client.post(url("remove_seat", game, game.seats.get(user=ben).pk)).status_code == 302
    assert seated(game) == {anna}


def test_it_refuses_a_bot_when_every_seat_is_taken(anna, ben):
    game = open_game(anna, 2)
    lobby.join(game, ben)
    client = signed_in(anna)

    response = client.post(url("add_bot", game))

    assert_refused(client, response, game, "All seats of this game are taken.")
    assert game.seats.count() == 2


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ("start", "Only the game's creator can start it."),
        ("cancel", "Only the game's creator can cancel it."),
        ("add_bot", "Only the game's creator can seat a bot."),
        ("remove_seat", "Only the game's creator can free a seat."),
    ],
)
@pytest.mark.parametrize("who", ["seated player", "outsider"])
def test_it_lets_only_the_creator_start_cancel_seat_bots_and_free_seats(
    anna, ben, carla, action, message, who
):
    game = open_game(anna, 3)
    lobby.join(game, ben)
    bot = None if action == "add_bot" else lobby.add_bot(game, anna)  # full: ready to start
    client = signed_in(ben if who == "seated player" else carla)
    args = (bot.pk,) if action == "remove_seat" else ()
    before = list(game.seats.values_list("pk", "user", "bot"))

    response = client.post(url(action, game, *args))

    assert_refused(client, response, game, message)
    game.refresh_from_db()
    assert game.is_open
    assert list(game.seats.values_list("pk", "user", "bot")) == before


def test_it_shows_the_creators_buttons_only_to_the_creator(anna, ben):
    game = open_game(anna, 2)
    lobby.join(game, ben)

    creator_page = text_of(signed_in(anna).get(url("detail", game)))
    player_page = text_of(signed_in(ben).get(url("detail", game)))

    for name in ("start", "cancel"):
        assert f'action="{url(name, game)}"' in creator_page
        assert f'action="{url(name, game)}"' not in player_page
    assert "free seat" in creator_page and "free seat" not in player_page
    assert f'action="{url("leave", game)}"' in player_page
    assert f'action="{url("leave", game)}"' not in creator_page


def test_it_starts_a_full_game_for_the_creator_and_deals_it(anna, ben, carla):
    game = open_game(anna, 3, time_limit=timedelta(days=2))
    lobby.join(game, ben)
    client = signed_in(anna)
    assert f'action="{url("start", game)}"' not in text_of(client.get(url("detail", game)))
    response = client.post(url("start", game))
    assert_refused(client, response, game, "Every seat must be taken before the game can start.")
    game.refresh_from_db()
    assert game.is_open and game.state is None

    lobby.join(game, carla)
    before = timezone.now()
    response = client.post(url("start", game))

    assert response.status_code == 302
    game.refresh_from_db()
    assert game.is_active
    seats = list(game.seats.order_by("number"))
    assert [s.number for s in seats] == [0, 1, 2]
    assert [s.colour for s in seats] == SEAT_COLOURS[:3]
    expected = rules.new_game(3, game.seed, game.options)
    assert game.state == rules.to_dict(expected)
    assert game.acting_seat == rules.acting_seat(expected)
    assert game.version == 1
    assert before + timedelta(days=2) <= game.deadline <= timezone.now() + timedelta(days=2)
    page = text_of(client.get(url("detail", game)))
    assert 'id="board"' in page and "Game log" in page  # the game page, no longer the forming one

    response = client.post(url("start", game))
    assert_refused(client, response, game, "This game has already started or was cancelled.")


def test_it_draws_seat_order_and_start_player_from_the_games_seed(anna, ben, carla):
    def seating(seed: int) -> tuple[tuple, int]:
        game = open_game(anna, 3)
        Game.objects.filter(pk=game.pk).update(seed=seed)
        lobby.join(game, ben)
        lobby.join(game, carla)
        lobby.start(game, anna)
        game.refresh_from_db()
        order = tuple(game.seats.order_by("number").values_list("user__username", flat=True))
        return order, game.acting_seat

    results = {seed: seating(seed) for seed in range(12)}

    assert seating(5) == results[5]  # the same seed seats the same way
    assert len({order for order, _ in results.values()}) > 1  # not join order
    assert len({start for _, start in results.values()}) > 1
    for seed, (_, start) in results.items():
        assert start == rules.acting_seat(rules.new_game(3, seed))


def test_it_lets_the_creator_cancel_a_forming_game(anna, ben):
    game = open_game(anna)
    lobby.join(game, ben)
    client = signed_in(anna)

    response = client.post(url("cancel", game))

    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.CANCELLED
    page = text_of(client.get(url("detail", game)))
    assert "Game cancelled." in page and "Cancelled" in page
    assert f'action="{url("join", game)}"' not in page
    assert f'href="{url("detail", game)}"' not in text_of(client.get(reverse("games:lobby")))
    assert f'href="{url("detail", game)}"' not in text_of(client.get(reverse("games:mine")))


def test_it_refuses_to_cancel_a_started_game(anna, ben):
    game = started_game(anna, ben)
    client = signed_in(anna)

    response = client.post(url("cancel", game))

    assert_refused(client, response, game, "This game has already started or was cancelled.")
    game.refresh_from_db()
    assert game.is_active


# --- leaving ---------------------------------------------------------------------------------


def test_it_lets_a_player_leave_before_the_start(anna, ben):
    game = open_game(anna)
    lobby.join(game, ben)
    client = signed_in(ben)

    response = client.post(url("leave", game))

    assert response.status_code == 302
    assert seated(game) == {anna}
    page = text_of(client.get(url("detail", game)))
    assert "You left the game." in page
    assert f'action="{url("join", game)}"' in page


def test_it_refuses_leaving_for_the_creator_for_outsiders_and_after_the_start(anna, ben, carla):
    game = open_game(anna)
    lobby.join(game, ben)

    creator = signed_in(anna)
    response = creator.post(url("leave", game))
    message = "As the creator you can cancel the game instead of leaving it."
    assert_refused(creator, response, game, message)

    outsider = signed_in(carla)
    response = outsider.post(url("leave", game))
    assert_refused(outsider, response, game, "You have no seat in this game.")
    assert seated(game) == {anna, ben}

    running = started_game(anna, ben)
    player = signed_in(ben)
    response = player.post(url("leave", running))
    assert_refused(player, response, running, "This game has already started or was cancelled.")
    assert seated(running) == {anna, ben}


# --- My games --------------------------------------------------------------------------------


def sections(page: str) -> dict[str, str]:
    """The My games page cut into its sections, keyed by heading."""
    parts = re.split(r"<h2[^>]*>(.*?)</h2>", page)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts) - 1, 2)}


def listed(section: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'href="/games/(\d+)/"', section)]


def test_it_lists_my_games_with_my_turn_first_then_the_others_then_finished_ones(anna, ben, carla):
    def annas_turn(game: Game) -> bool:
        return game.acting_seat == game.seats.get(user=anna).number

    def until_turn_of(game: Game, user) -> None:
        number = game.seats.get(user=user).number
        fast_forward(game, until=lambda s: rules.acting_seat(s) == number and s.step > 0)

    finished = started_game(anna, ben)
    fast_forward(finished)
    assert finished.is_finished
    waiting = started_game(anna, ben)
    until_turn_of(waiting, ben)
    older_turn = started_game(anna, carla)
    until_turn_of(older_turn, anna)
    newer_turn = started_game(anna, ben, carla)
    until_turn_of(newer_turn, anna)
    forming = open_game(anna)
    cancelled = open_game(anna)
    lobby.cancel(cancelled, anna)
    not_mine = started_game(ben, carla)
    assert annas_turn(older_turn) and annas_turn(newer_turn) and not annas_turn(waiting)

    # The older game moves again (a step of Anna's that leaves her to act): it is the fresher.
    assert play_greedy(older_turn, max_moves=1) == 1
    older_turn.refresh_from_db()
    assert annas_turn(older_turn)

    response = signed_in(anna).get(reverse("games:mine"))

    assert response.status_code == 200
    page = response.content.decode()
    parts = sections(page)
    assert list(parts) == [
        "Your turn",
        "Waiting for others",
        "Forming",
        "Finished",
        "Games to watch",
    ]
    assert listed(parts["Your turn"]) == [older_turn.pk, newer_turn.pk]
    assert listed(parts["Waiting for others"]) == [waiting.pk]
    assert listed(parts["Forming"]) == [forming.pk]
    assert listed(parts["Finished"]) == [finished.pk]
    assert cancelled.pk not in listed(page)
    assert listed(parts["Games to watch"]) == [not_mine.pk]  # public, being played, not hers

    ben_parts = sections(signed_in(ben).get(reverse("games:mine")).content.decode())
    assert waiting.pk in listed(ben_parts["Your turn"])
    assert newer_turn.pk in listed(ben_parts["Waiting for others"])


def test_it_says_so_when_i_have_no_games(anna):
    page = text_of(signed_in(anna).get(reverse("games:mine")))
    assert "No game is waiting for you." in page
    assert "Invitations" not in page


def test_it_sends_anonymous_visitors_to_sign_in_for_my_games(client):
    assert_login_required(client.get(reverse("games:mine")))


def test_it_names_each_seat_of_a_forming_game(anna, ben):
    game = open_game(anna, 4)
    lobby.join(game, ben)
    lobby.add_bot(game, anna)
    page = text_of(signed_in(ben).get(url("detail", game)))

    assert "Anna (creator)" in re.sub(r"<[^>]+>", "", page)
    assert "Ben" in page and "Bot Lorenzo" in page
    assert "3 of 4 seats taken." in page
    assert Seat.objects.filter(game=game).count() == 3


def test_it_tells_the_creator_on_my_games_that_their_table_is_full(anna, ben, carla):
    game = open_game(anna, num_players=3)
    lobby.join(game, ben)
    forming = text_of(signed_in(anna).get(reverse("games:mine")))
    assert "Your table is full" not in forming
    lobby.join(game, carla)
    mine = text_of(signed_in(anna).get(reverse("games:mine")))
    assert "Your table is full" in mine
    assert "start the game" in mine
    # The others see it as a forming game: only the creator can start it.
    assert "Your table is full" not in text_of(signed_in(ben).get(reverse("games:mine")))
