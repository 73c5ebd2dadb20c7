"""Tournaments as players meet them: creating one (and the errors hostile settings get), signing
up, the rounds dealing themselves as games, standings, the end; Swiss, round robin in groups
and knock-out."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from games.rules.firenze import rules
from notifications.models import Notification
from players.models import Rating
from tests.web.helpers import play_greedy, signed_in
from tests.web.tournament_helpers import end_game, end_round, field, started, table_users
from tests.web.tournament_helpers import tournament as make_tournament
from tournaments import rounds, signup, withdrawals
from tournaments.models import Entry, Round, Table, Tournament

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


def later(**delta) -> str:
    return timezone.localtime(timezone.now() + timedelta(**delta)).strftime("%Y-%m-%dT%H:%M")


VALID = {
    "name": "Autumn Swiss",
    "description": "Four rounds, one day per turn.",
    "format": "swiss",
    "num_players": "2",
    "campanile": "on",
    "neutral_seals": "5",
    "seal_placement": "recommended",
    "time_limit": str(86400),
    "rounds": "4",
    "group_size": "4",
    "max_players": "32",
    "is_public": "1",
}


def create(browser, **changes):
    data = {**VALID, "signup_closes": later(days=2), **changes}
    return browser.post(reverse("tournaments:new"), {k: v for k, v in data.items() if v})


def round_tables(found: Tournament, number: int) -> list[Table]:
    return list(Table.objects.filter(tournament=found, round__number=number).order_by("number"))


def seated(tables: list[Table]) -> list[set[str]]:
    return [{u.username for u in table_users(t)} for t in tables]


# --- creating -----------------------------------------------------------------------------------


def test_it_creates_a_tournament_with_the_games_options_and_clock(anna):
    response = create(signed_in(anna))

    found = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/tournaments/{found.pk}/"
    assert (found.name, found.format, found.rounds, found.table_size) == (
        "Autumn Swiss",
        "swiss",
        4,
        2,
    )
    assert found.options["campanile"] is True and found.time_control.per_turn == timedelta(days=1)
    assert ";campanile=on;" in found.facets
    assert found.creator == anna and found.is_signup and found.is_public


def test_its_games_keep_the_time_bank_and_days_off_chosen_at_creation(anna):
    response = create(
        signed_in(anna), clock_mode="bank", bank=str(5 * 86400), bonus=str(86400), days_off="5"
    )
    assert response.status_code == 302
    found = Tournament.objects.get()
    for player in field(2):
        signup.sign_up(found, player)
    Tournament.objects.filter(pk=found.pk).update(signup_closes=timezone.now())
    assert rounds.start(found.pk)

    (table,) = round_tables(found, 1)
    control = Game.objects.get(pk=table.game_id).time_control
    assert control.is_bank and control.bank == timedelta(days=5) and control.days_off == (5,)
    page = text(signed_in(anna).get(reverse("tournaments:detail", args=[found.pk])))
    assert "time bank 5 days, +1 day per turn (up to 5 days), Saturday off" in page


HOSTILE = [
    ({"signup_closes": later(days=-1)}, "Choose a time in the future"),
    ({"signup_closes": later(days=400)}, "Choose a time within the next 90 days."),
    ({"signup_closes": "+12345-01-01T10:00"}, "Enter a date and time"),
    ({"min_rating": "1600", "max_rating": "1200"}, "The lowest rating is above the highest"),
    ({"max_players": "10000"}, "Enter a whole number from 2 to 1024."),
    ({"max_players": "9" * 400}, "Enter a whole number from 2 to 1024."),
    ({"format": "knockout", "num_players": "4"}, "A knock-out is played at 2-player tables."),
    ({"format": "groups", "num_players": "3", "group_size": "8"}, "a group has 3 to 6 players"),
    (
        {"format": "groups", "group_size": "4", "final_table": "on", "max_players": "16"},
        "allow at most 8 players",
    ),
    ({"rounds": "99"}, "Enter a whole number from 1 to 15."),
    ({"format": "swiss", "rounds": ""}, "Say how many rounds the Swiss has."),
    ({"name": "\u202e\u200b"}, "Use letters, digits, spaces and punctuation only."),
    ({"num_players": "9"}, "Select a valid choice"),
]


@pytest.mark.parametrize(("changes", "message"), HOSTILE, ids=[m for _, m in HOSTILE])
def test_it_refuses_hostile_settings_with_a_clear_error(anna, changes, message):
    response = create(signed_in(anna), **changes)

    assert response.status_code == 400
    assert message in text(response)
    assert not Tournament.objects.exists()


def test_it_asks_visitors_to_sign_in_before_creating(client):
    response = client.get(reverse("tournaments:new"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


# --- signing up ---------------------------------------------------------------------------------


def join(browser, found: Tournament, **data):
    return browser.post(reverse("tournaments:join", args=[found.pk]), data, follow=True)


def test_it_signs_a_player_up_once_however_often_they_click(anna, ben):
    found = make_tournament(anna)
    browser = signed_in(ben)

    first, second = join(browser, found), join(browser, found)

    assert "You are signed up." in text(first)
    assert "You are signed up already." in text(second)
    assert Entry.objects.filter(tournament=found, user=ben).count() == 1


def test_it_refuses_a_sign_up_after_the_window_closed(anna, ben):
    found = make_tournament(anna)
    Tournament.objects.filter(pk=found.pk).update(signup_closes=timezone.now())
    browser = signed_in(ben)
    response = browser.post(reverse("tournaments:join", args=[found.pk]))

    assert response.status_code == 303
    page = browser.get(response["Location"])
    assert "Sign-up for this tournament closed on" in text(page)
    assert not Entry.objects.filter(user=ben).exists()


def test_it_refuses_a_player_outside_the_rating_range_saying_why(anna, ben, carla):
    found = make_tournament(anna, min_rating=1100, max_rating=1600)
    Rating.objects.create(user=ben, mu=40, sigma=3, shown=1700, games=30)

    refused = join(signed_in(ben), found)
    accepted = join(signed_in(carla), found)  # a newcomer counts as 1000...
    Rating.objects.create(user=anna, mu=30, sigma=3, shown=1200, games=9)
    creator = join(signed_in(anna), found)

    assert "Your rating (1700) is outside this tournament's range (1100–1600)." in text(refused)
    assert "outside this tournament's range" in text(accepted)  # ...below 1100
    assert "You are signed up." in text(creator)
    assert list(found.entries.values_list("user__username", flat=True)) == ["anna"]


def test_it_stops_sign_up_at_the_player_limit(anna, ben, carla):
    found = make_tournament(anna, max_players=2)
    join(signed_in(anna), found)
    join(signed_in(ben), found)

    refused = join(signed_in(carla), found)

    assert "This tournament is full: 2 players have signed up." in text(refused)
    assert found.entries.count() == 2


def test_it_shows_a_private_tournament_only_to_the_holders_of_its_link(anna, ben, carla):
    found = make_tournament(anna, is_public=False)
    url = reverse("tournaments:detail", args=[found.pk])

    assert signed_in(ben).get(url).status_code == 404
    assert found.name not in signed_in(ben).get(reverse("tournaments:list")).content.decode()
    link = signed_in(carla).get(url, {"token": found.invite_token})
    assert link.status_code == 200
    refused = join(signed_in(ben), found)
    assert refused.status_code == 404
    joined = join(signed_in(carla), found, token=found.invite_token)
    assert "You are signed up." in text(joined)
    assert "Invitation link" in text(signed_in(anna).get(url))
    assert signed_in(carla).get(url).status_code == 200  # a player now, without the link


def test_it_lets_a_player_take_back_a_sign_up(anna, ben):
    found = make_tournament(anna)
    join(signed_in(ben), found)

    response = signed_in(ben).post(reverse("tournaments:leave", args=[found.pk]), follow=True)

    assert "You are no longer signed up." in text(response)
    assert not found.entries.exists()


# --- the rounds deal themselves -------------------------------------------------------------


def test_it_deals_round_one_as_games_and_tells_every_player_once(
    anna, django_capture_on_commit_callbacks
):
    players = field(7)
    with django_capture_on_commit_callbacks(execute=True):
        found = started(anna, players)

    tables = round_tables(found, 1)
    games = [t.game for t in tables if t.game is not None]
    assert len(games) == 3 and all(g.is_active and g.num_players == 2 for g in games)
    assert seated(tables) == [{"p01", "p04"}, {"p02", "p05"}, {"p03", "p06"}, {"p07"}]
    assert all({s.user.username for s in t.game.seats.all()} == seated([t])[0] for t in tables[:3])
    assert games[0].title == "Spring Cup · 1.1" and games[0].creator is None
    told = Notification.objects.filter(kind="tournament", channel="email")
    assert sorted(told.values_list("user__username", flat=True)) == [p.username for p in players]
    assert not Notification.objects.filter(kind="game_started").exists()  # no second notice
    subjects = sorted(m.subject for m in mail.outbox)
    assert "Round 1 of Spring Cup: you have a bye" in subjects
    assert sum("your table is Spring Cup · 1." in s for s in subjects) == 6


def test_it_cancels_a_tournament_too_few_signed_up_for(anna, ben):
    found = make_tournament(anna, table_size=4)
    join(signed_in(ben), found)
    Tournament.objects.filter(pk=found.pk).update(signup_closes=timezone.now())

    assert rounds.start(found.pk) is False

    found.refresh_from_db()
    assert found.status == "cancelled" and not Game.objects.exists()
    assert Notification.objects.filter(kind="tournament", user=ben, channel="email").exists()


def test_it_deals_round_one_when_the_page_is_viewed_after_sign_up_closed(anna, ben, carla):
    found = make_tournament(anna)
    for player in (anna, ben, carla):
        join(signed_in(player), found)
    Tournament.objects.filter(pk=found.pk).update(signup_closes=timezone.now())

    page = signed_in(ben).get(reverse("tournaments:detail", args=[found.pk]))

    assert page.status_code == 200
    found.refresh_from_db()
    assert found.is_running and found.current_round == 1
    assert "Round 1" in text(page) and "bye (counts as a win)" in text(page)


def test_it_deals_round_two_once_every_game_of_round_one_has_ended(
    anna, django_capture_on_commit_callbacks
):
    players = field(8)
    found = started(anna, players, rounds=3)
    tables = round_tables(found, 1)
    with django_capture_on_commit_callbacks(execute=True):
        for table in tables[:3]:
            end_game(table.game, sorted(table_users(table), key=lambda u: u.username))
    found.refresh_from_db()
    assert found.current_round == 1 and not Round.objects.filter(number=2).exists()

    with django_capture_on_commit_callbacks(execute=True):
        end_game(tables[3].game, sorted(table_users(tables[3]), key=lambda u: u.username))

    found.refresh_from_db()
    assert found.current_round == 2
    # Winners 1-4 meet winners (1-3, 2-4), losers 5-8 meet losers (5-7, 6-8); nobody again.
    assert seated(round_tables(found, 2)) == [
        {"p01", "p03"}, {"p02", "p04"}, {"p05", "p07"}, {"p06", "p08"},
    ]  # fmt: skip
    leaders = [row for row in found.standings if row["points"] == 1]
    assert len(leaders) == 4 and found.standings[0]["rank"] == 1


def test_it_ends_after_the_last_round_with_final_places_for_everyone(
    anna, django_capture_on_commit_callbacks
):
    players = field(4)
    found = started(anna, players, rounds=2)
    for _round in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            end_round(found)

    found.refresh_from_db()
    assert found.is_finished and found.finished_at is not None
    # p01 won twice; p02 (beat p04, lost to p01) and p03 (lost to p01, beat p04) are level on
    # points, Buchholz, Sonneborn-Berger and wins: they share second place.
    places = dict(found.entries.values_list("user__username", "final_place"))
    assert places == {"p01": 1, "p02": 2, "p03": 2, "p04": 4}
    over = Notification.objects.filter(kind="tournament", channel="email", context__event="over")
    assert over.count() == 4
    assert any("Spring Cup is over: you finished 1st" in m.subject for m in mail.outbox)
    page = signed_in(players[1]).get(reverse("tournaments:detail", args=[found.pk]))
    assert "Final standings" in text(page) and "You finished 2nd of 4." in text(page)
    assert "2= (shared)" in text(page)


def test_a_table_ends_when_its_game_is_played_to_its_last_move(
    anna, ben, django_capture_on_commit_callbacks
):
    found = started(anna, [anna, ben], rounds=1)
    (table,) = round_tables(found, 1)

    with django_capture_on_commit_callbacks(execute=True):
        play_greedy(table.game)

    table.refresh_from_db()
    found.refresh_from_db()
    assert table.game.is_finished and table.finished_at is not None
    assert sorted(table.seats.values_list("place", flat=True)) in ([1, 1], [1, 2])
    assert found.is_finished


def test_it_plays_every_group_game_at_once_then_the_final_table_of_the_winners(
    anna, django_capture_on_commit_callbacks
):
    players = field(6)
    found = started(anna, players, fmt="groups", group_size=3, final_table=True)

    assert found.rounds == 2
    groups = dict(found.entries.values_list("user__username", "group"))
    assert groups == {"p01": 1, "p04": 1, "p05": 1, "p02": 2, "p03": 2, "p06": 2}
    group_games = round_tables(found, 1)
    assert len(group_games) == 6  # three pairs in each group of three
    with django_capture_on_commit_callbacks(execute=True):
        end_round(found)

    (final,) = round_tables(found, 2)
    assert seated([final]) == [{"p01", "p02"}]
    assert Round.objects.get(tournament=found, number=2).stage == "final"
    with django_capture_on_commit_callbacks(execute=True):
        end_round(found, rank=lambda users: sorted(users, key=lambda u: u.username, reverse=True))
    places = dict(found.entries.values_list("user__username", "final_place"))
    assert places["p02"] == 1 and places["p01"] == 2
    page = text(signed_in(anna).get(reverse("tournaments:detail", args=[found.pk])))
    assert "Group 1" in page and "Group 2" in page and "Final table" in page


def test_it_runs_a_knock_out_from_the_seeded_bracket_to_the_final(
    anna, django_capture_on_commit_callbacks
):
    players = field(6)
    found = started(anna, players, fmt="knockout")

    assert found.rounds == 3
    assert seated(round_tables(found, 1)) == [{"p01"}, {"p04", "p05"}, {"p02"}, {"p03", "p06"}]
    with django_capture_on_commit_callbacks(execute=True):
        # The lower seed wins both games of round one (an upset each).
        end_round(found, rank=lambda users: sorted(users, key=lambda u: u.username)[::-1])
    assert seated(round_tables(found, 2)) == [{"p01", "p05"}, {"p02", "p06"}]
    with django_capture_on_commit_callbacks(execute=True):
        end_round(found)
    with django_capture_on_commit_callbacks(execute=True):
        end_round(found, rank=lambda users: [users])  # a drawn final: the higher seed wins
    places = dict(found.entries.values_list("user__username", "final_place"))
    assert places["p01"] == 1 and places["p02"] == 2
    assert places["p05"] == places["p06"] == 3


# --- pages ------------------------------------------------------------------------------------


def test_the_list_shows_open_running_and_finished_tournaments_and_filters_them(anna):
    make_tournament(anna, name="Two by two")
    make_tournament(
        anna, name="Fours with the Campanile", table_size=4, options={"campanile": True}
    )
    started(anna, field(2), name="Under way")

    everything = text(signed_in(anna).get(reverse("tournaments:list")))
    fours = text(signed_in(anna).get(reverse("tournaments:list"), {"size": "4"}))
    campanile = signed_in(anna).get(
        reverse("tournaments:list"), {"campanile": "on"}, HTTP_HX_REQUEST="true"
    )

    assert "Two by two" in everything and "Fours with the Campanile" in everything
    assert everything.index("Open for sign-up") < everything.index("Two by two")
    assert everything.index("Running") < everything.index("Under way")
    assert "Fours with the Campanile" in fours and "Two by two" not in fours
    assert "Fours with the Campanile" in text(campanile) and "Two by two" not in text(campanile)
    assert "<html" not in campanile.content.decode()  # htmx gets the results only
    junk = signed_in(anna).get(reverse("tournaments:list"), {"size": "x" * 500, "campanile": "??"})
    assert junk.status_code == 200


def test_the_tournament_page_shows_settings_rules_tables_standings_and_players(anna):
    players = field(5)
    found = started(anna, players, rounds=3, options={"campanile": True})

    page = text(signed_in(players[0]).get(reverse("tournaments:detail", args=[found.pk])))

    for expected in (
        "Swiss", "Players per table 2", "Rounds 3", "3 days", "Campanile", "Buchholz",
        "Sonneborn-Berger", "twice in a row",
        "Round 1", "Table 1", "bye (counts as a win)", "Your schedule", "5 players",
    ):  # fmt: skip
        assert expected in page, expected
    other_round = signed_in(anna).get(
        reverse("tournaments:detail", args=[found.pk]), {"round": "1"}, HTTP_HX_REQUEST="true"
    )
    assert (
        'id="round"' in other_round.content.decode() and "<html" not in other_round.content.decode()
    )


def test_each_table_being_played_says_whose_move_it_is_and_follows_the_moves(anna):
    players = field(4)
    found = started(anna, players, rounds=2)
    first, second = round_tables(found, 1)
    url = reverse("tournaments:detail", args=[found.pk])

    def to_move(game: Game) -> str:
        game.refresh_from_db()
        return game.seats.get(number=game.acting_seat).user.public_name

    before = to_move(first.game)
    page = text(signed_in(anna).get(url))
    assert f"being played · {before} to move" in page
    assert f"being played · {to_move(second.game)} to move" in page

    acting = first.game.acting_seat
    play_greedy(first.game, until=lambda state: rules.acting_seat(state) != acting)
    after = to_move(first.game)
    assert after != before
    assert f"being played · {after} to move" in text(signed_in(anna).get(url))

    seat = second.game.seats.get(number=second.game.acting_seat)
    seat.autopilot = True
    seat.save()
    Game.objects.filter(pk=second.game_id).update(version=second.game.version + 1)
    assert f"the bot moves for {seat.user.public_name}" in text(signed_in(anna).get(url))


def test_the_standings_poll_answers_nothing_new_until_a_game_ends(
    anna, django_capture_on_commit_callbacks
):
    players = field(4)
    found = started(anna, players, rounds=2)
    url = reverse("tournaments:standings", args=[found.pk])
    browser = signed_in(players[0])

    unchanged = browser.get(url, {"v": found.version}, HTTP_HX_REQUEST="true")
    table = round_tables(found, 1)[0]
    with django_capture_on_commit_callbacks(execute=True):
        end_game(table.game, sorted(table_users(table), key=lambda u: u.username))
    found.refresh_from_db()
    changed = browser.get(url, {"v": found.version - 1}, HTTP_HX_REQUEST="true")

    assert unchanged.status_code == 204 and unchanged.content == b""
    assert (
        changed.status_code == 200 and f'data-version="{found.version}"' in changed.content.decode()
    )
    first = found.standings[0]
    assert first["points"] == 1 and first["rank"] == 1
    whole = browser.get(url)
    assert "Standings of Spring Cup" in text(whole)


def test_each_players_schedule_lists_their_table_in_every_round(
    anna, django_capture_on_commit_callbacks
):
    players = field(4)
    found = started(anna, players, rounds=2)
    with django_capture_on_commit_callbacks(execute=True):
        end_round(found)
    entry = found.entries.get(user=players[0])

    page = text(signed_in(anna).get(reverse("tournaments:schedule", args=[found.pk, entry.pk])))

    assert "P01 in Spring Cup" in page
    assert "Round 1" in page and "finished 1st" in page
    assert "Round 2" in page and "being played" in page
    missing = signed_in(anna).get(reverse("tournaments:schedule", args=[found.pk, 10**9]))
    assert missing.status_code == 404


def test_the_game_page_names_its_tournament_round_and_table(anna):
    found = started(anna, field(4), rounds=2)
    table = round_tables(found, 1)[1]

    page = signed_in(anna).get(reverse("games:detail", args=[table.game_id])).content.decode()

    assert f'Round 1, table 2 of <a href="/tournaments/{found.pk}/">Spring Cup</a>' in page


def test_a_tournament_game_waits_in_its_players_inbox_like_any_game(anna):
    found = started(anna, field(4), rounds=2)

    for table in round_tables(found, 1):
        game = table.game
        acting = game.seats.get(number=game.acting_seat).user
        page = html.unescape(signed_in(acting).get(reverse("inbox:inbox")).content.decode())
        waiting = page.split("</ul>")[0]
        assert f'<a href="/games/{game.pk}/">' in waiting and game.name in waiting
        assert re.search(r'class="inbox-count"[^>]*>1<', page)


def test_the_profile_lists_tournaments_played_and_the_best_place(
    anna, django_capture_on_commit_callbacks
):
    found = started(anna, field(2), rounds=1)
    with django_capture_on_commit_callbacks(execute=True):
        end_round(found)

    page = text(signed_in(anna).get(reverse("players:profile", args=["P02"])))

    assert "1 tournament played · best place 2nd" in page
    assert "Spring Cup 2nd of 2" in page


def test_staff_feature_a_tournament_and_nobody_else_can(anna, ben):
    found = make_tournament(anna)
    url = reverse("tournaments:feature", args=[found.pk])

    refused = signed_in(ben).post(url, {"featured": "1"})
    ben.is_staff = True
    ben.save()
    signed_in(ben).post(url, {"featured": "1"})

    assert refused.status_code == 303
    found.refresh_from_db()
    assert found.featured
    assert "Featured" in text(signed_in(anna).get(reverse("tournaments:list")))


def test_the_creator_can_close_sign_up_early_or_cancel(anna, ben, carla):
    found = make_tournament(anna)
    join(signed_in(ben), found)
    refused = signed_in(ben).post(reverse("tournaments:start", args=[found.pk]), follow=True)
    assert "Only the tournament's creator can start it." in text(refused)
    join(signed_in(carla), found)

    started_now = signed_in(anna).post(reverse("tournaments:start", args=[found.pk]), follow=True)

    found.refresh_from_db()
    assert found.is_running and "the first round is dealt" in text(started_now)
    other = make_tournament(anna, name="Never mind")
    signed_in(anna).post(reverse("tournaments:cancel", args=[other.pk]))
    other.refresh_from_db()
    assert other.status == "cancelled"


def test_it_seats_three_player_tables_and_a_short_one_scaled_to_a_full_table(
    anna, django_capture_on_commit_callbacks
):
    players = field(5)
    found = started(anna, players, table_size=3, rounds=2)

    tables = round_tables(found, 1)
    assert [t.game.num_players for t in tables] == [3, 2]  # 5 = 3 + 2, no bye
    with django_capture_on_commit_callbacks(execute=True):
        end_round(found)
    points = {row["entry"]: row["points"] for row in Tournament.objects.get(pk=found.pk).standings}
    winners = [
        found.entries.get(user=sorted(table_users(t), key=lambda u: u.username)[0]) for t in tables
    ]
    assert [points[entry.pk] for entry in winners] == [2, 2]  # a short table's win counts as much
    assert sorted(points.values()) == [0, 0, 1, 2, 2]


def test_the_standings_escape_what_players_wrote(anna):
    from tournaments.pages import StandingRow, rows_html

    row = StandingRow(
        rank=1, tied=False, entry=1, name='<script>alert("x")</script>', display="x",
        schedule='/t/1/players/1/"onclick="x', points=1.5, played=1, wins=1, byes=0, score=3,
        tiebreaks=[0.25], withdrawn=True, group=None, group_rank=None, finalist=False, seed=1,
    )  # fmt: skip

    drawn = str(rows_html([row], token='a"b'))

    assert "<script>" not in drawn and "&lt;script&gt;" in drawn
    assert '"onclick="' not in drawn and "token=a%22b" in drawn
    assert '<td class="num">1.5</td>' in drawn and '<td class="num">0.25</td>' in drawn


def test_a_knock_out_winner_who_withdrew_does_not_go_through(anna):
    players = field(4)
    found = started(anna, players, fmt="knockout")
    end_round(found)  # p01 beats p04, p02 beats p03 (the final is not dealt yet)
    withdrawals.withdraw_self(found, players[1])

    assert rounds.advance(found.pk)

    (final,) = round_tables(found, 2)
    assert seated([final]) == [{"p01", "p03"}]


def test_a_final_with_nobody_left_to_meet_is_a_walkover(anna, django_capture_on_commit_callbacks):
    players = field(4)
    found = started(anna, players, fmt="knockout")
    end_round(found)
    withdrawals.withdraw_self(found, players[1])
    withdrawals.withdraw_self(found, players[2])

    with django_capture_on_commit_callbacks(execute=True):
        assert rounds.advance(found.pk)

    found.refresh_from_db()
    (final,) = round_tables(found, 2)
    assert final.game is None and seated([final]) == [{"p01"}]
    assert found.is_finished
    assert found.entries.get(user=players[0]).final_place == 1


def test_it_limits_how_many_tournaments_a_player_creates(anna, settings):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "create_tournament": "1/h/user"}
    browser = signed_in(anna)

    first, second = create(browser), create(browser, name="Another one")

    assert first.status_code == 302
    assert second.status_code == 429
    assert "You have created many tournaments in a short time" in text(second)
    assert Tournament.objects.count() == 1
