"""A finished game: its score breakdown, its replay (rebuilt from the log by the engine), its
JSON download and `manage.py import_game`. A game in progress has neither replay nor download.
"""

from __future__ import annotations

import json
import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import replay as replays
from games.models import Game, Move, Seat
from games.rules.firenze import rules
from games.transfer import MAX_BYTES
from players.models import GameRecord, Rating, SeatResult
from tests.web.helpers import HTMX, fast_forward, signed_in, started_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(anna, ben, carla):
    # A fixed deal: greedy bots can stall with the Campanile (they never seal it) on some seeds.
    game = started_game(anna, ben, carla, campanile=True, seed=2)
    fast_forward(game)
    assert game.is_finished
    return game


def url(name: str, game: Game) -> str:
    return reverse(f"games:{name}", args=[game.pk])


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


# --- the score breakdown -----------------------------------------------------------------------


def breakdown_columns(page: str) -> tuple[list[list[int]], list[int]]:
    """The scoring cells of the breakdown table per player, and the totals row."""
    table = page.split('<table class="breakdown">')[1].split("</table>")[0]
    rows = re.findall(
        r'<tr class="(?:|majority|card)"><th scope="row">.*?</th>(.*?)</tr>', table, re.S
    )
    cells = [[_points(c) for c in re.findall(r"<td>(.*?)</td>", row, re.S)] for row in rows]
    totals = [
        int(t) for t in re.findall(r"<td><strong>(-?\d+)</strong></td>", table.split("<tfoot>")[1])
    ]
    return [list(column) for column in zip(*cells, strict=True)], totals


def _points(cell: str) -> int:
    number = re.match(r"\s*([+-]?\d+)", re.sub(r"<[^>]+>", "", cell).replace("–", "0"))
    return int(number.group(1))


def test_it_shows_a_breakdown_whose_rows_add_up_to_each_final_total(client, finished):
    page = client.get(url("detail", finished)).content.decode()

    columns, totals = breakdown_columns(page)
    assert totals == sorted(rules.scores(finished.load_state()), reverse=True)  # ranking order
    assert [sum(column) for column in columns] == totals
    for label in (
        "Commissions",
        "Balconies",
        "Level tiles",
        "Church privileges",
        "End-of-game tile",
    ):
        assert f'<th scope="row">{label}</th>' in page
    assert "Campanile · 5 neutral seals, recommended placement" in page


def test_it_puts_the_winners_column_first_as_the_ranking_does(client, anna, ben, carla):
    finished = started_game(anna, ben, carla, campanile=True, seed=2)
    fast_forward(finished, totals=[31, 78, 50])  # the winner sits second
    winner = 1
    page = client.get(url("detail", finished)).content.decode()
    head = page.split('<table class="breakdown">')[1].split("</thead>")[0]
    headers = re.findall(r'<th scope="col" class="(winner|)">(.*?)</th>', head, re.S)
    assert headers[0][0] == "winner"
    assert finished.seats.get(number=winner).user.display_name in headers[0][1]
    ranking = page.split('<table class="final">')[1].split("</table>")[0]
    ranked = [text_of(h) for _, h in headers]
    assert [name for name in ranked if name in text_of(ranking)] == ranked
    assert text_of(ranking).index(ranked[0]) < text_of(ranking).index(ranked[-1])


def test_it_names_each_majority_and_celebration_card_of_the_final_scoring(client, finished):
    final = rules.player_view(finished.load_state(), None)["final"]["players"]
    page = client.get(url("detail", finished)).content.decode()

    at_end = text_of(page.split('<tbody class="at-end">')[1].split("</tbody>")[0])
    for player in final:
        for colour in player["majority"]:
            assert f"{colour.capitalize()} majority" in at_end
        for card in player["celebrations"]:
            assert card["card"] in at_end


def test_it_links_every_name_of_a_finished_game_to_its_profile(client, finished):
    page = client.get(url("detail", finished)).content.decode()

    for name in ("Anna", "Ben", "Carla"):
        assert f'<a class="player-link" href="/players/{name}/">{name}</a>' in page
    log = page.split('id="log"')[1]
    assert '<a class="player-link" href="/players/' in log


# --- replays -----------------------------------------------------------------------------------


def test_it_replays_from_the_engines_initial_state_to_its_final_state(finished):
    first = replays.build(finished, {})
    last = replays.build(finished, {"step": str(finished.moves.count())})

    assert first.step == 0 and first.state == finished.initial_state()
    assert last.state == finished.load_state() == finished.replayed_state()
    assert rules.is_over(last.state)


def test_it_starts_each_turn_where_the_engine_does(finished):
    replay = replays.build(finished, {})
    state = finished.initial_state()
    actions = list(finished.moves.order_by("seq").values_list("action", flat=True))
    starts, previous = [], None
    for step, action in enumerate(actions):
        turn_no = rules.to_dict(state)["turn_no"]
        if turn_no != previous:
            starts.append(step)
        previous = turn_no
        state = rules.apply_action(state, action)

    assert replay.turn_starts == starts
    for number in (1, 2, len(starts)):
        at = replays.build(finished, {"turn": str(number)})
        assert at.step == starts[number - 1]
        assert rules.to_dict(at.state)["turn_no"] == number


def test_it_steps_through_a_replay_page_with_every_hand_shown(client, finished):
    last = finished.moves.count()
    start_of_turn_3 = replays.build(finished, {"turn": "3"}).step
    page = client.get(url("replay", finished), {"step": start_of_turn_3 + 1}).content.decode()

    state = replays.build(finished, {"step": str(start_of_turn_3 + 1)}).state
    assert 'Turn <b class="replay-turn">3</b>' in page
    for link, step in [
        ("Home", 0),
        ("Shift+ArrowLeft", start_of_turn_3),
        ("ArrowLeft", start_of_turn_3),
        ("ArrowRight", start_of_turn_3 + 2),
        ("End", last),
    ]:
        assert re.search(rf'data-key="{re.escape(link)}" href="\?step={step}"', page), link
    hands = re.findall(r'<div class="replay-hand">(.*?)</ul>', page, re.S)
    assert len(hands) == 3
    for seat, hand in enumerate(hands):
        shown = re.findall(r"<strong>([^<]+)</strong>", hand)
        assert shown == sorted(rules.to_dict(state)["players"][seat]["hand"])


def test_it_answers_htmx_with_the_replay_frame_alone(client, finished):
    body = client.get(url("replay", finished), {"step": 5}, **HTMX).content.decode()

    assert body.lstrip().startswith('<div id="replay"')
    assert "<html" not in body
    assert '<b class="replay-step">5</b>' in body


def test_it_shows_the_final_scores_at_the_last_step(client, finished):
    last = finished.moves.count()
    page = client.get(url("replay", finished), {"step": last}).content.decode()

    columns, totals = breakdown_columns(page)
    assert totals == sorted(rules.scores(finished.load_state()), reverse=True)  # winner first
    assert "the game is over" in page
    assert 'data-key="ArrowRight"' not in page


@pytest.mark.parametrize(
    ("params", "note"),
    [
        ({"step": "x"}, "There is no step x"),
        ({"step": "99999"}, "There is no step 99999"),
        ({"step": "-1"}, "There is no step -1"),
        ({"step": "٣"}, "There is no step ٣"),
        ({"turn": "0"}, "There is no turn 0"),
        ({"turn": "100000"}, "There is no turn 100000"),
    ],
)
def test_it_shows_the_first_position_for_a_step_or_turn_it_cannot_read(
    client, finished, params, note
):
    response = client.get(url("replay", finished), params)

    assert response.status_code == 200
    page = response.content.decode()
    assert note in page
    assert '<b class="replay-step">0</b>' in page


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    params=st.dictionaries(st.sampled_from(["step", "turn", "x"]), st.text(max_size=30), max_size=3)
)
def test_it_never_fails_whatever_the_replay_query(client, finished, params):
    assert client.get(url("replay", finished), params).status_code == 200


def test_it_has_no_replay_or_download_of_a_game_in_progress(anna, ben, carla):
    game = started_game(anna, ben)
    fast_forward(game, 40)
    for browser in (signed_in(anna), signed_in(carla)):
        for name in ("replay", "export"):
            response = browser.get(url(name, game), {"step": 3})
            assert response.status_code == 403
            assert "still being played" in response.content.decode()
    assert not re.search(r'class="hand"', signed_in(anna).get(url("replay", game)).content.decode())


def test_it_hides_a_private_finished_game_from_strangers(finished, dario):
    Game.objects.filter(pk=finished.pk).update(is_public=False)

    for name in ("replay", "export"):
        assert signed_in(dario).get(url(name, finished)).status_code == 404
        assert signed_in(finished.creator).get(url(name, finished)).status_code == 200


# --- export and import -------------------------------------------------------------------------


def test_it_downloads_a_finished_game_as_json(client, finished):
    response = client.get(url("export", finished))

    assert response.status_code == 200
    assert (
        response["Content-Disposition"] == f'attachment; filename="firenze-game-{finished.pk}.json"'
    )
    record = json.loads(response.content)
    state = finished.load_state()
    seats = list(finished.seats.order_by("number"))
    assert record["engine"] == rules.ENGINE_NAME == "firenze"
    assert record["rules_version"] == rules.RULES_VERSION
    assert record["options"] == finished.options and record["options"]["campanile"] is True
    assert record["seed"] == finished.seed
    assert [s["name"] for s in record["seats"]] == [s.name for s in seats]
    assert [m["action"] for m in record["moves"]] == list(
        finished.moves.order_by("seq").values_list("action", flat=True)
    )
    assert record["final_scores"] == rules.scores(state)
    assert record["winners"] == rules.winners(state)


def write(tmp_path, record, name="game.json"):
    path = tmp_path / name
    path.write_text(record if isinstance(record, str) else json.dumps(record))
    return str(path)


def import_game(path: str) -> str:
    out = StringIO()
    call_command("import_game", path, stdout=out)
    return out.getvalue()


@pytest.fixture
def exported(client, finished):
    return json.loads(client.get(url("export", finished)).content)


def test_it_imports_an_exported_game_as_a_finished_unrated_game(tmp_path, finished, exported):
    ratings = {r.user_id: r.shown for r in Rating.objects.all()}

    report = import_game(write(tmp_path, exported))

    copy = Game.objects.exclude(pk=finished.pk).get()
    assert report.startswith(f"Imported game {copy.pk}: 3 players,")
    assert copy.is_finished and copy.seed == finished.seed
    assert copy.load_state() == finished.load_state() == copy.replayed_state()
    assert [s.user for s in copy.seats.order_by("number")] == [
        s.user for s in finished.seats.order_by("number")
    ]
    record = GameRecord.objects.get(game=copy)
    assert record.imported and not record.rated
    assert {r.user_id: r.shown for r in Rating.objects.all()} == ratings
    assert SeatResult.objects.filter(record=record, rating_shown__isnull=False).count() == 0


def tampered_move(record):
    record["moves"][5]["action"] = {"type": "build", "color": "purple"}


def other_scores(record):
    record["final_scores"][0] += 1


def unknown_player(record):
    record["seats"][1]["name"] = "Zorro"


def other_rules(record):
    record["rules_version"] = "0.9"


def other_engine(record):
    record["engine"] = "chess"


def cut_short(record):
    del record["moves"][-3:]


def wrong_seat(record):
    record["moves"][0]["seat"] = (record["moves"][0]["seat"] + 1) % 3


def bool_seed(record):
    record["seed"] = True


def nul_in_a_name(record):
    record["seats"][0]["name"] = "Ann\x00a"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (tampered_move, "Move 6 is illegal:"),
        (other_scores, "The final scores differ: the file says"),
        (unknown_player, "No player here is called Zorro."),
        (other_rules, "played under rules version '0.9'; this site plays version '1'"),
        (other_engine, "This is not a firenze game record."),
        (cut_short, "The moves end before the game does"),
        (wrong_seat, "Move 1 is by seat"),
        (bool_seed, "seed must be a whole number."),
        (nul_in_a_name, "Seat 0 must be"),
    ],
)
def test_it_refuses_a_record_that_does_not_replay_and_stores_nothing(
    tmp_path, exported, change, message
):
    change(exported)
    before = (Game.objects.count(), Move.objects.count(), Seat.objects.count())

    with pytest.raises(CommandError, match=re.escape(message)):
        import_game(write(tmp_path, exported))

    assert (Game.objects.count(), Move.objects.count(), Seat.objects.count()) == before


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "The file is not valid JSON"),
        ("[1, 2]", "must hold one JSON object"),
        ("[" * 100_000, "The file is not valid JSON"),
        ('{"engine": "firenze", "rules_version": "1", "format": 1, "num_players": 2}', "seed"),
    ],
)
def test_it_refuses_a_file_that_is_not_a_game_record(tmp_path, finished, content, message):
    with pytest.raises(CommandError, match=re.escape(message)):
        import_game(write(tmp_path, content))
    assert Game.objects.count() == 1


def test_it_refuses_a_file_too_large_to_be_a_game(tmp_path, finished):
    path = write(tmp_path, " " * (MAX_BYTES + 1))

    with pytest.raises(CommandError, match="larger than 2000 kB"):
        import_game(path)
    assert Game.objects.count() == 1


def test_it_refuses_a_missing_file(tmp_path):
    with pytest.raises(CommandError, match="cannot be read"):
        import_game(str(tmp_path / "nothing.json"))


# --- older stored states, profile links -------------------------------------------------------


def test_it_rebuilds_a_state_stored_by_an_older_engine_from_the_log(client, anna, ben):
    """States of schema 1 had no PP by source: such a cache is replayed from the move log."""
    game = started_game(anna, ben)
    fast_forward(game, 80)
    old = json.loads(json.dumps(game.state))
    old["v"] = 1
    for player in old["players"]:
        del player["earned"]
    Game.objects.filter(pk=game.pk).update(state=old)
    game.refresh_from_db()

    assert game.load_state() == game.replayed_state()
    assert client.get(url("detail", game)).status_code == 200


def test_it_links_names_in_the_lobby_and_on_a_forming_game_to_profiles(client, anna, ben):
    from games import lobby

    game = lobby.create_game(anna, num_players=3, auto_start=False)
    lobby.join(game, ben)
    lobby.add_bot(game, anna)

    forming = client.get(url("detail", game)).content.decode()
    listing = client.get(reverse("games:lobby")).content.decode()

    assert '<a class="player-link" href="/players/Anna/">Anna</a>' in forming
    assert '<a class="player-link" href="/players/Ben/">Ben</a>' in forming
    assert '<span class="player-name">Bot Lorenzo</span>' in forming
    assert 'by <a class="player-link" href="/players/Anna/">Anna</a>' in listing
