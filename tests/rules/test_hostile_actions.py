"""Whatever value arrives as an action (wrong types, nesting, odd Unicode), the engine either
applies it because it equals a legal action or refuses it with IllegalAction and a message for
the player: never TypeError or KeyError, and the state is left as it was."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules.firenze.rules import IllegalAction, apply_action, legal_actions, to_dict
from games.rules.firenze.rules.checks import ACTION_KEYS, ACTION_TYPES

from .playouts import playout

# A spread of positions: every phase and most pending decisions of a few mixed games.
POSITIONS = [
    state for seed in (0, 1, 2, 3) for i, (state, _) in enumerate(playout(seed)) if i % 7 == 0
]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.floats(allow_nan=True),
    st.text(max_size=12),
    st.sampled_from(["white", "red", "Mason", "Bridge", "²", "٣", "Ⅻ", "", "0"]),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)
KEYS = sorted({key for keys in ACTION_KEYS.values() for key in keys} - {"type"})
actions = st.one_of(
    values,
    st.builds(
        lambda kind, extra: {"type": kind, **extra},
        st.sampled_from([*ACTION_TYPES, "dance", ""]) | values,
        st.dictionaries(st.sampled_from([*KEYS, "extra"]), values, max_size=3),
    ),
)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(min_value=0, max_value=len(POSITIONS) - 1), action=actions)
def test_any_value_is_applied_as_a_legal_action_or_refused_with_a_message(index, action):
    state = POSITIONS[index]
    before = json.dumps(to_dict(state), sort_keys=True)
    if action in legal_actions(state):
        apply_action(state, action)
    else:
        with pytest.raises(IllegalAction, match=r"\S"):
            apply_action(state, action)
    assert json.dumps(to_dict(state), sort_keys=True) == before


def test_the_reported_crashes_are_refused_with_a_reason():
    state = next(s for s in POSITIONS if any(a["type"] == "pay_brick" for a in legal_actions(s)))
    for action, words in [
        ({"type": "pay_brick", "color": []}, "is not a brick colour"),
        ({"type": "play_card", "card": {}}, "no card called"),
        ({"type": "build", "color": {"a": 1}}, ""),
        ({"type": "discard_card", "card": [1]}, ""),
        ({"type": "end_turn", 3: 1}, ""),
    ]:
        with pytest.raises(IllegalAction, match=re.escape(words) or r"\S"):
            apply_action(state, action)
