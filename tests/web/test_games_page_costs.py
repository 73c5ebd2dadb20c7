"""What a move costs and what it touches, on the game page (issue 9): costs on the buttons,
payments as "n of m paid", the card being paid for highlighted, why nothing can be fulfilled,
the last turn's changes lit up, and the board's pieces as buttons for the same moves.

Positions are set up with the rules tests' scenario helpers and stored as the game's state.
"""

from __future__ import annotations

import html
import re

import pytest

from games import play
from games.models import Game
from games.rules.firenze import rules
from tests.rules.scenario import (
    END_PHASE,
    build,
    choose,
    exchange,
    open_board,
    pay,
    set_board,
    set_buildings,
    set_row,
    set_store,
    set_towers,
    start_tower,
    to_phase,
)
from tests.rules.scenario import play as apply
from tests.web.helpers import (
    board_actions,
    game_page,
    offered_actions,
    signed_in,
    started_game,
)

pytestmark = pytest.mark.django_db


def store(game: Game, state: rules.State) -> None:
    """Make ``state`` the game's position (a page test needs no move log behind it)."""
    game.store_state(state)
    game.version += 1
    game.save()


def acting(game: Game):
    return game.seats.get(number=game.acting_seat).user


def text(page: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def button_of(page: str, action: dict) -> str:
    """The panel button's visible text for one action."""
    payload = html.escape(rules_payload(action))
    match = re.search(
        rf'<button type="submit" name="action" value="{re.escape(payload)}"[^>]*>(.*?)</button>',
        page,
        re.S,
    )
    assert match, action
    return text(match.group(1)).strip()


def rules_payload(action: dict) -> str:
    import json

    return json.dumps(action, separators=(",", ":"))


@pytest.fixture
def game(anna, ben):
    return started_game(anna, ben)


def test_it_says_what_the_next_brick_costs_on_every_build_button(game):
    seat = game.acting_seat
    state = to_phase(set_store(game.load_state(), seat, white=9, red=2), "build")
    state = apply(state, start_tower("white"), build(0), build(0))  # 3 bricks: cost 1
    store(game, state)

    page = game_page(signed_in(acting(game)), game)

    assert button_of(page, build(0)) == "W white tower: 3 → 4 4th brick this turn: cost 1 → 3"
    assert button_of(page, start_tower("red")) == "R New red tower 4th brick this turn: cost 1 → 3"
    assert button_of(page, END_PHASE) == "Done building pay 1 brick"
    table = text(re.search(r'<table class="cost-table".*?</table>', page, re.S).group(0))
    assert " ".join(table.split()) == "Bricks this turn 1 2 3 4 5 6 Cost 0 0 1 3 6 10"
    assert "3 bricks built so far: construction cost 1" in text(page)


def test_the_cost_table_and_buttons_count_a_workshop(game):
    seat = game.acting_seat
    state = set_buildings(set_store(game.load_state(), seat, white=9), seat, "Workshop")
    state = apply(to_phase(state, "build"), start_tower("white"), build(0), build(0))
    store(game, state)

    page = game_page(signed_in(acting(game)), game)

    assert button_of(page, build(0)).endswith("4th brick this turn: cost 0 → 2")
    table = text(re.search(r'<table class="cost-table".*?</table>', page, re.S).group(0))
    assert table.strip().endswith("Cost 0 0 0 2 5 9")


def test_the_first_bricks_say_they_are_free(game):
    seat = game.acting_seat
    state = to_phase(set_store(game.load_state(), seat, white=4), "build")
    store(game, state)

    page = game_page(signed_in(acting(game)), game)

    assert button_of(page, start_tower("white")).endswith("1st brick this turn: free")


def test_a_card_cost_shows_n_of_m_paid_and_marks_the_card_and_where_the_next_brick_goes(game):
    seat = game.acting_seat
    state = set_row(game.load_state(), "Fame", "Mason", "Workshop", "Scandal", "Bridge")
    state = apply(set_store(state, seat, white=3, red=1), choose(2), pay("white"))
    store(game, state)

    page = game_page(signed_in(acting(game)), game)

    payment = text(re.search(r'<div class="payment".*?</div>', page, re.S).group(0))
    assert "Pay for Workshop: one brick onto each card to its left." in payment
    assert "1 of 2 paid; the next brick goes onto Mason" in payment
    slots = re.findall(r'<li class="row-slot([^"]*)"', page)
    assert "target" in slots[2] and "receiving" in slots[1]
    assert "target" not in slots[0] + slots[1] + slots[3]
    assert button_of(page, pay("red")) == "R red onto Mason"


def test_an_exchange_says_its_price_and_progress_and_a_bridge_lowers_it(game):
    seat = game.acting_seat
    state = to_phase(set_store(game.load_state(), seat, white=5), "exchange")
    store(game, state)
    player = signed_in(acting(game))

    assert button_of(game_page(player, game), exchange(0)).endswith("1st card · pay 3, take 1")

    store(game, set_buildings(state, seat, "Bridge"))
    assert button_of(game_page(player, game), exchange(0)).endswith("1st card · pay 2, take 1")

    store(game, apply(state, exchange(1), pay("white")))
    page = game_page(player, game)
    assert "1 of 3 paid" in text(page)
    assert "target" in re.findall(r'<li class="row-slot([^"]*)"', page)[1]


def test_a_construction_cost_shows_its_progress(game):
    seat = game.acting_seat
    state = to_phase(set_store(game.load_state(), seat, white=9), "build")
    state = apply(state, start_tower("white"), build(0), build(0), build(0), END_PHASE)
    state = apply(state, pay("white"))
    store(game, state)

    page = text(game_page(signed_in(acting(game)), game))

    assert "Construction cost for 4 bricks this turn: 3 bricks to the pouch." in page
    assert "1 of 3 paid" in page


def test_the_fulfil_step_says_why_nothing_can_be_fulfilled(game, ben):
    seat = game.acting_seat
    state = set_towers(game.load_state(), seat, ("yellow", 2), ("green", 5), old=False)
    state = set_board(state, "green", 5, 1 - seat)
    state = to_phase(set_store(state, seat), "fulfil")
    store(game, state)
    other = game.seats.get(number=1 - seat).user.public_name

    page = text(game_page(signed_in(acting(game)), game))

    assert (
        "Nothing to fulfil: no tower of yours is exactly as high as an open commission of its "
        "colour — your yellow tower of 2: 2 is below the lowest commission (3); your green "
        f"tower of 5: green 5 is sealed by {other}." in page
    )


def test_nothing_is_explained_to_the_other_player(game):
    seat = game.acting_seat
    state = to_phase(set_towers(game.load_state(), seat, ("yellow", 2), old=False), "fulfil")
    store(game, state)
    watcher = game.seats.get(number=1 - seat).user

    assert "Nothing to fulfil" not in game_page(signed_in(watcher), game)


def test_the_board_offers_the_same_moves_as_the_panel_and_only_to_the_player_to_act(game):
    seat = game.acting_seat
    state = to_phase(set_store(game.load_state(), seat, white=3, red=2), "build")
    state = apply(set_towers(state, seat, ("red", 1), old=False), build(0))
    store(game, state)
    actor, watcher = signed_in(acting(game)), signed_in(game.seats.get(number=1 - seat).user)

    page = game_page(actor, game)

    on_board = board_actions(page)
    assert build(0) in on_board  # the tower on the player's site
    assert start_tower("white") in on_board  # a storehouse brick
    assert all(action in offered_actions(page) for action in on_board)
    assert board_actions(game_page(watcher, game)) == []


def test_the_board_offers_each_row_card_and_fulfilment(game):
    seat = game.acting_seat
    page = game_page(signed_in(acting(game)), game)
    cards = [a for a in board_actions(page) if a["type"] == "choose_card"]
    assert cards == [a for a in offered_actions(page) if a["type"] == "choose_card"]

    state = set_towers(open_board(game.load_state()), seat, ("green", 5), old=False)
    store(game, to_phase(state, "fulfil"))
    fulfil = {"type": "fulfil", "tower": 0, "level": 5}
    assert fulfil in board_actions(game_page(signed_in(acting(game)), game))


def test_the_last_turns_changes_are_highlighted_for_everyone(game, anna, ben):
    seat = game.acting_seat
    state = open_board(game.load_state(), level_tiles=())
    state = to_phase(set_towers(state, seat, ("green", 5), old=False), "fulfil")
    store(game, state)
    fulfil = {"type": "fulfil", "tower": 0, "level": 5}
    mover = acting(game)
    play.submit_move(game.pk, mover, fulfil, game.version)
    game.refresh_from_db()

    for viewer in (anna, ben):
        page = game_page(signed_in(viewer), game)
        changed = re.findall(r'<li class="storey[^"]*\bchanged\b[^"]*"\s+title="([^"]+)"', page)
        assert changed == [f"green 5: 4 PP, sealed by {mover.public_name} (last turn)"], changed
        assert re.search(r'class="score-change"[^>]*>\+4<', page)  # the points the turn brought

    # Still lit after the turn ends, until the next player moves.
    while rules.acting_seat(game.load_state()) == seat:
        end = next(
            a
            for a in rules.legal_actions(game.load_state())
            if a["type"] in ("end_turn", "end_phase", "discard_card", "pay_brick")
        )
        play.submit_move(game.pk, mover, end, game.version)
        game.refresh_from_db()
    page = game_page(signed_in(anna), game)
    assert "(last turn)" in page
    nxt = acting(game)
    first = rules.legal_actions(game.load_state())[0]
    play.submit_move(game.pk, nxt, first, game.version)
    game.refresh_from_db()
    assert "sealed by" not in " ".join(
        re.findall(
            r'<li class="storey[^"]*\bchanged\b[^"]*"\s+title="([^"]+)"',
            game_page(signed_in(anna), game),
        )
    )
