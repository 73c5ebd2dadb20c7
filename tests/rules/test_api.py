"""The engine's public API as the web app and bots use it: errors, undo, views, log lines."""

from __future__ import annotations

import pytest

from games.rules.firenze.rules import (
    IllegalAction,
    acting_seat,
    apply_action,
    can_undo,
    from_dict,
    legal_actions,
    log_lines,
    new_game,
    player_view,
    to_dict,
)

from .scenario import (
    END_PHASE,
    END_TURN,
    choose,
    game,
    log,
    pay,
    play,
    rejects,
    set_row,
    set_store,
    start_tower,
    to_phase,
)


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("end_turn", "must be an object"),
        ({}, "must be an object"),
        ({"type": 3}, "must be an object"),
        ({"type": "dance"}, 'no move called "dance"'),
        ({"type": "choose_card"}, "no card in that position"),
        ({"type": "choose_card", "slot": "0"}, "no card in that position"),
        ({"type": "choose_card", "slot": 9}, "no card in that position"),
        (
            {"type": "build", "color": "white"},
            "only build in the build phase; this is the choose phase",
        ),
        ({"type": "pay_brick", "color": "pink"}, '"pink" is not a brick colour'),
    ],
)
def test_malformed_or_misplaced_moves_are_refused_with_a_reason_and_change_nothing(bad, message):
    state = game(2)
    before = to_dict(state)
    text = rejects(state, bad)
    assert message in text
    assert to_dict(state) == before


def test_the_message_for_an_unaffordable_card_names_the_cost_and_what_you_have():
    state = set_store(game(2), 0, white=1)
    assert rejects(state, choose(2)) == "You need 2 bricks to take this card; you have 1."


def test_an_illegal_action_is_an_exception_the_caller_can_catch_as_value_error():
    with pytest.raises(ValueError, match=r"\S"):  # any message, as long as there is one
        apply_action(game(2), {"type": "end_turn"})
    assert issubclass(IllegalAction, ValueError)


def test_a_pending_payment_must_be_finished_before_anything_else():
    state = play(set_store(game(2), 0, white=2), choose(2))
    assert rejects(state, END_PHASE) == "First pay for the card you chose, one brick at a time."
    assert {a["type"] for a in legal_actions(state)} == {"pay_brick"}


def test_steps_can_be_undone_until_something_hidden_or_random_happens():
    state = set_store(game(2), 0, white=2)
    assert not can_undo(state)
    state = play(state, choose(2))
    assert can_undo(state)  # choosing reveals nothing yet
    state = play(state, pay("white"))
    assert can_undo(state)
    state = play(state, pay("white"))  # the card is taken and a new one turned up
    assert not can_undo(state)
    state = play(state, END_PHASE)
    assert can_undo(state)


def test_ending_the_turn_cannot_be_undone():
    state = to_phase(set_store(game(2), 0, white=2), "build")
    state = play(state, start_tower("white"), END_PHASE, END_TURN)
    assert acting_seat(state) == 1
    assert not can_undo(state)


def test_undo_by_replaying_the_log_without_the_last_step_restores_the_position():
    state = new_game(3, 7)
    moves = []
    while len(moves) < 40:
        action = legal_actions(state)[-1]
        moves.append(action)
        state = apply_action(state, action)
    replay = new_game(3, 7)
    previous = None
    for action in moves:
        previous, replay = replay, apply_action(replay, action)
    rebuilt = new_game(3, 7)
    for action in moves[:-1]:
        rebuilt = apply_action(rebuilt, action)
    assert rebuilt == previous
    assert replay == state


def test_each_step_bumps_the_version_so_stale_moves_can_be_detected():
    state = game(2)
    after = play(state, choose(0))
    assert after.step == state.step + 1


def test_log_lines_name_the_players_and_hide_nothing_private():
    state = set_row(set_store(game(2), 0, white=1), "Fame", "Princess")
    state = play(state, choose(1), pay("white"))
    lines = log(state)
    assert lines[0] == "Anna takes Princess (2nd card) with nothing, paying 1 white."
    assert any("comes into the row" in line for line in lines)
    assert log_lines(state)[0].startswith("Player 1 takes Princess")


def test_a_player_sees_their_own_hand_but_only_the_size_of_others():
    state = play(set_row(game(2), "Fame"), choose(0))
    mine = player_view(state, 0)
    theirs = player_view(state, 1)
    spectator = player_view(state, None)
    assert mine["players"][0]["hand"] == ["Fame"]
    assert "hand" not in theirs["players"][0]
    assert theirs["players"][0]["hand_count"] == 1
    assert all("hand" not in p for p in spectator["players"])
    assert "deck" not in mine and mine["deck_count"] == len(to_dict(state)["deck"])


def test_a_view_for_a_seat_that_does_not_exist_is_refused():
    with pytest.raises(ValueError, match="no seat 5"):
        player_view(game(2), 5)


def test_a_corrupt_stored_state_is_refused_clearly():
    with pytest.raises(ValueError, match="lacks"):
        from_dict({"v": 1})
    with pytest.raises(ValueError, match="must be a dict"):
        from_dict([])
