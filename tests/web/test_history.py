"""The history of finished games (/games/history/) and "My games"."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import lobby
from tests.factories import finished_record
from tests.web.helpers import HTMX, signed_in, started_game

pytestmark = pytest.mark.django_db

HISTORY = reverse("games:history")


def listed(page: str) -> list[int]:
    return [int(n) for n in re.findall(r'class="record-game" href="/games/(\d+)/"', page)]


def row_text(page: str, game_id: int) -> str:
    """One game's row in a list, as text."""
    row = page.split(f'class="record-game" href="/games/{game_id}/">')[1]
    row = row.split('<li class="record">')[0].split("</ol>\n  {%")[0]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row)).strip()


def history(client, **params) -> str:
    response = client.get(HISTORY, params)
    assert response.status_code == 200
    return response.content.decode()


def days_ago(days: float) -> datetime:
    return timezone.now() - timedelta(days=days)


def earlier_today() -> datetime:
    """A while ago, but still today in the site's time zone (the date filters count days)."""
    midnight = timezone.localtime().replace(hour=0, minute=0, second=0, microsecond=0)
    return max(days_ago(0.1), midnight)


@pytest.fixture
def games(anna, ben, carla, dario):
    """Six finished games over ten days, newest first in this list."""
    return [
        finished_record([anna, ben], [50, 44], finished_at=earlier_today()),
        finished_record([ben, carla, dario], [38, 61, 38], finished_at=days_ago(1), campanile=True),
        finished_record([carla, "greedy"], [47, 52], finished_at=days_ago(2), rated=False),
        finished_record([dario, anna, ben, carla], [40, 41, 42, 43], finished_at=days_ago(4)),
        finished_record(
            [anna, carla, dario], [55, 55, 20], finished_at=days_ago(7), campanile=True
        ),
        finished_record([ben, dario], [33, 30], finished_at=days_ago(10)),
    ]


def ids(records) -> list[int]:
    return [r.game_id for r in records]


def test_it_lists_finished_games_newest_first_with_their_results(client, games):
    page = history(client)

    assert listed(page) == ids(games)
    text = row_text(page, games[1].game_id)
    date = games[1].finished_at.strftime("%-d %b %Y")
    assert text.startswith(
        f"Game {games[1].game_id} {date} 3 players · 60 turns · 3 days · Campanile ·"
    )
    # finishing order with final PP; a tie for second shares the place
    assert "1 Carla 61 PP Winner 2 Ben 38 PP 2 Dario 38 PP Replay" in text
    assert "6 finished games" in page


def test_it_lists_a_game_with_a_bot_as_unrated_with_the_bot_by_name(client, games):
    page = history(client)

    row = row_text(page, games[2].game_id)
    assert "unrated" in row and "Bot Greedy 52 PP Winner" in row
    assert '<span class="player-name">Bot Greedy</span>' in page
    assert 'href="/players/Carla/"' in page


def test_it_shows_winners_on_a_shared_first_place(client, games):
    page = history(client)

    row = row_text(page, games[4].game_id)
    assert row.count("Winner") == 2


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"player": "Anna"}, [0, 3, 4]),
        ({"player": "anna"}, [0, 3, 4]),
        ({"players": "3"}, [1, 4]),
        ({"players": "2", "player": "Dario"}, [5]),
        ({"campanile": "on"}, [1, 4]),
        ({"campanile": "off"}, [0, 2, 3, 5]),
        ({"since": "{-5}", "until": "{-1}"}, [1, 2, 3]),
        ({"until": "{-7}"}, [4, 5]),
        ({"since": "{-3}", "player": "Carla"}, [1, 2]),
    ],
)
def test_it_filters_by_player_players_dates_and_options(client, games, params, expected):
    dated = {
        key: (timezone.localdate() + timedelta(days=int(value[1:-1]))).isoformat()
        if value.startswith("{")
        else value
        for key, value in params.items()
    }

    assert listed(history(client, **dated)) == [games[i].game_id for i in expected]


def test_it_shows_only_my_games_when_asked(games, ben):
    page = history(signed_in(ben), mine="on")

    assert listed(page) == ids(games[i] for i in (0, 1, 3, 5))


def test_it_combines_a_player_with_only_my_games_for_a_head_to_head_list(games, anna, ben):
    assert listed(history(signed_in(ben), mine="on", player="Anna")) == ids([games[0], games[3]])


def test_it_pages_fifty_games_at_a_time(client, anna, ben):
    records = [
        finished_record([anna, ben], [50, 40], finished_at=days_ago(i / 24)) for i in range(120)
    ]

    first, second, last = (history(client, page=n) for n in (1, 2, 3))

    assert listed(first) == ids(records[:50])
    assert listed(second) == ids(records[50:100])
    assert listed(last) == ids(records[100:])
    assert "page 2 of 3" in second
    assert 'href="?page=3"' in second and 'href="?page=1"' in second


def test_it_keeps_the_filters_in_the_page_links(client, anna, ben, carla):
    for i in range(55):
        finished_record([anna, ben], [50, 40], finished_at=days_ago(i / 24), campanile=True)
    finished_record([carla, ben], [50, 40])

    page = history(client, player="Anna", campanile="on")

    assert 'href="?player=Anna&amp;campanile=on&amp;page=2"' in page


def test_it_answers_htmx_with_the_list_alone(client, games):
    response = client.get(HISTORY, {"players": "3"}, **HTMX)

    body = response.content.decode()
    assert body.lstrip().startswith('<section id="history-results"')
    assert "<html" not in body and 'class="filters"' not in body
    assert listed(body) == ids([games[1], games[4]])


def test_it_lists_private_games_only_to_their_players(client, anna, ben, carla):
    private = finished_record([anna, ben], [50, 40], is_public=False)
    public = finished_record([anna, carla], [50, 40])

    assert listed(history(client)) == [public.game_id]
    assert listed(history(signed_in(carla), player="Anna")) == [public.game_id]
    assert listed(history(signed_in(ben))) == [public.game_id, private.game_id]


def test_it_shows_an_empty_history(client):
    page = history(client)

    assert "No finished games match these filters." in page
    assert listed(page) == []


@pytest.mark.parametrize(
    ("params", "note"),
    [
        ({"page": "x"}, "That page number could not be read"),
        ({"page": "٣"}, "That page number could not be read"),
        ({"page": "0"}, "That page number could not be read"),
        ({"page": "99999999999999999999"}, "That page number could not be read"),
        ({"page": "9999"}, "There is only one page; here it is."),
        ({"players": "7"}, "The “Number of players” filter was ignored"),
        ({"since": "2024-02-30"}, "The “From” filter was ignored"),
        ({"until": "9999-12-31"}, "The “To” filter was ignored"),
        ({"since": "0001-01-01"}, "The “From” filter was ignored"),
        ({"player": "Nobody"}, "There is no player called “Nobody”"),
        ({"player": "x" * 500}, "The “Played by” filter was ignored"),
        ({"player": "Anna\x00"}, "The “Played by” filter was ignored"),
        ({"campanile": "maybe"}, "The “Campanile” filter was ignored"),
        ({"mine": "on"}, "Sign in to see only the games you played."),
    ],
)
def test_it_ignores_a_filter_it_cannot_read_and_says_so(client, games, params, note):
    page = history(client, **params)

    assert note in page
    assert listed(page) == ids(games)


def test_it_swaps_dates_given_the_wrong_way_round(client, games):
    since = (timezone.localdate() - timedelta(days=1)).isoformat()
    until = (timezone.localdate() - timedelta(days=5)).isoformat()

    page = history(client, since=since, until=until)

    assert "the dates were swapped" in page
    assert listed(page) == ids(games[1:4])


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    params=st.dictionaries(
        st.sampled_from(["player", "players", "since", "until", "campanile", "mine", "page", "x"]),
        st.text(max_size=40),
        max_size=6,
    )
)
def test_it_never_fails_whatever_the_query_string(client, anna, params):
    response = client.get(HISTORY, params)

    assert response.status_code == 200


def test_it_loads_a_history_page_in_the_same_number_of_queries_however_many_games(anna, ben, carla):
    browser = signed_in(anna)

    def queries(**params) -> int:
        with CaptureQueriesContext(connection) as captured:
            history(browser, **params)
        return len(captured)

    for i in range(3):
        finished_record([anna, ben], [50, 40], finished_at=days_ago(i))
    history(browser)  # the header's count, cached per player (inbox.counts), is counted once
    few = [queries(), queries(player="Ben", mine="on", page="1")]
    for i in range(60):
        finished_record([anna, ben, carla], [50, 40, 45], finished_at=days_ago(i / 10))
    assert [queries(), queries(player="Ben", mine="on", page="2")] == few


# --- My games ----------------------------------------------------------------------------------


MINE = reverse("games:mine")


def test_it_shows_my_last_ten_finished_games_and_links_to_the_rest(anna, ben):
    records = [
        finished_record([anna, ben], [50, 40], finished_at=days_ago(i / 24)) for i in range(14)
    ]

    page = signed_in(anna).get(MINE).content.decode()

    assert listed(page) == ids(records[:10])
    assert 'href="/games/history/?player=Anna">All 14 finished games</a>' in page


def test_it_shows_games_in_progress_with_opponents_whose_turn_and_time_left(anna, ben, carla):
    game = started_game(anna, ben, carla)
    acting = game.seats.get(number=game.acting_seat)

    page = signed_in(anna).get(MINE).content.decode()

    section = page.split("your-turn")[1].split("<h2>Forming</h2>")[0]
    item = section.split(f'href="/games/{game.pk}/"')[1].split("</li>")[0]
    assert 'href="/players/Ben/"' in item and 'href="/players/Carla/"' in item
    assert 'href="/players/Anna/"' not in item  # opponents only
    assert ("your turn" if acting.user == anna else f"{acting.name} to play") in item
    assert re.search(r"\d+\xa0(day|hour)s?(, \d+\xa0\w+)? left", item)


def test_it_lists_forming_games_and_public_games_to_watch(anna, ben, carla, dario):
    forming = lobby.create_game(anna, num_players=3)
    watched = started_game(carla, dario)
    hidden = started_game(ben, carla)
    hidden.is_public = False
    hidden.save()

    page = signed_in(anna).get(MINE).content.decode()

    assert f'href="/games/{forming.pk}/"' in page.split("<h2>Forming</h2>")[1]
    watch = page.split("<h2>Games to watch</h2>")[1]
    assert f'href="/games/{watched.pk}/"' in watch
    assert f'href="/games/{hidden.pk}/"' not in watch


def test_it_shows_a_new_player_empty_lists(anna):
    page = signed_in(anna).get(MINE).content.decode()

    assert "No game is waiting for you." in page
    assert "None yet." in page
    assert "All 0" not in page


def test_it_loads_my_games_in_the_same_number_of_queries_however_many_finished(anna, ben):
    browser = signed_in(anna)
    started_game(anna, ben)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert browser.get(MINE).status_code == 200
        return len(captured)

    finished_record([anna, ben], [50, 40])
    queries()  # the header's count, cached per player (inbox.counts), is counted once
    few = queries()
    for i in range(30):
        finished_record([anna, ben], [50, 40], finished_at=days_ago(i))
    assert queries() == few


def test_it_counts_a_long_list_only_up_to_a_cap_and_still_pages_past_it(
    client, anna, ben, monkeypatch
):
    """Counting stops at COUNT_CAP (5,000 games, a hundred pages): past it the page says "more
    than", and the pager walks on without a last page (here with a cap of 60)."""
    monkeypatch.setattr("players.history.COUNT_CAP", 60)
    records = [
        finished_record([anna, ben], [50, 40], finished_at=days_ago(i / 24)) for i in range(130)
    ]

    first = history(client)
    third = history(client, page=3)
    beyond = history(client, page=9)

    assert "More than 60 finished games · page 1</p>" in first
    assert 'href="?page=2"' in first and 'href="?page=3"' in first
    assert listed(third) == ids(records[100:])
    assert "Older ›" not in third
    assert "There are only 3 pages; here is the last one." in beyond
    assert listed(beyond) == ids(records[100:])
