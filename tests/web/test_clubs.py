"""Clubs (clubs/): the door, admins and members, the ladder and its challenges, the week an
unanswered challenge waits, club tournaments, who sees inside, blocks, limits, the data export
and account deletion."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from accounts.personal_data import delete_account, export
from clubs import challenges, membership, pages
from clubs.models import Challenge, Club, ClubTournament, DoorEntry, Membership
from clubs.tasks import expire_challenges
from community import social
from games import lobby, resign
from games.errors import Conflict, NotAllowed, RequestRefused
from games.models import Game
from tests.factories import UserFactory
from tests.web.helpers import HTMX, signed_in
from tournaments import signup
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return html.unescape(response.content.decode())


def club_of(admin, *players, door=Club.Door.OPEN, name="Chess Lovers"):
    """A club founded by ``admin``; the others join in order (so the ladder is this order)."""
    club = membership.found(admin, name=name, description="We play on Sundays.", door=door)
    for player in players:
        if door == Club.Door.OPEN:
            membership.join(club, player)
        else:
            membership.invite(club, admin, player)
            membership.join(club, player)
    return club


def ladder_names(club) -> list[str]:
    return [rung.member.user.display_name for rung in pages.ladder_rows(club, None)]


@pytest.fixture
def eve(db):
    return UserFactory(username="eve")


# --- the door ---------------------------------------------------------------------------------


def test_it_lets_anyone_join_an_open_club_at_the_foot_of_its_ladder(anna, ben, carla):
    club = club_of(anna, ben)

    answer = membership.join(club, carla)

    assert "foot of its ladder" in answer
    assert ladder_names(club) == ["Anna", "Ben", "Carla"]
    assert Membership.objects.get(club=club, user=anna).is_admin
    with pytest.raises(Conflict):
        membership.join(club, carla)


def test_it_makes_a_player_ask_at_a_closed_door_and_an_admin_let_them_in(client, anna, ben):
    club = club_of(anna, door=Club.Door.INVITATION)
    browser = signed_in(ben)

    browser.post(reverse("clubs:join", args=[club.slug]))
    assert membership.membership(club, ben) is None
    assert DoorEntry.objects.filter(club=club, user=ben, kind="request").exists()

    refused = browser.post(reverse("clubs:accept", args=[club.slug]), {"user": ben.pk})
    assert membership.membership(club, ben) is None  # only an admin lets in
    assert "Only the club's admins" in text(browser.get(refused["Location"]))

    signed_in(anna).post(reverse("clubs:accept", args=[club.slug]), {"user": ben.pk})
    assert membership.membership(club, ben) is not None
    assert not DoorEntry.objects.filter(club=club).exists()


def test_it_lets_an_invited_player_in_when_they_accept(anna, ben):
    club = club_of(anna, door=Club.Door.INVITATION)
    signed_in(anna).post(reverse("clubs:invite", args=[club.slug]), {"display_name": "ben"})
    listed = text(signed_in(ben).get(reverse("clubs:list")))
    assert "Invitations to clubs" in listed.split("Your clubs")[0]
    page = text(signed_in(ben).get(reverse("clubs:detail", args=[club.slug])))
    assert "You are invited to this club." in page

    signed_in(ben).post(reverse("clubs:join", args=[club.slug]))

    assert ladder_names(club) == ["Anna", "Ben"]


def test_it_lets_an_admin_remove_a_member_and_closes_the_ladder_up(anna, ben, carla, dario):
    club = club_of(anna, ben, carla, dario)

    signed_in(anna).post(reverse("clubs:remove", args=[club.slug]), {"user": carla.pk})

    assert ladder_names(club) == ["Anna", "Ben", "Dario"]
    signed_in(ben).post(reverse("clubs:remove", args=[club.slug]), {"user": dario.pk})
    assert ladder_names(club) == ["Anna", "Ben", "Dario"]  # a member cannot
    with pytest.raises(NotAllowed):
        membership.remove(club, anna, anna.pk)  # an admin leaves instead


def test_it_gives_a_club_a_new_admin_when_its_last_one_leaves(anna, ben, carla):
    club = club_of(anna, ben, carla)

    membership.leave(club, anna)

    assert Membership.objects.get(club=club, user=ben).is_admin
    membership.leave(club, ben)
    membership.leave(club, carla)
    assert not Club.objects.filter(pk=club.pk).exists()


def test_it_silently_does_not_invite_a_player_who_blocked_the_admin(anna, ben):
    club = club_of(anna, door=Club.Door.INVITATION)
    social.do_block(ben, anna)

    answer = membership.invite(club, anna, ben)

    assert answer == "Ben is invited to Chess Lovers."
    assert not DoorEntry.objects.filter(club=club, user=ben).exists()
    zoe = UserFactory(username="zoe")
    assert membership.invite(club, anna, zoe) == "Zoe is invited to Chess Lovers."
    assert DoorEntry.objects.filter(club=club, user=zoe).exists()


def test_it_leaves_off_the_door_list_a_request_from_a_player_every_admin_blocked(
    anna, ben, carla, eve
):
    club = club_of(anna, ben, door=Club.Door.INVITATION)
    membership.promote(club, anna, ben.pk)
    membership.join(club, carla)
    membership.join(club, eve)
    asking = reverse("clubs:detail", args=[club.slug])
    carla_browser = signed_in(carla)

    def seen_by_carla() -> str:  # her page, but for its one-time form tokens
        return re.sub(r"[A-Za-z0-9]{64}", "", text(carla_browser.get(asking)))

    before = seen_by_carla()

    def requests_seen_by(admin) -> list[str]:
        page = text(signed_in(admin).get(asking))
        door = page.split('id="requests-title"')[1].split("</section>")[0]
        return [name for name in ("Carla", "Eve") if f">{name}</a>" in door]

    social.do_block(anna, carla)
    # One admin is free to answer: both see the request.
    assert requests_seen_by(anna) == requests_seen_by(ben) == ["Carla", "Eve"]

    social.do_block(carla, ben)  # a block either way
    assert requests_seen_by(anna) == requests_seen_by(ben) == ["Eve"]
    assert seen_by_carla() == before  # she sees no difference
    assert DoorEntry.objects.filter(club=club, user=carla, kind="request").exists()


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Ben challenged you on 27 Nov 2026."),
        ("de", "Ben hat dich am 27. Nov 2026 herausgefordert."),
    ],
)
def test_it_tells_the_challenged_member_the_day_in_their_languages_words(anna, ben, language, said):
    club = club_of(anna, ben)
    anna.language = language
    anna.save(update_fields=["language"])
    with time_machine.travel("2026-11-27 12:00Z", tick=False):
        challenges.challenge(club, ben, anna)

    page = text(signed_in(anna).get(reverse("clubs:detail", args=[club.slug])))

    assert said in page  # as dates are written elsewhere on the site, not 11/27/2026


# --- who sees inside --------------------------------------------------------------------------


@pytest.mark.parametrize("page", ["members", "games"])
def test_it_hides_a_closed_clubs_members_and_games_from_outsiders(client, anna, ben, carla, page):
    club = club_of(anna, ben, door=Club.Door.INVITATION)
    url = reverse(f"clubs:{page}", args=[club.slug])

    assert client.get(url).status_code == 404
    assert signed_in(carla).get(url).status_code == 404
    assert signed_in(ben).get(url).status_code == 200
    assert signed_in(anna).get(url).status_code == 200


def test_it_shows_an_outsider_a_closed_clubs_door_but_not_its_ladder(client, anna, ben, carla):
    club = club_of(anna, ben, door=Club.Door.INVITATION)

    for browser in (client, signed_in(carla)):
        page = text(browser.get(reverse("clubs:detail", args=[club.slug])))
        assert "Chess Lovers" in page and "Club by invitation" in page
        assert "Ben" not in page and 'id="ladder"' not in page
    assert "Ben" in text(signed_in(ben).get(reverse("clubs:detail", args=[club.slug])))


def test_it_shows_an_open_clubs_ladder_and_members_to_anyone(client, anna, ben):
    club = club_of(anna, ben)

    page = text(client.get(reverse("clubs:detail", args=[club.slug])))
    assert 'id="ladder"' in page and "Ben" in page
    assert "Ben" in text(client.get(reverse("clubs:members", args=[club.slug])))
    assert client.get(reverse("clubs:detail", args=["no-such-club"])).status_code == 404


def test_it_shows_admin_controls_to_admins_only(anna, ben, carla):
    club = club_of(anna, ben, carla)
    url = reverse("clubs:members", args=[club.slug])

    assert "Remove" in text(signed_in(anna).get(url))
    assert "Remove" not in text(signed_in(ben).get(url))


def test_it_lists_the_members_public_games_but_not_their_private_ones(anna, ben, carla):
    club = club_of(anna, ben)
    public = lobby.create_game(ben, num_players=2, name="Open duel")
    lobby.join(public, carla)
    private = lobby.create_game(ben, num_players=2, name="Quiet duel", is_public=False)
    lobby.join(private, carla, token=private.invite_token)

    page = text(signed_in(anna).get(reverse("clubs:games", args=[club.slug])))

    assert "Open duel" in page
    assert "Quiet duel" not in page


# --- the ladder -------------------------------------------------------------------------------


def test_it_lets_a_challenge_reach_three_places_up_and_no_further(settings, anna, ben, carla):
    settings.CLUB_LADDER_REACH = 3
    others = [UserFactory(username=name) for name in ("dora", "emil")]
    club = club_of(anna, ben, carla, *others)  # Emil is fifth

    with pytest.raises(RequestRefused, match="up to 3 places above"):
        challenges.challenge(club, others[1], anna)
    with pytest.raises(RequestRefused):
        challenges.challenge(club, ben, carla)  # below

    challenges.challenge(club, others[1], ben)
    made = Challenge.objects.get()
    assert (made.challenger, made.challenged, made.status) == (others[1], ben, "waiting")
    game = made.game
    assert game.num_players == 2 and game.is_open
    assert list(game.seats.values_list("user", flat=True)) == [others[1].pk]
    assert list(game.invitations.values_list("user", flat=True)) == [ben.pk]
    with pytest.raises(Conflict):
        challenges.challenge(club, others[1], carla)  # one open challenge at a time


def test_it_gives_the_challenger_who_wins_the_higher_place(anna, ben, carla, dario):
    club = club_of(anna, ben, carla, dario)
    challenges.challenge(club, dario, ben)
    game = Challenge.objects.get().game
    lobby.join(game, ben)  # the challenged answers: the game starts
    assert Challenge.objects.get().status == "playing"

    resign.resign(game.pk, ben)

    assert Challenge.objects.get().status == "won"
    assert ladder_names(club) == ["Anna", "Dario", "Ben", "Carla"]


def test_it_keeps_a_ladder_games_seat_for_the_challenged(anna, ben, carla, dario):
    club = club_of(anna, ben, carla)
    challenges.challenge(club, carla, ben)
    game = Challenge.objects.get().game
    assert game.is_public  # an open club's ladder games are watched by anyone

    with pytest.raises(NotAllowed, match="ladder challenge"):
        lobby.join(game, dario)

    lobby.join(game, ben)
    game.refresh_from_db()
    assert game.is_active


def test_it_moves_nobody_when_the_challenged_wins(anna, ben, carla, dario):
    club = club_of(anna, ben, carla, dario)
    challenges.challenge(club, dario, ben)
    game = Challenge.objects.get().game
    lobby.join(game, ben)

    resign.resign(game.pk, dario)

    assert Challenge.objects.get().status == "held"
    assert ladder_names(club) == ["Anna", "Ben", "Carla", "Dario"]


def test_it_silently_makes_no_challenge_to_a_blocker(anna, ben, carla):
    club = club_of(anna, ben, carla)
    social.do_block(ben, carla)

    answer = challenges.challenge(club, carla, ben)

    assert "You challenged Ben" in answer
    assert not Challenge.objects.exists()
    assert not Game.objects.exists()


def test_it_answers_an_htmx_challenge_with_the_ladder(anna, ben, carla):
    club = club_of(anna, ben, carla)

    response = signed_in(carla).post(
        reverse("clubs:challenge", args=[club.slug]), {"user": ben.pk}, **HTMX
    )

    page = text(response)
    assert response.status_code == 200
    assert page.lstrip().startswith('<section class="club-ladder" id="ladder"')
    assert "You challenged Ben" in page and "challenged" in page
    assert "<html" not in page


def test_it_answers_a_refused_htmx_challenge_with_the_ladder_and_the_reason(anna, ben, carla):
    club = club_of(anna, ben, carla)

    response = signed_in(ben).post(
        reverse("clubs:challenge", args=[club.slug]), {"user": carla.pk}, **HTMX
    )

    assert response.status_code == 200  # htmx swaps only a 2xx answer
    assert "You may challenge only members up to 3 places above you." in text(response)
    assert not Challenge.objects.exists()


def test_it_refuses_a_challenge_from_an_outsider(anna, ben, carla):
    club = club_of(anna, ben)

    response = signed_in(carla).post(reverse("clubs:challenge", args=[club.slug]), {"user": ben.pk})

    assert response.status_code == 302
    assert not Challenge.objects.exists()


# --- a week without an answer -------------------------------------------------------------------


def test_it_gives_the_place_to_the_challenger_a_week_after_an_unanswered_challenge(
    anna, ben, carla
):
    club = club_of(anna, ben, carla)
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        challenges.challenge(club, carla, ben)
    game = Challenge.objects.get().game

    with time_machine.travel(start + timedelta(days=7) - timedelta(minutes=1), tick=False):
        assert expire_challenges.apply().get() == 0
    assert ladder_names(club) == ["Anna", "Ben", "Carla"]

    with time_machine.travel(start + timedelta(days=7, minutes=1), tick=False):
        assert expire_challenges.apply().get() == 1
        assert expire_challenges.apply().get() == 0  # run again: nothing twice

    assert ladder_names(club) == ["Anna", "Carla", "Ben"]
    assert Challenge.objects.get().status == "forfeited"
    game.refresh_from_db()
    assert game.status == Game.Status.CANCELLED


def test_it_leaves_an_answered_challenge_to_its_game_after_a_week(anna, ben, carla):
    club = club_of(anna, ben, carla)
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        challenges.challenge(club, carla, ben)
        lobby.join(Challenge.objects.get().game, ben)

    with time_machine.travel(start + timedelta(days=30), tick=False):
        assert challenges.expire_due() == 0

    assert Challenge.objects.get().status == "playing"
    assert ladder_names(club) == ["Anna", "Ben", "Carla"]


def test_it_calls_off_a_challenge_whose_game_its_challenger_cancelled(anna, ben, carla):
    club = club_of(anna, ben, carla)
    challenges.challenge(club, carla, ben)
    lobby.cancel(Challenge.objects.get().game, carla)

    assert expire_challenges.apply().get() == 0

    assert Challenge.objects.get().status == "cancelled"
    assert ladder_names(club) == ["Anna", "Ben", "Carla"]
    challenges.challenge(club, carla, ben)  # free to challenge again
    assert Challenge.objects.filter(status="waiting").count() == 1


def test_it_runs_the_sweep_from_the_beat_with_a_time_limit(settings):
    from clubs.tasks import expire_challenges as task

    beat = settings.CELERY_BEAT_SCHEDULE["clubs-expire-challenges"]
    assert beat["task"] == task.name
    assert task.time_limit and task.soft_time_limit


# --- tournaments --------------------------------------------------------------------------------


def club_tournament(club, admin) -> Tournament:
    tournament = signup.create(
        admin,
        name="Club cup",
        fmt=Tournament.Format.SWISS,
        table_size=2,
        signup_closes=timezone.now() + timedelta(days=2),
        max_players=8,
        rounds=3,
        is_public=club.is_open,
    )
    ClubTournament.objects.create(tournament=tournament, club=club)
    return tournament


def test_it_opens_a_club_tournament_to_members_only(anna, ben, carla):
    club = club_of(anna, ben)
    tournament = club_tournament(club, anna)

    signup.sign_up(tournament, ben)
    with pytest.raises(NotAllowed, match="members of Chess Lovers only"):
        signup.sign_up(tournament, carla)


def test_it_hides_a_closed_clubs_tournament_from_outsiders_even_with_its_link(
    client, anna, ben, carla
):
    club = club_of(anna, ben, door=Club.Door.INVITATION)
    tournament = club_tournament(club, anna)
    url = reverse("tournaments:detail", args=[tournament.pk]) + f"?token={tournament.invite_token}"

    assert signed_in(carla).get(url).status_code == 404
    assert client.get(url).status_code == 404
    assert signed_in(ben).get(url).status_code == 200
    page = text(signed_in(ben).get(reverse("clubs:detail", args=[club.slug])))
    assert "Club cup" in page and tournament.invite_token in page


def test_it_lets_an_admin_create_a_club_tournament_from_the_club(anna, ben):
    club = club_of(anna, ben)
    url = reverse("clubs:new_tournament", args=[club.slug])

    assert signed_in(ben).get(url).status_code == 302  # a member is no admin
    assert signed_in(anna).get(url).status_code == 200
    response = signed_in(anna).post(url, {"name": ""})
    assert response.status_code == 400
    assert not ClubTournament.objects.exists()


# --- limits, the data export, account deletion ------------------------------------------------


def test_it_limits_joining_like_invitations(settings, anna):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "club_join": "2/h/user"}
    clubs = [club_of(UserFactory(username=f"founder{n}"), name=f"Club {n}") for n in range(3)]
    browser = signed_in(anna)

    for club in clubs:
        response = browser.post(reverse("clubs:join", args=[club.slug]))

    assert Membership.objects.filter(user=anna).count() == 2
    assert "joined many clubs" in text(browser.get(response["Location"]))


def test_it_puts_clubs_and_challenges_in_the_data_export(anna, ben, carla):
    club = club_of(anna, ben, carla)
    challenges.challenge(club, carla, ben)
    closed = club_of(anna, name="Quiet Club", door=Club.Door.INVITATION)
    membership.join(closed, ben)

    data = export(ben)

    assert [c["club"] for c in data["clubs"]] == ["Chess Lovers"]
    assert data["clubs"][0]["rung"] == 2
    assert data["club_doors"][0]["club"] == "Quiet Club"
    assert data["club_challenges"][0]["challenger"] == "Carla"


def test_it_leaves_every_club_when_the_account_is_deleted(anna, ben, carla):
    club = club_of(anna, ben, carla)
    challenges.challenge(club, carla, anna)
    game = Challenge.objects.get().game

    delete_account(anna)

    assert ladder_names(club) == ["Ben", "Carla"]
    assert Membership.objects.get(club=club, user=ben).is_admin
    assert not Challenge.objects.exists()
    game.refresh_from_db()
    assert game.status == Game.Status.CANCELLED


def test_it_founds_a_club_through_the_form_and_refuses_a_taken_name(anna, ben):
    browser = signed_in(anna)

    response = browser.post(
        reverse("clubs:new"), {"name": "Night Owls", "description": "", "door": "invitation"}
    )
    club = Club.objects.get()
    assert response["Location"] == reverse("clubs:detail", args=[club.slug])
    assert not club.is_open
    again = signed_in(ben).post(
        reverse("clubs:new"), {"name": "night owls", "description": "", "door": "open"}
    )
    assert again.status_code == 400
    assert "There is a club called night owls already." in text(again)
    assert (
        signed_in(ben).post(reverse("clubs:new"), {"name": "!!!", "door": "x"}).status_code == 400
    )


# --- what the pages cost ----------------------------------------------------------------------

CLUB_PAGE_QUERIES = 15  # the club page's budget, whatever the number of members or challenges


@pytest.mark.parametrize("page", ["detail", "members", "games"])
def test_it_draws_a_club_page_in_the_same_few_queries_however_many_members(page, anna, ben):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    club = club_of(anna, ben)
    browser = signed_in(anna)
    url = reverse(f"clubs:{page}", args=[club.slug])

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert browser.get(url).status_code == 200
        return len(captured)

    queries()  # the first request of a session reads it once more
    few = queries()
    players = [UserFactory(username=f"member{n}") for n in range(12)]
    for player in players:
        membership.join(club, player)
    for lower, upper in zip(players[3::2], players[2::2], strict=False):
        challenges.challenge(club, lower, upper)
    many = queries()

    assert many == few
    assert many <= CLUB_PAGE_QUERIES


def test_it_lets_an_invited_player_turn_the_invitation_down(anna, ben):
    club = club_of(anna, door=Club.Door.INVITATION)
    membership.invite(club, anna, ben)

    signed_in(ben).post(reverse("clubs:withdraw", args=[club.slug]))

    assert not DoorEntry.objects.filter(club=club).exists()
    signed_in(ben).post(reverse("clubs:join", args=[club.slug]))
    assert membership.membership(club, ben) is None  # asked again: waits at the door
    assert DoorEntry.objects.get(club=club, user=ben).kind == "request"


def test_it_lets_an_admin_make_another_admin_who_can_then_remove_members(anna, ben, carla):
    club = club_of(anna, ben, carla)

    signed_in(anna).post(reverse("clubs:promote", args=[club.slug]), {"user": ben.pk})
    signed_in(ben).post(reverse("clubs:remove", args=[club.slug]), {"user": carla.pk})

    assert Membership.objects.get(club=club, user=ben).is_admin
    assert ladder_names(club) == ["Anna", "Ben"]


def test_it_sends_the_last_member_leaving_back_to_the_list_of_clubs(anna):
    club = club_of(anna)

    response = signed_in(anna).post(reverse("clubs:leave", args=[club.slug]))

    assert response["Location"] == reverse("clubs:list")
    assert not Club.objects.exists()
