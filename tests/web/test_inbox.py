"""The inbox (issue 20): every game waiting for the player's move, soonest deadline first, its
count in every page's header (cached, forgotten when a game changes), each game marked when it
changed since the player looked, "next game" after a turn, and the calendar feed."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from icalendar import Calendar

from games.models import Game
from games.resign import resign
from inbox import counts
from inbox.models import CalendarFeed
from tests.web.helpers import (
    HTMX,
    game_page,
    offered_actions,
    page_version,
    play_greedy,
    post_move,
    signed_in,
    started_game,
)

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return html.unescape(response.content.decode())


def acting_user(game: Game):
    return game.seats.get(number=game.acting_seat).user


def waiting_games(anna, ben, carla, count: int = 3) -> list[Game]:
    """Games in which it is Anna's move, with deadlines in a known order."""
    games = []
    now = timezone.now()
    while len(games) < count:
        game = started_game(anna, ben if len(games) % 2 else carla)
        if acting_user(game) != anna:
            continue
        Game.objects.filter(pk=game.pk).update(deadline=now + timedelta(days=3 - len(games)))
        games.append(game)
    return games


def header_count(page: str) -> str:
    found = re.search(r'class="inbox-count"[^>]*>(\d+)<', page)
    return found.group(1) if found else "0"


def test_it_lists_the_games_waiting_for_the_player_soonest_deadline_first(anna, ben, carla):
    games = waiting_games(anna, ben, carla)
    page = text(signed_in(anna).get(reverse("inbox:inbox")))
    listed = [int(pk) for pk in re.findall(r'<a href="/games/(\d+)/">', page.split("</ul>")[0])]
    assert listed == [g.pk for g in reversed(games)]  # the last one has the soonest deadline
    assert "left (until" in page


def test_every_page_shows_the_count_and_it_follows_the_games(
    anna, ben, carla, django_capture_on_commit_callbacks
):
    games = waiting_games(anna, ben, carla, 2)
    browser = signed_in(anna)
    for url in (reverse("games:lobby"), reverse("games:rules"), reverse("games:history")):
        assert header_count(browser.get(url).content.decode()) == "2", url
    assert header_count(game_page(browser, games[0])) == "2"  # a cached page too
    resign(games[0].pk, anna)
    counts.forget([anna.pk])  # a resignation sends no event of its own: the TTL covers it
    assert header_count(browser.get(reverse("games:lobby")).content.decode()) == "1"
    with django_capture_on_commit_callbacks(execute=True):  # the moves' events forget the count
        play_greedy(games[1], until=lambda state: False, max_moves=60)
    games[1].refresh_from_db()
    expected = "1" if acting_user(games[1]) == anna and games[1].is_active else "0"
    assert header_count(browser.get(reverse("games:lobby")).content.decode()) == expected


def test_the_count_is_cached_until_a_game_changes(
    anna, ben, carla, django_assert_num_queries, django_capture_on_commit_callbacks
):
    game = waiting_games(anna, ben, carla, 1)[0]
    assert counts.waiting_count(anna) == 1
    with django_assert_num_queries(0):
        assert counts.waiting_count(anna) == 1
    browser = signed_in(anna)
    page = game_page(browser, game)
    action = next(a for a in offered_actions(page) if a["type"] == "choose_card")
    with django_capture_on_commit_callbacks(execute=True):
        post_move(browser, game, action, page_version(page))
    assert cache.get(f"inbox-count:{anna.pk}") is None  # forgotten by the move's events


def test_games_are_marked_when_they_changed_since_the_player_looked(anna, ben):
    game = started_game(anna, ben)
    waiter = ben if acting_user(game) == anna else anna
    browser = signed_in(waiter)
    game_page(browser, game)  # looked at it now
    inbox_page = text(browser.get(reverse("inbox:inbox")))
    assert "Changed since you looked" not in inbox_page
    play_greedy(game, 3)
    inbox_page = text(browser.get(reverse("inbox:inbox")))
    assert "Changed since you looked" in inbox_page and "new moves" in inbox_page
    game_page(browser, game)
    assert "Changed since you looked" not in text(browser.get(reverse("inbox:inbox")))


def test_a_page_served_from_the_cache_counts_as_seen_at_its_own_versions(anna, ben, monkeypatch):
    """A move landing while a cached page is served: the player saw the page's versions, not
    the game's newer ones, so the inbox still says the game changed since they looked."""
    from games import pagecache, views

    game = started_game(anna, ben)
    waiter = ben if acting_user(game) == anna else anna
    browser = signed_in(waiter)
    game_page(browser, game)  # drawn and cached at the current version
    real_head = pagecache.head

    def head_then_a_move(pk):
        found = real_head(pk)
        play_greedy(Game.objects.get(pk=pk), 1)
        return found

    monkeypatch.setattr(views.pagecache, "head", head_then_a_move)
    served = browser.get(reverse("games:detail", args=[game.pk]))
    monkeypatch.undo()
    assert served.status_code == 200
    assert f'data-version="{game.version}"' in served.content.decode()
    game.refresh_from_db()
    assert game.version > int(re.search(r'data-version="(\d+)"', text(served)).group(1))
    inbox_page = text(browser.get(reverse("inbox:inbox")))
    assert "Changed since you looked" in inbox_page and "new moves" in inbox_page


def test_after_ending_a_turn_next_game_leads_straight_to_the_next_one(anna, ben, carla):
    first, second = waiting_games(anna, ben, carla, 2)
    browser = signed_in(anna)
    page = game_page(browser, second)  # the soonest deadline
    state_turn = second.load_state().turn_no
    for _ in range(30):  # play Anna's turn to its end
        actions = offered_actions(page)
        finish = [a for a in actions if a["type"] in ("end_turn", "end_phase")]
        action = finish[0] if finish else actions[0]
        answer = post_move(browser, second, action, page_version(page), htmx=True)
        page = answer.content.decode()
        second.refresh_from_db()
        if second.load_state().turn_no != state_turn:
            break
    assert "Next game waiting for you" in html.unescape(page)
    response = browser.get(reverse("inbox:next"))
    assert response.status_code == 302 and response["Location"] == f"/games/{first.pk}/"


def test_next_game_with_nothing_waiting_goes_to_the_inbox(anna):
    response = signed_in(anna).get(reverse("inbox:next"))
    assert response.status_code == 302 and response["Location"] == reverse("inbox:inbox")


def test_the_inbox_is_for_signed_in_players(client):
    for name in ("inbox", "next"):
        response = client.get(reverse(f"inbox:{name}"))
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_calendar_feed_lists_each_deadline_at_a_secret_revocable_address(anna, ben, carla):
    games = waiting_games(anna, ben, carla, 2)
    browser = signed_in(anna)
    assert browser.post(reverse("inbox:calendar_settings"), {"calendar": "on"}).status_code == 302
    token = CalendarFeed.objects.get(user=anna).token
    assert len(token) >= 32 and token in text(browser.get(reverse("inbox:inbox")))
    response = Client().get(reverse("inbox:calendar", args=[token]))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/calendar")
    calendar = Calendar.from_ical(response.content)
    events = calendar.walk("VEVENT")
    deadlines = Game.objects.filter(pk__in=[g.pk for g in games]).values_list("deadline", flat=True)
    assert sorted(e.decoded("dtend") for e in events) == sorted(
        d.replace(microsecond=0) for d in deadlines
    )
    assert all(f"/games/{g.pk}/" in response.content.decode() for g in games)
    assert all(e.walk("VALARM") for e in events)
    # Another player's feed holds none of Anna's games; a replaced address answers 404.
    browser.post(reverse("inbox:calendar_settings"), {"calendar": "renew"})
    assert Client().get(reverse("inbox:calendar", args=[token])).status_code == 404
    new = CalendarFeed.objects.get(user=anna).token
    assert Client().get(reverse("inbox:calendar", args=[new])).status_code == 200
    browser.post(reverse("inbox:calendar_settings"), {"calendar": "off"})
    assert Client().get(reverse("inbox:calendar", args=[new])).status_code == 404


@pytest.mark.parametrize(
    "token", ["x", "a" * 65, "../../etc/passwd", "%00", "' OR 1=1 --", "٣٣٣", "A" * 5000]
)
def test_the_calendar_answers_hostile_addresses_with_404(anna, token):
    CalendarFeed.objects.create(user=anna)
    response = Client().get(f"/calendar/{token}.ics")
    assert response.status_code == 404


def test_a_deactivated_accounts_calendar_answers_404(anna):
    feed = CalendarFeed.objects.create(user=anna)
    assert Client().get(f"/calendar/{feed.token}.ics").status_code == 200
    anna.is_active = False
    anna.save(update_fields=["is_active"])
    assert Client().get(f"/calendar/{feed.token}.ics").status_code == 404


def test_the_calendar_settings_refuse_bad_input(anna):
    browser = signed_in(anna)
    for value in ("", "delete", "on" * 500):
        response = browser.post(reverse("inbox:calendar_settings"), {"calendar": value})
        assert response.status_code == 302
    assert not CalendarFeed.objects.exists()
    assert Client().post(reverse("inbox:calendar_settings"), {"calendar": "on"}).status_code == 302
    assert not CalendarFeed.objects.exists()


def test_htmx_refresh_of_the_inbox_page_works(anna):
    assert signed_in(anna).get(reverse("inbox:inbox"), **HTMX).status_code == 200


def test_a_cached_game_page_is_drawn_anew_when_the_count_changed(anna, ben, carla):
    first, second = waiting_games(anna, ben, carla, 2)
    browser = signed_in(anna)
    page = browser.get(reverse("games:detail", args=[first.pk]))
    etag = page["ETag"]
    assert etag.endswith('-i2"') and header_count(page.content.decode()) == "2"
    again = browser.get(reverse("games:detail", args=[first.pk]), HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    resign(second.pk, anna)
    counts.forget([anna.pk])
    fresh = browser.get(reverse("games:detail", args=[first.pk]), HTTP_IF_NONE_MATCH=etag)
    assert fresh.status_code == 200 and header_count(fresh.content.decode()) == "1"


def test_it_shows_the_players_clock_as_the_game_page_does_resting_on_a_day_off(anna, ben):
    from games.timecontrol import TimeControl
    from tests.web.test_time_controls import acting, started_at, timed_game

    today = timezone.now().weekday()
    rest = TimeControl(per_turn=timedelta(days=1), days_off=(today, (today + 1) % 7))
    game = timed_game(anna, ben, control=rest)
    seat = acting(game)
    seat.user.time_zone = "UTC"
    seat.user.save(update_fields=["time_zone"])
    started_at(game, timezone.now() - timedelta(minutes=1))  # whole seconds are stored

    page = text(signed_in(seat.user).get(reverse("inbox:inbox")))
    shown = re.search(r"<time [^>]*>([^<]+) left, resting until ([^<]+)</time>", page)
    assert shown, page
    assert "hour" in shown.group(1) or "day" in shown.group(1), shown.group(1)  # a day's turn
    game_page_text = html.unescape(game_page(signed_in(seat.user), game))
    assert "; it rests until" in game_page_text  # the game page says the same


def test_it_lists_the_invitations_waiting_for_an_answer(anna, ben, carla):
    from games import lobby

    game = lobby.create_game(ben, num_players=3, name="Friday towers", is_public=False)
    lobby.invite(game, ben, anna.display_name)
    other = lobby.create_game(carla, num_players=2)
    lobby.invite(other, carla, anna.display_name)
    lobby.join(other, ben)  # the table filled up and started: no answer is waited for
    page = text(signed_in(anna).get(reverse("inbox:inbox")))
    invitations = page.split('id="invitations"')[1].split("</ul>")[0]
    assert f'<a href="/games/{game.pk}/">Friday towers</a>' in invitations
    assert "from" in invitations and ben.display_name in invitations
    assert f"/games/{other.pk}/" not in invitations
    assert 'id="invitations"' not in text(signed_in(carla).get(reverse("inbox:inbox")))
