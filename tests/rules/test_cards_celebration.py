"""Celebration cards (rules.md §4, §5, §6, §7 and the card texts): kept in the hand to the end."""

from __future__ import annotations

import json

from games.rules.firenze.rules import (
    State,
    acting_seat,
    is_over,
    legal_actions,
    player_view,
    scores,
    winners,
)
from tests.rules.scenario import (
    END_PHASE,
    END_TURN,
    bricks,
    choose,
    data,
    discard,
    edit,
    fulfil,
    game,
    hand,
    log,
    play,
    play_card,
    rejects,
    set_board,
    set_buildings,
    set_hand,
    set_row,
    set_towers,
    store,
    to_phase,
)

ANNA, BEN, CARLA = 0, 1, 2


def discard_pile(state: State) -> list[str]:
    return data(state)["discard"]


def discards(state: State) -> list[dict]:
    return [a for a in legal_actions(state) if a["type"] == "discard_card"]


def with_seals_left(state: State, seat: int, seals: int) -> State:
    def change(d: dict) -> None:
        d["players"][seat]["seals"] = seals

    return edit(state, change)


# In the hand until the end ------------------------------------------------------------------


def test_a_celebration_card_goes_to_the_hand_and_cannot_be_played():
    state = set_row(game(), "Fame", bricks_on=[bricks(red=1)])
    state = play(state, choose(0))

    assert hand(state, ANNA) == ["Fame"]
    assert store(state, ANNA) == {"white": 2, "red": 1}
    assert rejects(state, play_card("Fame")) == (
        "Fame is not a personnel card; only personnel cards are played from the hand."
    )
    state = to_phase(state, "fulfil")
    state = play(state, END_TURN)
    assert hand(state, ANNA) == ["Fame"]


def test_celebration_cards_score_only_at_the_end():
    state = set_hand(game(), ANNA, "Fame", "Disgrace", "Scandal", "Recognition")
    state = set_board(state, "white", 4, ANNA)  # fulfilled on earlier turns
    state = set_board(state, "yellow", 3, ANNA)
    state = set_board(state, "green", 4, None)
    state = with_seals_left(state, ANNA, 1)
    state = set_towers(state, ANNA, ("green", 4), old=False)
    state = to_phase(state, "fulfil", card="Mason")
    state = play(state, fulfil(0, 4))  # her last seal

    assert scores(state) == [3 + 5, 0]  # green 4 and the end-of-game tile; no cards yet
    state = play(state, END_TURN)
    assert not is_over(state)  # Ben has one more turn
    state = to_phase(state, "fulfil", card="Mason")
    state = play(state, END_TURN)

    assert is_over(state)
    lines = log(state)
    assert "Anna reveals Fame: +3 PP." in lines
    assert "Anna reveals Disgrace: -2 PP." in lines
    assert "Anna reveals Scandal: -3 PP." in lines
    assert "Anna reveals Recognition: +3 PP." in lines  # white 4, yellow 3, green 4
    majorities = 2 + 3 + 3  # white, yellow, green: her seals only
    assert scores(state)[ANNA] == 8 + majorities + 3 - 2 - 3 + 3
    assert winners(state) == [ANNA]


def test_recognition_counts_only_commissions_of_level_three_and_four():
    state = set_hand(game(), ANNA, "Recognition")
    state = set_board(state, "white", 3, ANNA)
    state = set_board(state, "white", 5, ANNA)
    state = set_board(state, "yellow", 6, ANNA)
    state = set_board(state, "blue", 3, BEN)
    state = set_board(state, "green", 4, None)
    state = with_seals_left(state, ANNA, 1)
    state = set_towers(state, ANNA, ("green", 4), old=False)
    state = to_phase(state, "fulfil", card="Mason")
    state = play(state, fulfil(0, 4), END_TURN)
    state = to_phase(state, "fulfil", card="Mason")
    state = play(state, END_TURN)

    assert "Anna reveals Recognition: +2 PP." in log(state)  # white 3 and green 4


def test_celebration_cards_cannot_be_discarded_at_the_card_limit():
    state = set_hand(game(), ANNA, "Fame", "Fame", "Scandal", "Disgrace", "Recognition")
    state = to_phase(state, "fulfil", card="Alchemist")  # 6 cards

    rejects(state, END_TURN)
    state = play(state, END_PHASE)
    assert discards(state) == [discard("Alchemist")]
    assert rejects(state, discard("Scandal")) == 'You cannot discard "Scandal" now.'
    state = play(state, discard("Alchemist"), END_TURN)

    assert sorted(hand(state, ANNA)) == ["Disgrace", "Fame", "Fame", "Recognition", "Scandal"]
    assert discard_pile(state)[-1] == "Alchemist"


def test_over_the_card_limit_every_personnel_and_building_goes_before_any_celebration():
    state = set_hand(game(), ANNA, "Fame", "Fame", "Scandal", "Disgrace", "Recognition")
    state = set_buildings(state, ANNA, "Workshop")
    state = to_phase(state, "fulfil", card="Mason")  # 7 cards

    state = play(state, END_PHASE, discard("Mason"))
    assert discards(state) == [discard("Workshop")]  # 6 cards: still too many
    rejects(state, END_TURN)
    state = play(state, discard("Workshop"), END_TURN)

    assert len(hand(state, ANNA)) == 5
    assert data(state)["players"][ANNA]["buildings"] == []


def test_a_hand_of_only_celebrations_may_exceed_the_card_limit():
    state = set_hand(game(), ANNA, "Fame", "Fame", "Scandal", "Disgrace", "Recognition")
    state = to_phase(state, "fulfil", card="Recognition")  # 6 celebrations

    state = play(state, END_TURN)

    assert len(hand(state, ANNA)) == 6
    assert acting_seat(state) == BEN


# Monument -----------------------------------------------------------------------------------


def test_monument_goes_to_the_owner_of_the_single_tallest_tower_even_off_turn():
    state = set_towers(game(), ANNA, ("white", 3))
    state = set_towers(state, BEN, ("red", 5), ("white", 1))
    state = set_row(state, "Monument", bricks_on=[bricks(blue=2)])

    state = play(state, choose(0))

    assert hand(state, BEN) == ["Monument"]
    assert hand(state, ANNA) == []
    assert store(state, ANNA) == {"white": 2, "blue": 2}  # the taker keeps the bricks
    assert "The Monument goes to Ben, who has the tallest tower." in log(state)


def test_monument_goes_to_the_taker_with_the_tallest_tower():
    state = game(players=3)
    state = set_towers(state, ANNA, ("white", 6))
    state = set_towers(state, BEN, ("red", 5))
    state = set_towers(state, CARLA, ("blue", 5))
    state = play(set_row(state, "Monument"), choose(0))

    assert hand(state, ANNA) == ["Monument"]


def test_monument_is_discarded_on_a_tie_for_the_tallest_tower():
    state = set_towers(game(), ANNA, ("red", 4), ("white", 2))
    state = set_towers(state, BEN, ("blue", 4))

    state = play(set_row(state, "Monument"), choose(0))

    assert hand(state, ANNA) == []
    assert hand(state, BEN) == []
    assert discard_pile(state)[-1] == "Monument"
    assert "Nobody has the single tallest tower: the Monument is discarded." in log(state)


def test_monument_is_discarded_when_nobody_has_a_tower():
    state = play(set_row(game(), "Monument"), choose(0))

    assert hand(state, ANNA) == []
    assert hand(state, BEN) == []
    assert discard_pile(state)[-1] == "Monument"


def test_monument_scores_three_for_its_holder_at_the_end():
    state = set_hand(game(), BEN, "Monument")
    state = set_board(state, "green", 4, None)
    state = with_seals_left(state, ANNA, 1)
    state = set_towers(state, ANNA, ("green", 4), old=False)
    state = to_phase(state, "fulfil", card="Mason")
    state = play(state, fulfil(0, 4), END_TURN)
    state = to_phase(state, "fulfil", card="Mason")
    before = scores(state)[BEN]
    state = play(state, END_TURN)

    assert "Ben reveals Monument: +3 PP." in log(state)
    assert scores(state)[BEN] == before + 3


# Hidden hands -------------------------------------------------------------------------------


def test_a_hand_is_hidden_from_the_other_seats_but_its_size_is_public():
    state = set_hand(game(), ANNA, "Scandal", "Scandal", "Fame")

    own = player_view(state, ANNA)["players"][ANNA]
    assert own["hand"] == ["Fame", "Scandal", "Scandal"]
    for viewer in (BEN, None):
        seen = player_view(state, viewer)["players"][ANNA]
        assert "hand" not in seen
        assert seen["hand_count"] == 3
    # both Scandals are in Anna's hand: nothing Ben may see can name them
    assert "Scandal" not in json.dumps(player_view(state, BEN))
    assert "Scandal" not in json.dumps(player_view(state, None))


def test_a_monument_given_off_turn_stays_hidden_from_the_taker():
    state = set_hand(game(), BEN, "Fame")
    state = set_towers(state, BEN, ("red", 5))
    state = play(set_row(state, "Monument"), choose(0))

    assert player_view(state, BEN)["players"][BEN]["hand"] == ["Fame", "Monument"]
    seen = player_view(state, ANNA)["players"][BEN]
    assert "hand" not in seen
    assert seen["hand_count"] == 2
