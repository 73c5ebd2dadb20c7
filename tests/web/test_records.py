"""Finished games' records keep what their engine reports, in game-neutral columns: the
data migration carries the old Firenze columns over (on SQLite here, on PostgreSQL in
`make test`'s second pass), and the history's game filter is the engine's, for any engine."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from games import lobby
from games.models import Game
from players.models import GameRecord, SeatResult
from tests.factories import finished_record
from tests.web.helpers import fast_forward, signed_in, started_game
from tests.web.test_second_engine import _move

BEFORE = [("players", "0003_game_record_options_default")]
HISTORY = reverse("games:history")


def listed(page: str) -> list[int]:
    return [int(n) for n in re.findall(r'class="record-game" href="/games/(\d+)/"', page)]


def _old_records(anna, ben, latest) -> tuple[int, int]:
    """A Firenze game and a Nim game recorded by the old columns."""
    others = [node for node in latest if node[0] != "players"]
    old = MigrationExecutor(connection).loader.project_state(BEFORE + others).apps
    OldGame = old.get_model("games", "Game")
    OldRecord = old.get_model("players", "GameRecord")
    OldResult = old.get_model("players", "SeatResult")
    ids = []
    for engine_name, campanile in (("firenze", True), ("nim", False)):
        game = OldGame.objects.create(
            creator_id=anna.pk, num_players=2, engine_name=engine_name, status="finished"
        )
        when = game.created
        record = OldRecord.objects.create(
            game=game, started_at=when, finished_at=when, num_players=2, is_public=True,
            campanile=campanile, seal_placement="random" if campanile else "",
            neutral_seals=3 if campanile else 0, turns=9, moves=20, rated=False,
        )  # fmt: skip
        for seat, (user, red) in enumerate(((anna, 4), (ben, 0))):
            OldResult.objects.create(
                record=record, user_id=user.pk, seat=seat, name=user.display_name, place=seat + 1,
                pp=50 - seat, won=seat == 0, finished_at=when, red=red if campanile else 0,
                white=1 if campanile else 0,
            )  # fmt: skip
        ids.append(game.pk)
    return ids[0], ids[1]


def check_the_migration(anna, ben):
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    try:
        executor.migrate(BEFORE)
        firenze_id, nim_id = _old_records(anna, ben, latest)
        MigrationExecutor(connection).migrate(latest)
        record = GameRecord.objects.get(pk=firenze_id)
        assert record.engine_name == "firenze"
        assert record.details == {"campanile": True, "seal_placement": "random", "neutral_seals": 3}
        assert record.facets == ";campanile=on;"
        seat = SeatResult.objects.get(record=record, seat=0)
        assert seat.details == dict.fromkeys(("yellow", "green", "blue", "purple"), 0) | {
            "white": 1,
            "red": 4,
        }
        nim = GameRecord.objects.get(pk=nim_id)
        assert (nim.engine_name, nim.details, nim.facets) == ("nim", {}, "")
        # What players see of it: the Campanile filter, the options, the favourite tower.
        client = signed_in(anna)
        page = client.get(HISTORY, {"campanile": "on"}).content.decode()
        assert listed(page) == [firenze_id]
        assert "Campanile · 3 neutral seals, random placement" in page
        assert listed(client.get(HISTORY, {"campanile": "off"}).content.decode()) == []
        profile = client.get(reverse("players:profile", args=[anna.display_name])).content
        assert '<dt>Favourite tower</dt><dd><span class="brick brick-red"' in profile.decode()
    finally:
        MigrationExecutor(connection).migrate(latest)


@pytest.mark.django_db(transaction=True)
def test_it_moves_the_old_record_columns_into_the_details(anna, ben):
    check_the_migration(anna, ben)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_it_moves_the_old_record_columns_into_the_details_on_postgresql(anna, ben):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: DATABASE_URL=postgres://...")
    check_the_migration(anna, ben)


@pytest.mark.django_db
def test_it_filters_the_history_by_firenzes_campanile(anna, ben):
    with_it = started_game(anna, ben, seed=3, campanile=True)
    without = started_game(ben, anna, seed=4, campanile=False)
    for game in (with_it, without):
        fast_forward(game)
    client = signed_in(anna)
    page = client.get(HISTORY).content.decode()
    assert '<label for="id_campanile">Campanile</label>' in page
    assert sorted(listed(page)) == sorted([with_it.pk, without.pk])
    assert listed(client.get(HISTORY, {"campanile": "on"}).content.decode()) == [with_it.pk]
    assert listed(client.get(HISTORY, {"campanile": "off"}).content.decode()) == [without.pk]
    refused = client.get(HISTORY, {"campanile": "maybe"}).content.decode()
    assert "filter was ignored" in refused and len(listed(refused)) == 2


def _finished_nim(nim, creator, other, stones: int) -> Game:
    game = lobby.create_game(
        creator, num_players=2, options={"stones": stones}, engine_name=nim.name
    )
    lobby.join(game, other)
    game.refresh_from_db()
    client = {u.pk: signed_in(u) for u in (creator, other)}
    while not game.is_finished:
        seat = game.seats.get(number=game.acting_seat)
        _move(client[seat.user_id], game, nim.legal_actions(game.load_state())[-1])
        game.refresh_from_db()
    return game


@pytest.mark.django_db
def test_it_filters_the_history_by_nims_own_facet(nim, anna, ben):
    small = _finished_nim(nim, anna, ben, stones=6)
    large = _finished_nim(nim, ben, anna, stones=12)
    client = signed_in(anna)
    page = client.get(HISTORY).content.decode()
    assert '<label for="id_pile">Pile</label>' in page and "id_campanile" not in page
    assert "6 stones" in page and "12 stones" in page
    assert listed(client.get(HISTORY, {"pile": "small"}).content.decode()) == [small.pk]
    assert listed(client.get(HISTORY, {"pile": "large"}).content.decode()) == [large.pk]
    # Nim's profile line sums its per-seat tally over the player's games.
    kept = sum(r.details["jokers"] for r in SeatResult.objects.filter(user=anna))
    profile = client.get(reverse("players:profile", args=[anna.display_name])).content.decode()
    assert f"<dt>Jokers kept</dt><dd>{kept}</dd>" in profile


@pytest.mark.django_db
def test_it_shows_the_favourite_tower_of_every_game_including_the_latest(anna, ben):
    """The summed tallies are kept between views, but a newly finished game counts at once."""
    client = signed_in(ben)
    url = reverse("players:profile", args=[anna.display_name])

    def favourite() -> str:
        page = client.get(url).content.decode()
        return re.search(r"<dt>Favourite tower</dt><dd>(.*?)</dd>", page).group(1)

    assert favourite() == "–"
    first = finished_record([anna, ben], [50, 40])
    SeatResult.objects.filter(record=first, user=anna).update(details={"white": 2, "red": 1})
    assert favourite().endswith(" white")
    assert favourite().endswith(" white")  # kept, not summed again
    second = finished_record([ben, anna], [45, 30])
    SeatResult.objects.filter(record=second, user=anna).update(details={"red": 3})
    assert favourite() == '<span class="brick brick-red" aria-hidden="true">R</span> red'
