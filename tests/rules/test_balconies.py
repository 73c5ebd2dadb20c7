"""Balconies (rules.md §1 and §4): their own PP, and only in the order I, II, III, IV."""

from __future__ import annotations

import re

import pytest

from games.rules.firenze.rules import legal_actions, player_view, scores

from . import scenario
from .rulings import BALCONY_GROUPS, PRINTED_PP
from .scenario import (
    END_TURN,
    fulfil,
    log,
    play,
    rejects,
    set_towers,
    to_phase,
)

# rules.md §1: balcony tiles by group I..IV, (colour, level, PP), and the printed PP they replace.
NUMERALS = ("I", "II", "III", "IV")


# The balconies of most scenarios here (the rulebook's: I white 7, II red 6), III blue 6, IV
# purple 7.
def at_fulfil(*towers, level_tiles=(), **kwargs):
    """In these scenarios level tiles are gone unless given, so PP show the balcony alone."""
    return scenario.at_fulfil(*towers, level_tiles=level_tiles, **kwargs)


def fulfil_offers(state) -> list[tuple[int, int]]:
    return [(a["tower"], a["level"]) for a in legal_actions(state) if a["type"] == "fulfil"]


def seal_on(state, colour: str, level: int):
    board = player_view(state, None)["board"]["commissions"]
    return next(c["seal"] for c in board if c["color"] == colour and c["level"] == level)


def names_the_order(message: str, refused: str, first: str) -> bool:
    """The refusal names the balcony tried and the one that has to come first, in that order."""
    numerals = re.findall(r"\b(IV|III|II|I)\b", message)
    return "balcony" in message.lower() and numerals == [refused, first]


def next_balcony(state):
    return player_view(state, None)["board"]["balcony_next"]


@pytest.mark.parametrize(
    ("group", "tile"),
    [(g, tile) for g, tiles in enumerate(BALCONY_GROUPS) for tile in tiles],
    ids=lambda v: v if isinstance(v, int) else f"{v[0]}{v[1]}",
)
def test_a_balcony_scores_its_own_pp_instead_of_the_printed_pp(group, tile):
    colour, level, balcony_pp = tile
    others = [next(t for t in tiles if t[0] != colour) for tiles in BALCONY_GROUPS]
    balconies = tuple(tile if g == group else t for g, t in enumerate(others))
    state = at_fulfil((colour, level), balconies=balconies, fulfilled=group)
    assert balcony_pp != PRINTED_PP[colour][level - 3]

    after = play(state, fulfil(0, level))

    assert scores(after)[0] == scores(state)[0] + balcony_pp
    assert seal_on(after, colour, level) == 0
    assert log(after) == [
        f"Anna fulfils balcony {NUMERALS[group]} ({colour} {level}) for {balcony_pp} PP."
    ]


def test_the_board_shows_the_balcony_pp_on_the_covered_commission():
    state = at_fulfil()
    board = player_view(state, None)["board"]["commissions"]

    white_7 = next(c for c in board if c["color"] == "white" and c["level"] == 7)

    assert (white_7["balcony"], white_7["pp"]) == ("I", 7)


def test_only_the_balcony_with_the_lowest_open_numeral_may_be_fulfilled():
    state = at_fulfil(("red", 6), ("white", 7))

    assert fulfil_offers(state) == [(1, 7)]
    assert names_the_order(rejects(state, fulfil(0, 6)), "II", "I")


def test_fulfilling_balcony_one_opens_balcony_two_in_the_same_turn():
    state = at_fulfil(("white", 7), ("red", 6))
    assert next_balcony(state) == "I"

    state = play(state, fulfil(0, 7))
    assert next_balcony(state) == "II"
    assert fulfil_offers(state) == [(0, 6)]
    after = play(state, fulfil(0, 6))

    assert seal_on(after, "white", 7) == 0 and seal_on(after, "red", 6) == 0
    assert scores(after)[0] == 7 + 9
    assert next_balcony(after) == "III"


def test_a_chain_of_balconies_can_be_fulfilled_in_one_turn():
    state = at_fulfil(("white", 7), ("red", 6), ("blue", 6), ("purple", 7))

    after = play(state, fulfil(0, 7), fulfil(0, 6), fulfil(0, 6), fulfil(0, 7))

    assert scores(after)[0] == 7 + 9 + 11 + 14
    assert next_balcony(after) is None


def test_a_later_balcony_is_refused_with_a_message_naming_the_order():
    state = at_fulfil(("blue", 6))

    assert fulfil_offers(state) == []
    assert names_the_order(rejects(state, fulfil(0, 6)), "III", "I")


def test_after_balcony_one_the_third_still_waits_for_the_second():
    state = at_fulfil(("blue", 6), fulfilled=1)

    assert fulfil_offers(state) == []
    assert names_the_order(rejects(state, fulfil(0, 6)), "III", "II")


def test_balcony_two_opens_for_the_other_players_too():
    state = at_fulfil(("white", 7))
    state = play(state, fulfil(0, 7), END_TURN)
    state = set_towers(state, 1, ("red", 6), old=False)

    state = to_phase(state, "fulfil")
    after = play(state, fulfil(0, 6))

    assert seal_on(after, "red", 6) == 1
    assert scores(after)[1] == 9


def test_a_sealed_balcony_cannot_be_fulfilled_again():
    state = at_fulfil(("white", 7), fulfilled=1)

    assert fulfil_offers(state) == []
    assert "already sealed" in rejects(state, fulfil(0, 7))
