"""A second game, Nim with a hidden joker card (tests/nim), played through the whole platform:
the lobby, the move service, undo, the clock's timeout with a bot, turn e-mails, the finished
page, the replay, export and import, and replay_games. Nothing in the platform may assume
Firenze; if it did, one of these steps would break or show Firenze's board."""

from __future__ import annotations

import io
import json
from datetime import timedelta

import pytest
from django.core import mail
from django.core.management import call_command
from django.urls import reverse

from games import lobby, transfer
from games.models import Game
from games.timeouts import time_out
from players.models import GameRecord
from tests.web.helpers import offered_actions, page_version, signed_in

pytestmark = pytest.mark.django_db


def url(name: str, game: Game) -> str:
    return reverse(f"games:{name}", args=[game.pk])


def _page(client, game: Game) -> str:
    response = client.get(url("detail", game))
    assert response.status_code == 200
    return response.content.decode()


def _move(client, game: Game, action: dict) -> None:
    page = _page(client, game)
    response = client.post(
        url("move", game), {"action": json.dumps(action), "version": page_version(page)}
    )
    assert response.status_code == 302, response.content.decode()[:500]


def test_it_plays_a_game_of_nim_through_the_whole_platform(
    nim, anna, ben, django_capture_on_commit_callbacks
):
    clients = {anna.pk: signed_in(anna), ben.pk: signed_in(ben)}
    form = clients[anna.pk].get(reverse("games:create")).content.decode()
    assert 'name="stones"' in form and 'name="campanile"' not in form
    with django_capture_on_commit_callbacks(execute=True):
        response = clients[anna.pk].post(
            reverse("games:create"),
            {
                "num_players": 2,
                "stones": 7,
                "time_limit": 86400,
                "is_public": "1",
                "auto_start": "on",
                "name": "Pebbles",
            },
        )
        assert response.status_code == 302
        game = Game.objects.get(name="Pebbles")
        assert (game.engine_name, game.rules_version, game.options) == ("nim", "1", {"stones": 7})
        response = clients[ben.pk].post(url("join", game))
        assert response.status_code == 302
    game.refresh_from_db()
    assert game.is_active
    seats = list(game.seats.select_related("user").order_by("number"))
    assert [s.colour for s in seats] == ["red", "blue"]
    first, second = (clients[s.user_id] for s in seats)
    joker_holder = next(s for s in seats if game.load_state().d["jokers"][s.number])

    # Each player sees their own joker, never the other's.
    for seat in seats:
        page = _page(clients[seat.user_id], game)
        assert ("You hold the joker" in page) == (seat is joker_holder)
    page = _page(first, game)
    assert "Your turn." in page and "Stones left: 7" in page
    assert "Pouch" not in page  # Firenze's board is nowhere
    assert {"type": "take", "n": 3} in offered_actions(page)

    # A take can be undone until the turn ends.
    _move(first, game, {"type": "take", "n": 2})
    assert "Stones left: 5" in _page(first, game)
    response = first.post(url("undo", game), {"version": page_version(_page(first, game))})
    assert response.status_code == 302
    assert "Stones left: 7" in _page(first, game)

    # Ending the turn passes it on, and the next player is e-mailed the moves.
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        _move(first, game, {"type": "take", "n": 1})
        _move(first, game, {"type": "end_turn"})
    turn_mail = [m for m in mail.outbox if m.to == [seats[1].user.email]]
    assert turn_mail and "takes 1." in turn_mail[0].body
    assert "Your turn." in _page(second, game)

    # The clock runs out: the bot plays the whole turn, marked as a timeout.
    game.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        assert time_out(game.pk, now=game.deadline + timedelta(seconds=1))
    timed_out = game.moves.filter(timeout=True)
    assert timed_out.count() == 2 and all(m.by_bot and m.seat == 1 for m in timed_out)

    # Play on to the end through the pages; the game-over email counts in Nim's points.
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(20):
            game.refresh_from_db()
            if game.is_finished:
                break
            client = clients[seats[game.acting_seat].user_id]
            _move(client, game, offered_actions(_page(client, game))[0])
    over_mail = [m for m in mail.outbox if "is over" in m.subject]
    assert over_mail and "Final scores (Points):" in over_mail[0].body
    assert not any("restige" in m.body for m in mail.outbox)
    game.refresh_from_db()
    assert game.is_finished
    winner = seats[game.engine.winners(game.load_state())[0]]
    finished = _page(first, game)
    assert "Game over: Pebbles" in finished and winner.name in finished
    record = GameRecord.objects.get(game=game)
    assert record.moves == game.moves.count()

    # The replay shows every hand once it is over; the export and import round-trip.
    replay = first.get(url("replay", game) + "?step=1").content.decode()
    assert "Stones left:" in replay and f"Joker: {joker_holder.name}" in replay
    exported = first.get(url("export", game))
    record_json = json.loads(exported.content)
    assert (record_json["engine"], record_json["rules_version"]) == ("nim", "1")
    copy = transfer.import_game(json.dumps(record_json))
    assert copy.engine_name == "nim" and copy.is_finished
    assert copy.engine.scores(copy.load_state()) == game.engine.scores(game.load_state())
    out = io.StringIO()
    call_command("replay_games", stdout=out)
    assert "Replayed 2 games: 0 differ." in out.getvalue()


def test_it_draws_nims_board_inside_the_platforms_game_page(nim, anna, ben):
    game = lobby.create_game(anna, num_players=2, options={"stones": 9}, engine_name=nim.name)
    lobby.join(game, ben)
    game.refresh_from_db()
    acting = game.seats.get(number=game.acting_seat).user
    client = signed_in(acting)
    page = _page(client, game)
    # The platform's page: turn line, poll, players strip, log, live region...
    assert 'id="poller"' in page and 'id="announcer"' in page and 'aria-live="polite"' in page
    assert "Your turn." in page and "Whole log" in page and 'id="log"' in page
    assert anna.display_name in page and ben.display_name in page and "0 points" in page
    # ...around Nim's board and choices, and none of Firenze's.
    board = page[page.index('id="board"') : page.index("</section>", page.index('id="board"'))]
    assert "Stones left: 9" in board
    assert "skyline" not in page and "Storehouse" not in page and "PP" not in page
    _move(client, game, {"type": "take", "n": 2})
    page = _page(client, game)
    assert "↶ Undo last step" in page  # the platform's undo, offered by Nim's can_undo
    # The htmx part is the platform's too, with Nim's board in it.
    part = client.get(url("detail", game), HTTP_HX_REQUEST="true").content.decode()
    assert part.lstrip().startswith("<title>") and 'id="game"' in part
    assert "Stones left: 7" in part and "<html" not in part


def test_it_tells_newcomers_about_the_sites_game_in_its_own_words(nim, client):
    home = client.get("/").content.decode()
    assert "Take stones from a pile, a few at a time." in home  # the home page's pitch
    assert "Nim — whoever takes the last stone wins." in home  # every page's footer
    assert "Florence" not in home and "tower" not in home
