"""Public profiles (/players/<name>/) and the leaderboard (/players/)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from games.rules.firenze import rules
from players.models import Rating
from tests.factories import UserFactory, finished_record
from tests.web.helpers import fast_forward, signed_in, started_game

pytestmark = pytest.mark.django_db


def profile(client, name: str):
    return client.get(reverse("players:profile", args=[name]))


def stat(page: str, label: str) -> str:
    """The value shown under a counter's label, tags stripped."""
    match = re.search(rf"<dt>{re.escape(label)}</dt><dd[^>]*>(.*?)</dd>", page, re.S)
    assert match, f"no counter {label!r}"
    return re.sub(r"<[^>]+>", "", match.group(1)).strip()


def records_on(page: str) -> list[int]:
    return [int(n) for n in re.findall(r'class="record-game" href="/games/(\d+)/"', page)]


@pytest.fixture
def played(anna, ben, carla):
    """Anna's finished games, really played: two against people, one against a bot."""
    games = [started_game(anna, ben), started_game(anna, ben, carla), started_game(anna, bots=1)]
    for game in games:
        fast_forward(game)
    return games


def test_it_shows_a_players_counters_as_the_games_ended(client, anna, played):
    finals = [(g, g.load_state(), g.seats.get(user=anna).number) for g in played]
    totals = [rules.scores(state)[seat] for _, state, seat in finals]
    wins = sum(seat in rules.winners(state) for _, state, seat in finals)
    sealed: dict[str, int] = {}
    for _, state, seat in finals:
        for square in rules.player_view(state, None)["board"]["commissions"]:
            if square["seal"] == seat:
                sealed[square["color"]] = sealed.get(square["color"], 0) + 1
    most = max(sealed.values())

    page = profile(client, "Anna").content.decode()

    assert stat(page, "Games finished") == "3"
    assert stat(page, "Won").startswith(f"{wins} ({round(100 * wins / 3)}%)")
    assert stat(page, "Average score") == f"{sum(totals) / 3:.1f}"
    assert stat(page, "Best score") == str(max(totals))
    assert stat(page, "Lost to timeouts") == "0"
    shown_colour = stat(page, "Favourite tower").split()[-1]
    assert sealed[shown_colour] == most  # the colour of most commissions (any of them on a tie)
    assert stat(page, "First game") == timezone.localdate().strftime("%-d %b %Y")
    assert records_on(page) == sorted((g.pk for g in played), reverse=True)


def test_it_shows_the_rating_its_rank_and_a_chart_of_its_history(client, anna, ben, played):
    page = profile(client, "Anna").content.decode()

    rating = Rating.objects.get(user=anna)
    assert rating.games == 2  # the game against a bot is not rated
    assert re.search(rf'<span class="rating-number"[^>]*>{rating.shown}</span>', page)
    assert "provisional" in page and "2 rated games; ranked after 5" in page
    points = re.search(r'<polyline class="line" points="([^"]+)"', page).group(1).split()
    assert len(points) == 2


def test_it_ranks_a_player_with_five_rated_games(client, anna, ben, carla):
    for days in range(5):
        finished_record([anna, ben], [60, 40], finished_at=timezone.now() - timedelta(days=days))
    Rating.objects.create(user=anna, mu=30, sigma=3, shown=1240, games=5)
    Rating.objects.create(user=ben, mu=31, sigma=3, shown=1280, games=5)
    Rating.objects.create(user=carla, mu=40, sigma=3, shown=1600, games=2)  # provisional

    page = profile(client, "Anna").content.decode()

    assert "#2 on the" in page
    assert "provisional" not in page


def test_it_counts_games_the_bot_finished_after_timeouts(client, anna, ben):
    record = finished_record([anna, ben], [30, 60])
    record.results.filter(user=anna).update(abandoned=True)

    assert stat(profile(client, "Anna").content.decode(), "Lost to timeouts") == "1"


def test_it_shows_a_new_player_with_no_games(client):
    UserFactory(username="newbie", display_name="Newbie")

    page = profile(client, "Newbie").content.decode()

    assert stat(page, "Games finished") == "0"
    assert stat(page, "Won") == "0"
    assert stat(page, "Average score") == stat(page, "Best score") == "–"
    assert stat(page, "Favourite tower") == stat(page, "First game") == "–"
    assert "Not rated yet" in page
    assert "No finished games yet." in page
    assert "None that anyone may watch." in page
    assert "<polyline" not in page


def test_it_answers_404_for_an_unknown_player(client, anna):
    assert profile(client, "Nobody").status_code == 404
    assert profile(client, "x" * 300).status_code == 404
    assert client.get("/players/Anna%00/").status_code == 404  # no such shape of name


def test_it_sends_any_spelling_of_a_name_to_the_one_profile_address(client, anna):
    response = profile(client, "aNNA")

    assert response.status_code == 301
    assert response["Location"] == reverse("players:profile", args=["Anna"])


def test_it_lists_public_games_in_progress_with_whose_turn_it_is(client, anna, ben, carla):
    public = started_game(anna, ben)
    private = started_game(anna, carla)
    Game.objects.filter(pk=private.pk).update(is_public=False)
    acting = public.seats.get(number=public.acting_seat).name

    page = profile(client, "Anna").content.decode()

    assert f'href="/games/{public.pk}/"' in page
    assert f'href="/games/{private.pk}/"' not in page
    assert f"{acting} to play" in page


def test_it_shows_the_latest_ten_finished_games_and_links_to_all(client, anna, ben):
    records = [
        finished_record([anna, ben], [50, 40], finished_at=timezone.now() - timedelta(hours=h))
        for h in range(12)
    ]

    page = profile(client, "Anna").content.decode()

    assert records_on(page) == [r.game_id for r in records[:10]]
    assert 'href="/games/history/?player=Anna">All 12 finished games of Anna</a>' in page


def test_it_lists_a_private_finished_game_only_to_those_who_played_it(anna, ben, carla):
    private = finished_record([anna, ben], [50, 40], is_public=False)

    assert private.game_id in records_on(profile(signed_in(ben), "Anna").content.decode())
    assert private.game_id not in records_on(profile(signed_in(carla), "Anna").content.decode())


def test_it_shows_a_signed_in_player_their_record_against_the_other(client, anna, ben, carla):
    finished_record([anna, ben], [50, 40])
    finished_record([anna, ben, carla], [30, 60, 45])
    finished_record([ben, carla, anna], [30, 30, 31])
    finished_record([anna, ben], [45, 45])
    finished_record([anna, carla], [45, 40])  # without Ben: not counted

    page = profile(signed_in(ben), "Anna").content.decode()

    h2h = page.split('class="head-to-head"')[1].split("</section>")[0]
    text = re.sub(r"<[^>]+>", "", h2h)
    assert "You against Anna" in text
    assert "4 finished games together" in text
    assert "ahead in 1, behind in 2, level in 1" in text
    assert "head-to-head" not in profile(client, "Anna").content.decode()  # anonymous
    assert "head-to-head" not in profile(signed_in(anna), "Anna").content.decode()  # own page


def test_it_links_the_own_profile_to_the_account_settings_and_back(anna):
    browser = signed_in(anna)

    assert 'href="/accounts/profile/"' in profile(browser, "Anna").content.decode()
    account = browser.get("/accounts/profile/").content.decode()
    assert 'href="/players/Anna/"' in account


def test_it_loads_a_profile_in_the_same_number_of_queries_however_many_games(client, anna, ben):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert profile(client, "Anna").status_code == 200
        return len(captured)

    finished_record([anna, ben], [50, 40])
    Rating.objects.create(user=anna, mu=30, sigma=3, shown=1240, games=6)
    few = queries()
    for _ in range(25):
        finished_record([anna, ben, "greedy"], [50, 40, 30])
    assert queries() == few


# --- the leaderboard ---------------------------------------------------------------------------


def leaderboard(client, **params):
    return client.get(reverse("players:leaderboard"), params)


def test_it_ranks_players_with_five_rated_games_and_lists_the_others_as_provisional(client):
    cast = [UserFactory(username=n) for n in ("eva", "fabio", "gina", "hugo", "ivo")]
    for user, shown, games in zip(
        cast, [1300, 1450, 1300, 1200, 1700], [5, 9, 12, 5, 3], strict=True
    ):
        Rating.objects.create(user=user, mu=25, sigma=5, shown=shown, games=games)

    page = leaderboard(client).content.decode()

    ranked, provisional = page.split("<h2>Provisional</h2>")
    rows = re.findall(
        r'<td class="rank">(\d+)</td><td><a class="player-link" href="/players/(\w+)/">', ranked
    )
    assert rows == [("1", "Fabio"), ("2", "Gina"), ("2", "Eva"), ("4", "Hugo")]
    assert "Ivo" in provisional and "Ivo" not in ranked


def test_it_shows_an_empty_leaderboard(client):
    page = leaderboard(client).content.decode()

    assert "Nobody has played 5 rated games yet." in page


@pytest.mark.parametrize("page", ["0", "-1", "x", "１", "٣", "99999999999999999999", "2"])
def test_it_shows_a_leaderboard_page_for_any_page_number(client, anna, page):
    Rating.objects.create(user=anna, mu=25, sigma=5, shown=1100, games=7)

    response = leaderboard(client, page=page)

    assert response.status_code == 200
    assert 'href="/players/Anna/"' in response.content.decode()
