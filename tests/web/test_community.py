"""Reliability on profiles and beside names, tables that ask for it, the limit of games at
once, following and blocking (community/)."""

from __future__ import annotations

import html

import pytest
from django.core import mail
from django.urls import reverse

from community import standing
from community.models import Follow, TableRequirement
from games import lobby
from games.errors import NotAllowed
from games.models import Invitation
from players.models import SeatResult
from tests.factories import finished_record
from tests.web.helpers import play_greedy, signed_in, started_game

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return html.unescape(response.content.decode())


def ended_games(player, other, count: int, *, resigned: int = 0) -> None:
    for _ in range(count):
        finished_record([player, other], [10, 5])
    ids = SeatResult.objects.filter(user=player).values_list("pk", flat=True)[:resigned]
    SeatResult.objects.filter(pk__in=list(ids)).update(resigned=True)


def test_it_shows_the_reliability_a_real_game_end_refreshes(
    client, anna, ben, django_capture_on_commit_callbacks
):
    ended_games(anna, ben, 4, resigned=1)
    game = started_game(anna, ben)

    with django_capture_on_commit_callbacks(execute=True):
        play_greedy(game)

    page = text(client.get(reverse("players:profile", args=["Anna"])))
    assert "Reliability" in page
    section = page.split('<h2 id="reliability-title">')[1][:1500]
    assert "80%" in section and "4 of 5" in section, section
    assert "new player" not in page


def test_it_calls_a_player_with_few_games_new_in_the_lobby(client, anna, ben):
    ended_games(ben, anna, 5)
    standing.refresh(ben.pk)
    lobby.create_game(anna, num_players=2, name="Anna's table")
    lobby.create_game(ben, num_players=2, name="Ben's table")

    page = text(client.get(reverse("games:lobby")))

    anna_row = page.split("Anna's table")[1].split("</li>")[0]
    ben_row = page.split("Ben's table")[1].split("</li>")[0]
    assert "new player" in anna_row
    assert "100% finished" in ben_row


def test_it_refuses_a_player_below_the_tables_minimum_and_says_why(anna, ben, carla):
    ended_games(ben, carla, 5, resigned=2)
    standing.refresh(ben.pk)
    game = lobby.create_game(anna, num_players=2)
    saved = signed_in(anna).post(
        reverse("community:requirements", args=[game.pk]), {"min_finished": "90"}
    )
    assert saved.status_code == 302
    browser = signed_in(ben)

    page = text(browser.get(reverse("games:detail", args=[game.pk])))
    refused = browser.post(reverse("games:join", args=[game.pk]), follow=True)

    reason = "finished at least 90% of their games; you finished 60%"
    assert reason in page
    assert reason in text(refused)
    assert not game.seats.filter(user=ben).exists()


def test_it_shows_the_refused_player_why_instead_of_take_a_seat(anna, ben, carla):
    ended_games(carla, anna, 5)
    standing.refresh(carla.pk)
    game = lobby.create_game(anna, num_players=3)
    TableRequirement.objects.create(game=game, min_finished=50)

    refused = text(signed_in(ben).get(reverse("games:detail", args=[game.pk])))
    welcome = text(signed_in(carla).get(reverse("games:detail", args=[game.pk])))

    main = refused.split("<main")[-1]
    assert "You cannot take a seat here:" in main and "you are a new player" in main
    assert "Take a seat" not in main
    assert "Take a seat" in welcome.split("<main")[-1]


def test_it_refuses_a_new_player_at_a_table_asking_for_a_record(anna, ben):
    game = lobby.create_game(anna, num_players=2)
    TableRequirement.objects.create(game=game, min_finished=50)

    with pytest.raises(NotAllowed, match="you are a new player"):
        lobby.join(game, ben)


def test_it_refuses_a_rating_outside_the_tables_range(anna, ben):
    from players.models import Rating

    Rating.objects.create(user=ben, mu=30, sigma=2, shown=1700, games=20)
    game = lobby.create_game(anna, num_players=2)
    TableRequirement.objects.create(game=game, min_rating=1000, max_rating=1500)

    with pytest.raises(NotAllowed, match="at most 1500; yours is 1700"):
        lobby.join(game, ben)


def test_it_keeps_the_creators_form_to_the_creator(anna, ben):
    game = lobby.create_game(anna, num_players=2)

    refused = signed_in(ben).post(
        reverse("community:requirements", args=[game.pk]), {"min_finished": "90"}, follow=True
    )
    bad = signed_in(anna).post(
        reverse("community:requirements", args=[game.pk]),
        {"min_rating": "1600", "max_rating": "1200"},
        follow=True,
    )

    assert "Only the game's creator" in text(refused)
    assert "The lowest rating must not be above the highest." in text(bad)
    assert not TableRequirement.objects.filter(game=game).exists()


def test_it_caps_the_games_a_person_is_in_at_once(anna, ben, settings):
    settings.ACTIVE_GAMES_BASE = 2
    settings.ACTIVE_GAMES_PER_FINISHED = 1
    lobby.create_game(ben, num_players=3)
    lobby.create_game(ben, num_players=3)
    third = lobby.create_game(anna, num_players=2)

    with pytest.raises(NotAllowed, match="You are in 2 games at once"):
        lobby.join(third, ben)
    ended_games(ben, anna, 1)
    standing.refresh(ben.pk)
    lobby.join(third, ben)  # one game finished allows one more


def test_it_tells_a_followed_player_once(anna, ben):
    browser = signed_in(anna)
    follow = reverse("community:follow", args=["Ben"])
    unfollow = reverse("community:unfollow", args=["Ben"])

    browser.post(follow)
    browser.post(unfollow)
    browser.post(follow)
    first = text(signed_in(ben).get(reverse("community:friends")))
    second = text(signed_in(ben).get(reverse("community:friends")))

    assert Follow.objects.filter(follower=anna, followed=ben).exists()
    assert first.count("New followers") == 1 and "Anna" in first
    assert "New followers" not in second


def test_it_lists_friends_games_and_invites_from_the_friends_list(anna, ben, carla):
    signed_in(anna).post(reverse("community:follow", args=["Ben"]))
    playing = started_game(ben, carla)
    table = lobby.create_game(anna, num_players=3, name="Come along")

    page = text(signed_in(anna).get(reverse("community:friends")))
    signed_in(anna).post(reverse("games:invite", args=[table.pk]), {"display_name": "Ben"})

    assert playing.title in page and "invite to Come along" in page
    assert table.invitations.filter(user=ben).exists()


def test_it_keeps_a_blocked_player_from_the_blockers_tables_without_saying_why(anna, ben):
    signed_in(anna).post(reverse("community:block", args=["Ben"]))
    game = lobby.create_game(anna, num_players=2)

    refused = signed_in(ben).post(reverse("games:join", args=[game.pk]), follow=True)
    invite = signed_in(ben).post(
        reverse("games:invite", args=[lobby.create_game(ben, num_players=2).pk]),
        {"display_name": "Anna"},
        follow=True,
    )

    assert "This table is not open to you." in text(refused)
    assert "block" not in text(refused).lower().split("<main")[-1]
    assert "Anna cannot be invited to this game." in text(invite)
    assert "block" not in text(invite).lower().split("<main")[-1]


def test_it_lets_no_email_invitation_reach_a_player_who_blocked_the_inviter(
    anna, ben, django_capture_on_commit_callbacks
):
    signed_in(anna).post(reverse("community:block", args=["Ben"]))
    game = lobby.create_game(ben, num_players=2)
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        sent = signed_in(ben).post(
            reverse("games:invite", args=[game.pk]), {"display_name": anna.email}, follow=True
        )

    assert f"An invitation is on its way to {anna.email}." in text(sent)
    assert "block" not in text(sent).lower().split("<main")[-1]
    assert not [m for m in mail.outbox if anna.email in m.to]
    assert not Invitation.objects.filter(user=anna).exists()
    assert game.title not in text(signed_in(anna).get(reverse("inbox:inbox")))


def test_it_lets_nobody_follow_a_player_who_blocks_them_nor_tells(anna, ben):
    signed_in(anna).post(reverse("community:block", args=["Ben"]))

    answer = signed_in(ben).post(reverse("community:follow", args=["Anna"]), follow=True)

    assert "You follow Anna." in text(answer)
    assert not Follow.objects.filter(follower=ben, followed=anna).exists()
    assert "Players you block" not in text(signed_in(ben).get(reverse("community:friends")))


def test_it_refuses_following_oneself_and_unknown_players(anna):
    browser = signed_in(anna)

    assert browser.post(reverse("community:follow", args=["Anna"])).status_code == 303
    assert browser.post(reverse("community:follow", args=["Nobody"])).status_code == 404
    assert browser.get(reverse("community:follow", args=["Anna"])).status_code == 405
    assert Client_anonymous_redirects()


def Client_anonymous_redirects() -> bool:
    from django.test import Client

    response = Client().post(reverse("community:block", args=["Anna"]))
    return response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_it_shows_follow_and_block_on_a_profile_only_to_others(anna, ben):
    own = text(signed_in(anna).get(reverse("players:profile", args=["Anna"])))
    other = text(signed_in(ben).get(reverse("players:profile", args=["Anna"])))

    assert ">Follow<" not in own
    assert ">Follow<" in other and ">Block<" in other


def test_it_exports_follows_and_own_blocks_and_deletes_them_with_the_account(
    anna, ben, carla, dario
):
    from accounts import personal_data
    from community.models import Block

    signed_in(anna).post(reverse("community:follow", args=["Ben"]))
    signed_in(anna).post(reverse("community:follow", args=["Dario"]))
    signed_in(dario).post(reverse("community:follow", args=["Anna"]))
    signed_in(anna).post(reverse("community:block", args=["Carla"]))
    signed_in(ben).post(reverse("community:block", args=["Anna"]))

    mine = personal_data.export(anna)
    personal_data.delete_account(anna)

    assert [f["player"] for f in mine["following"]] == ["Dario"]  # Ben's block ended one
    assert [f["player"] for f in mine["followers"]] == ["Dario"]
    assert [b["player"] for b in mine["blocking"]] == ["Carla"]  # not who blocks her
    assert not Block.objects.filter(blocker_id=anna.pk).exists()
    assert not Block.objects.filter(blocked_id=anna.pk).exists()


def test_it_shows_friends_games_on_the_inbox(anna, ben, carla):
    before = text(signed_in(anna).get(reverse("inbox:inbox")))
    signed_in(anna).post(reverse("community:follow", args=["Ben"]))
    playing = started_game(ben, carla)

    after = text(signed_in(anna).get(reverse("inbox:inbox")))

    assert "Friends' games" not in before
    assert "Friends' games" in after and playing.title in after


def test_it_serves_an_installable_manifest_with_its_icons(client):
    import json

    from django.contrib.staticfiles import finders

    page = client.get("/").content.decode()
    response = client.get("/manifest.webmanifest")
    manifest = json.loads(response.content)

    assert 'rel="manifest" href="/manifest.webmanifest"' in page
    assert 'rel="apple-touch-icon"' in page
    assert response["Content-Type"] == "application/manifest+json"
    assert manifest["display"] == "standalone" and manifest["start_url"].startswith("/")
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        name = icon["src"].split("/static/", 1)[1]
        assert finders.find(name), name


def test_it_hides_the_blocked_players_table_talk_from_the_blocker(anna, ben):
    from chat import services as chat

    signed_in(anna).post(reverse("community:block", args=["Ben"]))

    assert ben.pk in chat.muted_ids(anna)
    assert anna.pk not in chat.muted_ids(ben)  # nothing of the block shows on Ben's side


def test_it_keeps_a_tournament_to_players_who_finish_their_games_and_says_why(
    anna, ben, carla, dario
):
    from tests.web.tournament_helpers import tournament
    from tournaments.models import Entry

    ended_games(ben, dario, 5, resigned=2)
    ended_games(carla, dario, 5)
    for player in (ben, carla):
        standing.refresh(player.pk)
    cup = tournament(anna, min_finished=80)
    page = reverse("tournaments:detail", args=[cup.pk])
    join = reverse("tournaments:join", args=[cup.pk])

    shown = text(signed_in(ben).get(page))
    refused = signed_in(ben).post(join, follow=True)
    welcome = text(signed_in(carla).get(page))
    signed_in(carla).post(join)

    reason = "This tournament asks for players who finished at least 80% of their games"
    assert f"{reason}; you finished 60%." in shown and "Sign up</button>" not in shown
    assert f"{reason}; you finished 60%." in text(refused)
    assert reason not in welcome and "Sign up</button>" in welcome
    assert list(Entry.objects.filter(tournament=cup).values_list("user", flat=True)) == [carla.pk]


def test_it_lets_the_tournament_creator_ask_for_a_finished_share(anna):
    from tests.web.test_tournaments import create
    from tournaments.models import Tournament

    create(signed_in(anna), name="Reliable Cup", min_finished="75")
    refused = create(signed_in(anna), name="Odd Cup", min_finished="120")

    assert Tournament.objects.get(name="Reliable Cup").min_finished == 75
    assert "Enter a whole number from 0 to 100." in text(refused)
    assert not Tournament.objects.filter(name="Odd Cup").exists()


def test_it_keeps_the_blocked_players_talk_from_the_blocker_at_a_tournament_table(anna, ben):
    from chat import services as chat
    from tests.web.tournament_helpers import started
    from tournaments.models import Table

    signed_in(anna).post(reverse("community:block", args=["Ben"]))
    cup = started(anna, [anna, ben])  # the tournament pairs them all the same
    game = Table.objects.get(round__tournament=cup).game
    chat.post(game, ben, "Hello there, Anna")
    chat.post(game, anna, "Good luck")

    anna_sees = text(signed_in(anna).get(reverse("games:detail", args=[game.pk])))
    ben_sees = text(signed_in(ben).get(reverse("games:detail", args=[game.pk])))

    assert "Hello there, Anna" not in anna_sees
    assert "Good luck" in ben_sees and "block" not in ben_sees.lower().split("<main")[-1]
